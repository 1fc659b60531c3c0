//! The blocks of a run, lowered ahead of the engine: a checked program holds no block's
//! statements (see `t27_check::BlockLowerer`), so other threads read and lower the blocks in
//! turn (block `i` on thread `i % n`), each a few blocks ahead through a bounded channel, and
//! the engine takes them in order. Lowering a block costs more than evaluating it (a replay
//! block of 1,000 asserts: read, checked and lowered in about 2 ms, evaluated in about 1 ms),
//! so one thread would keep the engine waiting.

use std::sync::mpsc::{Receiver, sync_channel};
use t27_check::{BlockLowerer, Checked, LoweredBlock};
use t27_ir::TestId;

/// How many lowered blocks may wait for the engine, per lowering thread.
const LOWERED_AHEAD: usize = 4;

/// The most threads that lower blocks.
const MOST_LOWERING_THREADS: usize = 4;

/// The lowered blocks of a run, in order: from threads that lower them ahead of the engine,
/// or lowered on demand when no thread can be had.
pub(crate) struct Ahead {
    threads: Vec<Receiver<(TestId, LoweredBlock)>>,
    taken: usize,
    here: Option<(BlockLowerer, std::vec::IntoIter<TestId>)>,
}

impl Ahead {
    pub(crate) fn start<'s, 'e>(
        checked: &'e Checked,
        blocks: Vec<TestId>,
        scope: &'s std::thread::Scope<'s, 'e>,
    ) -> Ahead {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let n = cores.clamp(1, MOST_LOWERING_THREADS).min(blocks.len().max(1));
        let mut threads = Vec::with_capacity(n);
        for k in 0..n {
            let (send, receive) = sync_channel(LOWERED_AHEAD);
            let mut lowerer = checked.block_lowerer();
            let mine: Vec<TestId> = blocks.iter().skip(k).step_by(n).copied().collect();
            let started = std::thread::Builder::new()
                .name("t27-lower".into())
                .stack_size(t27_check::THREAD_STACK)
                .spawn_scoped(scope, move || {
                    for t in mine {
                        // The engine stopped taking them: it is done.
                        if send.send((t, lowerer.lower(t))).is_err() {
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
                taken: 0,
                here: None,
            };
        }
        // Not every thread could be had: this one lowers them all (those started stop when
        // their channels are dropped).
        Ahead {
            threads: Vec::new(),
            taken: 0,
            here: Some((checked.block_lowerer(), blocks.into_iter())),
        }
    }

    /// The next block, lowered; `None` after the last (or if a lowering thread panicked,
    /// which the thread scope then passes on).
    pub(crate) fn next(&mut self) -> Option<(TestId, LoweredBlock)> {
        if !self.threads.is_empty() {
            let from = &self.threads[self.taken % self.threads.len()];
            self.taken += 1;
            return from.recv().ok();
        }
        let (lowerer, blocks) = self.here.as_mut()?;
        let t = blocks.next()?;
        Some((t, lowerer.lower(t)))
    }
}
