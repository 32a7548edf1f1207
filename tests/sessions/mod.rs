//! Golden sessions: a run of the built `tabula` and everything it printed,
//! in one text file per test.
//!
//! A `.session` file reads
//!
//! ```text
//! tabula repl tests/repl/count.kif --seed 1
//! --- stdin
//! play 2
//! --- stdout
//! ...
//! --- stderr
//! --- exit 0
//! ```
//!
//! The first line is the command (arguments split at spaces); a section's
//! text is its lines, each ending with a line break, unless its last line is
//! `\ no newline`. `{tmp}` in the command and the input stands for a fresh
//! folder, and the folder's path in the output is written back as `{tmp}`.
//! Measured times (the `s/move` column of a table, `"seconds_per_move"` in
//! JSON) read `{time}` in the output: they depend on the machine's load, so
//! a session compares everything but them.
//! `TABULA_BLESS=1` rewrites the output sections from what the binary printed.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

const NO_NEWLINE: &str = "\\ no newline";

/// One session file: the command, the input and the expected outputs.
struct Session {
    args: Vec<String>,
    stdin: String,
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs `tests/{folder}/{name}.session` with `{tmp}` a fresh folder, and
/// compares (or, blessed, rewrites) its outputs.
pub fn session(folder: &str, name: &str) {
    let tmp = temp_dir(name);
    session_in(folder, name, &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The same with `{tmp}` the given folder, which the caller may look into
/// afterwards (and removes).
pub fn session_in(folder: &str, name: &str, tmp: &Path) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder)
        .join(format!("{name}.session"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expected = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tmp_text = tmp.display().to_string();
    let args: Vec<String> = expected
        .args
        .iter()
        .map(|a| a.replace("{tmp}", &tmp_text))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let input = expected.stdin.replace("{tmp}", &tmp_text);
    let (out, err, code) = super::common::run(&args, &input);
    let actual = Session {
        stdout: mask_times(&out.replace(&tmp_text, "{tmp}")),
        stderr: mask_times(&err.replace(&tmp_text, "{tmp}")),
        code,
        ..expected
    };
    let written = write(&actual);
    if std::env::var_os("TABULA_BLESS").is_some_and(|v| v == "1") {
        if written != text {
            std::fs::write(&path, &written).expect("write the session file");
        }
        return;
    }
    assert_eq!(
        written,
        text,
        "{} (TABULA_BLESS=1 rewrites it)",
        path.display()
    );
}

const TIME: &str = "{time}";
const JSON_TIME_KEY: &str = "\"seconds_per_move\":";
const TABLE_TIME_COLUMN: &str = "s/move";

/// The text with every measured time replaced by `{time}`: the number after
/// each `"seconds_per_move":`, and the last column of each row under a
/// table header that ends in `s/move`.
fn mask_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut under_time_header = false;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches('\n');
        let masked = if content.ends_with(TABLE_TIME_COLUMN) {
            under_time_header = true;
            content.to_string()
        } else if under_time_header && last_word_is_number(content) {
            let cut = content.trim_end().rfind(' ').map_or(0, |i| i + 1);
            format!("{}{TIME}", &content[..cut])
        } else {
            under_time_header = false;
            mask_json_times(content)
        };
        out.push_str(&masked);
        out.push_str(&line[content.len()..]);
    }
    out
}

fn last_word_is_number(line: &str) -> bool {
    line.split_whitespace()
        .last()
        .is_some_and(|w| w.parse::<f64>().is_ok())
}

fn mask_json_times(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(JSON_TIME_KEY) {
        let value = at + JSON_TIME_KEY.len();
        out.push_str(&rest[..value]);
        out.push_str(TIME);
        rest =
            rest[value..].trim_start_matches(|c: char| c.is_ascii_digit() || ".-+eE".contains(c));
    }
    out.push_str(rest);
    out
}

/// A fresh empty folder for one session.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-session-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn parse(text: &str) -> Result<Session, String> {
    let mut lines = text.lines();
    let command = lines.next().ok_or("empty file")?;
    let args = command
        .strip_prefix("tabula ")
        .ok_or("the first line is `tabula ARGS`")?
        .split(' ')
        .map(str::to_string)
        .collect();
    let mut sections: Vec<(String, Vec<&str>)> = Vec::new();
    for line in lines {
        match line.strip_prefix("--- ") {
            Some(head) => sections.push((head.to_string(), Vec::new())),
            None => match sections.last_mut() {
                Some((_, body)) => body.push(line),
                None => return Err(format!("`{line}` before the first section")),
            },
        }
    }
    let names: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
    let [stdin, stdout, stderr, exit] = &sections[..] else {
        return Err(format!(
            "sections {names:?}, not stdin, stdout, stderr, exit"
        ));
    };
    let code = exit
        .0
        .strip_prefix("exit ")
        .and_then(|c| c.parse().ok())
        .ok_or("the last line is `--- exit CODE`")?;
    Ok(Session {
        args,
        stdin: body(&stdin.1),
        stdout: body(&stdout.1),
        stderr: body(&stderr.1),
        code,
    })
}

fn body(lines: &[&str]) -> String {
    match lines.split_last() {
        Some((&last, rest)) if last == NO_NEWLINE => rest.join("\n"),
        _ => lines.iter().map(|l| format!("{l}\n")).collect(),
    }
}

fn write(s: &Session) -> String {
    let section = |text: &str| {
        if text.is_empty() || text.ends_with('\n') {
            text.to_string()
        } else {
            format!("{text}\n{NO_NEWLINE}\n")
        }
    };
    format!(
        "tabula {}\n--- stdin\n{}--- stdout\n{}--- stderr\n{}--- exit {}\n",
        s.args.join(" "),
        section(&s.stdin),
        section(&s.stdout),
        section(&s.stderr),
        s.code
    )
}
