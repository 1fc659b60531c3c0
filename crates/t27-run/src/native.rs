//! The tiered engine's native thread: it compiles a block with Cranelift while the evaluator
//! runs it on the engine thread, and runs the native code when the engine thread asks.
//!
//! Compiling a block takes milliseconds (7-16 ms for a block that loops over a string of a few
//! KB) where most blocks evaluate in microseconds, so the engine thread never waits for the
//! compiler on a guess: the evaluator goes on while this thread compiles, and the block
//! switches to native code only when the code is ready and the block is still running
//! (`engines.rs`). A compiled program borrows the program and is not `Send`, so it stays here,
//! and so does running it; the thread owns what it needs (`Arc`s), so that it need not be
//! joined: a compile nobody waits for any more does not keep the run from ending.

use crate::runner::ENGINE_STACK;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use t27_ir::{Body, Outcome, Program, TestId};
use t27_jit::{JitProgram, NativeCode};

/// One block's request for native code, shared with the engine thread.
#[derive(Default)]
pub(crate) struct Wanted {
    /// Raised here once the code is ready: the evaluator stops at its next poll.
    pub ready: Arc<AtomicBool>,
    /// Raised by the engine thread once the block ended on the evaluator: a request not yet
    /// started is dropped.
    pub dropped: AtomicBool,
    /// Whether the request was sent (the evaluator sends it at the block's mark).
    pub sent: AtomicBool,
}

enum Request {
    Compile {
        id: u64,
        test: TestId,
        body: Arc<Body>,
        wanted: Arc<Wanted>,
    },
    /// Runs the block last compiled (request `id`), from the declared module `var`s.
    Run { id: u64 },
}

enum Reply {
    Compiled {
        id: u64,
        result: Result<Vec<NativeCode>, String>,
    },
    Ran {
        id: u64,
        outcome: Option<Outcome>,
    },
}

/// The engine thread's end.
pub(crate) struct Native {
    requests: Sender<Request>,
    replies: Receiver<Reply>,
    next: u64,
}

/// A request sent, or to be sent at the mark: what the engine thread waits on.
#[derive(Clone)]
pub(crate) struct Ticket {
    pub id: u64,
    pub wanted: Arc<Wanted>,
    send: Sender<Request>,
    test: TestId,
    body: Arc<Body>,
}

impl Ticket {
    /// Sends the request (once).
    pub fn send(&self) {
        if !self.wanted.sent.swap(true, Ordering::Relaxed) {
            // A thread that is gone answers nothing: `Native::compiled` then says so.
            let _ = self.send.send(Request::Compile {
                id: self.id,
                test: self.test,
                body: Arc::clone(&self.body),
                wanted: Arc::clone(&self.wanted),
            });
        }
    }
}

impl Native {
    /// Starts the thread; `None` when it cannot be had.
    pub fn start(
        p: Arc<Program>,
        interrupt: Arc<AtomicBool>,
        counters: Option<t27_ir::Counters>,
    ) -> Option<Native> {
        let (requests, receive) = channel();
        let (reply, replies) = channel();
        std::thread::Builder::new()
            .name("t27-native".into())
            .stack_size(ENGINE_STACK)
            .spawn(move || serve(&p, &interrupt, counters, &receive, &reply))
            .ok()?;
        Some(Native {
            requests,
            replies,
            next: 0,
        })
    }

    /// A request for `test`'s native code, not sent yet.
    pub fn ticket(&mut self, test: TestId, body: &Arc<Body>) -> Ticket {
        self.next += 1;
        Ticket {
            id: self.next,
            wanted: Arc::default(),
            send: self.requests.clone(),
            test,
            body: Arc::clone(body),
        }
    }

    /// Waits for the code of `ticket` (sending the request if it was not): where it lies, or
    /// why it could not be built.
    pub fn compiled(&self, ticket: &Ticket) -> Result<Vec<NativeCode>, String> {
        ticket.send();
        loop {
            match self.replies.recv() {
                Ok(Reply::Compiled { id, result }) if id == ticket.id => return result,
                // Another block's code, built after that block ended on the evaluator.
                Ok(_) => {}
                Err(_) => return Err("the native thread stopped".into()),
            }
        }
    }

    /// Runs the code of `ticket` (which [`Native::compiled`] said was built): its outcome.
    pub fn run(&self, ticket: &Ticket) -> Option<Outcome> {
        let id = ticket.id;
        self.requests.send(Request::Run { id }).ok()?;
        loop {
            match self.replies.recv().ok()? {
                Reply::Ran { id: ran, outcome } if ran == id => return outcome,
                _ => {}
            }
        }
    }
}

/// The thread: compiles each request still wanted, keeping the last program, and runs it
/// when asked. It ends when the engine thread's end is dropped.
fn serve(
    p: &Program,
    interrupt: &Arc<AtomicBool>,
    counters: Option<t27_ir::Counters>,
    requests: &Receiver<Request>,
    reply: &Sender<Reply>,
) {
    let mut last: Option<(u64, TestId, JitProgram)> = None;
    for request in requests {
        let answer = match request {
            Request::Compile {
                id,
                test,
                body,
                wanted,
            } => {
                if wanted.dropped.load(Ordering::Relaxed) {
                    continue;
                }
                // The program before goes: a block runs natively once, right after its code.
                last = None;
                let compiled = JitProgram::compile_counting(
                    p,
                    &[(test, &body)],
                    Arc::clone(interrupt),
                    counters.clone(),
                );
                let result = match compiled {
                    Ok(program) => {
                        let code = program.native_code().to_vec();
                        last = Some((id, test, program));
                        wanted.ready.store(true, Ordering::Relaxed);
                        Ok(code)
                    }
                    Err(e) => Err(format!("JIT: {}", e.0)),
                };
                Reply::Compiled { id, result }
            }
            Request::Run { id } => match &mut last {
                Some((compiled, test, program)) if *compiled == id => {
                    program.reset_globals();
                    let outcome = program.run_block(*test);
                    Reply::Ran { id, outcome }
                }
                _ => Reply::Ran { id, outcome: None },
            },
        };
        if reply.send(answer).is_err() {
            return;
        }
    }
}
