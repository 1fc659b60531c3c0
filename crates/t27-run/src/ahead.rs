//! The blocks of a run, lowered a few ahead of the engine: a checked program holds no block's
//! statements (see `t27_check::BlockLowerer`), so a second thread reads and lowers each block
//! in the order they run, through a bounded channel, and each is dropped once it has run.

use t27_check::{BlockLowerer, Checked, LoweredBlock};
use t27_ir::TestId;

/// How many lowered blocks may wait for the engine.
const LOWERED_AHEAD: usize = 4;

/// The lowered blocks of a run, in order: from a thread that lowers them ahead of the engine,
/// or lowered on demand when no thread can be had.
pub(crate) struct Ahead {
    from_thread: Option<std::sync::mpsc::Receiver<(TestId, LoweredBlock)>>,
    here: Option<(BlockLowerer, std::vec::IntoIter<TestId>)>,
}

impl Ahead {
    pub(crate) fn start<'s, 'e>(
        checked: &'e Checked,
        blocks: Vec<TestId>,
        scope: &'s std::thread::Scope<'s, 'e>,
    ) -> Ahead {
        let (send, receive) = std::sync::mpsc::sync_channel(LOWERED_AHEAD);
        let mut lowerer = checked.block_lowerer();
        let ahead = blocks.clone();
        let thread = std::thread::Builder::new()
            .name("t27-lower".into())
            .stack_size(t27_check::THREAD_STACK)
            .spawn_scoped(scope, move || {
                for t in ahead {
                    // The engine stopped taking them: it is done.
                    if send.send((t, lowerer.lower(t))).is_err() {
                        break;
                    }
                }
            });
        match thread {
            Ok(_) => Ahead {
                from_thread: Some(receive),
                here: None,
            },
            Err(_) => Ahead {
                from_thread: None,
                here: Some((checked.block_lowerer(), blocks.into_iter())),
            },
        }
    }

    /// The next block, lowered; `None` after the last (or if the lowering thread panicked,
    /// which the thread scope then passes on).
    pub(crate) fn next(&mut self) -> Option<(TestId, LoweredBlock)> {
        if let Some(receive) = &self.from_thread {
            return receive.recv().ok();
        }
        let (lowerer, blocks) = self.here.as_mut()?;
        let t = blocks.next()?;
        Some((t, lowerer.lower(t)))
    }
}
