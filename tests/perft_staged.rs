//! `perft` without `--engine` on a game that does not ground within the
//! peek (`load::open_staged`): it starts on the rule evaluator and goes on
//! compiled, the level's states translated, with the same counts whichever
//! level it switches at.

mod common;

use tabula::engine::perft::{Level, perft_switching};
use tabula::engine::{EngineKind, Game};
use tabula::load::{self, Choice};
use tabula::syntax::Overrides;

const WALKERS: &str = "tests/games/walkers.kif";

/// Leaves and states of walkers.kif per depth. A walker's coordinate starts
/// at 0 and each turn stays, goes up, or goes down if above 0: after k
/// turns it took one of a(k) = 1, 2, 5, 13, 35, 96 walks (a(k+1) sums, over
/// the walks of a(k), 2 ways from 0 and 3 from elsewhere: 2, 2+3 = 5,
/// 2+3+3+... = 13, ...) and stands on one of k + 1 values (the grid's edge
/// at 59 is never reached). Two walkers of two coordinates each, moving
/// together: a(k)^4 leaves and (k + 1)^4 states.
const COUNTS: [(u128, u64); 6] = [
    (1, 1),
    (16, 16),
    (625, 81),
    (28_561, 256),
    (1_500_625, 625),
    (84_934_656, 1_296),
];

fn counts(levels: &[Level]) -> Vec<(u128, u64)> {
    levels.iter().map(|l| (l.leaves, l.states)).collect()
}

fn staged() -> load::Staged {
    let path = std::path::Path::new(WALKERS);
    let opened = load::open_staged(path, None, &Overrides::default());
    opened.unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
}

fn compiled() -> Game {
    let path = std::path::Path::new(WALKERS);
    let opened = load::open_with(path, None, &Overrides::default(), None);
    let game = opened
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .game;
    assert_ne!(game.engine(), EngineKind::Rules);
    game
}

#[test]
fn a_game_past_the_peek_starts_on_the_rule_evaluator() {
    let staged = staged();
    assert_eq!(staged.loaded.game.engine(), EngineKind::Rules);
    assert!(
        matches!(staged.loaded.choice, Choice::Deferred { .. }),
        "{:?}",
        staged.loaded.choice
    );
    assert!(staged.deferred.is_some());
}

#[test]
fn switching_at_any_level_keeps_every_count() {
    // Asked before the levels at depths 1 to 4 are expanded.
    for switch_at in 1..=4 {
        let first = staged().loaded.game;
        let mut asked = 0;
        let mut second = None;
        let levels = perft_switching(
            &first,
            5,
            |_| {
                asked += 1;
                (asked == switch_at).then(compiled)
            },
            &mut second,
            |_| {},
        );
        let levels = levels.expect("counts");
        assert_eq!(counts(&levels), COUNTS, "switched at ask {switch_at}");
        assert_eq!(asked, switch_at, "asked no more once switched");
        let second = second.expect("switched");
        assert_ne!(second.engine(), EngineKind::Rules);
    }
}

#[test]
fn the_work_ahead_compiles_the_game_within_five_levels() {
    let load::Staged { loaded, deferred } = staged();
    let mut deferred = deferred.expect("deferred");
    let mut second = None;
    let levels = perft_switching(
        &loaded.game,
        5,
        |ahead| deferred.when_paid(ahead),
        &mut second,
        |_| {},
    );
    assert_eq!(counts(&levels.expect("counts")), COUNTS);
    let second = second.expect("compiled once the work ahead paid for it");
    assert_ne!(second.engine(), EngineKind::Rules);
}

#[test]
fn perft_prints_the_same_counts_as_the_compiled_engine() {
    let (staged, err, code) = common::run(&["perft", WALKERS, "--depth", "5"], "");
    assert_eq!((err.as_str(), code), ("", 0));
    let (compiled, _, _) = common::run(
        &["perft", WALKERS, "--depth", "5", "--engine", "incremental"],
        "",
    );
    assert_eq!(staged, compiled);
    let expected: String = (COUNTS.iter().enumerate())
        .map(|(d, (leaves, states))| format!("depth {d} leaves {leaves} states {states}\n"))
        .collect();
    assert_eq!(staged, expected);
}

#[test]
fn a_limit_of_the_rule_evaluator_hands_the_level_to_the_compiled_game() {
    // A counting chain of 3,000 calls in `next`: past the rule evaluator's
    // nesting limit, within the compiled engines' reach.
    let path = std::path::Path::new("tests/evaluator/deep.rules");
    let open = |engine| {
        let opened = load::open_with(path, None, &Overrides::default(), Some(engine));
        opened
            .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
            .game
    };
    let first = open(EngineKind::Rules);
    let mut asked = Vec::new();
    let mut second = None;
    let levels = perft_switching(
        &first,
        1,
        |ahead| {
            asked.push((ahead.spent, ahead.predicted));
            Some(open(EngineKind::Incremental))
        },
        &mut second,
        |_| {},
    );
    assert_eq!(counts(&levels.expect("counts")), [(1, 1), (1, 1)]);
    assert_eq!(asked, [(u64::MAX, u64::MAX)], "asked only at the error");
    assert!(second.is_some());
}
