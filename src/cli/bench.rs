//! `tabula bench FILE [--playouts N] [--seed S] [--threads T] [--json]`:
//! random playouts, their speed, mean length and mean goals.

use super::{EXIT_INVALID, EXIT_OK, GameArgs, open_game};
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
    /// Threads playing independent playouts.
    #[arg(long, short = 't', default_value_t = 1)]
    pub threads: u32,
    /// Stop a playout after this many joint moves (it then counts as unfinished).
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u32,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
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
    }
}

fn run_share(
    game: &Game,
    count: u64,
    seed: u64,
    max_steps: u32,
    done: &AtomicU64,
) -> Result<Totals, EngineError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut machine = game.machine();
    let start = game.initial();
    let mut t = Totals {
        goals: vec![Some(0); game.role_count()],
        ..Totals::default()
    };
    for _ in 0..count {
        let p = machine.playout(&start, &mut rng, max_steps)?;
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
    let loaded = match open_game(&args.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let file = args.game.file.display();
    let started = Instant::now();
    let total = match play_all(game, &args) {
        Ok(t) => t,
        Err(e) => {
            errln!("{file}: error: {}", engine_error(game, &e));
            return EXIT_INVALID;
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
        outln!("{}", report.json(&total));
    } else {
        out!("{}", report.text(&total, args.max_steps));
    }
    EXIT_OK
}

/// Runs the playouts on `--threads` threads, with a progress bar on a
/// terminal.
fn play_all(game: &Game, args: &Args) -> Result<Totals, EngineError> {
    let threads = args.threads.max(1) as u64;
    let done = AtomicU64::new(0);
    let progress = std::io::stderr().is_terminal() && !args.json;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let share = args.playouts / threads + u64::from(i < args.playouts % threads);
                let done = &done;
                scope.spawn(move || run_share(game, share, args.seed + i, args.max_steps, done))
            })
            .collect();
        if progress {
            while handles.iter().any(|h| !h.is_finished()) {
                show_progress(done.load(Ordering::Relaxed), args.playouts);
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            err!("\r{}\r", " ".repeat(60));
        }
        let mut total = Totals::default();
        for h in handles {
            total.add(h.join().expect("a playout thread panicked")?);
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
    mean_length: f64,
    /// Per role: its name and mean goal (`None` for a goal-less chance role).
    means: Vec<(String, Option<f64>)>,
}

impl Report {
    fn new(game: &Game, total: &Totals, seconds: f64) -> Report {
        let finished = (total.playouts - total.unfinished - total.bad_goals).max(1) as f64;
        let means = total
            .goals
            .iter()
            .enumerate()
            .map(|(r, g)| (game.role_name(r), g.map(|g| g as f64 / finished)))
            .collect();
        Report {
            seconds,
            per_sec: total.playouts as f64 / seconds.max(1e-9),
            mean_length: total.steps as f64 / total.playouts.max(1) as f64,
            means,
        }
    }

    fn json(&self, total: &Totals) -> String {
        let goals: Vec<String> = self
            .means
            .iter()
            .map(|(r, m)| match m {
                Some(m) => format!("{}:{m:.4}", json_string(r)),
                None => format!("{}:null", json_string(r)),
            })
            .collect();
        format!(
            "{{\"playouts\":{},\"unfinished\":{},\"bad_goals\":{},\"seconds\":{:.6},\"playouts_per_sec\":{:.2},\"mean_length\":{:.4},\"mean_goals\":{{{}}}}}",
            total.playouts,
            total.unfinished,
            total.bad_goals,
            self.seconds,
            self.per_sec,
            self.mean_length,
            goals.join(",")
        )
    }

    fn text(&self, total: &Totals, max_steps: u32) -> String {
        let mut out = format!(
            "{} playouts in {:.3} s: {:.1} playouts/s, mean length {:.2}\n",
            total.playouts, self.seconds, self.per_sec, self.mean_length
        );
        if total.unfinished > 0 {
            out.push_str(&format!(
                "{} playouts reached --max-steps {max_steps} unfinished\n",
                total.unfinished
            ));
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

/// A goal sum that becomes `None` once any playout gave the role no goal.
fn add(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    Some(a? + b?)
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
