//! The relaxed model behind the rule evaluator's domains keeps a negation
//! of a permanent fact (an `init` fact that a frame rule `next(P) :-
//! true(P)` keeps: true in every reachable state), on tests/games/corridor.kif,
//! written for this test in the shape of the GGP corpus's mummymaze: walls
//! kept by a frame rule bound the moves through `not (true (wall ?x))`,
//! and `succ` also counts the steps. With every negation dropped, the
//! walker's position ran over every number `succ` names (0 to 6: 16 state
//! facts, 78 atoms); in mummymaze, the two coordinates of two pieces made
//! `direction-from` too large to ground, and its load went from 0.56 s to
//! 0.09 s of CPU with this.

mod common;

use common::{perft_on_both_evaluators, rule_domain_sizes};

const GAME: &str = "tests/games/corridor.kif";

/// The domains, counted by hand: 12 state facts (`at` 1 to 3, `step` 0
/// to 6, the two walls) and 2 moves. The relaxed model holds 54 atoms:
/// the 13 facts of the program (`role`, 2 `direction`, 4 `init`, 6
/// `succ`), the 2 permanent walls it reads under `not`, 2 `legal` and 2
/// `does`, 12 `true` and 11 `next` (`at` 1 to 3, `step` 1 to 6, the 2
/// walls), the 6 demands of `moved` (a position 1 to 3 by a direction)
/// and 6 `moved` (east: 1 to 2, 2 to 3, 3 blocked; west: 1 blocked, 2 to
/// 1, 3 to 2). Its rule instances are those that made an atom: the 54
/// but the 12 `true` and 2 `does` that bridge rules copy, 40.
#[test]
fn a_negated_permanent_fact_bounds_the_relaxed_model() {
    assert_eq!(rule_domain_sizes(GAME), ["12", "2", "54", "40"]);
}

/// Both evaluators count the same, by hand: from cell 1 east reaches 2 and
/// west is blocked, so depth 1 has 2 leaves in 2 states; every later state
/// has both moves (3 cells by step), until `step 4` ends the game. Past
/// the end every level is empty, on the rule evaluator too (a level of no
/// states costs its count no work per state, rather than a division by
/// zero).
#[test]
fn both_evaluators_count_the_same() {
    let expected = "depth 0 leaves 1 states 1\n\
                    depth 1 leaves 2 states 2\n\
                    depth 2 leaves 4 states 3\n\
                    depth 3 leaves 8 states 3\n\
                    depth 4 leaves 16 states 3\n\
                    depth 5 leaves 0 states 0\n\
                    depth 6 leaves 0 states 0\n\
                    depth 7 leaves 0 states 0\n";
    perft_on_both_evaluators(GAME, 7, expected);
}
