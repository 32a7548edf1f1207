//! Transcripts: a session written as plain text, and read back by replaying.
//!
//! In: the game's origin, its parameters, the seed and the steps as the
//! commands that make them (`play ROLE=MOVE ...`, `set FACT ...`). Out: text
//! such as
//!
//! ```text
//! # tabula transcript
//! game /home/ann/tabula/games/race.rules
//! param size=8
//! seed 7
//! play x=move(1, 2, 1, 4) o=noop
//! ```
//!
//! Holds: the game's path is written absolute, so the transcript loads
//! from any folder; a relative path (written by hand) is looked for beside
//! the transcript, then in the current folder, and an error names each
//! file tried. Replaying opens the game again and runs every step in a fresh
//! session; the first step that no longer fits is named, and nothing of the
//! running session changes then. Saving writes a temporary file beside the
//! target and renames it, so no half-written transcript is ever left; only
//! regular files are written (a link has its target written), and files
//! read are capped in size ([`crate::syntax::read_capped`]).

use super::error::OpenError;
use super::{Origin, Session};
use crate::syntax::Syntax;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a transcript cannot be replayed; `file` is the transcript, `line`
/// counts from 1.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum TranscriptError {
    #[error("cannot read {file}: {message}")]
    Read { file: String, message: String },
    /// A header line after the first step.
    #[error("{file}:{line}: expected a step (`play ...` or `set ...`), found `{text}`")]
    NotAStep {
        file: String,
        line: usize,
        text: String,
    },
    #[error("{file}:{line}: syntax is `kif` or `rules`")]
    Syntax { file: String, line: usize },
    #[error("{file}:{line}: expected `param NAME=VALUE`")]
    Param { file: String, line: usize },
    #[error("{file}:{line}: the seed is a whole number")]
    Seed { file: String, line: usize },
    /// A line no transcript has.
    #[error("{file}:{line}: `{text}` is not part of a transcript (is {file} one?)")]
    Foreign {
        file: String,
        line: usize,
        text: String,
    },
    #[error("{file}: no `game FILE` line: not a tabula transcript")]
    NoGame { file: String },
    /// The game file is at none of the places a transcript's path can mean.
    #[error("{file}: its game `{game}` is not there: looked for {}", tried.join(" and "))]
    GameMissing {
        file: String,
        game: String,
        tried: Vec<String>,
    },
    /// A transcript of another game than the one asked for.
    #[error("{file} is a transcript of {named}, not of {expected}")]
    OtherGame {
        file: String,
        named: String,
        expected: String,
    },
    #[error("{file}: cannot open its game: {error}")]
    Open { file: String, error: OpenError },
    /// A step the game refuses now (it changed since the transcript).
    #[error("{file}:{line}: step {step} no longer fits the game: {why}")]
    Stale {
        file: String,
        line: usize,
        step: usize,
        why: String,
    },
}

pub const HEADER: &str = "# tabula transcript";

/// The transcript text, naming the game by its absolute path.
pub fn write(origin: &Origin, params: &[(String, String)], seed: u64, steps: &[String]) -> String {
    let game = std::fs::canonicalize(&origin.path)
        .or_else(|_| std::path::absolute(&origin.path))
        .unwrap_or_else(|_| origin.path.clone());
    let mut out = format!("{HEADER}\ngame {}\n", game.display());
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

/// Writes `text` to `path` through a temporary file and a rename. Only a
/// regular file is replaced: a symbolic link has the file it points to
/// written (the link stays), and anything else that exists there (a device,
/// a pipe, a folder) is refused.
pub fn save(path: &Path, text: &str) -> std::io::Result<()> {
    let path = &regular_target(path)?;
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

/// Where saving to `path` writes: `path` itself when nothing is there or a
/// regular file is, the file a symbolic link points to (followed to the
/// end), and an error for anything else.
fn regular_target(path: &Path) -> std::io::Result<PathBuf> {
    let refuse = |what: &str| std::io::Error::other(format!("{what}, not a regular file"));
    let target = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return Err(e),
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).map_err(|_| refuse("a symbolic link to nothing"))?
        }
        Ok(_) => path.to_path_buf(),
    };
    let kind = std::fs::metadata(&target)?.file_type();
    if kind.is_file() {
        Ok(target)
    } else if kind.is_dir() {
        Err(refuse("a folder"))
    } else {
        Err(refuse("a device, pipe or socket"))
    }
}

/// A transcript read but not yet replayed: where its game is, the seed,
/// and its steps with their line numbers.
struct Parsed<'t> {
    origin: Origin,
    seed: u64,
    steps: Vec<(usize, &'t str)>,
}

/// Reads a transcript and replays it into a new session.
pub fn replay(path: &Path) -> Result<Session, TranscriptError> {
    let file = path.display().to_string();
    let read_error = |message: String| TranscriptError::Read {
        file: file.clone(),
        message,
    };
    let bytes = crate::syntax::read_capped(path).map_err(|e| read_error(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        read_error(format!("not UTF-8 text (invalid byte at offset {offset})"))
    })?;
    replay_text(&file, &text, path.parent(), None)
}

/// Replays a transcript's text into a new session. `file` names it in
/// errors; a relative game path is looked up in `folder` (the transcript's),
/// then from the current folder. With `only`, a transcript whose game is another file is
/// refused before anything is opened.
pub fn replay_text(
    file: &str,
    text: &str,
    folder: Option<&Path>,
    only: Option<&Path>,
) -> Result<Session, TranscriptError> {
    let file = file.to_string();
    let parsed = parse(folder, &file, text)?;
    if let Some(expected) = only
        && !same_file(&parsed.origin.path, expected)
    {
        return Err(TranscriptError::OtherGame {
            file,
            named: parsed.origin.path.display().to_string(),
            expected: expected.display().to_string(),
        });
    }
    let mut session =
        Session::open(parsed.origin, parsed.seed).map_err(|error| TranscriptError::Open {
            file: file.clone(),
            error,
        })?;
    for (k, (line, step)) in parsed.steps.into_iter().enumerate() {
        if let Err(e) = session.run(step) {
            return Err(TranscriptError::Stale {
                file,
                line,
                step: k + 1,
                why: e.describe(session.game()),
            });
        }
    }
    Ok(session)
}

/// The header and steps of a transcript's text.
fn parse<'t>(
    folder: Option<&Path>,
    file: &str,
    text: &'t str,
) -> Result<Parsed<'t>, TranscriptError> {
    let mut game: Option<PathBuf> = None;
    let mut syntax = None;
    let mut params = Vec::new();
    let mut seed = None;
    let mut steps: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (file, n) = (file.to_string(), i + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if !steps.is_empty() && !matches!(key, "play" | "set") {
            let text = line.to_string();
            return Err(TranscriptError::NotAStep {
                file,
                line: n,
                text,
            });
        }
        match key {
            "game" if !rest.is_empty() => game = Some(PathBuf::from(rest)),
            "syntax" => {
                syntax = Some(match rest {
                    "kif" => Syntax::Kif,
                    "rules" => Syntax::Rules,
                    _ => return Err(TranscriptError::Syntax { file, line: n }),
                })
            }
            "param" => match rest.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => {
                    params.push((k.trim().to_string(), v.trim().to_string()))
                }
                _ => return Err(TranscriptError::Param { file, line: n }),
            },
            "seed" => match rest.parse::<u64>() {
                Ok(s) => seed = Some(s),
                Err(_) => return Err(TranscriptError::Seed { file, line: n }),
            },
            "play" | "set" => steps.push((n, line)),
            _ => {
                let text = line.to_string();
                return Err(TranscriptError::Foreign {
                    file,
                    line: n,
                    text,
                });
            }
        }
    }
    let Some(game) = game else {
        let file = file.to_string();
        return Err(TranscriptError::NoGame { file });
    };
    let tried = places(folder, &game);
    let Some(found) = tried.iter().find(|p| p.is_file()) else {
        return Err(TranscriptError::GameMissing {
            file: file.to_string(),
            game: game.display().to_string(),
            tried: tried.iter().map(|p| p.display().to_string()).collect(),
        });
    };
    let origin = Origin {
        path: found.clone(),
        syntax,
        params,
    };
    Ok(Parsed {
        origin,
        seed: seed.unwrap_or(0),
        steps,
    })
}

/// Whether two paths name the same file (the same path when either cannot
/// be resolved).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Where a transcript's game path may point, in the order tried: an
/// absolute path is itself; a relative one is taken beside the transcript
/// (in `folder`), then from the current folder.
fn places(folder: Option<&Path>, game: &Path) -> Vec<PathBuf> {
    if game.is_absolute() {
        return vec![game.to_path_buf()];
    }
    let mut out = Vec::new();
    if let Some(dir) = folder.filter(|d| !d.as_os_str().is_empty()) {
        out.push(dir.join(game));
    }
    out.push(game.to_path_buf());
    out
}
