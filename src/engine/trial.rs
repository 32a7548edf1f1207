//! Which compiled engine plays a game's playouts for the least work,
//! decided from counts over a short trial.
//!
//! In: a compiled [`Net`] and its [`WordProgram`]. Out: a [`Trial`]: over
//! seeded random playouts, each engine's work per joint move. The word
//! engine counts its own ([`WordProgram::work`]). The incremental engine's
//! is predicted from the slots that flip, which every engine computes
//! alike: a flip visits the slot's readers; and from the moves made, each
//! visiting its readers and the triggered rules of its groups whose state
//! fact holds, on and off again. Holds: only counts, so the same
//! game gets the same answer on every machine and at every load. The
//! instructions behind one unit of either count differ up to threefold
//! from game to game (cachegrind over the conformance, shipped and test
//! games: docs/ENGINES.md, "Which engine runs playouts"), so the word
//! engine is chosen only by a margin that keeps every game measured at
//! least as fast.

use super::EngineKind;
use super::compile::{Net, SLOT_TRUE, SPLIT};
use super::words::WordProgram;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Joint moves the trial plays, over as many playouts as that takes.
const TRIAL_STEPS: u32 = 400;
/// The longest trial playout: a game that does not end soon is restarted.
const TRIAL_PLAYOUT: u32 = 200;

/// The word engine, choosing the units a change reaches, plays when its
/// work is less than the incremental engine's visits over this. Measured
/// (docs/ENGINES.md, "Which engine runs playouts"), every game whose ratio
/// of the two is below 0.48 ran faster on the word engine, and the first
/// that ran slower was at 0.56. With the operations as native code
/// (session 14) a unit of word work costs less, but that first loser (a
/// test game of sums modulo a number) still loses choosing units, so the
/// margin stays.
const MARGIN: u64 = 2;

/// Run whole with native code (session 14), the word engine plays when its
/// native work over `NATIVE_SHARE`, plus its other work (the `legal` words
/// read and the rules filed under moves that read more than the move,
/// which it interprets; [`Trial::native`]) times `OTHER_WEIGHT`, is less
/// than the incremental engine's visits: one unit of native work counts an
/// eighth of a visit, and the other work one and a half. Fitted on the
/// conformance, shipped and test games (docs/ENGINES.md, "Session 14: the
/// phases run whole"): every game it moves plays faster there, by
/// instructions and on the clock; a sixteenth moved a conformance game
/// whose native code (thousands of operations a step) ran in fewer
/// instructions but three times slower on the clock, out of the
/// instruction cache.
const NATIVE_SHARE: u64 = 8;
const OTHER_WEIGHT: (u64, u64) = (3, 2);

/// A trial's work per joint move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trial {
    /// Slots flipped plus the readers they visit on the incremental engine,
    /// and what the moves visit there.
    pub flips: u64,
    /// The word engine's own work, choosing the units a change reaches.
    pub words: u64,
    /// The word engine's work running every phase whole instead, and the
    /// part of it that is native code when the engine plays: all but the
    /// `legal` words read and the rules filed under moves that read more
    /// than their move ([`WordProgram::interpreted_work`]).
    pub whole: u64,
    pub native: u64,
}

impl Trial {
    /// Whether the word engine does less work running every phase whole
    /// than choosing the units a change reaches.
    pub fn runs_whole(&self) -> bool {
        self.whole <= self.words
    }

    /// The engine to play on: the word engine if it is predicted to play
    /// for clearly fewer instructions than the incremental engine, with
    /// its operations as native code (`native_code`) or interpreted.
    pub fn engine(&self, native_code: bool) -> EngineKind {
        let cheaper = match native_code && self.runs_whole() {
            true => {
                let other = (self.whole - self.native).saturating_mul(OTHER_WEIGHT.0);
                self.native / NATIVE_SHARE + other / OTHER_WEIGHT.1 < self.flips
            }
            false => self.words.saturating_mul(MARGIN) < self.flips,
        };
        match cheaper {
            true => EngineKind::Words,
            false => EngineKind::Incremental,
        }
    }
}

/// What the incremental engine visits to make move slot `d` and take it
/// back in the state whose literals `holds` answers: twice the move's
/// readers, its triggered groups and the rules of those whose state fact
/// holds; once its early groups and the rules (or subgroups, and their
/// rules) of those whose literal holds.
fn move_visits(net: &Net, readers: &[u64], d: u32, holds: impl Fn(u32) -> bool) -> u64 {
    let i = (d - net.first_input) as usize;
    let visited = |groups: &[(u32, u32, u32)]| -> u64 {
        (groups.iter())
            .map(|&(key, a, b)| match holds(key) {
                false => 1,
                true if a & SPLIT == 0 => 1 + u64::from(b - a),
                true => {
                    let subgroups = &net.early_subgroups[i][(a & !SPLIT) as usize..b as usize];
                    let rules = |&(key, a, b): &(u32, u32, u32)| match holds(key) {
                        true => 1 + u64::from(b - a),
                        false => 1,
                    };
                    1 + subgroups.iter().map(rules).sum::<u64>()
                }
            })
            .sum()
    };
    2 * (readers[d as usize] + visited(&net.triggered_groups[i])) + visited(&net.early_groups[i])
}

/// Plays the trial from the game's `initial` state. `None` for a game
/// with no joint move to play from it.
pub fn run(net: &Net, program: &WordProgram, initial: &[u64]) -> Option<Trial> {
    let mut readers = vec![0u64; net.slots];
    for &lit in &net.lits {
        readers[(lit >> 1) as usize] += 1;
    }
    let slot_at = program.slot_at_bit();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut machine = program.machine();
    let mut state = initial.to_vec();
    let mut next = initial.to_vec();
    let mut legal = vec![Vec::new(); net.roles.len()];
    let mut does = Vec::with_capacity(net.roles.len());
    program.load_counting(&mut machine, &state, &mut legal);
    let (mut steps, mut length, mut flips, mut move_work) = (0u32, 0u32, 0u64, 0u64);
    let start_work = program.work(&machine);
    let start_scheduling = program.scheduling_work(&machine);
    let start_interpreted = program.interpreted_work(&machine);
    let mut before = program.bits(&machine).to_vec();
    // Each flip since `before` visits its slot's readers.
    let mut count_flips = |before: &mut Vec<u64>, after: &[u64]| {
        for (w, (old, &new)) in before.iter_mut().zip(after).enumerate() {
            let mut changed = *old ^ new;
            while changed != 0 {
                let bit = 64 * w as u32 + changed.trailing_zeros();
                changed &= changed - 1;
                if let Some(&slot) = slot_at.get(&bit) {
                    flips += 1 + readers[slot as usize];
                }
            }
            *old = new;
        }
    };
    while steps < TRIAL_STEPS {
        if program.is_terminal(&machine)
            || length == TRIAL_PLAYOUT
            || legal.iter().any(Vec::is_empty)
        {
            if length == 0 {
                return None;
            }
            length = 0;
            state.copy_from_slice(initial);
            program.load_counting(&mut machine, &state, &mut legal);
            before.copy_from_slice(program.bits(&machine));
            continue;
        }
        does.clear();
        for (role, moves) in net.roles.iter().zip(&legal) {
            let m = moves[rng.random_range(0..moves.len())];
            does.push(role.moves[m as usize].does);
        }
        let value = |s: u32| s == SLOT_TRUE || program.value(&machine, s);
        let holds = |l: u32| value(l >> 1) != (l & 1 == 1);
        for &d in &does {
            move_work += move_visits(net, &readers, d, holds);
        }
        program.next_counting(&mut machine, does.iter().copied(), &mut next);
        count_flips(&mut before, program.bits(&machine));
        std::mem::swap(&mut state, &mut next);
        program.load_counting(&mut machine, &state, &mut legal);
        count_flips(&mut before, program.bits(&machine));
        (steps, length) = (steps + 1, length + 1);
    }
    let work = program.work(&machine) - start_work;
    let scheduling = program.scheduling_work(&machine) - start_scheduling;
    let interpreted = program.interpreted_work(&machine) - start_interpreted;
    // One load and one step per joint move.
    let whole = (work - scheduling) / u64::from(steps) + program.whole_work();
    Some(Trial {
        flips: (flips + move_work) / u64::from(steps),
        words: work / u64::from(steps),
        whole,
        native: whole - interpreted / u64::from(steps),
    })
}
