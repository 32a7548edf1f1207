//! The ground program's size predicted from the relaxed model so far, so
//! the default engine choice can see that a grounding will not fit its
//! budget before it runs to it.
//!
//! In: the prepared rules and the grounder's relations as they stand when
//! its effort passes a budget ([`Model`]), and optionally every fact a
//! state can hold, from the rule evaluator's domains ([`StateFacts`]),
//! which the relaxed model so far may not have reached yet. Out: the
//! grounding steps ([`estimate::effort`]) the whole ground program would
//! take if every relation held the facts it has now
//! ([`Model::predicted_effort`]). Holds: every figure is a count of facts
//! and values, so the same program gets the same prediction on every
//! machine; the facts of each literal are scanned once per pattern
//! (literals that differ only in their variables' names share the scan).
//!
//! How a rule's instances are predicted ([`estimate::join_size`]): the
//! facts matching each positive literal (its constants and function names
//! fixed), multiplied, and divided, for each variable several literals
//! read, by the distinct values it takes in all but the literal where it
//! takes fewest (the textbook estimate of a join, which takes the values as
//! independent), times the share of them the comparisons keep
//! ([`estimate::comparison_keeps`]). Negative literals are not counted as
//! filters.

use super::estimate::{self, Effort, Side};
use super::prepare::{Pat, Prepared, RelKey};
use super::relation::Relation;
use super::{GTerm, TermId, TermTable};
use crate::gdl::{Names, Relation as Reserved};
use crate::syntax::Symbols;
use rustc_hash::{FxHashMap, FxHashSet};

/// What the grounder has made so far, seen by a prediction.
pub(super) struct Model<'a> {
    pub rules: &'a [Prepared],
    pub rels: &'a [Relation],
    pub rel_ids: &'a FxHashMap<RelKey, usize>,
    pub terms: &'a TermTable,
    pub symbols: &'a Symbols,
    /// Ground rules and their literals written so far.
    pub rules_written: usize,
    pub literals_written: usize,
}

/// Every fact a state can hold, as terms of their own table: stands for
/// the `true` relation, whose facts the relaxed model may reach only after
/// many rounds.
#[derive(Clone, Copy)]
pub struct StateFacts<'a> {
    pub facts: &'a [TermId],
    pub terms: &'a TermTable,
}

/// The facts one literal is matched against: a relation of the grounder,
/// or the state facts.
enum Source<'a> {
    Relation(&'a Relation),
    State(StateFacts<'a>),
}

/// What the facts say about one literal: how many match it, and how many
/// distinct values each of its variables takes among them (variables in
/// order of first appearance in the literal).
struct LiteralFacts {
    facts: u64,
    distinct: Vec<u64>,
}

/// A literal's pattern with its variables numbered by first appearance:
/// literals of the same relation with equal shapes match the same facts.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Shape {
    rel: RelKey,
    tokens: Vec<u64>,
}

impl Model<'_> {
    /// The steps the whole ground program would take: its literals and
    /// instances predicted rule by rule, its atoms those made so far (or
    /// the state facts, if more), never less than `so_far`.
    pub(super) fn predicted_effort(&self, state: Option<StateFacts>, so_far: Effort) -> Effort {
        let true_rel = Names::new(self.symbols)
            .sym(Reserved::True)
            .map(|sym| (sym, 1));
        let mut seen: FxHashMap<Shape, LiteralFacts> = FxHashMap::default();
        let mut size: u64 = 0;
        for rule in self.rules.iter().filter(|r| !r.bridge) {
            let mut facts = Vec::with_capacity(rule.pos.len());
            // For each variable of the rule, its distinct values in each
            // literal that reads it.
            let mut values: Vec<Vec<u64>> = vec![Vec::new(); rule.vars];
            for atom in &rule.pos {
                let source = match (state, self.rel_ids.get(&atom.rel)) {
                    (Some(state), _) if Some(atom.rel) == true_rel => Source::State(state),
                    (_, Some(&rel)) => Source::Relation(&self.rels[rel]),
                    (_, None) => {
                        facts.push(0);
                        continue;
                    }
                };
                let (shape, vars) = shape_of(atom.rel, &atom.args);
                let known = (seen.entry(shape))
                    .or_insert_with(|| self.literal_facts(&source, &atom.args, vars.len()));
                facts.push(known.facts);
                for (&v, &d) in vars.iter().zip(&known.distinct) {
                    if let Some(slot) = values.get_mut(v as usize) {
                        slot.push(d);
                    }
                }
            }
            let side = |p: &Pat| match p {
                Pat::Var(v) => match values.get(*v as usize).and_then(|d| d.iter().min()) {
                    Some(&d) => Side::Values(d),
                    None => Side::Other,
                },
                Pat::Ground(_) => Side::Constant,
                Pat::App(..) | Pat::Arith(..) => {
                    let mut vars = Vec::new();
                    p.vars(&mut vars);
                    let bound = |v: &u32| values.get(*v as usize).is_some_and(|d| !d.is_empty());
                    match vars.iter().all(bound) {
                        true => Side::Expression,
                        false => Side::Other,
                    }
                }
            };
            let kept = (rule.cmps.iter())
                .map(|c| estimate::comparison_keeps(c.op, c.negated, side(&c.left), side(&c.right)))
                .product();
            let instances = estimate::join_size(&facts, &values, kept);
            let literals = (rule.pos.len() + rule.neg.len()) as u64;
            size = size.saturating_add(instances.saturating_mul(literals + 1));
        }
        let written = (self.rules_written + self.literals_written) as u64;
        estimate::scaled(so_far, size, written)
    }

    /// Scans the facts of `source` for those matching `args`.
    fn literal_facts(&self, source: &Source, args: &[Pat], vars: usize) -> LiteralFacts {
        let mut sets: Vec<FxHashSet<TermId>> = vec![FxHashSet::default(); vars];
        let mut bound: Vec<(u32, TermId)> = Vec::with_capacity(vars);
        let mut facts = 0;
        let mut count = |fact: &[TermId], terms: &TermTable| {
            bound.clear();
            let matched =
                (args.iter().zip(fact)).all(|(p, &t)| matches(p, self.terms, t, terms, &mut bound));
            if matched {
                facts += 1;
                // Variables are bound in order of first appearance.
                for (set, &(_, t)) in sets.iter_mut().zip(&bound) {
                    set.insert(t);
                }
            }
        };
        match source {
            Source::Relation(relation) => {
                (0..relation.atoms.len() as u32).for_each(|f| count(relation.fact(f), self.terms))
            }
            Source::State(state) => {
                (state.facts.iter()).for_each(|t| count(std::slice::from_ref(t), state.terms))
            }
        }
        LiteralFacts {
            facts,
            distinct: sets.iter().map(|s| s.len() as u64).collect(),
        }
    }
}

/// The shape of a literal over relation `rel`, and its variables in order
/// of first appearance.
fn shape_of(rel: RelKey, args: &[Pat]) -> (Shape, Vec<u32>) {
    fn walk(p: &Pat, tokens: &mut Vec<u64>, vars: &mut Vec<u32>) {
        match p {
            Pat::Var(v) => {
                let k = vars.iter().position(|w| w == v).unwrap_or_else(|| {
                    vars.push(*v);
                    vars.len() - 1
                });
                tokens.extend([0, k as u64]);
            }
            Pat::Ground(t) => tokens.extend([1, t.0 as u64]),
            Pat::App(f, args) => {
                tokens.extend([2, f.0 as u64, args.len() as u64]);
                args.iter().for_each(|a| walk(a, tokens, vars));
            }
            // Arithmetic matches anything and binds nothing here.
            Pat::Arith(..) => tokens.push(3),
        }
    }
    let (mut tokens, mut vars) = (Vec::new(), Vec::new());
    args.iter().for_each(|a| walk(a, &mut tokens, &mut vars));
    (Shape { rel, tokens }, vars)
}

/// Whether term `t` of table `terms` matches pattern `p`, whose ground
/// parts are terms of `pat_terms`, the variables bound so far in `bound`
/// (a variable met again must take the same value).
fn matches(
    p: &Pat,
    pat_terms: &TermTable,
    t: TermId,
    terms: &TermTable,
    bound: &mut Vec<(u32, TermId)>,
) -> bool {
    match p {
        Pat::Var(v) => match bound.iter().find(|(w, _)| w == v) {
            Some(&(_, u)) => u == t,
            None => {
                bound.push((*v, t));
                true
            }
        },
        Pat::Ground(u) => same(*u, pat_terms, t, terms),
        Pat::App(f, args) => match terms.term(t) {
            GTerm::App(g, targs) if g == f && targs.len() == args.len() => (args.iter())
                .zip(targs.iter())
                .all(|(a, &u)| matches(a, pat_terms, u, terms, bound)),
            _ => false,
        },
        Pat::Arith(..) => true,
    }
}

/// Whether term `a` of table `at` and term `b` of table `bt` are the same.
fn same(a: TermId, at: &TermTable, b: TermId, bt: &TermTable) -> bool {
    if std::ptr::eq(at, bt) {
        return a == b;
    }
    match (at.term(a), bt.term(b)) {
        (GTerm::Sym(x), GTerm::Sym(y)) => x == y,
        (GTerm::Int(x), GTerm::Int(y)) => x == y,
        (GTerm::App(f, xs), GTerm::App(g, ys)) => {
            f == g
                && xs.len() == ys.len()
                && (xs.iter().zip(ys.iter())).all(|(&x, &y)| same(x, at, y, bt))
        }
        _ => false,
    }
}
