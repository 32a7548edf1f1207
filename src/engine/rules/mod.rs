//! The rule evaluator: answers a state's queries from the rules as written,
//! for games too large to ground whole (`--engine rules`).
//!
//! In: a checked [`Program`]. Out: [`Rules`] (immutable, shared between
//! threads: the rules prepared as patterns, each relation's level, the game's
//! base facts and moves) and, per machine, an [`Evaluator`] that answers
//! terminal, legal moves, weights, goals and next states.
//! Holds: evaluation itself needs no domain (a rule's variables are bound
//! by its positive body as it runs); only a [`State`](super::State)'s bits
//! and the move indices do: every base fact and every move, numbered once
//! per game. They come from the positive dependency cone of `role`,
//! `init`, `legal` and `next` with negation ignored: its relaxed model
//! grounded ([`domain`]; relations read only under `not` with every
//! argument bound, a check that a move leaves no piece attacked, stay out
//! of it) or, when that is too large, one set of values per argument
//! position ([`positions`]; see [`build`] for the order). Queries are
//! solved top-down
//! with a table per call pattern ([`eval`]); bodies are ordered per pattern
//! of bound arguments ([`plan`]). Aggregates are rewritten as the grounder
//! rewrites them; an aggregate's value relation is folded from the complete
//! table of its facts per binding of its shared variables ([`eval`]). Every
//! evaluation is bounded by
//! [`RuleLimits`], so no input hangs or exhausts memory.

mod domain;
mod eval;
mod facts;
mod machine;
mod plan;
mod positions;

use crate::diag::{Diagnostic, codes};
use crate::gdl;
use crate::gdl::{Names, Relation};
use crate::ground::aggregate::{self, AggSpec};
use crate::ground::prepare::{self, Prepared, RelKey};
use crate::ground::{GTerm, GroundStats, Limits, TermId, TermTable, estimate};
use crate::syntax::{AggOp, Atom, Literal, Program, Rule, Sym, Symbols, Syntax};
use domain::Domain;
use eval::{Evaluator, Stop};
pub use machine::RuleMachine;
use rustc_hash::FxHashMap;

/// Bounds on one evaluation (a state's view, its goals or one next state).
#[derive(Clone, Copy, Debug)]
pub struct RuleLimits {
    /// Answers held in the tables of one evaluation, in all (those of the
    /// static relations, of the state and of the moves being made).
    pub max_answers: usize,
    /// Nested calls: the depth of the evaluator's own recursion.
    pub max_depth: usize,
    /// Candidate facts tried in one evaluation.
    pub max_work: u64,
    /// Terms made while evaluating (arithmetic, built heads) per machine.
    pub max_terms: usize,
}

impl Default for RuleLimits {
    fn default() -> RuleLimits {
        RuleLimits {
            max_answers: 4_000_000,
            max_depth: 2_000,
            max_work: 400_000_000,
            max_terms: 4_000_000,
        }
    }
}

/// How a relation's answers change: never, with the state, or with the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Static = 0,
    State = 1,
    Move = 2,
}

/// The prepared rules of a game and its domains.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The relations, numbered; `rel_ids` maps (name, arity) to the number.
    rels: Vec<RelKey>,
    rel_ids: FxHashMap<RelKey, u32>,
    level: Vec<Level>,
    /// The rules of each relation (its head), as indices into `rules`.
    by_head: Vec<Vec<u32>>,
    rules: Vec<Prepared>,
    /// The relation of each positive, then negative literal of each rule.
    pos_rels: Vec<Vec<u32>>,
    neg_rels: Vec<Vec<u32>>,
    /// The aggregates, and the aggregate of each `_aggv_K` relation.
    pub(crate) aggs: Vec<Agg>,
    pub(crate) agg_of: FxHashMap<u32, usize>,
    /// Whether each relation is an aggregate's guard `_aggb_K`.
    guard: Vec<bool>,
    /// Relation numbers of the reserved relations the evaluator reads.
    pub(crate) special: Special,
    pub(crate) limits: RuleLimits,
}

/// An aggregate: `_aggv_K(s, n)` holds when `n` is the aggregate of the
/// answers of `_agg_K(s, ..)` (their last argument is the value, but for
/// `count`), for each `s` of `_aggs_K`.
#[derive(Clone, Debug)]
pub(crate) struct Agg {
    pub op: AggOp,
    pub facts: u32,
    pub facts_arity: usize,
    pub domain: u32,
    /// How many leading arguments are the shared variables.
    pub shared: usize,
}

/// The rules the evaluator runs to answer each query of a state.
#[derive(Clone, Copy, Debug, Default)]
pub struct QueryRules {
    pub terminal: usize,
    pub legal: usize,
    pub weight: usize,
    pub next: usize,
    pub goal: usize,
    pub aggregates: usize,
}

/// The reserved relations the evaluator treats specially or asks about.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Special {
    pub truth: Option<u32>,
    pub does: Option<u32>,
    pub terminal: Option<u32>,
    pub legal: Option<u32>,
    pub next: Option<u32>,
    pub goal: Option<u32>,
    pub weight: Option<u32>,
}

/// What every evaluator of one game shares: the rules, the terms they and
/// the domains name, the base facts (numbered as a
/// [`State`](super::State)'s bits) and every role's moves.
#[derive(Clone, Debug)]
pub struct RuleGame {
    pub rules: Rules,
    pub terms: TermTable,
    pub symbols: Symbols,
    pub syntax: Syntax,
    pub base: Vec<TermId>,
    pub base_index: FxHashMap<TermId, u32>,
    pub roles: Vec<TermId>,
    /// Per role, its moves by index, and the index of each move.
    pub move_terms: Vec<Vec<TermId>>,
    pub moves: Vec<FxHashMap<TermId, u32>>,
    /// The index of the chance role `random`, if the game has one.
    pub random: Option<usize>,
}

/// A game ready for the rule evaluator.
pub struct Built {
    pub game: RuleGame,
    /// The base facts of the initial state.
    pub init: Vec<u32>,
    /// The sizes of the domains' grounding.
    pub stats: GroundStats,
}

/// Prepares a checked program for the rule evaluator: finds its domains,
/// prepares the rules, and asks them for the roles and the initial state.
///
/// The domains, most precise first: the relaxed model within a quarter of
/// the grounder's `limits` ([`domain`]); else the domains per argument
/// position ([`positions`]) if they stay within a sixteenth of the limits
/// (a game whose relaxed model is large because a rule joins independent
/// facts); else the slimmed relaxed models; else the domains per argument
/// position within the whole limits. The order keeps the coarse domains
/// per position from the games they would swell (a game of 20,000 moves
/// in the slimmed relaxed model has 1.5 million per position).
///
/// The relaxed models are grounded within the first look
/// ([`estimate::FIRST_LOOK`] steps) before the whole `limits`: a model
/// that blows up (one exponential in its rules' depth) is found in a tenth of a second instead of at the atom limit,
/// as when the default engine builds the domains.
pub fn build(program: &Program, limits: &Limits) -> Result<Built, Vec<Diagnostic>> {
    let first_look = Limits {
        max_effort: limits.max_effort.min(estimate::FIRST_LOOK),
        ..*limits
    };
    if first_look.max_effort < limits.max_effort {
        match build_within(program, &first_look, true) {
            Err(Unbuilt::OverBudget(_)) => {}
            built => return built.map_err(Unbuilt::errors),
        }
    }
    build_within(program, limits, false).map_err(Unbuilt::errors)
}

/// Why [`build_within`] built nothing, with the errors of the last domain
/// tried.
enum Unbuilt {
    Failed(Vec<Diagnostic>),
    /// A relaxed model stopped at the limits' effort, and the domains per
    /// position within the whole limits were left for the next attempt.
    OverBudget(Vec<Diagnostic>),
}

impl Unbuilt {
    fn errors(self) -> Vec<Diagnostic> {
        match self {
            Unbuilt::Failed(errors) | Unbuilt::OverBudget(errors) => errors,
        }
    }
}

/// [`build`] within `limits`. With `first_look`, a relaxed model stopped
/// at the effort ends the attempt before the domains per position within
/// the whole limits (the costliest, and the same in the next attempt).
fn build_within(program: &Program, limits: &Limits, first_look: bool) -> Result<Built, Unbuilt> {
    let mut over_budget = false;
    if let Ok((domain, terms, symbols)) = domain::ground_domain(program, &domain::quick(limits))
        .map_err(|e| over_budget |= e.over_budget)
    {
        return Ok(assemble(prepare_game(program, terms, symbols)?, domain)?);
    }
    let symbols = program.symbols.clone();
    let mut game = prepare_game(program, TermTable::default(), symbols)?;
    if let Ok(domain) = positions::domain_by_position(&mut game, &positions::small(limits), false) {
        return Ok(assemble(game, domain)?);
    }
    let errors = match domain::ground_slimmed(program, limits) {
        Ok((domain, terms, symbols)) => {
            return Ok(assemble(prepare_game(program, terms, symbols)?, domain)?);
        }
        Err(e) if first_look && (over_budget || e.over_budget) => {
            return Err(Unbuilt::OverBudget(e.diagnostics));
        }
        Err(e) => e.diagnostics,
    };
    match positions::domain_by_position(&mut game, limits, true) {
        Ok(domain) => Ok(assemble(game, domain)?),
        Err(why) => Err(Unbuilt::Failed(with_note(errors, &why))),
    }
}

impl From<Vec<Diagnostic>> for Unbuilt {
    fn from(errors: Vec<Diagnostic>) -> Unbuilt {
        Unbuilt::Failed(errors)
    }
}

/// The errors of the last domain tried, with why the domains per argument
/// position could not be used either.
fn with_note(mut errors: Vec<Diagnostic>, why: &str) -> Vec<Diagnostic> {
    if let Some(last) = errors.pop() {
        let note = format!("the domains per argument position could not be used either: {why}");
        errors.push(last.with_note(note));
    }
    errors
}

/// The game's rules prepared over `terms` and `symbols` (those of its
/// domain's grounding, or new ones), without base facts, roles or moves.
fn prepare_game(
    program: &Program,
    mut terms: TermTable,
    mut symbols: Symbols,
) -> Result<RuleGame, Vec<Diagnostic>> {
    let (program_rules, specs, guards) = rewrite_aggregates(program, &mut symbols);
    let names = Names::new(&symbols);
    let mut prepared = Vec::new();
    let mut errors = Vec::new();
    for rule in &program_rules {
        match prepare::prepare(rule, &mut terms) {
            Ok(p) => prepared.extend(p),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let rules = Rules::new(prepared, &specs, &guards, &names)?;
    Ok(RuleGame {
        rules,
        terms,
        symbols,
        syntax: program.syntax,
        base: Vec::new(),
        base_index: FxHashMap::default(),
        roles: Vec::new(),
        move_terms: Vec::new(),
        moves: Vec::new(),
        random: None,
    })
}

/// A prepared game with its domain: the base facts numbered, the roles
/// and the initial state asked of the rules, every role's moves indexed.
fn assemble(mut game: RuleGame, domain: Domain) -> Result<Built, Vec<Diagnostic>> {
    let names = Names::new(&game.symbols);
    game.base_index = (domain.base.iter().enumerate())
        .map(|(i, &t)| (t, i as u32))
        .collect();
    game.base = domain.base;
    let (roles, init) = roles_and_init(&game, &names)
        .map_err(|stop| vec![Diagnostic::global(codes::GROUNDING, stop.to_string())])?;
    if roles.is_empty() {
        return Err(vec![Diagnostic::global(
            codes::NO_ROLES,
            "the game declares no roles",
        )]);
    }
    for &role in &roles {
        let mut terms = Vec::new();
        let mut index = FxHashMap::default();
        for &(r, m) in &domain.moves {
            if r == role && !index.contains_key(&m) {
                index.insert(m, terms.len() as u32);
                terms.push(m);
            }
        }
        game.move_terms.push(terms);
        game.moves.push(index);
    }
    game.random = roles.iter().position(
        |&r| matches!(game.terms.term(r), GTerm::Sym(s) if game.symbols.name(*s) == gdl::RANDOM),
    );
    game.roles = roles;
    Ok(Built {
        game,
        init,
        stats: domain.stats,
    })
}

/// The roles, in the order their rules give them, and the base facts of
/// the initial state.
fn roles_and_init(game: &RuleGame, names: &Names) -> Result<(Vec<TermId>, Vec<u32>), Stop> {
    let mut eval = Evaluator::new(game, game.terms.clone());
    eval.load(&vec![0; game.base.len().div_ceil(64).max(1)]);
    let mut ask = |rel: Relation| match names.sym(rel).and_then(|s| game.rules.relation((s, 1))) {
        Some(r) => eval.ask(r, &[None]),
        None => Ok(Vec::new()),
    };
    let roles = ask(Relation::Role)?;
    let init = ask(Relation::Init)?
        .iter()
        .filter_map(|t| game.base_index.get(t).copied())
        .collect();
    Ok((roles, init))
}

/// The program's rules with each aggregate rewritten as the grounder does
/// ([`aggregate::rewrite`]: `_agg_K` facts, `_aggs_K` bindings and the
/// `_aggv_K` literal), the new relation names interned in `symbols` (the
/// domain's grounding named its own copies of them), and per aggregate its
/// guard relation.
///
/// One change: a `_agg_K` rule keeps only the aggregate's own body, led by
/// the guard `_aggb_K(S)` instead of the literals outside the braces that
/// the grounder adds to bind the shared variables `S`. The guard has no
/// rules: it holds when its arguments are bound ([`Rules::is_guard`]), and
/// the evaluator calls `_agg_K` with `S` bound. For those the two rules
/// agree wherever the aggregate's rule can hold (its outer literals then
/// hold); without the outer literals, a rule that recurses through them
/// (`reach(Y) :- reach(X), edge(X, Y), N = count { edge(Y, Z) }`, which the
/// checker accepts) does not make the aggregate wait on itself.
fn rewrite_aggregates(
    program: &Program,
    symbols: &mut Symbols,
) -> (Vec<Rule>, Vec<AggSpec>, Vec<RelKey>) {
    let (rewritten, mut specs) = aggregate::rewrite(program);
    // The aggregates in the order `rewrite` numbers them: rule, then body.
    let inner_lens: Vec<usize> = (program.rules.iter())
        .flat_map(|rule| &rule.body)
        .filter_map(|lit| match lit {
            Literal::Agg(agg) => Some(agg.body.len()),
            _ => None,
        })
        .collect();
    let known = program.symbols.len();
    let adopt = |s: Sym, symbols: &mut Symbols| match (s.0 as usize) < known {
        true => s,
        false => symbols.intern(rewritten.symbols.name(s)),
    };
    let guards: Vec<RelKey> = (0..specs.len())
        .map(|k| (symbols.intern(&format!("_aggb_{k}")), specs[k].shared))
        .collect();
    let mut rules = rewritten.rules.clone();
    for rule in &mut rules {
        let head = (rule.head.rel, rule.head.args.len());
        let aggregate = specs.iter().position(|spec| spec.facts == head);
        rule.head.rel = adopt(rule.head.rel, symbols);
        for lit in &mut rule.body {
            if let Literal::Pos(atom) = lit {
                atom.rel = adopt(atom.rel, symbols);
            }
        }
        if let Some(k) = aggregate {
            let guard = Atom {
                rel: guards[k].0,
                args: rule.head.args[..guards[k].1].to_vec(),
                span: rule.head.span,
            };
            rule.body
                .splice(..rule.body.len() - inner_lens[k], [Literal::Pos(guard)]);
        }
    }
    for spec in &mut specs {
        for rel in [&mut spec.facts, &mut spec.domain, &mut spec.values] {
            rel.0 = adopt(rel.0, symbols);
        }
    }
    (rules, specs, guards)
}

impl Rules {
    fn new(
        rules: Vec<Prepared>,
        specs: &[AggSpec],
        guards: &[RelKey],
        names: &Names,
    ) -> Result<Rules, Vec<Diagnostic>> {
        let mut r = Rules {
            rels: Vec::new(),
            rel_ids: FxHashMap::default(),
            level: Vec::new(),
            by_head: Vec::new(),
            pos_rels: Vec::new(),
            neg_rels: Vec::new(),
            aggs: Vec::new(),
            agg_of: FxHashMap::default(),
            guard: Vec::new(),
            rules: Vec::new(),
            special: Special::default(),
            limits: RuleLimits::default(),
        };
        for rule in &rules {
            let head = r.rel(rule.head.rel);
            let pos = rule.pos.iter().map(|a| r.rel(a.rel)).collect();
            let neg = rule.neg.iter().map(|a| r.rel(a.rel)).collect();
            r.by_head[head as usize].push(r.pos_rels.len() as u32);
            r.pos_rels.push(pos);
            r.neg_rels.push(neg);
        }
        r.rules = rules;
        for spec in specs {
            let agg = Agg {
                op: spec.op,
                facts: r.rel(spec.facts),
                facts_arity: spec.facts.1,
                domain: r.rel(spec.domain),
                shared: spec.shared,
            };
            let values = r.rel(spec.values);
            r.agg_of.insert(values, r.aggs.len());
            r.aggs.push(agg);
        }
        let find = |r: &mut Rules, rel: Relation| names.sym(rel).map(|s| r.rel((s, rel.arity())));
        r.special = Special {
            truth: find(&mut r, Relation::True),
            does: find(&mut r, Relation::Does),
            terminal: find(&mut r, Relation::Terminal),
            legal: find(&mut r, Relation::Legal),
            next: find(&mut r, Relation::Next),
            goal: find(&mut r, Relation::Goal),
            weight: find(&mut r, Relation::Weight),
        };
        let guards: Vec<u32> = guards.iter().map(|&g| r.rel(g)).collect();
        r.guard = vec![false; r.rels.len()];
        guards.into_iter().for_each(|g| r.guard[g as usize] = true);
        r.level = r.levels();
        Ok(r)
    }

    fn rel(&mut self, key: RelKey) -> u32 {
        if let Some(&i) = self.rel_ids.get(&key) {
            return i;
        }
        let i = self.rels.len() as u32;
        self.rels.push(key);
        self.rel_ids.insert(key, i);
        self.by_head.push(Vec::new());
        i
    }

    /// Each relation's level: `true` is the state's, `does` the moves', and
    /// a relation takes the highest level of what its rules read (an
    /// aggregate's values, of its facts and bindings).
    fn levels(&self) -> Vec<Level> {
        let mut level = vec![Level::Static; self.rels.len()];
        if let Some(t) = self.special.truth {
            level[t as usize] = Level::State;
        }
        if let Some(d) = self.special.does {
            level[d as usize] = Level::Move;
        }
        loop {
            let mut changed = false;
            for (head, rules) in self.by_head.iter().enumerate() {
                let read = rules
                    .iter()
                    .flat_map(|&r| {
                        self.pos_rels[r as usize]
                            .iter()
                            .chain(&self.neg_rels[r as usize])
                    })
                    .map(|&b| level[b as usize])
                    .max()
                    .unwrap_or(Level::Static);
                let read = match self.agg_of.get(&(head as u32)) {
                    Some(&k) => {
                        let agg = &self.aggs[k];
                        read.max(level[agg.facts as usize])
                            .max(level[agg.domain as usize])
                    }
                    None => read,
                };
                if read > level[head] {
                    level[head] = read;
                    changed = true;
                }
            }
            if !changed {
                return level;
            }
        }
    }

    /// How many prepared rules (one per alternative of a disjunction) each
    /// query relation has, for `check --explain`.
    pub fn query_rules(&self) -> QueryRules {
        let count = |rel: Option<u32>| rel.map_or(0, |r| self.by_head[r as usize].len());
        let s = &self.special;
        QueryRules {
            terminal: count(s.terminal),
            legal: count(s.legal),
            weight: count(s.weight),
            next: count(s.next),
            goal: count(s.goal),
            aggregates: self.aggs.len(),
        }
    }

    /// Whether `rel` is an aggregate's guard: no rules, and a call holds
    /// when every argument is bound ([`rewrite_aggregates`]).
    pub fn is_guard(&self, rel: u32) -> bool {
        self.guard[rel as usize]
    }

    pub fn level(&self, rel: u32) -> Level {
        self.level[rel as usize]
    }

    /// The number of a relation, if the program names it.
    pub fn relation(&self, key: RelKey) -> Option<u32> {
        self.rel_ids.get(&key).copied()
    }
}
