//! `region NAME: CELLS [as COLOUR] [STYLE].`: a relation `NAME(Cell)` per
//! cell, and a mark on those cells for the renderer (drawn in the colour
//! and style, if given: `filled`, `outlined` or `marked`).

use super::Desugar;
use crate::syntax::ast::{MarkStyle, RegionStyle, Span};
use crate::syntax::rules::parser::{Decl, ExKind};

impl Desugar<'_> {
    pub(super) fn region(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":", "as"]);
        let Some(ex) = self.one(d, "", "a region name", span) else {
            return;
        };
        let Some(name) = self.name_of(ex, "a region name") else {
            return;
        };
        if crate::gdl::is_reserved_name(&name) {
            self.decl_error(ex.span, format!("`{name}` is a reserved relation"));
            return;
        }
        let Some(items) = self.part(d, ":", "its cells after `:`", span) else {
            return;
        };
        let mark = self.lw.sym(&name);
        let style = self.region_style(d);
        if !self.view.mark_styles.iter().any(|(m, _)| *m == mark) {
            self.view.mark_styles.push((mark, style));
        }
        for ex in items.iter().flatten() {
            for t in self.lw.expand(ex, false) {
                if self.cells.is_some() {
                    let Some(i) = self.cell_index(&t) else {
                        continue;
                    };
                    if !self.view.cells[i].marks.contains(&mark) {
                        self.view.cells[i].marks.push(mark);
                    }
                }
                self.fact(&name, vec![t], ex.span);
            }
        }
    }

    /// `as COLOUR STYLE` (either may be left out) after a region's cells.
    fn region_style(&mut self, d: &Decl) -> MarkStyle {
        let mut out = MarkStyle::default();
        let Some(p) = d.part("as") else {
            return out;
        };
        if p.items.len() != 1 || p.items[0].len() > 2 {
            self.decl_error(
                p.span,
                "a region is drawn `as COLOUR STYLE`, such as `as red marked`",
            );
            return out;
        }
        for ex in &p.items[0] {
            match &ex.kind {
                ExKind::Name(n) if RegionStyle::named(n).is_some() => {
                    out.style = RegionStyle::named(n).unwrap_or_default();
                }
                _ => out.colour = self.colour_of(ex),
            }
        }
        out
    }
}
