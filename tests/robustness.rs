//! No input makes the readers or the checker panic, overflow the stack or
//! hang: random bytes, random token soups in both syntaxes, random
//! well-formed GDL, and the named hostile inputs (empty file, binary
//! garbage, 200,000 nested parentheses, a 10 MB file, an unterminated string
//! or comment, 100,000 chained relations). Each named input gets its exact
//! outcome: the codes of its errors, or no diagnostic at all; every
//! diagnostic of a random input is located and of a known code.
//!
//! The library tests run on the test harness's threads (2 MB stacks, a
//! quarter of the binary's main thread): stack safety here is safety there.

use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;
use tabula::syntax::{SourceMap, Syntax, parse_str};

/// Reads `text` in `syntax` and, if it parses, checks it. Returns the
/// diagnostics as `severity[CODE]`, in order (empty for a valid program);
/// panics only if tabula does, or if a diagnostic is unlocated or of an
/// unknown code.
fn diagnose(text: &str, syntax: Syntax) -> Vec<String> {
    let mut sources = SourceMap::default();
    let diags = match parse_str(&mut sources, "input", text, syntax) {
        Ok(program) => tabula::check::check(&program),
        Err(diags) => {
            assert!(!diags.is_empty(), "a refused input has a diagnostic");
            diags
        }
    };
    // Rendering is part of the path a user sees.
    diags
        .iter()
        .take(20)
        .map(|d| code_of(&tabula::diag::render(d, &sources, "input", false)))
        .collect()
}

/// Every code a diagnostic may carry (`docs/ERRORS.md`).
const CODES: &[&str] = &[
    "E0001", "E0002", "E0003", "E0101", "E0102", "E0103", "E0104", "E0105", "E0106", "E0107",
    "E0108", "E0201", "E0202", "W0001", "W0004",
];

/// `error[E0001]` out of a rendered diagnostic, which must begin with its
/// place: `input:LINE:COL: ` or, for a diagnostic about the whole file,
/// `input: `.
fn code_of(rendered: &str) -> String {
    let head = rendered.lines().next().unwrap_or_default();
    let place = head
        .strip_prefix("input")
        .unwrap_or_else(|| panic!("diagnostic without its place: {head}"));
    let rest = place.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let end = rest.find("]: ").map(|i| i + 1);
    let code = end.map(|e| &rest[..e]).unwrap_or_default();
    let known = ["error", "warning"].iter().any(|kind| {
        code.strip_prefix(kind)
            .and_then(|c| c.strip_prefix('['))
            .and_then(|c| c.strip_suffix(']'))
            .is_some_and(|c| CODES.contains(&c))
    });
    assert!(known, "unknown diagnostic: {head}");
    code.to_string()
}

/// Whether the diagnostics hold an error.
fn refused(codes: &[String]) -> bool {
    codes.iter().any(|c| c.starts_with("error"))
}

/// The error codes only, without duplicates, in order of first appearance.
fn errors(text: &str, syntax: Syntax) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in diagnose(text, syntax) {
        if c.starts_with("error") && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Reads `text` in both syntaxes. Holds for any text: a program without
/// the word `role` has no roles, so it is refused.
fn both(text: &str) {
    for syntax in [Syntax::Kif, Syntax::Rules] {
        let codes = diagnose(text, syntax);
        assert!(
            text.contains("role") || refused(&codes),
            "{syntax:?}: accepted without roles: {text:?}"
        );
    }
}

fn err(code: &str) -> Vec<String> {
    vec![format!("error[{code}]")]
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

    /// Well-formed GDL always parses: what it gets is the checker's verdict,
    /// never a syntax error.
    #[test]
    fn random_gdl_never_panics(text in gdl_program()) {
        let codes = diagnose(&text, Syntax::Kif);
        prop_assert!(
            !codes.iter().any(|c| c == "error[E0001]" || c == "error[E0002]"),
            "{codes:?} for well-formed\n{text}"
        );
    }
}

#[test]
fn empty_file() {
    // No roles: invalid, but located and without a panic.
    assert_eq!(errors("", Syntax::Kif), err("E0106"));
    assert_eq!(errors("", Syntax::Rules), err("E0106"));
}

/// Groups nested up to the depth limit are read in linear time: reading
/// the term of a literal twice (once as an aggregate's result) doubled the
/// work at every level, so 60 levels never finished.
#[test]
fn nested_groups_below_the_limit_are_read() {
    let open = "(".repeat(60);
    let close = ")".repeat(60);
    let text = format!(
        "roles x.\np :- {open}q{close}.\nq.\nr(M) :- M = {open}1{close}.\nlegal(x, wait).\nterminal :- r(1).\ngoal(x, 100)."
    );
    assert_eq!(errors(&text, Syntax::Rules), Vec::<String>::new());
}

#[test]
fn deeply_nested_parentheses() {
    let nested = format!("{}{}", "(".repeat(200_000), ")".repeat(200_000));
    let open_only = "(".repeat(200_000);
    let term = format!(
        "(role x) (p {}a{})",
        "(f ".repeat(200_000),
        ")".repeat(200_000)
    );
    for text in [nested, open_only, term] {
        assert_eq!(errors(&text, Syntax::Kif), err("E0002"));
        assert_eq!(errors(&text, Syntax::Rules), err("E0002"));
    }
}

#[test]
fn deep_negation_and_arithmetic() {
    let kif_not = format!(
        "(role x) (<= p {}q{})",
        "(not ".repeat(100_000),
        ")".repeat(100_000)
    );
    assert_eq!(errors(&kif_not, Syntax::Kif), err("E0002"));
    // The native reader takes at most two `not` or unary `-` in a row, and
    // refuses a long operator chain as too deep.
    let cases = [
        (
            format!("roles x. p :- {}q.", "not ".repeat(100_000)),
            "E0001",
        ),
        (
            format!("roles x. p(X) :- q(Y), X = Y{}.", " + 1".repeat(100_000)),
            "E0002",
        ),
        (
            format!("roles x. p(X) :- q(Y), X = {}Y.", "- ".repeat(100_000)),
            "E0001",
        ),
    ];
    for (text, code) in &cases {
        assert_eq!(errors(text, Syntax::Rules), err(code), "{}", &text[..40]);
        // In the other syntax the same text is refused too.
        assert!(refused(&diagnose(text, Syntax::Kif)), "{}", &text[..40]);
    }
}

#[test]
fn unterminated_string_or_comment() {
    assert_eq!(
        errors("(role x) (p \"never closed)", Syntax::Kif),
        err("E0001")
    );
    assert_eq!(
        errors("roles x.\ngame \"never closed.\n", Syntax::Rules),
        err("E0001")
    );
    assert_eq!(errors("roles x. p :- q", Syntax::Rules), err("E0001"));
    // A comment may end the file without a newline.
    assert_eq!(
        diagnose(
            "(role x) ; a comment with no newline at the end",
            Syntax::Kif
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        diagnose(
            "roles x. % a comment with no newline at the end",
            Syntax::Rules
        ),
        Vec::<String>::new()
    );
}

#[test]
fn chained_relations_do_not_overflow() {
    // 100,000 relations each defined by the next, closed into a cycle with
    // one negation: the cycle must be found and named without recursion
    // (a warning: grounding decides whether ground atoms close it).
    let n = 100_000;
    let mut text = String::from("(role x)\n");
    for i in 0..n {
        text.push_str(&format!("(<= p{i} p{})\n", i + 1));
    }
    text.push_str(&format!("(<= p{n} (not p0))\n"));
    assert_eq!(diagnose(&text, Syntax::Kif), ["warning[W0004]"]);
    // The same chain ending in a fact instead is valid, without a warning.
    let mut text = String::from("(role x)\n");
    for i in 0..n {
        text.push_str(&format!("(<= p{i} p{})\n", i + 1));
    }
    text.push_str(&format!("(p{n})\n"));
    assert_eq!(diagnose(&text, Syntax::Kif), Vec::<String>::new());
}

#[test]
fn many_variables_and_literals_in_one_rule() {
    // Every `?w` occurs only under a negation: each is unsafe.
    let n = 50_000;
    let body: Vec<String> = (0..n).map(|i| format!("(q ?v{i})")).collect();
    let neg: Vec<String> = (0..n).map(|i| format!("(not (r ?v{i} ?w{i}))")).collect();
    let text = format!(
        "(role x) (q a) (r a a) (<= p {} {})",
        body.join(" "),
        neg.join(" ")
    );
    let codes = diagnose(&text, Syntax::Kif);
    assert_eq!(codes.len(), 20, "at least 20 diagnostics");
    assert!(codes.iter().all(|c| c == "error[E0102]"), "{codes:?}");
}

// ------------------------------------------------------------ the binary

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-robustness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temp file");
    path
}

/// Runs `tabula check` on a file: the exit code (0 or 1, else the test
/// fails) and the codes of the errors on stderr, without duplicates.
fn check_file(name: &str, bytes: &[u8]) -> (i32, Vec<String>) {
    let (code, codes, _) = check_file_output(name, bytes);
    (code, codes)
}

/// [`check_file`] and the whole of stderr.
fn check_file_output(name: &str, bytes: &[u8]) -> (i32, Vec<String>, String) {
    let path = scratch(name, bytes);
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .env("NO_COLOR", "1")
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
    let mut codes: Vec<String> = Vec::new();
    for line in stderr.lines() {
        if let Some(at) = line.find(": error[") {
            let code = &line[at + 2..at + 2 + "error[E0000]".len()];
            if !codes.iter().any(|c| c == code) {
                codes.push(code.to_string());
            }
        }
    }
    assert_eq!(code == Some(1), !codes.is_empty(), "{name}: {stderr}");
    (code.unwrap_or(-1), codes, stderr.into_owned())
}

#[test]
fn binary_refuses_hostile_files_cleanly() {
    let garbage: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    let nested = format!("{}{}", "(".repeat(200_000), ")".repeat(200_000));
    for ext in ["kif", "rules"] {
        let file = |stem: &str, bytes: &[u8]| check_file(&format!("{stem}.{ext}"), bytes);
        assert_eq!(file("empty", b""), (1, err("E0106")));
        // Not UTF-8: refused before any reading.
        assert_eq!(file("garbage", &garbage), (1, err("E0001")));
        assert_eq!(file("nested", nested.as_bytes()), (1, err("E0002")));
        assert_eq!(
            file("string", b"(role x) game \"never closed"),
            (1, err("E0001"))
        );
    }
    // A comment may end a file; the same text is no native program.
    let comment = b"(role x) ; % no newline";
    assert_eq!(check_file("comment.kif", comment), (0, Vec::new()));
    assert_eq!(check_file("comment.rules", comment), (1, err("E0001")));
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
    assert_eq!(check_file("big.kif", text.as_bytes()), (0, Vec::new()));
    // 2 MB on one line, every fact an error: diagnostics are capped and the
    // line is shown as a window, so the output stays small and quick.
    let mut text = String::from("(role x)");
    while text.len() < 2 << 20 {
        text.push_str(" (p ?x)");
    }
    let (code, codes, stderr) = check_file_output("big_errors.kif", text.as_bytes());
    assert_eq!((code, codes), (1, err("E0105")));
    assert!(
        stderr.len() < 100_000,
        "{} bytes of diagnostics",
        stderr.len()
    );
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.ends_with("more diagnostics not shown"), "{last}");
}
