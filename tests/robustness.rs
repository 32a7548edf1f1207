//! No input makes the readers or the checker panic, overflow the stack or
//! hang: random bytes, random token soups in both syntaxes, random
//! well-formed GDL, and the named hostile inputs (empty file, binary
//! garbage, 200,000 nested parentheses, a 10 MB file, an unterminated string
//! or comment, 100,000 chained relations).
//!
//! The library tests run on the test harness's threads (2 MB stacks, a
//! quarter of the binary's main thread): stack safety here is safety there.

use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;
use tabula::syntax::{SourceMap, Syntax, parse_str};

/// Reads `text` in `syntax` and, if it parses, checks it. Returns whether
/// the result was valid; panics only if tabula does.
fn read_and_check(text: &str, syntax: Syntax) -> bool {
    let mut sources = SourceMap::default();
    match parse_str(&mut sources, "input", text, syntax) {
        Ok(program) => {
            let diags = tabula::check::check(&program);
            // Rendering is part of the path a user sees.
            for d in diags.iter().take(20) {
                let _ = tabula::diag::render(d, &sources, "input", false);
            }
            !tabula::diag::has_errors(&diags)
        }
        Err(diags) => {
            assert!(!diags.is_empty(), "a refused input has a diagnostic");
            for d in diags.iter().take(20) {
                let _ = tabula::diag::render(d, &sources, "input", false);
            }
            false
        }
    }
}

fn both(text: &str) {
    read_and_check(text, Syntax::Kif);
    read_and_check(text, Syntax::Rules);
}

const KIF_TOKENS: &[&str] = &[
    "(",
    "(",
    "(",
    ")",
    ")",
    ")",
    "<=",
    "not",
    "or",
    "and",
    "distinct",
    "?x",
    "?y",
    "?",
    "role",
    "init",
    "true",
    "next",
    "legal",
    "does",
    "goal",
    "terminal",
    "base",
    "input",
    "sees",
    "p",
    "q",
    "f",
    "a",
    "1",
    "100",
    "; comment\n",
    "\n",
    "\"",
    "\u{e9}",
    "\0",
];

const RULES_TOKENS: &[&str] = &[
    "p",
    "q",
    "f",
    "a",
    "X",
    "Y",
    "_",
    "(",
    "(",
    ")",
    ")",
    ",",
    ".",
    ".",
    ":-",
    ";",
    "not",
    "true",
    "next",
    "init",
    "roles",
    "role",
    "legal",
    "does",
    "goal",
    "terminal",
    "x",
    "o",
    "=",
    "!=",
    "<",
    "=<",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "mod",
    "0",
    "1",
    "42",
    "..",
    "% c\n",
    "\"s\"",
    "\"",
    "game",
    "board",
    "grid",
    "dice",
    "track",
    "pieces",
    "turn",
    "region",
    "draw",
    "param",
    "extends",
    "section",
    "{",
    "}",
    ":",
    "using",
    "from",
    "at",
    "as",
    "arms",
    "links",
    "directions",
    "\n",
];

fn soup(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(tokens), 0..80).prop_map(|ts| ts.join(" "))
}

/// Well-formed GDL from a small vocabulary, so that the checker (not only
/// the reader) sees many shapes of programs.
fn gdl_program() -> impl Strategy<Value = String> {
    let rel = proptest::sample::select(
        &[
            "p", "q", "r", "role", "init", "true", "next", "legal", "does", "goal", "terminal",
            "base",
        ][..],
    );
    let term = proptest::sample::select(&["?x", "?y", "?z", "a", "b", "(f ?x)", "(g a ?y)"][..]);
    let atom = (rel, proptest::collection::vec(term.clone(), 0..3)).prop_map(|(r, args)| {
        if args.is_empty() {
            r.to_string()
        } else {
            format!("({r} {})", args.join(" "))
        }
    });
    let literal = (0..4u8, atom.clone(), atom.clone(), term.clone(), term).prop_map(
        |(k, a, b, s, t)| match k {
            0 => a,
            1 => format!("(not {a})"),
            2 => format!("(distinct {s} {t})"),
            _ => format!("(or {a} (and {b} {a}))"),
        },
    );
    let rule = (atom, proptest::collection::vec(literal, 0..4)).prop_map(|(h, body)| {
        if body.is_empty() {
            h
        } else {
            format!("(<= {h} {})", body.join(" "))
        }
    });
    proptest::collection::vec(rule, 0..12).prop_map(|rs| rs.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        both(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn kif_token_soup_never_panics(text in soup(KIF_TOKENS)) {
        both(&text);
    }

    #[test]
    fn rules_token_soup_never_panics(text in soup(RULES_TOKENS)) {
        both(&text);
    }

    #[test]
    fn random_gdl_never_panics(text in gdl_program()) {
        read_and_check(&text, Syntax::Kif);
    }
}

#[test]
fn empty_file() {
    // No roles: invalid, but located and without a panic.
    assert!(!read_and_check("", Syntax::Kif));
    assert!(!read_and_check("", Syntax::Rules));
}

#[test]
fn deeply_nested_parentheses() {
    let text = format!("{}{}", "(".repeat(200_000), ")".repeat(200_000));
    both(&text);
    let open_only = "(".repeat(200_000);
    both(&open_only);
    let term = format!(
        "(role x) (p {}a{})",
        "(f ".repeat(200_000),
        ")".repeat(200_000)
    );
    both(&term);
}

#[test]
fn deep_negation_and_arithmetic() {
    both(&format!(
        "(role x) (<= p {}q{})",
        "(not ".repeat(100_000),
        ")".repeat(100_000)
    ));
    both(&format!("roles x. p :- {}q.", "not ".repeat(100_000)));
    both(&format!(
        "roles x. p(X) :- q(Y), X = Y{}.",
        " + 1".repeat(100_000)
    ));
    both(&format!(
        "roles x. p(X) :- q(Y), X = {}Y.",
        "- ".repeat(100_000)
    ));
}

#[test]
fn unterminated_string_or_comment() {
    both("(role x) (p \"never closed)");
    both("roles x.\ngame \"never closed.\n");
    both("(role x) ; a comment with no newline at the end");
    both("roles x. % a comment with no newline at the end");
    both("roles x. p :- q");
}

#[test]
fn chained_relations_do_not_overflow() {
    // 100,000 relations each defined by the next, closed into a cycle with
    // one negation: the cycle must be found and named without recursion.
    let n = 100_000;
    let mut text = String::from("(role x)\n");
    for i in 0..n {
        text.push_str(&format!("(<= p{i} p{})\n", i + 1));
    }
    text.push_str(&format!("(<= p{n} (not p0))\n"));
    assert!(!read_and_check(&text, Syntax::Kif));
    // The same chain without the cycle is valid (only a warning at its end).
    let mut text = String::from("(role x)\n");
    for i in 0..n {
        text.push_str(&format!("(<= p{i} p{})\n", i + 1));
    }
    text.push_str(&format!("(p{n})\n"));
    assert!(read_and_check(&text, Syntax::Kif));
}

#[test]
fn many_variables_and_literals_in_one_rule() {
    let n = 50_000;
    let body: Vec<String> = (0..n).map(|i| format!("(q ?v{i})")).collect();
    let neg: Vec<String> = (0..n).map(|i| format!("(not (r ?v{i} ?w{i}))")).collect();
    let text = format!(
        "(role x) (q a) (r a a) (<= p {} {})",
        body.join(" "),
        neg.join(" ")
    );
    assert!(!read_and_check(&text, Syntax::Kif));
}

// ------------------------------------------------------------ the binary

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-robustness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temp file");
    path
}

/// Runs `tabula check` on a file; the exit code must be 0 or 1 and an
/// invalid file must come with a located diagnostic.
fn check_file(name: &str, bytes: &[u8]) -> i32 {
    let path = scratch(name, bytes);
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("tabula runs");
    let _ = std::fs::remove_file(&path);
    let code = out.status.code();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(code, Some(0 | 1)),
        "{name}: exit {code:?}\n{}",
        &stderr[..stderr.len().min(2000)]
    );
    if code == Some(1) {
        assert!(stderr.contains("error["), "{name}: no diagnostic");
    }
    code.unwrap_or(-1)
}

#[test]
fn binary_refuses_hostile_files_cleanly() {
    for ext in ["kif", "rules"] {
        check_file(&format!("empty.{ext}"), b"");
        let garbage: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
        assert_eq!(check_file(&format!("garbage.{ext}"), &garbage), 1);
        let nested = format!("{}{}", "(".repeat(200_000), ")".repeat(200_000));
        assert_eq!(check_file(&format!("nested.{ext}"), nested.as_bytes()), 1);
        check_file(&format!("string.{ext}"), b"(role x) game \"never closed");
        check_file(&format!("comment.{ext}"), b"(role x) ; % no newline");
    }
}

#[test]
fn binary_handles_a_ten_megabyte_file() {
    // Valid GDL: one role and 10 MB of facts.
    let mut text = String::from("(role x)\n");
    let mut i = 0u64;
    while text.len() < 10 << 20 {
        text.push_str(&format!("(cell {i} {} blank)\n", i % 97));
        i += 1;
    }
    assert_eq!(check_file("big.kif", text.as_bytes()), 0);
    // 2 MB on one line, every fact an error: diagnostics are capped and the
    // line is shown as a window, so the output stays small and quick.
    let mut text = String::from("(role x)");
    while text.len() < 2 << 20 {
        text.push_str(" (p ?x)");
    }
    assert_eq!(check_file("big_errors.kif", text.as_bytes()), 1);
}
