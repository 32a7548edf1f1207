//! Transcripts: a session written as plain text, and read back by replaying.
//!
//! In: the game's origin, its parameters, the seed and the steps as the
//! commands that make them (`play ROLE=MOVE ...`, `set FACT ...`). Out: text
//! such as
//!
//! ```text
//! # tabula transcript
//! game games/race.rules
//! param size=8
//! seed 7
//! play x=move(1, 2, 1, 4) o=noop
//! ```
//!
//! Holds: replaying opens the game again and runs every step in a fresh
//! session; the first step that no longer fits is named, and nothing of the
//! running session changes then. Saving writes a temporary file beside the
//! target and renames it, so no half-written transcript is ever left.

use super::{Origin, Session};
use crate::syntax::Syntax;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const HEADER: &str = "# tabula transcript";

/// The transcript text.
pub fn write(origin: &Origin, params: &[(String, String)], seed: u64, steps: &[String]) -> String {
    let mut out = format!("{HEADER}\ngame {}\n", origin.path.display());
    match origin.syntax {
        Some(Syntax::Kif) => out.push_str("syntax kif\n"),
        Some(Syntax::Rules) => out.push_str("syntax rules\n"),
        None => {}
    }
    // The final values of every parameter, so a changed default does not
    // change the game; overrides the game does not list are kept too.
    let mut all: Vec<(String, String)> = params.to_vec();
    for (k, v) in &origin.params {
        if !all.iter().any(|(n, _)| n == k) {
            all.push((k.clone(), v.clone()));
        }
    }
    for (k, v) in all {
        out.push_str(&format!("param {k}={v}\n"));
    }
    out.push_str(&format!("seed {seed}\n"));
    for s in steps {
        out.push_str(s);
        out.push('\n');
    }
    out
}

/// Writes `text` to `path` through a temporary file and a rename.
pub fn save(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("not a file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Reads a transcript and replays it into a new session.
pub fn replay(path: &Path) -> Result<Session, String> {
    let file = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {file}: {e}"))?;
    let mut game: Option<PathBuf> = None;
    let mut syntax = None;
    let mut params = Vec::new();
    let mut seed = None;
    let mut steps: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if !steps.is_empty() && !matches!(key, "play" | "set") {
            return Err(format!(
                "{file}:{n}: expected a step (`play ...` or `set ...`), found `{line}`"
            ));
        }
        match key {
            "game" if !rest.is_empty() => game = Some(PathBuf::from(rest)),
            "syntax" => {
                syntax = Some(match rest {
                    "kif" => Syntax::Kif,
                    "rules" => Syntax::Rules,
                    _ => return Err(format!("{file}:{n}: syntax is `kif` or `rules`")),
                })
            }
            "param" => match rest.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => {
                    params.push((k.trim().to_string(), v.trim().to_string()))
                }
                _ => return Err(format!("{file}:{n}: expected `param NAME=VALUE`")),
            },
            "seed" => {
                seed = Some(
                    rest.parse::<u64>()
                        .map_err(|_| format!("{file}:{n}: the seed is a whole number"))?,
                )
            }
            "play" | "set" => steps.push((n, line)),
            _ => {
                return Err(format!(
                    "{file}:{n}: `{line}` is not part of a transcript (is {file} one?)"
                ));
            }
        }
    }
    let Some(mut game) = game else {
        return Err(format!(
            "{file}: no `game FILE` line: not a tabula transcript"
        ));
    };
    // A relative game path is taken from the current folder, else from the
    // transcript's folder.
    if game.is_relative()
        && !game.is_file()
        && let Some(beside) = path.parent().map(|d| d.join(&game))
        && beside.is_file()
    {
        game = beside;
    }
    let origin = Origin {
        path: game,
        syntax,
        params,
    };
    let mut session = Session::open(origin, seed.unwrap_or(0))
        .map_err(|e| format!("{file}: cannot open its game: {e}"))?;
    for (k, (n, line)) in steps.into_iter().enumerate() {
        let reply = session.execute(line);
        if reply.failed {
            let why = reply.text.trim_end();
            let why = why.strip_prefix("error: ").unwrap_or(why);
            return Err(format!(
                "{file}:{n}: step {} no longer fits the game: {why}",
                k + 1
            ));
        }
    }
    Ok(session)
}
