//! `tabula repl FILE [--seed S]`: the REPL's front end.
//!
//! On a terminal: rustyline with a prompt, history kept in the user's data
//! folder, tab completion of commands and legal moves; Ctrl-C cancels the
//! line, Ctrl-D quits. On a pipe: one command per line, no prompt, no
//! colour. The exit code is 0 unless some command failed.

use super::progress::{Progress, time_left};
use super::{
    EXIT_INVALID, EXIT_OK, EXIT_USAGE, GameArgs, Line, clock_seed, open_game, read_line, use_color,
};
use crate::repl::complete::{Completion, Words};
use crate::repl::{Origin, Reply, Session};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of the random generator (nature's throws, `auto`); from the
    /// clock when not given.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// A session on the game of `game`, seeded by `seed` or the clock; the
/// exit code when the game does not open (its diagnostics printed).
pub(super) fn open_session(game: &GameArgs, seed: Option<u64>) -> Result<Session, i32> {
    let loaded = open_game(game)?;
    let Ok(params) = game.options.overrides() else {
        return Err(EXIT_USAGE);
    };
    let origin = Origin {
        path: game.file.clone(),
        syntax: game.options.syntax(),
        params,
    };
    Ok(Session::new(
        loaded.game,
        origin,
        seed.unwrap_or_else(clock_seed),
    ))
}

pub fn run(args: Args) -> i32 {
    let mut session = match open_session(&args.game, args.seed) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let failed = if std::io::stdin().is_terminal() {
        session.set_color(use_color(&std::io::stdout()));
        session.set_progress(progress_line());
        interactive(&mut session)
    } else {
        piped(&mut session)
    };
    if failed { EXIT_INVALID } else { EXIT_OK }
}

/// A long command's progress as a line on the terminal's stderr (nothing
/// when stderr is not one), erased when the command is done.
fn progress_line() -> crate::repl::ProgressSink {
    let line = std::sync::Mutex::new(Progress::on_terminal(true));
    Box::new(move |share, elapsed| {
        let Ok(mut line) = line.lock() else { return };
        if share >= 1.0 {
            line.clear();
        } else {
            line.show(|| {
                let left = time_left(elapsed, share).unwrap_or_default();
                format!("searching: {:.0}%, {left}", 100.0 * share)
            });
        }
    })
}

/// Prints a reply: text on stdout, errors on stderr.
fn show(reply: &Reply) {
    if reply.failed {
        err!("{}", reply.text);
    } else {
        out!("{}", reply.text);
    }
    let _ = std::io::stdout().flush();
}

/// Runs one command per line of standard input; a line that is not UTF-8
/// text (or is too long) is reported and skipped, and the next one runs.
fn piped(session: &mut Session) -> bool {
    out!("{}", session.view());
    let mut failed = false;
    let mut input = std::io::stdin().lock();
    for n in 1.. {
        let line = match read_line(&mut input) {
            Ok(Some(Line::Text(line))) => line,
            Ok(Some(bad)) => {
                let problem = bad.problem().unwrap_or_default();
                errln!("error: input line {n} {problem}; skipped");
                failed = true;
                continue;
            }
            Ok(None) => break,
            Err(e) => {
                errln!("error: cannot read standard input: {e}");
                return true;
            }
        };
        let reply = session.execute(&line);
        show(&reply);
        failed |= reply.failed;
        if reply.quit {
            break;
        }
    }
    failed
}

/// Where the line history lives: `$XDG_DATA_HOME/tabula/history` or the
/// platform's data folder.
fn history_path() -> Option<PathBuf> {
    let dir = dirs::data_dir()?.join("tabula");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

fn interactive(session: &mut Session) -> bool {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .history_ignore_dups(true)
        .map(|b| b.build())
        .unwrap_or_default();
    let mut rl: Editor<LineHelper, DefaultHistory> = match Editor::with_config(config) {
        Ok(rl) => rl,
        Err(e) => {
            errln!("error: cannot use the terminal ({e}); reading plain lines");
            return piped(session);
        }
    };
    rl.set_helper(Some(LineHelper {
        words: session.completions(),
        files: FilenameCompleter::new(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    let game = session.game();
    let title = game
        .meta
        .title
        .clone()
        .unwrap_or_else(|| session.origin().path.display().to_string());
    let roles: Vec<String> = (0..game.role_count()).map(|r| game.role_name(r)).collect();
    outln!(
        "{title}: roles {}; seed {}. Type `help` for the commands.",
        roles.join(", "),
        session.seed()
    );
    out!("{}", session.view());
    let mut failed = false;
    loop {
        if let Some(h) = rl.helper_mut() {
            h.words = session.completions();
        }
        let prompt = format!("{}> ", session.step());
        match rl.readline(&prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                let reply = session.execute(&line);
                show(&reply);
                failed |= reply.failed;
                if reply.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                errln!("error: {e}");
                failed = true;
                break;
            }
        }
    }
    if let Some(h) = &history {
        let _ = rl.save_history(h);
    }
    failed
}

/// Completion for rustyline: commands and legal moves from the session,
/// file names after `save`, `load` and `load-state`.
struct LineHelper {
    words: Words,
    files: FilenameCompleter,
}

impl Completer for LineHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        match self.words.complete(line, pos) {
            Completion::File => self.files.complete(line, pos, ctx),
            Completion::Words(start, words) => Ok((
                start,
                words
                    .into_iter()
                    .map(|w| Pair {
                        display: w.clone(),
                        replacement: w,
                    })
                    .collect(),
            )),
        }
    }
}

impl Hinter for LineHelper {
    type Hint = String;
}

impl Highlighter for LineHelper {}

impl Validator for LineHelper {}

impl rustyline::Helper for LineHelper {}
