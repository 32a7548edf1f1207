//! One relation of the relaxed model: its facts and the indexes a join
//! looks them up by.
//!
//! In: new facts (argument slices), and for a join a set of bound paths
//! with their terms. Out: whether a fact holds ([`Relation::find`]), and the
//! list of the facts that have those terms at those paths
//! ([`Relation::lookup`]).
//! Holds: facts are numbered in insertion order and their arguments stored
//! once, flat; every index list is sorted by fact number (facts only arrive
//! at the end), so a window of fact numbers (a semi-naive round's delta) is
//! a sub-range found by binary search. A set of paths is indexed the first
//! time a join binds exactly it and kept up to date from then on, so only
//! the sets the rules need cost memory. An index is keyed by a hash of the
//! terms: a collision only adds candidates, which matching rejects. The set
//! of facts is one open-addressing table of (hash, fact number) pairs: a
//! look-up compares the stored hash before it reads a fact's arguments.

use super::{AtomId, GTerm, TermId, TermTable};
use crate::syntax::Sym;
use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::hash::{BuildHasher, Hasher};

/// A path names a place in a fact: `pos * PATH_STRIDE` is argument `pos`,
/// `pos * PATH_STRIDE + 1 + k` is argument `k` of a compound argument `pos`
/// (for `k < SUB_ARGS`), and `pos * PATH_STRIDE + FUNCTOR` is the function
/// name of a compound argument `pos` (its [`Sym`] number in place of a term).
pub(super) const PATH_STRIDE: u32 = 16;
pub(super) const FUNCTOR: u32 = PATH_STRIDE - 1;
pub(super) const SUB_ARGS: usize = PATH_STRIDE as usize - 2;

pub(super) struct Relation {
    pub name: Sym,
    pub arity: usize,
    args: Vec<TermId>,
    /// The ground atom of each fact.
    pub atoms: Vec<AtomId>,
    /// Every fact, as the hash of its arguments and its number.
    set: HashTable<(u64, u32)>,
    /// The sets of paths indexed so far, each sorted.
    path_sets: Vec<Box<[u32]>>,
    /// The facts (in order) with given terms at the paths of set `s`:
    /// `lists[index[(s, hash of the terms)]]`.
    index: FxHashMap<(u32, u64), u32>,
    lists: Vec<Vec<u32>>,
    /// Facts `0..old` were seen by every rule in earlier rounds; `old..cur`
    /// are this round's delta.
    pub old: u32,
    pub cur: u32,
}

impl Relation {
    pub fn new(name: Sym, arity: usize) -> Relation {
        Relation {
            name,
            arity,
            args: Vec::new(),
            atoms: Vec::new(),
            set: HashTable::new(),
            path_sets: Vec::new(),
            index: FxHashMap::default(),
            lists: Vec::new(),
            old: 0,
            cur: 0,
        }
    }

    pub fn fact(&self, i: u32) -> &[TermId] {
        let a = self.arity;
        &self.args[i as usize * a..i as usize * a + a]
    }

    /// The number of the fact with these arguments, if it holds.
    pub fn find(&self, args: &[TermId]) -> Option<u32> {
        let hash = rustc_hash::FxBuildHasher.hash_one(args);
        let found = self
            .set
            .find(hash, |&(h, f)| h == hash && self.fact(f) == args);
        found.map(|&(_, f)| f)
    }

    /// Adds a fact that does not hold yet, as ground atom `atom`.
    pub fn push(&mut self, args: &[TermId], atom: AtomId, terms: &TermTable) {
        let f = self.atoms.len() as u32;
        self.args.extend_from_slice(args);
        self.atoms.push(atom);
        let hash = rustc_hash::FxBuildHasher.hash_one(args);
        self.set.insert_unique(hash, (hash, f), |&(h, _)| h);
        for s in 0..self.path_sets.len() as u32 {
            self.index_fact(s, f, terms);
        }
    }

    /// The facts numbered in order in index list `list`.
    pub fn list(&self, list: u32) -> &[u32] {
        &self.lists[list as usize]
    }

    /// The index list of the facts with `terms_at[i]` at `paths[i]` (paths
    /// sorted, at least one), indexing that set of paths first if it is
    /// new; `None` if no fact has them.
    pub fn lookup(&mut self, paths: &[u32], terms_at: &[TermId], terms: &TermTable) -> Option<u32> {
        let s = match self.path_sets.iter().position(|p| **p == *paths) {
            Some(s) => s as u32,
            None => {
                self.path_sets.push(paths.into());
                let s = self.path_sets.len() as u32 - 1;
                for f in 0..self.atoms.len() as u32 {
                    self.index_fact(s, f, terms);
                }
                s
            }
        };
        let mut h = rustc_hash::FxHasher::default();
        terms_at.iter().for_each(|t| h.write_u32(t.0));
        self.index.get(&(s, h.finish())).copied()
    }

    /// Adds fact `f` to its list in the index of path set `s` (unless it
    /// lacks one of the paths: a compound argument that is not there).
    fn index_fact(&mut self, s: u32, f: u32, terms: &TermTable) {
        let mut h = rustc_hash::FxHasher::default();
        for &path in self.path_sets[s as usize].iter() {
            match term_at(self.fact(f), path, terms) {
                Some(t) => h.write_u32(t.0),
                None => return,
            }
        }
        let next = self.lists.len() as u32;
        let list = *self.index.entry((s, h.finish())).or_insert(next);
        if list == next {
            self.lists.push(Vec::new());
        }
        self.lists[list as usize].push(f);
    }
}

/// The term of `fact` at `path`, if the fact has that place.
fn term_at(fact: &[TermId], path: u32, terms: &TermTable) -> Option<TermId> {
    let arg = fact[(path / PATH_STRIDE) as usize];
    match (path % PATH_STRIDE, terms.term(arg)) {
        (0, _) => Some(arg),
        (FUNCTOR, GTerm::App(name, _)) => Some(TermId(name.0)),
        (k, GTerm::App(_, sub)) => sub.get(k as usize - 1).copied(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Symbols;

    /// `at(a, f(b, c))`, `at(a, f(b, d))`, `at(e, f(b, c))`, `at(a, g(b, c))`
    /// and `at(a, b)`: the relation, and the terms `a`..`e`, `f`, `g` by name.
    fn relation() -> (Relation, TermTable, impl Fn(&str) -> TermId, Symbols) {
        let mut symbols = Symbols::default();
        let mut terms = TermTable::default();
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        let ids: Vec<(String, TermId)> = names
            .iter()
            .map(|&n| (n.to_string(), terms.intern(GTerm::Sym(symbols.intern(n)))))
            .collect();
        let t = move |n: &str| ids.iter().find(|(m, _)| m == n).map(|(_, t)| *t).unwrap();
        let mut app = |f: &str, args: &[&str]| {
            let args = args.iter().map(|a| t(a)).collect();
            terms.intern(GTerm::App(symbols.intern(f), args))
        };
        let facts = [
            (t("a"), app("f", &["b", "c"])),
            (t("a"), app("f", &["b", "d"])),
            (t("e"), app("f", &["b", "c"])),
            (t("a"), app("g", &["b", "c"])),
            (t("a"), t("b")),
        ];
        let mut r = Relation::new(symbols.intern("at"), 2);
        for (i, (x, y)) in facts.iter().enumerate() {
            r.push(&[*x, *y], AtomId(i as u32), &terms);
        }
        (r, terms, t, symbols)
    }

    fn facts(r: &mut Relation, paths: &[u32], at: &[TermId], terms: &TermTable) -> Vec<u32> {
        r.lookup(paths, at, terms)
            .map_or(Vec::new(), |l| r.list(l).to_vec())
    }

    #[test]
    fn a_lookup_narrows_by_every_bound_path_at_once() {
        let (mut r, terms, t, symbols) = relation();
        let f = TermId(symbols.get("f").unwrap().0);
        // First argument a, function name f, its second argument c.
        let paths = [0, PATH_STRIDE + 2, PATH_STRIDE + FUNCTOR];
        assert_eq!(facts(&mut r, &paths, &[t("a"), t("c"), f], &terms), [0]);
        // Without the function name, g(b, c) matches too.
        assert_eq!(
            facts(&mut r, &paths[..2], &[t("a"), t("c")], &terms),
            [0, 3]
        );
        // A fact without a compound second argument has no such path.
        assert_eq!(
            facts(&mut r, &[PATH_STRIDE + 1], &[t("b")], &terms),
            [0, 1, 2, 3]
        );
        assert_eq!(
            facts(&mut r, &[0, PATH_STRIDE], &[t("a"), t("b")], &terms),
            [4]
        );
        assert_eq!(facts(&mut r, &[0], &[t("d")], &terms), Vec::<u32>::new());
    }

    #[test]
    fn an_index_is_kept_up_to_date_once_built() {
        let (mut r, mut terms, t, mut symbols) = relation();
        assert_eq!(facts(&mut r, &[0], &[t("e")], &terms), [2]);
        let h = terms.intern(GTerm::Sym(symbols.intern("h")));
        r.push(&[t("e"), h], AtomId(5), &terms);
        assert_eq!(facts(&mut r, &[0], &[t("e")], &terms), [2, 5]);
        assert_eq!(r.find(&[t("e"), h]), Some(5));
        assert_eq!(r.find(&[h, t("e")]), None);
    }
}
