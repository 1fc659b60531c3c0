//! `t27 explain CODE`.

use crate::{EXIT_OK, EXIT_USAGE};

pub fn run(code: Option<&str>, list: bool) -> u8 {
    if list || code.is_none() {
        for c in t27_diag::CODES {
            outln!("{}  {}", c.code, c.title);
        }
        return EXIT_OK;
    }
    let code = code.unwrap_or_default();
    let Some(info) = t27_diag::explain(code) else {
        eprintln!("error: `{code}` is not a t27 diagnostic code; `t27 explain --list` lists them");
        return EXIT_USAGE;
    };
    out!("{}", render(info));
    EXIT_OK
}

/// The text `t27 explain` prints for one code.
pub fn render(info: &t27_diag::CodeInfo) -> String {
    let severity = if info.code.starts_with('W') {
        "warning"
    } else {
        "error"
    };
    format!(
        "{code} ({severity}): {title}\n\n{explanation}\n\nExample ({file}):\n\n{example}\nFix: {fix}\n",
        code = info.code,
        title = info.title,
        explanation = info.explanation,
        file = info.example_file,
        example = indent(&String::from_utf8_lossy(info.example)),
        fix = info.fix,
    )
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
