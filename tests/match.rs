//! `tabula match`, `tabula analyze` and MCTS agents in `tabula play`, run as
//! the built binary: golden sessions (`tests/match/*.session`) for results
//! and usage errors, and checks of `analyze` that leave its speeds out.

mod common;
mod sessions;

use sessions::session;
use std::process::Command;

/// With agents swapped, the seat that always wins shows in the lines per
/// role (4 wins of 4), the agents split evenly (2 and 2). Agents that play
/// every role are labelled by their spec (`random`, `first`), and by the
/// role they start in where two share a spec.
#[test]
fn swap_tells_seat_from_agent() {
    session("match", "swap_tells_seat_from_agent");
    session("match", "swap_json");
    session("match", "swap_same_spec");
}

/// Bad budgets, agents, roles and `--games 0`: exit 2 with the valid forms.
#[test]
fn usage_errors_list_the_valid_forms() {
    for name in [
        "negative_budget",
        "zero_seconds",
        "unknown_agent",
        "unknown_role",
        "no_human",
        "zero_games",
        "play_zero_budget",
    ] {
        session("match", name);
    }
}

/// `play` with an MCTS agent takes the bet with the best expected goal.
#[test]
fn play_with_mcts() {
    session("match", "play_mcts");
}

fn analyze(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("tabula runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The output without the lines that carry speeds.
fn without_speeds(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.contains("/s"))
        .map(str::to_string)
        .collect()
}

#[test]
fn analyze_is_deterministic_and_complete() {
    let args = [
        "games/variants/pawn_whopping_6x6.rules",
        "--playouts",
        "200",
        "--mcts-games",
        "2",
        "--mcts-iterations",
        "50",
    ];
    let first = analyze(&args);
    assert_eq!(without_speeds(&first), without_speeds(&analyze(&args)));
    for part in [
        "length (joint moves): mean",
        "draws: ",
        "length histogram",
        "players' branching (mean joint choices of the players per state, nature left out) by depth",
        "mcts:50 self-play, 2 games",
    ] {
        assert!(first.contains(part), "no `{part}` in\n{first}");
    }
    // The histogram counts every finished playout once.
    let counted: u64 = first
        .lines()
        .skip_while(|l| !l.starts_with("length histogram"))
        .skip(1)
        .take_while(|l| l.contains('#') || l.trim_end().ends_with(" 0"))
        .map(|l| l.split_whitespace().last().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(counted, 200);
}

#[test]
fn analyze_compares_a_variant_with_its_base() {
    let text = analyze(&[
        "games/pawn_whopping.rules",
        "games/variants/pawn_whopping_6x6.rules",
        "--playouts",
        "100",
        "--mcts-games",
        "0",
    ]);
    let header = text.lines().next().unwrap();
    assert!(header.contains("games/pawn_whopping.rules"), "{header}");
    assert!(
        header.contains("games/variants/pawn_whopping_6x6.rules"),
        "{header}"
    );
    for row in [
        "mean length",
        "draws (random)",
        "goal x, random",
        "goal o, mcts:100",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(row)),
            "no row `{row}` in\n{text}"
        );
    }
    // `--mcts-games 0`: the self-play rows say they were not run.
    let mcts_row = text
        .lines()
        .find(|l| l.starts_with("goal o, mcts:100"))
        .unwrap();
    assert!(mcts_row.ends_with("not run  not run"), "{mcts_row}");
}

/// Self-play not run is said in words, and is `null` in JSON, not 0.0.
#[test]
fn analyze_says_when_self_play_was_not_run() {
    let args = [
        "games/variants/pawn_whopping_6x6.rules",
        "--playouts",
        "20",
        "--mcts-games",
        "0",
    ];
    let text = analyze(&args);
    assert!(
        text.contains("mcts:100 self-play: not run (--mcts-games 0)"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("x ") && l.trim_end().ends_with('-')),
        "{text}"
    );
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let json = analyze(&with_json);
    assert!(
        json.contains("\"mcts_goal\":null,\"mcts_ci95\":null"),
        "{json}"
    );
    assert!(
        json.contains("\"mcts_games\":0,\"mcts_not_run\":\"--mcts-games 0\""),
        "{json}"
    );
}
