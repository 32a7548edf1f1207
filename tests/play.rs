//! `tabula play`: seeded games replay exactly, agents per role, a human
//! agent on standard input. Fixtures in tests/repl/ (see tests/repl.rs).

mod common;
use common::{check, run};

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
    check(
        &["play", "tests/repl/race.rules", "--seed", "3"],
        r#""#,
        r#"Tiny race: red random; seed 3
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(throw)
1. random=die(1) red=noop
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(move)  thrown(1)
2. random=noop red=wait
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(throw)
3. random=die(2) red=noop
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(move)  thrown(2)
4. random=noop red=wait
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(throw)
5. random=die(2) red=noop
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(move)  thrown(2)
6. random=noop red=go
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(throw)
7. random=die(1) red=noop
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(move)  thrown(1)
8. random=noop red=wait
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(throw)
9. random=die(2) red=noop
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(move)  thrown(2)
10. random=noop red=go
   1  2  3  4
1  · [·] · (r)
[] pit  () home
phase(throw)
game over after 10 steps; goals: red 100
"#,
        r#""#,
        0,
    );
}

/// `--agent ROLE=first` plays each role's first legal move.
#[test]
fn first_agents() {
    check(
        &[
            "play",
            "tests/repl/count.kif",
            "--agent",
            "a=first",
            "--agent",
            "b=first",
            "--seed",
            "1",
        ],
        r#""#,
        r#"tests/repl/count.kif: a first, b first; seed 1
1. a=(add 1) b=noop
2. a=noop b=(add 1)
3. a=(add 1) b=noop
4. a=noop b=(add 1)
game over after 4 steps; goals: a 0, b 100
"#,
        r#""#,
        0,
    );
}

/// A human's illegal move and bad number are refused with the legal moves, then asked again.
#[test]
fn human_agent_refused_then_accepted() {
    check(
        &[
            "play",
            "tests/repl/count.kif",
            "--seed",
            "5",
            "--agent",
            "a=human",
            "--agent",
            "b=first",
        ],
        r#"(add 3)
7
(add 2)
1
"#,
        r#"tests/repl/count.kif: a human, b first; seed 5
a: 1. (add 1)   2. (add 2)
a> (add 3)
a> 7
a> (add 2)
1. a=(add 2) b=noop
2. a=noop b=(add 1)
a: 1. (add 1)   2. (add 2)
a> 1
3. a=(add 1) b=noop
game over after 3 steps; goals: a 100, b 0
"#,
        r#"error: `(add 3)` is not a legal move of a; legal: (add 1), (add 2)
error: there is no move 7: a has 2 legal moves (1 to 2)
"#,
        0,
    );
}

/// Input ending before a human moved is a usage error.
#[test]
fn human_agent_input_ends() {
    check(
        &[
            "play",
            "tests/repl/count.kif",
            "--seed",
            "1",
            "--agent",
            "b=human",
        ],
        r#"2
"#,
        r#"tests/repl/count.kif: a random, b human; seed 1
1. a=(add 2) b=noop
b: 1. (add 1)   2. (add 2)
b> 2
2. a=noop b=(add 2)
game over after 2 steps; goals: a 0, b 100
"#,
        r#""#,
        0,
    );
}

/// `--max-steps` stops a game early; the board is drawn after each step.
#[test]
fn max_steps() {
    check(
        &[
            "play",
            "games/pawn_whopping.rules",
            "--param",
            "size=4",
            "--seed",
            "8",
            "--max-steps",
            "2",
        ],
        r#""#,
        r#"Pawn whopping: x random, o random; seed 8
   1  2  3  4
4  ·  ·  ·  ·
3  o  o  o  o
2  x  x  x  x
1  ·  ·  ·  ·
control(x)
1. x=capture(2, 2, 1, 3) o=noop
   1  2  3  4
4  ·  ·  ·  ·
3  x  o  o  o
2  x  ·  x  x
1  ·  ·  ·  ·
control(o)
2. x=noop o=capture(2, 3, 3, 2)
   1  2  3  4
4  ·  ·  ·  ·
3  x  ·  o  o
2  x  ·  o  x
1  ·  ·  ·  ·
control(x)
stopped after 2 steps (--max-steps)
"#,
        r#""#,
        0,
    );
}

/// An unknown role, an unknown agent and nature as an agent are usage errors.
#[test]
fn bad_agents() {
    check(
        &["play", "tests/repl/guess.kif", "--agent", "random=first"],
        r#""#,
        r#""#,
        r#"error: --agent random=first: `random` is nature, which always throws by weight
"#,
        2,
    );
}

/// An unknown role.
#[test]
fn unknown_role_agent() {
    check(
        &["play", "tests/repl/count.kif", "--agent", "c=first"],
        r#""#,
        r#""#,
        r#"error: --agent c=first: there is no role `c`; the roles are a, b
"#,
        2,
    );
}

/// An unknown kind of agent.
#[test]
fn unknown_agent_kind() {
    check(
        &["play", "tests/repl/count.kif", "--agent", "a=smart"],
        r#""#,
        r#""#,
        r#"error: --agent a=smart: `smart` is not an agent (random, first, human)
"#,
        2,
    );
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
