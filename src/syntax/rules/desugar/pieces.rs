//! `pieces ROLE: [COUNT] KIND ["GLYPH"] [at PLACES] [as COLOUR].` and
//! `draw FACT at PLACE as GLYPH [COLOUR].`
//!
//! Out: `piece(Role, Kind, I)` and `start(Role, Kind, I, Place)` facts, and
//! the patterns of the [`BoardView`] that draw a state's facts as pieces.

use super::{Desugar, MAX_PIECES};
use crate::syntax::ast::{Colour, PieceView, Span, Sym, Term, TermKind};
use crate::syntax::rules::lower::Value;
use crate::syntax::rules::parser::{Decl, Ex, ExKind};

/// What `pieces` says of a kind of piece.
struct PieceKind {
    count: Option<i64>,
    name: String,
    span: Span,
    glyph: Option<Term>,
}

impl Desugar<'_> {
    pub(super) fn pieces(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":", "at", "as"]);
        let Some(role_ex) = self.one(d, "", "a role", span) else {
            return;
        };
        let Some(role) = self.name_of(role_ex, "a role") else {
            return;
        };
        if !self.role_known(&role, role_ex.span) {
            return;
        }
        let Some(items) = self.part(d, ":", "`: COUNT KIND \"GLYPH\"`", span) else {
            return;
        };
        let [item] = items else {
            self.decl_error(span, "one `pieces` declaration per kind of piece");
            return;
        };
        let Some(kind) = self.piece_kind(item, span) else {
            return;
        };
        let places = self.places(d);
        let Some(n) = self.piece_count(kind.count, places.len(), span) else {
            return;
        };
        let r = self.lw.konst(&role, role_ex.span);
        let k = self.lw.konst(&kind.name, kind.span);
        let colour = self.colour(d, span);
        if self
            .glyphs
            .iter()
            .any(|(r0, k0, _, _)| *r0 == r && *k0 == k)
        {
            let why = format!("the pieces `{}` of {role} are declared twice", kind.name);
            self.decl_error(span, why);
            return;
        }
        for i in 1..=n {
            let it = Term::new(TermKind::Int(i), span);
            self.fact("piece", vec![r.clone(), k.clone(), it], span);
        }
        for (i, p) in places.into_iter().enumerate() {
            let it = Term::new(TermKind::Int(i as i64 + 1), span);
            self.fact("start", vec![r.clone(), k.clone(), it, p], span);
        }
        let g = kind.glyph.unwrap_or_else(|| {
            let first: String = kind.name.chars().take(1).collect();
            self.lw.konst(&first, kind.span)
        });
        self.glyphs.push((r, k, g, colour));
    }

    /// `[COUNT] KIND ["GLYPH"]` after the `:` of `pieces`.
    fn piece_kind(&mut self, item: &[Ex], span: Span) -> Option<PieceKind> {
        let mut it = item.iter().peekable();
        let count = match it.peek().map(|e| &e.kind) {
            Some(ExKind::Int(_)) | Some(ExKind::Arith(..)) => {
                it.next().and_then(|e| self.lw.int(e, "a count"))
            }
            Some(ExKind::Name(n)) if matches!(self.lw.params.get(n), Some(Value::Int(_))) => {
                it.next().and_then(|e| self.lw.int(e, "a count"))
            }
            _ => None,
        };
        let Some(kind_ex) = it.next() else {
            self.decl_error(span, "`pieces` needs the kind of piece");
            return None;
        };
        let name = self.name_of(kind_ex, "the kind of piece, a name")?;
        let glyph = match it.next() {
            Some(Ex {
                kind: ExKind::Str(s),
                span,
            }) => Some(self.lw.konst(s, *span)),
            Some(other) => {
                self.decl_error(other.span, "expected the glyph, a string such as \"x\"");
                None
            }
            None => None,
        };
        Some(PieceKind {
            count,
            name,
            span: kind_ex.span,
            glyph,
        })
    }

    /// The places after `at`, ranges expanded, at most [`MAX_PIECES`]; with
    /// a board, each written like its cells must be one.
    fn places(&mut self, d: &Decl) -> Vec<Term> {
        let mut places = Vec::new();
        // Places written like the board's cells (same functor and number of
        // arguments) must be cells; others (track indices) may be any term.
        let shapes: Vec<Shape> = self.cells.as_ref().map_or(Vec::new(), |cells| {
            let mut v: Vec<Shape> = cells.keys().filter_map(shape).collect();
            v.sort_unstable();
            v.dedup();
            v
        });
        if let Some(p) = d.part("at") {
            for ex in p.items.iter().flatten() {
                for t in self.lw.expand(ex, false) {
                    if places.len() >= MAX_PIECES as usize {
                        break;
                    }
                    let like_a_cell = shape(&t).is_some_and(|s| shapes.contains(&s));
                    if like_a_cell && self.cell_index(&t).is_none() {
                        continue;
                    }
                    places.push(t);
                }
            }
        }
        places
    }

    /// How many pieces: the count given (which must match the places), or
    /// one per place, or one.
    fn piece_count(&mut self, count: Option<i64>, places: usize, span: Span) -> Option<i64> {
        match count {
            Some(c) if !(1..=MAX_PIECES).contains(&c) => {
                self.decl_error(span, format!("a count must be 1 to {MAX_PIECES}"));
                None
            }
            Some(c) if places > 0 && c as usize != places => {
                self.decl_error(span, format!("{c} pieces but {places} places after `at`"));
                None
            }
            Some(c) => Some(c),
            None if places > 0 => Some(places as i64),
            None => Some(1),
        }
    }

    pub(super) fn draw(&mut self, d: &Decl) {
        let span = d.keyword_span;
        self.only_parts(d, &["", "at", "as"]);
        let fact = self
            .one(d, "", "the fact to draw", span)
            .map(|e| self.lw.term(e));
        let cell = self.one(d, "at", "the cell", span).map(|e| self.lw.term(e));
        let (glyph, colour) = self.glyph_and_colour(d, span);
        let glyph = glyph.map(|e| self.lw.term_in(e, true));
        let (Some(fact), Some(cell), Some(glyph)) = (fact, cell, glyph) else {
            return;
        };
        let piece = self.lw.sym("piece");
        if let TermKind::App(f, args) = &glyph.kind
            && *f == piece
            && args.len() == 2
        {
            let mut found = false;
            let own_colour = colour;
            for (r, k, g, colour) in self.glyphs.clone() {
                let mut s = Vec::new();
                if bind(&args[0], &r, &mut s) && bind(&args[1], &k, &mut s) {
                    found = true;
                    let colour = own_colour.or(colour);
                    self.push_view(subst(&fact, &s), subst(&cell, &s), g, colour);
                }
            }
            if !found {
                self.decl_error(glyph.span, "no `pieces` declaration matches this piece");
            }
            return;
        }
        self.push_view(fact, cell, glyph, colour);
    }

    /// `as GLYPH [COLOUR]` of `draw`: the glyph's expression and the colour
    /// if one follows it.
    fn glyph_and_colour<'d>(
        &mut self,
        d: &'d Decl,
        span: Span,
    ) -> (Option<&'d Ex>, Option<Colour>) {
        let Some(items) = self.part(d, "as", "a glyph", span) else {
            return (None, None);
        };
        match items {
            [item] if item.len() == 1 => (Some(&item[0]), None),
            [item] if item.len() == 2 => (Some(&item[0]), self.colour_of(&item[1])),
            _ => {
                let s = items
                    .first()
                    .and_then(|i| i.first())
                    .map_or(span, |e| e.span);
                self.decl_error(
                    s,
                    "expected a glyph and maybe a colour here, and nothing else",
                );
                (None, None)
            }
        }
    }

    fn push_view(&mut self, fact: Term, cell: Term, glyph: Term, colour: Option<Colour>) {
        self.view.pieces.push(PieceView {
            fact,
            cell,
            glyph,
            colour,
        });
    }
}

/// Matches a pattern term (variables or ground) against a ground term.
/// A functor (none for an integer) and a number of arguments.
type Shape = (Option<Sym>, usize);

fn shape(t: &Term) -> Option<Shape> {
    match &t.kind {
        TermKind::App(f, args) => Some((Some(*f), args.len())),
        TermKind::Const(c) => Some((Some(*c), 0)),
        TermKind::Int(_) => Some((None, 0)),
        _ => None,
    }
}

fn bind(pat: &Term, val: &Term, s: &mut Vec<(Sym, Term)>) -> bool {
    match (&pat.kind, &val.kind) {
        (TermKind::Var(v), _) => match s.iter().find(|(w, _)| w == v) {
            Some((_, t)) => t == val,
            None => {
                s.push((*v, val.clone()));
                true
            }
        },
        (a, b) => a == b,
    }
}

/// `t` with the variables bound in `s` replaced (keeping `t`'s spans).
fn subst(t: &Term, s: &[(Sym, Term)]) -> Term {
    match &t.kind {
        TermKind::Var(v) => match s.iter().find(|(w, _)| w == v) {
            Some((_, val)) => Term::new(val.kind.clone(), t.span),
            None => t.clone(),
        },
        TermKind::App(f, args) => Term::new(
            TermKind::App(*f, args.iter().map(|a| subst(a, s)).collect()),
            t.span,
        ),
        _ => t.clone(),
    }
}
