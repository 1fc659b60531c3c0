//! What compiled code shares with the host: the context every function receives, and the
//! few operations it calls back into Rust for.

use crate::layout;
use t27_ir::{Program, Shown, Ty};

/// Passed to every compiled function as its first argument. Compiled code reads and writes
/// it at the offsets below, so its layout is fixed.
#[repr(C)]
pub struct Ctx {
    /// The memory of the module `var`s.
    pub globals: *mut u8,
    /// How deep calls are nested now.
    pub depth: u32,
    /// `STATUS_*`.
    pub status: u32,
    /// The `TrapKind` index of a trap.
    pub code: u32,
    /// The site (assert or trap location) that stopped the block.
    pub site: u32,
    /// The two sides of a failed comparison: values, or pointers to them.
    pub left: [u64; 2],
    pub right: [u64; 2],
    pub host: *mut Host,
}

pub const OFF_GLOBALS: i32 = 0;
pub const OFF_DEPTH: i32 = 8;
pub const OFF_STATUS: i32 = 12;
pub const OFF_CODE: i32 = 16;
pub const OFF_SITE: i32 = 20;
pub const OFF_LEFT: i32 = 24;
pub const OFF_RIGHT: i32 = 40;

pub const STATUS_FAIL: u32 = 1;
pub const STATUS_TRAP: u32 = 2;
pub const STATUS_TIMEOUT: u32 = 3;

/// A place in the source that can stop a block, with what the host needs to report it.
pub struct Site {
    pub span: t27_diag::Span,
    /// For an assert on a comparison: the types of its two sides.
    pub sides: Option<(Ty, Ty)>,
}

/// Host-side state the compiled code reaches through `Ctx::host`.
pub struct Host {
    pub program: *const Program,
    pub sites: Vec<Site>,
    pub captured: Option<(Shown, Shown)>,
    /// The aggregate types compiled code compares with `t27_agg_eq`, by index.
    pub agg_types: Vec<Ty>,
    /// Copies of bytes a `[]u8` held when it was read as `[]const u8` (`t27_snapshot`),
    /// alive until the next block starts.
    pub snapshots: Vec<Box<[u8]>>,
}

/// Reads a side of a failed comparison: scalars are stored as their value, strings as
/// pointer and length, aggregates as a pointer.
unsafe fn side(words: &[u64; 2], ty: &Ty, p: &Program) -> Shown {
    unsafe {
        match ty {
            Ty::Str => layout::read_shown(words.as_ptr() as *const u8, ty, p),
            Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_) => {
                layout::read_shown(words[0] as *const u8, ty, p)
            }
            Ty::Int(t) => {
                let raw = words[0];
                let bits = t.bits();
                let v = if t.signed() {
                    ((raw << (64 - bits)) as i64 >> (64 - bits)) as i128
                } else if bits == 64 {
                    raw as i128
                } else {
                    (raw & ((1u64 << bits) - 1)) as i128
                };
                Shown::Int(v)
            }
            Ty::Bool => Shown::Bool(words[0] & 0xff != 0),
            Ty::F64 => Shown::F64(f64::from_bits(words[0])),
            _ => Shown::Other("()".to_string()),
        }
    }
}

/// Called by compiled code when a comparison assert fails, while the values it points to
/// are still alive.
pub extern "C" fn t27_capture(ctx: *mut Ctx) {
    unsafe {
        let ctx = &mut *ctx;
        let host = &mut *ctx.host;
        let p = &*host.program;
        if let Some(Site {
            sides: Some((lt, rt)),
            ..
        }) = host.sites.get(ctx.site as usize)
        {
            host.captured = Some((side(&ctx.left, lt, p), side(&ctx.right, rt, p)));
        }
    }
}

pub extern "C" fn t27_str_eq(a: *const u8, alen: u64, b: *const u8, blen: u64) -> u8 {
    unsafe {
        (alen == blen
            && (alen == 0
                || std::slice::from_raw_parts(a, alen as usize)
                    == std::slice::from_raw_parts(b, blen as usize))) as u8
    }
}

pub extern "C" fn t27_str_contains(a: *const u8, alen: u64, b: *const u8, blen: u64) -> u8 {
    if blen == 0 {
        return 1;
    }
    if alen < blen {
        return 0;
    }
    unsafe {
        let hay = std::slice::from_raw_parts(a, alen as usize);
        let needle = std::slice::from_raw_parts(b, blen as usize);
        hay.windows(needle.len()).any(|w| w == needle) as u8
    }
}

/// Deep equality of two aggregates; `ty` indexes the host's table of aggregate types.
pub extern "C" fn t27_agg_eq(ctx: *mut Ctx, a: *const u8, b: *const u8, ty: u64) -> u8 {
    unsafe {
        let host = &*(*ctx).host;
        let p = &*host.program;
        match host.agg_types.get(ty as usize) {
            Some(t) => layout::equal(a, b, t, p) as u8,
            None => 0,
        }
    }
}

/// A copy of `len` bytes at `ptr`, kept by the host until the next block starts.
pub extern "C" fn t27_snapshot(ctx: *mut Ctx, ptr: *const u8, len: u64) -> *const u8 {
    unsafe {
        let host = &mut *(*ctx).host;
        let bytes: Box<[u8]> = if len == 0 {
            Box::new([0u8])
        } else {
            std::slice::from_raw_parts(ptr, len as usize).into()
        };
        let at = bytes.as_ptr();
        host.snapshots.push(bytes);
        at
    }
}

pub extern "C" fn t27_fmod(a: f64, b: f64) -> f64 {
    a % b
}
