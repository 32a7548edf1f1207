//! The whole front half of the pipeline in one call: read, check, ground,
//! compile.
//!
//! In: a path (or text), a syntax, parameter overrides. Out: a ready
//! [`Game`] with any warnings and the checks' [`Summary`], or every
//! diagnostic that stopped it; in both cases the [`SourceMap`] the
//! diagnostics point into and how many diagnostics the checks left out (or
//! the I/O error that kept the file from being read). Every command of the
//! CLI, the REPL and the tests open games here. Unless an engine is asked
//! for, a game whose grounding costs too much for the work of one of its
//! states, or that is finite but too large to ground, runs on the rule
//! evaluator; [`Loaded::choice`] says why (the rule, from counts only, is in
//! [`choose`]).

use crate::check::{Summary, analyse, in_source_order, incomplete, never_matched};
use crate::diag::{Diagnostic, has_errors};
use crate::engine::perft::Ahead;
use crate::engine::{EngineKind, Game};
use crate::ground::estimate::{self, Effort};
use crate::ground::{self, Ground, GroundError, Limits, StateFacts};
use crate::syntax::{self, LoadError, Overrides, Program, ReadError, SourceMap, Syntax};
use std::path::Path;

pub struct Loaded {
    pub game: Game,
    pub sources: SourceMap,
    pub warnings: Vec<Diagnostic>,
    /// Warnings found beyond the checks' limit per code and not kept.
    pub omitted: usize,
    /// The program's shape: relations, rules, strata.
    pub summary: Summary,
    /// Why the game runs on the engine it does.
    pub choice: Choice,
}

pub struct Failed {
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics found beyond the checks' limit per code and not kept.
    pub omitted: usize,
    /// Set when the file could not be read at all (then there are no
    /// diagnostics): an I/O error, not an invalid game.
    pub unreadable: Option<ReadError>,
}

/// Opens a game file; `syntax` defaults to the one the extension implies.
pub fn open(path: &Path, syntax: Option<Syntax>, overrides: &Overrides) -> Result<Loaded, Failed> {
    open_with(path, syntax, overrides, None)
}

/// Opens a game file for an engine (`None`: the default choice).
pub fn open_with(
    path: &Path,
    syntax: Option<Syntax>,
    overrides: &Overrides,
    engine: Option<EngineKind>,
) -> Result<Loaded, Failed> {
    let (program, sources) = read(path, syntax, overrides)?;
    build_with(program, sources, engine)
}

/// A game file parsed (`syntax` defaulting to the one the extension
/// implies), with the sources its diagnostics point into.
fn read(
    path: &Path,
    syntax: Option<Syntax>,
    overrides: &Overrides,
) -> Result<(Program, SourceMap), Failed> {
    let mut sources = SourceMap::default();
    let syntax = syntax.unwrap_or_else(|| syntax::syntax_of(path));
    match syntax::load(&mut sources, path, syntax, overrides) {
        Ok(program) => Ok((program, sources)),
        Err(LoadError::Invalid(diagnostics)) => Err(Failed {
            sources,
            diagnostics,
            omitted: 0,
            unreadable: None,
        }),
        Err(LoadError::Unreadable(e)) => Err(Failed {
            sources,
            diagnostics: Vec::new(),
            omitted: 0,
            unreadable: Some(e),
        }),
    }
}

/// Opens a game held in memory.
pub fn open_str(name: &str, text: &str, syntax: Syntax) -> Result<Loaded, Failed> {
    let mut sources = SourceMap::default();
    match syntax::parse_str(&mut sources, name, text, syntax) {
        Ok(program) => build(program, sources),
        Err(diagnostics) => Err(Failed {
            sources,
            diagnostics,
            omitted: 0,
            unreadable: None,
        }),
    }
}

/// Checks, grounds and compiles a parsed program.
pub fn build(program: Program, sources: SourceMap) -> Result<Loaded, Failed> {
    build_with(program, sources, None)
}

/// Checks a parsed program and makes the game for an engine (`None`: the
/// default choice, falling back to the rule evaluator for a finite game
/// too large to ground).
pub fn build_with(
    program: Program,
    sources: SourceMap,
    engine: Option<EngineKind>,
) -> Result<Loaded, Failed> {
    build_by(&program, sources, |program| make_game(program, engine))
}

/// Checks a parsed program and, if it passes, makes its game with `make`.
fn build_by(
    program: &Program,
    sources: SourceMap,
    make: impl FnOnce(&Program) -> Result<(Game, Choice), Vec<Diagnostic>>,
) -> Result<Loaded, Failed> {
    let analysis = analyse(program);
    let (mut diagnostics, omitted) = (analysis.diagnostics, analysis.omitted);
    if has_errors(&diagnostics) {
        return Err(Failed {
            sources,
            diagnostics,
            omitted,
            unreadable: None,
        });
    }
    // The checks passed: grounding and compiling find what only they can (an
    // infinite or too large instantiation, a goal that is not an integer).
    match make(program) {
        Ok((game, choice)) => Ok(Loaded {
            warnings: {
                // The rule evaluator has no ground program to judge literals by.
                if game.query_rules().is_none() {
                    diagnostics.extend(never_matched(program, &game));
                    in_source_order(&mut diagnostics);
                }
                diagnostics.into_iter().chain(incomplete(program)).collect()
            },
            game,
            sources,
            omitted,
            summary: analysis.summary,
            choice,
        }),
        Err(mut errors) => {
            diagnostics.append(&mut errors);
            Err(Failed {
                sources,
                diagnostics,
                omitted,
                unreadable: None,
            })
        }
    }
}

/// Why a game runs on the engine it does (`check --explain` says it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The engine was asked for (`--engine`).
    Asked,
    /// Compiled: it grounded within [`estimate::FIRST_LOOK`], in `effort`
    /// steps.
    FirstLook { effort: Effort },
    /// Compiled: past the first look, it grounded in `effort` steps within
    /// the `budget` ([`estimate::budget_for`]) its states' cost on the rule
    /// evaluator, `per_state` candidate facts each, allows.
    WithinBudget {
        effort: Effort,
        per_state: u64,
        budget: Effort,
    },
    /// Compiled: grounded with the whole limits, in `effort` steps, the
    /// rule evaluator being unable to run its initial state.
    Whole { effort: Effort },
    /// On the rule evaluator: grounding takes more than the `budget` its
    /// `per_state` cost allows, and more than [`estimate::MEASURE_AT`] or
    /// the first look ([`estimate::grounds_up_to`]).
    Estimate { per_state: u64, budget: Effort },
    /// On the rule evaluator: the ground program, predicted when the
    /// rule evaluator was measured, passes twice the effort its cost per
    /// state allows ([`estimate::beyond`]), so the grounding stopped there.
    Predicted(Prediction),
    /// On the rule evaluator: finite but larger than the limits (why).
    TooLarge(String),
    /// On the rule evaluator for now ([`open_staged`]): grounding passed
    /// [`estimate::PEEK`]; it is tried again, with up to `most` steps (as
    /// many as the default choice may take for the game's cost per state),
    /// when the work ahead pays for it.
    Deferred { most: Effort },
    /// Compiled after starting on the rule evaluator ([`open_staged`]): it
    /// grounded in `effort` steps when the work ahead paid for them.
    Staged { effort: Effort },
}

/// A grounding stopped by its prediction ([`Choice::Predicted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The rule evaluator's candidate facts per state.
    pub per_state: u64,
    /// The effort those allow ([`estimate::budget_for`]).
    pub budget: Effort,
    /// The steps the whole grounding is predicted to take.
    pub predicted: Effort,
    /// The steps taken when it was predicted.
    pub at: Effort,
}

impl Choice {
    /// Why the game runs on the rule evaluator though no engine was asked
    /// for, if it does.
    pub fn fallback(&self) -> Option<String> {
        match self {
            Choice::Estimate { per_state, budget } => Some(format!(
                "grounding takes more than {} steps, more than it may for {} candidate facts per \
                 state on the rule evaluator",
                estimate::grounds_up_to(*budget),
                at_least(*per_state),
            )),
            Choice::Predicted(p) => Some(format!(
                "grounding would take about {} steps (predicted after {}), more than twice the {} \
                 it may for {} candidate facts per state on the rule evaluator",
                p.predicted,
                p.at,
                estimate::grounds_up_to(p.budget),
                at_least(p.per_state),
            )),
            Choice::TooLarge(why) => Some(why.clone()),
            _ => None,
        }
    }

    /// Why the engine was chosen, in words.
    pub fn explain(&self) -> String {
        match self {
            Choice::Asked => "asked for with --engine".to_string(),
            Choice::FirstLook { effort } => format!(
                "grounded in {effort} steps, within the first look of {}",
                estimate::FIRST_LOOK
            ),
            Choice::WithinBudget {
                effort,
                per_state,
                budget,
            } => format!(
                "grounded in {effort} steps, within the {budget} it may for {} candidate facts per \
                 state on the rule evaluator",
                at_least(*per_state)
            ),
            Choice::Whole { effort } => format!(
                "grounded in {effort} steps with the whole limits (the rule evaluator could not \
                 evaluate the initial state)"
            ),
            Choice::Estimate { .. } | Choice::Predicted(_) | Choice::TooLarge(_) => {
                self.fallback().unwrap_or_default()
            }
            Choice::Staged { effort } => format!(
                "grounded in {effort} steps, tried when the work ahead on the rule evaluator paid \
                 for them"
            ),
            Choice::Deferred { most } => format!(
                "grounding takes more than {} steps: on the rule evaluator until the work ahead \
                 pays for grounding (at most {most} steps)",
                estimate::PEEK
            ),
        }
    }
}

/// A state's cost on the rule evaluator in words: a measure stops at
/// [`estimate::ENOUGH_PER_STATE`].
fn at_least(per_state: u64) -> String {
    match per_state >= estimate::ENOUGH_PER_STATE {
        true => format!("{per_state} or more"),
        false => per_state.to_string(),
    }
}

/// The game for an engine, and why it runs on the engine it does.
fn make_game(
    program: &Program,
    engine: Option<EngineKind>,
) -> Result<(Game, Choice), Vec<Diagnostic>> {
    let limits = Limits::default();
    values_written(program)?;
    match engine {
        Some(EngineKind::Rules) => Ok((Game::from_rules(program, &limits)?, Choice::Asked)),
        Some(engine) => {
            let mut game =
                Game::from_ground(ground::ground(program, &limits)?, program.meta.clone())?;
            game.set_engine(engine);
            Ok((game, Choice::Asked))
        }
        None => choose(program, &limits),
    }
}

/// Goal and weight values written in the rules that are no integers.
fn values_written(program: &Program) -> Result<(), Vec<Diagnostic>> {
    let bad_values = crate::engine::values::written_values(program);
    match bad_values.is_empty() {
        true => Ok(()),
        false => Err(bad_values),
    }
}

/// A game opened to be counted level by level (`perft`), whose work shows
/// a level ahead ([`open_staged`]).
pub struct Staged {
    pub loaded: Loaded,
    /// Set while the game runs on the rule evaluator though grounding it
    /// might pay ([`Choice::Deferred`]).
    pub deferred: Option<Deferred>,
}

impl From<Loaded> for Staged {
    /// A game on its engine for good.
    fn from(loaded: Loaded) -> Staged {
        Staged {
            loaded,
            deferred: None,
        }
    }
}

/// A game started on the rule evaluator that may yet be compiled: its
/// grounding is tried again, from the start, each time the work it may
/// take has at least doubled, so the tries cost no more than twice the
/// last.
pub struct Deferred {
    program: Program,
    /// The effort of the last try, which stopped there.
    tried: Effort,
    /// The effort a try must reach first: the grounding's size predicted at
    /// the peek.
    predicted: Effort,
    /// The most effort a try takes ([`Choice::Deferred`]).
    most: Effort,
}

impl Deferred {
    /// The game compiled once the rule evaluator's work so far and ahead
    /// pays for grounding it ([`Deferred::compile_within`]).
    pub fn when_paid(&mut self, ahead: Ahead) -> Option<Game> {
        let effort = ahead.spent.saturating_add(ahead.predicted);
        self.compile_within(effort).map(|(game, _)| game)
    }

    /// The game compiled, if it grounds within `effort` steps (at most
    /// [`Choice::Deferred`]'s `most`); tried only if that is at least the
    /// predicted size and twice the last try's, and until a try is refused
    /// for another reason than its effort or has had the most.
    fn compile_within(&mut self, effort: Effort) -> Option<(Game, Choice)> {
        let effort = effort.min(self.most);
        let doubled = effort >= 2 * self.tried || effort == self.most;
        if self.tried >= self.most || effort < self.predicted.min(self.most) || !doubled {
            return None;
        }
        self.tried = effort;
        let limits = Limits {
            max_effort: effort,
            ..Limits::default()
        };
        // Err(true): the try stopped at its effort, and a larger one may do.
        let game = (ground::ground(&self.program, &limits).map_err(|e| e.over_budget)).and_then(
            |ground| {
                let choice = Choice::Staged {
                    effort: ground.effort,
                };
                let game = Game::from_ground(ground, self.program.meta.clone());
                game.map(|game| (game, choice)).or(Err(false))
            },
        );
        if matches!(game, Err(false)) {
            self.tried = self.most;
        }
        game.ok()
    }
}

/// Opens a game file for a count that goes level by level, where the work
/// of the level ahead is known before it is done (`perft` without
/// `--engine`): a game that grounds within [`estimate::PEEK`] is compiled,
/// one that does not starts on the rule evaluator ([`Choice::Deferred`]),
/// and the count asks [`Deferred::when_paid`] as its work grows. A game
/// whose grounding grows, fails or is too large at the peek, whose state
/// costs the rule evaluator the most it measures
/// ([`estimate::ENOUGH_PER_STATE`]), or that the rule evaluator cannot run,
/// gets the default choice at once.
pub fn open_staged(
    path: &Path,
    syntax: Option<Syntax>,
    overrides: &Overrides,
) -> Result<Staged, Failed> {
    let (program, sources) = read(path, syntax, overrides)?;
    let (mut predicted, mut first) = (0, 0);
    let mut loaded = build_by(&program, sources, |program| {
        make_staged(program, &mut predicted, &mut first)
    })?;
    let Choice::Deferred { most } = loaded.choice else {
        return Ok(Staged::from(loaded));
    };
    let mut deferred = Deferred {
        program,
        tried: estimate::PEEK,
        predicted,
        most,
    };
    // The initial state alone may cost the rule evaluator a try.
    if let Some((game, choice)) = deferred.compile_within(first) {
        (loaded.game, loaded.choice) = (game, choice);
        return Ok(Staged::from(loaded));
    }
    Ok(Staged {
        loaded,
        deferred: Some(deferred),
    })
}

/// The game [`open_staged`] starts on; `predicted` is set to the steps the
/// grounding is predicted at the peek to take, `first` to the work of the
/// rule evaluator's first state ([`crate::engine::RuleWork::first`]).
fn make_staged(
    program: &Program,
    predicted: &mut Effort,
    first: &mut u64,
) -> Result<(Game, Choice), Vec<Diagnostic>> {
    let limits = Limits::default();
    values_written(program)?;
    let peek = Limits {
        max_effort: estimate::PEEK,
        ..limits
    };
    let mut growing = true;
    let grounded = ground::ground_extending(program, &peek, &mut |overrun| {
        growing = overrun.growing;
        *predicted = overrun.predicted(None);
        None
    });
    match grounded {
        Ok(ground) => {
            let effort = ground.effort;
            compiled(program, ground, Choice::FirstLook { effort })
        }
        Err(e) if e.over_budget && !growing => {
            let game = Game::from_rules(program, &limits);
            let work = (game.as_ref().ok())
                .and_then(|game| game.rule_work_per_state(estimate::ENOUGH_PER_STATE));
            match (game, work) {
                // A state that costs the rule evaluator the most it
                // measures gets the largest budget: the default choice.
                (Ok(game), Some(work)) if work.per_state < estimate::ENOUGH_PER_STATE => {
                    *first = work.first;
                    let most = estimate::grounds_up_to(estimate::budget_for(work.per_state));
                    Ok((game, Choice::Deferred { most }))
                }
                _ => choose(program, &limits),
            }
        }
        Err(_) => choose(program, &limits),
    }
}

/// The default engine (see docs/ENGINES.md, "How an engine is chosen"):
/// a game that grounds within [`estimate::MEASURE_AT`] is compiled unless
/// its ground program, predicted at [`estimate::PEEK`], passes it; past it
/// (or that prediction), the game is loaded on the rule evaluator, which
/// says what one of its states costs, and its grounding goes on, in place,
/// only within the effort that cost allows ([`estimate::budget_for`]) or
/// the first look, and only if the ground program, predicted with every
/// state fact the rule evaluator knows, fits there.
fn choose(program: &Program, limits: &Limits) -> Result<(Game, Choice), Vec<Diagnostic>> {
    let mut stage = Stage::Unmeasured;
    let mut rules = None;
    let peek = Limits {
        max_effort: estimate::PEEK,
        ..*limits
    };
    let grounded = ground::ground_extending(program, &peek, &mut |overrun| {
        match stage {
            Stage::Unmeasured if !overrun.growing => {
                // At the peek, a game not predicted past the measure grounds
                // on to it unmeasured.
                let peeking = overrun.effort <= estimate::MEASURE_AT;
                if peeking && !estimate::beyond(overrun.predicted(None), estimate::MEASURE_AT) {
                    return Some(estimate::MEASURE_AT);
                }
                let game = Game::from_rules(program, limits);
                let per_state = (game.as_ref().ok())
                    .and_then(|game| game.rule_work_per_state(estimate::ENOUGH_PER_STATE))
                    .map(|work| work.per_state);
                let predicted = (game.as_ref().ok()).map(|game| {
                    overrun.predicted(Some(StateFacts {
                        facts: game.possible_facts(),
                        terms: &game.terms,
                    }))
                });
                rules = Some(game);
                let (Some(per_state), Some(predicted)) = (per_state, predicted) else {
                    stage = Stage::Whole;
                    return Some(limits.max_effort);
                };
                let budget = estimate::budget_for(per_state);
                let up_to = estimate::grounds_up_to(budget);
                // Predicted far past where it may stop: stop now.
                if estimate::beyond(predicted, up_to) {
                    stage = Stage::Predicted(Prediction {
                        per_state,
                        budget,
                        predicted,
                        at: overrun.effort,
                    });
                    return None;
                }
                stage = Stage::Budget { per_state, budget };
                (up_to > overrun.effort).then_some(up_to)
            }
            Stage::Budget { .. } | Stage::Predicted(_) if !overrun.growing => None,
            // A relation the grounder saw grow gets the whole limits' verdict.
            _ => {
                stage = Stage::Whole;
                Some(limits.max_effort)
            }
        }
    });
    let rules = || rules.unwrap_or_else(|| Game::from_rules(program, limits));
    match (grounded, stage) {
        (Ok(ground), stage) => {
            let effort = ground.effort;
            let choice = match stage {
                // Within the first look, measured or not.
                Stage::Unmeasured => Choice::FirstLook { effort },
                _ if effort <= estimate::FIRST_LOOK => Choice::FirstLook { effort },
                Stage::Budget { per_state, budget } => Choice::WithinBudget {
                    effort,
                    per_state,
                    budget,
                },
                Stage::Whole | Stage::Predicted(_) => Choice::Whole { effort },
            };
            compiled(program, ground, choice)
        }
        (Err(e), Stage::Budget { per_state, budget }) if e.over_budget => {
            Ok((rules()?, Choice::Estimate { per_state, budget }))
        }
        (Err(e), Stage::Predicted(prediction)) if e.over_budget => {
            Ok((rules()?, Choice::Predicted(prediction)))
        }
        (
            Err(GroundError {
                fallback: Some(why),
                ..
            }),
            _,
        ) => Ok((rules()?, Choice::TooLarge(why))),
        (Err(e), _) => Err(e.diagnostics),
    }
}

/// Where the default choice stands while the game grounds.
#[derive(Clone, Copy)]
enum Stage {
    /// Within [`estimate::MEASURE_AT`], nothing measured yet.
    Unmeasured,
    /// Within the budget the rule evaluator's cost per state allows.
    Budget { per_state: u64, budget: Effort },
    /// Stopped: the ground program is predicted beyond that budget.
    Predicted(Prediction),
    /// With the whole limits: the rule evaluator could not be measured, or
    /// a relation grew.
    Whole,
}

/// The compiled game of a ground program, on the engine that pays off.
fn compiled(
    program: &Program,
    ground: Ground,
    choice: Choice,
) -> Result<(Game, Choice), Vec<Diagnostic>> {
    Ok((Game::from_ground(ground, program.meta.clone())?, choice))
}
