//! `tabula play`: seeded games replay exactly, agents per role, a human
//! agent on standard input. Fixtures in tests/repl/ (see tests/repl.rs); the
//! games played and their exact output are golden files in tests/play/
//! (`TABULA_BLESS=1` rewrites them).

mod common;
mod sessions;
use common::run;
use sessions::session;

/// The same seed gives the same game, on every game of the fixtures and
/// every shipped game and variant.
#[test]
fn same_seed_same_game() {
    for game in [
        "tests/repl/count.kif",
        "tests/repl/guess.kif",
        "tests/repl/race.rules",
        "games/pawn_whopping.rules",
        "games/variants/pawn_whopping_6x6.rules",
        "games/tablan.rules",
        "games/variants/tablan_d6.rules",
        "games/variants/tablan_entry_two.rules",
    ] {
        for seed in ["0", "17", "123456789"] {
            let args = ["play", game, "--seed", seed];
            let first = run(&args, "");
            assert_eq!(first.2, 0, "{args:?}: {}", first.1);
            assert!(first.0.contains("game over after "), "{args:?}");
            assert_eq!(first, run(&args, ""), "{args:?}");
        }
    }
}

/// A seeded random game, nature throwing by weight, to the end.
#[test]
fn seeded_random_game() {
    session("play", "seeded_random_game");
}

/// `--agent ROLE=first` plays each role's first legal move.
#[test]
fn first_agents() {
    session("play", "first_agents");
}

/// A human's illegal move and bad number are refused with the legal moves, then asked again.
#[test]
fn human_agent_refused_then_accepted() {
    session("play", "human_agent_refused_then_accepted");
}

/// `moves`, the REPL's word, lists a human's legal moves again.
#[test]
fn human_agent_asks_for_moves() {
    session("play", "human_agent_asks_for_moves");
}

/// Input ending before a human moved is a usage error.
#[test]
fn human_agent_input_ends() {
    session("play", "human_agent_input_ends");
}

/// `--max-steps` stops a game early; the board is drawn after each step.
#[test]
fn max_steps() {
    session("play", "max_steps");
}

/// An unknown role, an unknown agent and nature as an agent are usage errors.
#[test]
fn bad_agents() {
    session("play", "bad_agents");
}

/// An unknown role.
#[test]
fn unknown_role_agent() {
    session("play", "unknown_role_agent");
}

/// An unknown kind of agent.
#[test]
fn unknown_agent_kind() {
    session("play", "unknown_agent_kind");
}

/// `--from FILE` starts from a position written as facts: x wins in one step.
#[test]
fn from_a_position_file() {
    let dir = std::env::temp_dir().join(format!("tabula-play-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("race.state");
    std::fs::write(
        &file,
        "% x is one step from row 8\ncell(1, 7, x)\ncell(2, 2, o)\ncontrol(x)\n",
    )
    .expect("write position");
    let path = file.to_str().expect("utf-8 path");
    let (out, err, code) = run(
        &[
            "play",
            "games/pawn_whopping.rules",
            "--from",
            path,
            "--agent",
            "x=first",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert!(out.contains("1. x=move(1, 7, 1, 8) o=noop\n"), "{out}");
    assert!(
        out.ends_with("game over after 1 step; goals: x 100, o 0\n"),
        "{out}"
    );
    // A fact the game can never hold is refused before anything is played.
    std::fs::write(&file, "cell(1, 9, x)\n").expect("write position");
    let (out, err, code) = run(&["play", "games/pawn_whopping.rules", "--from", path], "");
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("`cell(1, 9, x)` is not a fact this game's states can hold"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scratch game file for one test.
fn scratch_game(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tabula-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, text).expect("write game");
    file.display().to_string()
}

/// A game that reaches a terminal state with two goals for its role: the
/// game misbehaves, so `play` says so and exits 1 (it used to exit 0).
#[test]
fn malformed_goals_at_the_end_exit_1() {
    let file = scratch_game(
        "two_goals.kif",
        "(role a)\n(legal a stop)\n(<= (next done) (does a stop))\n\
         (<= terminal (true done))\n(goal a 100)\n(goal a 50)\n",
    );
    let (out, err, code) = run(&["play", &file, "--seed", "1"], "");
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        out,
        format!("{file}: a random; seed 1\n1. a=stop\ngame over after 1 step\n")
    );
    assert_eq!(
        err,
        format!("{file}: error: role a has several goals (100, 50) in one state\n  state: done\n")
    );
}

/// A game without a terminal state stops at the default step limit, with
/// a message (it used to print forever).
#[test]
fn a_game_that_never_ends_stops_at_the_default_limit() {
    let file = scratch_game(
        "endless.kif",
        "(role a)\n(init on)\n(legal a tick)\n(legal a tock)\n\
         (<= (next on) (true on))\n(goal a 0)\n",
    );
    let (out, err, code) = run(&["play", &file, "--seed", "2"], "");
    let expected = format!(
        "{file}: warning[W0003]: the game has no `terminal` rule: it never ends\n  \
         = note: say when the game is over, e.g. `terminal :- true winner(_).`\n\
         warning: the game has not ended after 10000 steps, the default limit \
         (--max-steps N sets another)\n"
    );
    assert_eq!((err.as_str(), code), (expected.as_str(), 0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 10_000 + 1, "header, steps, the stop");
    assert!(lines[10_000].starts_with("10000. a=t"), "{}", lines[10_000]);
    assert_eq!(lines[10_001], "stopped after 10000 steps (--max-steps)");
}
