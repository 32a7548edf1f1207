//! Static checks of a program, before grounding.
//!
//! In: a [`Program`] from either syntax. Out: every error and warning of the
//! program at once ([`check`]), and its sizes and strata ([`analyse`]) for
//! `tabula check --explain`.
//! Holds: each check has its own code in [`crate::diag::codes`] and points
//! at the text it is about; every pass is iterative and close to linear in
//! the size of the program, so a huge or deeply nested input cannot hang or
//! overflow the stack. The checks:
//! - `ARITY` ([`arity`]): a relation, fluent or move with two numbers of
//!   arguments; a reserved relation with the wrong number.
//! - `FACT_VARIABLE`, `UNSAFE` ([`safety`]): variables not bound by a
//!   positive literal.
//! - warning `NOT_STRATIFIED` ([`graph`]): recursion through negation by
//!   relation names (the grounder refuses it with `NEGATIVE_CYCLE` if a
//!   ground atom depends on its own negation); `AGGREGATE_CYCLE`.
//! - `RESERVED`: `true`/`does` defined by rules, `init`/`next` read in a
//!   body, and reserved relations depending on `true`/`does` where GDL
//!   forbids it.
//! - `NO_ROLES`: no `role` fact.
//! - warning `UNDEFINED`: a relation used but never defined.
//! - warnings `NEVER_PRODUCED`, `INCOMPLETE` ([`lint`]): a state fact or
//!   move read but never produced (only for a program without errors); no
//!   `terminal`, a role without `goal` or
//!   `legal` ([`incomplete`], asked for separately once the program grounds);
//!   `NEVER_PRODUCED` on the ground program ([`never_matched`], likewise).

mod arity;
mod graph;
mod lint;
pub use lint::never_matched;
mod safety;
pub mod simulate;
pub(crate) mod walk;

use crate::diag::{Diagnostic, codes, suggest};
use crate::gdl::{KIF_CONNECTIVES, Names, Relation};
use crate::syntax::{Program, Sym, Syntax, TermKind};
use rustc_hash::{FxHashMap, FxHashSet};
use walk::body_atoms;

/// Every error and warning of a program, in source order (diagnostics
/// without a place last); at most [`MAX_PER_CODE`] of each code.
pub fn check(program: &Program) -> Vec<Diagnostic> {
    analyse(program).diagnostics
}

/// Diagnostics kept per code: past this many, a pathological input (a 10 MB
/// file of bad facts) is only counted, so memory stays proportionate.
pub const MAX_PER_CODE: usize = 500;

/// What [`analyse`] finds: the diagnostics and the program's shape.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics found beyond [`MAX_PER_CODE`] and not kept.
    pub omitted: usize,
    pub summary: Summary,
}

/// Where the checks put their diagnostics.
#[derive(Default)]
struct Sink {
    diagnostics: Vec<Diagnostic>,
    per_code: FxHashMap<&'static str, usize>,
    omitted: usize,
}

impl Sink {
    fn push(&mut self, d: Diagnostic) {
        let n = self.per_code.entry(d.code.as_str()).or_default();
        if *n < MAX_PER_CODE {
            *n += 1;
            self.diagnostics.push(d);
        } else {
            self.omitted += 1;
        }
    }
}

/// The sizes of a program and its stratification.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Distinct relation names, reserved ones included.
    pub relations: usize,
    /// Rules with an empty body.
    pub facts: usize,
    /// Rules with a body.
    pub rules: usize,
    /// The relations of each stratum, lowest first: a relation depends
    /// negatively only on lower strata, positively on its own or lower ones
    /// (a stratum that recurses through negation by name, `NOT_STRATIFIED`,
    /// is stratified on ground atoms instead).
    /// `true` and `does` are inputs and belong to none.
    pub strata: Vec<Vec<Sym>>,
}

/// `INCOMPLETE` warnings: no `terminal`, a role without `goal` or `legal`.
/// Asked for only once a program has grounded (on a program with errors
/// they would only be noise).
pub fn incomplete(program: &Program) -> Vec<Diagnostic> {
    let mut out = Sink::default();
    lint::incomplete(program, &mut out);
    out.diagnostics
}

/// Sorts diagnostics in source order, those without a place last; stable,
/// so diagnostics at one place keep the order of the checks.
pub fn in_source_order(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| {
        d.span
            .map_or((1, Default::default()), |s| (0, (s.file, s.start)))
    });
}

/// Runs every check and measures the program.
pub fn analyse(program: &Program) -> Analysis {
    let mut out = Sink::default();
    arity::check(program, &mut out);
    safety::check(program, &mut out);
    reserved_places(program, &mut out);
    let graph = graph::Graph::new(program);
    let strata = graph.stratify(program, &mut out);
    graph.reserved_dependencies(program, &mut out);
    let relations = roles_and_undefined(program, &mut out);
    if !out.diagnostics.iter().any(Diagnostic::is_error) {
        lint::never_produced(program, &mut out);
        lint::track_shape(program, &mut out);
    }
    let mut diagnostics = out.diagnostics;
    in_source_order(&mut diagnostics);
    let facts = program.rules.iter().filter(|r| r.body.is_empty()).count();
    Analysis {
        diagnostics,
        omitted: out.omitted,
        summary: Summary {
            relations,
            facts,
            rules: program.rules.len() - facts,
            strata,
        },
    }
}

/// `RESERVED` errors that need no dependency graph: `true` and `does` (and
/// in KIF `distinct`, `or`, `not`) in a head; `init` and `next` in a body.
fn reserved_places(program: &Program, out: &mut Sink) {
    let names = Names::new(&program.symbols);
    let sym = |relation| names.sym(relation);
    let inputs = [
        (
            sym(Relation::True),
            "`true` cannot be defined by a rule: it holds the current state, which `init` and `next` define",
        ),
        (
            sym(Relation::Does),
            "`does` cannot be defined by a rule: it holds the moves the players choose",
        ),
    ];
    let builtins = match program.syntax {
        Syntax::Kif => KIF_CONNECTIVES.map(|name| program.symbols.get(name)),
        Syntax::Rules => [None; 3],
    };
    let outputs = [
        (
            sym(Relation::Init),
            "`init` cannot be used in a body: it only defines the initial state; read a state with `true`",
        ),
        (
            sym(Relation::Next),
            "`next` cannot be used in a body: it only defines the next state; read a state with `true`",
        ),
    ];
    for rule in &program.rules {
        let head = rule.head.rel;
        if let Some((_, message)) = inputs.iter().find(|(s, _)| *s == Some(head)) {
            out.push(Diagnostic::error(codes::RESERVED, rule.head.span, *message));
        } else if builtins.contains(&Some(head)) {
            out.push(Diagnostic::error(
                codes::RESERVED,
                rule.head.span,
                format!(
                    "`{}` is built into GDL and cannot be defined by a rule",
                    program.symbols.name(head)
                ),
            ));
        }
        body_atoms(&rule.body, &mut |atom, _| {
            if let Some((_, message)) = outputs.iter().find(|(s, _)| *s == Some(atom.rel)) {
                out.push(Diagnostic::error(codes::RESERVED, atom.span, *message));
            }
        });
    }
}

/// `NO_ROLES` and `UNDEFINED`; returns the number of distinct relations.
fn roles_and_undefined(program: &Program, out: &mut Sink) -> usize {
    let defined: FxHashSet<Sym> = program.rules.iter().map(|r| r.head.rel).collect();
    let names = Names::new(&program.symbols);
    let role = names.sym(Relation::Role);
    if !role.is_some_and(|r| defined.contains(&r)) {
        let message = if program.rules.is_empty() {
            "the game has no roles: the file has no rules at all"
        } else {
            "the game has no roles"
        };
        out.push(
            Diagnostic::global(codes::NO_ROLES, message).with_note(match program.syntax {
                Syntax::Kif => "declare each player with a fact such as `(role white)`",
                Syntax::Rules => "declare the players, e.g. `roles white, black.`",
            }),
        );
    }
    let inputs = [names.sym(Relation::True), names.sym(Relation::Does)];
    let mut defined_names: Vec<&str> = defined.iter().map(|s| program.symbols.name(*s)).collect();
    defined_names.sort_unstable();
    let fluents = state_fact_names(program, &names);
    let mut used = defined.clone();
    let mut warned = FxHashSet::default();
    for rule in &program.rules {
        body_atoms(&rule.body, &mut |atom, _| {
            used.insert(atom.rel);
            if !defined.contains(&atom.rel)
                && !inputs.contains(&Some(atom.rel))
                && warned.insert(atom.rel)
            {
                let name = program.symbols.name(atom.rel);
                let mut d = Diagnostic::warning(
                    codes::UNDEFINED,
                    atom.span,
                    format!(
                        "relation `{name}` is used but never defined: no fact or rule concludes it, so it is always false"
                    ),
                );
                if let Some(&with_args) = fluents.get(&atom.rel) {
                    let read = match (program.syntax, with_args) {
                        (Syntax::Kif, true) => format!("(true ({name} ...))"),
                        (Syntax::Kif, false) => format!("(true {name})"),
                        (Syntax::Rules, true) => format!("true {name}(...)"),
                        (Syntax::Rules, false) => format!("true {name}"),
                    };
                    d = d.with_note(format!(
                        "`{name}` is a state fact (`init`/`next` make it): read it with `{read}`"
                    ));
                } else if let Some(near) = suggest::closest(name, defined_names.iter().copied()) {
                    d = d.with_note(format!("did you mean `{near}`?"));
                }
                out.push(d);
            }
        });
    }
    used.len()
}

/// The names of the state facts (what `init` and `next` heads make), each
/// with whether it takes arguments.
fn state_fact_names(program: &Program, names: &Names) -> FxHashMap<Sym, bool> {
    let makers = [names.sym(Relation::Init), names.sym(Relation::Next)];
    (program.rules.iter())
        .filter(|r| makers.contains(&Some(r.head.rel)))
        .filter_map(|r| match &r.head.args.first()?.kind {
            TermKind::Const(f) => Some((*f, false)),
            TermKind::App(f, _) => Some((*f, true)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests;
