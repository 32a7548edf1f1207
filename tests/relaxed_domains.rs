//! The relaxed model behind the rule evaluator's domains grounds atoms
//! only (src/engine/rules/domain.rs, src/ground/join.rs), on
//! tests/games/stuck.kif, written for this test in the shape of the GGP
//! corpus's crisscross: a player may pass when four of its pieces, pairwise
//! `distinct`, are stuck, and a player is home when a helper relation
//! joining four cells holds for four given cells. Grounded whole, those two
//! rules make every quadruple of cells (30,236 atoms and 41,173 rule
//! instances in the relaxed model before this change); the domains need
//! only their head atoms.

mod common;

use common::{explain_row, perft_on_both_evaluators, rule_domain_sizes, run};

const GAME: &str = "tests/games/stuck.kif";

/// The rows of `check --explain` on the default engine.
fn explain() -> String {
    let (out, err, code) = run(&["check", "--explain", "--playouts", "0", GAME], "");
    assert_eq!(code, 0, "{err}");
    out
}

/// The domains, counted by hand where it can be done: 41 state facts (10
/// cells by 3 contents, 2 of `control`, `step` 0 to 6, `home` for each
/// role) and 38 moves (each role's 18 moves between neighbouring cells, and
/// `noop`). The relaxed model holds 281 atoms: `filled` only for the two
/// quadruples `score` reads (the demand facts); the demands of the
/// readers' bound variables add 40 atoms (`stuck` read for the 30 pairs
/// of a cell and its content, `next-to` from the 10 cells), and restrict
/// nothing more in so small a game. Its rule instances are those that
/// made an atom, 202: the 281 atoms but the 41 `true` and 38 `does` atoms
/// that the bridge rules copy from `init`, `next` and `legal`.
#[test]
fn the_relaxed_model_makes_the_head_atoms_without_every_quadruple() {
    assert_eq!(rule_domain_sizes(GAME), ["41", "38", "281", "202"]);
}

/// The default engine is unchanged: the game grounds within the first look
/// and is compiled, with the same state facts and moves.
#[test]
fn the_default_engine_compiles_it_within_the_first_look() {
    let out = explain();
    let engine = explain_row(&out, "engine").expect("engine row");
    assert!(engine.starts_with("incremental: grounded in "), "{engine}");
    assert!(
        engine.ends_with(" steps, within the first look of 2500000"),
        "{engine}"
    );
    assert_eq!(explain_row(&out, "state facts"), Some("41"));
    assert_eq!(explain_row(&out, "moves"), Some("38"));
}

/// The rule evaluator, on the smaller domains, counts what the compiled
/// engine counts (the two share nothing below the parser).
#[test]
fn both_evaluators_count_the_same() {
    let expected = "depth 0 leaves 1 states 1\n\
                    depth 1 leaves 1 states 1\n\
                    depth 2 leaves 1 states 1\n\
                    depth 3 leaves 2 states 2\n\
                    depth 4 leaves 5 states 5\n\
                    depth 5 leaves 8 states 6\n\
                    depth 6 leaves 12 states 7\n";
    perft_on_both_evaluators(GAME, 6, expected);
}
