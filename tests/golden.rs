//! Golden diagnostics: every file in `tests/diagnostics/` (`.kif`, `.gdl`,
//! `.rules`) is checked by the built binary, run from that folder, and its
//! stderr must equal the sibling file `NAME.EXT.stderr` byte for byte.
//! The exit code must be 1 when an error is expected and 0 otherwise.
//! The lint playouts are counted (`--playouts 100`), not timed, so the
//! warnings they find do not depend on the machine's load.
//!
//! Absolute paths to this folder read `$DIR`.
//! `TABULA_BLESS=1 cargo test --test golden` rewrites the expectations from
//! the current output (review the diff before committing).

use std::path::{Path, PathBuf};
use std::process::Command;
use tabula::diag::Code;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics")
}

fn inputs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder())
        .expect("tests/diagnostics exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("kif" | "gdl" | "rules")
            )
        })
        .collect();
    files.sort();
    files
}

/// Absolute paths (which some messages name) depend on the checkout; they
/// read `$DIR` in the expectations.
fn normalise(stderr: &str) -> String {
    let mut text = stderr.to_string();
    let dir = folder();
    let mut forms = vec![dir.display().to_string()];
    if let Ok(real) = dir.canonicalize() {
        forms.push(real.display().to_string());
    }
    for form in forms {
        text = text.replace(&form, "$DIR");
    }
    text
}

#[test]
fn diagnostics_match_golden_files() {
    let bless = std::env::var_os("TABULA_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let files = inputs();
    assert!(!files.is_empty(), "no inputs in tests/diagnostics");
    for input in &files {
        let name = input.file_name().unwrap().to_str().unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .current_dir(folder())
            .env("NO_COLOR", "1")
            .args(["check", "--quiet", "--playouts", "100", name])
            .output()
            .expect("tabula runs");
        let stderr = normalise(&String::from_utf8_lossy(&output.stderr));
        let code = output.status.code();
        let expected_path = folder().join(format!("{name}.stderr"));
        if bless {
            std::fs::write(&expected_path, &stderr).expect("writable expectation");
            continue;
        }
        let Ok(expected) = std::fs::read_to_string(&expected_path) else {
            failures.push(format!(
                "{name}: no {name}.stderr (run with TABULA_BLESS=1 to create it)"
            ));
            continue;
        };
        if stderr != expected {
            failures.push(format!(
                "{name}: stderr differs\n--- expected\n{expected}--- actual\n{stderr}"
            ));
        }
        let want_code = if expected.contains(": error[") { 1 } else { 0 };
        if code != Some(want_code) {
            failures.push(format!("{name}: exit code {code:?}, expected {want_code}"));
        }
        if !output.stdout.is_empty() {
            failures.push(format!("{name}: unexpected output on stdout"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Every code listed in `docs/ERRORS.md` has at least one golden file, and
/// every code the golden files show is documented there.
#[test]
fn every_code_is_tested_and_documented() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ERRORS.md"))
            .expect("docs/ERRORS.md exists");
    let mut shown = String::new();
    for input in inputs() {
        let name = input.file_name().unwrap().to_str().unwrap().to_string();
        shown.push_str(
            &std::fs::read_to_string(folder().join(format!("{name}.stderr"))).unwrap_or_default(),
        );
    }
    let mut missing = Vec::new();
    for code in documented_codes(&docs) {
        let tag = format!("[{code}]");
        if !shown.contains(&tag) {
            missing.push(format!("{code} has no golden test"));
        }
    }
    let mut rest = shown.as_str();
    while let Some(i) = rest.find("error[").or_else(|| rest.find("warning[")) {
        let after = &rest[i..];
        let open = after.find('[').unwrap();
        let close = after.find(']').unwrap_or(open);
        let code = &after[open + 1..close];
        if !docs.contains(&format!("## {code}")) {
            missing.push(format!("{code} is not documented in docs/ERRORS.md"));
        }
        rest = &after[close.max(open + 1)..];
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "\n{}", missing.join("\n"));
}

/// The codes documented in ERRORS.md: headings `## CODE ...`.
fn documented_codes(docs: &str) -> Vec<String> {
    docs.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| c.len() == 5 && c[1..].chars().all(|d| d.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// `docs/ERRORS.md` has one section per [`Code`], headed `## CODE meaning`,
/// that shows the smallest input in a code block; and every code the docs
/// name is a variant of the enum.
#[test]
fn every_code_of_the_enum_is_documented_with_its_smallest_input() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ERRORS.md"))
            .expect("docs/ERRORS.md exists");
    let mut problems = Vec::new();
    for code in Code::ALL {
        let heading = format!("## {} {}", code.as_str(), code.meaning());
        let Some(at) = docs.lines().position(|l| l.starts_with(&heading)) else {
            problems.push(format!("no section `{heading}`"));
            continue;
        };
        let section: Vec<&str> = docs
            .lines()
            .skip(at + 1)
            .take_while(|l| !l.starts_with("## "))
            .collect();
        if !section.iter().any(|l| l.starts_with("```")) {
            problems.push(format!("{code}: no example input under `{heading}`"));
        }
    }
    for documented in documented_codes(&docs) {
        if !Code::ALL.iter().any(|c| c.as_str() == documented) {
            problems.push(format!("{documented} is documented but not a `Code`"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
