//! Surface terms → core terms.
//!
//! In: [`Ex`]/[`Lit`] from the parser and the final parameter values. Out:
//! core [`Term`]s, [`Atom`]s and [`Literal`]s, interned into [`Symbols`].
//! Holds: a parameter's name used as a constant is replaced by its value;
//! arithmetic over integers alone is folded; ranges `A..B` are expanded only
//! where [`Lower::expand`] is used (facts and declarations), and never into
//! more than [`MAX_EXPANSION`] terms.

use super::super::ast::*;
use super::parser::{Ex, ExKind, Lit};
use crate::diag::{Code, Diagnostic, codes};
use indexmap::IndexMap;

/// Most terms one range expression may stand for.
pub const MAX_EXPANSION: usize = 100_000;

/// A parameter value: an integer or a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Name(String),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Name(n) => f.write_str(n),
        }
    }
}

pub struct Lower<'a> {
    pub symbols: &'a mut Symbols,
    pub params: &'a IndexMap<String, Value>,
    pub errors: &'a mut Vec<Diagnostic>,
}

impl Lower<'_> {
    pub fn error(&mut self, code: Code, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::error(code, span, message));
    }

    pub fn sym(&mut self, name: &str) -> Sym {
        self.symbols.intern(name)
    }

    pub fn konst(&mut self, name: &str, span: Span) -> Term {
        Term::new(TermKind::Const(self.sym(name)), span)
    }

    /// A term without ranges. Strings are refused unless `strings` is set
    /// (declarations that need text).
    pub fn term(&mut self, ex: &Ex) -> Term {
        self.term_in(ex, false)
    }

    pub fn term_in(&mut self, ex: &Ex, strings: bool) -> Term {
        let span = ex.span;
        match &ex.kind {
            ExKind::Var(v) => Term::new(TermKind::Var(self.sym(v)), span),
            ExKind::Name(n) => match self.params.get(n) {
                Some(Value::Int(i)) => Term::new(TermKind::Int(*i), span),
                Some(Value::Name(v)) => {
                    let v = v.clone();
                    self.konst(&v, span)
                }
                None => self.konst(n, span),
            },
            ExKind::Int(i) => Term::new(TermKind::Int(*i), span),
            ExKind::Str(s) => {
                if !strings {
                    self.error(
                        codes::SYNTAX,
                        span,
                        "a string can only be used in declarations",
                    );
                }
                self.konst(s, span)
            }
            ExKind::App(f, args) => {
                let f = self.sym(f);
                let args = args.iter().map(|a| self.term_in(a, strings)).collect();
                Term::new(TermKind::App(f, args), span)
            }
            ExKind::Arith(op, a, b) => {
                let a = self.term_in(a, strings);
                let b = self.term_in(b, strings);
                fold(*op, a, b, span)
            }
            ExKind::Neg(a) => {
                let a = self.term_in(a, strings);
                fold(ArithOp::Sub, Term::new(TermKind::Int(0), span), a, span)
            }
            ExKind::Range(..) => {
                self.error(
                    codes::SYNTAX,
                    span,
                    "a range `..` can only be used in facts and declarations",
                );
                Term::new(TermKind::Int(0), span)
            }
        }
    }

    /// Every term a surface term stands for, ranges expanded left to right
    /// (the last range varies fastest). Bounds must be integers.
    pub fn expand(&mut self, ex: &Ex, strings: bool) -> Vec<Term> {
        let span = ex.span;
        match &ex.kind {
            ExKind::Range(lo, hi) => {
                let lo_t = self.term_in(lo, strings);
                let hi_t = self.term_in(hi, strings);
                let (TermKind::Int(a), TermKind::Int(b)) = (&lo_t.kind, &hi_t.kind) else {
                    self.error(
                        codes::DECLARATION,
                        span,
                        "the bounds of a range must be integers",
                    );
                    return Vec::new();
                };
                let (a, b) = (*a, *b);
                if a.abs_diff(b) >= MAX_EXPANSION as u64 {
                    self.error(
                        codes::DECLARATION,
                        span,
                        format!("a range may hold at most {MAX_EXPANSION} values"),
                    );
                    return Vec::new();
                }
                let ints: Vec<i64> = if a <= b {
                    (a..=b).collect()
                } else {
                    (b..=a).rev().collect()
                };
                ints.into_iter()
                    .map(|i| Term::new(TermKind::Int(i), span))
                    .collect()
            }
            ExKind::App(f, args) => {
                let f = self.sym(f);
                // Each argument's terms first, then every combination built
                // once: linear in the terms made, however many arguments.
                let mut options: Vec<Vec<Term>> = Vec::with_capacity(args.len());
                let mut count = 1usize;
                for a in args {
                    let terms = self.expand(a, strings);
                    if terms.is_empty() {
                        return Vec::new();
                    }
                    count = count.saturating_mul(terms.len());
                    if count > MAX_EXPANSION {
                        self.error(
                            codes::DECLARATION,
                            span,
                            format!("this stands for more than {MAX_EXPANSION} terms"),
                        );
                        return Vec::new();
                    }
                    options.push(terms);
                }
                (0..count)
                    .map(|k| {
                        // Combination `k`, the last argument varying fastest.
                        let mut rest = k;
                        let mut picked: Vec<Term> = (options.iter().rev())
                            .map(|terms| {
                                let term = terms[rest % terms.len()].clone();
                                rest /= terms.len();
                                term
                            })
                            .collect();
                        picked.reverse();
                        Term::new(TermKind::App(f, picked), span)
                    })
                    .collect()
            }
            _ => vec![self.term_in(ex, strings)],
        }
    }

    /// An atom from a term: a name or an application.
    pub fn atom_of(&mut self, t: Term) -> Option<Atom> {
        match t.kind {
            TermKind::Const(rel) => Some(Atom {
                rel,
                args: Vec::new(),
                span: t.span,
            }),
            TermKind::App(rel, args) => Some(Atom {
                rel,
                args,
                span: t.span,
            }),
            _ => {
                self.error(codes::SYNTAX, t.span, "expected a relation, such as `p(X)`");
                None
            }
        }
    }

    /// An atom: relation names are never replaced by parameters.
    pub fn atom(&mut self, ex: &Ex) -> Option<Atom> {
        match &ex.kind {
            ExKind::Name(n) => {
                let rel = self.sym(n);
                Some(Atom {
                    rel,
                    args: Vec::new(),
                    span: ex.span,
                })
            }
            ExKind::App(..) => {
                let t = self.term(ex);
                self.atom_of(t)
            }
            _ => {
                self.error(
                    codes::SYNTAX,
                    ex.span,
                    "expected a relation, such as `p(X)`",
                );
                None
            }
        }
    }

    pub fn literal(&mut self, lit: &Lit) -> Option<Literal> {
        Some(match lit {
            Lit::Atom(ex) => Literal::Pos(self.atom(ex)?),
            Lit::Not(inner, span) => Literal::Not(Box::new(self.literal(inner)?), *span),
            Lit::Cmp(op, a, b, span) => Literal::Cmp(*op, self.term(a), self.term(b), *span),
            Lit::Or(alts, span) => {
                let mut out = Vec::new();
                for alt in alts {
                    out.push(self.body(alt)?);
                }
                Literal::Or(out, *span)
            }
            Lit::Agg(a) => Literal::Agg(Box::new(Aggregate {
                op: a.op,
                value: a.value.as_ref().map(|v| self.term(v)),
                body: self.body(&a.body)?,
                result: self.term(&a.result),
                span: a.span,
            })),
        })
    }

    pub fn body(&mut self, lits: &[Lit]) -> Option<Vec<Literal>> {
        let mut out = Vec::new();
        let mut ok = true;
        for l in lits {
            match self.literal(l) {
                Some(l) => out.push(l),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// An integer-valued term of a declaration, after parameters and folding.
    pub fn int(&mut self, ex: &Ex, what: &str) -> Option<i64> {
        let t = self.term(ex);
        match t.kind {
            TermKind::Int(i) => Some(i),
            _ => {
                self.error(
                    codes::DECLARATION,
                    ex.span,
                    format!("{what} must be an integer"),
                );
                None
            }
        }
    }
}

/// `a op b`, computed now when both are integers and the result exists.
pub fn fold(op: ArithOp, a: Term, b: Term, span: Span) -> Term {
    if let (TermKind::Int(x), TermKind::Int(y)) = (&a.kind, &b.kind)
        && let Some(v) = op.apply(*x, *y)
    {
        return Term::new(TermKind::Int(v), span);
    }
    Term::new(TermKind::Arith(op, Box::new(a), Box::new(b)), span)
}

/// True if a term has no variables and no arithmetic left.
pub fn is_ground(t: &Term) -> bool {
    match &t.kind {
        TermKind::Var(_) | TermKind::Arith(..) => false,
        TermKind::Const(_) | TermKind::Int(_) => true,
        TermKind::App(_, args) => args.iter().all(is_ground),
    }
}
