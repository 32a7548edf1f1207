//! The REPL as a library: a [`Session`] runs one command line at a time.
//!
//! In: a loaded [`Game`], where it came from (path, syntax, parameters) and a
//! seed; then command lines. Out: for each line a [`Reply`]: the text to
//! show, whether the command failed, whether the session should end.
//! Holds: no command panics; a command that fails changes nothing (except
//! `auto`, which keeps the steps made before the game misbehaved); the same
//! seed and the same commands give the same session. Nothing here prints:
//! `cli::repl` is one front end (rustyline or a pipe), tests are another.

pub mod agents;
mod commands;
pub mod complete;
pub mod error;
pub mod transcript;

use crate::agent::Agent;
use crate::engine::{Game, Machine, State};
use crate::front::parse::{self, Item, count_of};
use crate::front::{joint, view};
use crate::render::{self, Style};
use crate::syntax::{Overrides, Syntax};
pub use commands::{COMMANDS, Command, canonical, help};
pub use error::{CommandError, OpenError};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

/// Where a game came from, so a transcript can open it again.
#[derive(Clone, Debug)]
pub struct Origin {
    pub path: PathBuf,
    /// `Some` when the syntax was forced rather than implied by the extension.
    pub syntax: Option<Syntax>,
    pub params: Overrides,
}

/// What one command line gives back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Text to show (each line ends with a line break), or the error line.
    pub text: String,
    pub failed: bool,
    pub quit: bool,
}

/// One step of the history: a joint move or a position set by hand, with
/// the state it led to.
#[derive(Clone, Debug)]
struct Entry {
    change: Change,
    state: State,
}

#[derive(Clone, Debug)]
enum Change {
    Move(Vec<u32>),
    Set,
}

/// Longest `auto` run without a count.
pub const AUTO_LIMIT: usize = 100_000;

/// A REPL session on one game.
pub struct Session {
    game: Game,
    origin: Origin,
    seed: u64,
    rng: Xoshiro256PlusPlus,
    start: State,
    history: Vec<Entry>,
    /// How many entries of `history` are applied; the rest can be redone.
    cursor: usize,
    color: bool,
    /// The agent `auto` plays each role with (`agent ROLE SPEC`).
    agents: Vec<Agent>,
    /// Where a long command (`hint`) reports the share of its work done and
    /// the time spent; `None` on a pipe. A share of 1 means done.
    progress: Option<ProgressSink>,
}

/// A front end's display of a long command's progress.
pub type ProgressSink = Box<dyn Fn(f64, std::time::Duration) + Sync>;

/// A command's text, or why it failed.
type Res = Result<String, CommandError>;

impl Session {
    pub fn new(game: Game, origin: Origin, seed: u64) -> Session {
        let start = game.initial();
        let agents = vec![Agent::Random; game.role_count()];
        Session {
            game,
            origin,
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            start,
            history: Vec::new(),
            cursor: 0,
            color: false,
            agents,
            progress: None,
        }
    }

    /// Opens a game file; an invalid one gives its rendered diagnostics.
    pub fn open(origin: Origin, seed: u64) -> Result<Session, OpenError> {
        match crate::load::open(&origin.path, origin.syntax, &origin.params) {
            Ok(loaded) => Ok(Session::new(loaded.game, origin, seed)),
            Err(failed) => {
                if let Some(e) = failed.unreadable {
                    return Err(OpenError::Unreadable(e.to_string()));
                }
                let path = origin.path.display().to_string();
                let text: String = failed
                    .diagnostics
                    .iter()
                    .map(|d| crate::diag::render(d, &failed.sources, &path, false))
                    .collect();
                Err(OpenError::Invalid(text.trim_end().to_string()))
            }
        }
    }

    /// Colour in the board and the prompt's output (the front end decides).
    pub fn set_color(&mut self, color: bool) {
        self.color = color;
    }

    /// Where long commands show their progress (the front end decides).
    pub fn set_progress(&mut self, sink: ProgressSink) {
        self.progress = Some(sink);
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current state.
    pub fn state(&self) -> &State {
        match self.cursor {
            0 => &self.start,
            n => &self.history[n - 1].state,
        }
    }

    /// Number of steps applied.
    pub fn step(&self) -> usize {
        self.cursor
    }

    /// The joint move of the last step applied, if it was a move (not a
    /// position set by hand).
    pub fn last_move(&self) -> Option<&[u32]> {
        match self.cursor.checked_sub(1).map(|i| &self.history[i].change) {
            Some(Change::Move(joint)) => Some(joint),
            _ => None,
        }
    }

    /// A machine with the current state loaded.
    pub fn machine(&self) -> Machine<'_> {
        let mut m = self.game.machine();
        m.set_state(self.state());
        m
    }

    fn style(&self) -> Style {
        Style {
            color: self.color,
            compact: true,
        }
    }

    /// The board (or facts), whose turn it is and the legal moves.
    pub fn view(&self) -> String {
        let mut m = self.machine();
        let mut out = render::state(&self.game, self.state(), self.style());
        out.push_str(&view::status(&mut m, self.cursor));
        out
    }

    /// What tab completion offers on this line at this cursor position.
    pub fn completions(&self) -> complete::Words {
        complete::Words::of(self)
    }

    /// Runs one command line.
    pub fn execute(&mut self, line: &str) -> Reply {
        let word = line.split_whitespace().next().unwrap_or("");
        if commands::find(word).is_some_and(|c| c.name == "quit") {
            return Reply {
                quit: true,
                ..Reply::default()
            };
        }
        match self.run(line) {
            Ok(text) => Reply {
                text,
                ..Reply::default()
            },
            Err(e) => Reply {
                text: format!("error: {}\n", e.describe(&self.game)),
                failed: true,
                quit: false,
            },
        }
    }

    /// Runs one command line for a front end that shows errors its own way
    /// (the web page of `tabula serve`): the command's text, or its error in
    /// words. A command that fails changes nothing, as in [`Session::execute`].
    pub fn command(&mut self, line: &str) -> Result<String, String> {
        self.run(line).map_err(|e| e.describe(&self.game))
    }

    /// Whether `redo` has undone steps to make again.
    pub fn can_redo(&self) -> bool {
        self.history.len() > self.cursor
    }

    /// The agent `auto` plays each role with, by role.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// Runs one command line (not `quit`, which only a front end obeys):
    /// a command of [`COMMANDS`], else moves to play.
    fn run(&mut self, line: &str) -> Res {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let (word, args) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        if let Some(command) = commands::find(word) {
            return (command.run)(self, args);
        }
        match self.play(line) {
            Ok(text) => Ok(text),
            Err(e) if looks_like_move(&self.game, line) => Err(e),
            Err(_) => Err(CommandError::Unknown(word.to_string())),
        }
    }

    // ------------------------------------------------------------ steps

    /// Applies a step: drops what could be redone, records the new state.
    fn push(&mut self, change: Change, state: State) {
        self.history.truncate(self.cursor);
        self.history.push(Entry { change, state });
        self.cursor += 1;
    }

    fn moves(&self) -> Res {
        let m = self.machine();
        if m.is_terminal() {
            return Err(CommandError::NoMoves);
        }
        Ok(view::all_moves(&m))
    }

    fn play(&mut self, args: &str) -> Res {
        self.play_items(&parse::items(args))
    }

    /// Plays the moves of a `play` line given as items (`ROLE=MOVE` or a
    /// move for the next choosing role): roles with one legal move play it,
    /// nature throws with the session's generator unless given an outcome.
    pub fn play_items(&mut self, items: &[Item]) -> Res {
        let state = self.state().clone();
        let joint = {
            let mut m = self.game.machine();
            m.set_state(&state);
            joint::joint(&mut m, items, false, &mut self.rng)?
        };
        self.apply(joint)
    }

    fn roll(&mut self, args: &str) -> Res {
        let Some(r) = self.game.random_role() else {
            return Err(CommandError::NoChance);
        };
        let items = if args.is_empty() {
            Vec::new()
        } else {
            vec![Item {
                role: Some(self.game.role_name(r)),
                text: args.to_string(),
            }]
        };
        let state = self.state().clone();
        let joint = {
            let mut m = self.game.machine();
            m.set_state(&state);
            joint::joint(&mut m, &items, true, &mut self.rng)?
        };
        self.apply(joint)
    }

    /// Plays a checked joint move; the text is the move and the new view.
    fn apply(&mut self, joint: Vec<u32>) -> Res {
        let next = self.machine().next(&joint)?;
        let line = view::joint(&self.game, &joint);
        self.push(Change::Move(joint), next);
        Ok(format!("{line}\n{}", self.view()))
    }

    fn auto(&mut self, args: &str) -> Res {
        let limit = match args {
            "" => None,
            _ => Some(Self::steps_arg(args, "auto")?),
        };
        let mut out = String::new();
        let mut done = 0;
        while limit.is_none_or(|l| done < l) {
            if limit.is_none() && done == AUTO_LIMIT {
                out.push_str(&format!("stopped after {AUTO_LIMIT} steps\n"));
                break;
            }
            match self.random_step() {
                Ok(Some(line)) => out.push_str(&line),
                Ok(None) => break,
                Err(e) => {
                    return Err(CommandError::Auto {
                        played: out,
                        cause: Box::new(e.into()),
                    });
                }
            }
            done += 1;
        }
        if done == 0 {
            return Err(CommandError::NothingToPlay);
        }
        out.push_str(&self.view());
        Ok(out)
    }

    /// Plays one joint move by the roles' agents; `None` in a terminal state. The text is
    /// the numbered step.
    fn random_step(&mut self) -> Result<Option<String>, crate::engine::EngineError> {
        let state = self.state().clone();
        let mut m = self.game.machine();
        m.set_state(&state);
        if m.is_terminal() {
            return Ok(None);
        }
        let joint = agents::agents_joint(&self.agents, &m, &mut self.rng)?;
        let next = m.next(&joint)?;
        let line = format!("{}. {}\n", self.cursor + 1, view::joint(&self.game, &joint));
        self.push(Change::Move(joint), next);
        Ok(Some(line))
    }

    /// A positive number of steps, 1 when not given.
    fn steps_arg(args: &str, command: &'static str) -> Result<usize, CommandError> {
        match args {
            "" => Ok(1),
            n => match n.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(CommandError::NotSteps {
                    command,
                    given: n.to_string(),
                }),
            },
        }
    }

    fn undo(&mut self, args: &str) -> Res {
        let n = Self::steps_arg(args, "undo")?;
        if self.cursor == 0 {
            return Err(CommandError::NothingToUndo);
        }
        if n > self.cursor {
            return Err(CommandError::TooManyUndos {
                asked: n,
                made: self.cursor,
            });
        }
        self.cursor -= n;
        Ok(self.view())
    }

    fn redo(&mut self, args: &str) -> Res {
        let n = Self::steps_arg(args, "redo")?;
        let left = self.history.len() - self.cursor;
        if left == 0 {
            return Err(CommandError::NothingToRedo);
        }
        if n > left {
            return Err(CommandError::TooManyRedos {
                asked: n,
                undone: left,
            });
        }
        self.cursor += n;
        Ok(self.view())
    }

    fn history(&self) -> String {
        if self.history.is_empty() {
            return "no steps yet\n".into();
        }
        let mut out = String::new();
        for (i, e) in self.history.iter().enumerate() {
            if i == self.cursor {
                out.push_str("-- undone, `redo` plays again:\n");
            }
            out.push_str(&format!("{}. {}\n", i + 1, self.entry_text(e)));
        }
        out
    }

    /// An entry as the command that makes it again.
    fn entry_text(&self, e: &Entry) -> String {
        match &e.change {
            Change::Move(j) => format!("play {}", view::joint(&self.game, j)),
            Change::Set => format!("set {}", self.game.show_state(&e.state)),
        }
    }

    fn restart(&mut self) -> String {
        self.history.clear();
        self.cursor = 0;
        self.start = self.game.initial();
        self.rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        self.view()
    }

    // ------------------------------------------------------------ positions

    fn query(&self, args: &str) -> Res {
        if args.is_empty() {
            return Err(CommandError::Missing {
                command: "query",
                what: "an atom, such as `query legal(R, M)`",
            });
        }
        let pattern = parse::atom(&self.game, args)?;
        let mut m = self.machine();
        let mut found = match m.query_shown(&pattern) {
            Ok(found) => found,
            Err(e) => {
                return Ok(format!(
                    "error: {}\n",
                    crate::front::engine_error(&self.game, &e)
                ));
            }
        };
        // A fact of the state answers too: `query cell(X, Y, R)` need not
        // be written `query true(cell(X, Y, R))`.
        for f in self.game.facts(self.state()) {
            if self.game.terms.matches(&pattern, f, &mut Vec::new()) {
                found.push(self.game.show(f));
            }
        }
        if found.is_empty() {
            return Ok("no\n".into());
        }
        Ok(found.into_iter().map(|s| s + "\n").collect())
    }

    fn set(&mut self, args: &str) -> Res {
        let facts = parse::facts(&self.game, args)?;
        let state = self
            .game
            .state_from_facts(&facts)
            .map_err(|f| CommandError::NotAFact(self.game.show(f)))?;
        self.push(Change::Set, state);
        Ok(self.view())
    }

    fn load_state(&mut self, args: &str) -> Res {
        if args.is_empty() {
            return Err(CommandError::Missing {
                command: "load-state",
                what: "a file name",
            });
        }
        let state = parse::state_file(&self.game, Path::new(args))?;
        self.push(Change::Set, state);
        Ok(self.view())
    }

    fn goals(&self) -> String {
        let mut m = self.machine();
        view::goals(&mut m)
    }

    // ------------------------------------------------------------ transcripts

    /// The transcript of the game so far (steps undone are left out).
    pub fn transcript(&self) -> String {
        let steps: Vec<String> = self.history[..self.cursor]
            .iter()
            .map(|e| self.entry_text(e))
            .collect();
        transcript::write(&self.origin, &self.game.meta.params, self.seed, &steps)
    }

    fn save(&self, args: &str) -> Res {
        if args.is_empty() {
            return Err(CommandError::Missing {
                command: "save",
                what: "a file name",
            });
        }
        let path = Path::new(args);
        transcript::save(path, &self.transcript()).map_err(|e| CommandError::Save {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(format!(
            "saved {} to {args}\n",
            count_of(self.cursor, "step")
        ))
    }

    fn load(&mut self, args: &str) -> Res {
        if args.is_empty() {
            return Err(CommandError::Missing {
                command: "load",
                what: "a file name",
            });
        }
        let mut s = transcript::replay(Path::new(args))?;
        s.color = self.color;
        s.progress = self.progress.take();
        *self = s;
        Ok(format!(
            "loaded {args}: {}\n{}",
            count_of(self.cursor, "step"),
            self.view()
        ))
    }
}

/// A line that is no command but reads as moves: a number, `ROLE=...`, or
/// the text of some move of the game.
fn looks_like_move(game: &Game, line: &str) -> bool {
    parse::items(line).iter().all(|item| {
        item.role.is_some()
            || item.text.chars().all(|c| c.is_ascii_digit())
            || parse::term(game, &item.text)
                .ok()
                .and_then(|t| game.term_id(&t))
                .is_some_and(|id| (0..game.role_count()).any(|r| game.find_move(r, id).is_some()))
    })
}
