//! Independent tests of the engine (issue 3, "Tests").
//!
//! - Differential: seeded random walks through small games of our own
//!   (`tests/games/`), every shipped game and variant under `games/`, and
//!   every conformance game in `../shared/conformance/games`, comparing at
//!   every state the compiled engine with `oracle`, a naive non-ground
//!   evaluator of the core language with its integers and arithmetic:
//!   the state, terminal, legal moves of every role, chance weights, goals
//!   in terminal states. Long games are also compared over their last
//!   moves, the engine playing the moves before them alone.
//! - Perft counts worked out by hand, checked against `engine::perft` and
//!   against a brute-force walk of the oracle.
//! - Chance: outcome frequencies of seeded playouts against declared weights;
//!   `Machine::chance` returns the exact weights.
//! - Replay: the same seed gives the same game.
//! - Runtime errors come back as values.

mod common;
mod oracle;

use oracle::{Facts, Oracle, T, View};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula::engine::perft::{PerftError, perft};
use tabula::engine::{End, EngineError, Game, Machine, State};
use tabula::syntax::Syntax;

// ---------------------------------------------------------------- helpers

fn own_game(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/games")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The conformance games folder, or `None` to skip (see `common::shared`).
fn conformance_dir() -> Option<PathBuf> {
    common::shared("conformance/games")
}

/// A KIF game compiled by tabula; panics with the diagnostics if it fails.
fn compile(name: &str, text: &str) -> Game {
    match tabula::load::open_str(name, text, Syntax::Kif) {
        Ok(loaded) => loaded.game,
        Err(failed) => panic!("{name} does not load: {:#?}", failed.diagnostics),
    }
}

fn engine_facts(game: &Game, state: &State) -> BTreeSet<String> {
    game.facts(state)
        .into_iter()
        .map(|t| game.show(t))
        .collect()
}

fn oracle_facts(oracle: &Oracle, facts: &Facts) -> BTreeSet<String> {
    facts.iter().map(|f| f.show(oracle.syntax)).collect()
}

fn engine_legal(m: &Machine, role: usize) -> BTreeSet<String> {
    m.legal(role)
        .iter()
        .map(|&mv| m.game().show_move(role, mv))
        .collect()
}

fn show_set(s: &BTreeSet<String>) -> String {
    s.iter().cloned().collect::<Vec<_>>().join(" ")
}

/// What the oracle says `Machine::goals` must return: one value in 0..=100
/// per role (none allowed for `random`), or else an error.
fn expected_goals(oracle: &Oracle, view: &View) -> Result<Vec<Option<i64>>, ()> {
    let mut out = Vec::new();
    for r in &oracle.roles {
        let values = view.goals.get(r).cloned().unwrap_or_default();
        let mut it = values.iter();
        match (it.next(), it.next()) {
            (None, _) if r == &T::sym("random") => out.push(None),
            (Some(v), None) => match v.to_string().parse::<i64>() {
                Ok(v) if (0..=100).contains(&v) => out.push(Some(v)),
                _ => return Err(()),
            },
            _ => return Err(()),
        }
    }
    Ok(out)
}

/// What the oracle says `Machine::chance` must return, by printed move.
fn expected_chance(oracle: &Oracle, view: &View) -> Result<BTreeMap<String, u64>, ()> {
    let Some(moves) = view.legal.get(&T::sym("random")) else {
        return Ok(BTreeMap::new());
    };
    let mut out = BTreeMap::new();
    for mv in moves {
        let ws = view.weights.get(mv).cloned().unwrap_or_default();
        let w = match ws.len() {
            0 => 1,
            1 => match ws.iter().next().unwrap().to_string().parse::<i64>() {
                Ok(w) if w > 0 => w as u64,
                _ => return Err(()),
            },
            _ => return Err(()),
        };
        out.insert(mv.show(oracle.syntax), w);
    }
    Ok(out)
}

/// Limits of one differential run.
struct Walk {
    playouts: u64,
    max_steps: u32,
    seed: u64,
    /// Start no further playout after this long (the oracle is slow on big
    /// games); what is compared is seeded, only how much of it depends on
    /// time, and the first playout is always compared whole. `None` for
    /// every walk whose test counts what was compared: a count must not
    /// depend on the machine's load.
    budget: Option<Duration>,
    /// Compare the last `max_steps` joint moves of each playout, the engine
    /// playing the moves before them alone: the ends of long games.
    from_end: bool,
}

impl Walk {
    fn new(playouts: u64, max_steps: u32) -> Walk {
        Walk {
            playouts,
            max_steps,
            seed: 1,
            budget: None,
            from_end: false,
        }
    }

    /// Like [`Walk::new`], starting no playout after `budget`: only for
    /// tests that assert agreement, not how much was compared.
    fn within(self, budget: Duration) -> Walk {
        Walk {
            budget: Some(budget),
            ..self
        }
    }

    /// Like [`Walk::new`], comparing the ends of the playouts.
    fn ends(playouts: u64, max_steps: u32) -> Walk {
        Walk {
            from_end: true,
            ..Walk::new(playouts, max_steps)
        }
    }
}

/// Longest playout the engine plays alone to find where a game ends.
const LONGEST_GAME: u32 = 20_000;

/// Walks seeded random playouts through a KIF game with the engine and
/// the oracle side by side; see [`differential`].
fn differential_kif(name: &str, text: &str, walk: &Walk) -> Compared {
    differential(name, &compile(name, text), &Oracle::from_kif(text), walk)
}

/// The engine and the oracle on one game, side by side.
struct Pair<'g> {
    name: &'g str,
    game: &'g Game,
    oracle: &'g Oracle,
    m: Machine<'g>,
    /// Role names in engine order, and the oracle's term for each.
    roles: Vec<String>,
    role_terms: Vec<T>,
}

impl<'g> Pair<'g> {
    fn new(name: &'g str, game: &'g Game, oracle: &'g Oracle) -> Pair<'g> {
        let roles: Vec<String> = (0..game.role_count()).map(|r| game.role_name(r)).collect();
        let shown: Vec<String> = oracle.roles.iter().map(|r| r.show(oracle.syntax)).collect();
        assert_eq!(
            roles.iter().collect::<BTreeSet<_>>(),
            shown.iter().collect::<BTreeSet<_>>(),
            "{name}: roles differ"
        );
        let role_terms = roles
            .iter()
            .map(|r| oracle.roles[shown.iter().position(|o| o == r).unwrap()].clone())
            .collect();
        Pair {
            name,
            game,
            oracle,
            m: game.machine(),
            roles,
            role_terms,
        }
    }

    /// A seeded joint move from the engine's legal moves in `state`, each
    /// role's chosen uniformly among them sorted as printed (so the choice
    /// is the same whichever side's legal moves it is made from); `None`
    /// in a terminal state.
    fn choose(&mut self, state: &State, rng: &mut Xoshiro256PlusPlus) -> Option<Vec<u32>> {
        self.m.set_state(state);
        if self.m.is_terminal() {
            return None;
        }
        let mut joint = Vec::new();
        for r in 0..self.roles.len() {
            let mut moves: Vec<(String, u32)> = self
                .m
                .legal(r)
                .iter()
                .map(|&mv| (self.game.show_move(r, mv), mv))
                .collect();
            moves.sort();
            assert!(
                !moves.is_empty(),
                "{}: role {} has no legal move in {}",
                self.name,
                self.roles[r],
                self.game.show_state(state)
            );
            joint.push(moves[rng.random_range(0..moves.len())].1);
        }
        Some(joint)
    }

    /// The engine alone from the start: the state after `steps` joint moves
    /// (or at the end), and the number of moves played.
    fn advance(&mut self, steps: u32, rng: &mut Xoshiro256PlusPlus) -> (State, u32) {
        let mut state = self.game.initial();
        for played in 0..steps {
            match self.choose(&state, rng) {
                Some(joint) => state = self.m.next(&joint).expect("next state"),
                None => return (state, played),
            }
        }
        (state, steps)
    }

    /// The oracle's form of an engine state, read from its printed facts.
    fn oracle_state(&self, state: &State) -> Facts {
        self.game
            .facts(state)
            .into_iter()
            .map(|t| self.oracle.parse(&self.game.show(t)))
            .collect()
    }

    /// Asserts that engine and oracle agree on `state`: its facts, whether
    /// it is terminal, every role's legal moves, the chance weights, and in
    /// a terminal state the goals.
    /// Returns the oracle's view of the state.
    fn compare(&mut self, state: &State, facts: &Facts, here: &dyn Fn() -> String) -> View {
        let oracle = self.oracle;
        assert_eq!(
            engine_facts(self.game, state),
            oracle_facts(oracle, facts),
            "state differs (left engine, right oracle)\n{}",
            here()
        );
        self.m.set_state(state);
        let view = oracle.view(facts);
        assert_eq!(
            self.m.is_terminal(),
            view.terminal,
            "terminal differs (left engine, right oracle)\n{}",
            here()
        );
        for (r, rt) in self.role_terms.iter().enumerate() {
            let want: BTreeSet<String> = view.legal[rt]
                .iter()
                .map(|m| m.show(oracle.syntax))
                .collect();
            assert_eq!(
                engine_legal(&self.m, r),
                want,
                "legal moves of {} differ (left engine, right oracle)\n{}",
                self.roles[r],
                here()
            );
        }
        if let Some(rr) = self.game.random_role() {
            let got = self.m.chance().map(|c| {
                c.into_iter()
                    .map(|(mv, w)| (self.game.show_move(rr, mv), w))
                    .collect::<BTreeMap<_, _>>()
            });
            match (got, expected_chance(oracle, &view)) {
                (Ok(g), Ok(w)) => {
                    assert_eq!(g, w, "chance weights differ (left engine)\n{}", here())
                }
                (Err(_), Err(())) => {}
                (g, w) => panic!("chance differs: engine {g:?}, oracle {w:?}\n{}", here()),
            }
        }
        if view.terminal {
            let got = self.m.goals().map_err(|_| ());
            let want = expected_goals(oracle, &view).map(|g| {
                // Reorder from oracle role order to engine role order.
                self.role_terms
                    .iter()
                    .map(|rt| g[oracle.roles.iter().position(|o| o == rt).unwrap()])
                    .collect::<Vec<_>>()
            });
            assert_eq!(
                got,
                want,
                "goals differ (left engine, right oracle; oracle goal facts {:?})\n{}",
                view.goals,
                here()
            );
        }
        view
    }

    /// The oracle's joint move for an engine joint move, matched by print.
    fn oracle_joint(&self, view: &View, joint: &[u32]) -> Vec<(T, T)> {
        joint
            .iter()
            .enumerate()
            .map(|(r, &mv)| {
                let rt = &self.role_terms[r];
                let printed = self.game.show_move(r, mv);
                let m = view.legal[rt]
                    .iter()
                    .find(|m| m.show(self.oracle.syntax) == printed)
                    .expect("legal sets agree");
                (rt.clone(), m.clone())
            })
            .collect()
    }
}

/// What a differential run compared.
#[derive(Debug, Default)]
struct Compared {
    states: usize,
    /// Terminal states among them (where goals were compared).
    ends: usize,
}

/// Walks seeded random playouts through one game with the engine and the
/// oracle side by side, asserting that they agree at every state compared
/// (see [`Pair::compare`]).
fn differential(name: &str, game: &Game, oracle: &Oracle, walk: &Walk) -> Compared {
    let mut pair = Pair::new(name, game, oracle);
    let start = Instant::now();
    let mut compared = Compared::default();
    for p in 0..walk.playouts {
        // The first playout always runs to its end: every test compares at
        // least one whole walk, however slow the machine.
        if p > 0 && walk.budget.is_some_and(|b| start.elapsed() > b) {
            break;
        }
        let seed = walk.seed.wrapping_add(p);
        let skip = if walk.from_end {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let (_, length) = pair.advance(LONGEST_GAME, &mut rng);
            length.saturating_sub(walk.max_steps)
        } else {
            0
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut state, skipped) = pair.advance(skip, &mut rng);
        let mut facts = pair.oracle_state(&state);
        let mut history: Vec<String> = Vec::new();
        for step in skipped..=skipped + walk.max_steps {
            let here = || {
                format!(
                    "{name}, playout {p} (seed {seed}), step {step}\n  moves since step {skipped}: {}\n  oracle state: {}\n  engine state: {}",
                    history.join(" | "),
                    show_set(&oracle_facts(oracle, &facts)),
                    game.show_state(&state),
                )
            };
            let view = pair.compare(&state, &facts, &here);
            compared.states += 1;
            compared.ends += usize::from(view.terminal);
            if step == skipped + walk.max_steps {
                break;
            }
            let Some(joint) = pair.choose(&state, &mut rng) else {
                break;
            };
            let ojoint = pair.oracle_joint(&view, &joint);
            history.push(
                ojoint
                    .iter()
                    .map(|(r, m)| format!("{} {}", r.show(oracle.syntax), m.show(oracle.syntax)))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            pair.m.set_state(&state);
            state = pair.m.next(&joint).expect("next state");
            facts = oracle.next(&facts, &ojoint);
        }
    }
    eprintln!(
        "{name}: {} states compared, {} of them terminal",
        compared.states, compared.ends
    );
    compared
}

fn engine_perft(game: &Game, depth: u32) -> Vec<(u128, u64)> {
    perft(game, depth, |_| {})
        .expect("perft succeeds")
        .iter()
        .map(|l| (l.leaves, l.states))
        .collect()
}

// ---------------------------------------------------- differential, own

/// One of our own KIF games; each of its playouts ends within the walk's
/// steps, so each is compared to its end, goals included.
fn own(file: &str, walk: Walk) {
    let c = differential_kif(file, &own_game(file), &walk);
    assert_eq!(c.ends as u64, walk.playouts, "{file}: {c:?}");
}

#[test]
fn differential_race_simultaneous() {
    own("race.kif", Walk::new(60, 10));
}

#[test]
fn differential_nim_alternating_early_end() {
    own("nim4.kif", Walk::new(60, 10));
}

#[test]
fn differential_dice_chance_or() {
    own("dice.kif", Walk::new(60, 10));
}

#[test]
fn differential_weighted_chance_state_dependent_weights() {
    own("weighted.kif", Walk::new(60, 10));
}

#[test]
fn differential_burn_recursion_negation() {
    own("burn.kif", Walk::new(100, 20));
}

#[test]
fn differential_minority_three_simultaneous() {
    own("minority.kif", Walk::new(100, 10));
}

#[test]
fn differential_flood_move_dependent_recursion() {
    own("flood.kif", Walk::new(150, 10));
}

#[test]
fn differential_hexlink_recursive_connection() {
    own("hexlink.kif", Walk::new(20, 60));
}

// -------------------------------------------------- differential, native

/// A game in the native syntax, relative to the crate root, walked with
/// the engine and the oracle side by side; both read the same desugared
/// program, the oracle evaluates its integers and arithmetic itself.
fn differential_rules(path: &str, params: &[(&str, &str)], walk: &Walk) -> Compared {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let game = common::Scenario::open(path, params).game;
    let oracle = Oracle::from_rules(&full, params);
    differential(path, &game, &oracle, walk)
}

/// Pawn whopping games end within 200 moves: every playout is compared to
/// its end.
#[test]
fn differential_pawn_whopping() {
    let c = differential_rules("games/pawn_whopping.rules", &[], &Walk::new(5, 200));
    assert_eq!(c.ends, 5, "{c:?}");
}

#[test]
fn differential_pawn_whopping_6x6() {
    let walk = Walk::new(10, 200);
    let c = differential_rules("games/variants/pawn_whopping_6x6.rules", &[], &walk);
    assert_eq!(c.ends, 10, "{c:?}");
}

/// Tablan games last about 430 joint moves: one playout's opening, and
/// the last moves of two more (captures, parked pieces, the end, goals),
/// the engine playing the moves before them alone.
fn tablan(path: &str) {
    let opening = differential_rules(path, &[], &Walk::new(1, 50));
    assert_eq!(opening.states, 51, "{path}: the opening is 50 moves");
    let ends = Walk {
        seed: 100,
        ..Walk::ends(2, 25)
    };
    let ends = differential_rules(path, &[], &ends);
    assert_eq!(ends.ends, 2, "{path}: both playouts compared to their end");
}

#[test]
fn differential_tablan() {
    tablan("games/tablan.rules");
}

#[test]
fn differential_tablan_d6() {
    tablan("games/variants/tablan_d6.rules");
}

#[test]
fn differential_tablan_entry_two() {
    tablan("games/variants/tablan_entry_two.rules");
}

/// The REPL's tiny race: a board, a region, weighted dice, arithmetic.
#[test]
fn differential_race_rules() {
    let c = differential_rules("tests/repl/race.rules", &[], &Walk::new(60, 20));
    assert!(c.ends >= 50, "{c:?}");
}

/// Every operator, comparison and binding of the native language, with
/// negative numbers and a division by zero (`tests/games/modulo.rules`).
#[test]
fn differential_modulo_integers_and_arithmetic() {
    let c = differential_rules("tests/games/modulo.rules", &[], &Walk::new(150, 40));
    assert_eq!(c.ends, 150, "every playout compared to its end: {c:?}");
}

/// Aggregates over the state and static facts (`tests/games/tally.rules`,
/// `tests/games/heaps.rules`): the oracle evaluates them naively.
#[test]
fn differential_aggregates() {
    for path in ["tests/games/tally.rules", "tests/games/heaps.rules"] {
        let c = differential_rules(path, &[], &Walk::new(40, 10));
        assert_eq!(
            c.ends, 40,
            "{path}: every playout compared to its end: {c:?}"
        );
        let game = common::Scenario::open(path, &[]).game;
        let oracle = Oracle::from_rules(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path), &[]);
        assert_eq!(engine_perft(&game, 5), oracle.perft(5), "{path}: perft");
    }
}

// ----------------------------------------------- differential, conformance

/// One conformance game: `playouts` seeded walks of at most `max_steps`
/// joint moves, stopping early once 3 s are spent (the test asserts only
/// that what was compared agrees, never how much was).
fn conformance(file: &str, playouts: u64, max_steps: u32) {
    let Some(path) = common::shared(&format!("conformance/games/{file}")) else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let compared = differential_kif(
        file,
        &text,
        &Walk::new(playouts, max_steps).within(Duration::from_secs(3)),
    );
    assert!(compared.states > 0, "{file}: no state compared");
}

macro_rules! conformance_tests {
    ($($(#[$attr:meta])* $test:ident: $file:literal, $playouts:expr, $steps:expr;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $test() {
                conformance($file, $playouts, $steps);
            }
        )*

        /// Every conformance game has a test above (or a reason it has none).
        const CONFORMANCE_COVERED: &[&str] = &[$($file),*];
    };
}

conformance_tests! {
    conformance_banker_and_thief: "BankerAndThief.gdl", 20, 30;
    conformance_krieg_tictactoe: "KriegTictactoe.gdl", 20, 30;
    conformance_monty_hall: "MontyHall.gdl", 30, 10;
    conformance_breakthrough: "breakthrough.kif", 3, 200;
    // Unoptimised, tabula takes ~35 s to ground this game and the oracle
    // ~8 s to compute its static relations: run by `cargo test --release`.
    #[cfg_attr(debug_assertions, ignore = "slow unoptimised; runs with --release")]
    conformance_checkers_tiny: "checkersTiny.kif", 3, 200;
    conformance_chomp: "chomp.kif", 20, 100;
    conformance_connect_four: "connectFour.kif", 5, 100;
    conformance_connect_four_simultaneous: "connectFourSimultaneous.kif", 5, 100;
    conformance_dots_and_boxes: "dotsAndBoxes.kif", 3, 100;
    conformance_eight_puzzle: "eightPuzzle.kif", 3, 100;
    conformance_hanoi: "hanoi.kif", 5, 100;
    conformance_knight_through: "knightThrough.kif", 3, 200;
    conformance_nim1: "nim1.kif", 20, 100;
    conformance_othello: "othello-comp2007.kif", 2, 100;
    conformance_pawn_whopping: "pawnWhopping.kif", 3, 200;
    conformance_pawn_whopping_v1: "pawnWhopping_v1.kif", 3, 200;
    conformance_roshambo2: "roshambo2.kif", 20, 100;
    conformance_sheep_and_wolf: "sheepAndWolf.kif", 3, 200;
    conformance_smallest_4player: "smallest_4player.kif", 5, 100;
    conformance_tictactoe: "ticTacToe.kif", 30, 20;
    conformance_tictactoe_3player: "tictactoe_3player.kif", 10, 30;
}

#[test]
fn every_conformance_game_has_a_differential_test() {
    let Some(dir) = conformance_dir() else { return };
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .to_string();
        let game = name.ends_with(".kif") || name.ends_with(".gdl");
        if game && !CONFORMANCE_COVERED.contains(&name.as_str()) {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "no differential test for {missing:?}");
}

// ------------------------------------------------------------------ perft

/// race.kif, both players at once, one or two cells, two only from 0 or 1:
///
/// - depth 0: the start, 1 leaf, 1 state.
/// - depth 1: each player goes to 1 or 2: 2 x 2 = 4 leaves, 4 states.
/// - depth 2: one player's two-move paths are 0-1-2, 0-1-3, 0-2-3 (from 2
///   only one step is legal): 3 x 3 = 9 leaves; positions {2, 3} each:
///   4 states. Only (2, 2), reached one way, is not terminal.
/// - depth 3: from (2, 2) both step 1: 1 leaf, 1 state (3, 3).
/// - depth 4: nothing left: 0, 0.
const RACE: [(u128, u64); 5] = [(1, 1), (4, 4), (9, 4), (1, 1), (0, 0)];

/// nim4.kif, a pile of 4, take 1 or 2 (2 only if at least 2 are left),
/// the player to move alternates (state = pile, control):
///
/// - depth 0: (4, first): 1, 1.
/// - depth 1: (3, second), (2, second): 2 leaves, 2 states.
/// - depth 2: from 3: (2, first), (1, first); from 2: (1, first), (0, first):
///   4 leaves, 3 states; (0, first) is terminal.
/// - depth 3: from (2, first) x1: (1, second), (0, second); from (1, first)
///   x2: (0, second) twice: 4 leaves, 2 states.
/// - depth 4: from (1, second) x1: (0, first): 1, 1.
/// - depth 5: 0, 0. (Check: 1 + 3 + 1 = 5 games = the compositions of 4
///   into parts 1 and 2.)
const NIM4: [(u128, u64); 6] = [(1, 1), (2, 2), (4, 3), (4, 2), (1, 1), (0, 0)];

/// dice.kif, chance outcomes counted as branches, whatever their weights:
///
/// - depth 0: 1, 1.
/// - depth 1: three rolls x the player's noop: 3 leaves, 3 states;
///   rolling 1 is terminal.
/// - depth 2: rolls 2 and 3, each x (noop, bet low | bet high): 4 leaves,
///   4 states, all terminal.
/// - depth 3: 0, 0.
const DICE: [(u128, u64); 4] = [(1, 1), (3, 3), (4, 4), (0, 0)];

fn check_perft(file: &str, expected: &[(u128, u64)]) {
    let text = own_game(file);
    let depth = expected.len() as u32 - 1;
    let game = compile(file, &text);
    assert_eq!(engine_perft(&game, depth), expected, "{file}: engine perft");
    let oracle = Oracle::from_kif(&text);
    assert_eq!(oracle.perft(depth), expected, "{file}: oracle perft");
}

#[test]
fn perft_race_by_hand() {
    check_perft("race.kif", &RACE);
}

#[test]
fn perft_nim4_by_hand() {
    check_perft("nim4.kif", &NIM4);
}

#[test]
fn perft_dice_by_hand() {
    check_perft("dice.kif", &DICE);
}

/// Deeper counts of the other own games, engine against oracle only.
#[test]
fn perft_own_games_against_oracle() {
    for (file, depth) in [
        ("burn.kif", 5),
        ("minority.kif", 2),
        ("weighted.kif", 3),
        ("flood.kif", 2),
        ("hexlink.kif", 2),
    ] {
        let text = own_game(file);
        let game = compile(file, &text);
        let oracle = Oracle::from_kif(&text);
        assert_eq!(
            engine_perft(&game, depth),
            oracle.perft(depth),
            "{file}: perft (left engine, right oracle)"
        );
    }
}

/// The native test game, engine against oracle: chance outcomes and
/// arithmetic on every branch to depth 4.
#[test]
fn perft_modulo_against_oracle() {
    let path = "tests/games/modulo.rules";
    let game = common::Scenario::open(path, &[]).game;
    let oracle = Oracle::from_rules(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path), &[]);
    assert_eq!(
        engine_perft(&game, 4),
        oracle.perft(4),
        "{path}: perft (left engine, right oracle)"
    );
}

/// Perft from a game depth 0 asks for no expansion at all.
#[test]
fn perft_depth_zero_is_the_start() {
    let game = compile("race.kif", &own_game("race.kif"));
    assert_eq!(engine_perft(&game, 0), vec![(1, 1)]);
}

/// The oracle against the independent reasoner's counts in
/// `../shared/conformance/expected.tsv`: for each game, brute-force perft
/// to the deepest depth whose tree has at most 150 nodes below the root.
#[test]
fn oracle_perft_matches_conformance_counts() {
    let (Some(dir), Some(expected)) = (
        conformance_dir(),
        common::shared("conformance/expected.tsv"),
    ) else {
        return;
    };
    let table = std::fs::read_to_string(&expected)
        .unwrap_or_else(|e| panic!("{}: {e}", expected.display()));
    let mut rows: BTreeMap<String, Vec<(u128, u64)>> = BTreeMap::new();
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() == 4 {
            rows.entry(f[0].to_string())
                .or_default()
                .push((f[2].parse().unwrap(), f[3].parse().unwrap()));
        }
    }
    let mut checked = 0;
    for (file, counts) in &rows {
        if file == "checkersTiny.kif" && cfg!(debug_assertions) {
            continue; // its static relations take the oracle ~8 s unoptimised
        }
        let mut depth = 0;
        let mut nodes = 0;
        while depth + 1 < counts.len() && nodes + counts[depth + 1].0 <= 150 {
            nodes += counts[depth + 1].0;
            depth += 1;
        }
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("{file}, listed in expected.tsv: {e}"));
        let t = Instant::now();
        let oracle = Oracle::from_kif(&text);
        assert_eq!(
            oracle.perft(depth as u32),
            counts[..=depth],
            "{file}: oracle perft (left) against expected.tsv (right)"
        );
        eprintln!("{file}: depth {depth}, {nodes} nodes, {:?}", t.elapsed());
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} games checked");
}

// ----------------------------------------------------------------- chance

/// weighted.kif: roll k with weight w = (1, 3, 1, 5) of 10, then heads with
/// weight k against tails 1. Goal 20k + 10 for heads, so each goal value is
/// one outcome, with probability w_k/10 * (k or 1)/(k+1).
#[test]
fn chance_frequencies_match_weights() {
    let game = compile("weighted.kif", &own_game("weighted.kif"));
    let player = (0..game.role_count())
        .find(|&r| game.role_name(r) == "player")
        .unwrap();
    let weights = [1.0, 3.0, 1.0, 5.0];
    let mut expected: BTreeMap<i64, f64> = BTreeMap::new();
    for (i, w) in weights.iter().enumerate() {
        let k = i as f64 + 1.0;
        expected.insert(20 * (i as i64 + 1) + 10, w / 10.0 * k / (k + 1.0));
        expected.insert(20 * (i as i64 + 1), w / 10.0 * 1.0 / (k + 1.0));
    }
    let n = 20_000u32;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut m = game.machine();
    let start = game.initial();
    let mut counts: BTreeMap<i64, u32> = BTreeMap::new();
    for _ in 0..n {
        let p = m.playout(&start, &mut rng, 10).expect("playout");
        assert_eq!(p.length, 2);
        let End::Goals(goals) = p.end else {
            panic!("unexpected end {:?}", p.end)
        };
        *counts.entry(goals[player].unwrap()).or_default() += 1;
    }
    // Tolerance: 4 standard deviations of a binomial count, per outcome
    // (a false alarm about once in 15,000 seeds per outcome).
    for (value, p) in &expected {
        let got = f64::from(counts.get(value).copied().unwrap_or(0));
        let mean = f64::from(n) * p;
        let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
        assert!(
            (got - mean).abs() <= 4.0 * sd,
            "goal {value}: {got} of {n}, expected {mean:.0} +- {:.0} (4 sd); all counts {counts:?}",
            4.0 * sd
        );
    }
    assert_eq!(
        counts.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
}

/// The same through `random_joint` step by step: the first roll alone.
#[test]
fn chance_frequencies_through_random_joint() {
    let game = compile("dice.kif", &own_game("dice.kif"));
    let random = game.random_role().expect("dice.kif has a random role");
    let mut m = game.machine();
    m.set_state(&game.initial());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let n = 20_000u32;
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..n {
        let joint = m.random_joint(&mut rng).expect("joint");
        *counts
            .entry(game.show_move(random, joint[random]))
            .or_default() += 1;
    }
    for (mv, w) in [("(roll 1)", 1.0), ("(roll 2)", 3.0), ("(roll 3)", 1.0)] {
        let p = w / 5.0;
        let got = f64::from(counts.get(mv).copied().unwrap_or(0));
        let mean = f64::from(n) * p;
        let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
        assert!(
            (got - mean).abs() <= 4.0 * sd,
            "{mv}: {got} of {n}, expected {mean:.0} +- {:.0}; {counts:?}",
            4.0 * sd
        );
    }
}

fn chance_by_name(m: &Machine) -> BTreeMap<String, u64> {
    let game = m.game();
    let random = game.random_role().expect("a random role");
    m.chance()
        .expect("weights are fine")
        .into_iter()
        .map(|(mv, w)| (game.show_move(random, mv), w))
        .collect()
}

fn named(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|&(m, w)| (m.to_string(), w)).collect()
}

/// Index of the move of `role` printed as `printed` among its legal moves.
fn legal_move(m: &Machine, role: usize, printed: &str) -> u32 {
    m.legal(role)
        .iter()
        .copied()
        .find(|&i| m.game().show_move(role, i) == printed)
        .unwrap_or_else(|| panic!("{printed} is not legal for role {role}"))
}

#[test]
fn chance_returns_exact_weights() {
    let game = compile("weighted.kif", &own_game("weighted.kif"));
    let random = game.random_role().unwrap();
    let player = 1 - random;
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert_eq!(
        chance_by_name(&m),
        named(&[
            ("(roll 1)", 1),
            ("(roll 2)", 3),
            ("(roll 3)", 1),
            ("(roll 4)", 5)
        ])
    );
    // Weights that depend on the state: heads weighs the number rolled.
    for (roll, heads) in [("(roll 1)", 1), ("(roll 3)", 3), ("(roll 4)", 4)] {
        m.set_state(&game.initial());
        let mut joint = vec![0; 2];
        joint[random] = legal_move(&m, random, roll);
        joint[player] = legal_move(&m, player, "wait");
        let after = m.next(&joint).expect("next state");
        m.set_state(&after);
        assert_eq!(
            chance_by_name(&m),
            named(&[("(toss heads)", heads), ("(toss tails)", 1)]),
            "after {roll}"
        );
    }
    // No random role: no chance moves.
    let race = compile("race.kif", &own_game("race.kif"));
    let m = race.machine();
    assert_eq!(race.random_role(), None);
    assert_eq!(m.chance(), Ok(Vec::new()));
}

// ----------------------------------------------------------------- replay

/// Plays one game with `random_joint`, recording every joint move printed.
fn replay(game: &Game, seed: u64) -> (Vec<Vec<String>>, State) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut m = game.machine();
    let mut state = game.initial();
    let mut moves = Vec::new();
    for _ in 0..100 {
        m.set_state(&state);
        if m.is_terminal() {
            break;
        }
        let joint = m.random_joint(&mut rng).expect("playable");
        moves.push(
            joint
                .iter()
                .enumerate()
                .map(|(r, &mv)| game.show_move(r, mv))
                .collect(),
        );
        state = m.next(&joint).expect("next state");
    }
    (moves, state)
}

#[test]
fn replay_same_seed_same_game() {
    for file in ["minority.kif", "weighted.kif", "burn.kif"] {
        let game = compile(file, &own_game(file));
        let (a_moves, a_end) = replay(&game, 99);
        let (b_moves, b_end) = replay(&game, 99);
        assert!(!a_moves.is_empty());
        assert_eq!(a_moves, b_moves, "{file}: moves differ on replay");
        assert_eq!(a_end, b_end, "{file}: final state differs on replay");
        // Playout gives the same result twice as well.
        let mut m = game.machine();
        let start = game.initial();
        let p1 = m.playout(&start, &mut Xoshiro256PlusPlus::seed_from_u64(5), 100);
        let p2 = m.playout(&start, &mut Xoshiro256PlusPlus::seed_from_u64(5), 100);
        assert_eq!(p1, p2, "{file}: playout differs on replay");
        assert_eq!(m.state(), &{
            let mut m2 = game.machine();
            m2.playout(&start, &mut Xoshiro256PlusPlus::seed_from_u64(5), 100)
                .unwrap();
            m2.state().clone()
        });
    }
}

#[test]
fn replay_other_seed_other_game() {
    // minority.kif has 27 joint moves in each of 3 rounds: two seeds give
    // the same game with probability well under 1e-3.
    let game = compile("minority.kif", &own_game("minority.kif"));
    let (a, _) = replay(&game, 99);
    let (b, _) = replay(&game, 100);
    assert_ne!(a, b);
}

// ---------------------------------------------------------- runtime errors

const NO_LEGAL: &str = "
(role a) (role b)
(init (step 0))
(<= (legal a go) (role a))
(<= (legal b go) (true (step 0)))
(<= (next (step 1)) (true (step 0)))
(<= (next (step 2)) (true (step 1)))
(<= terminal (true (step 2)))
(goal a 50) (goal b 50)
";

#[test]
fn no_legal_move_is_an_error_value() {
    let game = compile("nolegal.kif", NO_LEGAL);
    // Depth 1 does not expand the depth-1 state.
    assert_eq!(engine_perft(&game, 1), vec![(1, 1), (1, 1)]);
    let expect = |e: EngineError, what: &str| match e {
        EngineError::NoLegalMove { role, state } => {
            assert_eq!(game.role_name(role), "b", "{what}");
            assert_eq!(game.show_state(&state), "(step 1)", "{what}");
        }
        other => panic!("{what}: expected NoLegalMove, got {other:?}"),
    };
    let PerftError::Engine(err) = perft(&game, 3, |_| {}).expect_err("perft must fail") else {
        panic!("perft: expected an engine error");
    };
    expect(err, "perft");
    let mut m = game.machine();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let err = m
        .playout(&game.initial(), &mut rng, 10)
        .expect_err("playout must fail");
    let text = tabula::front::engine_error(&game, &err);
    assert_eq!(
        text,
        "role b has no legal move in a non-terminal state\n  state: (step 1)"
    );
    expect(err, "playout");
}

/// A game that is over at once, with the given goal facts.
fn over_at_once(goals: &str) -> Game {
    let text = format!(
        "(role a) (role b) (init s) (<= terminal (true s))
         (legal a noop) (legal b noop) {goals}"
    );
    compile("goals.kif", &text)
}

#[test]
fn bad_goals_are_error_values() {
    // Roles by index: a is 0, b is 1; the only state is `s`.
    type Expect = fn(&Game, &EngineError) -> bool;
    let cases: [(&str, Expect); 5] = [
        (
            "(goal a 10)",
            |g, e| matches!(e, EngineError::NoGoal { role: 1, state } if g.show_state(state) == "s"),
        ),
        ("(goal a 10) (goal a 20) (goal b 0)", |g, e| {
            matches!(e, EngineError::SeveralGoals { role: 0, values, state }
                if values == &[10, 20] && g.show_state(state) == "s")
        }),
        (
            "(goal a 101) (goal b 0)",
            |g, e| matches!(e, EngineError::GoalRange { role: 0, value: 101, state } if g.show_state(state) == "s"),
        ),
        ("(goal a 0) (goal b -1)", |_, e| {
            matches!(
                e,
                EngineError::GoalRange {
                    role: 1,
                    value: -1,
                    ..
                }
            )
        }),
        ("", |_, e| matches!(e, EngineError::NoGoal { role: 0, .. })),
    ];
    for (goals, ok) in cases {
        let game = over_at_once(goals);
        let mut m = game.machine();
        m.set_state(&game.initial());
        assert!(m.is_terminal());
        let err = m.goals().expect_err(goals);
        assert!(ok(&game, &err), "{goals}: unexpected {err:?}");
        // A playout ending there reports the same error as its end.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let p = m.playout(&game.initial(), &mut rng, 10).expect("playout");
        assert_eq!(p.end, End::BadGoals(err), "{goals}");
    }
    // And the good case, for contrast.
    let game = over_at_once("(goal a 0) (goal b 100)");
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert_eq!(m.goals(), Ok(vec![Some(0), Some(100)]));
}

fn chance_game(weights: &str) -> Game {
    let text = format!(
        "(role random) (role p) (init (phase 0))
         (<= (legal random (roll 1)) (true (phase 0)))
         (<= (legal random (roll 2)) (true (phase 0)))
         (legal p noop)
         (<= (next (phase 1)) (true (phase 0)))
         (<= terminal (true (phase 1)))
         (goal p 0) {weights}"
    );
    compile("weights.kif", &text)
}

#[test]
fn bad_weights_are_error_values() {
    for (weights, held) in [
        ("(weight (roll 2) 0)", &[0][..]),
        ("(weight (roll 2) -3)", &[-3]),
        ("(weight (roll 2) 1) (weight (roll 2) 2)", &[1, 2]),
    ] {
        let game = chance_game(weights);
        let mut m = game.machine();
        m.set_state(&game.initial());
        let check = |e: EngineError, what: &str| match e {
            EngineError::BadWeight {
                mv,
                weights: w,
                state,
            } => {
                let random = game.random_role().expect("a chance role");
                assert_eq!(game.show_move(random, mv), "(roll 2)", "{weights} {what}");
                assert_eq!(w, held, "{weights} {what}");
                assert_eq!(game.show_state(&state), "(phase 0)", "{weights} {what}");
            }
            other => panic!("{weights} {what}: expected BadWeight, got {other:?}"),
        };
        check(m.chance().expect_err("chance"), "chance");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        check(
            m.playout(&game.initial(), &mut rng, 10)
                .expect_err("playout"),
            "playout",
        );
        m.set_state(&game.initial());
        check(
            m.random_joint(&mut rng).expect_err("random_joint"),
            "random_joint",
        );
    }
    // Fine weights for contrast.
    let game = chance_game("(weight (roll 2) 4)");
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert_eq!(
        chance_by_name(&m),
        named(&[("(roll 1)", 1), ("(roll 2)", 4)])
    );
}

/// A weight that is not a number at all is refused when the game loads.
#[test]
fn non_integer_weight_is_refused_at_load() {
    let text = "(role random) (role p) (init s)
        (legal random (roll 1)) (legal p noop) (weight (roll 1) heavy)
        (<= terminal (true s)) (goal p 0)";
    let Err(failed) = tabula::load::open_str("w.kif", text, Syntax::Kif) else {
        panic!("a weight `heavy` is accepted");
    };
    let shown: Vec<String> = failed
        .diagnostics
        .iter()
        .map(|d| tabula::diag::render(d, &failed.sources, "w.kif", false))
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].contains("error[E0202]"), "{}", shown[0]);
}

/// With one legal chance move of weight 0 the distribution is undefined
/// (total weight 0); `chance()` says so, and playouts should agree.
#[test]
fn zero_weight_single_chance_move_is_an_error_in_playouts_too() {
    let text = "(role random) (role p) (init (phase 0))
        (<= (legal random (roll 1)) (true (phase 0)))
        (legal p noop)
        (<= (next (phase 1)) (true (phase 0)))
        (<= terminal (true (phase 1)))
        (goal p 0) (weight (roll 1) 0)";
    let game = compile("w.kif", text);
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert!(matches!(m.chance(), Err(EngineError::BadWeight { .. })));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let p = m.playout(&game.initial(), &mut rng, 10);
    assert!(
        matches!(p, Err(EngineError::BadWeight { .. })),
        "playout gave {p:?}"
    );
}

// ------------------------------------------------------- the oracle itself

/// The oracle is only useful if it is right: a few facts worked out by
/// hand on burn.kif (recursion over a cycle, negation, or).
#[test]
fn oracle_sanity_on_burn() {
    let oracle = Oracle::from_kif(&own_game("burn.kif"));
    let start = oracle.initial();
    let view = oracle.view(&start);
    assert!(!view.terminal);
    // From a, with blue on d: a-b, b-c, b-e, e-f, and c-a? a is occupied
    // by red itself; d is blue's. Reachable and open: b, c, e, f.
    let red: Vec<String> = view.legal[&T::sym("red")]
        .iter()
        .map(T::to_string)
        .collect();
    assert_eq!(red, ["(jump b)", "(jump c)", "(jump e)", "(jump f)"]);
    let blue: Vec<String> = view.legal[&T::sym("blue")]
        .iter()
        .map(T::to_string)
        .collect();
    assert_eq!(blue, ["noop"]);
    let next = oracle.next(
        &start,
        &[
            (T::sym("red"), T::App("jump".into(), vec![T::sym("f")])),
            (T::sym("blue"), T::sym("noop")),
        ],
    );
    let shown: Vec<String> = next.iter().map(T::to_string).collect();
    assert_eq!(
        shown,
        ["(at blue d)", "(at red f)", "(burnt a)", "(control blue)"]
    );
}
