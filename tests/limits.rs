//! Grounding limits and KIF's reserved words, through the built binary.
//!
//! A game too large to ground is refused with E0201 (while the join runs,
//! not after building it whole), and the note says whether something grows
//! without bound or the game is finite but larger than the limits; a large
//! but legitimate board is accepted whichever order its rules write their
//! literals in; KIF's logical operators never name a relation, a function
//! or a constant. Games are written here, into a temporary folder.

mod common;

/// `tabula ARGS...`: stdout, stderr, exit code.
fn tabula(args: &[&str]) -> (String, String, i32) {
    common::run(args, "")
}

/// The notes that say a relation grows without bound: in general, or for a
/// counter going up or down (each with the comparison that bounds it).
const GROWS: [&str; 3] = [
    "a relation probably grows without bound",
    "a counter goes up without bound; bound it with a comparison such as `N < 100`",
    "a counter goes down without bound; bound it with a comparison such as `N >= 0`",
];

fn says_it_grows(err: &str) -> bool {
    GROWS.iter().any(|note| err.contains(note))
}
const FINITE: &str =
    "no relation grows without bound, but the game is larger than grounding allows";

/// 6,000 numbers and every pair of them: 36 million facts, a finite game.
/// It used to build the whole join in memory and abort. Every pair is a
/// move, so even the rule evaluator's domains need them all: refused.
#[test]
fn all_pairs_of_six_thousand_facts_are_refused_as_too_large() {
    let path = common::scratch_file(
        "limits",
        "pairs.rules",
        "roles x.\n\
         num(0..5999).\n\
         pair(N, M) :- num(N), num(M).\n\
         init on.\n\
         legal(x, pick(N, M)) :- pair(N, M), true on.\n\
         next on :- true on.\n\
         terminal :- true on.\n\
         goal(x, 100) :- terminal.\n",
    );
    let (out, err, code) = tabula(&["check", path.to_str().unwrap()]);
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.ends_with(
            "pairs.rules:3:1: error[E0201]: grounding this game is too large: \
             more than 2000000 ground atoms"
        ),
        "{err}"
    );
    assert!(err.contains(FINITE), "{err}");
    assert!(
        err.contains("it reached 2000000 ground atoms (limit 2000000)"),
        "{err}"
    );
    assert!(!says_it_grows(&err), "{err}");
}

/// A counter that doubles its range each round reaches the atom limit in
/// a few rounds: that is growth, and the note says so.
#[test]
fn a_sum_without_bound_is_refused_as_growing() {
    let path = common::scratch_file(
        "limits",
        "sums.rules",
        "roles x.\n\
         num(1).\n\
         num(N) :- num(A), num(B), N = A + B.\n\
         init on.\n\
         legal(x, wait) :- true on.\n\
         next on :- true on.\n\
         terminal :- num(3).\n\
         goal(x, 100) :- terminal.\n",
    );
    let (_, err, code) = tabula(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("sums.rules:3:1: error[E0201]"), "{err}");
    assert!(err.contains(GROWS[1]), "{err}");
    assert!(!err.contains(FINITE), "{err}");
}

/// Tic-tac-toe on a `size` x `size` board with lines of three; `swap`
/// writes two body literals of `legal` and of `row` in the other order.
fn big_board(size: u32, swap: bool) -> String {
    let mut kif = String::from("(role x) (role o)\n");
    for i in 1..=size {
        kif += &format!("(index {i})\n");
    }
    for i in 1..size {
        kif += &format!("(succ {i} {})\n", i + 1);
    }
    let (control, blank) = ("(true (control ?w))", "(true (cell ?x ?y b))");
    let (first, second) = if swap {
        (control, blank)
    } else {
        (blank, control)
    };
    kif += &format!("(<= (legal ?w (mark ?x ?y)) {first} {second})\n");
    let (first, second) = ("(true (cell ?x2 ?y ?w))", "(succ ?x ?x2)");
    let (first, second) = if swap {
        (second, first)
    } else {
        (first, second)
    };
    kif += &format!(
        "(<= (row ?w) (true (cell ?x ?y ?w)) {first} {second}\n\
         \x20   (succ ?x2 ?x3) (true (cell ?x3 ?y ?w)) (distinct ?w b))\n"
    );
    kif += "(<= (init (cell ?x ?y b)) (index ?x) (index ?y))
(init (control x))
(<= (legal x noop) (true (control o)))
(<= (legal o noop) (true (control x)))
(<= (next (cell ?x ?y ?w)) (does ?w (mark ?x ?y)))
(<= (marked ?x ?y) (does ?w (mark ?x ?y)))
(<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c)) (not (marked ?x ?y)))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= (col ?w) (true (cell ?x ?y ?w)) (succ ?y ?y2) (true (cell ?x ?y2 ?w))
    (succ ?y2 ?y3) (true (cell ?x ?y3 ?w)) (distinct ?w b))
(<= (line ?w) (row ?w))
(<= (line ?w) (col ?w))
(<= open (true (cell ?x ?y b)))
(<= terminal (line ?w))
(<= terminal (not open))
(<= (goal ?w 100) (line ?w))
(<= (goal ?w 0) (role ?w) (not (line ?w)))
";
    kif
}

/// The 150 x 150 board grounds (about 360,000 atoms) in both orders: its
/// state facts are every cell blank or marked by either role and both
/// `control` facts; its moves a mark on each cell and a noop for each role.
#[test]
fn a_150_by_150_board_grounds_whichever_order_the_literals_take() {
    for swap in [false, true] {
        let path = common::scratch_file(
            "limits",
            &format!("board150_{swap}.kif"),
            &big_board(150, swap),
        );
        let (out, err, code) = tabula(&["check", "--explain", path.to_str().unwrap()]);
        assert_eq!(code, 0, "swap {swap}: {err}");
        let size = |name: &str| common::explain_row(&out, name);
        assert_eq!(size("state facts"), Some("67502"), "{out}");
        assert_eq!(size("moves"), Some("45002"), "{out}");
    }
}

/// The native pawn race on a 250 x 250 board is finite but larger than
/// the limits: not refused, it falls back to the rule evaluator with a note.
#[test]
fn pawn_whopping_on_250_squares_falls_back_to_the_rule_evaluator() {
    let (out, err, code) = tabula(&[
        "check",
        "games/pawn_whopping.rules",
        "--param",
        "size=250",
        "--playouts",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("note: games/pawn_whopping.rules: grounding takes more than "),
        "{err}"
    );
    assert!(
        err.ends_with(
            " candidate facts per state on the rule evaluator; using the rule evaluator\n"
        ),
        "{err}"
    );
    assert_eq!(
        out,
        "games/pawn_whopping.rules: ok (roles x, o; 29 rules, on the rule evaluator)\n"
    );
}

/// Each misuse of a logical operator, the column it is reported at, and
/// the message.
#[test]
fn kif_operators_never_name_relations_functions_or_constants() {
    let base = "(role x) (init p) (<= (legal x a) (true p)) (<= (next p) (true p))\n\
                (<= terminal (true q)) (goal x 100)\n";
    let relation = "cannot be used as a relation here";
    let term = "cannot be used as a constant or function here";
    let cases = [
        ("(<= <= (true p))", 5, "<=", relation),
        ("<=", 1, "<=", relation),
        ("(<= (r) (not <=))", 14, "<=", relation),
        ("(<= (r) <=)", 9, "<=", relation),
        (
            "(<= (r) (true p) (not))",
            0,
            "",
            "`not` takes exactly one literal",
        ),
        ("(<= (r) (true p) (distinct <= a))", 28, "<=", term),
        ("(s <=)", 4, "<=", term),
        ("(s (f or))", 7, "or", term),
        ("(s (not a))", 5, "not", term),
        ("(<= (distinct a b) (true p))", 6, "distinct", relation),
        ("(<= (r) (true (cell and)))", 21, "and", term),
        ("(or)", 2, "or", relation),
        ("distinct", 1, "distinct", relation),
    ];
    for (i, (extra, col, word, message)) in cases.into_iter().enumerate() {
        let path = common::scratch_file(
            "limits",
            &format!("operator{i}.kif"),
            &format!("{base}{extra}\n"),
        );
        let (_, err, code) = tabula(&["check", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{extra}: {err}");
        let first = err.lines().next().unwrap_or_default();
        let expected = if word.is_empty() {
            format!("error[E0001]: {message}")
        } else {
            format!("operator{i}.kif:3:{col}: error[E0001]: `{word}` {message}")
        };
        assert!(first.ends_with(&expected), "{extra}: {err}");
    }
}
