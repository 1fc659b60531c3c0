// The runtime of t27's Rust mirrors' functions, embedded in each mirror as `mod t27_rt`.
// Every operation a spec checks is checked here: a result out of its type's range, a
// division by zero, a shift too wide, an index out of bounds or a lossy `as` panics with the
// trap and the spec's place (`integer overflow at queen/dispatch.t27:12:8-12:19`).

use std::cell::Cell;

/// A t27 string: bytes, borrowed for the spec's literals and constants, owned when made at
/// run time.
pub type Str = std::borrow::Cow<'static, [u8]>;

pub const OVERFLOW: &str = "integer overflow";
pub const DIVISION_BY_ZERO: &str = "division by zero";
pub const SHIFT_TOO_WIDE: &str = "shift by the type's width or more";
pub const INDEX_OUT_OF_BOUNDS: &str = "index out of bounds";
pub const LOSSY_CAST: &str = "`as` would lose the value";
pub const RECURSION_TOO_DEEP: &str = "recursion too deep";

#[cold]
#[inline(never)]
pub fn trap(what: &str, at: &str) -> ! {
    panic!("{what} at {at}")
}

#[inline(always)]
pub fn ck<T>(v: Option<T>, at: &str) -> T {
    match v {
        Some(v) => v,
        None => trap(OVERFLOW, at),
    }
}

/// `a / b` checked: the quotient, or the trap (division by zero first).
#[inline(always)]
pub fn div<T>(q: Option<T>, zero: bool, at: &str) -> T {
    if zero {
        trap(DIVISION_BY_ZERO, at)
    }
    ck(q, at)
}

/// `a % b` checked: only `MIN % -1` overflows in Rust, whose exact remainder is 0.
#[inline(always)]
pub fn rem<T: Default>(r: Option<T>, zero: bool, at: &str) -> T {
    if zero {
        trap(DIVISION_BY_ZERO, at)
    }
    r.unwrap_or_default()
}

/// A value in `i128` fitted to `T`, or the trap `what`.
#[inline(always)]
pub fn fit<T: TryFrom<i128>>(v: i128, what: &str, at: &str) -> T {
    match T::try_from(v) {
        Ok(v) => v,
        Err(_) => trap(what, at),
    }
}

/// The amount of a shift of a `bits`-wide value, if it is below the width.
#[inline(always)]
pub fn shift(b: i128, bits: i128, at: &str) -> u32 {
    if b < 0 || b >= bits {
        trap(SHIFT_TOO_WIDE, at)
    }
    b as u32
}

/// `as` from f64 to an integer type of range [lo, end): the whole part, if it is in range.
#[inline(always)]
pub fn ftoi<T: TryFrom<i128>>(x: f64, lo: f64, end: f64, at: &str) -> T {
    let whole = x.trunc();
    if !x.is_finite() || whole < lo || whole >= end {
        trap(LOSSY_CAST, at)
    }
    fit(whole as i128, LOSSY_CAST, at)
}

/// An index, if it is in bounds of a length `n`.
#[inline(always)]
pub fn idx(i: i128, n: usize, at: &str) -> usize {
    if i < 0 || i >= n as i128 {
        trap(INDEX_OUT_OF_BOUNDS, at)
    }
    i as usize
}

/// A literal's or a constant's bytes.
pub const fn s(bytes: &'static [u8]) -> Str {
    std::borrow::Cow::Borrowed(bytes)
}

/// Bytes made at run time (an argument, a copy of an array), as a string of their own.
pub fn owned(bytes: &[u8]) -> Str {
    std::borrow::Cow::Owned(bytes.to_vec())
}

/// The bytes a view shows now, as a string.
pub fn bytes_of(view: &[Cell<u8>]) -> Str {
    std::borrow::Cow::Owned(view.iter().map(Cell::get).collect())
}

pub fn contains(s: &[u8], t: &[u8]) -> bool {
    t.is_empty() || s.windows(t.len()).any(|w| w == t)
}

// ---- Time budget and call depth, as the engines count them ----------------------------------

thread_local! {
    static DEADLINE: Cell<Option<std::time::Instant>> = const { Cell::new(None) };
    static FUEL: Cell<u32> = const { Cell::new(1024) };
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// What a block's run panics with when its time budget runs out.
#[derive(Debug)]
pub struct Timeout;

/// Starts a block's run: no calls nest yet, and it may run until `deadline`.
pub fn start(deadline: Option<std::time::Instant>) {
    DEADLINE.set(deadline);
    FUEL.set(1024);
    DEPTH.set(0);
}

/// A loop turn or a call: now and then, the time budget is looked at.
#[inline(always)]
pub fn tick() {
    let fuel = FUEL.get() - 1;
    FUEL.set(if fuel == 0 { 1024 } else { fuel });
    if fuel == 0 {
        if let Some(d) = DEADLINE.get() {
            if std::time::Instant::now() > d {
                std::panic::panic_any(Timeout);
            }
        }
    }
}

/// A call of a function that calls others, nested at most 10,000 deep; the guard leaves it.
pub struct Depth;

impl Drop for Depth {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get() - 1);
    }
}

#[inline(always)]
pub fn enter(at: &str) -> Depth {
    tick();
    let d = DEPTH.get();
    if d >= 10_000 {
        trap(RECURSION_TOO_DEEP, at)
    }
    DEPTH.set(d + 1);
    Depth
}

// ---- Test blocks ------------------------------------------------------------------------------


/// A value as the host runner prints it (JSON): numbers as text, so nothing is lost.
pub trait Show {
    fn show(&self) -> String;
}

macro_rules! show_int {
    ($($t:ty),*) => {$(
        impl Show for $t {
            fn show(&self) -> String {
                format!("{{\"n\":\"{self}\"}}")
            }
        }
    )*};
}
show_int!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

impl Show for bool {
    fn show(&self) -> String {
        format!("{{\"b\":{self}}}")
    }
}

impl Show for f64 {
    fn show(&self) -> String {
        format!("{{\"n\":\"{self:?}\"}}")
    }
}

impl Show for Str {
    fn show(&self) -> String {
        let bytes: Vec<String> = self.iter().map(|b| b.to_string()).collect();
        format!("{{\"s\":[{}]}}", bytes.join(","))
    }
}

impl Show for &[Cell<u8>] {
    fn show(&self) -> String {
        let items: Vec<String> = self.iter().map(|b| b.get().show()).collect();
        format!("{{\"a\":[{}]}}", items.join(","))
    }
}

impl<T: Show, const N: usize> Show for [T; N] {
    fn show(&self) -> String {
        let items: Vec<String> = self.iter().map(|x| x.show()).collect();
        format!("{{\"a\":[{}]}}", items.join(","))
    }
}

/// The `{"a": [...]}` of a tuple's or a struct's parts.
pub fn parts(items: &[String]) -> String {
    format!("{{\"a\":[{}]}}", items.join(","))
}

macro_rules! show_tuple {
    ($($name:ident $i:tt),*) => {
        impl<$($name: Show),*> Show for ($($name,)*) {
            fn show(&self) -> String {
                parts(&[$(self.$i.show()),*])
            }
        }
    };
}
show_tuple!(A 0);
show_tuple!(A 0, B 1);
show_tuple!(A 0, B 1, C 2);
show_tuple!(A 0, B 1, C 2, D 3);
show_tuple!(A 0, B 1, C 2, D 3, E 4);
show_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
show_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
show_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// A test block's first false assert: a panic naming the place, and for a comparison both
/// sides (as JSON: `assert failed at queen/x.t27:3:1-3:20; left {"n":"5"}; right {"n":"11"}`).
#[cold]
pub fn fail(at: &str, sides: Option<(String, String)>) -> ! {
    match sides {
        Some((l, r)) => panic!("assert failed at {at}; left {l}; right {r}"),
        None => panic!("assert failed at {at}"),
    }
}
