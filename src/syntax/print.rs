//! The one printer of terms, atoms, literals and rules: one layout per
//! syntax, whatever the term is stored as.
//!
//! In: a term seen through [`TermView`] (an AST [`Term`], a ground term of
//! `ground::TermTable`, or any other representation that can say its
//! [`Shape`]), the [`Symbols`] and a [`Syntax`]. Out: `Display` values.
//! Holds: KIF prints `(f a b)`, the native syntax `f(a, b)`; a relation
//! with no arguments prints as its name; arithmetic prints as `(a + b)` in
//! both. Literals and rules print in the native syntax (for tests,
//! `--explain` and debugging).

use super::ast::{
    ArithOp, Atom, Literal, Rule, Sym, Symbols, Syntax, Term, TermKind, is_anonymous_variable,
};
use std::fmt;

/// What a term is, one level deep.
#[derive(Clone, Copy, Debug)]
pub enum Shape<V> {
    Var(Sym),
    Const(Sym),
    Int(i64),
    /// A function applied to this many arguments (see [`TermView::arg`]).
    App(Sym, usize),
    Arith(ArithOp, V, V),
}

/// A handle on a term that can say its shape and give its arguments.
pub trait TermView: Copy {
    fn shape(self) -> Shape<Self>;
    /// The `i`-th argument of an application, `i` below the arity that
    /// [`TermView::shape`] gives.
    fn arg(self, i: usize) -> Self;
}

impl TermView for &Term {
    fn shape(self) -> Shape<Self> {
        match &self.kind {
            TermKind::Var(v) => Shape::Var(*v),
            TermKind::Const(c) => Shape::Const(*c),
            TermKind::Int(i) => Shape::Int(*i),
            TermKind::App(f, args) => Shape::App(*f, args.len()),
            TermKind::Arith(op, a, b) => Shape::Arith(*op, a, b),
        }
    }

    fn arg(self, i: usize) -> Self {
        match &self.kind {
            TermKind::App(_, args) => &args[i],
            _ => self,
        }
    }
}

/// A term displayed in a syntax: `Show { item, symbols, syntax }`.
#[derive(Clone, Copy)]
pub struct Show<'a, V> {
    pub item: V,
    pub symbols: &'a Symbols,
    pub syntax: Syntax,
}

impl<V: TermView> fmt::Display for Show<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sub = |item| Show { item, ..*self };
        match self.item.shape() {
            // Each anonymous variable occurs once in its rule: `_` again.
            Shape::Var(s)
                if self.syntax == Syntax::Rules && is_anonymous_variable(self.symbols.name(s)) =>
            {
                f.write_str("_")
            }
            Shape::Var(s) | Shape::Const(s) => f.write_str(self.symbols.name(s)),
            Shape::Int(i) => write!(f, "{i}"),
            Shape::App(name, n) => {
                let args = (0..n).map(|i| sub(self.item.arg(i)));
                write_applied(f, self.symbols.name(name), args, self.syntax)
            }
            Shape::Arith(op, a, b) => write!(f, "({} {} {})", sub(a), op.as_str(), sub(b)),
        }
    }
}

/// A relation (or function) applied to terms: an atom such as
/// `cell(1, 2, x)`, or just `terminal` without arguments.
#[derive(Clone)]
pub struct Applied<'a, I> {
    pub name: Sym,
    pub args: I,
    pub symbols: &'a Symbols,
    pub syntax: Syntax,
}

impl<I> fmt::Display for Applied<'_, I>
where
    I: Iterator + Clone,
    I::Item: TermView,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args = self.args.clone().map(|item| Show {
            item,
            symbols: self.symbols,
            syntax: self.syntax,
        });
        write_applied(f, self.symbols.name(self.name), args, self.syntax)
    }
}

/// The one layout of an application per syntax.
fn write_applied<D: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    args: impl Iterator<Item = D>,
    syntax: Syntax,
) -> fmt::Result {
    let mut args = args.peekable();
    if args.peek().is_none() {
        return f.write_str(name);
    }
    match syntax {
        Syntax::Kif => {
            write!(f, "({name}")?;
            for a in args {
                write!(f, " {a}")?;
            }
        }
        Syntax::Rules => {
            write!(f, "{name}(")?;
            for (i, a) in args.enumerate() {
                let comma = if i > 0 { ", " } else { "" };
                write!(f, "{comma}{a}")?;
            }
        }
    }
    f.write_str(")")
}

/// An atom of the AST in a syntax.
pub fn atom<'a>(a: &'a Atom, symbols: &'a Symbols, syntax: Syntax) -> impl fmt::Display + 'a {
    Applied {
        name: a.rel,
        args: a.args.iter(),
        symbols,
        syntax,
    }
}

/// Prints a rule in the native syntax: `head :- l1, l2.`
pub fn show_rule(rule: &Rule, symbols: &Symbols) -> String {
    let mut s = atom(&rule.head, symbols, Syntax::Rules).to_string();
    if !rule.body.is_empty() {
        s.push_str(" :- ");
        s.push_str(&show_body(&rule.body, symbols));
    }
    s.push('.');
    s
}

fn show_body(body: &[Literal], symbols: &Symbols) -> String {
    let lits: Vec<String> = body.iter().map(|l| show_literal(l, symbols)).collect();
    lits.join(", ")
}

/// Prints a literal in the native syntax.
pub fn show_literal(l: &Literal, symbols: &Symbols) -> String {
    let term = |item| Show {
        item,
        symbols,
        syntax: Syntax::Rules,
    };
    match l {
        Literal::Pos(a) => atom(a, symbols, Syntax::Rules).to_string(),
        Literal::Not(inner, _) => format!("not {}", show_literal(inner, symbols)),
        Literal::Cmp(op, a, b, _) => format!("{} {} {}", term(a), op.as_str(), term(b)),
        Literal::Or(alts, _) => {
            let alts: Vec<String> = alts.iter().map(|a| show_body(a, symbols)).collect();
            format!("({})", alts.join(" ; "))
        }
        Literal::Agg(a) => {
            let value = a.value.as_ref().map(|v| format!(" {}", term(v)));
            format!(
                "{} = {}{} {{ {} }}",
                term(&a.result),
                a.op.as_str(),
                value.unwrap_or_default(),
                show_body(&a.body, symbols)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{SourceMap, parse_str};

    fn first_rule(text: &str, syntax: Syntax) -> (Rule, Symbols) {
        let mut sources = SourceMap::default();
        let p = parse_str(&mut sources, "t", text, syntax).expect("parses");
        (p.rules[0].clone(), p.symbols)
    }

    #[test]
    fn one_layout_per_syntax() {
        let (r, symbols) = first_rule("(<= (p (f ?x 1) z) (q ?x))", Syntax::Kif);
        let shown = |syntax| atom(&r.head, &symbols, syntax).to_string();
        assert_eq!(shown(Syntax::Kif), "(p (f ?x 1) z)");
        assert_eq!(shown(Syntax::Rules), "p(f(?x, 1), z)");
    }

    #[test]
    fn rules_print_back_in_the_native_syntax() {
        let text = "p(X, Y) :- q(X), not r(X), Y = X + X * 2, (s ; t(Y)).";
        let (r, symbols) = first_rule(text, Syntax::Rules);
        assert_eq!(
            show_rule(&r, &symbols),
            "p(X, Y) :- q(X), not r(X), Y = (X + (X * 2)), (s ; t(Y))."
        );
        let (fact, symbols) = first_rule("terminal.", Syntax::Rules);
        assert_eq!(show_rule(&fact, &symbols), "terminal.");
    }
}
