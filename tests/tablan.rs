//! Scenario tests for games/tablan.rules and its variants: one named position
//! per seed rule (and per gap the notes resolve), the exact legal moves of
//! the role to move there and the exact state after a chosen move.
//!
//! Cells are sq(Column, Row), rows A..D = 1..4. Track indices (notes):
//! yellow A1..A12 = 0..11, B12..B1 = 12..23, C1..C12 = 24..35, D12..D1 =
//! 36..47; green D12..D1 = 0..11, C1..C12 = 12..23, B12..B1 = 24..35,
//! A1..A12 = 36..47.

mod common;
use common::*;

const BASE: &str = "games/tablan.rules";
const D6: &str = "games/variants/tablan_d6.rules";
const ENTRY_TWO: &str = "games/variants/tablan_entry_two.rules";

fn base() -> Scenario {
    Scenario::open(BASE, &[])
}

/// The given facts plus a throw counter at zero.
fn with_count<'a>(facts: &[&'a str]) -> Vec<&'a str> {
    let mut v = facts.to_vec();
    v.push("throws(0)");
    v
}

fn goals(s: &Scenario, st: &tabula::engine::State) -> Vec<(String, Option<i64>)> {
    s.goals(st)
}

fn result(yellow: i64, green: i64) -> Vec<(String, Option<i64>)> {
    vec![
        ("yellow".to_string(), Some(yellow)),
        ("green".to_string(), Some(green)),
        ("random".to_string(), None),
    ]
}

const STICKS: [(&str, u64); 4] = [
    ("sticks(0)", 10),
    ("sticks(12)", 1),
    ("sticks(2)", 4),
    ("sticks(8)", 1),
];

fn sticks() -> Vec<(String, u64)> {
    STICKS.iter().map(|(m, w)| (m.to_string(), *w)).collect()
}

// ------------------------------------------------------------ seed rule 1

/// Seed 1: 12 yellow pieces on A1..A12, 12 green on D1..D12; the first
/// player is drawn fairly (notes: the seed is silent).
#[test]
fn seed1_start_position_and_fair_first_player() {
    let s = base();
    let init = s.initial();
    let mut expected: Vec<String> = (1..=12)
        .flat_map(|x| {
            [
                format!("at(sq({x}, 1), yellow)"),
                format!("at(sq({x}, 4), green)"),
            ]
        })
        .collect();
    expected.extend(["control(yellow)", "toss", "throws(0)"].map(String::from));
    expected.sort();
    assert_eq!(s.facts(&init), expected);
    assert!(!s.is_terminal(&init));
    assert_eq!(s.legal(&init, "yellow"), sorted(&["noop"]));
    assert_eq!(s.legal(&init, "green"), sorted(&["noop"]));
    assert_eq!(
        s.chance(&init),
        vec![
            ("first(green)".to_string(), 1),
            ("first(yellow)".to_string(), 1)
        ]
    );

    // Green drawn: green takes control; the toss is no stick throw.
    let after = s.play(&init, &[("random", "first(green)")]);
    let mut expected_after: Vec<String> = expected
        .iter()
        .filter(|f| *f != "toss" && *f != "control(yellow)")
        .cloned()
        .collect();
    expected_after.push("control(green)".to_string());
    expected_after.sort();
    assert_eq!(s.facts(&after), expected_after);
    assert_eq!(s.chance(&after), sticks());

    // Yellow drawn: yellow keeps control.
    let after = s.play(&init, &[("random", "first(yellow)")]);
    let kept: Vec<String> = expected.iter().filter(|f| *f != "toss").cloned().collect();
    assert_eq!(s.facts(&after), kept);
    assert_eq!(s.chance(&after), sticks());
}

// ------------------------------------------------------------ seed rule 2

/// Seed 2: yellow runs A1->A12, B12->B1, C1->C12, D12->D1.
#[test]
fn seed2_yellow_track_turns_at_row_ends() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(12, 1), yellow)", // index 11
        "at(sq(1, 2), yellow)",  // index 23
        "at(sq(12, 3), yellow)", // index 35
        "at(sq(6, 4), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&[
            "move(sq(12, 1), sq(11, 2))",
            "move(sq(1, 2), sq(2, 3))",
            "move(sq(12, 3), sq(11, 4))",
            "half(sq(12, 1), sq(12, 2))",
            "half(sq(1, 2), sq(1, 3))",
            "half(sq(12, 3), sq(12, 4))",
        ])
    );
    assert_eq!(s.legal(&p, "green"), sorted(&["noop"]));
    let after = s.play(&p, &[("yellow", "move(sq(1, 2), sq(2, 3))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(12, 1), yellow)",
            "at(sq(2, 3), yellow)",
            "at(sq(12, 3), yellow)",
            "at(sq(6, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
}

/// Seed 2: green runs D12->D1, C1->C12, B12->B1, A1->A12.
#[test]
fn seed2_green_track_turns_at_row_ends() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 4), green)",  // index 11
        "at(sq(12, 3), green)", // index 23
        "at(sq(1, 2), green)",  // index 35
        "at(sq(6, 1), yellow)",
        "control(green)",
        "thrown(2)",
    ]));
    assert_eq!(
        s.legal(&p, "green"),
        sorted(&[
            "move(sq(1, 4), sq(2, 3))",
            "move(sq(12, 3), sq(11, 2))",
            "move(sq(1, 2), sq(2, 1))",
            "half(sq(1, 4), sq(1, 3))",
            "half(sq(12, 3), sq(12, 2))",
            "half(sq(1, 2), sq(1, 1))",
        ])
    );
    assert_eq!(s.legal(&p, "yellow"), sorted(&["noop"]));
    let after = s.play(&p, &[("green", "move(sq(1, 2), sq(2, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(1, 4), green)",
            "at(sq(12, 3), green)",
            "at(sq(2, 1), green)",
            "at(sq(6, 1), yellow)",
            "control(green)",
            "throws(0)",
        ])
    );
}

// ------------------------------------------------------------ seed rule 3

/// Seed 3 / notes: four sticks, 2 (4/16), 8 (1/16), 12 (1/16), nothing
/// (10/16); a scoring throw is kept for the move and counted.
#[test]
fn seed3_stick_throw_distribution_and_scoring_throw() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
    ]));
    assert_eq!(s.chance(&p), sticks());
    assert_eq!(s.legal(&p, "yellow"), sorted(&["noop"]));
    assert_eq!(s.legal(&p, "green"), sorted(&["noop"]));
    let after = s.play(&p, &[("random", "sticks(8)")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "thrown(8)",
            "throws(1)",
        ])
    );
    // While a throw waits, nature does not throw.
    assert_eq!(s.chance(&after), vec![("noop".to_string(), 1)]);
}

/// Notes: a throw of nothing ends the turn.
#[test]
fn seed3_null_throw_passes_the_turn() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
    ]));
    let after = s.play(&p, &[("random", "sticks(0)")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(green)",
            "throws(1)",
        ])
    );
}

/// Notes: after a scoring throw is used, the same player throws again.
#[test]
fn seed3_scoring_throw_gives_another_throw() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(12)",
    ]));
    // A lone piece must use the full value (the half 0 -> 6 is not allowed).
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&["move(sq(1, 1), sq(12, 2))"])
    );
    let after = s.play(&p, &[("yellow", "move(sq(1, 1), sq(12, 2))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(12, 2), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    assert_eq!(s.chance(&after), sticks());
}

/// Seed 3: an even value moves one piece its full length or two different
/// pieces half each, one after the other; the piece that made the first half
/// cannot make the second.
#[test]
fn seed3_split_into_two_different_pieces() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",  // index 0
        "at(sq(5, 1), yellow)",  // index 4
        "at(sq(11, 2), yellow)", // index 13
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(8)",
    ]));
    // Full 8: 0->8, 4->12, 13->21. Half 4: 4->8, 13->17 (0->4 is blocked by
    // the own piece on 4 until it has moved).
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&[
            "move(sq(1, 1), sq(9, 1))",
            "move(sq(5, 1), sq(12, 2))",
            "move(sq(11, 2), sq(3, 2))",
            "half(sq(5, 1), sq(9, 1))",
            "half(sq(11, 2), sq(7, 2))",
        ])
    );
    let mid = s.play(&p, &[("yellow", "half(sq(5, 1), sq(9, 1))")]);
    assert_eq!(
        s.facts(&mid),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(9, 1), yellow)",
            "at(sq(11, 2), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "pending(8)",
            "first_half(sq(9, 1))",
            "throws(0)",
        ])
    );
    assert_eq!(s.chance(&mid), vec![("noop".to_string(), 1)]);
    // Second half: not the piece on sq(9, 1) (8->12 would be free).
    assert_eq!(
        s.legal(&mid, "yellow"),
        sorted(&["half(sq(1, 1), sq(5, 1))", "half(sq(11, 2), sq(7, 2))"])
    );
    let after = s.play(&mid, &[("yellow", "half(sq(1, 1), sq(5, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(5, 1), yellow)",
            "at(sq(9, 1), yellow)",
            "at(sq(11, 2), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
}

/// Seed 3: two pieces H apart split H + H: the front piece moves first, the
/// one behind takes its cell; a lone half stepper may start a split then.
#[test]
fn seed3_split_with_the_piece_behind() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)", // index 0
        "at(sq(5, 1), yellow)", // index 4
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(8)",
    ]));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&[
            "move(sq(1, 1), sq(9, 1))",
            "move(sq(5, 1), sq(12, 2))",
            "half(sq(5, 1), sq(9, 1))",
        ])
    );
    let mid = s.play(&p, &[("yellow", "half(sq(5, 1), sq(9, 1))")]);
    assert_eq!(
        s.legal(&mid, "yellow"),
        sorted(&["half(sq(1, 1), sq(5, 1))"])
    );
    let after = s.play(&mid, &[("yellow", "half(sq(1, 1), sq(5, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(5, 1), yellow)",
            "at(sq(9, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
}

/// Notes (gap): the full value cannot be used (blocked by an own parked
/// piece) and no second piece can take a half: a single half is played and
/// the throw is over (the player throws again).
#[test]
fn gap_only_a_half_can_be_played() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(11, 3), yellow)", // index 34: 12 -> 46 = own piece, 6 -> 40
        "at(sq(2, 4), yellow)",  // index 46, parked
        "at(sq(12, 4), green)",
        "control(yellow)",
        "thrown(12)",
    ]));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&["half(sq(11, 3), sq(8, 4))"])
    );
    let after = s.play(&p, &[("yellow", "half(sq(11, 3), sq(8, 4))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(8, 4), yellow)",
            "at(sq(2, 4), yellow)",
            "at(sq(12, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
}

/// Notes (gap): the full value must be used if it can be: the piece could
/// move a half (index 34 -> 40 is free), but no second piece can finish the
/// split (the other one is parked, and no piece stands 6 behind), so the
/// half is refused and only the full move is legal. (The same position with
/// the full move blocked is `gap_only_a_half_can_be_played`.)
#[test]
fn gap_half_refused_when_no_second_piece_can_finish() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(11, 3), yellow)", // index 34: 12 -> 46 free, 6 -> 40 free
        "at(sq(5, 4), yellow)",  // index 43, parked
        "at(sq(12, 4), green)",
        "control(yellow)",
        "thrown(12)",
    ]));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&["move(sq(11, 3), sq(2, 4))"])
    );
    let after = s.play(&p, &[("yellow", "move(sq(11, 3), sq(2, 4))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(2, 4), yellow)",
            "at(sq(5, 4), yellow)",
            "at(sq(12, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    // Both yellow pieces are parked: yellow is complete, and ahead.
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(100, 0));
}

/// Notes (gap): a single half is only allowed when no full use exists; two
/// half steppers make a full use, so a half starts a split there.
#[test]
fn gap_full_value_before_half() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)", // index 0: 2 -> index 2 occupied, 1 -> 1
        "at(sq(3, 1), yellow)", // index 2: 2 -> 4 free
        "at(sq(5, 1), yellow)", // index 4
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    // Full uses exist (index 2 -> 4 is blocked, 4 -> 6 free, 0 -> 2 blocked).
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&[
            "move(sq(5, 1), sq(7, 1))",
            "half(sq(1, 1), sq(2, 1))",
            "half(sq(3, 1), sq(4, 1))",
            "half(sq(5, 1), sq(6, 1))",
        ])
    );
    // After one half the second must follow (it is pending).
    let mid = s.play(&p, &[("yellow", "half(sq(3, 1), sq(4, 1))")]);
    assert_eq!(
        s.legal(&mid, "yellow"),
        sorted(&["half(sq(1, 1), sq(2, 1))", "half(sq(5, 1), sq(6, 1))"])
    );
}

/// Notes (gap): nothing can be played; the throw is lost (noop) and, being a
/// scoring throw, it is followed by another throw of the same player.
#[test]
fn gap_nothing_can_be_played_throw_lost() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(12, 3), yellow)", // index 35: 12 -> 47, 6 -> 41, both own
        "at(sq(1, 4), yellow)",  // index 47
        "at(sq(7, 4), yellow)",  // index 41
        "at(sq(12, 4), green)",
        "control(yellow)",
        "thrown(12)",
    ]));
    assert_eq!(s.legal(&p, "yellow"), sorted(&["noop"]));
    assert_eq!(s.legal(&p, "green"), sorted(&["noop"]));
    let after = s.play(&p, &[]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(12, 3), yellow)",
            "at(sq(1, 4), yellow)",
            "at(sq(7, 4), yellow)",
            "at(sq(12, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    assert_eq!(s.chance(&after), sticks());
}

// ------------------------------------------------------- seed rules 4 and 5

/// Seed 4: pieces jump over any piece, never stack; seed 5: landing on an
/// opponent captures it for good.
#[test]
fn seed4_seed5_jump_no_stacking_capture() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(12, 2), yellow)", // index 12
        "at(sq(11, 2), yellow)", // index 13
        "at(sq(10, 2), green)",  // yellow index 14
        "at(sq(5, 4), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    // 12 -> 14 jumps the own piece and captures; 13 -> 15 jumps the green
    // piece; 12 -> 13 would stack; 13 -> 14 captures (the half of a split
    // with the piece behind).
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&[
            "move(sq(12, 2), sq(10, 2))",
            "move(sq(11, 2), sq(9, 2))",
            "half(sq(11, 2), sq(10, 2))",
        ])
    );
    let after = s.play(&p, &[("yellow", "move(sq(12, 2), sq(10, 2))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(10, 2), yellow)",
            "at(sq(11, 2), yellow)",
            "at(sq(5, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
}

/// Seed 5: captures in the enemy's home row take still-unmoved pieces.
#[test]
fn seed5_capture_in_the_enemy_home_row() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(11, 3), yellow)", // index 34 -> 36 = sq(12, 4)
        "at(sq(12, 4), green)",  // green index 0, not parked
        "at(sq(5, 4), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&["move(sq(11, 3), sq(12, 4))"])
    );
    let after = s.play(&p, &[("yellow", "move(sq(11, 3), sq(12, 4))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(12, 4), yellow)",
            "at(sq(5, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    // Yellow is now complete (its only piece is parked): the game ends, and
    // with one piece each, yellow completed first.
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(100, 0));
}

// ------------------------------------------------------------ seed rule 6

/// Seed 6: a piece in the opponent's home row is immobile and cannot be
/// captured, so no capture on the mover's own home row.
#[test]
fn seed6_parked_pieces_frozen_and_immune() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",  // index 0: 2 -> sq(3, 1) = parked green
        "at(sq(11, 4), yellow)", // index 37, parked: immobile
        "at(sq(3, 1), green)",   // green index 38, parked: immune
        "at(sq(6, 4), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    assert_eq!(s.legal(&p, "yellow"), sorted(&["half(sq(1, 1), sq(2, 1))"]));
    let after = s.play(&p, &[("yellow", "half(sq(1, 1), sq(2, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(2, 1), yellow)",
            "at(sq(11, 4), yellow)",
            "at(sq(3, 1), green)",
            "at(sq(6, 4), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    // Green's parked piece does not move either.
    let g = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(3, 1), green)",
        "at(sq(6, 4), green)", // green index 6
        "control(green)",
        "thrown(2)",
    ]));
    assert_eq!(s.legal(&g, "green"), sorted(&["move(sq(6, 4), sq(4, 4))"]));
}

// ------------------------------------------------------- seed rules 7 and 8

/// Seed 7: the game ends when every remaining piece of one player is in the
/// opponent's home row; seed 8b: equal counts, the one who completed wins.
#[test]
fn seed7_seed8_end_and_tie_break_by_first_completion() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(12, 3), yellow)", // index 35 -> 37
        "at(sq(1, 4), yellow)",
        "at(sq(5, 4), green)",
        "at(sq(2, 1), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    assert!(!s.is_terminal(&p));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&["move(sq(12, 3), sq(11, 4))"])
    );
    let after = s.play(&p, &[("yellow", "move(sq(12, 3), sq(11, 4))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(11, 4), yellow)",
            "at(sq(1, 4), yellow)",
            "at(sq(5, 4), green)",
            "at(sq(2, 1), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(100, 0));
}

/// Seed 8a: more pieces left wins, whoever completed.
#[test]
fn seed8_more_pieces_wins() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(12, 3), yellow)",
        "at(sq(1, 4), yellow)",
        "at(sq(5, 4), green)",
        "at(sq(6, 4), green)",
        "at(sq(2, 1), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    let after = s.play(&p, &[("yellow", "move(sq(12, 3), sq(11, 4))")]);
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(0, 100));
}

/// Notes: a player left with no pieces counts as complete (and has fewer).
#[test]
fn seed7_no_pieces_left_is_complete() {
    let s = base();
    let p = s.state(&with_count(&["at(sq(5, 2), yellow)", "control(green)"]));
    assert!(s.is_terminal(&p));
    assert_eq!(goals(&s, &p), result(100, 0));
}

/// Notes (gap): a capture completes the opponent on the same move as the
/// mover: both complete at once, equal counts -> draw.
#[test]
fn gap_capture_completes_both_draw() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(12, 3), yellow)", // yellow's last unparked piece, 35 -> 37
        "at(sq(1, 4), yellow)",
        "at(sq(11, 4), green)", // green's last unparked piece (index 1)
        "at(sq(2, 1), green)",
        "at(sq(3, 1), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    let after = s.play(&p, &[("yellow", "move(sq(12, 3), sq(11, 4))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(11, 4), yellow)",
            "at(sq(1, 4), yellow)",
            "at(sq(2, 1), green)",
            "at(sq(3, 1), green)",
            "control(yellow)",
            "throws(0)",
        ])
    );
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(50, 50));
}

/// Notes (gap): a capture completes only the opponent: with equal counts the
/// opponent, who completed first, wins.
#[test]
fn gap_capture_completes_the_opponent_first() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(10, 3), yellow)", // index 33 -> 35 = sq(12, 3)
        "at(sq(1, 4), yellow)",
        "at(sq(12, 3), green)", // green's last unparked piece (index 23)
        "at(sq(2, 1), green)",
        "at(sq(3, 1), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    let after = s.play(&p, &[("yellow", "move(sq(10, 3), sq(12, 3))")]);
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(0, 100));
}

/// The two halves of a split are one move: a first half that completes the
/// opponent does not end the game before the second half.
#[test]
fn gap_split_is_judged_after_the_second_half() {
    let s = base();
    let p = s.state(&with_count(&[
        "at(sq(10, 3), yellow)", // index 33
        "at(sq(8, 3), yellow)",  // index 31
        "at(sq(11, 3), green)",  // green's last unparked piece
        "at(sq(2, 1), green)",
        "at(sq(3, 1), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    assert_eq!(
        s.legal(&p, "yellow"),
        sorted(&[
            "move(sq(10, 3), sq(12, 3))",
            "half(sq(10, 3), sq(11, 3))",
            "half(sq(8, 3), sq(9, 3))",
        ])
    );
    let mid = s.play(&p, &[("yellow", "half(sq(10, 3), sq(11, 3))")]);
    assert!(!s.is_terminal(&mid));
    assert_eq!(
        s.legal(&mid, "yellow"),
        sorted(&["half(sq(8, 3), sq(9, 3))"])
    );
    let after = s.play(&mid, &[("yellow", "half(sq(8, 3), sq(9, 3))")]);
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(0, 100));
}

// ------------------------------------------------------------ the cap

/// Notes (gap): after `cap` stick throws the game ends and the piece count
/// decides; the last throw is still used.
#[test]
fn gap_throw_cap_decides_by_piece_count() {
    let s = base();
    let facts = [
        "at(sq(1, 1), yellow)",
        "at(sq(2, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
        "throws(399)",
    ];
    let p = s.state(&facts);
    assert!(!s.is_terminal(&p));
    assert_eq!(s.chance(&p), sticks());
    let after = s.play(&p, &[("random", "sticks(0)")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(2, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(green)",
            "throws(400)",
        ])
    );
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(100, 0));

    // The 400th throw scores: it is played, then the game ends.
    let scored = s.play(&p, &[("random", "sticks(2)")]);
    assert!(!s.is_terminal(&scored));
    let moved = s.play(&scored, &[("yellow", "move(sq(2, 1), sq(4, 1))")]);
    assert!(s.is_terminal(&moved));
    assert_eq!(goals(&s, &moved), result(100, 0));
}

/// Notes (gap): a tie at the cap is a draw; the cap is a parameter.
#[test]
fn gap_throw_cap_parameter_and_tie() {
    let s = Scenario::open(BASE, &[("cap", "20")]);
    let p = s.state(&[
        "at(sq(1, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(green)",
        "throws(19)",
    ]);
    assert!(!s.is_terminal(&p));
    let after = s.play(&p, &[("random", "sticks(0)")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "throws(20)",
        ])
    );
    assert!(s.is_terminal(&after));
    assert_eq!(goals(&s, &after), result(50, 50));
}

// ------------------------------------------------------------ variants

/// Variant d6: one die, 1..6 each 1/6.
#[test]
fn variant_d6_distribution() {
    let s = Scenario::open(D6, &[]);
    let p = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
    ]));
    let expected: Vec<(String, u64)> = (1..=6).map(|v| (format!("d6({v})"), 1)).collect();
    assert_eq!(s.chance(&p), expected);
    let after = s.play(&p, &[("random", "d6(5)")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "thrown(5)",
            "throws(1)",
        ])
    );
}

/// Variant d6: no re-throw, the turn passes after the move; odd values do
/// not split, even ones do.
#[test]
fn variant_d6_no_rethrow_and_splits() {
    let s = Scenario::open(D6, &[]);
    let odd = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(2, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(3)",
    ]));
    assert_eq!(
        s.legal(&odd, "yellow"),
        sorted(&["move(sq(1, 1), sq(4, 1))", "move(sq(2, 1), sq(5, 1))"])
    );
    let after = s.play(&odd, &[("yellow", "move(sq(1, 1), sq(4, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(4, 1), yellow)",
            "at(sq(2, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(green)",
            "throws(0)",
        ])
    );

    let even = s.state(&with_count(&[
        "at(sq(1, 1), yellow)",
        "at(sq(2, 1), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(4)",
    ]));
    assert_eq!(
        s.legal(&even, "yellow"),
        sorted(&[
            "move(sq(1, 1), sq(5, 1))",
            "move(sq(2, 1), sq(6, 1))",
            "half(sq(1, 1), sq(3, 1))",
            "half(sq(2, 1), sq(4, 1))",
        ])
    );
    // The turn passes only after the second half.
    let mid = s.play(&even, &[("yellow", "half(sq(2, 1), sq(4, 1))")]);
    assert_eq!(
        s.facts(&mid),
        sorted(&[
            "at(sq(1, 1), yellow)",
            "at(sq(4, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(yellow)",
            "first_half(sq(4, 1))",
            "pending(4)",
            "throws(0)",
        ])
    );
    assert_eq!(
        s.legal(&mid, "yellow"),
        sorted(&["half(sq(1, 1), sq(3, 1))"])
    );
    let after = s.play(&mid, &[("yellow", "half(sq(1, 1), sq(3, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(3, 1), yellow)",
            "at(sq(4, 1), yellow)",
            "at(sq(1, 4), green)",
            "control(green)",
            "throws(0)",
        ])
    );

    // A lost throw passes the turn too.
    let lost = s.state(&with_count(&[
        "at(sq(12, 3), yellow)", // index 35: 2 -> 37, 1 -> 36, both own
        "at(sq(11, 4), yellow)",
        "at(sq(12, 4), yellow)",
        "at(sq(1, 4), green)",
        "control(yellow)",
        "thrown(2)",
    ]));
    assert_eq!(s.legal(&lost, "yellow"), sorted(&["noop"]));
    let after = s.play(&lost, &[]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(12, 3), yellow)",
            "at(sq(11, 4), yellow)",
            "at(sq(12, 4), yellow)",
            "at(sq(1, 4), green)",
            "control(green)",
            "throws(0)",
        ])
    );
}

/// Variant entry two: a piece that has never moved starts only with a
/// throw of 2 (moving 2, or 1 as a half of the 2).
#[test]
fn variant_entry_two_first_move_needs_a_two() {
    let s = Scenario::open(ENTRY_TWO, &[]);
    let init = s.initial();
    let unmoved: Vec<String> = s
        .facts(&init)
        .into_iter()
        .filter(|f| f.starts_with("unmoved("))
        .collect();
    assert_eq!(unmoved.len(), 24);

    let facts = |t: &'static str| {
        with_count(&[
            "at(sq(1, 1), yellow)",
            "unmoved(sq(1, 1))",
            "at(sq(12, 2), yellow)", // index 12, has moved
            "at(sq(1, 4), green)",
            "unmoved(sq(1, 4))",
            "control(yellow)",
            t,
        ])
    };
    let p8 = s.state(&facts("thrown(8)"));
    assert_eq!(
        s.legal(&p8, "yellow"),
        sorted(&["move(sq(12, 2), sq(4, 2))"])
    );
    let p2 = s.state(&facts("thrown(2)"));
    assert_eq!(
        s.legal(&p2, "yellow"),
        sorted(&[
            "move(sq(1, 1), sq(3, 1))",
            "move(sq(12, 2), sq(10, 2))",
            "half(sq(1, 1), sq(2, 1))",
            "half(sq(12, 2), sq(11, 2))",
        ])
    );
    let after = s.play(&p2, &[("yellow", "move(sq(1, 1), sq(3, 1))")]);
    assert_eq!(
        s.facts(&after),
        sorted(&[
            "at(sq(3, 1), yellow)",
            "at(sq(12, 2), yellow)",
            "at(sq(1, 4), green)",
            "unmoved(sq(1, 4))",
            "control(yellow)",
            "throws(0)",
        ])
    );
}

// ------------------------------------------------------------ sanity

/// Observed stick frequencies in seeded random playouts of the engine
/// (`Machine::random_joint`, which draws nature's move by weight) match
/// the declared weights (4/16, 1/16, 1/16, 10/16) within 4 standard
/// deviations of a binomial count.
#[test]
fn observed_stick_frequencies() {
    let s = base();
    let (counts, total) = draws_of(&chance_draws(&s.game, 40, 7), "sticks(");
    assert!(total > 5_000, "only {total} throws");
    assert_eq!(
        counts.keys().collect::<Vec<_>>(),
        ["sticks(0)", "sticks(12)", "sticks(2)", "sticks(8)"]
    );
    for (mv, w) in STICKS {
        let p = w as f64 / 16.0;
        let got = counts.get(mv).copied().unwrap_or(0) as f64;
        let mean = total as f64 * p;
        let sd = (total as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (got - mean).abs() <= 4.0 * sd,
            "{mv}: {got} of {total}, expected {mean:.0} +- {:.0}",
            4.0 * sd
        );
    }
}
