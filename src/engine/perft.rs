//! Exhaustive counting of the game tree, level by level over distinct states.
//!
//! In: a game and a depth. Out: for every depth d = 0..=D the number of
//! leaves (joint-move sequences of length d, chance outcomes counted as
//! branches, terminal states not expanded) and of distinct states among them.
//! Holds: each level is a map from state to multiplicity, so transpositions
//! are expanded once. Counts are exact: one that would pass `u128::MAX`
//! stops the count with [`PerftError::TooManyLeaves`] instead of wrapping.
//! A count may start on the rule evaluator and go on, between two levels,
//! on a compiled game of the same program ([`perft_switching`]): the
//! level's states are translated, so the counts are the same.

use super::{EngineError, EngineKind, Game, Machine, State};
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
pub fn perft(game: &Game, depth: u32, report: impl FnMut(Level)) -> Result<Vec<Level>, PerftError> {
    perft_switching(game, depth, |_| None, &mut None, report)
}

/// The rule evaluator's work before a level is expanded, in candidate
/// facts tried ([`super::Machine::rule_work`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ahead {
    /// Tried so far, the game's loading left out.
    pub spent: u64,
    /// Predicted for the level ahead: its states at the last level's cost
    /// per state.
    pub predicted: u64,
}

/// Counts to `depth` as [`perft`] does, starting on `first`; while that
/// runs on the rule evaluator, `switch` is asked before each level past
/// the initial state's is expanded (and, with no limit on the work, when
/// the rule evaluator stops with an error) whether to go on with another
/// game of the same program,
/// whose states the level's are translated to ([`Game::translation_to`]).
/// Once on another game, kept in `second` (where an error's moves and
/// states are to be read), it counts there to the end.
pub fn perft_switching(
    first: &Game,
    depth: u32,
    mut switch: impl FnMut(Ahead) -> Option<Game>,
    second: &mut Option<Game>,
    mut report: impl FnMut(Level),
) -> Result<Vec<Level>, PerftError> {
    let mut count = Count {
        level: FxHashMap::from_iter([(first.initial(), 1)]),
        out: Vec::new(),
    };
    count.close(0, &mut report)?;
    // The work done when the last level was about to be expanded, and its
    // states: at first, none and the initial state (whose work includes
    // the static relations' tables, made once: more than a state costs).
    let mut last = (0, 1);
    let mut ask = |m: &Machine, states: usize| {
        let spent = m.rule_work()?;
        let (before, expanded) = std::mem::replace(&mut last, (spent, states as u64));
        // A level of no states (every state before it terminal) costs none.
        let per_state = (spent - before).checked_div(expanded).unwrap_or(0);
        let predicted = per_state.saturating_mul(states as u64);
        switch(Ahead { spent, predicted })
    };
    let other = match count.expand(first, depth, &mut report, &mut ask) {
        Ok(Some(other)) => other,
        Ok(None) => return Ok(count.out),
        // The rule evaluator stopped (a limit of its own, or the game's
        // fault): whatever the work, another game goes on with the level,
        // or gives the error.
        Err(PerftError::Engine(e)) if first.engine() == EngineKind::Rules => {
            let any = Ahead {
                spent: u64::MAX,
                predicted: u64::MAX,
            };
            switch(any).ok_or(e)?
        }
        Err(e) => return Err(e),
    };
    let translation = first.translation_to(&other);
    let translated: Option<FxHashMap<State, u128>> = (count.level.iter())
        .map(|(state, &mult)| Some((translation.state(state)?, mult)))
        .collect();
    // A state the other game cannot hold (never, for a grounding of the
    // same program) keeps the count where it was.
    let Some(level) = translated else {
        count.expand(first, depth, &mut report, &mut |_, _| None)?;
        return Ok(count.out);
    };
    count.level = level;
    let other = second.insert(other);
    count.expand(other, depth, &mut report, &mut |_, _| None)?;
    Ok(count.out)
}

/// A count in progress: the deepest level made so far, state by state
/// with its multiplicity, and the levels reported.
struct Count {
    level: FxHashMap<State, u128>,
    out: Vec<Level>,
}

impl Count {
    /// Reports the level just made, at `depth`.
    fn close(&mut self, depth: u32, report: &mut impl FnMut(Level)) -> Result<(), PerftError> {
        let leaves = (self.level.values())
            .try_fold(0u128, |sum, &mult| sum.checked_add(mult))
            .ok_or(PerftError::TooManyLeaves { depth })?;
        let l = Level {
            depth,
            leaves,
            states: self.level.len() as u64,
        };
        report(l);
        self.out.push(l);
        Ok(())
    }

    /// Expands levels on `game` up to `depth`, unless `before`, asked
    /// before each level past the first with the level's number of states,
    /// gives a game to go on with: then it is returned, the level not
    /// expanded.
    fn expand<'g>(
        &mut self,
        game: &'g Game,
        depth: u32,
        report: &mut impl FnMut(Level),
        before: &mut impl FnMut(&Machine<'g>, usize) -> Option<Game>,
    ) -> Result<Option<Game>, PerftError> {
        let mut m = game.machine();
        let roles = game.role_count();
        let mut joint = vec![0u32; roles];
        let mut idx = vec![0usize; roles];
        let mut scratch = game.initial();
        for d in self.out.len() as u32 - 1..depth {
            if d > 0
                && let Some(other) = before(&m, self.level.len())
            {
                return Ok(Some(other));
            }
            let mut next: FxHashMap<State, u128> = FxHashMap::default();
            for (state, mult) in &self.level {
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
            self.level = next;
            self.close(d + 1, report)?;
        }
        Ok(None)
    }
}
