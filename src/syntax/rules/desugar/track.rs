//! `track NAME [from FIRST]: CELLS.`: an ordered path of cells,
//! `track(Name, Index, Cell)` from index FIRST (0 by default) and
//! `track_length(Name, Length)`.

use super::Desugar;
use crate::syntax::ast::{Span, Term, TermKind};
use crate::syntax::rules::lower::{MAX_EXPANSION, is_ground};
use crate::syntax::rules::parser::Decl;

impl Desugar<'_> {
    pub(super) fn track(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":", "from"]);
        let Some(name_ex) = self.one(d, "", "a name (a role, or any term)", span) else {
            return;
        };
        let name = self.lw.term(name_ex);
        if !is_ground(&name) {
            self.decl_error(name_ex.span, "a track's name must be a ground term");
            return;
        }
        let first = match d.part("from") {
            Some(_) => self
                .one(d, "from", "the first index", span)
                .and_then(|e| self.lw.int(e, "the first index")),
            None => Some(0),
        };
        let Some(first) = first else { return };
        let Some(items) = self.part(d, ":", "its cells after `:`", span) else {
            return;
        };
        let mut len = 0i64;
        for ex in items.iter().flatten() {
            for t in self.lw.expand(ex, false) {
                if self.cells.is_some() && self.cell_index(&t).is_none() {
                    continue;
                }
                if len >= MAX_EXPANSION as i64 {
                    self.decl_error(ex.span, "a track is longer than the limit");
                    return;
                }
                let Some(index) = first.checked_add(len) else {
                    let why = format!("the track's indexes from {first} pass the largest integer");
                    self.decl_error(ex.span, why);
                    return;
                };
                let i = Term::new(TermKind::Int(index), ex.span);
                self.fact("track", vec![name.clone(), i, t], ex.span);
                len += 1;
            }
        }
        let l = Term::new(TermKind::Int(len), span);
        self.fact("track_length", vec![name, l], span);
    }
}
