//! The formatter behind `tabula fmt` (and a language server's formatting).
//!
//! In: the text of one game file, its [`Syntax`] and the [`FileId`] its
//! diagnostics should point into. Out: the text in the one canonical layout,
//! or the file's syntax errors (the same located diagnostics as `check`).
//! Holds: only blanks and line breaks change, and a comment only moves from
//! one blank to another, so the formatted file reads as the same program;
//! every comment is kept; formatting a formatted text changes nothing.
//! `rules` lays out the native language, `kif` pretty prints GDL, and
//! [`Layout`] is the page both write to (indentation, blank lines, aligned
//! trailing comments).

mod kif;
mod rules;

use crate::diag::Diagnostic;
use crate::syntax::{FileId, Syntax};

/// The widest line the formatter writes where it has the choice: a longer
/// list is broken after its last item that fits (a single longer item, a
/// long comment or string, stays as it is).
pub const WIDTH: usize = 100;

/// Spaces per level of indentation (a section's body, a continuation line).
pub const INDENT: usize = 4;

/// Formats a whole file. `file` is only where the diagnostics point: the
/// caller holds the text in its own `SourceMap` under that id.
pub fn format(text: &str, syntax: Syntax, file: FileId) -> Result<String, Vec<Diagnostic>> {
    match syntax {
        Syntax::Rules => rules::format(text, file),
        Syntax::Kif => kif::format(text, file).map_err(|d| vec![d]),
    }
}

/// One output line: code (or an own-line comment, as code) and its trailing
/// comment.
#[derive(Debug, Default)]
struct Line {
    indent: usize,
    code: String,
    comment: Option<String>,
    /// `section NAME {`: no blank line follows it directly.
    opens_block: bool,
}

impl Line {
    fn new(indent: usize, code: impl Into<String>) -> Line {
        Line {
            indent,
            code: code.into(),
            ..Line::default()
        }
    }

    fn is_blank(&self) -> bool {
        self.code.is_empty() && self.comment.is_none()
    }

    fn width(&self) -> usize {
        self.indent + self.code.chars().count()
    }
}

/// The page being written: lines, and whether the source had a blank line
/// before what comes next (kept, at most one, never at the top of the file
/// or of a section, nor before a `}` or the end).
#[derive(Default)]
struct Layout {
    lines: Vec<Line>,
    blank_pending: bool,
}

/// Spaces between code and a trailing comment, at the least.
const COMMENT_GAP: usize = 3;

impl Layout {
    fn push(&mut self, line: Line) {
        if std::mem::take(&mut self.blank_pending)
            && self
                .lines
                .last()
                .is_some_and(|last| !last.is_blank() && !last.opens_block)
        {
            self.lines.push(Line::default());
        }
        self.lines.push(line);
    }

    /// The source had a blank line here.
    fn blank(&mut self) {
        self.blank_pending = true;
    }

    /// A block or the file ends: a blank line before it is dropped.
    fn end_block(&mut self) {
        self.blank_pending = false;
    }

    /// Puts `comment` at the end of the last line (the code it followed on
    /// its source line); with no line yet, on a line of its own.
    fn trail(&mut self, indent: usize, comment: &str) {
        match self.lines.last_mut() {
            Some(last) if !last.is_blank() && last.comment.is_none() => {
                last.comment = Some(comment.to_string());
            }
            _ => self.push(Line::new(indent, comment)),
        }
    }

    /// The text: trailing comments of consecutive lines aligned
    /// [`COMMENT_GAP`] spaces after the longest of their code.
    fn finish(mut self) -> String {
        self.end_block();
        let mut out = String::new();
        let mut i = 0;
        while i < self.lines.len() {
            let run = self.lines[i..]
                .iter()
                .take_while(|l| l.comment.is_some() && !l.code.is_empty())
                .count();
            if run == 0 {
                write_line(&mut out, &self.lines[i], 0);
                i += 1;
                continue;
            }
            let column = self.lines[i..i + run].iter().map(Line::width).max();
            let column = column.unwrap_or(0) + COMMENT_GAP;
            for line in &self.lines[i..i + run] {
                write_line(&mut out, line, column);
            }
            i += run;
        }
        out
    }
}

fn write_line(out: &mut String, line: &Line, comment_column: usize) {
    if !line.is_blank() {
        out.extend(std::iter::repeat_n(' ', line.indent));
        out.push_str(&line.code);
    }
    if let Some(comment) = &line.comment {
        let pad = comment_column.saturating_sub(line.width()).max(1);
        out.extend(std::iter::repeat_n(' ', pad));
        out.push_str(comment);
    }
    out.push('\n');
}

/// The comments and line breaks of a stretch of blanks, in order.
#[derive(Debug, PartialEq, Eq)]
enum Blank<'a> {
    Newline,
    /// A comment, without the line break that ends it and trailing spaces.
    Comment(&'a str),
}

/// Splits the blanks `gap` (spaces, line breaks, comments starting with
/// `marker`) into line breaks and comments.
fn blanks(gap: &str, marker: char) -> Vec<Blank<'_>> {
    let mut out = Vec::new();
    let mut rest = gap;
    while let Some(c) = rest.chars().next() {
        if c == marker {
            let end = rest.find('\n').unwrap_or(rest.len());
            out.push(Blank::Comment(rest[..end].trim_end()));
            rest = &rest[end..];
        } else {
            if c == '\n' {
                out.push(Blank::Newline);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Lays out the blanks between two items at the top level of a file (or a
/// section's body), at `indent`: a comment on the line where the item
/// before it ended (`after_item`) trails that line, any other has a line of
/// its own, and a blank line (two line breaks in a row) is kept.
fn top_level_blanks(layout: &mut Layout, gap: &str, marker: char, indent: usize, after_item: bool) {
    let mut breaks = 0;
    let mut first_line = after_item;
    for blank in blanks(gap, marker) {
        match blank {
            Blank::Newline => {
                breaks += 1;
                first_line = false;
            }
            Blank::Comment(text) if first_line => layout.trail(indent, text),
            Blank::Comment(text) => {
                if breaks >= 2 {
                    layout.blank();
                }
                layout.push(Line::new(indent, text));
                breaks = 0;
            }
        }
    }
    if breaks >= 2 {
        layout.blank();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_comments_of_consecutive_lines_line_up() {
        let mut layout = Layout::default();
        for (code, comment) in [
            ("a.", Some("% one")),
            ("long_name.", Some("% two")),
            ("b.", None),
        ] {
            layout.push(Line::new(0, code));
            if let Some(c) = comment {
                layout.trail(0, c);
            }
        }
        assert_eq!(
            layout.finish(),
            "a.           % one\nlong_name.   % two\nb.\n"
        );
    }

    #[test]
    fn blanks_are_line_breaks_and_comments() {
        let got = blanks("  % a  \n\n  % b\n", '%');
        let want = [
            Blank::Comment("% a"),
            Blank::Newline,
            Blank::Newline,
            Blank::Comment("% b"),
            Blank::Newline,
        ];
        assert_eq!(got, want);
    }
}
