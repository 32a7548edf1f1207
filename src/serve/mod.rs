//! The web page of `tabula serve` as a library: one page and a small JSON
//! API over a REPL [`Session`].
//!
//! In: a session on a game, then requests (method, path, content type,
//! body). Out: for each request a [`Response`]: a status, a content type and
//! a body (the page, its script and style, or JSON). Holds: every request
//! that changes the game names the step (and, optionally, the revision) the
//! page showed, and one that does not match, names an illegal move, has a
//! malformed body or asks for an unknown path gets a JSON `{"error": ...}`
//! with a 4xx status and changes nothing; the moves, undo, redo, agents,
//! hints and transcripts are the REPL's own ([`Session`]); nothing here
//! prints or touches the network (`cli::serve` does).

use crate::agent::{Agent, Budget, DEFAULT_ITERATIONS};
use crate::front::parse::Item;
use crate::front::{choosing, engine_error, view};
use crate::render::scene;
use crate::render::svg;
use crate::repl::Session;
use crate::repl::agents::Hint;
use crate::repl::transcript;
use serde_json::{Map, Value, json};
use std::path::PathBuf;
use std::time::Duration;

/// The page, its script and its style, served from the binary.
const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// The largest request body read: a transcript may be as large as a file
/// the REPL reads.
pub const MAX_BODY: u64 = crate::syntax::MAX_INPUT_BYTES;

/// The longest search a hint or an agent may be asked for, so that one
/// request cannot hold the server for long.
const MAX_ITERATIONS: u32 = 200_000;
const MAX_SECONDS: Duration = Duration::from_secs(60);

/// What the server sends back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Response {
    fn json(status: u16, value: &Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: value.to_string(),
        }
    }

    fn text(content_type: &'static str, body: &str) -> Response {
        Response {
            status: 200,
            content_type,
            body: body.to_string(),
        }
    }
}

/// A refused request: its status and what is wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Refusal {
    status: u16,
    message: String,
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal {
        status: 400,
        message: message.into(),
    }
}

/// The state of a served game: the session and a revision that grows with
/// every change, so that a page that missed a change (an undo and a new
/// move that lead back to the same step) is told so.
pub struct Server {
    session: Session,
    revision: u64,
    /// The served game file: only transcripts of it are loaded.
    game_file: PathBuf,
}

impl Server {
    pub fn new(session: Session) -> Server {
        let game_file = session.origin().path.clone();
        Server {
            session,
            revision: 0,
            game_file,
        }
    }

    /// Answers one request. `content_type` is the request's, which must be
    /// JSON for a POST (a page of another site cannot send that without
    /// asking first, which this server never allows).
    pub fn handle(
        &mut self,
        method: &str,
        url: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Response {
        let path = url.split(['?', '#']).next().unwrap_or("");
        match self.route(method, path, content_type, body) {
            Ok(response) => response,
            Err(refusal) => Response::json(refusal.status, &json!({ "error": refusal.message })),
        }
    }

    fn route(
        &mut self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Result<Response, Refusal> {
        const GETS: [&str; 5] = [
            "/",
            "/page.js",
            "/page.css",
            "/api/state",
            "/api/transcript",
        ];
        const POSTS: [&str; 8] = [
            "/api/play",
            "/api/roll",
            "/api/undo",
            "/api/redo",
            "/api/restart",
            "/api/auto",
            "/api/hint",
            "/api/transcript",
        ];
        match method {
            "GET" | "HEAD" => match path {
                "/" => Ok(Response::text("text/html; charset=utf-8", PAGE)),
                "/page.js" => Ok(Response::text("text/javascript; charset=utf-8", SCRIPT)),
                "/page.css" => Ok(Response::text("text/css; charset=utf-8", STYLE)),
                "/api/state" => Ok(Response::json(200, &self.state())),
                "/api/transcript" => Ok(Response::text(
                    "text/plain; charset=utf-8",
                    &self.session.transcript(),
                )),
                _ if POSTS.contains(&path) => Err(not_allowed(path, "POST")),
                _ => Err(not_found(path)),
            },
            "POST" => {
                if !POSTS.contains(&path) {
                    return Err(if GETS.contains(&path) {
                        not_allowed(path, "GET")
                    } else {
                        not_found(path)
                    });
                }
                let is_json = content_type
                    .and_then(|t| t.split(';').next())
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
                if !is_json {
                    return Err(Refusal {
                        status: 415,
                        message: "a POST body is JSON: send `Content-Type: application/json`"
                            .into(),
                    });
                }
                let body = Body::parse(body)?;
                self.post(path, body)
            }
            _ => Err(Refusal {
                status: 405,
                message: format!("method {method} is not served; use GET or POST"),
            }),
        }
    }

    fn post(&mut self, path: &str, body: Body) -> Result<Response, Refusal> {
        if path == "/api/hint" {
            body.only(&["step", "revision", "search"])?;
            self.check_step(&body)?;
            let hint = self.hint(body.text("search")?)?;
            return Ok(Response::json(200, &hint));
        }
        match path {
            "/api/play" => {
                body.only(&["step", "revision", "moves"])?;
                self.check_step(&body)?;
                let items = self.moves(&body)?;
                self.session
                    .play_items(&items)
                    .map_err(|e| bad(e.describe(self.session.game())))?;
            }
            "/api/roll" => {
                body.only(&["step", "revision", "outcome"])?;
                self.check_step(&body)?;
                let line = match body.text("outcome")? {
                    Some(outcome) => format!("roll {}", one_line(outcome, "outcome")?),
                    None => "roll".to_string(),
                };
                self.session.command(&line).map_err(bad)?;
            }
            "/api/undo" | "/api/redo" | "/api/restart" => {
                body.only(&["step", "revision"])?;
                self.check_step(&body)?;
                self.session.command(&path["/api/".len()..]).map_err(bad)?;
            }
            "/api/auto" => {
                body.only(&["step", "revision", "agents"])?;
                self.check_step(&body)?;
                self.auto(&body)?;
            }
            "/api/transcript" => {
                body.only(&["step", "revision", "text"])?;
                self.check_step(&body)?;
                let text = body
                    .text("text")?
                    .ok_or_else(|| bad("`text` (the transcript) is missing"))?;
                let mut loaded =
                    transcript::replay_text("the transcript", text, None, Some(&self.game_file))
                        .map_err(|e| bad(e.to_string()))?;
                std::mem::swap(&mut self.session, &mut loaded);
            }
            _ => return Err(not_found(path)),
        }
        self.revision += 1;
        Ok(Response::json(200, &self.state()))
    }

    /// Refuses a request made from another step or revision than the
    /// current one.
    fn check_step(&self, body: &Body) -> Result<(), Refusal> {
        let step = body
            .number("step")?
            .ok_or_else(|| bad("`step` (the step the page shows) is missing"))?;
        let now = self.session.step() as u64;
        let stale = |message: String| Refusal {
            status: 409,
            message,
        };
        if step != now {
            return Err(stale(format!(
                "the page shows step {step} but the game is at step {now}: reload the page"
            )));
        }
        if let Some(revision) = body.number("revision")?
            && revision != self.revision
        {
            return Err(stale(format!(
                "the page shows revision {revision} but the game is at revision {}: it changed since; reload the page",
                self.revision
            )));
        }
        Ok(())
    }

    /// The `moves` object (`{"ROLE": "MOVE", ...}`) as `play` items.
    fn moves(&self, body: &Body) -> Result<Vec<Item>, Refusal> {
        let Some(moves) = body.0.get("moves") else {
            return Ok(Vec::new());
        };
        let Value::Object(moves) = moves else {
            return Err(bad("`moves` is an object of ROLE: MOVE texts"));
        };
        moves
            .iter()
            .map(|(role, text)| match text {
                Value::String(text) => Ok(Item {
                    role: Some(role.clone()),
                    text: one_line(text, "move")?.to_string(),
                }),
                _ => Err(bad(format!(
                    "the move of `{role}` is a text, such as \"noop\""
                ))),
            })
            .collect()
    }

    /// One step by the roles' agents, after setting those the request names
    /// (`{"agents": {"ROLE": "mcts:500"}}`); everything is checked first, so
    /// a refused request changes no agent.
    fn auto(&mut self, body: &Body) -> Result<(), Refusal> {
        let game = self.session.game();
        let mut lines = Vec::new();
        if let Some(agents) = body.0.get("agents") {
            let Value::Object(agents) = agents else {
                return Err(bad(
                    "`agents` is an object of ROLE: AGENT, such as {\"x\": \"mcts:500\"}",
                ));
            };
            for (role, spec) in agents {
                let Value::String(spec) = spec else {
                    return Err(bad(format!(
                        "the agent of `{role}` is a text, such as \"random\""
                    )));
                };
                let known = (0..game.role_count())
                    .any(|r| game.role_name(r) == *role && Some(r) != game.random_role());
                if !known || role.contains(char::is_whitespace) {
                    let players: Vec<String> = (0..game.role_count())
                        .filter(|&r| Some(r) != game.random_role())
                        .map(|r| game.role_name(r))
                        .collect();
                    return Err(bad(format!(
                        "there is no player `{role}`; the players are {}",
                        players.join(", ")
                    )));
                }
                let agent = Agent::parse(spec).map_err(|e| bad(e.to_string()))?;
                if agent == Agent::Human {
                    return Err(bad(
                        "an agent plays by itself: random, first, mcts, mcts:ITERATIONS or mcts:SECONDSs",
                    ));
                }
                if let Agent::Mcts(budget) = agent {
                    check_budget(budget)?;
                }
                lines.push(format!("agent {role} {agent}"));
            }
        }
        if self.session.machine().is_terminal() {
            return Err(bad("the game is over: undo or restart"));
        }
        for line in lines {
            self.session.command(&line).map_err(bad)?;
        }
        self.session.command("auto 1").map_err(bad)?;
        Ok(())
    }

    /// `hint` as data; `search` is `ITERATIONS` or `SECONDSs` (1000
    /// iterations when not given).
    fn hint(&mut self, search: Option<&str>) -> Result<Value, Refusal> {
        let budget = match search {
            None => Budget::Iterations(DEFAULT_ITERATIONS),
            Some(given) => match Agent::parse(&format!("mcts:{given}")) {
                Ok(Agent::Mcts(budget)) => budget,
                _ => {
                    return Err(bad(format!(
                        "`search` is a positive number of iterations (\"5000\") or seconds (\"2s\"), not `{given}`"
                    )));
                }
            },
        };
        check_budget(budget)?;
        let found = self
            .session
            .hint_search(budget)
            .map_err(|e| bad(e.describe(self.session.game())))?;
        Ok(match found {
            None => json!({ "search": Agent::Mcts(budget).to_string(), "roles": [] }),
            Some(hint) => self.hint_json(&hint),
        })
    }

    fn hint_json(&self, hint: &Hint) -> Value {
        let game = self.session.game();
        let roles: Vec<Value> = hint
            .roles
            .iter()
            .map(|r| {
                let moves: Vec<Value> = r
                    .moves
                    .iter()
                    .map(|m| {
                        json!({
                            "number": m.number,
                            "text": m.text,
                            "visits": m.visits,
                            "mean": m.mean,
                            "ci95": m.ci95,
                        })
                    })
                    .collect();
                json!({
                    "role": game.role_name(r.role),
                    "moves": moves,
                    "close": r.close.map(|(a, b)| vec![a, b]),
                })
            })
            .collect();
        json!({
            "search": hint.search.to_string(),
            "iterations": hint.iterations,
            "roles": roles,
        })
    }

    /// Everything the page shows of the current position.
    pub fn state(&self) -> Value {
        let session = &self.session;
        let game = session.game();
        let mut m = session.machine();
        let over = m.is_terminal();
        let turn = view::status(&mut m, session.step());
        let turn = turn.lines().next().unwrap_or("").to_string();
        let playable = !over && m.check_playable().is_ok();
        let chooses = if playable { choosing(&m) } else { Vec::new() };
        let weights = match game.random_role() {
            Some(_) if playable => m.chance().ok(),
            _ => None,
        };
        let total: u128 = weights.iter().flatten().map(|w| u128::from(w.1)).sum();
        let board = game.meta.board.as_ref();
        let roles: Vec<Value> = (0..game.role_count())
            .map(|r| {
                let nature = Some(r) == game.random_role();
                let legal = if playable { m.legal(r) } else { &[] };
                let moves: Vec<Value> = legal
                    .iter()
                    .map(|&mv| {
                        let cells = board.map_or(Vec::new(), |b| {
                            scene::named_cells(game, b, &[game.move_term(r, mv)])
                        });
                        let mut entry = json!({ "text": game.show_move(r, mv), "cells": cells });
                        if nature && let Some(w) = weights.iter().flatten().find(|w| w.0 == mv) {
                            entry["probability"] =
                                Value::String(view::fraction(u128::from(w.1), total));
                        }
                        entry
                    })
                    .collect();
                let agent = (!nature).then(|| session.agents()[r].to_string());
                json!({
                    "name": game.role_name(r),
                    "nature": nature,
                    "choosing": chooses.contains(&r) || (nature && legal.len() > 1),
                    "agent": agent,
                    "moves": moves,
                })
            })
            .collect();
        let goals = if over {
            match m.goals() {
                Ok(values) => values
                    .iter()
                    .enumerate()
                    .filter_map(|(r, v)| v.map(|v| json!({ "role": game.role_name(r), "goal": v })))
                    .collect(),
                Err(e) => json!({ "error": engine_error(game, &e) }),
            }
        } else {
            Value::Null
        };
        let last = session.last_move();
        let facts: Vec<String> = game
            .facts(session.state())
            .iter()
            .map(|&f| game.show(f))
            .collect();
        let cells: Vec<String> = board.map_or(Vec::new(), |b| {
            b.cells
                .iter()
                .map(|c| crate::render::show_pattern(game, &c.name, &[]))
                .collect()
        });
        json!({
            "title": game.meta.title.clone().unwrap_or_else(|| session.origin().path.display().to_string()),
            "step": session.step(),
            "revision": self.revision,
            "over": over,
            "turn": turn,
            "roles": roles,
            "last_move": last.map(|j| view::joint(game, j)),
            "can_undo": session.step() > 0,
            "can_redo": session.can_redo(),
            "goals": goals,
            "facts": facts,
            "cells": cells,
            "svg": svg::position(game, session.state(), last, session.step(), true),
        })
    }
}

/// A search small enough for one request.
fn check_budget(budget: Budget) -> Result<(), Refusal> {
    match budget {
        Budget::Iterations(n) if n > MAX_ITERATIONS => Err(bad(format!(
            "at most {MAX_ITERATIONS} iterations per request, not {n}"
        ))),
        Budget::Time(t) if t > MAX_SECONDS => Err(bad(format!(
            "at most {} seconds per request",
            MAX_SECONDS.as_secs()
        ))),
        _ => Ok(()),
    }
}

/// A text that must stay on one line (a move, an outcome).
fn one_line<'t>(text: &'t str, what: &str) -> Result<&'t str, Refusal> {
    if text.contains(['\n', '\r']) {
        return Err(bad(format!("a {what} is one line of text")));
    }
    Ok(text)
}

fn not_found(path: &str) -> Refusal {
    Refusal {
        status: 404,
        message: format!(
            "no such path: `{path}`; the API is GET /api/state, GET /api/transcript and POST /api/play, /api/roll, /api/undo, /api/redo, /api/restart, /api/auto, /api/hint, /api/transcript"
        ),
    }
}

fn not_allowed(path: &str, method: &str) -> Refusal {
    Refusal {
        status: 405,
        message: format!("{path} takes {method}"),
    }
}

/// A POST body: a JSON object.
struct Body(Map<String, Value>);

impl Body {
    fn parse(bytes: &[u8]) -> Result<Body, Refusal> {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(fields)) => Ok(Body(fields)),
            Ok(_) => Err(bad("the body is a JSON object, such as {\"step\": 0}")),
            Err(e) => Err(bad(format!("the body is not JSON: {e}"))),
        }
    }

    /// Refuses fields this request does not take (a typo would otherwise
    /// be ignored).
    fn only(&self, fields: &[&str]) -> Result<(), Refusal> {
        match self.0.keys().find(|k| !fields.contains(&k.as_str())) {
            Some(k) => Err(bad(format!(
                "unknown field `{k}`; this request takes {}",
                fields.join(", ")
            ))),
            None => Ok(()),
        }
    }

    fn number(&self, field: &str) -> Result<Option<u64>, Refusal> {
        match self.0.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| bad(format!("`{field}` is a whole number, not {v}"))),
        }
    }

    fn text(&self, field: &str) -> Result<Option<&str>, Refusal> {
        match self.0.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(bad(format!("`{field}` is a text, not {v}"))),
        }
    }
}
