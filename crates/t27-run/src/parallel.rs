//! Blocks on several engine threads at once. Every block starts from the declared module
//! `var`s (LANGUAGE.md 17.1), so no block depends on another: this thread takes the blocks
//! in declaration order as they are lowered (`ahead.rs`), finds each one's blocker, and deals
//! the runnable ones to the engine threads, each with its own engines and watchdog; it
//! reports every block in declaration order, as soon as it and every block before it are
//! done. The owner's shaped tree (258 blocks, most of them byte loops the evaluator runs)
//! spends most of its run in the engine: one thread a core shares that out.

use crate::ahead::Ahead;
use crate::engines::Engines;
use crate::runner::{
    About, Answers, BlockReport, ENGINE_STACK, Ran, RunOptions, Summary, run_one, tally,
};
use crate::select::Selected;
use crate::watchdog::Watchdog;
use std::collections::VecDeque;
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Arc, Mutex};
use t27_check::{Checked, Isolation};
use t27_ir::{Body, TestId};

/// How many blocks may wait for an engine thread, per thread: enough that none waits for
/// this thread, few enough that lowered bodies do not pile up (the replay's million asserts).
const JOBS_AHEAD: usize = 4;

struct Job {
    seq: usize,
    test: TestId,
    body: Body,
}

/// [`crate::runner::run`]'s engine part on `threads` engine threads (the evaluator or the
/// tiered engine, without coverage: see `RunOptions::engine_threads`).
pub(crate) fn run_blocks(
    checked: &Checked,
    opts: &RunOptions,
    selected: &[Selected],
    mut ahead: Ahead,
    threads: usize,
    on_block: &mut (dyn FnMut(&BlockReport) + Send),
) -> Summary {
    let p = &*checked.program;
    let (engine, timeout) = (opts.engine, opts.timeout);
    let mut summary = Summary::default();
    let mut isolation = Isolation::new(checked);
    let (jobs, job_queue) = sync_channel::<Job>(threads * JOBS_AHEAD);
    let job_queue = Mutex::new(job_queue);
    let (done, finished) = channel::<(usize, Ran)>();
    std::thread::scope(|scope| {
        let mut workers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let done = done.clone();
            let job_queue = &job_queue;
            let shared = Arc::clone(&checked.program);
            let started = std::thread::Builder::new()
                .name("t27-engine".into())
                .stack_size(ENGINE_STACK)
                .spawn_scoped(scope, move || {
                    let watchdog = Watchdog::new();
                    let mut engines = Engines::new(
                        p,
                        Some(shared),
                        engine,
                        &[],
                        &watchdog.flag,
                        Answers::default(),
                        None,
                    );
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match job_queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => break,
                        };
                        let Ok(Job { seq, test, body }) = job else {
                            break;
                        };
                        let ran = run_one(&mut engines, &watchdog, timeout, p, test, body);
                        if done.send((seq, ran)).is_err() {
                            break;
                        }
                    }
                    (engines.error.clone(), engines.native_code())
                });
            if let Ok(worker) = started {
                workers.push(worker);
            }
        }
        drop(done);
        // The blocks not reported yet, in order, from `first`; each with how it ran, once known.
        let mut waiting: VecDeque<(About, Option<Ran>)> = VecDeque::new();
        let mut first = 0;
        let mut flush = |waiting: &mut VecDeque<(About, Option<Ran>)>, first: &mut usize| {
            while waiting.front().is_some_and(|(_, ran)| ran.is_some()) {
                if let Some((about, Some(ran))) = waiting.pop_front() {
                    let report = about.report(checked, ran);
                    tally(&mut summary, &report);
                    on_block(&report);
                    *first += 1;
                }
            }
        };
        let mut seq = 0;
        'blocks: for module in selected {
            for _ in &module.blocks {
                // Only a lowering thread that panicked gives none; the scope passes it on.
                let Some((t, lowered)) = ahead.next() else {
                    break 'blocks;
                };
                let blocker = isolation.blocker_of(t, &lowered);
                let (body, about) = About::of(module.module, t, lowered);
                match blocker {
                    Some(b) => waiting.push_back((about, Some(Ran::blocked(b)))),
                    None => {
                        waiting.push_back((about, None));
                        // No engine thread left (none could be started): nothing will run it.
                        if workers.is_empty() || jobs.send(Job { seq, test: t, body }).is_err() {
                            break 'blocks;
                        }
                    }
                }
                seq += 1;
                while let Ok((k, ran)) = finished.try_recv() {
                    waiting[k - first].1 = Some(ran);
                }
                flush(&mut waiting, &mut first);
            }
        }
        drop(jobs);
        for (k, ran) in &finished {
            waiting[k - first].1 = Some(ran);
            flush(&mut waiting, &mut first);
        }
        for worker in workers {
            if let Ok((error, code)) = worker.join() {
                if summary.engine_error.is_none() {
                    summary.engine_error = error;
                }
                summary.native_code.extend(code);
            }
        }
    });
    summary
}
