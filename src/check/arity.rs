//! Arity consistency.
//!
//! In: a program. Out: an `ARITY` error for every relation used with a
//! second number of arguments (at its first use with that number, with a
//! label at the first use with the other), and for every reserved relation
//! used with a number of arguments GDL does not give it.
//! Holds: three separate name spaces are checked: relations; fluents (the
//! argument of `init`, `true`, `next`, `base`); moves (the second argument of
//! `legal`, `does`, `input`). Function symbols elsewhere inside terms are not
//! checked: GDL games routinely reuse a constructor name in unrelated places.

use super::Sink;
use super::walk::{body_atoms, functor};
use crate::diag::{Diagnostic, codes};
use crate::syntax::{Atom, Program, Span, Sym};
use indexmap::IndexMap;
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Relation,
    Fluent,
    Move,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Relation => "relation",
            Kind::Fluent => "fluent",
            Kind::Move => "move",
        }
    }
}

/// A reserved relation's arity, what its arguments are, and which argument
/// (if any) is a fluent or a move.
type Signature = (usize, &'static str, Option<(usize, Kind)>);

/// The reserved relations and their signatures.
const RESERVED: &[(&str, Signature)] = &[
    ("role", (1, "a role", None)),
    ("init", (1, "a fluent", Some((0, Kind::Fluent)))),
    ("true", (1, "a fluent", Some((0, Kind::Fluent)))),
    ("next", (1, "a fluent", Some((0, Kind::Fluent)))),
    ("base", (1, "a fluent", Some((0, Kind::Fluent)))),
    ("legal", (2, "a role and a move", Some((1, Kind::Move)))),
    ("does", (2, "a role and a move", Some((1, Kind::Move)))),
    ("input", (2, "a role and a move", Some((1, Kind::Move)))),
    ("goal", (2, "a role and a value", None)),
    ("terminal", (0, "none", None)),
    ("sees", (2, "a role and a percept", None)),
];

pub fn arguments(n: usize) -> String {
    match n {
        1 => "1 argument".to_string(),
        n => format!("{n} arguments"),
    }
}

pub(super) fn check(program: &Program, out: &mut Sink) {
    let reserved: FxHashMap<Sym, Signature> = RESERVED
        .iter()
        .filter_map(|&(name, sig)| program.symbols.get(name).map(|s| (s, sig)))
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
        Some(&(n, what, inner)) => {
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
                note(kind, f, arity, a.args[i].span);
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
