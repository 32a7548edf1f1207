//! Scripted REPL sessions through piped standard input of the built binary,
//! with their exact output; one session through a pseudo-terminal for the
//! prompt, completion and history. Fixtures: tests/repl/ (count.kif: two
//! players take turns; guess.kif: a weighted throw then a guess;
//! race.rules: a board with marked cells and dice) and the shipped games:
//! games/pawn_whopping.rules, games/tablan.rules and the variant
//! games/variants/tablan_d6.rules. The scripted sessions and their exact
//! output are golden files in tests/repl/sessions/ (see tests/sessions/mod.rs;
//! `TABULA_BLESS=1` rewrites them).

mod common;
mod sessions;
use common::{absolute, run};
use sessions::{session, session_in};
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
        format!(
            "# tabula transcript\ngame {}\nseed 9\n\
             play random=die(2) red=noop\nplay random=noop red=go\nplay random=die(1) red=noop\n",
            absolute("tests/repl/race.rules")
        )
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

/// The REPL run in `dir`, fed `input`: its stdout, stderr and exit code.
fn repl_in(dir: &Path, input: &str) -> (String, String, i32) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["repl", &absolute("tests/repl/count.kif")])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn tabula");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write stdin");
    drop(stdin);
    let out = child.wait_with_output().expect("tabula runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (
        text(out.stdout),
        text(out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

/// A transcript saved from the repository loads from any other folder: it
/// names its game by an absolute path.
#[test]
fn transcript_loads_from_another_folder() {
    let dir = temp_dir("elsewhere");
    let file = dir.join("race.transcript");
    let f = file.display().to_string();
    let (out, err, code) = run(
        &["repl", "tests/repl/race.rules", "--seed", "9"],
        &format!("roll die(2)\nplay go\nsave {f}\n"),
    );
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    let (out, err, code) = repl_in(&dir, "load race.transcript\nhistory\n");
    assert_eq!((err.as_str(), code), ("", 0), "{out}");
    assert!(out.contains("loaded race.transcript: 2 steps\n"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A relative game path written by hand is looked for beside the
/// transcript, then in the current folder; when it is in neither, the
/// error names both files, and the session goes on unchanged.
#[test]
fn transcript_whose_game_is_missing_names_every_file_tried() {
    let dir = temp_dir("missing");
    std::fs::create_dir_all(dir.join("saved")).expect("a folder");
    std::fs::write(
        dir.join("saved/old.transcript"),
        "# tabula transcript\ngame games/gone.rules\nseed 1\n",
    )
    .expect("a transcript");
    let (out, err, code) = repl_in(&dir, "load saved/old.transcript\nhistory\n");
    assert_eq!(
        err,
        "error: saved/old.transcript: its game `games/gone.rules` is not there: \
         looked for saved/games/gone.rules and games/gone.rules\n"
    );
    assert_eq!(code, 1);
    assert!(out.ends_with("no steps yet\n"), "{out}");
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
    session("repl/sessions", "missing_game_file");
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
    p.set_expect_timeout(Some(std::time::Duration::from_secs(60)));
    p.expect("Type `help` for the commands.").expect("banner");
    p.expect("0> ").expect("prompt");
    // `his` + Tab completes to `history` (`hi` could be `hint` too).
    p.send("his\t").expect("send");
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
    p.set_expect_timeout(Some(std::time::Duration::from_secs(60)));
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
    session("repl/sessions", "walk_to_terminal_state");
}

/// Undo and redo move through the history; a new move drops what could be redone.
#[test]
fn undo_and_redo() {
    session("repl/sessions", "undo_and_redo");
}

/// Outcomes are listed with probabilities; `roll OUTCOME` forces one, by text or number; `roll` throws with the seed.
#[test]
fn force_chance_outcomes() {
    session("repl/sessions", "force_chance_outcomes");
}

/// On the rule evaluator the line of goals before the end shows the same
/// values as on the compiled engines (count.kif: the role to move has 0).
#[test]
fn rules_engine_goals() {
    session("repl/sessions", "rules_engine_goals");
}

/// `query` lists the true instances of a pattern, in KIF and with variables; `no` when none.
#[test]
fn query_relations() {
    session("repl/sessions", "query_relations");
}

/// Every kind of bad input gets one error line and leaves the state as it was.
#[test]
fn bad_input_changes_nothing() {
    session("repl/sessions", "bad_input_changes_nothing");
}

/// An impossible outcome is refused with the possible ones.
#[test]
fn bad_outcomes() {
    session("repl/sessions", "bad_outcomes");
}

/// `set` and `load-state` start from a given position and can be undone.
#[test]
fn set_and_load_state() {
    session("repl/sessions", "set_and_load_state");
}

/// A native game: the board with its marked cells, dice with weights, a forced throw, then `auto` to the end.
#[test]
fn board_region_and_dice() {
    session("repl/sessions", "board_region_and_dice");
}

/// The shipped pawn whopping on a 5x5 board: moves by number and text, a query, undo.
#[test]
fn shipped_pawn_whopping() {
    session("repl/sessions", "shipped_pawn_whopping");
}

/// The shipped tablan: nature's draw of the first player and a scoring
/// throw of the sticks, both forced; a split throw, its first half by number
/// and its second by text; a move refused with the legal ones; a query;
/// undo and redo; a throw of nothing forced by number (the turn passes) and
/// a seeded throw; goals and state; save, restart and load giving the same
/// state (printed twice in the session file).
#[test]
fn shipped_tablan() {
    let dir = temp_dir("tablan");
    let file = dir.join("tablan.transcript");
    session_in("repl/sessions", "shipped_tablan", &dir);
    let text = std::fs::read_to_string(&file).expect("transcript written");
    assert_eq!(
        text,
        format!(
            r#"# tabula transcript
game {}
param cap=400
param parked=36
seed 7
play yellow=noop green=noop random=first(yellow)
play yellow=noop green=noop random=sticks(8)
play yellow=half(sq(9, 1), sq(12, 2)) green=noop random=noop
play yellow=half(sq(10, 1), sq(11, 2)) green=noop random=noop
play yellow=noop green=noop random=sticks(0)
play yellow=noop green=noop random=sticks(2)
"#,
            absolute("games/tablan.rules")
        )
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
    session_in("repl/sessions", "variant_capped", &dir);
    let text = std::fs::read_to_string(&file).expect("transcript written");
    assert_eq!(
        text,
        format!(
            r#"# tabula transcript
game {}
param cap=2
param parked=36
seed 11
play yellow=noop green=noop random=first(green)
play yellow=noop green=noop random=d6(4)
play yellow=noop green=move(sq(1, 4), sq(4, 3)) random=noop
play yellow=noop green=noop random=d6(6)
play yellow=move(sq(8, 1), sq(11, 2)) green=noop random=noop
"#,
            absolute("games/variants/tablan_d6.rules")
        )
    );
    session_in("repl/sessions", "variant_loaded", &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `help` lists the commands; `help CMD` explains one.
#[test]
fn help_text() {
    session("repl/sessions", "help_text");
}

/// A transcript that no longer fits names its failing step; the running session is unchanged. A game file is not a transcript.
#[test]
fn stale_transcript() {
    session("repl/sessions", "stale_transcript");
}

/// `hint` shows each move's mean goal with its confidence interval and
/// says when the best two are within each other's; a budget that is not
/// one is refused with the forms that work.
#[test]
fn hint_with_confidence() {
    session("repl/sessions", "hint_with_confidence");
}
