//! `tabula bench FILE [--playouts N] [--seed S] [--threads T] [--json]
//! [--chance]`: random playouts, their speed, mean length and mean goals,
//! and (in the JSON, or with `--chance`) nature's draws against the
//! probabilities the rules declare ([`super::chance`]).

use super::chance::{self, Tally};
use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, json_string, open_for_playouts};
use crate::engine::{End, EngineError, Game};
use crate::front::engine_error;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of playouts.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub playouts: u64,
    /// Seed of the random generator (thread i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads playing independent playouts (1 to 256).
    #[arg(long, short = 't', default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: u32,
    /// Stop a playout after this many joint moves (it then counts as unfinished).
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u32,
    /// Print one JSON object (it always holds the chance statistics).
    #[arg(long)]
    pub json: bool,
    /// Also print, per chance move, how often nature drew it next to the
    /// probability the rules declare for it.
    #[arg(long)]
    pub chance: bool,
    /// Evaluate every step of every playout: do not remember the steps
    /// earlier playouts made (measures the engine alone).
    #[arg(long)]
    pub no_memo: bool,
}

/// The most threads `--threads` may ask for.
pub const MAX_THREADS: u32 = 256;

/// Why a benchmark stopped.
enum Failure {
    /// The game misbehaved in some playout.
    Engine(EngineError),
    /// A thread could not be started.
    Spawn(std::io::Error),
}

/// Totals over a set of playouts.
#[derive(Default)]
struct Totals {
    playouts: u64,
    unfinished: u64,
    /// Playouts ending in a terminal state with malformed goals, and the first error.
    bad_goals: u64,
    first_bad: Option<EngineError>,
    steps: u64,
    /// Sum of goals per role; `None` for a chance role without goals.
    goals: Vec<Option<i64>>,
    /// Nature's draws, when they are noted.
    chance: Tally,
}

impl Totals {
    fn add(&mut self, other: Totals) {
        self.playouts += other.playouts;
        self.unfinished += other.unfinished;
        self.bad_goals += other.bad_goals;
        if self.first_bad.is_none() {
            self.first_bad = other.first_bad;
        }
        self.steps += other.steps;
        if self.goals.len() < other.goals.len() {
            self.goals.resize(other.goals.len(), Some(0));
        }
        for (a, b) in self.goals.iter_mut().zip(other.goals) {
            *a = add(*a, b);
        }
        self.chance.add(other.chance);
    }
}

/// What one thread plays: how many playouts, from which seed.
struct Share {
    count: u64,
    seed: u64,
    max_steps: u32,
    /// Whether nature's draws are noted (slower).
    note_chance: bool,
    /// Whether playouts may remember their steps (`--no-memo` unset).
    memo: bool,
}

fn run_share(game: &Game, share: Share, done: &AtomicU64) -> Result<Totals, EngineError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(share.seed);
    let mut machine = game.machine();
    machine.remember_steps(share.memo);
    let start = game.initial();
    let mut t = Totals {
        goals: vec![Some(0); game.role_count()],
        ..Totals::default()
    };
    let max_steps = share.max_steps;
    for _ in 0..share.count {
        let p = if share.note_chance {
            chance::playout(&mut machine, &start, &mut rng, max_steps, &mut t.chance)?
        } else {
            machine.playout(&start, &mut rng, max_steps)?
        };
        t.playouts += 1;
        t.steps += p.length as u64;
        match p.end {
            End::Goals(goals) => t
                .goals
                .iter_mut()
                .zip(goals)
                .for_each(|(a, g)| *a = add(*a, g)),
            End::Unfinished => t.unfinished += 1,
            End::BadGoals(e) => {
                t.bad_goals += 1;
                t.first_bad.get_or_insert(e);
            }
        }
        done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(t)
}

pub fn run(args: Args) -> i32 {
    let loaded = match open_for_playouts(&args.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let file = args.game.file.display();
    let started = Instant::now();
    let total = match play_all(game, &args) {
        Ok(t) => t,
        Err(Failure::Engine(e)) => {
            errln!("{file}: error: {}", engine_error(game, &e));
            return EXIT_INVALID;
        }
        Err(Failure::Spawn(e)) => {
            errln!("error: cannot start {} threads: {e}", args.threads);
            return EXIT_USAGE;
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Some(e) = &total.first_bad {
        errln!(
            "{file}: warning: {} playouts ended in a terminal state with malformed goals (left out of the means); the first: {}",
            total.bad_goals,
            engine_error(game, e)
        );
    }
    let report = Report::new(game, &total, seconds);
    if args.json {
        outln!("{}", report.json(&total, game));
    } else {
        out!("{}", report.text(&total, args.max_steps));
        if args.chance {
            out!("{}", chance_table(game, &total.chance));
        }
    }
    EXIT_OK
}

/// Runs the playouts on `--threads` threads, with a progress bar on a
/// terminal.
fn play_all(game: &Game, args: &Args) -> Result<Totals, Failure> {
    let threads = args.threads.clamp(1, MAX_THREADS) as u64;
    let done = AtomicU64::new(0);
    let progress = std::io::stderr().is_terminal() && !args.json;
    let note_chance = (args.json || args.chance) && game.random_role().is_some();
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for i in 0..threads {
            let share = Share {
                count: args.playouts / threads + u64::from(i < args.playouts % threads),
                seed: args.seed.wrapping_add(i),
                max_steps: args.max_steps,
                note_chance,
                memo: !args.no_memo,
            };
            let done = &done;
            let handle = std::thread::Builder::new()
                .spawn_scoped(scope, move || run_share(game, share, done))
                .map_err(Failure::Spawn)?;
            handles.push(handle);
        }
        if progress {
            while handles.iter().any(|h| !h.is_finished()) {
                show_progress(done.load(Ordering::Relaxed), args.playouts);
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            err!("\r{}\r", " ".repeat(60));
        }
        let mut total = Totals::default();
        for h in handles {
            total.add(
                h.join()
                    .expect("a playout thread panicked")
                    .map_err(Failure::Engine)?,
            );
        }
        Ok(total)
    })
}

fn show_progress(done: u64, all: u64) {
    let width = 30;
    let filled = (done * width / all.max(1)).min(width) as usize;
    err!(
        "\r[{}{}] {done}/{all}",
        "#".repeat(filled),
        " ".repeat(width as usize - filled)
    );
    let _ = std::io::stderr().flush();
}

/// The figures a benchmark prints.
struct Report {
    seconds: f64,
    per_sec: f64,
    /// Per role but nature: its name and mean goal (`None` for every role
    /// when no playout finished).
    means: Vec<(String, Option<f64>)>,
    /// Whether some playout ended in a terminal state with goals.
    finished: bool,
    /// `None` over no playout.
    mean_length: Option<f64>,
}

impl Report {
    fn new(game: &Game, total: &Totals, seconds: f64) -> Report {
        // No finished playout, no mean: every role alike has none.
        let finished = total.playouts - total.unfinished - total.bad_goals;
        let means = total
            .goals
            .iter()
            .enumerate()
            .filter(|&(r, _)| Some(r) != game.random_role()) // nature has no goal
            .map(|(r, g)| {
                let mean = g
                    .filter(|_| finished > 0)
                    .map(|g| g as f64 / finished as f64);
                (game.role_name(r), mean)
            })
            .collect();
        Report {
            seconds,
            per_sec: total.playouts as f64 / seconds.max(1e-9),
            mean_length: (total.playouts > 0).then(|| total.steps as f64 / total.playouts as f64),
            means,
            finished: finished > 0,
        }
    }

    fn json(&self, total: &Totals, game: &Game) -> String {
        let goals: Vec<String> = self
            .means
            .iter()
            .map(|(r, m)| match m {
                Some(m) => format!("{}:{m:.4}", json_string(r)),
                None => format!("{}:null", json_string(r)),
            })
            .collect();
        format!(
            "{{\"engine\":{},\"playouts\":{},\"unfinished\":{},\"bad_goals\":{},\"seconds\":{:.6},\"playouts_per_sec\":{:.2},\"mean_length\":{},\"mean_goals\":{{{}}},\"chance\":{}}}",
            json_string(game.engine().name()),
            total.playouts,
            total.unfinished,
            total.bad_goals,
            self.seconds,
            self.per_sec,
            self.mean_length
                .map_or("null".to_string(), |l| format!("{l:.4}")),
            goals.join(","),
            chance_json(game, &total.chance)
        )
    }

    fn text(&self, total: &Totals, max_steps: u32) -> String {
        let length = self
            .mean_length
            .map_or("none".to_string(), |l| format!("{l:.2}"));
        let mut out = format!(
            "{} playouts in {:.3} s: {:.1} playouts/s, mean length {length}\n",
            total.playouts, self.seconds, self.per_sec
        );
        if total.unfinished > 0 {
            out.push_str(&format!(
                "{} playouts reached --max-steps {max_steps} unfinished\n",
                total.unfinished
            ));
        }
        if !self.finished {
            out.push_str("no playout finished, so no role has a mean goal\n");
        }
        for (r, m) in &self.means {
            match m {
                Some(m) => out.push_str(&format!("  mean goal {r}: {m:.2}\n")),
                None => out.push_str(&format!("  mean goal {r}: none\n")),
            }
        }
        out
    }
}

/// The chance statistics as a JSON object: the number of states where
/// nature chose, and per throw its name, its draws and per move its draws,
/// observed share within the throw and mean declared probability.
fn chance_json(game: &Game, tally: &Tally) -> String {
    let throws: Vec<String> = (tally.throws(game).iter())
        .map(|throw| {
            let rows: Vec<String> = (throw.rows.iter())
                .map(|r| {
                    format!(
                        "{{\"move\":{},\"drawn\":{},\"observed\":{},\"declared\":{}}}",
                        json_string(&r.text),
                        r.drawn,
                        r.observed,
                        r.declared
                    )
                })
                .collect();
            format!(
                "{{\"throw\":{},\"draws\":{},\"moves\":[{}]}}",
                json_string(&throw.name),
                throw.draws,
                rows.join(",")
            )
        })
        .collect();
    format!(
        "{{\"draws\":{},\"throws\":[{}]}}",
        tally.draws(),
        throws.join(",")
    )
}

/// The chance statistics as a table (`--chance`), a block per throw.
fn chance_table(game: &Game, tally: &Tally) -> String {
    if game.random_role().is_none() {
        return "chance: the game has no chance role\n".to_string();
    }
    let mut out = format!(
        "chance: nature chose in {} states (a single outcome is no choice)\n",
        tally.draws()
    );
    let throws = tally.throws(game);
    let width = (throws.iter().flat_map(|t| &t.rows))
        .map(|r| r.text.chars().count())
        .max()
        .unwrap_or(0)
        .max("move".len());
    for throw in throws {
        out.push_str(&format!(
            "  throw {}: {} draws\n    {:<width$}  {:>10}  {:>8}  {:>8}\n",
            throw.name, throw.draws, "move", "drawn", "observed", "declared"
        ));
        for r in throw.rows {
            out.push_str(&format!(
                "    {:<width$}  {:>10}  {:>8.4}  {:>8.4}\n",
                r.text, r.drawn, r.observed, r.declared
            ));
        }
    }
    out
}

/// A goal sum that becomes `None` once any playout gave the role no goal.
fn add(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    Some(a? + b?)
}
