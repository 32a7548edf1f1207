//! Shared helpers of the integration tests: the scenario harness (named
//! positions as lists of facts in the game's own syntax, the exact legal
//! moves there, the exact next state), the one rule for tests that need the
//! corpus in `../shared`, and a runner of the built binary.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tabula::engine::{Game, State};
use tabula::syntax::{self, SourceMap};

/// Opens a game file with the default engine choice, or fails the test
/// with the diagnostics.
pub fn open_game(path: &Path) -> Game {
    match tabula::load::open(path, None, &Default::default()) {
        Ok(l) => l.game,
        Err(f) => panic!("{} does not load: {:?}", path.display(), f.diagnostics),
    }
}

/// The game files (`.kif`, `.gdl`, `.rules`) directly in a folder, sorted.
pub fn games_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "kif" || x == "gdl" || x == "rules")
        })
        .collect();
    files.sort();
    files
}

/// A file or folder of the read-only corpus beside the repository
/// (`../shared/<rel>`), or `None` when the test needing it is to be skipped.
///
/// Holds: a test never passes without checking anything unnoticed. Where
/// the corpus is missing the test is skipped with the reason on stderr;
/// under CI (`CI=true` in the environment) a missing corpus fails the test.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(rel);
    if path.exists() {
        return Some(path);
    }
    let reason = format!("{} is missing", path.display());
    if under_ci() {
        panic!("{reason}; under CI the corpus in ../shared must be present");
    }
    eprintln!("skipped: {reason}");
    None
}

/// Whether the environment says this is a CI run (`CI=true`, as CI
/// services set it; `1` also counts).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

pub struct Scenario {
    pub game: Game,
}

impl Scenario {
    /// Opens a game file relative to the crate root, with parameter overrides.
    pub fn open(path: &str, params: &[(&str, &str)]) -> Scenario {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let overrides = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        match tabula::load::open(&full, None, &overrides) {
            Ok(l) => Scenario { game: l.game },
            Err(f) => {
                let text: String = f
                    .diagnostics
                    .iter()
                    .map(|d| tabula::diag::render(d, &f.sources, path, false))
                    .collect();
                panic!("{path} does not load:\n{text}");
            }
        }
    }

    /// A ground term in the game's syntax, as this game's term id.
    fn term(&self, text: &str) -> Option<tabula::ground::TermId> {
        let mut sources = SourceMap::default();
        let file = sources.add("<test>", text);
        let mut symbols = self.game.symbols.clone();
        let t = syntax::parse_term(&sources, file, self.game.syntax, &mut symbols)
            .unwrap_or_else(|d| panic!("`{text}` does not parse: {}", d.message));
        self.game.term_id(&t)
    }

    /// The state made of exactly these facts.
    pub fn state(&self, facts: &[&str]) -> State {
        let ids: Vec<_> = facts
            .iter()
            .map(|f| {
                self.term(f)
                    .unwrap_or_else(|| panic!("`{f}` is no fact of this game"))
            })
            .collect();
        self.game
            .state_from_facts(&ids)
            .unwrap_or_else(|t| panic!("`{}` is no fact of this game", self.game.show(t)))
    }

    pub fn initial(&self) -> State {
        self.game.initial()
    }

    fn role(&self, name: &str) -> usize {
        (0..self.game.role_count())
            .find(|&r| self.game.role_name(r) == name)
            .unwrap_or_else(|| panic!("no role {name}"))
    }

    /// The legal moves of a role, printed and sorted.
    pub fn legal(&self, state: &State, role: &str) -> Vec<String> {
        let r = self.role(role);
        let mut m = self.game.machine();
        m.set_state(state);
        let mut out: Vec<String> = m
            .legal(r)
            .iter()
            .map(|&mv| self.game.show_move(r, mv))
            .collect();
        out.sort();
        out
    }

    pub fn is_terminal(&self, state: &State) -> bool {
        let mut m = self.game.machine();
        m.set_state(state);
        m.is_terminal()
    }

    /// Goals per role name, in role order (`None` for a goal-less chance role).
    pub fn goals(&self, state: &State) -> Vec<(String, Option<i64>)> {
        let mut m = self.game.machine();
        m.set_state(state);
        let goals = m.goals().unwrap_or_else(|e| panic!("goals: {e}"));
        (0..self.game.role_count())
            .map(|r| (self.game.role_name(r), goals[r]))
            .collect()
    }

    /// The chance role's legal moves with their weights, sorted by move.
    pub fn chance(&self, state: &State) -> Vec<(String, u64)> {
        let r = self.game.random_role().expect("the game has a chance role");
        let mut m = self.game.machine();
        m.set_state(state);
        let mut out: Vec<(String, u64)> = m
            .chance()
            .unwrap_or_else(|e| panic!("chance: {e}"))
            .into_iter()
            .map(|(mv, w)| (self.game.show_move(r, mv), w))
            .collect();
        out.sort();
        out
    }

    /// The state after the given moves; every role not named must have
    /// exactly one legal move, which it plays. Panics on an illegal move.
    pub fn play(&self, state: &State, moves: &[(&str, &str)]) -> State {
        let mut m = self.game.machine();
        m.set_state(state);
        let joint: Vec<u32> = (0..self.game.role_count())
            .map(|r| {
                let name = self.game.role_name(r);
                match moves.iter().find(|(role, _)| *role == name) {
                    Some((_, text)) => {
                        let id = self
                            .term(text)
                            .unwrap_or_else(|| panic!("`{text}` is no move of this game"));
                        let mv = self
                            .game
                            .find_move(r, id)
                            .unwrap_or_else(|| panic!("`{text}` is no move of {name}"));
                        assert!(
                            m.legal(r).contains(&mv),
                            "`{text}` is not legal for {name}; legal: {:?}",
                            self.legal(state, &name)
                        );
                        mv
                    }
                    None => match m.legal(r) {
                        [only] => *only,
                        many => panic!(
                            "role {name} has {} legal moves; name one of {:?}",
                            many.len(),
                            self.legal(state, &name)
                        ),
                    },
                }
            })
            .collect();
        m.next(&joint).expect("next state")
    }

    /// The facts of a state, printed and sorted.
    pub fn facts(&self, state: &State) -> Vec<String> {
        let mut out: Vec<String> = self
            .game
            .facts(state)
            .into_iter()
            .map(|t| self.game.show(t))
            .collect();
        out.sort();
        out
    }
}

/// A file or folder of the repository, from its path relative to the
/// crate root.
pub fn repository(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The absolute path of a file of the repository, as a transcript names
/// its game.
pub fn absolute(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let path = std::fs::canonicalize(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path.display().to_string()
}

/// Every `.rules` file under a folder of the repository, its subfolders
/// included, relative to the crate root and sorted.
pub fn rules_files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut folders = vec![root.join(dir)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rules") {
                found.push(path.strip_prefix(root).expect("inside").to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// A fresh, empty scratch folder `tabula-<name>-<pid>` in the system's
/// temporary folder: one per test that needs a folder of its own.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Writes `text` to `file` in the scratch folder `tabula-<folder>-<pid>`
/// (made if missing, kept otherwise: the tests of one binary share it, each
/// with files of its own names) and returns the file's path.
pub fn scratch_file(folder: &str, file: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-{folder}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(file);
    std::fs::write(&path, text).expect("a scratch file");
    path
}

/// Sorted owned strings, for comparing with `legal` and `facts`.
pub fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The value of a row of `check --explain`'s output (`ground rules`,
/// `moves`, ...), trimmed.
pub fn explain_row<'a>(out: &'a str, name: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.trim().strip_prefix(name))
        .map(str::trim)
}

/// The rule evaluator's domains of `game`, as `check --explain --engine
/// rules` prints them: state facts, moves, domain atoms, domain rules.
pub fn rule_domain_sizes(game: &str) -> [String; 4] {
    let args = [
        "check",
        "--explain",
        "--playouts",
        "0",
        game,
        "--engine",
        "rules",
    ];
    let (out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    ["state facts", "moves", "domain atoms", "domain rules"].map(|name| {
        let row = explain_row(&out, name).unwrap_or_else(|| panic!("{name}: {out}"));
        row.to_string()
    })
}

/// Runs the built `tabula` from the crate root with `input` on its standard
/// input, without colour; returns stdout, stderr and the exit code.
pub fn run(args: &[&str], input: &str) -> (String, String, i32) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tabula");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("tabula runs");
    (
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
        out.status.code().unwrap_or(-1),
    )
}

/// Runs `tabula perft GAME --depth DEPTH` on the default engine and on
/// the rule evaluator (the two share nothing below the parser) and asserts
/// that both print `expected`.
pub fn perft_on_both_evaluators(game: &str, depth: u32, expected: &str) {
    let depth = depth.to_string();
    for engine in [None, Some("rules")] {
        let mut args = vec!["perft", game, "--depth", &depth];
        if let Some(engine) = engine {
            args.extend(["--engine", engine]);
        }
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, expected, "{engine:?}");
    }
}

/// Runs `tabula` and asserts its exact stdout, stderr and exit code.
pub fn check(args: &[&str], input: &str, stdout: &str, stderr: &str, code: i32) {
    let (out, err, c) = run(args, input);
    assert_eq!(out, stdout, "stdout of tabula {args:?}");
    assert_eq!(err, stderr, "stderr of tabula {args:?}");
    assert_eq!(c, code, "exit code of tabula {args:?}");
}

/// Nature's moves, as printed, and how often each was drawn in `playouts`
/// seeded random playouts (`Machine::random_joint`, which draws nature's
/// move by its weight and the players' moves uniformly).
pub fn chance_draws(game: &Game, playouts: usize, seed: u64) -> BTreeMap<String, u64> {
    use rand::SeedableRng;
    let nature = game.random_role().expect("a game with chance");
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut counts = BTreeMap::new();
    let mut m = game.machine();
    for _ in 0..playouts {
        m.set_state(&game.initial());
        while !m.is_terminal() {
            let joint = m.random_joint(&mut rng).expect("a playable state");
            *counts
                .entry(game.show_move(nature, joint[nature]))
                .or_default() += 1;
            let next = m.next(&joint).expect("next state");
            m.set_state(&next);
        }
    }
    counts
}

/// The draws among `counts` of the moves whose printed form starts with
/// `prefix`, and their total.
pub fn draws_of(counts: &BTreeMap<String, u64>, prefix: &str) -> (BTreeMap<String, u64>, u64) {
    let kept: BTreeMap<String, u64> = counts
        .iter()
        .filter(|(mv, _)| mv.starts_with(prefix))
        .map(|(mv, &n)| (mv.clone(), n))
        .collect();
    let total = kept.values().sum();
    (kept, total)
}

/// When [`walk_side_by_side`] compares its two machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Both loaded the same state.
    Loaded,
    /// Both computed the next state of the same joint move.
    AfterNext,
}

/// Two machines of one game side by side: both load the states of seeded
/// random playouts (seeds `0..playouts`, at most `max_steps` joint moves,
/// the first machine's random joint moves), `agree` comparing them at each
/// state and after each next state, which must be the same; then both load
/// the states visited again in a scrambled order, so that each jumps
/// between unrelated states. Returns the joint moves played.
pub fn walk_side_by_side(
    path: &Path,
    (a, b): (&mut tabula::engine::Machine, &mut tabula::engine::Machine),
    (playouts, max_steps): (u64, u32),
    mut agree: impl FnMut(&mut tabula::engine::Machine, &mut tabula::engine::Machine, &str, Moment),
) -> u32 {
    use rand::SeedableRng;
    let mut visited: Vec<State> = Vec::new();
    let mut played = 0;
    for seed in 0..playouts {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = a.game().initial();
        for step in 0..max_steps {
            let at = format!("{} seed {seed} step {step}", path.display());
            a.set_state(&state);
            b.set_state(&state);
            agree(a, b, &at, Moment::Loaded);
            visited.push(state.clone());
            if a.is_terminal() || a.check_playable().is_err() {
                break;
            }
            let Ok(joint) = a.random_joint(&mut rng) else {
                break;
            };
            let next = a.next(&joint).expect("next state");
            let at = format!("{at} after {joint:?}");
            assert_eq!(next, b.next(&joint).expect("next state"), "{at}: next");
            agree(a, b, &at, Moment::AfterNext);
            state = next;
            played += 1;
        }
    }
    let n = visited.len();
    for k in 0..n {
        let state = &visited[(k * 7919 + n / 2) % n];
        a.set_state(state);
        b.set_state(state);
        agree(
            a,
            b,
            &format!("{}: jump {k}", path.display()),
            Moment::Loaded,
        );
    }
    played
}
