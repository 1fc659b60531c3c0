//! `t27 lsp`: the language server.
//!
//! Built on `lsp-server` and `lsp-types` (rust-analyzer's transport): a synchronous loop over
//! channels, no async runtime. Every answer comes from a `t27_ide::Analysis`, checked again
//! with the editors' unsaved texts whenever a document changed, before the next request is
//! answered; changes that arrive together are checked once, and only the changed modules and
//! their importers are (`checks.rs`).
//! `Connection::memory()` lets the tests drive the same loop without a process.

mod checks;
mod convert;
mod handlers;
mod server;
mod workspace;

pub use convert::LineIndex;
pub use server::{COMMAND_RUN_TEST, capabilities, serve};

/// Serves over standard input and output until the client says `exit`.
pub fn serve_stdio() -> Result<(), String> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    let served = serve(&connection);
    drop(connection);
    // The reader and writer end with the client's pipes; one that closed them first (after
    // `shutdown`, or instead of it) is no failure of the server's.
    let _ = io_threads.join();
    served
}
