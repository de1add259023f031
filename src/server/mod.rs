//! `kafkalint server`: a language server (the Language Server Protocol over a connection,
//! stdio for editors). Each open document is checked within its cluster as
//! `kafkalint check --stdin-filename PATH -` checks it ([`crate::check::check_buffer`]), its
//! findings published as diagnostics, their fixes offered as code actions, and a key's
//! catalogue entry shown on hover.

mod findings;
mod hover;
pub mod position;
pub mod transport;
pub mod uri;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    LogMessage, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, HoverRequest, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, LogMessageParams, MarkupContent, MarkupKind,
    MessageType, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};

use position::{Encoding, Positions};

pub use findings::Finding;

/// Why the server stopped without the client's `shutdown` and `exit`.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("{}", summary(.0))]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("the client closed the connection before `exit`")]
    Disconnected,
}

/// Serves `connection` until the client's `exit`: `Ok(true)` when `shutdown` came first, as
/// the protocol asks (the process then exits 0), `Ok(false)` when it did not (exit 1).
pub fn run(connection: &Connection) -> Result<bool, ServerError> {
    let encoding = loop {
        let (id, params) = connection.initialize_start()?;
        match serde_json::from_value::<InitializeParams>(params) {
            Ok(params) => {
                let offered = params
                    .capabilities
                    .general
                    .as_ref()
                    .and_then(|general| general.position_encodings.as_deref());
                let encoding = Encoding::negotiate(offered);
                let result = serde_json::json!({
                    "capabilities": capabilities(encoding),
                    "serverInfo": { "name": "kafkalint", "version": env!("CARGO_PKG_VERSION") },
                });
                connection.initialize_finish(id, result)?;
                break encoding;
            }
            Err(error) => respond_error(
                connection,
                id,
                ErrorCode::InvalidParams,
                format!("initialize: {error}"),
            ),
        }
    };
    let mut server = Server {
        connection,
        encoding,
        documents: BTreeMap::new(),
        findings: BTreeMap::new(),
        keys: BTreeMap::new(),
        shut_down: false,
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => server.request(request),
            Message::Notification(notification) if notification.method == "exit" => {
                return Ok(server.shut_down);
            }
            Message::Notification(notification) => server.notification(notification),
            Message::Response(_) => {}
        }
    }
    Err(ServerError::Disconnected)
}

/// What went wrong, without the message the client sent, which lsp-server quotes after it
/// (`expected initialize request, got ...`) and which may hold a document's text.
fn summary(error: &lsp_server::ProtocolError) -> String {
    let text = error.to_string();
    let cut = [", got", ": "]
        .iter()
        .filter_map(|marker| text.find(marker))
        .min()
        .unwrap_or(text.len());
    text[..cut].to_string()
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

fn respond_error(connection: &Connection, id: RequestId, code: ErrorCode, message: String) {
    let message = crate::output::printable(&message);
    let _ = connection
        .sender
        .send(Response::new_err(id, code as i32, message).into());
}

/// An open document: the editor's text and its version.
struct Document {
    text: String,
    version: i32,
}

struct Server<'a> {
    connection: &'a Connection,
    encoding: Encoding,
    documents: BTreeMap<Uri, Document>,
    /// The findings last published for each open document (code actions read their fixes).
    findings: BTreeMap<Uri, Vec<Finding>>,
    /// The keys of each open document as its last check read them (hovers read them): a
    /// document is checked when it or its cluster changes, never for a hover.
    keys: BTreeMap<Uri, findings::Keys>,
    shut_down: bool,
}

impl Server<'_> {
    fn send(&self, message: Message) {
        let _ = self.connection.sender.send(message);
    }

    /// A message to the client's log: it may quote a path, a method or the client's words, shown
    /// as every output shows them (`printable`).
    fn log(&self, typ: MessageType, message: String) {
        let message = crate::output::printable(&message);
        self.send(
            Notification::new(
                LogMessage::METHOD.to_string(),
                LogMessageParams { typ, message },
            )
            .into(),
        );
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        if self.shut_down {
            return respond_error(
                self.connection,
                id,
                ErrorCode::InvalidRequest,
                format!("{}: the server is shut down", request.method),
            );
        }
        let result = match request.method.as_str() {
            "shutdown" => {
                self.shut_down = true;
                Ok(serde_json::Value::Null)
            }
            HoverRequest::METHOD => params(&request).map(|params| self.hover(params)),
            CodeActionRequest::METHOD => params(&request).map(|params| self.code_actions(params)),
            method => Err((
                ErrorCode::MethodNotFound,
                format!("{method}: not a request kafkalint answers"),
            )),
        };
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => {
                Response::new_err(id, code as i32, crate::output::printable(&message))
            }
        };
        self.send(response.into());
    }

    fn notification(&mut self, notification: Notification) {
        if self.shut_down {
            return;
        }
        let method = notification.method.clone();
        let outcome = match method.as_str() {
            DidOpenTextDocument::METHOD => notification_params::<
                lsp_types::DidOpenTextDocumentParams,
            >(notification)
            .map(|params| {
                let document = params.text_document;
                self.documents.insert(
                    document.uri.clone(),
                    Document {
                        text: document.text,
                        version: document.version,
                    },
                );
                self.changed(&document.uri);
            }),
            DidChangeTextDocument::METHOD => {
                notification_params::<lsp_types::DidChangeTextDocumentParams>(notification)
                    .map(|params| self.did_change(params))
            }
            DidSaveTextDocument::METHOD => notification_params::<
                lsp_types::DidSaveTextDocumentParams,
            >(notification)
            .map(|params| {
                let uri = params.text_document.uri;
                if let (Some(text), Some(document)) = (params.text, self.documents.get_mut(&uri)) {
                    document.text = text;
                }
                if self.documents.contains_key(&uri) {
                    self.changed(&uri);
                }
            }),
            DidCloseTextDocument::METHOD => {
                notification_params::<lsp_types::DidCloseTextDocumentParams>(notification)
                    .map(|params| self.did_close(params.text_document.uri))
            }
            _ => Ok(()),
        };
        if let Err(message) = outcome {
            self.log(MessageType::ERROR, format!("{method}: {message}"));
        }
    }

    /// An empty list for the closed document; its siblings are checked again, now with the
    /// file on disk in place of its text.
    fn did_close(&mut self, uri: Uri) {
        self.documents.remove(&uri);
        self.findings.remove(&uri);
        self.keys.remove(&uri);
        self.publish(uri.clone(), Vec::new(), None);
        let folder =
            |uri: &Uri| uri::to_path(uri).and_then(|path| Some(path.parent()?.to_path_buf()));
        let closed_in = folder(&uri);
        let siblings: Vec<Uri> = self
            .documents
            .keys()
            .filter(|other| closed_in.is_some() && folder(other) == closed_in)
            .cloned()
            .collect();
        for sibling in siblings {
            self.check_and_publish(&sibling);
        }
    }

    fn did_change(&mut self, params: lsp_types::DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let encoding = self.encoding;
        let Some(document) = self.documents.get_mut(&uri) else {
            return self.log(
                MessageType::WARNING,
                format!("{}: changed, but it is not open", uri.as_str()),
            );
        };
        for change in params.content_changes {
            match change.range {
                None => document.text = change.text,
                // Full sync is asked for; a client that sends ranges all the same is followed.
                Some(range) => {
                    let positions = Positions::new(document.text.as_bytes(), encoding);
                    let start = positions.offset(range.start);
                    let end = positions.offset(range.end).max(start);
                    let mut bytes = document.text.as_bytes().to_vec();
                    bytes.splice(start..end, change.text.bytes());
                    document.text = String::from_utf8_lossy(&bytes).into_owned();
                }
            }
        }
        document.version = params.text_document.version;
        self.changed(&uri);
    }

    /// Checks `uri` and publishes its findings, then those of the other open documents of
    /// its cluster, whose findings may depend on it.
    fn changed(&mut self, uri: &Uri) {
        let siblings = self.check_and_publish(uri);
        let others: Vec<Uri> = self
            .documents
            .keys()
            .filter(|other| *other != uri)
            .filter(|other| uri::to_path(other).is_some_and(|path| siblings.contains(&path)))
            .cloned()
            .collect();
        for other in others {
            self.check_and_publish(&other);
        }
    }

    /// Checks one open document and publishes its findings; returns the paths of the files
    /// of its cluster.
    fn check_and_publish(&mut self, uri: &Uri) -> BTreeSet<PathBuf> {
        let Some(document) = self.documents.get(uri) else {
            return BTreeSet::new();
        };
        let version = Some(document.version);
        let Some(path) = uri::to_path(uri) else {
            self.log(
                MessageType::INFO,
                format!("{}: not a file; kafkalint checks files", uri.as_str()),
            );
            return BTreeSet::new();
        };
        let text = document.text.clone();
        let encoding = self.encoding;
        let open = self.open_documents();
        let checked = std::panic::catch_unwind(|| findings::check(&path, &text, &open, encoding));
        let (found, siblings, keys) = match checked {
            Ok(Ok(checked)) => checked,
            Ok(Err(findings::CheckError::NotChecked(message))) => {
                self.log(MessageType::INFO, message);
                Default::default()
            }
            Ok(Err(findings::CheckError::Failed(finding))) => {
                self.log(MessageType::ERROR, finding.diagnostic.message.clone());
                (vec![*finding], BTreeSet::new(), findings::Keys::default())
            }
            Err(_) => {
                self.log(
                    MessageType::ERROR,
                    format!(
                        "{}: kafkalint failed while checking this file (a bug in kafkalint, please report it)",
                        path.display()
                    ),
                );
                Default::default()
            }
        };
        let diagnostics = found
            .iter()
            .map(|finding| finding.diagnostic.clone())
            .collect();
        self.findings.insert(uri.clone(), found);
        self.keys.insert(uri.clone(), keys);
        self.publish(uri.clone(), diagnostics, version);
        siblings
    }

    /// The open documents that are files, with their unsaved text.
    fn open_documents(&self) -> Vec<findings::Open> {
        self.documents
            .iter()
            .filter_map(|(uri, document)| Some((uri::to_path(uri)?, document.text.clone())))
            .collect()
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        self.send(
            Notification::new(
                PublishDiagnostics::METHOD.to_string(),
                PublishDiagnosticsParams::new(uri, diagnostics, version),
            )
            .into(),
        );
    }

    /// The hovered key's catalogue entry, read from the document's last check.
    fn hover(&self, params: lsp_types::HoverParams) -> serde_json::Value {
        let place = params.text_document_position_params;
        let uri = &place.text_document.uri;
        let (Some(document), Some(keys)) = (self.documents.get(uri), self.keys.get(uri)) else {
            return serde_json::Value::Null;
        };
        let offset = Positions::new(document.text.as_bytes(), self.encoding).offset(place.position);
        let markdown = std::panic::catch_unwind(|| keys.hover(offset)).unwrap_or(None);
        match markdown {
            Some(value) => serde_json::to_value(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                }),
                range: None,
            })
            .unwrap_or_default(),
            None => serde_json::Value::Null,
        }
    }

    fn code_actions(&self, params: lsp_types::CodeActionParams) -> serde_json::Value {
        let Some(found) = self.findings.get(&params.text_document.uri) else {
            return serde_json::Value::Array(Vec::new());
        };
        let wanted = params.range;
        let overlaps =
            |range: &lsp_types::Range| range.start <= wanted.end && wanted.start <= range.end;
        let actions: Vec<_> = found
            .iter()
            .filter(|finding| overlaps(&finding.diagnostic.range))
            .filter_map(Finding::code_action)
            .collect();
        serde_json::to_value(actions).unwrap_or_default()
    }
}

/// A request's parameters, or the error answer for parameters that are not what its method
/// takes.
fn params<P: serde::de::DeserializeOwned>(request: &Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(request.params.clone()).map_err(|error| {
        (
            ErrorCode::InvalidParams,
            format!("{}: {error}", request.method),
        )
    })
}

fn notification_params<P: serde::de::DeserializeOwned>(
    notification: Notification,
) -> Result<P, String> {
    serde_json::from_value(notification.params).map_err(|error| error.to_string())
}
