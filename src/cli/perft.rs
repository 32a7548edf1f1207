//! `tabula perft FILE --depth D [--json]`: exhaustive counts per depth.
//!
//! Without `--engine`, a game that does not ground within a peek is counted
//! on the rule evaluator first ([`crate::load::open_staged`]). Before each
//! level, once the rule evaluator's work so far and on the level ahead
//! reaches twice the last try, grounding is tried again with that much
//! effort, and the count goes on compiled if it fits: a shallow count pays
//! for little grounding, a deep one runs compiled.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, open_game, open_staged_game};
use crate::engine::perft::{PerftError, perft_switching};
use crate::load::Staged;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Count joint-move sequences up to this length.
    #[arg(long, short)]
    pub depth: u32,
    /// Print one JSON object instead of text lines.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    let opened = match args.game.options.engine {
        None => open_staged_game(&args.game),
        Some(_) => open_game(&args.game).map(Staged::from),
    };
    let Staged {
        loaded,
        mut deferred,
    } = match opened {
        Ok(staged) => staged,
        Err(code) => return code,
    };
    let json = args.json;
    let switch = |ahead| deferred.as_mut()?.when_paid(ahead);
    let mut compiled = None;
    let result = perft_switching(&loaded.game, args.depth, switch, &mut compiled, |l| {
        if !json {
            outln!("depth {} leaves {} states {}", l.depth, l.leaves, l.states);
        }
    });
    let game = compiled.as_ref().unwrap_or(&loaded.game);
    match result {
        Ok(levels) => {
            if json {
                let rows: Vec<String> = levels
                    .iter()
                    .map(|l| {
                        format!(
                            "{{\"depth\":{},\"leaves\":{},\"states\":{}}}",
                            l.depth, l.leaves, l.states
                        )
                    })
                    .collect();
                outln!("{{\"levels\":[{}]}}", rows.join(","));
            }
            EXIT_OK
        }
        Err(PerftError::Engine(e)) => {
            errln!(
                "{}: error: {}",
                args.game.file.display(),
                crate::front::engine_error(game, &e)
            );
            EXIT_INVALID
        }
        // The game is valid; the depth asked for is beyond exact counting.
        Err(e @ PerftError::TooManyLeaves { .. }) => {
            errln!("{}: error: {e}", args.game.file.display());
            EXIT_USAGE
        }
    }
}
