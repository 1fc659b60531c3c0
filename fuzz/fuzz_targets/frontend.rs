//! Arbitrary bytes as a spec file, through decoding, lexing, parsing, name resolution, type
//! checking and constant evaluation: nothing may panic, overflow its stack or hang.
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
});
