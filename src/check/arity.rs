//! Arity consistency.
//!
//! In: a program. Out: an `ARITY` error for every relation used with a
//! second number of arguments (at its first use with that number, with a
//! label at the first use with the other), and for every reserved relation
//! used with a number of arguments GDL does not give it.
//! Holds: three separate name spaces are checked: relations; fluents (the
//! argument of `init`, `true`, `next`, `base`); moves (the second argument of
//! `legal`, `does`, `input`), as the table [`crate::gdl::RESERVED`] says. Function symbols elsewhere inside terms are not
//! checked: GDL games routinely reuse a constructor name in unrelated places.

use super::Sink;
use super::walk::{body_atoms, functor};
use crate::diag::{Diagnostic, codes};
use crate::gdl::{Inner, RESERVED, Reserved};
use crate::syntax::{Atom, Program, Span, Sym};
use indexmap::IndexMap;
use rustc_hash::FxHashMap;

/// A name space of names with an arity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Relation,
    Inner(Inner),
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Relation => "relation",
            Kind::Inner(Inner::Fluent) => "fluent",
            Kind::Inner(Inner::Move) => "move",
        }
    }
}

pub fn arguments(n: usize) -> String {
    match n {
        1 => "1 argument".to_string(),
        n => format!("{n} arguments"),
    }
}

pub(super) fn check(program: &Program, out: &mut Sink) {
    let reserved: FxHashMap<Sym, &Reserved> = RESERVED
        .iter()
        .filter(|row| row.gdl)
        .filter_map(|row| program.symbols.get(row.name).map(|s| (s, row)))
        .collect();
    // For each name, the distinct arities seen, each with its first place.
    let mut seen: IndexMap<(Kind, Sym), Vec<(usize, Span)>> = IndexMap::new();
    let mut note = |kind: Kind, name: Sym, arity: usize, span: Span| {
        let arities = seen.entry((kind, name)).or_default();
        if !arities.iter().any(|&(a, _)| a == arity) {
            arities.push((arity, span));
        }
    };
    let mut atom = |a: &Atom| match reserved.get(&a.rel) {
        Some(&&Reserved {
            arity: n,
            arguments: what,
            inner,
            ..
        }) => {
            if a.args.len() != n {
                let name = program.symbols.name(a.rel);
                let message = if n == 0 {
                    format!(
                        "`{name}` takes no arguments, but here it has {}",
                        a.args.len()
                    )
                } else {
                    format!(
                        "`{name}` takes {} ({what}), but here it has {}",
                        arguments(n),
                        a.args.len()
                    )
                };
                out.push(Diagnostic::error(codes::ARITY, a.span, message));
            } else if let Some((i, kind)) = inner
                && let Some((f, arity)) = functor(&a.args[i])
            {
                note(Kind::Inner(kind), f, arity, a.args[i].span);
            }
        }
        None => note(Kind::Relation, a.rel, a.args.len(), a.span),
    };
    for rule in &program.rules {
        atom(&rule.head);
        body_atoms(&rule.body, &mut |a, _| atom(a));
    }
    for ((kind, name), arities) in &seen {
        let Some(&(first, first_span)) = arities.first() else {
            continue;
        };
        let name = program.symbols.name(*name);
        for &(arity, span) in &arities[1..] {
            out.push(
                Diagnostic::error(
                    codes::ARITY,
                    span,
                    format!(
                        "{} `{name}` is used with {} here but with {} elsewhere",
                        kind.noun(),
                        arguments(arity),
                        arguments(first)
                    ),
                )
                .with_label(
                    first_span,
                    format!("`{name}` is used with {} here", arguments(first)),
                ),
            );
        }
    }
}
