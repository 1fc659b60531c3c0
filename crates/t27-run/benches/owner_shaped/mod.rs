//! An owner-shaped spec tree, generated: modules in the owner's style (prose headers, `pub
//! const NAME : T`, decision functions of flat `if`s, `test` blocks of asserts) plus the shapes
//! their real tree has and the seeds lack: functions that scan `str` constants of 1-4 KB byte
//! by byte (counting a byte, checking ASCII, finding a separator, a checksum), tables
//! (`[32]u32`, `[64]u8`) looked up in loops, loops of a few hundred turns, and tests that call
//! them. Deterministic (a fixed xorshift seed): the same bytes on every machine, and every
//! expected value computed here in Rust, so a run that passes every block checks both sides.
//!
//! Written to disk by `T27_BENCH_WRITE=DIR cargo bench -p t27-run --bench engines` as
//! `DIR/owner-shaped/specs` (with the seeds in `specs/queen`), and run in memory by the
//! benchmark's smoke test.

use std::fmt::Write;

/// How many generated modules the tree has (the owner's whole tree has 26, with two seeds
/// among them).
pub const MODULES: usize = 40;

/// A fixed-seed xorshift: the tree must be the same bytes on every run and machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: [&str; 24] = [
    "the",
    "bee",
    "claim",
    "queued",
    "slot",
    "runner",
    "lease",
    "review",
    "verdict",
    "owner",
    "backlog",
    "round",
    "worker",
    "dispatch",
    "ceiling",
    "release",
    "stale",
    "ci",
    "red",
    "green",
    "keys",
    "lane",
    "send-back",
    "idle",
];

/// Prose of `len` ASCII bytes in the owner's manner: clauses split by `;` and `,`, with a
/// `:` now and then (the rule strings of `dispatch.t27`).
fn prose(rng: &mut Rng, len: usize) -> String {
    let mut s = String::new();
    while s.len() < len {
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        s.push_str(match rng.below(12) {
            0 => "; ",
            1 | 2 => ", ",
            3 => ": ",
            _ => " ",
        });
    }
    s.truncate(len);
    s
}

fn count(s: &str, b: u8) -> usize {
    s.bytes().filter(|&x| x == b).count()
}

fn find(s: &str, b: u8) -> usize {
    s.bytes().position(|x| x == b).unwrap_or(s.len())
}

/// The spec's `checksum`: bytes summed with their position's weight, folded below 65521.
fn checksum(s: &str) -> u32 {
    s.bytes().enumerate().fold(0u32, |a, (i, b)| {
        (a + b as u32 * (i as u32 % 7 + 1)) % 65521
    })
}

/// The spec's decision function, `next_of`: a state and an event to the next state.
fn next_of(state: u32, event: u32, idle_ms: u64) -> u32 {
    if state >= 12 {
        return 99;
    }
    if event == 15 {
        return 1;
    }
    if state == 0 && event <= 1 {
        return event + 1;
    }
    if idle_ms >= 1_800_000 && event == 6 {
        return 9;
    }
    if state + event > 20 {
        return 99;
    }
    (state + event) % 12
}

/// One module: `specs/shaped/m{i}.t27`.
pub fn module(i: usize) -> String {
    let mut rng = rng_of(i);
    let rules = rules_of(&mut rng);
    let len = 1024 + rng.below(1024) as usize;
    let notes = prose(&mut rng, len);
    let codes: Vec<u32> = (0..32).map(|_| rng.below(400) as u32).collect();
    let weights: Vec<u8> = (0..64).map(|_| rng.below(200) as u8).collect();
    let turns = 200 + rng.below(300) as u32;
    let keys = 200 + rng.below(200) as u32;
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "// SPDX-License-Identifier: Apache-2.0");
    let _ = writeln!(
        w,
        "; specs/shaped/m{i}.t27 -- generated for the engine benchmarks: a module in the owner's shape."
    );
    for _ in 0..6 {
        let _ = writeln!(w, "; {}", prose(&mut rng, 96));
    }
    let _ = writeln!(w, "; ASCII only (L3).");
    let _ = writeln!(w, "module ShapedM{i};");
    if i > 0 {
        let _ = writeln!(w, "use shaped::m{};", i - 1);
    }
    let _ = writeln!(w, "pub const KIND : str = \"shaped-{i}\";");
    let _ = writeln!(w, "pub const ID : str = \"shaped/m{i}\";");
    let _ = writeln!(
        w,
        "; --- States ---------------------------------------------------------------"
    );
    for k in 0..12 {
        let _ = writeln!(w, "/// State {k}: mirrored by number, none moves.");
        let _ = writeln!(w, "pub const S{k} : u32 = {k};");
    }
    let _ = writeln!(w, "pub const ILLEGAL : u32 = 99;");
    let _ = writeln!(w, "pub const STALE_MS : u64 = 1800000;");
    let _ = writeln!(
        w,
        "; --- Rules ----------------------------------------------------------------"
    );
    let _ = writeln!(
        w,
        "/// The rule as the supervisor states it, word for word."
    );
    let _ = writeln!(w, "pub const RULES : str = \"{rules}\";");
    let _ = writeln!(w, "pub const NOTES : str = \"{notes}\";");
    let list = |v: &[String]| v.join(", ");
    let codes_text: Vec<String> = codes.iter().map(u32::to_string).collect();
    let weights_text: Vec<String> = weights.iter().map(u8::to_string).collect();
    let _ = writeln!(w, "pub const CODES : [32]u32 = [{}];", list(&codes_text));
    let _ = writeln!(w, "pub const WEIGHTS : [64]u8 = [{}];", list(&weights_text));
    let _ = writeln!(
        w,
        "; --- Functions ------------------------------------------------------------"
    );
    let _ = w.write_str(FUNCTIONS);
    let _ = writeln!(
        w,
        "; --- Tests ----------------------------------------------------------------"
    );
    let _ = writeln!(w, "test the_rules_are_ascii {{");
    let _ = writeln!(w, "assert is_ascii(RULES);");
    let _ = writeln!(w, "assert is_ascii(NOTES);");
    let _ = writeln!(w, "}}");
    let _ = writeln!(w, "test the_rules_have_their_clauses {{");
    let _ = writeln!(
        w,
        "assert count_byte(RULES, 59) == {};",
        count(&rules, b';')
    );
    let _ = writeln!(
        w,
        "assert count_byte(RULES, 44) == {};",
        count(&rules, b',')
    );
    let _ = writeln!(w, "assert find_sep(RULES, 58) == {};", find(&rules, b':'));
    let _ = writeln!(w, "}}");
    let _ = writeln!(w, "test the_notes_sum_as_recorded {{");
    let _ = writeln!(w, "assert checksum(NOTES) == {};", checksum(&notes));
    let _ = writeln!(w, "assert find_sep(NOTES, 59) == {};", find(&notes, b';'));
    let _ = writeln!(w, "}}");
    let found = (0..keys).filter(|k| codes.contains(k)).count();
    let _ = writeln!(w, "test every_code_is_found_in_its_table {{");
    let _ = writeln!(w, "var found : u32 = 0;");
    let _ = writeln!(w, "var k : u32 = 0;");
    let _ = writeln!(w, "while (k < {keys}) {{");
    let _ = writeln!(w, "if (lookup(k) != ILLEGAL) {{ found += 1; }}");
    let _ = writeln!(w, "k += 1;");
    let _ = writeln!(w, "}}");
    let _ = writeln!(w, "assert found == {found};");
    let _ = writeln!(w, "}}");
    let sum: u32 = (0..turns).map(|k| weights[k as usize % 64] as u32).sum();
    let _ = writeln!(w, "test the_weights_add_up {{");
    let _ = writeln!(w, "assert weight_sum({turns}) == {sum};");
    let _ = writeln!(w, "assert weight_sum(0) == 0;");
    let _ = writeln!(w, "}}");
    let _ = writeln!(w, "test the_lifecycle_moves {{");
    for _ in 0..8 {
        let (st, ev) = (rng.below(13) as u32, rng.below(16) as u32);
        let idle = [0u64, 60_000, 1_800_000][rng.below(3) as usize];
        let _ = writeln!(
            w,
            "assert next_of({st}, {ev}, {idle}) == {};",
            next_of(st, ev, idle)
        );
    }
    let _ = writeln!(w, "}}");
    if i > 0 {
        // Across modules, as the owner's specs `use` each other.
        let prev = module_rules(i - 1);
        let _ = writeln!(w, "test the_previous_rules_are_read_here {{");
        let _ = writeln!(
            w,
            "assert m{}::count_byte(m{}::RULES, 59) == {};",
            i - 1,
            i - 1,
            count(&prev, b';')
        );
        let _ = writeln!(w, "}}");
    }
    let _ = writeln!(w, "invariant the_tables_keep_their_sizes {{");
    let _ = writeln!(w, "assert CODES.len() == 32;");
    let _ = writeln!(w, "assert WEIGHTS.len() == 64;");
    let _ = writeln!(w, "assert S11 < ILLEGAL;");
    let _ = writeln!(w, "}}");
    s
}

/// The `RULES` string of module `i` (the same draws as [`module`]).
fn module_rules(i: usize) -> String {
    rules_of(&mut rng_of(i))
}

/// Module `i`'s draws.
fn rng_of(i: usize) -> Rng {
    Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d))
}

/// A module's `RULES`: 1-4 KB, its first draws.
fn rules_of(rng: &mut Rng) -> String {
    let len = 1024 + rng.below(3 * 1024) as usize;
    prose(rng, len)
}

/// The functions every module has (the owner writes them per module, not in a library).
const FUNCTIONS: &str = r#"/// How many times byte `b` occurs in `s`.
pub fn count_byte(s: str, b: u8) -> u32 {
var n : u32 = 0;
var i : u32 = 0;
while (i < s.len()) {
if (s[i] == b) { n += 1; }
i += 1;
}
return n;
}
/// Whether every byte of `s` is ASCII (L3).
pub fn is_ascii(s: str) -> bool {
var i : u32 = 0;
while (i < s.len()) {
if (s[i] >= 128) { return false; }
i += 1;
}
return true;
}
/// Where the first `b` of `s` is, or the length of `s` when there is none.
pub fn find_sep(s: str, b: u8) -> u32 {
var i : u32 = 0;
while (i < s.len()) {
if (s[i] == b) { return i; }
i += 1;
}
return s.len() as u32;
}
/// The bytes of `s`, each weighted by its position, folded below 65521.
pub fn checksum(s: str) -> u32 {
var a : u32 = 0;
var i : u32 = 0;
while (i < s.len()) {
a = (a + s[i] * (i % 7 + 1)) % 65521;
i += 1;
}
return a;
}
/// Where `key` is in CODES, or ILLEGAL.
pub fn lookup(key: u32) -> u32 {
var i : u32 = 0;
while (i < 32) {
if (CODES[i] == key) { return i; }
i += 1;
}
return ILLEGAL;
}
/// The first `n` weights, the table read round and round.
pub fn weight_sum(n: u32) -> u32 {
var total : u32 = 0;
var i : u32 = 0;
while (i < n) {
total += WEIGHTS[i % 64];
i += 1;
}
return total;
}
/// The next state of the lifecycle, ILLEGAL for an event the state refuses.
pub fn next_of(state: u32, event: u32, idle_ms: u64) -> u32 {
if (state >= 12) { return ILLEGAL; }
if (event == 15) { return S1; }
if (state == S0 and event <= 1) { return event + 1; }
if (idle_ms >= STALE_MS and event == 6) { return S9; }
if (state + event > 20) { return ILLEGAL; }
return (state + event) % 12;
}
"#;

/// The whole tree: `specs/shaped/m{i}.t27`, paths and texts.
pub fn tree() -> Vec<(String, String)> {
    (0..MODULES)
        .map(|i| (format!("specs/shaped/m{i}.t27"), module(i)))
        .collect()
}
