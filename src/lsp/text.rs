//! Positions as the protocol counts them, and edits of a text.
//!
//! In: a text and byte offsets, or protocol positions (line, UTF-16 code
//! unit). Out: the other of the two, and texts with edits applied. Holds:
//! every conversion clamps (a position past a line's end is its end, a line
//! past the text's end is the end of the text), so no client input can make
//! an offset fall outside the text or inside a character.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// The start of every line of a text, for conversions in both directions.
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, line_starts }
    }

    /// The protocol position of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        let offset = floor_boundary(self.text, offset.min(self.text.len()));
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, bytes: std::ops::Range<usize>) -> Range {
        Range::new(self.position(bytes.start), self.position(bytes.end))
    }

    /// The byte offset of a protocol position, clamped into the text.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .line_starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Applies one change of `textDocument/didChange`: a whole new text, or a
/// range replaced.
pub fn apply_change(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let index = LineIndex::new(text);
            let start = index.offset(range.start);
            let end = index.offset(range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

/// The word (name, variable, or code such as `E0101`) that holds `offset`
/// or ends right at it, with its byte range.
pub fn word_at(text: &str, offset: usize) -> Option<(&str, std::ops::Range<usize>)> {
    let offset = floor_boundary(text, offset.min(text.len()));
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = text[offset..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len(), |(i, _)| offset + i);
    (start < end).then(|| (&text[start..end], start..end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        let text = "ab\n\u{1F3B2}x\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(3), Position::new(1, 0));
        assert_eq!(
            index.position(7),
            Position::new(1, 2),
            "the die is two units"
        );
        assert_eq!(index.offset(Position::new(1, 2)), 7);
        assert_eq!(
            index.offset(Position::new(1, 1)),
            7,
            "inside the die: after it"
        );
        assert_eq!(index.offset(Position::new(0, 99)), 2, "past the line's end");
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
        assert_eq!(index.position(5), Position::new(1, 0), "inside a character");
    }

    #[test]
    fn changes_replace_ranges_even_out_of_bounds() {
        let mut text = "p(a).\nq.\n".to_string();
        let change = |l1, c1, l2, c2, t: &str| TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l1, c1), Position::new(l2, c2))),
            range_length: None,
            text: t.to_string(),
        };
        apply_change(&mut text, change(0, 2, 0, 3, "bb"));
        assert_eq!(text, "p(bb).\nq.\n");
        apply_change(&mut text, change(5, 0, 1, 0, "r."));
        assert_eq!(
            text, "p(bb).\nq.\nr.",
            "a start past the end inserts at the end"
        );
    }

    #[test]
    fn words_under_the_cursor() {
        let text = "goal(R, 100) :- E0101.";
        assert_eq!(word_at(text, 2).map(|w| w.0), Some("goal"));
        assert_eq!(
            word_at(text, 4).map(|w| w.0),
            Some("goal"),
            "right after it"
        );
        assert_eq!(word_at(text, 17).map(|w| w.0), Some("E0101"));
        assert_eq!(word_at(text, 13), None);
    }
}
