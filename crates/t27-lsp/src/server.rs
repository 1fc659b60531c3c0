//! The message loop: documents in, analyses and diagnostics out, one answer per request.

use crate::checks::Checks;
use crate::convert::{LineIndex, path_of, uri_of};
use crate::workspace::Workspace;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions,
    CompletionOptions, Diagnostic as LspDiagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, ExecuteCommandOptions, InitializeParams, Location, NumberOrString, OneOf,
    PublishDiagnosticsParams, RenameOptions, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, WorkDoneProgressOptions,
};
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use t27_diag::Severity;
use t27_ide::Analysis;

/// The command a code lens gives to run one test block: arguments `[uri, name]`.
pub const COMMAND_RUN_TEST: &str = "t27.runTest";

pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), ":".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::SOURCE_FIX_ALL,
            ]),
            ..CodeActionOptions::default()
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![COMMAND_RUN_TEST.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// Answers `initialize`, then serves until `shutdown` and `exit`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let params = connection.initialize(caps).map_err(|e| e.to_string())?;
    let params: InitializeParams = serde_json::from_value(params).map_err(|e| e.to_string())?;
    let mut server = Server::new(connection, &params);
    server.watch_files(&params);
    server.refresh();
    loop {
        let Ok(message) = connection.receiver.recv() else {
            return Ok(());
        };
        if server.handle(message)? {
            return Ok(());
        }
        // Changes that arrived together are checked once.
        while let Ok(message) = connection.receiver.try_recv() {
            if server.handle(message)? {
                return Ok(());
            }
        }
        server.refresh();
    }
}

/// A request's failure: the error response it gets.
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
}

impl Failure {
    pub fn invalid(message: impl Into<String>) -> Failure {
        Failure {
            code: ErrorCode::InvalidParams,
            message: message.into(),
        }
    }
    pub fn failed(message: impl Into<String>) -> Failure {
        Failure {
            code: ErrorCode::RequestFailed,
            message: message.into(),
        }
    }
}

pub struct Server<'c> {
    pub connection: &'c Connection,
    pub workspace: Workspace,
    pub checks: Checks,
    /// What was last published for each file, to send only what changed.
    published: HashMap<PathBuf, Vec<LspDiagnostic>>,
}

impl<'c> Server<'c> {
    fn new(connection: &'c Connection, params: &InitializeParams) -> Server<'c> {
        let mut folders: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .map(|f| path_of(&f.uri))
            .collect();
        #[allow(deprecated)]
        if folders.is_empty()
            && let Some(root) = &params.root_uri
        {
            folders.push(path_of(root));
        }
        Server {
            connection,
            workspace: Workspace::new(folders),
            checks: Checks::default(),
            published: HashMap::new(),
        }
    }

    /// Asks a client that can watch files for us to say when a spec is created, changed or
    /// deleted on disk (by another program: a checkout, a generator), so that what imports it
    /// is checked again.
    fn watch_files(&self, params: &InitializeParams) {
        let can = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        if !can {
            return;
        }
        let options = lsp_types::DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![lsp_types::FileSystemWatcher {
                glob_pattern: lsp_types::GlobPattern::String("**/*.t27".to_string()),
                kind: None,
            }],
        };
        let registration = lsp_types::Registration {
            id: "t27-watched-files".to_string(),
            method: note::DidChangeWatchedFiles::METHOD.to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        let params = lsp_types::RegistrationParams {
            registrations: vec![registration],
        };
        // The client's answer needs nothing more from us.
        self.send(Message::Request(Request::new(
            lsp_server::RequestId::from("t27-watched-files".to_string()),
            "client/registerCapability".to_string(),
            params,
        )));
    }

    /// Handles one message; `true` when the client has said `exit`.
    fn handle(&mut self, message: Message) -> Result<bool, String> {
        match message {
            Message::Request(req) => {
                // After `shutdown` a client that goes away without `exit` has still ended the
                // session as the protocol wants (`handle_shutdown` waits for `exit`).
                if req.method == "shutdown" {
                    let _ = self.connection.handle_shutdown(&req);
                    return Ok(true);
                }
                self.refresh();
                let id = req.id.clone();
                let answered = catch_unwind(AssertUnwindSafe(|| self.answer(req)));
                let response = answered.unwrap_or_else(|_| {
                    Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        "t27 failed on this request (a bug: please report it with the file)".into(),
                    )
                });
                self.send(Message::Response(response));
            }
            Message::Notification(n) => {
                if n.method == note::Exit::METHOD {
                    return Ok(true);
                }
                self.notification(n);
            }
            Message::Response(_) => {}
        }
        Ok(false)
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp_types::DidOpenTextDocumentParams>(
                    note::DidOpenTextDocument::METHOD,
                ) {
                    let doc = p.text_document;
                    let path = path_of(&doc.uri);
                    let known = self.workspace.files.contains(&path);
                    // The text the latest analysis checked (the disk's, usually): nothing to do.
                    let same =
                        self.checks.analysis.as_ref().is_some_and(|a| {
                            a.file_id(&path).is_some_and(|f| a.text(f) == doc.text)
                        });
                    self.workspace.open(&doc.uri, doc.text, doc.version);
                    match (known, same) {
                        (false, _) => self.checks.all_changed(),
                        (true, false) => self.checks.changed(path),
                        (true, true) => {}
                    }
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp_types::DidChangeTextDocumentParams>(
                    note::DidChangeTextDocument::METHOD,
                ) {
                    let path = path_of(&p.text_document.uri);
                    if let Some(doc) = self.workspace.documents.get_mut(&path) {
                        for change in p.content_changes {
                            match change.range {
                                None => doc.text = change.text,
                                Some(range) => {
                                    let span = LineIndex::new(&doc.text).span(range);
                                    doc.text.replace_range(span.range(), &change.text);
                                }
                            }
                        }
                        doc.version = p.text_document.version;
                        self.checks.changed(path);
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp_types::DidCloseTextDocumentParams>(
                    note::DidCloseTextDocument::METHOD,
                ) {
                    self.workspace
                        .documents
                        .remove(&path_of(&p.text_document.uri));
                    self.checks.all_changed();
                }
            }
            note::DidSaveTextDocument::METHOD | note::DidChangeWatchedFiles::METHOD => {
                self.workspace.find_files();
                self.checks.all_changed();
            }
            _ => {}
        }
    }

    /// Checks again what changed since the last analysis, and publishes what moved.
    pub fn refresh(&mut self) {
        if let Some(checked) = self.checks.refresh(&self.workspace) {
            self.log(&checked.log);
            self.publish(&checked.files);
        }
    }

    /// The analysis of the whole workspace, for a request that needs every module.
    pub fn whole(&mut self) -> Option<&Analysis> {
        if let Some(checked) = self.checks.ensure_whole(&self.workspace) {
            self.log(&checked.log);
            self.publish(&checked.files);
        }
        self.checks.analysis.as_ref()
    }

    /// The analysis to answer about `path`: the latest, if it holds the file, else the
    /// workspace's.
    pub fn analysis_of(&mut self, path: &Path) -> Option<&Analysis> {
        let holds = self
            .checks
            .analysis
            .as_ref()
            .is_some_and(|a| a.file_id(path).is_some());
        if holds {
            self.checks.analysis.as_ref()
        } else {
            self.whole()
        }
    }

    /// Publishes the diagnostics of `files` (what the latest analysis decides) that differ
    /// from what was published; a file no longer checked gets an empty list.
    fn publish(&mut self, files: &[PathBuf]) {
        let Some(analysis) = &self.checks.analysis else {
            return;
        };
        let mut out = Vec::new();
        for path in files {
            let diags = analysis.diagnostics(path);
            // One line index for the file's diagnostics (a file may have hundreds).
            let index = diags.first().map(|d| LineIndex::new(analysis.text(d.file)));
            let diags: Vec<LspDiagnostic> = diags
                .into_iter()
                .filter_map(|d| Some(to_lsp(analysis, d, index.as_ref()?)))
                .collect();
            if self
                .published
                .get(path)
                .map_or(!diags.is_empty(), |old| *old != diags)
            {
                out.push((path.clone(), diags.clone()));
            }
            self.published.insert(path.clone(), diags);
        }
        // A file the workspace no longer has (deleted, or a closed document outside it).
        let known = self.workspace.requested();
        let gone: Vec<PathBuf> = self
            .published
            .keys()
            .filter(|p| !known.contains(p))
            .cloned()
            .collect();
        for path in gone {
            if self.published.remove(&path).is_some_and(|d| !d.is_empty()) {
                out.push((path, Vec::new()));
            }
        }
        for (path, diagnostics) in out {
            let Some(uri) = uri_of(&path) else { continue };
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: self.workspace.version(&path),
            };
            self.send(Message::Notification(Notification::new(
                note::PublishDiagnostics::METHOD.to_string(),
                params,
            )));
        }
    }

    pub fn send(&self, message: Message) {
        // A closed channel means the client is gone; the loop ends when it reads that.
        let _ = self.connection.sender.send(message);
    }

    pub fn log(&self, message: &str) {
        let params = lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::LOG,
            message: message.to_string(),
        };
        self.send(Message::Notification(Notification::new(
            note::LogMessage::METHOD.to_string(),
            params,
        )));
    }

    fn answer(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match crate::handlers::dispatch(self, req) {
            Some(Ok(value)) => Response::new_ok(id, value),
            Some(Err(f)) => Response::new_err(id, f.code as i32, f.message),
            None => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                "t27 does not answer this request".into(),
            ),
        }
    }
}

/// A t27 diagnostic as LSP's: the code, the span, the message with its label, notes and
/// help (as `t27 check` prints them), the other labels as related locations.
/// `index` is the line index of the diagnostic's file.
pub fn to_lsp(analysis: &Analysis, d: &t27_diag::Diagnostic, index: &LineIndex) -> LspDiagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() {
        message.push_str(&format!("\n{}", d.primary.message));
    }
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .filter_map(|l| {
            let uri = uri_of(analysis.path_of(l.file))?;
            let range = LineIndex::new(analysis.text(l.file)).range(l.span);
            Some(DiagnosticRelatedInformation {
                location: Location { uri, range },
                message: l.message.clone(),
            })
        })
        .collect();
    LspDiagnostic {
        range: index.range(d.primary.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.0.to_string())),
        source: Some("t27".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..LspDiagnostic::default()
    }
}
