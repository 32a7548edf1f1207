//! The command line: argument parsing and one module per subcommand.
//!
//! In: process arguments. Out: an exit code (0 success, 1 invalid game file,
//! 2 usage or I/O error). Only this module and `repl` print.

/// `println!` that never panics: a closed pipe (`tabula perft ... | head`)
/// just means nobody reads any more.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that never panics (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

mod bench;
mod check;
mod perft;
mod play;
mod repl;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "A general game description interpreter"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, check and ground game files; print diagnostics.
    Check(check::Args),
    /// Count the game tree exhaustively, depth by depth.
    Perft(perft::Args),
    /// Random playouts: speed, mean length, mean goals.
    Bench(bench::Args),
    /// Play one game: random, first-move or human agents per role.
    Play(play::Args),
    /// Step through a game interactively (or from a script on stdin).
    Repl(repl::Args),
}

/// Options shared by every command that opens one game.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// The game file (`.rules`, or `.kif`/`.gdl` for GDL in KIF syntax).
    pub file: PathBuf,
    /// Read the file in this syntax whatever its extension.
    #[arg(long, value_enum)]
    pub syntax: Option<SyntaxArg>,
    /// Set a parameter of a native game: `--param NAME=VALUE`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SyntaxArg {
    Kif,
    Rules,
}

pub const EXIT_OK: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
        }
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Play(args) => play::run(args),
        Command::Repl(args) => repl::run(args),
    }
}

impl GameArgs {
    pub fn syntax(&self) -> Option<crate::syntax::Syntax> {
        self.syntax.map(|s| match s {
            SyntaxArg::Kif => crate::syntax::Syntax::Kif,
            SyntaxArg::Rules => crate::syntax::Syntax::Rules,
        })
    }

    /// `--param NAME=VALUE` pairs; `Err` names the malformed one.
    pub fn overrides(&self) -> Result<crate::syntax::Overrides, String> {
        self.params
            .iter()
            .map(|p| match p.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => {
                    Ok((k.trim().to_string(), v.trim().to_string()))
                }
                _ => Err(p.clone()),
            })
            .collect()
    }
}

/// Whether diagnostics on stderr may use colour.
pub fn stderr_color() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// Prints diagnostics on stderr.
pub fn print_diagnostics(
    diags: &[crate::diag::Diagnostic],
    sources: &crate::syntax::SourceMap,
    path: &std::path::Path,
) {
    let color = stderr_color();
    for d in diags {
        err!(
            "{}",
            crate::diag::render(d, sources, &path.display().to_string(), color)
        );
    }
}

/// Opens the game named on the command line, printing diagnostics; on
/// failure returns the exit code to use.
pub fn open_game(args: &GameArgs) -> Result<crate::load::Loaded, i32> {
    let overrides = match args.overrides() {
        Ok(o) => o,
        Err(bad) => {
            errln!("error: --param takes NAME=VALUE, not `{bad}`");
            return Err(EXIT_USAGE);
        }
    };
    if !args.file.is_file() {
        errln!("error: cannot read {}: no such file", args.file.display());
        return Err(EXIT_USAGE);
    }
    match crate::load::open(&args.file, args.syntax(), &overrides) {
        Ok(loaded) => {
            print_diagnostics(&loaded.warnings, &loaded.sources, &args.file);
            Ok(loaded)
        }
        Err(failed) => {
            if let Some(e) = failed.unreadable {
                errln!("error: {e}");
                return Err(EXIT_USAGE);
            }
            print_diagnostics(&failed.diagnostics, &failed.sources, &args.file);
            Err(EXIT_INVALID)
        }
    }
}
