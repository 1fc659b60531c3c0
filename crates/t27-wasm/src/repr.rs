//! What each t27 type becomes in a card: wasm value types, and how a value crosses.

use t27_ir::{IntTy, Ty};
use wasm_encoder::ValType;

/// A t27 value held in wasm: one or two wasm values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// `bool` (0 or 1), and the integers of 32 bits or fewer, kept in their canonical form
    /// (zero-extended when unsigned, sign-extended when signed).
    I32,
    /// `u64`, `i64`, `usize` (and an integer literal no context typed).
    I64,
    F64,
    /// `str`, `[]const u8` and `[]u8`: an address and a length in the card's memory.
    Str,
    Void,
}

impl Repr {
    pub fn of(ty: &Ty) -> Result<Repr, String> {
        Ok(match ty {
            Ty::Int(t) if t.bits() <= 32 => Repr::I32,
            Ty::Int(_) | Ty::UntypedInt => Repr::I64,
            Ty::Bool => Repr::I32,
            Ty::F64 => Repr::F64,
            Ty::Str | Ty::MutSlice => Repr::Str,
            Ty::Void => Repr::Void,
            Ty::Array(..) => return Err("arrays held in variables or passed as values".into()),
            Ty::Tuple(_) => return Err("tuples".into()),
            Ty::Struct(_) => return Err("structs".into()),
            Ty::Error => return Err("a type with an error".into()),
        })
    }

    pub fn vals(self) -> &'static [ValType] {
        match self {
            Repr::I32 => &[ValType::I32],
            Repr::I64 => &[ValType::I64],
            Repr::F64 => &[ValType::F64],
            Repr::Str => &[ValType::I32, ValType::I32],
            Repr::Void => &[],
        }
    }
}

/// The integer type an integer-typed expression computes at (`u64` for a bare literal).
pub fn int_of(ty: &Ty) -> IntTy {
    ty.int().unwrap_or(IntTy::I64)
}

/// The wasm type of a parameter or result as the card exports it; the reason when it cannot
/// cross the boundary.
pub fn crossing(ty: &Ty, result: bool) -> Result<Repr, String> {
    match ty {
        Ty::Str | Ty::MutSlice if result => Err(format!(
            "returns {}: a card returns numbers only",
            if *ty == Ty::Str { "str" } else { "[]u8" }
        )),
        Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_) => Err(format!(
            "{} {}: only numbers, bools and byte strings cross",
            if result { "returns" } else { "takes" },
            match ty {
                Ty::Array(..) => "an array",
                Ty::Tuple(_) => "a tuple",
                _ => "a struct",
            }
        )),
        _ => Repr::of(ty),
    }
}
