//! The lints of `tabula check`: every shipped game and every conformance
//! game is clean under them (KriegTictactoe aside, which has a real
//! defect: both players can complete a line in the same simultaneous move,
//! and then x has the goals 100 and 0); the playouts are seeded, bounded by
//! `--playouts`, and `--explain` prints what they saw.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn check(args: &[&str], path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .env("NO_COLOR", "1")
        .arg("check")
        .args(args)
        .arg(path)
        .output()
        .expect("tabula runs")
}

fn files(dir: &Path, pick: fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable folder") {
            let p = e.expect("readable entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if pick(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn ext_is(p: &Path, exts: &[&str]) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.contains(&e))
}

/// Whatever a clean file may print: nothing on stderr.
fn assert_clean(paths: &[PathBuf], except: &[&str]) {
    let mut failures = Vec::new();
    for p in paths {
        if p.file_name()
            .is_some_and(|n| except.iter().any(|e| n == *e))
        {
            continue;
        }
        let out = check(&[], p);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(0) || !stderr.is_empty() {
            failures.push(format!("{}:\n{stderr}", p.display()));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_shipped_game_is_clean() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let all = files(&games, |p| ext_is(p, &["rules"]));
    assert!(all.len() >= 5, "only {} games", all.len());
    assert_clean(&all, &[]);
}

#[test]
fn every_conformance_game_is_clean_but_krieg_tictactoe_and_pawn_whopping() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    let all = files(&dir, |p| ext_is(p, &["kif", "gdl"]));
    assert_clean(&all, &["KriegTictactoe.gdl", "pawnWhopping.kif"]);
}

/// The GDL pawn race reads `(true (cell ?x 8 o))`, but o starts on row 7
/// and only moves down: the ground program has no such fact (W0002).
#[test]
fn pawn_whopping_reads_a_cell_o_never_reaches() {
    let Some(path) = common::shared("conformance/games/pawnWhopping.kif") else {
        return;
    };
    let out = check(&[], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.matches("warning[").count(), 1, "{stderr}");
    assert!(
        stderr.contains(":57:5: warning[W0002]: state fact `(cell ?x 8 o)` is read here but no state fact the game can reach matches it"),
        "{stderr}"
    );
}

#[test]
fn krieg_tictactoe_shows_its_double_goal() {
    let Some(path) = common::shared("conformance/games/KriegTictactoe.gdl") else {
        return;
    };
    let out = check(&["--playouts", "100"], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let shown = path.display().to_string();
    assert!(
        stderr.starts_with(&format!(
            "{shown}: warning[W0101]: role xplayer has several goals (100, 0) in a terminal state\n  = note: after "
        )),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
}

/// x can stop at once or wait; only waiting 3 times gets stuck (no legal
/// move in a non-terminal state).
const STUCK_AFTER_THREE: &str = "roles x.
init n(0).
legal(x, wait) :- true n(N), N < 3.
legal(x, stop) :- true n(N), N < 2.
next n(M) :- true n(N), N < 3, does(x, wait), M = N + 1.
next over :- does(x, stop).
terminal :- true over.
goal(x, 100) :- role(x).
";

#[test]
fn the_shortest_sequence_found_is_shown() {
    let path = common::scratch_file("lint", "stuck.rules", STUCK_AFTER_THREE);
    let out = check(&["--playouts", "100"], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!(
            "{}: warning[W0102]: role x has no legal move in a non-terminal state\n  = note: after 3 joint moves: (x wait) (x wait) (x wait)\n",
            path.display()
        )
    );
}

#[test]
fn no_playouts_no_playout_warnings() {
    let path = common::scratch_file("lint", "stuck0.rules", STUCK_AFTER_THREE);
    let out = check(&["--playouts", "0"], &path);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn explain_prints_depth_and_branching() {
    // Every playout: one `wait` of two moves, then one `stop`: depth 2,
    // branching 2 then 1.
    let text = "roles x.
init a.
legal(x, wait) :- true a.
legal(x, hold) :- true a.
legal(x, stop) :- true b.
next b :- true a.
next over :- true b.
terminal :- true over.
goal(x, 100) :- role(x).
";
    let path = common::scratch_file("lint", "explain.rules", text);
    let out = check(&["--explain", "--playouts", "10"], &path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("  playouts       10 (10 ended)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  depth          mean 2.0, max 2\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  joint branching mean 1.5 (every role's legal moves multiplied, nature's outcomes included)\n"),
        "{stdout}"
    );
}

const SIZED: &str = "param size = 3.
roles x.
init n(size).
legal(x, go) :- true n(_).
next over :- true n(_).
terminal :- true over.
goal(x, 100) :- role(x).
";

#[test]
fn an_unknown_param_gets_the_nearest_name_and_the_list() {
    let path = common::scratch_file("lint", "sized.rules", SIZED);
    let out = check(&["--param", "siz=4"], &path);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "{}: error[E0107]: the game has no parameter `siz`\n  = note: did you mean `size`?\n  = note: its parameters: `size`\n",
            path.display()
        )
    );
}

#[test]
fn a_name_for_a_numeric_param_is_an_error_naming_it() {
    let path = common::scratch_file("lint", "sized_name.rules", SIZED);
    let out = check(&["--param", "size=abc"], &path);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "{}:1:7: error[E0003]: parameter `size` is a number (its default is 3): `--param size=abc` gives it a name\n",
            path.display()
        )),
        "{stderr}"
    );
}
