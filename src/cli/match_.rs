//! `tabula match FILE --agent ROLE=SPEC ... --games N [--seed S]
//! [--threads T] [--swap] [--json]`: many games between machine agents.
//!
//! Prints, per agent and per role: games, wins, draws, losses, the mean goal
//! with its 95% confidence interval, the mean game length and the time per
//! move. Roles without `--agent` play at random. With `--swap` game `g`
//! rotates the agents `g` places through the players, so every agent plays
//! every seat equally often (with N a multiple of the players): the lines
//! per agent then measure strength, the lines per role seat advantage.
//! Game `g` is played with seed `S + g`; a progress bar shows on a terminal.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, json_string, open_for_playouts};
use crate::agent::tally::{Summary, Tally, result};
use crate::agent::{self, Agent, duel};
use crate::engine::{EngineError, Game};
use crate::front::engine_error;
use std::io::{IsTerminal, Write};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// `ROLE=AGENT`: random, first, mcts, mcts:ITERATIONS or mcts:SECONDSs.
    #[arg(long = "agent", value_name = "ROLE=AGENT")]
    pub agents: Vec<String>,
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 100, value_parser = positive_games)]
    pub games: u32,
    /// Seed of game 0 (game g uses S + g).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Root-parallel search trees of each MCTS agent.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Rotate the agents through the roles from game to game.
    #[arg(long)]
    pub swap: bool,
    /// Stop a game after this many joint moves (it then counts as unfinished).
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: u32,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The agents of a match: one per player, in player order, with the label
/// each is reported under: `ROLE=SPEC` where it keeps its role; with
/// `--swap`, where it plays every role, its spec (`mcts:100`), and where two
/// agents share a spec, the role each starts in too (`random, from x`).
struct Lineup {
    players: Vec<usize>,
    agents: Vec<Agent>,
    labels: Vec<String>,
}

pub fn run(args: Args) -> i32 {
    let loaded = match open_for_playouts(&args.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let lineup = match lineup(game, &args.agents, args.swap) {
        Ok(l) => l,
        Err(message) => {
            errln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    match play_all(game, &lineup, &args) {
        Ok((by_agent, by_role)) => {
            let agents: Vec<(String, Summary)> = lineup
                .labels
                .iter()
                .cloned()
                .zip(by_agent.iter().map(Tally::summary))
                .collect();
            let roles: Vec<(String, Summary)> = lineup
                .players
                .iter()
                .map(|&r| game.role_name(r))
                .zip(by_role.iter().map(Tally::summary))
                .collect();
            if args.json {
                outln!("{}", json(&args, &agents, &roles));
            } else {
                out!("{}", text(&args, &agents, &roles));
            }
            EXIT_OK
        }
        Err(e) => {
            errln!(
                "{}: error: {}",
                args.game.file.display(),
                engine_error(game, &e)
            );
            EXIT_INVALID
        }
    }
}

/// `--games N` with N a positive whole number.
fn positive_games(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "a match plays a positive whole number of games (such as --games 100), not `{text}`"
        )),
    }
}

/// The agents from the `--agent` options, random for the roles not named;
/// no human (nobody would answer).
fn lineup(game: &Game, options: &[String], swap: bool) -> Result<Lineup, String> {
    let given = agent::parse_options(game, options).map_err(|e| e.to_string())?;
    if let Some(option) = given
        .iter()
        .zip(options)
        .find(|((_, a), _)| *a == Agent::Human)
    {
        return Err(format!(
            "--agent {}: a match plays machine agents only ({})",
            option.1, "random, first, mcts, mcts:ITERATIONS, mcts:SECONDSs"
        ));
    }
    let players = agent::players(game);
    let agents: Vec<Agent> = players
        .iter()
        .map(|&r| {
            given
                .iter()
                .find(|(g, _)| *g == r)
                .map_or(Agent::Random, |(_, a)| *a)
        })
        .collect();
    let labels = players
        .iter()
        .zip(&agents)
        .map(|(&r, agent)| {
            let role = game.role_name(r);
            let shared = agents.iter().filter(|a| *a == agent).count() > 1;
            match (swap, shared) {
                (false, _) => format!("{role}={agent}"),
                (true, false) => agent.to_string(),
                (true, true) => format!("{agent}, from {role}"),
            }
        })
        .collect();
    Ok(Lineup {
        players,
        agents,
        labels,
    })
}

/// Plays every game; the tallies per agent and per role (player order).
fn play_all(
    game: &Game,
    lineup: &Lineup,
    args: &Args,
) -> Result<(Vec<Tally>, Vec<Tally>), EngineError> {
    let p = lineup.players.len();
    let mut by_agent = vec![Tally::default(); p];
    let mut by_role = vec![Tally::default(); p];
    let progress = std::io::stderr().is_terminal() && !args.json;
    for g in 0..args.games {
        let shift = if args.swap { g as usize % p.max(1) } else { 0 };
        // Seat i (player lineup.players[i]) gets agent (i + shift) % p.
        let mut agents = vec![Agent::Random; game.role_count()];
        for (i, &r) in lineup.players.iter().enumerate() {
            agents[r] = lineup.agents[(i + shift) % p];
        }
        let seed = args.seed.wrapping_add(u64::from(g));
        let record = duel::play(game, &agents, seed, args.threads as usize, args.max_steps)?;
        for (i, &r) in lineup.players.iter().enumerate() {
            let a = (i + shift) % p;
            let thinking = record.thinking[r];
            for tally in [&mut by_agent[a], &mut by_role[i]] {
                match &record.goals {
                    Some(goals) => tally.add(
                        goals[r].unwrap_or(0),
                        result(goals, r, &lineup.players),
                        record.length,
                        thinking,
                    ),
                    None => tally.add_unfinished(record.length, thinking),
                }
            }
        }
        if progress {
            show_progress(g + 1, args.games);
        }
    }
    if progress {
        err!("\r{}\r", " ".repeat(60));
    }
    Ok((by_agent, by_role))
}

fn show_progress(done: u32, all: u32) {
    let width = 30;
    let filled = (done as usize * width / all.max(1) as usize).min(width);
    err!(
        "\r[{}{}] {done}/{all} games",
        "#".repeat(filled),
        " ".repeat(width - filled)
    );
    let _ = std::io::stderr().flush();
}

fn text(args: &Args, agents: &[(String, Summary)], roles: &[(String, Summary)]) -> String {
    let mut out = format!(
        "{}: {} games, seed {}{}\n",
        args.game.file.display(),
        args.games,
        args.seed,
        if args.swap { ", agents swapped" } else { "" }
    );
    let width = agents
        .iter()
        .chain(roles)
        .map(|(l, _)| l.len())
        .max()
        .unwrap_or(0)
        .max(5);
    for (title, lines) in [("agent", agents), ("role", roles)] {
        out.push_str(&format!(
            "{title:<width$}  games  wins draws losses  mean goal (95% CI)  length  s/move\n"
        ));
        for (label, s) in lines {
            out.push_str(&format!(
                "{label:<width$}  {:>5}  {:>4} {:>5} {:>6}  {:>6.1} ± {:<4.1}       {:>6.1}  {:.4}\n",
                s.games, s.wins, s.draws, s.losses, s.mean_goal, s.ci95, s.mean_length, s.seconds_per_move
            ));
        }
    }
    let unfinished = roles.first().map_or(0, |(_, s)| s.unfinished);
    if unfinished > 0 {
        out.push_str(&format!(
            "{unfinished} games reached --max-steps {} unfinished (left out of wins, draws, losses and goals)\n",
            args.max_steps
        ));
    }
    out
}

fn json(args: &Args, agents: &[(String, Summary)], roles: &[(String, Summary)]) -> String {
    let lines = |key: &str, lines: &[(String, Summary)]| -> String {
        lines
            .iter()
            .map(|(label, s)| {
                format!(
                    "{{\"{key}\":{},\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"unfinished\":{},\"mean_goal\":{:.4},\"ci95\":{:.4},\"mean_length\":{:.4},\"seconds_per_move\":{:.6}}}",
                    json_string(label),
                    s.games,
                    s.wins,
                    s.draws,
                    s.losses,
                    s.unfinished,
                    s.mean_goal,
                    s.ci95,
                    s.mean_length,
                    s.seconds_per_move
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{{\"games\":{},\"seed\":{},\"swap\":{},\"threads\":{},\"agents\":[{}],\"roles\":[{}]}}",
        args.games,
        args.seed,
        args.swap,
        args.threads,
        lines("agent", agents),
        lines("role", roles)
    )
}
