//! Reader for the native rule language (`.rules`). Being written.

use super::{FileId, Overrides, Program, SourceMap};
use crate::diag::{codes, Diagnostic};
use std::path::Path;

pub fn load(
    sources: &mut SourceMap,
    path: &Path,
    overrides: &Overrides,
) -> Result<Program, Vec<Diagnostic>> {
    let text = super::read_source(path).map_err(|d| vec![d])?;
    let file = sources.add(path.display().to_string(), text);
    parse_program(sources, file, overrides)
}

pub fn parse_program(
    _sources: &SourceMap,
    _file: FileId,
    _overrides: &Overrides,
) -> Result<Program, Vec<Diagnostic>> {
    Err(vec![Diagnostic::global(codes::SYNTAX, "native syntax not yet readable")])
}
