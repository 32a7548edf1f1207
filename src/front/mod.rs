//! The text front end shared by the REPL and `tabula play`: reading what a
//! person types ([`parse`]), building a joint move from it ([`joint`]), text
//! about a position ([`view`]), and the printing
//! of the engine's runtime errors with the game's names.
//!
//! In: a [`Game`] or a [`Machine`] with a state loaded, and text. Out: move
//! indices, states and lines of text. Holds: nothing here prints or reads a
//! terminal; the same seed gives the same choices.

pub mod joint;
pub mod parse;
pub mod view;

use crate::engine::{EngineError, Game, Machine, joined};

pub use crate::agent::Agent;

/// The roles that choose in the loaded state: players with more than one
/// legal move (the chance role is not among them).
pub fn choosing(m: &Machine) -> Vec<usize> {
    let chance = m.game().random_role();
    (0..m.game().role_count())
        .filter(|&r| Some(r) != chance && m.legal(r).len() > 1)
        .collect()
}

/// An engine error in words, with the game's names for roles, moves and the
/// state's facts.
pub fn engine_error(game: &Game, error: &EngineError) -> String {
    let role = |r: usize| game.role_name(r);
    match error {
        EngineError::NoLegalMove { role: r, state } => format!(
            "role {} has no legal move in a non-terminal state\n  state: {}",
            role(*r),
            game.show_state(state)
        ),
        EngineError::NoGoal { role: r, state } => format!(
            "role {} has no goal in a terminal state\n  state: {}",
            role(*r),
            game.show_state(state)
        ),
        EngineError::SeveralGoals {
            role: r,
            values,
            state,
        } => format!(
            "role {} has several goals ({}) in one state\n  state: {}",
            role(*r),
            joined(values),
            game.show_state(state)
        ),
        EngineError::GoalRange {
            role: r,
            value,
            state,
        } => format!(
            "goal {value} of role {} is outside 0..100\n  state: {}",
            role(*r),
            game.show_state(state)
        ),
        EngineError::BadWeight { mv, weights, state } => format!(
            "the weight of chance move {} is {}, not a single positive integer\n  state: {}",
            game.show_move(game.random_role().unwrap_or(0), *mv),
            joined(weights),
            game.show_state(state)
        ),
        EngineError::Evaluation { message, state } => {
            format!("{message}\n  state: {}", game.show_state(state))
        }
    }
}
