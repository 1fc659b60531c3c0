//! Run-time values of the evaluator.

use num_traits::ToPrimitive;
use std::cell::RefCell;
use std::rc::Rc;
use t27_ir::{Program, Shown, Ty, Value};

/// A value at run time. Integers of every type fit an `i128`; arrays, tuples and structs are
/// aggregates of their elements, copied on assignment like the values they are.
#[derive(Clone, Debug, PartialEq)]
pub enum Rt {
    Int(i128),
    Bool(bool),
    F64(f64),
    Str(Rc<[u8]>),
    Agg(Vec<Rt>),
    /// An array a writable view (`[]u8`) was taken of: the slot that holds the array and
    /// every view of it share this cell, so what is written through one is seen by all.
    Shared(Rc<RefCell<Rt>>),
    /// What a function without a return type returns.
    Unit,
}

impl Rt {
    pub fn from_value(v: &Value) -> Rt {
        match v {
            Value::Int(i) => Rt::Int(i.to_i128().unwrap_or_default()),
            Value::Bool(b) => Rt::Bool(*b),
            Value::Str(s) => Rt::Str(Rc::from(s.as_slice())),
            Value::F64(x) => Rt::F64(*x),
            Value::Array(items) | Value::Tuple(items) | Value::Struct(items) => {
                Rt::Agg(items.iter().map(Rt::from_value).collect())
            }
        }
    }

    /// The value of type `ty` this run-time value holds.
    pub fn to_value(&self, ty: &Ty, p: &Program) -> Value {
        match (self, ty) {
            (Rt::Shared(cell), _) => cell.borrow().to_value(ty, p),
            (Rt::Int(v), _) => Value::Int((*v).into()),
            (Rt::Bool(b), _) => Value::Bool(*b),
            (Rt::F64(x), _) => Value::F64(*x),
            (Rt::Str(s), _) => Value::Str(s.to_vec()),
            (Rt::Agg(items), Ty::Array(elem, _)) => {
                Value::Array(items.iter().map(|x| x.to_value(elem, p)).collect())
            }
            (Rt::Agg(items), Ty::Tuple(ts)) => Value::Tuple(
                items
                    .iter()
                    .zip(ts)
                    .map(|(x, t)| x.to_value(t, p))
                    .collect(),
            ),
            (Rt::Agg(items), Ty::Struct(id)) => Value::Struct(
                items
                    .iter()
                    .zip(&p.structs[id.index()].fields)
                    .map(|(x, f)| x.to_value(&f.ty, p))
                    .collect(),
            ),
            _ => Value::Int(0.into()),
        }
    }

    /// Zeroed memory: what a local holds before its declaration runs, and what a switch
    /// without a matching arm gives.
    pub fn zero(ty: &Ty, p: &Program) -> Rt {
        match ty {
            Ty::Int(_) | Ty::UntypedInt => Rt::Int(0),
            Ty::Bool => Rt::Bool(false),
            Ty::F64 => Rt::F64(0.0),
            Ty::Str | Ty::MutSlice => Rt::Str(Rc::from(&[][..])),
            Ty::Array(t, n) => Rt::Agg((0..*n).map(|_| Rt::zero(t, p)).collect()),
            Ty::Tuple(ts) => Rt::Agg(ts.iter().map(|t| Rt::zero(t, p)).collect()),
            Ty::Struct(id) => Rt::Agg(
                p.structs[id.index()]
                    .fields
                    .iter()
                    .map(|f| Rt::zero(&f.ty, p))
                    .collect(),
            ),
            Ty::Void | Ty::Error => Rt::Unit,
        }
    }

    /// What memory set to `undefined` reads as: 0xAA bytes, `false`, empty strings
    /// ([`t27_ir::undefined`]).
    pub fn undefined(ty: &Ty, p: &Program) -> Rt {
        match ty {
            Ty::Int(t) => Rt::Int(t27_ir::undefined::int(*t)),
            Ty::F64 => Rt::F64(t27_ir::undefined::f64()),
            Ty::Array(t, n) => Rt::Agg((0..*n).map(|_| Rt::undefined(t, p)).collect()),
            Ty::Tuple(ts) => Rt::Agg(ts.iter().map(|t| Rt::undefined(t, p)).collect()),
            Ty::Struct(id) => Rt::Agg(
                p.structs[id.index()]
                    .fields
                    .iter()
                    .map(|f| Rt::undefined(&f.ty, p))
                    .collect(),
            ),
            Ty::UntypedInt | Ty::Bool | Ty::Str | Ty::MutSlice | Ty::Void | Ty::Error => {
                Rt::zero(ty, p)
            }
        }
    }

    /// The value as a copy that shares nothing: what reading a variable gives.
    pub fn snapshot(&self) -> Rt {
        match self {
            Rt::Shared(cell) => cell.borrow().snapshot(),
            Rt::Agg(items) => Rt::Agg(items.iter().map(Rt::snapshot).collect()),
            other => other.clone(),
        }
    }

    /// The bytes of a `[u8]` array value (seen through a view).
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Rt::Shared(cell) => cell.borrow().bytes(),
            Rt::Agg(items) => items.iter().map(|b| b.int() as u8).collect(),
            Rt::Str(s) => s.to_vec(),
            _ => Vec::new(),
        }
    }

    pub fn int(&self) -> i128 {
        match self {
            Rt::Int(v) => *v,
            _ => 0,
        }
    }

    pub fn bool(&self) -> bool {
        matches!(self, Rt::Bool(true))
    }

    /// The value as a failure report shows it.
    pub fn shown(&self) -> Shown {
        match self {
            Rt::Int(v) => Shown::Int(*v),
            Rt::Bool(b) => Shown::Bool(*b),
            Rt::F64(x) => Shown::F64(*x),
            Rt::Str(s) => Shown::Str(s.to_vec()),
            Rt::Shared(cell) => cell.borrow().shown(),
            Rt::Agg(_) | Rt::Unit => Shown::Other(self.to_string()),
        }
    }
}

impl std::fmt::Display for Rt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rt::Int(v) => write!(f, "{v}"),
            Rt::Bool(b) => write!(f, "{b}"),
            Rt::F64(x) => write!(f, "{x:?}"),
            Rt::Str(s) => write!(f, "{}", Value::Str(s.to_vec())),
            Rt::Unit => f.write_str("()"),
            Rt::Shared(cell) => write!(f, "{}", cell.borrow()),
            Rt::Agg(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
        }
    }
}
