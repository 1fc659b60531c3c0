//! Block results as text for people, JSON lines for tools, and JUnit XML for CI.

use crate::naming::ValueNames;
use crate::runner::{BlockReport, Engine, NotRun, Result, Summary};
use serde_json::json;
use t27_check::Checked;
use t27_diag::{LineIndex, Sources};
use t27_ir::*;

struct Block<'a> {
    module: &'a Module,
    test: &'a Test,
    file: &'a str,
}

fn block<'a>(checked: &'a Checked, r: &BlockReport) -> Block<'a> {
    let module = &checked.program.modules[r.module.index()];
    Block {
        module,
        test: &checked.program.tests[r.test.index()],
        file: checked.sources.name(module.file),
    }
}

fn kind(t: &Test) -> &'static str {
    match t.kind {
        TestKind::Test => "test",
        TestKind::Invariant => "invariant",
    }
}

/// `3 (S_ENDED)`: a value and the constant it stands for, when one can be told.
fn described(name: Option<&String>, v: &Shown) -> String {
    match name {
        Some(name) => format!("{v} ({name})"),
        None => v.to_string(),
    }
}

/// What went wrong, in words, and the notes with the values.
fn explain(names: &ValueNames, outcome: &Outcome) -> (String, Vec<String>) {
    match outcome {
        Outcome::Fail { left, right, .. } => {
            let mut notes = Vec::new();
            if let Some(l) = left {
                notes.push(format!("left:  {}", described(names.left.as_ref(), l)));
            }
            if let Some(r) = right {
                notes.push(format!("right: {}", described(names.right.as_ref(), r)));
            }
            ("this assert is false".to_string(), notes)
        }
        Outcome::Trap { kind, .. } => (format!("trap: {}", kind.describe()), Vec::new()),
        Outcome::Timeout => (
            "stopped: the block ran past its time budget".to_string(),
            Vec::new(),
        ),
        Outcome::Pass => (String::new(), Vec::new()),
    }
}

/// A block's outcome in words, without its time: the word (`pass`, `fail`, `trap`,
/// `timeout`, `not run`), what went wrong, the notes with the values, and where (a failed
/// assert's or a trap's span in the module's file): what `t27 doc` shows beside a block.
pub fn outcome_words(
    checked: &Checked,
    r: &BlockReport,
) -> (&'static str, String, Vec<String>, Option<t27_diag::Span>) {
    match &r.result {
        Result::NotRun(why) => ("not run", reason(checked, why), Vec::new(), None),
        Result::Ran(outcome) => {
            let (title, notes) = explain(&r.names, outcome);
            let at = match outcome {
                Outcome::Fail { assert, .. } => Some(*assert),
                Outcome::Trap { span, .. } => Some(*span),
                _ => None,
            };
            (outcome.word(), title, notes, at)
        }
    }
}

/// One block's line, and for a failure the assert's source with its span and the values.
pub fn human_block(checked: &Checked, r: &BlockReport, color: bool) -> String {
    let b = block(checked, r);
    let word = match &r.result {
        Result::Ran(o) => o.word().to_uppercase(),
        Result::NotRun(_) => "NOT RUN".to_string(),
    };
    let counts = format!(
        "{} runtime, {} folded asserts",
        r.runtime_asserts, r.folded_asserts
    );
    let warn = if r.runtime_asserts == 0 {
        "  [no runtime assert: tested no code]"
    } else {
        ""
    };
    let mut out = format!(
        "{word:<7} {}::{}  ({}; {counts}; {:.2} ms){warn}\n",
        b.module.name,
        b.test.decl.name,
        kind(b.test),
        r.duration.as_secs_f64() * 1e3
    );
    match &r.result {
        Result::Ran(Outcome::Pass) => {}
        Result::NotRun(why) => {
            out.push_str(&format!("        not run: {}\n", reason(checked, why)))
        }
        Result::Ran(outcome @ Outcome::Timeout) => {
            let (title, _) = explain(&r.names, outcome);
            out.push_str(&format!("        {title}\n"));
        }
        Result::Ran(outcome) => {
            let span = match outcome {
                Outcome::Fail { assert, .. } => *assert,
                Outcome::Trap { span, .. } => *span,
                _ => b.test.decl.name_span,
            };
            let (title, notes) = explain(&r.names, outcome);
            let label = match outcome {
                Outcome::Fail { .. } => "this assert is false",
                _ => "trapped here",
            };
            let heading = format!("{}::{}: {title}", b.module.name, b.test.decl.name);
            out.push_str(&t27_diag::render_snippet(
                &checked.sources,
                b.module.file,
                span,
                &heading,
                label,
                &notes,
                color,
            ));
        }
    }
    out
}

/// Why a block did not run, in words.
fn reason(checked: &Checked, why: &NotRun) -> String {
    match why {
        NotRun::Blocked(b) => b.describe(&checked.sources),
        NotRun::NoNativeCode => {
            "its native code could not be built (the error is above)".to_string()
        }
        NotRun::NotOnHost(why) => format!("the host cannot run it: {why}"),
    }
}

/// The closing lines: blocks without runtime asserts, then `N passed, M failed`.
pub fn human_summary(s: &Summary) -> String {
    let mut out = String::new();
    if s.no_runtime_asserts > 0 {
        out.push_str(&format!(
            "{} block{} ran no runtime assert: every assert in {} was decided when the spec was compiled\n",
            s.no_runtime_asserts,
            if s.no_runtime_asserts == 1 { "" } else { "s" },
            if s.no_runtime_asserts == 1 { "it" } else { "them" },
        ));
    }
    let mut extra = Vec::new();
    for (n, what) in [
        (s.trapped, "trapped"),
        (s.timed_out, "timed out"),
        (s.not_run, "not run"),
    ] {
        if n > 0 {
            extra.push(format!("{n} {what}"));
        }
    }
    if !extra.is_empty() {
        out.push_str(&format!("of the failed: {}\n", extra.join(", ")));
    }
    out.push_str(&format!("{} passed, {} failed\n", s.passed, s.failed));
    out
}

/// One JSON object for a block (without the newline).
pub fn json_block(checked: &Checked, r: &BlockReport) -> String {
    let b = block(checked, r);
    let outcome = match &r.result {
        Result::Ran(o) => o.word(),
        Result::NotRun(_) => "not_run",
    };
    let mut obj = json!({
        "type": "block",
        "module": b.module.name,
        "file": b.file,
        "name": b.test.decl.name,
        "kind": kind(b.test),
        "outcome": outcome,
        "runtime_asserts": r.runtime_asserts,
        "folded_asserts": r.folded_asserts,
        "duration_ms": r.duration.as_secs_f64() * 1e3,
        "engine": r.engine.map(Engine::name),
    });
    if let Result::NotRun(why) = &r.result {
        obj["reason"] = json!(reason(checked, why));
        if let NotRun::Blocked(b) = why {
            let (line, column) = b.line_col(&checked.sources);
            obj["blocked_by"] = json!({
                "name": b.name,
                "path": b.path.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
                "code": b.code.as_str(),
                "file": checked.sources.name(b.file),
                "line": line,
                "column": column,
                "message": b.message,
            });
        }
    }
    if let Result::Ran(o) = &r.result {
        let span = match o {
            Outcome::Fail { assert, .. } => Some(*assert),
            Outcome::Trap { span, .. } => Some(*span),
            _ => None,
        };
        if let Some(span) = span {
            let text = checked.sources.text(b.module.file);
            let (line, column) = LineIndex::new(text).line_col(text, span.start as usize);
            obj["line"] = json!(line);
            obj["column"] = json!(column);
        }
        if !matches!(o, Outcome::Pass) {
            let (message, _) = explain(&r.names, o);
            obj["message"] = json!(message);
        }
        if let Outcome::Trap { kind, .. } = o {
            obj["trap"] = json!(kind.name());
        }
        if let Outcome::Fail { left, right, .. } = o {
            if let Some(l) = left {
                obj["left"] = json!(l.to_string());
                obj["left_name"] = json!(r.names.left);
            }
            if let Some(rv) = right {
                obj["right"] = json!(rv.to_string());
                obj["right_name"] = json!(r.names.right);
            }
        }
    }
    obj.to_string()
}

pub fn json_summary(s: &Summary) -> String {
    json!({
        "type": "summary",
        "passed": s.passed,
        "failed": s.failed,
        "trapped": s.trapped,
        "timed_out": s.timed_out,
        "not_run": s.not_run,
        "no_runtime_asserts": s.no_runtime_asserts,
    })
    .to_string()
}

fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\r' | '\t') => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// A JUnit XML document: one `testsuite` per spec file, one `testcase` per block with
/// `classname` the spec file and `name` `module::block`.
pub fn junit(checked: &Checked, reports: &[BlockReport]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failed = reports.iter().filter(|r| !r.passed()).count();
    let total: f64 = reports.iter().map(|r| r.duration.as_secs_f64()).sum();
    out.push_str(&format!(
        "<testsuites name=\"t27\" tests=\"{}\" failures=\"{failed}\" time=\"{total:.6}\">\n",
        reports.len()
    ));
    let mut files: Vec<&str> = Vec::new();
    for r in reports {
        let f = block(checked, r).file;
        if !files.contains(&f) {
            files.push(f);
        }
    }
    for file in files {
        let in_file: Vec<&BlockReport> = reports
            .iter()
            .filter(|r| block(checked, r).file == file)
            .collect();
        let failures = in_file
            .iter()
            .filter(|r| matches!(r.result, Result::Ran(Outcome::Fail { .. })))
            .count();
        let errors = in_file
            .iter()
            .filter(|r| {
                matches!(
                    r.result,
                    Result::Ran(Outcome::Trap { .. } | Outcome::Timeout)
                )
            })
            .count();
        let skipped = in_file
            .iter()
            .filter(|r| matches!(r.result, Result::NotRun(_)))
            .count();
        let time: f64 = in_file.iter().map(|r| r.duration.as_secs_f64()).sum();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time:.6}\">\n",
            xml(file),
            in_file.len()
        ));
        for r in in_file {
            let b = block(checked, r);
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6}\"",
                xml(file),
                xml(&format!("{}::{}", b.module.name, b.test.decl.name)),
                r.duration.as_secs_f64()
            ));
            match &r.result {
                Result::Ran(Outcome::Pass) => out.push_str("/>\n"),
                Result::NotRun(why) => out.push_str(&format!(
                    ">\n      <skipped message=\"not run: {}\"/>\n    </testcase>\n",
                    xml(&reason(checked, why))
                )),
                Result::Ran(o) => {
                    let detail = human_block(checked, r, false);
                    let (message, _) = explain(&r.names, o);
                    let (tag, ty) = match o {
                        Outcome::Fail { .. } => ("failure", "assert".to_string()),
                        Outcome::Trap { kind, .. } => ("error", kind.name().to_string()),
                        _ => ("error", "timeout".to_string()),
                    };
                    out.push_str(&format!(
                        ">\n      <{tag} message=\"{}\" type=\"{ty}\">{}</{tag}>\n    </testcase>\n",
                        xml(&message),
                        xml(&detail)
                    ));
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
