//! Spec names that are keywords in a host language are escaped, never rejected.

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Raw identifiers cannot spell these; they get a trailing `_` instead.
const RUST_NOT_RAW: &[&str] = &["crate", "self", "Self", "super"];

/// A name as a Rust identifier: `match` is `r#match`, `self` is `self_`.
pub fn rust(name: &str) -> String {
    if RUST_NOT_RAW.contains(&name) {
        format!("{name}_")
    } else if RUST_KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

const TS_RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "implements",
    "interface",
    "let",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "yield",
    "await",
    "arguments",
    "eval",
];

/// Whether a name cannot be a TypeScript binding; such a constant is bound as `name_` and
/// exported under its own name (`export { name_ as name }`).
pub fn ts_reserved(name: &str) -> bool {
    TS_RESERVED.contains(&name)
}
