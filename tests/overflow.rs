//! Issue 31: numbers that an integer used to wrap or saturate, each
//! compared with its exact value through the built binary on every engine;
//! the inputs at the edge of a range that are refused with a located error
//! instead of being changed silently; and valid input that used to be
//! refused (a variable `_1`) or input wrongly accepted without a word
//! (`--param` on a KIF game) or without a place (a goal value).

mod common;
use common::run;
use std::path::PathBuf;

const ENGINES: [&str; 3] = ["reference", "incremental", "rules"];

/// Writes a game under the test's scratch folder; its path.
fn game(name: &str, text: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("overflow");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write game");
    path.display().to_string()
}

/// Three dice of three faces weighing 1,000,000 each: every throw weighs
/// 10^18 and they add up to 2.7 * 10^19, past 2^64.
const HEAVY_DICE: &str = "roles p, random.
dice 3 zd: a weight 1000000, b weight 1000000, c weight 1000000.
legal(p, wait).
init s(0).
roll(zd) :- true s(0).
next s(1) :- true s(0).
terminal :- true s(1).
goal(p, 100).
";

/// The numbers after `"key":` in a JSON text, in order.
fn json_numbers(json: &str, key: &str) -> Vec<f64> {
    let pattern = format!("\"{key}\":");
    json.split(&pattern)
        .skip(1)
        .map(|rest| {
            let end = rest.find([',', '}']).expect("a number ends");
            rest[..end].parse().expect("a number")
        })
        .collect()
}

#[test]
fn weights_adding_up_past_2_to_the_64_give_every_throw_one_in_27() {
    let file = game("heavy_dice.rules", HEAVY_DICE);
    for engine in ENGINES {
        let (out, err, code) = run(&["repl", &file, "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(out.matches(" 1/27").count(), 27, "{engine}:\n{out}");
        let args = [
            "bench",
            &file,
            "--engine",
            engine,
            "--playouts",
            "2000",
            "--seed",
            "1",
            "--json",
        ];
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 0, "{engine}: {err}");
        let drawn = json_numbers(&out, "drawn");
        assert_eq!(drawn.len(), 27, "{engine}: every throw is drawn: {out}");
        assert_eq!(drawn.iter().sum::<f64>(), 2000.0, "{engine}");
        // 1/27 from 10^18 / (27 * 10^18) averaged over 2000 draws: exact
        // but for the last bits of the floating-point division.
        let declared = json_numbers(&out, "declared");
        for p in &declared {
            assert!((p - 1.0 / 27.0).abs() < 1e-15, "{engine}: {p}");
        }
        let sum: f64 = declared.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "{engine}: declared sum {sum}");
    }
}

#[test]
fn a_weight_of_a_throw_is_exact_or_refused() {
    // 10^18 and 1: the products of three dice still fit in 63 bits.
    let three = HEAVY_DICE.replace(
        "dice 3 zd: a weight 1000000, b weight 1000000, c weight 1000000.",
        "dice 3 zd: a weight 1000000, b weight 1.",
    );
    let file = game("uneven_three.rules", &three);
    for engine in ENGINES {
        let (out, err, code) = run(&["repl", &file, "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        // (10^6)^3 / (10^6 + 1)^3, reduced (the two are coprime).
        assert!(
            out.contains("zd(a, a, a) 1000000000000000000/1000003000003000001"),
            "{engine}:\n{out}"
        );
        assert!(
            out.contains("zd(b, b, b) 1/1000003000003000001"),
            "{engine}:\n{out}"
        );
    }
    // Four dice of weight 10^6: 10^24 each, the same as 1 each.
    let even = HEAVY_DICE.replace(
        "dice 3 zd: a weight 1000000, b weight 1000000, c weight 1000000.",
        "dice 4 zd: a weight 1000000, b weight 1000000.",
    );
    let file = game("even_four.rules", &even);
    for engine in ENGINES {
        let (out, err, code) = run(&["repl", &file, "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(out.matches(" 1/16").count(), 16, "{engine}:\n{out}");
    }
    // 10^24 for `zd(a, a, a, a)` against 1 for `zd(b, b, b, b)`: no 64-bit
    // weight holds it.
    let four = HEAVY_DICE.replace(
        "dice 3 zd: a weight 1000000, b weight 1000000, c weight 1000000.",
        "dice 4 zd: a weight 1000000, b weight 1.",
    );
    let file = game("uneven_four.rules", &four);
    let (_, err, code) = run(&["check", &file], "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("uneven_four.rules:2:1: error[E0003]: a throw of these dice weighs more than 9223372036854775807"),
        "{err}"
    );
}

#[test]
fn kif_weights_adding_up_past_2_to_the_64_are_exact() {
    let kif = "(role p) (role random) (init s0)
(legal p wait) (<= (legal random ?m) (true s0) (side ?m))
(side a) (side b) (side c)
(weight a 9000000000000000000) (weight b 9000000000000000000)
(weight c 9000000000000000000)
(<= (next s1) (true s0)) (<= terminal (true s1)) (goal p 100)
";
    let file = game("heavy_weights.kif", kif);
    for engine in ENGINES {
        let (out, err, code) = run(&["repl", &file, "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(out.matches(" 1/3").count(), 3, "{engine}:\n{out}");
    }
}

/// Two moves that always lead back to the same state: 2^d leaves at depth d.
const DOUBLING: &str = "roles x. init c(0). legal(x, a). legal(x, b).
next c(0) :- true c(0). terminal :- true c(9). goal(x, 100).
";

#[test]
fn perft_counts_are_exact_to_2_to_the_127_and_stop_with_an_error_past_u128() {
    let file = game("doubling.rules", DOUBLING);
    let two_to_127 = "170141183460469231731687303715884105728";
    for engine in ENGINES {
        let (out, err, code) = run(&["perft", &file, "--depth", "127", "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        let last = out.lines().last().expect("a line per depth");
        assert_eq!(last, format!("depth 127 leaves {two_to_127} states 1"));
        let args = [
            "perft", &file, "--depth", "127", "--engine", engine, "--json",
        ];
        let (out, _, code) = run(&args, "");
        assert_eq!(code, 0, "{engine}");
        assert!(
            out.ends_with(&format!(
                "{{\"depth\":127,\"leaves\":{two_to_127},\"states\":1}}]}}\n"
            )),
            "{engine}: {out}"
        );
        for json in [false, true] {
            let mut args = vec!["perft", &file, "--depth", "128", "--engine", engine];
            if json {
                args.push("--json");
            }
            let (out, err, code) = run(&args, "");
            assert_eq!(code, 2, "{engine}: {out}");
            // The last line of stderr (W0002 may warn first: `c(9)` is
            // never reached on the compiled engines).
            assert_eq!(
                err.lines().last().unwrap_or(""),
                format!(
                    "{file}: error: depth 128 has more than {} leaves, the most tabula counts exactly",
                    u128::MAX
                )
            );
            // Text stops after depth 127; JSON prints nothing rather than
            // a wrong or partial object.
            assert_eq!(out.lines().count(), if json { 0 } else { 128 }, "{engine}");
        }
    }
}

#[test]
fn a_track_whose_indexes_pass_the_largest_integer_is_refused_where_it_passes() {
    let text = "roles x.\ntrack x from 9223372036854775806: a, b, c.\n\
                init c(0). legal(x, a). terminal. goal(x, 100).\n";
    let file = game("long_track.rules", text);
    let (_, err, code) = run(&["check", &file], "");
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "{file}:2:41: error[E0003]: the track's indexes from 9223372036854775806 pass the largest integer\n"
        )),
        "{err}"
    );
    // The last index that fits is accepted.
    let fits = text.replace(": a, b, c.", ": a, b.");
    let file = game("longest_track.rules", &fits);
    let (_, err, code) = run(&["check", &file], "");
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_grid_keeps_any_origin_whose_cells_fit_and_refuses_the_others() {
    let text = "roles x. board grid(2, 1) from 4294967296. init c(0).
legal(x, a) :- square(sq(4294967297, 4294967296)).
next c(1) :- true c(0). terminal :- true c(1). goal(x, 100).
";
    let file = game("far_grid.rules", text);
    for engine in ENGINES {
        let (out, err, code) = run(&["perft", &file, "--depth", "1", "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(
            out,
            "depth 0 leaves 1 states 1\ndepth 1 leaves 1 states 1\n"
        );
    }
    let past = text.replace("from 4294967296", "from 9223372036854775807");
    let file = game("too_far_grid.rules", &past);
    let (_, err, code) = run(&["check", &file], "");
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "{file}:1:32: error[E0003]: coordinates from 9223372036854775807 pass the largest integer on this board\n"
        )),
        "{err}"
    );
}

#[test]
fn bench_gives_no_mean_over_no_finished_playout() {
    let file = game("endless.rules", DOUBLING);
    let (out, err, code) = run(&["bench", &file, "--playouts", "0"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("mean length none\n"), "{out}");
    assert!(
        out.ends_with("no playout finished, so no role has a mean goal\n  mean goal x: none\n"),
        "{out}"
    );
    let args = [
        "bench",
        &file,
        "--playouts",
        "3",
        "--max-steps",
        "0",
        "--json",
    ];
    let (out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"unfinished\":3,") && out.contains("\"mean_goals\":{\"x\":null}"),
        "{out}"
    );
    // Every player alike (nature has no goal and is left out).
    let file = game("endless_dice.rules", HEAVY_DICE);
    let (out, _, _) = run(&["bench", &file, "--playouts", "0", "--json"], "");
    assert!(
        out.contains("\"mean_length\":null,\"mean_goals\":{\"p\":null}"),
        "{out}"
    );
}

// ------------------------------------------------- valid input refused

#[test]
fn a_variable_may_be_named_underscore_digit_and_stays_apart_from_anonymous_ones() {
    // `_1` is the author's variable; each `_` is one of its own, so
    // `r(_)` does not bind `_1`: b(1) and b(2) are legal, not nothing.
    let text = "roles p.\nq(1). q(2). r(3).\ninit s.\n\
                legal(p, b(_1)) :- q(_1), r(_).\n\
                next t :- true s.\nterminal :- true t.\ngoal(p, 100).\n";
    let file = game("underscore_digit.rules", text);
    for engine in ENGINES {
        let (out, err, code) = run(&["perft", &file, "--depth", "1", "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        assert_eq!(
            out,
            "depth 0 leaves 1 states 1\ndepth 1 leaves 2 states 1\n"
        );
    }
}

#[test]
fn a_parameter_given_to_a_kif_game_is_refused() {
    let (_, err, code) = run(&["check", "tests/games/nim4.kif", "--param", "size=6"], "");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "tests/games/nim4.kif: error[E0107]: the game has no parameter `size`\n  \
         = note: a KIF game declares no parameters: `--param` is for native games\n"
    );
}

#[test]
fn a_goal_value_that_is_no_integer_is_located_on_every_engine() {
    let file = game(
        "high_goal.kif",
        "(role x)\n(init on)\n(<= terminal (true on))\n(goal x high)\n",
    );
    for engine in ENGINES {
        let (_, err, code) = run(&["check", &file, "--engine", engine], "");
        assert_eq!(code, 1, "{engine}");
        assert!(
            err.starts_with(&format!(
                "{file}:4:9: error[E0202]: goal value high of role x is not an integer\n"
            )),
            "{engine}: {err}"
        );
    }
}

#[test]
fn the_rule_evaluator_reads_relations_of_more_than_64_arguments() {
    // `wide/65` read with its last place free, its first place free and a
    // negation over 65 places: the same five moves on every engine.
    let places = |from: usize, to: usize, prefix: &str| {
        (from..=to)
            .map(|i| format!("{prefix}{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (a1_64, a2_64, v2_64) = (places(1, 64, "a"), places(2, 64, "a"), places(2, 64, "V"));
    let text = format!(
        "roles x.
wide({a1_64}, a65).
wide({a1_64}, z).
init c(0).
legal(x, m(L)) :- true c(0), wide({a1_64}, L).
legal(x, n(F)) :- true c(0), wide(F, {a2_64}, a65).
legal(x, o(V1, V65)) :- true c(0), wide(V1, {v2_64}, V65), not wide(V1, {v2_64}, q).
next c(1) :- true c(0).
terminal :- true c(1).
goal(x, 100).
"
    );
    let file = game("wide.rules", &text);
    for engine in ENGINES {
        let (out, err, code) = run(&["repl", &file, "--engine", engine], "");
        assert_eq!(code, 0, "{engine}: {err}");
        assert!(
            out.contains(
                "x: 1. m(a65)       2. m(z)         3. n(a1)        4. o(a1, a65)\n   5. o(a1, z)\n"
            ),
            "{engine}:\n{out}"
        );
    }
}

// ------------------------------------------------------------ wide input

#[test]
fn a_fact_of_40000_arguments_reads_with_its_ranges_expanded_in_order() {
    // Reading it used to cost time quadratic in its arguments; now linear
    // (measured with `tabula check`, not here: tests time nothing).
    let middle = (0..40_000).map(|i| format!("a{i}")).collect::<Vec<_>>();
    let text = format!(
        "roles x.\nbig(1..2, {}, 3..4).\ninit c.\n\
         legal(x, m(F, L)) :- big(F, a0, {}, L).\n\
         next d :- true c.\nterminal :- true d.\ngoal(x, 100).\n",
        middle.join(", "),
        middle[1..].join(", ")
    );
    let file = game("big_fact.rules", &text);
    let (out, err, code) = run(&["repl", &file], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("x: 1. m(1, 3)   2. m(1, 4)   3. m(2, 3)   4. m(2, 4)\n"),
        "{out}"
    );
}
