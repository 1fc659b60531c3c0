//! The t27 grammar for tree-sitter: [`LANGUAGE`] for a `tree_sitter::Parser`, and the
//! highlight query ([`HIGHLIGHTS_QUERY`]) editors colour t27 with.

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_t27() -> *const ();
}

/// The t27 language.
// SAFETY: `tree_sitter_t27` is the generated parser's constructor (src/parser.c), which returns
// a pointer to its static `TSLanguage`: what `LanguageFn` wraps.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_t27) };

/// Syntax highlighting (queries/highlights.scm), with the standard capture names.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The node types of the grammar, as `tree-sitter generate` wrote them.
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");
