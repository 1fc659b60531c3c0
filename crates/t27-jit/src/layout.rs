//! How values of each type sit in memory: sizes, alignments and field offsets, and the host
//! side's reading and writing of such memory (constants, module `var`s, failure values).

use num_traits::ToPrimitive;
use t27_ir::{IntTy, Program, Shown, Ty, Value, undefined};

/// Size and alignment in bytes. Integers and `bool` are their natural size; `f64` 8; a string
/// is a pointer and a length (16); arrays repeat their element; tuples and structs lay their
/// fields out in order with natural alignment.
pub fn size_align(ty: &Ty, p: &Program) -> (u64, u64) {
    match ty {
        Ty::Int(t) => {
            let b = (t.bits() / 8) as u64;
            (b, b)
        }
        Ty::Bool => (1, 1),
        Ty::F64 => (8, 8),
        Ty::Str | Ty::MutSlice => (16, 8),
        Ty::Array(elem, n) => {
            let (s, a) = size_align(elem, p);
            (round_up(s, a) * n, a)
        }
        Ty::Tuple(ts) => record(ts.iter(), p),
        Ty::Struct(id) => record(p.structs[id.index()].fields.iter().map(|f| &f.ty), p),
        Ty::UntypedInt | Ty::Void | Ty::Error => (0, 1),
    }
}

fn record<'a>(fields: impl Iterator<Item = &'a Ty>, p: &Program) -> (u64, u64) {
    let mut size = 0;
    let mut align = 1;
    for f in fields {
        let (s, a) = size_align(f, p);
        size = round_up(size, a) + s;
        align = align.max(a);
    }
    (round_up(size, align), align)
}

pub fn round_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// The field types of a tuple or struct, or the element type of an array.
pub fn fields(ty: &Ty, p: &Program) -> Vec<Ty> {
    match ty {
        Ty::Tuple(ts) => ts.clone(),
        Ty::Struct(id) => p.structs[id.index()]
            .fields
            .iter()
            .map(|f| f.ty.clone())
            .collect(),
        _ => Vec::new(),
    }
}

/// Byte offset of field `i` of a tuple or struct type.
pub fn field_offset(ty: &Ty, i: usize, p: &Program) -> u64 {
    let mut off = 0;
    for (j, f) in fields(ty, p).iter().enumerate() {
        let (s, a) = size_align(f, p);
        off = round_up(off, a);
        if j == i {
            return off;
        }
        off += s;
    }
    off
}

/// The stride of an array's elements.
pub fn stride(elem: &Ty, p: &Program) -> u64 {
    let (s, a) = size_align(elem, p);
    round_up(s, a)
}

/// The bytes of `undefined` memory of type `ty` ([`t27_ir::undefined`]): 0xAA, with every
/// `bool` byte and string (pointer and length) zeroed, so that they read `false` and empty.
pub fn undefined_bytes(ty: &Ty, p: &Program) -> Vec<u8> {
    let (size, _) = size_align(ty, p);
    let mut out = vec![undefined::BYTE; size as usize];
    zero_holes(&mut out, 0, ty, p);
    out
}

/// Zeroes the `bool`s and strings of a value of type `ty` at `at` in `out`.
fn zero_holes(out: &mut [u8], at: usize, ty: &Ty, p: &Program) {
    match ty {
        Ty::Bool => out[at] = 0,
        Ty::Str | Ty::MutSlice => out[at..at + 16].fill(0),
        Ty::Array(e, n) if undefined::fill(e, p) != undefined::Fill::Bytes => {
            let step = stride(e, p) as usize;
            for i in 0..*n as usize {
                zero_holes(out, at + i * step, e, p);
            }
        }
        Ty::Tuple(_) | Ty::Struct(_) => {
            for (i, f) in fields(ty, p).iter().enumerate() {
                zero_holes(out, at + field_offset(ty, i, p) as usize, f, p);
            }
        }
        _ => {}
    }
}

/// Keeps the bytes of strings written into native memory alive as long as the code runs.
#[derive(Default)]
pub struct Arena {
    bytes: Vec<Box<[u8]>>,
}

impl Arena {
    pub fn intern(&mut self, b: &[u8]) -> (u64, u64) {
        let boxed: Box<[u8]> = b.into();
        let ptr = boxed.as_ptr() as u64;
        self.bytes.push(boxed);
        (ptr, b.len() as u64)
    }
}

/// Writes `v` of type `ty` at `dst` in the layout above.
///
/// # Safety
/// `dst` must point to at least `size_align(ty).0` writable bytes.
pub unsafe fn write_value(dst: *mut u8, v: &Value, ty: &Ty, p: &Program, arena: &mut Arena) {
    unsafe {
        match (v, ty) {
            (Value::Int(i), Ty::Int(t)) => {
                let x = i.to_i128().unwrap_or_default();
                match t.bits() {
                    8 => dst.write(x as u8),
                    16 => (dst as *mut u16).write_unaligned(x as u16),
                    32 => (dst as *mut u32).write_unaligned(x as u32),
                    _ => (dst as *mut u64).write_unaligned(x as u64),
                }
            }
            (Value::Bool(b), _) => dst.write(*b as u8),
            (Value::F64(x), _) => (dst as *mut f64).write_unaligned(*x),
            (Value::Str(s), _) => {
                let (ptr, len) = arena.intern(s);
                (dst as *mut u64).write_unaligned(ptr);
                (dst.add(8) as *mut u64).write_unaligned(len);
            }
            (Value::Array(items), Ty::Array(elem, _)) => {
                let step = stride(elem, p) as usize;
                for (i, item) in items.iter().enumerate() {
                    write_value(dst.add(i * step), item, elem, p, arena);
                }
            }
            (Value::Tuple(items) | Value::Struct(items), _) => {
                let fs = fields(ty, p);
                for (i, (item, fty)) in items.iter().zip(&fs).enumerate() {
                    write_value(
                        dst.add(field_offset(ty, i, p) as usize),
                        item,
                        fty,
                        p,
                        arena,
                    );
                }
            }
            _ => {}
        }
    }
}

fn read_int(src: *const u8, t: IntTy) -> i128 {
    unsafe {
        match (t.bits(), t.signed()) {
            (8, false) => src.read() as i128,
            (8, true) => src.read() as i8 as i128,
            (16, false) => (src as *const u16).read_unaligned() as i128,
            (16, true) => (src as *const i16).read_unaligned() as i128,
            (32, false) => (src as *const u32).read_unaligned() as i128,
            (32, true) => (src as *const i32).read_unaligned() as i128,
            (_, false) => (src as *const u64).read_unaligned() as i128,
            (_, true) => (src as *const i64).read_unaligned() as i128,
        }
    }
}

/// Reads a value of type `ty` at `src` as a report shows it (the same text the evaluator
/// gives).
///
/// # Safety
/// `src` must point to a live value of type `ty` in the layout above.
pub unsafe fn read_shown(src: *const u8, ty: &Ty, p: &Program) -> Shown {
    unsafe {
        match ty {
            Ty::Int(t) => Shown::Int(read_int(src, *t)),
            Ty::Bool => Shown::Bool(src.read() != 0),
            Ty::F64 => Shown::F64((src as *const f64).read_unaligned()),
            Ty::Str => {
                let ptr = (src as *const u64).read_unaligned() as *const u8;
                let len = (src.add(8) as *const u64).read_unaligned() as usize;
                Shown::Str(if len == 0 {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(ptr, len).to_vec()
                })
            }
            Ty::Array(elem, n) => {
                let step = stride(elem, p) as usize;
                let items: Vec<String> = (0..*n as usize)
                    .map(|i| read_shown(src.add(i * step), elem, p).to_string())
                    .collect();
                Shown::Other(format!("[{}]", items.join(", ")))
            }
            Ty::Tuple(_) | Ty::Struct(_) => {
                let fs = fields(ty, p);
                let items: Vec<String> = fs
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        read_shown(src.add(field_offset(ty, i, p) as usize), f, p).to_string()
                    })
                    .collect();
                Shown::Other(format!("[{}]", items.join(", ")))
            }
            _ => Shown::Other("()".to_string()),
        }
    }
}

/// Reads a value of type `ty` at `src`.
///
/// # Safety
/// `src` must point to a live value of type `ty` in the layout above.
pub unsafe fn read_value(src: *const u8, ty: &Ty, p: &Program) -> Value {
    unsafe {
        match ty {
            Ty::Int(t) => Value::Int(read_int(src, *t).into()),
            Ty::Bool => Value::Bool(src.read() != 0),
            Ty::F64 => Value::F64((src as *const f64).read_unaligned()),
            Ty::Str => match read_shown(src, ty, p) {
                Shown::Str(bytes) => Value::Str(bytes),
                _ => Value::Str(Vec::new()),
            },
            Ty::Array(elem, n) => {
                let step = stride(elem, p) as usize;
                Value::Array(
                    (0..*n as usize)
                        .map(|i| read_value(src.add(i * step), elem, p))
                        .collect(),
                )
            }
            Ty::Tuple(_) | Ty::Struct(_) => {
                let items = fields(ty, p)
                    .iter()
                    .enumerate()
                    .map(|(i, f)| read_value(src.add(field_offset(ty, i, p) as usize), f, p))
                    .collect();
                match ty {
                    Ty::Tuple(_) => Value::Tuple(items),
                    _ => Value::Struct(items),
                }
            }
            _ => Value::Int(0.into()),
        }
    }
}

/// Deep equality of two values of type `ty` in memory (strings by their bytes).
///
/// # Safety
/// Both pointers must point to live values of type `ty`.
pub unsafe fn equal(a: *const u8, b: *const u8, ty: &Ty, p: &Program) -> bool {
    unsafe {
        match ty {
            Ty::Str => read_shown(a, ty, p) == read_shown(b, ty, p),
            Ty::F64 => (a as *const f64).read_unaligned() == (b as *const f64).read_unaligned(),
            Ty::Int(_) | Ty::Bool => {
                let n = size_align(ty, p).0 as usize;
                std::slice::from_raw_parts(a, n) == std::slice::from_raw_parts(b, n)
            }
            Ty::Array(elem, n) => {
                let step = stride(elem, p) as usize;
                (0..*n as usize).all(|i| equal(a.add(i * step), b.add(i * step), elem, p))
            }
            Ty::Tuple(_) | Ty::Struct(_) => fields(ty, p).iter().enumerate().all(|(i, f)| {
                let off = field_offset(ty, i, p) as usize;
                equal(a.add(off), b.add(off), f, p)
            }),
            _ => true,
        }
    }
}
