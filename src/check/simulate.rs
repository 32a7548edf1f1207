//! Lint by simulation: seeded random playouts that look for misbehaviour
//! the static checks cannot see (as the reference GDL validator does).
//!
//! In: a compiled [`Game`] and a [`Budget`]. Out: warnings without a source
//! place, each with the shortest move sequence found that shows it
//! (`PLAYOUT_GOALS`: a terminal state where a role has no goal, several or
//! one outside 0..100; `PLAYOUT_NO_MOVE`: a non-terminal state where a role
//! has no legal move, or that the rule evaluator could not evaluate; `PLAYOUT_ENDLESS`: playouts that reach the step limit;
//! `NEVER_THROWN`: a weighted chance move, such as a die's outcome, never
//! thrown, reported only when the whole budget of playouts was played), and
//! the [`Observed`] depth and branching factor.
//! Holds: the cost is bounded whatever the game (by the total number of
//! joint moves and, unless the caller asks for a whole budget, by time);
//! seeded, so two runs that play the same playouts report the same.

use crate::diag::{Diagnostic, codes};
use crate::engine::{EngineError, Game, Machine};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// How much to play.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub playouts: u32,
    /// A playout that makes this many joint moves without ending is
    /// reported as possibly endless.
    pub max_steps: u32,
    /// Playing stops once this many joint moves were made in all.
    pub total_steps: u64,
    /// Playing stops at this time too (a playout cut short reports
    /// nothing); `None` plays the whole budget.
    pub time: Option<Duration>,
    pub seed: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            playouts: 100,
            max_steps: 10_000,
            total_steps: 50_000,
            time: Some(Duration::from_millis(400)),
            seed: 1,
        }
    }
}

/// What the playouts saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observed {
    pub playouts: u32,
    /// Playouts that reached a terminal state.
    pub finished: u32,
    /// Joint moves of the longest finished playout.
    pub max_depth: u32,
    /// Mean joint moves of the finished playouts.
    pub mean_depth: f64,
    /// Mean number of joint moves (product of the roles' legal moves) over
    /// the non-terminal states visited.
    pub mean_branching: f64,
}

/// One kind of finding: the message of the shortest case and its moves.
struct Finding {
    message: String,
    path: Vec<Vec<u32>>,
}

/// What a playout ends with.
enum Outcome {
    Finished,
    Unfinished,
    Stuck,
    /// Out of time.
    Cut,
}

struct Run<'g> {
    game: &'g Game,
    machine: Machine<'g>,
    found: [Option<Finding>; 3],
    thrown: Vec<bool>,
    visited: u64,
    branching: f64,
}

const GOALS: usize = 0;
const NO_MOVE: usize = 1;
const ENDLESS: usize = 2;

/// Plays the budget's playouts and returns the warnings and what was seen.
pub fn simulate(game: &Game, budget: &Budget) -> (Vec<Diagnostic>, Observed) {
    let chance_moves = game.random_role().map_or(0, |r| game.move_count(r));
    let mut run = Run {
        game,
        machine: game.machine(),
        found: [None, None, None],
        thrown: vec![false; chance_moves],
        visited: 0,
        branching: 0.0,
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(budget.seed);
    let mut observed = Observed::default();
    let (mut steps, mut depths) = (0u64, 0u64);
    let deadline = budget.time.map(|t| Instant::now() + t);
    while observed.playouts < budget.playouts && steps < budget.total_steps {
        let mut path = Vec::new();
        let outcome = run.playout(&mut rng, budget.max_steps, deadline, &mut path);
        if let Outcome::Cut = outcome {
            break;
        }
        observed.playouts += 1;
        steps += path.len() as u64;
        if let Outcome::Finished = outcome {
            observed.finished += 1;
            observed.max_depth = observed.max_depth.max(path.len() as u32);
            depths += path.len() as u64;
        }
        if let Outcome::Unfinished = outcome {
            let message = format!(
                "a random playout made {} moves without reaching a terminal state: the game may never end",
                budget.max_steps
            );
            run.record(ENDLESS, message, path);
        }
    }
    if observed.finished > 0 {
        observed.mean_depth = depths as f64 / observed.finished as f64;
    }
    if run.visited > 0 {
        observed.mean_branching = run.branching / run.visited as f64;
    }
    // A chance move missing from a cut-short run may just be rare.
    let whole = observed.playouts == budget.playouts;
    (run.diagnostics(observed.playouts, whole), observed)
}

impl Run<'_> {
    /// One playout from the initial state; `path` gets its joint moves.
    fn playout(
        &mut self,
        rng: &mut Xoshiro256PlusPlus,
        max_steps: u32,
        deadline: Option<Instant>,
        path: &mut Vec<Vec<u32>>,
    ) -> Outcome {
        let mut state = self.game.initial();
        loop {
            if deadline.is_some_and(|d| Instant::now() > d) {
                return Outcome::Cut;
            }
            self.machine.set_state(&state);
            if self.machine.is_terminal() {
                if let Err(e) = self.machine.goals() {
                    let message = self.goal_message(&e);
                    self.record(GOALS, message, path.clone());
                }
                return Outcome::Finished;
            }
            if path.len() as u32 == max_steps {
                return Outcome::Unfinished;
            }
            if let Err(e @ EngineError::Evaluation { .. }) = self.machine.check_playable() {
                self.record(NO_MOVE, stopped(&e), path.clone());
                return Outcome::Stuck;
            }
            let counts: Vec<usize> = (0..self.game.role_count())
                .map(|r| self.machine.legal(r).len())
                .collect();
            if let Some(r) = counts.iter().position(|&n| n == 0) {
                let message = format!(
                    "role {} has no legal move in a non-terminal state",
                    self.game.role_name(r)
                );
                self.record(NO_MOVE, message, path.clone());
                return Outcome::Stuck;
            }
            self.visited += 1;
            self.branching += counts.iter().map(|&n| n as f64).product::<f64>();
            let Ok(joint) = self.machine.random_joint(rng) else {
                // A bad weight: the engine reports it where the game is played.
                return Outcome::Stuck;
            };
            if let Some(r) = self.game.random_role() {
                self.thrown[joint[r] as usize] = true;
            }
            let next = self.machine.next(&joint);
            path.push(joint);
            match next {
                Ok(next) => state = next,
                Err(e) => {
                    self.record(NO_MOVE, stopped(&e), path.clone());
                    return Outcome::Stuck;
                }
            }
        }
    }

    /// Keeps the finding of a kind with the shortest path.
    fn record(&mut self, kind: usize, message: String, path: Vec<Vec<u32>>) {
        let slot = &mut self.found[kind];
        if slot.as_ref().is_none_or(|f| path.len() < f.path.len()) {
            *slot = Some(Finding { message, path });
        }
    }

    fn goal_message(&self, e: &EngineError) -> String {
        let role = |r: &usize| self.game.role_name(*r);
        match e {
            EngineError::NoGoal { role: r, .. } => {
                format!("role {} has no goal in a terminal state", role(r))
            }
            EngineError::SeveralGoals {
                role: r, values, ..
            } => format!(
                "role {} has several goals ({}) in a terminal state",
                role(r),
                crate::engine::joined(values)
            ),
            EngineError::GoalRange { role: r, value, .. } => format!(
                "role {} has goal {value} in a terminal state, outside 0..100",
                role(r)
            ),
            other => other.to_string(),
        }
    }

    /// The findings as warnings, then (after the `whole` budget) the chance
    /// moves never thrown.
    fn diagnostics(self, playouts: u32, whole: bool) -> Vec<Diagnostic> {
        let codes = [
            codes::PLAYOUT_GOALS,
            codes::PLAYOUT_NO_MOVE,
            codes::PLAYOUT_ENDLESS,
        ];
        let mut out = Vec::new();
        for (finding, code) in self.found.iter().zip(codes) {
            if let Some(f) = finding {
                out.push(
                    Diagnostic::global_warning(code, &f.message)
                        .with_note(show_path(self.game, &f.path)),
                );
            }
        }
        let Some(random) = self.game.random_role().filter(|_| whole) else {
            return out;
        };
        let never: Vec<String> = (0..self.thrown.len() as u32)
            .filter(|&m| !self.thrown[m as usize] && self.game.is_weighted(m))
            .map(|m| format!("`{}`", self.game.show_move(random, m)))
            .collect();
        if !never.is_empty() && playouts > 0 {
            out.push(
                Diagnostic::global_warning(
                    codes::NEVER_THROWN,
                    format!(
                        "chance move{} {} {} never thrown in {playouts} random playouts",
                        if never.len() == 1 { "" } else { "s" },
                        shorten(&never),
                        if never.len() == 1 { "was" } else { "were" }
                    ),
                )
                .with_note("a die that is never rolled, or an outcome whose weight is too small to come up"),
            );
        }
        out
    }
}

/// The message of a state the rule evaluator could not evaluate (a limit
/// reached), which leaves its roles without legal moves.
fn stopped(e: &EngineError) -> String {
    format!("{e}, so no role has a legal move")
}

/// At most this many moves of a sequence are shown.
const SHOWN_STEPS: usize = 12;

/// `after 3 moves: (x mark(1, 1), o noop) (x ..., o ...)`.
fn show_path(game: &Game, path: &[Vec<u32>]) -> String {
    if path.is_empty() {
        return "in the initial state".to_string();
    }
    let step = |joint: &Vec<u32>| {
        let moves: Vec<String> = joint
            .iter()
            .enumerate()
            .map(|(r, &m)| format!("{} {}", game.role_name(r), game.show_move(r, m)))
            .collect();
        format!("({})", moves.join(", "))
    };
    let mut shown: Vec<String> = path.iter().take(SHOWN_STEPS).map(step).collect();
    if path.len() > SHOWN_STEPS {
        shown.push(format!("... {} more", path.len() - SHOWN_STEPS));
    }
    let plural = if path.len() == 1 { "" } else { "s" };
    format!(
        "after {} joint move{plural}: {}",
        path.len(),
        shown.join(" ")
    )
}

/// A list cut after a few items.
fn shorten(items: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut text = items[..items.len().min(SHOWN)].join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    text
}
