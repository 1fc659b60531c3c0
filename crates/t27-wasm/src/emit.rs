//! One function (or test block) of the typed IR as wasm instructions. Values sit on the wasm
//! stack in their `Repr`; every check the engines make is made here, and a check that fails
//! records its kind and place in the card's globals and ends in `unreachable`.

use crate::cx::*;
use crate::repr::Repr;
use t27_diag::Span;
use t27_ir::*;
use wasm_encoder::{BlockType, Function, Instruction as I, MemArg, ValType};

pub type R<T> = Result<T, String>;

/// What a `br` inside a loop can reach.
#[derive(Clone, Copy, PartialEq)]
enum Ctl {
    Plain,
    Break,
    Continue,
}

pub struct FnEmit<'c, 'p> {
    pub cx: &'c mut Cx<'p>,
    pub module: ModuleId,
    pub code: Vec<I<'static>>,
    /// The first wasm local of each IR local, or the data address of a constant array local.
    locals: Vec<Option<Slot>>,
    body_locals: &'c [Local],
    nparams: u32,
    extra: Vec<ValType>,
    ctl: Vec<Ctl>,
    ret: Ty,
    /// The frame on the card's stack, for a body with arrays in memory.
    pub frame: Option<crate::memory::Frame>,
    /// Whether the stack pointer is reset on entry (a call from the host).
    pub reset_sp: bool,
    /// The body's span: where a stack overflow traps.
    pub span: Span,
}

#[derive(Clone, Copy)]
pub enum Slot {
    Wasm(u32),
    /// An immutable local array of constants, laid out in the data.
    Data(u32),
    /// An array local at this offset in the frame.
    Mem(u32),
}

pub fn mem(offset: u64, align: u32) -> MemArg {
    MemArg {
        offset,
        align,
        memory_index: 0,
    }
}

impl<'c, 'p> FnEmit<'c, 'p> {
    /// An emitter for `body`, whose first `params` locals are the parameters.
    pub fn new(
        cx: &'c mut Cx<'p>,
        module: ModuleId,
        body: &'c Body,
        params: usize,
        ret: Ty,
    ) -> R<FnEmit<'c, 'p>> {
        let mut em = FnEmit {
            cx,
            module,
            code: Vec::new(),
            locals: vec![None; body.locals.len()],
            body_locals: &body.locals,
            nparams: 0,
            extra: Vec::new(),
            ctl: Vec::new(),
            ret,
            frame: None,
            reset_sp: false,
            span: body.block.span,
        };
        let mut next = 0;
        for (i, l) in body.locals.iter().take(params).enumerate() {
            let repr = Repr::of(&l.ty).map_err(|w| format!("a parameter of {w}"))?;
            em.locals[i] = Some(Slot::Wasm(next));
            next += repr.vals().len() as u32;
        }
        em.nparams = next;
        if em.cx.sp.is_some() && crate::memory::needs_stack(body) {
            let (offsets, size) = FnEmit::frame_layout(&body.locals, params);
            for (i, off) in offsets.into_iter().enumerate() {
                if let Some(off) = off {
                    em.locals[i] = Some(Slot::Mem(off));
                }
            }
            let saved = em.temp_local(ValType::I32);
            let base = em.temp_local(ValType::I32);
            em.frame = Some(crate::memory::Frame { saved, base, size });
        }
        Ok(em)
    }

    /// The function's code: the frame opened at its start, closed at its end.
    pub fn finish(mut self) -> Function {
        self.epilogue();
        self.code.push(I::End);
        let prologue = self.prologue(self.reset_sp);
        self.code.splice(0..0, prologue);
        let mut f = Function::new_with_locals_types(self.extra.iter().copied());
        for i in &self.code {
            f.instruction(i);
        }
        f
    }

    fn op(&mut self, i: I<'static>) {
        self.code.push(i);
    }

    pub fn temp_local(&mut self, v: ValType) -> u32 {
        self.extra.push(v);
        self.nparams + self.extra.len() as u32 - 1
    }

    pub fn local_slot(&mut self, id: LocalId) -> R<Slot> {
        if let Some(s) = self.locals[id.index()] {
            return Ok(s);
        }
        let l = &self.body_locals[id.index()];
        let repr = Repr::of(&l.ty).map_err(|w| format!("local {w}"))?;
        let first = self.nparams + self.extra.len() as u32;
        for v in repr.vals() {
            self.extra.push(*v);
        }
        self.locals[id.index()] = Some(Slot::Wasm(first));
        Ok(Slot::Wasm(first))
    }

    fn block_type(&mut self, ty: &Ty) -> R<BlockType> {
        Ok(match Repr::of(ty)? {
            Repr::Void => BlockType::Empty,
            Repr::Str => BlockType::FunctionType(self.cx.ty(&[], &[ValType::I32, ValType::I32])),
            r => BlockType::Result(r.vals()[0]),
        })
    }

    fn open(&mut self, i: I<'static>, c: Ctl) {
        self.code.push(i);
        self.ctl.push(c);
    }

    fn close(&mut self) {
        self.code.push(I::End);
        self.ctl.pop();
    }

    fn br_to(&self, c: Ctl) -> R<u32> {
        self.ctl
            .iter()
            .rev()
            .position(|x| *x == c)
            .map(|d| d as u32)
            .ok_or_else(|| "a `break` or `continue` outside a loop".to_string())
    }

    /// Records a trap of `kind` at `span` and ends the call in `unreachable`.
    pub fn trap(&mut self, kind: i32, span: Span, sides: Option<(Ty, Ty)>) {
        let site = self.cx.site(self.module, span, sides);
        self.op(I::I32Const(kind));
        self.op(I::GlobalSet(G_TRAP_KIND));
        self.op(I::I32Const(site as i32));
        self.op(I::GlobalSet(G_TRAP_SITE));
        self.op(I::Unreachable);
    }

    /// `if (top of stack) trap end`.
    pub fn trap_if(&mut self, kind: TrapKind, span: Span) {
        self.open(I::If(BlockType::Empty), Ctl::Plain);
        self.trap(kind_code(kind), span, None);
        self.close();
    }

    fn set_local(&mut self, first: u32, repr: Repr) {
        if repr == Repr::Str {
            self.op(I::LocalSet(first + 1));
        }
        if repr != Repr::Void {
            self.op(I::LocalSet(first));
        }
    }

    fn get_local(&mut self, first: u32, repr: Repr) {
        if repr != Repr::Void {
            self.op(I::LocalGet(first));
        }
        if repr == Repr::Str {
            self.op(I::LocalGet(first + 1));
        }
    }

    /// Pops a value of `repr` into new temporaries; their first index.
    pub fn stash_value(&mut self, repr: Repr) -> u32 {
        let first = self.nparams + self.extra.len() as u32;
        for v in repr.vals() {
            self.extra.push(*v);
        }
        self.set_local(first, repr);
        first
    }

    fn drop_value(&mut self, repr: Repr) {
        for _ in repr.vals() {
            self.op(I::Drop);
        }
    }

    /// What `undefined` of scalar type `ty` reads as: 0xAA bytes, `false`, an empty string
    /// (t27_ir::undefined), in the canonical form of its representation.
    fn undefined(&mut self, ty: &Ty) -> R<()> {
        match (ty, Repr::of(ty)?) {
            (Ty::Int(t), Repr::I32) => self.op(I::I32Const(undefined::int(*t) as i32)),
            (Ty::Int(t), _) => self.op(I::I64Const(undefined::int(*t) as i64)),
            (Ty::F64, _) => self.op(I::F64Const(undefined::f64().into())),
            _ => return self.zero(ty),
        }
        Ok(())
    }

    /// The zero of a type (what a switch without a match gives).
    fn zero(&mut self, ty: &Ty) -> R<()> {
        match Repr::of(ty)? {
            Repr::I32 => self.op(I::I32Const(0)),
            Repr::I64 => self.op(I::I64Const(0)),
            Repr::F64 => self.op(I::F64Const(0.0.into())),
            Repr::Str => {
                self.op(I::I32Const(0));
                self.op(I::I32Const(0));
            }
            Repr::Void => {}
        }
        Ok(())
    }

    /// A known value of type `ty`.
    pub fn value(&mut self, v: &Value, ty: &Ty) -> R<()> {
        match (Repr::of(ty)?, v) {
            (Repr::I32, Value::Int(n)) => self.op(I::I32Const(crate::data::int64(n)? as i32)),
            (Repr::I64, Value::Int(n)) => self.op(I::I64Const(crate::data::int64(n)?)),
            (Repr::I32, Value::Bool(b)) => self.op(I::I32Const(*b as i32)),
            (Repr::F64, Value::F64(x)) => self.op(I::F64Const((*x).into())),
            (Repr::Str, Value::Str(s)) => {
                let at = self.cx.data.string(s);
                self.op(I::I32Const(at as i32));
                self.op(I::I32Const(s.len() as i32));
            }
            _ => return Err("a constant of this kind".into()),
        }
        Ok(())
    }

    /// Converts the integer on the stack, of type `ty`, to an i64 of the same value (as an
    /// unsigned bit pattern for `u64`).
    pub fn widen(&mut self, ty: &Ty) {
        if let (Ok(Repr::I32), Some(t)) = (Repr::of(ty), ty.int()) {
            self.op(if t.signed() {
                I::I64ExtendI32S
            } else {
                I::I64ExtendI32U
            });
        } else if *ty == Ty::Bool {
            self.op(I::I64ExtendI32U);
        }
    }

    /// `e`, at type `ty`: an untyped literal takes the type; anything else must have it.
    pub fn expr_at(&mut self, e: &Expr, ty: &Ty) -> R<()> {
        if let ExprKind::Lit(v) = &e.kind {
            return self.value(v, ty);
        }
        if Repr::of(&e.ty)? != Repr::of(ty)? {
            return Err("a value used at a type of another width".into());
        }
        self.expr(e)
    }

    pub fn block(&mut self, b: &Block) -> R<()> {
        b.stmts.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Let { local, init } => {
                let ty = &self.body_locals[local.index()].ty;
                let mutable = self.body_locals[local.index()].mutable;
                let literal = match &init.kind {
                    ExprKind::Lit(Value::Array(items)) => Some(items.clone()),
                    ExprKind::Array(items) => items
                        .iter()
                        .map(|x| match &x.kind {
                            ExprKind::Lit(v) => Some(v.clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => None,
                };
                if let (Ty::Array(..), Some(items), false) = (ty, literal, mutable) {
                    // An immutable array of constants: read from the data like a constant.
                    let key = 1 << 63 | u64::from(self.module.0) << 32 | u64::from(init.span.start);
                    let at = self.cx.data.array(key, ty, &Value::Array(items))?;
                    self.locals[local.index()] = Some(Slot::Data(at));
                    return Ok(());
                }
                let first = match self.local_slot(*local)? {
                    Slot::Wasm(first) => first,
                    Slot::Mem(_) => {
                        let ty = ty.clone();
                        self.addr(&Expr {
                            kind: ExprKind::Local(*local),
                            ty: ty.clone(),
                            span: s.span,
                        })?;
                        let at = self.temp_local(ValType::I32);
                        self.op(I::LocalSet(at));
                        return self.set_array(at, &ty, init);
                    }
                    Slot::Data(_) => return Err("an array local assigned twice".into()),
                };
                let ty = ty.clone();
                match init.kind {
                    ExprKind::Undefined => self.undefined(&ty)?,
                    _ => self.expr_at(init, &ty)?,
                }
                self.set_local(first, Repr::of(&ty)?);
            }
            StmtKind::LetTuple { .. } => return Err("tuples".into()),
            StmtKind::Assign { place, op, value } => self.assign(place, *op, value)?,
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond)?;
                self.open(I::If(BlockType::Empty), Ctl::Plain);
                self.block(then)?;
                if !otherwise.stmts.is_empty() {
                    self.op(I::Else);
                    self.block(otherwise)?;
                }
                self.close();
            }
            StmtKind::While { cond, body, step } => {
                self.open(I::Block(BlockType::Empty), Ctl::Break);
                self.open(I::Loop(BlockType::Empty), Ctl::Plain);
                self.expr(cond)?;
                self.op(I::I32Eqz);
                self.op(I::BrIf(self.br_to(Ctl::Break)?));
                self.open(I::Block(BlockType::Empty), Ctl::Continue);
                self.block(body)?;
                self.close();
                self.block(step)?;
                self.op(I::Br(0));
                self.close();
                self.close();
            }
            StmtKind::Break => {
                let d = self.br_to(Ctl::Break)?;
                self.op(I::Br(d));
            }
            StmtKind::Continue => {
                let d = self.br_to(Ctl::Continue)?;
                self.op(I::Br(d));
            }
            StmtKind::Return(value) => {
                if let Some(e) = value {
                    let ret = self.ret.clone();
                    self.expr_at(e, &ret)?;
                }
                self.epilogue();
                self.op(I::Return);
            }
            StmtKind::Assert { cond, .. } => self.assert(cond, s.span)?,
            StmtKind::Expr(e) => {
                self.expr(e)?;
                self.drop_value(Repr::of(&e.ty)?);
            }
            StmtKind::Block(b) => self.block(b)?,
            StmtKind::Count(_) => {}
        }
        Ok(())
    }

    /// An assert: a false one records its place (and, for a comparison, both sides) and
    /// traps with [`KIND_ASSERT`].
    fn assert(&mut self, cond: &Expr, span: Span) -> R<()> {
        if let ExprKind::Binary(BinOp::And, l, r) = &cond.kind {
            self.assert(l, span)?;
            return self.assert(r, span);
        }
        if let ExprKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
            && matches!(l.ty, Ty::Array(..))
        {
            // Arrays compared where they are; a failure records both addresses.
            self.addr(l)?;
            let a = self.stash_value(Repr::I32);
            self.addr(r)?;
            let b = self.stash_value(Repr::I32);
            self.array_compare(*op, &l.ty, a, b)?;
            self.op(I::I32Eqz);
            self.open(I::If(BlockType::Empty), Ctl::Plain);
            let sides = if self.cx.record_sides {
                for (local, g) in [(a, G_LEFT_PTR), (b, G_RIGHT_PTR)] {
                    self.op(I::LocalGet(local));
                    self.op(I::GlobalSet(g));
                }
                Some((l.ty.clone(), r.ty.clone()))
            } else {
                None
            };
            self.trap(KIND_ASSERT, span, sides);
            self.close();
            return Ok(());
        }
        if let ExprKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
            && self.cx.record_sides
        {
            let ty = compare_type(l, r);
            let repr = Repr::of(&ty)?;
            self.expr_at(l, &ty)?;
            let a = self.stash_value(repr);
            self.expr_at(r, &ty)?;
            let b = self.stash_value(repr);
            self.get_local(a, repr);
            self.get_local(b, repr);
            self.compare(*op, &ty)?;
            self.op(I::I32Eqz);
            self.open(I::If(BlockType::Empty), Ctl::Plain);
            for (first, (int, flt, ptr, len)) in [
                (a, (G_LEFT_INT, G_LEFT_F64, G_LEFT_PTR, G_LEFT_LEN)),
                (b, (G_RIGHT_INT, G_RIGHT_F64, G_RIGHT_PTR, G_RIGHT_LEN)),
            ] {
                self.get_local(first, repr);
                match repr {
                    Repr::I32 => {
                        self.widen(&ty);
                        self.op(I::GlobalSet(int));
                    }
                    Repr::I64 => self.op(I::GlobalSet(int)),
                    Repr::F64 => self.op(I::GlobalSet(flt)),
                    Repr::Str => {
                        self.op(I::GlobalSet(len));
                        self.op(I::GlobalSet(ptr));
                    }
                    Repr::Void => {}
                }
            }
            self.trap(KIND_ASSERT, span, Some((ty.clone(), ty)));
            self.close();
            return Ok(());
        }
        self.expr(cond)?;
        self.op(I::I32Eqz);
        self.open(I::If(BlockType::Empty), Ctl::Plain);
        self.trap(KIND_ASSERT, span, None);
        self.close();
        Ok(())
    }

    fn assign(&mut self, place: &Expr, op: Option<BinOp>, value: &Expr) -> R<()> {
        let in_memory = match &place.kind {
            ExprKind::Index(base, _) => matches!(base.ty, Ty::Array(..)),
            _ => matches!(place.ty, Ty::Array(..)),
        };
        if in_memory {
            return self.assign_element(place, op, value, place.span);
        }
        let repr = Repr::of(&place.ty)?;
        match &place.kind {
            ExprKind::Local(_) | ExprKind::Global(_) => {
                if let Some(op) = op {
                    self.expr(place)?;
                    self.operand_of(op, value, &place.ty)?;
                    self.arith(op, &place.ty, &value.ty, place.span)?;
                } else {
                    self.expr_at(value, &place.ty)?;
                }
                match &place.kind {
                    ExprKind::Local(id) => {
                        let Slot::Wasm(first) = self.local_slot(*id)? else {
                            return Err("an array local assigned".into());
                        };
                        self.set_local(first, repr);
                    }
                    ExprKind::Global(g) => {
                        let first = self.cx.global(*g)?;
                        if repr == Repr::Str {
                            self.op(I::GlobalSet(first + 1));
                        }
                        self.op(I::GlobalSet(first));
                    }
                    _ => {}
                }
                Ok(())
            }
            ExprKind::Index(base, index) if base.ty == Ty::MutSlice => {
                let ExprKind::Local(id) = base.kind else {
                    return Err("writing through a view that is not a parameter".into());
                };
                let Slot::Wasm(first) = self.local_slot(id)? else {
                    return Err("an array local".into());
                };
                let at = self.checked_index(first, index)?;
                if let Some(op) = op {
                    self.op(I::LocalGet(at));
                    self.op(I::I32Load8U(mem(0, 0)));
                    self.operand_of(op, value, &place.ty)?;
                    self.arith(op, &place.ty, &value.ty, place.span)?;
                } else {
                    self.expr_at(value, &place.ty)?;
                }
                let v = self.stash_value(Repr::I32);
                self.op(I::LocalGet(at));
                self.op(I::LocalGet(v));
                self.op(I::I32Store8(mem(0, 0)));
                Ok(())
            }
            _ => Err("assigning to an element of an array or a field".into()),
        }
    }

    /// The right operand of `op` on a left operand of type `ty` (a shift's count keeps its
    /// own type).
    pub fn operand_of(&mut self, op: BinOp, value: &Expr, ty: &Ty) -> R<()> {
        match op {
            BinOp::Shl | BinOp::Shr => self.expr(value),
            _ => self.expr_at(value, ty),
        }
    }

    /// With a string's address and length in locals `first`, `first + 1`: checks `index`
    /// against the length (trapping at the index) and leaves the byte's address in a new
    /// local, whose index it returns.
    fn checked_index(&mut self, first: u32, index: &Expr) -> R<u32> {
        self.expr(index)?;
        self.widen(&index.ty);
        let i = self.stash_value(Repr::I64);
        self.op(I::LocalGet(i));
        self.op(I::LocalGet(first + 1));
        self.op(I::I64ExtendI32U);
        self.op(I::I64GeU);
        self.trap_if(TrapKind::IndexOutOfBounds, index.span);
        self.op(I::LocalGet(first));
        self.op(I::LocalGet(i));
        self.op(I::I32WrapI64);
        self.op(I::I32Add);
        Ok(self.stash_value(Repr::I32))
    }

    pub fn expr(&mut self, e: &Expr) -> R<()> {
        match &e.kind {
            ExprKind::Lit(v) => self.value(v, &e.ty)?,
            ExprKind::Const(id) => {
                let c = &self.cx.p.consts[id.index()];
                let v = c.value.as_ref().ok_or("a constant without a value")?;
                self.value(v, &c.ty)?;
            }
            ExprKind::Global(g) => {
                let first = self.cx.global(*g)?;
                self.op(I::GlobalGet(first));
                if Repr::of(&e.ty)? == Repr::Str {
                    self.op(I::GlobalGet(first + 1));
                }
            }
            ExprKind::Local(id) => match self.local_slot(*id)? {
                Slot::Wasm(first) => self.get_local(first, Repr::of(&e.ty)?),
                Slot::Data(_) | Slot::Mem(_) => {
                    return Err("an array used whole (compared, passed or returned)".into());
                }
            },
            ExprKind::Call(f, args) => self.call(*f, args, e.span)?,
            ExprKind::Len(x) => {
                if let Ty::Array(_, n) = &x.ty {
                    self.value(&Value::Int((*n).into()), &e.ty)?;
                } else {
                    self.expr(x)?;
                    let len = self.stash_value(Repr::I32);
                    self.op(I::Drop);
                    self.op(I::LocalGet(len));
                    if Repr::of(&e.ty)? == Repr::I64 {
                        self.op(I::I64ExtendI32U);
                    }
                }
            }
            ExprKind::Contains(s, t) => {
                self.expr(s)?;
                self.expr(t)?;
                let f = self.cx.str_contains();
                self.op(I::Call(f));
            }
            ExprKind::Unary(UnOp::Not, x) => {
                self.expr(x)?;
                self.op(I::I32Eqz);
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                self.expr(x)?;
                if e.ty == Ty::F64 {
                    self.op(I::F64Neg);
                } else {
                    self.negate(&e.ty, e.span)?;
                }
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                self.expr(l)?;
                self.open(I::If(BlockType::Result(ValType::I32)), Ctl::Plain);
                self.expr(r)?;
                self.op(I::Else);
                self.op(I::I32Const(0));
                self.close();
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                self.expr(l)?;
                self.open(I::If(BlockType::Result(ValType::I32)), Ctl::Plain);
                self.op(I::I32Const(1));
                self.op(I::Else);
                self.expr(r)?;
                self.close();
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() && matches!(l.ty, Ty::Array(..)) => {
                self.addr(l)?;
                let a = self.stash_value(Repr::I32);
                self.addr(r)?;
                let b = self.stash_value(Repr::I32);
                self.array_compare(*op, &l.ty, a, b)?;
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() => {
                let ty = compare_type(l, r);
                self.expr_at(l, &ty)?;
                self.expr_at(r, &ty)?;
                self.compare(*op, &ty)?;
            }
            ExprKind::Binary(op, l, r) => {
                let ty = if l.ty.is_integer() && !r.ty.is_integer() {
                    r.ty.clone()
                } else if matches!(l.ty, Ty::UntypedInt) && !matches!(op, BinOp::Shl | BinOp::Shr) {
                    e.ty.clone()
                } else {
                    l.ty.clone()
                };
                self.expr_at(l, &ty)?;
                self.operand_of(*op, r, &ty)?;
                self.arith(*op, &ty, &r.ty, e.span)?;
            }
            ExprKind::Cast(x) if x.ty == Ty::MutSlice => {
                if self.frame.is_none() {
                    return Err("reading a `[]u8` as `[]const u8` (a copy of its bytes)".into());
                }
                self.expr(x)?;
                self.copy_bytes();
            }
            ExprKind::Cast(x) => {
                self.expr(x)?;
                self.cast(&x.ty, &e.ty, e.span)?;
            }
            ExprKind::Index(base, index) => self.index(base, index)?,
            ExprKind::If(c, a, b) => {
                self.expr(c)?;
                let bt = self.block_type(&e.ty)?;
                self.open(I::If(bt), Ctl::Plain);
                self.expr_at(a, &e.ty)?;
                self.op(I::Else);
                self.expr_at(b, &e.ty)?;
                self.close();
            }
            ExprKind::Switch(x, arms, default) => self.switch(e, x, arms, default.as_deref())?,
            ExprKind::Undefined => self.undefined(&e.ty)?,
            ExprKind::Counted { value, .. } => self.expr(value)?,
            ExprKind::Field(..) => return Err("struct and tuple fields".into()),
            ExprKind::Array(_) => return Err("array values".into()),
            ExprKind::Tuple(_) => return Err("tuples".into()),
            ExprKind::Struct(_) => return Err("structs".into()),
            ExprKind::AddrOf(x) => {
                let Ty::Array(_, n) = &x.ty else {
                    return Err("`&` of a value of this kind".into());
                };
                if self.frame.is_none() {
                    return Err("`&` of an array outside a frame".into());
                }
                self.addr(x)?;
                self.op(I::I32Const(*n as i32));
                self.copy_bytes();
            }
            ExprKind::View(x) => self.view(x)?,
            ExprKind::Error => return Err("an expression with an error".into()),
        }
        Ok(())
    }

    fn call(&mut self, f: FnId, args: &[Expr], span: Span) -> R<()> {
        let func = &self.cx.p.functions[f.index()];
        for (a, p) in args.iter().zip(&func.params) {
            let ty = func.body.locals[p.index()].ty.clone();
            self.expr_at(a, &ty)?;
        }
        let index = *self
            .cx
            .fn_index
            .get(&f)
            .ok_or_else(|| format!("calls `{}`, which the card cannot hold", func.decl.name))?;
        if self.cx.leaf[f.index()] {
            self.op(I::Call(index));
            return Ok(());
        }
        // The engines' depth limit: only calls of functions that call count.
        self.op(I::GlobalGet(G_DEPTH));
        self.op(I::I32Const(MAX_CALL_DEPTH as i32));
        self.op(I::I32GeU);
        self.trap_if(TrapKind::RecursionTooDeep, span);
        self.op(I::GlobalGet(G_DEPTH));
        self.op(I::I32Const(1));
        self.op(I::I32Add);
        self.op(I::GlobalSet(G_DEPTH));
        self.op(I::Call(index));
        self.op(I::GlobalGet(G_DEPTH));
        self.op(I::I32Const(1));
        self.op(I::I32Sub);
        self.op(I::GlobalSet(G_DEPTH));
        Ok(())
    }

    fn index(&mut self, base: &Expr, index: &Expr) -> R<()> {
        match &base.ty {
            Ty::Str | Ty::MutSlice => {
                self.expr(base)?;
                let first = self.stash_value(Repr::Str);
                let at = self.checked_index(first, index)?;
                self.op(I::LocalGet(at));
                self.op(I::I32Load8U(mem(0, 0)));
                Ok(())
            }
            Ty::Array(elem, _) => {
                let whole = Expr {
                    kind: ExprKind::Index(Box::new(base.clone()), Box::new(index.clone())),
                    ty: (**elem).clone(),
                    span: index.span,
                };
                self.addr(&whole)?;
                self.load(elem)
            }
            _ => Err("indexing a value of this kind".into()),
        }
    }

    fn switch(&mut self, e: &Expr, x: &Expr, arms: &[SwitchArm], default: Option<&Expr>) -> R<()> {
        let xrepr = Repr::of(&x.ty)?;
        self.expr(x)?;
        let v = self.stash_value(xrepr);
        let bt = self.block_type(&e.ty)?;
        for arm in arms {
            for (k, pat) in arm.patterns.iter().enumerate() {
                self.get_local(v, xrepr);
                self.value(pat, &x.ty)?;
                self.compare(BinOp::Eq, &x.ty)?;
                if k > 0 {
                    self.op(I::I32Or);
                }
            }
            if arm.patterns.is_empty() {
                self.op(I::I32Const(0));
            }
            self.open(I::If(bt), Ctl::Plain);
            self.expr_at(&arm.value, &e.ty)?;
            self.op(I::Else);
        }
        match default {
            Some(d) => self.expr_at(d, &e.ty)?,
            None => self.zero(&e.ty)?,
        }
        for _ in arms {
            self.close();
        }
        Ok(())
    }

    /// Compares the two values of type `ty` on the stack as the evaluator does: an ordering
    /// of bools or strings is false.
    pub fn compare(&mut self, op: BinOp, ty: &Ty) -> R<()> {
        let repr = Repr::of(ty)?;
        let signed = ty.int().is_some_and(|t| t.signed()) || *ty == Ty::UntypedInt;
        let i = match (repr, op) {
            (Repr::Str, BinOp::Eq) => I::Call(self.cx.str_eq()),
            (Repr::Str, BinOp::Ne) => {
                let f = self.cx.str_eq();
                self.op(I::Call(f));
                I::I32Eqz
            }
            (Repr::I32, BinOp::Eq) => I::I32Eq,
            (Repr::I32, BinOp::Ne) => I::I32Ne,
            (Repr::I64, BinOp::Eq) => I::I64Eq,
            (Repr::I64, BinOp::Ne) => I::I64Ne,
            (Repr::F64, BinOp::Eq) => I::F64Eq,
            (Repr::F64, BinOp::Ne) => I::F64Ne,
            (Repr::F64, BinOp::Lt) => I::F64Lt,
            (Repr::F64, BinOp::Le) => I::F64Le,
            (Repr::F64, BinOp::Gt) => I::F64Gt,
            (Repr::F64, BinOp::Ge) => I::F64Ge,
            (Repr::I32 | Repr::I64, _) if ty.is_integer() => {
                let wide = repr == Repr::I64;
                match (op, signed, wide) {
                    (BinOp::Lt, true, false) => I::I32LtS,
                    (BinOp::Lt, false, false) => I::I32LtU,
                    (BinOp::Le, true, false) => I::I32LeS,
                    (BinOp::Le, false, false) => I::I32LeU,
                    (BinOp::Gt, true, false) => I::I32GtS,
                    (BinOp::Gt, false, false) => I::I32GtU,
                    (BinOp::Ge, true, false) => I::I32GeS,
                    (BinOp::Ge, false, false) => I::I32GeU,
                    (BinOp::Lt, true, true) => I::I64LtS,
                    (BinOp::Lt, false, true) => I::I64LtU,
                    (BinOp::Le, true, true) => I::I64LeS,
                    (BinOp::Le, false, true) => I::I64LeU,
                    (BinOp::Gt, true, true) => I::I64GtS,
                    (BinOp::Gt, false, true) => I::I64GtU,
                    (BinOp::Ge, true, true) => I::I64GeS,
                    (BinOp::Ge, false, true) => I::I64GeU,
                    _ => return Err("a comparison of this kind".into()),
                }
            }
            _ => {
                // An ordering of bools or strings: false, as on the engines.
                self.drop_value(repr);
                self.drop_value(repr);
                I::I32Const(0)
            }
        };
        self.op(i);
        Ok(())
    }
}

/// The type two sides of a comparison are compared at: an untyped literal takes the other's.
fn compare_type(l: &Expr, r: &Expr) -> Ty {
    match (&l.ty, &r.ty) {
        (Ty::UntypedInt, t) | (t, Ty::UntypedInt) if *t != Ty::UntypedInt => t.clone(),
        (t, _) => t.clone(),
    }
}
