//! Terminal rendering with ariadne. This is the only module that knows ariadne exists.

use crate::diagnostic::{Diagnostic, FileId, Severity};
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};

/// The source texts diagnostics point into.
pub trait Sources {
    /// The name shown for a file, e.g. `specs/queen/dispatch.t27`.
    fn name(&self, file: FileId) -> &str;
    fn text(&self, file: FileId) -> &str;
}

/// Renders one diagnostic as text, with colors when `color` is set.
pub fn render(diag: &Diagnostic, sources: &dyn Sources, color: bool) -> String {
    let kind = match diag.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let tint = |c: Color| if color { Some(c) } else { None };
    let name = |f: FileId| sources.name(f).to_string();
    let clamp = |f: FileId, r: std::ops::Range<usize>| {
        let len = sources.text(f).len();
        r.start.min(len)..r.end.min(len)
    };
    let primary_range = clamp(diag.primary.file, diag.primary.span.range());
    let mut report = Report::build(kind, (name(diag.primary.file), primary_range.clone()))
        .with_config(
            Config::new()
                .with_index_type(IndexType::Byte)
                .with_color(color),
        )
        .with_code(diag.code)
        .with_message(&diag.message);
    let primary_color = tint(match diag.severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
    });
    // Labels in source order: ariadne draws one snippet per run of labels that go forward.
    let mut labels: Vec<(&crate::diagnostic::Label, bool)> = vec![(&diag.primary, true)];
    labels.extend(diag.secondary.iter().map(|l| (l, false)));
    labels.sort_by_key(|(l, _)| (l.file, l.span.start));
    for (label, is_primary) in labels {
        let mut l = Label::new((name(label.file), clamp(label.file, label.span.range())));
        if !label.message.is_empty() {
            l = l.with_message(&label.message);
        }
        if let Some(c) = if is_primary {
            primary_color
        } else {
            tint(Color::Blue)
        } {
            l = l.with_color(c);
        }
        report.add_label(l);
    }
    for note in &diag.notes {
        report.add_note(note);
    }
    if let Some(help) = &diag.help {
        report.set_help(help);
    }
    let mut files: Vec<FileId> = vec![diag.primary.file];
    files.extend(diag.secondary.iter().map(|l| l.file));
    files.sort();
    files.dedup();
    let cache = ariadne::sources(
        files
            .into_iter()
            .map(|f| (name(f), sources.text(f).to_string())),
    );
    let mut out = Vec::new();
    // Writing into a Vec cannot fail; a failure would only lose the rendering, never panic.
    let _ = report.finish().write(cache, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Renders a source snippet without a diagnostic code: the failing assert of a test report.
pub fn render_snippet(
    sources: &dyn Sources,
    file: FileId,
    span: crate::Span,
    title: &str,
    label: &str,
    notes: &[String],
    color: bool,
) -> String {
    let name = sources.name(file).to_string();
    let len = sources.text(file).len();
    let range = (span.start as usize).min(len)..(span.end as usize).min(len);
    let mut l = Label::new((name.clone(), range.clone())).with_message(label);
    if color {
        l = l.with_color(Color::Red);
    }
    let mut report = Report::build(
        ReportKind::Custom("FAIL", Color::Red),
        (name.clone(), range),
    )
    .with_config(
        Config::new()
            .with_index_type(IndexType::Byte)
            .with_color(color),
    )
    .with_message(title)
    .with_label(l);
    for n in notes {
        report.add_note(n);
    }
    let cache = ariadne::sources([(name, sources.text(file).to_string())]);
    let mut out = Vec::new();
    let _ = report.finish().write(cache, &mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    // ariadne colors a custom report kind even with colors off.
    if color { text } else { strip_ansi(&text) }
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
