//! Compile-time evaluation of constant expressions, with unbounded integer precision.
//!
//! Values are fitted to their types only where the language says so: at a constant's declared
//! type and at an explicit `as`. Everything a trap would stop at run time is an error here.

use crate::checker::Checker;
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;

/// Why an expression has no compile-time value.
#[derive(Debug)]
pub(crate) enum EvalError {
    /// A trap, with the code to report it under and the words for it.
    Trap {
        code: &'static str,
        message: String,
        span: Span,
    },
    /// The expression needs the program to run (a call, a local, a module `var`).
    NotConstant { what: &'static str, span: Span },
    /// Something it depends on is already reported as wrong.
    Poisoned,
}

impl EvalError {
    fn trap(code: &'static str, span: Span, message: String) -> EvalError {
        EvalError::Trap {
            code,
            message,
            span,
        }
    }
}

/// The width that bounds a shift of a value of type `ty`, if any.
fn shift_limit(ty: &Ty) -> u64 {
    match ty {
        Ty::Int(t) => t.bits() as u64,
        // An untyped literal has no width; a bound keeps `1 << 1000000000` from eating memory.
        _ => 4096,
    }
}

impl Checker {
    /// Reports an evaluation error (traps and non-constant parts) in module `m`'s file.
    pub(crate) fn report_eval_error(&mut self, m: ModuleId, err: EvalError, context: &str) {
        let file = self.file_of(m);
        match err {
            EvalError::Trap { code, message, span } => {
                let help = match code {
                    "E3002" => "check the divisor",
                    "E3003" => "use an index below the length",
                    "E3004" => "shift by less than the width of the type, or widen it first",
                    "E3005" => "use a type wide enough for the value",
                    "E3001" => "widen an operand first (`(A as u32) + 200`), or change the expression",
                    _ => "change the expression",
                };
                self.report(
                    Diagnostic::new(Code(code), file, span, message)
                        .with_label(format!("this traps when {context} is computed"))
                        .with_help(help),
                );
            }
            EvalError::NotConstant { what, span } => self.report(
                Diagnostic::new(Code("E3007"), file, span, format!("{context} cannot use {what}"))
                    .with_label("needs the program to run")
                    .with_note("constants are computed when the spec is compiled; calls are never evaluated then")
                    .with_help("compute the value from literals and constants, or move this into a test"),
            ),
            EvalError::Poisoned => {}
        }
    }

    pub(crate) fn eval(&mut self, e: &Expr) -> Result<Value, EvalError> {
        match &e.kind {
            ExprKind::Lit(v) => Ok(v.clone()),
            ExprKind::Error => Err(EvalError::Poisoned),
            // Never in a checked program: only `t27-cover` makes one, of a function body.
            ExprKind::Counted { value, .. } => self.eval(value),
            ExprKind::Const(id) => {
                self.ensure_const(*id);
                self.program.consts[id.index()]
                    .value
                    .clone()
                    .ok_or(EvalError::Poisoned)
            }
            ExprKind::Global(_) => Err(EvalError::NotConstant {
                what: "a module `var`",
                span: e.span,
            }),
            ExprKind::Local(_) => Err(EvalError::NotConstant {
                what: "a local variable",
                span: e.span,
            }),
            ExprKind::Call(..) => Err(EvalError::NotConstant {
                what: "a function call",
                span: e.span,
            }),
            ExprKind::View(_) => Err(EvalError::NotConstant {
                what: "a writable view",
                span: e.span,
            }),
            ExprKind::Undefined => Ok(t27_ir::undefined::value(&e.ty, &self.program)),
            ExprKind::Len(x) => match self.eval(x)? {
                Value::Str(s) => Ok(Value::Int(BigInt::from(s.len()))),
                Value::Array(a) => Ok(Value::Int(BigInt::from(a.len()))),
                _ => Err(EvalError::Poisoned),
            },
            ExprKind::Contains(s, t) => match (self.eval(s)?, self.eval(t)?) {
                (Value::Str(s), Value::Str(t)) => Ok(Value::Bool(contains(&s, &t))),
                _ => Err(EvalError::Poisoned),
            },
            ExprKind::Unary(op, x) => match (op, self.eval(x)?) {
                (UnOp::Neg, Value::Int(v)) => in_its_type(Value::Int(-v), &e.ty, e.span),
                (UnOp::Neg, Value::F64(v)) => Ok(Value::F64(-v)),
                (UnOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                _ => Err(EvalError::Poisoned),
            },
            ExprKind::Binary(op, l, r) => {
                let v = self.eval_binary(*op, l, r, e.span)?;
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                        in_its_type(v, &e.ty, e.span)
                    }
                    _ => Ok(v),
                }
            }
            ExprKind::Cast(x) => {
                let v = self.eval(x)?;
                cast(v, &e.ty, e.span, &self.program)
            }
            ExprKind::Index(base, index) => {
                let base = self.eval(base)?;
                let i = self.eval(index)?;
                let Value::Int(i) = i else {
                    return Err(EvalError::Poisoned);
                };
                let len = match &base {
                    Value::Str(s) => s.len(),
                    Value::Array(a) => a.len(),
                    _ => return Err(EvalError::Poisoned),
                };
                let Some(ix) = i.to_usize().filter(|&ix| ix < len) else {
                    return Err(EvalError::trap(
                        "E3003",
                        index.span,
                        format!("index {i} is out of bounds for length {len}"),
                    ));
                };
                Ok(match base {
                    Value::Str(s) => Value::Int(BigInt::from(s[ix])),
                    Value::Array(mut a) => a.swap_remove(ix),
                    _ => return Err(EvalError::Poisoned),
                })
            }
            ExprKind::Field(x, i) => match self.eval(x)? {
                Value::Struct(mut fields) if (*i as usize) < fields.len() => {
                    Ok(fields.swap_remove(*i as usize))
                }
                Value::Tuple(mut fields) if (*i as usize) < fields.len() => {
                    Ok(fields.swap_remove(*i as usize))
                }
                _ => Err(EvalError::Poisoned),
            },
            ExprKind::Array(items) => Ok(Value::Array(self.eval_all(items)?)),
            ExprKind::Tuple(items) => Ok(Value::Tuple(self.eval_all(items)?)),
            ExprKind::Struct(items) => Ok(Value::Struct(self.eval_all(items)?)),
            ExprKind::AddrOf(x) => match self.eval(x)? {
                Value::Array(bytes) => Ok(Value::Str(
                    bytes
                        .iter()
                        .map(|b| b.as_int().and_then(|v| v.to_u8()).unwrap_or(0))
                        .collect(),
                )),
                other => Ok(other),
            },
            ExprKind::If(c, a, b) => match self.eval(c)? {
                Value::Bool(true) => self.eval(a),
                Value::Bool(false) => self.eval(b),
                _ => Err(EvalError::Poisoned),
            },
            ExprKind::Switch(x, arms, default) => {
                let v = self.eval(x)?;
                for arm in arms {
                    if arm.patterns.contains(&v) {
                        return self.eval(&arm.value);
                    }
                }
                match default {
                    Some(d) => self.eval(d),
                    None => Err(EvalError::Poisoned),
                }
            }
        }
    }

    fn eval_all(&mut self, items: &[Expr]) -> Result<Vec<Value>, EvalError> {
        items.iter().map(|i| self.eval(i)).collect()
    }

    fn eval_binary(
        &mut self,
        op: BinOp,
        l: &Expr,
        r: &Expr,
        span: Span,
    ) -> Result<Value, EvalError> {
        // `and`/`or` short-circuit at compile time too.
        if matches!(op, BinOp::And | BinOp::Or) {
            let Value::Bool(a) = self.eval(l)? else {
                return Err(EvalError::Poisoned);
            };
            if (op == BinOp::And && !a) || (op == BinOp::Or && a) {
                return Ok(Value::Bool(a));
            }
            return self.eval(r);
        }
        let a = self.eval(l)?;
        let b = self.eval(r)?;
        let v = binary(op, a, b, shift_limit(&l.ty), span)?;
        // Owner's rule (LANGUAGE.md 3, 12.3): once a typed value is shifted left, the shift
        // is done in its type and the bits pushed out are dropped, as at run time. Only an
        // untyped literal expression stays exact (and is fitted where it lands).
        Ok(match (op, &l.ty, v) {
            (BinOp::Shl, Ty::Int(t), Value::Int(v)) => Value::Int(t.wrap_big(&v)),
            (_, _, v) => v,
        })
    }
}

/// Owner's rule (LANGUAGE.md 3): once a typed constant takes part, each operation is done in
/// that type, as it would be at run time, and a result that leaves the type is a compile
/// error at its span (`A + 200` with `A: u8 = 100`), even where the whole expression would
/// fit at the end. An expression of untyped literals only is untyped, and stays exact.
fn in_its_type(v: Value, ty: &Ty, span: Span) -> Result<Value, EvalError> {
    match (&v, ty) {
        (Value::Int(x), Ty::Int(t)) if !t.fits(x) => Err(EvalError::trap(
            "E3001",
            span,
            format!(
                "`{x}` does not fit `{}`: a typed constant takes part, so the operation is done in `{}` ({} to {})",
                t.name(),
                t.name(),
                t.min(),
                t.max()
            ),
        )),
        _ => Ok(v),
    }
}

/// Applies a binary operator to two values. `shift_bits` bounds shifts by the left operand's
/// width.
pub(crate) fn binary(
    op: BinOp,
    a: Value,
    b: Value,
    shift_bits: u64,
    span: Span,
) -> Result<Value, EvalError> {
    use BinOp::*;
    Ok(match (a, b) {
        (Value::Int(a), Value::Int(b)) => match op {
            Add => Value::Int(a + b),
            Sub => Value::Int(a - b),
            Mul => Value::Int(a * b),
            Div | Rem if b.is_zero() => {
                let what = if op == Div { "division" } else { "remainder" };
                return Err(EvalError::trap("E3002", span, format!("{what} by zero")));
            }
            Div => Value::Int(a / b),
            Rem => Value::Int(a % b),
            BitAnd => Value::Int(a & b),
            BitOr => Value::Int(a | b),
            BitXor => Value::Int(a ^ b),
            Shl | Shr => {
                let Some(n) = b.to_u64().filter(|&n| n < shift_bits) else {
                    return Err(EvalError::trap(
                        "E3004",
                        span,
                        format!("shift by {b} is too wide for a {shift_bits}-bit value"),
                    ));
                };
                Value::Int(if op == Shl { a << n } else { a >> n })
            }
            Eq => Value::Bool(a == b),
            Ne => Value::Bool(a != b),
            Lt => Value::Bool(a < b),
            Le => Value::Bool(a <= b),
            Gt => Value::Bool(a > b),
            Ge => Value::Bool(a >= b),
            And | Or => return Err(EvalError::Poisoned),
        },
        (Value::F64(a), Value::F64(b)) => match op {
            Add => Value::F64(a + b),
            Sub => Value::F64(a - b),
            Mul => Value::F64(a * b),
            Div => Value::F64(a / b),
            Rem => Value::F64(a % b),
            Eq => Value::Bool(a == b),
            Ne => Value::Bool(a != b),
            Lt => Value::Bool(a < b),
            Le => Value::Bool(a <= b),
            Gt => Value::Bool(a > b),
            Ge => Value::Bool(a >= b),
            _ => return Err(EvalError::Poisoned),
        },
        (a, b) => match op {
            Eq => Value::Bool(a == b),
            Ne => Value::Bool(a != b),
            _ => return Err(EvalError::Poisoned),
        },
    })
}

/// `value as ty`: integers must fit, floats are truncated toward zero and must then fit.
pub(crate) fn cast(v: Value, ty: &Ty, span: Span, program: &Program) -> Result<Value, EvalError> {
    match (v, ty) {
        (Value::Int(v), Ty::Int(t)) => {
            if t.fits(&v) {
                Ok(Value::Int(v))
            } else {
                Err(EvalError::trap(
                    "E3005",
                    span,
                    format!(
                        "`{v}` does not fit `{}` ({} to {}), so `as` would lose it",
                        t.name(),
                        t.min(),
                        t.max()
                    ),
                ))
            }
        }
        (Value::Int(v), Ty::F64) => Ok(Value::F64(v.to_f64().unwrap_or(f64::NAN))),
        (Value::F64(x), Ty::Int(t)) => {
            let whole = BigInt::from(x.trunc().to_i128().unwrap_or(i128::MAX));
            if x.is_finite() && t.fits(&whole) {
                Ok(Value::Int(whole))
            } else {
                Err(EvalError::trap(
                    "E3005",
                    span,
                    format!("`{x}` does not fit `{}`", program.ty_name(ty)),
                ))
            }
        }
        (v, _) => Ok(v),
    }
}

pub(crate) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}
