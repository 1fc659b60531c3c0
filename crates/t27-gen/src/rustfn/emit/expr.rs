//! Expressions and values in Rust: every integer operation checked through `t27_rt`, operands
//! evaluated into temporaries in the spec's order.

use super::*;

impl<'a> Emitter<'a> {
    // ---- Expressions ------------------------------------------------------------------------

    /// An expression's value: a string or aggregate read from a variable, a constant or an
    /// element is cloned (it is a value of its own).
    pub(super) fn expr(&mut self, e: &Expr) -> String {
        let v = self.raw(e);
        // (An element read by `raw` is already a clone.)
        let read = matches!(e.kind, ExprKind::Local(_) | ExprKind::Field(..));
        if read && aggregate_or_str(&e.ty) {
            format!("{v}.clone()")
        } else {
            v
        }
    }

    pub(super) fn raw(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Lit(v) => self.literal(v, &e.ty),
            ExprKind::Const(id) => {
                let c = &self.p.consts[id.index()];
                let named = self.named_consts
                    && c.decl.module == self.home
                    && c.decl.is_pub
                    && crate::rust::mirrors_const(self.p, c, self.home);
                match &c.value {
                    Some(Value::Str(_)) if named => {
                        format!("t27_rt::s({}.as_bytes())", names::rust(&c.decl.name))
                    }
                    _ if named && !crate::js::holds_str(self.p, &c.ty) => names::rust(&c.decl.name),
                    Some(v) => self.literal(v, &c.ty),
                    None => self.zero(&c.ty),
                }
            }
            ExprKind::Global(id) => format!("G{}.with_borrow(|g| g.clone())", id.0),
            ExprKind::Local(id) => self.locals[id.index()].clone(),
            ExprKind::Call(f, args) => {
                // The arguments first, in order; then the call is counted. A view of a
                // module `var` borrows it around the call (`why_not` makes sure a call takes
                // no two views of one variable).
                let mut binds = String::new();
                let mut names = Vec::new();
                let mut viewed = Vec::new();
                let mut views: Vec<(String, String)> = Vec::new();
                for a in args {
                    let borrowed = std::mem::take(&mut self.view_globals);
                    let v = self.raw(a);
                    let globals = std::mem::replace(&mut self.view_globals, borrowed);
                    // A view is taken at the call, after the other arguments (which may read
                    // what it shows): Rust allows no other use of a borrowed array.
                    if matches!(a.kind, ExprKind::View(_)) {
                        // One view of a place, however many times the call passes it.
                        viewed.extend(globals);
                        match views.iter().position(|(text, _)| *text == v) {
                            Some(k) => names.push(views[k].1.clone()),
                            None => {
                                let t = self.temp("view");
                                views.push((v, t.clone()));
                                names.push(t);
                            }
                        }
                    } else if a.ty == Ty::MutSlice {
                        names.push(v);
                    } else {
                        // A string variable is lent (the callee takes `impl AsRef<[u8]>` and
                        // copies what it keeps), an aggregate variable that holds strings is
                        // cloned (it is not `Copy`): a move would leave nothing for the next
                        // turn of a loop, or the next use, to pass (E0382).
                        let v = if !matches!(a.kind, ExprKind::Local(_) | ExprKind::Field(..)) {
                            v
                        } else if a.ty == Ty::Str {
                            format!("&{v}")
                        } else if crate::js::holds_str(self.p, &a.ty) {
                            format!("{v}.clone()")
                        } else {
                            v
                        };
                        let t = self.temp("a");
                        binds.push_str(&format!("let {t} = {v}; "));
                        names.push(t);
                    }
                }
                let callee = &self.p.functions[f.index()];
                let name = fn_name(self.p, &self.prefixes, self.home, *f);
                let enter = if callee.body.block.makes_calls() {
                    let at = self.at(e.span);
                    format!("let {} = t27_rt::enter({at}); ", self.temp("depth"))
                } else {
                    String::new()
                };
                let made: String = views
                    .iter()
                    .map(|(v, t)| format!("let {t} = {v}; "))
                    .collect();
                let mut call = format!("{{ {made}{name}({}) }}", names.join(", "));
                viewed.sort_unstable();
                viewed.dedup();
                for g in viewed.iter().rev() {
                    call = format!("G{g}.with_borrow_mut(|__g{g}| {call})");
                }
                format!("{{ {binds}{enter}{call} }}")
            }
            ExprKind::Len(x) => {
                let t = self.ty(&e.ty);
                match &x.ty {
                    Ty::Array(_, n) => format!("({n} as {t})"),
                    _ => format!("({}.len() as {t})", self.raw(x)),
                }
            }
            ExprKind::Contains(s, t) => {
                format!("t27_rt::contains(&{}, &{})", self.raw(s), self.raw(t))
            }
            ExprKind::Unary(UnOp::Not, x) => format!("!{}", self.raw(x)),
            ExprKind::Unary(UnOp::Neg, x) => {
                let v = self.raw(x);
                match e.ty {
                    Ty::Int(_) => {
                        let at = self.at(e.span);
                        format!("t27_rt::ck(({v}).checked_neg(), {at})")
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
                let (a, b) = (self.raw(l), self.raw(r));
                format!("({})", compare(*op, &l.ty, &a, &b))
            }
            ExprKind::Binary(op, l, r) => {
                let (a, b) = (self.raw(l), self.raw(r));
                // Both operands are evaluated before the operation, left first.
                let (ta, tb) = (self.ty(&l.ty), self.ty(&r.ty));
                let (x, y) = (self.temp("x"), self.temp("y"));
                let body = self.arith(*op, &l.ty, &x, &y, e.span);
                format!("{{ let {x}: {ta} = {a}; let {y}: {tb} = {b}; {body} }}")
            }
            ExprKind::Cast(x) => self.cast(x, &e.ty, e.span),
            ExprKind::Index(base, index) => {
                let b = self.raw(base);
                let (bt, it) = (self.temp("b"), self.temp("i"));
                let n = match &base.ty {
                    Ty::Array(_, n) => n.to_string(),
                    _ => format!("{bt}.len()"),
                };
                let i = self.expr(index);
                let at = self.at(index.span);
                let clone = if aggregate_or_str(&e.ty) {
                    ".clone()"
                } else if base.ty == Ty::MutSlice {
                    ".get()"
                } else {
                    ""
                };
                format!(
                    "{{ let {bt} = &{b}; let {it} = t27_rt::idx(({i}) as i128, {n}, {at}); {bt}[{it}]{clone} }}"
                )
            }
            ExprKind::Field(x, i) => {
                let b = self.raw(x);
                format!("({b}){}", self.field(&x.ty, *i))
            }
            ExprKind::Array(xs) => {
                let items: Vec<String> = xs.iter().map(|x| self.expr(x)).collect();
                format!("[{}]", items.join(", "))
            }
            ExprKind::Tuple(xs) => {
                let items: Vec<String> = xs.iter().map(|x| self.expr(x)).collect();
                format!("({},)", items.join(", "))
            }
            ExprKind::Struct(xs) => {
                let Ty::Struct(id) = &e.ty else {
                    return "()".into();
                };
                let s = &self.p.structs[id.index()];
                let items: Vec<String> = xs
                    .iter()
                    .zip(&s.fields)
                    .map(|(x, f)| format!("{}: {}", names::rust(&f.name), self.expr(x)))
                    .collect();
                format!("{} {{ {} }}", names::rust(&s.decl.name), items.join(", "))
            }
            ExprKind::AddrOf(x) => format!("t27_rt::owned(&{}[..])", self.raw(x)),
            ExprKind::View(x) => {
                let (root, path) = self.view_path(x);
                format!("std::cell::Cell::from_mut(&mut {root}{path}[..]).as_slice_of_cells()")
            }
            ExprKind::If(c, a, b) => {
                format!(
                    "(if {} {{ {} }} else {{ {} }})",
                    self.raw(c),
                    self.expr(a),
                    self.expr(b)
                )
            }
            ExprKind::Switch(x, arms, default) => {
                let v = self.raw(x);
                let w = self.temp("w");
                let mut text = format!("{{ let {w}: {} = {v}; ", self.ty(&x.ty));
                for (i, arm) in arms.iter().enumerate() {
                    let tests: Vec<String> = arm
                        .patterns
                        .iter()
                        .map(|p| {
                            let lit = self.literal(p, &x.ty);
                            compare(BinOp::Eq, &x.ty, &w, &lit)
                        })
                        .collect();
                    let value = self.expr(&arm.value);
                    let keyword = if i == 0 { "if" } else { "else if" };
                    text.push_str(&format!("{keyword} {} {{ {value} }} ", tests.join(" || ")));
                }
                let d = match default {
                    Some(d) => self.expr(d),
                    None => self.zero(&e.ty),
                };
                if arms.is_empty() {
                    text.push_str(&format!("{d} }}"));
                } else {
                    text.push_str(&format!("else {{ {d} }} }}"));
                }
                text
            }
            ExprKind::Undefined => self.undefined(&e.ty),
            // Coverage probes count on the engines only: a mirror computes the value.
            ExprKind::Counted { value, .. } => self.raw(value),
            ExprKind::Error => "()".into(),
        }
    }

    /// The place of a view, with its indexes checked; a module `var` is borrowed around the
    /// call the view is passed to (`view_globals`).
    pub(super) fn view_path(&mut self, place: &Expr) -> (String, String) {
        match &place.kind {
            ExprKind::Local(id) => (self.locals[id.index()].clone(), String::new()),
            ExprKind::Global(id) => {
                self.view_globals.push(id.0);
                (format!("(*__g{})", id.0), String::new())
            }
            ExprKind::Field(base, i) => {
                let (root, path) = self.view_path(base);
                (root, format!("{path}{}", self.field(&base.ty, *i)))
            }
            ExprKind::Index(base, index) => {
                let (root, path) = self.view_path(base);
                let n = match &base.ty {
                    Ty::Array(_, n) => n.to_string(),
                    _ => format!("{root}{path}.len()"),
                };
                let i = self.expr(index);
                let at = self.at(index.span);
                (
                    root,
                    format!("{path}[t27_rt::idx(({i}) as i128, {n}, {at})]"),
                )
            }
            _ => ("_".into(), String::new()),
        }
    }

    pub(super) fn field(&self, ty: &Ty, i: u32) -> String {
        match ty {
            Ty::Struct(id) => format!(
                ".{}",
                names::rust(&self.p.structs[id.index()].fields[i as usize].name)
            ),
            _ => format!(".{i}"),
        }
    }

    /// An arithmetic, bitwise or shift operator on `a` and `b` (already evaluated, of type
    /// `ty`; for shifts, the left operand's), checked as the engines check it.
    pub(super) fn arith(&mut self, op: BinOp, ty: &Ty, a: &str, b: &str, span: Span) -> String {
        let Ty::Int(t) = ty else {
            return format!("({a} {} {b})", op.symbol());
        };
        let at = self.at(span);
        let name = t.name();
        match op {
            BinOp::Add => format!("t27_rt::ck({a}.checked_add({b}), {at})"),
            BinOp::Sub => format!("t27_rt::ck({a}.checked_sub({b}), {at})"),
            BinOp::Mul => format!("t27_rt::ck({a}.checked_mul({b}), {at})"),
            BinOp::Div => format!("t27_rt::div({a}.checked_div({b}), {b} == 0, {at})"),
            BinOp::Rem => format!("t27_rt::rem({a}.checked_rem({b}), {b} == 0, {at})"),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => format!("({a} {} {b})", op.symbol()),
            // Owner's rule (LANGUAGE.md 12.3): the bits pushed out of the type are dropped,
            // and `as` from i128 keeps exactly the type's low bits (two's complement).
            BinOp::Shl => format!(
                "((({a} as i128) << t27_rt::shift({b} as i128, {}, {at})) as {name})",
                t.bits()
            ),
            BinOp::Shr => format!(
                "((({a} as i128) >> t27_rt::shift({b} as i128, {}, {at})) as {name})",
                t.bits()
            ),
            _ => a.to_string(),
        }
    }

    pub(super) fn cast(&mut self, x: &Expr, to: &Ty, span: Span) -> String {
        let v = self.raw(x);
        match (&x.ty, to) {
            (Ty::MutSlice, _) => format!("t27_rt::bytes_of({v})"),
            (Ty::Int(from), Ty::Int(t)) if from == t => v,
            (Ty::Int(from), Ty::Int(t)) if from.widens_to(*t) => format!("(({v}) as {})", t.name()),
            (Ty::Int(_) | Ty::UntypedInt, Ty::Int(t)) => {
                let at = self.at(span);
                format!(
                    "t27_rt::fit::<{}>(({v}) as i128, t27_rt::LOSSY_CAST, {at})",
                    t.name()
                )
            }
            (Ty::Int(_) | Ty::UntypedInt, Ty::F64) => format!("(({v}) as f64)"),
            (Ty::F64, Ty::Int(t)) => {
                let at = self.at(span);
                let (lo, end) = (t.min(), t.max() + 1);
                format!("t27_rt::ftoi::<{}>({v}, {lo}.0, {end}.0, {at})", t.name())
            }
            _ => v,
        }
    }

    // ---- Values -----------------------------------------------------------------------------

    pub fn literal(&mut self, v: &Value, ty: &Ty) -> String {
        match (v, ty) {
            (Value::Int(i), Ty::Int(t)) => int_literal(i, Some(*t)),
            (Value::Int(i), _) => int_literal(i, None),
            (Value::Bool(b), _) => b.to_string(),
            (Value::F64(x), _) => f64_literal(*x),
            (Value::Str(s), _) => format!("t27_rt::s({})", byte_string(s)),
            (Value::Array(xs), Ty::Array(e, _)) => {
                let items: Vec<String> = xs.iter().map(|x| self.literal(x, e)).collect();
                format!("[{}]", items.join(", "))
            }
            (Value::Tuple(xs), Ty::Tuple(ts)) => {
                let items: Vec<String> =
                    xs.iter().zip(ts).map(|(x, t)| self.literal(x, t)).collect();
                format!("({},)", items.join(", "))
            }
            (Value::Struct(xs), Ty::Struct(id)) => {
                let s = &self.p.structs[id.index()];
                let items: Vec<String> = xs
                    .iter()
                    .zip(&s.fields)
                    .map(|(x, f)| format!("{}: {}", names::rust(&f.name), self.literal(x, &f.ty)))
                    .collect();
                format!("{} {{ {} }}", names::rust(&s.decl.name), items.join(", "))
            }
            _ => "()".into(),
        }
    }

    /// What `undefined` of type `ty` reads as: 0xAA bytes, `false`, empty strings
    /// ([`t27_ir::undefined`]).
    pub fn undefined(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Int(t) => int_literal(&t27_ir::undefined::int(*t).into(), Some(*t)),
            Ty::F64 => f64_literal(t27_ir::undefined::f64()),
            Ty::Array(e, n) if crate::js::holds_str(self.p, e) => {
                format!(
                    "std::array::from_fn::<_, {n}, _>(|_| {})",
                    self.undefined(e)
                )
            }
            Ty::Array(e, n) => format!("[{}; {n}]", self.undefined(e)),
            Ty::Tuple(ts) => {
                let items: Vec<String> = ts.iter().map(|t| self.undefined(t)).collect();
                format!("({},)", items.join(", "))
            }
            Ty::Struct(id) => {
                let s = &self.p.structs[id.index()];
                let fields = s.fields.clone();
                let name = names::rust(&s.decl.name);
                let items: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {}", names::rust(&f.name), self.undefined(&f.ty)))
                    .collect();
                format!("{name} {{ {} }}", items.join(", "))
            }
            _ => self.zero(ty),
        }
    }

    /// A module `var`'s declared value, as its thread-local and `reset()` set it.
    pub fn declared(&mut self, g: &Global) -> String {
        match &g.value {
            Some(x) => self.literal(x, &g.ty),
            None => self.zero(&g.ty),
        }
    }

    /// Zeroed memory: what a switch without a matching arm gives, and a declaration whose
    /// value could not be computed.
    pub fn zero(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Int(t) => format!("0{}", t.name()),
            Ty::UntypedInt => "0".into(),
            Ty::Bool => "false".into(),
            Ty::F64 => "0.0".into(),
            Ty::Str => "t27_rt::s(b\"\")".into(),
            Ty::MutSlice | Ty::Void | Ty::Error => "()".into(),
            Ty::Array(e, n) if crate::js::holds_str(self.p, e) => {
                format!("std::array::from_fn::<_, {n}, _>(|_| {})", self.zero(e))
            }
            Ty::Array(e, n) => format!("[{}; {n}]", self.zero(e)),
            Ty::Tuple(ts) => {
                let items: Vec<String> = ts.iter().map(|t| self.zero(t)).collect();
                format!("({},)", items.join(", "))
            }
            Ty::Struct(id) => {
                let s = &self.p.structs[id.index()];
                let fields = s.fields.clone();
                let name = names::rust(&s.decl.name);
                let items: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {}", names::rust(&f.name), self.zero(&f.ty)))
                    .collect();
                format!("{name} {{ {} }}", items.join(", "))
            }
        }
    }
}
