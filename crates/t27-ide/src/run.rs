//! Running one test or invariant block, as `t27 test --filter MODULE::NAME --exact` would.

use crate::Analysis;
use std::path::Path;
use std::time::Duration;
use t27_run::{BlockReport, Engine, RunOptions};

/// One block's run: whether it passed and what `t27 test` prints for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestRun {
    /// `module::name`.
    pub name: String,
    pub passed: bool,
    /// `pass`, `fail`, `trap`, `timeout` or `not run`.
    pub outcome: String,
    /// The block's report as `t27 test` prints it (with the failing assert and its values).
    pub report: String,
}

impl Analysis {
    /// Runs the block `name` of the module of `path` on the default engine, with `t27
    /// test`'s default budget of 10 s; `None` when the module has no such block.
    pub fn run_test(&self, path: &Path, name: &str) -> Option<TestRun> {
        let m = self.file_id(path).and_then(|f| self.module_of(f))?;
        let full = format!("{}::{name}", self.checked.program.modules[m.index()].name);
        let opts = RunOptions {
            engine: Engine::DEFAULT,
            timeout: Duration::from_secs(10),
            filter: Some(full.clone()),
            exact: true,
            lowering_threads: None,
            engine_threads: None,
            coverage: None,
        };
        let mut reports: Vec<BlockReport> = Vec::new();
        let summary = t27_run::run(&self.checked, &opts, &mut |r: &BlockReport| {
            reports.push(r.clone());
        });
        let report = reports.into_iter().find(|r| r.module == m)?;
        let outcome = match &report.result {
            t27_run::BlockResult::Ran(o) => o.word().to_string(),
            t27_run::BlockResult::NotRun(_) => "not run".to_string(),
        };
        let mut text = t27_run::human_block(&self.checked, &report, false);
        if let Some(why) = summary.engine_error {
            text.push_str(&format!("native code could not be built: {why}\n"));
        }
        Some(TestRun {
            name: full,
            passed: report.passed(),
            outcome,
            report: text,
        })
    }
}
