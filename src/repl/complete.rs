//! Tab completion: what may come next on a command line.
//!
//! In: a snapshot of a session (its legal moves and roles). Out: for a line
//! and a cursor position, where the word being completed starts and its
//! candidates, or a request for file-name completion. Plain data, so a line
//! editor can hold it while the session is busy elsewhere.

use super::Session;
use super::commands::{COMMANDS, Operand, find};
use crate::front::choosing;

/// What to complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Replace the text from this byte offset to the cursor by a candidate.
    Words(usize, Vec<String>),
    /// A file name (after `save`, `load`, `load-state`).
    File,
}

/// The legal moves of the current state, per role.
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// (role, its legal moves shown, is it nature, does it choose).
    pub roles: Vec<(String, Vec<String>, bool, bool)>,
}

impl Words {
    pub fn of(session: &Session) -> Words {
        let game = session.game();
        let m = {
            let mut m = game.machine();
            m.set_state(session.state());
            m
        };
        if m.is_terminal() {
            return Words::default();
        }
        let choosing = choosing(&m);
        let roles = (0..game.role_count())
            .map(|r| {
                let moves = m.legal(r).iter().map(|&mv| game.show_move(r, mv)).collect();
                let chance = game.random_role() == Some(r);
                let chooses = choosing.contains(&r) || (chance && m.legal(r).len() > 1);
                (game.role_name(r), moves, chance, chooses)
            })
            .collect();
        Words { roles }
    }

    pub fn complete(&self, line: &str, pos: usize) -> Completion {
        let pos = pos.min(line.len());
        let before = &line[..pos];
        let Some(cmd_end) = before.find(char::is_whitespace) else {
            let mut c = command_names(before);
            if !before.is_empty() {
                c.extend(self.moves(before, false));
            }
            return Completion::Words(0, c);
        };
        let cmd = &before[..cmd_end];
        let start = item_start(before, cmd_end);
        let frag = &before[start..];
        let words = match find(cmd).map_or(Operand::Nothing, |c| c.operand) {
            Operand::File => return Completion::File,
            Operand::Command => command_names(frag),
            Operand::Moves => self.moves(frag, true),
            Operand::Outcomes => self
                .roles
                .iter()
                .filter(|r| r.2)
                .flat_map(|r| r.1.iter())
                .filter(|m| m.starts_with(frag))
                .cloned()
                .collect(),
            Operand::Nothing => Vec::new(),
        };
        Completion::Words(start, words)
    }

    /// Moves of the roles that choose starting with `frag`; with `roles`,
    /// also `ROLE=` and `ROLE=MOVE` for every role.
    fn moves(&self, frag: &str, roles: bool) -> Vec<String> {
        if let Some((role, rest)) = frag.split_once('=') {
            return self
                .roles
                .iter()
                .filter(|r| r.0 == role)
                .flat_map(|r| r.1.iter())
                .filter(|m| m.starts_with(rest))
                .map(|m| format!("{role}={m}"))
                .collect();
        }
        let mut out: Vec<String> = Vec::new();
        for (_, moves, _, chooses) in &self.roles {
            if *chooses {
                for m in moves.iter().filter(|m| m.starts_with(frag)) {
                    if !out.contains(m) {
                        out.push(m.clone());
                    }
                }
            }
        }
        if roles {
            for (name, ..) in &self.roles {
                let w = format!("{name}=");
                if w.starts_with(frag) && !frag.is_empty() {
                    out.push(w);
                }
            }
        }
        out
    }
}

/// The command names starting with `prefix`, in table order.
fn command_names(prefix: &str) -> Vec<String> {
    COMMANDS
        .iter()
        .filter(|c| c.name.starts_with(prefix))
        .map(|c| c.name.to_string())
        .collect()
}

/// Where the item under the cursor starts: after the last whitespace outside
/// brackets (moves such as `(mark 1 1)` hold spaces).
fn item_start(before: &str, from: usize) -> usize {
    let mut depth = 0usize;
    let mut start = from;
    for (i, c) in before[from..].char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            c if depth == 0 && c.is_whitespace() => start = from + i + c.len_utf8(),
            _ => {}
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words {
            roles: vec![
                (
                    "a".into(),
                    vec!["(mark 1 1)".into(), "(mark 1 2)".into()],
                    false,
                    true,
                ),
                ("b".into(), vec!["noop".into()], false, false),
            ],
        }
    }

    #[test]
    fn commands_at_the_start() {
        assert_eq!(
            words().complete("his", 3),
            Completion::Words(0, vec!["history".to_string()])
        );
    }

    #[test]
    fn moves_with_spaces_after_play() {
        let line = "play (mark 1";
        assert_eq!(
            words().complete(line, line.len()),
            Completion::Words(5, vec!["(mark 1 1)".into(), "(mark 1 2)".into()])
        );
        let line = "p b=n";
        assert_eq!(
            words().complete(line, line.len()),
            Completion::Words(2, vec!["b=noop".into()])
        );
    }

    #[test]
    fn files_after_save() {
        assert_eq!(words().complete("save ga", 7), Completion::File);
    }
}
