//! `tabula analyze FILE [VARIANT] [--playouts N] [--mcts-games G]
//! [--mcts-iterations I] [--seed S] [--json]`: the figures a designer asks
//! for first.
//!
//! For each game: playouts and states per second, the distribution of game
//! lengths (a histogram), the mean branching by depth, the share of draws,
//! and each role's mean goal under random play and under short MCTS
//! self-play (`mcts:I` in every seat, G games: first-player advantage).
//! With two files the figures stand side by side, base then variant, and
//! each histogram follows. The same seed gives the same figures except the
//! speeds.

use super::json_string;
use super::{EXIT_INVALID, EXIT_OK, GameOptions, open_file};
use crate::agent::players;
use crate::agent::survey::{self, RandomPlay};
use crate::agent::tally::Summary;
use crate::engine::Game;
use crate::front::engine_error;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The game, or a base game and its variant to compare.
    #[arg(num_args = 1..=2, required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub options: GameOptions,
    /// Random playouts per game.
    #[arg(long, short = 'n', default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// Games of MCTS self-play per game (0: none).
    #[arg(long, default_value_t = 10)]
    pub mcts_games: u32,
    /// Iterations per move in self-play.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub mcts_iterations: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop a game after this many joint moves (it then counts as unfinished).
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: u32,
    /// Print one JSON object (with two files: `{"base":…,"variant":…}`).
    #[arg(long)]
    pub json: bool,
}

/// One game's figures.
struct Analysis {
    file: String,
    roles: Vec<String>,
    random: RandomPlay,
    /// Per role, its self-play summary.
    mcts: Vec<Summary>,
}

const BARS: usize = 12;
const BAR_WIDTH: usize = 40;

pub fn run(args: Args) -> i32 {
    let overrides = match args.options.overrides_or_usage() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut done = Vec::new();
    for path in &args.files {
        let loaded = match open_file(path, &args.options, &overrides) {
            Ok(l) => l,
            Err(code) => return code,
        };
        match analyze(&loaded.game, path, &args) {
            Ok(a) => done.push(a),
            Err(message) => {
                errln!("{}: error: {message}", path.display());
                return EXIT_INVALID;
            }
        }
    }
    if args.json {
        let objects: Vec<String> = done.iter().map(|a| json(a, &args)).collect();
        match &objects[..] {
            [one] => outln!("{one}"),
            [base, variant] => outln!("{{\"base\":{base},\"variant\":{variant}}}"),
            _ => {}
        }
        return EXIT_OK;
    }
    if let [base, variant] = &done[..] {
        out!("{}", side_by_side(base, variant, &args));
    }
    for a in &done {
        out!("{}", text(a, &args, done.len() == 1));
    }
    EXIT_OK
}

fn analyze(game: &Game, path: &std::path::Path, args: &Args) -> Result<Analysis, String> {
    let random = survey::random_play(game, args.playouts, args.seed, args.max_steps)
        .map_err(|e| engine_error(game, &e))?;
    let progress = std::io::stderr().is_terminal() && !args.json && args.mcts_games > 0;
    let tallies = survey::self_play(
        game,
        args.mcts_games,
        args.mcts_iterations,
        args.seed,
        args.max_steps,
        |g| {
            if progress {
                err!("\rself-play: {g}/{} games", args.mcts_games);
                let _ = std::io::stderr().flush();
            }
        },
    )
    .map_err(|e| engine_error(game, &e))?;
    if progress {
        err!("\r{}\r", " ".repeat(40));
    }
    Ok(Analysis {
        file: path.display().to_string(),
        roles: players(game).iter().map(|&r| game.role_name(r)).collect(),
        random,
        mcts: tallies.iter().map(|t| t.summary()).collect(),
    })
}

/// Lengths: mean, median, min, max of the finished playouts.
fn lengths(r: &RandomPlay) -> (f64, u32, u32, u32) {
    let mut sorted = r.lengths.clone();
    sorted.sort_unstable();
    let mean = sorted.iter().map(|&l| f64::from(l)).sum::<f64>() / sorted.len().max(1) as f64;
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
    let (min, max) = (
        sorted.first().copied().unwrap_or(0),
        sorted.last().copied().unwrap_or(0),
    );
    (mean, median, min, max)
}

fn draws_percent(r: &RandomPlay) -> f64 {
    100.0 * r.draws as f64 / r.lengths.len().max(1) as f64
}

fn speeds(r: &RandomPlay) -> (f64, f64) {
    let s = r.seconds.max(1e-9);
    (r.playouts as f64 / s, r.steps as f64 / s)
}

fn text(a: &Analysis, args: &Args, summary: bool) -> String {
    let r = &a.random;
    let mut out = format!("{}\n", a.file);
    if summary {
        let (per_sec, states) = speeds(r);
        let (mean, median, min, max) = lengths(r);
        out.push_str(&format!(
            "{} random playouts in {:.3} s: {per_sec:.1} playouts/s, {states:.0} states/s\n\
             length (joint moves): mean {mean:.1}, median {median}, min {min}, max {max}; \
             {} unfinished\ndraws: {:.1}% of finished playouts\n",
            r.playouts,
            r.seconds,
            r.unfinished,
            draws_percent(r)
        ));
        out.push_str(&goal_table(a, args));
    }
    out.push_str(&histogram(&r.lengths));
    out.push_str(&branching(&r.branching));
    out
}

fn goal_table(a: &Analysis, args: &Args) -> String {
    let width = a.roles.iter().map(String::len).max().unwrap_or(4).max(4);
    let mut out = format!(
        "{:<width$}  {:>11}  mcts:{} self-play, {} games: mean goal (95% CI)  wins draws losses\n",
        "role", "random goal", args.mcts_iterations, args.mcts_games
    );
    for (i, role) in a.roles.iter().enumerate() {
        let s = &a.mcts[i];
        out.push_str(&format!(
            "{role:<width$}  {:>11.1}  {:>6.1} ± {:<5.1}{:>34}\n",
            a.random.mean_goals()[i],
            s.mean_goal,
            s.ci95,
            format!("{} {} {}", s.wins, s.draws, s.losses)
        ));
    }
    out
}

/// The lengths in up to [`BARS`] equal ranges, a bar of `#` each.
fn histogram(lengths: &[u32]) -> String {
    let (Some(&min), Some(&max)) = (lengths.iter().min(), lengths.iter().max()) else {
        return "length histogram: no finished playout\n".into();
    };
    let span = (max - min + 1) as usize;
    let step = span.div_ceil(BARS);
    let mut counts = vec![0usize; span.div_ceil(step)];
    for &l in lengths {
        counts[(l - min) as usize / step] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let mut out = String::from("length histogram (joint moves: playouts)\n");
    for (i, &c) in counts.iter().enumerate() {
        let lo = min as usize + i * step;
        let range = if step == 1 {
            lo.to_string()
        } else {
            format!("{lo}-{}", lo + step - 1)
        };
        let bar = "#".repeat((c * BAR_WIDTH).div_ceil(top));
        out.push_str(&format!("  {range:>11}  {bar:<BAR_WIDTH$} {c}\n"));
    }
    out
}

/// Mean joint choices per state over up to [`BARS`] ranges of depth.
fn branching(by_depth: &[(f64, u64)]) -> String {
    if by_depth.is_empty() {
        return String::new();
    }
    let step = by_depth.len().div_ceil(BARS);
    let mut out = String::from("branching (mean joint choices per state) by depth\n");
    for (i, chunk) in by_depth.chunks(step).enumerate() {
        let (sum, n) = chunk
            .iter()
            .fold((0.0, 0), |(s, n), &(a, b)| (s + a, n + b));
        let lo = i * step;
        let range = if step == 1 {
            lo.to_string()
        } else {
            format!("{lo}-{}", lo + chunk.len() - 1)
        };
        out.push_str(&format!(
            "  {range:>11}  {:>10.1}  ({n} states)\n",
            sum / n.max(1) as f64
        ));
    }
    out
}

fn side_by_side(base: &Analysis, variant: &Analysis, args: &Args) -> String {
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |name: String, f: &dyn Fn(&Analysis) -> String| {
        rows.push((name, f(base), f(variant)));
    };
    row("playouts/s".into(), &|a| {
        format!("{:.1}", speeds(&a.random).0)
    });
    row("states/s".into(), &|a| {
        format!("{:.0}", speeds(&a.random).1)
    });
    row("mean length".into(), &|a| {
        format!("{:.1}", lengths(&a.random).0)
    });
    row("median length".into(), &|a| {
        lengths(&a.random).1.to_string()
    });
    row("min-max length".into(), &|a| {
        let (_, _, min, max) = lengths(&a.random);
        format!("{min}-{max}")
    });
    row("unfinished".into(), &|a| a.random.unfinished.to_string());
    row("draws (random)".into(), &|a| {
        format!("{:.1}%", draws_percent(&a.random))
    });
    let mut roles = base.roles.clone();
    roles.extend(
        variant
            .roles
            .iter()
            .filter(|r| !base.roles.contains(r))
            .cloned(),
    );
    for role in &roles {
        row(format!("goal {role}, random"), &|a| {
            a.roles
                .iter()
                .position(|r| r == role)
                .map_or("-".into(), |i| format!("{:.1}", a.random.mean_goals()[i]))
        });
        row(
            format!("goal {role}, mcts:{}", args.mcts_iterations),
            &|a| {
                a.roles
                    .iter()
                    .position(|r| r == role)
                    .map_or("-".into(), |i| {
                        format!("{:.1} ± {:.1}", a.mcts[i].mean_goal, a.mcts[i].ci95)
                    })
            },
        );
    }
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w1 = rows
        .iter()
        .map(|r| r.1.len())
        .chain([base.file.len()])
        .max()
        .unwrap_or(0);
    let mut out = format!("{:<w0$}  {:>w1$}  {}\n", "", base.file, variant.file);
    for (name, a, b) in rows {
        out.push_str(&format!("{name:<w0$}  {a:>w1$}  {b}\n"));
    }
    out.push_str(&format!(
        "({} random playouts and {} self-play games of mcts:{} each)\n",
        args.playouts, args.mcts_games, args.mcts_iterations
    ));
    out
}

fn json(a: &Analysis, args: &Args) -> String {
    let r = &a.random;
    let (per_sec, states) = speeds(r);
    let (mean, median, min, max) = lengths(r);
    let roles: Vec<String> = a
        .roles
        .iter()
        .enumerate()
        .map(|(i, role)| {
            let s = &a.mcts[i];
            format!(
                "{{\"role\":{},\"random_goal\":{:.4},\"mcts_goal\":{:.4},\"mcts_ci95\":{:.4},\"mcts_wins\":{},\"mcts_draws\":{},\"mcts_losses\":{}}}",
                json_string(role),
                r.mean_goals()[i],
                s.mean_goal,
                s.ci95,
                s.wins,
                s.draws,
                s.losses
            )
        })
        .collect();
    let hist: Vec<String> = r.lengths.iter().map(u32::to_string).collect();
    let branching: Vec<String> = r
        .branching
        .iter()
        .map(|&(s, n)| format!("{:.4}", s / n.max(1) as f64))
        .collect();
    format!(
        "{{\"file\":{},\"playouts\":{},\"seconds\":{:.6},\"playouts_per_sec\":{per_sec:.2},\"states_per_sec\":{states:.0},\"unfinished\":{},\"draw_share\":{:.4},\"mean_length\":{mean:.4},\"median_length\":{median},\"min_length\":{min},\"max_length\":{max},\"mcts_games\":{},\"mcts_iterations\":{},\"roles\":[{}],\"branching_by_depth\":[{}],\"lengths\":[{}]}}",
        json_string(&a.file),
        r.playouts,
        r.seconds,
        r.unfinished,
        draws_percent(r) / 100.0,
        args.mcts_games,
        args.mcts_iterations,
        roles.join(","),
        branching.join(","),
        hist.join(",")
    )
}
