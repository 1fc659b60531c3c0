//! Types and the integer rules of section 3 of the language reference.

use crate::program::StructId;
use num_bigint::BigInt;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntTy {
    U8,
    U16,
    U32,
    U64,
    Usize,
    I8,
    I16,
    I32,
    I64,
}

impl IntTy {
    pub const ALL: [IntTy; 9] = [
        IntTy::U8,
        IntTy::U16,
        IntTy::U32,
        IntTy::U64,
        IntTy::Usize,
        IntTy::I8,
        IntTy::I16,
        IntTy::I32,
        IntTy::I64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            IntTy::U8 => "u8",
            IntTy::U16 => "u16",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::Usize => "usize",
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
        }
    }

    pub fn from_name(name: &str) -> Option<IntTy> {
        IntTy::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn bits(self) -> u32 {
        match self {
            IntTy::U8 | IntTy::I8 => 8,
            IntTy::U16 | IntTy::I16 => 16,
            IntTy::U32 | IntTy::I32 => 32,
            IntTy::U64 | IntTy::Usize | IntTy::I64 => 64,
        }
    }

    pub fn signed(self) -> bool {
        matches!(self, IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64)
    }

    pub fn min(self) -> BigInt {
        if self.signed() {
            -(BigInt::from(1) << (self.bits() - 1))
        } else {
            BigInt::from(0)
        }
    }

    pub fn max(self) -> BigInt {
        let magnitude_bits = if self.signed() {
            self.bits() - 1
        } else {
            self.bits()
        };
        (BigInt::from(1) << magnitude_bits) - 1
    }

    pub fn fits(self, v: &BigInt) -> bool {
        // Every integer type is at most 64 bits wide, so its bounds are exact in an `i128`
        // (checked once per literal: building the `BigInt` bounds cost more than the rest).
        let Ok(v) = i128::try_from(v) else {
            return false;
        };
        let magnitude_bits = self.bits() - u32::from(self.signed());
        let max = (1i128 << magnitude_bits) - 1;
        let min = if self.signed() { -max - 1 } else { 0 };
        (min..=max).contains(&v)
    }

    /// The low `bits()` bits of `v`, read as a value of this type (two's complement for a
    /// signed one): what `<<` keeps of a shifted value (LANGUAGE.md 12.3, as in Zig).
    pub fn wrap(self, v: i128) -> i128 {
        let bits = self.bits();
        let low = v & ((1i128 << bits) - 1);
        if self.signed() && low >> (bits - 1) != 0 {
            low - (1i128 << bits)
        } else {
            low
        }
    }

    /// `wrap` of an exact value of any size (a constant shifted left at compile time).
    pub fn wrap_big(self, v: &BigInt) -> BigInt {
        // `&` on a `BigInt` is two's complement, so a negative value keeps its low bits too.
        let low = v & ((BigInt::from(1) << self.bits()) - 1);
        BigInt::from(self.wrap(i128::try_from(&low).unwrap_or_default()))
    }

    /// Whether every value of `self` is a value of `to`, so the conversion needs no `as`.
    /// `u64` and `usize` are the same width and convert both ways.
    pub fn widens_to(self, to: IntTy) -> bool {
        if self == to {
            return true;
        }
        match (self.signed(), to.signed()) {
            (false, false) => self.bits() <= to.bits(),
            (true, true) => self.bits() <= to.bits(),
            (false, true) => self.bits() < to.bits(),
            (true, false) => false,
        }
    }
}

/// The type of a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int(IntTy),
    /// An integer literal, or an expression of literals only, that has not met a context yet.
    UntypedInt,
    Bool,
    /// A byte string; also `[]const u8`.
    Str,
    /// `[]u8`: a writable view of a `[N]u8` array the caller holds (only a parameter has
    /// this type). What is written through it lands in that array.
    MutSlice,
    F64,
    /// What a function without a return type returns.
    Void,
    Array(Box<Ty>, u64),
    Tuple(Vec<Ty>),
    Struct(StructId),
    /// The type of something already reported as wrong; it matches everything silently.
    Error,
}

impl Ty {
    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, Ty::Int(_) | Ty::UntypedInt)
    }
    pub fn int(&self) -> Option<IntTy> {
        match self {
            Ty::Int(t) => Some(*t),
            _ => None,
        }
    }
    /// Whether the type contains an error anywhere, so that derived errors are not reported.
    pub fn has_error(&self) -> bool {
        match self {
            Ty::Error => true,
            Ty::Array(t, _) => t.has_error(),
            Ty::Tuple(ts) => ts.iter().any(Ty::has_error),
            _ => false,
        }
    }
    /// Displays the type, naming structs through `struct_name`.
    pub fn display<'a>(&'a self, struct_name: &'a dyn Fn(StructId) -> String) -> TyDisplay<'a> {
        TyDisplay {
            ty: self,
            struct_name,
        }
    }
}

pub struct TyDisplay<'a> {
    ty: &'a Ty,
    struct_name: &'a dyn Fn(StructId) -> String,
}

impl fmt::Display for TyDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Ty::Int(t) => f.write_str(t.name()),
            Ty::UntypedInt => f.write_str("integer literal"),
            Ty::Bool => f.write_str("bool"),
            Ty::Str => f.write_str("str"),
            Ty::MutSlice => f.write_str("[]u8"),
            Ty::F64 => f.write_str("f64"),
            Ty::Void => f.write_str("nothing"),
            Ty::Array(t, n) => write!(f, "[{n}]{}", t.display(self.struct_name)),
            Ty::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", t.display(self.struct_name))?;
                }
                f.write_str(")")
            }
            Ty::Struct(id) => f.write_str(&(self.struct_name)(*id)),
            Ty::Error => f.write_str("{unknown}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fits` says what the `BigInt` bounds say, at every type's edges and far outside them.
    #[test]
    fn fits_agrees_with_the_bounds() {
        for t in IntTy::ALL {
            let (min, max) = (t.min(), t.max());
            let one = BigInt::from(1);
            for v in [
                &min - &one,
                min.clone(),
                BigInt::from(0),
                max.clone(),
                &max + &one,
                BigInt::from(1) << 200u32,
                -(BigInt::from(1) << 200u32),
            ] {
                assert_eq!(t.fits(&v), v >= min && v <= max, "{} {v}", t.name());
            }
        }
    }

    /// `wrap` keeps the low bits as Rust's own `as` does (two's complement), and `wrap_big`
    /// agrees with it, for values inside and far outside each type.
    #[test]
    fn wrap_keeps_the_low_bits_as_as_does() {
        let values: [i128; 8] = [
            0,
            171 << 4,
            -128,
            64 << 1,
            -3 << 30,
            i128::MAX,
            i128::MIN,
            0xFEDC_BA98_7654_3210 << 4,
        ];
        for v in values {
            for t in IntTy::ALL {
                let want = match t {
                    IntTy::U8 => v as u8 as i128,
                    IntTy::U16 => v as u16 as i128,
                    IntTy::U32 => v as u32 as i128,
                    IntTy::U64 | IntTy::Usize => v as u64 as i128,
                    IntTy::I8 => v as i8 as i128,
                    IntTy::I16 => v as i16 as i128,
                    IntTy::I32 => v as i32 as i128,
                    IntTy::I64 => v as i64 as i128,
                };
                assert_eq!(t.wrap(v), want, "{} {v}", t.name());
                assert_eq!(t.wrap_big(&BigInt::from(v)), BigInt::from(want));
                // Beyond i128 too: bits above the type never matter.
                let far = BigInt::from(v) + (BigInt::from(1) << 300u32);
                assert_eq!(t.wrap_big(&far), BigInt::from(want), "{} far {v}", t.name());
            }
        }
        assert_eq!(IntTy::U8.wrap(171 << 4), 176);
        assert_eq!(IntTy::I8.wrap(64 << 1), -128);
    }
}
