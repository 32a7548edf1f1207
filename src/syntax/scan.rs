//! Hand scanners and pest helpers shared by the two readers.
//!
//! In: raw text (or a pest error) and the [`Lexis`] of a syntax. Out:
//! offsets and located diagnostics. Holds: every scanner skips comments and
//! strings in the same way ([`skip`]), makes one pass over the bytes, and
//! accepts any text without panicking; the readers call them before pest
//! sees the text (bounding nesting) or after it fails (clearer messages).

use super::ast::{FileId, Span};
use crate::diag::{Diagnostic, codes};

/// What scanners of a syntax skip.
#[derive(Clone, Copy, Debug)]
pub struct Lexis {
    /// The byte that starts a comment running to the end of the line.
    pub comment: u8,
    /// Whether `"` opens a string, which ends at the next `"` or at the end
    /// of its line (`\` escapes the byte after it).
    pub strings: bool,
}

/// GDL in KIF syntax: `;` comments, no strings.
pub const KIF: Lexis = Lexis {
    comment: b';',
    strings: false,
};

/// The native language: `%` comments, strings in `"`.
pub const RULES: Lexis = Lexis {
    comment: b'%',
    strings: true,
};

/// A comment or string starting at byte `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// A comment; `end` is its line break (or the end of the text).
    Comment { end: usize },
    /// A string; `end` is just after it. `closed` is false when the line
    /// (or the text) ended first, and `end` is then that line break.
    Str { end: usize, closed: bool },
}

impl Skipped {
    pub fn end(self) -> usize {
        match self {
            Skipped::Comment { end } | Skipped::Str { end, .. } => end,
        }
    }
}

/// The comment or string that starts at byte `i`, if one does.
pub fn skip(lexis: Lexis, bytes: &[u8], i: usize) -> Option<Skipped> {
    match bytes.get(i) {
        Some(&c) if c == lexis.comment => {
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n);
            Some(Skipped::Comment { end })
        }
        Some(b'"') if lexis.strings => {
            let mut j = i + 1;
            while j < bytes.len() {
                match bytes[j] {
                    b'"' => {
                        return Some(Skipped::Str {
                            end: j + 1,
                            closed: true,
                        });
                    }
                    b'\n' => {
                        return Some(Skipped::Str {
                            end: j,
                            closed: false,
                        });
                    }
                    b'\\' => j += 2,
                    _ => j += 1,
                }
            }
            Some(Skipped::Str {
                end: bytes.len(),
                closed: false,
            })
        }
        _ => None,
    }
}

/// Refuses text nested deeper than `max` before a recursive parser sees it,
/// so no input can overflow the stack. `pairs` are the bracket kinds.
pub fn guard_nesting(
    text: &str,
    file: FileId,
    max: usize,
    pairs: &[(u8, u8)],
    lexis: Lexis,
) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        if let Some(s) = skip(lexis, bytes, i) {
            i = s.end();
            continue;
        }
        let c = bytes[i];
        if pairs.iter().any(|p| p.0 == c) {
            depth += 1;
            if depth > max {
                return Err(Diagnostic::error(
                    codes::TOO_DEEP,
                    Span::new(file, i, i + 1),
                    format!("nested more than {max} levels deep"),
                ));
            }
        } else if pairs.iter().any(|p| p.1 == c) {
            depth = depth.saturating_sub(1);
        }
        i += 1;
    }
    Ok(())
}

/// The clearer message for the commonest syntax error: a `(` never closed
/// (pointing at it) or a `)` that closes nothing.
pub fn unbalanced(text: &str, file: FileId, lexis: Lexis) -> Option<Diagnostic> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(s) = skip(lexis, bytes, i) {
            i = s.end();
            continue;
        }
        match bytes[i] {
            b'(' => open.push(i),
            b')' if open.pop().is_none() => {
                return Some(Diagnostic::error(
                    codes::SYNTAX,
                    Span::new(file, i, i + 1),
                    "this `)` closes no `(`",
                ));
            }
            _ => {}
        }
        i += 1;
    }
    open.pop().map(|i| {
        Diagnostic::error(
            codes::SYNTAX,
            Span::new(file, i, i + 1),
            "this `(` is never closed (expected `)` before the end of the text)",
        )
    })
}

/// Skips spaces and comments from `pos`.
pub fn skip_blank(text: &str, mut pos: usize, lexis: Lexis) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0C => pos += 1,
            c if c == lexis.comment => pos = skip(lexis, bytes, pos).map_or(pos + 1, Skipped::end),
            _ => break,
        }
    }
    pos
}

/// The offset just after the statement that starts at `pos`: after the next
/// `.` outside strings and comments that is not part of `..`, or at the next
/// `}` that closes a section (not one that closes an aggregate's `{`), or at
/// the end.
pub fn statement_end(text: &str, pos: usize, lexis: Lexis) -> usize {
    let bytes = text.as_bytes();
    let mut i = pos;
    let mut braces = 0usize;
    while i < bytes.len() {
        if let Some(s) = skip(lexis, bytes, i) {
            i = s.end();
            continue;
        }
        match bytes[i] {
            b'.' if bytes.get(i + 1) == Some(&b'.') => i += 2,
            b'.' => return i + 1,
            b'{' => (braces, i) = (braces + 1, i + 1),
            b'}' if braces > 0 => (braces, i) = (braces - 1, i + 1),
            b'}' if i > pos => return i,
            _ => i += 1,
        }
    }
    bytes.len().max(pos + 1)
}

/// The offset of a `"` in the statement starting `rest` whose string does
/// not end on its line.
pub fn unterminated_string(rest: &str, lexis: Lexis) -> Option<usize> {
    let end = statement_end(rest, 0, lexis).min(rest.len());
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < end {
        match skip(lexis, bytes, i) {
            Some(Skipped::Str { closed: false, .. }) => return Some(i),
            Some(s) => i = s.end(),
            None => i += 1,
        }
    }
    None
}

/// `section NAME {`: the name, its offset and the length of the opener.
pub fn section_open(rest: &str, lexis: Lexis) -> Option<(String, usize, usize)> {
    let after = rest.strip_prefix("section")?;
    if after
        .as_bytes()
        .first()
        .is_none_or(|c| !c.is_ascii_whitespace())
    {
        return None;
    }
    let name_at = 7 + skip_blank(after, 0, lexis);
    let name_len = rest[name_at..]
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    let name = &rest[name_at..name_at + name_len];
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let brace = skip_blank(rest, name_at + name_len, lexis);
    if !rest[brace..].starts_with('{') {
        return None;
    }
    Some((name.to_string(), name_at, brace + 1))
}

/// Turns a pest error into a located syntax diagnostic, naming what was
/// expected in the user's words (`describe` renames grammar rules).
pub fn pest_diagnostic<R: pest::RuleType>(
    err: pest::error::Error<R>,
    file: FileId,
    describe: impl Fn(&R) -> String,
) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match err.location {
        InputLocation::Pos(p) => (p, p + 1),
        InputLocation::Span((s, e)) => (s, e),
    };
    let message = match &err.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => expectation(
            positives.iter().map(&describe).collect(),
            negatives.iter().map(&describe).collect(),
        ),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    Diagnostic::error(codes::SYNTAX, Span::new(file, start, end), message)
}

/// "expected A, B or C" from what was wanted, or "unexpected X" from what
/// was not.
fn expectation(mut want: Vec<String>, unwanted: Vec<String>) -> String {
    want.sort();
    want.dedup();
    match (want.len(), unwanted.is_empty()) {
        (0, true) => "unexpected input".to_string(),
        (0, false) => format!("unexpected {}", unwanted.join(" or ")),
        (1, _) => format!("expected {}", want[0]),
        _ => {
            let last = want.pop().unwrap_or_default();
            format!("expected {} or {last}", want.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_end_at_their_quote_or_their_line() {
        let text = br#"a "b\"c" "d
e"#;
        assert_eq!(
            skip(RULES, text, 2),
            Some(Skipped::Str {
                end: 8,
                closed: true
            })
        );
        assert_eq!(
            skip(RULES, text, 9),
            Some(Skipped::Str {
                end: 11,
                closed: false
            })
        );
        assert_eq!(skip(KIF, text, 2), None, "KIF has no strings");
    }

    #[test]
    fn statements_end_at_a_stop_outside_strings_comments_and_ranges() {
        let text = "p(1..3, \"a.b\"). % c.\nq.";
        assert_eq!(statement_end(text, 0, RULES), 15);
        assert_eq!(statement_end(text, 15, RULES), text.len());
        assert_eq!(unterminated_string("p(\"ab). q.", RULES), Some(2));
        assert_eq!(unterminated_string("p(\"a\"). q(\"", RULES), None);
    }

    #[test]
    fn brackets_in_comments_do_not_count() {
        let file = FileId(0);
        assert!(guard_nesting("((; (((\n))", file, 2, &[(b'(', b')')], KIF).is_ok());
        let deep = guard_nesting("(((", file, 2, &[(b'(', b')')], KIF).unwrap_err();
        assert_eq!(deep.span, Some(Span::new(file, 2, 3)));
        let open = unbalanced("(p ; )\n", file, KIF).unwrap();
        assert_eq!(open.span, Some(Span::new(file, 0, 1)));
        assert_eq!(
            section_open("section  main {", RULES),
            Some(("main".into(), 9, 15))
        );
    }
}
