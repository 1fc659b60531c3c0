//! What the blocks made of the mutants: every mutant that survived or timed out shown with
//! its place and a one-line diff, and per module how many were killed, survived and timed
//! out, with the score; as text or JSON lines.

use crate::make::Mutant;
use t27_check::SourceMap;
use t27_diag::{LineIndex, Span};
use t27_ir::{ModuleId, Outcome, Program, TestId};
use t27_run::Verdict;

/// The mutants of a run and what became of each (`verdicts[i]` is `mutants[i]`'s).
pub struct Report {
    pub mutants: Vec<Mutant>,
    pub verdicts: Vec<Verdict>,
    /// The blocks left out because they do not pass unchanged.
    pub failing: Vec<(TestId, Outcome)>,
    /// The modules whose functions were mutated, in order.
    pub modules: Vec<ModuleId>,
}

/// How one module's mutants (or every module's) fared.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleScore {
    pub name: String,
    pub killed: usize,
    pub survived: usize,
    pub timed_out: usize,
}

impl ModuleScore {
    pub fn total(&self) -> usize {
        self.killed + self.survived + self.timed_out
    }

    /// The share of mutants the blocks noticed (killed or stopped by their budget), in
    /// percent; 100 when there are none.
    pub fn score(&self) -> f64 {
        match self.total() {
            0 => 100.0,
            n => (self.killed + self.timed_out) as f64 * 100.0 / n as f64,
        }
    }

    fn add(&mut self, v: &Verdict) {
        match v {
            Verdict::Killed(_) => self.killed += 1,
            Verdict::TimedOut(_) => self.timed_out += 1,
            Verdict::Survived | Verdict::NotReached => self.survived += 1,
        }
    }

    fn counts(&self) -> String {
        format!(
            "{} mutants: {} killed, {} survived, {} timed out; score {:.1}%",
            self.total(),
            self.killed,
            self.survived,
            self.timed_out,
            self.score()
        )
    }
}

/// A mutant's place and its one-line diff.
struct Shown {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    before: String,
    after: String,
}

/// The one-line diff of replacing `edit` with `new`: the edit's first line, before and after.
/// An edit over several lines (a dropped guard, a chain of `or`s) shows its first and last
/// lines joined by ` … `, so that the diff still names everything it replaces.
fn shown(text: &str, edit: Span, new: &str) -> Shown {
    let (start, end) = (edit.start as usize, edit.end as usize);
    let index = LineIndex::new(text);
    let (line, column) = index.line_col(text, start);
    let (end_line, end_column) = index.line_col(text, end);
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |i| from + i);
    let first = line_start(start);
    let before = if end_line == line {
        text[first..line_end(start)].trim_end().to_string()
    } else {
        format!(
            "{} … {}",
            text[first..line_end(start)].trim_end(),
            text[line_start(end)..line_end(end)].trim()
        )
    };
    let after = format!("{}{new}{}", &text[first..start], &text[end..line_end(end)]);
    // Both without the line's indentation.
    let indent = before.len() - before.trim_start().len();
    let cut = |s: &str| {
        s.get(indent.min(s.len())..)
            .unwrap_or("")
            .trim_end()
            .to_string()
    };
    Shown {
        line,
        column,
        end_line,
        end_column,
        before: cut(&before),
        after: cut(&after),
    }
}

fn outcome_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Killed(_) => "killed",
        Verdict::TimedOut(_) => "timeout",
        Verdict::Survived | Verdict::NotReached => "survived",
    }
}

impl Report {
    /// Each module's score, in order, and the score of all of them.
    pub fn scores(&self, p: &Program) -> (Vec<ModuleScore>, ModuleScore) {
        let mut modules: Vec<ModuleScore> = self
            .modules
            .iter()
            .map(|m| ModuleScore {
                name: p.modules[m.index()].name.clone(),
                ..ModuleScore::default()
            })
            .collect();
        let mut all = ModuleScore {
            name: "all".into(),
            ..ModuleScore::default()
        };
        for (m, v) in self.mutants.iter().zip(&self.verdicts) {
            if let Some(i) = self.modules.iter().position(|x| *x == m.module) {
                modules[i].add(v);
            }
            all.add(v);
        }
        (modules, all)
    }

    /// How many mutants survived.
    pub fn survivors(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| matches!(v, Verdict::Survived | Verdict::NotReached))
            .count()
    }

    fn block_name(p: &Program, t: TestId) -> String {
        let test = &p.tests[t.index()];
        format!(
            "{}::{}",
            p.modules[test.decl.module.index()].name,
            test.decl.name
        )
    }

    /// The human report: the blocks left out, every mutant that survived or timed out with
    /// its diff, then each module's counts and score.
    pub fn text(&self, p: &Program, sources: &SourceMap, color: bool) -> String {
        let paint = |code: &str, s: &str| {
            if color {
                format!("\x1b[{code}m{s}\x1b[0m")
            } else {
                s.to_string()
            }
        };
        let mut out = String::new();
        for (t, outcome) in &self.failing {
            out.push_str(&format!(
                "left out: {} does not pass unchanged ({}); no mutant is run against it\n",
                Self::block_name(p, *t),
                outcome.word()
            ));
        }
        for (m, v) in self.mutants.iter().zip(&self.verdicts) {
            if let Verdict::Killed(_) = v {
                continue;
            }
            let file = sources.get(m.file);
            let s = shown(&file.text, m.edit, &m.text);
            let f = &p.functions[m.function.index()].decl.name;
            let why = match v {
                Verdict::NotReached => format!("no block reaches `{f}`"),
                Verdict::TimedOut(t) => format!("{} ran past its budget", Self::block_name(p, *t)),
                _ => format!("in `{f}`: every block that reaches it passes"),
            };
            let word = match v {
                Verdict::TimedOut(_) => paint("33", "timeout "),
                _ => paint("31;1", "survived"),
            };
            let after = if s.after.is_empty() {
                "(nothing)"
            } else {
                &s.after
            };
            out.push_str(&format!(
                "{word} {}:{}:{}  {}  ({why})\n{}\n{}\n",
                file.name,
                s.line,
                s.column,
                m.kind.name(),
                paint("31", &format!("  {:>5} - {}", s.line, s.before)),
                paint("32", &format!("  {:>5} + {after}", s.line)),
            ));
        }
        let (modules, all) = self.scores(p);
        if !out.is_empty() {
            out.push('\n');
        }
        for m in &modules {
            out.push_str(&format!("{}  {}\n", m.name, m.counts()));
        }
        if modules.len() != 1 {
            out.push_str(&format!("all  {}\n", all.counts()));
        }
        out
    }

    /// One JSON object per mutant (`type: "mutant"`), then one per module
    /// (`"mutation_module"`), one line each.
    pub fn json(&self, p: &Program, sources: &SourceMap) -> String {
        let mut out = String::new();
        for (m, v) in self.mutants.iter().zip(&self.verdicts) {
            let file = sources.get(m.file);
            let s = shown(&file.text, m.edit, &m.text);
            let by = match v {
                Verdict::Killed(t) | Verdict::TimedOut(t) => Some(Self::block_name(p, *t)),
                _ => None,
            };
            let line = serde_json::json!({
                "type": "mutant",
                "module": p.modules[m.module.index()].name,
                "function": p.functions[m.function.index()].decl.name,
                "file": file.name,
                "line": s.line,
                "column": s.column,
                "mutation": m.kind.name(),
                "original": s.before,
                "mutated": s.after,
                // The edit itself, machine-applicable: replace from (line, column) to
                // (end_line, end_column), columns counted in characters, with `replacement`.
                "end_line": s.end_line,
                "end_column": s.end_column,
                "replacement": m.text,
                "outcome": outcome_word(v),
                "by": by,
                "reached": *v != Verdict::NotReached,
            });
            out.push_str(&format!("{line}\n"));
        }
        let (modules, _) = self.scores(p);
        for m in &modules {
            let line = serde_json::json!({
                "type": "mutation_module",
                "module": m.name,
                "mutants": m.total(),
                "killed": m.killed,
                "survived": m.survived,
                "timeout": m.timed_out,
                "score": m.score(),
            });
            out.push_str(&format!("{line}\n"));
        }
        out
    }

    /// The closing JSON object (`"mutation_summary"`): the counts and score of every module,
    /// the minimum asked for, the blocks left out, the modules not mutated (`skipped`: with an
    /// error, or importing one), and whether the run passed.
    pub fn json_summary(
        &self,
        p: &Program,
        min_score: Option<f64>,
        skipped: &[ModuleId],
        passed: bool,
    ) -> String {
        let (_, all) = self.scores(p);
        let left_out: Vec<String> = self
            .failing
            .iter()
            .map(|(t, _)| Self::block_name(p, *t))
            .collect();
        serde_json::json!({
            "type": "mutation_summary",
            "mutants": all.total(),
            "killed": all.killed,
            "survived": all.survived,
            "timeout": all.timed_out,
            "score": all.score(),
            "min_score": min_score,
            "left_out": left_out,
            "skipped": skipped.iter().map(|m| p.modules[m.index()].name.clone()).collect::<Vec<_>>(),
            "passed": passed,
        })
        .to_string()
    }
}
