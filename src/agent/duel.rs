//! One game between machine agents, from the initial state to the end.
//!
//! In: a [`Game`], an agent per role, a seed, the threads MCTS may use and a
//! step limit. Out: a [`Record`]: the goals (or that the limit came first),
//! the length, and per role the time spent choosing. Holds: the same seed
//! gives the same game (with iteration budgets); nature throws by weight.

use super::Agent;
use crate::engine::{EngineError, Game};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// How one game went.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Every role's goal at the end (`None` for a goal-less nature); `None`
    /// when the step limit came first.
    pub goals: Option<Vec<Option<i64>>>,
    /// Joint moves played.
    pub length: u32,
    /// Per role: seconds spent choosing, and the number of choices (states
    /// where it had more than one legal move).
    pub thinking: Vec<(f64, u32)>,
}

/// Plays one game. `Agent::Human` has no moves here: it plays at random
/// (front ends refuse it before).
pub fn play(
    game: &Game,
    agents: &[Agent],
    seed: u64,
    threads: usize,
    max_steps: u32,
) -> Result<Record, EngineError> {
    play_watched(game, agents, seed, threads, max_steps, |_| {})
}

/// [`play`], calling `on_move` with the number of joint moves made after
/// each one (for progress shown by a front end).
pub fn play_watched(
    game: &Game,
    agents: &[Agent],
    seed: u64,
    threads: usize,
    max_steps: u32,
    mut on_move: impl FnMut(u32),
) -> Result<Record, EngineError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut m = game.machine();
    let mut state = game.initial();
    let mut joint = vec![0; game.role_count()];
    let mut thinking = vec![(0.0, 0); game.role_count()];
    let mut length = 0;
    loop {
        m.set_state(&state);
        if m.is_terminal() {
            return Ok(Record {
                goals: Some(m.goals()?),
                length,
                thinking,
            });
        }
        if length == max_steps {
            return Ok(Record {
                goals: None,
                length,
                thinking,
            });
        }
        m.check_playable()?;
        for (r, agent) in agents.iter().enumerate() {
            let started = Instant::now();
            joint[r] = match agent.pick(&m, r, &mut rng, threads) {
                Some(mv) => mv?,
                None => m.random_move(r, &mut rng)?,
            };
            if m.legal(r).len() > 1 && Some(r) != game.random_role() {
                thinking[r].0 += started.elapsed().as_secs_f64();
                thinking[r].1 += 1;
            }
        }
        state = m.next(&joint)?;
        length += 1;
        on_move(length);
    }
}
