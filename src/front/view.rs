//! Text about a position: whose turn it is, the numbered legal moves, chance
//! outcomes with their probabilities, joint moves and goals. Shared by the
//! REPL and `tabula play`.
//!
//! In: a [`Machine`] with a state loaded. Out: lines of text, each ending
//! with a line break.

use super::parse::count_of;
use crate::engine::{Game, Machine};

/// A joint move as `ROLE=MOVE ...`, every role (nature too), in role order:
/// the form `play` reads back.
pub fn joint(game: &Game, joint: &[u32]) -> String {
    joint
        .iter()
        .enumerate()
        .map(|(r, &m)| format!("{}={}", game.role_name(r), game.show_move(r, m)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The status after a step: game over with goals, or who is to move and
/// their numbered choices.
pub fn status(m: &mut Machine, step: usize) -> String {
    let game = m.game();
    if m.is_terminal() {
        return format!("step {step}: game over; {}", goals(m));
    }
    if let Err(e) = m.check_playable() {
        return format!("step {step}: error: {}\n", super::engine_error(game, &e));
    }
    let chance = game.random_role();
    let choosing = super::choosing(m);
    let throws = chance.filter(|&r| m.legal(r).len() > 1);
    let mut who: Vec<String> = Vec::new();
    if !choosing.is_empty() {
        let names: Vec<String> = choosing.iter().map(|&r| game.role_name(r)).collect();
        who.push(format!("{} to move", names.join(" and ")));
    }
    if let Some(r) = throws {
        who.push(format!("{} throws", game.role_name(r)));
    }
    let waiting: Vec<String> = (0..game.role_count())
        .filter(|&r| Some(r) != chance && m.legal(r).len() == 1)
        .map(|r| {
            format!(
                "{}: {}",
                game.role_name(r),
                game.show_move(r, m.legal(r)[0])
            )
        })
        .collect();
    let mut out = if who.is_empty() {
        format!(
            "step {step}: one joint move: {}; `play` makes it\n",
            joint(
                game,
                &(0..game.role_count())
                    .map(|r| m.legal(r)[0])
                    .collect::<Vec<_>>()
            )
        )
    } else if waiting.is_empty() {
        format!("step {step}: {}\n", who.join(", "))
    } else {
        format!("step {step}: {} ({})\n", who.join(", "), waiting.join(", "))
    };
    for r in choosing {
        out.push_str(&role_moves(m, r));
    }
    if let Some(r) = throws {
        out.push_str(&role_moves(m, r));
    }
    out
}

/// Every role's legal moves, numbered (single moves and nature included).
pub fn all_moves(m: &Machine) -> String {
    (0..m.game().role_count())
        .map(|r| role_moves(m, r))
        .collect()
}

/// One role's legal moves, numbered, in columns; chance outcomes carry their
/// probability.
pub fn role_moves(m: &Machine, role: usize) -> String {
    let game = m.game();
    let legal = m.legal(role);
    let weights = if Some(role) == game.random_role() {
        m.chance().ok()
    } else {
        None
    };
    let total: u128 = weights.iter().flatten().map(|w| u128::from(w.1)).sum();
    let items: Vec<String> = legal
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let w = weights
                .as_ref()
                .and_then(|ws| ws.iter().find(|w| w.0 == mv))
                .map(|w| format!(" {}", fraction(u128::from(w.1), total)))
                .unwrap_or_default();
            format!("{}. {}{w}", i + 1, game.show_move(role, mv))
        })
        .collect();
    columns(&format!("{}: ", game.role_name(role)), &items)
}

/// `w/total` reduced, such as `1/6`; `1` for certainty.
pub fn fraction(w: u128, total: u128) -> String {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let g = gcd(w, total).max(1);
    if w == total {
        "1".to_string()
    } else {
        format!("{}/{}", w / g, total / g)
    }
}

/// Items in columns after a prefix, wrapped under the prefix.
fn columns(prefix: &str, items: &[String]) -> String {
    let indent = prefix.chars().count();
    let w = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 3;
    let per_line = ((crate::render::WIDTH.saturating_sub(indent)) / w).max(1);
    let mut out = String::new();
    for (i, chunk) in items.chunks(per_line).enumerate() {
        if i == 0 {
            out.push_str(prefix);
        } else {
            out.push_str(&" ".repeat(indent));
        }
        let line: String = chunk.iter().map(|s| format!("{s:<w$}")).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if items.is_empty() {
        out.push_str(prefix.trim_end());
        out.push_str(" no legal move\n");
    }
    out
}

/// `goals: x 100, o 0` for a terminal state (errors of the game named);
/// elsewhere the goal values the rules give in this state, if any.
pub fn goals(m: &mut Machine) -> String {
    let game = m.game();
    if m.is_terminal() {
        return match m.goals() {
            Ok(values) => {
                let shown: Vec<String> = values
                    .iter()
                    .enumerate()
                    .filter_map(|(r, v)| v.map(|v| format!("{} {v}", game.role_name(r))))
                    .collect();
                format!("goals: {}\n", shown.join(", "))
            }
            Err(e) => format!("goals: error: {}\n", super::engine_error(game, &e)),
        };
    }
    let per_role = match m.goal_values() {
        Ok(values) => values,
        Err(e) => {
            return format!(
                "goals (not over yet): error: {}\n",
                super::engine_error(game, &e)
            );
        }
    };
    let shown: Vec<String> = per_role
        .iter()
        .enumerate()
        .filter(|(r, v)| Some(*r) != game.random_role() || !v.is_empty())
        .map(|(r, v)| {
            let v = if v.is_empty() {
                "none".to_string()
            } else {
                let shown: Vec<String> = v.iter().map(i64::to_string).collect();
                shown.join(" or ")
            };
            format!("{} {v}", game.role_name(r))
        })
        .collect();
    format!("goals (not over yet): {}\n", shown.join(", "))
}

/// "3 steps" style counts.
pub fn steps(n: usize) -> String {
    count_of(n, "step")
}
