//! The layout of the native language (`.rules`).
//!
//! In: the text of a `.rules` file. Out: the text laid out, or its syntax
//! errors. Holds: the file is read as the parser reads it (one statement at
//! a time, `section NAME {` and `}` between statements), each statement as
//! its pest parse tree, whose leaves are all of its tokens; what lies
//! between two leaves is blanks (spaces, line breaks, `%` comments), and
//! only blanks change.
//!
//! The layout, the house style of `games/`: one statement per line at 4
//! spaces per section level; one space between tokens except inside
//! brackets, before `,` `.` `:` `)`, around `..`, after a sign and between
//! a name and its `(`; a statement that goes on over several lines has
//! every further line 4 spaces deeper. Where a statement breaks is the
//! author's choice, kept: after a `,`, `;`, `:-` or `:` that ended a line
//! in the source; elsewhere lines are joined, and a line wider than
//! [`WIDTH`] is broken after the last `:-` or list `,` that fits. A
//! comment after code on its line stays there (the comments of
//! consecutive lines aligned); any other comment keeps a line of its own.

use super::{Blank, INDENT, Layout, Line, WIDTH, blanks, top_level_blanks};
use crate::diag::Diagnostic;
use crate::syntax::FileId;
use crate::syntax::rules::parser::{Rule, RulesParser, describe, parse_file};
use crate::syntax::scan::{RULES, pest_diagnostic, section_open, skip_blank, statement_end};
use pest::Parser;
use pest::iterators::Pair;

/// Formats a whole `.rules` text; a text with syntax errors is refused with
/// all of them.
pub(super) fn format(text: &str, file: FileId) -> Result<String, Vec<Diagnostic>> {
    let (_, errors) = parse_file(text, file);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut layout = Layout::default();
    let mut depth = 0usize;
    let mut pos = 0;
    let mut after_item = false;
    loop {
        let next = skip_blank(text, pos, RULES);
        top_level_blanks(
            &mut layout,
            &text[pos..next],
            '%',
            depth * INDENT,
            after_item,
        );
        if next >= text.len() {
            break;
        }
        let rest = &text[next..];
        if let Some((name, _, len)) = section_open(rest, RULES) {
            // Comments between `section` and `{` go just above it.
            for blank in blanks(&rest[..len], '%') {
                if let Blank::Comment(comment) = blank {
                    layout.push(Line::new(depth * INDENT, comment));
                }
            }
            layout.push(Line {
                opens_block: true,
                ..Line::new(depth * INDENT, format!("section {name} {{"))
            });
            depth += 1;
            pos = next + len;
        } else if rest.starts_with('}') {
            depth = depth.saturating_sub(1);
            layout.end_block();
            layout.push(Line::new(depth * INDENT, "}"));
            pos = next + 1;
        } else {
            let end = statement_end(text, next, RULES).min(text.len());
            let pair = RulesParser::parse(Rule::statement, &text[next..end])
                .map_err(|e| {
                    let mut d = pest_diagnostic(e, file, describe);
                    if let Some(span) = d.span.as_mut() {
                        (span.start, span.end) = (span.start + next as u32, span.end + next as u32);
                    }
                    vec![d]
                })?
                .next()
                .expect("pest returns the start rule");
            pos = next + pair.as_span().end().max(1);
            statement(&mut layout, text, next, pair, depth * INDENT);
        }
        after_item = true;
    }
    Ok(layout.finish())
}

/// A leaf of a statement's parse tree: one token.
struct Token<'t> {
    text: &'t str,
    start: usize,
    end: usize,
    rule: Rule,
    /// The grammar rule the token is a child of (`args` for the `(` of
    /// `f(x)`, `body` for the `,` between literals).
    parent: Rule,
}

/// Collects the tokens under `pair` (offsets `base` + pest's) in order.
fn leaves<'t>(pair: Pair<'t, Rule>, parent: Rule, base: usize, out: &mut Vec<Token<'t>>) {
    let rule = pair.as_rule();
    let span = pair.as_span();
    if rule == Rule::string || pair.clone().into_inner().next().is_none() {
        if !span.as_str().is_empty() {
            out.push(Token {
                text: span.as_str(),
                start: base + span.start(),
                end: base + span.end(),
                rule,
                parent,
            });
        }
        return;
    }
    for child in pair.into_inner() {
        leaves(child, rule, base, out);
    }
}

/// Whether one space separates `prev` and `next` on a line.
fn spaced(prev: &Token, next: &Token) -> bool {
    let tight_before = matches!(
        next.rule,
        Rule::rparen | Rule::comma | Rule::stop | Rule::colon | Rule::label_colon | Rule::range
    ) || (next.rule == Rule::lparen && next.parent == Rule::args);
    let tight_after = matches!(prev.rule, Rule::lparen | Rule::range | Rule::minus);
    !(tight_before || tight_after)
}

/// Whether a line break the source has after `token` is kept.
fn may_break_after(token: &Token) -> bool {
    matches!(
        token.rule,
        Rule::comma | Rule::semicolon | Rule::neck | Rule::colon | Rule::label_colon
    )
}

/// Whether a line too wide may be broken after `token`: after `:-` and
/// between the items of a list (literals, declaration items, a counter's
/// or a parameter's parts), never inside a term.
fn wraps_after(token: &Token) -> bool {
    token.rule == Rule::neck
        || (token.rule == Rule::comma
            && matches!(
                token.parent,
                Rule::body | Rule::items | Rule::counter | Rule::param
            ))
}

/// Lays out one statement whose first token is at `base` in `text`.
fn statement(layout: &mut Layout, text: &str, base: usize, pair: Pair<'_, Rule>, indent: usize) {
    let mut tokens = Vec::new();
    leaves(pair, Rule::statement, base, &mut tokens);
    // The width of the text from each token to the next place a wide line
    // may break (that token included).
    let mut reach = vec![0; tokens.len()];
    for i in (0..tokens.len()).rev() {
        let width = tokens[i].text.chars().count();
        reach[i] = match tokens.get(i + 1) {
            Some(next) if !wraps_after(&tokens[i]) => {
                width + usize::from(spaced(&tokens[i], next)) + reach[i + 1]
            }
            _ => width,
        };
    }
    let deeper = indent + INDENT;
    let mut line = Line::new(indent, "");
    for (i, token) in tokens.iter().enumerate() {
        if let Some(prev) = i.checked_sub(1).map(|p| &tokens[p]) {
            let mut forced = false;
            let mut newline = false;
            for blank in blanks(&text[prev.end..token.start], '%') {
                match blank {
                    Blank::Newline => newline = true,
                    Blank::Comment(comment) if !newline => {
                        line.comment = Some(comment.to_string());
                        forced = true;
                    }
                    Blank::Comment(comment) => {
                        end_line(layout, &mut line, deeper);
                        layout.push(Line::new(deeper, comment));
                        forced = true;
                    }
                }
            }
            let space = spaced(prev, token);
            let too_wide =
                wraps_after(prev) && line.width() + usize::from(space) + reach[i] > WIDTH;
            if forced || (newline && may_break_after(prev)) || too_wide {
                end_line(layout, &mut line, deeper);
            } else if space {
                line.code.push(' ');
            }
        }
        line.code.push_str(token.text);
    }
    end_line(layout, &mut line, deeper);
}

/// Writes `line` unless it is empty, and starts the next one at `indent`.
fn end_line(layout: &mut Layout, line: &mut Line, indent: usize) {
    let done = std::mem::replace(line, Line::new(indent, ""));
    if !done.is_blank() {
        layout.push(done);
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::{FileId, Syntax};

    fn format(text: &str) -> String {
        super::super::format(text, Syntax::Rules, FileId(0)).expect("valid")
    }

    #[test]
    fn spacing_is_canonical_and_breaks_are_kept() {
        let text = "p( X,Y ):-q(X , 1 ..3),not  r( X ) ,\n  Y=X+ -1 ,Z = X mod(2) .\n";
        assert_eq!(
            format(text),
            "p(X, Y) :- q(X, 1..3), not r(X),\n    Y = X + -1, Z = X mod (2).\n"
        );
    }

    #[test]
    fn a_wide_body_breaks_at_the_last_literal_that_fits() {
        let body: Vec<String> = (0..12).map(|i| format!("relation_{i}(X)")).collect();
        let text = format!("p(X) :- {}.", body.join(", "));
        let formatted = format(&text);
        assert!(
            formatted.lines().all(|l| l.len() <= super::WIDTH),
            "{formatted}"
        );
        assert_eq!(formatted.lines().count(), 2, "{formatted}");
        assert_eq!(format(&formatted), formatted);
    }
}
