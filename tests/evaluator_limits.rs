//! The rule evaluator's limits hold per evaluation, and one that is reached
//! is an error where it is reached, on every command (issue 24).
//!
//! - `tests/evaluator/spread.rules`: 10,000 joint moves from one state, each of whose next
//!   states holds 410 answers. The answers of all of them together pass the
//!   limit of one evaluation; counted per evaluation, perft on the rule
//!   evaluator gives the compiled engines' exact count.
//! - `deep.rules`: a chain of 3,000 nested calls solved for `next`, beyond
//!   the evaluator's 2,000; `deep_view.rules`: the same chain solved for
//!   `legal`. Every command stops with the evaluator's message (exit 1) and
//!   prints no count past the level it could not evaluate; `check` warns.

mod common;
use common::run;

const DEPTH_LIMIT: &str = "the rule evaluator reached its limit of nested calls";

#[test]
fn limits_are_per_evaluation_so_perft_is_exact_on_every_engine() {
    for engine in ["rules", "incremental", "reference"] {
        let (out, err, code) = run(
            &[
                "perft",
                "tests/evaluator/spread.rules",
                "--depth",
                "1",
                "--engine",
                engine,
            ],
            "",
        );
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(
            out, "depth 0 leaves 1 states 1\ndepth 1 leaves 10000 states 10000\n",
            "{engine}"
        );
    }
}

/// Each command, on the rule evaluator, stops with the depth limit's error
/// (exit 1) and prints neither a count nor a move.
fn fails_at_the_depth_limit(commands: &[&[&str]]) {
    for args in commands {
        let args: Vec<&str> = args.iter().copied().chain(["--engine", "rules"]).collect();
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(err.contains(DEPTH_LIMIT), "{args:?}: {err}");
        assert!(!out.contains("depth 1"), "{args:?} printed a count: {out}");
        assert!(!out.contains("1. p=go"), "{args:?} printed a move: {out}");
    }
}

#[test]
fn a_limit_reached_by_next_is_an_error_of_every_command() {
    let game = "tests/evaluator/deep.rules";
    let commands: [&[&str]; 4] = [
        &["perft", game, "--depth", "1"],
        &["perft", game, "--depth", "1", "--json"],
        &["bench", game, "--playouts", "3"],
        &["play", game],
    ];
    fails_at_the_depth_limit(&commands);
    // The compiled engines solve the same chain.
    let (out, _, code) = run(&["perft", game, "--depth", "1"], "");
    assert_eq!(
        (code, out.as_str()),
        (0, "depth 0 leaves 1 states 1\ndepth 1 leaves 1 states 1\n")
    );
}

#[test]
fn a_limit_reached_by_a_state_is_an_error_of_every_command() {
    let game = "tests/evaluator/deep_view.rules";
    let commands: [&[&str]; 3] = [
        &["perft", game, "--depth", "1"],
        &["bench", game, "--playouts", "3", "--chance"],
        &["play", game],
    ];
    fails_at_the_depth_limit(&commands);
    let (_, err, code) = run(&["repl", game, "--engine", "rules"], "play go\n");
    assert!(err.contains(DEPTH_LIMIT) && code != 0, "repl: {err}");
}

#[test]
fn check_warns_where_the_rule_evaluator_stops() {
    for (game, place) in [
        ("tests/evaluator/deep.rules", "after 1 joint move: (p go)"),
        ("tests/evaluator/deep_view.rules", "in the initial state"),
    ] {
        let (_, err, code) = run(&["check", game, "--engine", "rules"], "");
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(&format!(
                "warning[W0102]: {DEPTH_LIMIT}, so no role has a legal move"
            )),
            "{game}: {err}"
        );
        assert!(err.contains(place), "{game}: {err}");
    }
}
