//! `tabula fmt`: the layout is idempotent and keeps the meaning on every
//! shipped game, every test game and every conformance game (the formatted
//! file reads as the very same program: rules, symbols, declarations and
//! board, everything but source positions); comments are kept (golden
//! files of a messy input and its formatted form, in tests/fmt/); and the
//! command's in-place rewrite, `--check` diff and exit codes, standard
//! input, folders and refusal of invalid files.

mod common;

use common::rules_files;
use std::path::{Path, PathBuf};
use tabula::syntax::{self, FileId, Overrides, SourceMap, Syntax};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn format(text: &str, syntax: Syntax, name: &str) -> String {
    tabula::format::format(text, syntax, FileId(0))
        .unwrap_or_else(|d| panic!("{name} does not format: {d:?}"))
}

/// A program as text with every source position left out: two texts that
/// read as the same program give the same string.
fn meaning(program: &syntax::Program) -> String {
    let spans = regex::Regex::new(r"Span \{ file: FileId\(\d+\), start: \d+, end: \d+ \}")
        .expect("a regex");
    spans
        .replace_all(&format!("{program:?}"), "Span")
        .into_owned()
}

fn load(path: &Path) -> String {
    let mut sources = SourceMap::default();
    let syntax = syntax::syntax_of(path);
    match syntax::load(&mut sources, path, syntax, &Overrides::new()) {
        Ok(program) => meaning(&program),
        Err(e) => panic!("{} does not load: {e:?}", path.display()),
    }
}

#[test]
fn shipped_and_test_games_format_idempotently_to_the_same_program() {
    // The formatted copies keep the folder layout, so a variant's
    // `extends "../base.rules"` reads the formatted base.
    let copy = common::scratch_dir("fmt-games");
    let files: Vec<PathBuf> = [rules_files("games"), rules_files("tests/games")].concat();
    assert!(files.len() >= 20, "{files:?}");
    for rel in &files {
        let name = rel.display().to_string();
        let once = format(&read(&root().join(rel)), Syntax::Rules, &name);
        assert_eq!(
            format(&once, Syntax::Rules, &name),
            once,
            "{name}: not idempotent"
        );
        let target = copy.join(rel);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("a folder");
        std::fs::write(&target, &once).expect("a copy");
    }
    for rel in &files {
        assert_eq!(
            load(&copy.join(rel)),
            load(&root().join(rel)),
            "{}: the formatted file reads as another program",
            rel.display()
        );
    }
    let _ = std::fs::remove_dir_all(&copy);
}

#[test]
fn every_shipped_game_is_formatted() {
    for rel in rules_files("games") {
        let text = read(&root().join(&rel));
        let name = rel.display().to_string();
        assert_eq!(
            format(&text, Syntax::Rules, &name),
            text,
            "run `tabula fmt {name}`"
        );
    }
}

#[test]
fn conformance_games_format_idempotently_to_the_same_program() {
    let Some(dir) = common::shared("conformance") else {
        return;
    };
    let mut games = Vec::new();
    for folder in ["games", "large"] {
        let Ok(entries) = std::fs::read_dir(dir.join(folder)) else {
            continue;
        };
        games.extend(
            entries
                .map(|e| e.expect("an entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "kif" || e == "gdl")),
        );
    }
    games.sort();
    assert!(games.len() >= 21, "{games:?}");
    for path in games {
        let name = path.display().to_string();
        let text = read(&path);
        let once = format(&text, Syntax::Kif, &name);
        assert_eq!(
            format(&once, Syntax::Kif, &name),
            once,
            "{name}: not idempotent"
        );
        let parse = |text: &str| {
            let mut sources = SourceMap::default();
            match syntax::parse_str(&mut sources, &name, text, Syntax::Kif) {
                Ok(program) => meaning(&program),
                Err(d) => panic!("{name} does not parse: {d:?}"),
            }
        };
        assert_eq!(parse(&once), parse(&text), "{name}: another program");
        let comments = |t: &str| {
            t.lines()
                .filter_map(|l| l.find(';').map(|i| l[i..].trim_end().to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            comments(&once),
            comments(&text),
            "{name}: a comment was lost or moved"
        );
    }
}

/// The golden files: `tabula fmt -` turns each messy input into its
/// formatted form, which it leaves as it is.
#[test]
fn messy_inputs_format_to_their_golden_files_keeping_every_comment() {
    for (input, golden, syntax) in [
        ("messy.rules", "messy.formatted.rules", "rules"),
        ("messy.kif", "messy.formatted.kif", "kif"),
    ] {
        let dir = root().join("tests/fmt");
        let (text, want) = (read(&dir.join(input)), read(&dir.join(golden)));
        let (out, err, code) = common::run(&["fmt", "--syntax", syntax, "-"], &text);
        assert_eq!(
            (out.as_str(), err.as_str(), code),
            (want.as_str(), "", 0),
            "{input}"
        );
        let (out, _, code) = common::run(&["fmt", "--syntax", syntax, "-"], &want);
        assert_eq!(
            (out.as_str(), code),
            (want.as_str(), 0),
            "{golden} is a fixed point"
        );
        let marker = if syntax == "kif" { ';' } else { '%' };
        let comments = |t: &str| {
            t.lines()
                .filter_map(|l| l.find(marker).map(|i| l[i..].trim_end().to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            comments(&want),
            comments(&text),
            "{input}: every comment, in order"
        );
        let (mut a, mut b) = (SourceMap::default(), SourceMap::default());
        let syn = if syntax == "kif" {
            Syntax::Kif
        } else {
            Syntax::Rules
        };
        let program = |sources: &mut SourceMap, t: &str| {
            meaning(&syntax::parse_str(sources, input, t, syn).expect("a valid game"))
        };
        assert_eq!(program(&mut a, &want), program(&mut b, &text), "{input}");
        let changed = text.replacen("100", "99", 1);
        let mut c = SourceMap::default();
        assert_ne!(
            program(&mut c, &changed),
            program(&mut a, &text),
            "the comparison sees a change"
        );
    }
}

#[test]
fn in_place_check_and_folders() {
    let dir = common::scratch_dir("fmt-cli");
    let messy = read(&root().join("tests/fmt/messy.rules"));
    let formatted = read(&root().join("tests/fmt/messy.formatted.rules"));
    std::fs::create_dir_all(dir.join("sub")).expect("a folder");
    let (a, b) = (dir.join("a.rules"), dir.join("sub/b.rules"));
    std::fs::write(&a, &messy).expect("a file");
    std::fs::write(&b, &formatted).expect("a file");
    std::fs::write(dir.join("notes.txt"), "not a game").expect("a file");
    let d = dir.display().to_string();
    let (a_name, b_name) = (a.display().to_string(), b.display().to_string());

    // --check: a diff of the file that would change, exit 1, nothing written.
    let (out, err, code) = common::run(&["fmt", "--check", &d], "");
    assert_eq!((err.as_str(), code), ("", 1));
    assert!(
        out.starts_with(&format!("--- {a_name}\n+++ {a_name} (formatted)\n@@ ")),
        "{out}"
    );
    for line in [
        "\n-roles first,second.   turn first , second using can_take.\n",
        "\n+roles first, second.\n+turn first, second using can_take.\n",
    ] {
        assert!(out.contains(line), "{out}");
    }
    assert!(!out.contains(&b_name), "{out}");
    assert_eq!(read(&a), messy);
    assert_eq!(
        common::run(&["fmt", "--check", &b_name], ""),
        (String::new(), String::new(), 0)
    );

    // In place: the file is rewritten, no temporary file is left beside it.
    assert_eq!(
        common::run(&["fmt", &d], ""),
        (String::new(), String::new(), 0)
    );
    assert_eq!(read(&a), formatted);
    assert_eq!(read(&b), formatted);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("a folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(names, ["a.rules", "notes.txt", "sub"]);
    assert_eq!(
        common::run(&["fmt", "--check", &d], ""),
        (String::new(), String::new(), 0)
    );

    // Standard input under --check.
    let (out, _, code) = common::run(&["fmt", "--check", "-"], &messy);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("--- <stdin>\n+++ <stdin> (formatted)\n"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_files_are_refused_and_left_untouched() {
    let dir = common::scratch_dir("fmt-invalid");
    let bad = dir.join("bad.rules");
    let text = "roles x.\np(X :- q(X).\n  r( X ) .\n";
    std::fs::write(&bad, text).expect("a file");
    let name = bad.display().to_string();
    for args in [
        vec!["fmt", name.as_str()],
        vec!["fmt", "--check", name.as_str()],
    ] {
        let (out, err, code) = common::run(&args, "");
        assert_eq!((out.as_str(), code), ("", 1), "{args:?}");
        assert!(
            err.starts_with(&format!("{name}:2:5: error[E0001]: expected")),
            "{err}"
        );
        assert_eq!(read(&bad), text);
    }
    let (out, err, code) = common::run(&["fmt", "-"], "p(X :- q(X).\n");
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(err.starts_with("<stdin>:1:5: error[E0001]"), "{err}");

    let binary = dir.join("binary.kif");
    std::fs::write(&binary, b"(role x)\n\xff").expect("a file");
    let (_, err, code) = common::run(&["fmt", &binary.display().to_string()], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("is not UTF-8 text (invalid byte at offset 9)"),
        "{err}"
    );
    assert_eq!(std::fs::read(&binary).expect("a file"), b"(role x)\n\xff");

    let kif = dir.join("open.kif");
    std::fs::write(&kif, "(role x)\n(<= p (q)\n").expect("a file");
    let (_, err, code) = common::run(&["fmt", &kif.display().to_string()], "");
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "{}:2:1: error[E0001]: this `(` is never closed",
            kif.display()
        )),
        "{err}"
    );

    let missing = dir.join("missing.rules").display().to_string();
    let (_, err, code) = common::run(&["fmt", &missing], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: cannot read {missing}")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tokens of a text (comments included), by a plain scanner: strings,
/// comments, multi-character operators, words, any other character.
fn tokens(text: &str, comment: char) -> Vec<String> {
    let pattern = format!(
        r#""(?:[^"\\\n]|\\.)*"|{comment}[^\n]*|:-|\.\.|!=|=<|>=|[^\s(){{}},;.:"{comment}]+|\S"#
    );
    let regex = regex::Regex::new(&pattern).expect("a regex");
    regex
        .find_iter(text)
        .map(|m| m.as_str().to_string())
        .collect()
}

/// Joins `tokens` with the given blanks (a comment always ends its line,
/// and two words never touch).
fn respaced(tokens: &[String], gaps: &[&str], comment: char) -> String {
    let mut text = String::new();
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            if tokens[i - 1].starts_with(comment) {
                text.push('\n');
            }
            let gap = gaps[(i - 1) % gaps.len()];
            let wordy = |c: Option<char>| {
                c.is_some_and(|c| match comment {
                    ';' => !"()".contains(c),
                    _ => c.is_alphanumeric() || "_\"-".contains(c),
                })
            };
            let glued = wordy(tokens[i - 1].chars().last()) && wordy(token.chars().next());
            text.push_str(if gap.is_empty() && glued { " " } else { gap });
        }
        text.push_str(token);
    }
    text
}

/// The blanks placed between tokens: nothing, spaces, line breaks, a blank
/// line, a comment.
const GAPS: [&str; 7] = ["", " ", "   ", "\n", "\n\n\n", " \n  ", " %c\n"];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Any blanks between the tokens of a valid file: the formatted text is
    /// a fixed point, reads as the same program, and keeps every comment.
    #[test]
    fn any_blanks_format_to_a_fixed_point_of_the_same_program(
        picks in proptest::collection::vec(0..GAPS.len(), 1..400),
        kif in proptest::prelude::any::<bool>(),
    ) {
        let (file, syntax, comment) = if kif {
            ("tests/fmt/messy.kif", Syntax::Kif, ';')
        } else {
            ("tests/fmt/messy.rules", Syntax::Rules, '%')
        };
        let gaps: Vec<&str> = picks
            .iter()
            .map(|&k| if kif { GAPS[k].replace('%', ";").leak() as &str } else { GAPS[k] })
            .collect();
        let original = read(&root().join(file));
        let text = respaced(&tokens(&original, comment), &gaps, comment);
        let once = format(&text, syntax, file);
        proptest::prop_assert_eq!(format(&once, syntax, file), once.clone());
        let program = |t: &str| {
            let mut sources = SourceMap::default();
            meaning(&syntax::parse_str(&mut sources, file, t, syntax).expect("a valid game"))
        };
        proptest::prop_assert_eq!(program(&once), program(&original));
        let comments = |t: &str| tokens(t, comment).into_iter().filter(|t| t.starts_with(comment)).collect::<Vec<_>>();
        proptest::prop_assert_eq!(comments(&once), comments(&text));
    }

    /// Random text never makes the formatter panic, and what it accepts
    /// it formats to a fixed point.
    #[test]
    fn random_text_never_panics(
        bytes in proptest::collection::vec(proptest::sample::select(&b"pqX_1 (),.:-=<>!;%{}\"\nsection notcount"[..]), 0..300),
        kif in proptest::prelude::any::<bool>(),
    ) {
        let text = String::from_utf8_lossy(&bytes);
        let syntax = if kif { Syntax::Kif } else { Syntax::Rules };
        if let Ok(once) = tabula::format::format(&text, syntax, FileId(0)) {
            proptest::prop_assert_eq!(format(&once, syntax, "random"), once.clone());
        }
    }
}
