//! `label "TEXT" at X Y [as COLOUR].` and
//! `reserve "TITLE": PLACES [as COLOUR].`
//!
//! Out: only the [`BoardView`](crate::syntax::BoardView): a label is text on
//! a free place of the screen grid (X and Y as in `sq(X, Y)` on a grid or a
//! cross, a screen column and row on a board of named cells); a reserve is
//! a titled group of places off the board (pieces in hand, pieces home, the
//! zero mark, the throw) that `draw` puts pieces on as it does on cells.
//! Holds: neither makes a rule; a reserve place is a ground term that is
//! no cell and no other reserve's place.

use super::{Desugar, MAX_CELLS};
use crate::syntax::ast::{LabelView, ReserveView, Span};
use crate::syntax::rules::lower::is_ground;
use crate::syntax::rules::parser::Decl;

/// Longest text of a label or title of a reserve, in characters.
pub const MAX_LABEL_CHARS: usize = 200;

impl Desugar<'_> {
    pub(super) fn label(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", "at", "as"]);
        let Some(text) = self.legend_text(d, "label") else {
            return;
        };
        let Some(place) = self.part(d, "at", "a place `X Y`", span) else {
            return;
        };
        let [item] = place else {
            self.decl_error(span, "a label is at one place `X Y`");
            return;
        };
        let [x, y] = item.as_slice() else {
            self.decl_error(span, "a label's place is `X Y`, two numbers");
            return;
        };
        let (Some(x), Some(y)) = (self.lw.int(x, "a column"), self.lw.int(y, "a row")) else {
            return;
        };
        let colour = self.colour(d, span);
        let (w, h) = (i64::from(self.view.width), i64::from(self.view.height));
        let (col, row) = match self.frame_origin {
            Some(origin) => (x - origin, h - 1 - (y - origin)),
            None => (x, y),
        };
        if self.cells.is_none() || !(0..w).contains(&col) || !(0..h).contains(&row) {
            self.decl_error(
                span,
                format!("({x}, {y}) is not a place of the board's frame"),
            );
            return;
        }
        self.view.labels.push(LabelView {
            text,
            col: col as u32,
            row: row as u32,
            colour,
        });
    }

    pub(super) fn reserve(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":", "as"]);
        let Some(title) = self.legend_text(d, "reserve") else {
            return;
        };
        let Some(items) = self.part(d, ":", "its places after `:`", span) else {
            return;
        };
        let colour = self.colour(d, span);
        let mut places = Vec::new();
        for ex in items.iter().flatten() {
            for t in self.lw.expand(ex, false) {
                let mut taken = self.view.reserves.iter().flat_map(|r| &r.places);
                let taken = taken.any(|p| *p == t) || places.contains(&t);
                let shown = self.shown(&t);
                if !is_ground(&t) {
                    self.decl_error(t.span, "a reserve place must be a ground term");
                } else if self.cells.as_ref().is_some_and(|c| c.contains_key(&t)) {
                    self.decl_error(t.span, format!("`{shown}` is a cell of the board"));
                } else if taken {
                    self.decl_error(t.span, format!("`{shown}` is already a reserve place"));
                } else if places.len() >= MAX_CELLS {
                    self.decl_error(t.span, format!("a reserve has at most {MAX_CELLS} places"));
                    return;
                } else {
                    places.push(t);
                }
            }
        }
        self.view.reserves.push(ReserveView {
            title,
            places,
            colour,
        });
    }

    /// The text in quotes after `label` or `reserve`.
    fn legend_text(&mut self, d: &Decl, keyword: &str) -> Option<String> {
        match &d.text {
            Some((t, span)) if t.chars().count() > MAX_LABEL_CHARS => {
                let why = format!("a text of at most {MAX_LABEL_CHARS} characters");
                self.decl_error(*span, why);
                None
            }
            Some((t, _)) => Some(t.clone()),
            None => {
                let why = format!("`{keyword}` needs a text in quotes");
                self.decl_error(d.keyword_span, why);
                None
            }
        }
    }
}
