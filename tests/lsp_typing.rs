//! Robustness of `tabula lsp`: every shipped game typed into the real
//! server (the binary, over its standard input and output) from an empty
//! document by incremental changes, with a request after each change.
//!
//! Small files are typed one character at a time; large ones a few at a
//! time, every change still ending at each line end and each `.`, so that
//! the server sees every prefix that ends a statement. After each change
//! it must answer a hover at the cursor (without an error); at the end its
//! diagnostics must be those of `tabula check`: none, every shipped game is
//! clean. Then bytes that are not UTF-8 and frames that are not JSON: the
//! server must go on answering.

mod common;

use common::rules_files;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A deadline against a hang, not a measure of speed.
const DEADLINE: Duration = Duration::from_secs(120);
/// Files longer than this are typed [`STEP`] characters at a time.
const SMALL: usize = 3000;
const STEP: usize = 16;

struct Server {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    /// The last diagnostics published per URI, with their version, kept
    /// when they arrive while a response is awaited.
    published: HashMap<String, (Value, Value)>,
}

impl Server {
    /// `shutdown`, then `exit`: the server answers and ends with code 0.
    fn shut_down(mut self) {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null);
        self.notify("exit", Value::Null);
        assert_eq!(self.child.wait().expect("the server ends").code(), Some(0));
    }

    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tabula lsp starts");
        let input = child.stdin.take().expect("stdin");
        let mut output = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, messages) = channel();
        std::thread::spawn(move || {
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if output.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    match line.trim().split_once(':') {
                        Some((name, value)) if name.eq_ignore_ascii_case("content-length") => {
                            length = value.trim().parse().expect("a length")
                        }
                        _ if line.trim().is_empty() => break,
                        _ => {}
                    }
                }
                let mut body = vec![0; length];
                output.read_exact(&mut body).expect("a body");
                if send
                    .send(serde_json::from_slice(&body).expect("JSON"))
                    .is_err()
                {
                    return;
                }
            }
        });
        let mut server = Server {
            child,
            input,
            messages,
            next_id: 0,
            published: HashMap::new(),
        };
        server.request("initialize", json!({"capabilities": {}}));
        server.notify("initialized", json!({}));
        server
    }

    fn send_bytes(&mut self, body: &[u8]) {
        write!(self.input, "Content-Length: {}\r\n\r\n", body.len()).expect("write");
        self.input.write_all(body).expect("write");
        self.input.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        let body = json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string();
        self.send_bytes(body.as_bytes());
    }

    /// Sends a request and returns its response (skipping notifications).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_bytes(body.to_string().as_bytes());
        self.response(id)
    }

    fn response(&mut self, id: u64) -> Value {
        loop {
            let message = self
                .messages
                .recv_timeout(DEADLINE)
                .expect("the server answers");
            if message["id"] == id {
                return message;
            }
            self.keep(message);
        }
    }

    /// Keeps a message if it publishes diagnostics (the last per URI).
    fn keep(&mut self, message: Value) {
        if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            if let Some(uri) = params["uri"].as_str() {
                let entry = (params["version"].clone(), params["diagnostics"].clone());
                self.published.insert(uri.to_string(), entry);
            }
        }
    }

    /// The diagnostics published for `uri` at `version`, whether they came
    /// before or after the last response.
    fn diagnostics(&mut self, uri: &str, version: u64) -> Value {
        loop {
            if let Some((v, diagnostics)) = self.published.get(uri)
                && *v == version
            {
                return diagnostics.clone();
            }
            let m = self.messages.recv_timeout(DEADLINE).expect("diagnostics");
            self.keep(m);
        }
    }
}

/// Pieces of `text` of at most `step` bytes, each line end and `.` closing
/// a piece.
fn chunks(text: &str, step: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let end = i + c.len_utf8();
        if end - start >= step || c == '.' || c == '\n' {
            pieces.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    pieces
}

/// The protocol position of the end of a text (ASCII: characters are
/// UTF-16 units).
fn end_of(text: &str) -> Value {
    let line = text.matches('\n').count();
    let character = text.len() - text.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": character})
}

#[test]
fn typing_every_shipped_game_never_stops_the_server() {
    let mut server = Server::start();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games: Vec<PathBuf> = rules_files("games").iter().map(|p| root.join(p)).collect();
    assert!(games.len() >= 14, "{games:?}");
    for game in games {
        let text = std::fs::read_to_string(&game).expect("a game");
        assert!(
            text.is_ascii(),
            "positions below count bytes as UTF-16 units"
        );
        let uri = format!("file://{}", std::fs::canonicalize(&game).unwrap().display());
        let doc = json!({"uri": uri, "languageId": "tabula", "version": 1, "text": ""});
        server.notify("textDocument/didOpen", json!({"textDocument": doc}));
        let step = if text.len() <= SMALL { 1 } else { STEP };
        let mut typed = String::new();
        let mut version = 1;
        for piece in chunks(&text, step) {
            version += 1;
            let at = end_of(&typed);
            server.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version},
                       "contentChanges": [{"range": {"start": at, "end": at}, "text": piece}]}),
            );
            typed.push_str(piece);
            let answer = server.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": end_of(&typed)}),
            );
            assert!(
                answer.get("error").is_none(),
                "{}: {answer}",
                game.display()
            );
        }
        assert_eq!(typed, text);
        // The whole text once more, so that its diagnostics are awaited
        // from a known version on.
        version += 1;
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
        assert_eq!(
            server.diagnostics(&uri, version),
            json!([]),
            "{}",
            game.display()
        );
        server.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    server.shut_down();
}

#[test]
fn bytes_that_are_not_utf8_or_not_json_do_not_stop_the_server() {
    let mut server = Server::start();
    let uri = "file:///tmp/not_text.rules";
    // The text holds two bytes that are not UTF-8: read as U+FFFD.
    let mut open = br#"{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///tmp/not_text.rules", "languageId": "tabula", "version": 1, "text": "roles x.\np("#.to_vec();
    open.extend_from_slice(b"\xff\xfe");
    open.extend_from_slice(br#")."}}}"#);
    server.send_bytes(&open);
    server.send_bytes(b"{ this is not json");
    server.send_bytes(b"\xff\xff\xff");
    let answer = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}),
    );
    assert!(
        answer["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("`roles`"),
        "{answer}"
    );
    let published = server.diagnostics(uri, 1);
    assert_eq!(published[0]["code"], "E0001", "{published}");
    server.shut_down();
}
