//! `tabula check FILE...`. Being written.

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Game files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn run(_args: Args) -> i32 {
    super::EXIT_OK
}
