//! An in-memory LSP client: the server's own loop on a thread, driven through
//! `Connection::memory()`.

#![allow(dead_code)]

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

pub const WAIT: Duration = Duration::from_secs(60);

/// A response, as its two halves.
#[derive(Debug)]
pub struct Reply {
    pub result: Option<Value>,
    pub error: Option<lsp_server::ResponseError>,
}

pub struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next_id: i32,
    /// Notifications read while waiting for a response.
    pub notifications: VecDeque<Notification>,
    /// Requests the server sent, answered.
    pub requests: Vec<Request>,
    versions: std::collections::HashMap<String, i32>,
}

/// The language server's fixture workspace (`tests/fixtures/lsp`).
pub fn fixture_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    t27_check::normalize(&here.join("../../tests/fixtures/lsp"))
}

pub fn uri(path: &Path) -> String {
    lsp_types::Url::from_file_path(path)
        .expect("an absolute path")
        .to_string()
}

pub fn fixture_uri(relative: &str) -> String {
    uri(&fixture_root().join(relative))
}

pub fn fixture_text(relative: &str) -> String {
    std::fs::read_to_string(fixture_root().join(relative)).expect("fixture")
}

impl Client {
    /// Starts a server on `root` and goes through `initialize`.
    pub fn start(root: &Path) -> Client {
        Client::start_with(root, json!({}))
    }

    /// [`Client::start`], the client saying it has `capabilities`.
    pub fn start_with(root: &Path, capabilities: Value) -> Client {
        let (server_side, client_side) = Connection::memory();
        let server = std::thread::spawn(move || t27_lsp::serve(&server_side));
        let mut client = Client {
            conn: client_side,
            server: Some(server),
            next_id: 0,
            notifications: VecDeque::new(),
            requests: Vec::new(),
            versions: Default::default(),
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": capabilities,
                "workspaceFolders": [{ "uri": uri(root), "name": "fixture" }],
            }),
        );
        assert!(init.error.is_none(), "{init:?}");
        client.notify("initialized", json!({}));
        client
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let n = Notification::new(method.to_string(), params);
        self.conn
            .sender
            .send(Message::Notification(n))
            .expect("server alive");
    }

    /// Sends a request and waits for its response, keeping the notifications that come first.
    pub fn request(&mut self, method: &str, params: Value) -> Reply {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let r = Request::new(id.clone(), method.to_string(), params);
        self.conn
            .sender
            .send(Message::Request(r))
            .expect("server alive");
        loop {
            match self.conn.receiver.recv_timeout(WAIT) {
                Ok(Message::Response(resp)) if resp.id == id => {
                    return match resp.response_result {
                        Ok(v) => Reply {
                            result: Some(v),
                            error: None,
                        },
                        Err(e) => Reply {
                            result: None,
                            error: Some(e),
                        },
                    };
                }
                Ok(Message::Notification(n)) => self.notifications.push_back(n),
                Ok(Message::Request(r)) => {
                    // A request of the server's (`client/registerCapability`): kept, answered.
                    let answer = lsp_server::Response::new_ok(r.id.clone(), Value::Null);
                    self.conn
                        .sender
                        .send(Message::Response(answer))
                        .expect("server alive");
                    self.requests.push(r);
                }
                Ok(other) => panic!("unexpected message {other:?}"),
                Err(e) => panic!("no response to {method}: {e}"),
            }
        }
    }

    /// The result of a request that must succeed.
    pub fn ok(&mut self, method: &str, params: Value) -> Value {
        let resp = self.request(method, params);
        assert!(resp.error.is_none(), "{method}: {:?}", resp.error);
        resp.result.unwrap_or(Value::Null)
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.versions.insert(uri.to_string(), 1);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "t27", "version": 1, "text": text } }),
        );
    }

    pub fn change(&mut self, uri: &str, text: &str) {
        let version = self.versions.entry(uri.to_string()).or_insert(1);
        *version += 1;
        let v = *version;
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": v }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// The diagnostics last published for `uri`, after any pending changes were checked (a
    /// request about the document is answered only after that, so its reply orders them).
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        self.ok(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        );
        let found = self
            .notifications
            .iter()
            .rev()
            .find(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
            .map(|n| {
                n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            });
        // Never published: the server had nothing to say about the file.
        found.unwrap_or_default()
    }

    pub fn take_notifications(&mut self, method: &str) -> Vec<Value> {
        let (wanted, rest): (Vec<_>, Vec<_>) = self
            .notifications
            .drain(..)
            .partition(|n| n.method == method);
        self.notifications = rest.into();
        wanted.into_iter().map(|n| n.params).collect()
    }

    pub fn shutdown(mut self) {
        let resp = self.request("shutdown", Value::Null);
        assert!(resp.error.is_none());
        self.notify("exit", Value::Null);
        let served = self
            .server
            .take()
            .expect("running")
            .join()
            .expect("the server thread ended");
        assert_eq!(served, Ok(()));
    }
}

/// The position (line, UTF-16 character) of the `nth` (from 0) occurrence of `needle` in
/// `text`, plus `into` characters.
pub fn pos(text: &str, needle: &str, nth: usize, into: usize) -> Value {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} not in the text"))
        .0
        + into;
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": text[start..at].encode_utf16().count() })
}

/// `text` with LSP text edits applied.
pub fn apply(text: &str, edits: &[Value]) -> String {
    let index = t27_lsp::LineIndex::new(text);
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let range: lsp_types::Range =
                serde_json::from_value(e["range"].clone()).expect("a range");
            let span = index.span(range);
            (
                span.start as usize,
                span.end as usize,
                e["newText"].as_str().expect("text").to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, &new);
    }
    out
}
