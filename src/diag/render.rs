//! Rendering of diagnostics, the one place that turns them into text.
//!
//! In: a [`Diagnostic`] and the [`SourceMap`] its spans point into. Out:
//! text in the contract's format, `FILE:LINE:COL: error[CODE]: message`, the
//! source line and a caret under the span, then any secondary labels and
//! notes. Colour only when asked. Holds: a long line costs no more than a
//! short one (only a window of it is shown).

use super::source::{SourceMap, Span};
use super::{Diagnostic, Severity};
use std::fmt::Write;

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
