//! The engine that plays many random playouts (`bench`, `match`): unless
//! one is asked for, a short trial of counts moves a game from the
//! incremental engine to the word engine when that does clearly less work
//! (src/engine/trial.rs). The test game `tests/games/bite.kif` removes up
//! to 64 squares in one move, which the word engine does in a few word
//! operations; the pawn race moves one pawn, but its whole program is a
//! few hundred word operations, which native code runs faster than the
//! incremental engine settles a move; Tablan's is thousands, and it stays.

mod common;

use common::{explain_row, run};

const BITE: &str = "tests/games/bite.kif";

/// A field of `bench --json`'s object, as written.
fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let from = json.find(&key).expect("the field") + key.len();
    let rest = &json[from..];
    let end = rest.find([',', '}']).expect("the field's end");
    &rest[..end]
}

/// The `playout work` row of `check --explain` for a game file.
fn playout_work(file: &str) -> String {
    let (out, err, code) = run(&["check", file, "--explain", "--playouts", "0"], "");
    assert_eq!(code, 0, "{err}");
    explain_row(&out, "playout work")
        .expect("the row")
        .to_string()
}

/// The `playout work` row of a conformance game, where the shared
/// conformance games are at hand.
fn conformance_playout_work(name: &str) -> Option<String> {
    let file = common::shared(&format!("conformance/games/{name}"))?;
    Some(playout_work(file.to_str()?))
}

#[test]
fn the_trial_is_shown_by_check_explain() {
    assert_eq!(
        playout_work(BITE),
        "1359 flips and readers, 47 word operations per joint move (27 run whole, 7 of them \
         outside native code): bench and match play on words"
    );
    assert_eq!(
        playout_work("games/pawn_whopping.rules"),
        "332 flips and readers, 369 word operations per joint move (251 run whole, 18 of them \
         outside native code): bench and match play on words"
    );
    assert_eq!(
        playout_work("games/tablan.rules"),
        "2149 flips and readers, 6478 word operations per joint move (6275 run whole, 66 of \
         them outside native code): bench and match play on incremental"
    );
}

/// The incremental engine's visits counted for the moves made (each
/// move's readers and triggered rules, on and off again) are what put a
/// game with many triggered rules per move on the word engine, where it
/// plays a joint move for 8k instructions against 21k (native code,
/// docs/ENGINES.md, session 14).
#[test]
fn the_moves_visits_count_for_the_incremental_engine() {
    let Some(row) = conformance_playout_work("sheepAndWolf.kif") else {
        return;
    };
    assert_eq!(
        row,
        "1515 flips and readers, 719 word operations per joint move (673 run whole, 36 of them \
         outside native code): bench and match play on words"
    );
}

/// Run whole with native code, a playout copies each state in as native
/// code and copies nothing out: the trial counts those copies as native
/// work, and only the `legal` words and the rules filed under a move that
/// read more than the move as the rest. That puts connectFour on the word
/// engine, about 1.8 times as fast there as on the incremental engine on
/// the clock (docs/ENGINES.md, session 15).
#[test]
fn copies_in_and_out_count_as_native_code() {
    let Some(row) = conformance_playout_work("connectFour.kif") else {
        return;
    };
    assert_eq!(
        row,
        "76 flips and readers, 241 word operations per joint move (186 run whole, 7 of them \
         outside native code): bench and match play on words"
    );
}

#[test]
fn bench_plays_on_the_engine_the_trial_chose_with_the_same_playouts() {
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", BITE, "--playouts", "3000", "--seed", "2", "--json"];
        args.extend_from_slice(extra);
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 0, "{err}");
        out
    };
    let chosen = bench(&[]);
    let asked = bench(&["--engine", "incremental"]);
    assert_eq!(field(&chosen, "engine"), "\"words\"");
    assert_eq!(field(&asked, "engine"), "\"incremental\"");
    // One seed, so the same random games on either engine.
    for name in ["mean_length", "unfinished", "bad_goals"] {
        assert_eq!(field(&chosen, name), field(&asked, name), "{name}");
    }
    let goals = |json: &str| json[json.find("\"mean_goals\"").unwrap()..].to_string();
    let (chosen_goals, asked_goals) = (goals(&chosen), goals(&asked));
    assert_eq!(
        chosen_goals[..chosen_goals.find('}').unwrap()],
        asked_goals[..asked_goals.find('}').unwrap()]
    );
    let (out, _, _) = run(
        &["bench", "games/tablan.rules", "--playouts", "10", "--json"],
        "",
    );
    assert_eq!(field(&out, "engine"), "\"incremental\"");
}

#[test]
fn the_bite_game_counts_every_bite() {
    // 64 first bites; after the bite at (a, b) the (9 - a)(9 - b) squares
    // above and to its right are gone, so the second moves number
    // 64 * 64 - (1 + 2 + ... + 8)^2 = 2800.
    let (out, _, code) = run(&["perft", BITE, "--depth", "2"], "");
    assert_eq!(code, 0);
    assert!(out.contains("depth 1 leaves 64 states 64"), "{out}");
    assert!(out.contains("depth 2 leaves 2800 states 847"), "{out}");
}
