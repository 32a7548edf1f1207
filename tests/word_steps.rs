//! The word engine around its operations (issue 29, session 14): goals read
//! from its bits, and playouts that load each next state from the `next`
//! slots without copying it out, answer as the reference engine does. On
//! every conformance, shipped and test game the word engine takes: every
//! role's goal values at every state of seeded random walks (terminal or
//! not, as the REPL asks them), and seeded playouts without the table of
//! remembered steps, to their end and cut short, compared by length, end
//! (goals, or the error with its state) and the state loaded afterwards.

mod common;

use common::{games_in, open_game as open};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;
use tabula::engine::{EngineKind, Game};

/// Random walks per game and their step limit.
const WALKS: u64 = 3;
const MAX_STEPS: u32 = 150;

/// The game on the word engine and on the reference, or `None` where the
/// word engine does not take it.
fn both(path: &Path) -> Option<(Game, Game)> {
    let mut words = open(path);
    words.set_engine(EngineKind::Words);
    if words.engine() != EngineKind::Words {
        assert!(words.word_engine_refusal().is_some(), "{}", path.display());
        return None;
    }
    let mut reference = words.clone();
    reference.set_engine(EngineKind::Reference);
    Some((words, reference))
}

/// Every role's goal values at every state of seeded random walks.
fn goals_agree(path: &Path, words: &Game, reference: &Game) {
    let (mut a, mut b) = (words.machine(), reference.machine());
    for seed in 0..WALKS {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = reference.initial();
        for step in 0..MAX_STEPS {
            a.set_state(&state);
            b.set_state(&state);
            let at = format!("{} seed {seed} step {step}", path.display());
            assert_eq!(a.goal_values(), b.goal_values(), "{at}: goal values");
            if b.is_terminal() {
                assert_eq!(a.goals(), b.goals(), "{at}: goals");
                break;
            }
            let Ok(joint) = b.random_joint(&mut rng) else {
                break;
            };
            state = b.next(&joint).expect("next state");
        }
    }
}

/// Seeded playouts without the table, one machine per engine from the same
/// seed: the same results, and the same state loaded after each.
fn playouts_agree(path: &Path, words: &Game, reference: &Game) {
    let (mut a, mut b) = (words.machine(), reference.machine());
    a.remember_steps(false);
    b.remember_steps(false);
    let start = reference.initial();
    for (seed, max_steps) in [(1, 200), (2, 7)] {
        let mut rng_a = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut rng_b = Xoshiro256PlusPlus::seed_from_u64(seed);
        for k in 0..10 {
            let at = format!("{} seed {seed} playout {k}", path.display());
            let played = a.playout(&start, &mut rng_a, max_steps);
            assert_eq!(played, b.playout(&start, &mut rng_b, max_steps), "{at}");
            assert_eq!(a.state(), b.state(), "{at}: the state loaded after it");
        }
    }
}

/// Both checks on every game of a folder; the names of the games whose
/// goals the word engine computes in its bits.
fn agree_in(dir: &Path) -> Vec<String> {
    let mut computed = Vec::new();
    for path in games_in(dir) {
        let Some((words, reference)) = both(&path) else {
            continue;
        };
        goals_agree(&path, &words, &reference);
        playouts_agree(&path, &words, &reference);
        if words.words_compute_goals() {
            let name = path.file_name().expect("a file name");
            computed.push(name.to_string_lossy().into_owned());
        }
    }
    computed
}

#[test]
fn conformance_games_agree() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    let computed = agree_in(&dir);
    for game in ["breakthrough.kif", "sheepAndWolf.kif", "pawnWhopping.kif"] {
        assert!(computed.iter().any(|c| c == game), "{game}: {computed:?}");
    }
}

#[test]
fn shipped_games_agree() {
    let computed = agree_in(&common::repository("games"));
    assert!(
        computed.iter().any(|c| c == "pawn_whopping.rules"),
        "{computed:?}"
    );
    agree_in(&common::repository("games/variants"));
}

#[test]
fn test_games_agree() {
    agree_in(&common::repository("tests/games"));
}
