//! Arbitrary bytes as a spec file, through decoding, lexing, parsing, name resolution, type
//! checking and constant evaluation, and the formatter: nothing may panic, overflow its stack
//! or hang; a text the formatter takes it formats to a text it leaves as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

fuzz_target!(|data: &[u8]| {
    let checked = t27_check::check(&[PathBuf::from("specs/fuzz.t27")], None, &mut t27_check::MemoryLoader::new([("specs/fuzz.t27", data)]));
    // Every diagnostic renders without panicking, in both formats.
    for d in &checked.diagnostics {
        let _ = t27_diag::render(d, &checked.sources, false);
        let _ = t27_diag::to_json_line(d, &checked.sources);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        match t27_fmt::format(t27_diag::FileId(0), text) {
            Ok(once) => {
                let twice = t27_fmt::format(t27_diag::FileId(0), &once);
                assert!(matches!(&twice, Ok(t) if *t == once), "not idempotent: {once:?} -> {twice:?}");
            }
            Err(t27_fmt::Unformatted::Syntax(_)) => {}
            Err(t27_fmt::Unformatted::Changed) => panic!("formatting would change the tokens of {text:?}"),
        }
    }
});
