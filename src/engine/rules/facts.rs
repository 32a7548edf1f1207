//! The loaded state's facts, found fast for a `true` literal.
//!
//! In: the game's base facts and a state's bitset. Out: whether a fact
//! holds; the true facts of one functor (`cell/3`); the base facts whose
//! bound top-level arguments have given values (`cell(e, 4, _)`).
//! Holds: the per-functor lists are refilled at each state; an index over
//! the base facts per (functor, bound places) is built the first time a
//! literal asks for it and kept, so `true(cell(X, Y, P))` with `X` and `Y`
//! bound tests a dozen bits instead of scanning the state.

use crate::ground::{GTerm, TermId, TermTable};
use crate::syntax::Sym;
use rustc_hash::FxHashMap;

/// The base facts, grouped, with the loaded state's bits.
pub struct Facts {
    base: Vec<TermId>,
    bits: Vec<u64>,
    /// The group (functor and arity) of each base fact, and its number.
    group_of_fact: Vec<u32>,
    groups: FxHashMap<(Sym, usize), u32>,
    /// Per group, the facts of the loaded state.
    true_facts: Vec<Vec<TermId>>,
    /// Every fact of the loaded state.
    all: Vec<TermId>,
    index_ids: FxHashMap<(Sym, usize, u64), usize>,
    indexes: Vec<Index>,
}

/// The base facts of one functor by the values at some of its places.
struct Index {
    ranges: FxHashMap<Box<[TermId]>, (u32, u32)>,
    facts: Vec<u32>,
}

/// A functor and arity of a term, if it is an application or a name.
fn functor(terms: &TermTable, t: TermId) -> Option<(Sym, usize)> {
    match terms.term(t) {
        GTerm::App(f, args) => Some((*f, args.len())),
        GTerm::Sym(s) => Some((*s, 0)),
        GTerm::Int(_) => None,
    }
}

impl Facts {
    pub fn new(base: &[TermId], terms: &TermTable) -> Facts {
        let mut groups = FxHashMap::default();
        let group_of_fact = (base.iter())
            .map(|&t| match functor(terms, t) {
                Some(key) => {
                    let n = groups.len() as u32;
                    *groups.entry(key).or_insert(n)
                }
                None => u32::MAX,
            })
            .collect();
        Facts {
            base: base.to_vec(),
            bits: Vec::new(),
            group_of_fact,
            true_facts: vec![Vec::new(); groups.len()],
            groups,
            all: Vec::new(),
            index_ids: FxHashMap::default(),
            indexes: Vec::new(),
        }
    }

    pub fn load(&mut self, bits: &[u64]) {
        self.bits.clear();
        self.bits.extend_from_slice(bits);
        self.all.clear();
        self.true_facts.iter_mut().for_each(Vec::clear);
        for i in 0..self.base.len() {
            if bits[i / 64] >> (i % 64) & 1 == 1 {
                self.all.push(self.base[i]);
                if let Some(g) = self.true_facts.get_mut(self.group_of_fact[i] as usize) {
                    g.push(self.base[i]);
                }
            }
        }
    }

    pub fn holds_index(&self, i: u32) -> bool {
        self.bits[i as usize / 64] >> (i % 64) & 1 == 1
    }

    /// Every true fact.
    pub fn all(&self) -> &[TermId] {
        &self.all
    }

    /// The group of a functor, if some base fact has it.
    pub fn group(&self, f: Sym, arity: usize) -> Option<u32> {
        self.groups.get(&(f, arity)).copied()
    }

    /// The true facts of a group.
    pub fn of_group(&self, g: u32) -> &[TermId] {
        &self.true_facts[g as usize]
    }

    /// The base facts of functor `f/arity` whose places in `mask` hold
    /// `values`: an index and a range of places in it for [`Facts::indexed`].
    pub fn lookup(
        &mut self,
        terms: &TermTable,
        (f, arity): (Sym, usize),
        mask: u64,
        values: &[TermId],
    ) -> (usize, u32, u32) {
        let key = (f, arity, mask);
        let ix = match self.index_ids.get(&key) {
            Some(&ix) => ix,
            None => {
                let index = self.build_index(terms, key);
                self.indexes.push(index);
                self.index_ids.insert(key, self.indexes.len() - 1);
                self.indexes.len() - 1
            }
        };
        let (a, b) = (self.indexes[ix].ranges.get(values).copied()).unwrap_or((0, 0));
        (ix, a, b)
    }

    /// The base fact at place `j` of index `ix`, if it holds in the state.
    pub fn indexed(&self, ix: usize, j: u32) -> Option<TermId> {
        let i = self.indexes[ix].facts[j as usize];
        self.holds_index(i).then(|| self.base[i as usize])
    }

    fn build_index(&self, terms: &TermTable, (f, arity, mask): (Sym, usize, u64)) -> Index {
        let mut by_key: FxHashMap<Box<[TermId]>, Vec<u32>> = FxHashMap::default();
        for (i, &t) in self.base.iter().enumerate() {
            if let GTerm::App(g, args) = terms.term(t)
                && *g == f
                && args.len() == arity
            {
                let key: Box<[TermId]> = (args.iter().enumerate())
                    .filter(|&(p, _)| p < 64 && mask >> p & 1 == 1)
                    .map(|(_, &a)| a)
                    .collect();
                by_key.entry(key).or_default().push(i as u32);
            }
        }
        let mut index = Index {
            ranges: FxHashMap::default(),
            facts: Vec::new(),
        };
        for (key, facts) in by_key {
            let start = index.facts.len() as u32;
            index.facts.extend(facts);
            index.ranges.insert(key, (start, index.facts.len() as u32));
        }
        index
    }
}
