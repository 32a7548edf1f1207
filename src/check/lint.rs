//! Lints for mistakes that leave a program valid but not the game meant.
//!
//! In: a [`Program`] that may still have errors. Out: warnings into the
//! [`Sink`]: `NEVER_PRODUCED` for a state fact read with `true` that no
//! `init` or `next` rule produces and a move read with `does` that no
//! `legal` rule allows (with the nearest name that exists, if one is within
//! two edits); `INCOMPLETE` for a game without `terminal`, a role without
//! `goal` and a player (not `random`) without `legal`.
//! Holds: names are compared by functor only (arity mismatches are
//! `ARITY`'s); a head whose fluent or move is a variable produces anything,
//! which turns the lint off for that name space.

use super::Sink;
use super::walk::{body_atoms, functor};
use crate::diag::{Diagnostic, codes, suggest};
use crate::gdl::{Names, Relation};
use crate::syntax::{Program, Sym, TermKind};
use rustc_hash::FxHashSet;

/// What the heads of one reserved relation produce in one argument.
enum Produced {
    /// Some head has a variable there: anything may be produced.
    Anything,
    Names(FxHashSet<Sym>),
}

fn produced(program: &Program, heads: &[Option<Sym>], arg: usize) -> Produced {
    let mut names = FxHashSet::default();
    for rule in &program.rules {
        if !heads.contains(&Some(rule.head.rel)) {
            continue;
        }
        match rule.head.args.get(arg).map(|t| (&t.kind, functor(t))) {
            Some((_, Some((name, _)))) => {
                names.insert(name);
            }
            Some((TermKind::Var(_), _)) => return Produced::Anything,
            _ => {}
        }
    }
    Produced::Names(names)
}

/// `NEVER_PRODUCED` for `true` against `init`/`next` and for `does`
/// against `legal`.
pub(super) fn never_produced(program: &Program, out: &mut Sink) {
    let names = Names::new(&program.symbols);
    let sym = |r| names.sym(r);
    let spaces = [
        (
            sym(Relation::True),
            0,
            produced(program, &[sym(Relation::Init), sym(Relation::Next)], 0),
            "state fact",
            "no `init` or `next` rule produces it, so `true` never holds for it",
        ),
        (
            sym(Relation::Does),
            1,
            produced(program, &[sym(Relation::Legal)], 1),
            "move",
            "no `legal` rule allows it, so no role ever makes it",
        ),
    ];
    for (reader, arg, made, what, why) in &spaces {
        let (Some(reader), Produced::Names(made)) = (reader, made) else {
            continue;
        };
        let mut sorted: Vec<&str> = made.iter().map(|s| program.symbols.name(*s)).collect();
        sorted.sort_unstable();
        let mut warned = FxHashSet::default();
        for rule in &program.rules {
            body_atoms(&rule.body, &mut |atom, _| {
                let Some((name, _)) = atom.args.get(*arg).and_then(functor) else {
                    return;
                };
                if atom.rel != *reader || made.contains(&name) || !warned.insert(name) {
                    return;
                }
                let shown = program.symbols.name(name);
                let mut d = Diagnostic::warning(
                    codes::NEVER_PRODUCED,
                    atom.span,
                    format!("{what} `{shown}` is read here but {why}"),
                );
                if let Some(near) = suggest::closest(shown, sorted.iter().copied()) {
                    d = d.with_note(format!("did you mean `{near}`?"));
                }
                out.push(d);
            });
        }
    }
}

/// `INCOMPLETE`: no `terminal`; a player (not `random`) without `goal` or
/// without `legal`. Only for a program with roles (else `NO_ROLES` says it all).
pub(super) fn incomplete(program: &Program, out: &mut Sink) {
    let names = Names::new(&program.symbols);
    let is = |rule: &crate::syntax::Rule, r| names.sym(r) == Some(rule.head.rel);
    let mut roles: Vec<Sym> = Vec::new();
    for rule in program.rules.iter().filter(|r| is(r, Relation::Role)) {
        if let Some(TermKind::Const(c)) = rule.head.args.first().map(|t| &t.kind)
            && !roles.contains(c)
        {
            roles.push(*c);
        }
    }
    if roles.is_empty() {
        return;
    }
    if !program.rules.iter().any(|r| is(r, Relation::Terminal)) {
        out.push(
            Diagnostic::global_warning(
                codes::INCOMPLETE,
                "the game has no `terminal` rule: it never ends",
            )
            .with_note("say when the game is over, e.g. `terminal :- true winner(_).`"),
        );
    }
    // The roles a relation's first argument covers (`None`: a variable).
    let covered = |relation| -> Option<FxHashSet<Sym>> {
        let mut set = FxHashSet::default();
        for rule in program.rules.iter().filter(|r| is(r, relation)) {
            match rule.head.args.first().map(|t| &t.kind) {
                Some(TermKind::Const(c)) => {
                    set.insert(*c);
                }
                _ => return None,
            }
        }
        Some(set)
    };
    let random = program.symbols.get("random");
    // Nature (`random`) needs neither a goal nor a move of its own.
    for (relation, message) in [
        (
            Relation::Goal,
            "has no `goal` rule: it gets no result at the end",
        ),
        (Relation::Legal, "has no `legal` rule: it can never move"),
    ] {
        let Some(set) = covered(relation) else {
            continue;
        };
        for role in &roles {
            if !set.contains(role) && Some(*role) != random {
                let name = program.symbols.name(*role);
                out.push(Diagnostic::global_warning(
                    codes::INCOMPLETE,
                    format!("role `{name}` {message}"),
                ));
            }
        }
    }
}
