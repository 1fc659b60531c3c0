//! `allow-break` comments: an intended break, declared in the spec next to the change.
//!
//! ```text
//! // allow-break const_value_changed: C_STALE joins C_FAILED; the boards migrate stored 4s
//! pub const C_STALE: u32 = 3;
//! // allow-break const_removed V_BLANK: no host sends it since 2026-10
//! ```
//!
//! A comment line of its own (`//` or `;`) between declarations or in front of one (among
//! its doc lines too), never inside a body: `allow-break`, one or more kinds (comma
//! separated), optionally the declaration's name, `:` and the reason. Without a name it
//! allows the declaration that follows it; with one, that declaration (which may be gone).
//! A module's kinds are allowed by a comment anywhere in the module; `module_removed` names
//! the removed module's path and may stand in any module of the tree.

use crate::kind::Kind;
use crate::surface::ModuleSurface;
use t27_diag::{FileId, Span};

const MARKER: &str = "allow-break";

#[derive(Clone, Debug)]
pub struct Allow {
    pub file: FileId,
    /// The comment.
    pub span: Span,
    /// The path of the module it stands in.
    pub module: String,
    pub kinds: Vec<Kind>,
    /// The declaration (or, for `module_removed`, the module path) it names.
    pub name: Option<String>,
    /// The declaration that follows it, which it allows when it names none.
    pub next: Option<String>,
    pub reason: String,
}

impl Allow {
    /// The declaration it is about.
    pub fn subject(&self) -> Option<&str> {
        self.name.as_deref().or(self.next.as_deref())
    }
}

/// An `allow-break` comment that cannot be read, or that allows nothing.
#[derive(Clone, Debug)]
pub struct Problem {
    pub file: FileId,
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

/// The `allow-break` comments of a module of the new tree, and those it cannot read.
pub fn scan(m: &ModuleSurface, text: &str) -> (Vec<Allow>, Vec<Problem>) {
    let mut allows = Vec::new();
    let mut problems = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let here = start;
        start += line.len();
        let Some(rest) = directive(line) else {
            continue;
        };
        // Inside a declaration, past its name, is its body (or its value).
        if m.items
            .iter()
            .any(|(span, name, _)| (name.start as usize..span.end as usize).contains(&here))
        {
            continue;
        }
        let trimmed = line.trim_end();
        let lead = line.len() - line.trim_start().len();
        let span = Span::new(here + lead, here + trimmed.len());
        let next = m
            .items
            .iter()
            .find(|(_, name, _)| name.start as usize >= here)
            .map(|(_, _, name)| name.clone());
        match parse(rest) {
            Ok((kinds, name, reason)) => {
                let allow = Allow {
                    file: m.file,
                    span,
                    module: m.path.clone(),
                    kinds,
                    name,
                    next,
                    reason,
                };
                if allow.kinds.contains(&Kind::ModuleRemoved) && allow.name.is_none() {
                    problems.push(Problem {
                        file: m.file,
                        span,
                        message: "`module_removed` needs the removed module's path".into(),
                        help: Some(format!(
                            "write `{MARKER} module_removed queen/old_module: why`"
                        )),
                    });
                } else if allow.subject().is_none()
                    && !allow.kinds.iter().all(|k| k.is_module_kind())
                {
                    problems.push(Problem {
                        file: m.file,
                        span,
                        message:
                            "this `allow-break` follows the last declaration, so it allows nothing"
                                .into(),
                        help: Some(format!(
                            "name the declaration: `{MARKER} {} NAME: why`",
                            allow.kinds[0].as_str()
                        )),
                    });
                } else {
                    allows.push(allow);
                }
            }
            Err((message, help)) => problems.push(Problem {
                file: m.file,
                span,
                message,
                help,
            }),
        }
    }
    (allows, problems)
}

/// The text after `allow-break` when the line is such a comment.
fn directive(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let body = if t.starts_with("///") {
        return None;
    } else if let Some(b) = t.strip_prefix("//") {
        b
    } else {
        t.strip_prefix(';')?
    };
    let rest = body.trim_start().strip_prefix(MARKER)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

type Parsed = (Vec<Kind>, Option<String>, String);

fn parse(rest: &str) -> Result<Parsed, (String, Option<String>)> {
    let Some((head, reason)) = rest.split_once(':') else {
        return Err((
            "an `allow-break` comment needs `:` and the reason for the break".into(),
            Some(format!("write `{MARKER} KIND: why the break is intended`")),
        ));
    };
    let reason = reason.trim();
    if reason.is_empty() {
        return Err((
            "an `allow-break` comment needs a reason after `:`".into(),
            Some(
                "say why the break is intended: the people who read the hosts' data need it".into(),
            ),
        ));
    }
    let words: Vec<&str> = head
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let mut kinds = Vec::new();
    let mut name = None;
    for (i, w) in words.iter().enumerate() {
        match Kind::parse(w) {
            Some(k) if !k.is_breaking() => {
                return Err((
                    format!("`{w}` breaks nothing, so it needs no `allow-break`"),
                    None,
                ));
            }
            Some(k) => kinds.push(k),
            None if i + 1 == words.len() && !kinds.is_empty() => name = Some(w.to_string()),
            None => {
                let nearest = Kind::breaking()
                    .map(|k| (strsim::levenshtein(w, k.as_str()), k))
                    .min_by_key(|(d, _)| *d)
                    .filter(|(d, _)| *d <= 3)
                    .map(|(_, k)| format!("did you mean `{}`?", k.as_str()));
                let all: Vec<&str> = Kind::breaking().map(Kind::as_str).collect();
                return Err((
                    format!("`{w}` is not a kind of change"),
                    Some(nearest.unwrap_or_else(|| format!("the kinds are {}", all.join(", ")))),
                ));
            }
        }
    }
    if kinds.is_empty() {
        return Err((
            "this `allow-break` names no kind of change".into(),
            Some(format!(
                "write `{MARKER} KIND: why`, e.g. `{MARKER} const_value_changed: ...`"
            )),
        ));
    }
    Ok((kinds, name, reason.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kinds_a_name_and_the_reason() {
        let (kinds, name, reason) =
            parse(" const_value_changed, const_type_changed C_X: why").unwrap();
        assert_eq!(kinds, [Kind::ConstValueChanged, Kind::ConstTypeChanged]);
        assert_eq!(name.as_deref(), Some("C_X"));
        assert_eq!(reason, "why");
        assert!(parse(" const_value_changed").is_err());
        assert!(parse(" const_value_changed:  ").is_err());
        assert!(parse(" const_added: new").is_err());
        let (message, help) = parse(" const_valu_changed: x").unwrap_err();
        assert!(message.contains("const_valu_changed"));
        assert_eq!(help.as_deref(), Some("did you mean `const_value_changed`?"));
    }

    #[test]
    fn only_comment_lines_that_start_with_the_marker() {
        assert!(directive("// allow-break x: y").is_some());
        assert!(directive("  ; allow-break x: y").is_some());
        assert!(directive("/// allow-break x: y").is_none());
        assert!(directive("// allow-breaks x: y").is_none());
        assert!(directive("// we allow-break x: y").is_none());
        assert!(directive("pub const A: u32 = 1; // allow-break x: y").is_none());
    }
}
