//! Arrays in memory: a function's array locals live in its frame on the card's call stack
//! (below the data, inside the built memory size), module `var` arrays in the data. An array
//! is reached by its address; an element is read and written where it is, with the engines'
//! bounds checks. `&arr` of a `[N]u8` and a `[]u8` read as `[]const u8` copy the bytes (the
//! engines take the bytes of that moment), onto the stack; `&arr` passed as a `[]u8` is the
//! array's own address and length, so what the callee writes lands in it.

use crate::cx::STACK_SIZE;
use crate::data::{BASE, size_of};
use crate::emit::{FnEmit, R, mem};
use crate::repr::Repr;
use t27_diag::Span;
use t27_ir::*;
use wasm_encoder::{Instruction as I, ValType};

/// Whether a body needs the call stack: an array local, or a copy of bytes.
pub fn needs_stack(body: &Body) -> bool {
    body.locals.iter().any(|l| matches!(l.ty, Ty::Array(..))) || block_copies(&body.block)
}

fn block_copies(b: &Block) -> bool {
    let mut found = false;
    for s in &b.stmts {
        s.for_each_part(&mut |part| match part {
            Part::Expr(e) => found |= expr_copies(e),
            Part::Block(b) => found |= block_copies(b),
        });
    }
    found
}

fn expr_copies(e: &Expr) -> bool {
    let here = match &e.kind {
        ExprKind::AddrOf(_) | ExprKind::View(_) | ExprKind::Global(_) | ExprKind::Array(_) => true,
        ExprKind::Cast(x) => x.ty == Ty::MutSlice,
        _ => false,
    };
    let mut found = here;
    e.for_each_child(&mut |x| found |= expr_copies(x));
    found
}

/// A function's frame: where the stack pointer was on entry, the frame's base, and its size.
#[derive(Clone, Copy)]
pub struct Frame {
    pub saved: u32,
    pub base: u32,
    pub size: u32,
}

impl FnEmit<'_, '_> {
    /// The instructions that open the frame (after resetting the stack pointer, for a call
    /// from the host): the pointer saved, lowered by the frame's size, checked.
    pub fn prologue(&mut self, reset: bool) -> Vec<I<'static>> {
        let Some(sp) = self.cx.sp else {
            return Vec::new();
        };
        let mut code = Vec::new();
        if reset {
            code.push(I::I32Const(self.cx.stack_top() as i32));
            code.push(I::GlobalSet(sp));
        }
        if let Some(f) = self.frame {
            code.extend([
                I::GlobalGet(sp),
                I::LocalTee(f.saved),
                I::I32Const(f.size as i32),
                I::I32Sub,
                I::LocalTee(f.base),
                I::GlobalSet(sp),
            ]);
            let saved = std::mem::take(&mut self.code);
            self.overflow_check(f.base);
            code.append(&mut self.code);
            self.code = saved;
        }
        code
    }

    /// Before a return: the stack pointer back where it was on entry.
    pub fn epilogue(&mut self) {
        if let (Some(sp), Some(f)) = (self.cx.sp, self.frame) {
            self.code.push(I::LocalGet(f.saved));
            self.code.push(I::GlobalSet(sp));
        }
    }

    /// Traps when the stack pointer in `local` is below the stack: as deep a recursion as the
    /// engines allow, with arrays in every frame, can need more than the stack holds.
    fn overflow_check(&mut self, local: u32) {
        self.code.push(I::LocalGet(local));
        self.code.push(I::I32Const(BASE as i32));
        self.code.push(I::I32LtS);
        self.trap_if(TrapKind::RecursionTooDeep, self.span);
    }

    /// Pushes the address of an array place, or of an element of one (checking each index).
    pub fn addr(&mut self, e: &Expr) -> R<()> {
        match &e.kind {
            ExprKind::Local(id) => match self.local_slot(*id)? {
                crate::emit::Slot::Mem(off) => {
                    let base = self.frame.ok_or("an array local outside a frame")?.base;
                    self.code.push(I::LocalGet(base));
                    self.code.push(I::I32Const(off as i32));
                    self.code.push(I::I32Add);
                }
                crate::emit::Slot::Data(at) => self.code.push(I::I32Const(at as i32)),
                crate::emit::Slot::Wasm(_) => return Err("an array in a wasm local".into()),
            },
            ExprKind::Const(id) => {
                let c = &self.cx.p.consts[id.index()];
                let v = c.value.as_ref().ok_or("a constant without a value")?;
                let at = self.cx.data.array(u64::from(id.0), &c.ty, v)?;
                self.code.push(I::I32Const(at as i32));
            }
            ExprKind::Lit(v) => {
                let at = self.cx.data.value(&e.ty, Some(v))?;
                self.code.push(I::I32Const(at as i32));
            }
            ExprKind::Global(g) => {
                let (live, _) = self.cx.global_array(*g)?;
                self.code.push(I::I32Const(live as i32));
            }
            ExprKind::Index(base, index) => {
                let Ty::Array(elem, n) = &base.ty else {
                    return Err("indexing a value of this kind".into());
                };
                let size = size_of(elem).ok_or("arrays of tuples or structs")?;
                self.addr(base)?;
                self.checked_offset(index, *n, size)?;
                self.code.push(I::I32Add);
            }
            ExprKind::Array(_) if self.frame.is_some() => {
                // A literal compared or indexed: built on the stack.
                let size = size_of(&e.ty).ok_or("arrays of tuples or structs")?;
                let at = self.alloc_const(size);
                self.set_array(at, &e.ty, e)?;
                self.code.push(I::LocalGet(at));
            }
            _ => return Err("an array value that is not a variable or constant".into()),
        }
        Ok(())
    }

    /// Pushes `index * size` as an i32, trapping (at the index) unless `index < n`.
    fn checked_offset(&mut self, index: &Expr, n: u64, size: u32) -> R<()> {
        self.expr(index)?;
        self.widen(&index.ty);
        let i = self.temp_local(ValType::I64);
        self.code.push(I::LocalTee(i));
        self.code.push(I::I64Const(n as i64));
        self.code.push(I::I64GeU);
        self.trap_if(TrapKind::IndexOutOfBounds, index.span);
        self.code.push(I::LocalGet(i));
        self.code.push(I::I32WrapI64);
        if size != 1 {
            self.code.push(I::I32Const(size as i32));
            self.code.push(I::I32Mul);
        }
        Ok(())
    }

    /// Loads a value of `ty` from the address on the stack.
    pub fn load(&mut self, ty: &Ty) -> R<()> {
        let i = match ty {
            Ty::Bool => I::I32Load8U(mem(0, 0)),
            Ty::Int(t) => match (t.bits(), t.signed()) {
                (8, false) => I::I32Load8U(mem(0, 0)),
                (8, true) => I::I32Load8S(mem(0, 0)),
                (16, false) => I::I32Load16U(mem(0, 1)),
                (16, true) => I::I32Load16S(mem(0, 1)),
                (32, _) => I::I32Load(mem(0, 2)),
                _ => I::I64Load(mem(0, 3)),
            },
            Ty::F64 => I::F64Load(mem(0, 3)),
            Ty::Str => {
                let a = self.temp_local(ValType::I32);
                self.code.push(I::LocalTee(a));
                self.code.push(I::I32Load(mem(0, 2)));
                self.code.push(I::LocalGet(a));
                I::I32Load(mem(4, 2))
            }
            _ => return Err("an array used whole (compared, passed or returned)".into()),
        };
        self.code.push(i);
        Ok(())
    }

    /// Stores the value of `ty` on the stack at the address in local `at`.
    pub fn store(&mut self, ty: &Ty, at: u32) -> R<()> {
        let repr = Repr::of(ty)?;
        let v = self.stash_value(repr);
        self.code.push(I::LocalGet(at));
        self.code.push(I::LocalGet(v));
        let i = match ty {
            Ty::Bool => I::I32Store8(mem(0, 0)),
            Ty::Int(t) => match t.bits() {
                8 => I::I32Store8(mem(0, 0)),
                16 => I::I32Store16(mem(0, 1)),
                32 => I::I32Store(mem(0, 2)),
                _ => I::I64Store(mem(0, 3)),
            },
            Ty::F64 => I::F64Store(mem(0, 3)),
            Ty::Str => {
                self.code.push(I::I32Store(mem(0, 2)));
                self.code.push(I::LocalGet(at));
                self.code.push(I::LocalGet(v + 1));
                I::I32Store(mem(4, 2))
            }
            _ => return Err("storing a value of this kind".into()),
        };
        self.code.push(i);
        Ok(())
    }

    /// Sets the array of type `ty` at the address in local `at` to `value`: `undefined`, the
    /// elements of a literal one by one, or a copy of another array.
    pub fn set_array(&mut self, at: u32, ty: &Ty, value: &Expr) -> R<()> {
        let size = size_of(ty).ok_or("arrays of tuples or structs")?;
        match &value.kind {
            ExprKind::Undefined => {
                // 0xAA bytes, as the reference's Debug build fills `undefined` memory; an
                // array of `bool`s or strings is zeroed (false, empty: t27_ir::undefined).
                let byte = match undefined::fill(ty, self.cx.p) {
                    undefined::Fill::Bytes => undefined::BYTE,
                    undefined::Fill::Zeroes => 0,
                    undefined::Fill::Mixed => return Err("arrays of structs".into()),
                };
                self.code.push(I::LocalGet(at));
                self.code.push(I::I32Const(i32::from(byte)));
                self.code.push(I::I32Const(size as i32));
                self.code.push(I::MemoryFill(0));
            }
            ExprKind::Array(items) => {
                let Ty::Array(elem, _) = ty else {
                    return Err("an array literal of another type".into());
                };
                let step = size_of(elem).ok_or("arrays of tuples or structs")?;
                // The elements are computed first, in order, into a scratch copy, so that an
                // element reading the array itself reads it as it was.
                let scratch = self.alloc_const(size);
                for (k, item) in items.iter().enumerate() {
                    let el = self.temp_local(ValType::I32);
                    self.code.push(I::LocalGet(scratch));
                    self.code.push(I::I32Const((k as u32 * step) as i32));
                    self.code.push(I::I32Add);
                    self.code.push(I::LocalSet(el));
                    if matches!(elem.as_ref(), Ty::Array(..)) {
                        self.set_array(el, elem, item)?;
                    } else {
                        self.expr_at(item, elem)?;
                        self.store(elem, el)?;
                    }
                }
                self.copy(at, scratch, size);
            }
            _ => {
                self.addr(value)?;
                let src = self.temp_local(ValType::I32);
                self.code.push(I::LocalSet(src));
                self.copy(at, src, size);
            }
        }
        Ok(())
    }

    fn copy(&mut self, dst: u32, src: u32, size: u32) {
        self.code.push(I::LocalGet(dst));
        self.code.push(I::LocalGet(src));
        self.code.push(I::I32Const(size as i32));
        self.code.push(I::MemoryCopy {
            src_mem: 0,
            dst_mem: 0,
        });
    }

    /// Room for `size` bytes on the stack, until the function returns; a local holding its
    /// address.
    fn alloc_const(&mut self, size: u32) -> u32 {
        self.code.push(I::I32Const(size as i32));
        self.alloc()
    }

    /// Room for as many bytes as the i32 on the stack says; a local holding its address.
    fn alloc(&mut self) -> u32 {
        let sp = self.cx.sp.unwrap_or(0);
        let n = self.temp_local(ValType::I32);
        self.code.push(I::LocalSet(n));
        self.code.push(I::GlobalGet(sp));
        self.code.push(I::LocalGet(n));
        self.code.push(I::I32Sub);
        let p = self.temp_local(ValType::I32);
        self.code.push(I::LocalTee(p));
        self.code.push(I::GlobalSet(sp));
        self.overflow_check(p);
        p
    }

    /// Replaces the (address, length) on the stack by a copy of those bytes on the stack.
    pub fn copy_bytes(&mut self) {
        let len = self.temp_local(ValType::I32);
        let src = self.temp_local(ValType::I32);
        self.code.push(I::LocalSet(len));
        self.code.push(I::LocalSet(src));
        self.code.push(I::LocalGet(len));
        let p = self.alloc();
        self.code.push(I::LocalGet(p));
        self.code.push(I::LocalGet(src));
        self.code.push(I::LocalGet(len));
        self.code.push(I::MemoryCopy {
            src_mem: 0,
            dst_mem: 0,
        });
        self.code.push(I::LocalGet(p));
        self.code.push(I::LocalGet(len));
    }

    /// An element of an array place assigned (with `op`, its old value combined first).
    pub fn assign_element(
        &mut self,
        place: &Expr,
        op: Option<BinOp>,
        value: &Expr,
        span: Span,
    ) -> R<()> {
        self.addr(place)?;
        let at = self.temp_local(ValType::I32);
        self.code.push(I::LocalSet(at));
        if let Ty::Array(..) = place.ty {
            return self.set_array(at, &place.ty, value);
        }
        if let Some(op) = op {
            self.code.push(I::LocalGet(at));
            self.load(&place.ty)?;
            self.operand_of(op, value, &place.ty)?;
            self.arith(op, &place.ty, &value.ty, span)?;
        } else {
            self.expr_at(value, &place.ty)?;
        }
        self.store(&place.ty, at)
    }

    /// `&arr` passed as a `[]u8`: the array's own bytes.
    pub fn view(&mut self, place: &Expr) -> R<()> {
        let Ty::Array(_, n) = &place.ty else {
            return Err("a view of a value of this kind".into());
        };
        self.addr(place)?;
        self.code.push(I::I32Const(*n as i32));
        Ok(())
    }

    /// Frame offsets of a body's array locals (8-byte aligned) and the frame's size.
    pub fn frame_layout(locals: &[Local], params: usize) -> (Vec<Option<u32>>, u32) {
        let mut offsets = vec![None; locals.len()];
        let mut size = 0u32;
        for (i, l) in locals.iter().enumerate().skip(params) {
            if let Some(n) = matches!(l.ty, Ty::Array(..))
                .then(|| size_of(&l.ty))
                .flatten()
            {
                offsets[i] = Some(size);
                size = (size + n).next_multiple_of(8);
            }
        }
        (offsets, size.min(STACK_SIZE))
    }
}

/// Whether equal values of `ty` always have the same bytes: integers and bools, and arrays
/// of them (not floats: `-0.0 == 0.0`; not strings: equal bytes at other addresses).
fn bytewise(ty: &Ty) -> bool {
    match ty {
        Ty::Int(_) | Ty::Bool => true,
        Ty::Array(e, _) => bytewise(e),
        _ => false,
    }
}

impl FnEmit<'_, '_> {
    /// `==` or `!=` of two arrays of type `ty` at the addresses in locals `a` and `b` (an
    /// ordering of arrays is false, as on the engines).
    pub fn array_compare(&mut self, op: BinOp, ty: &Ty, a: u32, b: u32) -> R<()> {
        if !bytewise(ty) {
            return Err("comparing arrays of floats or strings".into());
        }
        let size = size_of(ty).ok_or("arrays of tuples or structs")? as i32;
        match op {
            BinOp::Eq | BinOp::Ne => {
                let eq = self.cx.str_eq();
                self.code.extend([
                    I::LocalGet(a),
                    I::I32Const(size),
                    I::LocalGet(b),
                    I::I32Const(size),
                    I::Call(eq),
                ]);
                if op == BinOp::Ne {
                    self.code.push(I::I32Eqz);
                }
            }
            _ => self.code.push(I::I32Const(0)),
        }
        Ok(())
    }
}
