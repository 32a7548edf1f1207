//! `tabula check` on the public GDL corpus in `../shared/conformance`:
//! every game there is accepted without errors, and `invalid/blackjack.gdl`
//! is refused with an arity error naming both places. Without the corpus
//! beside the repository each test is skipped with its reason printed, and
//! fails under CI (`common::shared`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn check(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .env("NO_COLOR", "1")
        .args(["check", "--quiet"])
        .arg(path)
        .output()
        .expect("tabula runs")
}

#[test]
fn every_conformance_game_is_accepted() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    let mut games: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable games folder")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("kif" | "gdl")))
        .collect();
    games.sort();
    assert!(
        games.len() >= 20,
        "only {} games in the corpus",
        games.len()
    );
    let mut failures = Vec::new();
    for game in &games {
        let out = check(game);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(0) || stderr.contains("error[") {
            failures.push(format!(
                "{}: {:?}\n{stderr}",
                game.display(),
                out.status.code()
            ));
        }
        if !out.stdout.is_empty() {
            failures.push(format!("{}: output on stdout", game.display()));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn blackjack_is_refused_with_both_arities() {
    let Some(path) = common::shared("conformance/invalid/blackjack.gdl") else {
        return;
    };
    let out = check(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let shown = path.display().to_string();
    // The error at the use with one argument, the note at the fact with two.
    assert!(
        stderr.contains(&format!(
            "{shown}:273:9: error[E0101]: relation `next-player` is used with 1 argument"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "{shown}:108:1: note: `next-player` is used with 2 arguments"
        )),
        "{stderr}"
    );
}

#[test]
fn explain_prints_sizes_of_a_valid_game() {
    let Some(path) = common::shared("conformance/games/ticTacToe.kif") else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["check", "--explain"])
        .arg(&path)
        .output()
        .expect("tabula runs");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let size = |name: &str| -> Option<u64> {
        common::explain_row(&stdout, name).and_then(|rest| rest.parse().ok())
    };
    // Sizes fixed by the game itself: 9 cells x {x, o, b} and two `control`
    // facts; 9 marks and a noop for each of the two roles.
    assert_eq!(size("state facts"), Some(29), "{stdout}");
    assert_eq!(size("moves"), Some(20), "{stdout}");
    for name in [
        "relations",
        "rules",
        "strata",
        "ground atoms",
        "ground rules",
    ] {
        assert!(
            size(name).is_some_and(|n| n > 0),
            "no `{name}` in\n{stdout}"
        );
    }
}

/// The rule every corpus test goes through: a missing path skips the test
/// (`None`) outside CI and fails it under CI.
#[test]
fn a_missing_corpus_file_skips_or_fails_under_ci() {
    let missing = "conformance/games/no-such-game.kif";
    let outcome = std::panic::catch_unwind(|| common::shared(missing));
    if common::under_ci() {
        assert!(outcome.is_err(), "under CI a missing corpus must fail");
    } else {
        assert_eq!(outcome.ok(), Some(None));
    }
}
