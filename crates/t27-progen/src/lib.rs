//! Random well-typed t27 programs.
//!
//! [`program`] turns a seed into the source of one module: constants near the edges of their
//! types, functions with branches, bounded loops, locals, arrays, strings and structs, and
//! tests that call them. Every program checks without an error; running it may pass, fail
//! asserts, or trap (overflow, division by zero, shifts, indexes, casts) at any point, which is
//! exactly what the two engines must agree on. The differential property test and the fuzz
//! target both use it.

#![deny(clippy::unwrap_used)]

use std::fmt::Write;

/// A small, fast, deterministic generator (xorshift64*): the same seed gives the same program
/// on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum IntTy {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
}

const INT_TYPES: [IntTy; 8] = [
    IntTy::U8,
    IntTy::U16,
    IntTy::U32,
    IntTy::U64,
    IntTy::I8,
    IntTy::I16,
    IntTy::I32,
    IntTy::I64,
];

impl IntTy {
    fn name(self) -> &'static str {
        match self {
            IntTy::U8 => "u8",
            IntTy::U16 => "u16",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
        }
    }
    fn bits(self) -> u32 {
        match self {
            IntTy::U8 | IntTy::I8 => 8,
            IntTy::U16 | IntTy::I16 => 16,
            IntTy::U32 | IntTy::I32 => 32,
            IntTy::U64 | IntTy::I64 => 64,
        }
    }
    fn signed(self) -> bool {
        matches!(self, IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64)
    }
    fn min(self) -> i128 {
        if self.signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }
    fn max(self) -> i128 {
        if self.signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }
}

/// A value of `t`, often at or near an edge of its range.
fn literal(r: &mut Rng, t: IntTy) -> String {
    let (min, max) = (t.min(), t.max());
    let v: i128 = match r.below(8) {
        0 => 0,
        1 => 1,
        2 => max,
        3 => max - 1,
        4 => min,
        5 => min + 1,
        6 => (r.below(16)) as i128,
        _ => {
            let span = (max - min) as u128;
            min + (r.next() as u128 % span.max(1)) as i128
        }
    };
    // A typed literal: `(v as T)` keeps operations on it out of compile-time folding. `as`
    // binds tighter than a prefix `-`, so a negative value is parenthesised.
    if v < 0 {
        format!("(({v}) as {})", t.name())
    } else {
        format!("({v} as {})", t.name())
    }
}

struct Fn {
    name: String,
    params: Vec<IntTy>,
    ret: IntTy,
}

struct Gen {
    r: Rng,
    out: String,
    consts: Vec<(String, IntTy)>,
    fns: Vec<Fn>,
}

/// What an expression may use: the locals in scope.
#[derive(Clone, Default)]
struct Scope {
    vars: Vec<(String, IntTy, bool)>,
    arrays: Vec<(String, IntTy, u32)>,
}

impl Gen {
    fn int_expr(&mut self, t: IntTy, scope: &Scope, depth: u32) -> String {
        let leaf = depth == 0 || self.r.chance(30);
        if leaf {
            let vars: Vec<&(String, IntTy, bool)> =
                scope.vars.iter().filter(|v| v.1 == t).collect();
            let consts: Vec<&(String, IntTy)> = self.consts.iter().filter(|c| c.1 == t).collect();
            return match self.r.below(3) {
                0 if !vars.is_empty() => self.r.pick(&vars).0.clone(),
                1 if !consts.is_empty() => self.r.pick(&consts).0.clone(),
                _ => literal(&mut self.r, t),
            };
        }
        match self.r.below(10) {
            0..=3 => {
                let op = *self.r.pick(&["+", "-", "*", "/", "%", "&", "|", "^"]);
                let a = self.int_expr(t, scope, depth - 1);
                let b = self.int_expr(t, scope, depth - 1);
                format!("({a} {op} {b})")
            }
            4 => {
                let op = *self.r.pick(&["<<", ">>"]);
                let a = self.int_expr(t, scope, depth - 1);
                let mut n = self.r.below(t.bits() as u64 + 2);
                if n < t.bits() as u64 {
                    return format!("({a} {op} ({n} as u32))");
                }
                // A constant amount at or past the width is refused when the spec is checked
                // (E3004, LANGUAGE.md 6), so the amount that traps is made known only at run
                // time: zero read from a variable is added. Without a variable it stays in range.
                if scope.vars.is_empty() {
                    n = t.bits() as u64 - 1;
                    return format!("({a} {op} ({n} as u32))");
                }
                let v = self.r.pick(&scope.vars).0.clone();
                format!("({a} {op} (({n} as u32) + (({v} & 0) as u32)))")
            }
            5 => {
                let from = *self.r.pick(&INT_TYPES);
                let x = self.int_expr(from, scope, depth - 1);
                format!("({x} as {})", t.name())
            }
            6 => {
                let c = self.bool_expr(scope, depth - 1);
                let a = self.int_expr(t, scope, depth - 1);
                let b = self.int_expr(t, scope, depth - 1);
                format!("(if ({c}) {a} else {b})")
            }
            7 if t.signed() => {
                let a = self.int_expr(t, scope, depth - 1);
                format!("(-{a})")
            }
            8 => {
                let callable: Vec<usize> = (0..self.fns.len())
                    .filter(|&i| self.fns[i].ret == t)
                    .collect();
                if callable.is_empty() {
                    return literal(&mut self.r, t);
                }
                let f = *self.r.pick(&callable);
                let params = self.fns[f].params.clone();
                let args: Vec<String> = params
                    .iter()
                    .map(|p| self.int_expr(*p, scope, depth - 1))
                    .collect();
                format!("{}({})", self.fns[f].name, args.join(", "))
            }
            _ => {
                let arrays: Vec<&(String, IntTy, u32)> =
                    scope.arrays.iter().filter(|a| a.1 == t).collect();
                if arrays.is_empty() {
                    return literal(&mut self.r, t);
                }
                let (name, _, len) = (*self.r.pick(&arrays)).clone();
                // Sometimes one past the end: an index out of bounds.
                let i = self.r.below(len as u64 + 1);
                format!("{name}[({i} as u32)]")
            }
        }
    }

    fn bool_expr(&mut self, scope: &Scope, depth: u32) -> String {
        match self.r.below(5) {
            0 if depth > 0 => {
                let op = *self.r.pick(&["and", "or"]);
                let a = self.bool_expr(scope, depth - 1);
                let b = self.bool_expr(scope, depth - 1);
                format!("({a} {op} {b})")
            }
            1 if depth > 0 => format!("!({})", self.bool_expr(scope, depth - 1)),
            _ => {
                let t = *self.r.pick(&INT_TYPES);
                let op = *self.r.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let a = self.int_expr(t, scope, depth.saturating_sub(1));
                let b = self.int_expr(t, scope, depth.saturating_sub(1));
                format!("({a} {op} {b})")
            }
        }
    }

    fn statements(
        &mut self,
        scope: &mut Scope,
        ret: IntTy,
        depth: u32,
        count: u64,
        fresh: &mut u32,
    ) {
        for _ in 0..count {
            match self.r.below(7) {
                0 | 1 => {
                    let t = *self.r.pick(&INT_TYPES);
                    let e = self.int_expr(t, scope, 3);
                    *fresh += 1;
                    let name = format!("v{fresh}");
                    let _ = writeln!(self.out, "var {name} : {} = {e};", t.name());
                    scope.vars.push((name, t, true));
                }
                2 => {
                    let vars: Vec<(String, IntTy, bool)> =
                        scope.vars.iter().filter(|v| v.2).cloned().collect();
                    if vars.is_empty() {
                        continue;
                    }
                    let (name, t, _) = self.r.pick(&vars).clone();
                    let op = *self.r.pick(&["=", "+=", "-=", "*="]);
                    let e = self.int_expr(t, scope, 2);
                    let _ = writeln!(self.out, "{name} {op} {e};");
                }
                3 if depth > 0 => {
                    let c = self.bool_expr(scope, 2);
                    let _ = writeln!(self.out, "if ({c}) {{");
                    let mut inner = scope.clone();
                    let n = self.r.below(3) + 1;
                    self.statements(&mut inner, ret, depth - 1, n, fresh);
                    let _ = writeln!(self.out, "}} else {{");
                    let mut inner = scope.clone();
                    self.statements(&mut inner, ret, depth - 1, n, fresh);
                    let _ = writeln!(self.out, "}}");
                }
                4 if depth > 0 => {
                    *fresh += 1;
                    let i = format!("i{fresh}");
                    let n = self.r.below(6);
                    let _ = writeln!(self.out, "var {i} : u32 = 0;\nwhile ({i} < {n}) {{");
                    let mut inner = scope.clone();
                    inner.vars.push((i.clone(), IntTy::U32, false));
                    let k = self.r.below(3) + 1;
                    self.statements(&mut inner, ret, depth - 1, k, fresh);
                    let _ = writeln!(self.out, "{i} += 1;\n}}");
                }
                5 => {
                    let t = *self.r.pick(&INT_TYPES);
                    let len = self.r.below(4) as u32 + 1;
                    let items: Vec<String> = (0..len).map(|_| self.int_expr(t, scope, 1)).collect();
                    *fresh += 1;
                    let name = format!("a{fresh}");
                    let _ = writeln!(
                        self.out,
                        "var {name} : [{len}]{} = [{}];",
                        t.name(),
                        items.join(", ")
                    );
                    scope.arrays.push((name, t, len));
                }
                _ if depth > 0 && self.r.chance(20) => {
                    let e = self.int_expr(ret, scope, 2);
                    let c = self.bool_expr(scope, 1);
                    let _ = writeln!(self.out, "if ({c}) {{ return {e}; }}");
                }
                _ => {}
            }
        }
    }

    fn function(&mut self, index: usize) {
        let params: Vec<IntTy> = (0..self.r.below(4))
            .map(|_| *self.r.pick(&INT_TYPES))
            .collect();
        let ret = *self.r.pick(&INT_TYPES);
        let name = format!("f{index}");
        let sig: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("p{i}: {}", t.name()))
            .collect();
        let _ = writeln!(
            self.out,
            "pub fn {name}({}) -> {} {{",
            sig.join(", "),
            ret.name()
        );
        let mut scope = Scope::default();
        for (i, t) in params.iter().enumerate() {
            scope.vars.push((format!("p{i}"), *t, false));
        }
        let mut fresh = 0;
        let n = self.r.below(5) + 1;
        self.statements(&mut scope, ret, 2, n, &mut fresh);
        let e = self.int_expr(ret, &scope, 3);
        let _ = writeln!(self.out, "return {e};\n}}");
        self.fns.push(Fn { name, params, ret });
    }
}

/// The source of one random, well-typed module.
pub fn program(seed: u64) -> String {
    let mut g = Gen {
        r: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        out: String::new(),
        consts: Vec::new(),
        fns: Vec::new(),
    };
    let _ = writeln!(
        g.out,
        "// Generated by t27-progen from seed {seed}.\nmodule Generated;"
    );
    for i in 0..g.r.below(4) + 1 {
        let t = *g.r.pick(&INT_TYPES);
        let v = literal(&mut g.r, t);
        let _ = writeln!(g.out, "pub const K{i} : {} = {v};", t.name());
        g.consts.push((format!("K{i}"), t));
    }
    let _ = writeln!(
        g.out,
        "pub fn parity(n: u64) -> str {{\nif (n % 2 == 0) {{ return \"even\"; }}\nreturn \"odd\";\n}}"
    );
    let _ = writeln!(g.out, "pub struct Pair {{ lo: u32, hi: i64 }}");
    let _ = writeln!(
        g.out,
        "pub fn pair(a: u32, b: i64) -> Pair {{\nvar p : Pair = {{ lo: a, hi: b }};\np.lo += 1;\nreturn p;\n}}"
    );
    for i in 0..g.r.below(5) + 2 {
        g.function(i as usize);
    }
    for t in 0..g.r.below(6) + 2 {
        let _ = writeln!(g.out, "test t{t} {{");
        for _ in 0..g.r.below(4) + 1 {
            let f = g.r.below(g.fns.len() as u64) as usize;
            let params = g.fns[f].params.clone();
            let ret = g.fns[f].ret;
            let scope = Scope::default();
            let args: Vec<String> = params.iter().map(|p| g.int_expr(*p, &scope, 2)).collect();
            let call = format!("{}({})", g.fns[f].name, args.join(", "));
            let expected = g.int_expr(ret, &scope, 1);
            let op = *g.r.pick(&["==", "!=", "<=", ">="]);
            let _ = writeln!(g.out, "assert {call} {op} {expected};");
        }
        if g.r.chance(30) {
            let n = g.r.below(5);
            let want = *g.r.pick(&["even", "odd"]);
            let _ = writeln!(g.out, "assert parity({n} as u64) == \"{want}\";");
        }
        if g.r.chance(30) {
            let a = literal(&mut g.r, IntTy::U32);
            let _ = writeln!(
                g.out,
                "assert pair({a}, ((-1) as i64)) == {{ lo: (7 as u32), hi: ((-1) as i64) }};"
            );
        }
        let _ = writeln!(g.out, "}}");
    }
    // Appended with a random stream of its own, so that what comes before stays the program
    // each seed gave before (the seeds of earlier findings still reproduce them).
    decision_functions(
        &mut g.out,
        Rng(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1),
    );
    byte_views(
        &mut g.out,
        Rng(seed.wrapping_mul(0xA24B_AED4_963E_E407) | 1),
    );
    string_loops(
        &mut g.out,
        Rng(seed.wrapping_mul(0x9FB2_1C65_1E98_DF25) | 1),
    );
    undefined_fills(
        &mut g.out,
        Rng(seed.wrapping_mul(0xE703_7ED1_A0B4_28DB) | 1),
    );
    g.out
}

/// What an `undefined` integer of type `t` reads as: every byte 0xAA (LANGUAGE.md 17.2).
fn undefined_int(t: IntTy) -> i128 {
    let (min, max) = (t.min(), t.max());
    let span = max - min + 1;
    // `(span - 1) / 255` is 0x01 in every byte, so times 0xAA it is 0xAA in every byte; a
    // signed type reads that as negative.
    let bytes = (span - 1) / 255 * 0xAA;
    if min < 0 { bytes - span } else { bytes }
}

/// `undefined` of every integer type, in module `var` arrays, local arrays and scalars and a
/// struct with a `bool` between its integers: elements read before and after writes, through a
/// function whose local starts over on each call. The asserts compare with the 0xAA value (most
/// pass) or with a guess (which shows the value the engines read).
fn undefined_fills(out: &mut String, mut r: Rng) {
    for v in 0..r.below(2) + 1 {
        let t = *r.pick(&INT_TYPES);
        let u = *r.pick(&INT_TYPES);
        let (tn, un) = (t.name(), u.name());
        let n = r.below(4) + 1;
        let _ = writeln!(out, "pub var ufill{v} : [{n}]{tn} = undefined;");
        let _ = writeln!(out, "pub struct UCell{v} {{ a: {tn}, on: bool, b: {un} }}");
        let _ = writeln!(
            out,
            "pub fn uread{v}(k: usize, x: {tn}) -> {tn} {{\nvar loc : [{n}]{tn} = undefined;\nif (k < {n}) {{ loc[k] = x; }}\nreturn loc[{}];\n}}",
            r.below(n)
        );
        for b in 0..r.below(3) + 1 {
            let _ = writeln!(out, "test ufills{v}_{b} {{");
            let _ = writeln!(out, "var c : UCell{v} = undefined;");
            let _ = writeln!(out, "var s : {un} = undefined;");
            for _ in 0..r.below(4) + 1 {
                let want = |r: &mut Rng, t: IntTy| {
                    if r.chance(70) {
                        undefined_literal(t)
                    } else {
                        literal(r, t)
                    }
                };
                let line = match r.below(6) {
                    0 => format!("assert ufill{v}[{}] == {};", r.below(n), want(&mut r, t)),
                    1 => format!("ufill{v}[{}] = {};", r.below(n), literal(&mut r, t)),
                    2 => {
                        let k = r.below(n + 1);
                        let x = literal(&mut r, t);
                        format!("assert uread{v}({k}, {x}) == {};", want(&mut r, t))
                    }
                    3 => format!("assert c.a == {} and !c.on;", want(&mut r, t)),
                    4 => format!("assert c.b == {} or c.on;", want(&mut r, u)),
                    _ => format!("assert s == {};", want(&mut r, u)),
                };
                let _ = writeln!(out, "{line}");
            }
            if r.chance(40) {
                let _ = writeln!(out, "c.on = true;\nc.b = {};", literal(&mut r, u));
                let _ = writeln!(out, "assert c.on and c.a == {};", undefined_literal(t));
            }
            let _ = writeln!(out, "}}");
        }
    }
}

/// The 0xAA value of `t` as a typed literal.
fn undefined_literal(t: IntTy) -> String {
    let x = undefined_int(t);
    if x < 0 {
        format!("(({x}) as {})", t.name())
    } else {
        format!("({x} as {})", t.name())
    }
}

/// A string literal of up to `max` bytes from a small alphabet (so that strings often match).
fn string_literal(r: &mut Rng, max: u64) -> String {
    let len = r.below(max + 1);
    (0..len).map(|_| *r.pick(&['a', 'b', ' ', 'c'])).collect()
}

/// String parameters used inside loops, as the owner's specs do: a counter that indexes and
/// measures its string in a `while`; a scanner that, each turn, passes both its strings on to
/// it, compares them, indexes them (sometimes past the end: a trap) and measures them, and
/// reads one in a `for` loop; sometimes a struct holding a string passed on each turn; then
/// blocks that call the scanner with literals.
fn string_loops(out: &mut String, mut r: Rng) {
    for v in 0..r.below(2) + 1 {
        let _ = writeln!(
            out,
            "pub fn scount{v}(s: str, c: u8) -> u32 {{\nvar n : u32 = 0;\nvar i : usize = 0;\nwhile (i < s.len()) {{\nif (s[i] == c) {{ n += 1; }}\ni += 1;\n}}\nreturn n;\n}}"
        );
        let at = r.below(3);
        // The index is guarded, or, now and then, not (an index past the end traps).
        let index = if r.chance(75) {
            format!("s.len() > {at} and t.len() > {at} and s[{at}] == t[{at}]")
        } else {
            format!("s[{at}] == t[{at}]")
        };
        let tagged = r.chance(50);
        if tagged {
            let _ = writeln!(out, "pub struct Tag{v} {{ name: str, n: u32 }}");
            let _ = writeln!(
                out,
                "fn tagw{v}(g: Tag{v}, s: str) -> u32 {{\nreturn g.n + (g.name.len() as u32) + scount{v}(s, 98);\n}}"
            );
        }
        let _ = writeln!(
            out,
            "pub fn sscan{v}(s: str, t: str, rounds: u32) -> u32 {{\nvar total : u32 = 0;\nvar r : u32 = 0;"
        );
        if tagged {
            let _ = writeln!(out, "const g : Tag{v} = {{ name: t, n: {} }};", r.below(9));
        }
        let _ = writeln!(out, "while (r < rounds) {{");
        let _ = writeln!(out, "total += scount{v}(s, {});", *r.pick(&[97, 98, 32]));
        let _ = writeln!(out, "total += scount{v}(t, {});", *r.pick(&[97, 98, 32]));
        let _ = writeln!(out, "if (s == t) {{ total += {}; }}", r.below(100));
        let _ = writeln!(out, "if ({index}) {{ total += {}; }}", r.below(100));
        let _ = writeln!(out, "total += s.len() as u32;");
        if tagged {
            let _ = writeln!(out, "total += tagw{v}(g, s);");
        }
        let _ = writeln!(out, "r += 1;\n}}");
        let _ = writeln!(
            out,
            "for (var k : usize = 0; k < t.len; k += 1) {{\ntotal += t[k];\n}}\nreturn total;\n}}"
        );
        for b in 0..r.below(3) + 1 {
            let _ = writeln!(out, "test strings{v}_{b} {{");
            for _ in 0..r.below(3) + 1 {
                let (s, t) = (string_literal(&mut r, 4), string_literal(&mut r, 4));
                let rounds = r.below(4);
                // An assert that holds whatever the scan gives, or a guessed value (which
                // mostly fails, showing both sides).
                if r.chance(50) {
                    let _ = writeln!(
                        out,
                        "assert sscan{v}(\"{s}\", \"{t}\", {rounds}) >= scount{v}(\"{t}\", 97);"
                    );
                } else {
                    let _ = writeln!(
                        out,
                        "assert sscan{v}(\"{s}\", \"{t}\", {rounds}) == {};",
                        r.below(400)
                    );
                }
            }
            let _ = writeln!(out, "}}");
        }
    }
}

/// Writable byte slices in the owner's shape: a `put` helper that writes a byte and returns
/// the next position, skipping writes at or past a capacity; a writer that passes its view
/// on to it (and sometimes writes directly, at an index that may be out of bounds, or a byte
/// that may overflow); a reader of `[]const u8`; then blocks that fill a `var` array (a local
/// or a module `var`) through `&` and assert on what landed there.
fn byte_views(out: &mut String, mut r: Rng) {
    for v in 0..r.below(2) + 1 {
        let guard = *r.pick(&[">=", ">"]);
        let _ = writeln!(
            out,
            "pub fn bput{v}(out: []u8, w: usize, cap: usize, c: u8) -> usize {{\nif (w {guard} cap) {{ return w; }}\nout[w] = c;\nreturn w + 1;\n}}"
        );
        let step = if r.chance(70) {
            r.below(12) + 1
        } else {
            r.below(60) + 1
        };
        let direct = if r.chance(40) {
            format!("out[{}] = seed + {};\n", r.below(6), r.below(200))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "pub fn fill{v}(out: []u8, n: u8, seed: u8) -> usize {{\nvar w : usize = 0;\nvar i : u8 = 0;\nwhile (i < n) {{\nw = bput{v}(out, w, out.len, seed + i * {step});\ni += 1;\n}}\n{direct}return w;\n}}"
        );
        let _ = writeln!(
            out,
            "pub fn sum{v}(bytes: []const u8) -> u32 {{\nvar t : u32 = 0;\nvar i : usize = 0;\nwhile (i < bytes.len) {{\nt += bytes[i] as u32;\ni += 1;\n}}\nreturn t;\n}}"
        );
        let size = r.below(7) + 1;
        let _ = writeln!(out, "pub var vbuf{v} : [{size}]u8 = undefined;");
        for b in 0..r.below(3) + 1 {
            let n = r.below(9);
            let seed = if r.chance(70) {
                r.below(100)
            } else {
                r.below(256)
            };
            let len = r.below(7) + 1;
            let (target, held) = if r.chance(30) {
                (format!("vbuf{v}"), size)
            } else {
                ("buf".to_string(), len)
            };
            let _ = writeln!(
                out,
                "test views{v}_{b} {{\nvar buf : [{len}]u8 = undefined;"
            );
            let _ = writeln!(out, "let w = fill{v}(&{target}, {n}, {seed});");
            // Asserts that hold whatever was written, and asserts of a guessed value (which
            // mostly fail, showing both sides).
            let at = r.below(held);
            let _ = writeln!(
                out,
                "assert w <= {held} and sum{v}(&{target}) >= {target}[{at}] as u32;"
            );
            if r.chance(40) {
                let _ = writeln!(out, "assert w == {};", r.below(8));
            }
            if r.chance(40) {
                let _ = writeln!(out, "assert {target}[{at}] == {};", r.below(256));
            }
            if r.chance(30) {
                let _ = writeln!(out, "assert sum{v}(&{target}) == {};", r.below(1200));
            }
            if r.chance(40) {
                let _ = writeln!(
                    out,
                    "let again = fill{v}(&{target}, {}, {});",
                    r.below(4),
                    r.below(256)
                );
                let _ = writeln!(out, "assert again <= w or {target}[0] == {};", r.below(256));
            }
            let _ = writeln!(out, "}}");
        }
    }
}

/// Decision functions in the owner's shape: chains of `if (x == K) { ... return ...; }` on one
/// parameter (which the JIT compiles as switches), some arms that do not leave, keys matched
/// twice, nested chains; then a block for each of several inputs, so that both engines show
/// the value each input gives, and a block that sums the function over a run of inputs in a
/// loop.
fn decision_functions(out: &mut String, mut r: Rng) {
    for d in 0..r.below(2) + 1 {
        let t = *r.pick(&INT_TYPES);
        let key = |r: &mut Rng| r.below(8) as i64 - if t.signed() { 3 } else { 0 };
        let _ = writeln!(
            out,
            "pub fn d{d}(x: {}, y: u8) -> u32 {{\nvar acc : u32 = 0;",
            t.name()
        );
        for _ in 0..r.below(6) + 3 {
            let keys: Vec<String> = (0..r.below(3) + 1)
                .map(|_| format!("x == {}", key(&mut r)))
                .collect();
            let _ = writeln!(out, "if ({}) {{", keys.join(" or "));
            match r.below(6) {
                // An arm that stays: the chain ends before it.
                0 => {
                    let _ = writeln!(out, "acc += {};", r.below(9) + 1);
                }
                // Range tests joined by `and`, `or` and `!`, and an `if` that may fall
                // through: the JIT computes such small decisions without branches.
                5 => {
                    let _ = writeln!(
                        out,
                        "if (y >= {} and !(x == {})) {{
if (y < {} or acc > {}) {{ return {}; }}
}}
if (y <= {}) {{ return acc; }}
return {};",
                        r.below(5),
                        key(&mut r),
                        r.below(5),
                        r.below(12),
                        r.below(50),
                        r.below(5),
                        r.below(50)
                    );
                }
                1 => {
                    let _ = writeln!(
                        out,
                        "if (y == 0) {{ return {}; }}\nif (y == 1 or y == 2) {{ return acc; }}\nif (y == 3) {{ return {}; }}\nreturn {};",
                        r.below(50),
                        r.below(50),
                        r.below(50)
                    );
                }
                _ => {
                    let _ = writeln!(out, "return acc + {};", r.below(50));
                }
            }
            let _ = writeln!(out, "}}");
        }
        let _ = writeln!(out, "return acc + 100;\n}}");
        for input in 0..8 {
            let x = key(&mut r);
            let y = r.below(5);
            let want = r.below(60);
            let _ = writeln!(
                out,
                "test d{d}_{input} {{ assert d{d}({x}, {y}) == {want}; }}"
            );
        }
        // The function called in a loop over its first input, known only at run time: once
        // inlined, a switch whose cases then pick constants becomes a table load in the JIT.
        let lo = if t.signed() { -3 } else { 0 };
        let y = r.below(5);
        let _ = writeln!(
            out,
            "pub fn sweep_d{d}(n: i32) -> u32 {{\nvar total : u32 = 0;\nvar i : i32 = {lo};\nwhile (i < n) {{\ntotal += d{d}(i as {}, {y});\ni += 1;\n}}\nreturn total;\n}}",
            t.name()
        );
        let _ = writeln!(
            out,
            "test d{d}_swept {{ assert sweep_d{d}({}) == {}; }}",
            lo + 8,
            r.below(400)
        );
    }
}
