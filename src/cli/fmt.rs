//! `tabula fmt FILE...`: lay game files out in the canonical layout.
//!
//! In: files, folders (every `.rules` file under them) or `-` (standard
//! input), `--check`, `--syntax`. Out: each file rewritten in place through
//! a temporary file and a rename (as the REPL's `save`; a file already
//! formatted is not touched); `-` writes the formatted text on stdout; with
//! `--check` nothing is written and a unified diff of each file that would
//! change is printed on stdout. A file with syntax errors is left as it is
//! and its diagnostics are printed on stderr. Exit code: 2 if a file could
//! not be read or written, else 1 if a file is invalid or (`--check`) would
//! change, else 0. The layout is [`crate::format`]'s.

use super::{EXIT_INVALID, EXIT_OK, EXIT_USAGE, SyntaxArg, print_diagnostics};
use crate::diag::{Diagnostic, codes};
use crate::syntax::{MAX_INPUT_BYTES, SourceMap, Syntax, read_capped, syntax_of};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Game files, folders (every `.rules` file in them, at any depth), or
    /// `-` for standard input (written formatted on standard output).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Change nothing: print a diff of each file that is not formatted and
    /// exit with 1 if there is one.
    #[arg(long)]
    pub check: bool,
    /// Read the files in this syntax whatever their extension (standard
    /// input is read as `rules` without it).
    #[arg(long, value_enum)]
    pub syntax: Option<SyntaxArg>,
}

pub fn run(args: Args) -> i32 {
    let mut code = EXIT_OK;
    let mut worst = |c: i32| code = code.max(c);
    for arg in &args.files {
        if arg.as_os_str() == "-" {
            worst(format_stdin(&args));
            continue;
        }
        match rules_files(arg) {
            Ok(files) => {
                for file in files {
                    worst(format_file(&file, &args));
                }
            }
            Err(e) => {
                errln!("error: cannot read {}: {e}", arg.display());
                worst(EXIT_USAGE);
            }
        }
    }
    code
}

/// `path` itself if it is not a folder, else every `.rules` file under it
/// (symbolic links to folders are not followed), in name order.
fn rules_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rules") && path.is_file() {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

fn syntax(args: &Args, path: &Path) -> Syntax {
    match args.syntax {
        Some(SyntaxArg::Kif) => Syntax::Kif,
        Some(SyntaxArg::Rules) => Syntax::Rules,
        None => syntax_of(path),
    }
}

/// Formats one file in place (or checks it); the exit code it asks for.
fn format_file(path: &Path, args: &Args) -> i32 {
    let bytes = match read_capped(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            errln!("error: cannot read {}: {e}", path.display());
            return EXIT_USAGE;
        }
    };
    let Some((text, formatted)) = format_bytes(bytes, path, syntax(args, path)) else {
        return EXIT_INVALID;
    };
    if text == formatted {
        return EXIT_OK;
    }
    if args.check {
        out!("{}", diff(&text, &formatted, &path.display().to_string()));
        return EXIT_INVALID;
    }
    match crate::repl::transcript::save(path, &formatted) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            errln!("error: cannot write {}: {e}", path.display());
            EXIT_USAGE
        }
    }
}

/// Formats standard input onto standard output (or checks it).
fn format_stdin(args: &Args) -> i32 {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes);
    if let Err(e) = read {
        errln!("error: cannot read standard input: {e}");
        return EXIT_USAGE;
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        errln!(
            "error: standard input is larger than {} MiB, the most an input file may hold",
            MAX_INPUT_BYTES >> 20
        );
        return EXIT_USAGE;
    }
    let path = Path::new("<stdin>");
    let syntax = match args.syntax {
        Some(SyntaxArg::Kif) => Syntax::Kif,
        _ => Syntax::Rules,
    };
    let Some((text, formatted)) = format_bytes(bytes, path, syntax) else {
        return EXIT_INVALID;
    };
    if !args.check {
        out!("{formatted}");
        EXIT_OK
    } else if text == formatted {
        EXIT_OK
    } else {
        out!("{}", diff(&text, &formatted, "<stdin>"));
        EXIT_INVALID
    }
}

/// The text and its formatted form, or `None` with the diagnostics printed
/// (not UTF-8, syntax errors).
fn format_bytes(bytes: Vec<u8>, path: &Path, syntax: Syntax) -> Option<(String, String)> {
    let mut sources = SourceMap::default();
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let d = Diagnostic::global(
                codes::SYNTAX,
                format!(
                    "{} is not UTF-8 text (invalid byte at offset {})",
                    path.display(),
                    e.utf8_error().valid_up_to()
                ),
            );
            print_diagnostics(&[d], 0, &sources, path);
            return None;
        }
    };
    let file = sources.add(path.display().to_string(), text.as_str());
    match crate::format::format(&text, syntax, file) {
        Ok(formatted) => Some((text, formatted)),
        Err(diagnostics) => {
            print_diagnostics(&diagnostics, 0, &sources, path);
            None
        }
    }
}

/// How long the diff of one file may search for the smallest diff before it
/// settles for a larger one (a file whose every line changes, megabytes
/// long, would take minutes).
const DIFF_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// A unified diff from `old` to `new`, both named `name`.
fn diff(old: &str, new: &str, name: &str) -> String {
    similar::TextDiff::configure()
        .timeout(DIFF_TIME)
        .diff_lines(old, new)
        .unified_diff()
        .header(name, &format!("{name} (formatted)"))
        .to_string()
}
