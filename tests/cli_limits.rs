//! The crash list of issue 10, front-end part: inputs that used to panic,
//! stop a session, replace what they should not or read without bound,
//! each run through the built binary.
//!
//! - `bench --threads 5000` is a usage error (exit 2), not a panic.
//! - The piped REPL reports a line that is not UTF-8 and goes on.
//! - `save` writes the file a link points to, and refuses what is not a
//!   regular file (a named pipe here: a device node is the same case, but a
//!   test must not risk `/dev/null` on a system without the fix).
//! - Every input file is capped in size: `/dev/zero` as a game, a
//!   transcript, a position and as standard input fails at once.
//! - Errors in a position file (`--from`, `load-state`) name line and
//!   column.

mod common;
use common::{absolute, run};
use std::process::{Command, Stdio};

/// Runs the built `tabula` with raw bytes on standard input; stdout,
/// stderr and the exit code.
fn run_bytes(args: &[&str], input: &[u8]) -> (String, String, i32) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tabula");
    let mut stdin = child.stdin.take().expect("stdin");
    // A child that stops reading early closes the pipe: not an error here.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().expect("tabula runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn bench_threads_beyond_the_cap_is_a_usage_error() {
    let (out, err, code) = run(
        &[
            "bench",
            "tests/repl/guess.kif",
            "-n",
            "10",
            "--threads",
            "5000",
        ],
        "",
    );
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(
        err.starts_with(
            "error: invalid value '5000' for '--threads <THREADS>': 5000 is not in 1..=256"
        ),
        "{err}"
    );
    let (_, err, code) = run(&["bench", "tests/repl/guess.kif", "--threads", "0"], "");
    assert_eq!(code, 2, "{err}");
    let (_, err, code) = run(
        &[
            "bench",
            "tests/repl/guess.kif",
            "-n",
            "10",
            "--threads",
            "256",
        ],
        "",
    );
    assert_eq!((err.as_str(), code), ("", 0), "the cap itself is allowed");
}

#[test]
fn piped_repl_reports_a_line_that_is_not_text_and_goes_on() {
    let input = b"state\n\xff\xfe play\nhistory\nplay 1\n";
    let (out, err, code) = run_bytes(&["repl", "tests/repl/count.kif", "--seed", "1"], input);
    assert_eq!(
        err,
        "error: input line 2 is not UTF-8 text (invalid byte at offset 0); skipped\n"
    );
    assert_eq!(code, 1, "a skipped line is a failed command");
    assert!(out.contains("no steps yet\n"), "line 3 ran: {out}");
    assert!(out.contains("a=(add 1)"), "line 4 ran: {out}");
}

#[test]
fn piped_repl_skips_a_line_beyond_the_cap_in_bounded_memory() {
    let mut input = vec![b'x'; (1 << 20) + 10];
    input.extend_from_slice(b"\nhistory\n");
    let (out, err, code) = run_bytes(&["repl", "tests/repl/count.kif"], &input);
    assert_eq!(
        err,
        "error: input line 1 is longer than 1048576 bytes; skipped\n"
    );
    assert_eq!(code, 1);
    assert!(out.ends_with("no steps yet\n"), "{out}");
}

#[cfg(unix)]
#[test]
fn save_writes_the_file_a_link_points_to() {
    let dir = common::scratch_dir("cli-limits-link");
    let target = dir.join("real.transcript");
    let link = dir.join("link.transcript");
    std::fs::write(&target, "old").expect("the target");
    std::os::unix::fs::symlink(&target, &link).expect("a link");
    let script = format!("play 1\nsave {}\n", link.display());
    let (_, err, code) = run(&["repl", "tests/repl/count.kif", "--seed", "3"], &script);
    assert_eq!((err.as_str(), code), ("", 0));
    let meta = std::fs::symlink_metadata(&link).expect("the link is still there");
    assert!(meta.file_type().is_symlink(), "the link stays a link");
    let written = std::fs::read_to_string(&target).expect("the target");
    assert!(
        written.starts_with(&format!(
            "# tabula transcript\ngame {}\n",
            absolute("tests/repl/count.kif")
        )),
        "{written}"
    );
    assert!(written.ends_with("play a=(add 1) b=noop\n"), "{written}");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}

#[cfg(unix)]
#[test]
fn save_refuses_what_is_not_a_regular_file() {
    let dir = common::scratch_dir("cli-limits-fifo");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(dir.join("nothing"), &dangling).expect("a link");
    let script = format!(
        "save {}\nsave {}\nsave {}\n",
        fifo.display(),
        dangling.display(),
        dir.display()
    );
    let (_, err, code) = run(&["repl", "tests/repl/count.kif"], &script);
    assert_eq!(code, 1);
    let expected = format!(
        "error: cannot save {}: a device, pipe or socket, not a regular file\n\
         error: cannot save {}: a symbolic link to nothing, not a regular file\n\
         error: cannot save {}: a folder, not a regular file\n",
        fifo.display(),
        dangling.display(),
        dir.display()
    );
    assert_eq!(err, expected);
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("the pipe")
        .file_type();
    assert!(!kind.is_file(), "the pipe was not replaced");
}

/// `/dev/zero` as any input file fails with the cap's message (it used to
/// read 2 GB first).
#[cfg(unix)]
#[test]
fn every_input_file_is_capped() {
    let capped = "larger than 16 MiB, the most an input file may hold";
    let (_, err, code) = run(&["check", "/dev/zero"], "");
    assert_eq!(err, format!("error: cannot read /dev/zero: {capped}\n"));
    assert_eq!(code, 2);
    let script = "load /dev/zero\nload-state /dev/zero\n";
    let (_, err, code) = run(&["repl", "tests/repl/count.kif"], script);
    assert_eq!(
        err,
        format!("error: cannot read /dev/zero: {capped}\nerror: cannot read /dev/zero: {capped}\n")
    );
    assert_eq!(code, 1);
    let (_, err, code) = run(&["play", "tests/repl/count.kif", "--from", "/dev/zero"], "");
    assert_eq!(err, format!("error: cannot read /dev/zero: {capped}\n"));
    assert_eq!(code, 2);
}

#[test]
fn a_position_file_error_names_its_line_and_column() {
    let dir = common::scratch_dir("cli-limits-position");
    let file = dir.join("bad.state");
    std::fs::write(
        &file,
        "at(sq(1, 1))\n% a comment with at(sq(7, 7))\nphase(throw)  at(sq(9, 9))\n",
    )
    .expect("a position file");
    let path = file.display().to_string();
    let expected =
        format!("error: {path}:3:15: `at(sq(9, 9))` is not a fact this game's states can hold\n");
    let (_, err, code) = run(&["play", "tests/repl/race.rules", "--from", &path], "");
    assert_eq!((err.as_str(), code), (expected.as_str(), 2));
    let (_, err, code) = run(
        &["repl", "tests/repl/race.rules"],
        &format!("load-state {path}\n"),
    );
    assert_eq!((err.as_str(), code), (expected.as_str(), 1));
    std::fs::write(&file, "at(sq(1, 1))\nphase(throw\n").expect("a position file");
    let (_, err, _) = run(&["play", "tests/repl/race.rules", "--from", &path], "");
    assert!(
        err.starts_with(&format!("error: {path}:2:1: cannot read `phase(throw`")),
        "{err}"
    );
}
