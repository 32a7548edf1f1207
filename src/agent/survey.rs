//! What a designer asks of a game first: how long it lasts, how many
//! choices there are at each depth, how often it is drawn, and how the
//! goals split between the roles under random play and under short MCTS
//! self-play (first-player advantage).
//!
//! In: a [`Game`], a number of random playouts (or a deadline), a seed; for
//! self-play a number of games and an iteration budget. Out: a
//! [`RandomPlay`] and the per-role [`Tally`]s of self-play; progress goes
//! to callbacks (the library prints nothing). Holds: the same seed and
//! counts give the same figures (except the times); a playout step
//! allocates nothing. Random playout `i` draws from its own generator,
//! seeded by [`playout_seed`]`(seed, i)`, and self-play game `g` uses seed
//! `seed + g`: a run split into ranges of playouts and games (threads,
//! machines) and merged in order ([`RandomPlay::merge`], [`Tally::merge`])
//! gives the figures of the whole run.

use super::tally::{Result3, Tally, result};
use super::{Agent, Budget, duel, players};
use crate::engine::{EngineError, Game};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// Figures of random playouts from the initial state.
#[derive(Clone, Debug, Default)]
pub struct RandomPlay {
    pub playouts: u64,
    pub seconds: f64,
    /// Joint moves played in all (states visited beyond the initial one).
    pub steps: u64,
    /// Length of every finished playout, in order.
    pub lengths: Vec<u32>,
    /// Playouts stopped by the step limit.
    pub unfinished: u64,
    /// Finished playouts where every player got the same goal.
    pub draws: u64,
    /// Per role (player order of [`players`]): sum of goals over finished playouts.
    pub goal_sums: Vec<f64>,
    /// Per depth: (sum of joint choices, states at that depth). A state's
    /// joint choices are the product of the players' legal move counts
    /// (the players' branching: nature's outcomes are left out).
    pub branching: Vec<(f64, u64)>,
    /// States where some player had more than one legal move: where an
    /// agent has to think.
    pub decisions: u64,
}

impl RandomPlay {
    /// Adds the figures of the playouts that follow these (the next range
    /// of playout indices); the seconds add up.
    pub fn merge(&mut self, other: &RandomPlay) {
        self.playouts += other.playouts;
        self.seconds += other.seconds;
        self.steps += other.steps;
        self.lengths.extend_from_slice(&other.lengths);
        self.unfinished += other.unfinished;
        self.draws += other.draws;
        if self.goal_sums.len() < other.goal_sums.len() {
            self.goal_sums.resize(other.goal_sums.len(), 0.0);
        }
        for (sum, add) in self.goal_sums.iter_mut().zip(&other.goal_sums) {
            *sum += add;
        }
        if self.branching.len() < other.branching.len() {
            self.branching.resize(other.branching.len(), (0.0, 0));
        }
        for (b, add) in self.branching.iter_mut().zip(&other.branching) {
            b.0 += add.0;
            b.1 += add.1;
        }
        self.decisions += other.decisions;
    }

    pub fn mean_goals(&self) -> Vec<f64> {
        let n = self.lengths.len().max(1) as f64;
        self.goal_sums.iter().map(|g| g / n).collect()
    }

    /// The estimated time of one self-play game with `iterations` per
    /// decision: every decision state runs that many iterations, each about
    /// a random playout of half a game, at the measured speed.
    pub fn self_play_estimate(&self, iterations: u32) -> Option<Duration> {
        if self.playouts == 0 || self.steps == 0 || self.seconds <= 0.0 {
            return None;
        }
        let steps_per_sec = self.steps as f64 / self.seconds;
        let decisions = self.decisions as f64 / self.playouts as f64;
        let half_game = self.steps as f64 / self.playouts as f64 / 2.0;
        let seconds = decisions * f64::from(iterations) * half_game.max(1.0) / steps_per_sec;
        Duration::try_from_secs_f64(seconds).ok()
    }
}

/// How many random playouts to run: `count`, or fewer if `deadline` comes
/// first (at least one is always run).
#[derive(Clone, Copy, Debug)]
pub struct PlayoutLimit {
    pub count: u64,
    pub deadline: Option<Instant>,
}

/// The seed of random playout `index` of a run seeded with `seed`.
pub fn playout_seed(seed: u64, index: u64) -> u64 {
    // Scrambled, so that no two playouts' seeds differ by a small step: the
    // generator's `seed_from_u64` walks a SplitMix64 sequence, and seeds a
    // step of it apart would give overlapping streams.
    mix(seed ^ mix(index))
}

/// The SplitMix64 finaliser: a bijection of `u64` that spreads every bit.
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Runs random games of at most `max_steps` joint moves as `limit` says,
/// the first of them playout number `first` of the run, calling
/// `on_playout` with the number done after each.
pub fn random_play(
    game: &Game,
    first: u64,
    limit: PlayoutLimit,
    seed: u64,
    max_steps: u32,
    mut on_playout: impl FnMut(u64),
) -> Result<RandomPlay, EngineError> {
    let mut m = game.machine();
    let start = game.initial();
    let (mut state, mut next) = (start.clone(), start.clone());
    let mut joint = vec![0; game.role_count()];
    let who = players(game);
    let mut out = RandomPlay {
        goal_sums: vec![0.0; who.len()],
        ..RandomPlay::default()
    };
    let started = Instant::now();
    for done in 0..limit.count {
        if done > 0 && limit.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let index = first.wrapping_add(done);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(playout_seed(seed, index));
        state.clone_from(&start);
        m.set_state(&state);
        let mut depth = 0u32;
        while !m.is_terminal() && depth < max_steps {
            m.check_playable()?;
            let counts = who.iter().map(|&r| m.legal(r).len());
            if counts.clone().any(|n| n > 1) {
                out.decisions += 1;
            }
            let choices: f64 = counts.map(|n| n as f64).product();
            if out.branching.len() <= depth as usize {
                out.branching.push((0.0, 0));
            }
            let b = &mut out.branching[depth as usize];
            b.0 += choices;
            b.1 += 1;
            for (r, j) in joint.iter_mut().enumerate() {
                *j = m.random_move(r, &mut rng)?;
            }
            m.next_into(&joint, &mut next)?;
            std::mem::swap(&mut state, &mut next);
            m.set_state(&state);
            depth += 1;
        }
        out.playouts += 1;
        out.steps += u64::from(depth);
        on_playout(out.playouts);
        if !m.is_terminal() {
            out.unfinished += 1;
            continue;
        }
        let goals = m.goals()?;
        out.lengths.push(depth);
        if result(&goals, who[0], &who) == Result3::Draw && who.len() > 1 {
            out.draws += 1;
        }
        for (sum, &r) in out.goal_sums.iter_mut().zip(&who) {
            *sum += goals[r].unwrap_or(0) as f64;
        }
    }
    out.seconds = started.elapsed().as_secs_f64();
    Ok(out)
}

/// The most threads [`random_play_threads`] starts.
pub const MAX_THREADS: usize = 256;

/// `count` random playouts (the run's first ones) spread over `threads`
/// threads (at most [`MAX_THREADS`]), each playing a range of them: the figures do not depend on
/// the number of threads, except the seconds, which are the wall-clock
/// time of the whole.
pub fn random_play_threads(
    game: &Game,
    count: u64,
    seed: u64,
    max_steps: u32,
    threads: usize,
) -> Result<RandomPlay, EngineError> {
    let started = Instant::now();
    let threads = (threads.clamp(1, MAX_THREADS) as u64).min(count.max(1));
    // Range t is count * t / threads onwards, computed without overflow.
    let bound = |t: u64| (u128::from(count) * u128::from(t) / u128::from(threads)) as u64;
    let ranges: Vec<(u64, u64)> = (0..threads).map(|t| (bound(t), bound(t + 1))).collect();
    let play = |&(first, end): &(u64, u64)| {
        let limit = PlayoutLimit {
            count: end - first,
            deadline: None,
        };
        random_play(game, first, limit, seed, max_steps, |_| {})
    };
    let parts: Vec<Result<RandomPlay, EngineError>> = match &ranges[..] {
        [one] => vec![play(one)],
        _ => std::thread::scope(|scope| {
            let handles: Vec<_> = ranges
                .iter()
                .map(|r| scope.spawn(move || play(r)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a playout thread panicked"))
                .collect()
        }),
    };
    let mut whole = RandomPlay::default();
    for part in parts {
        whole.merge(&part?);
    }
    whole.seconds = started.elapsed().as_secs_f64();
    Ok(whole)
}

/// `games` games of `mcts:iterations` against itself in every seat; the
/// tallies per player (order of [`players`]). Game `g` uses seed `seed + g`.
/// `on_move` is called after each joint move with the games finished
/// before and the moves made in the current one.
pub fn self_play(
    game: &Game,
    games: u32,
    iterations: u32,
    seed: u64,
    max_steps: u32,
    mut on_move: impl FnMut(u32, u32),
) -> Result<Vec<Tally>, EngineError> {
    let who = players(game);
    let agents = vec![Agent::Mcts(Budget::Iterations(iterations)); game.role_count()];
    let mut tallies = vec![Tally::default(); who.len()];
    for g in 0..games {
        let seed = seed.wrapping_add(u64::from(g));
        let record = duel::play_watched(game, &agents, seed, 1, max_steps, |m| on_move(g, m))?;
        for (tally, &r) in tallies.iter_mut().zip(&who) {
            match &record.goals {
                Some(goals) => tally.add(
                    goals[r].unwrap_or(0),
                    result(goals, r, &who),
                    record.length,
                    record.thinking[r],
                ),
                None => tally.add_unfinished(record.length, record.thinking[r]),
            }
        }
    }
    Ok(tallies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::open_str;
    use crate::syntax::Syntax;

    /// A die thrown until it shows 6: lengths vary from playout to playout.
    const UNTIL_SIX: &str = "roles p, random.
        init count(0).
        legal(p, wait).
        legal(random, face(F)) :- face_value(F).
        face_value(1..6).
        next count(D) :- true count(C), does(random, face(F)), F < 6, D = C + 1, D =< 20.
        next six :- does(random, face(6)).
        terminal :- true six.
        terminal :- true count(20).
        goal(p, 100) :- true six.
        goal(p, 0) :- not true six.";

    fn without_time(mut r: RandomPlay) -> RandomPlay {
        r.seconds = 0.0;
        r
    }

    #[test]
    fn a_run_split_over_threads_gives_the_figures_of_one_thread() {
        let Ok(loaded) = open_str("six.rules", UNTIL_SIX, Syntax::Rules) else {
            panic!("the test game does not load");
        };
        let game = &loaded.game;
        let one = random_play_threads(game, 50, 7, 100, 1).unwrap();
        let three = random_play_threads(game, 50, 7, 100, 3).unwrap();
        assert_eq!(
            format!("{:?}", without_time(one.clone())),
            format!("{:?}", without_time(three))
        );
        assert_eq!(one.playouts, 50);
        assert!(one.lengths.iter().any(|&l| l != one.lengths[0]));
        // Playouts 20..50 alone are the tail of the whole run.
        let limit = PlayoutLimit {
            count: 30,
            deadline: None,
        };
        let tail = random_play(game, 20, limit, 7, 100, |_| {}).unwrap();
        assert_eq!(tail.lengths, one.lengths[20..]);
        let other_seed = random_play_threads(game, 50, 8, 100, 1).unwrap();
        assert_ne!(other_seed.lengths, one.lengths);
    }
}
