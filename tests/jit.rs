//! The word engine's native code against its interpreter, and its phases
//! run whole against the units a change reaches: on several conformance
//! and shipped games, one game compiled to native code and a copy
//! interpreting the same operations (or a copy running every phase whole)
//! follow the same seeded random playouts, and after every load and every
//! `next` their bit arrays (the view, the `after` phase, the `does` bits)
//! are equal word for word, as are the legal moves, the terminal test and
//! the next state. The scrambled order of the states visited then makes
//! both load states they did not compute themselves.

mod common;

use std::path::Path;
use tabula::engine::{EngineKind, Game, Machine};

/// Random playouts per game and their step limit.
const PLAYOUTS: u64 = 4;
const MAX_STEPS: u32 = 200;

/// The game on the word engine twice: native code, and interpreted; both
/// choosing the units a change reaches.
fn native_and_interpreted(path: &Path) -> (Game, Game) {
    let mut native = common::open_game(path);
    native.set_engine(EngineKind::Words);
    assert_eq!(native.engine(), EngineKind::Words, "{}", path.display());
    native.set_words_whole(false);
    assert!(
        native.runs_native_words(),
        "{}: no native code",
        path.display()
    );
    let mut interpreted = native.clone();
    interpreted.set_native_words(false);
    assert!(!interpreted.runs_native_words());
    assert!(native.runs_native_words(), "the copy shares no switch");
    (native, interpreted)
}

/// The bit arrays, legal moves and terminal test of both machines agree.
fn agree(a: &Machine, b: &Machine, at: &str) {
    let (Some(bits_a), Some(bits_b)) = (a.word_bits(), b.word_bits()) else {
        panic!("{at}: not on the word engine");
    };
    assert_eq!(bits_a.len(), bits_b.len(), "{at}: bit arrays");
    if let Some(w) = (0..bits_a.len()).find(|&w| bits_a[w] != bits_b[w]) {
        panic!(
            "{at}: word {w}, native {:#018x}, interpreted {:#018x}",
            bits_a[w], bits_b[w]
        );
    }
    assert_eq!(a.is_terminal(), b.is_terminal(), "{at}: terminal");
    for role in 0..a.game().role_count() {
        assert_eq!(
            a.legal(role),
            b.legal(role),
            "{at}: legal moves of role {role}"
        );
    }
}

/// The game on the word engine twice, with native code: choosing units,
/// and running every phase whole.
fn units_and_whole(path: &Path) -> (Game, Game) {
    let (units, _) = native_and_interpreted(path);
    let mut whole = units.clone();
    whole.set_words_whole(true);
    (units, whole)
}

fn side_by_side(path: &Path) {
    both_ways(native_and_interpreted(path), path);
    both_ways(units_and_whole(path), path);
}

fn both_ways((native, interpreted): (Game, Game), path: &Path) {
    let (mut a, mut b) = (native.machine(), interpreted.machine());
    let limits = (PLAYOUTS, MAX_STEPS);
    let played = common::walk_side_by_side(path, (&mut a, &mut b), limits, |a, b, at, _| {
        agree(a, b, at)
    });
    assert!(played > 0, "{}: no move was played", path.display());
}

#[test]
fn conformance_games_agree() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    for game in [
        "sheepAndWolf.kif",
        "breakthrough.kif",
        "chomp.kif",
        "pawnWhopping.kif",
        "connectFour.kif",
        "checkersTiny.kif",
        "othello-comp2007.kif",
    ] {
        side_by_side(&dir.join(game));
    }
}

#[test]
fn shipped_games_agree() {
    for game in [
        "games/pawn_whopping.rules",
        "games/tablan.rules",
        "games/pachisi.rules",
    ] {
        side_by_side(&common::repository(game));
    }
}

/// A game moved to the word engine by the trial runs native code too.
#[test]
fn chosen_word_engine_runs_native_code() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    let mut game = common::open_game(&dir.join("sheepAndWolf.kif"));
    game.set_engine(EngineKind::Incremental);
    game.prefer_cheaper_playouts();
    assert_eq!(game.engine(), EngineKind::Words);
    assert!(game.runs_native_words());
}
