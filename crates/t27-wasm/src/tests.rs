//! Cards made from specs checked in memory: valid, importing nothing, the same bytes every
//! time, and the lists of what could not be compiled. What a card computes is held to the
//! evaluator by the hosts suite (`crates/t27-cli/tests/hosts.rs`, `wasm::*`), on Node.

use super::*;
use std::path::PathBuf;
use t27_check::{MemoryLoader, check};
use wasmparser::{Parser, Payload};

fn checked(files: &[(&str, &str)]) -> t27_check::Checked {
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| PathBuf::from(p)).collect();
    let owned: Vec<(PathBuf, Vec<u8>)> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.as_bytes().to_vec()))
        .collect();
    check(&paths, None, &mut MemoryLoader::new(owned))
}

fn place(_: ModuleId, span: Span) -> String {
    format!("spec.t27:{}-{}", span.start, span.end)
}

/// (imports, exported function names) of a card.
fn surface(bytes: &[u8]) -> (usize, Vec<String>) {
    let (mut imports, mut exports) = (0, Vec::new());
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.expect("a card parses") {
            Payload::ImportSection(s) => imports += s.count() as usize,
            Payload::ExportSection(s) => {
                for e in s {
                    let e = e.expect("an export");
                    exports.push(e.name.to_string());
                }
            }
            _ => {}
        }
    }
    (imports, exports)
}

const SPEC: &str = "module M;
pub const WORDS : [2]str = [\"a\", \"bb\"];
pub fn word_len(i: u32) -> usize { return WORDS[i].len; }
pub fn word(i: u32) -> str { return WORDS[i]; }
pub struct P { x: u32 }
pub fn p(x: u32) -> P { return { x: x }; }
pub fn uses_p(x: u32) -> u32 { let q = p(x); return q.x; }
fn private_helper(a: u64) -> u64 { return a * 2; }
pub fn doubled(a: u64) -> u64 { return private_helper(a); }
pub fn memory() -> u32 { return 1; }
test t { assert word_len(1) == 2; }
test s { assert uses_p(3) == 3; }
";

#[test]
fn a_card_validates_imports_nothing_and_exports_by_name() {
    let c = checked(&[("m.t27", SPEC)]);
    let card = card(&c.program, ModuleId(0), &place).expect("a card");
    let (imports, exports) = surface(&card.bytes);
    assert_eq!(imports, 0);
    for name in [
        "memory",
        "word_len",
        "doubled",
        "t27_trap_kind",
        "t27_trap_place",
        "t27_reset",
    ] {
        assert!(exports.iter().any(|e| e == name), "{name} in {exports:?}");
    }
    assert!(!exports.iter().any(|e| e == "private_helper"));
    assert_eq!(exports.iter().filter(|e| *e == "memory").count(), 1);
    // The same bytes every time.
    let again = card_bytes(&c);
    assert_eq!(card.bytes, again);
}

fn card_bytes(c: &t27_check::Checked) -> Vec<u8> {
    card(&c.program, ModuleId(0), &place).expect("a card").bytes
}

#[test]
fn what_a_card_does_not_export_is_listed_with_why() {
    let c = checked(&[("m.t27", SPEC)]);
    let card = card(&c.program, ModuleId(0), &place).expect("a card");
    let why = |name: &str| {
        card.not_exported
            .iter()
            .find(|(f, _)| c.program.functions[f.index()].decl.name == name)
            .map(|(_, w)| w.clone())
    };
    assert_eq!(
        why("word").as_deref(),
        Some("returns str: a card returns numbers only")
    );
    assert_eq!(
        why("p").as_deref(),
        Some("returns a struct: only numbers, bools and byte strings cross")
    );
    assert!(why("uses_p").is_some_and(|w| w.contains("cannot express it yet")));
    assert!(why("memory").is_some_and(|w| w.contains("exports for itself")));
    assert_eq!(why("word_len"), None);
}

#[test]
fn a_test_card_holds_the_blocks_it_can_and_says_why_not_for_the_others() {
    let c = checked(&[("m.t27", SPEC)]);
    let mut lowerer = c.block_lowerer();
    let lowered: Vec<(TestId, t27_check::LoweredBlock)> = (0..c.program.tests.len())
        .map(|i| (TestId(i as u32), lowerer.lower(TestId(i as u32))))
        .collect();
    let blocks: Vec<(TestId, &Body)> = lowered.iter().map(|(t, b)| (*t, &b.body)).collect();
    let tc = test_card(&c.program, ModuleId(0), &blocks).expect("a test card");
    assert_eq!(tc.blocks, vec![TestId(0)]);
    assert_eq!(tc.cannot.len(), 1);
    assert!(tc.cannot[0].1.contains("calls `uses_p`"), "{:?}", tc.cannot);
    let (imports, exports) = surface(&tc.bytes);
    assert_eq!(imports, 0);
    assert!(exports.contains(&"b0".to_string()));
}
