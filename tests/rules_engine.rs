//! The rule evaluator on its own: a game too large to ground (chess) falls
//! back to it and counts what the independent reasoner counts
//! (`../shared/conformance/large/expected.tsv`); `check` accepts it with a
//! note; a game stratified only atom by atom (futoshiki4) counts right; and
//! a recursion deeper than its limit is a clear error, also on a thread
//! with a small stack; the REPL's `query` asks the rule evaluator.

mod common;

use std::path::Path;
use tabula::engine::perft::perft;
use tabula::engine::{EngineError, EngineKind, Game};
use tabula::syntax::{self, SourceMap, Syntax};

/// The (depth, leaves, states) the reasoner counted for a large game.
fn expected(dir: &Path, game: &str) -> Vec<(u32, u128, u64)> {
    let text = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    text.lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() >= 4 && f[0] == game)
        .map(|f| {
            (
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

/// Perft of a game to `depth` against the reasoner's counts.
fn counts_agree(game: &Game, dir: &Path, name: &str, depth: u32) {
    let want: Vec<_> = (expected(dir, name).into_iter())
        .filter(|&(d, _, _)| d <= depth)
        .collect();
    assert_eq!(
        want.len(),
        depth as usize + 1,
        "{name}: counts to depth {depth}"
    );
    let got: Vec<_> = (perft(game, depth, |_| {}).expect("perft"))
        .iter()
        .map(|l| (l.depth, l.leaves, l.states))
        .collect();
    assert_eq!(got, want, "{name}");
}

#[test]
fn chess_is_too_large_to_ground_and_runs_on_the_rule_evaluator() {
    let Some(dir) = common::shared("conformance/large") else {
        return;
    };
    let loaded = tabula::load::open(&dir.join("chess.kif"), None, &Default::default())
        .unwrap_or_else(|f| panic!("chess does not load: {:?}", f.diagnostics));
    assert_eq!(loaded.game.engine(), EngineKind::Rules);
    assert_eq!(
        loaded.fallback.as_deref(),
        Some("more than 2000000 ground atoms")
    );
    counts_agree(&loaded.game, &dir, "chess.kif", 2);
}

#[test]
fn check_accepts_chess_with_a_note() {
    let Some(dir) = common::shared("conformance/large") else {
        return;
    };
    let path = dir.join("chess.kif");
    let path = path.to_str().expect("a UTF-8 path");
    common::check(
        &["check", "--quiet", "--playouts", "0", path],
        "",
        "",
        &format!(
            "note: {path}: too large to ground (more than 2000000 ground atoms); \
             using the rule evaluator\n"
        ),
        0,
    );
}

#[test]
fn futoshiki_goals_read_their_own_negation_atom_by_atom() {
    let Some(dir) = common::shared("conformance/large") else {
        return;
    };
    let path = dir.join("futoshiki4.kif");
    let game = tabula::load::open_with(&path, None, &Default::default(), Some(EngineKind::Rules))
        .unwrap_or_else(|f| panic!("futoshiki4 does not load: {:?}", f.diagnostics))
        .game;
    assert_eq!(game.engine(), EngineKind::Rules);
    counts_agree(&game, &dir, "futoshiki4.kif", 2);
}

/// `reach(nK)` holds through a chain of `steps` calls, each binding the next.
fn chain(steps: u32) -> String {
    let mut text = String::from(
        "(role p) (init (at start)) (reach n0)\n\
         (<= (reach ?x) (succ ?y ?x) (reach ?y))\n\
         (<= (next (at done)) (does p go))\n\
         (<= terminal (true (at done)))\n\
         (<= (goal p 100) (true (at done)))\n",
    );
    text.push_str(&format!("(<= (legal p go) (reach n{steps}))\n"));
    for i in 0..steps {
        text.push_str(&format!("(succ n{i} n{})\n", i + 1));
    }
    text
}

fn rules_game(text: &str) -> Game {
    let mut sources = SourceMap::default();
    let program = syntax::parse_str(&mut sources, "chain.kif", text, Syntax::Kif)
        .unwrap_or_else(|d| panic!("does not parse: {d:?}"));
    match tabula::load::build_with(program, sources, Some(EngineKind::Rules)) {
        Ok(l) => l.game,
        Err(f) => panic!("does not load: {:?}", f.diagnostics),
    }
}

#[test]
fn a_chain_within_the_limit_is_followed() {
    let game = rules_game(&chain(300));
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert_eq!(m.legal(0).len(), 1);
    assert_eq!(game.show_move(0, m.legal(0)[0]), "go");
}

#[test]
fn a_recursion_deeper_than_the_limit_is_an_error_even_on_a_small_stack() {
    let text = chain(3000);
    let run = move || {
        let game = rules_game(&text);
        let mut m = game.machine();
        m.set_state(&game.initial());
        match m.check_playable() {
            Err(EngineError::Evaluation { message, .. }) => message,
            other => panic!("expected an evaluation error, got {other:?}"),
        }
    };
    let message = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .expect("a thread")
        .join()
        .expect("no overflow");
    assert_eq!(
        message,
        "the rule evaluator reached its limit of nested calls"
    );
}

#[test]
fn the_repl_query_asks_the_rule_evaluator() {
    let game = rules_game(&chain(3));
    let mut m = game.machine();
    m.set_state(&game.initial());
    let mut ask = |pattern: &str| {
        let mut sources = SourceMap::default();
        let file = sources.add("<query>", pattern);
        let mut symbols = game.symbols.clone();
        let term = syntax::parse_term(&sources, file, Syntax::Kif, &mut symbols)
            .unwrap_or_else(|d| panic!("`{pattern}`: {}", d.message));
        let mut found = m.query_shown(&term).expect("no evaluation error");
        found.sort();
        found
    };
    assert_eq!(
        ask("(reach ?x)"),
        ["(reach n0)", "(reach n1)", "(reach n2)", "(reach n3)"]
    );
    assert_eq!(ask("(legal p ?m)"), ["(legal p go)"]);
    assert_eq!(ask("(reach n2)"), ["(reach n2)"]);
    assert!(ask("(reach n9)").is_empty());
}
