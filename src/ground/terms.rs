//! Hash-consed ground terms.
//!
//! In: symbols and integers. Out: [`TermId`]s, one per distinct ground term,
//! so equality of terms is equality of ids. Holds: a term's arguments are
//! interned before the term itself, so ids grow with nesting; the depth of
//! every term is kept to stop runaway nesting during grounding, and the
//! table's [`Extent`] (deepest term, largest integer) shows whether grounding
//! still makes ever larger terms. A compound term is found from its
//! function and argument ids without building it ([`TermTable::get_app`],
//! [`TermTable::intern_app`]), so a join allocates only for new terms.

use crate::syntax::print::{Shape, TermView};
use crate::syntax::{CmpOp, Show, Sym, Symbols, Syntax, Term, TermKind};
use indexmap::{Equivalent, IndexSet};
use rustc_hash::FxBuildHasher;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GTerm {
    Sym(Sym),
    Int(i64),
    App(Sym, Box<[TermId]>),
}

/// A compound term by its parts: hashes as the [`GTerm::App`] it equals.
struct AppKey<'a>(Sym, &'a [TermId]);

impl Hash for AppKey<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        2u8.hash(h);
        self.0.hash(h);
        self.1.hash(h);
    }
}

impl Hash for GTerm {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            GTerm::Sym(s) => (0u8, s).hash(h),
            GTerm::Int(i) => (1u8, i).hash(h),
            GTerm::App(f, args) => AppKey(*f, args).hash(h),
        }
    }
}

impl Equivalent<GTerm> for AppKey<'_> {
    fn equivalent(&self, term: &GTerm) -> bool {
        matches!(term, GTerm::App(f, args) if *f == self.0 && **args == *self.1)
    }
}

#[derive(Clone, Debug, Default)]
pub struct TermTable {
    /// Every term once; a term's id is its position.
    terms: IndexSet<GTerm, FxBuildHasher>,
    depths: Vec<u32>,
    extent: Extent,
}

/// How large the terms of a table are: the deepest nesting and the largest
/// integer magnitude among them. Only grows as terms are added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extent {
    pub depth: u32,
    pub magnitude: u64,
}

impl Extent {
    /// Whether `self` has a deeper term or a larger integer than `other`.
    pub fn exceeds(self, other: Extent) -> bool {
        self.depth > other.depth || self.magnitude > other.magnitude
    }
}

impl TermTable {
    pub fn intern(&mut self, term: GTerm) -> TermId {
        if let Some(id) = self.get(&term) {
            return id;
        }
        let depth = match &term {
            GTerm::App(_, args) => 1 + args.iter().map(|a| self.depth(*a)).max().unwrap_or(0),
            _ => 0,
        };
        if let GTerm::Int(i) = term {
            self.extent.magnitude = self.extent.magnitude.max(i.unsigned_abs());
        }
        self.extent.depth = self.extent.depth.max(depth);
        let id = TermId(self.terms.len() as u32);
        self.terms.insert(term);
        self.depths.push(depth);
        id
    }

    /// The compound term `f(args)`, made if it is new.
    pub fn intern_app(&mut self, f: Sym, args: &[TermId]) -> TermId {
        match self.get_app(f, args) {
            Some(id) => id,
            None => self.intern(GTerm::App(f, args.into())),
        }
    }

    pub fn get(&self, term: &GTerm) -> Option<TermId> {
        self.terms.get_index_of(term).map(|i| TermId(i as u32))
    }

    /// The compound term `f(args)`, if it exists.
    pub fn get_app(&self, f: Sym, args: &[TermId]) -> Option<TermId> {
        let key = AppKey(f, args);
        self.terms.get_index_of(&key).map(|i| TermId(i as u32))
    }

    pub fn term(&self, id: TermId) -> &GTerm {
        &self.terms[id.0 as usize]
    }

    pub fn depth(&self, id: TermId) -> u32 {
        self.depths[id.0 as usize]
    }

    pub fn extent(&self) -> Extent {
        self.extent
    }

    pub fn int(&self, id: TermId) -> Option<i64> {
        match self.term(id) {
            GTerm::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// Whether the comparison `a op b` holds, as the language defines it:
    /// `=` and `!=` on terms, the orderings on integers only (false when a
    /// side is not an integer).
    pub fn satisfies(&self, op: CmpOp, a: TermId, b: TermId) -> bool {
        match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            _ => match (self.int(a), self.int(b)) {
                (Some(x), Some(y)) => match op {
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    _ => x >= y,
                },
                _ => false,
            },
        }
    }

    /// An integer value, also read from a KIF constant spelled as digits
    /// (goal values and weights in KIF are symbols such as `100`).
    pub fn int_value(&self, id: TermId, symbols: &Symbols) -> Option<i64> {
        match self.term(id) {
            GTerm::Int(i) => Some(*i),
            GTerm::Sym(s) => symbols.name(*s).parse().ok(),
            GTerm::App(..) => None,
        }
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The id of the ground term a written term denotes, its variables
    /// taken from `env`; `None` if a variable is unbound, the term holds
    /// arithmetic, or the game never made that term. The inverse of
    /// [`TermTable::matches`]: together they are the one bridge from written
    /// terms to ground ones.
    pub fn lookup(&self, term: &Term, env: &[(Sym, TermId)]) -> Option<TermId> {
        let g = match &term.kind {
            TermKind::Var(v) => return env.iter().find(|(w, _)| w == v).map(|(_, t)| *t),
            TermKind::Const(s) => GTerm::Sym(*s),
            TermKind::Int(i) => GTerm::Int(*i),
            TermKind::App(f, args) => GTerm::App(
                *f,
                args.iter()
                    .map(|a| self.lookup(a, env))
                    .collect::<Option<Box<[TermId]>>>()?,
            ),
            TermKind::Arith(..) => return None,
        };
        self.get(&g)
    }

    /// Matches a pattern with variables (as a user typed it, or a board's
    /// piece pattern) against a ground term, binding variables in `env`.
    pub fn matches(&self, pattern: &Term, t: TermId, env: &mut Vec<(Sym, TermId)>) -> bool {
        match (&pattern.kind, self.term(t)) {
            (TermKind::Var(v), _) => match env.iter().find(|(w, _)| w == v) {
                Some(&(_, bound)) => bound == t,
                None => {
                    env.push((*v, t));
                    true
                }
            },
            (TermKind::Const(s), GTerm::Sym(u)) => s == u,
            (TermKind::Int(i), GTerm::Int(j)) => i == j,
            (TermKind::App(f, args), GTerm::App(g, targs)) => {
                f == g
                    && args.len() == targs.len()
                    && args
                        .iter()
                        .zip(targs.iter())
                        .all(|(a, &u)| self.matches(a, u, env))
            }
            _ => false,
        }
    }

    /// The natural order of ground terms: integers numerically first, then
    /// by name in [`natural`] order (a constant before the compound terms
    /// of the same name, fewer arguments first), then argument by argument.
    /// A total order: equal only for the same term.
    pub fn compare(&self, a: TermId, b: TermId, symbols: &Symbols) -> Ordering {
        let split = |t: TermId| match self.term(t) {
            GTerm::Int(_) => ("", &[][..]),
            GTerm::Sym(s) => (symbols.name(*s), &[][..]),
            GTerm::App(f, args) => (symbols.name(*f), &args[..]),
        };
        match (self.term(a), self.term(b)) {
            (GTerm::Int(x), GTerm::Int(y)) => return x.cmp(y),
            (GTerm::Int(_), _) => return Ordering::Less,
            (_, GTerm::Int(_)) => return Ordering::Greater,
            _ => {}
        }
        let ((fa, xs), (fb, ys)) = (split(a), split(b));
        natural(fa, fb).then(xs.len().cmp(&ys.len())).then_with(|| {
            xs.iter()
                .zip(ys)
                .map(|(&x, &y)| self.compare(x, y, symbols))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    }

    /// A printable view of a term in the given syntax.
    pub fn show<'a>(&'a self, id: TermId, symbols: &'a Symbols, syntax: Syntax) -> ShowTerm<'a> {
        Show {
            item: self.view(id),
            symbols,
            syntax,
        }
    }

    /// A handle on a term for the printer ([`crate::syntax::print`]).
    pub fn view(&self, id: TermId) -> TermRef<'_> {
        TermRef { table: self, id }
    }
}

/// A ground term printed in a syntax.
pub type ShowTerm<'a> = Show<'a, TermRef<'a>>;

/// A term of a [`TermTable`], as the printer sees it.
#[derive(Clone, Copy)]
pub struct TermRef<'a> {
    table: &'a TermTable,
    id: TermId,
}

impl TermView for TermRef<'_> {
    fn shape(self) -> Shape<Self> {
        match self.table.term(self.id) {
            GTerm::Sym(s) => Shape::Const(*s),
            GTerm::Int(i) => Shape::Int(*i),
            GTerm::App(f, args) => Shape::App(*f, args.len()),
        }
    }

    fn arg(self, i: usize) -> Self {
        match self.table.term(self.id) {
            GTerm::App(_, args) => self.table.view(args[i]),
            _ => self,
        }
    }
}

/// The order of names: names spelled as integers (KIF numbers are symbols)
/// first, by value however many digits they have, then every other name
/// alphabetically. A total order: names of equal value (`7`, `07`) are
/// ordered by their spelling.
pub fn natural(a: &str, b: &str) -> Ordering {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => compare_integers(x, y).then_with(|| a.cmp(b)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// A name spelled as an integer (`[+-]?[0-9]+`): whether it is negative,
/// and its digits without leading zeros.
fn integer(name: &str) -> Option<(bool, &str)> {
    let (negative, digits) = match name.as_bytes().first()? {
        b'-' => (true, &name[1..]),
        b'+' => (false, &name[1..]),
        _ => (false, name),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    Some((negative && !digits.is_empty(), digits))
}

fn compare_integers((xn, x): (bool, &str), (yn, y): (bool, &str)) -> Ordering {
    let magnitude = x.len().cmp(&y.len()).then_with(|| x.cmp(y));
    match (xn, yn) {
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

#[cfg(test)]
mod tests {
    use super::{GTerm, TermTable, natural};
    use crate::syntax::Symbols;
    use std::cmp::Ordering;

    #[test]
    fn a_compound_term_has_one_id_whole_or_by_parts() {
        let mut symbols = Symbols::default();
        let (f, g, a) = (
            symbols.intern("f"),
            symbols.intern("g"),
            symbols.intern("a"),
        );
        let mut table = TermTable::default();
        let a = table.intern(GTerm::Sym(a));
        let one = table.intern(GTerm::Int(1));
        let whole = table.intern(GTerm::App(f, [a, one].into()));
        assert_eq!(table.get_app(f, &[a, one]), Some(whole));
        assert_eq!(table.intern_app(f, &[a, one]), whole);
        assert_eq!(table.get_app(f, &[one, a]), None);
        assert_eq!(table.get_app(g, &[a, one]), None);
        let by_parts = table.intern_app(g, &[whole]);
        assert_eq!(table.get(&GTerm::App(g, [whole].into())), Some(by_parts));
        assert_eq!((table.depth(whole), table.depth(by_parts)), (1, 2));
        assert_eq!(table.len(), 4);
    }

    #[test]
    fn names_of_integers_come_first_by_value() {
        let mut names = vec![
            "b",
            "20",
            "1a",
            "-3",
            "9",
            "a",
            "100000000000000000000000",
            "07",
            "7",
            "+8",
            "-",
            "0",
            "-0",
        ];
        names.sort_by(|a, b| natural(a, b));
        assert_eq!(
            names,
            [
                "-3",
                "-0",
                "0",
                "07",
                "7",
                "+8",
                "9",
                "20",
                "100000000000000000000000",
                "-",
                "1a",
                "a",
                "b"
            ]
        );
    }

    #[test]
    fn the_order_is_total() {
        let names = [
            "10",
            "9",
            "1a",
            "-5",
            "+5",
            "5",
            "05",
            "x",
            "",
            "-",
            "99999999999999999999",
        ];
        for a in names {
            assert_eq!(natural(a, a), Ordering::Equal);
            for b in names {
                assert_eq!(natural(a, b), natural(b, a).reverse(), "{a} {b}");
                for c in names {
                    if natural(a, b).is_le() && natural(b, c).is_le() {
                        assert!(natural(a, c).is_le(), "{a} <= {b} <= {c}");
                    }
                }
            }
        }
    }
}
