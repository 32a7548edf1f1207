//! The REPL's commands in one table: names, aliases, what `help` says, what
//! completion offers after them, and the method that runs them. `execute`,
//! `help` and tab completion all read this table.

use super::{CommandError, Session};
use crate::render::{self, Style};

/// What may follow a command, for tab completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Nothing,
    /// A command name (`help play`).
    Command,
    /// Moves of the roles that choose, or `ROLE=MOVE`.
    Moves,
    /// Nature's outcomes.
    Outcomes,
    File,
}

/// One REPL command.
pub struct Command {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// The usage line `help` shows.
    pub usage: &'static str,
    /// What it does; the part before the first `;` is the one-line summary.
    pub about: &'static str,
    pub operand: Operand,
    /// Runs the command on its arguments (`quit` is obeyed by the front end).
    pub run: fn(&mut Session, &str) -> Result<String, CommandError>,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "help",
        aliases: &["h"],
        usage: "help [COMMAND]  (h)",
        about: "this list, or one command",
        operand: Operand::Command,
        run: |_, args| Ok(help(args)),
    },
    Command {
        name: "moves",
        aliases: &["m"],
        usage: "moves  (m)",
        about: "every role's legal moves, numbered; chance outcomes with probabilities",
        operand: Operand::Nothing,
        run: |s, _| s.moves(),
    },
    Command {
        name: "play",
        aliases: &["p"],
        usage: "play N | play MOVE | play ROLE=MOVE ...  (p)",
        about: "make a move, by its number or its text in the game's syntax; roles with \
                one legal move play it; with several roles to move give one move each, \
                in role order or as ROLE=MOVE; nature throws unless given random=OUTCOME",
        operand: Operand::Moves,
        run: Session::play,
    },
    Command {
        name: "roll",
        aliases: &["r"],
        usage: "roll [OUTCOME | N]  (r)",
        about: "nature throws (with the seeded generator), or the outcome you name",
        operand: Operand::Outcomes,
        run: Session::roll,
    },
    Command {
        name: "auto",
        aliases: &["a"],
        usage: "auto [N]  (a)",
        about: "moves by each role's agent (random unless set by `agent`) for N steps, \
                or to the end of the game",
        operand: Operand::Nothing,
        run: Session::auto,
    },
    Command {
        name: "hint",
        aliases: &[],
        usage: "hint [ITERATIONS|SECONDSs]",
        about: "Monte Carlo tree search from here (1000 iterations unless given, or \
                seconds: `hint 2s`); for each role to move, every legal move with its \
                visits and mean goal ± its 95% confidence interval, best first, and \
                whether the best two are within each other's interval; changes nothing",
        operand: Operand::Nothing,
        run: Session::hint,
    },
    Command {
        name: "agent",
        aliases: &[],
        usage: "agent [ROLE AGENT]",
        about: "who `auto` plays a role with: random, first, mcts, mcts:ITERATIONS or \
                mcts:SECONDSs; alone, the agent of every player",
        operand: Operand::Nothing,
        run: Session::agent,
    },
    Command {
        name: "undo",
        aliases: &["u"],
        usage: "undo [N]  (u)",
        about: "take back the last step (or N steps)",
        operand: Operand::Nothing,
        run: Session::undo,
    },
    Command {
        name: "redo",
        aliases: &[],
        usage: "redo [N]",
        about: "make an undone step again",
        operand: Operand::Nothing,
        run: Session::redo,
    },
    Command {
        name: "history",
        aliases: &["hist"],
        usage: "history  (hist)",
        about: "the steps so far, as commands that make them again",
        operand: Operand::Nothing,
        run: |s, _| Ok(s.history()),
    },
    Command {
        name: "board",
        aliases: &["b", "view"],
        usage: "board  (b)",
        about: "show the position again",
        operand: Operand::Nothing,
        run: |s, _| Ok(s.view()),
    },
    Command {
        name: "state",
        aliases: &["s"],
        usage: "state  (s)",
        about: "the true facts, one per line",
        operand: Operand::Nothing,
        run: |s, _| Ok(render::facts(&s.game, s.state(), Style::default())),
    },
    Command {
        name: "query",
        aliases: &["?", "?-"],
        usage: "query ATOM  (?)",
        about: "every true instance of a relation in this state; variables allowed, \
                e.g. `query legal(R, M)` or, in KIF, `query (legal ?r ?m)`",
        operand: Operand::Nothing,
        run: |s, args| s.query(args),
    },
    Command {
        name: "set",
        aliases: &[],
        usage: "set FACT ...",
        about: "go to the position where exactly these facts are true (undoable)",
        operand: Operand::Nothing,
        run: Session::set,
    },
    Command {
        name: "load-state",
        aliases: &[],
        usage: "load-state FILE",
        about: "the same with the facts read from a file (such as `state` output)",
        operand: Operand::File,
        run: Session::load_state,
    },
    Command {
        name: "goals",
        aliases: &["g"],
        usage: "goals  (g)",
        about: "every role's goal value in this state",
        operand: Operand::Nothing,
        run: |s, _| Ok(s.goals()),
    },
    Command {
        name: "restart",
        aliases: &[],
        usage: "restart",
        about: "back to the initial state, history cleared, generator reseeded",
        operand: Operand::Nothing,
        run: |s, _| Ok(s.restart()),
    },
    Command {
        name: "save",
        aliases: &[],
        usage: "save FILE",
        about: "write a transcript: game file, parameters, seed and every step",
        operand: Operand::File,
        run: |s, args| s.save(args),
    },
    Command {
        name: "load",
        aliases: &[],
        usage: "load FILE",
        about: "open a transcript's game and replay its steps",
        operand: Operand::File,
        run: Session::load,
    },
    Command {
        name: "quit",
        aliases: &["q", "exit"],
        usage: "quit  (q, exit, Ctrl-D)",
        about: "leave",
        operand: Operand::Nothing,
        run: |_, _| Ok(String::new()),
    },
];

/// The command a word names, by its name or an alias.
pub fn find(word: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}

/// The full name of a command or alias.
pub fn canonical(word: &str) -> Option<&'static str> {
    find(word).map(|c| c.name)
}

/// The `help` text, or one command's.
pub fn help(topic: &str) -> String {
    let topic = topic.trim();
    if topic.is_empty() {
        let mut out = String::from("commands (a bare number or move also plays it):\n");
        for c in COMMANDS {
            let short = c.about.split(';').next().unwrap_or(c.about);
            out.push_str(&format!("  {:<44} {short}\n", c.usage));
        }
        return out;
    }
    match find(topic) {
        Some(c) => format!("{}\n  {}\n", c.usage, c.about),
        None => format!("no command `{topic}`; type `help` for the list\n"),
    }
}
