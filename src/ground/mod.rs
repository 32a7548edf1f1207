//! Grounding: from a checked program to a finite propositional program.
//!
//! In: a [`Program`] that passed the static checks. Out: a [`Ground`] program:
//! every ground atom that can ever hold (the relaxed model: the least model of
//! the rules with negation ignored, `true` fed from `init`/`next` and `does`
//! from `legal`), and every ground instance of every rule whose positive body
//! holds in that model, with arithmetic and comparisons already evaluated.
//! Holds: semi-naive evaluation, so each instance is produced once; each
//! round runs only the rules that read a relation with new facts. Every
//! instance is recorded as soon as the join finds it and the [`Limits`] are
//! checked at each one, so a blow-up becomes a GROUNDING diagnostic in
//! bounded time and memory instead of an exhausted machine; the diagnostic
//! says whether the game grows without bound or is finite but too large.
//! A program with recursion through negation by relation names is grounded
//! too, and refused with NEGATIVE_CYCLE only if a ground atom depends on its
//! own negation ([`cycles`]).

pub(crate) mod aggregate;
mod cycles;
pub mod estimate;
mod join;
pub mod numbers;
pub(crate) mod prepare;
mod relation;
mod size;
pub mod terms;

use crate::diag::{Diagnostic, codes};
use crate::gdl::Relation as Reserved;
use crate::syntax::{Program, Span, Sym, Symbols, Syntax};
use prepare::{PAtom, Pat, Prepared, RelKey};
use relation::Relation;
use rustc_hash::FxHashMap;
pub use size::StateFacts;
use std::cmp::Ordering;
use terms::Extent;
pub use terms::{GTerm, TermId, TermTable};

/// Bounds that keep grounding finite and fast.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_atoms: usize,
    pub max_rules: usize,
    pub max_term_depth: u32,
    /// Candidate matches tried, in all; bounds the time spent in joins.
    pub max_work: u64,
    /// Rounds of the fixpoint: a recursion that needs more never settles.
    pub max_rounds: u32,
    /// Grounding steps ([`estimate::effort`]): a budget the default engine
    /// choice grounds within; unbounded by default.
    pub max_effort: estimate::Effort,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_atoms: 2_000_000,
            max_rules: 8_000_000,
            max_term_depth: 64,
            max_work: 400_000_000,
            max_rounds: 20_000,
            max_effort: estimate::Effort::MAX,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AtomId(pub u32);

/// A literal of a ground rule: an atom, possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit(pub u32);

impl Lit {
    pub fn new(atom: AtomId, negated: bool) -> Lit {
        Lit(atom.0 << 1 | negated as u32)
    }
    pub fn atom(self) -> AtomId {
        AtomId(self.0 >> 1)
    }
    pub fn negated(self) -> bool {
        self.0 & 1 == 1
    }
}

/// A ground atom: a relation and its arguments.
#[derive(Clone, Debug)]
pub struct GroundAtom {
    pub rel: Sym,
    pub args: Box<[TermId]>,
}

/// The ground program.
#[derive(Clone, Debug)]
pub struct Ground {
    pub syntax: Syntax,
    pub symbols: Symbols,
    pub terms: TermTable,
    pub atoms: Vec<GroundAtom>,
    /// Rule `i` is `heads[i] :- lits[starts[i]..starts[i + 1]]`.
    pub heads: Vec<AtomId>,
    pub starts: Vec<u32>,
    pub lits: Vec<Lit>,
    /// The numbers computed at play time: value nodes and test atoms.
    pub numbers: numbers::Numbers,
    /// The steps grounding took ([`estimate::effort`]).
    pub effort: estimate::Effort,
    /// The rule instances found: one per ground rule, or for the relaxed
    /// model alone ([`relaxed_model`]) those its joins reached.
    pub instances: usize,
}

/// Sizes of a ground program, for `check --explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroundStats {
    pub atoms: usize,
    pub rules: usize,
    pub terms: usize,
}

/// One relation's share of a ground program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationSize {
    pub name: String,
    pub rules: usize,
    pub atoms: usize,
}

impl Ground {
    pub fn stats(&self) -> GroundStats {
        GroundStats {
            atoms: self.atoms.len(),
            rules: self.heads.len(),
            terms: self.terms.len(),
        }
    }

    /// The relations with the most ground rules, most first (at most
    /// `count`), with their ground atoms: where a game's size comes from.
    /// `next` and `init` are split by the functor of their fact (`next on`),
    /// `next` being most of many games.
    pub fn largest_relations(&self, count: usize) -> Vec<RelationSize> {
        // Each atom's relation, and the functor of its fact under next/init.
        let split: [Option<Sym>; 2] = [self.symbols.get("next"), self.symbols.get("init")];
        let keys: Vec<(Sym, Option<Sym>)> = self
            .atoms
            .iter()
            .map(|atom| {
                let inner = match atom.args.first().map(|&t| self.terms.term(t)) {
                    Some(terms::GTerm::App(f, _) | terms::GTerm::Sym(f))
                        if split.contains(&Some(atom.rel)) =>
                    {
                        Some(*f)
                    }
                    _ => None,
                };
                (atom.rel, inner)
            })
            .collect();
        // (atoms, rules) per key
        let mut sizes: FxHashMap<(Sym, Option<Sym>), (usize, usize)> = FxHashMap::default();
        for &key in &keys {
            sizes.entry(key).or_default().0 += 1;
        }
        for head in &self.heads {
            sizes.entry(keys[head.0 as usize]).or_default().1 += 1;
        }
        let mut out: Vec<RelationSize> = sizes
            .into_iter()
            .map(|((rel, inner), (atoms, rules))| {
                let rel = self.symbols.name(rel);
                let name = match inner {
                    Some(f) => format!("{rel} {}", self.symbols.name(f)),
                    None => rel.to_string(),
                };
                RelationSize { name, rules, atoms }
            })
            .collect();
        out.sort_by(|a, b| b.rules.cmp(&a.rules).then_with(|| a.name.cmp(&b.name)));
        out.truncate(count);
        out
    }

    pub fn body(&self, rule: usize) -> &[Lit] {
        &self.lits[self.starts[rule] as usize..self.starts[rule + 1] as usize]
    }

    /// A ground atom printed in the program's syntax.
    pub fn show_atom(&self, atom: AtomId) -> String {
        let a = &self.atoms[atom.0 as usize];
        show_atom(&self.symbols, &self.terms, self.syntax, a.rel, &a.args)
    }
}

/// An atom `rel(args)` printed in a syntax.
pub fn show_atom(
    symbols: &Symbols,
    terms: &TermTable,
    syntax: Syntax,
    rel: Sym,
    args: &[TermId],
) -> String {
    crate::syntax::print::Applied {
        name: rel,
        args: args.iter().map(|&t| terms.view(t)),
        symbols,
        syntax,
    }
    .to_string()
}

/// Why a checked program could not be grounded: its diagnostics, and
/// whether the rule evaluator can still run it (`load` then falls back to
/// it).
#[derive(Debug)]
pub struct GroundError {
    pub diagnostics: Vec<Diagnostic>,
    /// For a finite game the compiled engines cannot take: why ("too large
    /// to ground (more than 2000000 ground atoms)").
    pub fallback: Option<String>,
    /// Whether grounding stopped at [`Limits::max_effort`] (whatever it
    /// made of the game so far: with more effort it might have finished).
    pub over_budget: bool,
}

impl From<Vec<Diagnostic>> for GroundError {
    fn from(diagnostics: Vec<Diagnostic>) -> GroundError {
        GroundError {
            diagnostics,
            fallback: None,
            over_budget: false,
        }
    }
}

impl From<GroundError> for Vec<Diagnostic> {
    fn from(e: GroundError) -> Vec<Diagnostic> {
        e.diagnostics
    }
}

/// Rounds a game must have run before a limit reached is blamed on growth.
const GROWTH_ROUNDS: u32 = 8;

/// Whether grounding leaves the integers computed from the state open
/// ([`numbers`]) or grounds one atom per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integers {
    Open,
    Ground,
}

/// What a grounding makes: the ground program, or only its atoms (the
/// relaxed model), whose joins need not enumerate every rule instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Program,
    Atoms,
}

/// Grounds a checked program, integers computed from the state left open.
pub fn ground(program: &Program, limits: &Limits) -> Result<Ground, GroundError> {
    ground_with(program, limits, Integers::Open, &mut |_| None)
}

/// Where a grounding stands when it passes [`Limits::max_effort`].
pub struct Overrun<'a> {
    /// Whether a relation still makes ever larger terms (the game may grow
    /// without bound: only the whole limits can tell).
    pub growing: bool,
    /// The steps taken so far.
    pub effort: estimate::Effort,
    /// What the grounder has made so far, for [`Overrun::predicted`].
    model: size::Model<'a>,
}

impl Overrun<'_> {
    /// The steps the whole ground program would take if every relation
    /// held the facts it has now, `true` those of `state` if given (a
    /// prediction from counts: [`size`]); at least the steps taken.
    pub fn predicted(&self, state: Option<StateFacts>) -> estimate::Effort {
        self.model.predicted_effort(state, self.effort)
    }
}

/// Asked when a grounding passes its effort budget: the larger budget to
/// go on with, in place (nothing made so far is made again), or `None` to
/// stop there.
pub type Extend<'a> = dyn FnMut(&Overrun) -> Option<estimate::Effort> + 'a;

/// Grounds a checked program, integers computed from the state left open;
/// past its effort budget, `extend` says whether it goes on (see
/// [`Extend`]). The same program and answers give the same grounding as
/// starting over with the last budget would.
pub fn ground_extending(
    program: &Program,
    limits: &Limits,
    extend: &mut Extend,
) -> Result<Ground, GroundError> {
    ground_with(program, limits, Integers::Open, extend)
}

/// The relaxed model of a checked program alone, integers ground: a
/// [`Ground`] with every atom and no rules (its `instances` are those that
/// made an atom). A join stops enumerating the bindings of variables that
/// neither the head nor a literal left reads, so a rule that joins
/// independent facts to make a few atoms costs about as much as its atoms.
/// The program's negative literals must read relations of facts only
/// (no rule with a positive body): those are made first, so an instance
/// whose negative literal is a fact is dropped as it is found.
pub fn relaxed_model(program: &Program, limits: &Limits) -> Result<Ground, GroundError> {
    match ground_once(program, limits, Integers::Ground, Output::Atoms, &[]) {
        Ok(ground) => Ok(ground),
        Err(Retry::Failed(e)) => Err(e),
        // Integers ground leave no integer open.
        Err(Retry::KeepGround(_)) => Err(vec![Diagnostic::global(
            codes::GROUNDING,
            "internal error: an integer is open in a grounding with integers ground",
        )]
        .into()),
    }
}

/// Grounds a checked program. A relation whose open integer turns out to
/// have several instances for one key is grounded again with that
/// relation's integers ground (one atom per value, as without
/// [`numbers`]). Past its effort budget, `extend` says whether it goes on.
pub fn ground_with(
    program: &Program,
    limits: &Limits,
    integers: Integers,
    extend: &mut Extend,
) -> Result<Ground, GroundError> {
    let mut kept_ground = Vec::new();
    // A budget raised in one attempt holds for the next.
    let mut budget = limits.max_effort;
    loop {
        let within = Limits {
            max_effort: budget,
            ..*limits
        };
        let attempt = ground_once_extending(
            program,
            &within,
            integers,
            Output::Program,
            &kept_ground,
            &mut |overrun| {
                budget = extend(overrun)?;
                Some(budget)
            },
        );
        match attempt {
            Err(Retry::KeepGround(rel)) if !kept_ground.contains(&rel) => kept_ground.push(rel),
            Err(Retry::KeepGround(_)) => {
                return Err(vec![Diagnostic::global(
                    codes::GROUNDING,
                    "internal error: an integer kept ground is still computed at play time",
                )]
                .into());
            }
            Err(Retry::Failed(e)) => return Err(e),
            Ok(g) => return Ok(g),
        }
    }
}

/// Why one grounding attempt stopped.
enum Retry {
    /// An open integer of this relation has several instances for a key.
    KeepGround(RelKey),
    Failed(GroundError),
}

impl From<GroundError> for Retry {
    fn from(e: GroundError) -> Retry {
        Retry::Failed(e)
    }
}

/// One grounding attempt, the integers of `kept_ground` ground, that
/// stops at its effort budget.
fn ground_once(
    program: &Program,
    limits: &Limits,
    integers: Integers,
    output: Output,
    kept_ground: &[RelKey],
) -> Result<Ground, Retry> {
    let mut stop = |_: &Overrun| None;
    ground_once_extending(program, limits, integers, output, kept_ground, &mut stop)
}

/// One grounding attempt, the integers of `kept_ground` ground; past its
/// effort budget, `extend` says whether it goes on.
fn ground_once_extending(
    program: &Program,
    limits: &Limits,
    integers: Integers,
    output: Output,
    kept_ground: &[RelKey],
    extend: &mut Extend,
) -> Result<Ground, Retry> {
    let (rewritten, mut specs) = aggregate::rewrite(program);
    let program = &rewritten;
    let domains: Vec<RelKey> = specs.iter().map(|s| s.domain).collect();
    let mut g = Grounder {
        terms: TermTable::default(),
        rels: Vec::new(),
        rel_ids: FxHashMap::default(),
        atoms: Vec::new(),
        heads: Vec::new(),
        starts: vec![0],
        lits: Vec::new(),
        pending_rels: Vec::new(),
        pending_args: Vec::new(),
        limits: *limits,
        output,
        instances: 0,
        work: 0,
        extents: Vec::new(),
        symbols: program.symbols.clone(),
        syntax: program.syntax,
        last_span: Span::default(),
        scratch: Vec::new(),
        arg_stack: Vec::new(),
        key: join::Key::default(),
        watched: Vec::new(),
        fallback: None,
        over_budget: false,
        extend,
        num: numbers::State::default(),
        rules: Vec::new(),
    };
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for rule in &program.rules {
        match prepare::prepare(rule, &mut g.terms) {
            Ok(mut p) => {
                // An aggregate's domain only feeds the relaxed model.
                p.iter_mut()
                    .for_each(|r| r.bridge |= domains.contains(&r.head.rel));
                rules.extend(p)
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(GroundError::from(errors).into());
    }
    if integers == Integers::Open {
        g.open_integers(&mut rules, &mut specs, kept_ground);
    }
    rules.extend(g.bridges());
    if output == Output::Program {
        g.rules = rules.clone();
    }
    let mut rule_rels: Vec<RuleRels> = rules
        .iter()
        .map(|r| RuleRels {
            head: g.rel(r.head.rel),
            pos: r.pos.iter().map(|a| g.rel(a.rel)).collect(),
            neg: r.neg.iter().map(|a| g.rel(a.rel)).collect(),
            watch: false,
            uses: (output == Output::Atoms).then(|| join::Uses::of(r)),
        })
        .collect();
    let watched = cycles::watched(&rules, &rule_rels, g.rels.len());
    for (r, watch) in rule_rels.iter_mut().zip(watched) {
        r.watch = watch;
    }
    let solved = g.solve(&rules, &rule_rels, &specs);
    if let Err(e) = solved.and_then(|()| g.aggregate_networks(&specs)) {
        if let Some(rel) = g.num.several.take() {
            return Err(Retry::KeepGround(rel));
        }
        return Err(GroundError {
            diagnostics: vec![e],
            fallback: g.fallback.take(),
            over_budget: g.over_budget,
        }
        .into());
    }
    let watched = std::mem::take(&mut g.watched);
    let ground = g.finish(program.syntax);
    match cycles::negative_cycle(&ground, &watched) {
        Some(cycle) => Err(GroundError::from(vec![cycle]).into()),
        None => Ok(ground),
    }
}

struct Grounder<'e> {
    terms: TermTable,
    rels: Vec<Relation>,
    rel_ids: FxHashMap<RelKey, usize>,
    /// Each ground atom as (relation, fact number in it).
    atoms: Vec<(u32, u32)>,
    heads: Vec<AtomId>,
    starts: Vec<u32>,
    /// Literals of the rules found so far; negative literal `i` is stored
    /// as `Lit::new(AtomId(i), true)` until the model is complete: its
    /// relation is `pending_rels[i]`, its arguments the next `arity` terms
    /// of `pending_args`.
    lits: Vec<Lit>,
    pending_rels: Vec<u32>,
    pending_args: Vec<TermId>,
    limits: Limits,
    output: Output,
    /// Rule instances (bridges left out) the joins reached.
    instances: usize,
    /// Candidate facts tried by the joins so far.
    work: u64,
    /// The extent of the term table at the start of each round (round 0:
    /// the program's own terms), to tell growth from mere size.
    extents: Vec<Extent>,
    symbols: Symbols,
    syntax: Syntax,
    /// The rule that added the latest new fact, for errors about growth.
    last_span: Span,
    /// A buffer for the arguments of an atom being built.
    scratch: Vec<TermId>,
    /// The arguments of the compound terms being built, innermost last.
    arg_stack: Vec<TermId>,
    /// A buffer for the bound paths of a literal being looked up.
    key: join::Key,
    /// The ground rules (number, source span) of the rules that may close a
    /// cycle through negation ([`cycles::watched`]).
    watched: Vec<(u32, Span)>,
    /// Set by a limit reached in a finite game, or an open integer with
    /// several instances: why the rule evaluator must run the game.
    fallback: Option<String>,
    /// Set when grounding stopped at [`Limits::max_effort`].
    over_budget: bool,
    /// Asked for a larger budget when the effort passes the current one.
    extend: &'e mut Extend<'e>,
    /// The integers computed at play time.
    num: numbers::State,
    /// The rules being grounded, to predict the ground program's size
    /// when the effort passes the budget (left empty for the relaxed model
    /// alone, which predicts nothing).
    rules: Vec<Prepared>,
}

/// The bound of [`Limits`] that grounding reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reached {
    Atoms,
    Rules,
    Work,
    Rounds,
    Depth,
    Effort,
}

/// The relations (indices into `Grounder::rels`) of one rule's head,
/// positive and negative literals.
struct RuleRels {
    head: usize,
    pos: Vec<usize>,
    neg: Vec<usize>,
    /// Whether the rule may close a cycle through negation, so that its
    /// ground instances are kept for [`cycles::negative_cycle`].
    watch: bool,
    /// Where the rule reads each variable, when only atoms are made.
    uses: Option<join::Uses>,
}

impl Grounder<'_> {
    fn rel(&mut self, key: RelKey) -> usize {
        if let Some(&i) = self.rel_ids.get(&key) {
            return i;
        }
        self.rels.push(Relation::new(key.0, key.1));
        self.rel_ids.insert(key, self.rels.len() - 1);
        self.rels.len() - 1
    }

    /// `true(X) :- init(X).  true(X) :- next(X).  does(R, M) :- legal(R, M).`
    /// Finds the open positions (see [`numbers`]) and marks the open
    /// aggregates; the abstract integer is interned if any is open.
    fn open_integers(
        &mut self,
        rules: &mut [Prepared],
        specs: &mut [aggregate::AggSpec],
        kept_ground: &[RelKey],
    ) {
        let names = crate::gdl::Names::new(&self.symbols);
        let candidates: Vec<(RelKey, usize)> = specs
            .iter()
            .filter(|s| numbers::state_dependent(rules, s.facts, &names))
            .map(|s| (s.values, s.shared))
            .collect();
        self.num.open =
            numbers::open_positions(rules, &candidates, &self.symbols, &self.terms, kept_ground);
        for spec in specs.iter_mut() {
            spec.open = self.num.open.contains_key(&spec.values);
        }
        if !self.num.open.is_empty() {
            let sym = numbers::open_value_symbol(&mut self.symbols);
            self.num.value = Some(self.terms.intern(GTerm::Sym(sym)));
        }
    }

    fn bridges(&mut self) -> Vec<Prepared> {
        let symbols = &mut self.symbols;
        let mut atom = |r: Reserved| PAtom {
            rel: (symbols.intern(r.name()), r.arity()),
            args: (0..r.arity() as u32).map(Pat::Var).collect(),
        };
        let mut bridge = |head: Reserved, body: Reserved| Prepared {
            head: atom(head),
            pos: vec![atom(body)],
            neg: Vec::new(),
            cmps: Vec::new(),
            vars: head.arity(),
            span: Span::default(),
            bridge: true,
            open_vars: Vec::new(),
        };
        vec![
            bridge(Reserved::True, Reserved::Init),
            bridge(Reserved::True, Reserved::Next),
            bridge(Reserved::Does, Reserved::Legal),
        ]
    }

    /// The GROUNDING error for a bound reached while `span`'s rule ran:
    /// which bound, a fact the rule was producing, and either the advice
    /// for a relation that grows without bound or, for a finite game, the
    /// sizes reached against the limits.
    fn too_big(&mut self, span: Span, reached: Reached) -> Diagnostic {
        // A bridge rule has no place: the last real rule that added a fact
        // stands for it.
        let span = if span == Span::default() {
            self.last_span
        } else {
            span
        };
        let limits = &self.limits;
        let what = match reached {
            Reached::Atoms => format!("more than {} ground atoms", limits.max_atoms),
            Reached::Rules => format!("more than {} ground rules", limits.max_rules),
            Reached::Work => format!(
                "more than {} candidate facts tried while joining rule bodies",
                limits.max_work
            ),
            Reached::Rounds => format!(
                "recursion still adds facts after {} rounds",
                limits.max_rounds
            ),
            Reached::Depth => "a term nests too deeply".to_string(),
            Reached::Effort => format!("more than {} grounding steps", limits.max_effort),
        };
        self.over_budget = reached == Reached::Effort;
        let mut d = Diagnostic::error(
            codes::GROUNDING,
            span,
            format!("grounding this game is too large: {what}"),
        );
        if let Some(shown) = self.latest_fact() {
            d = d.with_note(format!(
                "this rule was still producing new facts such as `{shown}`"
            ));
        }
        if reached == Reached::Depth || self.still_growing() {
            return d.with_note(self.growth_note());
        }
        self.fallback = Some(format!("too large to ground ({what})"));
        d.with_note(format!(
            "no relation grows without bound, but the game is larger than grounding allows: \
             it reached {} ground atoms (limit {}), {} ground rules (limit {}) and {} candidate \
             facts tried (limit {}) in {} round{}",
            self.atoms.len(),
            limits.max_atoms,
            // The relaxed model alone records no rules: its instances.
            match self.output {
                Output::Program => self.heads.len(),
                Output::Atoms => self.instances,
            },
            limits.max_rules,
            self.work,
            limits.max_work,
            self.round(),
            if self.round() == 1 { "" } else { "s" },
        ))
    }

    /// The latest new fact, as the user writes it, cut to 60 characters.
    fn latest_fact(&self) -> Option<String> {
        let &(rel, fact) = self.atoms.last()?;
        let rel = &self.rels[rel as usize];
        let shown = show_atom(
            &self.symbols,
            &self.terms,
            self.syntax,
            rel.name,
            rel.fact(fact),
        );
        Some(match shown.char_indices().nth(60) {
            Some((cut, _)) => format!("{}…", &shown[..cut]),
            None => shown,
        })
    }

    /// The steps taken so far ([`estimate::effort`]).
    fn effort(&self) -> estimate::Effort {
        estimate::effort(self.work, self.lits.len(), self.atoms.len())
    }

    /// Whether the effort is past the budget and stays so: past it,
    /// [`Grounder::extend`] may raise the budget, and grounding goes on.
    fn past_budget(&mut self) -> bool {
        let effort = self.effort();
        if effort <= self.limits.max_effort {
            return false;
        }
        let overrun = Overrun {
            growing: self.still_growing(),
            effort,
            model: size::Model {
                rules: &self.rules,
                rels: &self.rels,
                rel_ids: &self.rel_ids,
                terms: &self.terms,
                symbols: &self.symbols,
                rules_written: self.heads.len(),
                literals_written: self.lits.len(),
            },
        };
        match (self.extend)(&overrun) {
            Some(budget) if budget >= effort => {
                self.limits.max_effort = budget;
                false
            }
            _ => true,
        }
    }

    /// Rounds of the fixpoint started so far.
    fn round(&self) -> u32 {
        self.extents.len().saturating_sub(1) as u32
    }

    /// Whether grounding still makes ever larger terms: after a few rounds,
    /// the deepest term or the largest integer is larger now than halfway
    /// through and than anything the program itself writes. A finite game
    /// makes its largest terms early and then only combines them.
    fn still_growing(&self) -> bool {
        let round = self.round();
        let now = self.terms.extent();
        round >= GROWTH_ROUNDS
            && now.exceeds(self.extents[round as usize / 2])
            && now.exceeds(self.extents[0])
    }

    /// What to do about the growth the last fact shows: a counter far below
    /// zero goes down, one far above goes up.
    fn growth_note(&self) -> &'static str {
        const FAR: i64 = 1_000;
        let mut stack: Vec<TermId> = self.atoms.last().map_or(Vec::new(), |&(rel, fact)| {
            self.rels[rel as usize].fact(fact).to_vec()
        });
        let (mut low, mut high) = (false, false);
        while let Some(t) = stack.pop() {
            match self.terms.term(t) {
                GTerm::Int(i) => {
                    low |= *i < -FAR;
                    high |= *i > FAR;
                }
                GTerm::App(_, sub) if stack.len() < 256 => stack.extend(sub.iter()),
                _ => {}
            }
        }
        match (low, high) {
            (true, false) => {
                "a counter goes down without bound; bound it with a comparison such as `N >= 0`"
            }
            (false, true) => {
                "a counter goes up without bound; bound it with a comparison such as `N < 100`"
            }
            _ => {
                "a relation probably grows without bound (a counter with no upper limit, or a \
                 term that nests deeper each step); bound it with a comparison such as \
                 `N < 100` (or `N >= 0` for one that goes down)"
            }
        }
    }

    /// Semi-naive evaluation to the relaxed model, recording every ground
    /// rule on the way; `rels[i]` are the relations of `rules[i]`. Facts
    /// run once; then each round runs, in rule order, every positive
    /// literal of a relation with new facts as the delta literal. When the
    /// rules add nothing, the aggregates' candidate values are brought up to
    /// date, and evaluation goes on while they grow.
    fn solve(
        &mut self,
        rules: &[Prepared],
        rels: &[RuleRels],
        aggregates: &[aggregate::AggSpec],
    ) -> Result<(), Diagnostic> {
        self.extents.push(self.terms.extent());
        for (rule, rule_rels) in rules.iter().zip(rels) {
            if rule.pos.is_empty() {
                self.run(rule, rule_rels, None, &[])?;
            }
        }
        let mut readers: Vec<Vec<(u32, u32)>> = vec![Vec::new(); self.rels.len()];
        for (r, rule_rels) in rels.iter().enumerate() {
            for (i, &rel) in rule_rels.pos.iter().enumerate() {
                readers[rel].push((r as u32, i as u32));
            }
        }
        let mut due = Vec::new();
        let mut windows = Vec::new();
        loop {
            self.extents.push(self.terms.extent());
            self.due_readers(&readers, &mut due);
            if due.is_empty() {
                if !self.aggregate_candidates(aggregates)? {
                    return Ok(());
                }
                self.due_readers(&readers, &mut due);
                if due.is_empty() {
                    return Ok(());
                }
            }
            if self.round() >= self.limits.max_rounds {
                return Err(self.too_big(self.last_span, Reached::Rounds));
            }
            due.sort_unstable();
            for &(r, i) in &due {
                let (r, delta) = (r as usize, i as usize);
                windows.clear();
                windows.extend(rels[r].pos.iter().enumerate().map(|(i, &rel)| {
                    let rel = &self.rels[rel];
                    match i.cmp(&delta) {
                        Ordering::Less => (0, rel.old),
                        Ordering::Equal => (rel.old, rel.cur),
                        Ordering::Greater => (0, rel.cur),
                    }
                }));
                self.run(&rules[r], &rels[r], Some(delta), &windows)?;
            }
            for rel in &mut self.rels {
                rel.old = rel.cur;
            }
        }
    }

    /// The (rule, literal) pairs to run this round: the readers of every
    /// relation with facts new since the last round.
    fn due_readers(&mut self, readers: &[Vec<(u32, u32)>], due: &mut Vec<(u32, u32)>) {
        due.clear();
        for (rel, readers) in self.rels.iter_mut().zip(readers) {
            rel.cur = rel.atoms.len() as u32;
            if rel.cur > rel.old {
                due.extend_from_slice(readers);
            }
        }
    }

    /// Records one instance found by a join: the head fact (added to the
    /// model) and, unless the rule is a bridge, the ground rule with its
    /// positive body atoms `body`. Negative literals, ground under `env`,
    /// are kept pending until the model is complete.
    fn emit(
        &mut self,
        rule: &Prepared,
        rels: &RuleRels,
        head: &[TermId],
        body: &[AtomId],
        order: &[usize],
        env: &[Option<TermId>],
    ) -> Result<(), Diagnostic> {
        let numeric = !rule.open_vars.is_empty() && !rule.bridge;
        if numeric && !self.instance_numbers(rule, body, order, env)? {
            return Ok(()); // a comparison decided false: never holds
        }
        if head
            .iter()
            .any(|&t| self.terms.depth(t) > self.limits.max_term_depth)
        {
            return Err(self.too_big(rule.span, Reached::Depth));
        }
        let before = self.atoms.len();
        let head_atom = self.insert(rels.head, head, rule.span)?;
        if self.atoms.len() > before && !rule.bridge {
            self.last_span = rule.span;
        }
        if rule.bridge {
            return Ok(());
        }
        if self.output == Output::Atoms {
            // The join cuts a branch whose head atom is known, but for the
            // last literal's: the instances that made an atom.
            self.instances += usize::from(self.atoms.len() > before);
            return Ok(());
        }
        self.instances += 1;
        if numeric && self.open_mask(rule.head.rel) != 0 {
            self.record_head_values(rule, head_atom)?;
        }
        if self.heads.len() >= self.limits.max_rules {
            return Err(self.too_big(rule.span, Reached::Rules));
        }
        if self.past_budget() {
            return Err(self.too_big(rule.span, Reached::Effort));
        }
        if rels.watch {
            self.watched.push((self.heads.len() as u32, rule.span));
        }
        self.heads.push(head_atom);
        self.lits.extend(body.iter().map(|&a| Lit::new(a, false)));
        for (atom, &rel) in rule.neg.iter().zip(&rels.neg) {
            let mark = self.pending_args.len();
            for p in atom.args.iter() {
                match self.build(p, env) {
                    Some(t) => self.pending_args.push(t),
                    // Arithmetic that fails in a negated atom: the atom
                    // cannot hold, so the literal is true and is left out.
                    None => break,
                }
            }
            if self.pending_args.len() - mark < atom.args.len() {
                self.pending_args.truncate(mark);
                continue;
            }
            let pending = AtomId(self.pending_rels.len() as u32);
            self.lits.push(Lit::new(pending, true));
            self.pending_rels.push(rel as u32);
        }
        if numeric {
            self.push_tests();
        }
        self.starts.push(self.lits.len() as u32);
        Ok(())
    }

    fn insert(&mut self, rel: usize, args: &[TermId], span: Span) -> Result<AtomId, Diagnostic> {
        if let Some(f) = self.rels[rel].find(args) {
            return Ok(self.rels[rel].atoms[f as usize]);
        }
        if self.atoms.len() >= self.limits.max_atoms {
            return Err(self.too_big(span, Reached::Atoms));
        }
        if self.past_budget() {
            return Err(self.too_big(span, Reached::Effort));
        }
        let id = AtomId(self.atoms.len() as u32);
        let r = &mut self.rels[rel];
        self.atoms.push((rel as u32, r.atoms.len() as u32));
        r.push(args, id, &self.terms);
        Ok(id)
    }

    /// Resolves the pending negative literals against the complete model:
    /// an atom outside it never holds, so its negation is dropped.
    fn finish(self, syntax: Syntax) -> Ground {
        let effort = self.effort();
        let instances = self.instances;
        let mut offset = 0;
        let resolved: Vec<Option<AtomId>> = self
            .pending_rels
            .iter()
            .map(|&rel| {
                let r = &self.rels[rel as usize];
                let args = &self.pending_args[offset..offset + r.arity];
                offset += r.arity;
                r.find(args).map(|f| r.atoms[f as usize])
            })
            .collect();
        let mut lits = Vec::with_capacity(self.lits.len());
        let mut starts = Vec::with_capacity(self.starts.len());
        starts.push(0);
        for w in self.starts.windows(2) {
            for &lit in &self.lits[w[0] as usize..w[1] as usize] {
                if !lit.negated() {
                    lits.push(lit);
                } else if let Some(atom) = resolved[lit.atom().0 as usize] {
                    lits.push(Lit::new(atom, true));
                }
            }
            starts.push(lits.len() as u32);
        }
        let atoms = self
            .atoms
            .iter()
            .map(|&(rel, fact)| {
                let r = &self.rels[rel as usize];
                GroundAtom {
                    rel: r.name,
                    args: r.fact(fact).into(),
                }
            })
            .collect();
        Ground {
            syntax,
            symbols: self.symbols,
            terms: self.terms,
            atoms,
            heads: self.heads,
            starts,
            lits,
            numbers: self.num.finish(),
            effort,
            instances,
        }
    }
}
