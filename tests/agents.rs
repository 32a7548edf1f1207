//! MCTS agents on known positions and in seeded games: the exact ranking
//! where chance or simultaneous moves decide, determinism, and strength
//! against random play. The games of the public corpus in `../shared` are
//! skipped without it (`common::shared`); the 100-game figures of issue 16
//! are in docs/ENGINES.md with their commands, the tests play fewer games.

mod common;

use tabula::agent::mcts::Search;
use tabula::agent::tally::{Result3, result};
use tabula::agent::{Agent, Budget, duel, players};
use tabula::engine::Game;

fn open(path: &std::path::Path) -> Game {
    common::Scenario::open(path.to_str().expect("utf-8 path"), &[]).game
}

fn game(rel: &str) -> Game {
    common::Scenario::open(rel, &[]).game
}

fn mcts(n: u32) -> Agent {
    Agent::Mcts(Budget::Iterations(n))
}

/// The moves of `role` at the root, best first, as text.
fn ranking(game: &Game, iterations: u32, threads: usize, seed: u64, role: usize) -> Vec<String> {
    let found = Search::new(Budget::Iterations(iterations), threads, seed)
        .run(game, &game.initial())
        .expect("a search");
    found.moves[role]
        .iter()
        .map(|s| game.show_move(role, s.mv))
        .collect()
}

#[test]
fn chance_is_sampled_by_weight() {
    let g = game("tests/games/gamble.kif");
    // Expected goals: short 75, safe 60, long 25.
    assert_eq!(
        ranking(&g, 3000, 1, 7, 0),
        ["(bet short)", "(bet safe)", "(bet long)"]
    );
    let found = Search::new(Budget::Iterations(3000), 1, 7)
        .run(&g, &g.initial())
        .unwrap();
    let short = found.moves[0][0];
    assert!((65.0..85.0).contains(&short.mean), "{short:?}");
    assert!((found.moves[0][1].mean - 60.0).abs() < 1e-9);
    assert!(found.moves[1].is_empty(), "nature has no statistics");
    assert_eq!(found.iterations, 3000);
}

#[test]
fn simultaneous_players_find_their_dominant_move() {
    let g = game("tests/games/dilemma.kif");
    for role in 0..2 {
        assert_eq!(ranking(&g, 5000, 1, 1, role), ["keep", "give"]);
    }
}

#[test]
fn same_seed_and_threads_same_search() {
    let g = game("games/pawn_whopping.rules");
    let a = ranking(&g, 400, 2, 11, 0);
    assert_eq!(a, ranking(&g, 400, 2, 11, 0));
    let run = |threads| {
        Search::new(Budget::Iterations(400), threads, 11)
            .run(&g, &g.initial())
            .unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.iterations, 400);
    assert_eq!(two.iterations, 400);
    let visits =
        |o: &tabula::agent::mcts::Outcome| o.moves[0].iter().map(|s| s.visits).sum::<u64>();
    assert_eq!((visits(&one), visits(&two)), (400, 400));
}

/// Plays `games` seeded games; the results of `role`.
fn results(g: &Game, agents: &[Agent], games: u64, role: usize) -> Vec<Result3> {
    let who = players(g);
    (0..games)
        .map(|seed| {
            let record = duel::play(g, agents, seed, 1, 10_000).expect("a game");
            result(&record.goals.expect("finished"), role, &who)
        })
        .collect()
}

#[test]
fn tictactoe_mcts_never_loses_to_random_and_draws_itself() {
    let Some(path) = common::shared("conformance/games/ticTacToe.kif") else {
        return;
    };
    let g = open(&path);
    for role in 0..2 {
        let mut agents = vec![Agent::Random; 2];
        agents[role] = mcts(1000);
        let r = results(&g, &agents, 20, role);
        assert!(!r.contains(&Result3::Loss), "role {role}: {r:?}");
    }
    let r = results(&g, &[mcts(1000), mcts(1000)], 20, 0);
    let draws = r.iter().filter(|&&x| x == Result3::Draw).count();
    assert!(draws >= 18, "{draws} draws of 20");
}

#[test]
fn pawn_race_mcts_beats_random_as_either_player() {
    let g = game("games/pawn_whopping.rules");
    for role in 0..2 {
        let mut agents = vec![Agent::Random; 2];
        agents[role] = mcts(1000);
        let r = results(&g, &agents, 3, role);
        assert_eq!(r, [Result3::Win; 3], "role {role}");
    }
}

#[test]
fn connect_four_more_iterations_win_in_both_seats() {
    let Some(path) = common::shared("conformance/games/connectFour.kif") else {
        return;
    };
    let g = open(&path);
    for strong in 0..2 {
        let mut agents = vec![mcts(200); 2];
        agents[strong] = mcts(2000);
        assert_eq!(
            results(&g, &agents, 1, strong),
            [Result3::Win],
            "seat {strong}"
        );
    }
}

#[test]
fn four_mcts_players_finish_a_four_player_game() {
    let Some(path) = common::shared("conformance/games/smallest_4player.kif") else {
        return;
    };
    let g = open(&path);
    assert_eq!(players(&g).len(), 4);
    let record = duel::play(&g, &[mcts(100); 4], 3, 1, 10_000).expect("a game");
    let goals = record.goals.expect("the game ends");
    assert!(
        goals
            .iter()
            .all(|v| v.is_some_and(|v| (0..=100).contains(&v)))
    );
    assert!(record.length > 0);
    assert!(record.thinking.iter().all(|&(_, choices)| choices > 0));
}
