//! Iterative walks over terms and literals.
//!
//! In: AST nodes. Out: callbacks on every variable or atom inside them.
//! Holds: no recursion on the Rust stack, so a term or a negation nested a
//! hundred thousand levels deep cannot overflow it.

use crate::syntax::{Atom, Literal, Span, Sym, Term, TermKind};

/// Calls `f(var, span, in_arith)` on every variable of `term`, left to right;
/// `in_arith` tells whether the occurrence lies inside an arithmetic
/// expression (where matching cannot bind it).
pub fn term_vars(term: &Term, f: &mut impl FnMut(Sym, Span, bool)) {
    let mut stack: Vec<(&Term, bool)> = vec![(term, false)];
    while let Some((t, arith)) = stack.pop() {
        match &t.kind {
            TermKind::Var(v) => f(*v, t.span, arith),
            TermKind::Const(_) | TermKind::Int(_) => {}
            TermKind::App(_, args) => stack.extend(args.iter().rev().map(|a| (a, arith))),
            TermKind::Arith(_, a, b) => {
                stack.push((b, true));
                stack.push((a, true));
            }
        }
    }
}

/// Every variable of an atom, as [`term_vars`].
pub fn atom_vars(atom: &Atom, f: &mut impl FnMut(Sym, Span, bool)) {
    for arg in &atom.args {
        term_vars(arg, f);
    }
}

/// Every variable of a literal, at any depth (inside `not`, `or`,
/// comparisons).
pub fn literal_vars(lit: &Literal, f: &mut impl FnMut(Sym, Span, bool)) {
    let mut stack = vec![lit];
    while let Some(l) = stack.pop() {
        match l {
            Literal::Pos(a) => atom_vars(a, f),
            Literal::Not(inner, _) => stack.push(inner),
            Literal::Cmp(_, a, b, _) => {
                term_vars(a, f);
                term_vars(b, f);
            }
            Literal::Or(branches, _) => {
                stack.extend(branches.iter().rev().flat_map(|b| b.iter().rev()));
            }
            Literal::Agg(a) => {
                term_vars(&a.result, f);
                if let Some(v) = &a.value {
                    term_vars(v, f);
                }
                stack.extend(a.body.iter().rev());
            }
        }
    }
}

/// How a rule depends on an atom of its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dep {
    Positive,
    /// Under some `not` (however many enclose it).
    Negative,
    /// Inside the braces of an aggregate (negated or not).
    Aggregate,
}

/// Calls `f(atom, dep)` on every atom of a body, at any depth, with how the
/// body depends on it, which is what stratification needs.
pub fn body_atoms<'a>(body: &'a [Literal], f: &mut impl FnMut(&'a Atom, Dep)) {
    let mut stack: Vec<(&Literal, Dep)> = body.iter().rev().map(|l| (l, Dep::Positive)).collect();
    while let Some((l, dep)) = stack.pop() {
        match l {
            Literal::Pos(a) => f(a, dep),
            Literal::Not(inner, _) => {
                let inner_dep = match dep {
                    Dep::Aggregate => Dep::Aggregate,
                    _ => Dep::Negative,
                };
                stack.push((inner, inner_dep));
            }
            Literal::Agg(a) => stack.extend(a.body.iter().rev().map(|l| (l, Dep::Aggregate))),
            Literal::Cmp(..) => {}
            Literal::Or(branches, _) => {
                stack.extend(
                    branches
                        .iter()
                        .rev()
                        .flat_map(|b| b.iter().rev())
                        .map(|l| (l, dep)),
                );
            }
        }
    }
}

/// The name and arity of a term read as a sentence: `f(a, b)` is `f`/2, a
/// constant `c` is `c`/0; variables, integers and arithmetic are `None`.
pub fn functor(term: &Term) -> Option<(Sym, usize)> {
    match &term.kind {
        TermKind::App(f, args) => Some((*f, args.len())),
        TermKind::Const(c) => Some((*c, 0)),
        _ => None,
    }
}
