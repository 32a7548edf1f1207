//! Aggregates: rewritten into plain rules, candidate values and networks.
//!
//! In: a checked [`Program`] whose rules may hold `N = count { ... }`,
//! `sum`, `min`, `max` literals. Out, in three steps: [`rewrite`] gives a
//! program without aggregates plus one [`AggSpec`] per aggregate;
//! [`Grounder::aggregate_candidates`] adds, inside the fixpoint, the values
//! each aggregate can take; [`Grounder::aggregate_networks`] defines those
//! values by ground rules once the model is complete.
//! Holds: aggregate `K` of a rule with shared variables `S`, locals `L` and
//! value `V` becomes `_agg_K(S, L, V) :- outer literals, inner body` (one
//! fact per distinct binding), the domain `_aggs_K(S) :- outer literals`
//! (relaxed model only) and the literal `_aggv_K(S, N)`. `_aggv_K(s, n)`
//! has no rules of its own: its candidates (count `0..=k`, every subset sum,
//! each value for min/max) grow monotonically with the `_agg_K(s, ..)`
//! facts, and at the end a network of ground rules over those facts (a
//! counting or summing chain, or a running "some smaller value" chain)
//! makes exactly one candidate true per state. The network of one `(K, s)`
//! is shared by all its candidate values, and one over static facts only
//! is folded away by the compiler. An aggregate whose value is computed
//! at play time ([`super::numbers`], `AggSpec::open`) has neither: one
//! `_aggv_K(s, _value)` per binding, whose value node ranges over the
//! `_agg_K(s, ..)` atoms.

use super::{AtomId, Grounder, Lit, Reached, TermId};
use crate::check::walk::atom_vars;
use crate::diag::{Diagnostic, codes};
use crate::ground::GTerm;
use crate::syntax::{
    AggOp, Atom, CmpOp, Literal, Program, Rule, Span, Sym, Term, TermKind, aggregate_shared,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

/// Most candidate values one aggregate may have for one shared binding.
pub const MAX_CANDIDATES: usize = 10_000;

/// One aggregate occurrence after [`rewrite`].
#[derive(Clone, Debug)]
pub struct AggSpec {
    pub op: AggOp,
    /// `_agg_K`: shared, locals, then the value (not for `count`).
    pub facts: (Sym, usize),
    /// `_aggs_K`: the shared bindings.
    pub domain: (Sym, usize),
    /// `_aggv_K`: shared, then the aggregate's value.
    pub values: (Sym, usize),
    /// `_aggc_K`: the network's inner atoms: shared, then two integers.
    pub chain: (Sym, usize),
    pub shared: usize,
    pub span: Span,
    /// Its value is computed at play time ([`super::numbers`]): one
    /// `_aggv_K(s, _value)` per shared binding, no candidates, no network.
    pub open: bool,
}

/// Rewrites every aggregate of `program` (see the module header).
pub fn rewrite(program: &Program) -> (Program, Vec<AggSpec>) {
    let mut out = program.clone();
    out.rules.clear();
    let mut specs = Vec::new();
    for rule in &program.rules {
        if !rule.body.iter().any(|l| matches!(l, Literal::Agg(_))) {
            out.rules.push(rule.clone());
            continue;
        }
        let outer = outer_literals(rule);
        let mut main = rule.clone();
        for (i, lit) in rule.body.iter().enumerate() {
            let Literal::Agg(agg) = lit else { continue };
            let k = specs.len();
            let shared = aggregate_shared(rule, i);
            let var = |v: Sym| Term::new(TermKind::Var(v), agg.span);
            let mut locals: Vec<Sym> = Vec::new();
            agg.for_each_inner_var(&mut |v, _| {
                if !shared.contains(&v) && !locals.contains(&v) {
                    locals.push(v);
                }
            });
            let shared_terms: Vec<Term> = shared.iter().map(|&v| var(v)).collect();
            let mut fact_args = shared_terms.clone();
            fact_args.extend(locals.iter().map(|&v| var(v)));
            fact_args.extend(agg.value.clone());
            let mut value_args = shared_terms.clone();
            // A result that a literal binds too, or a constant, is compared
            // with a fresh variable: the aggregate's value may then stay
            // open ([`super::numbers`]) with the comparison as a test.
            if compared(rule, &agg.result) {
                let fresh = var(out.symbols.intern(&format!("_aggr_{k}")));
                main.body.push(Literal::Cmp(
                    CmpOp::Eq,
                    agg.result.clone(),
                    fresh.clone(),
                    agg.span,
                ));
                value_args.push(fresh);
            } else {
                value_args.push(agg.result.clone());
            }
            let mut name =
                |what: &str, arity: usize| (out.symbols.intern(&format!("_{what}_{k}")), arity);
            let spec = AggSpec {
                op: agg.op,
                facts: name("agg", fact_args.len()),
                domain: name("aggs", shared.len()),
                values: name("aggv", value_args.len()),
                chain: name("aggc", shared.len() + 2),
                shared: shared.len(),
                span: agg.span,
                open: false,
            };
            let atom = |rel: (Sym, usize), args: Vec<Term>| Atom {
                rel: rel.0,
                args,
                span: agg.span,
            };
            let mut body = outer.clone();
            body.extend(agg.body.iter().cloned());
            out.rules.push(Rule {
                head: atom(spec.facts, fact_args),
                body,
                span: rule.span,
            });
            out.rules.push(Rule {
                head: atom(spec.domain, shared_terms),
                body: outer.clone(),
                span: rule.span,
            });
            main.body[i] = Literal::Pos(atom(spec.values, value_args));
            specs.push(spec);
        }
        out.rules.push(main);
    }
    (out, specs)
}

/// Whether an aggregate's result is a constant or a variable that a
/// positive literal of the rule also binds.
fn compared(rule: &Rule, result: &Term) -> bool {
    let TermKind::Var(v) = result.kind else {
        return true;
    };
    let mut found = false;
    for lit in &rule.body {
        if let Literal::Pos(a) = lit {
            a.for_each_var(&mut |w, _| found |= w == v);
        }
    }
    found
}

/// The literals of a rule outside its aggregates that do not depend on an
/// aggregate's result, and the positive literals that bind the aggregates'
/// shared variables. A variable depends on the result when it is the
/// result, or the other side of an `=` with one, and no literal without
/// aggregates binds it ([`bound_without_aggregates`]): in `k(R, K),
/// T = sum V { .. }, S = T + K`, `S` depends on `T` but `K` does not, so
/// `k(R, K)` is outer.
fn outer_literals(rule: &Rule) -> Vec<Literal> {
    let plainly_bound = bound_without_aggregates(rule);
    let mut derived: FxHashSet<Sym> = FxHashSet::default();
    for lit in &rule.body {
        if let Literal::Agg(a) = lit {
            a.result.for_each_var(&mut |v, _| {
                if !plainly_bound.contains(&v) {
                    derived.insert(v);
                }
            });
        }
    }
    let mentions = |lit: &Literal, derived: &FxHashSet<Sym>| {
        let mut hit = false;
        lit.for_each_var(&mut |v, _| hit |= derived.contains(&v));
        hit
    };
    // `X = Expr` over a derived variable derives `X`; the other variables
    // of `Expr` are inputs (`S = T + K`: `K` stays outer).
    loop {
        let before = derived.len();
        for lit in &rule.body {
            if let Literal::Cmp(CmpOp::Eq, left, right, _) = lit
                && mentions(lit, &derived)
            {
                for side in [left, right] {
                    if let TermKind::Var(v) = side.kind
                        && !plainly_bound.contains(&v)
                    {
                        derived.insert(v);
                    }
                }
            }
        }
        if derived.len() == before {
            break;
        }
    }
    let mut outer: Vec<Literal> = rule
        .body
        .iter()
        .filter(|l| !matches!(l, Literal::Agg(_)) && !mentions(l, &derived))
        .cloned()
        .collect();
    // A positive literal only binds: one that mentions a derived variable
    // stays where it binds a variable of the braces that no other outer
    // literal binds (`follows(R, S, K), K = min J { follows(R, T, J) }`).
    let mut bound: FxHashSet<Sym> = FxHashSet::default();
    for lit in &outer {
        if let Literal::Pos(a) = lit {
            a.for_each_var(&mut |v, _| {
                bound.insert(v);
            });
        }
    }
    let mut inner: FxHashSet<Sym> = FxHashSet::default();
    for lit in &rule.body {
        if let Literal::Agg(a) = lit {
            a.for_each_inner_var(&mut |v, _| {
                inner.insert(v);
            });
        }
    }
    for lit in &rule.body {
        if let Literal::Pos(a) = lit
            && mentions(lit, &derived)
        {
            let mut needed = false;
            a.for_each_var(&mut |v, _| needed |= inner.contains(&v) && !bound.contains(&v));
            if needed {
                a.for_each_var(&mut |v, _| {
                    bound.insert(v);
                });
                outer.push(lit.clone());
            }
        }
    }
    outer
}

/// The variables a rule binds without its aggregates: those of its positive
/// atoms (outside arithmetic, and inside `( ; )` groups), then the targets
/// of `X = Expr` whose `Expr` is bound, to a fixpoint.
fn bound_without_aggregates(rule: &Rule) -> FxHashSet<Sym> {
    let mut bound: FxHashSet<Sym> = FxHashSet::default();
    let mut equations: Vec<(Sym, &Term)> = Vec::new();
    let mut stack: Vec<&Literal> = rule.body.iter().collect();
    while let Some(lit) = stack.pop() {
        match lit {
            Literal::Pos(a) => atom_vars(a, &mut |v, _, arith| {
                if !arith {
                    bound.insert(v);
                }
            }),
            Literal::Or(branches, _) => stack.extend(branches.iter().flatten()),
            Literal::Cmp(CmpOp::Eq, a, b, _) => {
                for (target, expr) in [(a, b), (b, a)] {
                    if let TermKind::Var(t) = target.kind {
                        equations.push((t, expr));
                    }
                }
            }
            Literal::Not(..) | Literal::Cmp(..) | Literal::Agg(_) => {}
        }
    }
    loop {
        let before = bound.len();
        for &(target, expr) in &equations {
            let mut ready = true;
            expr.for_each_var(&mut |v, _| ready &= bound.contains(&v));
            if ready {
                bound.insert(target);
            }
        }
        if bound.len() == before {
            return bound;
        }
    }
}

/// The `_agg_K` facts of each shared binding: atom and value (1 for count).
type Groups = FxHashMap<Box<[TermId]>, Vec<(AtomId, i64)>>;

impl Grounder<'_> {
    /// The facts of `_agg_K` grouped by shared binding, with their values.
    fn aggregate_groups(&self, spec: &AggSpec) -> Result<Groups, Diagnostic> {
        let mut groups = Groups::default();
        let Some(&r) = self.rel_ids.get(&spec.facts) else {
            return Ok(groups);
        };
        let rel = &self.rels[r];
        for f in 0..rel.atoms.len() as u32 {
            let args = rel.fact(f);
            let value = match spec.op {
                AggOp::Count => 1,
                _ => {
                    let last = *args.last().unwrap_or(&TermId(0));
                    self.terms.int(last).ok_or_else(|| {
                        Diagnostic::error(
                            codes::ARITHMETIC,
                            spec.span,
                            format!(
                                "`{}` needs integer values, and one value here is `{}`",
                                spec.op.as_str(),
                                self.terms.show(last, &self.symbols, self.syntax)
                            ),
                        )
                    })?
                }
            };
            let key: Box<[TermId]> = args[..spec.shared].into();
            groups
                .entry(key)
                .or_default()
                .push((rel.atoms[f as usize], value));
        }
        Ok(groups)
    }

    /// The shared bindings of an aggregate (the facts of `_aggs_K`).
    fn aggregate_domain(&self, spec: &AggSpec) -> Vec<Box<[TermId]>> {
        let Some(&r) = self.rel_ids.get(&spec.domain) else {
            return Vec::new();
        };
        let rel = &self.rels[r];
        (0..rel.atoms.len() as u32)
            .map(|f| rel.fact(f).into())
            .collect()
    }

    /// Adds every value each aggregate can take given the facts so far;
    /// returns whether any is new.
    pub(super) fn aggregate_candidates(&mut self, specs: &[AggSpec]) -> Result<bool, Diagnostic> {
        let before = self.atoms.len();
        for spec in specs {
            if spec.open {
                self.open_aggregate_values(spec)?;
                continue;
            }
            let groups = self.aggregate_groups(spec)?;
            let values_rel = self.rel(spec.values);
            for s in self.aggregate_domain(spec) {
                let inputs = groups.get(&s).map_or(&[][..], |g| g.as_slice());
                for n in candidates(spec, inputs)? {
                    let mut args = s.to_vec();
                    args.push(self.terms.intern(GTerm::Int(n)));
                    self.insert(values_rel, &args, spec.span)?;
                }
            }
        }
        Ok(self.atoms.len() > before)
    }

    /// Defines every `_aggv_K(s, n)` of the complete model by a network of
    /// ground rules over the `_agg_K(s, ..)` atoms.
    pub(super) fn aggregate_networks(&mut self, specs: &[AggSpec]) -> Result<(), Diagnostic> {
        for spec in specs {
            let groups = self.aggregate_groups(spec)?;
            for s in self.aggregate_domain(spec) {
                let mut inputs = groups.get(&s).cloned().unwrap_or_default();
                inputs.sort_unstable();
                if spec.open {
                    self.open_aggregate_members(spec, &s, &inputs)?;
                    continue;
                }
                match spec.op {
                    AggOp::Count | AggOp::Sum => self.chain_network(spec, &s, &inputs)?,
                    AggOp::Min | AggOp::Max => self.extreme_network(spec, &s, &inputs)?,
                }
            }
        }
        Ok(())
    }

    /// An open aggregate: `_aggv_K(s, _value)` for every shared binding
    /// `s` of its domain, with a new aggregate node as its value. It holds
    /// when the aggregate has a value: always for `count` (a fact), else a
    /// test that the node is defined (`min`/`max` of nothing, a `sum` out
    /// of range).
    fn open_aggregate_values(&mut self, spec: &AggSpec) -> Result<(), Diagnostic> {
        let values_rel = self.rel(spec.values);
        let Some(value) = self.num.value else {
            return Ok(());
        };
        for s in self.aggregate_domain(spec) {
            let mut args = s.to_vec();
            args.push(value);
            if self.rels[values_rel].find(&args).is_some() {
                continue;
            }
            let node = self.num.aggregate(spec.op);
            let atom = match spec.op {
                AggOp::Count => {
                    let atom = self.insert(values_rel, &args, spec.span)?;
                    self.network_rule(atom, &[], &[], spec.span)?;
                    atom
                }
                _ => {
                    let test = super::numbers::Test::Defined(node);
                    let atom = self.insert(values_rel, &args, spec.span)?;
                    self.num.numbers.tests.push((atom, test));
                    atom
                }
            };
            self.num.values.insert((atom, spec.shared as u32), node);
        }
        Ok(())
    }

    /// Sets the members of the node of an open aggregate's binding `s`.
    fn open_aggregate_members(
        &mut self,
        spec: &AggSpec,
        s: &[TermId],
        inputs: &[(AtomId, i64)],
    ) -> Result<(), Diagnostic> {
        let (Some(value), Some(&r)) = (self.num.value, self.rel_ids.get(&spec.values)) else {
            return Ok(());
        };
        let mut args = s.to_vec();
        args.push(value);
        let Some(f) = self.rels[r].find(&args) else {
            return Ok(());
        };
        let atom = self.rels[r].atoms[f as usize];
        if let Some(&node) = self.num.values.get(&(atom, spec.shared as u32)) {
            self.num.set_members(node, inputs);
        }
        Ok(())
    }

    /// The atom `rel(s, extra...)`, added to the model if new.
    fn aggregate_atom(
        &mut self,
        rel: (Sym, usize),
        s: &[TermId],
        extra: &[i64],
        span: Span,
    ) -> Result<AtomId, Diagnostic> {
        let mut args = s.to_vec();
        args.extend(extra.iter().map(|&i| self.terms.intern(GTerm::Int(i))));
        let r = self.rel(rel);
        self.insert(r, &args, span)
    }

    /// Records the ground rule `head :- pos, not neg`.
    fn network_rule(
        &mut self,
        head: AtomId,
        pos: &[AtomId],
        neg: &[AtomId],
        span: Span,
    ) -> Result<(), Diagnostic> {
        self.heads.push(head);
        self.lits.extend(pos.iter().map(|&a| Lit::new(a, false)));
        for &a in neg {
            let (rel, fact) = self.atoms[a.0 as usize];
            self.pending_args
                .extend_from_slice(self.rels[rel as usize].fact(fact));
            self.lits
                .push(Lit::new(AtomId(self.pending_rels.len() as u32), true));
            self.pending_rels.push(rel);
        }
        self.starts.push(self.lits.len() as u32);
        if self.heads.len() > self.limits.max_rules {
            return Err(self.too_big(span, Reached::Rules));
        }
        Ok(())
    }

    /// Count and sum: `_aggc_K(s, i, v)` holds when the true inputs among
    /// the first `i` add up to `v` (each counts 1 for `count`).
    fn chain_network(
        &mut self,
        spec: &AggSpec,
        s: &[TermId],
        inputs: &[(AtomId, i64)],
    ) -> Result<(), Diagnostic> {
        let span = spec.span;
        let start = self.aggregate_atom(spec.chain, s, &[0, 0], span)?;
        self.network_rule(start, &[], &[], span)?;
        let mut reach: BTreeSet<i64> = BTreeSet::from([0]);
        for (i, &(x, value)) in inputs.iter().enumerate() {
            let i = i as i64;
            let mut next = BTreeSet::new();
            for &v in &reach {
                let from = self.aggregate_atom(spec.chain, s, &[i, v], span)?;
                let skip = self.aggregate_atom(spec.chain, s, &[i + 1, v], span)?;
                self.network_rule(skip, &[from], &[x], span)?;
                let Some(w) = v.checked_add(value) else {
                    continue;
                };
                let take = self.aggregate_atom(spec.chain, s, &[i + 1, w], span)?;
                self.network_rule(take, &[from, x], &[], span)?;
                next.extend([v, w]);
            }
            if next.len() > MAX_CANDIDATES {
                return Err(too_many(spec));
            }
            reach = next;
        }
        let k = inputs.len() as i64;
        for v in reach {
            let end = self.aggregate_atom(spec.chain, s, &[k, v], span)?;
            let out = self.aggregate_atom(spec.values, s, &[v], span)?;
            self.network_rule(out, &[end], &[], span)?;
        }
        Ok(())
    }

    /// Min and max: `_aggc_K(s, 0, v)` holds when a true input has value
    /// `v`, `_aggc_K(s, 1, v)` when one has a value before `v` (smaller for
    /// min, larger for max); the result is a present value with none before.
    fn extreme_network(
        &mut self,
        spec: &AggSpec,
        s: &[TermId],
        inputs: &[(AtomId, i64)],
    ) -> Result<(), Diagnostic> {
        let span = spec.span;
        let mut values: Vec<i64> = inputs.iter().map(|&(_, v)| v).collect();
        values.sort_unstable();
        values.dedup();
        if spec.op == AggOp::Max {
            values.reverse();
        }
        for &(x, v) in inputs {
            let some = self.aggregate_atom(spec.chain, s, &[0, v], span)?;
            self.network_rule(some, &[x], &[], span)?;
        }
        for pair in values.windows(2) {
            let (v, w) = (pair[0], pair[1]);
            let before_w = self.aggregate_atom(spec.chain, s, &[1, w], span)?;
            let some_v = self.aggregate_atom(spec.chain, s, &[0, v], span)?;
            self.network_rule(before_w, &[some_v], &[], span)?;
            let before_v = self.aggregate_atom(spec.chain, s, &[1, v], span)?;
            self.network_rule(before_w, &[before_v], &[], span)?;
        }
        for &v in &values {
            let some = self.aggregate_atom(spec.chain, s, &[0, v], span)?;
            let before = self.aggregate_atom(spec.chain, s, &[1, v], span)?;
            let out = self.aggregate_atom(spec.values, s, &[v], span)?;
            self.network_rule(out, &[some], &[before], span)?;
        }
        Ok(())
    }
}

/// The values an aggregate can take over some subset of its inputs.
fn candidates(spec: &AggSpec, inputs: &[(AtomId, i64)]) -> Result<Vec<i64>, Diagnostic> {
    Ok(match spec.op {
        AggOp::Count => (0..=inputs.len() as i64).collect(),
        AggOp::Min | AggOp::Max => inputs.iter().map(|&(_, v)| v).collect(),
        AggOp::Sum => {
            let mut sums: BTreeSet<i64> = BTreeSet::from([0]);
            for &(_, v) in inputs {
                let more: Vec<i64> = sums.iter().filter_map(|s| s.checked_add(v)).collect();
                sums.extend(more);
                if sums.len() > MAX_CANDIDATES {
                    return Err(too_many(spec));
                }
            }
            sums.into_iter().collect()
        }
    })
}

fn too_many(spec: &AggSpec) -> Diagnostic {
    Diagnostic::error(
        codes::GROUNDING,
        spec.span,
        format!(
            "grounding this game is too large: this `{}` can take more than {MAX_CANDIDATES} \
             values for one binding of its shared variables",
            spec.op.as_str()
        ),
    )
    .with_note(
        "a value computed from the state stays a number at play time where it is only \
         compared, used in arithmetic or passed on to such arguments; this one is needed as a \
         ground term (it reaches a `next`, `legal` or `weight` argument, a goal beside written \
         goal values, a negation, another aggregate or an argument that is not computed), so \
         every value it can take is grounded (see \"Numbers at play time\" in \
         docs/LANGUAGE.md)",
    )
}
