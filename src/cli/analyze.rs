//! `tabula analyze FILE [VARIANT] [--seconds S] [--playouts N]
//! [--mcts-games G] [--mcts-iterations I] [--seed S] [--json]`: the figures
//! a designer asks for first.
//!
//! For each game: playouts and states per second, the distribution of game
//! lengths (a histogram), the players' branching by depth (nature's
//! outcomes left out), the share of draws, and each role's mean goal under
//! random play and under short MCTS self-play (`mcts:I` in every seat, G
//! games: first-player advantage). With two files the figures stand side
//! by side, base then variant, and each histogram follows.
//!
//! Without `--playouts` and `--mcts-games` the counts follow from a time
//! budget (`--seconds`, shared by the files): random playouts for a quarter
//! of a file's share (at most 1000), then as many self-play games (at most
//! 10) as the speed measured by the playouts says fit in the rest; none,
//! with the estimate of one game, when not even one fits. On a terminal
//! each phase shows its progress and the time left on stderr. The same
//! seed and counts give the same figures except the speeds, however the
//! playouts and games are split ([`survey`]): the Python package's
//! distributed analysis gathers its parts into [`json_report`].

use super::json_string;
use super::progress::{Progress, duration_words, time_left};
use super::{EXIT_INVALID, EXIT_OK, GameOptions, open_file};
use crate::agent::players;
use crate::agent::survey::{self, PlayoutLimit, RandomPlay};
use crate::agent::tally::Summary;
use crate::engine::Game;
use crate::front::engine_error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The game, or a base game and its variant to compare.
    #[arg(num_args = 1..=2, required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub options: GameOptions,
    /// The time to spend in all, in seconds, when the counts below are not
    /// given: they then follow from the measured speed of each game.
    #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
    pub seconds: f64,
    /// Random playouts per game (default: as many as a quarter of the
    /// game's share of --seconds allows, at most 1000).
    #[arg(long, short = 'n', value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Games of MCTS self-play per game, 0 for none (default: as many as
    /// the rest of the game's share of --seconds allows, at most 10).
    #[arg(long)]
    pub mcts_games: Option<u32>,
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

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s <= 1e9 => Ok(s),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// One game's figures.
struct Analysis {
    file: String,
    roles: Vec<String>,
    random: RandomPlay,
    self_play: SelfPlay,
}

/// Self-play's figures, or why there are none.
pub enum SelfPlay {
    /// Per role, its summary over `games` games.
    Run { games: u32, summaries: Vec<Summary> },
    /// Not run: `--mcts-games 0`, or the estimated time of one game
    /// exceeded the budget.
    NotRun { reason: String },
}

impl SelfPlay {
    fn summary(&self, role: usize) -> Option<&Summary> {
        match self {
            SelfPlay::Run { summaries, .. } => summaries.get(role),
            SelfPlay::NotRun { .. } => None,
        }
    }

    fn games(&self) -> u32 {
        match self {
            SelfPlay::Run { games, .. } => *games,
            SelfPlay::NotRun { .. } => 0,
        }
    }
}

const BARS: usize = 12;
const BAR_WIDTH: usize = 40;
/// Random playouts run at most by default.
const DEFAULT_PLAYOUTS: u64 = 1000;
/// Self-play games run at most by default.
const DEFAULT_GAMES: u32 = 10;

pub fn run(args: Args) -> i32 {
    let overrides = match args.options.overrides_or_usage() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut done = Vec::new();
    let share = Duration::from_secs_f64(args.seconds / args.files.len() as f64);
    for path in &args.files {
        let loaded = match open_file(path, &args.options, &overrides) {
            Ok(l) => l,
            Err(code) => return code,
        };
        match analyze(&loaded.game, path, &args, share) {
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

fn analyze(
    game: &Game,
    path: &std::path::Path,
    args: &Args,
    share: Duration,
) -> Result<Analysis, String> {
    let started = Instant::now();
    let mut progress = Progress::on_terminal(!args.json);
    let name = path.display();
    let limit = match args.playouts {
        Some(count) => PlayoutLimit {
            count,
            deadline: None,
        },
        None => PlayoutLimit {
            count: DEFAULT_PLAYOUTS,
            deadline: Some(started + share / 4),
        },
    };
    let random = survey::random_play(game, 0, limit, args.seed, args.max_steps, |done| {
        progress.show(|| {
            let by_count = done as f64 / limit.count as f64;
            let by_time = limit.deadline.map_or(0.0, |d| {
                let whole = d.saturating_duration_since(started).as_secs_f64();
                started.elapsed().as_secs_f64() / whole.max(1e-9)
            });
            let left = time_left(started.elapsed(), by_count.max(by_time)).unwrap_or_default();
            format!("{name}: random playouts {done}, {left}")
        });
    })
    .map_err(|e| engine_error(game, &e))?;
    let self_play = match planned_games(args, &random, share.saturating_sub(started.elapsed())) {
        Ok(games) => {
            let phase = Instant::now();
            let length = mean_length(&random).max(1.0);
            let tallies = survey::self_play(
                game,
                games,
                args.mcts_iterations,
                args.seed,
                args.max_steps,
                |g, moves| {
                    progress.show(|| {
                        let within = (f64::from(moves) / length).min(0.95);
                        let fraction = (f64::from(g) + within) / f64::from(games);
                        let left = time_left(phase.elapsed(), fraction).unwrap_or_default();
                        format!(
                            "{name}: self-play game {}/{games}, move {moves}, {left}",
                            g + 1
                        )
                    });
                },
            )
            .map_err(|e| engine_error(game, &e))?;
            SelfPlay::Run {
                games,
                summaries: tallies.iter().map(|t| t.summary()).collect(),
            }
        }
        Err(reason) => SelfPlay::NotRun { reason },
    };
    progress.clear();
    Ok(Analysis {
        file: path.display().to_string(),
        roles: players(game).iter().map(|&r| game.role_name(r)).collect(),
        random,
        self_play,
    })
}

/// The self-play games to run: `--mcts-games`, or as many as fit in `left`
/// by the estimate from the random playouts (at most [`DEFAULT_GAMES`]);
/// the reason when there are none.
fn planned_games(args: &Args, random: &RandomPlay, left: Duration) -> Result<u32, String> {
    let iterations = args.mcts_iterations;
    match args.mcts_games {
        Some(0) => return Err("--mcts-games 0".into()),
        Some(games) => return Ok(games),
        None => {}
    }
    let Some(one) = random.self_play_estimate(iterations) else {
        return Err("no random playout to estimate its time from".into());
    };
    let fit = (left.as_secs_f64() / one.as_secs_f64().max(1e-9)).floor();
    if fit >= 1.0 {
        return Ok((fit as u32).min(DEFAULT_GAMES));
    }
    Err(format!(
        "one game of mcts:{iterations} would take about {} here (--mcts-games 1 runs it)",
        duration_words(one.as_secs_f64())
    ))
}

fn mean_length(r: &RandomPlay) -> f64 {
    lengths(r).0
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
    let mcts = match &a.self_play {
        SelfPlay::Run { games, .. } => format!(
            "mcts:{} self-play, {games} games: mean goal (95% CI)  wins draws losses",
            args.mcts_iterations
        ),
        SelfPlay::NotRun { reason } => {
            format!(
                "mcts:{} self-play: not run ({reason})",
                args.mcts_iterations
            )
        }
    };
    let mut out = format!("{:<width$}  {:>11}  {mcts}\n", "role", "random goal");
    for (i, role) in a.roles.iter().enumerate() {
        let random = a.random.mean_goals()[i];
        match a.self_play.summary(i) {
            Some(s) => out.push_str(&format!(
                "{role:<width$}  {random:>11.1}  {:>6.1} ± {:<5.1}{:>34}\n",
                s.mean_goal,
                s.ci95,
                format!("{} {} {}", s.wins, s.draws, s.losses)
            )),
            None => out.push_str(&format!("{role:<width$}  {random:>11.1}  -\n")),
        }
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
    let mut out = String::from(
        "players' branching (mean joint choices of the players per state, nature left out) by depth\n",
    );
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
                let i = a.roles.iter().position(|r| r == role);
                match (i, &a.self_play) {
                    (None, _) => "-".into(),
                    (Some(_), SelfPlay::NotRun { .. }) => "not run".into(),
                    (Some(i), SelfPlay::Run { summaries, .. }) => {
                        format!("{:.1} ± {:.1}", summaries[i].mean_goal, summaries[i].ci95)
                    }
                }
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
        "(random playouts: {} and {}; self-play games of mcts:{}: {} and {})\n",
        base.random.playouts,
        variant.random.playouts,
        args.mcts_iterations,
        base.self_play.games(),
        variant.self_play.games()
    ));
    out
}

fn json(a: &Analysis, args: &Args) -> String {
    json_report(
        &a.file,
        &a.roles,
        &a.random,
        &a.self_play,
        args.mcts_iterations,
    )
}

/// One game's report as the JSON object of `tabula analyze --json`: the
/// file's name, the players' names (order of [`players`]), the random
/// playouts, the self-play and its iterations per move.
pub fn json_report(
    file: &str,
    roles: &[String],
    random: &RandomPlay,
    self_play: &SelfPlay,
    mcts_iterations: u32,
) -> String {
    let r = random;
    let (per_sec, states) = speeds(r);
    let (mean, median, min, max) = lengths(r);
    let roles: Vec<String> = roles
        .iter()
        .enumerate()
        .map(|(i, role)| {
            let mcts = match self_play.summary(i) {
                Some(s) => format!(
                    "\"mcts_goal\":{:.4},\"mcts_ci95\":{:.4},\"mcts_wins\":{},\"mcts_draws\":{},\"mcts_losses\":{}",
                    s.mean_goal, s.ci95, s.wins, s.draws, s.losses
                ),
                None => "\"mcts_goal\":null,\"mcts_ci95\":null,\"mcts_wins\":null,\"mcts_draws\":null,\"mcts_losses\":null".into(),
            };
            format!(
                "{{\"role\":{},\"random_goal\":{:.4},{mcts}}}",
                json_string(role),
                r.mean_goals()[i],
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
        "{{\"file\":{},\"playouts\":{},\"seconds\":{:.6},\"playouts_per_sec\":{per_sec:.2},\"states_per_sec\":{states:.0},\"unfinished\":{},\"draw_share\":{:.4},\"mean_length\":{mean:.4},\"median_length\":{median},\"min_length\":{min},\"max_length\":{max},\"mcts_games\":{},\"mcts_not_run\":{},\"mcts_iterations\":{},\"roles\":[{}],\"branching_by_depth\":[{}],\"lengths\":[{}]}}",
        json_string(file),
        r.playouts,
        r.seconds,
        r.unfinished,
        draws_percent(r) / 100.0,
        self_play.games(),
        match self_play {
            SelfPlay::NotRun { reason } => json_string(reason),
            SelfPlay::Run { .. } => "null".into(),
        },
        mcts_iterations,
        roles.join(","),
        branching.join(","),
        hist.join(",")
    )
}
