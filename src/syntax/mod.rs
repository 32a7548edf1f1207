//! From text to the core AST.
//!
//! In: a path or a text and a [`Syntax`]. Out: a [`Program`] and the
//! [`SourceMap`] its spans point into, or every syntax error found.
//! `kif` reads standard GDL, `rules` the native language (which desugars its
//! declarations into plain rules here, so nothing downstream sees them).

pub mod ast;
pub mod kif;
pub mod print;
pub mod rules;
pub mod scan;

pub use crate::diag::source::{SourceFile, SourceMap};
pub use ast::*;
pub use print::Show;

use crate::diag::{Diagnostic, codes};
use std::path::Path;

/// The syntax a path's extension implies: `.kif` and `.gdl` are KIF,
/// everything else the native language.
pub fn syntax_of(path: &Path) -> Syntax {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("kif") || e.eq_ignore_ascii_case("gdl") => Syntax::Kif,
        _ => Syntax::Rules,
    }
}

/// Parameter values given from outside (e.g. `--param size=6`).
pub type Overrides = Vec<(String, String)>;

/// Reads a game file (and, for the native syntax, the files it extends).
/// I/O errors on the main file are returned as `Err(None)`-free diagnostics
/// without a span, so callers render every failure the same way.
pub fn load(
    sources: &mut SourceMap,
    path: &Path,
    syntax: Syntax,
    overrides: &Overrides,
) -> Result<Program, Vec<Diagnostic>> {
    match syntax {
        Syntax::Kif => {
            let text = read_source(path).map_err(|d| vec![d])?;
            let file = sources.add(path.display().to_string(), text);
            kif::parse_program(sources, file)
        }
        Syntax::Rules => rules::load(sources, path, overrides),
    }
}

/// Parses a program held in memory (tests, REPL).
pub fn parse_str(
    sources: &mut SourceMap,
    name: &str,
    text: &str,
    syntax: Syntax,
) -> Result<Program, Vec<Diagnostic>> {
    let file = sources.add(name, text);
    match syntax {
        Syntax::Kif => kif::parse_program(sources, file),
        Syntax::Rules => rules::parse_program(sources, file, &Overrides::new()),
    }
}

/// Reads one term (a move, a fact) typed by a user, in a program's syntax.
pub fn parse_term(
    sources: &SourceMap,
    file: FileId,
    syntax: Syntax,
    symbols: &mut Symbols,
) -> Result<Term, Diagnostic> {
    match syntax {
        Syntax::Kif => kif::parse_term(sources, file, symbols),
        Syntax::Rules => rules::parse_term(sources, file, symbols),
    }
}

/// Reads one literal (a query) typed by a user, in a program's syntax.
pub fn parse_literal(
    sources: &SourceMap,
    file: FileId,
    syntax: Syntax,
    symbols: &mut Symbols,
) -> Result<Literal, Diagnostic> {
    match syntax {
        Syntax::Kif => kif::parse_literal(sources, file, symbols),
        Syntax::Rules => rules::parse_literal(sources, file, symbols),
    }
}

/// Reads a file as UTF-8 text, as a diagnostic on failure.
pub fn read_source(path: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| {
        Diagnostic::global(
            codes::SYNTAX,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::global(
            codes::SYNTAX,
            format!(
                "{} is not UTF-8 text (invalid byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}
