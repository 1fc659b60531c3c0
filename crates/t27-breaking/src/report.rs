//! The comparison as text (each break rendered like a diagnostic, with its old place and
//! its new one; compatible changes a line each) and as JSON lines.

use crate::{Change, Comparison, Kind, Problem, Site};
use serde_json::{Value as Json, json};
use t27_check::Checked;
use t27_diag::{Code, Diagnostic, FileId, LineIndex, Severity, Sources};

/// Where a change with no place would be shown (every change has one in some tree).
static NOWHERE: Site = Site {
    file: FileId(0),
    span: t27_diag::Span { start: 0, end: 0 },
    label: String::new(),
};

/// Old files are numbered from here in the sources a report renders from.
const OLD: u32 = 1 << 30;

/// Both trees' texts, the old files under the names the caller gives them (`main:specs/...`).
struct Both<'a> {
    old: &'a Checked,
    new: &'a Checked,
    old_names: Vec<String>,
}

impl Sources for Both<'_> {
    fn name(&self, file: FileId) -> &str {
        match file.0.checked_sub(OLD) {
            Some(i) => &self.old_names[i as usize],
            None => &self.new.sources.get(file).name,
        }
    }
    fn text(&self, file: FileId) -> &str {
        match file.0.checked_sub(OLD) {
            Some(i) => &self.old.sources.get(FileId(i)).text,
            None => &self.new.sources.get(file).text,
        }
    }
}

/// How the report names the two trees.
pub struct Names<'a> {
    /// What the old tree is: `main`, `HEAD~1`, `../old`.
    pub against: &'a str,
    /// The name of an old file, from the name it was checked under.
    pub old_file: &'a dyn Fn(&str) -> String,
}

impl<'a> Both<'a> {
    fn new(old: &'a Checked, new: &'a Checked, names: &Names) -> Both<'a> {
        let old_names = old
            .sources
            .iter()
            .map(|(_, f)| (names.old_file)(&f.name))
            .collect();
        Both {
            old,
            new,
            old_names,
        }
    }

    fn old_id(site: &Site) -> FileId {
        FileId(site.file.0 + OLD)
    }

    /// 1-based line and column of a site in its tree.
    fn position(&self, file: FileId, offset: u32) -> (usize, usize) {
        let text = self.text(file);
        LineIndex::new(text).line_col(text, offset as usize)
    }
}

impl Comparison {
    pub fn text(&self, old: &Checked, new: &Checked, names: &Names, color: bool) -> String {
        let both = Both::new(old, new, names);
        let mut out = String::new();
        for c in self
            .changes
            .iter()
            .filter(|c| c.kind.is_breaking() || c.kind == Kind::NotCompared)
        {
            out.push_str(&t27_diag::render(&self.diagnostic(c, &both), &both, color));
        }
        for p in &self.problems {
            out.push_str(&t27_diag::render(&problem(p), &both, color));
        }
        for c in self
            .changes
            .iter()
            .filter(|c| !c.kind.is_breaking() && c.kind != Kind::NotCompared)
        {
            let at = c.new.as_ref().map_or(String::new(), |s| {
                let (line, col) = both.position(s.file, s.span.start);
                format!(" ({}:{line}:{col})", both.name(s.file))
            });
            out.push_str(&format!(
                "compatible[{}]: {}{at}\n",
                c.kind.as_str(),
                c.message
            ));
        }
        let breaks = self.breaks().count();
        let allowed = self
            .changes
            .iter()
            .filter(|c| c.allowed_by.is_some())
            .count();
        let compatible = self
            .changes
            .iter()
            .filter(|c| !c.kind.is_breaking() && c.kind != Kind::NotCompared)
            .count();
        let not_compared = self.not_compared().count();
        let mut summary = format!(
            "against {}: {breaks} breaking {}, {allowed} allowed, {compatible} compatible",
            names.against,
            plural(breaks, "change", "changes")
        );
        if not_compared > 0 {
            summary.push_str(&format!(", {not_compared} not compared"));
        }
        out.push_str(&summary);
        out.push('\n');
        out
    }

    fn diagnostic(&self, c: &Change, both: &Both) -> Diagnostic {
        let allow = c.allowed_by.map(|i| &self.allows[i]);
        let (primary, secondary) = match (&c.new, &c.old) {
            (Some(n), old) => ((n.file, n), old.as_ref().map(|o| (Both::old_id(o), o))),
            (None, Some(o)) => ((Both::old_id(o), o), None),
            (None, None) => ((FileId(0), &NOWHERE), None),
        };
        let mut d = Diagnostic::new(Code(c.kind.as_str()), primary.0, primary.1.span, &c.message)
            .with_label(&primary.1.label);
        d.severity = if c.kind.is_breaking() && allow.is_none() {
            Severity::Error
        } else {
            Severity::Warning
        };
        if let Some((file, s)) = secondary {
            d = d.with_secondary(file, s.span, &s.label);
        }
        if let Some(a) = allow {
            let (line, _) = both.position(a.file, a.span.start);
            d = d.with_note(format!(
                "allowed by the `allow-break` at {}:{line}: {}",
                both.name(a.file),
                a.reason
            ));
        } else if c.kind.is_breaking() {
            d = d.with_help(help(c));
        }
        d
    }

    pub fn json(&self, old: &Checked, new: &Checked, names: &Names) -> String {
        let both = Both::new(old, new, names);
        let place = |file: FileId, offset: u32| {
            let (line, column) = both.position(file, offset);
            json!({"file": both.name(file), "line": line, "column": column})
        };
        let mut out = String::new();
        for c in &self.changes {
            let allow = c.allowed_by.map(|i| &self.allows[i]);
            let line = json!({
                "type": "change",
                "module": c.module,
                "name": c.name,
                "kind": c.kind.as_str(),
                "breaking": c.kind.is_breaking(),
                "allowed": allow.is_some(),
                "reason": allow.map(|a| a.reason.clone()),
                "message": c.message,
                "old": c.old.as_ref().map_or(Json::Null, |s| place(Both::old_id(s), s.span.start)),
                "new": c.new.as_ref().map_or(Json::Null, |s| place(s.file, s.span.start)),
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
        for p in &self.problems {
            let mut line = place(p.file, p.span.start);
            line["type"] = json!("allow_break_problem");
            line["message"] = json!(p.message);
            line["help"] = json!(p.help);
            out.push_str(&line.to_string());
            out.push('\n');
        }
        let summary = json!({
            "type": "breaking_summary",
            "against": names.against,
            "breaking": self.breaks().count(),
            "allowed": self.changes.iter().filter(|c| c.allowed_by.is_some()).count(),
            "compatible": self.changes.iter().filter(|c| !c.kind.is_breaking() && c.kind != Kind::NotCompared).count(),
            "not_compared": self.not_compared().count(),
            "problems": self.problems.len(),
        });
        out.push_str(&summary.to_string());
        out.push('\n');
        out
    }
}

/// How to allow a break that is intended.
fn help(c: &Change) -> String {
    let kind = c.kind.as_str();
    match c.kind {
        Kind::ModuleRemoved => format!(
            "if it is intended, write `// allow-break {kind} {}: why` in a module of the tree",
            c.module
        ),
        k if k.is_module_kind() => {
            format!("if it is intended, write `// allow-break {kind}: why` in the module")
        }
        Kind::ConstRemoved | Kind::FnRemoved | Kind::StructRemoved if c.new.is_none() => format!(
            "if it is intended, write `// allow-break {kind} {}: why` where it stood",
            c.name
        ),
        _ => format!(
            "if it is intended, write `// allow-break {kind}: why` above `{}`",
            c.name
        ),
    }
}

fn problem(p: &Problem) -> Diagnostic {
    let mut d =
        Diagnostic::new(Code("allow_break"), p.file, p.span, &p.message).with_label("this comment");
    d.severity = Severity::Warning;
    if let Some(h) = &p.help {
        d = d.with_help(h);
    }
    d
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
