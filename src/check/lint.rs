//! Lints for mistakes that leave a program valid but not the game meant.
//!
//! In: a [`Program`] that may still have errors. Out: warnings into the
//! [`Sink`]: `NEVER_PRODUCED` for a state fact read with `true` that no
//! `init` or `next` rule produces and a move read with `does` that no
//! `legal` rule allows (with the nearest name that exists, if one is within
//! two edits); `INCOMPLETE` for a game without `terminal`, a role without
//! `goal` and a player (not `random`) without `legal`; and, once the game
//! is grounded, `NEVER_PRODUCED` for a `true` or `does` literal that no
//! possible state fact or move matches ([`never_matched`]).
//! Holds: before grounding, names are compared by functor only (arity
//! mismatches are `ARITY`'s) and a head whose fluent or move is a variable
//! produces anything, which turns that lint off for the name space (the
//! generated `legal` of `turn ... using` has one); the ground lint compares
//! whole terms, and warns only where the name lint did not.

use super::Sink;
use super::walk::{body_atoms, functor};
use crate::diag::{Diagnostic, codes, suggest};
use crate::engine::Game;
use crate::gdl::{Names, Relation};
use crate::ground::{GTerm, TermId};
use crate::syntax::print::Show;
use crate::syntax::{Atom, Program, Span, Sym, Term, TermKind};
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

/// `NEVER_PRODUCED` on a grounded game: a `true` literal that no possible
/// state fact matches and a `does` literal that no role's move matches are
/// never true, whatever their heads look like (a literal with arithmetic
/// inside is not judged). Literals whose functor the name lint already
/// reported are left to it.
pub fn never_matched(program: &Program, game: &Game) -> Vec<Diagnostic> {
    let names = Names::new(&program.symbols);
    let sym = |r| names.sym(r);
    let made_facts = produced(program, &[sym(Relation::Init), sym(Relation::Next)], 0);
    let made_moves = produced(program, &[sym(Relation::Legal)], 1);
    let facts = game.possible_facts();
    let moves: Vec<(String, TermId)> = (0..game.role_count())
        .flat_map(|r| {
            (0..game.move_count(r) as u32).map(move |m| (game.role_name(r), game.move_term(r, m)))
        })
        .collect();
    let mut out = Vec::new();
    let mut warned = FxHashSet::default();
    let functors = |terms: &mut dyn Iterator<Item = TermId>| -> Vec<String> {
        let mut all: Vec<String> = terms
            .filter_map(|t| match game.terms.term(t) {
                GTerm::Sym(f) | GTerm::App(f, _) => Some(game.symbols.name(*f).to_string()),
                GTerm::Int(_) => None,
            })
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    };
    for rule in &program.rules {
        body_atoms(&rule.body, &mut |atom, _| {
            let (space, pattern) = match sym(Relation::True) == Some(atom.rel) {
                true => (&made_facts, atom.args.first()),
                false if sym(Relation::Does) == Some(atom.rel) => (&made_moves, atom.args.get(1)),
                false => return,
            };
            let Some(pattern) = pattern.filter(|p| !has_arithmetic(p)) else {
                return;
            };
            if let (Produced::Names(made), Some((name, _))) = (space, functor(pattern))
                && !made.contains(&name)
            {
                return; // reported by `never_produced`
            }
            let is_true = sym(Relation::True) == Some(atom.rel);
            let matched = match is_true {
                true => facts
                    .iter()
                    .any(|&t| game.terms.matches(pattern, t, &mut Vec::new())),
                false => moves.iter().any(|(role, t)| {
                    role_matches(program, atom, role)
                        && game.terms.matches(pattern, *t, &mut Vec::new())
                }),
            };
            if matched || !warned.insert(atom.span) {
                return;
            }
            let shown = Show {
                item: pattern,
                symbols: &program.symbols,
                syntax: program.syntax,
            };
            let (message, known) = match is_true {
                true => (
                    format!(
                        "state fact `{shown}` is read here but no state fact the game can reach \
                         matches it, so `true` never holds for it"
                    ),
                    functors(&mut facts.iter().copied()),
                ),
                false => (
                    format!(
                        "move `{shown}` is read here but no legal move of the game matches it, \
                         so no role ever makes it"
                    ),
                    functors(&mut moves.iter().map(|(_, t)| *t)),
                ),
            };
            let mut d = Diagnostic::warning(codes::NEVER_PRODUCED, atom.span, message);
            let written = functor(pattern).map(|(f, _)| program.symbols.name(f));
            if let Some(near) =
                written.and_then(|w| suggest::closest(w, known.iter().map(String::as_str)))
                && Some(near) != written
            {
                d = d.with_note(format!("did you mean `{near}`?"));
            }
            out.push(d);
        });
    }
    out
}

/// Whether the role of a `does` literal can be `role`.
fn role_matches(program: &Program, atom: &Atom, role: &str) -> bool {
    match atom.args.first().map(|t| &t.kind) {
        Some(TermKind::Const(c)) => program.symbols.name(*c) == role,
        _ => true,
    }
}

fn has_arithmetic(term: &Term) -> bool {
    match &term.kind {
        TermKind::Arith(..) => true,
        TermKind::App(_, args) => args.iter().any(has_arithmetic),
        TermKind::Var(_) | TermKind::Const(_) | TermKind::Int(_) => false,
    }
}

/// A cell of a track: its index, the cell and the place of its fact.
type TrackCell<'a> = (i64, &'a Term, Span);

/// `TRACK_SHAPE`: a track (the `track(Name, Index, Cell)` facts of a
/// `track` declaration) that ends on cells it visited already (a track may
/// pass its start again on a second lap that goes on to cells of its own,
/// as a home column, but one that ends in the same cells leads nowhere
/// new), and, where the program
/// states adjacency (`adjacent(From, Direction, To)` facts, as a `board`
/// declaration makes), consecutive cells that are not adjacent, unless
/// every cell adjacent to both lies on some track: a path round the end
/// of a cross's arm steps over the arm's middle cell, which is another
/// part of the path, but a cell left out of a row is on no track.
pub(super) fn track_shape(program: &Program, out: &mut Sink) {
    let Some(track) = program.symbols.get("track") else {
        return;
    };
    let adjacent_rel = program.symbols.get("adjacent");
    let mut adjacent: FxHashSet<(&Term, &Term)> = FxHashSet::default();
    let mut tracks: Vec<(&Term, Vec<TrackCell>)> = Vec::new();
    for rule in program.rules.iter().filter(|r| r.body.is_empty()) {
        match rule.head.args.as_slice() {
            [from, _, to] if Some(rule.head.rel) == adjacent_rel => {
                adjacent.insert((from, to));
            }
            [name, index, cell] if rule.head.rel == track => {
                let TermKind::Int(i) = index.kind else {
                    continue;
                };
                let at = match tracks.iter().position(|(n, _)| *n == name) {
                    Some(at) => at,
                    None => {
                        tracks.push((name, Vec::new()));
                        tracks.len() - 1
                    }
                };
                tracks[at].1.push((i, cell, rule.head.span));
            }
            _ => {}
        }
    }
    let on_a_track: FxHashSet<&Term> = (tracks.iter())
        .flat_map(|(_, cells)| cells.iter().map(|&(_, c, _)| c))
        .collect();
    let next_to = |a: &Term, b: &Term| adjacent.contains(&(a, b)) || adjacent.contains(&(b, a));
    // Two cells apart, with every cell between them on a track.
    let turns_round = |a: &Term, b: &Term| {
        let mut between = (adjacent.iter())
            .filter(|&&(x, _)| x == a)
            .map(|&(_, y)| y)
            .filter(|&y| next_to(y, b))
            .peekable();
        between.peek().is_some() && between.all(|y| on_a_track.contains(y))
    };
    let show = |t: &Term| {
        Show {
            item: t,
            symbols: &program.symbols,
            syntax: program.syntax,
        }
        .to_string()
    };
    for (name, mut cells) in tracks {
        cells.sort_by_key(|&(i, _, _)| i);
        let first_visit = |k: usize| !cells[..k].iter().any(|(_, c, _)| *c == cells[k].1);
        // The cells after the last one visited for the first time.
        let ending = (0..cells.len())
            .rev()
            .find(|&k| first_visit(k))
            .map_or(0, |k| k + 1);
        for (k, &(i, cell, span)) in cells.iter().enumerate() {
            if let Some(&(j, _, _)) =
                (cells[..k].iter().find(|(_, c, _)| *c == cell)).filter(|_| k >= ending)
            {
                out.push(Diagnostic::warning(
                    codes::TRACK_SHAPE,
                    span,
                    format!(
                        "track `{}` comes back to `{}`: index {i} is the cell of index {j}",
                        show(name),
                        show(cell)
                    ),
                ));
            }
            let Some(&(before, previous, _)) = k.checked_sub(1).map(|p| &cells[p]) else {
                continue;
            };
            if !adjacent.is_empty()
                && before + 1 == i
                && previous != cell
                && !next_to(previous, cell)
                && !turns_round(previous, cell)
            {
                out.push(
                    Diagnostic::warning(
                        codes::TRACK_SHAPE,
                        span,
                        format!(
                            "track `{}` skips from `{}` to `{}` (indexes {before} and {i}), which the board does not make adjacent",
                            show(name),
                            show(previous),
                            show(cell)
                        ),
                    )
                    .with_note("a track steps from a cell to an adjacent one; a cell left out or out of order is a typo"),
                );
            }
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
