//! `tabula play FILE [--seed S] [--agent ROLE=random|first|human|mcts[:BUDGET]]...
//! [--threads T] [--max-steps N]`: one game from the initial state to the end.
//!
//! Prints each step's joint move (as `ROLE=MOVE ...`, the form the REPL's
//! `play` reads), the board after it where the game declares one, and the
//! goals at the end. Random agents by default; nature (`random`) always
//! throws by weight. A human agent types moves on standard input, by number
//! or text; a move that is not legal is refused with the legal ones, and
//! asked again; `moves` lists them again. Moves are read, positions shown
//! and agents chosen by the front end the REPL uses too ([`crate::front`]).

use super::{
    EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, Line, clock_seed, open_game, read_line,
    start_state, use_color,
};
use crate::agent::Agent;
use crate::engine::{Game, Machine, State};
use crate::front::{engine_error, parse, view};
use crate::render::{self, Style};
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
    /// How a role plays: `ROLE=random`, `ROLE=first` (its first legal move),
    /// `ROLE=human` (moves typed on standard input), or `ROLE=mcts`,
    /// `ROLE=mcts:ITERATIONS`, `ROLE=mcts:SECONDSs` (Monte Carlo tree
    /// search). Default: random.
    #[arg(long = "agent", value_name = "ROLE=AGENT")]
    pub agents: Vec<String>,
    /// Root-parallel search trees of an MCTS agent.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Stop after this many steps if the game has not ended (default
    /// 10000, with a warning when the game reaches it).
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Start from the position in this file (its true facts in the game's
    /// syntax, as the REPL's `state` prints them) instead of the initial one.
    #[arg(long, value_name = "FILE")]
    pub from: Option<std::path::PathBuf>,
}

/// Steps after which a game that has not ended is stopped (a game without
/// a reachable terminal state would print forever).
pub const DEFAULT_MAX_STEPS: u64 = 10_000;

pub fn run(args: Args) -> i32 {
    let loaded = match open_game(&args.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let agents = match crate::agent::agents_per_role(game, &args.agents) {
        Ok(a) => a,
        Err(message) => {
            errln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let state = match start_state(game, args.from.as_deref()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let title = game
        .meta
        .title
        .clone()
        .unwrap_or_else(|| args.game.file.display().to_string());
    let who: Vec<String> = (0..game.role_count())
        .filter(|&r| Some(r) != game.random_role())
        .map(|r| format!("{} {}", game.role_name(r), agents[r]))
        .collect();
    outln!("{title}: {}; seed {seed}", who.join(", "));
    let mut table = Table {
        game,
        agents,
        threads: args.threads as usize,
        rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        style: Style {
            color: use_color(&std::io::stdout()),
            compact: true,
        },
    };
    match table.play(state, args.max_steps) {
        Ok(()) => EXIT_OK,
        Err(Stop::InputEnded(role)) => {
            errln!("error: input ended before {} moved", game.role_name(role));
            EXIT_USAGE
        }
        Err(Stop::Misbehaved(e)) => {
            errln!(
                "{}: error: {}",
                args.game.file.display(),
                engine_error(game, &e)
            );
            EXIT_INVALID
        }
    }
}

/// Why a game stopped before its end.
enum Stop {
    /// Standard input ended before this role's human moved.
    InputEnded(usize),
    /// The game description misbehaved.
    Misbehaved(crate::engine::EngineError),
}

/// One game being played: the agents and what they need.
struct Table<'g> {
    game: &'g Game,
    agents: Vec<Agent>,
    threads: usize,
    rng: Xoshiro256PlusPlus,
    style: Style,
}

impl Table<'_> {
    /// Plays from `state` to the end (or `max_steps` steps), printing each
    /// joint move, the board where the game declares one, and the outcome;
    /// a terminal state with malformed goals is the game misbehaving.
    fn play(&mut self, mut state: State, max_steps: Option<u64>) -> Result<(), Stop> {
        let game = self.game;
        let board = game.meta.board.is_some();
        if board {
            out!("{}", render::state(game, &state, self.style));
        }
        let mut m = game.machine();
        let mut step: u64 = 0;
        loop {
            m.set_state(&state);
            if m.is_terminal() {
                let steps = view::steps(step as usize);
                if let Err(e) = m.goals() {
                    outln!("game over after {steps}");
                    return Err(Stop::Misbehaved(e));
                }
                out!("game over after {steps}; {}", view::goals(&mut m));
                return Ok(());
            }
            if step >= max_steps.unwrap_or(DEFAULT_MAX_STEPS) {
                outln!("stopped after {} (--max-steps)", view::steps(step as usize));
                if max_steps.is_none() {
                    errln!(
                        "warning: the game has not ended after {DEFAULT_MAX_STEPS} steps, the default limit (--max-steps N sets another)"
                    );
                }
                return Ok(());
            }
            m.check_playable().map_err(Stop::Misbehaved)?;
            let joint = self.joint(&m)?;
            step += 1;
            let next = m.next(&joint).map_err(Stop::Misbehaved)?;
            outln!("{step}. {}", view::joint(game, &joint));
            state = next;
            if board {
                out!("{}", render::state(game, &state, self.style));
            }
        }
    }

    /// Every role's move in the loaded state, in role order.
    fn joint(&mut self, m: &Machine) -> Result<Vec<u32>, Stop> {
        let mut stdin = std::io::stdin().lock();
        (0..self.game.role_count())
            .map(
                |r| match self.agents[r].pick(m, r, &mut self.rng, self.threads) {
                    Some(mv) => mv.map_err(Stop::Misbehaved),
                    None => ask(m, r, &mut stdin).ok_or(Stop::InputEnded(r)),
                },
            )
            .collect()
    }
}
/// Asks a human for a role's move until a legal one comes; `None` at the
/// end of input. `moves` (or `m`) lists the legal moves again; a line that
/// is not text is refused like an illegal move.
fn ask(m: &Machine, role: usize, input: &mut impl BufRead) -> Option<u32> {
    let game = m.game();
    out!("{}", view::role_moves(m, role));
    loop {
        out!("{}> ", game.role_name(role));
        let _ = std::io::stdout().flush();
        let line = match read_line(input).ok()? {
            None => {
                outln!();
                return None;
            }
            Some(Line::Text(line)) => line,
            Some(bad) => {
                outln!();
                errln!("error: the line {}", bad.problem().unwrap_or_default());
                continue;
            }
        };
        if !std::io::stdin().is_terminal() {
            // Echo a piped answer, so the output reads as a dialogue.
            outln!("{}", line.trim_end());
        }
        match parse::choice(game, role, m.legal(role), &line) {
            Ok(mv) => return Some(mv),
            // The REPL's word (a legal move spelt so is taken above).
            Err(_) if matches!(line.trim(), "moves" | "m") => {
                out!("{}", view::role_moves(m, role));
            }
            Err(e) => errln!("error: {e}"),
        }
    }
}
