//! Random well-typed programs (t27-progen, seeded by the fuzzer) on the reference evaluator, on
//! the JIT and on the tiered engine: every block must end the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::time::Duration;
use t27_run::{BlockReport, Engine, RunOptions};

fn outcomes(checked: &t27_check::Checked, engine: Engine) -> Vec<String> {
    let opts = RunOptions { engine, timeout: Duration::from_secs(2), filter: None, exact: false, lowering_threads: None, coverage: None };
    let mut out = Vec::new();
    t27_run::run(checked, &opts, &mut |r: &BlockReport| out.push(format!("{:?}", r.result)));
    out
}

fuzz_target!(|seed: u64| {
    let source = t27_progen::program(seed);
    let checked = t27_check::check(&[PathBuf::from("specs/generated.t27")], None, &mut t27_check::MemoryLoader::new([("specs/generated.t27", source.clone())]));
    assert_eq!(checked.error_count(), 0, "seed {seed} does not check:\n{source}");
    let eval = outcomes(&checked, Engine::Eval);
    let jit = outcomes(&checked, Engine::Jit);
    assert_eq!(eval, jit, "the engines disagree on seed {seed}:\n{source}");
    // Blocks that move from the evaluator to native code part way must answer the same.
    let tiered = outcomes(&checked, Engine::Tiered { eval_budget: 5 });
    assert_eq!(eval, tiered, "the tiered engine disagrees on seed {seed}:\n{source}");
});
