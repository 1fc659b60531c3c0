//! Diagnostics as JSON lines, one object per diagnostic.

use crate::diagnostic::Diagnostic;
use crate::lines::LineIndex;
use crate::render::Sources;
use serde_json::json;

/// One diagnostic as one line of JSON (without the newline). Lines and columns are 1-based;
/// columns count characters; `end_line`/`end_column` point just past the span.
pub fn to_json_line(diag: &Diagnostic, sources: &dyn Sources) -> String {
    let text = sources.text(diag.primary.file);
    let index = LineIndex::new(text);
    let span = diag.primary.span;
    let (line, column) = index.line_col(text, span.start as usize);
    let (end_line, end_column) = index.line_col(text, span.end as usize);
    let secondary: Vec<_> = diag
        .secondary
        .iter()
        .map(|l| {
            let t = sources.text(l.file);
            let (line, column) = LineIndex::new(t).line_col(t, l.span.start as usize);
            json!({"file": sources.name(l.file), "line": line, "column": column, "message": l.message})
        })
        .collect();
    let fix: Vec<_> = diag
        .fix
        .iter()
        .map(|e| {
            let (line, column) = index.line_col(text, e.span.start as usize);
            let (end_line, end_column) = index.line_col(text, e.span.end as usize);
            json!({"line": line, "column": column, "end_line": end_line, "end_column": end_column, "text": e.text})
        })
        .collect();
    json!({
        "file": sources.name(diag.primary.file),
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "code": diag.code.as_str(),
        "severity": diag.severity.as_str(),
        "message": diag.message,
        "label": diag.primary.message,
        "notes": diag.notes,
        "help": diag.help,
        "related": secondary,
        "fix": fix,
    })
    .to_string()
}
