//! Holds the workspace-level integration tests in `tests/`; it has no code of its own.
