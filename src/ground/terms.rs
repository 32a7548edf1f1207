//! Hash-consed ground terms.
//!
//! In: symbols and integers. Out: [`TermId`]s, one per distinct ground term,
//! so equality of terms is equality of ids. Holds: a term's arguments are
//! interned before the term itself, so ids grow with nesting; the depth of
//! every term is kept to stop runaway nesting during grounding.

use crate::syntax::print::{Shape, TermView};
use crate::syntax::{Show, Sym, Symbols, Syntax, Term, TermKind};
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GTerm {
    Sym(Sym),
    Int(i64),
    App(Sym, Box<[TermId]>),
}

#[derive(Clone, Debug, Default)]
pub struct TermTable {
    terms: Vec<GTerm>,
    depths: Vec<u32>,
    ids: FxHashMap<GTerm, TermId>,
}

impl TermTable {
    pub fn intern(&mut self, term: GTerm) -> TermId {
        if let Some(&id) = self.ids.get(&term) {
            return id;
        }
        let depth = match &term {
            GTerm::App(_, args) => 1 + args.iter().map(|a| self.depth(*a)).max().unwrap_or(0),
            _ => 0,
        };
        let id = TermId(self.terms.len() as u32);
        self.terms.push(term.clone());
        self.depths.push(depth);
        self.ids.insert(term, id);
        id
    }

    pub fn get(&self, term: &GTerm) -> Option<TermId> {
        self.ids.get(term).copied()
    }

    pub fn term(&self, id: TermId) -> &GTerm {
        &self.terms[id.0 as usize]
    }

    pub fn depth(&self, id: TermId) -> u32 {
        self.depths[id.0 as usize]
    }

    pub fn int(&self, id: TermId) -> Option<i64> {
        match self.term(id) {
            GTerm::Int(i) => Some(*i),
            _ => None,
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
