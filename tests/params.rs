//! Parameters with the values a game works with (`param NAME = DEFAULT in
//! VALUES.`, issue 24): a value outside them is refused with the values,
//! before the rules it would break are read; a malformed `--param` is a
//! usage error.

mod common;
use common::run;

#[test]
fn generals_refuses_the_sizes_its_arena_is_not_written_for() {
    for size in ["8", "11", "14"] {
        let arg = format!("size={size}");
        let (_, err, code) = run(&["check", "games/generals.rules", "--param", &arg], "");
        assert_eq!(code, 1, "size {size}: {err}");
        let want = format!(
            "error[E0003]: parameter `size` may only be 10 or 12: `--param size={size}` sets it to {size}"
        );
        assert!(err.contains(&want), "size {size}: {err}");
        // One error, not the broken cells of the base file.
        assert_eq!(err.matches("error[").count(), 1, "size {size}: {err}");
    }
    for args in [
        &["check", "games/generals.rules", "--param", "size=12"][..],
        &["check", "games/variants/generals_12x12.rules"],
    ] {
        let (_, err, code) = run(args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
    }
}

#[test]
fn a_cap_of_no_throw_is_refused() {
    for game in [
        "games/chaupar.rules",
        "games/generals.rules",
        "games/pachisi.rules",
        "games/tablan.rules",
    ] {
        let (_, err, code) = run(&["check", game, "--param", "cap=0"], "");
        assert_eq!(code, 1, "{game}: {err}");
        assert!(
            err.contains("parameter `cap` may only be 1..99999: `--param cap=0` sets it to 0"),
            "{game}: {err}"
        );
    }
}

#[test]
fn a_value_that_is_neither_integer_nor_name_is_a_usage_error() {
    for value in ["cap=1.5", "cap=", "cap=Big", "=3"] {
        for command in [
            &["check"][..],
            &["perft", "--depth", "1"],
            &["bench"],
            &["play"],
        ] {
            let mut args = command.to_vec();
            args.extend(["games/chaupar.rules", "--param", value]);
            let (out, err, code) = run(&args, "");
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(err.contains("--param takes NAME=VALUE"), "{err}");
        }
    }
}
