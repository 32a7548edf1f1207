//! The whole front half of the pipeline in one call: read, check, ground,
//! compile.
//!
//! In: a path (or text), a syntax, parameter overrides. Out: a ready
//! [`Game`] with any warnings and the checks' [`Summary`], or every
//! diagnostic that stopped it; in both cases the [`SourceMap`] the
//! diagnostics point into and how many diagnostics the checks left out (or
//! the I/O error that kept the file from being read). Every command of the
//! CLI, the REPL and the tests open games here. A game that is finite but
//! too large to ground runs on the rule evaluator unless an engine was
//! asked for; [`Loaded::fallback`] says why.

use crate::check::{Summary, analyse, in_source_order, incomplete, never_matched};
use crate::diag::{Diagnostic, has_errors};
use crate::engine::{EngineKind, Game};
use crate::ground::{self, GroundError, Limits};
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
    /// Why the game runs on the rule evaluator though no engine was asked
    /// for ("too large to ground (more than ...)").
    pub fallback: Option<String>,
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
        Ok((game, fallback)) => Ok(Loaded {
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
            fallback,
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

/// The game for an engine, and why it fell back to the rule evaluator if
/// it did.
fn make_game(
    program: &Program,
    engine: Option<EngineKind>,
) -> Result<(Game, Option<String>), Vec<Diagnostic>> {
    let limits = Limits::default();
    let bad_values = crate::engine::values::written_values(program);
    if !bad_values.is_empty() {
        return Err(bad_values);
    }
    if engine == Some(EngineKind::Rules) {
        return Ok((Game::from_rules(program, &limits)?, None));
    }
    let ground = match ground::ground(program, &limits) {
        Ok(ground) => ground,
        Err(GroundError {
            fallback: Some(why),
            ..
        }) if engine.is_none() => {
            return Ok((Game::from_rules(program, &limits)?, Some(why)));
        }
        Err(e) => return Err(e.into()),
    };
    let mut game = Game::from_ground(ground, program.meta.clone())?;
    if let Some(engine) = engine {
        game.set_engine(engine);
    }
    Ok((game, None))
}
