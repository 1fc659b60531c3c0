//! The words of a spec outside its code: the header comments above `module`, the section
//! rulers (`; --- 1. What a candidate is ---`) between declarations, and doc comments, as
//! HTML. Backticks become `<code>`; nothing else is markup.

use crate::html::escape;

/// `text` escaped, with `` `code` `` spans.
pub fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(&escape(first));
    }
    let rest: Vec<&str> = parts.collect();
    // An odd backtick out stays a backtick.
    let pairs = rest.len() / 2 * 2;
    for (i, part) in rest.iter().enumerate() {
        if i >= pairs {
            out.push('`');
            out.push_str(&escape(part));
        } else if i % 2 == 0 {
            out.push_str(&format!("<code>{}</code>", escape(part)));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

/// Lines as paragraphs: a line that starts a numbered point (`1. `) or follows an empty line
/// starts a new one; the others continue the one before.
pub fn paragraphs(lines: &[&str]) -> String {
    let mut paras: Vec<String> = Vec::new();
    let mut open = false;
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        let numbered = line
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        match paras.last_mut() {
            Some(last) if open && !numbered => {
                last.push(' ');
                last.push_str(line);
            }
            _ => paras.push(line.to_string()),
        }
        open = true;
    }
    paras
        .iter()
        .map(|p| format!("<p>{}</p>\n", inline(p)))
        .collect()
}

/// The comment text of a `;` or `//` line, or `None` for any other line.
fn comment(line: &str) -> Option<&str> {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix("///") {
        return Some(rest);
    }
    line.strip_prefix(';')
        .or_else(|| line.strip_prefix("//"))
        .map(|rest| rest.strip_prefix(' ').unwrap_or(rest))
}

/// The comment lines above the `module` declaration (whose offset is `module_at`), without a
/// licence line.
pub fn header(text: &str, module_at: usize) -> Vec<&str> {
    text[..module_at.min(text.len())]
        .lines()
        .filter_map(comment)
        .filter(|c| !c.starts_with("SPDX-License-Identifier"))
        .collect()
}

/// A section ruler: `; --- Title ---...` (or `// --- Title ---`), with its title.
pub fn ruler(line: &str) -> Option<&str> {
    let rest = comment(line)?.trim();
    let title = rest.strip_prefix("---")?.trim_end_matches('-').trim();
    (!title.is_empty()).then_some(title)
}

/// Every section ruler of the text at or after `from`, with its offset.
pub fn rulers(text: &str, from: usize) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at >= from
            && let Some(title) = ruler(line)
        {
            out.push((at, title.to_string()));
        }
        at += line.len();
    }
    out
}

/// A stable anchor for a section title: `section.1-what-a-candidate-is`.
pub fn slug(title: &str) -> String {
    let mut out = String::from("section.");
    let mut dash = false;
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !out.ends_with('.') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            dash = false;
        } else {
            dash = true;
        }
    }
    out
}

/// A declaration's source without its leading doc comment lines (which the page shows as
/// prose): the offset its code starts at.
pub fn code_start(text: &str, start: usize, end: usize) -> usize {
    let mut at = start;
    while at < end {
        let line_end = text[at..end].find('\n').map_or(end, |i| at + i + 1);
        if !text[at..line_end].trim_start().starts_with("///") {
            break;
        }
        at = line_end;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_forms() {
        assert_eq!(inline("a `b` <c> `d"), "a <code>b</code> &lt;c&gt; `d");
        assert_eq!(
            ruler("; --- 1. What a candidate is -------"),
            Some("1. What a candidate is")
        );
        assert_eq!(ruler("; not a ruler"), None);
        assert_eq!(
            slug("1. What a candidate is"),
            "section.1-what-a-candidate-is"
        );
        assert_eq!(
            paragraphs(&["The rule:", "1. one", "two", "2. three"]),
            "<p>The rule:</p>\n<p>1. one two</p>\n<p>2. three</p>\n"
        );
        let text = "/// doc\n/// more\npub const A: u8 = 1;\n";
        assert_eq!(
            &text[code_start(text, 0, text.len())..],
            "pub const A: u8 = 1;\n"
        );
        let text = "// SPDX-License-Identifier: X\n; a\n; b\nmodule M;";
        assert_eq!(
            header(text, text.find("module").unwrap_or(0)),
            vec!["a", "b"]
        );
    }
}
