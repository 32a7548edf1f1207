//! Preparing non-ground rules for instantiation.
//!
//! In: AST rules. Out: [`Prepared`] rules: disjunctions expanded into separate
//! bodies, negations pushed onto atoms and comparisons, arithmetic inside body
//! atoms moved into comparisons, terms turned into [`Pat`]terns over numbered
//! variables with ground parts interned, and checked safe.

use super::numbers::CmpRole;
use super::terms::{GTerm, TermId, TermTable};
use crate::diag::{Diagnostic, codes};
use crate::syntax::{ArithOp, Atom, CmpOp, Literal, Rule, Span, Sym, Term, TermKind};
use indexmap::IndexMap;

/// Most positive literals (and comparisons) of one rule: the join keeps
/// which are done in a 64-bit mask.
const MAX_LITERALS: usize = 64;

/// Most alternative bodies one rule may expand into through `or`.
const MAX_ALTERNATIVES: usize = 4096;

/// A term pattern: variables are numbered per rule.
#[derive(Clone, Debug)]
pub enum Pat {
    Var(u32),
    Ground(TermId),
    App(Sym, Box<[Pat]>),
    Arith(ArithOp, Box<Pat>, Box<Pat>),
}

impl Pat {
    /// Pushes every variable of the pattern, arithmetic included.
    pub fn vars(&self, out: &mut Vec<u32>) {
        match self {
            Pat::Var(v) => out.push(*v),
            Pat::Ground(_) => {}
            Pat::App(_, args) => args.iter().for_each(|a| a.vars(out)),
            Pat::Arith(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }

    fn all_bound(&self, bound: &[bool]) -> bool {
        let mut vs = Vec::new();
        self.vars(&mut vs);
        vs.iter().all(|v| bound[*v as usize])
    }
}

/// A relation is a name and an arity.
pub type RelKey = (Sym, usize);

#[derive(Clone, Debug)]
pub struct PAtom {
    pub rel: RelKey,
    pub args: Box<[Pat]>,
}

#[derive(Clone, Debug)]
pub struct PCmp {
    pub op: CmpOp,
    pub left: Pat,
    pub right: Pat,
    /// `not (A op B)`: holds when the comparison fails, including when a
    /// side has no value or an ordering meets a non-integer. Never binds.
    pub negated: bool,
    /// What it does with numbers computed at play time.
    pub role: CmpRole,
}

#[derive(Clone, Debug)]
pub struct Prepared {
    pub head: PAtom,
    pub pos: Vec<PAtom>,
    pub neg: Vec<PAtom>,
    pub cmps: Vec<PCmp>,
    pub vars: usize,
    pub span: Span,
    /// Synthetic bridge rules (`true` from `init`/`next`, `does` from `legal`)
    /// feed the relaxed model but are not part of the ground program.
    pub bridge: bool,
    /// Which variables hold numbers computed at play time (empty if none).
    pub open_vars: Vec<bool>,
}

struct Builder<'a> {
    terms: &'a mut TermTable,
    vars: IndexMap<Sym, u32>,
    extra: u32,
    cmps: Vec<PCmp>,
}

impl Builder<'_> {
    fn var(&mut self, s: Sym) -> u32 {
        let n = self.vars.len() as u32;
        *self.vars.entry(s).or_insert(n)
    }

    fn fresh(&mut self) -> u32 {
        self.extra += 1;
        u32::MAX - self.extra
    }

    /// A pattern; `lift` moves arithmetic into a binding comparison.
    fn pat(&mut self, t: &Term, lift: bool) -> Pat {
        match &t.kind {
            TermKind::Var(v) => Pat::Var(self.var(*v)),
            TermKind::Const(s) => Pat::Ground(self.terms.intern(GTerm::Sym(*s))),
            TermKind::Int(i) => Pat::Ground(self.terms.intern(GTerm::Int(*i))),
            TermKind::App(f, args) => {
                let args: Box<[Pat]> = args.iter().map(|a| self.pat(a, lift)).collect();
                if args.iter().all(|a| matches!(a, Pat::Ground(_))) {
                    let ids = args
                        .iter()
                        .map(|a| match a {
                            Pat::Ground(id) => *id,
                            _ => unreachable!("checked all ground"),
                        })
                        .collect();
                    Pat::Ground(self.terms.intern(GTerm::App(*f, ids)))
                } else {
                    Pat::App(*f, args)
                }
            }
            TermKind::Arith(op, a, b) => {
                let e = Pat::Arith(
                    *op,
                    Box::new(self.pat(a, false)),
                    Box::new(self.pat(b, false)),
                );
                if lift {
                    let v = Pat::Var(self.fresh());
                    self.cmps.push(PCmp {
                        op: CmpOp::Eq,
                        left: v.clone(),
                        right: e,
                        negated: false,
                        role: CmpRole::Closed,
                    });
                    v
                } else {
                    e
                }
            }
        }
    }

    fn atom(&mut self, a: &Atom, lift: bool) -> PAtom {
        PAtom {
            rel: (a.rel, a.args.len()),
            args: a.args.iter().map(|t| self.pat(t, lift)).collect(),
        }
    }
}

/// A literal after pushing negation inward.
enum Flat<'a> {
    Pos(&'a Atom),
    Neg(&'a Atom),
    /// A comparison and whether it is negated (negation as failure: not
    /// the opposite comparison, which differs where a side has no value).
    Cmp(CmpOp, &'a Term, &'a Term, bool),
}

/// Expands a body into its alternatives (disjunctive normal form).
fn expand<'a>(
    body: &'a [Literal],
    negated: bool,
    out: &mut Vec<Vec<Flat<'a>>>,
) -> Result<(), Diagnostic> {
    for lit in body {
        match (lit, negated) {
            (Literal::Pos(a), false) => out.iter_mut().for_each(|b| b.push(Flat::Pos(a))),
            (Literal::Pos(a), true) => out.iter_mut().for_each(|b| b.push(Flat::Neg(a))),
            (Literal::Cmp(op, l, r, _), n) => {
                out.iter_mut().for_each(|b| b.push(Flat::Cmp(*op, l, r, n)));
            }
            (Literal::Not(inner, _), n) => expand(std::slice::from_ref(inner), !n, out)?,
            (Literal::Or(alts, span), false) => {
                let mut next = Vec::new();
                for alt in alts {
                    let mut copy: Vec<Vec<Flat<'a>>> = out
                        .iter()
                        .map(|b| b.iter().map(Flat::clone_ref).collect())
                        .collect();
                    expand(alt, false, &mut copy)?;
                    next.extend(copy);
                    if next.len() > MAX_ALTERNATIVES {
                        return Err(Diagnostic::error(
                            codes::GROUNDING,
                            *span,
                            format!(
                                "this rule expands into more than {MAX_ALTERNATIVES} alternatives"
                            ),
                        ));
                    }
                }
                *out = next;
            }
            // `aggregate::rewrite` replaces every aggregate that the checks
            // accept; this guards the grounder on its own.
            (Literal::Agg(a), _) => {
                return Err(Diagnostic::error(
                    codes::SYNTAX,
                    a.span,
                    "an aggregate may only be a positive literal of a rule's body",
                ));
            }
            (Literal::Or(alts, span), true) => {
                // not (a ; b) = not a, not b; a conjunction inside is not supported.
                for alt in alts {
                    if alt.len() != 1 {
                        return Err(Diagnostic::error(
                            codes::GROUNDING,
                            *span,
                            "a negated disjunction may only contain single literals",
                        ));
                    }
                    expand(alt, true, out)?;
                }
            }
        }
    }
    Ok(())
}

impl Flat<'_> {
    fn clone_ref(&self) -> Self {
        match self {
            Flat::Pos(a) => Flat::Pos(a),
            Flat::Neg(a) => Flat::Neg(a),
            Flat::Cmp(op, l, r, n) => Flat::Cmp(*op, l, r, *n),
        }
    }
}

/// Prepares one AST rule: one [`Prepared`] per alternative body.
pub fn prepare(rule: &Rule, terms: &mut TermTable) -> Result<Vec<Prepared>, Diagnostic> {
    let mut alts = vec![Vec::new()];
    expand(&rule.body, false, &mut alts)?;
    let mut out = Vec::new();
    for body in alts {
        let mut b = Builder {
            terms,
            vars: IndexMap::new(),
            extra: 0,
            cmps: Vec::new(),
        };
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        let mut cmps = Vec::new();
        for lit in &body {
            match lit {
                Flat::Pos(a) => pos.push(b.atom(a, true)),
                Flat::Neg(a) => neg.push(b.atom(a, false)),
                Flat::Cmp(op, l, r, negated) => {
                    let left = b.pat(l, false);
                    let right = b.pat(r, false);
                    cmps.push(PCmp {
                        op: *op,
                        left,
                        right,
                        negated: *negated,
                        role: CmpRole::Closed,
                    });
                }
            }
        }
        let head = b.atom(&rule.head, false);
        cmps.append(&mut b.cmps);
        // Renumber the lifted variables densely after the named ones.
        let named = b.vars.len() as u32;
        let extra = b.extra;
        let renumber = |p: &mut Pat| renumber_pat(p, named, extra);
        pos.iter_mut()
            .for_each(|a| a.args.iter_mut().for_each(renumber));
        cmps.iter_mut().for_each(|c| {
            renumber(&mut c.left);
            renumber(&mut c.right);
        });
        let vars = (named + extra) as usize;
        let prepared = Prepared {
            head,
            pos,
            neg,
            cmps,
            vars,
            span: rule.span,
            bridge: false,
            open_vars: Vec::new(),
        };
        if prepared.pos.len() > MAX_LITERALS || prepared.cmps.len() > MAX_LITERALS {
            return Err(Diagnostic::error(
                codes::GROUNDING,
                rule.span,
                format!(
                    "a rule may have at most {MAX_LITERALS} positive literals and \
                     {MAX_LITERALS} comparisons"
                ),
            ));
        }
        check_safe(&prepared).map_err(|unsafe_| {
            Diagnostic::error(
                codes::UNSAFE,
                rule.span,
                format!("this rule is unsafe: {unsafe_}"),
            )
        })?;
        out.push(prepared);
    }
    Ok(out)
}

fn renumber_pat(p: &mut Pat, named: u32, extra: u32) {
    match p {
        Pat::Var(v) if *v > u32::MAX - extra - 1 => *v = named + (u32::MAX - *v) - 1,
        Pat::Var(_) | Pat::Ground(_) => {}
        Pat::App(_, args) => args.iter_mut().for_each(|a| renumber_pat(a, named, extra)),
        Pat::Arith(_, a, b) => {
            renumber_pat(a, named, extra);
            renumber_pat(b, named, extra);
        }
    }
}

/// A variable no positive literal binds, found by [`check_safe`] (the
/// static checks refuse such rules first, with the variable's name).
#[derive(thiserror::Error, Clone, Copy, Debug, PartialEq, Eq)]
enum Unsafe {
    /// `p :- q(X), Y > X.`
    #[error("a comparison has a variable that no positive literal binds")]
    Comparison,
    /// `p :- q(X), not r(Y).`
    #[error("a negated literal has a variable that no positive literal binds")]
    Negation,
    /// `p(Y) :- q(X).`
    #[error("the head has a variable that no positive literal binds")]
    Head,
}

/// The static checks make rules safe; this guards the grounder on its own:
/// every variable of a comparison, a negated literal and the head must be
/// bound by the positive literals, directly or through `=` bindings.
fn check_safe(rule: &Prepared) -> Result<(), Unsafe> {
    let mut bound = vec![false; rule.vars];
    let bind = |bound: &mut Vec<bool>, p: &Pat| {
        let mut vs = Vec::new();
        p.vars(&mut vs);
        vs.into_iter().for_each(|v| bound[v as usize] = true);
    };
    rule.pos
        .iter()
        .for_each(|a| a.args.iter().for_each(|p| bind(&mut bound, p)));
    loop {
        let mut progressed = false;
        for c in &rule.cmps {
            let (l, r) = (c.left.all_bound(&bound), c.right.all_bound(&bound));
            if c.op == CmpOp::Eq && !c.negated && l != r {
                bind(&mut bound, &c.left);
                bind(&mut bound, &c.right);
                progressed = true;
            }
        }
        if !progressed {
            break;
        }
    }
    let all = |p: &Pat| p.all_bound(&bound);
    if !rule.cmps.iter().all(|c| all(&c.left) && all(&c.right)) {
        return Err(Unsafe::Comparison);
    }
    if !rule.neg.iter().all(|a| a.args.iter().all(all)) {
        return Err(Unsafe::Negation);
    }
    if !rule.head.args.iter().all(all) {
        return Err(Unsafe::Head);
    }
    Ok(())
}
