//! Scenario tests for games/pachisi.rules and its d6 variant: one named
//! position per seed rule (and per gap the notes resolve), given as facts,
//! with the exact legal moves of the role to move there, the exact state
//! after a chosen move, chance outcomes with their weights, terminal states
//! and goals; bad input refused by `tabula play`.
//!
//! Facts: `zero(R, I)`, `on(R, I, P, Cell)`, `finished(R, I)` for piece I of
//! R at progress P (0 zero mark, 1..64 first lap, 65..72 own blocks 1..8
//! again, 73..80 coloured column, 81 centre); `control(R)`, `throwing`,
//! `held(V, N)`, `streak(V, N)`, `bonus`, `formed(C)`, `placed(R, K)`; the
//! roll-off's `rolling(R)`, `in_round(R)`, `rolled(R, V)`; the throw counter
//! `throws(N)`. Moves: `move(P, V, To)`,
//! `pair(Cell, V, To)`, `pass`, `noop`; nature's `cowries(V)`.
//!
//! Cells are computed here from the notes' geometry table (NOTES.md, 001
//! "Cross-board geometry"), independently of the rule file's tracks.

mod common;
use common::*;
use tabula::engine::State;

const BASE: &str = "games/pachisi.rules";
const D6: &str = "games/variants/pachisi_d6.rules";
const PLAYERS: [&str; 4] = ["black", "blue", "red", "green"];

/// The cowries (notes): value and weight out of 64.
const COWRIES: [(i64, u64); 7] = [(2, 15), (3, 20), (4, 15), (5, 6), (6, 1), (10, 6), (25, 1)];

fn base() -> Scenario {
    Scenario::open(BASE, &[])
}

// ------------------------------------------------------------ geometry

/// Block b (1..16) of an arm: 1..8 out along one outer column, 9..16 back
/// along the other (notes' table).
fn block(arm: char, b: i64) -> (i64, i64) {
    match (arm, b <= 8) {
        ('D', true) => (8, 8 - b),
        ('D', false) => (10, b - 9),
        ('C', true) => (10 + b, 8),
        ('C', false) => (27 - b, 10),
        ('A', true) => (10, 10 + b),
        ('A', false) => (8, 27 - b),
        ('B', true) => (8 - b, 10),
        ('B', false) => (b - 9, 8),
        _ => unreachable!(),
    }
}

/// Cell k (1 outer end .. 8 next to the centre) of an arm's coloured column.
fn column(arm: char, k: i64) -> (i64, i64) {
    match arm {
        'D' => (9, k - 1),
        'C' => (19 - k, 9),
        'A' => (9, 19 - k),
        'B' => (k - 1, 9),
        _ => unreachable!(),
    }
}

/// The arms a player's pieces run through, own arm first (notes).
fn arms(role: &str) -> [char; 4] {
    match role {
        "black" => ['A', 'B', 'D', 'C'],
        "blue" => ['B', 'D', 'C', 'A'],
        "red" => ['D', 'C', 'A', 'B'],
        "green" => ['C', 'A', 'B', 'D'],
        _ => unreachable!(),
    }
}

/// The cell at progress p (1..81) of a player.
fn cell(role: &str, p: i64) -> String {
    let own = arms(role)[0];
    let (x, y) = match p {
        1..=64 => block(arms(role)[((p - 1) / 16) as usize], (p - 1) % 16 + 1),
        65..=72 => block(own, p - 64),
        73..=80 => column(own, p - 72),
        81 => return "centre".to_string(),
        _ => panic!("no cell at progress {p}"),
    };
    format!("sq({x}, {y})")
}

/// Piece i of a player at progress p, as a state fact.
fn on(role: &str, i: i64, p: i64) -> String {
    format!("on({role}, {i}, {p}, {})", cell(role, p))
}

/// A single move from progress p by v.
fn mv(role: &str, p: i64, v: i64, to: i64) -> String {
    format!("move({p}, {v}, {})", cell(role, to))
}

// ------------------------------------------------------------ positions

/// Owned strings.
fn owned(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A position: these facts and the throw counter at `throws`.
fn at_count(s: &Scenario, facts: &[String], throws: i64) -> State {
    let mut all = facts.to_vec();
    all.push(format!("throws({throws})"));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    s.state(&refs)
}

fn position(s: &Scenario, facts: &[String]) -> State {
    at_count(s, facts, 0)
}

/// The facts of a state minus the throw counter (checked where it matters).
fn facts(s: &Scenario, st: &State) -> Vec<String> {
    s.facts(st)
        .into_iter()
        .filter(|f| !f.starts_with("throws("))
        .collect()
}

fn set(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The roles other than `mover` pass with noop.
fn waiting(s: &Scenario, st: &State, mover: &str) {
    for r in PLAYERS.iter().filter(|r| **r != mover) {
        assert_eq!(s.legal(st, r), sorted(&["noop"]), "{r} waits");
    }
}

fn cowries() -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = COWRIES
        .iter()
        .map(|(f, w)| (format!("cowries({f})"), *w))
        .collect();
    v.sort();
    v
}

fn goals(black: i64, blue: i64, red: i64, green: i64) -> Vec<(String, Option<i64>)> {
    vec![
        ("black".to_string(), Some(black)),
        ("blue".to_string(), Some(blue)),
        ("red".to_string(), Some(red)),
        ("green".to_string(), Some(green)),
        ("random".to_string(), None),
    ]
}

/// Every piece of every player on its zero mark.
fn all_zero() -> Vec<String> {
    PLAYERS
        .iter()
        .flat_map(|r| (1..=4).map(move |i| format!("zero({r}, {i})")))
        .collect()
}

// ------------------------------------------------------- seed rules 1-3

/// Seed 1 and 3: four players, four pieces each, all on their zero mark;
/// the roll-off (seed 8) begins with black throwing the cowries, whose
/// outcomes carry the notes' weights out of 64; every player waits.
#[test]
fn seed1_seed3_start_on_the_zero_marks() {
    let s = base();
    let init = s.initial();
    let mut expected = all_zero();
    expected.extend(owned(&[
        "in_round(black)",
        "in_round(blue)",
        "in_round(red)",
        "in_round(green)",
        "rolling(black)",
        "throws(0)",
    ]));
    assert_eq!(s.facts(&init), set(expected));
    assert!(!s.is_terminal(&init));
    waiting(&s, &init, "");
    assert_eq!(s.chance(&init), cowries());
}

/// Seed 1 with the notes' geometry: the board is a cross of four arms of
/// 3 x 8 blocks, A north, C east, D south and B west; each arm's 24 cells
/// are its 16 blocks and its coloured column, as the table places them.
#[test]
fn seed1_cross_board_of_four_arms() {
    let (out, err, code) = run(&["repl", BASE], "query arm(A, C)\n");
    assert_eq!(code, 0, "{err}");
    let mut shown: Vec<String> = out
        .lines()
        .filter(|l| l.starts_with("arm("))
        .map(str::to_string)
        .collect();
    shown.sort();
    let mut expected: Vec<String> = Vec::new();
    for arm in ['A', 'B', 'C', 'D'] {
        let blocks = (1..=16).map(|b| block(arm, b));
        let columns = (1..=8).map(|k| column(arm, k));
        for (x, y) in blocks.chain(columns) {
            expected.push(format!("arm({}, sq({x}, {y}))", arm.to_ascii_lowercase()));
        }
    }
    assert_eq!(expected.len(), 96);
    assert_eq!(shown, set(expected));
}

/// Seed 3 with the notes (free entry): no special throw is needed to
/// enter; any value of the series takes a piece off its zero mark, and the
/// value left stays to be played.
#[test]
fn seed3_free_entry_with_any_value() {
    let s = base();
    let mut f = all_zero();
    f.extend(owned(&["control(black)", "held(3, 1)", "held(25, 1)"]));
    let st = position(&s, &f);
    assert_eq!(
        s.legal(&st, "black"),
        set(vec![
            "pass".to_string(),
            mv("black", 0, 3, 3),
            mv("black", 0, 25, 25),
        ])
    );
    let entered = s.play(&st, &[("black", &mv("black", 0, 25, 25))]);
    let mut expected: Vec<String> = all_zero()
        .into_iter()
        .filter(|z| z != "zero(black, 1)")
        .collect();
    expected.extend([on("black", 1, 25)]);
    expected.extend(owned(&["control(black)", "held(3, 1)"]));
    assert_eq!(facts(&s, &entered), set(expected));
}

/// Seed 4: a piece jumps over whatever stands between its block and where
/// it lands: an opponent's pair on a cross, an opponent's single and an
/// own piece. Nothing is hit on the way.
#[test]
fn seed4_a_piece_jumps_over_pieces_in_its_way() {
    let s = base();
    // Blue's progress 5 and red's 54 are black's 21 and 22 (arm B).
    let f = vec![
        on("black", 1, 20),
        on("black", 2, 23),
        "zero(black, 3)".to_string(),
        "zero(black, 4)".to_string(),
        on("blue", 1, 5),
        on("blue", 2, 5),
        on("red", 1, 54),
        "control(black)".to_string(),
        "held(4, 1)".to_string(),
    ];
    assert_eq!(cell("blue", 5), cell("black", 21));
    assert_eq!(cell("red", 54), cell("black", 22));
    let st = position(&s, &f);
    assert_eq!(
        s.legal(&st, "black"),
        set(vec![
            "pass".to_string(),
            mv("black", 0, 4, 4),
            mv("black", 20, 4, 24),
            mv("black", 23, 4, 27),
        ])
    );
    let jumped = s.play(&st, &[("black", &mv("black", 20, 4, 24))]);
    let mut expected: Vec<String> = f
        .iter()
        .filter(|x| !x.starts_with("held(") && !x.starts_with("control("))
        .filter(|x| **x != on("black", 1, 20))
        .cloned()
        .collect();
    // The last value used, the turn passes to blue, who throws.
    expected.extend([on("black", 1, 24)]);
    expected.extend(owned(&["control(blue)", "throwing"]));
    assert_eq!(facts(&s, &jumped), set(expected));
}

/// Every move of a lone piece of `role` from progress p by v, with the
/// notes' cells: one move, or two past own block 8 after a lap (the fork).
fn lone_piece_moves(s: &Scenario, role: &str, p: i64, v: i64) {
    let piece = if p == 0 {
        format!("zero({role}, 1)")
    } else {
        on(role, 1, p)
    };
    let facts = vec![piece, format!("control({role})"), format!("held({v}, 1)")];
    let st = position(s, &facts);
    let mut expected = vec!["pass".to_string(), mv(role, p, v, p + v)];
    if p <= 72 && p + v > 72 {
        expected.push(mv(role, p, v, p + v - 64));
    }
    assert_eq!(s.legal(&st, role), set(expected), "{role} at {p} moves {v}");
}

/// Seed 2-4 with the notes' geometry: every progress of every player's
/// track, checked by moving a lone piece onto the cell the notes' table
/// gives: anticlockwise round the arms in each player's order, own blocks
/// 1..8 again, the own coloured column, the centre. The die variant (same
/// tracks) steps 1 from every progress; with the cowries (no 1) progress 1
/// is out of reach, every other one steps 2.
#[test]
fn seed2_seed4_tracks_follow_the_notes_geometry() {
    let s = base();
    let d6 = Scenario::open(D6, &[]);
    for role in PLAYERS {
        for p in 0..=80 {
            lone_piece_moves(&d6, role, p, 1);
        }
        for p in (0..=79).filter(|&p| p != 1) {
            lone_piece_moves(&s, role, p, 2);
        }
    }
}

// ------------------------------------------------------------ seed rule 6

/// Seed 6 with the notes: six cowries counted mouths up, 25 (1/64), 10
/// (6/64), 2 (15/64), 3 (20/64), 4 (15/64), 5 (6/64), 6 (1/64); thrown in
/// every state of a series.
#[test]
fn seed6_cowrie_weights() {
    let s = base();
    let st = position(&s, &owned(&["control(red)", "throwing", "zero(red, 1)"]));
    assert_eq!(s.chance(&st), cowries());
    let total: u64 = s.chance(&st).iter().map(|(_, w)| w).sum();
    assert_eq!(total, 64);
    waiting(&s, &st, "");
}

// ------------------------------------------------------------ seed rule 8

fn opening(extra: &[&str]) -> Vec<String> {
    let mut v = all_zero();
    v.extend(owned(extra));
    v
}

/// Seed 8: everybody throws once in turn order; each throw is recorded and
/// the next player throws.
#[test]
fn seed8_roll_off_records_each_throw() {
    let s = base();
    let init = s.initial();
    let after = s.play(&init, &[("random", "cowries(4)")]);
    assert_eq!(
        facts(&s, &after),
        set(opening(&[
            "in_round(black)",
            "in_round(blue)",
            "in_round(red)",
            "in_round(green)",
            "rolled(black, 4)",
            "rolling(blue)",
        ]))
    );
    assert!(s.facts(&after).contains(&"throws(1)".to_string()));
    assert_eq!(s.chance(&after), cowries());
}

/// Seed 8: the highest throw (25 beats 10) starts; its turn begins with a
/// fresh series of throws.
#[test]
fn seed8_highest_throw_starts() {
    let s = base();
    let st = at_count(
        &s,
        &opening(&[
            "in_round(black)",
            "in_round(blue)",
            "in_round(red)",
            "in_round(green)",
            "rolled(black, 4)",
            "rolled(blue, 10)",
            "rolled(red, 3)",
            "rolling(green)",
        ]),
        3,
    );
    let after = s.play(&st, &[("random", "cowries(25)")]);
    assert_eq!(
        s.facts(&after),
        set(opening(&["control(green)", "throwing", "throws(4)"]))
    );
    waiting(&s, &after, "");
    assert_eq!(s.chance(&after), cowries());

    // Blue leads alone when green throws less.
    let after = s.play(&st, &[("random", "cowries(6)")]);
    assert_eq!(
        facts(&s, &after),
        set(opening(&["control(blue)", "throwing"]))
    );
}

/// Seed 8 with the notes: a tie for the highest throw is thrown again by
/// the tied players only, in turn order, until one leads alone.
#[test]
fn seed8_ties_are_thrown_again() {
    let s = base();
    let st = position(
        &s,
        &opening(&[
            "in_round(black)",
            "in_round(blue)",
            "in_round(red)",
            "in_round(green)",
            "rolled(black, 10)",
            "rolled(blue, 3)",
            "rolled(red, 10)",
            "rolling(green)",
        ]),
    );
    let round2 = s.play(&st, &[("random", "cowries(2)")]);
    assert_eq!(
        facts(&s, &round2),
        set(opening(&[
            "in_round(black)",
            "in_round(red)",
            "rolling(black)"
        ]))
    );
    let black = s.play(&round2, &[("random", "cowries(6)")]);
    assert_eq!(
        facts(&s, &black),
        set(opening(&[
            "in_round(black)",
            "in_round(red)",
            "rolled(black, 6)",
            "rolling(red)"
        ]))
    );
    // Red equals black: the same two throw again.
    let again = s.play(&black, &[("random", "cowries(6)")]);
    assert_eq!(facts(&s, &again), facts(&s, &round2));
    // Red throws less: black starts.
    let start = s.play(&black, &[("random", "cowries(5)")]);
    assert_eq!(
        facts(&s, &start),
        set(opening(&["control(black)", "throwing"]))
    );

    // A three-way tie including the last thrower.
    let st = position(
        &s,
        &opening(&[
            "in_round(black)",
            "in_round(blue)",
            "in_round(red)",
            "in_round(green)",
            "rolled(black, 25)",
            "rolled(blue, 25)",
            "rolled(red, 2)",
            "rolling(green)",
        ]),
    );
    let after = s.play(&st, &[("random", "cowries(25)")]);
    assert_eq!(
        facts(&s, &after),
        set(opening(&[
            "in_round(black)",
            "in_round(blue)",
            "in_round(green)",
            "rolling(black)"
        ]))
    );
}

// ------------------------------------------------------------ seed rule 9

/// A throwing state of red: red's pieces on the zero mark, these facts.
fn series(extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = (1..=4).map(|i| format!("zero(red, {i})")).collect();
    v.extend(owned(&["control(red)", "throwing"]));
    v.extend(owned(extra));
    v
}

/// Seed 9: a grace (6, 10 or 25) is recorded and red throws again; a second
/// equal grace is counted in the streak.
#[test]
fn seed9_grace_gives_another_throw() {
    let s = base();
    let st = position(&s, &series(&[]));
    for g in [6, 10, 25] {
        let after = s.play(&st, &[("random", &format!("cowries({g})"))]);
        let held = format!("held({g}, 1)");
        let streak = format!("streak({g}, 1)");
        assert_eq!(
            facts(&s, &after),
            set(series(&[held.as_str(), streak.as_str()]))
        );
        assert_eq!(s.chance(&after), cowries());
        waiting(&s, &after, "");
        let twice = s.play(&after, &[("random", &format!("cowries({g})"))]);
        let held = format!("held({g}, 2)");
        let streak = format!("streak({g}, 2)");
        assert_eq!(
            facts(&s, &twice),
            set(series(&[held.as_str(), streak.as_str()]))
        );
    }
}

/// Seed 9: three equal graces in a row void the whole turn (notes: no
/// moves); control passes from red to green (turn order black, blue, red,
/// green). After two equal graces the void comes with that grace's weight
/// (1/64 for 6 and 25, 6/64 for 10).
#[test]
fn seed9_three_equal_graces_void_the_turn() {
    let s = base();
    for (g, w) in [(6, 1), (10, 6), (25, 1)] {
        let held = format!("held({g}, 2)");
        let streak = format!("streak({g}, 2)");
        let st = position(&s, &series(&[held.as_str(), streak.as_str()]));
        let void = format!("cowries({g})");
        assert!(s.chance(&st).contains(&(void.clone(), w)));
        let after = s.play(&st, &[("random", &void)]);
        let mut expected: Vec<String> = (1..=4).map(|i| format!("zero(red, {i})")).collect();
        expected.extend(owned(&["control(green)", "throwing"]));
        assert_eq!(facts(&s, &after), set(expected));
    }
}

/// Seed 9: "your turn does not get cancelled if you get a 6 and then a 10
/// and again a 6": the series goes on; a later non-grace ends it and the
/// values are moved.
#[test]
fn seed9_six_ten_six_does_not_void() {
    let s = base();
    let st = position(&s, &series(&["held(6, 1)", "held(10, 1)", "streak(10, 1)"]));
    let after = s.play(&st, &[("random", "cowries(6)")]);
    assert_eq!(
        facts(&s, &after),
        set(series(&["held(6, 2)", "held(10, 1)", "streak(6, 1)"]))
    );
    // A non-grace ends the series: red moves the four values.
    let end = s.play(&after, &[("random", "cowries(3)")]);
    let mut expected: Vec<String> = (1..=4).map(|i| format!("zero(red, {i})")).collect();
    expected.extend(owned(&[
        "control(red)",
        "held(6, 2)",
        "held(10, 1)",
        "held(3, 1)",
    ]));
    assert_eq!(facts(&s, &end), set(expected));
    assert_eq!(
        s.legal(&end, "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 0, 3, 3),
            mv("red", 0, 6, 6),
            mv("red", 0, 10, 10),
        ])
    );
    waiting(&s, &end, "red");
    assert_eq!(s.chance(&end), vec![("noop".to_string(), 1)]);
}

/// Notes (gap): a grace value is recorded at most `most_graces` times; a
/// further equal grace still counts for the streak.
#[test]
fn gap_most_graces_bounds_the_record() {
    let s = Scenario::open(BASE, &[("most_graces", "2")]);
    let st = position(&s, &series(&["held(6, 2)", "held(10, 1)", "streak(10, 1)"]));
    let after = s.play(&st, &[("random", "cowries(6)")]);
    assert_eq!(
        facts(&s, &after),
        set(series(&["held(6, 2)", "held(10, 1)", "streak(6, 1)"]))
    );
}

// --------------------------------------------------- seed rules 7 and 14

/// Seed 7 and 14 with the notes: the recorded values are used one at a
/// time in any order, each on one piece; what is left may be declined with
/// `pass`, which ends the turn and passes control.
#[test]
fn seed7_seed14_values_in_any_order_and_declining() {
    let s = base();
    let pieces = vec![
        "zero(red, 1)".to_string(),
        on("red", 2, 10),
        "zero(red, 3)".to_string(),
        "zero(red, 4)".to_string(),
        on("green", 1, 30),
    ];
    let mut facts0 = pieces.clone();
    facts0.extend(owned(&["control(red)", "held(6, 1)", "held(3, 1)"]));
    let st = position(&s, &facts0);
    assert_eq!(
        s.legal(&st, "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 0, 3, 3),
            mv("red", 0, 6, 6),
            mv("red", 10, 3, 13),
            mv("red", 10, 6, 16),
        ])
    );
    waiting(&s, &st, "red");

    // The 3 first: the 6 is left.
    let first = s.play(&st, &[("red", &mv("red", 10, 3, 13))]);
    let expected = vec![
        "zero(red, 1)".to_string(),
        on("red", 2, 13),
        "zero(red, 3)".to_string(),
        "zero(red, 4)".to_string(),
        on("green", 1, 30),
        "control(red)".to_string(),
        "held(6, 1)".to_string(),
    ];
    assert_eq!(facts(&s, &first), set(expected));
    assert_eq!(
        s.legal(&first, "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 0, 6, 6),
            mv("red", 13, 6, 19)
        ])
    );

    // Declining the 6: green's turn, nothing moves.
    let declined = s.play(&first, &[("red", "pass")]);
    let mut expected = vec![
        "zero(red, 1)".to_string(),
        on("red", 2, 13),
        "zero(red, 3)".to_string(),
        "zero(red, 4)".to_string(),
        on("green", 1, 30),
    ];
    expected.extend(owned(&["control(green)", "throwing"]));
    assert_eq!(facts(&s, &declined), set(expected.clone()));

    // Using the last value ends the turn the same way (the first piece
    // from the zero mark enters).
    let used = s.play(&first, &[("red", &mv("red", 0, 6, 6))]);
    expected[0] = on("red", 1, 6);
    assert_eq!(facts(&s, &used), set(expected));
}

/// Seed 7: play passes anticlockwise black -> blue -> red -> green ->
/// black, skipping players who have brought all pieces home.
#[test]
fn seed7_turn_order_skips_finished_players() {
    let s = base();
    for (from, placed, to) in [
        ("black", "", "blue"),
        ("blue", "", "red"),
        ("red", "", "green"),
        ("green", "", "black"),
        ("red", "placed(green, 1)", "black"),
        ("blue", "placed(red, 1)", "green"),
    ] {
        let mut f = vec![
            format!("control({from})"),
            "held(3, 1)".to_string(),
            format!("zero({from}, 1)"),
        ];
        if !placed.is_empty() {
            f.push(placed.to_string());
        }
        let st = position(&s, &f);
        let after = s.play(&st, &[(from, "pass")]);
        assert!(
            s.facts(&after).contains(&format!("control({to})")),
            "{from} passes to {to} with {placed}: {:?}",
            s.facts(&after)
        );
    }
}

// ----------------------------------------------------------- seed rule 10

/// Seed 10: landing on an opponent's single piece (not on a cross) hits it
/// back to its zero mark; the hitter stays, and the player gets another
/// full turn once its values are used.
#[test]
fn seed10_hit_sends_home_and_earns_a_turn() {
    let s = base();
    // Blue's block 6 of arm D is blue progress 22, red progress 6.
    assert_eq!(cell("blue", 22), cell("red", 6));
    let pieces = vec![on("red", 1, 2), on("blue", 1, 22), on("blue", 2, 30)];
    let mut f = pieces.clone();
    f.extend(owned(&["control(red)", "held(4, 1)", "held(3, 1)"]));
    let st = position(&s, &f);
    assert_eq!(
        s.legal(&st, "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 2, 3, 5),
            mv("red", 2, 4, 6)
        ])
    );
    let hit = s.play(&st, &[("red", &mv("red", 2, 4, 6))]);
    let expected = vec![
        on("red", 1, 6),
        "zero(blue, 1)".to_string(),
        on("blue", 2, 30),
        "control(red)".to_string(),
        "held(3, 1)".to_string(),
        "bonus".to_string(),
    ];
    assert_eq!(facts(&s, &hit), set(expected));
    // The turn ends (here by declining the 3): red throws again.
    let again = s.play(&hit, &[("red", "pass")]);
    let expected = vec![
        on("red", 1, 6),
        "zero(blue, 1)".to_string(),
        on("blue", 2, 30),
        "control(red)".to_string(),
        "throwing".to_string(),
    ];
    assert_eq!(facts(&s, &again), set(expected));

    // A hit with the last value: the next turn is red's at once.
    let mut f = pieces;
    f.extend(owned(&["control(red)", "held(4, 1)"]));
    let st = position(&s, &f);
    let after = s.play(&st, &[("red", &mv("red", 2, 4, 6))]);
    let expected = vec![
        on("red", 1, 6),
        "zero(blue, 1)".to_string(),
        on("blue", 2, 30),
        "control(red)".to_string(),
        "throwing".to_string(),
    ];
    assert_eq!(facts(&s, &after), set(expected));
}

// ------------------------------------------------------ seed rules 11-12

/// Seed 11: two own pieces on a block make a pair; a single cannot land on
/// an opponent's pair, nor a third piece on an own pair; a pair may not
/// land on an own piece.
#[test]
fn seed11_pairs_block_singles() {
    let s = base();
    let f = vec![
        on("red", 1, 2),
        on("red", 2, 4),
        on("red", 3, 4),
        "zero(red, 4)".to_string(),
        on("blue", 1, 22),
        on("blue", 2, 22),
        "control(red)".to_string(),
        "held(2, 1)".to_string(),
        "held(4, 1)".to_string(),
    ];
    let st = position(&s, &f);
    // Barred: 2 -> 4 and 0 -> 4 (a third piece on the own pair), 2 -> 6
    // (a single onto blue's pair). Legal: 0 -> 2 (joins piece 1: a new
    // pair), the pair on 4 by 1 (to the empty cross 5) or by 2 (onto blue's
    // pair: a hit). The pair is off a cross: its pieces cannot move alone.
    assert_eq!(
        s.legal(&st, "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 0, 2, 2),
            format!("pair({}, 2, {})", cell("red", 4), cell("red", 5)),
            format!("pair({}, 4, {})", cell("red", 4), cell("red", 6)),
        ])
    );
    // 0 -> 2 forms a pair with piece 1.
    let paired = s.play(&st, &[("red", &mv("red", 0, 2, 2))]);
    assert!(s.facts(&paired).contains(&on("red", 4, 2)));
    assert!(s.facts(&paired).contains(&on("red", 1, 2)));
}

/// Seed 11: a pair hits an opponent's pair (both back to the zero mark)
/// and a single; seed 10: that earns another turn.
#[test]
fn seed11_pair_hits_a_pair() {
    let s = base();
    let f = vec![
        on("red", 1, 2),
        on("red", 2, 2),
        on("blue", 1, 20),
        on("blue", 2, 20),
        on("blue", 3, 26),
        "control(red)".to_string(),
        "held(4, 1)".to_string(),
    ];
    let st = position(&s, &f);
    let pair = format!("pair({}, 4, {})", cell("red", 2), cell("red", 4));
    assert_eq!(
        s.legal(&st, "red"),
        set(vec!["pass".to_string(), pair.clone()])
    );
    let after = s.play(&st, &[("red", &pair)]);
    let expected = vec![
        on("red", 1, 4),
        on("red", 2, 4),
        "zero(blue, 1)".to_string(),
        "zero(blue, 2)".to_string(),
        on("blue", 3, 26),
        "control(red)".to_string(),
        "throwing".to_string(),
    ];
    assert_eq!(facts(&s, &after), set(expected));

    // A pair hits a single too.
    let f = vec![
        on("red", 1, 2),
        on("red", 2, 2),
        on("blue", 1, 20),
        "control(red)".to_string(),
        "held(4, 1)".to_string(),
    ];
    let after = s.play(&position(&s, &f), &[("red", &pair)]);
    let expected = vec![
        on("red", 1, 4),
        on("red", 2, 4),
        "zero(blue, 1)".to_string(),
        "control(red)".to_string(),
        "throwing".to_string(),
    ];
    assert_eq!(facts(&s, &after), set(expected));
}

/// Seed 12 with the notes: a pair moves by half an even value (10 -> 5,
/// 6 -> 3); odd values cannot move it; off a cross it cannot split.
#[test]
fn seed12_pair_moves_half_and_stays_together() {
    let s = base();
    let pair = |extra: &[&str]| {
        let mut f = vec![
            on("red", 1, 10),
            on("red", 2, 10),
            "control(red)".to_string(),
        ];
        f.extend(owned(extra));
        position(&s, &f)
    };
    // An odd value: nothing moves.
    assert_eq!(s.legal(&pair(&["held(3, 1)"]), "red"), sorted(&["pass"]));
    assert_eq!(s.legal(&pair(&["held(25, 1)"]), "red"), sorted(&["pass"]));
    let st = pair(&["held(10, 1)", "held(6, 1)"]);
    let from = cell("red", 10);
    assert_eq!(
        s.legal(&st, "red"),
        set(vec![
            "pass".to_string(),
            format!("pair({from}, 10, {})", cell("red", 15)),
            format!("pair({from}, 6, {})", cell("red", 13)),
        ])
    );
    let after = s.play(
        &st,
        &[("red", &format!("pair({from}, 10, {})", cell("red", 15)))],
    );
    assert_eq!(
        facts(&s, &after),
        set(vec![
            on("red", 1, 15),
            on("red", 2, 15),
            "control(red)".to_string(),
            "held(6, 1)".to_string(),
        ])
    );
}

/// Seed 12: a pair that stood on a cross at the start of the turn may
/// split: each piece moves alone (the lowest-numbered first); a pair
/// formed on a cross in this turn may not split until the next turn.
#[test]
fn seed12_pair_splits_only_on_a_cross_from_the_next_turn() {
    let s = base();
    let cross = cell("red", 5);
    assert_eq!(cross, "sq(8, 3)");
    let f = vec![
        on("red", 1, 5),
        on("red", 2, 5),
        "control(red)".to_string(),
        "held(4, 1)".to_string(),
        "held(3, 1)".to_string(),
    ];
    let st = position(&s, &f);
    assert_eq!(
        s.legal(&st, "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 5, 3, 8),
            mv("red", 5, 4, 9),
            format!("pair({cross}, 4, {})", cell("red", 7)),
        ])
    );
    let split = s.play(&st, &[("red", &mv("red", 5, 3, 8))]);
    assert_eq!(
        facts(&s, &split),
        set(vec![
            on("red", 1, 8),
            on("red", 2, 5),
            "control(red)".to_string(),
            "held(4, 1)".to_string(),
        ])
    );

    // Formed on the cross in this turn: no split.
    let mut g = f.clone();
    g.push(format!("formed({cross})"));
    assert_eq!(
        s.legal(&position(&s, &g), "red"),
        set(vec![
            "pass".to_string(),
            format!("pair({cross}, 4, {})", cell("red", 7)),
        ])
    );

    // A piece joining another on the cross marks the pair as formed; the
    // mark goes when the turn ends.
    let f = vec![
        on("red", 1, 5),
        on("red", 2, 2),
        "control(red)".to_string(),
        "held(3, 1)".to_string(),
        "held(2, 1)".to_string(),
    ];
    let joined = s.play(&position(&s, &f), &[("red", &mv("red", 2, 3, 5))]);
    assert_eq!(
        facts(&s, &joined),
        set(vec![
            on("red", 1, 5),
            on("red", 2, 5),
            "control(red)".to_string(),
            "held(2, 1)".to_string(),
            format!("formed({cross})"),
        ])
    );
    assert_eq!(
        s.legal(&joined, "red"),
        set(vec![
            "pass".to_string(),
            format!("pair({cross}, 2, {})", cell("red", 6)),
        ])
    );
    let ended = s.play(&joined, &[("red", "pass")]);
    assert_eq!(
        facts(&s, &ended),
        set(vec![
            on("red", 1, 5),
            on("red", 2, 5),
            "control(green)".to_string(),
            "throwing".to_string(),
        ])
    );
}

// ----------------------------------------------------------- seed rule 13

/// Seed 13: nobody is hit on a cross and no piece shares a cross with an
/// opponent: a move only possible onto such a cross is skipped (only
/// `pass` is left). A cross may be shared with an own piece.
#[test]
fn seed13_crosses_are_safe() {
    let s = base();
    // Green's progress 53 is block 5 of arm D: red's cross at progress 5.
    assert_eq!(cell("green", 53), cell("red", 5));
    let f = |held: &str| {
        position(
            &s,
            &[
                on("red", 1, 2),
                "finished(red, 2)".to_string(),
                "finished(red, 3)".to_string(),
                "finished(red, 4)".to_string(),
                on("green", 1, 53),
                "control(red)".to_string(),
                held.to_string(),
            ],
        )
    };
    assert_eq!(s.legal(&f("held(3, 1)"), "red"), sorted(&["pass"]));
    assert_eq!(
        s.legal(&f("held(4, 1)"), "red"),
        set(vec!["pass".to_string(), mv("red", 2, 4, 6)])
    );
    // A pair may not land there either; green on the cross is never hit.
    let st = position(
        &s,
        &[
            on("red", 1, 3),
            on("red", 2, 3),
            on("green", 1, 53),
            "control(red)".to_string(),
            "held(4, 1)".to_string(),
        ],
    );
    assert_eq!(s.legal(&st, "red"), sorted(&["pass"]));
}

// ------------------------------------------------------ seed rules 15-16

/// Seed 16: on the first pass block 8 is an ordinary block; after a full
/// lap (progress 65..72) a move past own block 8 is a real choice between
/// two legal moves: up the coloured column, or round again from block 9.
#[test]
fn seed16_fork_at_block_8_only_after_a_lap() {
    let s = base();
    let st = |p: i64, v: i64| {
        position(
            &s,
            &[
                on("red", 1, p),
                "control(red)".to_string(),
                format!("held({v}, 1)"),
            ],
        )
    };
    // First pass: block 8 (progress 8) + 3 -> block 11 only.
    assert_eq!(cell("red", 8), cell("red", 72));
    assert_eq!(
        s.legal(&st(8, 3), "red"),
        set(vec!["pass".to_string(), mv("red", 8, 3, 11)])
    );
    // Arriving at block 8 after a lap: no choice yet.
    assert_eq!(
        s.legal(&st(70, 2), "red"),
        set(vec!["pass".to_string(), mv("red", 70, 2, 72)])
    );
    // From block 8 after a lap: the column (75) or block 11 again (11).
    let fork = st(72, 3);
    let column = mv("red", 72, 3, 75);
    let round = mv("red", 72, 3, 11);
    assert_eq!(column, "move(72, 3, sq(9, 2))");
    assert_eq!(round, "move(72, 3, sq(10, 2))");
    assert_eq!(
        s.legal(&fork, "red"),
        set(vec!["pass".to_string(), column.clone(), round.clone()])
    );
    let up = s.play(&fork, &[("red", &column)]);
    assert_eq!(
        facts(&s, &up),
        set(vec![
            on("red", 1, 75),
            "control(green)".to_string(),
            "throwing".to_string()
        ])
    );
    let again = s.play(&fork, &[("red", &round)]);
    assert_eq!(
        facts(&s, &again),
        set(vec![
            on("red", 1, 11),
            "control(green)".to_string(),
            "throwing".to_string()
        ])
    );
    // Passing block 8 within one move: 68 + 6 -> column 74 or block 10.
    assert_eq!(
        s.legal(&st(68, 6), "red"),
        set(vec![
            "pass".to_string(),
            mv("red", 68, 6, 74),
            mv("red", 68, 6, 10)
        ])
    );
    // A piece sent round again meets the fork after its next lap: from 60
    // it reaches 70 (own block 6), then the fork.
    assert_eq!(
        s.legal(&st(60, 10), "red"),
        set(vec!["pass".to_string(), mv("red", 60, 10, 70)])
    );
    // Only the owner enters its column: green passing red's block 8
    // (green 56) goes on to block 11 of arm D.
    let green = position(
        &s,
        &[
            on("green", 1, 56),
            "control(green)".to_string(),
            "held(3, 1)".to_string(),
        ],
    );
    assert_eq!(cell("green", 59), cell("red", 11));
    assert_eq!(
        s.legal(&green, "green"),
        set(vec!["pass".to_string(), mv("green", 56, 3, 59)])
    );
}

/// Seed 15 with the notes: the centre needs the exact count; a piece that
/// gets there leaves the board. Gap: from the last coloured block (80) a
/// grace value brings a piece home (no cowrie throw shows 1; Ludii).
#[test]
fn seed15_exact_count_to_the_centre() {
    let s = base();
    let st = |p: i64, held: &[&str]| {
        let mut f = vec![
            on("red", 1, p),
            on("red", 2, 40),
            "control(red)".to_string(),
        ];
        f.extend(owned(held));
        position(&s, &f)
    };
    // 78 + 5 overshoots; 78 + 3 is home.
    assert_eq!(
        s.legal(&st(78, &["held(5, 1)"]), "red"),
        set(vec!["pass".to_string(), mv("red", 40, 5, 45)])
    );
    let home = st(78, &["held(3, 1)", "held(6, 1)"]);
    assert_eq!(
        s.legal(&home, "red"),
        set(vec![
            "pass".to_string(),
            "move(78, 3, centre)".to_string(),
            mv("red", 40, 3, 43),
            mv("red", 40, 6, 46),
        ])
    );
    let after = s.play(&home, &[("red", "move(78, 3, centre)")]);
    assert_eq!(
        facts(&s, &after),
        set(vec![
            "finished(red, 1)".to_string(),
            on("red", 2, 40),
            "control(red)".to_string(),
            "held(6, 1)".to_string(),
        ])
    );
    // From 80: a 2 cannot move (it would need 1), a grace can.
    assert_eq!(
        s.legal(&st(80, &["held(2, 1)"]), "red"),
        set(vec!["pass".to_string(), mv("red", 40, 2, 42)])
    );
    for g in [6, 10, 25] {
        let held = format!("held({g}, 1)");
        let l = s.legal(&st(80, &[held.as_str()]), "red");
        assert!(l.contains(&format!("move(80, {g}, centre)")), "{g}: {l:?}");
    }
    // A pair on 80 finishes with a 2 (half: 1).
    let pair = position(
        &s,
        &[
            on("red", 1, 80),
            on("red", 2, 80),
            "control(red)".to_string(),
            "held(2, 1)".to_string(),
        ],
    );
    let p = format!("pair({}, 2, centre)", cell("red", 80));
    assert_eq!(
        s.legal(&pair, "red"),
        set(vec!["pass".to_string(), p.clone()])
    );
    let after = s.play(&pair, &[("red", &p)]);
    assert_eq!(
        facts(&s, &after),
        set(owned(&[
            "finished(red, 1)",
            "finished(red, 2)",
            "control(green)",
            "throwing"
        ]))
    );
}

// ----------------------------------------------------------- seed rule 17

fn three_home(role: &str) -> Vec<String> {
    (1..=3).map(|i| format!("finished({role}, {i})")).collect()
}

/// Seed 17: a player whose last piece reaches the centre is placed next
/// (here second); its turn ends at once (other values and a pending extra
/// turn are dropped) and play goes on with the next player.
#[test]
fn seed17_finishing_player_is_placed() {
    let s = base();
    let mut f = three_home("red");
    f.extend(owned(&["finished(black, 1)", "finished(black, 2)"]));
    f.extend(owned(&["finished(black, 3)", "finished(black, 4)"]));
    f.extend(owned(&[
        "placed(black, 1)",
        "zero(green, 1)",
        "zero(blue, 1)",
    ]));
    f.push(on("red", 4, 78));
    f.extend(owned(&[
        "control(red)",
        "held(3, 1)",
        "held(6, 1)",
        "bonus",
    ]));
    let st = position(&s, &f);
    let after = s.play(&st, &[("red", "move(78, 3, centre)")]);
    let mut expected: Vec<String> = (1..=4).map(|i| format!("finished(red, {i})")).collect();
    expected.extend((1..=4).map(|i| format!("finished(black, {i})")));
    expected.extend(owned(&[
        "placed(black, 1)",
        "placed(red, 2)",
        "zero(green, 1)",
        "zero(blue, 1)",
        "control(green)",
        "throwing",
    ]));
    assert_eq!(facts(&s, &after), set(expected));
    assert!(!s.is_terminal(&after));
}

/// Seed 17: the game ends when only one player is left; ranks by finishing
/// order, payoff 100 / 67 / 33 / 0 (notes).
#[test]
fn seed17_game_ends_with_a_full_ranking() {
    let s = base();
    let mut f = three_home("red");
    f.extend(owned(&[
        "placed(black, 1)",
        "placed(green, 2)",
        "zero(blue, 1)",
    ]));
    f.push(on("red", 4, 78));
    f.extend(owned(&["control(red)", "held(3, 1)"]));
    let st = position(&s, &f);
    assert!(!s.is_terminal(&st));
    let after = s.play(&st, &[("red", "move(78, 3, centre)")]);
    assert!(s.is_terminal(&after));
    assert!(s.facts(&after).contains(&"placed(red, 3)".to_string()));
    assert_eq!(s.goals(&after), goals(100, 0, 33, 67));
}

/// Notes (end): after `cap` throws the game stops; the finished rank
/// first, the others by total progress (a finished piece counts 81);
/// equal progress shares the better rank.
#[test]
fn gap_throw_cap_ranks_by_progress() {
    let s = Scenario::open(BASE, &[("cap", "5")]);
    let mut f: Vec<String> = (1..=4).map(|i| format!("finished(black, {i})")).collect();
    f.push("placed(black, 1)".to_string());
    // Blue 30 + 0 + 0 + 0; red 20 + 10 + 0 + 0; green 81 + 5 + 0 + 0.
    f.extend([on("blue", 1, 30), on("red", 1, 20), on("red", 2, 10)]);
    f.extend(owned(&["zero(blue, 2)", "zero(blue, 3)", "zero(blue, 4)"]));
    f.extend(owned(&[
        "zero(red, 3)",
        "zero(red, 4)",
        "finished(green, 1)",
    ]));
    f.extend(owned(&["zero(green, 3)", "zero(green, 4)"]));
    f.push(on("green", 2, 5));
    f.extend(owned(&["control(red)", "throwing"]));
    let st = at_count(&s, &f, 4);
    assert!(!s.is_terminal(&st));
    let after = s.play(&st, &[("random", "cowries(3)")]);
    assert!(s.is_terminal(&after));
    assert_eq!(s.goals(&after), goals(100, 33, 33, 67));

    // The default cap is 3000 throws: one short of it the game goes on.
    let base = base();
    assert!(!base.is_terminal(&at_count(&base, &f, 2999)));
    assert!(base.is_terminal(&at_count(&base, &f, 3000)));
}

// ------------------------------------------------------------ variant d6

/// Variant: one d6, each face 1/6; 6 is the only grace, three sixes void
/// the turn; a 1 brings a piece home from 80, and a 6 does not (the
/// base's grace rule is for cowries, which never show 1).
#[test]
fn variant_d6_die_and_grace() {
    let s = Scenario::open(D6, &[]);
    let init = s.initial();
    let d6: Vec<(String, u64)> = (1..=6).map(|f| (format!("d6({f})"), 1)).collect();
    assert_eq!(s.chance(&init), d6);
    let st = position(&s, &series(&[]));
    let six = s.play(&st, &[("random", "d6(6)")]);
    assert_eq!(
        facts(&s, &six),
        set(series(&["held(6, 1)", "streak(6, 1)"]))
    );
    let five = s.play(&st, &[("random", "d6(5)")]);
    let mut expected: Vec<String> = (1..=4).map(|i| format!("zero(red, {i})")).collect();
    expected.extend(owned(&["control(red)", "held(5, 1)"]));
    assert_eq!(facts(&s, &five), set(expected));
    let two = position(&s, &series(&["held(6, 2)", "streak(6, 2)"]));
    let void = s.play(&two, &[("random", "d6(6)")]);
    let mut expected: Vec<String> = (1..=4).map(|i| format!("zero(red, {i})")).collect();
    expected.extend(owned(&["control(green)", "throwing"]));
    assert_eq!(facts(&s, &void), set(expected));
    // 10 and 25 are no values of the die.
    let st = position(
        &s,
        &[
            on("red", 1, 80),
            "control(red)".to_string(),
            "held(1, 1)".to_string(),
        ],
    );
    assert_eq!(
        s.legal(&st, "red"),
        sorted(&["move(80, 1, centre)", "pass"])
    );
    let six = position(
        &s,
        &[
            on("red", 1, 80),
            "control(red)".to_string(),
            "held(6, 1)".to_string(),
        ],
    );
    let moves = s.legal(&six, "red");
    assert!(
        !moves.iter().any(|m| m.starts_with("move(80,")),
        "a 6 finishes from 80: {moves:?}"
    );
}

/// `tabula perft --depth 3` counts the roll-off: every throw is a branch
/// (7 cowrie values, 6 die faces) and the players only wait.
#[test]
fn perft_counts_the_roll_off() {
    let count = |s: &Scenario| -> Vec<u128> {
        tabula::engine::perft::perft(&s.game, 3, |_| {})
            .expect("perft")
            .iter()
            .map(|l| l.leaves)
            .collect()
    };
    assert_eq!(count(&base()), vec![1, 7, 49, 343]);
    assert_eq!(count(&Scenario::open(D6, &[])), vec![1, 6, 36, 216]);
}

// ------------------------------------------------------------ bad input

/// `tabula play --agent red=human`: a move that is not legal is refused
/// with the legal moves and asked again; nothing changes; the legal one
/// is played.
#[test]
fn bad_input_play_refuses_illegal_move() {
    let (out, err, code) = run(
        &[
            "play",
            BASE,
            "--seed",
            "1",
            "--agent",
            "red=human",
            "--max-steps",
            "6",
        ],
        "move(0, 3, sq(8, 5))\nmove(0, 2, sq(8, 6))\n",
    );
    assert_eq!(
        err,
        "error: `move(0, 3, sq(8, 5))` is not a legal move of red; legal: pass, \
         move(0, 2, sq(8, 6))\n"
    );
    assert_eq!(code, 0);
    assert!(out.contains(
        "red: 1. pass                   2. move(0, 2, sq(8, 6))\n\
         red> move(0, 3, sq(8, 5))\n\
         red> move(0, 2, sq(8, 6))\n\
         6. black=noop blue=noop red=move(0, 2, sq(8, 6)) green=noop random=noop\n"
    ));
    assert!(out.ends_with("stopped after 6 steps (--max-steps)\n"));
}

// ------------------------------------------------------------ sanity

/// Bad input (issue): in the REPL, a move that is not legal is refused with
/// the legal moves, and nothing changes: the session goes on exactly as one
/// without the bad line. Red starts (25 in the roll-off) and throws a 3.
#[test]
fn bad_input_repl_refuses_illegal_move_and_changes_nothing() {
    let args = ["repl", BASE, "--seed", "1"];
    let throws = "roll cowries(2)\nroll cowries(2)\nroll cowries(25)\nroll cowries(2)\n\
                  roll cowries(3)\n";
    let (out, err, code) = run(
        &args,
        &format!("{throws}play move(0, 2, sq(8, 6))\nmoves\nstate\n"),
    );
    assert_eq!(
        err,
        "error: `move(0, 2, sq(8, 6))` is not a legal move of red; legal: pass, \
         move(0, 3, sq(8, 5))\n"
    );
    assert_eq!(code, 1);
    let (clean, clean_err, clean_code) = run(&args, &format!("{throws}moves\nstate\n"));
    assert_eq!((clean_err.as_str(), clean_code), ("", 0));
    assert_eq!(out, clean);
    let mut state: Vec<String> = PLAYERS
        .iter()
        .flat_map(|r| (1..=4).map(move |i| format!("zero({r}, {i})")))
        .collect();
    state.sort();
    let tail = format!(
        "red: 1. pass                   2. move(0, 3, sq(8, 5))\ngreen: 1. noop\n\
         random: 1. noop 1\ncontrol(red)\nheld(3, 1)\nthrows(5)\n{}\n",
        state.join("\n")
    );
    assert!(out.ends_with(&tail), "REPL output:\n{out}");
}

/// Observed cowrie frequencies in seeded random playouts match the declared
/// weights within 1.5 percentage points.
#[test]
fn observed_cowrie_frequencies() {
    let s = base();
    let (counts, total) = draws_of(&chance_draws(&s.game, 3, 7), "cowries(");
    assert!(total > 2000, "{total} throws");
    for (face, w) in COWRIES {
        let mv = format!("cowries({face})");
        let observed = counts.get(&mv).copied().unwrap_or(0) as f64 / total as f64;
        let declared = w as f64 / 64.0;
        println!("{mv}: observed {observed:.4} declared {declared:.4} ({total} throws)");
        assert!(
            (observed - declared).abs() < 0.015,
            "{mv}: {observed} vs {declared}"
        );
    }
}
