//! Compile-time values: what every constant evaluates to.

use num_bigint::BigInt;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Any integer, with unbounded precision; its type says how it is stored.
    Int(BigInt),
    Bool(bool),
    Str(Vec<u8>),
    F64(f64),
    Array(Vec<Value>),
    Tuple(Vec<Value>),
    /// Field values in declaration order.
    Struct(Vec<Value>),
}

impl Value {
    pub fn as_int(&self) -> Option<&BigInt> {
        match self {
            Value::Int(v) => Some(v),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// Writes a value as a spec author would write it: `3`, `true`, `"text"`, `[1, 2]`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::F64(x) => write!(f, "{x:?}"),
            Value::Str(bytes) => {
                f.write_str("\"")?;
                for &b in bytes {
                    match b {
                        b'"' => f.write_str("\\\"")?,
                        b'\\' => f.write_str("\\\\")?,
                        b'\n' => f.write_str("\\n")?,
                        b'\t' => f.write_str("\\t")?,
                        b'\r' => f.write_str("\\r")?,
                        0x20..=0x7e => write!(f, "{}", b as char)?,
                        _ => write!(f, "\\x{b:02x}")?,
                    }
                }
                f.write_str("\"")
            }
            Value::Array(items) | Value::Tuple(items) | Value::Struct(items) => {
                let (open, close) = match self {
                    Value::Array(_) => ("[", "]"),
                    Value::Tuple(_) => ("(", ")"),
                    _ => ("{ ", " }"),
                };
                f.write_str(open)?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(close)
            }
        }
    }
}
