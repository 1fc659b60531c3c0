//! The counters of a coverage run, shared by the engines: the evaluator adds to them, and
//! native code adds to the same memory, at an address built into it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One counter per probe `t27-cover` put in the program (`StmtKind::Count`,
/// `ExprKind::Counted`). Clones share the counters.
#[derive(Clone, Debug)]
pub struct Counters(Arc<[AtomicU64]>);

impl Counters {
    pub fn new(len: usize) -> Counters {
        Counters((0..len).map(|_| AtomicU64::new(0)).collect())
    }

    /// Adds one to counter `id` (an id past the end is ignored: it was never made).
    pub fn add(&self, id: u32) {
        if let Some(c) = self.0.get(id as usize) {
            c.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The counts now.
    pub fn counts(&self) -> Vec<u64> {
        self.0.iter().map(|c| c.load(Ordering::Relaxed)).collect()
    }

    /// Sets every counter back to `counts` (what [`Counters::counts`] gave): a run that is
    /// thrown away, and run again elsewhere, leaves no count.
    pub fn restore(&self, counts: &[u64]) {
        for (c, n) in self.0.iter().zip(counts) {
            c.store(*n, Ordering::Relaxed);
        }
    }

    /// The address of counter 0 (the others follow, 8 bytes apart), for native code, which
    /// must not outlive a clone of these counters.
    pub fn as_ptr(&self) -> *const AtomicU64 {
        self.0.as_ptr()
    }
}
