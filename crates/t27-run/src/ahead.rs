//! The blocks of a run, lowered ahead of the engine: a checked program holds no block's
//! statements (see `t27_check::BlockLowerer`), so other threads read and lower the blocks in
//! turn, a few batches ahead through bounded channels, and the engine takes them in order.
//! Lowering a block costs more than evaluating it (a replay block of 1,000 asserts: read,
//! checked and lowered in about 2 ms, evaluated in about 1 ms), so one thread would keep the
//! engine waiting. Blocks go in batches of about [`BATCH_BYTES`] of source: handing a small
//! block from one thread to another cost more than lowering it (348 blocks of the owner-like
//! tree ran 30% slower one by one).

use std::sync::mpsc::{Receiver, sync_channel};
use t27_check::{BlockLowerer, Checked, LoweredBlock};
use t27_ir::TestId;

/// How many batches may wait for the engine, per lowering thread.
const BATCHES_AHEAD: usize = 2;

/// A batch is handed over once its blocks' source comes to this.
const BATCH_BYTES: usize = 32 << 10;

type Batch = std::vec::IntoIter<(TestId, LoweredBlock)>;

/// The most threads that lower blocks.
const MOST_LOWERING_THREADS: usize = 4;

/// From how many bytes of block source threads lower the blocks, and run them (unless told
/// how many).
pub(crate) const THREADS_FROM_BYTES: usize = 64 << 10;

/// The source bytes of `blocks`.
pub(crate) fn source_bytes(checked: &Checked, blocks: &[TestId]) -> usize {
    let p = &checked.program;
    blocks
        .iter()
        .map(|t| p.tests[t.index()].body.block.span.len())
        .sum()
}

/// The lowered blocks of a run, in order: from threads that lower them ahead of the engine,
/// or lowered on demand when no thread can be had.
pub(crate) struct Ahead {
    threads: Vec<Receiver<Batch>>,
    /// The batch being taken from, and how many batches were taken.
    batch: Batch,
    taken: usize,
    here: Option<(BlockLowerer, std::vec::IntoIter<TestId>)>,
}

impl Ahead {
    /// Starts lowering `blocks` on `threads` threads (see `RunOptions::lowering_threads`).
    pub(crate) fn start<'s, 'e>(
        checked: &'e Checked,
        blocks: Vec<TestId>,
        threads: Option<usize>,
        scope: &'s std::thread::Scope<'s, 'e>,
    ) -> Ahead {
        let p = &checked.program;
        let size = |t: &TestId| p.tests[t.index()].body.block.span.len();
        let n = threads.unwrap_or_else(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            if source_bytes(checked, &blocks) < THREADS_FROM_BYTES {
                0
            } else {
                cores.clamp(1, MOST_LOWERING_THREADS)
            }
        });
        let here = |blocks: Vec<TestId>| Ahead {
            threads: Vec::new(),
            batch: Vec::new().into_iter(),
            taken: 0,
            here: Some((checked.block_lowerer(), blocks.into_iter())),
        };
        if n == 0 {
            return here(blocks);
        }
        // Runs of blocks of about a batch each, dealt to the threads in turn.
        let mut runs: Vec<Vec<TestId>> = Vec::new();
        let mut bytes = BATCH_BYTES;
        for t in &blocks {
            if bytes >= BATCH_BYTES {
                runs.push(Vec::new());
                bytes = 0;
            }
            bytes += size(t);
            runs.last_mut().into_iter().for_each(|run| run.push(*t));
        }
        let n = n.min(runs.len().max(1));
        let mut threads = Vec::with_capacity(n);
        for k in 0..n {
            let (send, receive) = sync_channel::<Batch>(BATCHES_AHEAD);
            let mut lowerer = checked.block_lowerer();
            let mine: Vec<Vec<TestId>> = runs.iter().skip(k).step_by(n).cloned().collect();
            let started = std::thread::Builder::new()
                .name("t27-lower".into())
                .stack_size(t27_check::THREAD_STACK)
                .spawn_scoped(scope, move || {
                    for run in mine {
                        let batch: Vec<_> =
                            run.into_iter().map(|t| (t, lowerer.lower(t))).collect();
                        // The engine stopped taking them: it is done.
                        if send.send(batch.into_iter()).is_err() {
                            break;
                        }
                    }
                });
            if started.is_err() {
                break;
            }
            threads.push(receive);
        }
        if threads.len() == n {
            return Ahead {
                threads,
                batch: Vec::new().into_iter(),
                taken: 0,
                here: None,
            };
        }
        // Not every thread could be had: this one lowers them all (those started stop when
        // their channels are dropped).
        here(blocks)
    }

    /// The next block, lowered; `None` after the last (or if a lowering thread panicked,
    /// which the thread scope then passes on).
    pub(crate) fn next(&mut self) -> Option<(TestId, LoweredBlock)> {
        if !self.threads.is_empty() {
            loop {
                if let Some(block) = self.batch.next() {
                    return Some(block);
                }
                let from = &self.threads[self.taken % self.threads.len()];
                self.taken += 1;
                self.batch = from.recv().ok()?;
            }
        }
        let (lowerer, blocks) = self.here.as_mut()?;
        let t = blocks.next()?;
        Some((t, lowerer.lower(t)))
    }
}
