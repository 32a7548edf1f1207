//! Exhaustive counting of the game tree, level by level over distinct states.
//!
//! In: a game and a depth. Out: for every depth d = 0..=D the number of
//! leaves (joint-move sequences of length d, chance outcomes counted as
//! branches, terminal states not expanded) and of distinct states among them.
//! Holds: each level is a map from state to multiplicity, so transpositions
//! are expanded once. Counts are exact: one that would pass `u128::MAX`
//! stops the count with [`PerftError::TooManyLeaves`] instead of wrapping.

use super::{EngineError, Game, State};
use rustc_hash::FxHashMap;

/// Why a count stopped.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum PerftError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// `roles x. init c(0). legal(x, a). legal(x, b). next c(0) :- true c(0).`
    /// at depth 128: 2^128 leaves.
    #[error(
        "depth {depth} has more than {} leaves, the most tabula counts exactly",
        u128::MAX
    )]
    TooManyLeaves { depth: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub depth: u32,
    pub leaves: u128,
    pub states: u64,
}

/// Counts to `depth`, calling `report` as each level is complete.
pub fn perft(
    game: &Game,
    depth: u32,
    mut report: impl FnMut(Level),
) -> Result<Vec<Level>, PerftError> {
    let mut m = game.machine();
    let mut level: FxHashMap<State, u128> = FxHashMap::default();
    level.insert(game.initial(), 1);
    let mut out = Vec::new();
    let roles = game.role_count();
    let mut joint = vec![0u32; roles];
    let mut idx = vec![0usize; roles];
    for d in 0..=depth {
        let leaves = (level.values())
            .try_fold(0u128, |sum, &mult| sum.checked_add(mult))
            .ok_or(PerftError::TooManyLeaves { depth: d })?;
        let l = Level {
            depth: d,
            leaves,
            states: level.len() as u64,
        };
        report(l);
        out.push(l);
        if d == depth {
            break;
        }
        let mut next: FxHashMap<State, u128> = FxHashMap::default();
        let mut scratch = game.initial();
        for (state, mult) in &level {
            m.set_state(state);
            if m.is_terminal() {
                continue;
            }
            m.check_playable()?;
            idx.iter_mut().for_each(|i| *i = 0);
            'joint: loop {
                for r in 0..roles {
                    joint[r] = m.legal(r)[idx[r]];
                }
                m.next_into(&joint, &mut scratch)?;
                match next.get_mut(&scratch) {
                    Some(c) => {
                        *c = c
                            .checked_add(*mult)
                            .ok_or(PerftError::TooManyLeaves { depth: d + 1 })?
                    }
                    None => {
                        next.insert(scratch.clone(), *mult);
                    }
                }
                // Advance the odometer over the roles' legal moves.
                for r in (0..roles).rev() {
                    idx[r] += 1;
                    if idx[r] < m.legal(r).len() {
                        continue 'joint;
                    }
                    idx[r] = 0;
                }
                break;
            }
        }
        level = next;
    }
    Ok(out)
}
