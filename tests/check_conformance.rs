//! `tabula check` on the public GDL corpus in `../shared/conformance`:
//! every game there is accepted without errors, and `invalid/blackjack.gdl`
//! is refused with an arity error naming both places. Skipped quietly when
//! the corpus is not beside the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    dir.join("games").is_dir().then_some(dir)
}

fn check(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .env("NO_COLOR", "1")
        .arg("check")
        .arg(path)
        .output()
        .expect("tabula runs")
}

#[test]
fn every_conformance_game_is_accepted() {
    let Some(dir) = corpus() else { return };
    let mut games: Vec<PathBuf> = std::fs::read_dir(dir.join("games"))
        .expect("readable games folder")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("kif" | "gdl")))
        .collect();
    games.sort();
    assert!(!games.is_empty());
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
    let Some(dir) = corpus() else { return };
    let path = dir.join("invalid/blackjack.gdl");
    if !path.is_file() {
        return;
    }
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
    let Some(dir) = corpus() else { return };
    let path = dir.join("games/ticTacToe.kif");
    if !path.is_file() {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["check", "--explain"])
        .arg(&path)
        .output()
        .expect("tabula runs");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for word in ["relations", "rules", "strata"] {
        assert!(stdout.contains(word), "{stdout}");
    }
}
