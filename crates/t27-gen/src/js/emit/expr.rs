//! Expressions and values in JavaScript (and TypeScript): operands in place, values kept
//! copied, every integer operation through the runtime's checks.

use super::*;

impl<'a> Emitter<'a> {
    // ---- Expressions ------------------------------------------------------------------------

    /// An expression whose value is kept: an aggregate read from a variable, a constant or an
    /// element is copied.
    pub(super) fn expr(&mut self, e: &Expr) -> String {
        let v = self.raw(e);
        let read = matches!(
            e.kind,
            ExprKind::Local(_)
                | ExprKind::Global(_)
                | ExprKind::Const(_)
                | ExprKind::Index(..)
                | ExprKind::Field(..)
        );
        if read && aggregate(&e.ty) {
            format!("$.copy({v})")
        } else {
            v
        }
    }

    /// An expression read in place (an operand, a base of an index or field): no copy.
    pub(super) fn raw(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Lit(v) => self.literal(v, &e.ty),
            ExprKind::Const(id) => {
                let c = &self.p.consts[id.index()];
                match (&c.value, &self.names.consts[id.index()]) {
                    // A number or a flag is written as its value, named in a comment: V8 does
                    // not fold a module's `const` into the code that reads it (each read was a
                    // load, most of the time of a decision function that compares with them).
                    (Some(v), _) if inlined(v) => {
                        format!("{} /* {} */", self.literal(v, &c.ty), c.decl.name)
                    }
                    (_, Some(name)) => name.clone(),
                    (_, None) => format!("$k{}", id.0),
                }
            }
            ExprKind::Global(id) => format!("$g{}", id.0),
            ExprKind::Local(id) => self.locals[id.index()].clone(),
            ExprKind::Call(f, args) => {
                let mut values: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let callee = &self.p.functions[f.index()];
                if callee.body.block.makes_calls() {
                    let at = self.at(e.span);
                    values.push(format!("$.enter({at})"));
                }
                format!("{}({})", self.names.function(*f), values.join(", "))
            }
            ExprKind::Len(x) => match &x.ty {
                Ty::Array(_, n) => n.to_string(),
                _ => format!("{}.length", self.raw(x)),
            },
            ExprKind::Contains(s, t) => {
                format!("$.contains({}, {})", self.raw(s), self.raw(t))
            }
            ExprKind::Unary(UnOp::Not, x) => format!("!{}", self.raw(x)),
            ExprKind::Unary(UnOp::Neg, x) => {
                let v = self.raw(x);
                match e.ty {
                    Ty::Int(t) => {
                        let (lo, hi) = bounds(t);
                        let at = self.at(e.span);
                        if small(t) {
                            format!("$.fit(-{v}, {lo}, {hi}, {at})")
                        } else {
                            format!("$.neg64({v}, {lo}, {hi}, {at})")
                        }
                    }
                    _ => format!("(-{v})"),
                }
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                format!("({} && {})", self.raw(l), self.raw(r))
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                format!("({} || {})", self.raw(l), self.raw(r))
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() => {
                // TypeScript narrows a variable compared with a literal type, and rejects a
                // later comparison the narrowed type cannot meet (TS2367): such operands are
                // widened to their types.
                let narrowable = |e: &Expr| {
                    literal_typed(e)
                        || matches!(
                            e.kind,
                            ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Field(..)
                        )
                };
                let widen_l = self.typed && literal_typed(l) && narrowable(r);
                let widen_r = self.typed && literal_typed(r) && narrowable(l);
                let (a, b) = (self.operand(l, widen_l), self.operand(r, widen_r));
                format!("({})", self.compare(*op, &l.ty, &a, &b))
            }
            ExprKind::Binary(op, l, r) => {
                let (a, b) = (self.raw(l), self.raw(r));
                self.arith(*op, &l.ty, &a, &b, e.span)
            }
            ExprKind::Cast(x) => self.cast(x, &e.ty, e.span),
            ExprKind::Index(base, index) => {
                let b = self.raw(base);
                match &base.ty {
                    Ty::Array(..) => {
                        let i = self.index_of(base, &b, index);
                        format!("{b}[{i}]")
                    }
                    _ => {
                        let i = self.expr(index);
                        let at = self.at(index.span);
                        format!("$.at({b}, {i}, {at})")
                    }
                }
            }
            ExprKind::Field(x, i) => {
                let b = self.raw(x);
                format!("{b}{}", self.field(&x.ty, *i))
            }
            ExprKind::Array(xs) | ExprKind::Tuple(xs) => {
                let items: Vec<String> = xs.iter().map(|x| self.expr(x)).collect();
                format!("[{}]", items.join(", "))
            }
            ExprKind::Struct(xs) => {
                let Ty::Struct(id) = &e.ty else {
                    return "undefined".into();
                };
                let fields = &self.p.structs[id.index()].fields;
                let items: Vec<String> = xs
                    .iter()
                    .zip(fields)
                    .map(|(x, f)| format!("{}: {}", js_key(&f.name), self.expr(x)))
                    .collect();
                format!("{{ {} }}", items.join(", "))
            }
            ExprKind::AddrOf(x) => format!("$.bytes({})", self.raw(x)),
            // The array place itself: writes through the view land in it.
            ExprKind::View(x) => self.place(x),
            ExprKind::If(c, a, b) => {
                format!("({} ? {} : {})", self.raw(c), self.expr(a), self.expr(b))
            }
            ExprKind::Switch(x, arms, default) => self.switch(x, arms, default.as_deref(), &e.ty),
            ExprKind::Undefined => self.undefined(&e.ty),
            // Coverage probes count on the engines only: a mirror computes the value.
            ExprKind::Counted { value, .. } => self.raw(value),
            ExprKind::Error => "undefined".into(),
        }
    }

    /// An operand of a comparison, `widen`ed to its type (`(3 as number)`).
    pub(super) fn operand(&mut self, e: &Expr, widen: bool) -> String {
        let v = self.raw(e);
        if widen {
            format!("({v} as {})", self.ty(&e.ty, true))
        } else {
            v
        }
    }

    /// `$.idx(i, n)` for an index into an array or view `b` (written `base_text`).
    pub(super) fn index_of(&mut self, base: &Expr, base_text: &str, index: &Expr) -> String {
        let i = self.expr(index);
        let n = match &base.ty {
            Ty::Array(_, n) => n.to_string(),
            _ => format!("{base_text}.length"),
        };
        let at = self.at(index.span);
        format!("$.idx({i}, {n}, {at})")
    }

    pub(super) fn field(&self, ty: &Ty, i: u32) -> String {
        match ty {
            Ty::Struct(id) => {
                let name = &self.p.structs[id.index()].fields[i as usize].name;
                if is_identifier(name) {
                    format!(".{name}")
                } else {
                    format!("[{}]", serde_json::Value::String(name.clone()))
                }
            }
            _ => format!("[{i}]"),
        }
    }

    pub(super) fn compare(&self, op: BinOp, ty: &Ty, a: &str, b: &str) -> String {
        let scalar = matches!(ty, Ty::Int(_) | Ty::UntypedInt | Ty::Bool | Ty::F64);
        match op {
            BinOp::Eq if scalar => format!("{a} === {b}"),
            BinOp::Ne if scalar => format!("{a} !== {b}"),
            BinOp::Eq => format!("$.eq({a}, {b})"),
            BinOp::Ne => format!("!$.eq({a}, {b})"),
            _ if !matches!(ty, Ty::Int(_) | Ty::UntypedInt | Ty::F64) => "false".into(),
            _ => format!("{a} {} {b}", op.symbol()),
        }
    }

    /// An arithmetic, bitwise or shift operator on operands of type `ty` (for shifts, the left
    /// operand's), checked as the engines check it.
    pub(super) fn arith(&mut self, op: BinOp, ty: &Ty, a: &str, b: &str, span: Span) -> String {
        let Ty::Int(t) = ty else {
            return format!("({a} {} {b})", op.symbol());
        };
        let (lo, hi) = bounds(*t);
        let bits = t.bits();
        let at = self.at(span);
        if small(*t) {
            match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul => {
                    format!("$.fit({a} {} {b}, {lo}, {hi}, {at})", op.symbol())
                }
                BinOp::Div => format!("$.div({a}, {b}, {lo}, {hi}, {at})"),
                BinOp::Rem => format!("$.rem({a}, {b}, {at})"),
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor if *t == IntTy::U32 => {
                    format!("(({a} {} {b}) >>> 0)", op.symbol())
                }
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                    format!("({a} {} {b})", op.symbol())
                }
                BinOp::Shl => format!("$.shl({a}, {b}, {bits}, {}, {at})", t.signed()),
                BinOp::Shr => format!("$.shr({a}, {b}, {bits}, {at})"),
                _ => a.to_string(),
            }
        } else {
            let name = match op {
                BinOp::Add => "add64",
                BinOp::Sub => "sub64",
                BinOp::Mul => "mul64",
                BinOp::Div => "div64",
                BinOp::Rem => return format!("$.rem64({a}, {b}, {at})"),
                BinOp::BitAnd => return format!("$.and64({a}, {b})"),
                BinOp::BitOr => return format!("$.or64({a}, {b})"),
                BinOp::BitXor => return format!("$.xor64({a}, {b})"),
                BinOp::Shl => return format!("$.shl64({a}, {b}, {}, {at})", t.signed()),
                BinOp::Shr => return format!("$.shr64({a}, {b}, {bits}, {at})"),
                _ => return a.to_string(),
            };
            format!("$.{name}({a}, {b}, {lo}, {hi}, {at})")
        }
    }

    pub(super) fn cast(&mut self, x: &Expr, to: &Ty, span: Span) -> String {
        let v = self.raw(x);
        match (&x.ty, to) {
            (Ty::MutSlice, _) => format!("$.bytes({v})"),
            (Ty::Int(from), Ty::Int(t)) if from.widens_to(*t) => v,
            (Ty::Int(_) | Ty::UntypedInt, Ty::Int(t)) => {
                let (lo, hi) = bounds(*t);
                let at = self.at(span);
                format!("$.cast({v}, {lo}, {hi}, {at})")
            }
            (Ty::Int(_) | Ty::UntypedInt, Ty::F64) => format!("Number({v})"),
            (Ty::F64, Ty::Int(t)) => {
                let (lo, _) = bounds(*t);
                let end = int_literal(&(t.max() + 1));
                let at = self.at(span);
                format!("$.ftoi({v}, {lo}, {end}, {at})")
            }
            _ => v,
        }
    }

    pub(super) fn switch(
        &mut self,
        x: &Expr,
        arms: &[SwitchArm],
        default: Option<&Expr>,
        ty: &Ty,
    ) -> String {
        self.switches += 1;
        let v = format!("$w{}", self.switches);
        let scrutinee = self.raw(x);
        let mut text = String::new();
        for arm in arms {
            let tests: Vec<String> = arm
                .patterns
                .iter()
                .map(|p| {
                    let lit = self.literal(p, &x.ty);
                    self.compare(BinOp::Eq, &x.ty, &v, &lit)
                })
                .collect();
            let value = self.expr(&arm.value);
            text.push_str(&format!("{} ? {value} : ", tests.join(" || ")));
        }
        text.push_str(&match default {
            Some(d) => self.expr(d),
            None => self.zero(ty),
        });
        let annot = self.annot(&x.ty, true);
        format!("(({v}{annot}) => {text})({scrutinee})")
    }

    // ---- Values -----------------------------------------------------------------------------

    /// A compile-time value of type `ty`, as the functions hold it (strings as bytes).
    pub fn literal(&mut self, v: &Value, ty: &Ty) -> String {
        match (v, ty) {
            (Value::Int(i), _) => int_literal(i),
            (Value::Bool(b), _) => b.to_string(),
            (Value::F64(x), _) => f64_literal(*x),
            (Value::Str(bytes), _) => self.string(bytes),
            (Value::Array(xs), Ty::Array(e, _)) => {
                let items: Vec<String> = xs.iter().map(|x| self.literal(x, e)).collect();
                format!("[{}]", items.join(", "))
            }
            (Value::Tuple(xs), Ty::Tuple(ts)) => {
                let items: Vec<String> =
                    xs.iter().zip(ts).map(|(x, t)| self.literal(x, t)).collect();
                format!("[{}]", items.join(", "))
            }
            (Value::Struct(xs), Ty::Struct(id)) => {
                let fields = &self.p.structs[id.index()].fields;
                let items: Vec<String> = xs
                    .iter()
                    .zip(fields)
                    .map(|(x, f)| format!("{}: {}", js_key(&f.name), self.literal(x, &f.ty)))
                    .collect();
                format!("{{ {} }}", items.join(", "))
            }
            _ => "undefined".into(),
        }
    }

    /// A module `var`'s declared value, as its binding and `$reset()` set it.
    pub fn declared(&mut self, g: &Global) -> String {
        match &g.value {
            Some(x) => self.literal(x, &g.ty),
            None => self.zero(&g.ty),
        }
    }

    /// A string literal: a module constant `$sN` (strings are never changed in place).
    pub fn string(&mut self, bytes: &[u8]) -> String {
        let next = self.strings.len();
        let n = *self.strings.entry(bytes.to_vec()).or_insert(next);
        format!("$s{n}")
    }

    /// What `undefined` of type `ty` reads as: 0xAA bytes, `false`, empty strings
    /// ([`t27_ir::undefined`]).
    pub fn undefined(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Int(t) => {
                let lit = int_literal(&t27_ir::undefined::int(*t).into());
                // A 64-bit integer is `number | bigint` in TypeScript: the value is given that
                // type, else the local is narrowed to `bigint` by it and comparing it with a
                // `number` (`s == 1`) is refused by tsc.
                if self.typed && t.bits() == 64 {
                    format!("({lit} as {})", self.ty(ty, false))
                } else {
                    lit
                }
            }
            Ty::F64 => f64_literal(t27_ir::undefined::f64()),
            Ty::Array(e, n) => {
                let x = self.undefined(e);
                let annot = if self.typed {
                    format!("<{}>", self.ty(e, false))
                } else {
                    String::new()
                };
                // In parentheses: a struct's `{ ... }` after `=>` would be read as a block.
                format!("$.fill{annot}({n}, () => ({x}))")
            }
            Ty::Tuple(ts) => {
                let items: Vec<String> = ts.iter().map(|t| self.undefined(t)).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::Struct(id) => {
                let fields = self.p.structs[id.index()].fields.clone();
                let items: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {}", js_key(&f.name), self.undefined(&f.ty)))
                    .collect();
                format!("{{ {} }}", items.join(", "))
            }
            _ => self.zero(ty),
        }
    }

    /// Zeroed memory: what a switch without a matching arm gives, and a declaration whose
    /// value could not be computed.
    pub fn zero(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Int(_) | Ty::UntypedInt | Ty::F64 => "0".into(),
            Ty::Bool => "false".into(),
            Ty::Str => self.string(&[]),
            Ty::MutSlice => "[]".into(),
            Ty::Array(e, n) => {
                let z = self.zero(e);
                let annot = if self.typed {
                    format!("<{}>", self.ty(e, false))
                } else {
                    String::new()
                };
                format!("$.fill{annot}({n}, () => ({z}))")
            }
            Ty::Tuple(ts) => {
                let items: Vec<String> = ts.iter().map(|t| self.zero(t)).collect();
                format!("[{}]", items.join(", "))
            }
            Ty::Struct(id) => {
                let fields = self.p.structs[id.index()].fields.clone();
                let items: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {}", js_key(&f.name), self.zero(&f.ty)))
                    .collect();
                format!("{{ {} }}", items.join(", "))
            }
            Ty::Void | Ty::Error => "undefined".into(),
        }
    }
}

/// Whether a constant's reads are written as its value: a number, a bigint or a flag (not a
/// string or an aggregate, which are objects).
pub(crate) fn inlined(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Bool(_) | Value::F64(_))
}
