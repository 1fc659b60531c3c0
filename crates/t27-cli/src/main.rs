//! The `t27` command line. This crate is the only one that touches files, the terminal and
//! the process: the phases it drives are pure.

/// `print!` and `println!` that do not panic when standard output is closed (`t27 test |
/// head`): what is written after that is dropped, and the command ends as it would have.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod breaking;
mod check;
mod doc;
mod explain;
mod files;
mod fix;
mod fmt;
mod git;
mod host;
mod mirror;
mod mutate;
mod test;
mod wasm;
mod watch;

use clap::{Parser, Subcommand, ValueEnum};

use std::path::PathBuf;
use std::process::ExitCode;

/// Exit codes, documented in the README.
pub const EXIT_OK: u8 = 0;
pub const EXIT_SPEC_ERRORS: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "t27",
    version,
    about = "Checks t27 specs, runs their test and invariant blocks, and mirrors them for hosts",
    long_about = "Checks t27 specs (modules of constants, pure functions, and test and invariant \
blocks) with coded diagnostics, runs their blocks on the reference evaluator or as native code, \
and mirrors their constants and functions as TypeScript, JavaScript and Rust. Every command \
that reads specs takes files and folders (default: `specs`); a spec's root, where `use` paths \
start, is the nearest folder named `specs` above the file, wherever the command runs from, \
or `--root DIR`. `t27 explain CODE` explains a diagnostic."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Rendered diagnostics for people.
    Human,
    /// One JSON object per diagnostic per line.
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    Tiered,
    Jit,
    Eval,
}

impl EngineArg {
    fn engine(self) -> t27_run::Engine {
        match self {
            EngineArg::Tiered => t27_run::Engine::DEFAULT,
            EngineArg::Jit => t27_run::Engine::Jit,
            EngineArg::Eval => t27_run::Engine::Eval,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HostArg {
    /// Node.js, on the JavaScript mirror.
    Js,
    /// Node.js, on the TypeScript mirror compiled by `tsc --strict`.
    Ts,
    /// Native code from the Rust mirror, compiled by `rustc -O`.
    Rust,
    /// Each module's blocks compiled into a wasm test card, run by Node's WebAssembly.
    Wasm,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    Ts,
    Js,
    Rust,
    /// A wasm card per module (`queen/dispatch.wasm`): imports nothing, exports `memory` and
    /// each public function by its name.
    Wasm,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// By the spec's path under its root: `queen/review_first.ts` (Rust: a `mod.rs` a folder).
    Tree,
    /// All in the output folder: `queen-review-first.gen.ts`, `queen_review_first.rs`.
    Flat,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, resolve, type-check and fold the constants of specs, decide the asserts that use
    /// only constants, and report every error and warning (exit 1 on an error).
    Check {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The spec root `use` paths start from. Default: the nearest ancestor folder named
        /// `specs` of each file's real place (so from any folder), else the file's own folder.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
        /// When to color human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Run the test and invariant blocks of specs: each where it is cheapest (the evaluator,
    /// or native code through Cranelift), or on a host's mirror (`--host js|ts|rust`); also
    /// `--coverage`, `--watch`, `--junit`. Exit 0 only when every block passed and the specs
    /// have no error.
    Test {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The spec root `use` paths start from (as for `check`).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// The engine: each block where it is cheapest (`tiered`: the evaluator, or native
        /// code for heavy blocks and blocks that run long), native code for every block
        /// (`jit`), or the reference evaluator (`eval`).
        #[arg(long, value_enum, default_value_t = EngineArg::Tiered)]
        engine: EngineArg,
        /// Stop a block that runs longer than this many seconds (reported as timed out).
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        timeout: f64,
        /// Run only the blocks whose `module::name` contains TEXT.
        #[arg(long, value_name = "TEXT")]
        filter: Option<String>,
        /// With --filter: run only the block whose `module::name` is exactly TEXT.
        #[arg(long, requires = "filter")]
        exact: bool,
        /// List the blocks that would run, without running them.
        #[arg(long)]
        list: bool,
        /// Output format: human text, or JSON lines streamed as blocks finish.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Also write a JUnit XML report to FILE.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Write where the JIT put each function and block to /tmp/perf-PID.map, so that
        /// `perf report` names compiled code.
        #[arg(long)]
        perf_map: bool,
        /// Count what the blocks reach in the functions of the requested modules, and print it
        /// per module and function: lines, and every branch arm (each `if`/`else` arm, `switch`
        /// arm, both outcomes of each condition and `and`/`or` operand, a loop entered and
        /// not), with every arm never taken shown at its place. With --format json, as JSON lines.
        #[arg(long, conflicts_with_all = ["host", "watch", "list"])]
        coverage: bool,
        /// Write the coverage as an lcov tracefile to FILE (for `genhtml`, editors, CI).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["host", "watch", "list"])]
        lcov: Option<PathBuf>,
        /// When to color human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// Run every block on a host, as generated code (`t27 gen --tests`), instead of on an
        /// engine: `js` (Node.js), `ts` (compiled with `tsc`, then Node.js), `rust`
        /// (compiled with `rustc`) or `wasm` (a test card per module, run by Node's
        /// WebAssembly).
        #[arg(long, value_enum, value_name = "HOST")]
        host: Option<HostArg>,
        /// The TypeScript compiler for `--host ts` (default: `tsc` on the PATH).
        #[arg(long, value_name = "PATH")]
        tsc: Option<PathBuf>,
        /// Run every block, then, on every save, the blocks of the changed modules and of the
        /// modules that import them, until stopped (Ctrl-C).
        #[arg(long, conflicts_with_all = ["list", "junit"])]
        watch: bool,
    },
    /// Mutation testing: change the functions of specs a little at a time (comparisons and
    /// their boundaries, `and`/`or`, `!`, integer constants one up and down, guards dropped,
    /// returned values replaced, loop bounds moved), run the blocks that reach each change,
    /// and report every change no block noticed.
    Mutate {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The spec root `use` paths start from (as for `check`).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// The engine the blocks run on (as for `test`).
        #[arg(long, value_enum, default_value_t = EngineArg::Tiered)]
        engine: EngineArg,
        /// The budget of each block on the specs as they are, in seconds; against a mutant,
        /// a block may take 10 times its own time unchanged plus 0.2 s.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        timeout: f64,
        /// Pass (exit 0) when the score, the percentage of mutants killed or timed out,
        /// is at least this, though some survive.
        #[arg(long, value_name = "PERCENT")]
        min_score: Option<f64>,
        /// Output format: human text, or JSON lines (one per mutant, then a summary).
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// When to color human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Compare the public declarations of specs with the same specs at a git revision or in
    /// a folder: every change a host would notice, and which of them break it.
    Breaking {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The earlier tree: a git revision of the repository the paths are in (read through
        /// git, the work tree untouched), or a folder that stands for the current folder. It
        /// must hold at least one module of the tree (else exit 2).
        #[arg(long, value_name = "REV|DIR")]
        against: String,
        /// The spec root `use` paths start from (as for `check`), in both trees.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Output format: rendered changes, or one JSON object per change and a summary.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// When to color human output.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Write the specs as a static site: an index, and a page per module with its comments,
    /// every declaration with its value or signature and linked source, a Try-it panel for
    /// every public function (run in the page by its JavaScript mirror), grids and truth
    /// tables, and its blocks with their outcomes (`--run`)
    Doc {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The folder the site is written to (made if missing; files already there are
        /// replaced, others kept).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The spec root `use` paths start from (as for `check`).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Run the test and invariant blocks and show each one's outcome on its page.
        #[arg(long)]
        run: bool,
        /// With `--run`, the budget of each block, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        timeout: f64,
    },
    /// Generate host mirrors of specs: every public constant with its computed value, every
    /// function with the engines' meaning, structs, and with `--tests` the blocks
    /// (`t27 gen ts`, `t27 gen js` or `t27 gen rust`); or sandboxed WebAssembly cards, one a
    /// module, exporting its public functions (`t27 gen wasm`).
    Gen {
        /// `ts` (TypeScript), `js` (JavaScript, with a `.d.ts` beside each file), `rust`, or
        /// `wasm` (a card per module).
        #[arg(value_enum)]
        target: TargetArg,
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The spec root `use` paths start from (as for `check`); files are placed by their
        /// path under it.
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// The folder to write to.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Write nothing; report every stale, missing or hand-edited file and exit 1 if any.
        #[arg(long)]
        check: bool,
        /// How the files are named and placed: `tree` (by the spec's path under its root) or
        /// `flat` (all in the output folder, named from that path, as `queen-review-first.gen.ts`).
        #[arg(long, value_enum, default_value = "tree")]
        layout: LayoutArg,
        /// Also write each module's test and invariant blocks as a test file beside its
        /// mirror (`dispatch.test.ts`; `node --test` runs them). `ts` and `js` only.
        #[arg(long)]
        tests: bool,
    },
    /// Print every constant of the specs with its computed value (the modules that compile).
    Consts {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The spec root `use` paths start from (as for `check`).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// `json`: one object per constant per line (`module`, `file`, `name`, `pub`, `type`, `value`).
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Rewrite specs in the canonical layout (indentation, spacing, long lists wrapped),
    /// every comment kept; a file with syntax errors is left as it is, with its errors.
    Fmt {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// Change nothing: list the files that are not formatted, and exit 1 if any.
        #[arg(long)]
        check: bool,
        /// Format standard input to standard output.
        #[arg(long, conflicts_with = "paths")]
        stdin: bool,
        /// When to color diagnostics.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Apply every certain fix the diagnostics carry (each warning's that has one, and the
    /// errors whose fix is certain) to the given specs; exit 1 when errors no certain fix
    /// removes remain.
    Fix {
        /// Spec files or folders (searched recursively for `*.t27`). Default: `specs`.
        paths: Vec<PathBuf>,
        /// The spec root `use` paths start from (as for `check`).
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        /// Change nothing: print the changes as a unified diff.
        #[arg(long)]
        dry_run: bool,
    },
    /// The language server, over standard input and output: diagnostics as you type,
    /// hover, definitions, references, symbols, completion, fixes, formatting, rename, and a
    /// code lens that runs one test block (README: editor set-up).
    Lsp,
    /// Explain a diagnostic code, with an example and the fix: `t27 explain E0101`.
    Explain {
        /// The code, e.g. `E0101`; `t27 explain --list` lists them all.
        code: Option<String>,
        /// List every code with its title.
        #[arg(long)]
        list: bool,
    },
}

fn main() -> ExitCode {
    t27_alloc::setup();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage = e.use_stderr();
            let _ = e.print();
            // `t27 test` keeps 2 for specs that do not compile, so its usage errors are 3.
            let is_test = matches!(std::env::args().nth(1).as_deref(), Some("test" | "mutate"));
            let code = match (usage, is_test) {
                (false, _) => EXIT_OK,
                (true, true) => test::EXIT_USAGE,
                (true, false) => EXIT_USAGE,
            };
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Lsp => match t27_lsp::serve_stdio() {
            Ok(()) => EXIT_OK,
            Err(e) => {
                eprintln!("t27 lsp: {e}");
                EXIT_USAGE
            }
        },
        Command::Fix {
            paths,
            root,
            dry_run,
        } => fix::run(&fix::Options {
            paths,
            root,
            dry_run,
        }),
        Command::Fmt {
            paths,
            check,
            stdin,
            color,
        } => fmt::run(&fmt::Options {
            paths,
            check,
            stdin,
            color,
        }),
        Command::Check {
            paths,
            root,
            format,
            deny_warnings,
            color,
        } => check::run(&check::Options {
            paths,
            root,
            format,
            deny_warnings,
            color,
        }),
        Command::Test {
            paths,
            root,
            engine,
            timeout,
            filter,
            exact,
            list,
            format,
            junit,
            perf_map,
            color,
            host,
            tsc,
            watch,
            coverage,
            lcov,
        } => {
            let host = host.map(|h| host::HostOptions {
                host: match h {
                    HostArg::Js => host::Host::Js,
                    HostArg::Ts => host::Host::Ts,
                    HostArg::Rust => host::Host::Rust,
                    HostArg::Wasm => host::Host::Wasm,
                },
                tsc,
            });
            let engine = engine.engine();
            let opts = test::Options {
                paths,
                root,
                engine,
                timeout,
                filter,
                exact,
                list,
                format,
                junit,
                perf_map,
                color,
                host,
                watching: false,
                coverage,
                lcov,
            };
            if watch {
                watch::run(&opts)
            } else {
                test::run(&opts)
            }
        }
        Command::Mutate {
            paths,
            root,
            engine,
            timeout,
            min_score,
            format,
            color,
        } => mutate::run(&mutate::Options {
            paths,
            root,
            engine: engine.engine(),
            timeout,
            min_score,
            format,
            color,
        }),
        Command::Breaking {
            paths,
            against,
            root,
            format,
            color,
        } => breaking::run(&breaking::Options {
            paths,
            against,
            root,
            format,
            color,
        }),
        Command::Doc {
            paths,
            out,
            root,
            run,
            timeout,
        } => doc::run(&doc::Options {
            paths,
            root,
            out,
            run,
            timeout,
        }),
        Command::Gen {
            target,
            paths,
            root,
            out,
            check,
            layout,
            tests,
        } => {
            let layout = match layout {
                LayoutArg::Tree => t27_gen::Layout::Tree,
                LayoutArg::Flat => t27_gen::Layout::Flat,
            };
            let target = match target {
                TargetArg::Ts => t27_gen::Target::TypeScript,
                TargetArg::Js => t27_gen::Target::JavaScript,
                TargetArg::Rust => t27_gen::Target::Rust,
                TargetArg::Wasm if tests => {
                    eprintln!(
                        "error: --tests is for `ts` and `js`; a card's blocks run with `t27 test --host wasm`"
                    );
                    return ExitCode::from(EXIT_USAGE);
                }
                TargetArg::Wasm => {
                    let code = wasm::generate(&paths, root.as_deref(), &out, check, layout);
                    return ExitCode::from(code);
                }
            };
            let what = mirror::What {
                target,
                layout,
                tests,
            };
            mirror::generate(what, &paths, root.as_deref(), &out, check)
        }
        Command::Consts {
            paths,
            root,
            format,
        } => mirror::consts(&paths, root.as_deref(), format),
        Command::Explain { code, list } => explain::run(code.as_deref(), list),
    };
    ExitCode::from(code)
}
