//! `tabula._tabula`: the engine of the `tabula` crate as a Python module.
//!
//! In: a game file and parameters from Python. Out: `Game` and `State`
//! objects over the crate's [`Game`] and [`State`], and the crate's
//! counts, playouts, searches and analysis figures as Python values. Holds:
//! nothing here plays a game; every answer comes from the library's API
//! (`load`, `engine`, `agent`, `front`, the report of `tabula analyze`).
//! States are immutable and hashable; a state's view (terminal, legal
//! moves) is computed once, on first use. Heavy calls (playouts, perft,
//! MCTS, the parts of an analysis) run without the GIL. Every failure is a
//! `TabulaError` carrying the diagnostic's code, file, line, column and
//! message.
#![forbid(unsafe_code)]

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tabula::agent::mcts::Search;
use tabula::agent::survey::{self, PlayoutLimit, RandomPlay};
use tabula::agent::tally::Tally;
use tabula::agent::{Budget, players};
use tabula::cli::analyze::{SelfPlay, json_report};
use tabula::diag::{self, Diagnostic};
use tabula::engine::{EngineError, EngineKind, perft};
use tabula::front::{engine_error, parse};
use tabula::syntax::rules::is_param_value;

create_exception!(
    _tabula,
    TabulaError,
    PyException,
    "An invalid game, move or state. Attributes: `code` (such as \"E0101\", or \
     None), `file`, `line`, `column` (None where the error points at no place), \
     `message` (the first error's message) and `diagnostics` (every \
     diagnostic of a game that failed to load, as dicts with the same keys \
     and `severity`); str() is the full rendered text."
);

/// A `TabulaError` with these attributes.
fn tabula_error(py: Python<'_>, text: String, first: Place, diagnostics: Vec<Place>) -> PyErr {
    let err = TabulaError::new_err(text);
    let set = || -> PyResult<()> {
        let value = err.value(py);
        value.setattr("code", first.code.clone())?;
        value.setattr("file", first.file.clone())?;
        value.setattr("line", first.line)?;
        value.setattr("column", first.column)?;
        value.setattr("message", first.message.clone())?;
        let list = PyList::empty(py);
        for d in diagnostics {
            list.append(d.to_dict(py)?)?;
        }
        value.setattr("diagnostics", list)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A message without a place in a file (a bad move, an engine error).
fn plain_error(py: Python<'_>, message: String) -> PyErr {
    let place = Place {
        message: message.clone(),
        ..Place::default()
    };
    tabula_error(py, message, place, Vec::new())
}

/// Where a diagnostic points and what it says.
#[derive(Clone, Default)]
struct Place {
    severity: &'static str,
    code: Option<String>,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    message: String,
}

impl Place {
    fn of(d: &Diagnostic, sources: &diag::SourceMap, path: &str) -> Place {
        let (file, line, column) = match d.span {
            Some(span) => {
                let f = sources.file(span.file);
                let (line, col) = f.line_col(span.start as usize);
                (f.path.clone(), Some(line), Some(col))
            }
            None => (path.to_string(), None, None),
        };
        Place {
            severity: if d.is_error() { "error" } else { "warning" },
            code: Some(d.code.to_string()),
            file: Some(file),
            line,
            column,
            message: d.message.clone(),
        }
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("severity", self.severity)?;
        d.set_item("code", self.code.clone())?;
        d.set_item("file", self.file.clone())?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("message", self.message.clone())?;
        Ok(d)
    }
}

/// What a `Game` and its states share.
struct Shared {
    game: tabula::engine::Game,
    path: String,
    /// The roles that choose (every role but nature).
    players: Vec<usize>,
    warnings: Vec<Place>,
}

impl Shared {
    fn engine_error(&self, py: Python<'_>, e: &EngineError) -> PyErr {
        plain_error(py, engine_error(&self.game, e))
    }

    fn role_index(&self, py: Python<'_>, role: &Bound<'_, PyAny>) -> PyResult<usize> {
        let count = self.game.role_count();
        if let Ok(i) = role.extract::<usize>() {
            return match i < count {
                true => Ok(i),
                false => Err(plain_error(
                    py,
                    format!("there is no role {i}: the game has {count} roles"),
                )),
            };
        }
        let name: String = role.extract()?;
        (0..count)
            .find(|&r| self.game.role_name(r) == name)
            .ok_or_else(|| {
                plain_error(
                    py,
                    format!(
                        "there is no role `{name}`; the roles are {}",
                        self.role_names().join(", ")
                    ),
                )
            })
    }

    fn role_names(&self) -> Vec<String> {
        (0..self.game.role_count())
            .map(|r| self.game.role_name(r))
            .collect()
    }
}

/// A game loaded from a file: its roles, parameters, base facts and moves.
#[pyclass(frozen, module = "tabula")]
struct Game {
    shared: Arc<Shared>,
}

/// Loads, checks, grounds and compiles a game file (`.rules`, or `.kif` /
/// `.gdl`); `params` sets parameters of a native game; `engine` is
/// `"reference"`, `"incremental"`, `"words"` or `"rules"` (None: tabula's
/// choice).
#[pyfunction]
#[pyo3(signature = (path, params = None, engine = None))]
fn load(
    py: Python<'_>,
    path: std::path::PathBuf,
    params: Option<Bound<'_, PyDict>>,
    engine: Option<&str>,
) -> PyResult<Game> {
    let mut overrides = Vec::new();
    for (key, value) in params.iter().flat_map(|d| d.iter()) {
        let name: String = key.extract()?;
        let text = value.str()?.to_string();
        if !is_param_value(text.trim()) {
            return Err(plain_error(
                py,
                format!(
                    "parameter {name}: a value is an integer or a lower-case name, not `{text}`"
                ),
            ));
        }
        overrides.push((name.trim().to_string(), text.trim().to_string()));
    }
    let engine = match engine {
        None => None,
        Some("reference") => Some(EngineKind::Reference),
        Some("incremental") => Some(EngineKind::Incremental),
        Some("words") => Some(EngineKind::Words),
        Some("rules") => Some(EngineKind::Rules),
        Some(other) => {
            return Err(plain_error(
                py,
                format!("`{other}` is not an engine: reference, incremental, words or rules"),
            ));
        }
    };
    let shown = path.display().to_string();
    let opened = py.detach(|| tabula::load::open_with(&path, None, &overrides, engine));
    match opened {
        Ok(loaded) => {
            let warnings = (loaded.warnings.iter())
                .map(|d| Place::of(d, &loaded.sources, &shown))
                .collect();
            let players = players(&loaded.game);
            Ok(Game {
                shared: Arc::new(Shared {
                    game: loaded.game,
                    path: shown,
                    players,
                    warnings,
                }),
            })
        }
        Err(failed) => {
            if let Some(e) = failed.unreadable {
                let place = Place {
                    file: Some(shown),
                    message: e.to_string(),
                    ..Place::default()
                };
                return Err(tabula_error(py, e.to_string(), place, Vec::new()));
            }
            let text: String = (failed.diagnostics.iter())
                .map(|d| diag::render(d, &failed.sources, &shown, false))
                .collect();
            let places: Vec<Place> = (failed.diagnostics.iter())
                .map(|d| Place::of(d, &failed.sources, &shown))
                .collect();
            let first = (places.iter())
                .find(|p| p.severity == "error")
                .cloned()
                .unwrap_or_default();
            Err(tabula_error(py, text.trim_end().to_string(), first, places))
        }
    }
}

/// Playout figures as a dict (the fields of [`RandomPlay`]).
fn random_play_dict<'py>(py: Python<'py>, r: &RandomPlay) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("playouts", r.playouts)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("steps", r.steps)?;
    d.set_item("lengths", r.lengths.clone())?;
    d.set_item("unfinished", r.unfinished)?;
    d.set_item("draws", r.draws)?;
    d.set_item("goal_sums", r.goal_sums.clone())?;
    d.set_item("branching", r.branching.clone())?;
    d.set_item("decisions", r.decisions)?;
    Ok(d)
}

fn random_play_from(d: &Bound<'_, PyDict>) -> PyResult<RandomPlay> {
    fn get<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
        match d.get_item(key)? {
            Some(v) => v.extract().map_err(Into::into),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.to_string())),
        }
    }
    Ok(RandomPlay {
        playouts: get(d, "playouts")?,
        seconds: get(d, "seconds")?,
        steps: get(d, "steps")?,
        lengths: get(d, "lengths")?,
        unfinished: get(d, "unfinished")?,
        draws: get(d, "draws")?,
        goal_sums: get(d, "goal_sums")?,
        branching: get(d, "branching")?,
        decisions: get(d, "decisions")?,
    })
}

fn tally_dict<'py>(py: Python<'py>, t: &Tally) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("wins", t.wins)?;
    d.set_item("draws", t.draws)?;
    d.set_item("losses", t.losses)?;
    d.set_item("unfinished", t.unfinished)?;
    d.set_item("goal_sum", t.goal_sum)?;
    d.set_item("goal_squares", t.goal_squares)?;
    d.set_item("length_sum", t.length_sum)?;
    d.set_item("seconds", t.seconds)?;
    d.set_item("choices", t.choices)?;
    Ok(d)
}

fn tally_from(d: &Bound<'_, PyDict>) -> PyResult<Tally> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(key)?
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))
    };
    Ok(Tally {
        wins: get("wins")?.extract()?,
        draws: get("draws")?.extract()?,
        losses: get("losses")?.extract()?,
        unfinished: get("unfinished")?.extract()?,
        goal_sum: get("goal_sum")?.extract()?,
        goal_squares: get("goal_squares")?.extract()?,
        length_sum: get("length_sum")?.extract()?,
        seconds: get("seconds")?.extract()?,
        choices: get("choices")?.extract()?,
    })
}

#[pymethods]
impl Game {
    /// The file the game was loaded from, as given.
    #[getter]
    fn path(&self) -> String {
        self.shared.path.clone()
    }

    /// The game's title (`game "..."`), if it declares one.
    #[getter]
    fn title(&self) -> Option<String> {
        self.shared.game.meta.title.clone()
    }

    /// Every role in order, nature included; joint moves follow this order.
    #[getter]
    fn roles(&self) -> Vec<String> {
        self.shared.role_names()
    }

    /// The roles that choose their moves (every role but nature).
    #[getter]
    fn players(&self) -> Vec<String> {
        let g = &self.shared.game;
        self.shared
            .players
            .iter()
            .map(|&r| g.role_name(r))
            .collect()
    }

    /// Nature's role (`random`), or None when the game has no chance.
    #[getter]
    fn nature(&self) -> Option<String> {
        let g = &self.shared.game;
        g.random_role().map(|r| g.role_name(r))
    }

    /// The parameters with their values, in declaration order.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, value) in &self.shared.game.meta.params {
            match value.parse::<i64>() {
                Ok(i) => d.set_item(name, i)?,
                Err(_) => d.set_item(name, value)?,
            }
        }
        Ok(d)
    }

    /// Every fact a state can hold, in the fixed order of `State.to_numpy`.
    #[getter]
    fn base_facts(&self) -> Vec<String> {
        let g = &self.shared.game;
        g.possible_facts().iter().map(|&t| g.show(t)).collect()
    }

    /// Per role, every move it can ever make; a move's index in its list is
    /// its move index (`State.legal_indices`, `State.legal_mask`).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = &self.shared.game;
        let d = PyDict::new(py);
        for r in 0..g.role_count() {
            let moves: Vec<String> = (0..g.move_count(r) as u32)
                .map(|m| g.show_move(r, m))
                .collect();
            d.set_item(g.role_name(r), moves)?;
        }
        Ok(d)
    }

    /// The warnings the checks found (dicts as `TabulaError.diagnostics`).
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for w in &self.shared.warnings {
            list.append(w.to_dict(py)?)?;
        }
        Ok(list)
    }

    /// The evaluator: "reference", "incremental", "words" or "rules".
    #[getter]
    fn engine(&self) -> &'static str {
        self.shared.game.engine().name()
    }

    /// The initial state.
    fn initial(&self) -> State {
        State::new(&self.shared, self.shared.game.initial())
    }

    /// A state from the facts that hold in it (as `State.facts` gives them).
    fn state(&self, py: Python<'_>, facts: Vec<String>) -> PyResult<State> {
        let g = &self.shared.game;
        let mut ids = Vec::with_capacity(facts.len());
        for text in &facts {
            let id = parse::atom(g, text)
                .ok()
                .and_then(|t| g.term_id(&t))
                .filter(|id| g.possible_facts().contains(id))
                .ok_or_else(|| {
                    plain_error(
                        py,
                        format!("`{text}` is not a fact this game's states can hold"),
                    )
                })?;
            ids.push(id);
        }
        let state = g
            .state_from_facts(&ids)
            .map_err(|t| plain_error(py, format!("`{}` is not a base fact", g.show(t))))?;
        Ok(State::new(&self.shared, state))
    }

    /// The state whose facts are the true entries of a bool array in the
    /// order of `base_facts` (the inverse of `State.to_numpy`).
    #[pyo3(name = "from_numpy")]
    fn state_from_numpy(&self, py: Python<'_>, array: &Bound<'_, PyAny>) -> PyResult<State> {
        let g = &self.shared.game;
        let flags: Vec<bool> = array.call_method0("tolist")?.extract()?;
        let base = g.possible_facts();
        if flags.len() != base.len() {
            return Err(plain_error(
                py,
                format!(
                    "the array has {} entries; this game has {} base facts",
                    flags.len(),
                    base.len()
                ),
            ));
        }
        let ids: Vec<_> = (base.iter().zip(&flags))
            .filter(|(_, on)| **on)
            .map(|(&t, _)| t)
            .collect();
        let state = g
            .state_from_facts(&ids)
            .map_err(|t| plain_error(py, format!("`{}` is not a base fact", g.show(t))))?;
        Ok(State::new(&self.shared, state))
    }

    /// `n` random playouts from the initial state over `threads` threads
    /// (at most 256; the figures do not depend on the thread count; playout i draws
    /// from a generator seeded by (seed, i), as in `tabula analyze`).
    /// Returns a dict: playouts, unfinished, draws, mean_length, mean_goals
    /// (per player), seconds, playouts_per_second.
    #[pyo3(signature = (n, seed = 1, threads = 1, max_steps = 10_000))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        n: u64,
        seed: u64,
        threads: usize,
        max_steps: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let shared = Arc::clone(&self.shared);
        let r = py
            .detach(|| survey::random_play_threads(&shared.game, n, seed, max_steps, threads))
            .map_err(|e| shared.engine_error(py, &e))?;
        let d = PyDict::new(py);
        let finished = r.lengths.len().max(1) as f64;
        d.set_item("playouts", r.playouts)?;
        d.set_item("unfinished", r.unfinished)?;
        d.set_item("draws", r.draws)?;
        d.set_item(
            "mean_length",
            r.lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / finished,
        )?;
        let goals = PyDict::new(py);
        for (&role, mean) in shared.players.iter().zip(r.mean_goals()) {
            goals.set_item(shared.game.role_name(role), mean)?;
        }
        d.set_item("mean_goals", goals)?;
        d.set_item("seconds", r.seconds)?;
        d.set_item(
            "playouts_per_second",
            r.playouts as f64 / r.seconds.max(1e-9),
        )?;
        Ok(d)
    }

    /// The exhaustive count of `tabula perft`: a list of dicts (depth,
    /// leaves, states) for every depth from 0 to `depth`.
    fn perft<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyList>> {
        let shared = Arc::clone(&self.shared);
        let levels = py
            .detach(|| perft::perft(&shared.game, depth, |_| {}))
            .map_err(|e| match e {
                perft::PerftError::Engine(e) => shared.engine_error(py, &e),
                other => plain_error(py, other.to_string()),
            })?;
        let list = PyList::empty(py);
        for l in levels {
            let d = PyDict::new(py);
            d.set_item("depth", l.depth)?;
            d.set_item("leaves", l.leaves)?;
            d.set_item("states", l.states)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Whether, in `playouts` random playouts of at most `max_steps` joint
    /// moves, some state gives two players a choice (more than one legal
    /// move) at once: OpenSpiel's simultaneous games.
    fn players_choose_at_once(
        &self,
        py: Python<'_>,
        playouts: u32,
        seed: u64,
        max_steps: u32,
    ) -> PyResult<bool> {
        let shared = Arc::clone(&self.shared);
        py.detach(|| {
            let g = &shared.game;
            let mut m = g.machine();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..playouts {
                m.set_state(&g.initial());
                for _ in 0..max_steps {
                    if m.is_terminal() {
                        break;
                    }
                    let choosing = (shared.players.iter())
                        .filter(|&&r| m.legal(r).len() > 1)
                        .count();
                    if choosing > 1 {
                        return Ok(true);
                    }
                    let joint = m.random_joint(&mut rng)?;
                    let next = m.next(&joint)?;
                    m.set_state(&next);
                }
            }
            Ok(false)
        })
        .map_err(|e: EngineError| shared.engine_error(py, &e))
    }

    /// Random playouts `first .. first + count` of a run seeded with
    /// `seed`, as the parts of a distributed analysis exchange them.
    fn _random_play<'py>(
        &self,
        py: Python<'py>,
        first: u64,
        count: u64,
        seed: u64,
        max_steps: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let shared = Arc::clone(&self.shared);
        let limit = PlayoutLimit {
            count,
            deadline: None,
        };
        let r = py
            .detach(|| survey::random_play(&shared.game, first, limit, seed, max_steps, |_| {}))
            .map_err(|e| shared.engine_error(py, &e))?;
        random_play_dict(py, &r)
    }

    /// Self-play games `first .. first + games` of `mcts:iterations` in
    /// every seat (game g uses seed `seed + g`): one tally dict per player.
    fn _self_play<'py>(
        &self,
        py: Python<'py>,
        first: u32,
        games: u32,
        iterations: u32,
        seed: u64,
        max_steps: u32,
    ) -> PyResult<Bound<'py, PyList>> {
        let shared = Arc::clone(&self.shared);
        let start = seed.wrapping_add(u64::from(first));
        let tallies = py
            .detach(|| {
                survey::self_play(&shared.game, games, iterations, start, max_steps, |_, _| {})
            })
            .map_err(|e| shared.engine_error(py, &e))?;
        let list = PyList::empty(py);
        for t in &tallies {
            list.append(tally_dict(py, t)?)?;
        }
        Ok(list)
    }

    /// The JSON report of `tabula analyze --json` from parts: random-play
    /// dicts in playout order, per-player tally lists of self-play parts
    /// (or None with the reason it did not run), the iterations per move
    /// and the wall-clock seconds of the whole.
    #[pyo3(signature = (file, random_parts, self_play_parts, not_run, iterations, seconds))]
    fn _report(
        &self,
        file: &str,
        random_parts: Vec<Bound<'_, PyDict>>,
        self_play_parts: Vec<Vec<Bound<'_, PyDict>>>,
        not_run: Option<String>,
        iterations: u32,
        seconds: f64,
    ) -> PyResult<String> {
        let mut random = RandomPlay {
            goal_sums: vec![0.0; self.shared.players.len()],
            ..RandomPlay::default()
        };
        for part in &random_parts {
            random.merge(&random_play_from(part)?);
        }
        random.seconds = seconds;
        let self_play = match not_run {
            Some(reason) => SelfPlay::NotRun { reason },
            None => {
                let mut tallies = vec![Tally::default(); self.shared.players.len()];
                for part in &self_play_parts {
                    for (tally, d) in tallies.iter_mut().zip(part) {
                        tally.merge(&tally_from(d)?);
                    }
                }
                SelfPlay::Run {
                    games: tallies.first().map_or(0, |t| t.summary().games),
                    summaries: tallies.iter().map(Tally::summary).collect(),
                }
            }
        };
        Ok(json_report(
            file,
            &self.players(),
            &random,
            &self_play,
            iterations,
        ))
    }

    /// A game is immutable: a copy is the game itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabula.Game {} roles={:?}>",
            self.shared.path,
            self.shared.role_names()
        )
    }
}

/// What a state's machine answers without fail: whether it is terminal,
/// and every role's legal moves.
struct View {
    terminal: bool,
    legal: Vec<Vec<u32>>,
}

/// A game state: immutable and hashable; `apply` gives the next one.
#[pyclass(frozen, module = "tabula")]
struct State {
    shared: Arc<Shared>,
    state: tabula::engine::State,
    view: OnceLock<View>,
}

impl State {
    fn new(shared: &Arc<Shared>, state: tabula::engine::State) -> State {
        State {
            shared: Arc::clone(shared),
            state,
            view: OnceLock::new(),
        }
    }

    fn view(&self) -> &View {
        self.view.get_or_init(|| {
            let mut m = self.shared.game.machine();
            m.set_state(&self.state);
            View {
                terminal: m.is_terminal(),
                legal: (0..self.shared.game.role_count())
                    .map(|r| m.legal(r).to_vec())
                    .collect(),
            }
        })
    }

    /// The move indices of a joint move given as a dict {role: move} or a
    /// sequence with one move per role; a move is its text or its move
    /// index; a role left out of a dict must have one legal move.
    fn joint(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let g = &self.shared.game;
        let roles = g.role_count();
        let mut given: Vec<Option<Bound<'_, PyAny>>> = vec![None; roles];
        if let Ok(d) = moves.cast::<PyDict>() {
            for (role, mv) in d.iter() {
                let r = self.shared.role_index(py, &role)?;
                given[r] = Some(mv);
            }
        } else {
            let seq: Vec<Bound<'_, PyAny>> = moves.extract()?;
            if seq.len() != roles {
                return Err(plain_error(
                    py,
                    format!("{} moves given for {roles} roles", seq.len()),
                ));
            }
            given = seq.into_iter().map(Some).collect();
        }
        let legal = &self.view().legal;
        let mut joint = Vec::with_capacity(roles);
        for (r, mv) in given.into_iter().enumerate() {
            let name = g.role_name(r);
            let m = match mv {
                None => match legal[r][..] {
                    [only] => only,
                    _ => {
                        return Err(plain_error(
                            py,
                            format!(
                                "{name} must move: legal {}",
                                parse::alternatives(g, r, &legal[r])
                            ),
                        ));
                    }
                },
                Some(mv) => match mv.extract::<u32>() {
                    Ok(i) if legal[r].contains(&i) => i,
                    Ok(i) => {
                        return Err(plain_error(
                            py,
                            format!(
                                "move index {i} is not a legal move of {name}; legal: {}",
                                parse::alternatives(g, r, &legal[r])
                            ),
                        ));
                    }
                    Err(_) => {
                        let text: String = mv.extract()?;
                        parse::choice(g, r, &legal[r], &text)
                            .map_err(|e| plain_error(py, e.to_string()))?
                    }
                },
            };
            joint.push(m);
        }
        Ok(joint)
    }
}

#[pymethods]
impl State {
    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.view().terminal
    }

    /// A role's legal moves (role by name or index), as text.
    fn legal(&self, py: Python<'_>, role: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let r = self.shared.role_index(py, role)?;
        let g = &self.shared.game;
        Ok(self.view().legal[r]
            .iter()
            .map(|&m| g.show_move(r, m))
            .collect())
    }

    /// A role's legal moves as move indices into `Game.moves[role]`.
    fn legal_indices(&self, py: Python<'_>, role: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let r = self.shared.role_index(py, role)?;
        Ok(self.view().legal[r].clone())
    }

    /// A bool array over `Game.moves[role]`, true at the legal moves (a
    /// policy head's mask).
    fn legal_mask<'py>(
        &self,
        py: Python<'py>,
        role: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = self.shared.role_index(py, role)?;
        let mut mask = vec![0u8; self.shared.game.move_count(r)];
        for &m in &self.view().legal[r] {
            mask[m as usize] = 1;
        }
        bool_array(py, &mask)
    }

    /// Every role's goal (0 to 100) by name; nature only if it has one.
    /// In a terminal state these are the results; elsewhere the goals
    /// that hold now (an error if some role has none or several).
    fn goals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = &self.shared.game;
        let mut m = g.machine();
        m.set_state(&self.state);
        let goals = m.goals().map_err(|e| self.shared.engine_error(py, &e))?;
        let d = PyDict::new(py);
        for (r, goal) in goals.into_iter().enumerate() {
            if let Some(v) = goal {
                d.set_item(g.role_name(r), v)?;
            }
        }
        Ok(d)
    }

    /// Nature's outcomes here with their probabilities, as (move, p); empty
    /// where nature does not choose (or the game has no nature).
    fn chance(&self, py: Python<'_>) -> PyResult<Vec<(String, f64)>> {
        let g = &self.shared.game;
        let outcomes = self.chance_indices(py)?;
        let r = g.random_role().unwrap_or(0);
        Ok(outcomes
            .into_iter()
            .map(|(m, p)| (g.show_move(r, m), p))
            .collect())
    }

    /// `chance` with outcomes as move indices of nature.
    fn chance_indices(&self, py: Python<'_>) -> PyResult<Vec<(u32, f64)>> {
        let g = &self.shared.game;
        if g.random_role().is_none() || self.view().terminal {
            return Ok(Vec::new());
        }
        let mut m = g.machine();
        m.set_state(&self.state);
        let weights = m.chance().map_err(|e| self.shared.engine_error(py, &e))?;
        let total: u128 = weights.iter().map(|&(_, w)| u128::from(w)).sum();
        Ok(weights
            .into_iter()
            .map(|(mv, w)| (mv, w as f64 / total as f64))
            .collect())
    }

    /// The state after a joint move: `{role: move}` (a move as text or
    /// move index; roles with one legal move may be left out) or a
    /// sequence of one move per role in `Game.roles` order.
    fn apply(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<State> {
        if self.view().terminal {
            return Err(plain_error(py, "the game is over: no move applies".into()));
        }
        let joint = self.joint(py, moves)?;
        let mut m = self.shared.game.machine();
        m.set_state(&self.state);
        m.check_playable()
            .map_err(|e| self.shared.engine_error(py, &e))?;
        let next = m
            .next(&joint)
            .map_err(|e| self.shared.engine_error(py, &e))?;
        Ok(State::new(&self.shared, next))
    }

    /// The true facts, as text, in the order of `Game.base_facts`.
    fn facts(&self) -> Vec<String> {
        let g = &self.shared.game;
        g.facts(&self.state)
            .into_iter()
            .map(|t| g.show(t))
            .collect()
    }

    /// The state as a bool array over `Game.base_facts`.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = &self.shared.game;
        // The true facts come in the order of the possible ones: one walk.
        let mut held = g.facts(&self.state).into_iter().peekable();
        let flags: Vec<u8> = (g.possible_facts().iter())
            .map(|t| u8::from(held.next_if_eq(t).is_some()))
            .collect();
        bool_array(py, &flags)
    }

    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> Game {
        Game {
            shared: Arc::clone(&self.shared),
        }
    }

    /// States are immutable: a copy is the state itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<State>().is_ok_and(|o| {
            Arc::ptr_eq(&self.shared, &o.get().shared) && o.get().state == self.state
        })
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.state.hash(&mut h);
        h.finish()
    }

    fn __str__(&self) -> String {
        self.shared.game.show_state(&self.state)
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabula.State {}>",
            self.shared.game.show_state(&self.state)
        )
    }
}

/// A numpy bool array of these 0/1 bytes.
fn bool_array<'py>(py: Python<'py>, flags: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("frombuffer", (PyBytes::new(py, flags), "bool"))?;
    array.call_method0("copy")
}

/// The best move of `role` from `state` by Monte Carlo tree search, as
/// text: `iterations` playouts in all, or `seconds` of thinking (one of
/// them; default 1000 iterations), over `threads` threads, seeded.
#[pyfunction]
#[pyo3(signature = (state, role, iterations = None, seconds = None, threads = 1, seed = 1))]
fn mcts(
    py: Python<'_>,
    state: &State,
    role: &Bound<'_, PyAny>,
    iterations: Option<u32>,
    seconds: Option<f64>,
    threads: usize,
    seed: u64,
) -> PyResult<String> {
    let budget = match (iterations, seconds) {
        (Some(_), Some(_)) => {
            return Err(plain_error(
                py,
                "give iterations or seconds, not both".into(),
            ));
        }
        (Some(0), None) => return Err(plain_error(py, "iterations must be positive".into())),
        (Some(n), None) => Budget::Iterations(n),
        (None, Some(s)) if s > 0.0 && s <= 86_400.0 => Budget::Time(Duration::from_secs_f64(s)),
        (None, Some(s)) => {
            return Err(plain_error(
                py,
                format!("{s} is not a number of seconds in (0, 86400]"),
            ));
        }
        (None, None) => Budget::Iterations(tabula::agent::DEFAULT_ITERATIONS),
    };
    if !(1..=survey::MAX_THREADS).contains(&threads) {
        return Err(plain_error(
            py,
            format!("threads must be 1 to {}", survey::MAX_THREADS),
        ));
    }
    let r = state.shared.role_index(py, role)?;
    if state.view().terminal {
        return Err(plain_error(
            py,
            "the game is over: there is no move to search".into(),
        ));
    }
    let shared = Arc::clone(&state.shared);
    let position = state.state.clone();
    let outcome = py
        .detach(|| Search::new(budget, threads, seed).run(&shared.game, &position))
        .map_err(|e| shared.engine_error(py, &e))?;
    let mv = outcome.best(r).ok_or_else(|| {
        plain_error(
            py,
            format!("{} has no move to choose", shared.game.role_name(r)),
        )
    })?;
    Ok(shared.game.show_move(r, mv))
}

#[pymodule]
fn _tabula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TabulaError", m.py().get_type::<TabulaError>())?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(mcts, m)?)?;
    Ok(())
}
