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
use crate::engine::{Game, Machine, State};
use crate::front::{choosing, engine_error, view};
use crate::render::svg::{self, Frame};
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
            draw(game, &state, None, 0)
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
    if !same_file(named, &args.game.file) {
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
    Ok(draw(
        session.game(),
        session.state(),
        last.as_deref(),
        session.step(),
    ))
}

fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The SVG of a state, with the last joint move (if any) outlined and
/// named in the caption, and whose turn it is.
fn draw(game: &Game, state: &State, last: Option<&[u32]>, step: usize) -> String {
    let mut machine = game.machine();
    machine.set_state(state);
    let mut caption = vec![format!("step {step}: {}", turn(&mut machine))];
    let mut frame = Frame::default();
    if let Some(joint) = last {
        caption.push(format!("last step: {}", view::joint(game, joint)));
        frame.last_move = joint
            .iter()
            .enumerate()
            .map(|(r, &m)| game.move_term(r, m))
            .collect();
    }
    frame.caption = caption;
    svg::state(game, state, &frame)
}

/// Whose turn it is, in a few words: the goals at the end, the roles that
/// choose and nature's throw, or the one joint move there is.
fn turn(m: &mut Machine) -> String {
    let game = m.game();
    if m.is_terminal() {
        return format!("game over; {}", view::goals(m).trim_end());
    }
    if let Err(e) = m.check_playable() {
        return format!("error: {}", engine_error(game, &e));
    }
    let mut who: Vec<String> = choosing(m)
        .iter()
        .map(|&r| format!("{} to move", game.role_name(r)))
        .collect();
    if let Some(r) = game.random_role().filter(|&r| m.legal(r).len() > 1) {
        who.push(format!("{} throws", game.role_name(r)));
    }
    if who.is_empty() {
        let only: Vec<u32> = (0..game.role_count()).map(|r| m.legal(r)[0]).collect();
        return format!("the one joint move is {}", view::joint(game, &only));
    }
    who.join(", ")
}
