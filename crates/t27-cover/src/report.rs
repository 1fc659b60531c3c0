//! Counts into coverage, by module and function, and its three forms: text (with every arm
//! never taken shown at its place), lcov, and JSON lines.

use crate::plan::{BranchKind, Plan};
use t27_check::SourceMap;
use t27_diag::{FileId, Span};
use t27_ir::Program;

/// The coverage of one run.
#[derive(Clone, Debug)]
pub struct Coverage {
    pub functions: Vec<FnCoverage>,
}

#[derive(Clone, Debug)]
pub struct FnCoverage {
    pub module: String,
    pub name: String,
    pub file: FileId,
    /// The line of the function's name (1-based).
    pub line: u32,
    pub calls: u64,
    /// Each line holding a statement (1-based), with the most any of its statements ran.
    pub lines: Vec<(u32, u64)>,
    /// Each `return`, with how often it ran.
    pub returns: Vec<(Span, u64)>,
    pub branches: Vec<BranchCoverage>,
}

#[derive(Clone, Debug)]
pub struct BranchCoverage {
    pub kind: BranchKind,
    pub span: Span,
    /// Each arm's label and count.
    pub arms: Vec<(String, u64)>,
    /// Each arm's own place, where it has one (a switch arm's value).
    pub arm_spans: Vec<Option<Span>>,
}

impl FnCoverage {
    pub fn lines_reached(&self) -> usize {
        self.lines.iter().filter(|(_, n)| *n > 0).count()
    }
    pub fn arms(&self) -> usize {
        self.branches.iter().map(|b| b.arms.len()).sum()
    }
    pub fn arms_taken(&self) -> usize {
        self.branches
            .iter()
            .flat_map(|b| &b.arms)
            .filter(|(_, n)| *n > 0)
            .count()
    }
}

/// Where `offset` is in `text`: 1-based line and column (columns count characters).
pub fn line_col(text: &str, offset: u32) -> (u32, u32) {
    let before = &text[..(offset as usize).min(text.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() as u32 + 1)
}

impl Coverage {
    pub fn new(p: &Program, sources: &SourceMap, plan: &Plan, counts: &[u64]) -> Coverage {
        let mut functions = Vec::new();
        for fp in &plan.functions {
            let f = &p.functions[fp.function.index()];
            let module = &p.modules[fp.module.index()];
            let text = &sources.get(module.file).text;
            let mut lines: Vec<(u32, u64)> = Vec::new();
            for l in &fp.lines {
                let (line, _) = line_col(text, l.span.start);
                let n = l.count.read(counts);
                match lines.iter_mut().find(|(at, _)| *at == line) {
                    Some((_, count)) => *count = (*count).max(n),
                    None => lines.push((line, n)),
                }
            }
            lines.sort();
            functions.push(FnCoverage {
                module: module.name.clone(),
                name: f.decl.name.clone(),
                file: module.file,
                line: line_col(text, f.decl.name_span.start).0,
                calls: fp.entry.read(counts),
                lines,
                returns: fp
                    .lines
                    .iter()
                    .filter(|l| l.is_return)
                    .map(|l| (l.span, l.count.read(counts)))
                    .collect(),
                branches: fp
                    .branches
                    .iter()
                    .map(|b| BranchCoverage {
                        kind: b.kind,
                        span: b.span,
                        arms: b
                            .arms
                            .iter()
                            .map(|a| (a.label.clone(), a.count.read(counts)))
                            .collect(),
                        arm_spans: b.arms.iter().map(|a| a.span).collect(),
                    })
                    .collect(),
            });
        }
        Coverage { functions }
    }

    /// The text report: a line per function, a total, then each arm never taken (and each
    /// `return` never reached) at its place.
    pub fn text(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        let width = self
            .functions
            .iter()
            .map(|f| f.module.len() + f.name.len() + 2)
            .max()
            .unwrap_or(0);
        for f in &self.functions {
            let name = format!("{}::{}", f.module, f.name);
            out.push_str(&format!(
                "{name:<width$}  lines {:>3}/{:<3} arms {:>3}/{:<3} calls {}\n",
                f.lines_reached(),
                f.lines.len(),
                f.arms_taken(),
                f.arms(),
                f.calls
            ));
        }
        let (lr, lt, at, aa) = self.totals();
        out.push_str(&format!(
            "coverage: {} functions, lines {lr}/{lt} ({}), arms {at}/{aa} ({})\n",
            self.functions.len(),
            percent(lr, lt),
            percent(at, aa)
        ));
        for f in &self.functions {
            let source = sources.get(f.file);
            for b in &f.branches {
                for (i, (label, n)) in b.arms.iter().enumerate() {
                    if *n == 0 {
                        let what = format!(
                            "the `{label}` arm of this {} in `{}` is never taken",
                            b.kind.describe(),
                            f.name
                        );
                        let span = b.arm_spans.get(i).copied().flatten().unwrap_or(b.span);
                        out.push_str(&snippet(&source.name, &source.text, span, &what));
                    }
                }
            }
            for (span, n) in &f.returns {
                if *n == 0 {
                    let what = format!("this `return` in `{}` is never reached", f.name);
                    out.push_str(&snippet(&source.name, &source.text, *span, &what));
                }
            }
        }
        out
    }

    /// Lines reached and in all, arms taken and in all.
    pub fn totals(&self) -> (usize, usize, usize, usize) {
        self.functions.iter().fold((0, 0, 0, 0), |(a, b, c, d), f| {
            (
                a + f.lines_reached(),
                b + f.lines.len(),
                c + f.arms_taken(),
                d + f.arms(),
            )
        })
    }

    /// lcov's tracefile: a record per source file, functions (`FN`, `FNDA`), branches
    /// (`BRDA` per arm), lines (`DA`) and their sums.
    pub fn lcov(&self, sources: &SourceMap) -> String {
        let mut out = String::from("TN:\n");
        let mut files: Vec<FileId> = self.functions.iter().map(|f| f.file).collect();
        files.dedup();
        for file in files {
            let source = sources.get(file);
            let text = &source.text;
            let fns: Vec<&FnCoverage> = self.functions.iter().filter(|f| f.file == file).collect();
            out.push_str(&format!("SF:{}\n", source.path.display()));
            for f in &fns {
                out.push_str(&format!("FN:{},{}\n", f.line, f.name));
            }
            for f in &fns {
                out.push_str(&format!("FNDA:{},{}\n", f.calls, f.name));
            }
            out.push_str(&format!(
                "FNF:{}\nFNH:{}\n",
                fns.len(),
                fns.iter().filter(|f| f.calls > 0).count()
            ));
            let (mut brf, mut brh, mut block) = (0, 0, 0);
            for f in &fns {
                for b in &f.branches {
                    let (line, _) = line_col(text, b.span.start);
                    for (i, (_, n)) in b.arms.iter().enumerate() {
                        out.push_str(&format!("BRDA:{line},{block},{i},{n}\n"));
                        brf += 1;
                        brh += usize::from(*n > 0);
                    }
                    block += 1;
                }
            }
            out.push_str(&format!("BRF:{brf}\nBRH:{brh}\n"));
            let mut lines: Vec<(u32, u64)> =
                fns.iter().flat_map(|f| f.lines.iter().copied()).collect();
            lines.sort();
            for (line, n) in &lines {
                out.push_str(&format!("DA:{line},{n}\n"));
            }
            out.push_str(&format!(
                "LF:{}\nLH:{}\nend_of_record\n",
                lines.len(),
                lines.iter().filter(|(_, n)| *n > 0).count()
            ));
        }
        out
    }

    /// JSON lines: one object per function (`type: "coverage"`), then a summary.
    pub fn json(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        for f in &self.functions {
            let source = sources.get(f.file);
            let at = |span: Span| {
                let (line, column) = line_col(&source.text, span.start);
                let (end_line, end_column) = line_col(&source.text, span.end);
                (line, column, end_line, end_column)
            };
            let mut arms: Vec<serde_json::Value> = Vec::new();
            for b in &f.branches {
                for (i, (label, n)) in b.arms.iter().enumerate() {
                    let span = b.arm_spans.get(i).copied().flatten().unwrap_or(b.span);
                    let (line, column, end_line, end_column) = at(span);
                    arms.push(serde_json::json!({
                        "kind": b.kind.name(), "arm": label, "count": n,
                        "line": line, "column": column, "end_line": end_line, "end_column": end_column,
                    }));
                }
            }
            let returns: Vec<serde_json::Value> = f
                .returns
                .iter()
                .map(|(span, n)| {
                    let (line, column, _, _) = at(*span);
                    serde_json::json!({ "line": line, "column": column, "count": n })
                })
                .collect();
            let line = serde_json::json!({
                "type": "coverage", "module": f.module, "function": f.name, "file": source.name,
                "line": f.line, "calls": f.calls,
                "lines": f.lines.iter().map(|(l, n)| serde_json::json!([l, n])).collect::<Vec<_>>(),
                "lines_reached": f.lines_reached(), "lines_total": f.lines.len(),
                "arms": arms, "arms_taken": f.arms_taken(), "arms_total": f.arms(),
                "returns": returns,
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
        let (lr, lt, at, aa) = self.totals();
        let summary = serde_json::json!({
            "type": "coverage_summary", "functions": self.functions.len(),
            "lines_reached": lr, "lines_total": lt, "arms_taken": at, "arms_total": aa,
        });
        out.push_str(&summary.to_string());
        out.push('\n');
        out
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

/// `what` at `span`, as a diagnostic shows it: the place, the line, the span underlined.
fn snippet(name: &str, text: &str, span: Span, what: &str) -> String {
    let (line, column) = line_col(text, span.start);
    let line_text = text.lines().nth(line as usize - 1).unwrap_or("");
    let shown_end = if span.end as usize <= text.len() {
        let (end_line, end_column) = line_col(text, span.end);
        if end_line == line {
            end_column
        } else {
            line_text.chars().count() as u32 + 1
        }
    } else {
        column + 1
    };
    let gutter = " ".repeat(line.to_string().len());
    let marks = "^".repeat((shown_end.saturating_sub(column)).max(1) as usize);
    format!(
        "uncovered: {what}\n{gutter}--> {name}:{line}:{column}\n{gutter} |\n{line} | {line_text}\n{gutter} | {}{marks}\n",
        " ".repeat(column as usize - 1)
    )
}
