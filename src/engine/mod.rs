//! The compiled state machine and its library API.
//!
//! In: a checked [`Program`]. Out: a [`Game`] (immutable, shareable between
//! threads) and [`Machine`]s (one per thread: the scratch values one
//! evaluation needs). A [`State`] is the set of true base facts as a bitset.
//! Holds: after `Machine::set_state` the machine answers terminal, legal
//! moves, chance and goals for that state; `next` reuses its buffers, so a
//! playout step allocates nothing. [`Machine::playout`] may also remember
//! the steps it evaluated, to play them again without evaluating ([`memo`]).

mod compile;
mod fixpoint;
mod flat;
mod incremental;
mod jit;
mod memo;
pub mod perft;
mod rules;
mod translate;
mod trial;
pub use translate::Translation;
pub mod values;
mod words;

use crate::diag::Diagnostic;
use crate::ground::{
    self, AtomId, Ground, GroundAtom, GroundStats, Limits, RelationSize, TermId, TermTable,
};
use crate::syntax::{Meta, Program, Sym, Symbols, Syntax, Term, TermKind};
use compile::{BASE0, GoalValue, Net, PlanStep, SLOT_TRUE, SPLIT};
use flat::{FlatPlan, FlatPlans, FlatStep};
use incremental::{Counters, Propagation};
use memo::Memo;
use rand::{Rng, RngExt};
pub use rules::QueryRules;
use rules::{RuleGame, RuleMachine};
pub use trial::Trial;
use words::{WordMachine, WordProgram};

/// A game state: the set of its true base facts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    bits: Box<[u64]>,
}

impl State {
    fn empty(facts: usize) -> State {
        State {
            bits: vec![0; facts.div_ceil(64).max(1)].into_boxed_slice(),
        }
    }

    /// A state of no words, which allocates nothing: holds a buffer's
    /// place while the buffer is lent out.
    fn placeholder() -> State {
        State {
            bits: Box::default(),
        }
    }

    fn set(&mut self, i: u32) {
        self.bits[i as usize / 64] |= 1 << (i % 64);
    }

    fn get(&self, i: u32) -> bool {
        self.bits[i as usize / 64] >> (i % 64) & 1 == 1
    }

    fn clear(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
    }
}

/// What states cost the rule evaluator ([`Game::rule_work_per_state`]), in
/// candidate facts tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleWork {
    /// One state's view and one of its next states, at most `enough`.
    pub per_state: u64,
    /// A new machine's initial state, static tables included, with a next
    /// state for each of its joint moves (estimated from the mean).
    pub first: u64,
}

/// An error while playing: the game description misbehaves in some state.
/// It names roles and moves by index and carries the state; a front end
/// prints them with the game's names (`front::engine_error`).
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    #[error("role {role} has no legal move in a non-terminal state")]
    NoLegalMove { role: usize, state: State },
    #[error("role {role} has no goal in a terminal state")]
    NoGoal { role: usize, state: State },
    #[error("role {role} has several goals ({}) in one state", joined(values))]
    SeveralGoals {
        role: usize,
        values: Vec<i64>,
        state: State,
    },
    #[error("goal {value} of role {role} is outside 0..100")]
    GoalRange {
        role: usize,
        value: i64,
        state: State,
    },
    /// `mv` is a move of the chance role; `weights` are every weight that
    /// holds for it (none positive, or more than one).
    #[error(
        "the weight of chance move {mv} is {}, not a single positive integer",
        joined(weights)
    )]
    BadWeight {
        mv: u32,
        weights: Vec<i64>,
        state: State,
    },
    /// The rule evaluator could not evaluate a state (a limit reached, a
    /// cycle through negation met).
    #[error("{message}")]
    Evaluation { message: String, state: State },
}

/// A number drawn uniformly below `total` (positive): drawn as a `u64`
/// where it fits, so a seed gives the same draws as before weights could
/// add up past 2^64.
/// A player's draw among two or more legal moves (uniform).
#[inline(always)]
fn draw_player<R: Rng>(legal: &[u32], rng: &mut R) -> u32 {
    legal[rng.random_range(0..legal.len())]
}

/// The chance role's draw among two or more legal moves none of which is
/// weighted (every weight 1).
#[inline(always)]
fn draw_unweighted<R: Rng>(legal: &[u32], rng: &mut R) -> u32 {
    legal[draw_below(legal.len() as u128, rng) as usize]
}

#[inline]
pub fn draw_below<R: Rng>(total: u128, rng: &mut R) -> u128 {
    match u64::try_from(total) {
        Ok(small) => u128::from(rng.random_range(0..small)),
        Err(_) => rng.random_range(0..total),
    }
}

/// Numbers as `1, 2, 3`.
pub fn joined(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many relations `check --explain` names as the largest.
const LARGEST_SHOWN: usize = 8;

/// A chance draw keeps the weights of this many of its moves from the
/// sum to the pick (the rest are looked up twice).
const KEPT_WEIGHTS: usize = 16;

/// A compiled game. It keeps what the ground program names (symbols,
/// terms, atoms), not its rules, which the compiled net replaces.
#[derive(Clone, Debug)]
pub struct Game {
    pub syntax: Syntax,
    pub symbols: Symbols,
    pub terms: TermTable,
    pub meta: Meta,
    /// Every ground atom; [`AtomId`]s index it.
    atoms: Vec<GroundAtom>,
    ground_stats: GroundStats,
    /// The relations with the most ground rules (compiled engines only).
    largest_relations: Vec<RelationSize>,
    net: Net,
    propagation: Propagation,
    engine: EngineKind,
    /// The incremental engine's counters of the initial state (when it is
    /// selected): new machines start from them, playouts reset to them.
    initial_counters: Option<Counters>,
    /// The rules, for a game on the rule evaluator (then `net` holds only
    /// the base facts, the initial state and the roles' moves).
    rules: Option<Box<RuleGame>>,
    /// The word program, when the word engine is selected.
    words: Option<Box<WordProgram>>,
    /// The plans as the reference engine runs them, when it is selected.
    flat: Option<Box<FlatPlans>>,
}

/// Which evaluator a [`Machine`] uses for a state's view; both answer the
/// same (`tests/differential.rs`). A new game uses the incremental engine
/// where it pays off (see `incremental::pays_off`), the reference elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineKind {
    /// Re-derives the view cone of every state from scratch.
    #[default]
    Reference,
    /// Propagates only what changed since the previous state.
    Incremental,
    /// Evaluates the rules as written, per state, without grounding them
    /// (`rules`): for games too large to ground.
    Rules,
    /// Evaluates families of rule instances 64 to a word (`words`); takes
    /// games without recursive components or numbers computed at play time.
    Words,
}

impl EngineKind {
    /// The name `--engine` takes for it.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Reference => "reference",
            EngineKind::Incremental => "incremental",
            EngineKind::Rules => "rules",
            EngineKind::Words => "words",
        }
    }
}

/// Sizes of the compiled game, for `check --explain` and benchmarks.
#[derive(Clone, Copy, Debug)]
pub struct NetStats {
    pub base_facts: usize,
    pub moves: usize,
    pub slots: usize,
    pub rules: usize,
    /// Rules evaluated for a state's terminal test, legal moves and weights.
    pub view_rules: usize,
    /// Rules evaluated for a next state beyond `view` (move-triggered ones
    /// counted once, though only the chosen moves' run).
    pub next_rules: usize,
    pub goal_rules: usize,
}

impl Game {
    /// Grounds and compiles a program that passed the static checks.
    pub fn new(program: &Program, limits: &Limits) -> Result<Game, Vec<Diagnostic>> {
        let ground = ground::ground(program, limits)?;
        Game::from_ground(ground, program.meta.clone())
    }

    pub fn from_ground(ground: Ground, meta: Meta) -> Result<Game, Vec<Diagnostic>> {
        let net = compile::compile(&ground)?;
        let engine = match incremental::pays_off(&net) {
            true => EngineKind::Incremental,
            false => EngineKind::Reference,
        };
        let mut game = Game {
            propagation: Propagation::new(&net),
            engine,
            initial_counters: None,
            ground_stats: ground.stats(),
            largest_relations: ground.largest_relations(LARGEST_SHOWN),
            syntax: ground.syntax,
            symbols: ground.symbols,
            terms: ground.terms,
            meta,
            atoms: ground.atoms,
            net,
            rules: None,
            words: None,
            flat: None,
        };
        game.set_engine(engine);
        Ok(game)
    }

    /// A game on the rule evaluator: only the domains are grounded.
    pub fn from_rules(program: &Program, limits: &Limits) -> Result<Game, Vec<Diagnostic>> {
        let built = rules::build(program, limits)?;
        let rule_game = built.game;
        let net = compile::skeleton(
            rule_game.base.clone(),
            built.init,
            &rule_game.roles,
            &rule_game.move_terms,
            rule_game.random,
        );
        Ok(Game {
            syntax: program.syntax,
            symbols: rule_game.symbols.clone(),
            terms: rule_game.terms.clone(),
            meta: program.meta.clone(),
            atoms: Vec::new(),
            ground_stats: built.stats,
            largest_relations: Vec::new(),
            propagation: Propagation::new(&net),
            net,
            engine: EngineKind::Rules,
            initial_counters: None,
            rules: Some(Box::new(rule_game)),
            words: None,
            flat: None,
        })
    }

    /// On the rule evaluator, the candidate facts one state costs it: those
    /// tried for the initial state's view (terminal, legal moves, weights;
    /// the static relations' tables, made once per machine, left out)
    /// plus the mean of those tried for a next state over a few of its joint
    /// moves, spread over each role's legal moves; `enough` if that is more
    /// (an evaluation stops there, the static tables' at 100 times as much).
    /// Also what a new machine's first state costs with all its joint
    /// moves, the static tables included ([`RuleWork::first`]).
    /// Counts, so the same on every run; `None` on the compiled engines or
    /// if an evaluation stops for another reason.
    pub fn rule_work_per_state(&self, enough: u64) -> Option<RuleWork> {
        /// Joint moves of the initial state whose next states are measured.
        const SAMPLES: usize = 8;
        let game = self.rules.as_deref()?;
        let mut machine = RuleMachine::new(game);
        let mut legal = vec![Vec::new(); game.roles.len()];
        let start = self.initial();
        // Stopped past the cap: the state costs at least `enough`.
        let capped = |machine: &RuleMachine, cap: u64, first: u64| {
            (machine.work() > cap).then_some(RuleWork {
                per_state: enough,
                first,
            })
        };
        // The first load fills the static relations' tables, kept for
        // every later state: the second measures a state's own work.
        let warm_up = enough.saturating_mul(100);
        machine.set_work_cap(warm_up);
        machine.load(&start.bits, &mut legal);
        if machine.failure().is_some() {
            return capped(&machine, warm_up, warm_up);
        }
        let tables_and_view = machine.work();
        machine.set_work_cap(enough);
        machine.load(&start.bits, &mut legal);
        if machine.failure().is_some() {
            return capped(&machine, enough, tables_and_view);
        }
        let view = machine.work();
        if machine.terminal || legal.iter().any(Vec::is_empty) {
            return Some(RuleWork {
                per_state: view.min(enough),
                first: tables_and_view,
            });
        }
        let mut next = start.bits.clone();
        let mut total = 0;
        for k in 0..SAMPLES {
            let joint: Vec<u32> = (legal.iter())
                .map(|moves| moves[k * moves.len() / SAMPLES])
                .collect();
            if machine.next(&joint, &mut next).is_err() {
                return capped(&machine, enough, tables_and_view);
            }
            total += machine.work();
        }
        let mean_next = total / SAMPLES as u64;
        let joint_moves =
            (legal.iter()).fold(1u64, |n, moves| n.saturating_mul(moves.len() as u64));
        Some(RuleWork {
            per_state: (view + mean_next).min(enough),
            first: tables_and_view.saturating_add(joint_moves.saturating_mul(mean_next)),
        })
    }

    /// The sizes of the ground program the game was compiled from.
    pub fn ground_stats(&self) -> GroundStats {
        self.ground_stats
    }

    /// The relations with the most ground rules, most first (none on the
    /// rule evaluator, which grounds only its domains).
    pub fn largest_relations(&self) -> &[RelationSize] {
        &self.largest_relations
    }

    /// A ground atom of this game (from [`Machine::query`]).
    pub fn atom(&self, atom: AtomId) -> &GroundAtom {
        &self.atoms[atom.0 as usize]
    }

    pub fn stats(&self) -> NetStats {
        NetStats {
            base_facts: self.net.base.len(),
            moves: self.net.roles.iter().map(|r| r.moves.len()).sum(),
            slots: self.net.slots,
            rules: self.net.rule_lits.len() - 1,
            view_rules: self.net.plan_rules(&self.net.view),
            next_rules: self.net.plan_rules(&self.net.after)
                + self
                    .net
                    .triggered
                    .iter()
                    .chain(&self.net.early)
                    .map(Vec::len)
                    .sum::<usize>(),
            goal_rules: self.net.plan_rules(&self.net.goal),
        }
    }

    pub fn role_count(&self) -> usize {
        self.net.roles.len()
    }

    pub fn role_name(&self, role: usize) -> String {
        self.show(self.net.roles[role].name)
    }

    /// The index of the chance role `random`, if the game has one.
    pub fn random_role(&self) -> Option<usize> {
        self.net.random
    }

    /// How many moves a role can ever make (move indices are below this).
    pub fn move_count(&self, role: usize) -> usize {
        self.net.roles[role].moves.len()
    }

    /// Whether some chance move has a weight (its draw reads the state).
    fn has_weighted_chance(&self) -> bool {
        (self.net.random)
            .is_some_and(|r| (0..self.move_count(r) as u32).any(|m| self.is_weighted(m)))
    }

    /// Whether a `weight` rule names a chance move (as every die's outcome).
    pub fn is_weighted(&self, mv: u32) -> bool {
        self.net
            .weights
            .get(mv as usize)
            .is_some_and(|w| !w.is_empty())
    }

    pub fn move_term(&self, role: usize, mv: u32) -> TermId {
        self.net.roles[role].moves[mv as usize].term
    }

    pub fn show_move(&self, role: usize, mv: u32) -> String {
        self.show(self.move_term(role, mv))
    }

    /// The index of a move given as a term, if the role can ever make it.
    pub fn find_move(&self, role: usize, term: TermId) -> Option<u32> {
        self.net.roles[role]
            .moves
            .iter()
            .position(|m| m.term == term)
            .map(|i| i as u32)
    }

    /// A ground atom printed in the game's syntax.
    pub fn show_atom(&self, atom: AtomId) -> String {
        let a = self.atom(atom);
        crate::syntax::print::Applied {
            name: a.rel,
            args: a.args.iter().map(|&t| self.terms.view(t)),
            symbols: &self.symbols,
            syntax: self.syntax,
        }
        .to_string()
    }

    /// A term printed in the game's syntax.
    pub fn show(&self, t: TermId) -> String {
        self.terms.show(t, &self.symbols, self.syntax).to_string()
    }

    pub fn initial(&self) -> State {
        let mut s = State::empty(self.net.base.len());
        self.net.init.iter().for_each(|&i| s.set(i));
        s
    }

    /// The true facts of a state, in a fixed order.
    pub fn facts(&self, state: &State) -> Vec<TermId> {
        (0..self.net.base.len() as u32)
            .filter(|&i| state.get(i))
            .map(|i| self.net.base[i as usize])
            .collect()
    }

    /// Every fact a state of this game can hold.
    pub fn possible_facts(&self) -> &[TermId] {
        &self.net.base
    }

    pub fn show_state(&self, state: &State) -> String {
        self.facts(state)
            .into_iter()
            .map(|t| self.show(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A state made of the given facts; `Err` names a fact this game can
    /// never hold.
    pub fn state_from_facts(&self, facts: &[TermId]) -> Result<State, TermId> {
        let mut s = State::empty(self.net.base.len());
        for &f in facts {
            let i = self.net.base.iter().position(|&b| b == f).ok_or(f)?;
            s.set(i as u32);
        }
        Ok(s)
    }

    /// The id of a ground term typed by a user, if this game knows it.
    /// `symbols` must be this game's symbols, possibly extended by parsing.
    pub fn term_id(&self, term: &Term) -> Option<TermId> {
        self.terms.lookup(term, &[])
    }

    /// The evaluator of the machines made from now on. A game made by
    /// [`Game::from_rules`] stays on the rule evaluator, and a grounded game
    /// cannot switch to it (it has no rules left): both ignore the request,
    /// as does a game the word engine does not take
    /// ([`Game::word_engine_refusal`] says why).
    pub fn set_engine(&mut self, engine: EngineKind) {
        if self.rules.is_some() || engine == EngineKind::Rules {
            return;
        }
        if engine == EngineKind::Incremental && !incremental::counts(&self.net) {
            return;
        }
        self.words = None;
        if engine == EngineKind::Words {
            match WordProgram::new(&self.net, &self.atoms, &self.terms, &self.symbols) {
                Ok(mut program) => {
                    // Else the interpreter runs the same operations.
                    let native = program.compile_native().is_ok();
                    // Run whole where a trial counts less work that way.
                    let initial = self.initial();
                    let whole = native
                        && trial::run(&self.net, &program, &initial.bits)
                            .is_some_and(|t| t.runs_whole());
                    program.run_whole(whole);
                    self.words = Some(Box::new(program));
                }
                Err(_) => return,
            }
        }
        self.engine = engine;
        self.flat = (engine == EngineKind::Reference).then(|| Box::new(FlatPlans::new(&self.net)));
        self.initial_counters = match engine {
            EngineKind::Reference | EngineKind::Rules | EngineKind::Words => None,
            EngineKind::Incremental => Some(Counters::new(
                &self.net,
                &self.propagation,
                &self.initial().bits,
            )),
        };
    }

    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    /// The incremental and word engines' work per joint move over a short
    /// trial of random playouts ([`trial`]), with the word program it ran:
    /// `None` off the incremental engine, for a game the word engine does
    /// not take, and for one with no move to play.
    fn playout_trial(&self) -> Option<(WordProgram, Trial)> {
        if self.engine != EngineKind::Incremental {
            return None;
        }
        let program = WordProgram::new(&self.net, &self.atoms, &self.terms, &self.symbols).ok()?;
        let trial = trial::run(&self.net, &program, &self.initial().bits)?;
        Some((program, trial))
    }

    /// The trial, the engine it chooses for playouts and, for the word
    /// engine, the program made ready: native code where the trial counts
    /// on it and the host and the program's size allow, run whole where
    /// that is less work. The native code's share is counted only for a
    /// game whose playouts run in place ([`Machine::playout_words`]): one
    /// with weighted chance moves plays through the general loop, which
    /// copies every state out and in.
    fn cheaper_playouts(&self) -> Option<(WordProgram, Trial, EngineKind)> {
        let (mut program, trial) = self.playout_trial()?;
        let native = !self.has_weighted_chance()
            && trial.engine(true) == EngineKind::Words
            && program.compile_native().is_ok();
        program.run_whole(native && trial.runs_whole());
        Some((program, trial, trial.engine(native)))
    }

    /// The trial's work per joint move and the engine bench and match play
    /// on (`check --explain` shows both).
    pub fn playout_work(&self) -> Option<(Trial, EngineKind)> {
        self.cheaper_playouts()
            .map(|(_, trial, engine)| (trial, engine))
    }

    /// For a game about to play many playouts on the incremental engine:
    /// moves it to the word engine when the trial predicts that cheaper
    /// (docs/ENGINES.md, "Which engine runs playouts").
    pub fn prefer_cheaper_playouts(&mut self) {
        let Some((program, _, engine)) = self.cheaper_playouts() else {
            return;
        };
        if engine == EngineKind::Words {
            self.words = Some(Box::new(program));
            self.flat = None;
            self.engine = EngineKind::Words;
            self.initial_counters = None;
        }
    }

    /// On the word engine, runs every phase whole (`true`) or only the
    /// units a change reaches; tests compare the two. Elsewhere it does
    /// nothing.
    pub fn set_words_whole(&mut self, whole: bool) {
        if let Some(program) = self.words.as_deref_mut() {
            program.run_whole(whole);
        }
    }

    /// Whether the word engine computes the goals in its bits (else its
    /// goals run the goal plan over values copied out of them); false on the
    /// other engines.
    pub fn words_compute_goals(&self) -> bool {
        self.words.as_deref().is_some_and(WordProgram::reads_goals)
    }

    /// On the word engine, runs its operations as native code (compiled
    /// when the engine was chosen) or, with `false`, interprets them; tests
    /// compare the two. Elsewhere it does nothing.
    pub fn set_native_words(&mut self, native: bool) {
        if let Some(program) = self.words.as_deref_mut() {
            match native {
                true if !program.is_native() => {
                    let _ = program.compile_native();
                }
                true => {}
                false => program.interpret(),
            }
        }
    }

    /// Whether the word engine runs native code for this game.
    pub fn runs_native_words(&self) -> bool {
        self.words.as_deref().is_some_and(WordProgram::is_native)
    }

    /// Why the word engine does not take this game (`None` if it does).
    pub fn word_engine_refusal(&self) -> Option<&'static str> {
        if self.rules.is_some() {
            return Some("it runs on the rule evaluator");
        }
        WordProgram::new(&self.net, &self.atoms, &self.terms, &self.symbols).err()
    }

    /// On the rule evaluator, the rules it runs per query (`None` on the
    /// compiled engines, whose sizes are [`Game::stats`]).
    pub fn query_rules(&self) -> Option<QueryRules> {
        self.rules.as_ref().map(|g| g.rules.query_rules())
    }

    pub fn machine(&self) -> Machine<'_> {
        let mut counters = self.initial_counters.clone();
        let mut vals = vec![false; self.net.slots];
        // Room for every move, so updating the lists never allocates.
        let mut legal: Vec<Vec<u32>> = (self.net.roles.iter())
            .map(|r| Vec::with_capacity(r.moves.len()))
            .collect();
        if let Some(c) = &mut counters {
            vals.copy_from_slice(c.vals());
            c.legal_into(&self.propagation, &mut legal, true);
        }
        vals[SLOT_TRUE as usize] = true;
        let state = self.initial();
        Machine {
            rules: self.rules.as_deref().map(RuleMachine::new),
            words: self.words.as_deref().map(WordProgram::machine),
            counters,
            game: self,
            vals,
            base_shown: vec![0; state.bits.len()],
            next: state.clone(),
            state,
            legal,
            joint: vec![0; self.role_count()],
            pending: vec![NO_LINK; self.net.slots],
            links: Vec::new(),
            forced: vec![false; self.net.slots],
            touched: Vec::new(),
            recursion: self.net.recursion.scratch(),
            memo: Remembered::NotYet,
        }
    }

    /// A table of remembered steps for a machine's playouts, unless the
    /// rule evaluator runs the game (it answers from tables of its own,
    /// and may stop at a limit) or a chance move has a weight (its draw
    /// reads the loaded state).
    fn memo(&self) -> Option<Box<Memo>> {
        if self.rules.is_some() || self.has_weighted_chance() {
            return None;
        }
        let counts: Vec<usize> = (0..self.role_count()).map(|r| self.move_count(r)).collect();
        Memo::new(self.initial().bits.len(), &counts).map(Box::new)
    }
}

/// One thread's evaluator of a [`Game`].
pub struct Machine<'g> {
    game: &'g Game,
    /// The incremental evaluator's values and counters, if the game uses it.
    counters: Option<Counters>,
    /// The rule evaluator, if the game uses it.
    rules: Option<RuleMachine<'g>>,
    /// The word engine's bits, if the game uses it.
    words: Option<WordMachine>,
    vals: Vec<bool>,
    state: State,
    /// On the reference engine, the state facts `vals` holds, as bits.
    base_shown: Vec<u64>,
    next: State,
    legal: Vec<Vec<u32>>,
    joint: Vec<u32>,
    /// Per slot, the first link of its rules triggered by the current moves.
    pending: Vec<u32>,
    /// (rule, next link) lists of triggered rules.
    links: Vec<(u32, u32)>,
    /// Slots already made true by an early triggered rule of the current moves.
    forced: Vec<bool>,
    /// The slots set in `forced`, to clear them after the step.
    touched: Vec<u32>,
    /// Working space of the recursive components' evaluation.
    recursion: fixpoint::Scratch,
    /// The steps its playouts remember.
    memo: Remembered,
}

/// Whether a machine's playouts remember their steps ([`memo`]).
enum Remembered {
    /// No playout yet: the table is made by the first one, if the game
    /// allows it.
    NotYet,
    On(Box<Memo>),
    /// The game does not allow it (the rule evaluator, weighted chance
    /// moves), or too few steps were found in the table.
    Off,
}

const NO_LINK: u32 = u32::MAX;

/// The result of one random playout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Joint moves played.
    pub length: u32,
    pub end: End,
}

/// How a playout ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// A terminal state with these goals (see [`Machine::goals`]).
    Goals(Vec<Option<i64>>),
    /// The step limit came first.
    Unfinished,
    /// A terminal state whose goals break the rules of GDL (none, several,
    /// or out of range for some role).
    BadGoals(EngineError),
}

impl<'g> Machine<'g> {
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The bytes of the machine's own buffers: values, states, legal lists
    /// and the incremental engine's counters (about what one more thread
    /// costs; the rule evaluator's tables grow with the state and are not
    /// counted).
    pub fn bytes(&self) -> usize {
        let words = |v: &[u32]| 4 * v.len();
        self.vals.len()
            + self.forced.len()
            + 4 * self.pending.len()
            + 8 * (self.state.bits.len() + self.base_shown.len() + self.next.bits.len())
            + self.legal.iter().map(|l| 4 * l.capacity()).sum::<usize>()
            + words(&self.joint)
            + self.counters.as_ref().map_or(0, Counters::bytes)
            + self.game.words.as_ref().map_or(0, |w| w.machine_bytes())
            + match &self.memo {
                Remembered::On(memo) => memo.bytes(),
                _ => 0,
            }
    }

    /// The state last given to [`Machine::set_state`].
    pub fn state(&self) -> &State {
        &self.state
    }

    /// On the rule evaluator, the candidate facts every evaluation of this
    /// machine has tried (`None` on the compiled engines).
    pub fn rule_work(&self) -> Option<u64> {
        self.rules.as_ref().map(RuleMachine::total_work)
    }

    /// The atoms of [`Machine::query`] printed in the game's syntax; on the
    /// rule evaluator, which has no ground atoms, its own answers.
    pub fn query_shown(&mut self, pattern: &Term) -> Result<Vec<String>, EngineError> {
        let syntax = self.game.syntax;
        if let Some(rm) = &mut self.rules {
            return rm
                .query(pattern, syntax)
                .map_err(|message| EngineError::Evaluation {
                    message,
                    state: self.state.clone(),
                });
        }
        let atoms = self.query(pattern);
        Ok(atoms.into_iter().map(|a| self.show_valued(a)).collect())
    }

    /// An atom printed with the values of its open positions (integers
    /// computed at play time) in the values the last plan left.
    fn show_valued(&self, atom: AtomId) -> String {
        let mut shown = self.game.show_atom(atom);
        let numbers = &self.game.net.numbers;
        for (_, node) in numbers.open_positions(atom.0) {
            let value = numbers.value(&self.vals, node);
            let value = value.map_or("_".to_string(), |v| v.to_string());
            shown = shown.replacen(ground::numbers::OPEN_VALUE, &value, 1);
        }
        shown
    }

    /// Every ground atom matching `pattern` (an atom written as a term, with
    /// variables) that holds in the loaded state, without moves: the REPL's
    /// `query`. Atoms of `does` and of relations depending on it never hold.
    pub fn query(&mut self, pattern: &Term) -> Vec<AtomId> {
        if self.rules.is_some() {
            return Vec::new(); // the rule evaluator has no ground atoms
        }
        self.copy_counted_values();
        self.run(Plan::Full);
        let (rel, args): (Sym, &[Term]) = match &pattern.kind {
            TermKind::Const(s) => (*s, &[]),
            TermKind::App(f, args) => (*f, args),
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        for (i, atom) in self.game.atoms.iter().enumerate() {
            if atom.rel != rel || atom.args.len() != args.len() {
                continue;
            }
            let slot = self.game.net.atom_slot[i] as usize;
            let mut env = Vec::new();
            if self.vals[slot]
                && args.iter().zip(atom.args.iter()).enumerate().all(
                    |(p, (pattern, &t))| match self.open_value(i as u32, p as u32) {
                        Some(value) => matches_value(pattern, value),
                        None => self.game.terms.matches(pattern, t, &mut env),
                    },
                )
            {
                out.push(AtomId(i as u32));
            }
        }
        out
    }

    /// The value of an atom's open position in the values the last plan
    /// left; `None` for a position that is not open.
    fn open_value(&self, atom: u32, position: u32) -> Option<Option<i64>> {
        let numbers = &self.game.net.numbers;
        let (_, node) = numbers.open_positions(atom).find(|&(p, _)| p == position)?;
        Some(numbers.value(&self.vals, node))
    }

    /// Loads a state and evaluates terminal, legal moves and weights.
    pub fn set_state(&mut self, state: &State) {
        self.state.bits.copy_from_slice(&state.bits);
        self.load_state(true);
    }

    /// Evaluates the view of `self.state`. On the incremental engine, with
    /// `may_restore`, a state equal to the initial one is copied from the
    /// initial counters where that costs less than propagating; a playout's
    /// own steps never ask (comparing every state costs more than it saves).
    fn load_state(&mut self, may_restore: bool) {
        let net = &self.game.net;
        if let Some(rm) = &mut self.rules {
            rm.load(&self.state.bits, &mut self.legal);
            return;
        }
        if let (Some(program), Some(wm)) = (&self.game.words, &mut self.words) {
            program.load(wm, &self.state.bits, &mut self.legal);
            return;
        }
        if let Some(c) = &mut self.counters {
            let prop = &self.game.propagation;
            match &self.game.initial_counters {
                // Back to the start (a new playout): a copy of the initial
                // counters, where that costs less than propagating.
                Some(start)
                    if may_restore
                        && start.loaded() == &self.state.bits[..]
                        && c.prefers_restore(prop, start) =>
                {
                    c.restore(start);
                    c.legal_into(prop, &mut self.legal, true);
                }
                _ => c.load(net, prop, &self.state.bits, &mut self.legal),
            }
            return;
        }
        // Only the facts that differ from the values' are written.
        let base = &mut self.vals[BASE0 as usize..BASE0 as usize + net.base.len()];
        for (w, (&word, shown)) in self.state.bits.iter().zip(&mut self.base_shown).enumerate() {
            let mut changed = word ^ *shown;
            *shown = word;
            while changed != 0 {
                let k = changed.trailing_zeros();
                changed &= changed - 1;
                base[w * 64 + k as usize] = word >> k & 1 == 1;
            }
        }
        self.run(Plan::View);
        fill_legal(net, &self.vals, &mut self.legal);
    }

    /// On the word engine, its bit array: the loaded state's view and the
    /// `after` phase of the moves last made (tests compare native code and
    /// the interpreter bit for bit).
    pub fn word_bits(&self) -> Option<&[u64]> {
        let program = self.game.words.as_deref()?;
        self.words.as_ref().map(|m| program.bits(m))
    }

    pub fn is_terminal(&self) -> bool {
        if let Some(rm) = &self.rules {
            return rm.terminal;
        }
        if let (Some(program), Some(wm)) = (&self.game.words, &self.words) {
            return program.is_terminal(wm);
        }
        self.view_value(self.game.net.terminal)
    }

    /// The value of a slot of the loaded state's view (terminal, legal
    /// moves, weights): the incremental and word engines keep their own.
    fn view_value(&self, s: u32) -> bool {
        match (&self.counters, &self.game.words, &self.words) {
            (Some(c), _, _) => c.vals()[s as usize],
            (_, Some(program), Some(wm)) => program.value(wm, s),
            _ => self.vals[s as usize],
        }
    }

    /// Before a plan runs on the machine's values: the loaded state's
    /// values, where the incremental or word engine keeps them. The `legal`
    /// slots the incremental engine does not keep (see
    /// `incremental::Counters::vals`) are computed again by its goal plan
    /// and by the full plan (`tests/games/idle.kif` reads them in its
    /// goals).
    fn copy_counted_values(&mut self) {
        if let Some(c) = &self.counters {
            self.vals.copy_from_slice(c.vals());
        }
        if let (Some(program), Some(wm)) = (&self.game.words, &self.words) {
            let net = &self.game.net;
            for s in BASE0..net.first_input {
                self.vals[s as usize] = program.value(wm, s);
            }
            for step in &net.view {
                if let PlanStep::One(s) = *step {
                    self.vals[s as usize] = program.value(wm, s);
                }
            }
        }
    }

    /// The legal moves of a role in the loaded state, as move indices.
    pub fn legal(&self, role: usize) -> &[u32] {
        &self.legal[role]
    }

    /// The chance role's legal moves with their weights in the loaded state.
    pub fn chance(&self) -> Result<Vec<(u32, u64)>, EngineError> {
        let Some(r) = self.game.net.random else {
            return Ok(Vec::new());
        };
        self.legal[r]
            .iter()
            .map(|&m| Ok((m, self.weight(m)?)))
            .collect()
    }

    fn weight(&self, mv: u32) -> Result<u64, EngineError> {
        // A game has weights from the rule evaluator or from the net.
        let from_rules = self.rules.as_ref().map_or(&[][..], |rm| &rm.weights[..]);
        let from_net = self
            .game
            .net
            .weights
            .get(mv as usize)
            .map_or(&[][..], |w| &w[..]);
        let mut held = (from_rules.iter())
            .filter(|&&(m, _)| m == mv)
            .map(|&(_, w)| w)
            .chain(
                (from_net.iter())
                    .filter(|(s, _)| self.view_value(*s))
                    .map(|(_, w)| *w),
            );
        match (held.next(), held.next()) {
            (None, _) => Ok(1),
            (Some(w), None) if w > 0 => Ok(w as u64),
            (first, second) => Err(EngineError::BadWeight {
                mv,
                weights: first.into_iter().chain(second).chain(held).collect(),
                state: self.state.clone(),
            }),
        }
    }

    /// Goal of every role in the loaded state; `None` only for the chance
    /// role `random`, which may have no goal (nature has no payoff).
    pub fn goals(&mut self) -> Result<Vec<Option<i64>>, EngineError> {
        if self.rules.is_some() {
            let all = self.held_goals()?;
            return (all.into_iter().enumerate())
                .map(|(r, values)| self.one_goal(r, values.into_iter()))
                .collect();
        }
        self.evaluate_goal_slots();
        (0..self.game.net.roles.len())
            .map(|r| self.one_goal(r, self.net_goal_values(r)))
            .collect()
    }

    /// Role `r`'s goal from the values it has: `None` for the chance role
    /// with none, an error unless there is exactly one, within 0..100.
    fn one_goal(
        &self,
        r: usize,
        mut values: impl Iterator<Item = i64>,
    ) -> Result<Option<i64>, EngineError> {
        let state = || self.state.clone();
        let v = match (values.next(), values.next()) {
            (None, _) if Some(r) == self.game.net.random => return Ok(None),
            (None, _) => {
                return Err(EngineError::NoGoal {
                    role: r,
                    state: state(),
                });
            }
            (Some(v), None) => v,
            (Some(a), Some(b)) => {
                return Err(EngineError::SeveralGoals {
                    role: r,
                    values: [a, b].into_iter().chain(values).collect(),
                    state: state(),
                });
            }
        };
        if !(0..=100).contains(&v) {
            return Err(EngineError::GoalRange {
                role: r,
                value: v,
                state: state(),
            });
        }
        Ok(Some(v))
    }

    /// Every goal value each role has in the loaded state, terminal or not,
    /// in increasing order (the REPL's line of goals before the end).
    pub fn goal_values(&mut self) -> Result<Vec<Vec<i64>>, EngineError> {
        let mut all = self.held_goals()?;
        for values in &mut all {
            values.sort_unstable();
            values.dedup();
        }
        Ok(all)
    }

    /// Each role's goal values that hold in the loaded state: from the rule
    /// evaluator, or from the net's goal atoms in the net's order.
    fn held_goals(&mut self) -> Result<Vec<Vec<i64>>, EngineError> {
        if let Some(rm) = &mut self.rules {
            return rm.goals().map_err(|message| EngineError::Evaluation {
                message,
                state: self.state.clone(),
            });
        }
        self.evaluate_goal_slots();
        Ok((0..self.game.net.roles.len())
            .map(|r| self.net_goal_values(r).collect())
            .collect())
    }

    /// Computes the loaded state's `goal` slots on the machine's values
    /// (a compiled engine): on the word engine, where it computes them in
    /// its bits, only the goal slots are copied out.
    fn evaluate_goal_slots(&mut self) {
        if let (Some(program), Some(wm)) = (&self.game.words, &mut self.words)
            && program.reads_goals()
        {
            program.goals_into(wm, &mut self.vals);
            return;
        }
        self.copy_counted_values();
        match self.counters {
            Some(_) => self.run_steps(self.game.propagation.goal_plan()),
            None => self.run(Plan::Goal),
        }
    }

    /// Role `r`'s goal values that hold, in the net's order, once
    /// [`Machine::evaluate_goal_slots`] has run.
    fn net_goal_values(&self, r: usize) -> impl Iterator<Item = i64> + '_ {
        let (vals, numbers) = (&self.vals, &self.game.net.numbers);
        (self.game.net.roles[r].goals.iter())
            .filter(|(s, _)| vals[*s as usize])
            .filter_map(|&(_, v)| match v {
                GoalValue::Const(n) => Some(n),
                GoalValue::Computed(node) => numbers.value(vals, node),
            })
    }

    /// An error if some role has no legal move (in a non-terminal state).
    pub fn check_playable(&self) -> Result<(), EngineError> {
        self.rule_failure()?;
        for r in 0..self.legal.len() {
            if self.legal[r].is_empty() {
                return Err(EngineError::NoLegalMove {
                    role: r,
                    state: self.state.clone(),
                });
            }
        }
        Ok(())
    }

    /// The state after a joint move (one move index per role) from the loaded
    /// state, written into `out`. Does not check legality. Only the rule
    /// evaluator can fail here (a limit reached while solving `next`).
    pub fn next_into(&mut self, joint: &[u32], out: &mut State) -> Result<(), EngineError> {
        let net = &self.game.net;
        if let Some(rm) = &mut self.rules {
            return (rm.next(joint, &mut out.bits)).map_err(|stop| EngineError::Evaluation {
                message: stop.to_string(),
                state: self.state.clone(),
            });
        }
        let does = joint
            .iter()
            .enumerate()
            .map(|(r, &m)| net.roles[r].moves[m as usize].does);
        if let Some(c) = &mut self.counters {
            c.next(net, &self.game.propagation, does, &mut out.bits);
            return Ok(());
        }
        if let (Some(program), Some(wm)) = (&self.game.words, &mut self.words) {
            program.next(wm, does, &mut out.bits);
            return Ok(());
        }
        for (r, &m) in joint.iter().enumerate() {
            let does = net.roles[r].moves[m as usize].does;
            self.vals[does as usize] = true;
        }
        for &m in joint
            .iter()
            .enumerate()
            .map(|(r, m)| &net.roles[r].moves[*m as usize].does)
        {
            let i = (m - net.first_input) as usize;
            for &(key, a, b) in &net.early_groups[i] {
                if self.vals[(key >> 1) as usize] == (key & 1 == 1) {
                    continue; // the literal every rule of the group has is false
                }
                if a & SPLIT != 0 {
                    self.force_split(i, a & !SPLIT, b);
                    continue;
                }
                for &(head, rule) in &net.early[i][a as usize..b as usize] {
                    if !self.forced[head as usize] && rule_holds(net, &self.vals, rule) {
                        self.forced[head as usize] = true;
                        self.touched.push(head);
                    }
                }
            }
            for &(head, rule) in live_triggered(net, &self.vals, i) {
                self.links.push((rule, self.pending[head as usize]));
                self.pending[head as usize] = self.links.len() as u32 - 1;
            }
        }
        self.run(Plan::After);
        for &m in joint
            .iter()
            .enumerate()
            .map(|(r, m)| &net.roles[r].moves[*m as usize].does)
        {
            let i = (m - net.first_input) as usize;
            for &(head, _) in live_triggered(net, &self.vals, i) {
                self.pending[head as usize] = NO_LINK;
            }
        }
        self.links.clear();
        for &head in &self.touched {
            self.forced[head as usize] = false;
        }
        self.touched.clear();
        out.clear();
        for &(s, i) in &net.next {
            if self.vals[s as usize] {
                out.set(i);
            }
        }
        for (r, &m) in joint.iter().enumerate() {
            self.vals[net.roles[r].moves[m as usize].does as usize] = false;
        }
        Ok(())
    }

    /// Forces the heads of the early rules of move `first_input + i`'s
    /// subgroups `a..b` whose literal and body hold (a split group whose
    /// literal holds). Out of line, so that the plain groups' loop stays
    /// as small.
    #[inline(never)]
    fn force_split(&mut self, i: usize, a: u32, b: u32) {
        let net = &self.game.net;
        for &(key, a, b) in &net.early_subgroups[i][a as usize..b as usize] {
            if self.vals[(key >> 1) as usize] == (key & 1 == 1) {
                continue;
            }
            for &(head, rule) in &net.early[i][a as usize..b as usize] {
                if !self.forced[head as usize] && rule_holds(net, &self.vals, rule) {
                    self.forced[head as usize] = true;
                    self.touched.push(head);
                }
            }
        }
    }

    /// The state after a joint move, as [`Machine::next_into`].
    pub fn next(&mut self, joint: &[u32]) -> Result<State, EngineError> {
        let mut out = State::empty(self.game.net.base.len());
        self.next_into(joint, &mut out)?;
        Ok(out)
    }

    /// A random legal move of one role in the loaded state: uniform for a
    /// player, by weight for the chance role. A role with one legal move
    /// draws nothing from `rng` (its weight is still checked).
    pub fn random_move<R: Rng>(&self, role: usize, rng: &mut R) -> Result<u32, EngineError> {
        self.rule_failure()?;
        let legal = &self.legal[role];
        let chance = Some(role) == self.game.net.random;
        match legal[..] {
            [] => Err(EngineError::NoLegalMove {
                role,
                state: self.state.clone(),
            }),
            [only] if chance => self.weight(only).map(|_| only),
            [only] => Ok(only),
            _ if chance => self.draw_chance(legal, rng),
            _ => Ok(draw_player(legal, rng)),
        }
    }

    /// A chance move drawn by weight among several `legal` ones. Out of
    /// line, so that a player's draw stays small.
    #[inline(never)]
    fn draw_chance<R: Rng>(&self, legal: &[u32], rng: &mut R) -> Result<u32, EngineError> {
        if self.rules.is_none() && !legal.iter().any(|&m| self.game.is_weighted(m)) {
            // Every weight is 1: the same draw below as many, without the sums.
            return Ok(draw_unweighted(legal, rng));
        }
        // Each weight is below 2^63, so no sum of them passes u128. The
        // weights of up to `KEPT_WEIGHTS` moves are kept for the pick, not
        // looked up again.
        let mut kept = [0u64; KEPT_WEIGHTS];
        let mut total = 0u128;
        for (i, &m) in legal.iter().enumerate() {
            let w = self.weight(m)?;
            if let Some(k) = kept.get_mut(i) {
                *k = w;
            }
            total += u128::from(w);
        }
        let mut x = draw_below(total, rng);
        for (i, &m) in legal.iter().enumerate() {
            let w = u128::from(match kept.get(i) {
                Some(&w) => w,
                None => self.weight(m)?,
            });
            if x < w {
                return Ok(m);
            }
            x -= w;
        }
        Ok(legal[legal.len() - 1])
    }

    /// The rule evaluator's failure on the loaded state, as an error.
    fn rule_failure(&self) -> Result<(), EngineError> {
        match self.rules.as_ref().and_then(RuleMachine::failure) {
            Some(message) => Err(EngineError::Evaluation {
                message,
                state: self.state.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Picks a random legal move for every role, in role order, into the
    /// machine's joint-move buffer.
    fn pick_random<R: Rng>(&mut self, rng: &mut R) -> Result<(), EngineError> {
        for r in 0..self.legal.len() {
            self.joint[r] = self.random_move(r, rng)?;
        }
        Ok(())
    }

    /// Plays random moves from `state` to the end (or `max_steps` joint
    /// moves). Through the steps earlier playouts remembered, where the
    /// machine keeps them ([`Machine::remember_steps`]): the same game
    /// either way, but which state is loaded afterwards is not said (set
    /// one before asking about a state).
    pub fn playout<R: Rng>(
        &mut self,
        state: &State,
        rng: &mut R,
        max_steps: u32,
    ) -> Result<Playout, EngineError> {
        let memo = match std::mem::replace(&mut self.memo, Remembered::Off) {
            Remembered::NotYet => self.game.memo(),
            Remembered::On(memo) => Some(memo),
            Remembered::Off => None,
        };
        if let Some(mut memo) = memo {
            let played = self.playout_remembered(&mut memo, state, rng, max_steps);
            if memo.worth_keeping() {
                self.memo = Remembered::On(memo);
            }
            return played;
        }
        if let Some(program) = self.game.words.as_deref()
            && !self.game.has_weighted_chance()
        {
            return self.playout_words(program, state, rng, max_steps);
        }
        self.set_state(state);
        let mut length = 0;
        while !self.is_terminal() {
            if length == max_steps {
                return Ok(Playout {
                    length,
                    end: End::Unfinished,
                });
            }
            self.pick_random(rng)?;
            let joint = std::mem::take(&mut self.joint);
            let mut next = std::mem::replace(&mut self.next, State::placeholder());
            let stepped = self.next_into(&joint, &mut next);
            self.joint = joint;
            if let Err(e) = stepped {
                self.next = next;
                return Err(e);
            }
            std::mem::swap(&mut self.state, &mut next);
            self.next = next;
            self.load_state(false);
            length += 1;
        }
        let end = match self.goals() {
            Ok(goals) => End::Goals(goals),
            Err(e) => End::BadGoals(e),
        };
        Ok(Playout { length, end })
    }

    /// [`Machine::playout`] on the word engine, for a game whose chance
    /// moves have no weight: each next state is loaded from the word
    /// machine's own `next` slots without being copied out, and the state
    /// is read back from the bits only where it is needed (at the end, and
    /// before an error that names it). Out of line, as the other engines'
    /// loop was.
    #[inline(never)]
    fn playout_words<R: Rng>(
        &mut self,
        program: &'g WordProgram,
        state: &State,
        rng: &mut R,
        max_steps: u32,
    ) -> Result<Playout, EngineError> {
        self.set_state(state);
        let net = &self.game.net;
        let mut length = 0;
        let unfinished = loop {
            let wm = self.words.as_mut().expect("a word machine");
            if program.is_terminal(wm) {
                break false;
            }
            if length == max_steps {
                break true;
            }
            for role in 0..self.joint.len() {
                // As `random_move` draws from the list of legal moves (no
                // chance move is weighted).
                let drawn = program.draw_legal(wm, role, |n| match net.random == Some(role) {
                    true => draw_below(n as u128, rng) as usize,
                    false => rng.random_range(0..n),
                });
                let Some(drawn) = drawn else {
                    // The error names the loaded state.
                    program.state_into(wm, &mut self.state.bits);
                    program.list_legal(wm, &mut self.legal);
                    return Err(EngineError::NoLegalMove {
                        role,
                        state: self.state.clone(),
                    });
                };
                self.joint[role] = drawn;
            }
            let does =
                (self.joint.iter().enumerate()).map(|(r, &m)| net.roles[r].moves[m as usize].does);
            program.play(wm, does);
            length += 1;
        };
        let wm = self.words.as_mut().expect("a word machine");
        program.state_into(wm, &mut self.state.bits);
        program.list_legal(wm, &mut self.legal);
        let end = match unfinished {
            true => End::Unfinished,
            false => match self.goals() {
                Ok(goals) => End::Goals(goals),
                Err(e) => End::BadGoals(e),
            },
        };
        Ok(Playout { length, end })
    }

    /// [`Machine::playout`], through the steps `memo` remembers: the same
    /// draws from the same legal lists, so the same game. The engine
    /// evaluates only the steps the table does not know, from the state
    /// they start at; which state is loaded afterwards is not said.
    fn playout_remembered<R: Rng>(
        &mut self,
        memo: &mut Memo,
        state: &State,
        rng: &mut R,
        max_steps: u32,
    ) -> Result<Playout, EngineError> {
        if memo.is_full() {
            memo.clear();
        }
        // The incremental and word engines load a state by what changed
        // since the last: the first step not remembered is loaded from the
        // start, as a playout without the table would have. The reference
        // engine evaluates every state whole.
        let mut from_start = self.game.engine != EngineKind::Reference;
        let mut at = match memo.find(&state.bits) {
            Some(node) => node,
            None => {
                self.set_state(state);
                from_start = false;
                self.remember_loaded(memo)
            }
        };
        let chance = self.game.net.random;
        let mut length = 0;
        while !memo.is_terminal(at) {
            if length == max_steps {
                return Ok(Playout {
                    length,
                    end: End::Unfinished,
                });
            }
            for (r, mv) in self.joint.iter_mut().enumerate() {
                match memo.legal(at, r) {
                    [] => {
                        self.load_node(memo, at);
                        return Err(EngineError::NoLegalMove {
                            role: r,
                            state: self.state.clone(),
                        });
                    }
                    // The draws of `random_move` where no move is weighted.
                    [only] => *mv = *only,
                    legal if Some(r) == chance => *mv = draw_unweighted(legal, rng),
                    legal => *mv = draw_player(legal, rng),
                }
            }
            let key = memo.joint_key(&self.joint);
            at = match memo.step(at, key) {
                Some(to) => to,
                None => {
                    if from_start {
                        self.set_state(state);
                        from_start = false;
                    }
                    self.step_and_remember(memo, at, key)?
                }
            };
            length += 1;
        }
        let end = match memo.goals(at) {
            Some(goals) => End::Goals(goals.to_vec()),
            None => {
                self.load_node(memo, at);
                match self.goals() {
                    Ok(goals) => End::Goals(goals),
                    Err(e) => End::BadGoals(e),
                }
            }
        };
        Ok(Playout { length, end })
    }

    /// Makes the joint move in the machine's buffer from node `at`, a step
    /// `memo` does not know, and remembers it; returns the node reached.
    fn step_and_remember(
        &mut self,
        memo: &mut Memo,
        at: u32,
        key: u64,
    ) -> Result<u32, EngineError> {
        self.load_node(memo, at);
        let joint = std::mem::take(&mut self.joint);
        let mut next = std::mem::replace(&mut self.next, State::placeholder());
        let stepped = self.next_into(&joint, &mut next);
        self.joint = joint;
        if let Err(e) = stepped {
            self.next = next;
            return Err(e);
        }
        let to = match memo.find(&next.bits) {
            Some(to) => {
                self.next = next;
                to
            }
            None => {
                std::mem::swap(&mut self.state, &mut next);
                self.next = next;
                self.load_state(false);
                if memo.is_full() {
                    // `at` is forgotten with the rest: only the new state is kept.
                    memo.clear();
                    return Ok(self.remember_loaded(memo));
                }
                self.remember_loaded(memo)
            }
        };
        memo.insert_step(at, key, to);
        Ok(to)
    }

    /// Loads node `at`'s state, unless it is the loaded one.
    fn load_node(&mut self, memo: &Memo, at: u32) {
        if self.state.bits[..] != *memo.state(at) {
            self.state.bits.copy_from_slice(memo.state(at));
            self.load_state(true);
        }
    }

    /// Remembers the loaded state with its legal moves, or its goals if it
    /// is terminal; returns its node.
    fn remember_loaded(&mut self, memo: &mut Memo) -> u32 {
        if self.is_terminal() {
            let goals = self.goals();
            memo.insert_terminal(&self.state.bits, goals.as_deref().ok())
        } else {
            memo.insert_playing(&self.state.bits, self.legal.iter().map(Vec::as_slice))
        }
    }

    /// Whether [`Machine::playout`] may remember the steps it makes (the
    /// default, where the game allows it; see [`memo`]). Off, every step
    /// of every playout is evaluated, as `tabula bench --no-memo` does to
    /// measure the engine alone.
    pub fn remember_steps(&mut self, on: bool) {
        self.memo = if on {
            Remembered::NotYet
        } else {
            Remembered::Off
        };
    }

    /// Whether the machine's playouts remember their steps now: on until a
    /// window of steps finds too few remembered (see `memo::Memo::worth_keeping`).
    pub fn remembers_steps(&self) -> bool {
        matches!(self.memo, Remembered::On(_))
    }

    /// A random joint move for the loaded state.
    pub fn random_joint<R: Rng>(&mut self, rng: &mut R) -> Result<Vec<u32>, EngineError> {
        self.pick_random(rng)?;
        Ok(self.joint.clone())
    }

    /// The rules of slot `s` triggered by the moves being made.
    fn eval_triggered(&self, s: u32) -> bool {
        let net = &self.game.net;
        let mut link = self.pending[s as usize];
        while link != NO_LINK {
            let (rule, next) = self.links[link as usize];
            let (l0, l1) = (
                net.rule_lits[rule as usize] as usize,
                net.rule_lits[rule as usize + 1] as usize,
            );
            if net.lits[l0..l1]
                .iter()
                .all(|&l| self.vals[(l >> 1) as usize] != (l & 1 == 1))
            {
                return true;
            }
            link = next;
        }
        false
    }

    fn run(&mut self, plan: Plan) {
        let net = &self.game.net;
        match (plan, self.game.flat.as_deref()) {
            (Plan::View, Some(flat)) => self.run_flat::<false>(&flat.view),
            (Plan::Goal, Some(flat)) => self.run_flat::<false>(&flat.goal),
            (Plan::After, Some(flat)) => self.run_flat::<true>(&flat.after),
            (Plan::View, None) => self.run_steps(&net.view),
            (Plan::Goal, None) => self.run_steps(&net.goal),
            (Plan::After, None) => self.run_steps_with::<true>(&net.after),
            (Plan::Full, _) => self.run_steps(&net.full),
        }
    }

    /// Evaluates a flattened plan on the machine's values, as
    /// [`Machine::run_steps_with`] the plan it was made from.
    fn run_flat<const MOVES: bool>(&mut self, plan: &'g FlatPlan) {
        for step in plan.steps() {
            match step {
                FlatStep::One(s, mut groups) => {
                    let vals = &self.vals;
                    let literal = |l: u32| vals[(l >> 1) as usize] != (l & 1 == 1);
                    let holds = (MOVES && self.forced[s as usize])
                        || groups.any(|(first, mut rules)| {
                            literal(first) && rules.any(|rest| rest.iter().all(|&l| literal(l)))
                        })
                        || (MOVES && self.eval_triggered(s));
                    self.vals[s as usize] = holds;
                }
                FlatStep::Fixpoint(a, b) => self.eval_component(a, b),
                FlatStep::Test(s, t) => self.eval_test::<MOVES>(s, t),
            }
        }
    }

    /// Evaluates the slots of `steps` in order on the machine's values,
    /// with no move being made.
    fn run_steps(&mut self, steps: &'g [PlanStep]) {
        self.run_steps_with::<false>(steps)
    }

    /// Evaluates the slots of `steps` in order on the machine's values;
    /// `MOVES` while moves are being made, when a slot may also be forced
    /// by an early rule or hold by a triggered one (neither can otherwise,
    /// so the other plans skip both tests).
    fn run_steps_with<const MOVES: bool>(&mut self, steps: &'g [PlanStep]) {
        let net = &self.game.net;
        for step in steps {
            match *step {
                PlanStep::One(s) => {
                    self.vals[s as usize] = (MOVES && self.forced[s as usize])
                        || eval_slot(net, &self.vals, s)
                        || (MOVES && self.eval_triggered(s))
                }
                PlanStep::Fixpoint(a, b) => self.eval_component(a, b),
                PlanStep::Test(s, t) => self.eval_test::<MOVES>(s, t),
            }
        }
    }

    /// Computes recursive component `a..b` to its fixpoint (a plan step).
    #[inline(always)]
    fn eval_component(&mut self, a: u32, b: u32) {
        let net = &self.game.net;
        net.recursion
            .evaluate(net, &mut self.vals, a, b, &mut self.recursion)
    }

    /// Computes test slot `s`, test `t` of the net's numbers (a plan step);
    /// `MOVES` as in [`Machine::run_steps_with`].
    #[inline(always)]
    fn eval_test<const MOVES: bool>(&mut self, s: u32, t: u32) {
        self.vals[s as usize] =
            (MOVES && self.forced[s as usize]) || self.game.net.numbers.holds(&self.vals, t)
    }
}

#[derive(Clone, Copy)]
enum Plan {
    View,
    Goal,
    After,
    Full,
}

/// Whether a query's argument matches an integer computed at play time:
/// a variable, or that integer.
fn matches_value(pattern: &Term, value: Option<i64>) -> bool {
    match pattern.kind {
        TermKind::Var(_) => true,
        TermKind::Int(i) => value == Some(i),
        _ => false,
    }
}

/// Every role's legal moves, read from the values of their `legal` slots.
fn fill_legal(net: &Net, vals: &[bool], legal: &mut [Vec<u32>]) {
    for (r, role) in net.roles.iter().enumerate() {
        legal[r].clear();
        for (i, m) in role.moves.iter().enumerate() {
            if vals[m.legal as usize] {
                legal[r].push(i as u32);
            }
        }
    }
}

/// The (head, rule) pairs move slot `first_input + i` triggers whose
/// group's state fact holds in the loaded state (the others cannot hold).
fn live_triggered<'n>(
    net: &'n Net,
    vals: &'n [bool],
    i: usize,
) -> impl Iterator<Item = &'n (u32, u32)> + 'n {
    (net.triggered_groups[i].iter())
        .filter(|&&(key, _, _)| vals[(key >> 1) as usize] != (key & 1 == 1))
        .flat_map(move |&(_, a, b)| &net.triggered[i][a as usize..b as usize])
}

/// Whether some rule of derived slot `s` holds: each rule's literals end
/// where the next rule's begin, so each bound is read once. Inlined into
/// the plan's loop: a call per slot costs a small game's step about 5%.
#[inline(always)]
fn eval_slot(net: &Net, vals: &[bool], s: u32) -> bool {
    let d = (s - net.first_derived) as usize;
    let (first, end) = (net.slot_rules[d] as usize, net.slot_rules[d + 1] as usize);
    let bounds = &net.rule_lits[first..=end];
    let mut start = bounds[0] as usize;
    for &stop in &bounds[1..] {
        let stop = stop as usize;
        if (net.lits[start..stop].iter()).all(|&l| vals[(l >> 1) as usize] != (l & 1 == 1)) {
            return true;
        }
        start = stop;
    }
    false
}

#[inline]
fn rule_holds(net: &Net, vals: &[bool], rule: u32) -> bool {
    let (l0, l1) = (
        net.rule_lits[rule as usize] as usize,
        net.rule_lits[rule as usize + 1] as usize,
    );
    net.lits[l0..l1]
        .iter()
        .all(|&l| vals[(l >> 1) as usize] != (l & 1 == 1))
}

#[cfg(test)]
mod tests;
