//! A state of one game as a state of another game made from the same
//! program: the rule evaluator's and the compiled one number their possible
//! facts differently, in term tables of their own.
//!
//! In: two [`Game`]s of one program. Out: a [`Translation`] from the
//! states of the first to those of the second. Holds: a fact is matched by
//! its term, symbol by symbol name, so a state keeps exactly its facts; a
//! state holding a fact the second game can never hold has no translation.

use super::{Game, State};
use crate::ground::{GTerm, TermId};
use rustc_hash::FxHashMap;

/// Where each possible fact of one game is among those of another.
pub struct Translation {
    /// For each possible fact of the first game, its index in the second.
    facts: Vec<Option<u32>>,
    /// The second game's number of possible facts.
    width: usize,
}

impl Game {
    /// How the states of this game map onto those of `to`, made from the
    /// same program.
    pub fn translation_to(&self, to: &Game) -> Translation {
        let index: FxHashMap<TermId, u32> = (to.net.base.iter())
            .enumerate()
            .map(|(i, &t)| (t, i as u32))
            .collect();
        let mut same = FxHashMap::default();
        let facts = (self.net.base.iter())
            .map(|&t| same_term(self, to, t, &mut same).and_then(|t| index.get(&t).copied()))
            .collect();
        Translation {
            facts,
            width: to.net.base.len(),
        }
    }
}

impl Translation {
    /// The state of the second game with the same facts as `state`, if it
    /// can hold them all.
    pub fn state(&self, state: &State) -> Option<State> {
        let mut out = State::empty(self.width);
        for (w, &word) in state.bits.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                out.set((*self.facts.get(i)?)?);
                bits &= bits - 1;
            }
        }
        Some(out)
    }
}

/// The term of `to` equal to term `t` of `from`, if `to` has it (`memo`
/// holds the answers found so far). Recursive to the depth of `t`, which
/// grounding bounds ([`crate::ground::Limits::max_term_depth`]).
fn same_term(
    from: &Game,
    to: &Game,
    t: TermId,
    memo: &mut FxHashMap<TermId, Option<TermId>>,
) -> Option<TermId> {
    if let Some(&known) = memo.get(&t) {
        return known;
    }
    let symbol = |s| to.symbols.get(from.symbols.name(s));
    let found = match from.terms.term(t) {
        GTerm::Int(i) => to.terms.get(&GTerm::Int(*i)),
        GTerm::Sym(s) => symbol(*s).and_then(|s| to.terms.get(&GTerm::Sym(s))),
        GTerm::App(f, args) => {
            let args: Option<Vec<TermId>> = (args.iter())
                .map(|&a| same_term(from, to, a, memo))
                .collect();
            symbol(*f)
                .zip(args)
                .and_then(|(f, args)| to.terms.get_app(f, &args))
        }
    };
    memo.insert(t, found);
    found
}
