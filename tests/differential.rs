//! The incremental engine against the reference evaluator: on every
//! conformance game, every shipped game and variant, and the test games,
//! the same perft counts, and along seeded random playouts (followed step by
//! step, then from states out of order) the same terminal test, legal moves,
//! weights, next states and goals.

mod common;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};
use tabula::engine::perft::perft;
use tabula::engine::{EngineKind, Game, Machine, State};

/// Perft levels are compared up to this many leaves.
const PERFT_LEAVES: u128 = 3_000;
/// Random playouts per game and their step limit.
const PLAYOUTS: u64 = 3;
const MAX_STEPS: u32 = 150;

fn open(path: &Path) -> Game {
    match tabula::load::open(path, None, &Default::default()) {
        Ok(l) => l.game,
        Err(f) => panic!("{} does not load: {:?}", path.display(), f.diagnostics),
    }
}

fn games_in(dir: &Path) -> Vec<PathBuf> {
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

/// Both engines of one game.
fn engines(path: &Path) -> (Game, Game) {
    let mut reference = open(path);
    reference.set_engine(EngineKind::Reference);
    let mut incremental = reference.clone();
    incremental.set_engine(EngineKind::Incremental);
    (reference, incremental)
}

/// Everything a state's view answers, from a machine that loaded it.
fn view(m: &mut Machine) -> String {
    let roles = m.game().role_count();
    let legal: Vec<&[u32]> = (0..roles).map(|r| m.legal(r)).collect();
    let mut out = format!("terminal {} legal {legal:?}", m.is_terminal());
    out.push_str(&format!(" chance {:?}", m.chance()));
    if m.is_terminal() {
        out.push_str(&format!(" goals {:?}", m.goals()));
    }
    out
}

/// Seeded random playouts: the incremental machine follows the states in
/// order and agrees with a reference machine on every one of them; the
/// visited states are returned.
fn playouts_agree(path: &Path, reference: &Game, incremental: &Game) -> Vec<State> {
    let (mut a, mut b) = (reference.machine(), incremental.machine());
    let mut visited = Vec::new();
    for seed in 0..PLAYOUTS {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = reference.initial();
        for step in 0..MAX_STEPS {
            a.set_state(&state);
            b.set_state(&state);
            let (va, vb) = (view(&mut a), view(&mut b));
            let at = format!("{} seed {seed} step {step}", path.display());
            assert_eq!(va, vb, "{at}: view of {}", reference.show_state(&state));
            visited.push(state.clone());
            if a.is_terminal() || a.check_playable().is_err() {
                break;
            }
            let Ok(joint) = a.random_joint(&mut rng) else {
                break;
            };
            let next = a.next(&joint);
            assert_eq!(next, b.next(&joint), "{at}: next after {joint:?}");
            state = next;
        }
    }
    visited
}

/// The visited states again in a scrambled order, so the incremental
/// machine jumps between unrelated states.
fn jumps_agree(path: &Path, reference: &Game, incremental: &Game, states: &[State]) {
    let (mut a, mut b) = (reference.machine(), incremental.machine());
    let n = states.len();
    for k in 0..n {
        let state = &states[(k * 7919 + n / 2) % n];
        a.set_state(state);
        b.set_state(state);
        assert_eq!(view(&mut a), view(&mut b), "{}: jump {k}", path.display());
    }
}

/// Perft to the first depth with more than [`PERFT_LEAVES`] leaves (or
/// none, or depth 8), states expanded in hash order so the incremental
/// machine jumps between them.
fn perft_agrees(path: &Path, reference: &Game, incremental: &Game) {
    for depth in 1..=8 {
        let expected = perft(reference, depth, |_| {});
        let got = perft(incremental, depth, |_| {});
        assert_eq!(expected, got, "{}: perft to depth {depth}", path.display());
        let Ok(levels) = expected else {
            return;
        };
        let last = levels[levels.len() - 1].leaves;
        if last == 0 || last > PERFT_LEAVES {
            return;
        }
    }
}

fn differential(path: &Path) {
    let (reference, incremental) = engines(path);
    perft_agrees(path, &reference, &incremental);
    let states = playouts_agree(path, &reference, &incremental);
    jumps_agree(path, &reference, &incremental, &states);
}

fn repository(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn conformance_games_agree() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    games_in(&dir).iter().for_each(|p| differential(p));
}

#[test]
fn shipped_games_agree() {
    games_in(&repository("games"))
        .iter()
        .for_each(|p| differential(p));
}

#[test]
fn shipped_variants_agree() {
    games_in(&repository("games/variants"))
        .iter()
        .for_each(|p| differential(p));
}

#[test]
fn test_games_agree() {
    games_in(&repository("tests/games"))
        .iter()
        .for_each(|p| differential(p));
}
