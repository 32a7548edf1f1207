//! Reader for the native rule language (`.rules`); see `docs/LANGUAGE.md`.
//!
//! In: a file (and the files it `extends`) or a text, plus parameter overrides.
//! Out: a [`Program`] of core rules only: every declaration (`roles`, `turn`,
//! `board`, `region`, `pieces`, `dice`, `track`) is desugared into plain facts
//! and rules here, and `game`, `param`, `board` and `draw` fill [`Meta`].
//! Holds: every node carries the span of the user's text that made it; all
//! errors of all files are returned together; no input panics or runs
//! unbounded (nesting, operator chains, ranges, boards, dice and `extends`
//! chains are all bounded).
//!
//! Stages: [`parser`] (text → statements) → resolve here (`extends` and
//! parameters; [`variant`] applies a variant's changes and checks labels) →
//! [`lower`] (surface terms → core terms) and [`desugar`] (declarations →
//! rules).

mod desugar;
mod lower;
pub mod parser;
mod variant;

pub use super::print::{show_literal, show_rule};
pub use lower::Value;

use super::ast::*;
use super::{Overrides, SourceMap};
use crate::diag::{Diagnostic, codes};
use indexmap::IndexMap;
use lower::Lower;
use parser::{ExKind, Stmt, StmtKind};
use std::path::{Path, PathBuf};

/// Longest chain of `extends`.
pub const MAX_EXTENDS: usize = 32;

/// Reads a program already in `sources`. An `extends` path is taken
/// relative to the folder of the file's path (the current folder for a bare
/// name).
pub fn parse_program(
    sources: &mut SourceMap,
    file: FileId,
    overrides: &Overrides,
) -> Result<Program, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut stack = Vec::new();
    let stmts = collect(sources, file, &mut stack, &mut errors);
    let mut flat = Vec::new();
    flatten(&stmts, &mut flat);
    let (params, out_of_range) = parameters(&flat, overrides, &mut errors);
    if out_of_range {
        // The game is not meant for these values: its rules' errors would
        // only be noise.
        errors.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
        return Err(errors);
    }
    let mut symbols = Symbols::default();
    let mut rules_errors = Vec::new();
    let (rules, mut meta) = {
        let lw = Lower {
            symbols: &mut symbols,
            params: &params,
            errors: &mut rules_errors,
        };
        let mut ds = desugar::Desugar::new(lw);
        ds.run(&flat);
        (ds.rules, ds.meta)
    };
    errors.extend(rules_errors);
    if !errors.is_empty() {
        errors.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
        return Err(errors);
    }
    meta.params = params
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect();
    Ok(Program {
        syntax: Syntax::Rules,
        symbols,
        rules,
        meta,
    })
}

/// Reads one term typed by a user (a move, a fact), interning into `symbols`.
pub fn parse_term(
    sources: &SourceMap,
    file: FileId,
    symbols: &mut Symbols,
) -> Result<Term, Diagnostic> {
    let ex = parser::parse_single_term(&sources.file(file).text, file)?;
    let params = IndexMap::new();
    let mut errors = Vec::new();
    let t = Lower {
        symbols,
        params: &params,
        errors: &mut errors,
    }
    .term(&ex);
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(t),
    }
}

/// Reads one literal typed by a user (a query), interning into `symbols`.
pub fn parse_literal(
    sources: &SourceMap,
    file: FileId,
    symbols: &mut Symbols,
) -> Result<Literal, Diagnostic> {
    let lit = parser::parse_single_literal(&sources.file(file).text, file)?;
    let params = IndexMap::new();
    let mut errors = Vec::new();
    let l = Lower {
        symbols,
        params: &params,
        errors: &mut errors,
    }
    .literal(&lit);
    match (errors.into_iter().next(), l) {
        (Some(e), _) => Err(e),
        (None, Some(l)) => Ok(l),
        (None, None) => Err(Diagnostic::global(codes::SYNTAX, "expected a literal")),
    }
}

// ---------------------------------------------------------------- resolve

/// The statements of `file` with its base merged in (recursively).
fn collect(
    sources: &mut SourceMap,
    file: FileId,
    stack: &mut Vec<PathBuf>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Stmt> {
    let (stmts, errs) = parser::parse_file(&sources.file(file).text, file);
    errors.extend(errs);
    variant::check_labels(&stmts, errors);
    let mut extends = stmts.iter().filter_map(|s| match &s.kind {
        StmtKind::Extends { path } => Some((path.clone(), s.span)),
        _ => None,
    });
    let Some((path, span)) = extends.next() else {
        return variant::without_base(stmts, errors);
    };
    if let Some((_, again)) = extends.next() {
        errors.push(Diagnostic::error(
            codes::EXTENDS,
            again,
            "a file extends at most one base",
        ));
    }
    let own: Vec<Stmt> = stmts
        .into_iter()
        .filter(|s| !matches!(s.kind, StmtKind::Extends { .. }))
        .collect();
    let own = variant::changes_outside_sections(own, errors);
    let here = PathBuf::from(&sources.file(file).path);
    let dir = here.parent().map(Path::to_path_buf).unwrap_or_default();
    let target = dir.join(&path);
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    if stack.is_empty() {
        stack.push(canon(&here));
    }
    let target_canon = canon(&target);
    if let Some(i) = stack.iter().position(|p| *p == target_canon) {
        let chain: Vec<String> = stack[i..]
            .iter()
            .chain(std::iter::once(&target_canon))
            .map(|p| p.display().to_string())
            .collect();
        errors.push(
            Diagnostic::error(codes::EXTENDS, span, "`extends` makes a cycle")
                .with_note(chain.join(" extends ")),
        );
        return own;
    }
    if stack.len() >= MAX_EXTENDS {
        errors.push(Diagnostic::error(
            codes::EXTENDS,
            span,
            format!("more than {MAX_EXTENDS} files extend one another"),
        ));
        return own;
    }
    let read = match sources.overlaid(&target_canon) {
        Some(text) => Ok(text.to_string()),
        None => super::read_source(&target),
    };
    let text = match read {
        Ok(t) => t,
        Err(e) => {
            errors.push(Diagnostic::error(codes::EXTENDS, span, e.to_string()));
            return own;
        }
    };
    let base_file = sources.add(target.display().to_string(), text);
    stack.push(target_canon);
    let base = collect(sources, base_file, stack, errors);
    stack.pop();
    variant::merge(base, own, errors)
}

fn flatten<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a Stmt>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Section { body, .. } => flatten(body, out),
            StmtKind::Labelled { clause, .. } => out.push(clause),
            StmtKind::Drop { .. } => {}
            _ => out.push(s),
        }
    }
}

/// The final value of every parameter: declared defaults (each may use the
/// parameters before it), then `overrides`; and whether one is outside the
/// values its declaration allows.
fn parameters(
    flat: &[&Stmt],
    overrides: &Overrides,
    errors: &mut Vec<Diagnostic>,
) -> (IndexMap<String, Value>, bool) {
    let mut params: IndexMap<String, Value> = IndexMap::new();
    let mut out_of_range = false;
    let mut given: IndexMap<&str, Value> = IndexMap::new();
    for (name, value) in overrides {
        match parse_value(value) {
            Some(v) => {
                given.insert(name, v);
            }
            None => errors.push(Diagnostic::global(
                codes::DECLARATION,
                format!("`--param {name}={value}`: a value is an integer or a lower-case name"),
            )),
        }
    }
    for s in flat {
        let StmtKind::Param {
            name,
            name_span,
            value,
            valid,
        } = &s.kind
        else {
            continue;
        };
        if params.contains_key(name) {
            errors.push(Diagnostic::error(
                codes::DECLARATION,
                *name_span,
                format!("parameter `{name}` is declared twice"),
            ));
            continue;
        }
        let from_cli = given.get(name.as_str());
        let v = if let Some(v) = from_cli {
            errors.extend(name_for_number(name, *name_span, v, value));
            v.clone()
        } else {
            let mut symbols = Symbols::default();
            let mut errs = Vec::new();
            let t = Lower {
                symbols: &mut symbols,
                params: &params,
                errors: &mut errs,
            }
            .term(value);
            errors.extend(errs);
            match t.kind {
                TermKind::Int(i) => Value::Int(i),
                TermKind::Const(c) => Value::Name(symbols.name(c).to_string()),
                _ => {
                    let what = match value.kind {
                        ExKind::Range(..) => "a range",
                        _ => "this",
                    };
                    errors.push(Diagnostic::error(
                        codes::DECLARATION,
                        value.span,
                        format!("a parameter is an integer or a name, not {what}"),
                    ));
                    continue;
                }
            }
        };
        let allowed = allowed_values(valid, &params, errors);
        if !allowed.is_empty() && !allowed.iter().any(|a| a.admits(&v)) {
            out_of_range = true;
            let mut shown: Vec<String> = allowed.iter().map(Allowed::to_string).collect();
            let last = shown.pop().unwrap_or_default();
            let shown = match shown.is_empty() {
                true => last,
                false => format!("{} or {last}", shown.join(", ")),
            };
            let (span, how) = match from_cli {
                Some(_) => (*name_span, format!("`--param {name}={v}` sets it to {v}")),
                None => (value.span, format!("it is {v} here")),
            };
            errors.push(
                Diagnostic::error(
                    codes::DECLARATION,
                    span,
                    format!("parameter `{name}` may only be {shown}: {how}"),
                )
                .with_note(
                    "the game declares the values it works with: `param NAME = DEFAULT in VALUES.`",
                ),
            );
        }
        params.insert(name.clone(), v);
    }
    for name in given.keys() {
        if !params.contains_key(*name) {
            errors.push(unknown_param(name, params.keys().map(String::as_str)));
        }
    }
    (params, out_of_range)
}

/// One value, or a range of values, that a parameter may take.
enum Allowed {
    Range(i64, i64),
    Name(String),
}

impl Allowed {
    fn admits(&self, v: &Value) -> bool {
        match (self, v) {
            (Allowed::Range(lo, hi), Value::Int(i)) => (lo..=hi).contains(&i),
            (Allowed::Name(a), Value::Name(n)) => a == n,
            _ => false,
        }
    }
}

impl std::fmt::Display for Allowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Allowed::Range(lo, hi) if lo == hi => write!(f, "{lo}"),
            Allowed::Range(lo, hi) => write!(f, "{lo}..{hi}"),
            Allowed::Name(n) => f.write_str(n),
        }
    }
}

/// The values of a parameter's `in ...` (each may use the parameters before
/// it); a range runs from its smaller end to its larger.
fn allowed_values(
    valid: &[parser::Ex],
    params: &IndexMap<String, Value>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Allowed> {
    let mut symbols = Symbols::default();
    let mut lower = Lower {
        symbols: &mut symbols,
        params,
        errors,
    };
    let mut out = Vec::new();
    for ex in valid {
        let (lo, hi) = match &ex.kind {
            ExKind::Range(lo, hi) => (lower.term(lo), lower.term(hi)),
            _ => (lower.term(ex), lower.term(ex)),
        };
        match (lo.kind, hi.kind) {
            (TermKind::Int(a), TermKind::Int(b)) => out.push(Allowed::Range(a.min(b), a.max(b))),
            (TermKind::Const(a), TermKind::Const(b)) if a == b => {
                out.push(Allowed::Name(lower.symbols.name(a).to_string()))
            }
            _ => lower.errors.push(Diagnostic::error(
                codes::DECLARATION,
                ex.span,
                "the values of a parameter are integers, ranges of integers or names",
            )),
        }
    }
    out
}

/// `--param NAME=VALUE` giving a name to a parameter whose default is an
/// integer.
fn name_for_number(
    name: &str,
    span: Span,
    given: &Value,
    default: &parser::Ex,
) -> Option<Diagnostic> {
    let (Value::Name(given), ExKind::Int(default)) = (given, &default.kind) else {
        return None;
    };
    Some(
        Diagnostic::error(
            codes::DECLARATION,
            span,
            format!(
                "parameter `{name}` is a number (its default is {default}): `--param {name}={given}` gives it a name"
            ),
        )
        .with_note("give it an integer; the errors that follow show the uses that need one"),
    )
}

/// `--param NAME=...` for a parameter the game does not declare: the
/// nearest name, and every name there is.
fn unknown_param<'a>(name: &str, known: impl Iterator<Item = &'a str> + Clone) -> Diagnostic {
    let mut d = Diagnostic::global(
        codes::UNKNOWN_NAME,
        format!("the game has no parameter `{name}`"),
    );
    if let Some(near) = crate::diag::suggest::closest(name, known.clone()) {
        d = d.with_note(format!("did you mean `{near}`?"));
    }
    let all: Vec<String> = known.map(|k| format!("`{k}`")).collect();
    d.with_note(if all.is_empty() {
        "the game declares no parameters".to_string()
    } else {
        format!("its parameters: {}", all.join(", "))
    })
}

/// Whether a text is a parameter's value: an integer or a lower-case name
/// (the CLI refuses any other `--param` value as a usage error).
pub fn is_param_value(s: &str) -> bool {
    parse_value(s).is_some()
}

/// A value given on the command line: an integer or a lower-case name.
fn parse_value(s: &str) -> Option<Value> {
    if let Ok(i) = s.parse::<i64>() {
        return Some(Value::Int(i));
    }
    let mut chars = s.chars();
    let first = chars.next()?;
    (first.is_ascii_lowercase() && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| Value::Name(s.to_string()))
}
