//! The game set shared by the benchmarks: every shipped game (`games/`,
//! `games/variants/`), the test games named in [`OWN`] and, when present,
//! every conformance game (`../shared/conformance/games`), discovered at
//! run time and sorted.

use std::path::{Path, PathBuf};

/// A benchmarked game: a short label for criterion and its path.
pub struct BenchGame {
    pub label: String,
    pub path: PathBuf,
}

/// Test games of our own that a speed change was measured on: hexlink's
/// goal is a recursive component evaluated in every state.
const OWN: [&str; 1] = ["tests/games/hexlink.kif"];

/// Game files of `dir` (`.rules`, `.kif`, `.gdl`), sorted; none if absent.
fn game_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "rules" | "kif" | "gdl"))
        })
        .collect();
    files.sort();
    files
}

/// Every game to benchmark, labelled `games/…`, `variants/…`, `tests/…`,
/// `conformance/…`.
pub fn games() -> Vec<BenchGame> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        ("games", game_files(&root.join("games"))),
        ("variants", game_files(&root.join("games/variants"))),
        ("tests", OWN.iter().map(|f| root.join(f)).collect()),
        (
            "conformance",
            game_files(&root.join("../shared/conformance/games")),
        ),
    ];
    let mut out = Vec::new();
    for (prefix, files) in dirs {
        for path in files {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            out.push(BenchGame {
                label: format!("{prefix}/{name}"),
                path,
            });
        }
    }
    out
}
