//! Locally stratified programs (issue 17, part 2): recursion through
//! negation by relation names is accepted with warning W0004 when no ground
//! atom depends on its own negation, evaluated in ground dependency order,
//! and refused with E0103 naming the ground atoms of a real cycle.

use std::collections::BTreeMap;
use tabula::engine::perft::perft;
use tabula::engine::{EngineKind, Game, State};
use tabula::load::{Failed, Loaded, open_str};
use tabula::syntax::Syntax;

/// One player marks cells 1..4, one a turn, three turns. `odd n` is the
/// parity of the marks on cells 1..n, each ground `odd` reading the
/// negation of the one before it; a cell may be marked only where the
/// marks before it are even; `canmark` reads `legal` and `legal noop` the
/// negation of `canmark`; the goal 0 is the negation of the goal 100.
const PARITY: &str = "
(role p)
(init (step 0))
(cell 1) (cell 2) (cell 3) (cell 4)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (odd ?n) (succ ?m ?n) (odd ?m) (not (true (mark ?n))))
(<= (odd ?n) (succ ?m ?n) (not (odd ?m)) (true (mark ?n)))
(<= (legal p (mark ?n)) (cell ?n) (not (true (mark ?n))) (not (odd ?n)))
(<= canmark (legal p (mark ?n)))
(<= (legal p noop) (not canmark))
(<= (next (mark ?n)) (does p (mark ?n)))
(<= (next (mark ?n)) (true (mark ?n)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 3)))
(<= (goal p 100) (odd 4))
(<= (goal p 0) (not (goal p 100)))
";

fn load(text: &str) -> Result<Loaded, Failed> {
    open_str("t.kif", text, Syntax::Kif)
}

fn warning_messages(loaded: &Loaded) -> Vec<String> {
    loaded
        .warnings
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

fn error_messages(failed: &Failed) -> Vec<String> {
    failed
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

#[test]
fn a_locally_stratified_program_loads_with_a_warning_per_cycle_of_names() {
    let loaded = load(PARITY).unwrap_or_else(|f| panic!("refused: {:?}", error_messages(&f)));
    assert_eq!(
        warning_messages(&loaded),
        [
            "W0004: recursion through negation by relation names: odd -> not odd",
            "W0004: recursion through negation by relation names: \
             legal -> not canmark -> legal",
            "W0004: recursion through negation by relation names: goal -> not goal",
        ]
    );
}

/// Worked out by hand (marks written as sets, `odd n` as the parity of the
/// marks on 1..n):
/// - depth 1: no marks, every `odd` false: mark 1, 2, 3 or 4. 4 leaves,
///   4 states.
/// - depth 2: after {1} every `odd` is true: only noop; after {2}: mark 1;
///   after {3}: mark 1 or 2; after {4}: mark 1, 2 or 3. 7 leaves, 7 states.
/// - depth 3: {1}: noop; {1,2}: 3 or 4; {1,3}: 4; {2,3}: 1 or 4; {1,4}:
///   noop; {2,4}: 1; {3,4}: 1 or 2. 10 leaves; states {1}, {1,4},
///   {1,2,3}, {1,2,4}, {1,3,4}, {2,3,4}: 6. All terminal.
///
/// Both engines count the same.
#[test]
fn negation_is_evaluated_in_ground_dependency_order() {
    let mut game = load(PARITY).map_err(|f| error_messages(&f)).unwrap().game;
    for engine in [EngineKind::Reference, EngineKind::Incremental] {
        game.set_engine(engine);
        let counts: Vec<(u128, u64)> = perft(&game, 4, |_| {})
            .unwrap()
            .iter()
            .map(|l| (l.leaves, l.states))
            .collect();
        assert_eq!(
            counts,
            [(1, 1), (4, 4), (7, 7), (10, 6), (0, 0)],
            "{engine:?}"
        );
    }
}

/// Every terminal state (its marks) and the goal there: 100 for an odd
/// number of marks, else 0 through the negation of goal 100.
#[test]
fn goals_defined_by_the_negation_of_a_goal() {
    let game = load(PARITY).map_err(|f| error_messages(&f)).unwrap().game;
    let mut goals = BTreeMap::new();
    terminal_goals(&game, &game.initial(), &mut goals);
    let expected: BTreeMap<String, i64> = [
        ("1", 100),
        ("1 4", 0),
        ("1 2 3", 100),
        ("1 2 4", 100),
        ("1 3 4", 100),
        ("2 3 4", 100),
    ]
    .into_iter()
    .map(|(marks, goal)| (marks.to_string(), goal))
    .collect();
    assert_eq!(goals, expected);
}

/// Walks the (one-player) game tree, noting each terminal state's goal
/// under the cells it has marked.
fn terminal_goals(game: &Game, state: &State, out: &mut BTreeMap<String, i64>) {
    let mut m = game.machine();
    m.set_state(state);
    if m.is_terminal() {
        let marks: Vec<String> = game
            .facts(state)
            .into_iter()
            .map(|t| game.show(t))
            .filter_map(|f| {
                f.strip_prefix("(mark ")?
                    .strip_suffix(')')
                    .map(str::to_string)
            })
            .collect();
        let goal = m.goals().unwrap()[0].expect("a goal in a terminal state");
        out.insert(marks.join(" "), goal);
        return;
    }
    let moves = m.legal(0).to_vec();
    for mv in moves {
        m.set_state(state);
        let next = m.next(&[mv]).expect("next state");
        terminal_goals(game, &next, out);
    }
}

#[test]
fn a_real_ground_cycle_is_refused_naming_its_atoms() {
    // p(a) reads not p(b), which reads not p(a).
    let text = "(role x) (q a) (q b) (r a b) (r b a)
                (<= (p ?x) (q ?x) (r ?x ?y) (not (p ?y)))";
    let failed = load(text).err().expect("refused");
    assert_eq!(
        error_messages(&failed),
        ["E0103: recursion through negation on ground atoms: \
          (p a) -> not (p b) -> not (p a)"]
    );
}

#[test]
fn the_same_rule_over_a_chain_is_accepted() {
    // p(a) reads not p(b), p(b) reads not p(c): no cycle. p(c) holds, so
    // p(b) does not and p(a) does.
    let text = "(role x) (q a) (q b) (q c) (r a b) (r b c) (r c d)
                (<= (p ?x) (q ?x) (r ?x ?y) (not (p ?y)))
                (<= terminal (p a) (not (p b)) (p c))
                (<= (goal x 100) terminal)";
    let game = load(text).map_err(|f| error_messages(&f)).unwrap().game;
    let mut m = game.machine();
    m.set_state(&game.initial());
    assert!(m.is_terminal());
}

#[test]
fn a_long_ground_cycle_is_named_with_its_middle_elided() {
    // c(0) -> c(1) -> ... -> c(20) -> not c(0).
    let mut text = String::from("(role x) (<= (c 20) (not (c 0)))\n");
    for i in 0..20 {
        text.push_str(&format!("(<= (c {i}) (c {}))\n", i + 1));
    }
    let failed = load(&text).err().expect("refused");
    assert_eq!(
        error_messages(&failed),
        ["E0103: recursion through negation on ground atoms: \
          (c 20) -> not (c 0) -> (c 1) -> (c 2) -> (c 3) -> (c 4) -> (c 5) -> (c 6) \
          -> (c 7) -> … 12 more … -> (c 20)"]
    );
}
