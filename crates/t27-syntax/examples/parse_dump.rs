//! Parses the files named on the command line and prints their diagnostics (a debugging aid).
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable file");
        let (text, mut diags) = t27_syntax::decode(t27_diag::FileId(0), bytes);
        let parsed = t27_syntax::parse(t27_diag::FileId(0), &text);
        diags.extend(parsed.diagnostics);
        println!(
            "{path}: {} items, {} diagnostics",
            parsed.file.items.len(),
            diags.len()
        );
        for d in diags {
            println!("  {} {:?} {}", d.code, d.primary.span, d.message);
        }
    }
}
