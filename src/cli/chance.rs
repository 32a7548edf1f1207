//! Chance statistics of `tabula bench`: how often nature drew each of its
//! moves, next to the probability the rules declare for it, per throw.
//!
//! In: the states where nature chose (two or more legal moves; a state with
//! a single outcome draws nothing) and the move drawn in each. Out: per
//! throw (the set of nature's legal moves in a state: the outcomes of one
//! dice declaration, or in KIF the moves nature had), the states where it
//! was thrown, and per move the times drawn, the observed share (drawn /
//! the throw's draws) and the declared probability averaged over the same
//! states (weight / sum of the weights of nature's legal moves there).
//! Holds: the two shares estimate the same number, so a correct engine
//! makes them agree within sampling error, and each throw's shares add up
//! to 1. Declared probabilities are summed exactly (per denominator), so a
//! die with fixed weights shows exactly its weights' ratios.

use crate::engine::{End, EngineError, Game, Machine, Playout, State};
use crate::ground::GTerm;
use rand::Rng;
use std::collections::BTreeMap;

/// Nature's draws over a set of playouts.
#[derive(Default)]
pub struct Tally {
    /// States where nature chose.
    draws: u64,
    /// Per throw, named by nature's legal moves (in move order): what was
    /// seen of it.
    throws: BTreeMap<Box<[u32]>, ThrowTally>,
}

#[derive(Default)]
struct ThrowTally {
    draws: u64,
    /// Per move index of nature: what was seen of it.
    moves: BTreeMap<u32, MoveTally>,
}

#[derive(Default)]
struct MoveTally {
    drawn: u64,
    /// Per sum of weights of a state: the move's weights there, added up
    /// (each weight is below 2^63: no sum of fewer than 2^64 passes u128).
    weights: BTreeMap<u128, u128>,
}

/// One throw of the report: a name made of its moves' names, its draws and
/// a row per move.
pub struct Throw {
    pub name: String,
    pub draws: u64,
    pub rows: Vec<Row>,
}

/// One move of a throw.
pub struct Row {
    pub text: String,
    pub drawn: u64,
    pub observed: f64,
    pub declared: f64,
}

impl Tally {
    /// Notes nature's choice in the loaded state (nothing if it had a
    /// single legal move).
    fn note(&mut self, m: &Machine, nature: usize, drawn: u32) -> Result<(), EngineError> {
        if m.legal(nature).len() < 2 {
            return Ok(());
        }
        let outcomes = m.chance()?;
        let total: u128 = outcomes.iter().map(|&(_, w)| u128::from(w)).sum();
        self.draws += 1;
        let throw = self.throws.entry(m.legal(nature).into()).or_default();
        throw.draws += 1;
        for (mv, w) in outcomes {
            let seen = throw.moves.entry(mv).or_default();
            *seen.weights.entry(total).or_default() += u128::from(w);
        }
        throw.moves.entry(drawn).or_default().drawn += 1;
        Ok(())
    }

    pub fn add(&mut self, other: Tally) {
        self.draws += other.draws;
        for (key, their_throw) in other.throws {
            let throw = self.throws.entry(key).or_default();
            throw.draws += their_throw.draws;
            for (mv, theirs) in their_throw.moves {
                let ours = throw.moves.entry(mv).or_default();
                ours.drawn += theirs.drawn;
                for (total, w) in theirs.weights {
                    *ours.weights.entry(total).or_default() += w;
                }
            }
        }
    }

    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Every throw nature made, by its first move in the game's order of
    /// moves, and in each every move it had.
    pub fn throws(&self, game: &Game) -> Vec<Throw> {
        let nature = game.random_role().unwrap_or(0);
        (self.throws.iter())
            .map(|(moves, throw)| {
                let draws = throw.draws.max(1) as f64;
                Throw {
                    name: throw_name(game, nature, moves),
                    draws: throw.draws,
                    rows: (throw.moves.iter())
                        .map(|(&mv, seen)| Row {
                            text: game.show_move(nature, mv),
                            drawn: seen.drawn,
                            observed: seen.drawn as f64 / draws,
                            declared: (seen.weights.iter())
                                .map(|(&total, &w)| w as f64 / (total as f64 * draws))
                                .sum(),
                        })
                        .collect(),
                }
            })
            .collect()
    }
}

/// A throw's name: the distinct names of its moves (`d6` for `d6(1)` to
/// `d6(6)`), joined by `/`.
fn throw_name(game: &Game, nature: usize, moves: &[u32]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for &mv in moves {
        let name = match game.terms.term(game.move_term(nature, mv)) {
            GTerm::Sym(f) | GTerm::App(f, _) => game.symbols.name(*f),
            GTerm::Int(_) => "an integer",
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join("/")
}

/// [`Machine::playout`] step by step, noting nature's choices: the same
/// random moves from the same generator, so every other figure of the
/// benchmark is the same whether or not the draws are noted.
pub fn playout<R: Rng>(
    m: &mut Machine,
    start: &State,
    rng: &mut R,
    max_steps: u32,
    tally: &mut Tally,
) -> Result<Playout, EngineError> {
    let Some(nature) = m.game().random_role() else {
        return m.playout(start, rng, max_steps);
    };
    m.set_state(start);
    let mut length = 0;
    while !m.is_terminal() {
        if length == max_steps {
            let end = End::Unfinished;
            return Ok(Playout { length, end });
        }
        let joint = m.random_joint(rng)?;
        tally.note(m, nature, joint[nature])?;
        let next = m.next(&joint)?;
        m.set_state(&next);
        length += 1;
    }
    let end = match m.goals() {
        Ok(goals) => End::Goals(goals),
        Err(e) => End::BadGoals(e),
    };
    Ok(Playout { length, end })
}
