//! Names that stand for a declaration with an error, where they are written.
//!
//! Lowering turns what an erroneous declaration gives (a constant of an unknown type, a
//! constant without a value, a call of a function whose signature has an error, a field of a
//! struct whose field types have one) into `Error` nodes and `Ty::Error`, silently: the error
//! is reported once, at the declaration. The operator, cast or call around such an operand then
//! becomes an `Error` node itself, and the IR no longer names the declaration: a block that
//! reads `A + B`, with `A` broken, would not reach `A` in the IR, and would run with an `Error`
//! node where `A + B` was. So the use is recorded here, at the name, whatever the expression
//! around it makes of it; [`crate::Isolation`] adds each as a reference of the declaration
//! (or block) it is written in, the way it adds names through broken `use`s.

use crate::checker::{Checker, ConstState, Def};
use t27_diag::{FileId, Span};
use t27_ir::ItemRef;

/// A name written at `site` of `file` that stands for `target`, a declaration that has an
/// error (or, for a constant, no value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokenUse {
    pub file: FileId,
    pub site: Span,
    pub target: ItemRef,
}

impl Checker {
    /// Records the name at `site` when what it resolved to is already known to be broken.
    /// A constant is judged once computed ([`Checker::ensure_const`]); one still being
    /// computed is part of a cycle, which is an error.
    pub(crate) fn note_use(&mut self, file: FileId, site: Span, def: Def) {
        let p = &self.program;
        let target = match def {
            Def::Const(id) => {
                let broken = match self.const_state[id.index()] {
                    ConstState::Done => {
                        let c = &p.consts[id.index()];
                        c.ty.has_error() || c.value.is_none()
                    }
                    ConstState::InProgress => true,
                    // Not computed yet: its users compute it before they read it, and note it
                    // again then.
                    ConstState::Pending => false,
                };
                broken.then_some(ItemRef::Const(id))
            }
            Def::Global(id) => {
                let g = &p.globals[id.index()];
                g.ty.has_error().then_some(ItemRef::Global(id))
            }
            Def::Fn(id) => {
                let f = &p.functions[id.index()];
                let signature = f.ret.has_error()
                    || f.params.iter().any(|l| {
                        f.body
                            .locals
                            .get(l.index())
                            .is_some_and(|l| l.ty.has_error())
                    });
                signature.then_some(ItemRef::Fn(id))
            }
            Def::Struct(id) => {
                let s = &p.structs[id.index()];
                s.fields
                    .iter()
                    .any(|f| f.ty.has_error())
                    .then_some(ItemRef::Struct(id))
            }
            Def::Test(_) | Def::Module(_) | Def::Unresolved => None,
        };
        if let Some(target) = target {
            self.broken_uses.push(BrokenUse { file, site, target });
        }
    }
}
