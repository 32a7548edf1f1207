//! `tabula render FILE [--param ...] [--from POSITION]
//! [--transcript FILE --step N] [-o OUT.svg]`: one position as SVG.
//!
//! The position is the initial one, one read from a file (`--from`, as the
//! REPL's `state` prints it), or the one a REPL transcript reaches after N
//! of its steps (all of them without `--step`; the transcript names its
//! game, which must be FILE). With a transcript the last step's cells are
//! outlined and its joint move is in the caption. Writes standard output
//! without `-o`.

use super::{EXIT_OK, EXIT_USAGE, GameArgs, open_game, start_state};
use crate::render::svg;
use crate::repl::transcript;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Draw the position in this file (its true facts, as the REPL's
    /// `state` prints them).
    #[arg(long, value_name = "FILE", conflicts_with = "transcript")]
    pub from: Option<PathBuf>,
    /// Draw a position of this REPL transcript (saved with `save`).
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    /// With `--transcript`: the position after this many steps (0 is the
    /// start); the last one when not given.
    #[arg(long, value_name = "N", requires = "transcript")]
    pub step: Option<usize>,
    /// Write the SVG here instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> i32 {
    let picture = match &args.transcript {
        Some(path) => match from_transcript(&args, path) {
            Ok(p) => p,
            Err(message) => {
                errln!("error: {message}");
                return EXIT_USAGE;
            }
        },
        None => {
            let loaded = match open_game(&args.game) {
                Ok(l) => l,
                Err(code) => return code,
            };
            let game = &loaded.game;
            let state = match start_state(game, args.from.as_deref()) {
                Ok(s) => s,
                Err(code) => return code,
            };
            svg::position(game, &state, None, 0, false)
        }
    };
    match &args.output {
        Some(path) => match std::fs::write(path, picture) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                errln!("error: cannot write {}: {e}", path.display());
                EXIT_USAGE
            }
        },
        None => {
            out!("{picture}");
            EXIT_OK
        }
    }
}

/// The picture of a transcript's position after `--step` steps.
fn from_transcript(args: &Args, path: &std::path::Path) -> Result<String, String> {
    let mut session = transcript::replay(path).map_err(|e| e.to_string())?;
    let named = &session.origin().path;
    if !transcript::same_file(named, &args.game.file) {
        return Err(format!(
            "the transcript is of {}, not {}",
            named.display(),
            args.game.file.display()
        ));
    }
    let steps = session.step();
    if let Some(n) = args.step {
        if n > steps {
            return Err(format!("the transcript has {steps} steps, not {n}"));
        }
        if n < steps {
            let reply = session.execute(&format!("undo {}", steps - n));
            if reply.failed {
                return Err(reply.text.trim_end().to_string());
            }
        }
    }
    let last = session.last_move().map(<[u32]>::to_vec);
    Ok(svg::position(
        session.game(),
        session.state(),
        last.as_deref(),
        session.step(),
        false,
    ))
}
