//! From text to the core AST.
//!
//! In: a path or a text and a [`Syntax`]. Out: a [`Program`] and the
//! [`SourceMap`] its spans point into, or every syntax error found (or, for
//! a file that cannot be read at all, a [`ReadError`]).
//! `kif` reads standard GDL, `rules` the native language (which desugars its
//! declarations into plain rules here, so nothing downstream sees them);
//! `scan` holds what both readers share (hand scanners, pest errors), and
//! `print` the one printer of terms in either syntax.

pub mod ast;
pub mod kif;
pub mod print;
pub mod rules;
pub mod scan;

pub use crate::diag::source::{SourceFile, SourceMap};
pub use ast::*;
pub use print::Show;

use crate::diag::{Diagnostic, codes};
use std::path::{Path, PathBuf};

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

/// A game file that cannot be read at all: missing, a directory, no
/// permission. An I/O error, not an invalid game (exit code 2, not 1).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {}", path.display(), reason(source))]
pub struct ReadError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// The I/O error in a user's words: "no such file", "is a directory".
fn reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_string(),
        _ => e.to_string(),
    }
}

/// Why [`load`] gives no program.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Unreadable(#[from] ReadError),
    /// The file was read and is not a valid game (not UTF-8, does not
    /// parse, a bad declaration...): every diagnostic found.
    #[error("the game has {} errors", .0.len())]
    Invalid(Vec<Diagnostic>),
}

/// Reads a game file (and, for the native syntax, the files it extends).
pub fn load(
    sources: &mut SourceMap,
    path: &Path,
    syntax: Syntax,
    overrides: &Overrides,
) -> Result<Program, LoadError> {
    let text = read_source(path).map_err(|e| match e {
        SourceError::Unreadable(e) => LoadError::Unreadable(e),
        not_text => LoadError::Invalid(vec![Diagnostic::global(
            codes::SYNTAX,
            not_text.to_string(),
        )]),
    })?;
    let file = sources.add(path.display().to_string(), text);
    match syntax {
        Syntax::Kif if !overrides.is_empty() => Err(overrides
            .iter()
            .map(|(name, _)| {
                Diagnostic::global(
                    codes::UNKNOWN_NAME,
                    format!("the game has no parameter `{name}`"),
                )
                .with_note("a KIF game declares no parameters: `--param` is for native games")
            })
            .collect()),
        Syntax::Kif => kif::parse_program(sources, file),
        Syntax::Rules => rules::parse_program(sources, file, overrides),
    }
    .map_err(LoadError::Invalid)
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

/// Why a source file gives no text.
#[derive(Debug, thiserror::Error)]
enum SourceError {
    #[error(transparent)]
    Unreadable(ReadError),
    #[error("{} is not UTF-8 text (invalid byte at offset {offset})", path.display())]
    NotText { path: PathBuf, offset: usize },
}

/// The most bytes an input file may hold: a game, a base it extends, a
/// position or a transcript. The largest GDL games are tens of kilobytes.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Reads a whole file of at most [`MAX_INPUT_BYTES`]. A longer file is an
/// error; so is an endless one (`/dev/zero`), after one byte more than the
/// limit has been read.
pub fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let too_large = || {
        std::io::Error::other(format!(
            "larger than {} MiB, the most an input file may hold",
            MAX_INPUT_BYTES >> 20
        ))
    };
    let file = std::fs::File::open(path)?;
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > MAX_INPUT_BYTES)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Reads a file as UTF-8 text.
fn read_source(path: &Path) -> Result<String, SourceError> {
    let bytes = read_capped(path).map_err(|source| {
        SourceError::Unreadable(ReadError {
            path: path.to_path_buf(),
            source,
        })
    })?;
    String::from_utf8(bytes).map_err(|e| SourceError::NotText {
        path: path.to_path_buf(),
        offset: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_path(path: &Path) -> Result<Program, LoadError> {
        let mut sources = SourceMap::default();
        load(&mut sources, path, syntax_of(path), &Overrides::new())
    }

    fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-syntax-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("a scratch file");
        path
    }

    #[test]
    fn a_file_that_cannot_be_read_is_an_io_error() {
        let missing = Path::new("/no/such/folder/game.kif");
        match load_path(missing) {
            Err(LoadError::Unreadable(e)) => {
                assert_eq!(e.path, missing);
                assert_eq!(e.source.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("expected an I/O error, got {other:?}"),
        }
        let folder = std::env::temp_dir();
        assert!(matches!(load_path(&folder), Err(LoadError::Unreadable(_))));
    }

    #[test]
    fn a_file_that_is_not_text_or_extends_a_missing_base_is_invalid() {
        let binary = scratch("binary.kif", b"(role x)\n\xff\xfe");
        let Err(LoadError::Invalid(d)) = load_path(&binary) else {
            panic!("a file that is not UTF-8 is an invalid game");
        };
        assert_eq!((d.len(), d[0].code, d[0].span), (1, codes::SYNTAX, None));
        assert!(
            d[0].message
                .ends_with("is not UTF-8 text (invalid byte at offset 9)")
        );
        let variant = scratch("variant.rules", b"roles x.\nextends \"no_base.rules\".\n");
        let Err(LoadError::Invalid(d)) = load_path(&variant) else {
            panic!("a missing base is a located diagnostic");
        };
        assert_eq!(d[0].code, codes::EXTENDS);
        assert_eq!(d[0].span.map(|s| s.start), Some(9), "at the `extends` line");
        assert!(d[0].message.starts_with("cannot read "), "{}", d[0].message);
    }
}
