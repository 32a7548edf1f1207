//! games/README.md traces each seed rule to lines of a rule file and to the
//! test that shows it; this test keeps the traces of the games in `CHECKED`
//! true after the rule files are edited. For every row: each line range
//! lies inside its file and covers whole statements (it starts after the
//! end of one and ends at the end of one) forming whole groups (it starts
//! after a blank line or a `{`, or at the top of a comment block, and ends before a blank
//! line, a `}` or a comment), so that a range shifted by a line or two is
//! caught; the ranges, with the comment
//! block just above each, name the row's seed rule ("seed 3.4", "Seed 10,
//! 11 and 13", "seed 11-12") or, for a row resolved by the notes, the
//! notes; and every test the row names is a function of the game's test
//! file. Besides, every file a game file or games/README.md cites is in
//! the repository (the rules texts are docs/rules/*.md).

use std::collections::BTreeSet;
use std::path::Path;

/// The README sections (by the start of their title) whose rows are checked.
const CHECKED: [&str; 5] = ["Tablan", "Generals", "Pawn whopping", "Pachisi", "Chaupar"];

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A row of a README table: seed rule, rule file lines, tests.
struct Row {
    rule: String,
    lines: String,
    tests: String,
}

/// The rows of one section's table (header and rule line left out).
fn rows(section: &str) -> Vec<Row> {
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| ")?.strip_suffix(" |"))
        .map(|l| l.split(" | ").map(str::trim).collect::<Vec<_>>())
        .filter(|c| c.len() == 3 && c[0] != "seed rule" && c[0] != "---")
        .map(|c| Row {
            rule: c[0].to_string(),
            lines: c[1].to_string(),
            tests: c[2].to_string(),
        })
        .collect()
}

/// The (file, first line, last line) ranges of a "rule file lines" cell:
/// `generals.rules 33-43, 75-100` or `variants/x.rules, base.rules 12`; a
/// file named without lines stands whole and yields no range.
fn ranges(cell: &str) -> Vec<(String, usize, usize)> {
    if cell.starts_with('—') {
        return Vec::new(); // no rule file: the row is about the CLI
    }
    let mut file = String::new();
    let mut out = Vec::new();
    for token in cell.split(", ") {
        let span = match token.split_once(' ') {
            Some((name, span)) if name.ends_with(".rules") => {
                file = name.to_string();
                span
            }
            _ if token.ends_with(".rules") => {
                file = token.to_string();
                continue;
            }
            _ => token,
        };
        let (a, b) = span.split_once('-').unwrap_or((span, span));
        let number = |s: &str| -> usize {
            s.parse()
                .unwrap_or_else(|_| panic!("`{span}` in `{cell}` is no line range"))
        };
        out.push((file.clone(), number(a), number(b)));
    }
    out
}

/// The code of a line without its comment, trimmed.
fn code(line: &str) -> &str {
    line.split('%').next().unwrap_or("").trim()
}

fn ends_statement(line: &str) -> bool {
    let c = code(line);
    c.ends_with('.') || c.ends_with('{') || c.ends_with('}')
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('%')
}

/// Line `a` (from 1) begins a group: after a blank line or a `{`, or with
/// the first line of a comment block.
fn starts_group(lines: &[&str], a: usize) -> bool {
    let before = if a > 1 { lines[a - 2] } else { "" };
    let trimmed = before.trim();
    trimmed.is_empty()
        || trimmed.ends_with('{')
        || (is_comment(lines[a - 1]) && !is_comment(before))
}

/// Line `b` (from 1) ends a group: before a blank line, a `}`, a comment or
/// the end of the file.
fn ends_group(lines: &[&str], b: usize) -> bool {
    let after = lines.get(b).map_or("", |l| l.trim());
    after.is_empty() || after == "}" || is_comment(after)
}

/// The seed rule numbers a text names after the word "seed": "Seed 3.1/3.2"
/// gives 3.1 and 3.2, "seed 10, 11 and 13" three numbers, "seed 11-12" and
/// "Seed 3-4" the whole span.
fn seed_numbers(text: &str) -> BTreeSet<String> {
    let lower = text.to_lowercase();
    let mut out = BTreeSet::new();
    for (at, _) in lower.match_indices("seed ") {
        let mut rest = &lower[at + 5..];
        let mut previous: Option<String> = None;
        let mut span = false;
        loop {
            rest = rest.trim_start();
            let digits = rest
                .char_indices()
                .take_while(|&(i, c)| {
                    c.is_ascii_digit()
                        || (c == '.' && rest[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
                })
                .count();
            if digits > 0 {
                let number = rest[..digits].to_string();
                if let (true, Some(a), Ok(b)) = (span, &previous, number.parse::<u32>())
                    && let Ok(a) = a.parse::<u32>()
                {
                    out.extend((a..=b).map(|k| k.to_string()));
                }
                out.insert(number.clone());
                previous = Some(number);
                span = false;
                rest = &rest[digits..];
            } else if let Some(r) = rest.strip_prefix('-') {
                span = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix(',').or_else(|| rest.strip_prefix('/')) {
                rest = r;
            } else if let Some(r) = rest.strip_prefix("and ") {
                rest = r;
            } else {
                break;
            }
        }
    }
    out
}

/// The seed rule a row names first ("3.4 an enemy ...", "12 a pair ..."),
/// if its first word is a rule number.
fn row_number(rule: &str) -> Option<&str> {
    let first = rule.split(' ').next()?;
    let number = first.trim_end_matches(|c: char| c.is_ascii_lowercase());
    (!number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.')).then_some(number)
}

/// What is wrong with one row, if anything: ranges, seed rule, tests.
fn row_problems(row: &Row, tests_file: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut named = String::new();
    for (file, a, b) in ranges(&row.lines) {
        let text = read(&format!("games/{file}"));
        let lines: Vec<&str> = text.lines().collect();
        if a == 0 || a > b || b > lines.len() {
            problems.push(format!("{file} {a}-{b} is not inside the file"));
            continue;
        }
        let before = lines[..a - 1].iter().rev().find(|l| !code(l).is_empty());
        if before.is_some_and(|l| !ends_statement(l)) {
            problems.push(format!("{file} {a}-{b} starts inside a statement"));
        }
        if !code(lines[b - 1]).is_empty() && !ends_statement(lines[b - 1]) {
            problems.push(format!("{file} {a}-{b} ends inside a statement"));
        }
        if !starts_group(&lines, a) || !ends_group(&lines, b) {
            problems.push(format!("{file} {a}-{b} is not a whole group of lines"));
        }
        let mut top = a - 1;
        while top > 0 && lines[top - 1].trim_start().starts_with('%') {
            top -= 1;
        }
        named.push_str(&lines[top..b].join("\n"));
    }
    if !named.is_empty() {
        if let Some(number) = row_number(&row.rule) {
            if !seed_numbers(&named).contains(number) {
                problems.push(format!("no comment of the lines names seed {number}"));
            }
        } else if row.rule.contains("(notes") && !named.to_lowercase().contains("notes") {
            problems.push("no comment of the lines names the notes".to_string());
        }
    }
    for test in row.tests.split('`').skip(1).step_by(2) {
        if !tests_file.contains(&format!("fn {test}(")) {
            problems.push(format!("no test `{test}`"));
        }
    }
    problems
}

#[test]
fn readme_rows_point_at_the_rules_and_tests_they_name() {
    let readme = read("games/README.md");
    let mut problems = Vec::new();
    let mut rows_per_game = [0; CHECKED.len()];
    for section in readme.split("\n## ").skip(1) {
        let Some(game) = CHECKED.iter().position(|g| section.starts_with(g)) else {
            continue;
        };
        let tests_path = section
            .split('`')
            .find(|s| s.starts_with("tests/") && s.ends_with(".rs"))
            .expect("the section names its test file");
        let tests_file = read(tests_path);
        for row in rows(section) {
            rows_per_game[game] += 1;
            for p in row_problems(&row, &tests_file) {
                problems.push(format!("{}: {p}", row.rule));
            }
        }
    }
    for (game, rows) in CHECKED.iter().zip(rows_per_game) {
        assert!(rows > 10, "only {rows} rows found for {game}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn seed_numbers_reads_lists_and_spans() {
    let names = |t: &str| seed_numbers(t).into_iter().collect::<Vec<_>>();
    assert_eq!(names("% Seed 3.1/3.2 with notes"), ["3.1", "3.2"]);
    assert_eq!(
        names("% Seed 10, 11 and 13 with notes."),
        ["10", "11", "13"]
    );
    assert_eq!(names("% seed 11-12: pairs"), ["11", "12"]);
    assert_eq!(names("% Seed 3.5 / 5.1: \"An attacker"), ["3.5", "5.1"]);
    assert_eq!(names("% the seed 9. Then"), ["9"]);
    assert!(names("% no rule named here").is_empty());
    assert_eq!(row_number("8a more pieces wins"), Some("8"));
    assert_eq!(row_number("4.10 capture"), Some("4.10"));
    assert_eq!(row_number("throw cap (notes)"), None);
}

#[test]
fn a_group_starts_at_the_top_of_its_comment_block() {
    let lines = [
        "section moves {",
        "    % Seed 3: a move.",
        "    % It goes forward.",
        "    can_move(R) :- role(R).",
        "",
        "    % Seed 4: another.",
    ];
    let starts: Vec<usize> = (1..=lines.len())
        .filter(|&a| starts_group(&lines, a))
        .collect();
    assert_eq!(starts, [1, 2, 6]);
}

/// The files a text cites: every word that names a path with a folder
/// (`docs/rules/tablan.md`, `../docs/rules/README.md`) and ends in a file
/// extension (a letter first: `3.1/3.2` is no path), trimmed of quotes,
/// brackets and punctuation.
fn cited_paths(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || "`()[]\"'<>,;".contains(c))
        .map(|w| w.trim_end_matches(['.', ':']))
        .filter(|w| w.contains('/') && !w.contains("://"))
        .filter(|w| {
            let extension = Path::new(w).extension().and_then(|e| e.to_str());
            extension.is_some_and(|e| {
                e.starts_with(|c: char| c.is_ascii_alphabetic())
                    && e.chars().all(|c| c.is_ascii_alphanumeric())
            })
        })
        .map(str::to_string)
        .collect()
}

/// Every file a game file or games/README.md cites is in the repository:
/// a path relative to the citing file (Markdown links) or to the crate
/// root (comments), never outside it.
#[test]
fn game_files_cite_only_files_inside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut citing = vec![root.join("games/README.md")];
    for folder in ["games", "games/variants"] {
        for entry in std::fs::read_dir(root.join(folder)).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rules") {
                citing.push(path);
            }
        }
    }
    let root_real = root.canonicalize().expect("crate root");
    let mut problems = Vec::new();
    for file in &citing {
        let text = std::fs::read_to_string(file).expect("readable file");
        for cited in cited_paths(&text) {
            let beside = file.parent().expect("a folder").join(&cited);
            let found = [beside, root.join(&cited)]
                .into_iter()
                .filter_map(|p| p.canonicalize().ok())
                .find(|p| p.is_file() && p.starts_with(&root_real));
            if found.is_none() {
                problems.push(format!("{}: `{cited}`", file.display()));
            }
        }
    }
    assert!(citing.len() > 10, "{citing:?}");
    assert!(
        problems.is_empty(),
        "cited but not in the repository:\n{}",
        problems.join("\n")
    );
}

#[test]
fn cited_paths_are_words_with_a_folder_and_an_extension() {
    assert_eq!(
        cited_paths("% Rules: docs/rules/tablan.md, rules 1..8 (see [x](../docs/a.md))."),
        ["docs/rules/tablan.md", "../docs/a.md"]
    );
    assert!(cited_paths("% moves 1/2 of a throw; and/or; 3.1/3.2").is_empty());
    assert_eq!(
        cited_paths("% Seed: ../shared/rules/seeds/000_db.txt, rules"),
        ["../shared/rules/seeds/000_db.txt"]
    );
}
