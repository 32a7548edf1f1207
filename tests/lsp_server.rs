//! The language server in process: a client on a memory connection opens
//! the race fixture (`tests/lsp/fixtures/`: a base and a variant that
//! extends it), edits it and checks every answer exactly. The end-to-end
//! tests with real clients are in `tests/lsp/` (pytest-lsp, Neovim).

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Long enough for any answer; a server that hangs fails here instead of
/// hanging the test run (this is a deadline, not a measure of speed).
const DEADLINE: Duration = Duration::from_secs(120);

struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<i32>>,
    next_id: i32,
    /// Notifications received while waiting for answers.
    notifications: Vec<Notification>,
}

fn fixture(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lsp/fixtures")
        .join(name);
    std::fs::canonicalize(path).expect("the fixture exists")
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// `(line, character)` of the first `needle` in a fixture's text, plus
/// `offset` characters.
fn at(name: &str, needle: &str, offset: u32) -> Value {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    let i = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` in {name}"));
    let line = text[..i].matches('\n').count() as u32;
    let column = (i - text[..i].rfind('\n').map_or(0, |n| n + 1)) as u32;
    json!({"line": line, "character": column + offset})
}

impl Client {
    fn start() -> Client {
        let (server, connection) = Connection::memory();
        let server = std::thread::spawn(move || tabula::lsp::serve(server));
        let mut client = Client {
            connection,
            server: Some(server),
            next_id: 0,
            notifications: Vec::new(),
        };
        let root = uri(&fixture(""));
        client.request("initialize", json!({"capabilities": {}, "rootUri": root}));
        client.notify("initialized", json!({}));
        client
    }

    fn notify(&self, method: &str, params: Value) {
        let note = Notification::new(method.to_string(), params);
        self.connection
            .sender
            .send(note.into())
            .expect("the server listens");
    }

    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_string(), params);
        self.connection
            .sender
            .send(request.into())
            .expect("the server listens");
        loop {
            match self
                .connection
                .receiver
                .recv_timeout(DEADLINE)
                .expect("an answer")
            {
                Message::Response(r) if r.id == id => return r,
                Message::Notification(n) => self.notifications.push(n),
                _ => {}
            }
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.error.is_none(), "{method}: {:?}", response.error);
        response.result.unwrap_or(Value::Null)
    }

    fn open(&self, name: &str, text: &str) {
        let doc =
            json!({"uri": uri(&fixture(name)), "languageId": "tabula", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    /// The first diagnostics published for `name` at `version`.
    fn diagnostics(&mut self, name: &str, version: i64) -> Vec<Value> {
        let wanted = uri(&fixture(name));
        loop {
            let found = self.notifications.iter().find(|n| {
                n.method == "textDocument/publishDiagnostics"
                    && n.params["uri"] == wanted
                    && n.params["version"] == version
            });
            if let Some(n) = found {
                return n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
            match self
                .connection
                .receiver
                .recv_timeout(DEADLINE)
                .expect("diagnostics")
            {
                Message::Notification(n) => self.notifications.push(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    fn position(&self, name: &str, needle: &str, offset: u32) -> Value {
        json!({"textDocument": {"uri": uri(&fixture(name))}, "position": at(name, needle, offset)})
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(server) = self.server.take() {
            assert_eq!(server.join().expect("the server ends"), 0);
        }
    }
}

fn text_of(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).expect("fixture")
}

/// `(line, column, code, message)` of the first diagnostic `tabula check`
/// prints for a text, written beside the fixtures (so that `extends` finds
/// the base) under a name of its own.
fn check_cli(name: &str, text: &str) -> (u64, u64, String, String) {
    let path = fixture("").join(name);
    std::fs::write(&path, text).expect("a scratch file");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["check", "--playouts", "0"])
        .arg(&path)
        .output()
        .expect("tabula runs");
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().expect("a diagnostic");
    let rest = first
        .strip_prefix(&format!("{}:", path.display()))
        .expect("the file's name");
    let mut parts = rest.splitn(3, ':');
    let line: u64 = parts.next().unwrap().parse().unwrap();
    let column: u64 = parts.next().unwrap().parse().unwrap();
    let rest = parts.next().unwrap().trim();
    let code = rest[rest.find('[').unwrap() + 1..rest.find(']').unwrap()].to_string();
    let message = rest[rest.find("]: ").unwrap() + 3..].to_string();
    (line, column, code, message)
}

#[test]
fn diagnostics_as_you_type_are_those_of_check() {
    let mut client = Client::start();
    let text = text_of("race.rules");
    client.open("race.rules", &text);
    assert_eq!(client.diagnostics("race.rules", 1), Vec::<Value>::new());
    // Two edits: `at` with one argument (an arity error), then a missing `.`.
    let edits = [
        ("true at(R, goal_at).", "true at(R).", "scratch_arity.rules"),
        (
            "not does(R, step).",
            "not does(R, step)",
            "scratch_stop.rules",
        ),
    ];
    let mut current = text.clone();
    for (version, (old, new, scratch)) in (2..).zip(edits) {
        let start = at_text(&current, old);
        let end = json!({"line": start["line"], "character": start["character"].as_u64().unwrap() + old.len() as u64});
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(&fixture("race.rules")), "version": version},
                   "contentChanges": [{"range": {"start": start, "end": end}, "text": new}]}),
        );
        current = current.replacen(old, new, 1);
        let published = client.diagnostics("race.rules", version);
        let (line, column, code, message) = check_cli(scratch, &current);
        let first = &published[0];
        assert_eq!(
            first["range"]["start"],
            json!({"line": line - 1, "character": column - 1})
        );
        assert_eq!(first["code"], code.as_str());
        assert_eq!(
            first["message"].as_str().unwrap().lines().next(),
            Some(message.as_str())
        );
        assert_eq!(first["source"], "tabula");
    }
}

/// The position of `needle` in a text.
fn at_text(text: &str, needle: &str) -> Value {
    let i = text.find(needle).expect("needle");
    let line = text[..i].matches('\n').count();
    let column = i - text[..i].rfind('\n').map_or(0, |n| n + 1);
    json!({"line": line, "character": column})
}

#[test]
fn a_variant_shows_the_errors_of_its_open_base_at_its_extends_line() {
    let mut client = Client::start();
    client.open("race_short.rules", &text_of("race_short.rules"));
    assert_eq!(
        client.diagnostics("race_short.rules", 1),
        Vec::<Value>::new()
    );
    // The base, open and edited (not saved): `terminal` loses its `.`.
    let broken =
        text_of("race.rules").replacen("goal_at).\ngoal(R, 100)", "goal_at)\ngoal(R, 100)", 1);
    client.open("race.rules", &broken);
    let in_variant = client.diagnostics("race_short.rules", 1);
    let _ = in_variant;
    let published = loop {
        let all: Vec<&Notification> = client
            .notifications
            .iter()
            .filter(|n| n.params["uri"] == uri(&fixture("race_short.rules")))
            .collect();
        if all.len() >= 2 {
            break all[1].params["diagnostics"].clone();
        }
        match client
            .connection
            .receiver
            .recv_timeout(DEADLINE)
            .expect("diagnostics")
        {
            Message::Notification(n) => client.notifications.push(n),
            other => panic!("unexpected {other:?}"),
        }
    };
    let first = &published[0];
    assert_eq!(first["code"], "E0001");
    assert_eq!(
        first["range"]["start"],
        json!({"line": 0, "character": 0}),
        "at `extends`"
    );
    let message = first["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("in {}:17:", fixture("race.rules").display())),
        "{message}"
    );
    let related = &first["relatedInformation"][0]["location"];
    assert_eq!(related["uri"], uri(&fixture("race.rules")));
}

#[test]
fn hover_tells_arity_definition_declaration_and_documentation() {
    let mut client = Client::start();
    client.open("race.rules", &text_of("race.rules"));
    let hover = |client: &mut Client, needle: &str, offset: u32| {
        let result = client.result(
            "textDocument/hover",
            client.position("race.rules", needle, offset),
        );
        result["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let at = hover(&mut client, "true at(R, N), N <", 6);
    assert!(at.starts_with("**relation** `at/2` (arity 2)\n\ndefined at race.rules:7, race.rules:8, race.rules:15, race.rules:16"), "{at}");
    assert!(
        at.ends_with("```\ninit at(x, 0).\n```\n\nWhere a player stands."),
        "{at}"
    );
    let step = hover(&mut client, "rule step", 6);
    assert!(
        step.starts_with("**label** `step`\n\ndefined at race.rules:12"),
        "{step}"
    );
    assert!(step.ends_with("A step forward."), "{step}");
    let goal_at = hover(&mut client, "N < goal_at", 5);
    assert!(
        goal_at.starts_with("**parameter** `goal_at`\n\ndefined at race.rules:4"),
        "{goal_at}"
    );
    let turn = hover(&mut client, "turn x", 1);
    assert!(turn.starts_with("`turn`\n"), "{turn}");
    // `role` comes from the `roles` declaration (known once the checker
    // read the file).
    client.diagnostics("race.rules", 1);
    let role = hover(&mut client, "role(R), true", 1);
    assert!(
        role.contains("generated by the `roles` declaration at race.rules:2: `roles x, o.`"),
        "{role}"
    );
}

#[test]
fn definitions_and_references_cross_extends() {
    let mut client = Client::start();
    client.open("race_short.rules", &text_of("race_short.rules"));
    let base = uri(&fixture("race.rules"));
    let variant = uri(&fixture("race_short.rules"));
    let found = client.result(
        "textDocument/definition",
        client.position("race_short.rules", "replace step", 9),
    );
    assert_eq!(
        found,
        json!([{"uri": base, "range": {"start": {"line": 11, "character": 9}, "end": {"line": 11, "character": 13}}}])
    );
    let found = client.result(
        "textDocument/definition",
        client.position("race_short.rules", "N < goal_at", 5),
    );
    let places: Vec<(String, u64)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap().to_string(),
                l["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        places,
        [(variant.clone(), 1), (base.clone(), 3)],
        "the variant's value, then the base's"
    );
    // From the base: every use in the base and in the variant.
    client.open("race.rules", &text_of("race.rules"));
    let mut params = client.position("race.rules", "goal_at = 3", 0);
    params["context"] = json!({"includeDeclaration": true});
    let found = client.result("textDocument/references", params.clone());
    let count = |uri: &str| {
        found
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["uri"] == uri)
            .count()
    };
    assert_eq!((count(&base), count(&variant)), (6, 2));
    params["context"] = json!({"includeDeclaration": false});
    let found = client.result("textDocument/references", params);
    assert_eq!(
        found.as_array().unwrap().len(),
        6,
        "without the two `param` lines"
    );
}

#[test]
fn rename_changes_the_base_and_its_variants() {
    let mut client = Client::start();
    client.open("race.rules", &text_of("race.rules"));
    let base = uri(&fixture("race.rules"));
    let variant = uri(&fixture("race_short.rules"));
    let mut params = client.position("race.rules", "rule step", 5);
    params["newName"] = json!("stride");
    let edit = client.result("textDocument/rename", params);
    assert_eq!(
        edit["changes"][&base],
        json!([{"range": {"start": {"line": 11, "character": 9}, "end": {"line": 11, "character": 13}}, "newText": "stride"}])
    );
    assert_eq!(
        edit["changes"][&variant],
        json!([{"range": {"start": {"line": 2, "character": 8}, "end": {"line": 2, "character": 12}}, "newText": "stride"}])
    );
    let mut params = client.position("race.rules", "init at", 5);
    params["newName"] = json!("pos");
    let edit = client.result("textDocument/rename", params);
    let edits = |uri: &str| edit["changes"][uri].as_array().map_or(0, Vec::len);
    assert_eq!((edits(&base), edits(&variant)), (10, 1));
    for (needle, offset, name, why) in [
        (
            "role(R), true",
            1,
            "player",
            "`role` is a name GDL reserves",
        ),
        ("init at", 5, "Pos", "`Pos` is not a name"),
        ("init at", 5, "legal", "`legal` is a name GDL reserves"),
    ] {
        let mut params = client.position("race.rules", needle, offset);
        params["newName"] = json!(name);
        let response = client.request("textDocument/rename", params);
        let message = response.error.expect("refused").message;
        assert!(message.starts_with(why), "{message}");
    }
}

#[test]
fn completion_offers_labels_names_parameters_and_keywords() {
    let mut client = Client::start();
    let text = format!("{}replace \nstep_done :- go", text_of("race_short.rules"));
    client.open("race_short.rules", &text);
    let labels = |result: Value| -> Vec<String> {
        result
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let after_replace = json!({"textDocument": {"uri": uri(&fixture("race_short.rules"))}, "position": {"line": 3, "character": 8}});
    assert_eq!(
        labels(client.result("textDocument/completion", after_replace)),
        ["step"]
    );
    let in_body = json!({"textDocument": {"uri": uri(&fixture("race_short.rules"))}, "position": {"line": 4, "character": 15}});
    let offered = client.result("textDocument/completion", in_body);
    let kind_of = |label: &str| {
        offered
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == label)
            .map(|i| i["kind"].clone())
    };
    assert_eq!(
        kind_of("goal_at"),
        Some(json!(21)),
        "a constant: the parameter"
    );
    assert_eq!(kind_of("at"), Some(json!(3)), "a function: the relation");
    assert_eq!(kind_of("step"), Some(json!(12)), "a value: a move's name");
    assert_eq!(kind_of("board"), None, "no keyword inside a rule");
    let at_start = json!({"textDocument": {"uri": uri(&fixture("race_short.rules"))}, "position": {"line": 3, "character": 0}});
    let offered = client.result("textDocument/completion", at_start);
    assert!(labels(offered).contains(&"board".to_string()));
}

#[test]
fn symbols_of_the_document_and_of_the_workspace() {
    let mut client = Client::start();
    client.open("race.rules", &text_of("race.rules"));
    let symbols = client.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&fixture("race.rules"))}}),
    );
    let names: Vec<String> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "roles",
            "turn",
            "goal_at",
            "init at/2",
            "steps",
            "next at/2",
            "terminal/0",
            "goal/2"
        ]
    );
    let steps = &symbols[4]["children"];
    assert_eq!(steps[0]["name"], "step");
    assert_eq!(
        steps[0]["detail"],
        "can_step: rule step: can_step(R, step) :- role(R), true at(R, N), N < goal_at."
    );
    let found = client.result("workspace/symbol", json!({"query": "GOAL_"}));
    let found: Vec<(String, String)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["containerName"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        found.contains(&("goal_at".to_string(), "race.rules".to_string())),
        "{found:?}"
    );
    assert!(
        found.contains(&("goal_at".to_string(), "race_short.rules".to_string())),
        "{found:?}"
    );
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let mut client = Client::start();
    let response = client.request("textDocument/hover", json!({"textDocument": 5}));
    assert_eq!(
        response.error.expect("an error").code,
        lsp_server::ErrorCode::InvalidParams as i32
    );
    let response = client.request("textDocument/unknown", json!({}));
    assert_eq!(
        response.error.expect("an error").code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    // A document nobody opened, positions far outside a document.
    let nowhere = json!({"textDocument": {"uri": "file:///no/such.rules"}, "position": {"line": 0, "character": 0}});
    assert_eq!(client.result("textDocument/hover", nowhere), Value::Null);
    client.open("race.rules", "p(");
    let far = json!({"textDocument": {"uri": uri(&fixture("race.rules"))}, "position": {"line": 99, "character": 99}});
    assert_eq!(
        client.result("textDocument/definition", far.clone()),
        json!([])
    );
    assert_eq!(client.diagnostics("race.rules", 1)[0]["code"], "E0001");
}
