//! How the default engine is chosen (docs/ENGINES.md, "How an engine is
//! chosen"), shown on small games whose figures are counts, never times:
//! a small game is compiled within the first look; a static relation far
//! larger than a state's work sends a game to the rule evaluator before
//! grounding reaches its limits; the same relation beside states that cost
//! the rule evaluator much is grounded and compiled, the grounding of the
//! first look going on in place; a ground program predicted far past its
//! budget stops where it is predicted. `check --explain` says which and
//! why.

mod common;

use tabula::engine::EngineKind;
use tabula::ground::estimate::{self, FIRST_LOOK, MEASURE_AT};
use tabula::ground::{self, Limits};
use tabula::load::{Choice, Loaded};
use tabula::syntax::{self, Program, SourceMap, Syntax};

fn open(text: &str) -> Loaded {
    match tabula::load::open_str("choice.rules", text, Syntax::Rules) {
        Ok(loaded) => loaded,
        Err(failed) => panic!("does not load: {:?}", failed.diagnostics),
    }
}

/// Every pair of `numbers` numbers, read only by the terminal test with
/// both arguments bound: `numbers`² ground atoms for the grounder, one
/// lookup per state for the rule evaluator. `moves` is the game's `legal`
/// rule and `facts` more of its initial state.
fn pairs_game(numbers: u32, facts: &str, moves: &str) -> String {
    format!(
        "roles x.\n\
         num(0..{last}).\n\
         pair(N, M) :- num(N), num(M).\n\
         init on.\n\
         {facts}\n\
         {moves}\n\
         next on :- true on.\n\
         terminal :- pair({numbers}, {numbers}).\n\
         goal(x, 100) :- terminal.\n",
        last = numbers - 1,
    )
}

/// A hundred `f` facts in the state and a move for every pair of them: a
/// state's legal moves cost the rule evaluator 100 + 100 x 100 candidates.
const COSTLY_STATES: (&str, &str) = (
    "val(1..100).\ninit f(V) :- val(V).\nnext f(V) :- true f(V).",
    "legal(x, pick(A, B)) :- true f(A), true f(B).",
);

/// One move read from one fact: a state costs almost nothing.
const CHEAP_STATES: (&str, &str) = ("", "legal(x, wait) :- true on.");

#[test]
fn a_small_game_is_compiled_within_the_first_look() {
    let loaded = open(&pairs_game(10, CHEAP_STATES.0, CHEAP_STATES.1));
    let Choice::FirstLook { effort } = loaded.choice else {
        panic!("{:?}", loaded.choice)
    };
    assert!(effort < FIRST_LOOK, "{effort}");
    assert_ne!(loaded.game.engine(), EngineKind::Rules);
    assert_eq!(loaded.choice.fallback(), None);
}

/// 36,000,000 pairs would pass the limit of 2,000,000 ground atoms; the
/// prediction at the peek (a quarter of the measure) sees it, the state is
/// measured there, and its work allows no more: the grounding stops at
/// the peek.
#[test]
fn a_game_too_large_to_ground_falls_back_at_the_peek() {
    let loaded = open(&pairs_game(6_000, CHEAP_STATES.0, CHEAP_STATES.1));
    assert_eq!(loaded.game.engine(), EngineKind::Rules);
    let Choice::Predicted(prediction) = loaded.choice else {
        panic!("{:?}", loaded.choice)
    };
    assert!(prediction.at < MEASURE_AT, "{prediction:?}");
    assert!(prediction.budget <= FIRST_LOOK, "{prediction:?}");
    assert_eq!(
        prediction.budget,
        estimate::budget_for(prediction.per_state)
    );
}

/// 810,000 pairs ground (about 9,000,000 steps, past the first look) but
/// cost more than 1,500 cheap states: the rule evaluator runs the game,
/// whose grounding stopped at the peek, where the prediction came within
/// a tenth of the whole grounding's steps.
#[test]
fn a_ground_program_huge_for_its_states_runs_on_the_rule_evaluator() {
    let text = pairs_game(900, CHEAP_STATES.0, CHEAP_STATES.1);
    let loaded = open(&text);
    assert_eq!(loaded.game.engine(), EngineKind::Rules);
    let Choice::Predicted(prediction) = loaded.choice else {
        panic!("{:?}", loaded.choice)
    };
    assert!(prediction.per_state < 100, "{prediction:?}");
    assert_eq!(estimate::grounds_up_to(prediction.budget), MEASURE_AT);
    assert!(prediction.at < MEASURE_AT, "{prediction:?}");
    let whole = ground::ground(&program(&text), &Limits::default()).expect("grounds");
    let off = prediction.predicted.abs_diff(whole.effort);
    assert!(off < whole.effort / 10, "{prediction:?} {}", whole.effort);
    let why = loaded.choice.fallback().expect("a reason");
    assert!(
        why.starts_with(&format!(
            "grounding would take about {} steps (predicted after {}), more than twice the \
             1250000 it may for ",
            prediction.predicted, prediction.at
        )),
        "{why}"
    );
}

/// 160,000 pairs ground past the measure but within the first look: the
/// costly states allow more than the measure, so the grounding goes on
/// and the game is compiled within the first look, as without a measure.
#[test]
fn a_game_measured_within_the_first_look_is_compiled() {
    let loaded = open(&pairs_game(400, COSTLY_STATES.0, COSTLY_STATES.1));
    assert_ne!(loaded.game.engine(), EngineKind::Rules);
    let Choice::FirstLook { effort } = loaded.choice else {
        panic!("{:?}", loaded.choice)
    };
    assert!(MEASURE_AT < effort && effort <= FIRST_LOOK, "{effort}");
}

/// The same 810,000 pairs beside states of 10,100 candidate facts: 1,500
/// of those cost more than grounding, so the game is compiled.
#[test]
fn the_same_program_with_costly_states_is_compiled() {
    let loaded = open(&pairs_game(900, COSTLY_STATES.0, COSTLY_STATES.1));
    assert_ne!(loaded.game.engine(), EngineKind::Rules);
    let Choice::WithinBudget {
        effort,
        per_state,
        budget,
    } = loaded.choice
    else {
        panic!("{:?}", loaded.choice)
    };
    assert!(per_state >= 10_100, "{per_state}");
    assert_eq!(budget, estimate::budget_for(per_state));
    assert!(FIRST_LOOK < effort && effort <= budget, "{effort} {budget}");
}

/// The program of a game's text.
fn program(text: &str) -> Program {
    let mut sources = SourceMap::default();
    match syntax::parse_str(&mut sources, "choice.rules", text, Syntax::Rules) {
        Ok(program) => program,
        Err(diagnostics) => panic!("does not parse: {diagnostics:?}"),
    }
}

/// Past its budget a grounding asks once whether to go on and, raised,
/// goes on in place: the same ground program, in the same steps, as a
/// grounding with no budget; refused, it stops over budget.
#[test]
fn a_grounding_past_its_budget_goes_on_in_place() {
    let program = program(&pairs_game(900, CHEAP_STATES.0, CHEAP_STATES.1));
    let limits = Limits::default();
    let whole = ground::ground(&program, &limits).expect("grounds");
    let small = Limits {
        max_effort: 100_000,
        ..limits
    };
    let mut asked = Vec::new();
    let resumed = ground::ground_extending(&program, &small, &mut |overrun| {
        asked.push(overrun.growing);
        Some(whole.effort)
    })
    .expect("grounds within the raised budget");
    assert_eq!(asked, [false]);
    assert_eq!(resumed.effort, whole.effort);
    assert_eq!(resumed.stats(), whole.stats());
    assert_eq!((resumed.heads, resumed.lits), (whole.heads, whole.lits));
    let Err(stopped) = ground::ground_extending(&program, &small, &mut |_| None) else {
        panic!("grounds within 100000 steps")
    };
    assert!(stopped.over_budget);
}

/// `check --explain` names the engine and why; the note of a fallback says
/// the same.
#[test]
fn check_explain_says_why() {
    let dir = common::scratch_dir("choice");
    let small = dir.join("small.rules");
    std::fs::write(&small, pairs_game(10, CHEAP_STATES.0, CHEAP_STATES.1)).expect("write");
    let large = dir.join("large.rules");
    std::fs::write(&large, pairs_game(6_000, CHEAP_STATES.0, CHEAP_STATES.1)).expect("write");
    let engine_line = |path: &std::path::Path| {
        let path = path.to_str().expect("a UTF-8 path");
        let (out, err, code) = common::run(&["check", "--explain", "--playouts", "0", path], "");
        assert_eq!(code, 0, "{err}");
        let line = (out.lines())
            .find_map(|l| l.trim().strip_prefix("engine"))
            .map(|rest| rest.trim().to_string())
            .unwrap_or_else(|| panic!("no engine line: {out}"));
        (line, err)
    };
    let (line, err) = engine_line(&small);
    assert!(line.starts_with("reference: grounded in "), "{line}");
    assert!(
        line.ends_with(" steps, within the first look of 2500000"),
        "{line}"
    );
    assert_eq!(err, "");
    let (line, err) = engine_line(&large);
    let why = "grounding would take about ";
    assert!(line.starts_with(&format!("rules: {why}")), "{line}");
    assert!(
        err.contains(why) && err.ends_with("; using the rule evaluator\n"),
        "{err}"
    );
}

/// `tests/games/drift.rules`: a counter whose values the relaxed model
/// learns one round at a time and a terminal test joining three of them.
/// At the measure the grounding has made a small part of that join; the
/// size predicted from every counter value the rule evaluator knows passes
/// twice the budget its costly states allow, so the game runs on the rule
/// evaluator without grounding on to that budget (it used to ground to
/// 2,806,500 steps first).
#[test]
fn a_grounding_predicted_beyond_its_budget_stops_at_the_measure() {
    let loaded = match tabula::load::open(
        std::path::Path::new("tests/games/drift.rules"),
        None,
        &Default::default(),
    ) {
        Ok(loaded) => loaded,
        Err(failed) => panic!("does not load: {:?}", failed.diagnostics),
    };
    assert_eq!(loaded.game.engine(), EngineKind::Rules);
    let Choice::Predicted(prediction) = loaded.choice else {
        panic!("{:?}", loaded.choice)
    };
    assert_eq!(prediction.per_state, 1_871);
    assert_eq!(estimate::grounds_up_to(prediction.budget), 2_806_500);
    assert!(MEASURE_AT < prediction.at && prediction.at < FIRST_LOOK);
    assert!(estimate::beyond(prediction.predicted, 2_806_500));
    let (out, err, code) = common::run(
        &[
            "check",
            "--explain",
            "--playouts",
            "0",
            "tests/games/drift.rules",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let why = format!(
        "grounding would take about {} steps (predicted after {}), more than twice the 2806500 \
         it may for 1871 candidate facts per state on the rule evaluator",
        prediction.predicted, prediction.at
    );
    assert!(
        out.contains(&format!("\n  engine         rules: {why}\n")),
        "{out}"
    );
    assert_eq!(
        err,
        format!("note: tests/games/drift.rules: {why}; using the rule evaluator\n")
    );
}

/// A body of one literal more than the incremental engine counts in 16
/// bits: the game stays on the reference engine, even when the incremental
/// one is asked for, and answers as it.
#[test]
fn a_body_too_long_to_count_stays_on_the_reference() {
    let literals = 1 << 16;
    let body: Vec<String> = (1..=literals).map(|i| format!("not true a({i})")).collect();
    let text = format!(
        "roles x.\n\
         n(1..{literals}).\n\
         init a(N) :- n(N).\n\
         next a(N) :- true a(N).\n\
         legal(x, wait) :- true a(1).\n\
         terminal :- {}.\n\
         goal(x, 100) :- terminal.\n",
        body.join(", ")
    );
    let mut game = open(&text).game;
    game.set_engine(EngineKind::Incremental);
    let mut machine = game.machine();
    machine.set_state(&game.initial());
    assert!(!machine.is_terminal());
    assert_eq!(game.engine(), EngineKind::Reference);
}
