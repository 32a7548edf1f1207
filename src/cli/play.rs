//! `tabula play FILE [--seed S] [--agent ROLE=random|first|human]...
//! [--max-steps N]`: one game from the initial state to the end.
//!
//! Prints each step's joint move (as `ROLE=MOVE ...`, the form the REPL's
//! `play` reads), the board after it where the game declares one, and the
//! goals at the end. Random agents by default; nature (`random`) always
//! throws by weight. A human agent types moves on standard input, by number
//! or text; a move that is not legal is refused with the legal ones, and
//! asked again. Moves are read, boards drawn and random moves chosen by the
//! same code as the REPL's.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, open_game};
use crate::render::{self, Style};
use crate::repl::{parse, random_move, view};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{BufRead, IsTerminal, Write};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of the random generator; from the clock when not given.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How a role plays: `ROLE=random`, `ROLE=first` (its first legal move)
    /// or `ROLE=human` (moves typed on standard input). Default: random.
    #[arg(long = "agent", value_name = "ROLE=AGENT")]
    pub agents: Vec<String>,
    /// Stop after this many steps if the game has not ended.
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Start from the position in this file (its true facts in the game's
    /// syntax, as the REPL's `state` prints them) instead of the initial one.
    #[arg(long, value_name = "FILE")]
    pub from: Option<std::path::PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agent {
    Random,
    First,
    Human,
}

impl Agent {
    fn name(self) -> &'static str {
        match self {
            Agent::Random => "random",
            Agent::First => "first",
            Agent::Human => "human",
        }
    }
}

pub fn run(args: Args) -> i32 {
    let loaded = match open_game(&args.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let n = game.role_count();
    let names: Vec<String> = (0..n).map(|r| game.role_name(r)).collect();
    let mut agents = vec![Agent::Random; n];
    for a in &args.agents {
        let Some((role, kind)) = a.split_once('=') else {
            errln!("error: --agent takes ROLE=random|first|human, not `{a}`");
            return EXIT_USAGE;
        };
        let Some(r) = names.iter().position(|n| n == role.trim()) else {
            errln!(
                "error: --agent {a}: there is no role `{}`; the roles are {}",
                role.trim(),
                names.join(", ")
            );
            return EXIT_USAGE;
        };
        if Some(r) == game.random_role() {
            errln!("error: --agent {a}: `{role}` is nature, which always throws by weight");
            return EXIT_USAGE;
        }
        agents[r] = match kind.trim() {
            "random" => Agent::Random,
            "first" => Agent::First,
            "human" => Agent::Human,
            other => {
                errln!("error: --agent {a}: `{other}` is not an agent (random, first, human)");
                return EXIT_USAGE;
            }
        };
    }
    let seed = args.seed.unwrap_or_else(super::repl::clock_seed);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let style = Style {
        color: std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal(),
        compact: true,
    };
    let board = game.meta.board.is_some();
    let mut state = match &args.from {
        Some(path) => match parse::state_file(game, path) {
            Ok(s) => s,
            Err(e) => {
                errln!("error: {e}");
                return EXIT_USAGE;
            }
        },
        None => game.initial(),
    };
    let title = game
        .meta
        .title
        .clone()
        .unwrap_or_else(|| args.game.file.display().to_string());
    let who: Vec<String> = (0..n)
        .filter(|&r| Some(r) != game.random_role())
        .map(|r| format!("{} {}", names[r], agents[r].name()))
        .collect();
    outln!("{title}: {}; seed {seed}", who.join(", "));
    if board {
        out!("{}", render::state(game, &state, style));
    }
    let mut m = game.machine();
    let mut stdin = std::io::stdin().lock();
    let mut step: u64 = 0;
    loop {
        m.set_state(&state);
        if m.is_terminal() {
            out!(
                "game over after {}; {}",
                view::steps(step as usize),
                view::goals(&mut m)
            );
            return EXIT_OK;
        }
        if args.max_steps.is_some_and(|max| step >= max) {
            outln!("stopped after {} (--max-steps)", view::steps(step as usize));
            return EXIT_OK;
        }
        if let Err(e) = m.check_playable() {
            errln!("{}: error: {e}", args.game.file.display());
            return EXIT_INVALID;
        }
        let mut joint = Vec::with_capacity(n);
        for r in 0..n {
            let legal = m.legal(r);
            let mv = match agents[r] {
                _ if legal.len() == 1 => Ok(legal[0]),
                Agent::First if Some(r) != game.random_role() => Ok(legal[0]),
                Agent::Human => match ask(&m, r, &mut stdin) {
                    Some(mv) => Ok(mv),
                    None => {
                        errln!("error: input ended before {} moved", names[r]);
                        return EXIT_USAGE;
                    }
                },
                _ => random_move(&m, r, &mut rng),
            };
            match mv {
                Ok(mv) => joint.push(mv),
                Err(e) => {
                    errln!("{}: error: {e}", args.game.file.display());
                    return EXIT_INVALID;
                }
            }
        }
        step += 1;
        outln!("{step}. {}", view::joint(game, &joint));
        state = m.next(&joint);
        if board {
            out!("{}", render::state(game, &state, style));
        }
    }
}

/// Asks a human for a role's move until a legal one comes; `None` at the
/// end of input.
fn ask(m: &crate::engine::Machine, role: usize, input: &mut impl BufRead) -> Option<u32> {
    let game = m.game();
    out!("{}", view::role_moves(m, role));
    loop {
        out!("{}> ", game.role_name(role));
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            outln!();
            return None;
        }
        if !std::io::stdin().is_terminal() {
            // Echo a piped answer, so the output reads as a dialogue.
            outln!("{}", line.trim_end());
        }
        match parse::choice(game, role, m.legal(role), &line) {
            Ok(mv) => return Some(mv),
            Err(e) => errln!("error: {e}"),
        }
    }
}
