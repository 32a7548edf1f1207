//! editors/tabula.tmLanguage.json, the TextMate grammar of `.rules` files:
//! it is JSON, every regex compiles, and a tokenizer that applies it as
//! TextMate does (line by line, the pattern matching earliest wins, the
//! first listed on a tie) gives a scope to every non-blank character of
//! every shipped game, scopes comments, strings, variables, numbers and
//! labels as they are, and scopes every keyword of the language (the
//! declarations of docs/LANGUAGE.md and the keywords of grammar/rules.pest)
//! as a keyword.

mod common;

use common::rules_files;
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One `match` pattern: its regex, the scope of the whole match, and the
/// scopes of its numbered groups.
struct Pattern {
    regex: Regex,
    name: Option<String>,
    captures: Vec<(usize, String)>,
}

/// The grammar's patterns in order, `include`s expanded.
fn patterns() -> Vec<Pattern> {
    let grammar: Value =
        serde_json::from_str(&read("editors/tabula.tmLanguage.json")).expect("the grammar is JSON");
    assert_eq!(grammar["scopeName"], "source.tabula");
    let mut out = Vec::new();
    expand(&grammar["patterns"], &grammar["repository"], &mut out, 0);
    out
}

fn expand(list: &Value, repository: &Value, out: &mut Vec<Pattern>, depth: usize) {
    assert!(depth < 10, "includes nest too deep");
    for p in list.as_array().expect("a list of patterns") {
        if let Some(include) = p["include"].as_str() {
            let name = include.strip_prefix('#').expect("a repository include");
            let entry = &repository[name];
            assert!(!entry.is_null(), "no repository entry `{name}`");
            if entry["patterns"].is_array() {
                expand(&entry["patterns"], repository, out, depth + 1);
            } else {
                expand(
                    &Value::Array(vec![entry.clone()]),
                    repository,
                    out,
                    depth + 1,
                );
            }
            continue;
        }
        let source = p["match"].as_str().expect("only `match` patterns");
        let regex = Regex::new(source).unwrap_or_else(|e| panic!("`{source}`: {e}"));
        let mut captures = Vec::new();
        if let Some(map) = p["captures"].as_object() {
            for (group, scope) in map {
                let group: usize = group.parse().expect("a group number");
                assert!(
                    group < regex.captures_len(),
                    "`{source}` has no group {group}"
                );
                captures.push((group, scope["name"].as_str().expect("a scope").to_string()));
            }
        }
        let name = p["name"].as_str().map(str::to_string);
        assert!(
            name.is_some() || !captures.is_empty(),
            "`{source}` scopes nothing"
        );
        out.push(Pattern {
            regex,
            name,
            captures,
        });
    }
}

/// A scoped piece of a line: text and scope.
type Token = (String, String);

/// Tokenizes one line; unscoped stretches come out with the scope "".
fn tokenize(line: &str, patterns: &[Pattern]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut pos = 0;
    while pos < line.len() {
        let best = patterns
            .iter()
            .filter_map(|p| p.regex.captures_at(line, pos).map(|c| (c, p)))
            .filter(|(c, _)| c.get(0).is_some_and(|m| !m.is_empty()))
            .min_by_key(|(c, _)| c.get(0).map_or(usize::MAX, |m| m.start()));
        let Some((caps, pattern)) = best else {
            tokens.push((line[pos..].to_string(), String::new()));
            break;
        };
        let whole = caps.get(0).expect("a match");
        if whole.start() > pos {
            tokens.push((line[pos..whole.start()].to_string(), String::new()));
        }
        let mut at = whole.start();
        let outer = pattern.name.clone().unwrap_or_default();
        let mut groups: Vec<(usize, usize, &str)> = pattern
            .captures
            .iter()
            .filter_map(|(g, scope)| caps.get(*g).map(|m| (m.start(), m.end(), scope.as_str())))
            .collect();
        groups.sort();
        for (start, end, scope) in groups {
            if start > at {
                tokens.push((line[at..start].to_string(), outer.clone()));
            }
            tokens.push((line[start..end].to_string(), scope.to_string()));
            at = end;
        }
        if whole.end() > at {
            tokens.push((line[at..whole.end()].to_string(), outer));
        }
        pos = whole.end();
    }
    tokens
}

/// The keywords of the language: every declaration named in a heading of
/// docs/LANGUAGE.md, and every word of a keyword rule of grammar/rules.pest.
fn keywords() -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    let quoted = Regex::new(r"`([a-z]+)`").expect("a regex");
    for line in read("docs/LANGUAGE.md")
        .lines()
        .filter(|l| l.starts_with("### `"))
    {
        words.extend(quoted.captures_iter(line).map(|c| c[1].to_string()));
    }
    let literal = Regex::new(r#""([a-z]+)""#).expect("a regex");
    let grammar = read("grammar/rules.pest");
    let mut in_keyword_rule = false;
    for line in grammar.lines() {
        if line.contains('=') && !line.starts_with(' ') {
            let rule = line.split('=').next().unwrap_or("").trim();
            in_keyword_rule =
                rule.starts_with("kw_") || ["decl_kw", "option", "agg_kw"].contains(&rule);
        }
        if in_keyword_rule {
            words.extend(literal.captures_iter(line).map(|c| c[1].to_string()));
        }
    }
    words
}

#[test]
fn every_keyword_is_a_keyword() {
    let patterns = patterns();
    let words = keywords();
    for expected in [
        "game", "pieces", "draw", "reserve", "counter", "replace", "drop", "using", "mod", "count",
        "init",
    ] {
        assert!(
            words.contains(expected),
            "`{expected}` not found among {words:?}"
        );
    }
    for word in &words {
        let tokens = tokenize(&format!("{word} x"), &patterns);
        assert_eq!(tokens[0].0, *word, "{tokens:?}");
        assert!(tokens[0].1.starts_with("keyword."), "`{word}`: {tokens:?}");
    }
}

#[test]
fn a_line_tokenizes_exactly() {
    let tokens = tokenize("    rule r: draw at(C, _) at C as p(1). % ok", &patterns());
    let scoped: Vec<(&str, &str)> = tokens
        .iter()
        .filter(|(text, _)| !text.trim().is_empty())
        .map(|(text, scope)| (text.trim(), scope.as_str()))
        .collect();
    assert_eq!(
        scoped,
        [
            ("rule", "keyword.control.label.tabula"),
            ("r", "entity.name.label.tabula"),
            (":", "punctuation.separator.colon.tabula"),
            ("draw", "keyword.control.declaration.tabula"),
            ("at", "entity.name.function.tabula"),
            ("(", "punctuation.parenthesis.begin.tabula"),
            ("C", "variable.other.tabula"),
            (",", "punctuation.separator.comma.tabula"),
            ("_", "variable.other.tabula"),
            (")", "punctuation.parenthesis.end.tabula"),
            ("at", "keyword.other.option.tabula"),
            ("C", "variable.other.tabula"),
            ("as", "keyword.other.option.tabula"),
            ("p", "entity.name.function.tabula"),
            ("(", "punctuation.parenthesis.begin.tabula"),
            ("1", "constant.numeric.integer.tabula"),
            (")", "punctuation.parenthesis.end.tabula"),
            (".", "punctuation.terminator.statement.tabula"),
            ("% ok", "comment.line.percentage.tabula"),
        ]
    );
}

#[test]
fn every_shipped_game_is_scoped_throughout() {
    let patterns = patterns();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games: Vec<PathBuf> = rules_files("games").iter().map(|p| root.join(p)).collect();
    assert!(games.len() >= 14, "{games:?}");
    let words = keywords();
    let mut keywords_seen = BTreeSet::new();
    for path in games {
        let text = std::fs::read_to_string(&path).expect("a game");
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", path.display(), n + 1);
            let tokens = tokenize(line, &patterns);
            for (text, scope) in &tokens {
                assert!(
                    !scope.is_empty() || text.trim().is_empty(),
                    "{at}: `{text}` unscoped in {tokens:?}"
                );
                match scope.as_str() {
                    s if s.starts_with("comment.") => {
                        assert!(
                            text.starts_with('%') && line.ends_with(text.as_str()),
                            "{at}"
                        )
                    }
                    s if s.starts_with("string.") => {
                        assert!(text.starts_with('"') && text.ends_with('"'), "{at}: {text}")
                    }
                    s if s.starts_with("variable.") => {
                        assert!(
                            text.starts_with(|c: char| c.is_ascii_uppercase() || c == '_'),
                            "{at}"
                        )
                    }
                    s if s.starts_with("constant.numeric") => {
                        assert!(text.bytes().all(|b| b.is_ascii_digit()), "{at}: {text}")
                    }
                    s if s.starts_with("keyword.")
                        && text.chars().all(|c| c.is_ascii_lowercase()) =>
                    {
                        assert!(words.contains(text), "{at}: `{text}` is no keyword");
                        keywords_seen.insert(text.clone());
                    }
                    _ => {}
                }
            }
            // Code (not a comment) outside strings: the comment token is the
            // whole rest of the line from its `%`.
            if let Some(comment) = tokens.iter().find(|(_, s)| s.starts_with("comment.")) {
                assert!(line.ends_with(comment.0.as_str()), "{at}");
            }
        }
    }
    for common in [
        "game", "roles", "section", "rule", "not", "true", "next", "init", "count",
    ] {
        assert!(
            keywords_seen.contains(common),
            "`{common}` never seen as a keyword in games/"
        );
    }
}
