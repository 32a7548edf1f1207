//! `tabula serve`: the built binary on port 0, driven through its JSON API
//! with plain `std::net` requests, compared with `tabula repl` on the same
//! moves: the exact legal moves, facts and goals at every step of a whole
//! pawn race; refused requests (illegal, stale, malformed, unknown) that
//! change nothing; undo and redo; transcripts in the REPL's format, saved
//! and loaded; nature's throw forced in Tablan; agents and hints; a KIF game.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tabula");
const PAWNS: &str = "games/pawn_whopping.rules";
const TABLAN: &str = "games/tablan.rules";

/// A running `tabula serve`, stopped when dropped.
struct Served {
    child: Child,
    /// `127.0.0.1:PORT`
    address: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(file: &str, seed: u64) -> Served {
    let mut child = Command::new(BIN)
        .args(["serve", file, "--port", "0", "--seed", &seed.to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabula serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the URL line");
    let address = line
        .trim()
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("a URL on the first line, not {line:?}"))
        .to_string();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    Served { child, address }
}

impl Served {
    /// One request; the status and the body.
    fn request(&self, method: &str, path: &str, content_type: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read");
        let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        (status, body.to_string())
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, "text/plain", "")
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, "application/json", &body.to_string());
        (status, serde_json::from_str(&text).expect("a JSON answer"))
    }

    fn state(&self) -> Value {
        let (status, text) = self.get("/api/state");
        assert_eq!(status, 200);
        serde_json::from_str(&text).expect("JSON state")
    }

    fn transcript(&self) -> String {
        let (status, text) = self.get("/api/transcript");
        assert_eq!(status, 200);
        text
    }

    /// A change that must succeed; the new state.
    fn change(&self, path: &str, mut body: Value) -> Value {
        let now = self.state();
        body["step"] = now["step"].clone();
        body["revision"] = now["revision"].clone();
        let (status, answer) = self.post(path, &body);
        assert_eq!(status, 200, "{path} {body}: {answer}");
        answer
    }
}

/// `tabula repl` on a script; its standard output.
fn repl(file: &str, seed: u64, script: &str) -> String {
    let mut child = Command::new(BIN)
        .args(["repl", file, "--seed", &seed.to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabula repl starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script");
    let out = child.wait_with_output().expect("repl runs");
    String::from_utf8(out.stdout).expect("text")
}

/// The legal moves of one role as the REPL's `moves` lists them
/// (`x: 1. move(1, 2, 1, 3)   2. ...`, wrapped under the prefix).
fn repl_moves(listing: &str, role: &str) -> Vec<String> {
    let mut moves = Vec::new();
    let mut inside = false;
    for line in listing.lines() {
        let rest = if let Some(rest) = line.strip_prefix(&format!("{role}: ")) {
            inside = true;
            rest
        } else if inside && line.starts_with(' ') {
            line
        } else {
            inside = false;
            continue;
        };
        for item in rest.split("  ").map(str::trim).filter(|s| !s.is_empty()) {
            let (_, text) = item.split_once(". ").expect("N. MOVE");
            moves.push(text.to_string());
        }
    }
    moves
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a text").to_string())
        .collect()
}

fn role<'v>(state: &'v Value, name: &str) -> &'v Value {
    state["roles"]
        .as_array()
        .expect("roles")
        .iter()
        .find(|r| r["name"] == name)
        .expect("the role")
}

fn move_texts(state: &Value, name: &str) -> Vec<String> {
    role(state, name)["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["text"].as_str().expect("text").to_string())
        .collect()
}

/// The whole state but what says which revision it is, and whether undone
/// steps wait for `redo` (both differ between two ways to one position).
fn position(state: &Value) -> Value {
    let mut s = state.clone();
    s["revision"] = Value::Null;
    s["can_redo"] = Value::Null;
    s
}

#[test]
fn a_whole_pawn_race_has_the_repls_moves_facts_and_goals_at_every_step() {
    let served = serve(PAWNS, 5);
    let mut states = vec![served.state()];
    let mut plays = Vec::new();
    // Play a whole game, each step a different choice of the one to move.
    while states.last().unwrap()["over"] == false {
        let state = states.last().unwrap();
        let step = state["step"].as_u64().unwrap() as usize;
        let mover = ["x", "o"]
            .into_iter()
            .find(|r| role(state, r)["choosing"] == true)
            .expect("someone moves");
        let legal = move_texts(state, mover);
        let choice = &legal[(step * 7 + 3) % legal.len()];
        let next = served.change("/api/play", json!({ "moves": { mover: choice } }));
        assert_eq!(next["step"], step + 1);
        plays.push(next["last_move"].as_str().unwrap().to_string());
        states.push(next);
        assert!(step < 200, "the race ends");
    }
    assert!(plays.len() > 10, "a real game: {} steps", plays.len());

    // The same moves in the REPL, with `goals` lines between the answers.
    let mut script = String::new();
    for play in &plays {
        script.push_str(&format!("goals\nmoves\ngoals\nstate\ngoals\nplay {play}\n"));
    }
    script.push_str("goals\nmoves\ngoals\nstate\ngoals\n");
    let out = repl(PAWNS, 5, &script);
    let mut parts: Vec<String> = vec![String::new()];
    let mut goal_lines = Vec::new();
    for line in out.lines() {
        if line.starts_with("goals") {
            goal_lines.push(line.to_string());
            parts.push(String::new());
        } else {
            parts.last_mut().unwrap().push_str(&format!("{line}\n"));
        }
    }
    for (k, state) in states.iter().enumerate() {
        let (moves, facts) = (&parts[1 + 3 * k], &parts[2 + 3 * k]);
        for r in ["x", "o"] {
            assert_eq!(move_texts(state, r), repl_moves(moves, r), "step {k}, {r}");
        }
        let repl_facts: Vec<String> = facts.lines().map(String::from).collect();
        assert_eq!(strings(&state["facts"]), repl_facts, "step {k}");
        // The pieces the page shows are the facts: `cell(X, Y, R)` puts R
        // on sq(X, Y), and each cell's click area names what stands on it.
        let svg = state["svg"].as_str().unwrap();
        for f in &repl_facts {
            if let Some(args) = f.strip_prefix("cell(").and_then(|f| f.strip_suffix(')')) {
                let parts: Vec<&str> = args.split(", ").collect();
                let shown = format!(
                    "data-name=\"sq({}, {})\" data-pieces=\"{}\"",
                    parts[0], parts[1], parts[2]
                );
                assert!(svg.contains(&shown), "step {k}: {shown}");
            }
        }
        assert_eq!(
            svg.matches("data-pieces=\"x\"").count() + svg.matches("data-pieces=\"o\"").count(),
            repl_facts.iter().filter(|f| f.starts_with("cell(")).count()
        );
    }
    let last = states.last().unwrap();
    let goals = goal_lines.last().unwrap();
    let expected = format!(
        "goals: x {}, o {}",
        last["goals"][0]["goal"].as_i64().unwrap(),
        last["goals"][1]["goal"].as_i64().unwrap()
    );
    assert_eq!(last["goals"][0]["role"], "x");
    assert_eq!(goals, &expected);
    assert!(move_texts(last, "x").is_empty());
}

#[test]
fn a_move_names_its_cells_from_then_to() {
    let served = serve(PAWNS, 1);
    let state = served.state();
    let cells = strings(&state["cells"]);
    let x = role(&state, "x");
    let first = &x["moves"][0];
    assert_eq!(first["text"], "move(1, 2, 1, 3)");
    let named: Vec<&str> = first["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| cells[c.as_u64().unwrap() as usize].as_str())
        .collect();
    assert_eq!(named, ["sq(1, 2)", "sq(1, 3)"]);
    assert_eq!(role(&state, "o")["moves"][0]["text"], "noop");
    assert_eq!(role(&state, "o")["moves"][0]["cells"], json!([]));
}

#[test]
fn bad_requests_are_refused_with_4xx_and_change_nothing() {
    let served = serve(PAWNS, 2);
    served.change("/api/play", json!({ "moves": { "x": "move(4, 2, 4, 4)" } }));
    let before = served.state();
    let transcript = served.transcript();
    let (step, revision) = (before["step"].clone(), before["revision"].clone());
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            "/api/play",
            json!({ "step": step, "moves": { "o": "move(4, 7, 4, 3)" } }).to_string(),
            400,
            "not a legal move",
        ),
        (
            "/api/play",
            json!({ "step": step, "moves": { "x": "move(1, 2, 1, 3)" } }).to_string(),
            400,
            "",
        ),
        (
            "/api/play",
            json!({ "step": step, "moves": { "z": "noop" } }).to_string(),
            400,
            "no role `z`",
        ),
        (
            "/api/play",
            json!({ "step": 0, "moves": { "o": "move(4, 7, 4, 5)" } }).to_string(),
            409,
            "the page shows step 0 but the game is at step 1",
        ),
        (
            "/api/play",
            json!({ "step": step, "revision": 0, "moves": { "o": "move(4, 7, 4, 5)" } })
                .to_string(),
            409,
            "revision 0",
        ),
        (
            "/api/play",
            json!({ "moves": { "o": "move(4, 7, 4, 5)" } }).to_string(),
            400,
            "`step`",
        ),
        (
            "/api/play",
            json!({ "step": "one", "moves": {} }).to_string(),
            400,
            "whole number",
        ),
        (
            "/api/play",
            json!({ "step": step, "mvoes": {} }).to_string(),
            400,
            "unknown field `mvoes`",
        ),
        (
            "/api/play",
            json!({ "step": step, "moves": ["move(4, 7, 4, 5)"] }).to_string(),
            400,
            "object",
        ),
        (
            "/api/play",
            json!({ "step": step, "moves": { "o": "move(4, 7, 4, 5)\nundo" } }).to_string(),
            400,
            "one line",
        ),
        ("/api/play", "{\"step\": 1,".to_string(), 400, "not JSON"),
        ("/api/play", "[1, 2]".to_string(), 400, "JSON object"),
        (
            "/api/roll",
            json!({ "step": step }).to_string(),
            400,
            "chance",
        ),
        (
            "/api/redo",
            json!({ "step": step }).to_string(),
            400,
            "redo",
        ),
        (
            "/api/auto",
            json!({ "step": step, "agents": { "o": "mcts:99999999" } }).to_string(),
            400,
            "at most",
        ),
        (
            "/api/auto",
            json!({ "step": step, "agents": { "o": "human" } }).to_string(),
            400,
            "by itself",
        ),
        (
            "/api/auto",
            json!({ "step": step, "agents": { "o": "genius" } }).to_string(),
            400,
            "",
        ),
        (
            "/api/hint",
            json!({ "step": step, "search": "lots" }).to_string(),
            400,
            "`search`",
        ),
        (
            "/api/transcript",
            json!({ "step": step, "text": "# tabula transcript\ngame games/tablan.rules\nseed 1\n" })
                .to_string(),
            400,
            "not of games/pawn_whopping.rules",
        ),
        (
            "/api/transcript",
            json!({ "step": step, "text": format!("{}play x=move(1, 2, 1, 6)\n", transcript) })
                .to_string(),
            400,
            "no longer fits",
        ),
        ("/api/nothing", "{}".to_string(), 404, "no such path"),
        ("/api/state", "{}".to_string(), 405, "takes GET"),
    ];
    for (path, body, status, says) in cases {
        let (got, text) = served.request("POST", path, "application/json", &body);
        let answer: Value = serde_json::from_str(&text).expect("JSON error");
        let error = answer["error"].as_str().unwrap_or_else(|| panic!("{text}"));
        assert_eq!(got, status, "{path} {body}: {error}");
        assert!(error.contains(says), "{path} {body}: {error}");
        assert_eq!(served.state(), before, "{path} {body} changed the state");
        assert_eq!(served.transcript(), transcript);
    }
    let plain = served.request("POST", "/api/undo", "text/plain", "{\"step\": 1}");
    assert_eq!(plain.0, 415);
    assert_eq!(served.get("/api/play").0, 405);
    assert_eq!(served.get("/favicon.ico").0, 404);
    assert_eq!(
        served.request("DELETE", "/api/state", "text/plain", "").0,
        405
    );
    assert_eq!(served.state(), before);
    assert_eq!(served.state()["revision"], revision);
}

#[test]
fn undo_and_redo_go_back_and_forth_between_the_same_positions() {
    let served = serve(PAWNS, 3);
    let start = served.state();
    let one = served.change("/api/play", json!({ "moves": { "x": "move(2, 2, 2, 4)" } }));
    let two = served.change("/api/play", json!({ "moves": { "o": "move(3, 7, 3, 5)" } }));
    assert_eq!(two["can_undo"], true);
    let back = served.change("/api/undo", json!({}));
    assert_eq!(position(&back), position(&one));
    assert_eq!(back["can_redo"], true);
    let forth = served.change("/api/redo", json!({}));
    assert_eq!(position(&forth), position(&two));
    assert_eq!(forth["can_redo"], false);
    served.change("/api/undo", json!({}));
    let first = served.change("/api/undo", json!({}));
    assert_eq!(position(&first), position(&start));
    let (status, answer) = served.post("/api/undo", &json!({ "step": 0 }));
    assert_eq!(status, 400, "{answer}");
    // A new step drops what could be redone.
    let other = served.change("/api/play", json!({ "moves": { "x": "move(8, 2, 8, 3)" } }));
    assert_eq!(other["can_redo"], false);
    assert_eq!(other["step"], 1);
}

#[test]
fn the_transcript_is_the_repls_and_loads_back() {
    let served = serve(PAWNS, 4);
    served.change("/api/play", json!({ "moves": { "x": "move(5, 2, 5, 4)" } }));
    served.change("/api/play", json!({ "moves": { "o": "move(6, 7, 6, 5)" } }));
    served.change("/api/play", json!({ "moves": { "x": "move(5, 4, 5, 5)" } }));
    let saved = served.transcript();
    let dir = std::env::temp_dir().join(format!("tabula-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.txt");
    repl(
        PAWNS,
        4,
        &format!(
            "play move(5, 2, 5, 4)\nplay move(6, 7, 6, 5)\nplay move(5, 4, 5, 5)\nsave {}\n",
            file.display()
        ),
    );
    let written = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(saved, written);
    assert_eq!(saved.lines().last(), Some("play x=move(5, 4, 5, 5) o=noop"));

    let fresh = serve(PAWNS, 9);
    let loaded = fresh.change("/api/transcript", json!({ "text": saved }));
    let original = served.state();
    assert_eq!(loaded["step"], 3);
    assert_eq!(loaded["facts"], original["facts"]);
    assert_eq!(loaded["svg"], original["svg"]);
    assert_eq!(fresh.transcript(), saved);
}

#[test]
fn tablan_throws_at_random_or_as_told_and_agents_and_hints_play_any_role() {
    let served = serve(TABLAN, 6);
    let start = served.state();
    let nature = role(&start, "random");
    assert_eq!(nature["nature"], true);
    assert_eq!(nature["choosing"], true);
    assert_eq!(nature["moves"][0]["probability"], "1/2");
    // Forced: the outcome named, as `roll OUTCOME` in the REPL.
    let thrown = served.change("/api/roll", json!({ "outcome": "first(green)" }));
    assert_eq!(
        thrown["last_move"],
        "yellow=noop green=noop random=first(green)"
    );
    let throw = move_texts(&thrown, "random");
    assert_eq!(throw.len(), 4);
    let sticks = served.change("/api/roll", json!({ "outcome": "sticks(8)" }));
    let out = repl(TABLAN, 6, "roll first(green)\nroll sticks(8)\nstate\n");
    let facts = strings(&sticks["facts"]);
    let shown: Vec<&str> = out.lines().rev().take(facts.len()).collect();
    let shown: Vec<String> = shown.into_iter().rev().map(String::from).collect();
    assert_eq!(facts, shown);
    // Random: the session's generator, as the REPL's `roll` with that seed.
    let other = serve(TABLAN, 6);
    let random = other.change("/api/roll", json!({}));
    let out = repl(TABLAN, 6, "roll\n");
    let line = random["last_move"].as_str().unwrap();
    assert!(out.lines().any(|l| l == line), "{line} in\n{out}");

    // An agent for a role, then one step by the agents.
    let step = sticks["step"].as_u64().unwrap();
    let moved = served.change("/api/auto", json!({ "agents": { "green": "mcts:50" } }));
    assert_eq!(moved["step"], step + 1);
    assert_eq!(role(&moved, "green")["agent"], "mcts:50");
    assert_eq!(role(&moved, "yellow")["agent"], "random");

    // A hint searches from here without changing anything.
    let mut now = served.state();
    while role(&now, "random")["choosing"] == true || now["over"] == true {
        now = served.change("/api/auto", json!({}));
    }
    let (status, hint) = served.post(
        "/api/hint",
        &json!({ "step": now["step"], "search": "200" }),
    );
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["search"], "mcts:200");
    let roles = hint["roles"].as_array().unwrap();
    assert!(!roles.is_empty());
    for r in roles {
        let name = r["role"].as_str().unwrap();
        let mut hinted: Vec<String> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect();
        let mut legal = move_texts(&now, name);
        hinted.sort();
        legal.sort();
        assert_eq!(hinted, legal);
    }
    assert_eq!(served.state(), now);
}

#[test]
fn a_kif_game_without_a_board_shows_its_facts() {
    let served = serve("tests/repl/count.kif", 1);
    let state = served.state();
    assert_eq!(state["cells"], json!([]));
    assert_eq!(strings(&state["facts"]), ["(control a)", "(count 0)"]);
    assert!(state["svg"].as_str().unwrap().contains("(count 0)"));
    let next = served.change("/api/play", json!({ "moves": { "a": "(add 2)" } }));
    assert_eq!(strings(&next["facts"]), ["(control b)", "(count 2)"]);
    assert_eq!(next["last_move"], "a=(add 2) b=noop");
    let end = served.change("/api/play", json!({ "moves": { "b": "(add 2)" } }));
    assert_eq!(end["over"], true);
    assert_eq!(
        end["goals"],
        json!([{ "role": "a", "goal": 0 }, { "role": "b", "goal": 100 }])
    );
}

#[test]
fn the_page_and_its_script_come_from_the_binary() {
    let served = serve(PAWNS, 1);
    let (status, page) = served.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/page.js\">"));
    assert_eq!(served.get("/page.js").0, 200);
    assert_eq!(served.get("/page.css").0, 200);
    assert_eq!(served.get("/api/state?fresh=1").0, 200);
}
