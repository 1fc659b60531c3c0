//! The allocator of every t27 executable: the `t27` binary, and the benchmarks, so that
//! their figures are the binary's.
//!
//! A checked program is millions of small nodes. mimalloc allocates them faster than the
//! system allocator, and [`setup`] tells it never to hand freed memory back to the operating
//! system: a `t27` run is short, and memory handed back is memory faulted in again, zeroed by
//! the kernel, when the next phase allocates. On the machines this project runs on, that
//! first touch is the one cost of a large run that does not grow linearly with its size
//! (BENCHMARKS.md has the figures).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h (the same in mimalloc 2 and 3);
/// `libmimalloc-sys` does not name it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory in the process for reuse, for the rest of the run. Call it first
/// thing in `main`.
pub fn setup() {
    // SAFETY: sets one of mimalloc's global options; it takes any value, and -1 means
    // "never purge".
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn setup_turns_purging_off() {
        super::setup();
        // SAFETY: reads a mimalloc option.
        let delay = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(delay, -1);
    }
}
