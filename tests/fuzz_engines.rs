//! Mutated games on every engine (issue 31): a seeded, bounded sweep.
//!
//! Each shipped game (`games/*.rules`) and a few test games are mutated
//! token by token and line by line (a token dropped, doubled or swapped
//! with the next, a number replaced by an edge value or a name, a
//! variable by `_` or `_1`, a line dropped or swapped with the next), a
//! fixed number of times from a fixed seed. Every mutant is loaded on the reference,
//! incremental and rule engines. Holds: no mutant panics; an engine that
//! refuses a mutant says where (every error has a line and a column, but
//! for the codes that by nature point at no place); the engines that
//! accept it count the same perft leaves and states to a small depth, or
//! stop with the same kind of error. Bounded by the number of mutants and
//! the depth, never by a clock.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::panic::AssertUnwindSafe;
use tabula::diag::Severity;
use tabula::engine::perft::{PerftError, perft};
use tabula::engine::{EngineError, EngineKind, Game};
use tabula::syntax::{self, SourceMap, Syntax};

/// The games mutated, their syntax, how many mutants of each and the
/// perft depth (the large games get fewer mutants and a shallower count).
const GAMES: &[(&str, Syntax, usize, u32)] = &[
    ("games/pawn_whopping.rules", Syntax::Rules, 30, 2),
    ("games/tablan.rules", Syntax::Rules, 12, 2),
    ("games/generals.rules", Syntax::Rules, 5, 2),
    ("games/chaupar.rules", Syntax::Rules, 3, 1),
    ("games/pachisi.rules", Syntax::Rules, 3, 1),
    ("tests/games/beacon.rules", Syntax::Rules, 40, 3),
    ("tests/games/heaps.rules", Syntax::Rules, 40, 3),
    ("tests/games/modulo.rules", Syntax::Rules, 15, 3),
    ("tests/games/tally.rules", Syntax::Rules, 40, 3),
    ("tests/games/dice.kif", Syntax::Kif, 30, 3),
    ("tests/games/race.kif", Syntax::Kif, 30, 3),
    ("tests/games/weighted.kif", Syntax::Kif, 30, 3),
    ("tests/games/nim4.kif", Syntax::Kif, 30, 3),
];

/// Codes of errors that concern the whole file, not a place in it.
const FILE_LEVEL: &[&str] = &["E0106"];

/// What a number may be replaced by: edge values, and a name where an
/// integer is due.
const EDGES: &[&str] = &[
    "high",
    "0",
    "-1",
    "1000000",
    "1000001",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
];

/// The text split into tokens: runs of identifier characters, runs of
/// spaces, and single other characters; joined they give the text back.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' || c == '?' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    for c in text.chars() {
        match out.last_mut() {
            Some(last) if class(c) != 2 && last.chars().last().map(class) == Some(class(c)) => {
                last.push(c)
            }
            _ => out.push(c.to_string()),
        }
    }
    out
}

/// One mutant of `text`.
fn mutate(text: &str, rng: &mut Xoshiro256PlusPlus) -> String {
    let mut toks = tokens(text);
    let words: Vec<usize> = (0..toks.len())
        .filter(|&i| !toks[i].trim().is_empty())
        .collect();
    let pick = |rng: &mut Xoshiro256PlusPlus, from: &[usize]| from[rng.random_range(0..from.len())];
    match rng.random_range(0..7) {
        0 => {
            let i = pick(rng, &words);
            toks[i].clear();
        }
        1 => {
            let i = pick(rng, &words);
            let t = toks[i].clone();
            toks[i] = format!("{t} {t}");
        }
        2 => {
            let k = rng.random_range(0..words.len() - 1);
            toks.swap(words[k], words[k + 1]);
        }
        3 => {
            let numbers: Vec<usize> = (words.iter().copied())
                .filter(|&i| toks[i].parse::<i64>().is_ok())
                .collect();
            if !numbers.is_empty() {
                let i = pick(rng, &numbers);
                toks[i] = EDGES[rng.random_range(0..EDGES.len())].to_string();
            }
        }
        4 => {
            let variables: Vec<usize> = (words.iter().copied())
                .filter(|&i| toks[i].starts_with(|c: char| c.is_ascii_uppercase() || c == '?'))
                .collect();
            if !variables.is_empty() {
                let i = pick(rng, &variables);
                let kif = toks[i].starts_with('?');
                toks[i] = match (kif, rng.random_range(0..2)) {
                    (true, 0) => "?_".to_string(),
                    (true, _) => "?_1".to_string(),
                    (false, 0) => "_".to_string(),
                    (false, _) => "_1".to_string(),
                };
            }
        }
        m => {
            let mut lines: Vec<&str> = text.lines().collect();
            let k = rng.random_range(0..lines.len() - 1);
            if m == 5 {
                lines.remove(k);
            } else {
                lines.swap(k, k + 1);
            }
            return lines.join("\n") + "\n";
        }
    }
    toks.concat()
}

/// What one engine made of a mutant.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Refused, with located errors.
    Refused,
    /// Per depth: leaves and states.
    Counts(Vec<(u128, u64)>),
    /// The count stopped on a state where the game misbehaves: the kind.
    Stopped(String),
}

/// Loads a mutant for one engine and counts; panics (with the reason) on
/// an unlocated error.
fn outcome(name: &str, text: &str, syntax: Syntax, engine: EngineKind, depth: u32) -> Outcome {
    let mut sources = SourceMap::default();
    let loaded = syntax::parse_str(&mut sources, name, text, syntax)
        .map_err(|d| (d, sources.clone()))
        .and_then(|program| {
            tabula::load::build_with(program, sources.clone(), Some(engine))
                .map_err(|f| (f.diagnostics, f.sources))
        });
    let game: Game = match loaded {
        Ok(l) => l.game,
        Err((diagnostics, sources)) => {
            let errors: Vec<_> = (diagnostics.iter())
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert!(!errors.is_empty(), "{name}: refused without an error");
            for d in errors {
                assert!(
                    d.span.is_some() || FILE_LEVEL.contains(&d.code.as_str()),
                    "{name} on {engine:?}: an error with no place:\n{}\n--- mutant:\n{text}",
                    tabula::diag::render(d, &sources, name, false)
                );
            }
            return Outcome::Refused;
        }
    };
    match perft(&game, depth, |_| {}) {
        Ok(levels) => Outcome::Counts(levels.iter().map(|l| (l.leaves, l.states)).collect()),
        Err(PerftError::Engine(e)) => Outcome::Stopped(kind(&e)),
        Err(e) => Outcome::Stopped(e.to_string()),
    }
}

/// The kind of an engine error, which every engine must agree on.
fn kind(e: &EngineError) -> String {
    match e {
        EngineError::NoLegalMove { .. } => "no legal move",
        EngineError::NoGoal { .. } => "no goal",
        EngineError::SeveralGoals { .. } => "several goals",
        EngineError::GoalRange { .. } => "goal out of range",
        EngineError::BadWeight { .. } => "bad weight",
        EngineError::Evaluation { .. } => "evaluation stopped",
    }
    .to_string()
}

#[test]
fn mutated_games_give_the_same_counts_on_every_engine_or_a_located_error() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    let mut compared = 0;
    for &(path, syntax, mutants, depth) in GAMES {
        let text = std::fs::read_to_string(root.join(path)).expect("a shipped game");
        for n in 0..mutants {
            let mutant = mutate(&text, &mut rng);
            let name = format!("{path}#{n}");
            let results: Vec<(EngineKind, Outcome)> = [
                EngineKind::Reference,
                EngineKind::Incremental,
                EngineKind::Rules,
            ]
            .into_iter()
            .map(|engine| {
                let run = || outcome(&name, &mutant, syntax, engine, depth);
                let result = std::panic::catch_unwind(AssertUnwindSafe(run));
                let outcome = result.unwrap_or_else(|_| {
                    panic!("{name} on {engine:?} panicked; the mutant:\n{mutant}")
                });
                (engine, outcome)
            })
            .collect();
            let ran: Vec<&(EngineKind, Outcome)> = (results.iter())
                .filter(|(_, o)| *o != Outcome::Refused)
                .collect();
            if let Some((first_engine, first)) = ran.first() {
                for (engine, other) in &ran[1..] {
                    assert_eq!(
                        first, other,
                        "{name}: {first_engine:?} and {engine:?} disagree; the mutant:\n{mutant}"
                    );
                }
                compared += 1;
            }
        }
    }
    // The sweep compares engines on many mutants, not only refusals.
    assert!(
        compared >= 100,
        "only {compared} mutants ran on some engine"
    );
}
