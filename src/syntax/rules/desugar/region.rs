//! `region NAME: CELLS [as COLOUR].`: a relation `NAME(Cell)` per cell,
//! and a mark on those cells for the renderer (drawn in the colour, if
//! given).

use super::Desugar;
use crate::syntax::ast::Span;
use crate::syntax::rules::parser::Decl;

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
        if let Some(colour) = self.colour(d, span)
            && !self.view.mark_colours.iter().any(|(m, _)| *m == mark)
        {
            self.view.mark_colours.push((mark, colour));
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
}
