//! The card's data: string bytes, constant arrays, module `var` arrays and the trap places,
//! laid out from a base address (past the call stack, when the card has one). Everything a
//! card keeps is below the end of this data, inside the memory size the module is built
//! with: a host writes its text past that size.

use std::collections::HashMap;
use t27_ir::{IntTy, Ty, Value};

/// The first address used: address 0 stays unused, so that a zero address is never data.
pub const BASE: u32 = 16;

pub struct Data {
    base: u32,
    bytes: Vec<u8>,
    strings: HashMap<Vec<u8>, u32>,
    arrays: HashMap<u64, u32>,
}

/// Bytes a value of `ty` takes in memory: 1, 2, 4 or 8 for an integer (a bool 1), 8 for an
/// `f64`, 8 for a string (its address and length), and an array its elements' sizes end to
/// end (so `[N]u8` is `N` bytes, as a `[]u8` view of it sees them). `None` for tuples and
/// structs.
pub fn size_of(ty: &Ty) -> Option<u32> {
    Some(match ty {
        Ty::Bool => 1,
        Ty::Int(t) => t.bits() / 8,
        Ty::F64 | Ty::Str => 8,
        Ty::Array(e, n) => u32::try_from(u64::from(size_of(e)?).checked_mul(*n)?).ok()?,
        _ => return None,
    })
}

impl Data {
    pub fn new(base: u32) -> Data {
        Data {
            base,
            bytes: Vec::new(),
            strings: HashMap::new(),
            arrays: HashMap::new(),
        }
    }

    /// The address just past the data.
    pub fn end(&self) -> u32 {
        self.base + self.bytes.len() as u32
    }

    pub fn base(&self) -> u32 {
        self.base
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn align(&mut self, to: usize) {
        while self.bytes.len() % to != 0 {
            self.bytes.push(0);
        }
    }

    /// The address of `s`'s bytes (each distinct string once).
    pub fn string(&mut self, s: &[u8]) -> u32 {
        if let Some(&at) = self.strings.get(s) {
            return at;
        }
        let at = self.end();
        self.bytes.extend_from_slice(s);
        self.strings.insert(s.to_vec(), at);
        at
    }

    /// The address of the array value `key` (of type `ty`), laid out the first time.
    pub fn array(&mut self, key: u64, ty: &Ty, value: &Value) -> Result<u32, String> {
        if let Some(&at) = self.arrays.get(&key) {
            return Ok(at);
        }
        let at = self.value(ty, Some(value))?;
        self.arrays.insert(key, at);
        Ok(at)
    }

    /// A fresh copy of `value` (zeroes without one) laid out as [`size_of`] says; its address.
    pub fn value(&mut self, ty: &Ty, value: Option<&Value>) -> Result<u32, String> {
        let mut laid = Vec::new();
        match value {
            Some(v) => self.lay(ty, v, &mut laid)?,
            None => laid.resize(size_of(ty).ok_or("a value of this kind")? as usize, 0),
        }
        self.align(8);
        let at = self.end();
        self.bytes.extend_from_slice(&laid);
        Ok(at)
    }

    fn lay(&mut self, ty: &Ty, v: &Value, out: &mut Vec<u8>) -> Result<(), String> {
        match (ty, v) {
            (Ty::Bool, Value::Bool(b)) => out.push(*b as u8),
            (Ty::Int(t), Value::Int(n)) => {
                let bits = int64(n)?.to_le_bytes();
                out.extend_from_slice(&bits[..(t.bits() / 8) as usize]);
            }
            (Ty::F64, Value::F64(x)) => out.extend_from_slice(&x.to_le_bytes()),
            (Ty::Str, Value::Str(s)) => {
                let at = self.string(s);
                out.extend_from_slice(&at.to_le_bytes());
                out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            }
            // A `[N]u8` initialised from a string literal.
            (Ty::Array(e, _), Value::Str(s)) if **e == Ty::Int(IntTy::U8) => {
                out.extend_from_slice(s)
            }
            (Ty::Array(e, _), Value::Array(items)) => {
                for item in items {
                    self.lay(e, item, out)?;
                }
            }
            _ => return Err("an array element of this kind".into()),
        }
        Ok(())
    }

    /// A table of (address, length) pairs, 8 bytes each; its address.
    pub fn pairs(&mut self, pairs: &[(u32, u32)]) -> u32 {
        self.align(8);
        let at = self.end();
        for (a, n) in pairs {
            self.bytes.extend_from_slice(&a.to_le_bytes());
            self.bytes.extend_from_slice(&n.to_le_bytes());
        }
        at
    }
}

/// A 64-bit integer's bits: an unsigned value above `i64::MAX` as its two's complement.
pub fn int64(n: &num_bigint::BigInt) -> Result<i64, String> {
    i64::try_from(n)
        .or_else(|_| u64::try_from(n).map(|u| u as i64))
        .map_err(|_| "an integer out of range".to_string())
}
