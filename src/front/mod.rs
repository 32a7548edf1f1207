//! The text front end shared by the REPL and `tabula play`: reading what a
//! person types ([`parse`]), building a joint move from it ([`joint`]), text
//! about a position ([`view`]), the agents that pick moves, and the printing
//! of the engine's runtime errors with the game's names.
//!
//! In: a [`Game`] or a [`Machine`] with a state loaded, and text. Out: move
//! indices, states and lines of text. Holds: nothing here prints or reads a
//! terminal; the same seed gives the same choices.

pub mod joint;
pub mod parse;
pub mod view;

use crate::engine::{EngineError, Game, Machine, joined};
use rand::Rng;

/// How a role picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// Uniformly at random among the legal moves (nature: by weight).
    Random,
    /// Its first legal move.
    First,
    /// Moves typed by a person.
    Human,
}

impl Agent {
    pub const ALL: [Agent; 3] = [Agent::Random, Agent::First, Agent::Human];

    pub fn name(self) -> &'static str {
        match self {
            Agent::Random => "random",
            Agent::First => "first",
            Agent::Human => "human",
        }
    }

    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The move of a machine agent (`Human` has none); nature always throws
    /// by weight, and a single legal move is played without a draw.
    pub fn pick<R: Rng>(
        self,
        m: &Machine,
        role: usize,
        rng: &mut R,
    ) -> Option<Result<u32, EngineError>> {
        let legal = m.legal(role);
        let nature = Some(role) == m.game().random_role();
        match self {
            _ if legal.len() == 1 => Some(Ok(legal[0])),
            Agent::First if !nature => Some(Ok(legal[0])),
            Agent::Human if !nature => None,
            _ => Some(m.random_move(role, rng)),
        }
    }
}

/// A random joint move for the loaded state: every role in role order, by
/// [`Machine::random_move`]; an error if some role has no legal move.
pub fn random_joint<R: Rng>(m: &Machine, rng: &mut R) -> Result<Vec<u32>, EngineError> {
    m.check_playable()?;
    (0..m.game().role_count())
        .map(|r| m.random_move(r, rng))
        .collect()
}

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
    }
}
