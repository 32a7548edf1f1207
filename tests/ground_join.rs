//! The grounder's join on bodies of bound literals, through the built binary.
//!
//! A chain of views whose rules read many literals that the first one
//! binds (the shape of the public `ruleDepthExponential`, where loading
//! was slower than a Prolog reasoner's whole perft): the join takes a
//! literal with a single candidate as soon as it finds one instead of
//! looking up every literal left at every level. That changes the work,
//! never the program: the ground sizes and the perft counts are exact.

mod common;

/// `prereqK(b1..bK)` for every string of `levels` bits: true at step K, or
/// else when both of its extensions by one bit are (the rules of
/// `ruleDepthExponential`, `levels` deep instead of 20).
fn rule_depth_chain(levels: usize) -> String {
    let mut kif = String::from(
        "(role robot)\n(init (step 1))\n(legal robot giveUp)\n\
         (<= (legal robot continue) (prereq1 0))\n\
         (<= (next (step ?m)) (true (step ?n)) (++ ?n ?m))\n\
         (<= (next gameOver) (does robot giveUp))\n\
         (<= terminal (true gameOver))\n\
         (<= (goal robot 100) (true (step ?n)))\n(bit 0)\n(bit 1)\n",
    );
    kif += &format!("(<= terminal (true (step {levels})))\n");
    for i in 1..levels {
        kif += &format!("(++ {i} {})\n", i + 1);
    }
    for k in 1..=levels {
        let vars: Vec<String> = (0..k).rev().map(|j| format!("?b{j}")).collect();
        let vars = vars.join(" ");
        let bits: String = (0..k).rev().map(|j| format!("(bit ?b{j})")).collect();
        kif += &format!("(<= (prereq{k} {vars}) {bits} (true (step {k})))\n");
        if k < levels {
            kif += &format!(
                "(<= (prereq{k} {vars}) {bits} (not (true (step {k}))) \
                 (prereq{} {vars} 0) (prereq{} {vars} 1))\n",
                k + 1,
                k + 1
            );
        }
    }
    kif
}

#[test]
fn a_chain_of_bound_literals_grounds_exactly() {
    let path = common::scratch_file("ground-join", "rule_depth_8.kif", &rule_depth_chain(8));
    let path = path.to_str().expect("utf-8 path");

    let (out, err, code) = common::run(&["check", "--explain", "--playouts", "0", path], "");
    assert_eq!(code, 0, "{err}");
    let size = |name: &str| common::explain_row(&out, name);
    // 2 + 4 + ... + 256 = 510 `prereq` atoms, each with its rule at its
    // step, and the 254 of levels 1-7 with their recursive rule too.
    assert_eq!(size("ground atoms"), Some("544"), "{out}");
    assert_eq!(size("ground rules"), Some("795"), "{out}");

    let (out, err, code) = common::run(&["perft", path, "--depth", "8"], "");
    assert_eq!(code, 0, "{err}");
    let mut expected: String = (1..8)
        .map(|d| format!("depth {d} leaves 2 states 2\n"))
        .collect();
    expected.insert_str(0, "depth 0 leaves 1 states 1\n");
    expected += "depth 8 leaves 0 states 0\n";
    assert_eq!(out, expected);
}
