//! Stops a block that runs too long: a thread that raises the engines' interrupt flag when the
//! current block's deadline passes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Default)]
struct State {
    deadline: Option<Instant>,
    quit: bool,
    /// Whether the thread waits with no deadline, so that only a new one wakes it. Otherwise
    /// it wakes at the deadline it last saw and looks again: arming and disarming need not
    /// wake it, which on short blocks would cost more than the blocks.
    idle: bool,
}

pub struct Watchdog {
    state: Arc<(Mutex<State>, Condvar)>,
    pub flag: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    pub fn new() -> Watchdog {
        let state: Arc<(Mutex<State>, Condvar)> = Arc::default();
        let flag = Arc::new(AtomicBool::new(false));
        let (s, f) = (Arc::clone(&state), Arc::clone(&flag));
        let thread = std::thread::Builder::new()
            .name("t27-watchdog".into())
            .spawn(move || watch(&s, &f))
            .ok();
        Watchdog {
            state,
            flag,
            thread,
        }
    }

    /// Starts the budget of a block.
    pub fn arm(&self, budget: Duration) {
        self.flag.store(false, Ordering::SeqCst);
        let (lock, cv) = &*self.state;
        if let Ok(mut s) = lock.lock() {
            s.deadline = Some(Instant::now() + budget);
            if s.idle {
                cv.notify_all();
            }
        }
    }

    /// Ends the budget of a block.
    pub fn disarm(&self) {
        let (lock, _) = &*self.state;
        if let Ok(mut s) = lock.lock() {
            s.deadline = None;
        }
        self.flag.store(false, Ordering::SeqCst);
    }
}

fn watch(state: &(Mutex<State>, Condvar), flag: &AtomicBool) {
    let (lock, cv) = state;
    let Ok(mut s) = lock.lock() else { return };
    loop {
        if s.quit {
            return;
        }
        s = match s.deadline {
            None => {
                s.idle = true;
                let mut g = match cv.wait(s) {
                    Ok(g) => g,
                    Err(_) => return,
                };
                g.idle = false;
                g
            }
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline {
                    flag.store(true, Ordering::SeqCst);
                    s.deadline = None;
                    s
                } else {
                    match cv.wait_timeout(s, deadline - now) {
                        Ok((g, _)) => g,
                        Err(_) => return,
                    }
                }
            }
        };
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, cv) = &*self.state;
        if let Ok(mut s) = lock.lock() {
            s.quit = true;
        }
        cv.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
