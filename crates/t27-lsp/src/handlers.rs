//! One function per request: LSP positions to byte offsets, the analysis's answer back.

use crate::convert::{LineIndex, path_of, uri_of};
use crate::server::{COMMAND_RUN_TEST, Failure, Server, to_lsp};
use lsp_server::Request;
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use t27_diag::Edit;
use t27_ide::{Analysis, CompletionKind, Symbol};

type Answer = Result<Value, Failure>;

/// The answer to `req`, or `None` for a method t27 does not serve.
pub fn dispatch(server: &mut Server, r: Request) -> Option<Answer> {
    Some(match r.method.as_str() {
        req::HoverRequest::METHOD => on::<req::HoverRequest>(server, r, hover),
        req::GotoDefinition::METHOD => on::<req::GotoDefinition>(server, r, definition),
        req::References::METHOD => on::<req::References>(server, r, references),
        req::DocumentSymbolRequest::METHOD => {
            on::<req::DocumentSymbolRequest>(server, r, document_symbols)
        }
        req::WorkspaceSymbolRequest::METHOD => {
            on::<req::WorkspaceSymbolRequest>(server, r, workspace_symbols)
        }
        req::Completion::METHOD => on::<req::Completion>(server, r, completion),
        req::CodeActionRequest::METHOD => on::<req::CodeActionRequest>(server, r, code_actions),
        req::Formatting::METHOD => on::<req::Formatting>(server, r, formatting),
        req::PrepareRenameRequest::METHOD => {
            on::<req::PrepareRenameRequest>(server, r, prepare_rename)
        }
        req::Rename::METHOD => on::<req::Rename>(server, r, rename),
        req::CodeLensRequest::METHOD => on::<req::CodeLensRequest>(server, r, code_lenses),
        req::ExecuteCommand::METHOD => on::<req::ExecuteCommand>(server, r, execute_command),
        _ => return None,
    })
}

fn on<R: req::Request>(
    server: &mut Server,
    r: Request,
    f: fn(&mut Server, R::Params) -> Result<R::Result, Failure>,
) -> Answer {
    let params: R::Params = serde_json::from_value(r.params).map_err(|e| {
        Failure::invalid(format!(
            "the parameters of `{}` do not read: {e}",
            R::METHOD
        ))
    })?;
    let result = f(server, params)?;
    serde_json::to_value(result).map_err(|e| Failure::failed(e.to_string()))
}

/// The analysis that holds the document, its path and its line index.
fn document<'s>(
    server: &'s mut Server,
    uri: &Url,
) -> Result<(&'s Analysis, PathBuf, LineIndex<'s>), Failure> {
    let path = path_of(uri);
    let analysis = server
        .analysis_of(&path)
        .ok_or_else(|| Failure::failed("the workspace could not be checked"))?;
    let file = analysis
        .file_id(&path)
        .ok_or_else(|| Failure::invalid(format!("{uri} is not a t27 file of this workspace")))?;
    Ok((analysis, path, LineIndex::new(analysis.text(file))))
}

/// [`document`], and the byte offset of the position.
fn at<'s>(
    server: &'s mut Server,
    p: &TextDocumentPositionParams,
) -> Result<(&'s Analysis, PathBuf, u32, LineIndex<'s>), Failure> {
    let (analysis, path, index) = document(server, &p.text_document.uri)?;
    let offset = index.offset(p.position);
    Ok((analysis, path, offset, index))
}

/// [`at`] in the analysis of the whole workspace, for what needs every module.
fn at_whole<'s>(
    server: &'s mut Server,
    p: &TextDocumentPositionParams,
) -> Result<(&'s Analysis, PathBuf, u32), Failure> {
    server.whole();
    let (analysis, path, offset, _) = at(server, p)?;
    Ok((analysis, path, offset))
}

fn location(analysis: &Analysis, l: &t27_ide::Location) -> Option<Location> {
    let file = analysis.file_id(&l.path)?;
    Some(Location {
        uri: uri_of(&l.path)?,
        range: LineIndex::new(analysis.text(file)).range(l.span),
    })
}

fn hover(server: &mut Server, p: HoverParams) -> Result<Option<Hover>, Failure> {
    let (analysis, path, offset, index) = at(server, &p.text_document_position_params)?;
    Ok(analysis.hover(&path, offset).map(|h| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: h.markdown,
        }),
        range: Some(index.range(h.span)),
    }))
}

fn definition(
    server: &mut Server,
    p: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>, Failure> {
    let (analysis, path, offset, _) = at(server, &p.text_document_position_params)?;
    Ok(analysis
        .definition(&path, offset)
        .and_then(|l| location(analysis, &l))
        .map(GotoDefinitionResponse::Scalar))
}

fn references(server: &mut Server, p: ReferenceParams) -> Result<Option<Vec<Location>>, Failure> {
    let (analysis, path, offset) = at_whole(server, &p.text_document_position)?;
    let found = analysis.references(&path, offset, p.context.include_declaration);
    Ok(Some(
        found.iter().filter_map(|l| location(analysis, l)).collect(),
    ))
}

fn symbol_kind(kind: t27_ide::SymbolKind) -> SymbolKind {
    match kind {
        t27_ide::SymbolKind::Module => SymbolKind::MODULE,
        t27_ide::SymbolKind::Constant => SymbolKind::CONSTANT,
        t27_ide::SymbolKind::Variable => SymbolKind::VARIABLE,
        t27_ide::SymbolKind::Function => SymbolKind::FUNCTION,
        t27_ide::SymbolKind::Struct => SymbolKind::STRUCT,
        t27_ide::SymbolKind::Field => SymbolKind::FIELD,
        t27_ide::SymbolKind::Test => SymbolKind::METHOD,
    }
}

#[allow(deprecated)]
fn nested(s: Symbol, index: &LineIndex) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name,
        detail: Some(s.detail),
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: index.range(s.full_span),
        selection_range: index.range(s.location.span),
        children: Some(s.children.into_iter().map(|c| nested(c, index)).collect()),
    }
}

fn document_symbols(
    server: &mut Server,
    p: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>, Failure> {
    let (analysis, path, index) = document(server, &p.text_document.uri)?;
    let symbols = analysis.document_symbols(&path);
    Ok(Some(DocumentSymbolResponse::Nested(
        symbols.into_iter().map(|s| nested(s, &index)).collect(),
    )))
}

#[allow(deprecated)]
fn workspace_symbols(
    server: &mut Server,
    p: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>, Failure> {
    let Some(analysis) = server.whole() else {
        return Ok(None);
    };
    let found = analysis
        .workspace_symbols(&p.query)
        .into_iter()
        .filter_map(|s| {
            Some(SymbolInformation {
                name: s.name.clone(),
                kind: symbol_kind(s.kind),
                tags: None,
                deprecated: None,
                location: location(analysis, &s.location)?,
                container_name: Some(s.module),
            })
        })
        .collect();
    Ok(Some(WorkspaceSymbolResponse::Flat(found)))
}

fn completion(
    server: &mut Server,
    p: CompletionParams,
) -> Result<Option<CompletionResponse>, Failure> {
    let (analysis, path, offset, _) = at(server, &p.text_document_position)?;
    let items = analysis
        .completions(&path, offset)
        .into_iter()
        .map(|c| CompletionItem {
            label: c.label,
            kind: Some(match c.kind {
                CompletionKind::Module => CompletionItemKind::MODULE,
                CompletionKind::Constant => CompletionItemKind::CONSTANT,
                CompletionKind::Variable | CompletionKind::Local => CompletionItemKind::VARIABLE,
                CompletionKind::Function => CompletionItemKind::FUNCTION,
                CompletionKind::Struct => CompletionItemKind::STRUCT,
                CompletionKind::Field => CompletionItemKind::FIELD,
                CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                CompletionKind::Type => CompletionItemKind::TYPE_PARAMETER,
                CompletionKind::Method => CompletionItemKind::METHOD,
            }),
            detail: Some(c.detail),
            ..CompletionItem::default()
        })
        .collect();
    Ok(Some(CompletionResponse::Array(items)))
}

fn text_edits(edits: &[Edit], index: &LineIndex) -> Vec<TextEdit> {
    edits
        .iter()
        .map(|e| TextEdit {
            range: index.range(e.span),
            new_text: e.text.clone(),
        })
        .collect()
}

fn workspace_edit(uri: &Url, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

fn code_actions(
    server: &mut Server,
    p: CodeActionParams,
) -> Result<Option<CodeActionResponse>, Failure> {
    let (analysis, path, index) = document(server, &p.text_document.uri)?;
    let uri = &p.text_document.uri;
    let wanted = |kind: &CodeActionKind| {
        p.context.only.as_ref().is_none_or(|only| {
            only.iter().any(|o| {
                kind.as_str() == o.as_str()
                    || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            })
        })
    };
    let mut actions: Vec<CodeActionOrCommand> = Vec::new();
    if wanted(&CodeActionKind::QUICKFIX) {
        for fix in analysis.fixes(&path, index.span(p.range)) {
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp(analysis, &fix.diagnostic, &index)]),
                edit: Some(workspace_edit(uri, text_edits(&fix.edits, &index))),
                is_preferred: Some(true),
                ..CodeAction::default()
            }));
        }
    }
    let all = analysis.fix_all(&path);
    if wanted(&CodeActionKind::SOURCE_FIX_ALL) && !all.is_empty() {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "Apply every certain fix in the file (t27 fix)".to_string(),
            kind: Some(CodeActionKind::SOURCE_FIX_ALL),
            edit: Some(workspace_edit(uri, text_edits(&all, &index))),
            ..CodeAction::default()
        }));
    }
    Ok(Some(actions))
}

fn formatting(
    server: &mut Server,
    p: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>, Failure> {
    let (analysis, path, index) = document(server, &p.text_document.uri)?;
    let file = analysis
        .file_id(&path)
        .ok_or_else(|| Failure::invalid("not a t27 file"))?;
    let text = analysis.text(file);
    match t27_fmt::format(file, text) {
        Ok(formatted) if formatted == text => Ok(Some(Vec::new())),
        Ok(formatted) => Ok(Some(vec![TextEdit {
            range: index.range(t27_diag::Span::new(0, text.len())),
            new_text: formatted,
        }])),
        Err(t27_fmt::Unformatted::Syntax(errors)) => Err(Failure::failed(format!(
            "not formatted: the file has {} syntax error{} (t27 fmt leaves such a file as it is)",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        ))),
        Err(t27_fmt::Unformatted::Changed) => Err(Failure::failed(
            "not formatted: the layout would have changed the tokens (a formatter bug)",
        )),
    }
}

fn prepare_rename(
    server: &mut Server,
    p: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>, Failure> {
    let (analysis, path, offset, index) = at(server, &p)?;
    let span = analysis
        .prepare_rename(&path, offset)
        .map_err(|e| Failure::failed(e.0))?;
    Ok(Some(PrepareRenameResponse::Range(index.range(span))))
}

fn rename(server: &mut Server, p: RenameParams) -> Result<Option<WorkspaceEdit>, Failure> {
    let (analysis, path, offset) = at_whole(server, &p.text_document_position)?;
    let by_file = analysis
        .rename(&path, offset, &p.new_name)
        .map_err(|e| Failure::failed(e.0))?;
    let mut changes = HashMap::new();
    for (file_path, edits) in by_file {
        let (Some(uri), Some(file)) = (uri_of(&file_path), analysis.file_id(&file_path)) else {
            continue;
        };
        let index = LineIndex::new(analysis.text(file));
        changes.insert(uri, text_edits(&edits, &index));
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }))
}

fn code_lenses(server: &mut Server, p: CodeLensParams) -> Result<Option<Vec<CodeLens>>, Failure> {
    let (analysis, path, index) = document(server, &p.text_document.uri)?;
    let lenses = analysis
        .document_symbols(&path)
        .into_iter()
        .filter(|s| s.kind == t27_ide::SymbolKind::Test)
        .map(|s| CodeLens {
            range: index.range(s.location.span),
            command: Some(Command {
                title: format!("▶ Run {}", s.detail),
                command: COMMAND_RUN_TEST.to_string(),
                arguments: Some(vec![
                    Value::String(p.text_document.uri.to_string()),
                    Value::String(s.name),
                ]),
            }),
            data: None,
        })
        .collect();
    Ok(Some(lenses))
}

/// `t27.runTest [uri, name]`: runs the block, shows its outcome as a message (its report in
/// the log) and answers `{ name, passed, outcome, report }`.
fn execute_command(server: &mut Server, p: ExecuteCommandParams) -> Result<Option<Value>, Failure> {
    if p.command != COMMAND_RUN_TEST {
        return Err(Failure::invalid(format!(
            "t27 has no command `{}`",
            p.command
        )));
    }
    let [Value::String(uri), Value::String(name)] = p.arguments.as_slice() else {
        return Err(Failure::invalid(format!(
            "`{COMMAND_RUN_TEST}` takes two strings: the document's URI and the block's name"
        )));
    };
    let uri =
        Url::parse(uri).map_err(|e| Failure::invalid(format!("`{uri}` is not a URI: {e}")))?;
    let (analysis, path, _) = document(server, &uri)?;
    let run = analysis
        .run_test(Path::new(&path), name)
        .ok_or_else(|| Failure::failed(format!("this module has no test or invariant `{name}`")))?;
    let typ = if run.passed {
        MessageType::INFO
    } else {
        MessageType::ERROR
    };
    let first_line = run.report.lines().next().unwrap_or("").to_string();
    server.send(lsp_server::Message::Notification(
        lsp_server::Notification::new(
            "window/showMessage".to_string(),
            ShowMessageParams {
                typ,
                message: first_line,
            },
        ),
    ));
    server.log(&run.report);
    Ok(Some(serde_json::json!({
        "name": run.name,
        "passed": run.passed,
        "outcome": run.outcome,
        "report": run.report,
    })))
}
