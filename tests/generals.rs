//! Scenario tests for games/generals.rules and its variants: one named
//! position per seed rule (and per gap the notes resolve), given as facts,
//! with the exact legal moves of the player to move there, the exact state
//! after a chosen move and the exact chance outcomes.
//!
//! Cells are sq(X, Y), X = 0..9 west to east, Y = 0..9 south to north. The
//! keep is sq(4..5, 4..5); the moat the ring sq(3..6, 3..6) round it; the
//! garrisons the corner triangles NW sq(0..2, 9), sq(0..1, 8), sq(0, 7) and
//! their mirror images. `defends(T)` names the defending team; the other
//! one attacks. A player acts on `thrown(N)` while nature throws the next
//! die, so every action step also names the next throw.

mod common;
use common::*;
use tabula::engine::State;

const BASE: &str = "games/generals.rules";
const LARGE: &str = "games/variants/generals_12x12.rules";
const TEAMS: &str = "games/variants/generals_teams.rules";

fn base() -> Scenario {
    Scenario::open(BASE, &[])
}

/// The facts plus a throw counter at zero.
fn at_start_of_count<'a>(facts: &[&'a str]) -> Vec<&'a str> {
    let mut v = facts.to_vec();
    v.extend(["throws_tens(0)", "throws_units(0)"]);
    v
}

/// The facts plus a throw counter at one, sorted: the state after one
/// action from a position made by `at_start_of_count`.
fn after_one_throw(facts: &[&str]) -> Vec<String> {
    let mut v = facts.to_vec();
    v.extend(["throws_tens(0)", "throws_units(1)"]);
    sorted(&v)
}

fn result(north: i64, south: i64) -> Vec<(String, Option<i64>)> {
    vec![
        ("north".to_string(), Some(north)),
        ("south".to_string(), Some(south)),
        ("random".to_string(), None),
    ]
}

fn noop() -> Vec<String> {
    sorted(&["noop"])
}

/// The six faces of the die, 1/6 each.
fn d6() -> Vec<(String, u64)> {
    (1..=6).map(|n| (format!("d6({n})"), 1)).collect()
}

const NW: [(i64, i64); 6] = [(0, 9), (1, 9), (2, 9), (0, 8), (1, 8), (0, 7)];

/// The cells of the four garrisons (10x10), NW, NE, SW, SE.
fn garrisons() -> [Vec<(i64, i64)>; 4] {
    let mirror_x = |&(x, y): &(i64, i64)| (9 - x, y);
    let mirror_y = |&(x, y): &(i64, i64)| (x, 9 - y);
    let nw = NW.to_vec();
    let ne: Vec<_> = nw.iter().map(mirror_x).collect();
    let sw: Vec<_> = nw.iter().map(mirror_y).collect();
    let se: Vec<_> = ne.iter().map(mirror_y).collect();
    [nw, ne, sw, se]
}

fn units_on(cells: &[(i64, i64)], player: &str) -> Vec<String> {
    cells
        .iter()
        .map(|(x, y)| format!("unit(sq({x}, {y}), {player})"))
        .collect()
}

/// The 24 units of the start: north on NW and NE, south on SW and SE.
fn start_units() -> Vec<String> {
    let [nw, ne, sw, se] = garrisons();
    let mut v = units_on(&nw, "north");
    v.extend(units_on(&ne, "north"));
    v.extend(units_on(&sw, "south"));
    v.extend(units_on(&se, "south"));
    v
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ------------------------------------------------ seed 1: terms, arena

/// Seed 1 / notes (board): the small arena, 6 units in each corner
/// triangle, north on the two northern garrisons, south on the southern
/// ones; the toss still to be made, nobody in control, every player waits.
#[test]
fn seed1_start_position_and_garrisons() {
    let s = base();
    let init = s.initial();
    let mut expected = start_units();
    expected.extend(strings(&[
        "hits(0)",
        "left(north, 12)",
        "left(south, 12)",
        "toss",
        "throws_tens(0)",
        "throws_units(0)",
    ]));
    expected.sort();
    assert_eq!(s.facts(&init), expected);
    assert!(!s.is_terminal(&init));
    assert_eq!(s.legal(&init, "north"), noop());
    assert_eq!(s.legal(&init, "south"), noop());
}

// ------------------------------------------------ seed 2: toss, opening

/// Seed 2 / notes: nature tosses (1/2 each); the winner chooses attack or
/// defence while the first die is thrown for the attacker, who opens.
#[test]
fn seed2_toss_choice_and_attacker_opens() {
    let s = base();
    let init = s.initial();
    assert_eq!(
        s.chance(&init),
        vec![("toss(north)".to_string(), 1), ("toss(south)".to_string(), 1)]
    );
    let tossed = s.play(&init, &[("random", "toss(north)")]);
    let mut expected = start_units();
    expected.extend(strings(&[
        "choosing",
        "control(north)",
        "hits(0)",
        "left(north, 12)",
        "left(south, 12)",
        "throws_tens(0)",
        "throws_units(0)",
    ]));
    expected.sort();
    assert_eq!(s.facts(&tossed), expected);
    assert_eq!(
        s.legal(&tossed, "north"),
        sorted(&["choose(attack)", "choose(defence)"])
    );
    assert_eq!(s.legal(&tossed, "south"), noop());
    assert_eq!(s.chance(&tossed), d6());

    // North defends: south attacks and acts first, on the 4 just thrown.
    let defending = s.play(
        &tossed,
        &[("north", "choose(defence)"), ("random", "d6(4)")],
    );
    let mut expected = start_units();
    expected.extend(strings(&[
        "control(south)",
        "defends(north)",
        "hits(0)",
        "left(north, 12)",
        "left(south, 12)",
        "thrown(4)",
        "throws_tens(0)",
        "throws_units(1)",
    ]));
    expected.sort();
    assert_eq!(s.facts(&defending), expected);
    assert_eq!(s.legal(&defending, "north"), noop());

    // North attacks: north keeps control and acts first.
    let attacking = s.play(&tossed, &[("north", "choose(attack)"), ("random", "d6(2)")]);
    let facts = s.facts(&attacking);
    assert!(facts.contains(&"defends(south)".to_string()));
    assert!(facts.contains(&"control(north)".to_string()));
    assert!(facts.contains(&"thrown(2)".to_string()));

    // South winning the toss chooses for itself.
    let tossed = s.play(&init, &[("random", "toss(south)")]);
    assert_eq!(
        s.legal(&tossed, "south"),
        sorted(&["choose(attack)", "choose(defence)"])
    );
    assert_eq!(s.legal(&tossed, "north"), noop());
}

// ------------------------------------------- seed 3: unit moves (attack)

/// Seed 3.1 / 3.2: a throw of 2 moves one unit exactly 2 cells along one
/// of the 8 lines; never onto the keep (north-west here: the moat cell
/// sq(6, 3) is passed, the keep cell sq(5, 4) cannot be entered by a
/// defender). Control passes; the next throw is already made.
#[test]
fn seed3_straight_lines_exact_distance() {
    let s = base();
    let facts = [
        "unit(sq(7, 2), south)",
        "unit(sq(0, 9), north)",
        "unit(sq(1, 9), north)",
        "unit(sq(2, 9), north)",
        "left(north, 3)",
        "left(south, 1)",
        "defends(south)",
        "hits(0)",
        "control(south)",
        "thrown(2)",
    ];
    let p = s.state(&at_start_of_count(&facts));
    assert!(!s.is_terminal(&p));
    assert_eq!(
        s.legal(&p, "south"),
        sorted(&[
            "move(sq(7, 2), n)",
            "move(sq(7, 2), ne)",
            "move(sq(7, 2), e)",
            "move(sq(7, 2), se)",
            "move(sq(7, 2), s)",
            "move(sq(7, 2), sw)",
            "move(sq(7, 2), w)",
        ])
    );
    assert_eq!(s.legal(&p, "north"), noop());
    assert_eq!(s.chance(&p), d6());
    let after = s.play(&p, &[("south", "move(sq(7, 2), ne)"), ("random", "d6(3)")]);
    assert_eq!(
        s.facts(&after),
        after_one_throw(&[
            "unit(sq(9, 4), south)",
            "unit(sq(0, 9), north)",
            "unit(sq(1, 9), north)",
            "unit(sq(2, 9), north)",
            "left(north, 3)",
            "left(south, 1)",
            "defends(south)",
            "hits(0)",
            "control(north)",
            "thrown(3)",
        ])
    );
}

/// Seed 3.3: no unit jumps over another unit of any colour (own sq(2, 6)
/// blocks north from sq(2, 4), the enemy sq(2, 2) blocks south), nor over
/// the keep (notes: east from sq(2, 4), south-east from sq(2, 6)). Seed 3.4:
/// an enemy at exactly the throw is removed and replaced (south-east onto
/// sq(5, 1)). Seed 4.7: a defender may move into the moat (sq(5, 6)).
#[test]
fn seed3_no_jumping_capture_at_exact_distance() {
    let s = base();
    let facts = [
        "unit(sq(2, 4), north)",
        "unit(sq(2, 6), north)",
        "unit(sq(2, 2), south)",
        "unit(sq(5, 1), south)",
        "unit(sq(9, 0), south)",
        "unit(sq(9, 1), south)",
        "left(north, 2)",
        "left(south, 4)",
        "defends(north)",
        "hits(0)",
        "control(north)",
        "thrown(3)",
    ];
    let p = s.state(&at_start_of_count(&facts));
    assert_eq!(
        s.legal(&p, "north"),
        sorted(&[
            "move(sq(2, 4), ne)",
            "move(sq(2, 4), se)",
            "move(sq(2, 6), n)",
            "move(sq(2, 6), ne)",
            "move(sq(2, 6), e)",
        ])
    );
    assert_eq!(s.legal(&p, "south"), noop());
    let after = s.play(&p, &[("north", "move(sq(2, 4), se)"), ("random", "d6(6)")]);
    assert_eq!(
        s.facts(&after),
        after_one_throw(&[
            "unit(sq(5, 1), north)",
            "unit(sq(2, 6), north)",
            "unit(sq(2, 2), south)",
            "unit(sq(9, 0), south)",
            "unit(sq(9, 1), south)",
            "left(north, 2)",
            "left(south, 3)",
            "defends(north)",
            "hits(0)",
            "control(south)",
            "thrown(6)",
        ])
    );
    assert!(!s.is_terminal(&after));
}

/// The attacking position of the hit scenarios: south attacks with four
/// units, sq(1, 1) three cells from the keep cell sq(4, 4) along the
/// diagonal through the moat corner sq(3, 3); north defends with `north`.
fn storming<'a>(north: &[&'a str], hits: &'a str, thrown: &'a str) -> Vec<&'a str> {
    let mut v = vec![
        "unit(sq(1, 1), south)",
        "unit(sq(9, 0), south)",
        "unit(sq(8, 0), south)",
        "unit(sq(7, 0), south)",
        "left(south, 4)",
        "defends(north)",
        "control(south)",
        hits,
        thrown,
    ];
    v.extend_from_slice(north);
    at_start_of_count(&v)
}

/// The moves of `storming` with a throw of 3 other than the storm.
const STORMING_MOVES_3: [&str; 7] = [
    "move(sq(1, 1), n)",
    "move(sq(1, 1), e)",
    "move(sq(9, 0), n)",
    "move(sq(9, 0), nw)",
    "move(sq(8, 0), n)",
    "move(sq(8, 0), nw)",
    "move(sq(7, 0), n)",
];

fn storming_legal_3(storms: &[&str]) -> Vec<String> {
    let mut v: Vec<&str> = STORMING_MOVES_3.to_vec();
    v.extend(["move(sq(7, 0), nw)", "move(sq(7, 0), w)"]);
    v.extend_from_slice(storms);
    sorted(&v)
}

/// Seed 3.5 / 5.1: with no defender in the moat, an attacker reaching the
/// keep at exactly the throw hits the General; seed 3.6 / 5.2: the unit
/// that hits dies. The defender in the corner does not count.
#[test]
fn seed3_hit_with_the_moat_empty_and_the_hitter_dies() {
    let s = base();
    let north = ["unit(sq(0, 9), north)", "left(north, 1)"];
    let p = s.state(&storming(&north, "hits(0)", "thrown(3)"));
    assert_eq!(s.legal(&p, "south"), storming_legal_3(&["hit(sq(1, 1))"]));
    assert_eq!(s.legal(&p, "north"), noop());
    let after = s.play(&p, &[("south", "hit(sq(1, 1))"), ("random", "d6(2)")]);
    assert_eq!(
        s.facts(&after),
        after_one_throw(&[
            "unit(sq(9, 0), south)",
            "unit(sq(8, 0), south)",
            "unit(sq(7, 0), south)",
            "unit(sq(0, 9), north)",
            "left(south, 3)",
            "left(north, 1)",
            "defends(north)",
            "control(north)",
            "hits(1)",
            "thrown(2)",
        ])
    );
    assert!(!s.is_terminal(&after));
}

/// Notes (gaps): hits need the exact distance. With a 2 the same unit only
/// reaches the moat corner; with a defender there it captures it (seed
/// 4.10: "The General takes no hit in such moves").
#[test]
fn seed4_capture_in_the_moat_is_no_hit() {
    let s = base();
    let north = [
        "unit(sq(3, 3), north)",
        "unit(sq(0, 9), north)",
        "left(north, 2)",
    ];
    let p = s.state(&storming(&north, "hits(0)", "thrown(2)"));
    assert_eq!(
        s.legal(&p, "south"),
        sorted(&[
            "move(sq(1, 1), n)",
            "move(sq(1, 1), ne)",
            "move(sq(1, 1), e)",
            "move(sq(9, 0), n)",
            "move(sq(9, 0), nw)",
            "move(sq(8, 0), n)",
            "move(sq(8, 0), nw)",
            "move(sq(7, 0), n)",
            "move(sq(7, 0), ne)",
            "move(sq(7, 0), nw)",
            "move(sq(7, 0), w)",
        ])
    );
    let after = s.play(&p, &[("south", "move(sq(1, 1), ne)"), ("random", "d6(1)")]);
    assert_eq!(
        s.facts(&after),
        after_one_throw(&[
            "unit(sq(3, 3), south)",
            "unit(sq(9, 0), south)",
            "unit(sq(8, 0), south)",
            "unit(sq(7, 0), south)",
            "unit(sq(0, 9), north)",
            "left(south, 4)",
            "left(north, 1)",
            "defends(north)",
            "control(north)",
            "hits(0)",
            "thrown(1)",
        ])
    );
}

/// A unit in the moat next to two keep cells (east and north-east of
/// sq(3, 4)) has one hit, not two: the seed hits the General, not a cell.
#[test]
fn seed3_one_hit_however_many_keep_cells_are_reached() {
    let s = base();
    let facts = [
        "unit(sq(3, 4), south)",
        "unit(sq(0, 0), south)",
        "unit(sq(1, 0), south)",
        "unit(sq(9, 9), north)",
        "left(south, 3)",
        "left(north, 1)",
        "defends(north)",
        "hits(0)",
        "control(south)",
        "thrown(1)",
    ];
    let p = s.state(&at_start_of_count(&facts));
    assert_eq!(
        s.legal(&p, "south"),
        sorted(&[
            "hit(sq(3, 4))",
            "move(sq(3, 4), n)",
            "move(sq(3, 4), se)",
            "move(sq(3, 4), s)",
            "move(sq(3, 4), sw)",
            "move(sq(3, 4), w)",
            "move(sq(3, 4), nw)",
            "move(sq(0, 0), n)",
            "move(sq(0, 0), ne)",
            "move(sq(1, 0), n)",
            "move(sq(1, 0), ne)",
            "move(sq(1, 0), e)",
            "move(sq(1, 0), nw)",
        ])
    );
}

// ------------------------------------------ seed 4: unit moves (defence)

/// Seed 4.8 / 4.9: with defenders in the moat the storm is no hit: the
/// attacker and one moat defender of the attacker's choosing die (a real
/// choice, one move per defender in the moat; notes: [GEN] picks at
/// random, the seed does not).
#[test]
fn seed4_moat_held_attacker_chooses_the_defender_that_dies() {
    let s = base();
    let north = [
        "unit(sq(3, 6), north)",
        "unit(sq(6, 6), north)",
        "unit(sq(0, 9), north)",
        "left(north, 3)",
    ];
    let p = s.state(&storming(&north, "hits(0)", "thrown(3)"));
    assert_eq!(
        s.legal(&p, "south"),
        storming_legal_3(&["clash(sq(1, 1), sq(3, 6))", "clash(sq(1, 1), sq(6, 6))"])
    );
    let after = s.play(
        &p,
        &[("south", "clash(sq(1, 1), sq(6, 6))"), ("random", "d6(5)")],
    );
    assert_eq!(
        s.facts(&after),
        after_one_throw(&[
            "unit(sq(9, 0), south)",
            "unit(sq(8, 0), south)",
            "unit(sq(7, 0), south)",
            "unit(sq(3, 6), north)",
            "unit(sq(0, 9), north)",
            "left(south, 3)",
            "left(north, 2)",
            "defends(north)",
            "control(north)",
            "hits(0)",
            "thrown(5)",
        ])
    );
    assert!(!s.is_terminal(&after));
}

// ----------------------------------------------- seed 5: the General

/// Seed 5.3: the third hit kills the General and wins for the attacker.
#[test]
fn seed5_third_hit_wins() {
    let s = base();
    let north = ["unit(sq(0, 9), north)", "left(north, 1)"];
    let p = s.state(&storming(&north, "hits(2)", "thrown(3)"));
    assert!(!s.is_terminal(&p));
    let after = s.play(&p, &[("south", "hit(sq(1, 1))"), ("random", "d6(2)")]);
    assert!(s.facts(&after).contains(&"hits(3)".to_string()));
    assert!(s.is_terminal(&after));
    assert_eq!(s.goals(&after), result(0, 100));
}

/// Seed 1: "3 times (or more as players decide)": with `hits_needed = 4`
/// the third hit does not end the game.
#[test]
fn seed1_hits_needed_is_a_parameter() {
    let s = Scenario::open(BASE, &[("hits_needed", "4")]);
    let north = ["unit(sq(0, 9), north)", "left(north, 1)"];
    let p = s.state(&storming(&north, "hits(2)", "thrown(3)"));
    let after = s.play(&p, &[("south", "hit(sq(1, 1))"), ("random", "d6(2)")]);
    assert!(s.facts(&after).contains(&"hits(3)".to_string()));
    assert!(!s.is_terminal(&after));
    assert_eq!(s.legal(&after, "north"), sorted(&[
        "move(sq(0, 9), e)",
        "move(sq(0, 9), se)",
        "move(sq(0, 9), s)",
    ]));
}

/// Seed 5.4: the defence wins when fewer attackers are left than hits are
/// still needed: 3 attackers and no hit is no win yet; a capture leaving
/// 2 is. With one hit taken, 2 attackers are still enough.
#[test]
fn seed5_defence_wins_with_fewer_attackers_than_hits_needed() {
    let s = base();
    let position = |hits: &'static str| {
        at_start_of_count(&[
            "unit(sq(5, 2), north)",
            "unit(sq(0, 9), north)",
            "unit(sq(9, 9), north)",
            "unit(sq(5, 1), south)",
            "left(north, 3)",
            "left(south, 1)",
            "defends(south)",
            "control(south)",
            "thrown(1)",
            hits,
        ])
    };
    let p = s.state(&position("hits(0)"));
    assert!(!s.is_terminal(&p));
    assert_eq!(
        s.legal(&p, "south"),
        sorted(&[
            "move(sq(5, 1), n)",
            "move(sq(5, 1), ne)",
            "move(sq(5, 1), e)",
            "move(sq(5, 1), se)",
            "move(sq(5, 1), s)",
            "move(sq(5, 1), sw)",
            "move(sq(5, 1), w)",
            "move(sq(5, 1), nw)",
        ])
    );
    let after = s.play(&p, &[("south", "move(sq(5, 1), n)"), ("random", "d6(1)")]);
    assert!(s.facts(&after).contains(&"left(north, 2)".to_string()));
    assert!(s.is_terminal(&after));
    assert_eq!(s.goals(&after), result(0, 100));

    let p = s.state(&position("hits(1)"));
    let after = s.play(&p, &[("south", "move(sq(5, 1), n)"), ("random", "d6(1)")]);
    assert!(!s.is_terminal(&after));
    assert_eq!(s.goals(&after), result(50, 50));
}
