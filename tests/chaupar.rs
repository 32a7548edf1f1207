//! Scenario tests for games/chaupar.rules and its variant: one named
//! position per seed rule (and per gap the notes resolve), the exact legal
//! moves of the player to move there and the exact state after a chosen move.
//!
//! Positions are written in progress P (notes: 0 zero mark, 1..64 the loop
//! from block 1 of the own arm, 65..72 own blocks again, 73..80 the coloured
//! column, 81 the centre, off the board as `home`); `cell` below turns a
//! progress into its cell by the notes' table, independently of the rule
//! file's tracks.

mod common;
mod sessions;
use common::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sessions::session;
use tabula::engine::State;
use tabula::syntax::{self, SourceMap, Term};

const BASE: &str = "games/chaupar.rules";
const PASA_1256: &str = "games/variants/chaupar_1256.rules";
const ROLES: [&str; 4] = ["black", "blue", "red", "green"];

fn base() -> Scenario {
    Scenario::open(BASE, &[])
}

/// The cell of block `b` (1..16) of an arm (notes, cross-board geometry).
fn block(arm: char, b: i32) -> (i32, i32) {
    let out = b <= 8;
    match arm {
        'D' if out => (8, 8 - b),
        'D' => (10, b - 9),
        'C' if out => (10 + b, 8),
        'C' => (27 - b, 10),
        'A' if out => (10, 10 + b),
        'A' => (8, 27 - b),
        'B' if out => (8 - b, 10),
        _ => (b - 9, 8),
    }
}

/// The cell of coloured square `k` (1 outer end .. 8 next to the centre).
fn column(arm: char, k: i32) -> (i32, i32) {
    match arm {
        'D' => (9, k - 1),
        'C' => (19 - k, 9),
        'A' => (9, 19 - k),
        _ => (k - 1, 9),
    }
}

/// The cell of progress `p` of a role's piece.
fn cell(role: &str, p: i32) -> String {
    let arms = match role {
        "black" => ['A', 'B', 'D', 'C'],
        "blue" => ['B', 'D', 'C', 'A'],
        "red" => ['D', 'C', 'A', 'B'],
        _ => ['C', 'A', 'B', 'D'],
    };
    let (x, y) = match p {
        0 => return "zero".to_string(),
        81 => return "home".to_string(),
        1..=64 => block(arms[((p - 1) / 16) as usize], (p - 1) % 16 + 1),
        65..=72 => block(arms[0], p - 64),
        _ => column(arms[0], p - 72),
    };
    format!("sq({x}, {y})")
}

fn at(role: &str, piece: i32, p: i32) -> String {
    format!("at({role}, {piece}, {p}, {})", cell(role, p))
}

fn mv(role: &str, from: i32, to: i32) -> String {
    format!("move({}, {})", cell(role, from), cell(role, to))
}

fn pair(role: &str, p: i32) -> String {
    format!("pair({})", cell(role, p))
}

/// A position: the pieces given as (role, piece, progress), every other
/// piece home (81), the extra facts, and the throw counter unless given.
fn facts(pieces: &[(&str, i32, i32)], extra: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for role in ROLES {
        for i in 1..=4 {
            let p = pieces
                .iter()
                .find(|(r, k, _)| *r == role && *k == i)
                .map_or(81, |t| t.2);
            out.push(at(role, i, p));
        }
    }
    out.extend(extra.iter().map(|s| s.to_string()));
    if !extra.iter().any(|f| f.starts_with("throws(")) {
        out.push("throws(0)".to_string());
    }
    out.sort();
    out
}

fn state(s: &Scenario, pieces: &[(&str, i32, i32)], extra: &[&str]) -> State {
    let f = facts(pieces, extra);
    let refs: Vec<&str> = f.iter().map(String::as_str).collect();
    s.state(&refs)
}

fn owned(items: &[String]) -> Vec<String> {
    let mut v = items.to_vec();
    v.sort();
    v
}

/// Every player but `mover` can only pass.
fn others_pass(s: &Scenario, st: &State, mover: &str) {
    for role in ROLES.iter().filter(|r| **r != mover) {
        assert_eq!(s.legal(st, role), sorted(&["noop"]), "{role}");
    }
}

fn pasa(faces: &[i32]) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = faces
        .iter()
        .flat_map(|a| faces.iter().map(move |b| (format!("pasa({a}, {b})"), 1)))
        .collect();
    v.sort();
    v
}

// ------------------------------------------------------ seed rules 1..3

/// Seeds 1-3: four players, four pieces each on own blocks 6, 7, 12, 12;
/// black throws first (notes); two pasa with faces 1, 3, 4, 6, 1/16 each.
#[test]
fn seed1_3_start_position_and_pasa() {
    let s = base();
    let init = s.initial();
    let mut expected: Vec<String> = ROLES
        .iter()
        .flat_map(|r| [at(r, 1, 6), at(r, 2, 7), at(r, 3, 12), at(r, 4, 12)])
        .collect();
    expected.extend(["control(black)", "throws(0)"].map(String::from));
    expected.sort();
    assert_eq!(s.facts(&init), expected);
    // Seed 3 as drawn in rectangle D: red's 6th and 7th blocks on the outgoing
    // column, the 12th on the other.
    assert!(expected.contains(&"at(red, 1, 6, sq(8, 2))".to_string()));
    assert!(expected.contains(&"at(red, 3, 12, sq(10, 3))".to_string()));
    others_pass(&s, &init, "");
    assert_eq!(s.chance(&init), pasa(&[1, 3, 4, 6]));

    // After 6 and 1: the 7 moves 6 and the 6 then moves 1 onto the block it
    // left, or one piece moves 7; the pair on 12 cannot move on an odd sum,
    // and no piece may join another off block 17 while rights are pending.
    let thrown = s.play(&init, &[("random", "pasa(6, 1)")]);
    let mut after: Vec<String> = expected.clone();
    after.retain(|f| f != "throws(0)");
    after.extend(["throw(6, 1)".to_string(), "throws(1)".to_string()]);
    after.sort();
    assert_eq!(s.facts(&thrown), after);
    assert_eq!(
        s.legal(&thrown, "black"),
        owned(&[mv("black", 7, 13), mv("black", 6, 13), mv("black", 7, 14)])
    );
    others_pass(&s, &thrown, "black");
    assert_eq!(s.chance(&thrown), vec![("noop".to_string(), 1)]);

    // Notes (rule 7): rights are not lost for missing 17 on the first turn,
    // only by going beyond it: after 7 -> 13 they are still pending.
    let moved = s.play(&thrown, &[("black", &mv("black", 7, 13))]);
    assert!(!s.facts(&moved).iter().any(|f| f.starts_with("rights")));
    assert_eq!(s.legal(&moved, "black"), vec![mv("black", 6, 7)]);
}

// ------------------------------------------------------------ seed rule 4

/// Seed 4 with the notes' geometry: every step of every track, checked
/// against the table: a lone piece at P with a throw of 1 and 1 must move the
/// sum to P + 2 (the only full use), and from 80 the single 1 to the centre.
#[test]
fn seed4_tracks_run_anticlockwise_into_the_coloured_column() {
    let s = base();
    for role in ROLES {
        let lost = format!("rights({role}, lost)");
        let control = format!("control({role})");
        for p in 0..=80 {
            let st = state(&s, &[(role, 1, p)], &[&control, "throw(1, 1)", &lost]);
            let to = if p == 80 { 81 } else { p + 2 };
            assert_eq!(s.legal(&st, role), vec![mv(role, p, to)], "{role} at {p}");
        }
    }
}

/// Seed 4 / 13: black passes red's arm on the outer columns (block 8 to 9),
/// red turns from its own block 8 into its coloured column.
#[test]
fn seed4_seed13_only_the_owner_enters_its_column() {
    let s = base();
    let st = state(
        &s,
        &[("black", 1, 40), ("black", 2, 50)],
        &["control(black)", "throw(1, 3)", "rights(black, lost)"],
    );
    let legal = s.legal(&st, "black");
    assert!(legal.contains(&"move(sq(8, 0), sq(10, 0))".to_string()));
    assert_eq!(
        legal,
        owned(&[
            mv("black", 40, 41),
            mv("black", 40, 43),
            mv("black", 40, 44),
            mv("black", 50, 51),
            mv("black", 50, 53),
            mv("black", 50, 54),
        ])
    );
    let st = state(
        &s,
        &[("red", 1, 72), ("red", 2, 30)],
        &["control(red)", "throw(1, 3)", "rights(red, lost)"],
    );
    assert!(
        s.legal(&st, "red")
            .contains(&"move(sq(8, 0), sq(9, 0))".to_string())
    );
}

// ------------------------------------------------------------ seed rule 5

/// Seed 5: two pieces by the two values (one after the other, different
/// pieces) or one piece by the sum.
#[test]
fn seed5_two_pieces_by_each_value_or_one_by_the_sum() {
    let s = base();
    let pieces = [("red", 1, 20), ("red", 2, 30)];
    let extra = ["control(red)", "throw(6, 3)", "rights(red, lost)"];
    let st = state(&s, &pieces, &extra);
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[
            mv("red", 20, 26),
            mv("red", 20, 23),
            mv("red", 20, 29),
            mv("red", 30, 36),
            mv("red", 30, 33),
            mv("red", 30, 39),
        ])
    );
    others_pass(&s, &st, "red");

    // The 6 first: the 3 is left for the other piece, and only for it.
    let half = s.play(&st, &[("red", &mv("red", 20, 26))]);
    assert_eq!(
        s.facts(&half),
        facts(
            &[("red", 1, 26), ("red", 2, 30)],
            &[
                "control(red)",
                "throw(6, 3)",
                "rights(red, lost)",
                "rest(3)",
                "moved(1)"
            ]
        )
    );
    assert_eq!(s.legal(&half, "red"), vec![mv("red", 30, 33)]);
    let done = s.play(&half, &[("red", &mv("red", 30, 33))]);
    assert_eq!(
        s.facts(&done),
        facts(
            &[("red", 1, 26), ("red", 2, 33)],
            &["control(green)", "rights(red, lost)"]
        )
    );

    // The sum: one move, the turn passes.
    let summed = s.play(&st, &[("red", &mv("red", 20, 29))]);
    assert_eq!(
        s.facts(&summed),
        facts(
            &[("red", 1, 29), ("red", 2, 30)],
            &["control(green)", "rights(red, lost)"]
        )
    );
}

/// Notes (gap): as much of the throw as possible. A lone piece must take the
/// sum; if the sum is blocked (an opponent's pair), either single value.
#[test]
fn gap_use_both_values_when_possible() {
    let s = base();
    let extra = ["control(red)", "throw(6, 3)", "rights(red, lost)"];
    let st = state(&s, &[("red", 1, 20)], &extra);
    assert_eq!(s.legal(&st, "red"), vec![mv("red", 20, 29)]);
    // Red's 29 is blue's 45 (arm C, block 13): a blue pair there.
    assert_eq!(cell("red", 29), cell("blue", 45));
    let st = state(
        &s,
        &[("red", 1, 20), ("blue", 1, 45), ("blue", 2, 45)],
        &extra,
    );
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[mv("red", 20, 26), mv("red", 20, 23)])
    );
    // The value that is played ends the throw when the other cannot follow.
    let after = s.play(&st, &[("red", &mv("red", 20, 26))]);
    assert_eq!(s.legal(&after, "red"), sorted(&["noop"]));
    let passed = s.play(&after, &[]);
    assert!(s.facts(&passed).contains(&"control(green)".to_string()));
}

/// Notes (gap): a first value is a full use only if another piece can then
/// play the second in the position the first move makes. The opening throw
/// 3, 4: 6 -> 10 would leave 7 -> 10 (a pair off block 17 while rights are
/// pending) and 7 -> 10 would leave 6 -> 10, so neither is offered; the 12s
/// stand as a pair on an odd sum.
#[test]
fn gap_opening_three_four_uses_the_whole_throw() {
    let s = base();
    let thrown = s.play(&s.initial(), &[("random", "pasa(3, 4)")]);
    assert_eq!(
        s.legal(&thrown, "black"),
        owned(&[
            mv("black", 6, 9),
            mv("black", 7, 11),
            mv("black", 6, 13),
            mv("black", 7, 14),
        ])
    );
    others_pass(&s, &thrown, "black");
    let half = s.play(&thrown, &[("black", &mv("black", 6, 9))]);
    let mut expected = facts(
        &[
            ("black", 1, 9),
            ("black", 2, 7),
            ("black", 3, 12),
            ("black", 4, 12),
        ],
        &[
            "control(black)",
            "throw(3, 4)",
            "rest(4)",
            "moved(1)",
            "throws(1)",
        ],
    );
    for role in ["blue", "red", "green"] {
        expected.retain(|f| !f.starts_with(&format!("at({role},")));
        expected.extend([
            at(role, 1, 6),
            at(role, 2, 7),
            at(role, 3, 12),
            at(role, 4, 12),
        ]);
    }
    expected.sort();
    assert_eq!(s.facts(&half), expected);
    assert_eq!(s.legal(&half, "black"), vec![mv("black", 7, 11)]);
}

/// Notes (gap), pair rights changed by the first value. Black pending with
/// pieces on 17, 16, 6 and 2, blue's pair on black's 10, throw 1, 4 (odd):
/// 16 -> 17 makes a pair on 17, which wins the rights, so the 4 may then
/// join 2 -> 6 (a full use); the pair on 17 itself is stuck on the odd sum.
#[test]
fn gap_first_value_winning_rights_opens_a_join() {
    let s = base();
    let pieces = [
        ("black", 1, 17),
        ("black", 2, 16),
        ("black", 3, 6),
        ("black", 4, 2),
        ("blue", 1, 58),
        ("blue", 2, 58),
    ];
    assert_eq!(cell("black", 10), cell("blue", 58));
    let st = state(&s, &pieces, &["control(black)", "throw(1, 4)"]);
    assert_eq!(
        s.legal(&st, "black"),
        owned(&[
            mv("black", 17, 22),
            mv("black", 16, 21),
            mv("black", 6, 11),
            mv("black", 2, 7),
            mv("black", 17, 18),
            mv("black", 16, 17),
            mv("black", 6, 7),
            mv("black", 2, 3),
            mv("black", 17, 21),
            mv("black", 16, 20),
        ])
    );
    let paired = s.play(&st, &[("black", &mv("black", 16, 17))]);
    let mut after = pieces;
    after[1].2 = 17;
    assert_eq!(
        s.facts(&paired),
        facts(
            &after,
            &[
                "control(black)",
                "throw(1, 4)",
                "rights(black, won)",
                "rest(4)",
                "moved(2)"
            ]
        )
    );
    assert_eq!(s.legal(&paired, "black"), vec![mv("black", 2, 6)]);
}

/// Notes (gap), an odd sum: the first piece joining one on 17 makes a pair
/// that may not move, so its mate cannot play the second value. Black
/// pending on 17, 14, 12, 12, throw 3, 6: 14 -> 17 leaves no piece for the
/// 6 (the 12s and the new pair on 17 are stuck), nor does 14 -> 20 or
/// 17 -> 20 (the other would join on 20 without rights); 17 -> 23 leaves
/// 14 -> 17, and the sum is free.
#[test]
fn gap_first_value_making_a_stuck_pair() {
    let s = base();
    let pieces = [
        ("black", 1, 17),
        ("black", 2, 14),
        ("black", 3, 12),
        ("black", 4, 12),
    ];
    let st = state(&s, &pieces, &["control(black)", "throw(3, 6)"]);
    assert_eq!(
        s.legal(&st, "black"),
        owned(&[
            mv("black", 17, 26),
            mv("black", 14, 23),
            mv("black", 17, 23),
        ])
    );
    let half = s.play(&st, &[("black", &mv("black", 17, 23))]);
    assert_eq!(s.legal(&half, "black"), vec![mv("black", 14, 17)]);
}

/// Notes (gap), pair rights lost by the first value. Black pending on 17,
/// 16 and 13, blue's pair on black's 18, throw 1, 6: 13 -> 19 loses the
/// rights, after which the 1 could only join 16 -> 17 (forbidden now) or
/// end on blue's pair, so it is no full use; every other first value is.
#[test]
fn gap_first_value_losing_rights_closes_a_join() {
    let s = base();
    let pieces = [
        ("black", 1, 17),
        ("black", 2, 16),
        ("black", 3, 13),
        ("blue", 1, 2),
        ("blue", 2, 2),
    ];
    assert_eq!(cell("black", 18), cell("blue", 2));
    let st = state(&s, &pieces, &["control(black)", "throw(1, 6)"]);
    assert_eq!(
        s.legal(&st, "black"),
        owned(&[
            mv("black", 17, 24),
            mv("black", 16, 23),
            mv("black", 13, 20),
            mv("black", 16, 17),
            mv("black", 13, 14),
            mv("black", 17, 23),
            mv("black", 16, 22),
        ])
    );
}

/// Notes (gap), the block the first value leaves. Black with rights won:
/// a pair on 30 and a piece on 27, red's pair on black's 33, throw 1, 3:
/// 30 -> 31 leaves one piece on 30, which 27 -> 30 may then join, so it
/// is a full use; 27 -> 28 is not (the 3 ends on red's pair or nowhere).
#[test]
fn gap_first_value_leaving_a_pair() {
    let s = base();
    let pieces = [
        ("black", 1, 30),
        ("black", 2, 30),
        ("black", 3, 27),
        ("red", 1, 1),
        ("red", 2, 1),
    ];
    assert_eq!(cell("black", 33), cell("red", 1));
    let extra = ["control(black)", "throw(1, 3)", "rights(black, won)"];
    let st = state(&s, &pieces, &extra);
    let mut legal = owned(&[
        mv("black", 30, 34),
        mv("black", 27, 31),
        mv("black", 30, 31),
    ]);
    legal.push(pair("black", 30));
    legal.sort();
    assert_eq!(s.legal(&st, "black"), legal);
    let half = s.play(&st, &[("black", &mv("black", 30, 31))]);
    assert_eq!(s.legal(&half, "black"), vec![mv("black", 27, 30)]);
}

/// Notes (gap), the other lap of the block left: black's 3 and 67 are one
/// block, so 66 -> 67 is closed while a piece stands on 3; throw 1, 4:
/// 3 -> 7 opens it for the 1, a full use (a choice of the rule file: a
/// piece may not end on an own piece of the other lap).
#[test]
fn gap_first_value_freeing_the_other_lap() {
    let s = base();
    let pieces = [("black", 1, 3), ("black", 2, 66)];
    assert_eq!(cell("black", 3), cell("black", 67));
    let extra = ["control(black)", "throw(1, 4)", "rights(black, lost)"];
    let st = state(&s, &pieces, &extra);
    assert_eq!(
        s.legal(&st, "black"),
        owned(&[
            mv("black", 3, 8),
            mv("black", 66, 71),
            mv("black", 3, 4),
            mv("black", 3, 7),
            mv("black", 66, 70),
        ])
    );
    let half = s.play(&st, &[("black", &mv("black", 3, 7))]);
    assert_eq!(s.legal(&half, "black"), vec![mv("black", 66, 67)]);
}

/// Notes (gap), the other lap of the block reached: black re-enters from
/// the zero mark with the 3 onto block 3, which is also its 67, so 66 -> 67
/// would no longer be open for the 1: 0 -> 3 is no full use, 0 -> 1 (then
/// 66 -> 69) and the sum 0 -> 4 are.
#[test]
fn gap_first_value_filling_the_other_lap() {
    let s = base();
    let pieces = [("black", 1, 0), ("black", 2, 66)];
    let extra = ["control(black)", "throw(3, 1)", "rights(black, lost)"];
    let st = state(&s, &pieces, &extra);
    assert_eq!(
        s.legal(&st, "black"),
        owned(&[mv("black", 0, 4), mv("black", 0, 1)])
    );
}

/// Notes (gap), found by an independent audit: black's pair on 13 and a
/// lone piece on 17 with rights pending, throw 4, 4. One piece of the pair
/// to 17 makes a pair there (rights won), and then the piece on 9 may join
/// the mate left on 13: a full use.
#[test]
fn gap_first_value_then_joining_the_mate_left_behind() {
    let s = base();
    let pieces = [
        ("black", 1, 13),
        ("black", 2, 13),
        ("black", 3, 17),
        ("black", 4, 9),
        ("blue", 1, 5),
        ("blue", 2, 5),
        ("blue", 3, 40),
    ];
    let extra = [
        "bonus",
        "control(black)",
        "rights(blue, won)",
        "rights(green, lost)",
        "rights(red, lost)",
        "throw(4, 4)",
    ];
    let st = state(&s, &pieces, &extra);
    // 17 -> 21 is blue's pair (its 5): barred; 9 -> 13 makes a third piece.
    assert_eq!(cell("black", 21), cell("blue", 5));
    assert_eq!(
        s.legal(&st, "black"),
        owned(&[mv("black", 13, 17), mv("black", 17, 25), mv("black", 9, 17)])
    );
    let half = s.play(&st, &[("black", &mv("black", 13, 17))]);
    assert!(s.facts(&half).contains(&"rights(black, won)".to_string()));
    assert_eq!(s.legal(&half, "black"), vec![mv("black", 9, 13)]);
}

/// Notes (gap), found by an independent audit: black's pair on 14, lone
/// pieces on 17 and 15, rights pending, throw 3, 1. One piece of the pair
/// to 17 wins rights, and then its mate may join the lone piece on 15 with
/// the 1: a full use (16 is red's pair, 18 green's).
#[test]
fn gap_first_value_then_the_mate_joins_a_lone_piece() {
    let s = base();
    let pieces = [
        ("black", 1, 14),
        ("black", 2, 14),
        ("black", 3, 17),
        ("black", 4, 15),
        ("green", 1, 34),
        ("green", 2, 34),
        ("green", 3, 20),
        ("red", 1, 48),
        ("red", 2, 48),
        ("red", 3, 20),
    ];
    let extra = [
        "control(black)",
        "rights(blue, lost)",
        "rights(green, won)",
        "rights(red, won)",
        "throw(3, 1)",
    ];
    let st = state(&s, &pieces, &extra);
    assert_eq!(cell("black", 16), cell("red", 48));
    assert_eq!(cell("black", 18), cell("green", 34));
    let mut legal = owned(&[
        mv("black", 14, 17),
        mv("black", 15, 19),
        mv("black", 17, 21),
    ]);
    legal.push(pair("black", 14));
    legal.sort();
    assert_eq!(s.legal(&st, "black"), legal);
    let half = s.play(&st, &[("black", &mv("black", 14, 17))]);
    assert_eq!(s.legal(&half, "black"), vec![mv("black", 14, 15)]);
}

/// Notes (gap): when no piece can play both values, nor the sum, either
/// value alone may be played, and the other is lost. Red at 20 and 78: the
/// 6 fits no piece (20 -> 26 is green's pair on its 10, 78 -> 84 overshoots
/// the centre), the sum 9 neither (blue's pair on 45), the 3 fits both.
#[test]
fn gap_only_one_value_can_be_used() {
    let s = base();
    let pieces = [
        ("red", 1, 20),
        ("red", 2, 78),
        ("green", 1, 10),
        ("green", 2, 10),
        ("blue", 3, 45),
        ("blue", 4, 45),
    ];
    assert_eq!(cell("red", 26), cell("green", 10));
    let extra = ["control(red)", "throw(6, 3)", "rights(red, lost)"];
    let st = state(&s, &pieces, &extra);
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[mv("red", 20, 23), mv("red", 78, 81)])
    );
    let home = s.play(&st, &[("red", &mv("red", 78, 81))]);
    let mut after = pieces;
    after[1].2 = 81;
    assert_eq!(
        s.facts(&home),
        facts(
            &after,
            &[
                "control(red)",
                "throw(6, 3)",
                "rights(red, lost)",
                "rest(6)",
                "moved(2)"
            ]
        )
    );
    assert_eq!(s.legal(&home, "red"), sorted(&["noop"]));
    let passed = s.play(&home, &[]);
    assert_eq!(
        s.facts(&passed),
        facts(&after, &["control(green)", "rights(red, lost)"])
    );
}

// ------------------------------------------------------------ seed rule 6

/// Seed 6: a doublet gives another turn, without limit; seed 7: not to a
/// player who has lost pair rights.
#[test]
fn seed6_doublet_gives_another_turn() {
    let s = base();
    let pieces = [("red", 1, 20), ("red", 2, 30)];
    let st = state(&s, &pieces, &["control(red)", "rights(red, won)"]);
    assert_eq!(s.chance(&st), pasa(&[1, 3, 4, 6]));
    let thrown = s.play(&st, &[("random", "pasa(3, 3)")]);
    assert_eq!(
        s.facts(&thrown),
        facts(
            &pieces,
            &[
                "control(red)",
                "rights(red, won)",
                "throw(3, 3)",
                "bonus",
                "throws(1)"
            ]
        )
    );
    let moved = s.play(&thrown, &[("red", &mv("red", 20, 26))]);
    assert_eq!(
        s.facts(&moved),
        facts(
            &[("red", 1, 26), ("red", 2, 30)],
            &["control(red)", "rights(red, won)", "throws(1)"]
        )
    );
    assert_eq!(s.chance(&moved), pasa(&[1, 3, 4, 6]));
    // Another doublet, another turn: no limit.
    let again = s.play(&moved, &[("random", "pasa(4, 4)")]);
    assert!(s.facts(&again).contains(&"bonus".to_string()));
    let moved = s.play(&again, &[("red", &mv("red", 26, 34))]);
    assert!(s.facts(&moved).contains(&"control(red)".to_string()));
    let third = s.play(&moved, &[("random", "pasa(1, 1)")]);
    assert!(s.facts(&third).contains(&"bonus".to_string()));

    // Rights lost: the doublet is just a throw.
    let st = state(&s, &pieces, &["control(red)", "rights(red, lost)"]);
    let thrown = s.play(&st, &[("random", "pasa(3, 3)")]);
    assert!(!s.facts(&thrown).contains(&"bonus".to_string()));
    let moved = s.play(&thrown, &[("red", &mv("red", 20, 26))]);
    assert!(s.facts(&moved).contains(&"control(green)".to_string()));
}

/// Notes (order): each turn without a doublet passes anticlockwise, black
/// to blue, blue to red, red to green, green to black.
#[test]
fn turn_order_black_blue_red_green() {
    let s = base();
    for (player, next) in [
        ("black", "blue"),
        ("blue", "red"),
        ("red", "green"),
        ("green", "black"),
    ] {
        let control = format!("control({player})");
        let st = state(&s, &[(player, 1, 20)], &[&control, "rights(red, won)"]);
        let thrown = s.play(&st, &[("random", "pasa(3, 1)")]);
        let moved = s.play(&thrown, &[(player, &mv(player, 20, 24))]);
        let want = format!("control({next})");
        assert!(
            s.facts(&moved).contains(&want),
            "{player}: {:?}",
            s.facts(&moved)
        );
    }
}

// ------------------------------------------------------------ seed rule 7

const RIGHTS_PIECES: [(&str, i32, i32); 4] =
    [("red", 1, 6), ("red", 2, 7), ("red", 3, 14), ("red", 4, 17)];

/// Seed 7: pair rights are won by a pair on block 17; while pending no pair
/// forms anywhere else.
#[test]
fn seed7_pair_rights_won_on_17_and_no_other_pair_while_pending() {
    let s = base();
    let st = state(&s, &RIGHTS_PIECES, &["control(red)", "throw(3, 1)"]);
    // 6 -> 7 would join the piece on 7: not while pending.
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[
            mv("red", 6, 9),
            mv("red", 6, 10),
            mv("red", 7, 10),
            mv("red", 7, 8),
            mv("red", 7, 11),
            mv("red", 14, 17),
            mv("red", 14, 15),
            mv("red", 14, 18),
            mv("red", 17, 20),
            mv("red", 17, 18),
            mv("red", 17, 21),
        ])
    );
    let won = s.play(&st, &[("red", &mv("red", 14, 17))]);
    assert_eq!(
        s.facts(&won),
        facts(
            &[("red", 1, 6), ("red", 2, 7), ("red", 3, 17), ("red", 4, 17)],
            &[
                "control(red)",
                "throw(3, 1)",
                "rest(1)",
                "moved(3)",
                "rights(red, won)"
            ]
        )
    );
    // With rights won, pairs form anywhere: 6 -> 7 joins the piece on 7.
    assert!(s.legal(&won, "red").contains(&mv("red", 6, 7)));
}

/// Seed 7 / notes: the start pair moving as one by 5 (a throw of 4 and 6)
/// lands on 17: rights won; by 6 (a throw of 6 and 6) beyond: rights lost.
#[test]
fn seed7_start_pair_moving_to_17_wins_rights() {
    let s = base();
    let pieces = [("red", 1, 6), ("red", 2, 7), ("red", 3, 12), ("red", 4, 12)];
    let st = state(&s, &pieces, &["control(red)", "throw(4, 6)"]);
    assert!(s.legal(&st, "red").contains(&pair("red", 12)));
    let won = s.play(&st, &[("red", &pair("red", 12))]);
    assert_eq!(
        s.facts(&won),
        facts(
            &[("red", 1, 6), ("red", 2, 7), ("red", 3, 17), ("red", 4, 17)],
            &[
                "control(green)",
                "rights(red, won)",
                "stale(red, 3)",
                "stale(red, 4)"
            ]
        )
    );
    let st = state(&s, &pieces, &["control(red)", "throw(6, 6)"]);
    let lost = s.play(&st, &[("red", &pair("red", 12))]);
    assert!(s.facts(&lost).contains(&"rights(red, lost)".to_string()));
}

/// Seed 7: a piece ending beyond 17 first loses pair rights: no own pieces
/// on one block any more, no pair moves, no doublet bonus (test above).
#[test]
fn seed7_pair_rights_lost_beyond_17() {
    let s = base();
    let st = state(&s, &RIGHTS_PIECES, &["control(red)", "throw(3, 1)"]);
    let lost = s.play(&st, &[("red", &mv("red", 17, 20))]);
    assert_eq!(
        s.facts(&lost),
        facts(
            &[("red", 1, 6), ("red", 2, 7), ("red", 3, 14), ("red", 4, 20)],
            &[
                "control(red)",
                "throw(3, 1)",
                "rest(1)",
                "moved(4)",
                "rights(red, lost)"
            ]
        )
    );
    // 6 -> 7 stays barred; the piece that moved may not move again.
    assert_eq!(
        s.legal(&lost, "red"),
        owned(&[mv("red", 7, 8), mv("red", 14, 15)])
    );
    // An existing pair (the start pair) may only split: no pair move.
    let st = state(
        &s,
        &[("red", 3, 12), ("red", 4, 12)],
        &["control(red)", "throw(1, 3)", "rights(red, lost)"],
    );
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[mv("red", 12, 13), mv("red", 12, 15), mv("red", 12, 16)])
    );
}

// ------------------------------------------------------------ seed rule 8

const LEAP_PIECES: [(&str, i32, i32); 3] = [("red", 1, 30), ("red", 2, 30), ("red", 3, 27)];

/// Seed 8: a pair that has moved as a pair may not move so again until an
/// own piece leaps over it; splitting stays allowed.
#[test]
fn seed8_stale_pair_cannot_move_until_leapt() {
    let s = base();
    let stale = [
        "control(red)",
        "throw(1, 3)",
        "rights(red, won)",
        "stale(red, 1)",
        "stale(red, 2)",
    ];
    let st = state(&s, &LEAP_PIECES, &stale);
    // No pair move; 27 -> 30 would make three on one block.
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[
            mv("red", 30, 31),
            mv("red", 30, 33),
            mv("red", 30, 34),
            mv("red", 27, 28),
            mv("red", 27, 31),
        ])
    );
    // Landing short of the pair does not leap it.
    let short = s.play(&st, &[("red", &mv("red", 27, 28))]);
    assert!(s.facts(&short).contains(&"stale(red, 1)".to_string()));
    // Passing it does: the pair is fresh again.
    let leapt = s.play(&st, &[("red", &mv("red", 27, 31))]);
    assert_eq!(
        s.facts(&leapt),
        facts(
            &[("red", 1, 30), ("red", 2, 30), ("red", 3, 31)],
            &["control(green)", "rights(red, won)"]
        )
    );
}

/// Seed 8 / 9: a fresh pair moves half an even sum as one and becomes stale.
#[test]
fn seed8_seed9_fresh_pair_moves_and_becomes_stale() {
    let s = base();
    let st = state(
        &s,
        &LEAP_PIECES,
        &["control(red)", "throw(1, 3)", "rights(red, won)"],
    );
    let mut legal = vec![
        mv("red", 30, 31),
        mv("red", 30, 33),
        mv("red", 30, 34),
        mv("red", 27, 28),
        mv("red", 27, 31),
        pair("red", 30),
    ];
    legal.sort();
    assert_eq!(s.legal(&st, "red"), legal);
    let moved = s.play(&st, &[("red", &pair("red", 30))]);
    assert_eq!(
        s.facts(&moved),
        facts(
            &[("red", 1, 32), ("red", 2, 32), ("red", 3, 27)],
            &[
                "control(green)",
                "rights(red, won)",
                "stale(red, 1)",
                "stale(red, 2)"
            ]
        )
    );
}

// ------------------------------------------------------------ seed rule 9

/// Seed 9: pieces standing as a pair move only on an even sum.
#[test]
fn seed9_pairs_move_only_on_even_sums() {
    let s = base();
    let pieces = [("red", 1, 30), ("red", 2, 30), ("red", 3, 20)];
    let st = state(
        &s,
        &pieces,
        &["control(red)", "throw(6, 3)", "rights(red, won)"],
    );
    // 9 is odd: the pair is stuck, so the single takes the whole sum.
    assert_eq!(s.legal(&st, "red"), vec![mv("red", 20, 29)]);
    let st = state(
        &s,
        &pieces,
        &["control(red)", "throw(3, 3)", "rights(red, won)"],
    );
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[
            mv("red", 30, 33),
            mv("red", 30, 36),
            mv("red", 20, 23),
            mv("red", 20, 26),
            pair("red", 30),
        ])
    );
}

// ----------------------------------------------------------- seed rule 10

/// Seed 10: landing on an opponent's single hits it to the zero mark.
#[test]
fn seed10_hit_sends_to_the_zero_mark() {
    let s = base();
    // Red's 23 is blue's 39 (arm C, block 7).
    assert_eq!(cell("red", 23), cell("blue", 39));
    let st = state(
        &s,
        &[("red", 1, 20), ("red", 2, 40), ("blue", 1, 39)],
        &["control(red)", "throw(3, 1)", "rights(red, lost)"],
    );
    let after = s.play(&st, &[("red", &mv("red", 20, 23))]);
    assert_eq!(
        s.facts(&after),
        facts(
            &[("red", 1, 23), ("red", 2, 40), ("blue", 1, 0)],
            &[
                "control(red)",
                "throw(3, 1)",
                "rights(red, lost)",
                "rest(1)",
                "moved(1)"
            ]
        )
    );
}

/// Seed 10: while a piece is on the zero mark no other piece moves; the
/// piece re-enters with any value; after it, the rest are free again.
#[test]
fn seed10_zero_mark_piece_moves_first() {
    let s = base();
    let extra = ["control(blue)", "throw(6, 3)", "rights(blue, lost)"];
    let st = state(&s, &[("blue", 1, 0), ("blue", 2, 30)], &extra);
    assert_eq!(
        s.legal(&st, "blue"),
        owned(&[mv("blue", 0, 6), mv("blue", 0, 3), mv("blue", 0, 9)])
    );
    let entered = s.play(&st, &[("blue", &mv("blue", 0, 6))]);
    assert_eq!(s.legal(&entered, "blue"), vec![mv("blue", 30, 33)]);

    // Two on the zero mark: both values go to them.
    let st = state(
        &s,
        &[("blue", 1, 0), ("blue", 2, 0), ("blue", 3, 30)],
        &extra,
    );
    assert_eq!(
        s.legal(&st, "blue"),
        owned(&[mv("blue", 0, 6), mv("blue", 0, 3), mv("blue", 0, 9)])
    );
    let entered = s.play(&st, &[("blue", &mv("blue", 0, 6))]);
    assert_eq!(
        s.facts(&entered),
        facts(
            &[("blue", 1, 6), ("blue", 2, 0), ("blue", 3, 30)],
            &[
                "control(blue)",
                "throw(6, 3)",
                "rights(blue, lost)",
                "rest(3)",
                "moved(1)"
            ]
        )
    );
    assert_eq!(s.legal(&entered, "blue"), vec![mv("blue", 0, 3)]);
}

/// Notes (gaps): the kit's crosses (blocks 5 and 12) are no safe squares in
/// this game, and partners hit each other like anyone (seed 14: "no other
/// relationship").
#[test]
fn gap_partners_hit_each_other_and_no_safe_squares() {
    let s = base();
    // Red's 12 (sq(10, 3), a cross) is black's 44 (arm D, block 12).
    assert_eq!(cell("red", 12), "sq(10, 3)");
    assert_eq!(cell("red", 12), cell("black", 44));
    let st = state(
        &s,
        &[("red", 1, 9), ("red", 2, 30), ("black", 1, 44)],
        &["control(red)", "throw(3, 1)", "rights(red, lost)"],
    );
    assert!(s.legal(&st, "red").contains(&mv("red", 9, 12)));
    let hit = s.play(&st, &[("red", &mv("red", 9, 12))]);
    assert_eq!(
        s.facts(&hit),
        facts(
            &[("red", 1, 12), ("red", 2, 30), ("black", 1, 0)],
            &[
                "control(red)",
                "throw(3, 1)",
                "rights(red, lost)",
                "rest(1)",
                "moved(1)"
            ]
        )
    );
}

// ----------------------------------------------------------- seed rule 11

/// Seed 11: a single may not land on an opponent's pair; a pair moving as
/// one hits a pair, both pieces to the zero mark.
#[test]
fn seed11_single_cannot_hit_a_pair_pair_can() {
    let s = base();
    // Red's 23 is blue's 39: a blue pair there.
    let pieces = [
        ("red", 1, 20),
        ("red", 2, 20),
        ("blue", 1, 39),
        ("blue", 2, 39),
    ];
    let st = state(
        &s,
        &pieces,
        &["control(red)", "throw(3, 3)", "rights(red, won)"],
    );
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[mv("red", 20, 26), pair("red", 20)])
    );
    let hit = s.play(&st, &[("red", &pair("red", 20))]);
    assert_eq!(
        s.facts(&hit),
        facts(
            &[
                ("red", 1, 23),
                ("red", 2, 23),
                ("blue", 1, 0),
                ("blue", 2, 0)
            ],
            &[
                "control(green)",
                "rights(red, won)",
                "stale(red, 1)",
                "stale(red, 2)"
            ]
        )
    );
}

// ----------------------------------------------------------- seed rule 12

/// Seed 12: of two pairs of one player the more advanced is the true pair;
/// a single may hit the false pair (both pieces) but not the true one.
#[test]
fn seed12_single_hits_the_false_pair_not_the_true_one() {
    let s = base();
    // Red's 23 and 29 are blue's 39 (false pair) and 45 (true pair).
    assert_eq!(cell("red", 29), cell("blue", 45));
    let pieces = [
        ("red", 1, 20),
        ("blue", 1, 39),
        ("blue", 2, 39),
        ("blue", 3, 45),
        ("blue", 4, 45),
    ];
    let st = state(
        &s,
        &pieces,
        &["control(red)", "throw(3, 6)", "rights(red, lost)"],
    );
    // The sum (29) would hit the true pair: barred; so one value only.
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[mv("red", 20, 23), mv("red", 20, 26)])
    );
    let hit = s.play(&st, &[("red", &mv("red", 20, 23))]);
    assert_eq!(
        s.facts(&hit),
        facts(
            &[
                ("red", 1, 23),
                ("blue", 1, 0),
                ("blue", 2, 0),
                ("blue", 3, 45),
                ("blue", 4, 45)
            ],
            &[
                "control(red)",
                "throw(3, 6)",
                "rights(red, lost)",
                "rest(6)",
                "moved(1)"
            ]
        )
    );
    // With one pair only, it is no false pair: the single may not hit it.
    let st = state(
        &s,
        &[("red", 1, 20), ("blue", 1, 39), ("blue", 2, 39)],
        &["control(red)", "throw(3, 6)", "rights(red, lost)"],
    );
    assert_eq!(s.legal(&st, "red"), vec![mv("red", 20, 29)]);
}

// ----------------------------------------------------------- seed rule 13

/// Seed 13 / notes: the coloured column leads to the centre, reached only by
/// the exact count; a value that cannot follow is not forced on the throw.
#[test]
fn seed13_coloured_column_and_exact_count_home() {
    let s = base();
    let st = state(
        &s,
        &[("red", 1, 70), ("red", 2, 79)],
        &["control(red)", "throw(3, 1)", "rights(red, lost)"],
    );
    // 70 -> 71 (the 1) would leave the 3 to 79, beyond the centre.
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[mv("red", 70, 73), mv("red", 70, 74), mv("red", 79, 80)])
    );
    assert_eq!(cell("red", 73), "sq(9, 0)");
    let home = s.play(&st, &[("red", &mv("red", 79, 80))]);
    let home = s.play(&home, &[("red", &mv("red", 70, 73))]);
    let st = state(
        &s,
        &[("red", 1, 73), ("red", 2, 80)],
        &["control(red)", "throw(1, 3)", "rights(red, lost)"],
    );
    assert!(
        s.legal(&st, "red")
            .contains(&"move(sq(9, 7), home)".to_string())
    );
    assert!(s.facts(&home).contains(&at("red", 2, 80)));
}

// ----------------------------------------------------------- seed rule 14

/// Seed 14: the player who brings its fourth piece home misses four turns.
#[test]
fn seed14_finishing_then_four_missed_turns() {
    let s = base();
    let st = state(
        &s,
        &[("red", 1, 80)],
        &["control(red)", "throw(1, 3)", "rights(red, lost)"],
    );
    assert_eq!(s.legal(&st, "red"), vec![mv("red", 80, 81)]);
    let done = s.play(&st, &[("red", &mv("red", 80, 81))]);
    assert_eq!(
        s.facts(&done),
        facts(
            &[],
            &[
                "control(green)",
                "rights(red, lost)",
                "finished(red, 1)",
                "skips(red, 4)"
            ]
        )
    );
    // A missed turn: nobody throws or moves; the count goes down.
    let missed = state(
        &s,
        &[("black", 1, 30)],
        &["control(red)", "finished(red, 1)", "skips(red, 4)"],
    );
    assert_eq!(s.chance(&missed), vec![("noop".to_string(), 1)]);
    others_pass(&s, &missed, "");
    let next = s.play(&missed, &[]);
    assert_eq!(
        s.facts(&next),
        facts(
            &[("black", 1, 30)],
            &["control(green)", "finished(red, 1)", "skips(red, 3)"]
        )
    );
    let last = state(
        &s,
        &[("black", 1, 30)],
        &["control(red)", "finished(red, 1)", "skips(red, 1)"],
    );
    assert_eq!(
        s.facts(&s.play(&last, &[])),
        facts(&[("black", 1, 30)], &["control(green)", "finished(red, 1)"])
    );
}

/// Seed 14: from the fifth turn on the finished player throws for its
/// partner, who plays the throw with its own pieces; no bonus on a donated
/// doublet; with the partner finished too the turn is missed.
#[test]
fn seed14_donated_throws_go_to_the_partner() {
    let s = base();
    let st = state(
        &s,
        &[("black", 1, 30), ("black", 2, 40)],
        &["control(red)", "finished(red, 1)", "rights(black, won)"],
    );
    assert_eq!(s.chance(&st), pasa(&[1, 3, 4, 6]));
    let thrown = s.play(&st, &[("random", "pasa(3, 3)")]);
    assert!(!s.facts(&thrown).contains(&"bonus".to_string()));
    assert_eq!(
        s.legal(&thrown, "black"),
        owned(&[
            mv("black", 30, 33),
            mv("black", 30, 36),
            mv("black", 40, 43),
            mv("black", 40, 46),
        ])
    );
    others_pass(&s, &thrown, "black");
    let played = s.play(&thrown, &[("black", &mv("black", 30, 36))]);
    assert_eq!(
        s.facts(&played),
        facts(
            &[("black", 1, 36), ("black", 2, 40)],
            &[
                "control(green)",
                "finished(red, 1)",
                "rights(black, won)",
                "throws(1)"
            ]
        )
    );
    let both = state(
        &s,
        &[("blue", 1, 30)],
        &["control(red)", "finished(red, 1)", "finished(black, 2)"],
    );
    assert_eq!(s.chance(&both), vec![("noop".to_string(), 1)]);
    assert!(
        s.facts(&s.play(&both, &[]))
            .contains(&"control(green)".to_string())
    );
}

// ----------------------------------------------------------- seed rule 15

fn result(black: i64, blue: i64, red: i64, green: i64) -> Vec<(String, Option<i64>)> {
    vec![
        ("black".to_string(), Some(black)),
        ("blue".to_string(), Some(blue)),
        ("red".to_string(), Some(red)),
        ("green".to_string(), Some(green)),
        ("random".to_string(), None),
    ]
}

/// Seed 15: the game ends when the third player finishes; places 100, 67,
/// 33 and 0 (notes).
#[test]
fn seed15_full_ranking_when_the_third_finishes() {
    let s = base();
    let st = state(
        &s,
        &[("green", 1, 80), ("black", 1, 30)],
        &[
            "control(green)",
            "throw(1, 3)",
            "finished(red, 1)",
            "finished(blue, 2)",
            "rights(green, lost)",
        ],
    );
    assert!(!s.is_terminal(&st));
    let end = s.play(&st, &[("green", &mv("green", 80, 81))]);
    assert!(s.is_terminal(&end));
    assert_eq!(s.goals(&end), result(0, 67, 100, 33));
}

/// Notes (gap): at the throw cap the unfinished are placed after the
/// finished by total progress; equal progress, equal place.
#[test]
fn gap_throw_cap_ranks_the_unfinished_by_progress() {
    let s = Scenario::open(BASE, &[("cap", "150")]);
    let pieces = [
        ("black", 1, 10),
        ("black", 2, 20),
        ("black", 3, 30),
        ("black", 4, 40),
        ("blue", 1, 40),
        ("blue", 2, 50),
        ("blue", 3, 52),
        ("blue", 4, 58),
        ("green", 1, 30),
        ("green", 2, 30),
        ("green", 3, 37),
        ("green", 4, 53),
    ];
    let capped = state(
        &s,
        &pieces,
        &["control(black)", "finished(red, 1)", "throws(150)"],
    );
    assert!(s.is_terminal(&capped));
    // Progress: black 100, blue 200, green 150.
    assert_eq!(s.goals(&capped), result(0, 67, 100, 33));
    let before = state(
        &s,
        &pieces,
        &["control(black)", "finished(red, 1)", "throws(149)"],
    );
    assert!(!s.is_terminal(&before));
    let thrown = s.play(&before, &[("random", "pasa(1, 1)")]);
    assert!(s.facts(&thrown).contains(&"throws(150)".to_string()));
    assert!(!s.is_terminal(&thrown), "a throw in hand is played out");
    // Ties share the better place.
    let tied = [
        ("black", 1, 37),
        ("black", 2, 30),
        ("black", 3, 30),
        ("black", 4, 53),
        ("blue", 1, 10),
        ("blue", 2, 11),
        ("blue", 3, 12),
        ("blue", 4, 13),
        ("green", 1, 30),
        ("green", 2, 30),
        ("green", 3, 37),
        ("green", 4, 53),
    ];
    let st = state(&s, &tied, &["control(black)", "throws(150)"]);
    // Red (all home, unrecorded) 324, black = green 150, blue 46.
    assert_eq!(s.goals(&st), result(67, 0, 100, 67));
}

// ------------------------------------------------------------ the drawing

/// The board as `play` and the REPL draw it: the cross with its four arms,
/// the coloured columns in their own brackets, each player's zero mark in
/// the corner beside its block 1 and its pieces home beside its column in
/// the centre block; in colour, each player's pieces and column in its
/// colour.
#[test]
fn board_drawing_zero_marks_home_and_colours() {
    let s = base();
    let pieces = [
        ("black", 1, 0),
        ("black", 2, 0),
        ("black", 3, 75),
        ("blue", 1, 17),
        ("blue", 2, 17),
        ("red", 1, 0),
        ("red", 2, 2),
        ("red", 3, 30),
        ("red", 4, 30),
        ("green", 1, 64),
    ];
    let st = state(&s, &pieces, &["control(red)", "rights(blue, won)"]);
    let plain = tabula::render::state(&s.game, &st, tabula::render::Style::default());
    let golden = std::fs::read_to_string("tests/play/chaupar_board.txt").expect("golden board");
    assert_eq!(plain, golden);
    let style = tabula::render::Style {
        color: true,
        compact: false,
    };
    let coloured = tabula::render::state(&s.game, &st, style);
    for (glyph, escape) in [
        ("K2", "1;90"),
        ("B2", "1;34"),
        ("R", "1;31"),
        ("G3", "1;32"),
    ] {
        let painted = format!("\x1b[{escape}m{glyph}\x1b[0m");
        assert!(coloured.contains(&painted), "{glyph} in {coloured}");
    }
    for (bracket, escape) in [('<', "1;90"), ('(', "1;34"), ('[', "1;31"), ('{', "1;32")] {
        let painted = format!("\x1b[{escape}m{bracket}\x1b[0m");
        assert!(coloured.contains(&painted), "{bracket} in {coloured}");
    }
}

/// The drawing in play: two seeded steps of `tabula play` (golden).
#[test]
fn board_drawing_in_play() {
    session("play", "chaupar_seeded");
}

/// Bad input in the REPL: a move that is not legal is refused with the
/// legal moves of the opening throw 3, 4 and changes nothing; the legal one
/// then leaves the 4 for the 7 alone (golden).
#[test]
fn bad_input_repl_refuses_illegal_move() {
    session("repl/sessions", "shipped_chaupar");
}

// ---------------------------------------------------------------- variant

/// Variant: pasa with faces 1, 2, 5, 6 (the classical set).
#[test]
fn variant_1256_pasa() {
    let s = Scenario::open(PASA_1256, &[]);
    assert_eq!(s.chance(&s.initial()), pasa(&[1, 2, 5, 6]));
    let st = state(
        &s,
        &[("red", 1, 20), ("red", 2, 30)],
        &["control(red)", "throw(2, 5)", "rights(red, lost)"],
    );
    assert_eq!(
        s.legal(&st, "red"),
        owned(&[
            mv("red", 20, 22),
            mv("red", 20, 25),
            mv("red", 20, 27),
            mv("red", 30, 32),
            mv("red", 30, 35),
            mv("red", 30, 37),
        ])
    );
}

// -------------------------------------------------------------- bad input

/// `tabula play --agent black=human`: a move that is not legal is refused
/// with the legal moves and asked again; the next, legal one is played.
#[test]
fn bad_input_play_refuses_illegal_move() {
    let (out, err, code) = run(
        &[
            "play",
            BASE,
            "--agent",
            "black=human",
            "--agent",
            "blue=first",
            "--agent",
            "red=first",
            "--agent",
            "green=first",
            "--seed",
            "1",
            "--max-steps",
            "2",
        ],
        "move(zero, centre)\nmove(sq(10, 17), sq(8, 13))\n",
    );
    assert_eq!(
        err,
        "error: `move(zero, centre)` is not a legal move of black; legal: \
         move(sq(10, 17), sq(8, 14)), move(sq(10, 16), sq(8, 14)), \
         move(sq(10, 17), sq(8, 13))\n"
    );
    assert_eq!(code, 0);
    assert!(out.contains("1. black=noop blue=noop red=noop green=noop random=pasa(6, 1)\n"));
    assert!(out.contains("black> move(zero, centre)\nblack> move(sq(10, 17), sq(8, 13))\n"));
    assert!(out.contains("2. black=move(sq(10, 17), sq(8, 13)) blue=noop red=noop green=noop"));
    assert!(out.ends_with("stopped after 2 steps (--max-steps)\n"));
}

// ----------------------------------------------------------------- sanity

/// Observed pasa throws in seeded random playouts: each of the 16 ordered
/// pairs within 1 percentage point of 1/16, doublets near 4/16.
#[test]
fn observed_pasa_frequencies() {
    let s = base();
    let (counts, total) = draws_of(&chance_draws(&s.game, 12, 7), "pasa(");
    let mut doublets = 0;
    for (mv, _) in pasa(&[1, 3, 4, 6]) {
        let n = counts.get(&mv).copied().unwrap_or(0);
        let observed = n as f64 / total as f64;
        println!("{mv}: observed {observed:.4} declared 0.0625 ({total} throws)");
        assert!((observed - 0.0625).abs() < 0.01, "{mv}: {observed}");
        let faces: Vec<&str> = mv[5..mv.len() - 1].split(", ").collect();
        if faces[0] == faces[1] {
            doublets += n;
        }
    }
    let share = doublets as f64 / total as f64;
    println!("doublets: observed {share:.4} declared 0.2500");
    assert!((share - 0.25).abs() < 0.02);
}

// ------------------------------------------- full use, checked by playing

/// The facts of a state that start with `prefix`.
fn facts_with(s: &Scenario, st: &State, prefix: &str) -> Vec<String> {
    s.facts(st)
        .into_iter()
        .filter(|f| f.starts_with(prefix))
        .collect()
}

/// A term in the game's syntax (a move, or a pattern with variables).
fn parse(s: &Scenario, text: &str) -> Term {
    let mut sources = SourceMap::default();
    let file = sources.add("<test>", text);
    let mut symbols = s.game.symbols.clone();
    syntax::parse_term(&sources, file, s.game.syntax, &mut symbols)
        .unwrap_or_else(|d| panic!("`{text}`: {}", d.message))
}

/// The progress of `role`'s piece on the cell `mover`'s progress `p` is on
/// (a block of the loop), if it has one.
fn same_block(role: &str, mover: &str, p: i32) -> Option<i32> {
    (1..=64).find(|&q| cell(role, q) == cell(mover, p))
}

/// A random position where `mover` is to play a throw's first value: its
/// four pieces close together (so that they meet, pair, block and take
/// each other's laps), sometimes on the zero mark, opponents' pairs and
/// lone pieces around them, random pair rights and a random throw.
fn crowded_position(rng: &mut Xoshiro256PlusPlus, faces: &[i32]) -> (String, Vec<String>) {
    let mover = ROLES[rng.random_range(0..4)];
    let base = rng.random_range(0..72);
    let mut pieces: Vec<(&str, i32, i32)> = Vec::new();
    let mut count = std::collections::HashMap::new();
    for i in 1..=4 {
        let p = match rng.random_range(0..10) {
            0 => 0,
            1 => 81,
            _ => (base + rng.random_range(0..12)).min(80),
        };
        // At most two own pieces a block, never on both laps of one.
        let twin = if (1..=8).contains(&p) {
            p + 64
        } else if (65..=72).contains(&p) {
            p - 64
        } else {
            -1
        };
        let here = *count.get(&p).unwrap_or(&0);
        let p = if p != 0 && p != 81 && (here >= 2 || count.contains_key(&twin)) {
            81
        } else {
            p
        };
        *count.entry(p).or_insert(0) += 1;
        pieces.push((mover, i, p));
    }
    for role in ROLES.iter().filter(|r| **r != mover) {
        let mut i = 1;
        while i <= 4 {
            let at = (base + rng.random_range(0..18)).min(64);
            match (rng.random_range(0..3), same_block(role, mover, at)) {
                (0, Some(q)) if i <= 3 => {
                    pieces.push((role, i, q));
                    pieces.push((role, i + 1, q));
                    i += 2;
                }
                (1, Some(q)) => {
                    pieces.push((role, i, q));
                    i += 1;
                }
                _ => {
                    pieces.push((role, i, 81));
                    i += 1;
                }
            }
        }
    }
    let mut extra = vec![format!("control({mover})")];
    let (a, b) = (faces[rng.random_range(0..4)], faces[rng.random_range(0..4)]);
    extra.push(format!("throw({a}, {b})"));
    for role in ROLES {
        match rng.random_range(0..3) {
            0 => extra.push(format!("rights({role}, won)")),
            1 => extra.push(format!("rights({role}, lost)")),
            _ => {}
        }
    }
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    (mover.to_string(), facts(&pieces, &extra))
}

/// Notes, "use as much of the throw as is legal", checked against the
/// game's own second half of a split, in seeded random crowded positions:
/// each move one value allows (`face_to`) is played, and it is a full use
/// when the mover then has a move with the value left. The legal
/// one-value moves must be exactly the full ones, or all of them when no
/// full use exists (no full one-value move, no sum, no pair move).
fn full_use_is_exact(path: &str, faces: &[i32]) {
    let s = Scenario::open(path, &[]);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let mut full_somewhere = 0;
    for _ in 0..400 {
        let (mover, facts) = crowded_position(&mut rng, faces);
        let refs: Vec<&str> = facts.iter().map(String::as_str).collect();
        let st = s.state(&refs);
        full_somewhere += usize::from(check_full_use(&s, &st, &mover));
    }
    assert!(
        full_somewhere > 100,
        "{path}: {full_somewhere} positions with a full use"
    );
}

/// Checks one position; true when some one-value move was a full use.
fn check_full_use(s: &Scenario, st: &State, role: &str) -> bool {
    let game = &s.game;
    let r = ROLES.iter().position(|x| *x == role).unwrap();
    let mut m = game.machine();
    m.set_state(st);
    let singles = m.query_shown(&parse(s, "face_to(P, V, T)")).expect("query");
    let shown = |m: &tabula::engine::Machine| -> Vec<String> {
        let mut v: Vec<String> = m.legal(r).iter().map(|&x| game.show_move(r, x)).collect();
        v.sort();
        v
    };
    let legal = shown(&m);
    let noops: Vec<u32> = (0..game.role_count()).map(|k| m.legal(k)[0]).collect();
    let mut after_machine = game.machine();
    let (mut all, mut full) = (Vec::new(), Vec::new());
    for atom in &singles {
        let n: Vec<i32> = atom["face_to(".len()..atom.len() - 1]
            .split(", ")
            .map(|x| x.parse().unwrap())
            .collect();
        let text = mv(role, n[0], n[2]);
        let id = game.term_id(&parse(s, &text)).expect("a ground move");
        let mut joint = noops.clone();
        joint[r] = game.find_move(r, id).expect("a move of the mover");
        let after = m.next(&joint).expect("a next state");
        m.set_state(st);
        after_machine.set_state(&after);
        if !facts_with(s, &after, "rest(").is_empty() && shown(&after_machine) != ["noop"] {
            full.push(text.clone());
        }
        all.push(text);
    }
    all.sort();
    all.dedup();
    full.sort();
    full.dedup();
    // A legal move that no single value makes is the sum or a pair move.
    let two_value_use = legal.iter().any(|l| !all.contains(l));
    let any_full = !full.is_empty();
    let expected = if !any_full && !two_value_use {
        all.clone()
    } else {
        full
    };
    let got: Vec<String> = legal.into_iter().filter(|l| all.contains(l)).collect();
    assert_eq!(got, expected, "{role} in {:?}", s.facts(st));
    any_full
}

#[test]
fn gap_full_use_agrees_with_playing_both_values() {
    full_use_is_exact(BASE, &[1, 3, 4, 6]);
}

#[test]
fn gap_full_use_agrees_with_playing_both_values_1256() {
    full_use_is_exact(PASA_1256, &[1, 2, 5, 6]);
}
