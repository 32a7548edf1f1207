//! The order in which a rule's body is solved, per call pattern.
//!
//! In: a prepared rule and which of its head's arguments the call binds.
//! Out: a list of [`Step`]s. Holds: a comparison or a negation comes as
//! soon as its variables are bound (a filter costs nothing and prunes
//! early; `X = Expr` binds `X` as soon as `Expr` is bound); otherwise a
//! positive literal with every argument bound comes first, then a `does`
//! literal, then the one with the fewest variables left to bind (the
//! body's own order only breaks ties); an aggregate's value waits until
//! its shared arguments are bound.

use crate::ground::prepare::{Pat, Prepared};
use crate::syntax::CmpOp;
use std::cmp::Reverse;

/// One step of a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Positive literal `i`: bind its free variables to each answer.
    Pos(u32),
    /// Negative literal `i`, every argument bound.
    Neg(u32),
    /// Comparison `i` as a test.
    Test(u32),
    /// Comparison `i` (`A = B`, not negated) binding its left side (`true`)
    /// or its right side from the other.
    Bind(u32, bool),
}

/// The variables of a pattern outside arithmetic (those matching binds).
pub fn bindable(p: &Pat, out: &mut Vec<u32>) {
    match p {
        Pat::Var(v) => out.push(*v),
        Pat::Ground(_) | Pat::Arith(..) => {}
        Pat::App(_, args) => args.iter().for_each(|a| bindable(a, out)),
    }
}

fn bound_in(p: &Pat, bound: &[bool]) -> bool {
    match p {
        Pat::Var(v) => bound[*v as usize],
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().all(|a| bound_in(a, bound)),
        Pat::Arith(_, a, b) => bound_in(a, bound) && bound_in(b, bound),
    }
}

fn bind_all(p: &Pat, bound: &mut [bool]) {
    let mut vs = Vec::new();
    bindable(p, &mut vs);
    vs.into_iter().for_each(|v| bound[v as usize] = true);
}

/// The steps of `rule` for a call binding the head arguments in `mask`
/// (bit `i` for argument `i`; an argument from 64 on counts as free); `kind` tells of positive literal `i`
/// whether it is a `does` literal and, for an aggregate's value, how many
/// leading arguments are its shared variables.
pub fn plan(rule: &Prepared, mask: u64, kind: impl Fn(usize) -> Kind) -> Vec<Step> {
    let mut bound = vec![false; rule.vars];
    for (i, p) in rule.head.args.iter().enumerate() {
        if i < 64 && mask >> i & 1 == 1 {
            bind_all(p, &mut bound);
        }
    }
    let mut pos_left: Vec<usize> = (0..rule.pos.len()).collect();
    let mut neg_left: Vec<usize> = (0..rule.neg.len()).collect();
    let mut cmp_left: Vec<usize> = (0..rule.cmps.len()).collect();
    let mut steps = Vec::with_capacity(pos_left.len() + neg_left.len() + cmp_left.len());
    loop {
        if let Some(k) = ready_comparison(rule, &cmp_left, &mut bound, &mut steps) {
            cmp_left.remove(k);
            continue;
        }
        if let Some(k) =
            (neg_left.iter()).position(|&n| rule.neg[n].args.iter().all(|p| bound_in(p, &bound)))
        {
            steps.push(Step::Neg(neg_left.remove(k) as u32));
            continue;
        }
        let Some(k) = best_positive(rule, &pos_left, &bound, &kind) else {
            break;
        };
        let i = pos_left.remove(k);
        rule.pos[i]
            .args
            .iter()
            .for_each(|p| bind_all(p, &mut bound));
        steps.push(Step::Pos(i as u32));
    }
    // Safe rules leave nothing here; an unsafe leftover fails at run time
    // (an unbound side has no value).
    steps.extend(cmp_left.into_iter().map(|c| Step::Test(c as u32)));
    steps.extend(neg_left.into_iter().map(|n| Step::Neg(n as u32)));
    steps
}

/// Pushes the first comparison that can run (a test with both sides bound,
/// or an `=` binding one side from the other) and returns its place in `left`.
fn ready_comparison(
    rule: &Prepared,
    left: &[usize],
    bound: &mut [bool],
    steps: &mut Vec<Step>,
) -> Option<usize> {
    for (k, &c) in left.iter().enumerate() {
        let cmp = &rule.cmps[c];
        let (l, r) = (bound_in(&cmp.left, bound), bound_in(&cmp.right, bound));
        if l && r {
            steps.push(Step::Test(c as u32));
            return Some(k);
        }
        let binds = cmp.op == CmpOp::Eq && !cmp.negated;
        if binds && r && !matches!(cmp.left, Pat::Arith(..)) {
            bind_all(&cmp.left, bound);
            steps.push(Step::Bind(c as u32, true));
            return Some(k);
        }
        if binds && l && !matches!(cmp.right, Pat::Arith(..)) {
            bind_all(&cmp.right, bound);
            steps.push(Step::Bind(c as u32, false));
            return Some(k);
        }
    }
    None
}

/// What the planner needs to know of a positive literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Does,
    /// An aggregate's value, with this many shared arguments first.
    Aggregate(usize),
}

/// The place in `left` of the positive literal to solve next: one with
/// every argument bound (a look-up), else a `does` literal (one answer per
/// role at most), else the one leaving the fewest variables to bind (the
/// most constrained), then the one with the most bound arguments, then the
/// first in the body's order; an aggregate whose shared arguments are not
/// all bound only when nothing else is left. So the order depends on what
/// the literals bind, not on the order the author wrote them in.
fn best_positive(
    rule: &Prepared,
    left: &[usize],
    bound: &[bool],
    kind: &impl Fn(usize) -> Kind,
) -> Option<usize> {
    let score = |i: usize| {
        let args = &rule.pos[i].args;
        let all = args.iter().all(|p| bound_in(p, bound));
        let ready = match kind(i) {
            Kind::Aggregate(shared) => args[..shared].iter().all(|p| bound_in(p, bound)),
            _ => true,
        };
        let mut free = Vec::new();
        args.iter().for_each(|p| bindable(p, &mut free));
        free.retain(|&v| !bound[v as usize]);
        free.sort_unstable();
        free.dedup();
        let bound_args = args.iter().filter(|p| bound_in(p, bound)).count();
        (
            ready,
            all,
            kind(i) == Kind::Does,
            Reverse(free.len()),
            bound_args,
        )
    };
    let best = left.iter().map(|&i| score(i)).max()?;
    left.iter().position(|&i| score(i) == best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::prepare::prepare;
    use crate::ground::terms::TermTable;
    use crate::syntax::{self, SourceMap, Syntax};

    /// The relations of `h`'s positive literals in the order planned for a
    /// call with no argument bound.
    fn planned(body: &[&str]) -> Vec<String> {
        let text = format!("h(X, Y, Z, W) :- {}.", body.join(", "));
        let mut sources = SourceMap::default();
        let program = syntax::parse_str(&mut sources, "t.rules", &text, Syntax::Rules)
            .expect("the rule parses");
        let rule = &program.rules[0];
        let prepared = prepare(rule, &mut TermTable::default()).expect("the rule prepares");
        let steps = plan(&prepared[0], 0, |_| Kind::Plain);
        (steps.iter())
            .map(|step| match step {
                Step::Pos(i) => program
                    .symbols
                    .name(prepared[0].pos[*i as usize].rel.0)
                    .to_string(),
                other => panic!("only positive literals here, not {other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_plan_of_a_body_does_not_depend_on_its_order() {
        // Each literal binds one variable more than the one before it: the
        // cheap order is a, b, c, d whatever order the author wrote.
        let body = ["a(X)", "b(X, Y)", "c(X, Y, Z)", "d(X, Y, Z, W)"];
        let mut orders = vec![body.to_vec()];
        orders.push(body.iter().rev().copied().collect());
        orders.push(vec![body[2], body[0], body[3], body[1]]);
        orders.push(vec![body[3], body[1], body[0], body[2]]);
        for order in orders {
            assert_eq!(planned(&order), ["a", "b", "c", "d"], "{order:?}");
        }
    }
}
