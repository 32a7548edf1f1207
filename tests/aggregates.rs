//! Aggregates (`count`, `sum`, `min`, `max`): named positions of the test
//! games `tests/games/tally.rules`, `tests/games/heaps.rules` and
//! `tests/games/standings.rules` (numbers computed at play time) with the
//! exact values derived, the moves and goals they drive and the next
//! state; the values of nothing; distinct-binding semantics; the errors;
//! every example of the language's aggregate block and an aggregate
//! compared with a bound value (`tests/games/komi.rules`), and a goal
//! computed at play time (`tests/games/progress.rules`), on every engine.

mod common;

use common::{Scenario, run, sorted};
use tabula::engine::State;
use tabula::syntax::{self, SourceMap, Syntax};

/// Every true instance of `pattern` in `state`, printed and sorted, as the
/// REPL's `query` gives them.
fn query(s: &Scenario, state: &State, pattern: &str) -> Vec<String> {
    let mut sources = SourceMap::default();
    let file = sources.add("<query>", pattern);
    let mut symbols = s.game.symbols.clone();
    let term = syntax::parse_term(&sources, file, Syntax::Rules, &mut symbols)
        .unwrap_or_else(|d| panic!("`{pattern}`: {}", d.message));
    let mut m = s.game.machine();
    m.set_state(state);
    let mut out = m.query_shown(&term).expect("the state evaluates");
    out.sort();
    out
}

fn tally() -> Scenario {
    Scenario::open("tests/games/tally.rules", &[])
}

fn heaps() -> Scenario {
    Scenario::open("tests/games/heaps.rules", &[])
}

/// The errors of a text in the native syntax, as `CODE line:col message`.
fn errors(text: &str) -> Vec<String> {
    let failed = match tabula::load::open_str("t.rules", text, Syntax::Rules) {
        Ok(_) => return Vec::new(),
        Err(f) => f,
    };
    failed
        .diagnostics
        .iter()
        .map(|d| {
            let span = d.span.expect("located");
            let (line, col) = failed.sources.file(span.file).line_col(span.start as usize);
            format!("{} {line}:{col} {}", d.code, d.message)
        })
        .collect()
}

#[test]
fn count_and_sum_of_nothing_are_zero_min_and_max_of_nothing_are_false() {
    let s = tally();
    let start = s.initial();
    assert_eq!(query(&s, &start, "placed(N)"), ["placed(0)"]);
    assert_eq!(
        query(&s, &start, "score(R, S)"),
        ["score(blue, 0)", "score(red, 0)"]
    );
    assert!(query(&s, &start, "top(R, M)").is_empty());
    // `next lowest(M)` reads a min over an empty board: no fact follows.
    let after = s.play(&start, &[("red", "place(2)")]);
    assert_eq!(s.facts(&after), ["control(blue)", "stone(2, red)"]);
}

#[test]
fn a_count_over_static_facts_has_its_value_in_every_state() {
    let s = tally();
    assert_eq!(query(&s, &s.initial(), "cells(N)"), ["cells(3)"]);
    let board = s.state(&["control(red)", "stone(1, red)", "stone(3, blue)"]);
    assert_eq!(query(&s, &board, "cells(N)"), ["cells(3)"]);
}

#[test]
fn values_over_the_state_in_a_named_position() {
    let s = tally();
    // Red holds 1 and 3, blue 2: red 4, blue 2; red's top 3.
    let board = s.state(&[
        "control(blue)",
        "stone(1, red)",
        "stone(3, red)",
        "stone(2, blue)",
    ]);
    assert_eq!(query(&s, &board, "placed(N)"), ["placed(3)"]);
    assert_eq!(
        query(&s, &board, "score(R, S)"),
        ["score(blue, 2)", "score(red, 4)"]
    );
    assert_eq!(
        query(&s, &board, "top(R, M)"),
        ["top(blue, 2)", "top(red, 3)"]
    );
    assert!(s.is_terminal(&board));
    assert_eq!(
        s.goals(&board),
        [
            ("red".to_string(), Some(100)),
            ("blue".to_string(), Some(0))
        ]
    );
}

#[test]
fn a_tie_in_sums_is_broken_by_the_max() {
    let s = tally();
    // Red 1 + 2 = 3, blue 3: level; blue's top 3 beats red's 2.
    let board = s.state(&[
        "control(blue)",
        "stone(1, red)",
        "stone(2, red)",
        "stone(3, blue)",
    ]);
    assert_eq!(
        query(&s, &board, "score(R, S)"),
        ["score(blue, 3)", "score(red, 3)"]
    );
    assert_eq!(
        s.goals(&board),
        [
            ("red".to_string(), Some(0)),
            ("blue".to_string(), Some(100))
        ]
    );
}

#[test]
fn a_test_literal_with_a_bound_result_drives_legal() {
    let s = tally();
    let two_free = s.state(&["control(blue)", "stone(2, red)"]);
    assert_eq!(s.legal(&two_free, "blue"), ["place(1)", "place(3)"]);
    let one_free = s.play(&two_free, &[("blue", "place(3)")]);
    assert_eq!(s.legal(&one_free, "red"), ["pass", "place(1)"]);
    // The min of the board before the move: 2.
    assert_eq!(
        s.facts(&one_free),
        sorted(&[
            "control(red)",
            "lowest(2)",
            "stone(2, red)",
            "stone(3, blue)"
        ])
    );
    let passed = s.play(&one_free, &[("red", "pass")]);
    assert!(!s.is_terminal(&passed));
    assert_eq!(s.legal(&passed, "blue"), ["place(1)"]);
}

#[test]
fn sum_adds_once_per_distinct_binding_of_the_locals() {
    let s = heaps();
    let start = s.initial();
    // Tokens (a, 1), (a, 2), (b, 1), (b, 2): 1 + 2 + 1 + 2, not 1 + 2.
    assert_eq!(query(&s, &start, "left(N)"), ["left(4)"]);
    assert_eq!(query(&s, &start, "top(H, M)"), ["top(a, 2)", "top(b, 2)"]);
    assert_eq!(query(&s, &start, "bottom(M)"), ["bottom(1)"]);
    let next = s.play(&start, &[("one", "take(a)")]);
    assert_eq!(
        s.facts(&next),
        sorted(&[
            "control(two)",
            "last(one)",
            "low(1)",
            "record(4)",
            "token(a, 1)",
            "token(b, 1)",
            "token(b, 2)",
        ])
    );
}

#[test]
fn next_and_goal_follow_the_aggregates_to_the_end() {
    let s = heaps();
    let mut state = s.initial();
    for (role, mv) in [("one", "take(a)"), ("two", "take(a)"), ("one", "take(b)")] {
        state = s.play(&state, &[(role, mv)]);
    }
    // Only (b, 1) is left: its max is 1.
    assert_eq!(query(&s, &state, "top(H, M)"), ["top(b, 1)"]);
    assert_eq!(
        s.facts(&state),
        sorted(&[
            "control(two)",
            "last(one)",
            "low(1)",
            "record(1)",
            "token(b, 1)"
        ])
    );
    assert_eq!(s.legal(&state, "two"), ["take(b)"]);
    let end = s.play(&state, &[("two", "take(b)")]);
    assert!(s.is_terminal(&end));
    assert_eq!(query(&s, &end, "left(N)"), ["left(0)"]);
    assert_eq!(
        s.facts(&end),
        sorted(&["control(one)", "last(two)", "low(1)", "record(0)"])
    );
    assert_eq!(
        s.goals(&end),
        [("one".to_string(), Some(0)), ("two".to_string(), Some(100))]
    );
}

#[test]
fn count_is_still_a_name_where_no_braces_follow() {
    let text = "roles a. init s. legal(a, noop). terminal :- true s.\n\
                count(3). n(N) :- count(N). m(M) :- M = count { count(X) }.";
    assert!(errors(text).is_empty(), "{:?}", errors(text));
}

#[test]
fn malformed_and_misplaced_aggregates_are_refused() {
    let base = "roles a. init s. legal(a, noop). terminal :- true s. p(1).\n";
    assert_eq!(
        errors(&format!("{base}q(N) :- N = sum {{ p(X) }}.")),
        ["E0001 2:9 `sum` needs a value: write `sum X { ... }`"]
    );
    assert_eq!(
        errors(&format!("{base}q(N) :- N = count X {{ p(X) }}.")),
        ["E0001 2:19 `count` takes no value: write `count { ... }`"]
    );
    assert_eq!(
        errors(&format!("{base}q :- p(N), not N = count {{ p(X) }}.")),
        [
            "E0001 2:16 an aggregate may only be a positive literal of a rule's body, \
             not under `not`, inside `( ; )` or inside another aggregate"
        ]
    );
    assert_eq!(
        errors(&format!("{base}q(N) :- N = max V {{ p(X) }}.")),
        [
            "E0102 2:17 variable `V` is unsafe: it is the value of an aggregate, but no \
             positive literal inside the braces binds it"
        ]
    );
}

#[test]
fn sum_of_a_non_integer_is_an_error_at_the_aggregate() {
    let text = "roles a. init s. legal(a, noop). terminal :- true s.\n\
                w(x). t(T) :- T = sum V { w(V) }.";
    assert_eq!(
        errors(text),
        ["E0202 2:15 `sum` needs integer values, and one value here is `x`"]
    );
}

#[test]
fn a_sum_that_feeds_itself_without_bound_is_refused_at_the_aggregate() {
    let text = "roles a. init c(0). legal(a, noop). terminal :- true c(10).\n\
                next c(N) :- T = sum V { true c(V) }, N = T + 1.";
    assert_eq!(
        errors(text),
        [
            "E0201 2:14 grounding this game is too large: this `sum` can take more than \
             10000 values for one binding of its shared variables"
        ]
    );
}

#[test]
fn a_sum_that_feeds_itself_with_a_bound_counts_up() {
    let text = "roles a. init c(0). legal(a, noop). terminal :- true c(3). goal(a, 100).\n\
                next c(N) :- T = sum V { true c(V) }, N = T + 1, N < 50.";
    let game = match tabula::load::open_str("t.rules", text, Syntax::Rules) {
        Ok(l) => Scenario { game: l.game },
        Err(f) => panic!("{:?}", f.diagnostics),
    };
    let mut state = game.initial();
    for n in 1..=3 {
        state = game.play(&state, &[]);
        assert_eq!(game.facts(&state), [format!("c({n})")]);
    }
    assert!(game.is_terminal(&state));
}

/// A test game on each engine: incremental (the default), reference and
/// the rule evaluator.
fn on_every_engine(path: &str) -> Vec<Scenario> {
    use tabula::engine::EngineKind;
    let incremental = Scenario::open(path, &[]);
    let mut reference = incremental.game.clone();
    reference.set_engine(EngineKind::Reference);
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let rules = tabula::load::open_with(&full, None, &Default::default(), Some(EngineKind::Rules))
        .unwrap_or_else(|_| panic!("{path} opens on the rule evaluator"));
    vec![
        incremental,
        Scenario { game: reference },
        Scenario { game: rules.game },
    ]
}

#[test]
fn every_aggregate_of_the_language_block_is_accepted_and_exact() {
    for s in on_every_engine("tests/games/komi.rules") {
        let board = s.state(&[
            "control(white)",
            "cell(sq(2, 1), black)",
            "cell(sq(2, 2), black)",
            "cell(sq(1, 1), white)",
        ]);
        assert_eq!(
            query(&s, &board, "in_row(R, Y, N)"),
            [
                "in_row(black, 1, 1)",
                "in_row(black, 2, 1)",
                "in_row(white, 1, 1)",
                "in_row(white, 2, 0)"
            ]
        );
        // The sum followed by arithmetic: 2 + 4 + 0 and 1 + 3 of komi.
        assert_eq!(
            query(&s, &board, "score(R, S)"),
            ["score(black, 6)", "score(white, 4)"]
        );
        assert_eq!(
            query(&s, &board, "best(R, B)"),
            ["best(black, 4)", "best(white, 1)"]
        );
        assert_eq!(query(&s, &board, "rows(N)"), ["rows(2)"]);
    }
}

#[test]
fn an_aggregate_compared_with_a_value_bound_before_it_is_accepted() {
    for s in on_every_engine("tests/games/komi.rules") {
        // Black: two cells in column 2, one in row 2.
        let east = s.state(&["cell(sq(2, 1), black)", "cell(sq(2, 2), black)"]);
        assert_eq!(query(&s, &east, "even(R)"), ["even(black)"]);
        assert!(query(&s, &east, "level(R)").is_empty());
        // Black: two cells in row 2, one in column 2.
        let north = s.state(&["cell(sq(1, 2), black)", "cell(sq(2, 2), black)"]);
        assert!(query(&s, &north, "even(R)").is_empty());
        assert_eq!(query(&s, &north, "level(R)"), ["level(black)"]);
    }
}

fn standings() -> Scenario {
    Scenario::open("tests/games/standings.rules", &[])
}

#[test]
fn totals_with_a_komi_compare_at_play_time() {
    let s = standings();
    // Red holds 3 (4) and 2 (1): 5; blue holds 5 (5) and komi 2: 7.
    let board = s.state(&[
        "control(red)",
        "owner(3, red)",
        "owner(2, red)",
        "owner(5, blue)",
    ]);
    assert_eq!(
        query(&s, &board, "score(R, S)"),
        ["score(blue, 7)", "score(red, 5)"]
    );
    assert_eq!(query(&s, &board, "beats(R, O)"), ["beats(blue, red)"]);
    assert_eq!(
        query(&s, &board, "lead(R, D)"),
        ["lead(blue, 2)", "lead(red, -2)"]
    );
    // A query names a value: only the atom with that value matches.
    assert_eq!(query(&s, &board, "score(R, 7)"), ["score(blue, 7)"]);
    assert!(query(&s, &board, "behind(R)").is_empty());
    assert!(!s.legal(&board, "red").contains(&"bonus".to_string()));
}

#[test]
fn a_player_far_behind_may_claim_the_bonus_which_counts_two() {
    let s = standings();
    // Red 1 (cell 2), blue 5 + 2 = 7: red is 6 behind.
    let board = s.state(&["control(red)", "owner(2, red)", "owner(5, blue)"]);
    assert_eq!(query(&s, &board, "behind(R)"), ["behind(red)"]);
    assert!(s.legal(&board, "red").contains(&"bonus".to_string()));
    let after = s.play(&board, &[("red", "bonus"), ("blue", "noop")]);
    assert_eq!(
        query(&s, &after, "score(R, S)"),
        ["score(blue, 7)", "score(red, 3)"]
    );
}

#[test]
fn level_scores_are_broken_by_the_best_cell_then_the_first_cell() {
    let s = standings();
    // Red 3 + 1 + 5 = 9 (cells 1, 2, 5), blue 4 + 2 + komi 2 = 8: red
    // wins outright.
    let full = [
        "control(blue)",
        "owner(1, red)",
        "owner(2, red)",
        "owner(5, red)",
        "owner(3, blue)",
        "owner(4, blue)",
    ];
    let board = s.state(&full);
    assert!(s.is_terminal(&board));
    assert_eq!(
        s.goals(&board),
        [
            ("red".to_string(), Some(100)),
            ("blue".to_string(), Some(0))
        ]
    );
    // Red 3 + 4 = 7 (cells 1, 3), blue 5 = 5 + 2 = 7: level; best cells
    // 4 and 5: blue wins on the max.
    let level = s.state(&[
        "control(red)",
        "owner(1, red)",
        "owner(3, red)",
        "owner(5, blue)",
    ]);
    assert_eq!(
        query(&s, &level, "level(R, O)"),
        ["level(blue, red)", "level(red, blue)"]
    );
    assert_eq!(
        query(&s, &level, "best(R, M)"),
        ["best(blue, 5)", "best(red, 4)"]
    );
    assert_eq!(
        query(&s, &level, "first(R, F)"),
        ["first(blue, 5)", "first(red, 1)"]
    );
    assert_eq!(query(&s, &level, "wins(R)"), ["wins(blue)"]);
    // Red 5 (cell 5), blue 3 + komi 2 = 5 (cell 1): level, best 5 and 3.
    let tie = s.state(&["control(red)", "owner(5, red)", "owner(1, blue)"]);
    assert_eq!(query(&s, &tie, "wins(R)"), ["wins(red)"]);
}

/// `gone(P) :- left(P, 0)` reads a count with a constant: a test of the
/// number at play time, so the count is one value per player and not a
/// chain of ground atoms per possible total (`check --explain` shows no
/// `_aggc` relation; it had 120 ground rules before, 80 now), and the
/// test holds exactly when the side has no unit.
#[test]
fn a_count_read_with_a_constant_stays_a_number() {
    let path = "tests/games/last_unit.rules";
    let (out, err, code) = run(&["check", path, "--explain", "--playouts", "0"], "");
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    assert!(out.contains("  ground rules   80\n"), "{out}");
    assert!(!out.contains("_aggc"), "{out}");
    let s = Scenario::open(path, &[]);
    let last = s.state(&["control(red)", "owns(1, red)", "owns(4, blue)"]);
    assert!(!s.is_terminal(&last));
    assert_eq!(
        s.goals(&last),
        [
            ("red".to_string(), Some(40)),
            ("blue".to_string(), Some(40))
        ]
    );
    let won = s.play(&last, &[("red", "remove(4)")]);
    assert_eq!(s.facts(&won), ["control(blue)", "owns(1, red)"]);
    assert!(s.is_terminal(&won));
    assert_eq!(
        s.goals(&won),
        [
            ("red".to_string(), Some(100)),
            ("blue".to_string(), Some(0))
        ]
    );
}

/// `goal(R, G) :- total(R, S), G = S * 100 / 320`: the goal is a number
/// computed at play time, one ground goal atom per role, where grounding
/// every value the total can take was refused (E0201, "this `sum` can take
/// more than 10000 values").
#[test]
fn a_goal_is_a_number_computed_at_play_time() {
    let path = "tests/games/progress.rules";
    let (out, err, code) = run(&["check", path, "--explain"], "");
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    assert!(out.contains(", goal 2 (2)"), "{out}");
    for engine in ["incremental", "reference", "rules"] {
        let (out, err, code) = run(&["perft", path, "--depth", "3", "--engine", engine], "");
        assert_eq!((err.as_str(), code), ("", 0), "{engine}");
        // Red's four tokens by 1 to 3 steps, then blue's; after two red
        // moves 74 different red placements (20 with one token moved
        // twice, 54 with two moved once), each with blue's 12.
        assert!(
            out.ends_with("depth 3 leaves 1728 states 888\n"),
            "{engine}: {out}"
        );
    }
    for s in on_every_engine(path) {
        // Red 30 + 20 + 10 + 4 = 64, blue 16 * 3 = 48: over, 64 * 100 /
        // 320 = 20 and 48 * 100 / 320 = 15.
        let over = s.state(&[
            "control(blue)",
            "at(red, 1, 30)",
            "at(red, 2, 20)",
            "at(red, 3, 10)",
            "at(red, 4, 4)",
            "at(blue, 1, 16)",
            "at(blue, 2, 16)",
            "at(blue, 3, 16)",
            "at(blue, 4, 0)",
        ]);
        assert!(s.is_terminal(&over));
        let goals = [
            ("red".to_string(), Some(20)),
            ("blue".to_string(), Some(15)),
        ];
        assert_eq!(s.goals(&over), goals);
        // Red at 58 plays two steps: 60 ends the race, 6000 / 320 = 18.
        let before = s.state(&[
            "control(red)",
            "at(red, 1, 40)",
            "at(red, 2, 18)",
            "at(red, 3, 0)",
            "at(red, 4, 0)",
            "at(blue, 1, 0)",
            "at(blue, 2, 0)",
            "at(blue, 3, 0)",
            "at(blue, 4, 0)",
        ]);
        assert!(!s.is_terminal(&before));
        let after = s.play(&before, &[("red", "advance(2, 2)")]);
        assert!(s.facts(&after).contains(&"at(red, 2, 20)".to_string()));
        assert!(s.is_terminal(&after));
        let goals = [("red".to_string(), Some(18)), ("blue".to_string(), Some(0))];
        assert_eq!(s.goals(&after), goals);
    }
}
