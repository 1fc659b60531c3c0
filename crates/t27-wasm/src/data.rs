//! The card's read-only data: string bytes, constant arrays and the trap places, laid out from
//! a fixed base. Everything a card keeps is below the end of this data, inside the memory size
//! the module is built with: a host writes its text past that size.

use crate::repr::{Repr, elem_size};
use std::collections::HashMap;
use t27_ir::{Ty, Value};

/// The first address used: address 0 stays unused, so that a zero address is never data.
pub const BASE: u32 = 16;

#[derive(Default)]
pub struct Data {
    bytes: Vec<u8>,
    strings: HashMap<Vec<u8>, u32>,
    arrays: HashMap<u64, u32>,
}

impl Data {
    pub fn new() -> Data {
        Data::default()
    }

    /// The address just past the data.
    pub fn end(&self) -> u32 {
        BASE + self.bytes.len() as u32
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn align(&mut self, to: usize) {
        while !self.bytes.len().is_multiple_of(to) {
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

    /// The address of constant `key`'s array, laid out the first time: elements of `elem`
    /// at [`elem_size`] bytes each, little-endian, a string as its address and length.
    pub fn array(&mut self, key: u64, elem: &Ty, items: &[Value]) -> Result<u32, String> {
        if let Some(&at) = self.arrays.get(&key) {
            return Ok(at);
        }
        let size = elem_size(elem).ok_or("arrays of arrays, tuples or structs")?;
        let repr = Repr::of(elem)?;
        let mut laid = Vec::with_capacity(items.len() * size as usize);
        for v in items {
            match (repr, v) {
                (Repr::I32, Value::Int(n)) => {
                    let x = i64::try_from(n).map_err(|_| "an integer out of range")? as i32;
                    laid.extend_from_slice(&x.to_le_bytes());
                }
                (Repr::I32, Value::Bool(b)) => laid.extend_from_slice(&(*b as i32).to_le_bytes()),
                (Repr::I64, Value::Int(n)) => laid.extend_from_slice(&int64(n)?.to_le_bytes()),
                (Repr::F64, Value::F64(x)) => laid.extend_from_slice(&x.to_le_bytes()),
                (Repr::Str, Value::Str(s)) => {
                    let at = self.string(s);
                    laid.extend_from_slice(&at.to_le_bytes());
                    laid.extend_from_slice(&(s.len() as u32).to_le_bytes());
                }
                _ => return Err("an array element of an unexpected kind".into()),
            }
        }
        self.align(8);
        let at = self.end();
        self.bytes.extend_from_slice(&laid);
        self.arrays.insert(key, at);
        Ok(at)
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
