//! Safety: every variable is bound by a positive literal.
//!
//! In: a program. Out: `FACT_VARIABLE` for a fact with a variable, `UNSAFE`
//! for a variable of a head, a negation, a comparison (or `distinct`) or an
//! arithmetic expression that no positive body literal binds.
//! Holds: the order of literals does not matter (the grounder reorders); a
//! positive atom binds its variables except those inside arithmetic;
//! `X = Expr` binds `X` once every variable of `Expr` is bound; an `or`
//! binds a variable only if every branch binds it. One error per variable
//! per rule, at its first unsafe occurrence.

use super::Sink;
use super::walk::{atom_vars, literal_vars, term_vars};
use crate::diag::{Diagnostic, codes};
use crate::syntax::{
    Aggregate, CmpOp, Literal, Program, Rule, Span, Sym, Syntax, Term, TermKind, aggregate_shared,
};
use rustc_hash::{FxHashMap, FxHashSet};

type Vars = FxHashSet<Sym>;

pub(super) fn check(program: &Program, out: &mut Sink) {
    for rule in &program.rules {
        if rule.body.is_empty() {
            fact(program, rule, out);
        } else {
            self::rule(program, rule, out);
        }
    }
}

/// The name a user wrote for a variable (`_` for an anonymous one).
fn var_name(program: &Program, v: Sym) -> String {
    let name = program.symbols.name(v);
    if crate::syntax::ast::is_anonymous_variable(name) {
        "_".to_string()
    } else {
        name.to_string()
    }
}

fn fact(program: &Program, rule: &Rule, out: &mut Sink) {
    let mut first: Option<(Sym, Span)> = None;
    atom_vars(&rule.head, &mut |v, span, _| {
        first.get_or_insert((v, span));
    });
    if let Some((v, span)) = first {
        let name = program.symbols.name(rule.head.rel);
        out.push(
            Diagnostic::error(
                codes::FACT_VARIABLE,
                span,
                format!(
                    "the fact `{name}` has a variable `{}`; a fact must be ground",
                    var_name(program, v)
                ),
            )
            .with_note("to state it for many values, write a rule whose body binds the variable"),
        );
    }
}

/// Where an unsafe variable was found, for the message.
#[derive(Clone, Copy)]
enum Place {
    Head,
    Negation,
    Comparison,
    Arithmetic,
    /// Shared by an aggregate with the rest of the rule, bound nowhere.
    Shared,
    /// The value of an aggregate, not bound inside its braces.
    AggregateValue,
}

struct Unsafe<'a> {
    program: &'a Program,
    /// Variables that some branch of an `or` binds (for the message).
    in_some_branch: Vars,
    reported: FxHashSet<Sym>,
    out: &'a mut Sink,
}

impl Unsafe<'_> {
    fn report(&mut self, v: Sym, span: Span, place: Place) {
        if !self.reported.insert(v) {
            return;
        }
        let name = var_name(self.program, v);
        let comparison = match self.program.syntax {
            Syntax::Kif => "`distinct`",
            Syntax::Rules => "a comparison",
        };
        let what = match place {
            Place::Head => "the head",
            Place::Negation => "a negation",
            Place::Comparison => comparison,
            Place::Arithmetic => "arithmetic",
            Place::Shared | Place::AggregateValue => "an aggregate",
        };
        let message = if let Place::Shared = place {
            format!(
                "variable `{name}` is unsafe: an aggregate shares it with the rest of the rule, \
                 but no positive literal outside the braces binds it"
            )
        } else if let Place::AggregateValue = place {
            format!(
                "variable `{name}` is unsafe: it is the value of an aggregate, but no positive \
                 literal inside the braces binds it"
            )
        } else if name == "_" {
            format!("`_` in {what} is unsafe: no positive literal binds this anonymous variable")
        } else if self.in_some_branch.contains(&v) {
            format!(
                "variable `{name}` is unsafe: it appears in {what}, but not every branch of the `or` binds it"
            )
        } else {
            format!(
                "variable `{name}` is unsafe: it appears in {what} but in no positive literal of the body"
            )
        };
        self.out.push(
            Diagnostic::error(codes::UNSAFE, span, message).with_note(
                "only a positive literal binds a variable; negations, comparisons and arithmetic only test it",
            ),
        );
    }

    /// Checks the literals of one conjunction, given every variable bound
    /// in it.
    fn conjunction(&mut self, body: &[Literal], bound: &Vars) {
        for lit in body {
            match lit {
                Literal::Pos(a) => atom_vars(a, &mut |v, span, arith| {
                    if arith && !bound.contains(&v) {
                        self.report(v, span, Place::Arithmetic);
                    }
                }),
                // Refused by `misplaced_aggregates`.
                Literal::Not(inner, _) if matches!(**inner, Literal::Agg(_)) => {}
                Literal::Not(..) => literal_vars(lit, &mut |v, span, _| {
                    if !bound.contains(&v) {
                        self.report(v, span, Place::Negation);
                    }
                }),
                Literal::Cmp(..) => literal_vars(lit, &mut |v, span, arith| {
                    if !bound.contains(&v) {
                        let place = if arith {
                            Place::Arithmetic
                        } else {
                            Place::Comparison
                        };
                        self.report(v, span, place);
                    }
                }),
                Literal::Or(branches, _) => {
                    for branch in branches {
                        let inner = bind(branch, bound);
                        self.conjunction(branch, &inner);
                    }
                }
                // Checked by `aggregate`, which knows the whole rule.
                Literal::Agg(_) => {}
            }
        }
    }

    /// The aggregate `rule.body[index]`: the variables it shares with the
    /// rest of the rule must be bound by the positive literals outside
    /// every aggregate (`outer`); inside the braces, the usual rules hold,
    /// and the value must be bound there.
    fn aggregate(&mut self, rule: &Rule, index: usize, agg: &Aggregate, outer: &Vars) {
        let shared = aggregate_shared(rule, index);
        let mut report = Vec::new();
        agg.for_each_inner_var(&mut |v, span| {
            if shared.contains(&v) && !outer.contains(&v) {
                report.push((v, span, Place::Shared));
            }
        });
        let inner = bind(&agg.body, &shared.iter().copied().collect());
        self.conjunction(&agg.body, &inner);
        if let Some(value) = &agg.value {
            value.for_each_var(&mut |v, span| {
                if !inner.contains(&v) {
                    report.push((v, span, Place::AggregateValue));
                }
            });
        }
        if !matches!(agg.result.kind, TermKind::Var(_)) {
            agg.result.for_each_var(&mut |v, span| {
                if !outer.contains(&v) {
                    report.push((v, span, Place::Comparison));
                }
            });
        }
        for (v, span, place) in report {
            self.report(v, span, place);
        }
    }
}

/// An aggregate may stand only as a positive literal of a rule's body:
/// not under `not`, inside `( ; )` or inside another aggregate's braces.
fn misplaced_aggregates(rule: &Rule, out: &mut Sink) {
    let mut stack: Vec<(&Literal, bool)> = rule.body.iter().map(|l| (l, true)).collect();
    while let Some((lit, top)) = stack.pop() {
        match lit {
            Literal::Agg(a) => {
                if !top {
                    out.push(Diagnostic::error(
                        codes::SYNTAX,
                        a.span,
                        "an aggregate may only be a positive literal of a rule's body, not under \
                         `not`, inside `( ; )` or inside another aggregate",
                    ));
                }
                stack.extend(a.body.iter().map(|l| (l, false)));
            }
            Literal::Not(inner, _) => stack.push((inner, false)),
            Literal::Or(alts, _) => stack.extend(alts.iter().flatten().map(|l| (l, false))),
            Literal::Pos(_) | Literal::Cmp(..) => {}
        }
    }
}

fn rule(program: &Program, rule: &Rule, out: &mut Sink) {
    misplaced_aggregates(rule, out);
    let bound = bind(&rule.body, &Vars::default());
    let mut in_some_branch = Vars::default();
    for lit in &rule.body {
        if let Literal::Or(..) = lit {
            or_bindable(lit, &mut in_some_branch);
        }
    }
    let mut checker = Unsafe {
        program,
        in_some_branch,
        reported: blocked_targets(&rule.body, &bound),
        out,
    };
    let plain: Vec<Literal> = rule
        .body
        .iter()
        .filter(|l| !matches!(l, Literal::Agg(_)))
        .cloned()
        .collect();
    let outer = bind(&plain, &Vars::default());
    for (i, lit) in rule.body.iter().enumerate() {
        if let Literal::Agg(a) = lit {
            checker.aggregate(rule, i, a, &outer);
        }
    }
    atom_vars(&rule.head, &mut |v, span, _| {
        if !bound.contains(&v) {
            checker.report(v, span, Place::Head);
        }
    });
    checker.conjunction(&rule.body, &bound);
}

/// Unbound targets `X` of equations `X = Expr` whose `Expr` has an unbound
/// variable that is no equation's target: that variable is the cause and is
/// reported; `X` only follows from it, so it is not reported again.
fn blocked_targets(body: &[Literal], bound: &Vars) -> Vars {
    let mut equations: Vec<(Sym, &crate::syntax::Term)> = Vec::new();
    let mut stack: Vec<&Literal> = body.iter().collect();
    while let Some(l) = stack.pop() {
        match l {
            Literal::Cmp(CmpOp::Eq, a, b, _) => {
                for (target, expr) in [(a, b), (b, a)] {
                    if let TermKind::Var(t) = target.kind {
                        equations.push((t, expr));
                    }
                }
            }
            Literal::Or(branches, _) => stack.extend(branches.iter().flatten()),
            _ => {}
        }
    }
    let targets: Vars = equations.iter().map(|&(t, _)| t).collect();
    let mut blocked = Vars::default();
    for (t, expr) in equations {
        if bound.contains(&t) {
            continue;
        }
        let mut cause = false;
        term_vars(expr, &mut |v, _, _| {
            cause |= !bound.contains(&v) && !targets.contains(&v);
        });
        if cause {
            blocked.insert(t);
        }
    }
    blocked
}

/// Adds the variables of the positive atoms (outside arithmetic, not under
/// `not`) inside `lit`.
fn or_bindable(lit: &Literal, vars: &mut Vars) {
    let mut stack = vec![lit];
    while let Some(l) = stack.pop() {
        match l {
            Literal::Pos(a) => atom_vars(a, &mut |v, _, arith| {
                if !arith {
                    vars.insert(v);
                }
            }),
            Literal::Or(branches, _) => stack.extend(branches.iter().flatten()),
            Literal::Not(..) | Literal::Cmp(..) | Literal::Agg(_) => {}
        }
    }
}

/// The variables bound by a conjunction when `outer` are bound already
/// (the result includes `outer`).
///
/// Positive atoms bind at once; each `X = Expr` waits, through a counter of
/// its unbound variables, until `Expr` is bound (a worklist, linear in the
/// body); an `or` is re-examined whenever the worklist runs dry, until no
/// branch set binds anything new.
fn bind(body: &[Literal], outer: &Vars) -> Vars {
    let mut bound = outer.clone();
    let mut queue: Vec<Sym> = Vec::new();
    let mut equations = Equations::default();
    let mut ors: Vec<&Vec<Vec<Literal>>> = Vec::new();
    for lit in body {
        match lit {
            Literal::Pos(a) => atom_vars(a, &mut |v, _, arith| {
                if !arith && bound.insert(v) {
                    queue.push(v);
                }
            }),
            Literal::Cmp(CmpOp::Eq, a, b, _) => {
                for (target, expr) in [(a, b), (b, a)] {
                    if let TermKind::Var(t) = target.kind {
                        equations.add(t, expr);
                    }
                }
            }
            Literal::Or(branches, _) => ors.push(branches),
            Literal::Agg(a) => {
                if let TermKind::Var(v) = a.result.kind
                    && bound.insert(v)
                {
                    queue.push(v);
                }
            }
            Literal::Not(..) | Literal::Cmp(..) => {}
        }
    }
    // Variables bound from outside count as bound for the equations too.
    queue.extend(outer.iter().copied());
    let mut ready: Vec<usize> = equations.ready();
    loop {
        loop {
            if let Some(id) = ready.pop() {
                if bound.insert(equations.targets[id]) {
                    queue.push(equations.targets[id]);
                }
            } else if let Some(v) = queue.pop() {
                equations.bound(v, &mut ready);
            } else {
                break;
            }
        }
        let mut grew = false;
        for branches in &ors {
            for v in common_binding(branches, &bound) {
                if bound.insert(v) {
                    queue.push(v);
                    grew = true;
                }
            }
        }
        if !grew {
            return bound;
        }
    }
}

/// Equations `target = expr` waiting for their `expr` to be bound: the
/// target and how many distinct unbound variables of `expr` remain.
#[derive(Default)]
struct Equations {
    targets: Vec<Sym>,
    missing: Vec<usize>,
    waiting: FxHashMap<Sym, Vec<usize>>,
}

impl Equations {
    fn add(&mut self, target: Sym, expr: &Term) {
        let mut deps = Vars::default();
        term_vars(expr, &mut |v, _, _| {
            deps.insert(v);
        });
        let id = self.targets.len();
        self.targets.push(target);
        self.missing.push(deps.len());
        for d in deps {
            self.waiting.entry(d).or_default().push(id);
        }
    }

    /// The equations whose expression has no variable.
    fn ready(&self) -> Vec<usize> {
        (0..self.targets.len())
            .filter(|&i| self.missing[i] == 0)
            .collect()
    }

    /// `v` is now bound: the equations it completes join `ready`.
    fn bound(&mut self, v: Sym, ready: &mut Vec<usize>) {
        for id in self.waiting.remove(&v).unwrap_or_default() {
            self.missing[id] -= 1;
            if self.missing[id] == 0 {
                ready.push(id);
            }
        }
    }
}

/// The variables every branch of an `or` binds, given `bound`.
fn common_binding(branches: &[Vec<Literal>], bound: &Vars) -> Vars {
    let mut common: Option<Vars> = None;
    for branch in branches {
        let inner = bind(branch, bound);
        common = Some(match common {
            None => inner,
            Some(c) => c.intersection(&inner).copied().collect(),
        });
    }
    common.unwrap_or_default()
}
