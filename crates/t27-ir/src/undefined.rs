//! What memory set to `undefined` reads as, until it is written (LANGUAGE.md 4 and 17.2).
//!
//! The owner's rule: the reference's Debug build fills such memory with 0xAA bytes, so a
//! `u8` reads 170, a `u32` 0xAAAAAAAA, an `i32` -1431655766 and an `f64` the double of eight
//! 0xAA bytes. Every engine and host takes its fill from here, so that they all agree.
//!
//! Two leaves do not read their bytes back as such (docs/language-decisions.md):
//! - a `bool` is `false`: Zig 0.17 Debug keeps the byte 0xAA but reads only its low bit, so
//!   `b`, `b == false` and `!b` all say false (checked with `zig test`);
//! - a string (`[]const u8`) is empty: in Zig its pointer and length would be 0xAA words, and
//!   reading one of its bytes crashes the reference; t27 has no value for that.
//!
//! A layout that holds `bool`s or strings therefore fills those with zeroes (`false`, the
//! empty string) and everything else with 0xAA: see [`fill`].

use crate::{IntTy, Program, Ty, Value};
use num_bigint::BigInt;

/// The byte the reference's Debug build fills `undefined` memory with.
pub const BYTE: u8 = 0xAA;

/// The bits of an `f64` made of [`BYTE`]s.
pub const F64_BITS: u64 = 0xAAAA_AAAA_AAAA_AAAA;

/// What an `undefined` integer of type `t` reads as: every byte 0xAA, two's complement for the
/// signed types (`i8` -86, `i32` -1431655766).
pub fn int(t: IntTy) -> i128 {
    let bits = t.bits();
    let pattern = (F64_BITS as u128 as i128) & ((1i128 << bits) - 1);
    if t.signed() {
        // Sign-extend from `bits`: the top bit of 0xAA is set.
        pattern - (1i128 << bits)
    } else {
        pattern
    }
}

/// What an `undefined` `f64` reads as: -3.7206620809969885e-103.
pub fn f64() -> f64 {
    f64::from_bits(F64_BITS)
}

/// The value of type `ty` that `undefined` stands for.
pub fn value(ty: &Ty, p: &Program) -> Value {
    match ty {
        Ty::Int(t) => Value::Int(BigInt::from(int(*t))),
        Ty::UntypedInt | Ty::Error | Ty::Void => Value::Int(BigInt::from(0)),
        Ty::Bool => Value::Bool(false),
        Ty::Str | Ty::MutSlice => Value::Str(Vec::new()),
        Ty::F64 => Value::F64(f64()),
        Ty::Array(t, n) => {
            let one = value(t, p);
            Value::Array(vec![one; *n as usize])
        }
        Ty::Tuple(ts) => Value::Tuple(ts.iter().map(|t| value(t, p)).collect()),
        Ty::Struct(id) => Value::Struct(p.structs.get(id.index()).map_or_else(Vec::new, |s| {
            s.fields.iter().map(|f| value(&f.ty, p)).collect()
        })),
    }
}

/// How the memory of a value of type `ty` is filled for `undefined`, whatever its layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Every byte 0xAA: the type holds no `bool` and no string.
    Bytes,
    /// Every byte 0: the type holds only `bool`s and strings (or nothing).
    Zeroes,
    /// Both: 0xAA bytes with the `bool`s and strings zeroed, element by element.
    Mixed,
}

/// How `undefined` memory of type `ty` is filled (see the module's note on `bool`s and strings).
pub fn fill(ty: &Ty, p: &Program) -> Fill {
    let (mut bytes, mut zeroes) = (false, false);
    leaves(ty, p, &mut |zeroed| {
        if zeroed {
            zeroes = true;
        } else {
            bytes = true;
        }
    });
    match (bytes, zeroes) {
        (true, false) => Fill::Bytes,
        (true, true) => Fill::Mixed,
        (false, _) => Fill::Zeroes,
    }
}

/// Calls `f` once for each kind of leaf `ty` holds: `true` for a leaf filled with zeroes.
/// An array's element is visited once, whatever its length.
fn leaves(ty: &Ty, p: &Program, f: &mut dyn FnMut(bool)) {
    match ty {
        Ty::Int(_) | Ty::F64 => f(false),
        Ty::Bool | Ty::Str | Ty::MutSlice => f(true),
        Ty::Array(t, n) if *n > 0 => leaves(t, p, f),
        Ty::Tuple(ts) => ts.iter().for_each(|t| leaves(t, p, f)),
        Ty::Struct(id) => {
            if let Some(s) = p.structs.get(id.index()) {
                s.fields.iter().for_each(|fd| leaves(&fd.ty, p, f));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_read_as_the_bytes_of_zig_debug() {
        // The values `zig test` (0.17, Debug) prints for `undefined` locals of each type.
        assert_eq!(int(IntTy::U8), 170);
        assert_eq!(int(IntTy::U16), 43690);
        assert_eq!(int(IntTy::U32), 0xAAAA_AAAA);
        assert_eq!(int(IntTy::U64), 12297829382473034410);
        assert_eq!(int(IntTy::Usize), 0xAAAA_AAAA_AAAA_AAAA);
        assert_eq!(int(IntTy::I8), -86);
        assert_eq!(int(IntTy::I16), -21846);
        assert_eq!(int(IntTy::I32), -1431655766);
        assert_eq!(int(IntTy::I64), -6148914691236517206);
        assert_eq!(f64(), -3.7206620809969885e-103);
    }

    #[test]
    fn every_value_fits_its_type() {
        for t in IntTy::ALL {
            assert!(t.fits(&BigInt::from(int(t))), "{}", t.name());
        }
    }
}
