//! Diagnostics: values built by every stage, rendered here and only here.
//!
//! In: [`Diagnostic`] values with spans. Out: text in the contract's format,
//! `FILE:LINE:COL: error[CODE]: message`, the source line and a caret under
//! the span, then any secondary labels and notes. Colour only when asked.

use crate::syntax::{SourceMap, Span};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about the user's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable code such as `E0101`; see `docs/ERRORS.md`.
    pub code: &'static str,
    pub message: String,
    pub span: Option<Span>,
    /// Secondary places, each with a short label.
    pub labels: Vec<(Span, String)>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span: Some(span),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    /// A diagnostic that points at no place in the text.
    pub fn global(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span: None,
            ..Diagnostic::error(code, Span::default(), message)
        }
    }

    pub fn with_label(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.labels.push((span, label.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True if any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// Renders one diagnostic. `fallback_path` names the file when the
/// diagnostic has no span.
pub fn render(diag: &Diagnostic, sources: &SourceMap, fallback_path: &str, color: bool) -> String {
    let paint = |code: &'static str| if color { code } else { "" };
    let (kind, kind_color) = match diag.severity {
        Severity::Error => ("error", RED),
        Severity::Warning => ("warning", YELLOW),
    };
    let mut out = String::new();
    let place = match diag.span {
        Some(span) => {
            let file = sources.file(span.file);
            let (line, col) = file.line_col(span.start as usize);
            format!("{}:{line}:{col}", file.path)
        }
        None => fallback_path.to_string(),
    };
    let _ = writeln!(
        out,
        "{place}: {}{kind}[{}]{}: {}{}{}",
        paint(kind_color),
        diag.code,
        paint(RESET),
        paint(BOLD),
        diag.message,
        paint(RESET)
    );
    if let Some(span) = diag.span {
        excerpt(&mut out, sources, span, paint(kind_color), paint(RESET));
    }
    for (span, label) in &diag.labels {
        let file = sources.file(span.file);
        let (line, col) = file.line_col(span.start as usize);
        let _ = writeln!(out, "{}:{line}:{col}: note: {label}", file.path);
        excerpt(&mut out, sources, *span, paint(BLUE), paint(RESET));
    }
    for note in &diag.notes {
        let _ = writeln!(out, "  = note: {note}");
    }
    out
}

/// Of a long line, at most this many characters before the caret and after
/// it are shown, with `...` where the line is cut.
const SHOWN_BEFORE: usize = 40;
const SHOWN_AFTER: usize = 80;

/// The source line of `span` and a caret line under it. Works on a window
/// of the line, so a 10 MB line costs no more than a short one.
fn excerpt(out: &mut String, sources: &SourceMap, span: Span, on: &str, off: &str) {
    let file = sources.file(span.file);
    if file.text.is_empty() {
        return;
    }
    let (line, _) = file.line_col(span.start as usize);
    let text = file.line_text(line);
    // Byte offsets of the span within the line, on character boundaries.
    let line_start = text.as_ptr() as usize - file.text.as_ptr() as usize;
    let floor = |i: usize| {
        let mut i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let at = floor((span.start as usize).saturating_sub(line_start));
    let end = floor((span.end as usize).saturating_sub(line_start)).max(at);
    let from = text[..at]
        .char_indices()
        .rev()
        .nth(SHOWN_BEFORE - 1)
        .map_or(0, |(i, _)| i);
    let to = text[at..]
        .char_indices()
        .nth(SHOWN_AFTER)
        .map_or(text.len(), |(i, _)| at + i);
    let cut_left = if from > 0 { "..." } else { "" };
    let cut_right = if to < text.len() { "..." } else { "" };
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    };
    let indent = cut_left.len() + text[from..at].chars().count();
    let width = text[at..end.min(to)].chars().count().max(1);
    let gutter = line.to_string();
    let _ = writeln!(
        out,
        "{gutter} | {cut_left}{}{cut_right}",
        clean(&text[from..to])
    );
    let _ = writeln!(
        out,
        "{} | {}{on}{}{off}",
        " ".repeat(gutter.len()),
        " ".repeat(indent),
        "^".repeat(width)
    );
}

/// Every diagnostic code, with the smallest input that triggers it in
/// `docs/ERRORS.md` and a golden test in `tests/diagnostics/`.
pub mod codes {
    /// Text that does not parse: `(<= (p ?x)`.
    pub const SYNTAX: &str = "E0001";
    /// Input nested deeper than the reader accepts: `(p (f (f ... a)))`.
    pub const TOO_DEEP: &str = "E0002";
    /// A declaration that is malformed or inconsistent (board, dice,
    /// track...): `board grid(0, a).`
    pub const DECLARATION: &str = "E0003";
    /// A relation, fluent or move used with two different numbers of
    /// arguments, or a reserved relation with the wrong number:
    /// `(cell 1 1 b) (<= (free ?x ?y) (cell ?x ?y))`.
    pub const ARITY: &str = "E0101";
    /// A variable of a head, negation, comparison or arithmetic not bound by a
    /// positive literal: `p(X) :- not q(X).`
    pub const UNSAFE: &str = "E0102";
    /// Recursion through negation: `p :- not q. q :- not p.`
    pub const NEGATIVE_CYCLE: &str = "E0103";
    /// A reserved relation used where GDL forbids it: `true(p) :- q.`,
    /// `legal(R, m) :- does(R, m).`
    pub const RESERVED: &str = "E0104";
    /// A fact with variables: `p(X).`
    pub const FACT_VARIABLE: &str = "E0105";
    /// A game without `role` facts (an empty file).
    pub const NO_ROLES: &str = "E0106";
    /// A parameter or section that the base file does not have:
    /// `extends "base.rules". param colour = red.`
    pub const UNKNOWN_NAME: &str = "E0107";
    /// An `extends` path that cannot be read, or a cycle of `extends`.
    pub const EXTENDS: &str = "E0108";
    /// Grounding that is infinite or larger than the limit:
    /// `nat(0). nat(N) :- nat(M), N = M + 1.`
    pub const GROUNDING: &str = "E0201";
    /// A value that must be an integer and is not (a goal value, a weight):
    /// `(goal x high)`.
    pub const ARITHMETIC: &str = "E0202";
    /// Warning: a relation used but never defined:
    /// `terminal :- not blocked.` with no `blocked`.
    pub const UNDEFINED: &str = "W0001";
}
