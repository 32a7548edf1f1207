//! The machine-readable outputs: `perft --json` against counts known
//! independently, `bench --json` field by field, and `bench --threads`
//! splitting the playouts between seeds as documented (thread i plays its
//! share with seed + i).
//!
//! Counts: tic-tac-toe's leaves per ply (9, 72, 504, 3024) and distinct
//! positions per ply (9, 72, 252, 756) are the published figures for the
//! game tree that stops at a win; tests/repl/count.kif is counted by hand in
//! `perft_json_count_to_four`.

mod common;
use common::run;
use std::collections::BTreeMap;

/// Tic-tac-toe in KIF, written for this test.
const TIC_TAC_TOE: &str = "
(role x) (role o)
(init (control x))
(index 1) (index 2) (index 3)
(<= (init (cell ?i ?j b)) (index ?i) (index ?j))
(<= (legal ?r (mark ?i ?j)) (true (control ?r)) (true (cell ?i ?j b)))
(<= (legal x noop) (true (control o)))
(<= (legal o noop) (true (control x)))
(<= (next (cell ?i ?j ?r)) (does ?r (mark ?i ?j)))
(<= (next (cell ?i ?j ?c)) (true (cell ?i ?j ?c)) (does ?r (mark ?k ?l)) (distinct ?i ?k))
(<= (next (cell ?i ?j ?c)) (true (cell ?i ?j ?c)) (does ?r (mark ?k ?l)) (distinct ?j ?l))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= (row ?i ?r) (true (cell ?i 1 ?r)) (true (cell ?i 2 ?r)) (true (cell ?i 3 ?r)))
(<= (col ?j ?r) (true (cell 1 ?j ?r)) (true (cell 2 ?j ?r)) (true (cell 3 ?j ?r)))
(<= (diag ?r) (true (cell 1 1 ?r)) (true (cell 2 2 ?r)) (true (cell 3 3 ?r)))
(<= (diag ?r) (true (cell 1 3 ?r)) (true (cell 2 2 ?r)) (true (cell 3 1 ?r)))
(<= (line ?r) (role ?r) (row ?i ?r))
(<= (line ?r) (role ?r) (col ?j ?r))
(<= (line ?r) (role ?r) (diag ?r))
(<= open (true (cell ?i ?j b)))
(<= terminal (line ?r))
(<= terminal (not open))
(<= (goal x 100) (line x))
(<= (goal x 0) (line o))
(<= (goal o 100) (line o))
(<= (goal o 0) (line x))
(<= (goal ?r 50) (role ?r) (not (line x)) (not (line o)))
";

/// A scratch copy of the tic-tac-toe text, written once for all tests (the
/// tests run in parallel: rewriting it in each would let one test read the
/// file while another truncates it).
fn tic_tac_toe() -> String {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let path = common::scratch_file("cli-json", "tictactoe.kif", TIC_TAC_TOE);
        path.display().to_string()
    })
    .clone()
}

/// A JSON value: just what the outputs use.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Num(f64),
    Str(String),
    List(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

/// Reads one JSON value, the whole text; panics on anything else.
fn json(text: &str) -> Json {
    let mut chars = text.trim().chars().peekable();
    let value = value(&mut chars);
    assert_eq!(chars.next(), None, "text after the value: {text}");
    value
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

fn value(c: &mut Chars) -> Json {
    match c.peek().copied() {
        Some('{') => {
            c.next();
            let mut fields = BTreeMap::new();
            while c.peek() != Some(&'}') {
                let Json::Str(key) = value(c) else {
                    panic!("a key is a string")
                };
                assert_eq!(c.next(), Some(':'));
                assert!(fields.insert(key, value(c)).is_none(), "a key twice");
                if c.peek() == Some(&',') {
                    c.next();
                }
            }
            c.next();
            Json::Object(fields)
        }
        Some('[') => {
            c.next();
            let mut items = Vec::new();
            while c.peek() != Some(&']') {
                items.push(value(c));
                if c.peek() == Some(&',') {
                    c.next();
                }
            }
            c.next();
            Json::List(items)
        }
        Some('"') => {
            c.next();
            let s: String = c.by_ref().take_while(|&ch| ch != '"').collect();
            Json::Str(s)
        }
        Some('n') => {
            let word: String = c.by_ref().take(4).collect();
            assert_eq!(word, "null");
            Json::Null
        }
        _ => {
            let mut n = String::new();
            while let Some(&ch) = c.peek().filter(|ch| "-+.eE0123456789".contains(**ch)) {
                n.push(ch);
                c.next();
            }
            Json::Num(n.parse().unwrap_or_else(|_| panic!("not a number: `{n}`")))
        }
    }
}

impl Json {
    fn field(&self, name: &str) -> &Json {
        match self {
            Json::Object(f) => f.get(name).unwrap_or_else(|| panic!("no field {name}")),
            other => panic!("not an object: {other:?}"),
        }
    }

    fn num(&self) -> f64 {
        match self {
            Json::Num(n) => *n,
            other => panic!("not a number: {other:?}"),
        }
    }

    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Object(f) => f.keys().map(String::as_str).collect(),
            other => panic!("not an object: {other:?}"),
        }
    }
}

/// `tabula ARGS` that must succeed with nothing on stderr; its stdout.
fn stdout_of(args: &[&str]) -> String {
    let (out, err, code) = run(args, "");
    assert_eq!((err.as_str(), code), ("", 0), "tabula {args:?}");
    out
}

/// The `levels` of `perft --json` as (depth, leaves, states).
fn perft_levels(file: &str, depth: &str) -> Vec<(f64, f64, f64)> {
    let out = stdout_of(&["perft", file, "--depth", depth, "--json"]);
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    let top = json(&out);
    assert_eq!(top.keys(), ["levels"]);
    let Json::List(levels) = top.field("levels") else {
        panic!("levels is a list: {out}")
    };
    levels
        .iter()
        .map(|l| {
            assert_eq!(l.keys(), ["depth", "leaves", "states"]);
            (
                l.field("depth").num(),
                l.field("leaves").num(),
                l.field("states").num(),
            )
        })
        .collect()
}

#[test]
fn perft_json_tic_tac_toe() {
    let levels = perft_levels(&tic_tac_toe(), "4");
    assert_eq!(
        levels,
        [
            (0.0, 1.0, 1.0),
            (1.0, 9.0, 9.0),
            (2.0, 72.0, 72.0),
            (3.0, 504.0, 252.0),
            (4.0, 3024.0, 756.0),
        ]
    );
}

/// Count to four by hand: from 0, a adds 1 or 2, then b, and so on; 4 or
/// more ends the game. Depth 2 reaches counts 2, 3, 3, 4 (3 states); depth 3
/// expands 2 and 3 (twice) into 3, 4, 4, 4, 5, 5 (3 states); depth 4 expands
/// only 3 into 4 and 5.
#[test]
fn perft_json_count_to_four() {
    let levels = perft_levels("tests/repl/count.kif", "5");
    assert_eq!(
        levels,
        [
            (0.0, 1.0, 1.0),
            (1.0, 2.0, 2.0),
            (2.0, 4.0, 3.0),
            (3.0, 6.0, 3.0),
            (4.0, 2.0, 2.0),
            (5.0, 0.0, 0.0),
        ]
    );
    // The text form says the same, line by line.
    let text = stdout_of(&["perft", "tests/repl/count.kif", "--depth", "5"]);
    let lines: Vec<String> = levels
        .iter()
        .map(|(d, l, s)| format!("depth {d} leaves {l} states {s}"))
        .collect();
    assert_eq!(text, lines.join("\n") + "\n");
}

/// `bench --json`: exactly the documented fields, numbers where numbers
/// belong, and values that tic-tac-toe fixes: every game ends after 5 to 9
/// marks, and the goals of a game add up to 100.
#[test]
fn bench_json_fields() {
    let file = tic_tac_toe();
    let out = stdout_of(&["bench", &file, "--playouts", "200", "--seed", "3", "--json"]);
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    let b = json(&out);
    assert_eq!(
        b.keys(),
        [
            "bad_goals",
            "chance",
            "engine",
            "mean_goals",
            "mean_length",
            "playouts",
            "playouts_per_sec",
            "seconds",
            "unfinished"
        ]
    );
    // Its trial's work run whole as native code is well under its flips.
    assert_eq!(b.field("engine"), &Json::Str("words".to_string()));
    assert_eq!(b.field("playouts").num(), 200.0);
    assert_eq!(b.field("unfinished").num(), 0.0);
    assert_eq!(b.field("bad_goals").num(), 0.0);
    let seconds = b.field("seconds").num();
    assert!(seconds > 0.0, "{out}");
    let rate = b.field("playouts_per_sec").num();
    assert!((rate * seconds - 200.0).abs() < 1.0, "{out}");
    let length = b.field("mean_length").num();
    assert!((5.0..=9.0).contains(&length), "{out}");
    let goals = b.field("mean_goals");
    assert_eq!(goals.keys(), ["o", "x"]);
    let sum = goals.field("x").num() + goals.field("o").num();
    assert!((sum - 100.0).abs() < 1e-3, "{out}");
    let chance = b.field("chance");
    assert_eq!(chance.keys(), ["draws", "throws"]);
    assert_eq!(chance.field("draws").num(), 0.0, "no nature, no draws");
    assert_eq!(chance.field("throws"), &Json::List(Vec::new()));
}

/// One throw of `bench --json`: its name, its draws and per move (move,
/// drawn, observed, declared).
struct Throw {
    name: String,
    draws: f64,
    rows: Vec<(String, f64, f64, f64)>,
}

/// The chance statistics of `bench --json`: nature's draws and its throws.
fn chance_throws(out: &str) -> (f64, Vec<Throw>) {
    let chance = json(out).field("chance").clone();
    let Json::List(throws) = chance.field("throws") else {
        panic!("throws is a list: {out}")
    };
    let text = |j: &Json| match j {
        Json::Str(s) => s.clone(),
        _ => panic!("a string: {out}"),
    };
    let throws = (throws.iter())
        .map(|t| {
            assert_eq!(t.keys(), ["draws", "moves", "throw"]);
            let Json::List(moves) = t.field("moves") else {
                panic!("moves is a list: {out}")
            };
            let rows = (moves.iter())
                .map(|m| {
                    assert_eq!(m.keys(), ["declared", "drawn", "move", "observed"]);
                    let (drawn, observed, declared) = (
                        m.field("drawn").num(),
                        m.field("observed").num(),
                        m.field("declared").num(),
                    );
                    (text(m.field("move")), drawn, observed, declared)
                })
                .collect();
            Throw {
                name: text(t.field("throw")),
                draws: t.field("draws").num(),
                rows,
            }
        })
        .collect();
    (chance.field("draws").num(), throws)
}

/// Per chance move of `bench --json`, every throw's moves in a row:
/// (move, drawn, observed, declared).
fn chance_rows(out: &str) -> (f64, Vec<(String, f64, f64, f64)>) {
    let (draws, throws) = chance_throws(out);
    (draws, throws.into_iter().flat_map(|t| t.rows).collect())
}

/// tests/games/weighted.kif: nature rolls a die with weights 1, 3, 1, 5
/// (of 10), then tosses a coin whose heads weighs the number rolled (tails
/// 1). The two are two throws of 4000 draws each: a roll's declared
/// probability is its weight's share, exactly; heads' is the mean of
/// n/(n+1) over the toss states, which the rolls drawn fix. The shares
/// observed within each throw add up to 1 and lie within 0.03 (more than
/// five standard deviations) of the declared ones.
#[test]
fn bench_json_chance_statistics() {
    let file = "tests/games/weighted.kif";
    let out = stdout_of(&["bench", file, "-n", "4000", "--seed", "11", "--json"]);
    let (draws, throws) = chance_throws(&out);
    assert_eq!(draws, 8000.0, "a roll and a toss per playout");
    let names: Vec<(&str, f64)> = throws.iter().map(|t| (t.name.as_str(), t.draws)).collect();
    assert_eq!(names, [("roll", 4000.0), ("toss", 4000.0)]);
    for throw in &throws {
        let drawn: f64 = throw.rows.iter().map(|r| r.1).sum();
        let shares: f64 = throw.rows.iter().map(|r| r.2).sum();
        let declared: f64 = throw.rows.iter().map(|r| r.3).sum();
        assert_eq!(drawn, throw.draws, "{}", throw.name);
        assert!((shares - 1.0).abs() < 1e-12, "{}: {out}", throw.name);
        assert!((declared - 1.0).abs() < 1e-12, "{}: {out}", throw.name);
    }
    let (_, rows) = chance_rows(&out);
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "(roll 1)",
            "(roll 2)",
            "(roll 3)",
            "(roll 4)",
            "(toss heads)",
            "(toss tails)"
        ]
    );
    let declared: Vec<f64> = rows.iter().map(|r| r.3).collect();
    assert_eq!(declared[..4], [0.1, 0.3, 0.1, 0.5]);
    let tosses = throws[1].draws;
    let heads: f64 = (1..=4)
        .map(|n| rows[n - 1].1 * n as f64 / (n as f64 + 1.0))
        .sum::<f64>()
        / tosses;
    assert!((declared[4] - heads).abs() < 1e-12, "{out}");
    assert_eq!(rows.iter().map(|r| r.1).sum::<f64>(), draws);
    for (text, drawn, observed, declared) in &rows {
        assert_eq!(*observed, drawn / 4000.0, "{text}");
        assert!((observed - declared).abs() < 0.03, "{text}: {out}");
    }
}

/// Noting nature's draws plays the same games: `bench` and `bench --json`
/// give the same mean length and goals for one seed, and nature's single
/// outcomes (tests/repl/race.rules' `noop`) are no draws.
#[test]
fn bench_chance_noting_changes_no_figure() {
    let file = "tests/repl/race.rules";
    let args = ["bench", file, "-n", "300", "--seed", "4"];
    let plain = stdout_of(&args);
    let out = stdout_of(&[&args[..], &["--json"]].concat());
    let b = json(&out);
    let length = format!("mean length {:.2}\n", b.field("mean_length").num());
    assert!(plain.contains(&length), "{plain} vs {out}");
    let (draws, rows) = chance_rows(&out);
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(names, ["die(1)", "die(2)"], "noop is no draw");
    assert_eq!((rows[0].3, rows[1].3), (0.25, 0.75));
    assert_eq!(rows[0].1 + rows[1].1, draws);
}

/// `bench --chance` prints the same table in text.
#[test]
fn bench_chance_table() {
    let args = ["bench", "tests/repl/guess.kif", "-n", "2000", "--seed", "1"];
    let out = stdout_of(&[&args[..], &["--chance"]].concat());
    let (draws, rows) = chance_rows(&stdout_of(&[&args[..], &["--json"]].concat()));
    assert_eq!(draws, 2000.0);
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("chance:"))
        .collect();
    let mut expected = vec![
        "chance: nature chose in 2000 states (a single outcome is no choice)".to_string(),
        "  throw throw: 2000 draws".to_string(),
        "    move            drawn  observed  declared".to_string(),
    ];
    for (text, drawn, observed, declared) in &rows {
        expected.push(format!(
            "    {text:<9}  {drawn:>10}  {observed:>8.4}  {declared:>8.4}"
        ));
    }
    assert_eq!(table, expected);
    assert_eq!(
        rows.iter().map(|r| r.3).collect::<Vec<_>>(),
        [0.25, 0.25, 0.5]
    );
}

/// Nature (the chance role `random`) has no goal: it is left out of the
/// mean goals, in JSON and in text.
#[test]
fn bench_leaves_nature_out_of_the_mean_goals() {
    let out = stdout_of(&[
        "bench",
        "tests/repl/guess.kif",
        "--playouts",
        "50",
        "--json",
    ]);
    let goals = json(&out).field("mean_goals").clone();
    assert_eq!(goals.keys(), ["p"]);
    assert!((0.0..=100.0).contains(&goals.field("p").num()), "{out}");
    let text = stdout_of(&["bench", "tests/repl/guess.kif", "--playouts", "50"]);
    assert!(text.contains("mean goal p: "), "{text}");
    assert!(!text.contains("mean goal random"), "{text}");
}

/// The figures of `bench --json` that do not depend on the clock.
fn figures(args: &[&str]) -> (f64, f64, f64, Json) {
    let b = json(&stdout_of(args));
    (
        b.field("playouts").num(),
        b.field("unfinished").num(),
        b.field("mean_length").num(),
        b.field("mean_goals").clone(),
    )
}

/// `--threads 2` plays ceil(N/2) playouts with the seed and floor(N/2) with
/// seed + 1: its total length is the sum of the two single-thread runs', and
/// it is the same on every run.
#[test]
fn bench_threads_split_the_seeds() {
    let file = tic_tac_toe();
    let bench = |n: &str, seed: &str, threads: &str| {
        figures(&[
            "bench",
            &file,
            "--playouts",
            n,
            "--seed",
            seed,
            "--threads",
            threads,
            "--json",
        ])
    };
    let both = bench("41", "5", "2");
    assert_eq!(both, bench("41", "5", "2"), "same seed, same figures");
    let first = bench("21", "5", "1");
    let second = bench("20", "6", "1");
    assert_eq!((both.0, both.1), (41.0, 0.0));
    let steps = |(n, _, mean, _): &(f64, f64, f64, Json)| (n * mean).round();
    assert_eq!(steps(&both), steps(&first) + steps(&second));
    let x_total = |(n, _, _, g): &(f64, f64, f64, Json)| (n * g.field("x").num()).round();
    assert_eq!(x_total(&both), x_total(&first) + x_total(&second));
}
