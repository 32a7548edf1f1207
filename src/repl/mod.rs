//! The REPL as a library: a [`Session`] runs one command line at a time.
//!
//! In: a loaded [`Game`], where it came from (path, syntax, parameters) and a
//! seed; then command lines. Out: for each line a [`Reply`]: the text to
//! show, whether the command failed, whether the session should end.
//! Holds: no command panics; a command that fails changes nothing (except
//! `auto`, which keeps the steps made before the game misbehaved); the same
//! seed and the same commands give the same session. Nothing here prints:
//! `cli::repl` is one front end (rustyline or a pipe), tests are another.

pub mod complete;
pub mod parse;
pub mod transcript;
pub mod view;

use crate::engine::{Game, Machine, State};
use crate::render::{self, Style};
use crate::syntax::{Overrides, Syntax};
use parse::Item;
use rand::{Rng, RngExt, SeedableRng};
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
}

type Res = Result<String, String>;

impl Session {
    pub fn new(game: Game, origin: Origin, seed: u64) -> Session {
        let start = game.initial();
        Session {
            game,
            origin,
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            start,
            history: Vec::new(),
            cursor: 0,
            color: false,
        }
    }

    /// Opens a game file; `Err` holds the rendered diagnostics.
    pub fn open(origin: Origin, seed: u64) -> Result<Session, String> {
        if !origin.path.is_file() {
            return Err(format!(
                "cannot read {}: no such file",
                origin.path.display()
            ));
        }
        match crate::load::open(&origin.path, origin.syntax, &origin.params) {
            Ok(loaded) => Ok(Session::new(loaded.game, origin, seed)),
            Err(failed) => {
                if let Some(e) = failed.unreadable {
                    return Err(e.to_string());
                }
                let path = origin.path.display().to_string();
                Err(failed
                    .diagnostics
                    .iter()
                    .map(|d| crate::diag::render(d, &failed.sources, &path, false))
                    .collect::<String>()
                    .trim_end()
                    .to_string())
            }
        }
    }

    /// Colour in the board and the prompt's output (the front end decides).
    pub fn set_color(&mut self, color: bool) {
        self.color = color;
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

    fn machine(&self) -> Machine<'_> {
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
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Reply::default();
        }
        let (cmd, args) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let result = match cmd {
            "help" | "h" => Ok(help(args)),
            "moves" | "m" => self.moves(),
            "play" | "p" => self.play(args),
            "roll" | "r" => self.roll(args),
            "auto" | "a" => self.auto(args),
            "undo" | "u" => self.undo(args),
            "redo" => self.redo(args),
            "history" | "hist" => Ok(self.history()),
            "state" | "s" => Ok(render::facts(&self.game, self.state(), Style::default())),
            "query" | "?" | "?-" => self.query(args),
            "set" => self.set(args),
            "load-state" => self.load_state(args),
            "goals" | "g" => Ok(self.goals()),
            "restart" => Ok(self.restart()),
            "save" => self.save(args),
            "load" => self.load(args),
            "quit" | "q" | "exit" => {
                return Reply {
                    quit: true,
                    ..Reply::default()
                };
            }
            "board" | "b" | "view" => Ok(self.view()),
            _ => match self.play(line) {
                Ok(text) => Ok(text),
                Err(e) if looks_like_move(&self.game, line) => Err(e),
                Err(_) => Err(format!(
                    "unknown command `{cmd}`; type `help` for the commands"
                )),
            },
        };
        match result {
            Ok(text) => Reply {
                text,
                failed: false,
                quit: false,
            },
            Err(e) => Reply {
                text: format!("error: {e}\n"),
                failed: true,
                quit: false,
            },
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
            return Err("the game is over: nobody has a move (`undo` or `restart`)".into());
        }
        Ok(view::all_moves(&m))
    }

    fn play(&mut self, args: &str) -> Res {
        let items = parse::items(args);
        let state = self.state().clone();
        let joint = {
            let mut m = self.game.machine();
            m.set_state(&state);
            joint(&mut m, &items, false, &mut self.rng)?
        };
        Ok(self.apply(joint))
    }

    fn roll(&mut self, args: &str) -> Res {
        let Some(r) = self.game.random_role() else {
            return Err("this game has no chance role `random`".into());
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
            joint(&mut m, &items, true, &mut self.rng)?
        };
        Ok(self.apply(joint))
    }

    /// Plays a checked joint move; the text is the move and the new view.
    fn apply(&mut self, joint: Vec<u32>) -> String {
        let next = self.machine().next(&joint);
        let line = view::joint(&self.game, &joint);
        self.push(Change::Move(joint), next);
        format!("{line}\n{}", self.view())
    }

    fn auto(&mut self, args: &str) -> Res {
        let limit = match args {
            "" => None,
            n => match n.parse::<usize>() {
                Ok(n) if n > 0 => Some(n),
                _ => return Err(format!("`auto` takes a number of steps, not `{n}`")),
            },
        };
        let mut out = String::new();
        let mut done = 0;
        let mut error = None;
        while limit.is_none_or(|l| done < l) {
            if limit.is_none() && done == AUTO_LIMIT {
                out.push_str(&format!("stopped after {AUTO_LIMIT} steps\n"));
                break;
            }
            let state = self.state().clone();
            let mut m = self.game.machine();
            m.set_state(&state);
            if m.is_terminal() {
                break;
            }
            match random_joint(&mut m, &mut self.rng) {
                Ok(joint) => {
                    let next = m.next(&joint);
                    drop(m);
                    out.push_str(&format!(
                        "{}. {}\n",
                        self.cursor + 1,
                        view::joint(&self.game, &joint)
                    ));
                    self.push(Change::Move(joint), next);
                    done += 1;
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = error {
            return Err(format!("{out}{e}"));
        }
        if done == 0 {
            return Err("the game is over: nothing to play (`undo` or `restart`)".into());
        }
        out.push_str(&self.view());
        Ok(out)
    }

    fn steps_arg(args: &str, what: &str) -> Result<usize, String> {
        match args {
            "" => Ok(1),
            n => match n.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("`{what}` takes a number of steps, not `{n}`")),
            },
        }
    }

    fn undo(&mut self, args: &str) -> Res {
        let n = Self::steps_arg(args, "undo")?;
        if self.cursor == 0 {
            return Err("nothing to undo: this is the start".into());
        }
        if n > self.cursor {
            return Err(format!("cannot undo {n} steps: only {} made", self.cursor));
        }
        self.cursor -= n;
        Ok(self.view())
    }

    fn redo(&mut self, args: &str) -> Res {
        let n = Self::steps_arg(args, "redo")?;
        let left = self.history.len() - self.cursor;
        if left == 0 {
            return Err("nothing to redo".into());
        }
        if n > left {
            return Err(format!("cannot redo {n} steps: only {left} undone"));
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
            return Err("`query` needs an atom, such as `query legal(R, M)`".into());
        }
        let pattern = parse::atom(&self.game, args)?;
        let mut m = self.machine();
        let mut found: Vec<String> = m
            .query(&pattern)
            .into_iter()
            .map(|a| self.game.show_atom(a))
            .collect();
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
            .map_err(|f| format!("`{}` is not a fact of this game", self.game.show(f)))?;
        self.push(Change::Set, state);
        Ok(self.view())
    }

    fn load_state(&mut self, args: &str) -> Res {
        if args.is_empty() {
            return Err("`load-state` needs a file name".into());
        }
        let state = parse::state_file(&self.game, std::path::Path::new(args))?;
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
            return Err("`save` needs a file name".into());
        }
        transcript::save(Path::new(args), &self.transcript())
            .map_err(|e| format!("cannot save {args}: {e}"))?;
        Ok(format!(
            "saved {} to {args}\n",
            parse::count(self.cursor, "step")
        ))
    }

    fn load(&mut self, args: &str) -> Res {
        if args.is_empty() {
            return Err("`load` needs a file name".into());
        }
        let mut s = transcript::replay(Path::new(args))?;
        s.color = self.color;
        *self = s;
        Ok(format!(
            "loaded {args}: {}\n{}",
            parse::count(self.cursor, "step"),
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

/// A random legal move of one role: uniform for players, by weight for the
/// chance role. A role with one legal move draws nothing from `rng`.
pub fn random_move<R: Rng>(m: &Machine, role: usize, rng: &mut R) -> Result<u32, String> {
    let legal = m.legal(role);
    match legal.len() {
        0 => Err(m
            .check_playable()
            .err()
            .map_or_else(|| "no legal move".to_string(), |e| e.to_string())),
        1 => Ok(legal[0]),
        n if Some(role) == m.game().random_role() => {
            let weights = m.chance().map_err(|e| e.to_string())?;
            let total: u64 = weights.iter().map(|w| w.1).sum();
            let mut x = rng.random_range(0..total);
            for &(mv, w) in &weights {
                if x < w {
                    return Ok(mv);
                }
                x -= w;
            }
            Ok(legal[n - 1])
        }
        n => Ok(legal[rng.random_range(0..n)]),
    }
}

/// A random joint move: every role by [`random_move`], in role order.
pub fn random_joint<R: Rng>(m: &mut Machine, rng: &mut R) -> Result<Vec<u32>, String> {
    m.check_playable().map_err(|e| e.to_string())?;
    (0..m.game().role_count())
        .map(|r| random_move(m, r, rng))
        .collect()
}

/// The roles that choose in the loaded state: players with more than one
/// legal move (the chance role is not among them).
pub fn choosing(m: &Machine) -> Vec<usize> {
    let chance = m.game().random_role();
    (0..m.game().role_count())
        .filter(|&r| Some(r) != chance && m.legal(r).len() > 1)
        .collect()
}

/// Builds a joint move from a `play` line (or a `roll` with `roll` set):
/// `ROLE=MOVE` items go to their role, the other items to the choosing roles
/// in role order, roles with one legal move get it, and nature throws with
/// `rng` unless told an outcome.
pub fn joint<R: Rng>(
    m: &mut Machine,
    items: &[Item],
    roll: bool,
    rng: &mut R,
) -> Result<Vec<u32>, String> {
    let game = m.game();
    if m.is_terminal() {
        return Err(format!(
            "the game is over ({}); `undo` or `restart`",
            view::goals(m).trim_end()
        ));
    }
    m.check_playable().map_err(|e| e.to_string())?;
    let n = game.role_count();
    let names: Vec<String> = (0..n).map(|r| game.role_name(r)).collect();
    let mut joint: Vec<Option<u32>> = vec![None; n];
    let mut loose = Vec::new();
    for item in items {
        let Some(role) = &item.role else {
            loose.push(item);
            continue;
        };
        let Some(r) = names.iter().position(|n| n == role) else {
            return Err(format!(
                "there is no role `{role}`; the roles are {}",
                names.join(", ")
            ));
        };
        if joint[r].is_some() {
            return Err(format!("two moves for {role}"));
        }
        joint[r] = Some(parse::choice(game, r, m.legal(r), &item.text)?);
    }
    let open: Vec<usize> = choosing(m)
        .into_iter()
        .filter(|&r| joint[r].is_none())
        .collect();
    if roll && !open.is_empty() {
        let who: Vec<&str> = open.iter().map(|&r| names[r].as_str()).collect();
        return Err(format!(
            "{} must move too: `play MOVE` (nature then throws), or `play MOVE {}=OUTCOME`",
            who.join(" and "),
            game.random_role()
                .map_or("random".into(), |r| game.role_name(r))
        ));
    }
    if open.is_empty() && !loose.is_empty() {
        // Nobody chooses: accept the forced move typed out, or its number.
        for item in &loose {
            let fits = (0..n).any(|r| {
                joint[r].is_none()
                    && Some(r) != game.random_role()
                    && parse::choice(game, r, m.legal(r), &item.text).is_ok()
            });
            if !fits && game.random_role().is_some_and(|r| m.legal(r).len() > 1) {
                return Err(format!(
                    "`{}` is not a legal move: only nature chooses here (`roll` or `roll OUTCOME`)",
                    item.text
                ));
            }
            if !fits {
                return Err(format!(
                    "`{}` is not a legal move: nobody has a choice here; `play` makes the only moves ({})",
                    item.text,
                    forced(m)
                ));
            }
        }
    } else if loose.len() != open.len() {
        let who: Vec<&str> = open.iter().map(|&r| names[r].as_str()).collect();
        return Err(match (open.len(), loose.len()) {
            (1, 0) => format!(
                "{} to move: `play MOVE` or `play N`; legal: {}",
                who[0],
                parse::alternatives(game, open[0], m.legal(open[0]))
            ),
            (1, _) => format!("{} to move: give one move", who[0]),
            _ => format!(
                "{} roles choose here ({}): give one move each, in this order or as ROLE=MOVE",
                open.len(),
                who.join(", ")
            ),
        });
    } else {
        for (&r, item) in open.iter().zip(&loose) {
            joint[r] = Some(parse::choice(game, r, m.legal(r), &item.text)?);
        }
    }
    let mut out = Vec::with_capacity(n);
    for (r, j) in joint.iter().enumerate() {
        out.push(match j {
            Some(mv) => *mv,
            None => random_move(m, r, rng)?,
        });
    }
    Ok(out)
}

/// The moves of roles with a single legal move, as `ROLE=MOVE`.
fn forced(m: &Machine) -> String {
    let game = m.game();
    (0..game.role_count())
        .filter(|&r| m.legal(r).len() == 1)
        .map(|r| format!("{}={}", game.role_name(r), game.show_move(r, m.legal(r)[0])))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `help` text, or one command's.
pub fn help(topic: &str) -> String {
    const ALL: &[(&str, &str, &str)] = &[
        ("help", "help [COMMAND]  (h)", "this list, or one command"),
        (
            "moves",
            "moves  (m)",
            "every role's legal moves, numbered; chance outcomes with probabilities",
        ),
        (
            "play",
            "play N | play MOVE | play ROLE=MOVE ...  (p)",
            "make a move, by its number or its text in the game's syntax; roles with \
             one legal move play it; with several roles to move give one move each, \
             in role order or as ROLE=MOVE; nature throws unless given random=OUTCOME",
        ),
        (
            "roll",
            "roll [OUTCOME | N]  (r)",
            "nature throws (with the seeded generator), or the outcome you name",
        ),
        (
            "auto",
            "auto [N]  (a)",
            "random moves for N steps, or to the end of the game",
        ),
        (
            "undo",
            "undo [N]  (u)",
            "take back the last step (or N steps)",
        ),
        ("redo", "redo [N]", "make an undone step again"),
        (
            "history",
            "history  (hist)",
            "the steps so far, as commands that make them again",
        ),
        ("board", "board  (b)", "show the position again"),
        ("state", "state  (s)", "the true facts, one per line"),
        (
            "query",
            "query ATOM  (?)",
            "every true instance of a relation in this state; variables allowed, \
             e.g. `query legal(R, M)` or, in KIF, `query (legal ?r ?m)`",
        ),
        (
            "set",
            "set FACT ...",
            "go to the position where exactly these facts are true (undoable)",
        ),
        (
            "load-state",
            "load-state FILE",
            "the same with the facts read from a file (such as `state` output)",
        ),
        (
            "goals",
            "goals  (g)",
            "every role's goal value in this state",
        ),
        (
            "restart",
            "restart",
            "back to the initial state, history cleared, generator reseeded",
        ),
        (
            "save",
            "save FILE",
            "write a transcript: game file, parameters, seed and every step",
        ),
        (
            "load",
            "load FILE",
            "open a transcript's game and replay its steps",
        ),
        ("quit", "quit  (q, exit, Ctrl-D)", "leave"),
    ];
    let topic = topic.trim();
    if topic.is_empty() {
        let mut out = String::from("commands (a bare number or move also plays it):\n");
        for (_, usage, what) in ALL {
            let short = what.split(';').next().unwrap_or(what);
            out.push_str(&format!("  {usage:<44} {short}\n"));
        }
        return out;
    }
    let canon = complete::canonical(topic).unwrap_or(topic);
    match ALL.iter().find(|(n, _, _)| *n == canon) {
        Some((_, usage, what)) => format!("{usage}\n  {what}\n"),
        None => format!("no command `{topic}`; type `help` for the list\n"),
    }
}
