//! The rule evaluator on its own: a game too large to ground (chess) falls
//! back to it and counts what the independent reasoner counts
//! (`../shared/conformance/large/expected.tsv`); `check` accepts it with a
//! note; a game stratified only atom by atom (futoshiki4) counts right; and
//! a recursion deeper than its limit is a clear error, also on a thread
//! with a small stack; the REPL's `query` asks the rule evaluator;
//! aggregates take the values docs/LANGUAGE.md gives them; and a relation
//! that recurses through the rule holding an aggregate is evaluated
//! (tests/games/beacon.rules), as the grounded engines evaluate it.

mod common;

use std::path::Path;
use tabula::engine::perft::perft;
use tabula::engine::{EngineError, EngineKind, Game};
use tabula::ground::estimate;
use tabula::load::Choice;
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
    // A state costs the rule evaluator so much that the budget is the most
    // any game grounds with by default; chess needs more.
    let Choice::Estimate { budget, .. } = loaded.choice else {
        panic!("chess falls back by the estimate: {:?}", loaded.choice)
    };
    assert_eq!(budget, estimate::MAX_BUDGET);
    counts_agree(&loaded.game, &dir, "chess.kif", 2);
}

#[test]
fn check_accepts_chess_with_a_note() {
    let Some(dir) = common::shared("conformance/large") else {
        return;
    };
    let path = dir.join("chess.kif");
    let path = path.to_str().expect("a UTF-8 path");
    let (out, err, code) = common::run(&["check", "--quiet", "--playouts", "0", path], "");
    assert_eq!((out.as_str(), code), ("", 0), "{err}");
    let note =
        format!("note: {path}: grounding takes more than 20000000 steps, more than it may for ");
    assert!(err.starts_with(&note), "{err}");
    assert!(
        err.ends_with(
            " candidate facts per state on the rule evaluator; using the rule evaluator\n"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
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
    game_in(text, Syntax::Kif)
}

fn game_in(text: &str, syntax: Syntax) -> Game {
    let mut sources = SourceMap::default();
    let program = syntax::parse_str(&mut sources, "test", text, syntax)
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

/// The REPL's `query` on the initial state of `game`: the atoms shown,
/// sorted, or the evaluation error.
fn query(game: &Game, pattern: &str) -> Result<Vec<String>, String> {
    let mut m = game.machine();
    m.set_state(&game.initial());
    let mut sources = SourceMap::default();
    let file = sources.add("<query>", pattern);
    let mut symbols = game.symbols.clone();
    let term = syntax::parse_term(&sources, file, game.syntax, &mut symbols)
        .unwrap_or_else(|d| panic!("`{pattern}`: {}", d.message));
    match m.query_shown(&term) {
        Ok(mut found) => {
            found.sort();
            Ok(found)
        }
        Err(EngineError::Evaluation { message, .. }) => Err(message),
        Err(other) => panic!("`{pattern}`: {other:?}"),
    }
}

#[test]
fn the_repl_query_asks_the_rule_evaluator() {
    let game = rules_game(&chain(3));
    let ask = |pattern: &str| query(&game, pattern).expect("no evaluation error");
    assert_eq!(
        ask("(reach ?x)"),
        ["(reach n0)", "(reach n1)", "(reach n2)", "(reach n3)"]
    );
    assert_eq!(ask("(legal p ?m)"), ["(legal p go)"]);
    assert_eq!(ask("(reach n2)"), ["(reach n2)"]);
    assert!(ask("(reach n9)").is_empty());
}

/// Aggregates over a state holding `n(0)`, `n(3)` and `n(5)`, with the
/// values worked by hand.
const AGGREGATES: &str = "roles p.
init n(0). init n(3). init n(5).
legal(p, go) :- true n(_).
next n(X) :- true n(X).
terminal :- true n(9).
goal(p, 0) :- role(p).
limit(0..4).
% The shared Y is bound by a literal written after the aggregate.
above(Y, N) :- N = count { true n(X), X > Y }, limit(Y).
% 10 / 0 has no value: that binding is dropped (10 / 3 + 10 / 5 = 5).
shares(S) :- S = sum Q { true n(X), Q = 10 / X }.
none(N) :- N = count { true n(X), X > 7 }.
zero(S) :- S = sum X { true n(X), X > 7 }.
% The least and greatest of nothing make the literal false.
low(M) :- M = min X { true n(X), X > 7 }.
high(M) :- M = max X { true n(X), X < 5 }.
big(9223372036854775807). big(1).
% A sum that overflows has no value.
huge(S) :- S = sum X { big(X) }.
tag(a).
bad(S) :- S = sum X { tag(X) }.
";

#[test]
fn aggregates_take_their_documented_values_on_the_rule_evaluator() {
    let game = game_in(AGGREGATES, Syntax::Rules);
    assert_eq!(game.engine(), EngineKind::Rules);
    let ask = |pattern: &str| query(&game, pattern).expect("no evaluation error");
    assert_eq!(
        ask("above(Y, N)"),
        [
            "above(0, 2)",
            "above(1, 2)",
            "above(2, 2)",
            "above(3, 1)",
            "above(4, 1)"
        ]
    );
    assert_eq!(ask("above(3, 1)"), ["above(3, 1)"]);
    assert!(ask("above(3, 2)").is_empty());
    assert_eq!(ask("shares(S)"), ["shares(5)"]);
    assert_eq!(ask("none(N)"), ["none(0)"]);
    assert_eq!(ask("zero(S)"), ["zero(0)"]);
    assert!(ask("low(M)").is_empty());
    assert_eq!(ask("high(M)"), ["high(3)"]);
    assert!(ask("huge(S)").is_empty());
    assert_eq!(
        query(&game, "bad(S)"),
        Err("`sum` needs integer values, and one value here is `a`".to_string())
    );
}

/// tests/games/beacon.rules on the rule evaluator, counted by hand in its
/// header, and one position worked by hand: both stones on node 2 darken
/// 2 and 3 (lit only through 2), node 4 has one stone and stays lit, and
/// so 5 is lit through 4 until blue's stone on 4 darkens both.
#[test]
fn a_relation_recursing_through_an_aggregate_rule_is_evaluated() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/beacon.rules");
    let game =
        match tabula::load::open_with(&path, None, &Default::default(), Some(EngineKind::Rules)) {
            Ok(l) => l.game,
            Err(f) => panic!("beacon.rules does not load: {:?}", f.diagnostics),
        };
    assert_eq!(game.engine(), EngineKind::Rules);
    let counts: Vec<_> = (perft(&game, 5, |_| {}).expect("perft"))
        .iter()
        .map(|l| (l.depth, l.leaves))
        .collect();
    assert_eq!(counts, [(0, 1), (1, 4), (2, 16), (3, 45), (4, 126), (5, 0)]);
    let s = common::Scenario { game };
    let state = s.state(&[
        "stone(2, red)",
        "stone(2, blue)",
        "stone(4, red)",
        "control(blue)",
        "step(3)",
    ]);
    let mut m = s.game.machine();
    m.set_state(&state);
    assert_eq!(m.check_playable().map_err(|e| format!("{e:?}")), Ok(()));
    drop(m);
    assert!(!s.is_terminal(&state));
    assert_eq!(s.legal(&state, "red"), ["noop"]);
    assert_eq!(
        s.legal(&state, "blue"),
        ["stone(3)", "stone(4)", "stone(5)"]
    );
    let lit = |state: &tabula::engine::State| {
        let mut m = s.game.machine();
        m.set_state(state);
        let mut sources = SourceMap::default();
        let file = sources.add("<query>", "lit(X)");
        let mut symbols = s.game.symbols.clone();
        let term = syntax::parse_term(&sources, file, Syntax::Rules, &mut symbols).expect("parses");
        let mut found = m.query_shown(&term).expect("no evaluation error");
        found.sort();
        found
    };
    assert_eq!(lit(&state), ["lit(1)", "lit(4)", "lit(5)"]);
    let after = s.play(&state, &[("blue", "stone(4)")]);
    assert_eq!(
        s.facts(&after),
        common::sorted(&[
            "control(red)",
            "step(4)",
            "stone(2, blue)",
            "stone(2, red)",
            "stone(4, blue)",
            "stone(4, red)",
        ])
    );
    assert_eq!(lit(&after), ["lit(1)"]);
    assert!(s.is_terminal(&after));
    assert_eq!(
        s.goals(&after),
        [
            ("red".to_string(), Some(100)),
            ("blue".to_string(), Some(0))
        ]
    );
}

/// A relation between the domains' roots that joins into more ground rules
/// than the limits allow, though its atoms are few: `pair` reads three
/// more numbers it does not need (30^5 ground rules, 900 atoms). It reads
/// no state, so the domains per argument position have it exactly (the
/// rule evaluator answers it), and the game runs on the rule evaluator.
#[test]
fn a_cone_relation_with_too_many_ground_rules_is_slimmed_for_the_domains() {
    let mut text = String::from(
        "(role p) (init (at start))\n\
         (<= (pair ?x ?y) (num ?x) (num ?y) (num ?a) (num ?b) (num ?c))\n\
         (<= (legal p (pick ?x ?y)) (pair ?x ?y))\n\
         (<= (next (at done)) (does p (pick ?x ?y)))\n\
         (<= terminal (true (at done)))\n\
         (<= (goal p 100) (true (at done)))\n",
    );
    for i in 0..30 {
        text.push_str(&format!("(num {i})\n"));
    }
    let game = rules_game(&text);
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert_eq!(m.legal(0).len(), 900);
    assert_eq!(game.show_move(0, m.legal(0)[0]), "(pick 0 0)");
}

/// Two counters `a(X, I)` and `b(Y, J)`: each turn the player keeps both
/// places or steps one of them (modulo 10), and both step counters go up.
/// `legal` joins the two state facts, whose relaxed model holds 3,001 each
/// (`(a 0 0)`, and 10 places at steps 1 to 300): 9 million ground rules
/// for `legal` alone, in every relaxed model the domains could use, so the
/// game was refused (E0201) before the domains per argument position,
/// where the moves are the 100 `go(X, Y)` and the state facts 6,002
/// (`tabula check --engine rules --explain`). By hand: 3 moves in every
/// state, so 3^d leaves at depth d, and the distinct states are the pairs
/// of step counts (ka, kb) with ka + kb <= d, (d + 1)(d + 2) / 2 of them.
#[test]
fn a_legal_rule_joining_independent_state_facts_runs_on_domains_per_position() {
    let mut text = String::from(
        "(role p) (init (a 0 0)) (init (b 0 0))\n\
         (<= (legal p (go ?x ?y)) (true (a ?x ?i)) (true (b ?y ?j)))\n\
         (<= (legal p (go ?x ?y)) (true (a ?u ?i)) (true (b ?y ?j)) (step ?u ?x))\n\
         (<= (legal p (go ?x ?y)) (true (a ?x ?i)) (true (b ?v ?j)) (step ?v ?y))\n\
         (<= (next (a ?x ?k)) (does p (go ?x ?y)) (true (a ?u ?i)) (succ ?i ?k))\n\
         (<= (next (b ?y ?k)) (does p (go ?x ?y)) (true (b ?v ?j)) (succ ?j ?k))\n\
         (<= terminal (true (a ?x 300)))\n\
         (goal p 100)\n",
    );
    for i in 0..10 {
        text.push_str(&format!("(step {i} {})\n", (i + 1) % 10));
    }
    for i in 0..300 {
        text.push_str(&format!("(succ {i} {})\n", i + 1));
    }
    let game = rules_game(&text);
    assert_eq!(game.stats().base_facts, 6_002);
    assert_eq!(game.move_count(0), 100);
    let got: Vec<_> = (perft(&game, 5, |_| {}).expect("perft"))
        .iter()
        .map(|l| (l.depth, l.leaves, l.states))
        .collect();
    let by_hand: Vec<_> = (0..=5u32)
        .map(|d| (d, 3u128.pow(d), u64::from((d + 1) * (d + 2) / 2)))
        .collect();
    assert_eq!(got, by_hand);
}
