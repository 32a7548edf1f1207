//! The language server for `.rules` and `.kif` files (`tabula lsp`).
//!
//! In: the Language Server Protocol's messages on a [`Connection`] (the
//! CLI connects it to standard input and output). Out: its answers. The
//! protocol's types come from `lsp-types`, its messages and handshake from
//! `lsp-server`. Each request is answered on the thread of [`serve`] from
//! the `workspace`'s indexes (`features`); the diagnostics are made on a
//! thread of their own (`check`), so no request waits for grounding or
//! playouts. A request that panics is answered with an error and the
//! server goes on.
//!
//! Formatting is `tabula fmt`'s ([`crate::format`]): one edit replacing
//! the whole document, or none when it is already formatted.

mod check;
mod docs;
mod features;
mod index;
mod text;
mod workspace;

use check::{Job, Shared, Snapshot};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Rename, Request as _, WorkspaceSymbolRequest,
};
use lsp_types::{
    CompletionOptions, CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse,
    HoverProviderCapability, InitializeParams, OneOf, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use std::sync::{Arc, Mutex};
use workspace::Workspace;

/// What the server answers.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        rename_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

/// The server's state on its own thread.
struct Server {
    workspace: Workspace,
    shared: Arc<Mutex<Shared>>,
    jobs: crossbeam_channel::Sender<Job>,
}

/// Serves one client on a connection until it says `exit` or the
/// connection closes; returns the exit code (0 after a `shutdown`
/// request, 1 otherwise).
pub fn serve(connection: Connection) -> i32 {
    let capabilities = serde_json::to_value(capabilities()).unwrap_or_default();
    let params = match connection.initialize(capabilities) {
        Ok(params) => params,
        Err(_) => return 1,
    };
    let params: Option<InitializeParams> = serde_json::from_value(params).ok();
    let shared = Arc::new(Mutex::new(Shared::default()));
    let (jobs, job_receiver) = crossbeam_channel::unbounded();
    let checker = {
        let (shared, out) = (shared.clone(), connection.sender.clone());
        std::thread::spawn(move || check::run(job_receiver, shared, out))
    };
    let mut server = Server {
        workspace: Workspace::new(params.map(roots).unwrap_or_default()),
        shared,
        jobs,
    };
    let mut code = 1;
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if request.method == "shutdown" {
                    code = 0;
                    let _ = connection
                        .sender
                        .send(Response::new_ok(request.id, ()).into());
                    continue;
                }
                let id = request.id.clone();
                let method = request.method.clone();
                let response = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    server.answer(request)
                }))
                .unwrap_or_else(|_| {
                    Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        format!("tabula lsp failed on {method}"),
                    )
                });
                let _ = connection.sender.send(response.into());
            }
            Message::Notification(note) if note.method == "exit" => break,
            Message::Notification(note) => {
                let _ =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.notice(note)));
            }
            Message::Response(_) => {}
        }
    }
    drop(server);
    let _ = checker.join();
    code
}

/// The workspace folders of the initialization (or its root).
#[allow(deprecated)] // `root_uri` is what older clients send.
fn roots(params: InitializeParams) -> Vec<std::path::PathBuf> {
    let mut uris: Vec<Url> = params
        .workspace_folders
        .unwrap_or_default()
        .into_iter()
        .map(|f| f.uri)
        .collect();
    if uris.is_empty() {
        uris.extend(params.root_uri);
    }
    uris.iter().filter_map(|u| u.to_file_path().ok()).collect()
}

/// A request's parameters, or the response that says they are malformed.
fn params<P: serde::de::DeserializeOwned>(request: &Request) -> Result<P, Response> {
    serde_json::from_value(request.params.clone()).map_err(|e| {
        Response::new_err(
            request.id.clone(),
            ErrorCode::InvalidParams as i32,
            format!("malformed parameters of {}: {e}", request.method),
        )
    })
}

impl Server {
    fn answer(&mut self, request: Request) -> Response {
        match self.result(&request) {
            Ok(value) => Response::new_ok(request.id, value),
            Err(response) => response,
        }
    }

    fn result(&mut self, request: &Request) -> Result<serde_json::Value, Response> {
        let ws = &mut self.workspace;
        let shared = &*self.shared;
        let value = match request.method.as_str() {
            HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = params(request)?;
                let at = p.text_document_position_params;
                serde_json::to_value(features::hover(
                    ws,
                    shared,
                    &at.text_document.uri,
                    at.position,
                ))
            }
            GotoDefinition::METHOD => {
                let p: lsp_types::GotoDefinitionParams = params(request)?;
                let at = p.text_document_position_params;
                let found = features::definition(ws, shared, &at.text_document.uri, at.position);
                serde_json::to_value(GotoDefinitionResponse::Array(found))
            }
            References::METHOD => {
                let p: lsp_types::ReferenceParams = params(request)?;
                let at = p.text_document_position;
                let with = p.context.include_declaration;
                serde_json::to_value(features::references(
                    ws,
                    &at.text_document.uri,
                    at.position,
                    with,
                ))
            }
            Completion::METHOD => {
                let p: lsp_types::CompletionParams = params(request)?;
                let at = p.text_document_position;
                let items = features::completion(ws, shared, &at.text_document.uri, at.position);
                serde_json::to_value(CompletionResponse::Array(items))
            }
            Rename::METHOD => {
                let p: lsp_types::RenameParams = params(request)?;
                let at = p.text_document_position;
                match features::rename(ws, shared, &at.text_document.uri, at.position, &p.new_name)
                {
                    Ok(edit) => serde_json::to_value(edit),
                    Err(why) => {
                        return Err(Response::new_err(
                            request.id.clone(),
                            ErrorCode::InvalidRequest as i32,
                            why,
                        ));
                    }
                }
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params(request)?;
                let symbols = features::document_symbols(ws, &p.text_document.uri);
                serde_json::to_value(DocumentSymbolResponse::Nested(symbols))
            }
            Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = params(request)?;
                let refuse = |code: ErrorCode, why: String| {
                    Response::new_err(request.id.clone(), code as i32, why)
                };
                let Some(file) = ws.document_file(&p.text_document.uri) else {
                    let why = format!("{} is not open", p.text_document.uri);
                    return Err(refuse(ErrorCode::InvalidParams, why));
                };
                match features::formatting(&file) {
                    Ok(edits) => serde_json::to_value(edits),
                    Err(why) => return Err(refuse(ErrorCode::RequestFailed, why)),
                }
            }
            WorkspaceSymbolRequest::METHOD => {
                let p: lsp_types::WorkspaceSymbolParams = params(request)?;
                serde_json::to_value(features::workspace_symbols(ws, &p.query))
            }
            other => {
                return Err(Response::new_err(
                    request.id.clone(),
                    ErrorCode::MethodNotFound as i32,
                    format!("tabula lsp does not answer {other}"),
                ));
            }
        };
        Ok(value.unwrap_or_default())
    }

    fn notice(&mut self, note: Notification) {
        let uri = match note.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                else {
                    return;
                };
                let doc = p.text_document;
                self.workspace.open(doc.uri.clone(), doc.version, doc.text);
                doc.uri
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = note.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) else {
                    return;
                };
                let doc = p.text_document;
                self.workspace.change(&doc.uri, doc.version, |text| {
                    for change in p.content_changes {
                        text::apply_change(text, change);
                    }
                });
                doc.uri
            }
            DidSaveTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD)
                else {
                    return;
                };
                p.text_document.uri
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = note
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                else {
                    return;
                };
                let uri = p.text_document.uri;
                let dependents = features::open_dependents(&mut self.workspace, &uri);
                self.workspace.close(&uri);
                self.shared_lock().documents.remove(&uri);
                let _ = self.jobs.send(Job::Closed(uri));
                // Its open variants now read it from disk.
                for dependent in dependents {
                    let _ = self.jobs.send(Job::Check(dependent));
                }
                return;
            }
            _ => return,
        };
        if let Some(doc) = self.workspace.documents.get(&uri) {
            let snapshot = Snapshot {
                path: doc.path.clone(),
                version: doc.version,
                text: doc.text.clone(),
                syntax: doc.syntax,
            };
            self.shared_lock().documents.insert(uri.clone(), snapshot);
        }
        let dependents = features::open_dependents(&mut self.workspace, &uri);
        let _ = self.jobs.send(Job::Check(uri));
        for dependent in dependents {
            let _ = self.jobs.send(Job::Check(dependent));
        }
    }

    fn shared_lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }
}
