//! The command line: argument parsing and one module per subcommand.
//!
//! In: process arguments. Out: an exit code (0 success, 1 invalid game file,
//! 2 usage or I/O error). Only this module and `repl` print.

mod check;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "tabula", version, about = "A general game description interpreter")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, check and ground game files; print diagnostics.
    Check(check::Args),
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
    }
}
