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
    let mut sources = SourceMap::default();
    let syntax = syntax.unwrap_or_else(|| syntax::syntax_of(path));
    match syntax::load(&mut sources, path, syntax, overrides) {
        Ok(program) => build_with(program, sources, engine),
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
    let analysis = analyse(&program);
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
    match make_game(&program, engine) {
        Ok((game, choice)) => Ok(Loaded {
            warnings: {
                // The rule evaluator has no ground program to judge literals by.
                if game.query_rules().is_none() {
                    diagnostics.extend(never_matched(&program, &game));
                    in_source_order(&mut diagnostics);
                }
                diagnostics
                    .into_iter()
                    .chain(incomplete(&program))
                    .collect()
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
    let bad_values = crate::engine::values::written_values(program);
    if !bad_values.is_empty() {
        return Err(bad_values);
    }
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
                    .and_then(|game| game.rule_work_per_state(estimate::ENOUGH_PER_STATE));
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
