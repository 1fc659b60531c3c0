//! `t27 test --host js|ts`: the blocks that would run, generated as test files with the code
//! they reach, run by Node.js (TypeScript compiled by `tsc` first) in a temporary folder, and
//! their outcomes handed to the runner, which reports them as it reports its own engines'.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use t27_check::{Checked, Isolation};
use t27_diag::Sources;
use t27_gen::{Layout, Target};
use t27_ir::{Body, ModuleId, TestId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Js,
    Ts,
    Rust,
    /// Each module's blocks as a test card, run by Node's WebAssembly (`wasm.rs`).
    Wasm,
}

impl Host {
    pub fn name(self) -> &'static str {
        match self {
            Host::Js => "js",
            Host::Ts => "ts",
            Host::Rust => "rust",
            Host::Wasm => "wasm",
        }
    }
}

#[derive(Clone)]
pub struct HostOptions {
    pub host: Host,
    /// The TypeScript compiler: this, or `tsc` on the PATH.
    pub tsc: Option<PathBuf>,
}

/// Why the host could not give outcomes: a tool it needs is missing (a usage error), or it
/// failed on the generated code (the code is t27's: a bug to report).
pub enum HostError {
    Missing(String),
    Failed(String),
}

/// Generates and runs on the host every block `filter` selects whose declarations compile;
/// their outcomes, by block.
pub fn answers(
    checked: &Checked,
    opts: &HostOptions,
    filter: Option<&str>,
    exact: bool,
    timeout: Duration,
) -> Result<t27_run::Answers, HostError> {
    let p = &checked.program;
    let mut lowerer = checked.block_lowerer();
    let mut isolation = Isolation::new(checked);
    let mut lowered: Vec<(ModuleId, TestId, Body)> = Vec::new();
    for s in t27_run::select(checked, filter, exact) {
        for (t, _) in s.blocks {
            let block = lowerer.lower(t);
            if isolation.blocker_of(t, &block).is_none() {
                lowered.push((s.module, t, block.body));
            }
        }
    }
    if lowered.is_empty() {
        return Ok(t27_run::Answers::default());
    }
    let mut blocks: BTreeMap<ModuleId, Vec<(TestId, &Body)>> = BTreeMap::new();
    for (m, t, body) in &lowered {
        blocks.entry(*m).or_default().push((*t, body));
    }
    let source = |m: ModuleId| checked.sources.text(p.modules[m.index()].file).to_string();
    let dir = TempDir::new().map_err(HostError::Missing)?;
    let (output, sites, cannot) = match opts.host {
        Host::Rust => {
            let places = t27_gen::Places::new(p, &source);
            let place = |m: ModuleId, span| places.place(m, span);
            let (program, sites, cannot) = t27_gen::rust_host_program(p, &blocks, &place);
            let runs = lowered.len() - cannot.len();
            let output = if runs == 0 {
                String::new()
            } else {
                let exe = compile_rust(&dir.0, &program)?;
                run_host(Command::new(exe), &dir.0, timeout, runs)?
            };
            (output, sites, cannot)
        }
        Host::Wasm => {
            let run = |cmd, runs| run_host(cmd, &dir.0, timeout, runs);
            crate::wasm::run_blocks(p, &blocks, &dir.0, timeout, lowered.len(), &run)?
        }
        Host::Js | Host::Ts => {
            let (output, sites) =
                run_on_node(p, opts, &dir, &blocks, &source, timeout, lowered.len())?;
            (output, sites, Vec::new())
        }
    };
    let results = t27_gen::host::read_results(p, &output, &sites).map_err(HostError::Failed)?;
    let mut answers = HashMap::new();
    for r in results {
        match r.outcome {
            Ok(outcome) => {
                answers.insert(r.test, (outcome, r.duration));
            }
            Err(message) => {
                let name = &p.tests[r.test.index()].decl.name;
                return Err(HostError::Failed(format!(
                    "the host failed running `{name}`: {message}"
                )));
            }
        }
    }
    Ok(t27_run::Answers {
        outcomes: answers,
        cannot: cannot.into_iter().collect(),
    })
}

/// Writes the test files for Node (compiled by `tsc` for TypeScript) and runs them; what the
/// runner printed, and the places the files name.
fn run_on_node(
    p: &t27_ir::Program,
    opts: &HostOptions,
    dir: &TempDir,
    blocks: &BTreeMap<ModuleId, Vec<(TestId, &Body)>>,
    source: &dyn Fn(ModuleId) -> String,
    timeout: Duration,
    count: usize,
) -> Result<(String, BTreeMap<String, t27_gen::js::Site>), HostError> {
    let target = match opts.host {
        Host::Ts => Target::TypeScript,
        _ => Target::JavaScript,
    };
    let (files, sites) = t27_gen::test_files(p, target, Layout::Tree, source, &|_| true, blocks);
    let src = dir.0.join("src");
    write_all(&src, &files).map_err(HostError::Missing)?;
    let order: Vec<PathBuf> = files
        .keys()
        .filter(|f| f.to_string_lossy().contains(".test."))
        .cloned()
        .collect();
    let (run_dir, tests) = match opts.host {
        Host::Ts => {
            let out = dir.0.join("js");
            compile_ts(opts.tsc.as_deref(), &src, &out, &order)?;
            let tests = order.iter().map(|f| f.with_extension("js")).collect();
            std::fs::write(out.join(t27_gen::js::RUNTIME_FILE), t27_gen::js::RUNTIME_JS)
                .map_err(|e| HostError::Missing(e.to_string()))?;
            (out, tests)
        }
        _ => (src.clone(), order),
    };
    std::fs::write(run_dir.join("package.json"), "{ \"type\": \"module\" }\n")
        .and_then(|()| std::fs::write(run_dir.join("runner.mjs"), t27_gen::js::HOST_RUNNER))
        .map_err(|e| HostError::Missing(e.to_string()))?;
    let mut node = Command::new("node");
    // The engines nest calls 10,000 deep before they trap; so must Node's stack.
    node.arg("--stack-size=7800")
        .arg("runner.mjs")
        .arg(timeout.as_millis().to_string())
        .args(&tests);
    let output = run_host(node, &run_dir, timeout, count)?;
    Ok((output, sites))
}

/// Compiles the Rust host program with `rustc -O`; the executable.
fn compile_rust(dir: &Path, program: &str) -> Result<PathBuf, HostError> {
    let main = dir.join("main.rs");
    std::fs::write(&main, program).map_err(|e| HostError::Missing(e.to_string()))?;
    let exe = dir.join("blocks");
    let output = Command::new("rustc")
        .args([
            "--edition",
            "2021",
            "-O",
            "--crate-name",
            "t27_host_blocks",
            "-o",
        ])
        .arg(&exe)
        .arg(&main)
        .output()
        .map_err(|e| {
            HostError::Missing(format!(
                "cannot run `rustc` (Rust on the PATH, https://rustup.rs): {e}"
            ))
        })?;
    if !output.status.success() {
        return Err(HostError::Failed(format!(
            "rustc rejected the generated Rust:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(exe)
}

/// A folder of our own under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, String> {
        let base = std::env::temp_dir();
        for n in 0..1000 {
            let dir = base.join(format!("t27-host-{}-{n}", std::process::id()));
            if std::fs::create_dir(&dir).is_ok() {
                return Ok(TempDir(dir));
            }
        }
        Err(format!(
            "cannot make a temporary folder in {}",
            base.display()
        ))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write_all(dir: &Path, files: &BTreeMap<PathBuf, String>) -> Result<(), String> {
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn compile_ts(
    tsc: Option<&Path>,
    src: &Path,
    out: &Path,
    tests: &[PathBuf],
) -> Result<(), HostError> {
    // A path named on the command line is from the working folder; the compiler runs in `src`.
    let tsc = tsc.map_or_else(
        || PathBuf::from("tsc"),
        |t| std::path::absolute(t).unwrap_or_else(|_| t.to_path_buf()),
    );
    let mut cmd = Command::new(&tsc);
    cmd.current_dir(src)
        .args(["--strict", "--target", "es2022", "--module", "es2022"])
        .args([
            "--moduleResolution",
            "bundler",
            "--skipLibCheck",
            "--rootDir",
            ".",
        ])
        .arg("--outDir")
        .arg(out)
        .args(tests);
    let output = cmd.output().map_err(|e| {
        HostError::Missing(format!(
            "cannot run the TypeScript compiler `{}`: {e}; install TypeScript (`npm install -g typescript`) or name it with `--tsc PATH`",
            tsc.display()
        ))
    })?;
    if !output.status.success() {
        return Err(HostError::Failed(format!(
            "tsc rejected the generated TypeScript:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(())
}

/// Runs a host's runner (`cmd`, in `dir`) and returns what it printed. Each block has its own
/// time budget inside the runner; the process as a whole gets all of them and a minute more.
fn run_host(
    mut cmd: Command,
    dir: &Path,
    timeout: Duration,
    blocks: usize,
) -> Result<String, HostError> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let mut child = cmd
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            HostError::Missing(format!(
                "cannot run `{program}` (for `node`: Node.js 18 or newer on the PATH): {e}"
            ))
        })?;
    let budget = timeout * (blocks as u32).max(1) + Duration::from_secs(60);
    let started = Instant::now();
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > budget => {
                let _ = child.kill();
                return Err(HostError::Failed(format!(
                    "`{program}` ran past every block's time budget and was stopped"
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(HostError::Failed(e.to_string())),
        }
    };
    let output = stdout.join().unwrap_or_default();
    let errors = stderr.join().unwrap_or_default();
    if !status.success() {
        return Err(HostError::Failed(format!(
            "`{program}` failed ({status}):\n{errors}"
        )));
    }
    Ok(output)
}
