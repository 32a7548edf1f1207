//! The contract of `tabula check`: exit 0 if every file is valid (warnings
//! allowed), 1 if any is invalid, 2 for a usage or I/O error; one line per
//! valid file on stdout (none with `--quiet`); no colour when stderr is not
//! a terminal.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn diagnostics(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/diagnostics")
        .join(name)
}

fn tabula(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .env_remove("NO_COLOR")
        .args(args)
        .output()
        .expect("tabula runs")
}

fn check(files: &[PathBuf]) -> Output {
    let mut args = vec![std::ffi::OsStr::new("check")];
    args.extend(files.iter().map(|f| f.as_os_str()));
    tabula(&args)
}

const VALID: &str = "(role x)\n(legal x noop)\n(init on)\n(<= terminal (true on))\n(goal x 100)\n";

/// A valid file gets one line: its roles and ground rules (the rule of
/// `terminal` and the four facts); an invalid one none.
#[test]
fn a_valid_file_prints_one_line() {
    let valid = common::scratch_file("check-cli", "valid.kif", VALID);
    let out = check(&[valid.clone(), diagnostics("arity.kif"), valid.clone()]);
    assert_eq!(out.status.code(), Some(1));
    let line = format!("{}: ok (roles x; 5 ground rules)\n", valid.display());
    assert_eq!(String::from_utf8_lossy(&out.stdout), line.repeat(2));
    let out = check(&[valid]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--quiet` prints nothing for a valid file, and still every diagnostic.
#[test]
fn quiet_prints_only_diagnostics() {
    let valid = common::scratch_file("check-cli", "valid4.kif", VALID);
    for flag in ["--quiet", "-q"] {
        let out = tabula(&[
            "check".as_ref(),
            flag.as_ref(),
            valid.as_os_str(),
            diagnostics("undefined.kif").as_os_str(),
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stdout.is_empty(), "{flag}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("warning[W0001]"));
    }
}

#[test]
fn warnings_alone_keep_exit_zero() {
    let out = check(&[diagnostics("undefined.kif")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning[W0001]"));
}

#[test]
fn one_invalid_file_among_valid_ones_gives_one() {
    let valid = common::scratch_file("check-cli", "valid2.kif", VALID);
    let out = check(&[valid.clone(), diagnostics("arity.kif"), valid]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[E0101]"), "{stderr}");
}

#[test]
fn a_missing_file_is_an_io_error() {
    let out = check(&[diagnostics("arity.kif"), PathBuf::from("/no/such/game.kif")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The other file is still checked and reported.
    assert!(stderr.contains("error[E0101]"), "{stderr}");
    assert!(stderr.contains("/no/such/game.kif"), "{stderr}");
}

#[test]
fn a_directory_is_an_io_error() {
    let out = check(&[std::env::temp_dir()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_file_that_is_not_utf8_is_invalid() {
    let out = check(&[diagnostics("syntax_not_utf8.kif")]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_give_two() {
    let out = tabula(&["check".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let valid = common::scratch_file("check-cli", "valid3.kif", VALID);
    let out = tabula(&[
        "check".as_ref(),
        "--param".as_ref(),
        "novalue".as_ref(),
        valid.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = tabula(&[
        "check".as_ref(),
        "--syntax".as_ref(),
        "lisp".as_ref(),
        valid.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn syntax_flag_overrides_the_extension() {
    let path = common::scratch_file("check-cli", "game.txt", VALID);
    let out = tabula(&["check".as_ref(), path.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "read as the native syntax");
    let out = tabula(&[
        "check".as_ref(),
        "--syntax".as_ref(),
        "kif".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn no_colour_when_stderr_is_not_a_terminal() {
    let out = check(&[diagnostics("many_errors.kif")]);
    assert!(!out.stderr.contains(&0x1b), "escape codes on a pipe");
}

#[test]
fn explain_prints_sizes_and_strata_on_stdout() {
    let path = common::scratch_file("check-cli", "explain.kif", VALID);
    let out = tabula(&["check".as_ref(), "--explain".as_ref(), path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        "relations",
        "facts",
        "rules",
        "strata",
        "ground atoms",
        "stratum 0:",
        "machine bytes",
    ] {
        assert!(stdout.contains(line), "{line} missing in\n{stdout}");
    }
    // Fewer than 64 state facts: one word.
    assert!(stdout.contains("  state bytes    8\n"), "{stdout}");
    // An invalid file explains nothing.
    let out = tabula(&[
        "check".as_ref(),
        "--explain".as_ref(),
        diagnostics("arity.kif").as_os_str(),
    ]);
    assert!(out.stdout.is_empty());
}

/// On the rule evaluator `--explain` prints the rules it runs per query
/// and its domains, counted by hand in tests/games/tally.rules: 6 state
/// facts of `stone` (3 cells, 2 roles), `passed`, 2 of `control`, 3 of
/// `lowest`; 10 moves (3 cells, `pass` and `noop` per role); 7 `next`
/// rules and 6 aggregates; the engine and why it runs.
#[test]
fn explain_on_the_rule_evaluator_prints_its_rules_per_query() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/tally.rules");
    let args = ["check", "--explain", "--playouts", "0", "--engine", "rules"];
    let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    args.push(path.as_os_str());
    let out = tabula(&args);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = stdout.lines().skip(5).collect();
    assert!(rows[0].starts_with("  domain atoms "), "{stdout}");
    assert!(rows[1].starts_with("  domain rules "), "{stdout}");
    assert_eq!(
        rows[2..13],
        [
            "  state facts    12",
            "  moves          10",
            "  terminal rules 1",
            "  legal rules    3",
            "  weight rules   0",
            "  next rules     7",
            "  goal rules     2",
            "  aggregates     6",
            "  engine         rules: asked for with --engine",
            "  stratum 0: cell init next placed role score taken top wins",
            "  stratum 1: cells goal legal terminal",
        ]
    );
}

/// `check` opens files as every other command does: the same message for a
/// file that is not there, and `--param` read the same way (spaces around
/// the name and value do not matter), so a parameter that changes the game
/// changes what `--explain` counts.
#[test]
fn check_opens_games_like_the_other_commands() {
    for command in [
        &["check"][..],
        &["perft", "--depth", "1"],
        &["bench"],
        &["play"],
        &["repl"],
    ] {
        let mut args: Vec<&std::ffi::OsStr> = command.iter().map(|a| a.as_ref()).collect();
        args.push("/no/such/game.kif".as_ref());
        let out = tabula(&args);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: cannot read /no/such/game.kif: no such file\n",
            "{command:?}"
        );
    }
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/pawn_whopping.rules");
    let explain = |param: &str| {
        let out = tabula(&[
            "check".as_ref(),
            "--explain".as_ref(),
            "--param".as_ref(),
            param.as_ref(),
            game.as_os_str(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{param}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with("state facts"))
            .map(str::to_string);
        line.expect("a state facts line")
    };
    assert_eq!(explain(" size = 5 "), explain("size=5"));
    assert_ne!(explain("size=5"), explain("size=6"));
    let out = tabula(&[
        "check".as_ref(),
        "--param".as_ref(),
        "=5".as_ref(),
        game.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --param takes NAME=VALUE, VALUE an integer or a lower-case name, not `=5`\n"
    );
}
