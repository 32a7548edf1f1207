//! `tabula check FILE...`: parse and check game files, print diagnostics.
//!
//! In: file paths and options. Out: diagnostics on stderr, sizes on stdout
//! with `--explain`, and the exit code: 0 if every file is valid (warnings
//! allowed), 1 if any is invalid, 2 for a usage or I/O error (a file that
//! cannot be opened). A file that is not UTF-8 or does not parse is invalid.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, SyntaxArg};
use crate::check::{Summary, analyse};
use crate::diag::{self, Diagnostic};
use crate::engine::Game;
use crate::ground::Limits;
use crate::syntax::{self, Overrides, Program, SourceMap, Syntax};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Game files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Read every file in this syntax whatever its extension.
    #[arg(long, value_enum)]
    pub syntax: Option<SyntaxArg>,
    /// Set a parameter of a native game: `--param NAME=VALUE`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Print the sizes of each valid file (relations, rules, strata) on stdout.
    #[arg(long)]
    pub explain: bool,
}

/// At most this many diagnostics are printed per file; the rest are counted.
const MAX_SHOWN: usize = 100;

pub fn run(args: Args) -> i32 {
    let mut overrides = Overrides::new();
    for p in &args.params {
        match p.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                overrides.push((name.to_string(), value.to_string()))
            }
            _ => {
                errln!("tabula check: `--param {p}` is not of the form NAME=VALUE");
                return EXIT_USAGE;
            }
        }
    }
    let color = use_color();
    let mut code = EXIT_OK;
    for path in &args.files {
        let syntax = match args.syntax {
            Some(SyntaxArg::Kif) => Syntax::Kif,
            Some(SyntaxArg::Rules) => Syntax::Rules,
            None => syntax::syntax_of(path),
        };
        code = code.max(check_file(path, syntax, &overrides, args.explain, color));
    }
    code
}

/// Colour on a terminal, unless `NO_COLOR` is set to something.
fn use_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

fn check_file(
    path: &Path,
    syntax: Syntax,
    overrides: &Overrides,
    explain: bool,
    color: bool,
) -> i32 {
    // A file that cannot be opened is an I/O error (exit 2), not an invalid
    // game; the loader reports anything past opening as a diagnostic.
    let openable = std::fs::metadata(path).and_then(|m| {
        if m.is_dir() {
            Err(std::io::Error::other("is a directory"))
        } else {
            std::fs::File::open(path).map(drop)
        }
    });
    if let Err(e) = openable {
        errln!("tabula check: cannot read {}: {e}", path.display());
        return EXIT_USAGE;
    }
    let mut sources = SourceMap::default();
    let program = syntax::load(&mut sources, path, syntax, overrides);
    let (program, diagnostics, omitted) = match program {
        Ok(program) => {
            let analysis = analyse(&program);
            let omitted = analysis.omitted;
            (
                Some((program, analysis.summary)),
                analysis.diagnostics,
                omitted,
            )
        }
        Err(diagnostics) => (None, diagnostics, 0),
    };
    report(&diagnostics, omitted, &sources, path, color);
    if diag::has_errors(&diagnostics) {
        return EXIT_INVALID;
    }
    let Some((program, summary)) = program else {
        return EXIT_INVALID;
    };
    // The checks passed: grounding and compiling find what only they can (an
    // infinite or too large instantiation, a goal that is not an integer).
    let game = match Game::new(&program, &Limits::default()) {
        Ok(game) => game,
        Err(errors) => {
            report(&errors, 0, &sources, path, color);
            return EXIT_INVALID;
        }
    };
    if explain {
        print_summary(path, &program, &summary, &game);
    }
    EXIT_OK
}

fn report(
    diagnostics: &[Diagnostic],
    omitted: usize,
    sources: &SourceMap,
    path: &Path,
    color: bool,
) {
    if diagnostics.is_empty() {
        return;
    }
    let fallback = path.display().to_string();
    let mut text = String::new();
    for d in diagnostics.iter().take(MAX_SHOWN) {
        text.push_str(&diag::render(d, sources, &fallback, color));
    }
    let hidden = diagnostics.len().saturating_sub(MAX_SHOWN) + omitted;
    if hidden > 0 {
        text.push_str(&format!(
            "{fallback}: {hidden} more diagnostics not shown\n"
        ));
    }
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

fn print_summary(path: &Path, program: &Program, summary: &Summary, game: &Game) {
    let ground = game.ground_stats();
    let net = game.stats();
    let mut text = format!("{}\n", path.display());
    let rows = [
        ("relations", summary.relations),
        ("facts", summary.facts),
        ("rules", summary.rules),
        ("strata", summary.strata.len()),
        ("ground atoms", ground.atoms),
        ("ground rules", ground.rules),
        ("state facts", net.base_facts),
        ("moves", net.moves),
        ("view rules", net.view_rules),
        ("next rules", net.next_rules),
        ("goal rules", net.goal_rules),
    ];
    for (what, n) in rows {
        text.push_str(&format!("  {what:<13} {n}\n"));
    }
    for (i, stratum) in summary.strata.iter().enumerate() {
        let mut names: Vec<&str> = stratum.iter().map(|s| program.symbols.name(*s)).collect();
        names.sort_unstable();
        text.push_str(&format!("  stratum {i}: {}\n", names.join(" ")));
    }
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
