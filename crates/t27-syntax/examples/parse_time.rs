//! Times lexing and parsing of the files named on the command line (a profiling aid).
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
        let t = std::time::Instant::now();
        let lexed = t27_syntax::lexer::lex(t27_diag::FileId(0), &text);
        let lex = t.elapsed();
        let n = lexed.tokens.len();
        drop(lexed);
        let t = std::time::Instant::now();
        let parsed = t27_syntax::parse(t27_diag::FileId(0), &text);
        let parse = t.elapsed();
        println!(
            "{path}: {n} tokens, lex {lex:?}, lex+parse {parse:?}, {} items",
            parsed.file.items.len()
        );
        std::mem::forget(parsed);
    }
}
