//! Scripted REPL sessions through piped standard input of the built binary,
//! with their exact output; one session through a pseudo-terminal for the
//! prompt, completion and history. Fixtures: tests/repl/ (count.kif: two
//! players take turns; guess.kif: a weighted throw then a guess;
//! race.rules: a board with marked cells and dice) and the shipped games:
//! games/pawn_whopping.rules, games/tablan.rules and the variant
//! games/variants/tablan_d6.rules.

mod common;
use common::{check, run};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tabula");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fresh empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-repl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// What a session prints after a marker command (`help quit`).
fn after_marker(out: &str) -> &str {
    const MARK: &str = "quit  (q, exit, Ctrl-D)\n  leave\n";
    let i = out.find(MARK).expect("marker in output");
    &out[i + MARK.len()..]
}

/// Save, then load in a session opened on another game: the same game,
/// state and history; the transcript is plain text; no temporary file is
/// left behind.
#[test]
fn save_then_load_gives_the_same_state() {
    let dir = temp_dir("save");
    let file = dir.join("race.transcript");
    let f = file.display().to_string();
    let (out1, err1, code1) = run(
        &["repl", "tests/repl/race.rules", "--seed", "9"],
        &format!("roll die(2)\nplay go\nroll 1\nsave {f}\nhelp quit\nboard\nstate\nhistory\n"),
    );
    assert_eq!((err1.as_str(), code1), ("", 0), "{out1}");
    assert!(out1.contains(&format!("saved 3 steps to {f}\n")), "{out1}");
    let text = std::fs::read_to_string(&file).expect("transcript written");
    assert_eq!(
        text,
        "# tabula transcript\ngame tests/repl/race.rules\nseed 9\n\
         play random=die(2) red=noop\nplay random=noop red=go\nplay random=die(1) red=noop\n"
    );
    let (out2, err2, code2) = run(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        &format!("load {f}\nhelp quit\nboard\nstate\nhistory\n"),
    );
    assert_eq!((err2.as_str(), code2), ("", 0), "{out2}");
    assert!(out2.contains(&format!("loaded {f}: 3 steps\n")), "{out2}");
    assert_eq!(after_marker(&out1), after_marker(&out2));
    let names: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["race.transcript"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A transcript keeps the parameters: a 5x5 pawn whopping reloads as 5x5.
#[test]
fn transcript_keeps_parameters() {
    let dir = temp_dir("params");
    let file = dir.join("pawns.txt");
    let f = file.display().to_string();
    let (out1, _, code1) = run(
        &[
            "repl",
            "games/pawn_whopping.rules",
            "--param",
            "size=5",
            "--seed",
            "5",
        ],
        &format!("auto 3\nsave {f}\nhelp quit\nboard\nhistory\n"),
    );
    assert_eq!(code1, 0, "{out1}");
    let text = std::fs::read_to_string(&file).expect("transcript written");
    assert!(text.contains("\nparam size=5\nseed 5\n"), "{text}");
    let (out2, _, code2) = run(
        &["repl", "tests/repl/count.kif"],
        &format!("load {f}\nhelp quit\nboard\nhistory\n"),
    );
    assert_eq!(code2, 0, "{out2}");
    assert_eq!(after_marker(&out1), after_marker(&out2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save into a folder that does not exist fails with one line and
/// leaves nothing behind.
#[test]
fn save_to_a_missing_folder_fails_cleanly() {
    let dir = temp_dir("nofolder");
    let f = dir.join("missing").join("t.txt").display().to_string();
    let (out, err, code) = run(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        &format!("play 1\nsave {f}\n"),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        err.starts_with(&format!("error: cannot save {f}: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.join("missing").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opening a file that does not exist is a usage error.
#[test]
fn missing_game_file() {
    check(
        &["repl", "tests/repl/no-such-game.kif"],
        "",
        "",
        "error: cannot read tests/repl/no-such-game.kif: no such file\n",
        2,
    );
}

/// The real terminal: the prompt, tab completion of commands and moves,
/// history kept across sessions, Ctrl-C cancelling a line, Ctrl-D quitting.
/// Skipped where no pseudo-terminal can be had.
#[cfg(unix)]
#[test]
fn terminal_prompt_completion_and_history() {
    use expectrl::{ControlCode, Expect, Session};
    let data = temp_dir("pty");
    let start = |data: &Path| {
        let mut cmd = Command::new(BIN);
        cmd.args(["repl", "tests/repl/count.kif", "--seed", "1"])
            .current_dir(ROOT)
            .env("XDG_DATA_HOME", data)
            .env("HOME", data)
            .env("NO_COLOR", "1")
            .env("TERM", "xterm");
        Session::spawn(cmd)
    };
    let Ok(mut p) = start(&data) else {
        eprintln!("skipped: no pseudo-terminal");
        return;
    };
    p.set_expect_timeout(Some(std::time::Duration::from_secs(20)));
    p.expect("Type `help` for the commands.").expect("banner");
    p.expect("0> ").expect("prompt");
    // `hi` + Tab completes to `history`.
    p.send("hi\t").expect("send");
    p.expect("history").expect("command completed");
    p.send("\r").expect("send");
    p.expect("no steps yet").expect("history ran");
    p.expect("0> ").expect("prompt");
    // `play (add 2` + Tab: the move completes.
    p.send("play (add 2\t").expect("send");
    p.expect("play (add 2)").expect("move completed");
    p.send("\r").expect("send");
    p.expect("a=(add 2) b=noop").expect("move played");
    p.expect("1> ").expect("prompt after a step");
    // Ctrl-C cancels the line being typed; the session goes on.
    p.send("undo").expect("send");
    p.send(ControlCode::EndOfText).expect("Ctrl-C");
    p.expect("1> ").expect("prompt again after Ctrl-C");
    p.send(ControlCode::EndOfTransmission).expect("Ctrl-D");
    p.expect(expectrl::Eof).expect("quit on Ctrl-D");
    let history = data.join("tabula").join("history");
    let saved = std::fs::read_to_string(&history).expect("history file written");
    assert!(saved.contains("play (add 2)"), "{saved}");
    // A new session finds the line again with the up arrow.
    let mut p = start(&data).expect("second pty");
    p.set_expect_timeout(Some(std::time::Duration::from_secs(20)));
    p.expect("0> ").expect("prompt");
    p.send("\x1b[A").expect("up arrow");
    p.expect("play (add 2)").expect("history recalled");
    p.send("\r").expect("send");
    p.expect("a=(add 2) b=noop").expect("recalled move played");
    p.send_line("quit").expect("send");
    p.expect(expectrl::Eof).expect("quit");
    let _ = std::fs::remove_dir_all(&data);
}

// ------------------------------------------------------------ scripted sessions
/// Two moves end count-to-four; the goals are shown.
#[test]
fn walk_to_terminal_state() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"play 2
play (add 2)
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
a=(add 2) b=noop
(control b)  (count 2)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
a=noop b=(add 2)
(control a)  (count 4)
step 2: game over; goals: a 0, b 100
"#,
        r#""#,
        0,
    );
}

/// Undo and redo move through the history; a new move drops what could be redone.
#[test]
fn undo_and_redo() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"play 1
b=(add 2)
undo
history
redo
undo 2
undo
redo 3
redo 2
play 1
redo
history
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
a=(add 1) b=noop
(control b)  (count 1)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
a=noop b=(add 2)
(control a)  (count 3)
step 2: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
(control b)  (count 1)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
1. play a=(add 1) b=noop
-- undone, `redo` plays again:
2. play a=noop b=(add 2)
(control a)  (count 3)
step 2: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
(control a)  (count 3)
step 2: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
a=(add 1) b=noop
(control b)  (count 4)
step 3: game over; goals: a 100, b 0
1. play a=(add 1) b=noop
2. play a=noop b=(add 2)
3. play a=(add 1) b=noop
"#,
        r#"error: nothing to undo: this is the start
error: cannot redo 3 steps: only 2 undone
error: nothing to redo
"#,
        1,
    );
}

/// Outcomes are listed with probabilities; `roll OUTCOME` forces one, by text or number; `roll` throws with the seed.
#[test]
fn force_chance_outcomes() {
    check(
        &["repl", "tests/repl/guess.kif", "--seed", "3"],
        r#"moves
roll (throw 3)
play (say high)
goals
restart
roll 2
undo
roll
roll
play p=(say low)
"#,
        r#"(phase throw)
step 0: random throws (p: noop)
random: 1. (throw 1) 1/4   2. (throw 2) 1/4   3. (throw 3) 1/2
random: 1. (throw 1) 1/4   2. (throw 2) 1/4   3. (throw 3) 1/2
p: 1. noop
random=(throw 3) p=noop
(phase guess)  (rolled 3)
step 1: p to move
p: 1. (say low)    2. (say high)
random=noop p=(say high)
(phase done)  (rolled 3)  (said high)
step 2: game over; goals: p 100
goals: p 100
(phase throw)
step 0: random throws (p: noop)
random: 1. (throw 1) 1/4   2. (throw 2) 1/4   3. (throw 3) 1/2
random=(throw 2) p=noop
(phase guess)  (rolled 2)
step 1: p to move
p: 1. (say low)    2. (say high)
(phase throw)
step 0: random throws (p: noop)
random: 1. (throw 1) 1/4   2. (throw 2) 1/4   3. (throw 3) 1/2
random=(throw 1) p=noop
(phase guess)  (rolled 1)
step 1: p to move
p: 1. (say low)    2. (say high)
random=noop p=(say low)
(phase done)  (rolled 1)  (said low)
step 2: game over; goals: p 100
"#,
        r#"error: p must move too: `play MOVE` (nature then throws), or `play MOVE random=OUTCOME`
"#,
        1,
    );
}

/// `query` lists the true instances of a pattern, in KIF and with variables; `no` when none.
#[test]
fn query_relations() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"query (control ?r)
query (legal ?r ?m)
query (legal b (add ?n))
query terminal
play 2
? (goal ?r ?v)
goals
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
(control a)
(legal b noop)
(legal a (add 1))
(legal a (add 2))
no
no
a=(add 2) b=noop
(control b)  (count 2)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
(goal a 100)
(goal b 0)
goals (not over yet): a 100, b 0
"#,
        r#""#,
        0,
    );
}

/// Every kind of bad input gets one error line and leaves the state as it was.
#[test]
fn bad_input_changes_nothing() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"play 1
frobnicate
play (add 3)
play 3
play (add
play a=(add 1)
play c=(add 1)
roll
set (count 9)
set (count
set
load-state tests/repl/no-such-file
load tests/repl/no-such-file
query (goal
auto x
undo 5
redo
state
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
a=(add 1) b=noop
(control b)  (count 1)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
(control b)
(count 1)
"#,
        r#"error: unknown command `frobnicate`; type `help` for the commands
error: `(add 3)` is not a legal move of b; legal: (add 1), (add 2)
error: there is no move 3: b has 2 legal moves (1 to 2)
error: cannot read `(add` at column 1: this `(` is never closed (expected `)` before the end of the text)
error: `(add 1)` is not a legal move of a; legal: noop
error: there is no role `c`; the roles are a, b
error: this game has no chance role `random`
error: `(count 9)` is not a fact this game's states can hold
error: cannot read `(count` at column 1: this `(` is never closed (expected `)` before the end of the text)
error: no facts given
error: cannot read tests/repl/no-such-file: No such file or directory (os error 2)
error: cannot read tests/repl/no-such-file: No such file or directory (os error 2)
error: cannot read `(goal` at column 1: this `(` is never closed (expected `)` before the end of the text)
error: `auto` takes a number of steps, not `x`
error: cannot undo 5 steps: only 1 made
error: nothing to redo
"#,
        1,
    );
}

/// An impossible outcome is refused with the possible ones.
#[test]
fn bad_outcomes() {
    check(
        &["repl", "tests/repl/guess.kif", "--seed", "3"],
        r#"roll (throw 4)
roll 9
roll (say high)
play (say high)
roll (throw 2)
state
"#,
        r#"(phase throw)
step 0: random throws (p: noop)
random: 1. (throw 1) 1/4   2. (throw 2) 1/4   3. (throw 3) 1/2
random=(throw 2) p=noop
(phase guess)  (rolled 2)
step 1: p to move
p: 1. (say low)    2. (say high)
(phase guess)
(rolled 2)
"#,
        r#"error: `(throw 4)` is not a possible outcome here; possible: (throw 1), (throw 2), (throw 3)
error: there is no outcome 9: random has 3 outcomes (1 to 3)
error: `(say high)` is not a possible outcome here; possible: (throw 1), (throw 2), (throw 3)
error: `(say high)` is not a legal move: only nature chooses here (`roll` or `roll OUTCOME`)
"#,
        1,
    );
}

/// `set` and `load-state` start from a given position and can be undone.
#[test]
fn set_and_load_state() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"set (count 3) (control b)
play 1
undo 2
load-state tests/repl/three.state
history
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
(control b)  (count 3)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
a=noop b=(add 1)
(control a)  (count 4)
step 2: game over; goals: a 0, b 100
(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
(control b)  (count 3)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
1. set (control b) (count 3)
"#,
        r#""#,
        0,
    );
}

/// A native game: the board with its marked cells, dice with weights, a forced throw, then `auto` to the end.
#[test]
fn board_region_and_dice() {
    check(
        &["repl", "tests/repl/race.rules", "--seed", "4"],
        r#"roll die(2)
play go
roll 1
wait
auto
history
"#,
        r#"   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(throw)
step 0: random throws (red: noop)
random: 1. die(1) 1/4   2. die(2) 3/4
random=die(2) red=noop
   1  2  3  4
1  r [·] · (·)
[] pit  () home
phase(move)  thrown(2)
step 1: red to move
red: 1. go     2. wait
random=noop red=go
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(throw)
step 2: random throws (red: noop)
random: 1. die(1) 1/4   2. die(2) 3/4
random=die(1) red=noop
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(move)  thrown(1)
step 3: red to move
red: 1. go     2. wait
random=noop red=wait
   1  2  3  4
1  · [·] r (·)
[] pit  () home
phase(throw)
step 4: random throws (red: noop)
random: 1. die(1) 1/4   2. die(2) 3/4
5. random=die(2) red=noop
6. random=noop red=wait
7. random=die(2) red=noop
8. random=noop red=wait
9. random=die(1) red=noop
10. random=noop red=wait
11. random=die(2) red=noop
12. random=noop red=wait
13. random=die(2) red=noop
14. random=noop red=go
   1  2  3  4
1  · [·] · (r)
[] pit  () home
phase(throw)
step 14: game over; goals: red 100
1. play random=die(2) red=noop
2. play random=noop red=go
3. play random=die(1) red=noop
4. play random=noop red=wait
5. play random=die(2) red=noop
6. play random=noop red=wait
7. play random=die(2) red=noop
8. play random=noop red=wait
9. play random=die(1) red=noop
10. play random=noop red=wait
11. play random=die(2) red=noop
12. play random=noop red=wait
13. play random=die(2) red=noop
14. play random=noop red=go
"#,
        r#""#,
        0,
    );
}

/// The shipped pawn whopping on a 5x5 board: moves by number and text, a query, undo.
#[test]
fn shipped_pawn_whopping() {
    check(
        &[
            "repl",
            "games/pawn_whopping.rules",
            "--param",
            "size=5",
            "--seed",
            "2",
        ],
        r#"play 3
play move(2, 4, 2, 3)
query cell(X, 3, R)
undo
play x=noop o=move(4, 4, 4, 3)
play capture(3, 3, 4, 4)
auto 2
"#,
        r#"   1  2  3  4  5
5  ·  ·  ·  ·  ·
4  o  o  o  o  o
3  ·  ·  ·  ·  ·
2  x  x  x  x  x
1  ·  ·  ·  ·  ·
control(x)
step 0: x to move (o: noop)
x: 1. move(1, 2, 1, 3)   2. move(2, 2, 2, 3)   3. move(3, 2, 3, 3)
   4. move(4, 2, 4, 3)   5. move(5, 2, 5, 3)
x=move(3, 2, 3, 3) o=noop
   1  2  3  4  5
5  ·  ·  ·  ·  ·
4  o  o  o  o  o
3  ·  ·  x  ·  ·
2  x  x  ·  x  x
1  ·  ·  ·  ·  ·
control(o)
step 1: o to move (x: noop)
o: 1. move(1, 4, 1, 3)      2. move(2, 4, 2, 3)      3. move(4, 4, 4, 3)
   4. move(5, 4, 5, 3)      5. capture(2, 4, 3, 3)   6. capture(4, 4, 3, 3)
x=noop o=move(2, 4, 2, 3)
   1  2  3  4  5
5  ·  ·  ·  ·  ·
4  o  ·  o  o  o
3  ·  o  x  ·  ·
2  x  x  ·  x  x
1  ·  ·  ·  ·  ·
control(x)
step 2: x to move (o: noop)
x: 1. move(1, 2, 1, 3)      2. move(4, 2, 4, 3)      3. move(5, 2, 5, 3)
   4. capture(3, 3, 4, 4)   5. capture(1, 2, 2, 3)
cell(2, 3, o)
cell(3, 3, x)
   1  2  3  4  5
5  ·  ·  ·  ·  ·
4  o  o  o  o  o
3  ·  ·  x  ·  ·
2  x  x  ·  x  x
1  ·  ·  ·  ·  ·
control(o)
step 1: o to move (x: noop)
o: 1. move(1, 4, 1, 3)      2. move(2, 4, 2, 3)      3. move(4, 4, 4, 3)
   4. move(5, 4, 5, 3)      5. capture(2, 4, 3, 3)   6. capture(4, 4, 3, 3)
x=noop o=move(4, 4, 4, 3)
   1  2  3  4  5
5  ·  ·  ·  ·  ·
4  o  o  o  ·  o
3  ·  ·  x  o  ·
2  x  x  ·  x  x
1  ·  ·  ·  ·  ·
control(x)
step 2: x to move (o: noop)
x: 1. move(1, 2, 1, 3)      2. move(2, 2, 2, 3)      3. move(5, 2, 5, 3)
   4. capture(3, 3, 2, 4)   5. capture(5, 2, 4, 3)
3. x=capture(3, 3, 2, 4) o=noop
4. x=noop o=move(5, 4, 5, 3)
   1  2  3  4  5
5  ·  ·  ·  ·  ·
4  o  x  o  ·  ·
3  ·  ·  ·  o  o
2  x  x  ·  x  x
1  ·  ·  ·  ·  ·
control(x)
step 4: x to move (o: noop)
x: 1. move(1, 2, 1, 3)      2. move(2, 2, 2, 3)      3. move(2, 4, 2, 5)
   4. capture(5, 2, 4, 3)   5. capture(4, 2, 5, 3)
"#,
        r#"error: `capture(3, 3, 4, 4)` is not a legal move of x; legal: move(1, 2, 1, 3), move(2, 2, 2, 3), move(5, 2, 5, 3), capture(3, 3, 2, 4), capture(5, 2, 4, 3)
"#,
        1,
    );
}

/// The shipped tablan: nature's draw of the first player and a scoring
/// throw of the sticks, both forced; a split throw, its first half by number
/// and its second by text; a move refused with the legal ones; a query;
/// undo and redo; a throw of nothing forced by number (the turn passes) and
/// a seeded throw; goals and state; save, restart and load giving the same
/// state (printed twice below from one string).
#[test]
fn shipped_tablan() {
    let dir = temp_dir("tablan");
    let file = dir.join("tablan.transcript");
    let f = file.display().to_string();
    let input = r#"roll first(yellow)
roll sticks(8)
play 9
play half(sq(9, 1), sq(12, 2))
play half(sq(10, 1), sq(11, 2))
query at(sq(C, 2), R)
undo
redo
roll 4
roll
goals
query throws(N)
state
save {f}
restart
load {f}
state
history
"#
    .replace("{f}", &f);
    let state = r#"at(sq(1, 1), yellow)
at(sq(1, 4), green)
at(sq(2, 1), yellow)
at(sq(2, 4), green)
at(sq(3, 1), yellow)
at(sq(3, 4), green)
at(sq(4, 1), yellow)
at(sq(4, 4), green)
at(sq(5, 1), yellow)
at(sq(5, 4), green)
at(sq(6, 1), yellow)
at(sq(6, 4), green)
at(sq(7, 1), yellow)
at(sq(7, 4), green)
at(sq(8, 1), yellow)
at(sq(8, 4), green)
at(sq(9, 4), green)
at(sq(10, 4), green)
at(sq(11, 1), yellow)
at(sq(11, 2), yellow)
at(sq(11, 4), green)
at(sq(12, 1), yellow)
at(sq(12, 2), yellow)
at(sq(12, 4), green)
control(green)
thrown(2)
throws_tens(0)
throws_units(3)
"#;
    let stdout = r#"   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(0)  toss
step 0: random throws (yellow: noop, green: noop)
random: 1. first(yellow) 1/2   2. first(green) 1/2
yellow=noop green=noop random=first(yellow)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(0)
step 1: random throws (yellow: noop, green: noop)
random: 1. sticks(2) 1/4     2. sticks(8) 1/16    3. sticks(12) 1/16
        4. sticks(0) 5/8
yellow=noop green=noop random=sticks(8)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  thrown(8)  throws_tens(0)  throws_units(1)
step 2: yellow to move (green: noop)
yellow: 1. move(sq(5, 1), sq(12, 2))     2. move(sq(6, 1), sq(11, 2))
        3. move(sq(7, 1), sq(10, 2))     4. move(sq(8, 1), sq(9, 2))
        5. move(sq(9, 1), sq(8, 2))      6. move(sq(10, 1), sq(7, 2))
        7. move(sq(11, 1), sq(6, 2))     8. move(sq(12, 1), sq(5, 2))
        9. half(sq(9, 1), sq(12, 2))     10. half(sq(10, 1), sq(11, 2))
        11. half(sq(11, 1), sq(10, 2))   12. half(sq(12, 1), sq(9, 2))
yellow=half(sq(9, 1), sq(12, 2)) green=noop random=noop
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  first_half(sq(12, 2))  pending(8)  throws_tens(0)
throws_units(1)
step 3: yellow to move (green: noop)
yellow: 1. half(sq(5, 1), sq(9, 1))     2. half(sq(10, 1), sq(11, 2))
        3. half(sq(11, 1), sq(10, 2))   4. half(sq(12, 1), sq(9, 2))
yellow=half(sq(10, 1), sq(11, 2)) green=noop random=noop
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][·][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(1)
step 4: random throws (yellow: noop, green: noop)
random: 1. sticks(2) 1/4     2. sticks(8) 1/16    3. sticks(12) 1/16
        4. sticks(0) 5/8
at(sq(11, 2), yellow)
at(sq(12, 2), yellow)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  first_half(sq(12, 2))  pending(8)  throws_tens(0)
throws_units(1)
step 3: yellow to move (green: noop)
yellow: 1. half(sq(5, 1), sq(9, 1))     2. half(sq(10, 1), sq(11, 2))
        3. half(sq(11, 1), sq(10, 2))   4. half(sq(12, 1), sq(9, 2))
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][·][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(1)
step 4: random throws (yellow: noop, green: noop)
random: 1. sticks(2) 1/4     2. sticks(8) 1/16    3. sticks(12) 1/16
        4. sticks(0) 5/8
yellow=noop green=noop random=sticks(0)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][·][Y][Y]
[] home_yellow  () home_green
control(green)  throws_tens(0)  throws_units(2)
step 5: random throws (yellow: noop, green: noop)
random: 1. sticks(2) 1/4     2. sticks(8) 1/16    3. sticks(12) 1/16
        4. sticks(0) 5/8
yellow=noop green=noop random=sticks(2)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][·][Y][Y]
[] home_yellow  () home_green
control(green)  thrown(2)  throws_tens(0)  throws_units(3)
step 6: green to move (yellow: noop)
green: 1. move(sq(1, 4), sq(2, 3))   2. move(sq(2, 4), sq(1, 3))
       3. half(sq(1, 4), sq(1, 3))
goals (not over yet): yellow 50, green 50
throws(3)
{state}saved 6 steps to {f}
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(0)  toss
step 0: random throws (yellow: noop, green: noop)
random: 1. first(yellow) 1/2   2. first(green) 1/2
loaded {f}: 6 steps
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y  Y
1 [Y][Y][Y][Y][Y][Y][Y][Y][·][·][Y][Y]
[] home_yellow  () home_green
control(green)  thrown(2)  throws_tens(0)  throws_units(3)
step 6: green to move (yellow: noop)
green: 1. move(sq(1, 4), sq(2, 3))   2. move(sq(2, 4), sq(1, 3))
       3. half(sq(1, 4), sq(1, 3))
{state}1. play yellow=noop green=noop random=first(yellow)
2. play yellow=noop green=noop random=sticks(8)
3. play yellow=half(sq(9, 1), sq(12, 2)) green=noop random=noop
4. play yellow=half(sq(10, 1), sq(11, 2)) green=noop random=noop
5. play yellow=noop green=noop random=sticks(0)
6. play yellow=noop green=noop random=sticks(2)
"#
    .replace("{state}", state)
    .replace("{f}", &f);
    check(
        &["repl", "games/tablan.rules", "--seed", "7"],
        &input,
        &stdout,
        r#"error: `half(sq(9, 1), sq(12, 2))` is not a legal move of yellow; legal: half(sq(5, 1), sq(9, 1)), half(sq(10, 1), sq(11, 2)), half(sq(11, 1), sq(10, 2)), half(sq(12, 1), sq(9, 2))
"#,
        1,
    );
    let text = std::fs::read_to_string(&file).expect("transcript written");
    assert_eq!(
        text,
        r#"# tabula transcript
game games/tablan.rules
param cap=400
param parked=36
seed 7
play yellow=noop green=noop random=first(yellow)
play yellow=noop green=noop random=sticks(8)
play yellow=half(sq(9, 1), sq(12, 2)) green=noop random=noop
play yellow=half(sq(10, 1), sq(11, 2)) green=noop random=noop
play yellow=noop green=noop random=sticks(0)
play yellow=noop green=noop random=sticks(2)
"#
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variant keeps its parameters through save and load: tablan with one
/// die, capped at 2 throws, is over after the second throw is used; the
/// same steps under the default cap go on, until the transcript (which
/// names every parameter) is loaded in that session: then it is over too.
#[test]
fn variant_parameters_kept_by_save_and_load() {
    let dir = temp_dir("tablan-d6");
    let file = dir.join("d6.transcript");
    let f = file.display().to_string();
    let game = "games/variants/tablan_d6.rules";
    let walk = r#"roll first(green)
roll d6(4)
play 1
roll d6(6)
play move(sq(8, 1), sq(11, 2))
"#;
    // The board after the five steps.
    let board = r#"   1  2  3  4  5  6  7  8  9 10 11 12
4 (·)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  G  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  Y  ·
1 [Y][Y][Y][Y][Y][Y][Y][·][Y][Y][Y][Y]
[] home_yellow  () home_green
control(green)  throws_tens(0)  throws_units(2)
"#;
    let shown = [
        r#"   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(0)  toss
step 0: random throws (yellow: noop, green: noop)
random: 1. first(yellow) 1/2   2. first(green) 1/2
yellow=noop green=noop random=first(green)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(green)  throws_tens(0)  throws_units(0)
step 1: random throws (yellow: noop, green: noop)
random: 1. d6(1) 1/6   2. d6(2) 1/6   3. d6(3) 1/6   4. d6(4) 1/6
        5. d6(5) 1/6   6. d6(6) 1/6
yellow=noop green=noop random=d6(4)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(green)  thrown(4)  throws_tens(0)  throws_units(1)
step 2: green to move (yellow: noop)
green: 1. move(sq(1, 4), sq(4, 3))   2. move(sq(2, 4), sq(3, 3))
       3. move(sq(3, 4), sq(2, 3))   4. move(sq(4, 4), sq(1, 3))
       5. half(sq(1, 4), sq(2, 3))   6. half(sq(2, 4), sq(1, 3))
yellow=noop green=move(sq(1, 4), sq(4, 3)) random=noop
   1  2  3  4  5  6  7  8  9 10 11 12
4 (·)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  G  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  throws_tens(0)  throws_units(1)
step 3: random throws (yellow: noop, green: noop)
random: 1. d6(1) 1/6   2. d6(2) 1/6   3. d6(3) 1/6   4. d6(4) 1/6
        5. d6(5) 1/6   6. d6(6) 1/6
yellow=noop green=noop random=d6(6)
   1  2  3  4  5  6  7  8  9 10 11 12
4 (·)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)(G)
3  ·  ·  ·  G  ·  ·  ·  ·  ·  ·  ·  ·
2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
1 [Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y][Y]
[] home_yellow  () home_green
control(yellow)  thrown(6)  throws_tens(0)  throws_units(2)
step 4: yellow to move (green: noop)
yellow: 1. move(sq(7, 1), sq(12, 2))    2. move(sq(8, 1), sq(11, 2))
        3. move(sq(9, 1), sq(10, 2))    4. move(sq(10, 1), sq(9, 2))
        5. move(sq(11, 1), sq(8, 2))    6. move(sq(12, 1), sq(7, 2))
        7. half(sq(10, 1), sq(12, 2))   8. half(sq(11, 1), sq(11, 2))
        9. half(sq(12, 1), sq(10, 2))
yellow=move(sq(8, 1), sq(11, 2)) green=noop random=noop
"#,
        board,
    ]
    .concat();
    check(
        &["repl", game, "--param", "cap=2", "--seed", "11"],
        &format!("{walk}goals\nsave {f}\n"),
        &(shown.clone()
            + &r#"step 5: game over; goals: yellow 50, green 50
goals: yellow 50, green 50
saved 5 steps to {f}
"#
            .replace("{f}", &f)),
        "",
        0,
    );
    let text = std::fs::read_to_string(&file).expect("transcript written");
    assert_eq!(
        text,
        r#"# tabula transcript
game games/variants/tablan_d6.rules
param cap=2
param parked=36
seed 11
play yellow=noop green=noop random=first(green)
play yellow=noop green=noop random=d6(4)
play yellow=noop green=move(sq(1, 4), sq(4, 3)) random=noop
play yellow=noop green=noop random=d6(6)
play yellow=move(sq(8, 1), sq(11, 2)) green=noop random=noop
"#
    );
    check(
        &["repl", game, "--seed", "3"],
        &format!("{walk}load {f}\ngoals\nhistory\n"),
        &(shown
            + &r#"step 5: random throws (yellow: noop, green: noop)
random: 1. d6(1) 1/6   2. d6(2) 1/6   3. d6(3) 1/6   4. d6(4) 1/6
        5. d6(5) 1/6   6. d6(6) 1/6
loaded {f}: 5 steps
{board}step 5: game over; goals: yellow 50, green 50
goals: yellow 50, green 50
1. play yellow=noop green=noop random=first(green)
2. play yellow=noop green=noop random=d6(4)
3. play yellow=noop green=move(sq(1, 4), sq(4, 3)) random=noop
4. play yellow=noop green=noop random=d6(6)
5. play yellow=move(sq(8, 1), sq(11, 2)) green=noop random=noop
"#
            .replace("{f}", &f)
            .replace("{board}", board)),
        "",
        0,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `help` lists the commands; `help CMD` explains one.
#[test]
fn help_text() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"help
help roll
help p
help nothing
quit
play 1
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
commands (a bare number or move also plays it):
  help [COMMAND]  (h)                          this list, or one command
  moves  (m)                                   every role's legal moves, numbered
  play N | play MOVE | play ROLE=MOVE ...  (p) make a move, by its number or its text in the game's syntax
  roll [OUTCOME | N]  (r)                      nature throws (with the seeded generator), or the outcome you name
  auto [N]  (a)                                random moves for N steps, or to the end of the game
  undo [N]  (u)                                take back the last step (or N steps)
  redo [N]                                     make an undone step again
  history  (hist)                              the steps so far, as commands that make them again
  board  (b)                                   show the position again
  state  (s)                                   the true facts, one per line
  query ATOM  (?)                              every true instance of a relation in this state
  set FACT ...                                 go to the position where exactly these facts are true (undoable)
  load-state FILE                              the same with the facts read from a file (such as `state` output)
  goals  (g)                                   every role's goal value in this state
  restart                                      back to the initial state, history cleared, generator reseeded
  save FILE                                    write a transcript: game file, parameters, seed and every step
  load FILE                                    open a transcript's game and replay its steps
  quit  (q, exit, Ctrl-D)                      leave
roll [OUTCOME | N]  (r)
  nature throws (with the seeded generator), or the outcome you name
play N | play MOVE | play ROLE=MOVE ...  (p)
  make a move, by its number or its text in the game's syntax; roles with one legal move play it; with several roles to move give one move each, in role order or as ROLE=MOVE; nature throws unless given random=OUTCOME
no command `nothing`; type `help` for the list
"#,
        r#""#,
        0,
    );
}

/// A transcript that no longer fits names its failing step; the running session is unchanged. A game file is not a transcript.
#[test]
fn stale_transcript() {
    check(
        &["repl", "tests/repl/count.kif", "--seed", "1"],
        r#"play 1
load tests/repl/stale.transcript
load tests/repl/count.kif
state
"#,
        r#"(control a)  (count 0)
step 0: a to move (b: noop)
a: 1. (add 1)   2. (add 2)
a=(add 1) b=noop
(control b)  (count 1)
step 1: b to move (a: noop)
b: 1. (add 1)   2. (add 2)
(control b)
(count 1)
"#,
        r#"error: tests/repl/stale.transcript:6: step 3 no longer fits the game: `noop` is not a legal move of a; legal: (add 1), (add 2)
error: tests/repl/count.kif:1: `; Count to four: a and b take turns adding 1 or 2 to a counter that starts` is not part of a transcript (is tests/repl/count.kif one?)
"#,
        1,
    );
}
