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

/// A file or folder name of a spec's path (`reviewValve`, `999_multibots_telegraf_ci`) as the
/// Rust module that mirrors it: snake case, which `non_snake_case` accepts (`review_valve`),
/// every character an identifier cannot hold written `_` and a run of `_` written once, a `_`
/// before a leading digit (`_999_multibots_telegraf_ci`), a keyword escaped (`r#match`,
/// `self_`). The file keeps its name: a `mod.rs` points at it with `#[path]` where the two
/// differ (`rust_mod_decl`).
pub fn rust_module(segment: &str) -> String {
    let chars: Vec<char> = segment.chars().collect();
    let mut out = String::new();
    let push = |c: char, out: &mut String| {
        // One `_` for a run: `__` is not snake case to the lint.
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            // A word starts at an upper-case letter after a lower-case one or a digit
            // (`reviewValve`), or before a lower-case one after an upper-case one (`HTTPTask`
            // is `http_task`).
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            if prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || (prev.is_some_and(|p| p.is_ascii_uppercase())
                    && next.is_some_and(|n| n.is_ascii_lowercase()))
            {
                push('_', &mut out);
            }
            push(c.to_ascii_lowercase(), &mut out);
        } else if c.is_ascii_alphanumeric() {
            push(c, &mut out);
        } else {
            push('_', &mut out);
        }
    }
    if !out.chars().any(|c| c.is_ascii_alphanumeric()) {
        // Nothing of the name is left (`-.t27`): a name all the same.
        return "t27_module".to_string();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    rust(&out)
}

/// A `mod.rs` line declaring the child `name` of a folder (the file `name.rs`, or with `dir`
/// the folder `name/`): `pub mod name;`, with `#[path = "..."]` when the Rust module name is
/// not the file's (`#[path = "reviewValve.rs"] pub mod review_valve;`).
pub fn rust_mod_decl(name: &str, dir: bool) -> String {
    let module = rust_module(name);
    if module.trim_start_matches("r#") == name {
        format!("pub mod {module};")
    } else {
        let file = if dir {
            format!("{name}/mod.rs")
        } else {
            format!("{name}.rs")
        };
        format!("#[path = {file:?}]\npub mod {module};")
    }
}

/// Each module's declared name as the start of a host identifier, by module index: what
/// another module contributes to a file is named `Module$name` in JavaScript and
/// `Module__name` in Rust. A declared name may hold `-` and `::` (`module queen-task;`,
/// `module a::b;`): each character an identifier cannot hold is a `_`, and a leading digit gets
/// a `_` before it. Two modules whose names come out the same (`module a-b;`, `module a_b;`,
/// or one name declared twice) each get their index after it (`a_b_3`), so no two share one.
pub fn module_prefixes(p: &t27_ir::Program) -> Vec<String> {
    let mut names: Vec<String> = p
        .modules
        .iter()
        .map(|m| {
            let mut s: String = m
                .name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
                s.insert(0, '_');
            }
            s
        })
        .collect();
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for n in &names {
        *count.entry(n.as_str()).or_default() += 1;
    }
    let shared: Vec<bool> = names.iter().map(|n| count[n.as_str()] > 1).collect();
    for (i, n) in names.iter_mut().enumerate() {
        if shared[i] {
            n.push_str(&format!("_{i}"));
        }
    }
    names
}
