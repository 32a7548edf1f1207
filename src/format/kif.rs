//! Pretty printing of GDL in KIF syntax (`.kif`, `.gdl`).
//!
//! In: the text of a KIF file. Out: the text laid out, or its syntax error.
//! Holds: words and variables are written as they are (case included);
//! only blanks change. The layout: each top-level form starts a line; a
//! rule `(<= head body...)` has its head on the first line and one body
//! literal per line, 4 spaces in; any other list is written on one line,
//! unless a comment lies inside it: then its first element stays after the
//! `(` and every other element takes a line of its own, 4 spaces deeper
//! (a comment after an element on its line stays there, any other has a
//! line of its own). Blank lines between forms are kept, at most one.

use super::{Blank, INDENT, Layout, Line, blanks, top_level_blanks};
use crate::diag::Diagnostic;
use crate::syntax::FileId;
use crate::syntax::kif::{Rule, syntax_tree};
use pest::iterators::Pair;

/// A parsed s-expression: byte offsets into the text.
enum Sx {
    /// From its `(` to just after its `)`.
    List(usize, usize, Vec<Sx>),
    Atom(usize, usize),
}

impl Sx {
    fn start(&self) -> usize {
        match self {
            Sx::List(start, ..) | Sx::Atom(start, _) => *start,
        }
    }

    fn end(&self) -> usize {
        match self {
            Sx::List(_, end, _) | Sx::Atom(_, end) => *end,
        }
    }

    fn read(pair: Pair<'_, Rule>) -> Sx {
        let span = pair.as_span();
        match pair.as_rule() {
            Rule::list => Sx::List(
                span.start(),
                span.end(),
                pair.into_inner().map(Sx::read).collect(),
            ),
            _ => Sx::Atom(span.start(), span.end()),
        }
    }
}

/// Formats a whole KIF text; a text with a syntax error is refused.
pub(super) fn format(text: &str, file: FileId) -> Result<String, Diagnostic> {
    let top = syntax_tree(text, file, Rule::file)?;
    let forms: Vec<Sx> = top
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(Sx::read)
        .collect();
    let mut printer = Printer {
        text,
        layout: Layout::default(),
        line: Line::default(),
    };
    let mut pos = 0;
    for form in &forms {
        let gap = &text[pos..form.start()];
        top_level_blanks(&mut printer.layout, gap, ';', 0, pos > 0);
        printer.form(form, 0, true);
        printer.end_line(0);
        pos = form.end();
    }
    top_level_blanks(&mut printer.layout, &text[pos..], ';', 0, pos > 0);
    Ok(printer.layout.finish())
}

struct Printer<'t> {
    text: &'t str,
    layout: Layout,
    /// The line being written.
    line: Line,
}

impl Printer<'_> {
    fn form(&mut self, sx: &Sx, indent: usize, top: bool) {
        match sx {
            Sx::Atom(start, end) => self.line.code.push_str(&self.text[*start..*end]),
            Sx::List(start, end, items) => {
                let rule = top && items.len() > 2 && self.is_word(&items[0], "<=");
                if rule {
                    self.broken(*start, *end, items, indent, 2);
                } else if self.text[*start..*end].contains(';') {
                    self.broken(*start, *end, items, indent, 1);
                } else {
                    self.flat(sx);
                }
            }
        }
    }

    fn is_word(&self, sx: &Sx, word: &str) -> bool {
        matches!(sx, Sx::Atom(start, end) if &self.text[*start..*end] == word)
    }

    /// A list with no comment inside, on the current line.
    fn flat(&mut self, sx: &Sx) {
        match sx {
            Sx::Atom(start, end) => self.line.code.push_str(&self.text[*start..*end]),
            Sx::List(_, _, items) => {
                self.line.code.push('(');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        self.line.code.push(' ');
                    }
                    self.flat(item);
                }
                self.line.code.push(')');
            }
        }
    }

    /// A list over several lines: the first `inline` elements after the
    /// `(`, each other one on a line of its own at `indent` + 4.
    fn broken(&mut self, start: usize, end: usize, items: &[Sx], indent: usize, inline: usize) {
        let inner = indent + INDENT;
        self.line.code.push('(');
        let mut pos = start + 1;
        for (k, item) in items.iter().enumerate() {
            let commented = self.comments(pos, item.start(), inner);
            if k >= inline || commented {
                self.end_line(inner);
            } else if k > 0 {
                self.line.code.push(' ');
            }
            self.form(item, inner, false);
            pos = item.end();
        }
        if self.comments(pos, end - 1, inner) {
            self.end_line(inner);
        }
        self.line.code.push(')');
    }

    /// Writes the comments of the blanks from `from` to `to`: one after
    /// code on its line trails the current line, any other gets a line at
    /// `indent`. Whether there were any.
    fn comments(&mut self, from: usize, to: usize, indent: usize) -> bool {
        let mut newline = false;
        let mut any = false;
        for blank in blanks(&self.text[from..to], ';') {
            match blank {
                Blank::Newline => newline = true,
                Blank::Comment(comment) => {
                    if newline || self.line.code.is_empty() {
                        self.end_line(indent);
                        self.layout.push(Line::new(indent, comment));
                    } else {
                        self.line.comment = Some(comment.to_string());
                        self.end_line(indent);
                    }
                    any = true;
                }
            }
        }
        any
    }

    /// Writes the current line unless it is empty; the next starts at
    /// `indent`.
    fn end_line(&mut self, indent: usize) {
        let done = std::mem::replace(&mut self.line, Line::new(indent, ""));
        if !done.is_blank() {
            self.layout.push(done);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::{FileId, Syntax};

    fn format(text: &str) -> String {
        super::super::format(text, Syntax::Kif, FileId(0)).expect("valid")
    }

    #[test]
    fn one_form_per_line_and_one_literal_per_line_in_rules() {
        let text = "(role x)(role  o) (<= (legal ?p noop)(role ?p) (not (true (control ?p))))";
        assert_eq!(
            format(text),
            "(role x)\n(role o)\n(<= (legal ?p noop)\n    (role ?p)\n    (not (true (control ?p))))\n"
        );
    }

    #[test]
    fn comments_stay_where_they_were() {
        let text =
            "; header\n\n\n(<= p ; why\n  q\n  ; before r\n  r) ; after\n(f a ; in a fact\n b)\n";
        let want = "; header\n\n(<= p   ; why\n    q\n    ; before r\n    r)   ; after\n(f\n    a   ; in a fact\n    b)\n";
        assert_eq!(format(text), want);
        assert_eq!(format(want), want);
    }
}
