//! The incremental engine against the reference evaluator: on every
//! conformance game, every shipped game and variant, and the test games,
//! the same perft counts, and along seeded random playouts (followed step by
//! step, then from states out of order) the same terminal test, legal moves,
//! weights, next states and goals. The rule evaluator against the reference
//! on the same games, with fewer leaves and steps (it is slower): moves and
//! facts compared as text, since its move and fact numbering is its own.

mod common;

use common::{Moment, games_in, open_game as open};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::path::Path;
use tabula::engine::perft::perft;
use tabula::engine::{EngineKind, Game, Machine, State};
use tabula::syntax::Syntax;

/// Perft levels are compared up to this many leaves.
const PERFT_LEAVES: u128 = 3_000;
/// Random playouts per game and their step limit.
const PLAYOUTS: u64 = 3;
const MAX_STEPS: u32 = 150;

/// Both engines of one game.
fn engines(path: &Path) -> (Game, Game) {
    let mut reference = open(path);
    reference.set_engine(EngineKind::Reference);
    let mut incremental = reference.clone();
    incremental.set_engine(EngineKind::Incremental);
    (reference, incremental)
}

/// Everything a state's view answers, from a machine that loaded it: the
/// `legal` atoms too, as the REPL's `query` shows them (the incremental
/// engine keeps some `legal` slots without their guard).
fn view(m: &mut Machine) -> String {
    let roles = m.game().role_count();
    let legal: Vec<&[u32]> = (0..roles).map(|r| m.legal(r)).collect();
    let mut out = format!("terminal {} legal {legal:?}", m.is_terminal());
    let pattern = match m.game().syntax {
        Syntax::Kif => "(legal ?r ?m)",
        Syntax::Rules => "legal(R, M)",
    };
    let pattern = tabula::front::parse::atom(m.game(), pattern).expect("a pattern");
    out.push_str(&format!(" query {:?}", m.query_shown(&pattern)));
    out.push_str(&format!(" chance {:?}", m.chance()));
    if m.is_terminal() {
        out.push_str(&format!(" goals {:?}", m.goals()));
    }
    out
}

/// Seeded random playouts and the states they visit in a scrambled order
/// (`common::walk_side_by_side`): the second machine agrees with the
/// reference machine on the view of every state loaded and on every next
/// state.
fn walks_agree(path: &Path, reference: &Game, other: &Game) {
    let (mut a, mut b) = (reference.machine(), other.machine());
    let limits = (PLAYOUTS, MAX_STEPS);
    common::walk_side_by_side(path, (&mut a, &mut b), limits, |a, b, at, moment| {
        if moment == Moment::Loaded {
            let state = a.game().show_state(a.state());
            assert_eq!(view(a), view(b), "{at}: view of {state}");
        }
    });
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
    walks_agree(path, &reference, &incremental);
    words_agree(path, &reference);
    rules_agree(path, &reference);
}

/// The word engine, on every game it takes, answers as the reference: the
/// same perft counts, seeded playouts and views of scrambled states, its
/// operations run as native code.
fn words_agree(path: &Path, reference: &Game) {
    let mut words = reference.clone();
    words.set_engine(EngineKind::Words);
    if words.engine() != EngineKind::Words {
        assert!(words.word_engine_refusal().is_some(), "{}", path.display());
        return;
    }
    // Native code where cranelift has a backend (`tests/jit.rs` compares
    // it with the interpreter).
    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        assert!(words.runs_native_words(), "{}: interpreted", path.display());
    }
    perft_agrees(path, reference, &words);
    walks_agree(path, reference, &words);
}

/// Perft levels of the rule evaluator are compared up to this many leaves.
const RULES_PERFT_LEAVES: u128 = 600;
/// Its random playouts per game and their step limit.
const RULES_PLAYOUTS: u64 = 2;
const RULES_MAX_STEPS: u32 = 40;

/// The view of a loaded state in words: terminal, legal moves per role
/// (sorted), chance moves with weights, goals.
fn view_text(m: &mut Machine) -> String {
    let game = m.game();
    let legal: Vec<Vec<String>> = (0..game.role_count())
        .map(|r| {
            let mut moves: Vec<String> = m.legal(r).iter().map(|&i| game.show_move(r, i)).collect();
            moves.sort();
            moves
        })
        .collect();
    let random = game.random_role().unwrap_or(0);
    let chance = m.chance().map(|c| {
        let mut c: Vec<(String, u64)> = c
            .iter()
            .map(|&(i, w)| (game.show_move(random, i), w))
            .collect();
        c.sort();
        c
    });
    let mut out = format!(
        "terminal {} legal {legal:?} chance {chance:?}",
        m.is_terminal()
    );
    if m.is_terminal() {
        out.push_str(&format!(" goals {:?}", m.goals()));
    }
    out
}

/// A state of `from` as a state of `to`, through the facts' text.
fn translate(from: &Game, to: &Game, state: &State) -> State {
    let by_text: HashMap<String, _> = (to.possible_facts().iter())
        .map(|&t| (to.show(t), t))
        .collect();
    let facts: Vec<_> = (from.facts(state).into_iter())
        .map(|t| by_text[&from.show(t)])
        .collect();
    to.state_from_facts(&facts)
        .expect("every fact is in the domain")
}

/// The rule evaluator agrees with the reference: perft counts, then along
/// seeded random playouts the view of each state and the next state.
fn rules_agree(path: &Path, reference: &Game) {
    let rules =
        match tabula::load::open_with(path, None, &Default::default(), Some(EngineKind::Rules)) {
            Ok(l) => l.game,
            Err(f) => panic!(
                "{} does not load for the rule evaluator: {:?}",
                path.display(),
                f.diagnostics
            ),
        };
    assert_eq!(rules.engine(), EngineKind::Rules);
    for depth in 1..=8 {
        let expected = perft(reference, depth, |_| {});
        let got = perft(&rules, depth, |_| {});
        assert_eq!(
            expected.is_ok(),
            got.is_ok(),
            "{}: perft to depth {depth}",
            path.display()
        );
        let (Ok(expected), Ok(got)) = (expected, got) else {
            break;
        };
        assert_eq!(
            expected,
            got,
            "{}: rules perft to depth {depth}",
            path.display()
        );
        let last = expected[expected.len() - 1].leaves;
        if last == 0 || last > RULES_PERFT_LEAVES {
            break;
        }
    }
    let (mut a, mut b) = (reference.machine(), rules.machine());
    for seed in 0..RULES_PLAYOUTS {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut state = reference.initial();
        for step in 0..RULES_MAX_STEPS {
            let at = format!("{} seed {seed} step {step}", path.display());
            let theirs = translate(reference, &rules, &state);
            a.set_state(&state);
            b.set_state(&theirs);
            assert_eq!(view_text(&mut a), view_text(&mut b), "{at}: rules view");
            if a.is_terminal() || a.check_playable().is_err() {
                break;
            }
            let Ok(joint) = a.random_joint(&mut rng) else {
                break;
            };
            let their_joint: Vec<u32> = (joint.iter().enumerate())
                .map(|(r, &m)| {
                    let shown = reference.show_move(r, m);
                    (0..rules.move_count(r) as u32)
                        .find(|&i| rules.show_move(r, i) == shown)
                        .expect("every legal move is in the domain")
                })
                .collect();
            let next = a.next(&joint).expect("next state");
            let their_next = b.next(&their_joint).expect("next state");
            assert_eq!(
                translate(reference, &rules, &next),
                their_next,
                "{at}: rules next after {joint:?}"
            );
            state = next;
        }
    }
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
    games_in(&common::repository("games"))
        .iter()
        .for_each(|p| differential(p));
}

#[test]
fn shipped_variants_agree() {
    games_in(&common::repository("games/variants"))
        .iter()
        .for_each(|p| differential(p));
}

#[test]
fn test_games_agree() {
    games_in(&common::repository("tests/games"))
        .iter()
        .for_each(|p| differential(p));
}
