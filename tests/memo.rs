//! Playouts that remember their steps (`engine::memo`) play the same games
//! as playouts that evaluate every step: on every conformance game, shipped
//! game and test game, one machine with the table and one without, each
//! from the same seed, give the same length and the same end, playout after
//! playout, whichever engine plays (the default choice and the reference).
//! Then the table's switch: kept on a game whose playouts meet the same
//! states again, dropped after one window on a game where they rarely do,
//! never made for weighted chance moves; errors of a remembered state are
//! the engine's own.

mod common;

use common::{games_in, open_game as open};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;
use tabula::engine::{End, EngineError, EngineKind, Game, Machine, Playout};

/// Playouts of one machine from the initial state, until `steps` joint
/// moves are played (at least `playouts`), each stopped at `max_steps`.
fn play(m: &mut Machine, seed: u64, playouts: u32, steps: u64, max_steps: u32) -> Vec<Playout> {
    let start = m.game().initial();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut played = 0;
    while out.len() < playouts as usize || played < steps {
        match m.playout(&start, &mut rng, max_steps) {
            Ok(p) => {
                played += u64::from(p.length.max(1));
                out.push(p);
            }
            Err(e) => panic!("{e:?}"),
        }
    }
    out
}

/// The same playouts with and without the table, on `game` as it is and
/// on the reference engine.
fn same_games(path: &Path, steps: u64) {
    let mut game = open(path);
    game.prefer_cheaper_playouts();
    let mut reference = game.clone();
    reference.set_engine(EngineKind::Reference);
    for game in [&game, &reference] {
        let (mut with, mut without) = (game.machine(), game.machine());
        without.remember_steps(false);
        for (seed, max_steps) in [(1, 200), (2, 7)] {
            let a = play(&mut with, seed, 20, steps, max_steps);
            let b = play(&mut without, seed, 20, steps, max_steps);
            assert_eq!(a, b, "{} on {:?}", path.display(), game.engine());
        }
        assert!(!without.remembers_steps());
    }
}

#[test]
fn the_same_games_with_and_without_the_table_on_shipped_and_test_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["games", "games/variants", "tests/games"] {
        for path in games_in(&root.join(dir)) {
            same_games(&path, 3_000);
        }
    }
}

#[test]
fn the_same_games_with_and_without_the_table_on_conformance_games() {
    let Some(dir) = common::shared("conformance/games") else {
        return;
    };
    for path in games_in(&dir) {
        same_games(&path, 3_000);
    }
}

fn conformance(name: &str) -> Option<Game> {
    let mut game = open(&common::shared("conformance/games")?.join(name));
    game.prefer_cheaper_playouts();
    Some(game)
}

#[test]
fn the_table_is_kept_where_states_repeat_and_dropped_where_they_do_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The pawn race's random playouts find under one step in 32 remembered
    // in their first 1,024: the table is dropped after that window.
    let game = open(&root.join("games/pawn_whopping.rules"));
    let mut m = game.machine();
    play(&mut m, 1, 1, 900, 200);
    assert!(m.remembers_steps(), "kept until a window is full");
    play(&mut m, 2, 1, 1_200, 200);
    assert!(!m.remembers_steps(), "dropped after the first window");
    // Pachisi's cowrie throws are weighted chance moves: never remembered.
    let game = open(&root.join("games/pachisi.rules"));
    let mut m = game.machine();
    play(&mut m, 1, 1, 1, 5);
    assert!(!m.remembers_steps());
    // ticTacToe meets the same positions again and again: kept over
    // 2,000 playouts.
    let Some(game) = conformance("ticTacToe.kif") else {
        return;
    };
    let mut m = game.machine();
    play(&mut m, 1, 2_000, 0, 200);
    assert!(m.remembers_steps());
}

#[test]
fn a_remembered_end_with_bad_goals_gives_the_engines_error_each_time() {
    // Terminal at once, and role b has two goals there.
    let text = "(role a) (role b) (init (s 0)) (<= terminal (true (s 0)))
        (goal a 50) (goal b 0) (goal b 100)";
    let (game, _) = tabula::load::open_str("bad.kif", text, tabula::syntax::Syntax::Kif)
        .map(|l| (l.game, ()))
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    let mut m = game.machine();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let ends: Vec<End> = (0..3)
        .map(|_| {
            m.playout(&game.initial(), &mut rng, 10)
                .expect("playout")
                .end
        })
        .collect();
    let End::BadGoals(EngineError::SeveralGoals { role, values, .. }) = &ends[0] else {
        panic!("{:?}", ends[0]);
    };
    assert_eq!((*role, values.clone()), (1, vec![0, 100]));
    assert_eq!(ends[1], ends[0]);
    assert_eq!(ends[2], ends[0]);
    assert!(m.remembers_steps());
}

#[test]
fn a_remembered_state_without_a_move_gives_the_engines_error_each_time() {
    // Role b has no legal move once a has moved.
    let text = "(role a) (role b) (init (step 0))
        (<= (legal a go) (true (step 0))) (<= (legal a go) (true (step 1)))
        (<= (legal b wait) (true (step 0)))
        (<= (next (step 1)) (true (step 0)))
        (<= terminal (true (step 2))) (goal a 0) (goal b 0)";
    let game = tabula::load::open_str("stuck.kif", text, tabula::syntax::Syntax::Kif)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .game;
    let mut m = game.machine();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for _ in 0..3 {
        match m.playout(&game.initial(), &mut rng, 10) {
            Err(EngineError::NoLegalMove { role, state }) => {
                assert_eq!(game.role_name(role), "b");
                assert_eq!(game.show_state(&state), "(step 1)");
            }
            other => panic!("expected NoLegalMove, got {other:?}"),
        }
    }
}
