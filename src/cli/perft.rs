//! `tabula perft FILE --depth D [--json]`: exhaustive counts per depth.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, open_game};
use crate::engine::perft::{Level, PerftError, perft};

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
    let loaded = match open_game(&args.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let json = args.json;
    let result = perft(&loaded.game, args.depth, |l: Level| {
        if !json {
            outln!("depth {} leaves {} states {}", l.depth, l.leaves, l.states);
        }
    });
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
                crate::front::engine_error(&loaded.game, &e)
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
