//! Why a REPL command failed, as values.
//!
//! In: what went wrong in a command, a transcript or opening a game. Out:
//! one line of text per error ([`CommandError::describe`] prints engine
//! errors with the game's names). Holds: a failed command changes nothing
//! (except `auto`, see [`CommandError::Auto`]).

use super::transcript::TranscriptError;
use crate::engine::{EngineError, Game};
use crate::front::engine_error;
use crate::front::joint::JointError;
use crate::front::parse::InputError;
use std::path::PathBuf;

/// Why a command failed.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Joint(#[from] JointError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Transcript(#[from] TranscriptError),
    /// `xyzzy`: neither a command nor a move.
    #[error("unknown command `{0}`; type `help` for the commands")]
    Unknown(String),
    /// `save` without its file name.
    #[error("`{command}` needs {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    /// `undo x`.
    #[error("`{command}` takes a number of steps, not `{given}`")]
    NotSteps {
        command: &'static str,
        given: String,
    },
    /// `moves` in a terminal state.
    #[error("the game is over: nobody has a move (`undo` or `restart`)")]
    NoMoves,
    /// `auto` in a terminal state.
    #[error("the game is over: nothing to play (`undo` or `restart`)")]
    NothingToPlay,
    /// `roll` in a game without nature.
    #[error("this game has no chance role `random`")]
    NoChance,
    #[error("nothing to undo: this is the start")]
    NothingToUndo,
    #[error("cannot undo {asked} steps: only {made} made")]
    TooManyUndos { asked: usize, made: usize },
    #[error("nothing to redo")]
    NothingToRedo,
    #[error("cannot redo {asked} steps: only {undone} undone")]
    TooManyRedos { asked: usize, undone: usize },
    /// `set` with a fact the game knows but no state holds.
    #[error("`{0}` is not a fact of this game")]
    NotAFact(String),
    /// The transcript could not be written.
    #[error("cannot save {}: {message}", path.display())]
    Save { path: PathBuf, message: String },
    /// `hint 0`, `agent x smart`, `agent z random`: the message says why.
    #[error("{0}")]
    Agent(String),
    /// `auto` stopped by the game misbehaving; `played` lists the steps it
    /// made before (they stay made).
    #[error("{played}{cause}")]
    Auto {
        played: String,
        cause: Box<CommandError>,
    },
}

impl CommandError {
    /// The error in words, engine errors with the game's names.
    pub fn describe(&self, game: &Game) -> String {
        match self {
            CommandError::Engine(e) | CommandError::Joint(JointError::Engine(e)) => {
                engine_error(game, e)
            }
            CommandError::Auto { played, cause } => format!("{played}{}", cause.describe(game)),
            other => other.to_string(),
        }
    }
}

/// Why a game could not be opened.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// The file cannot be read: missing, a directory, no permission.
    #[error("{0}")]
    Unreadable(String),
    /// The game file is invalid; its diagnostics, rendered without colour.
    #[error("{0}")]
    Invalid(String),
}
