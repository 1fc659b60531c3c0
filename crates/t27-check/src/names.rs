//! Where each name is written and what it stands for: the index an editor needs for hover,
//! go to definition, references and rename ([`crate::check_names`]). Recorded by name
//! resolution itself, so an editor's answer is the checker's, never a second resolver's.

use crate::checker::{Checker, Def};
use t27_diag::{FileId, Span};
use t27_ir::{ConstId, FnId, GlobalId, ModuleId, StructId, TestId, Ty};

/// One name written in a source file and what it resolved to.
#[derive(Clone, Debug, PartialEq)]
pub struct NameUse {
    pub file: FileId,
    /// The name itself (one identifier, never a whole path).
    pub span: Span,
    pub target: NameTarget,
}

/// What a name stands for. Module-level declarations are named by id: their own name spans
/// are in the program (`Decl::name_span`); a local by where it is declared.
#[derive(Clone, Debug, PartialEq)]
pub enum NameTarget {
    Const(ConstId),
    Global(GlobalId),
    Fn(FnId),
    Struct(StructId),
    Test(TestId),
    Module(ModuleId),
    /// A parameter or a local of a body: the span of its name where it is declared (a
    /// local's own declaration is recorded too, with `span == decl`).
    Local {
        file: FileId,
        decl: Span,
        ty: Ty,
        declared: LocalDecl,
    },
    /// Field `index` of a struct.
    Field {
        strukt: StructId,
        index: u32,
    },
}

/// How a local was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalDecl {
    Parameter,
    Var,
    Let,
    Const,
}

impl LocalDecl {
    /// From the words a body's locals are described with (`BodyCtx::local_kinds`).
    pub(crate) fn from_words(words: &str) -> LocalDecl {
        match words {
            "a parameter" => LocalDecl::Parameter,
            "`var`" => LocalDecl::Var,
            "`const`" => LocalDecl::Const,
            _ => LocalDecl::Let,
        }
    }
}

impl NameTarget {
    pub(crate) fn of_def(def: Def) -> Option<NameTarget> {
        Some(match def {
            Def::Const(id) => NameTarget::Const(id),
            Def::Global(id) => NameTarget::Global(id),
            Def::Fn(id) => NameTarget::Fn(id),
            Def::Struct(id) => NameTarget::Struct(id),
            Def::Test(id) => NameTarget::Test(id),
            Def::Module(id) => NameTarget::Module(id),
            Def::Unresolved => return None,
        })
    }
}

impl Checker {
    /// Records that the name at `span` of `file` stands for `target`, when names are kept.
    pub(crate) fn record_name(&mut self, file: FileId, span: Span, target: NameTarget) {
        if let Some(names) = &mut self.names {
            names.push(NameUse { file, span, target });
        }
    }

    pub(crate) fn record_def(&mut self, file: FileId, span: Span, def: Def) {
        // A constant is judged where it is read, once computed.
        if !matches!(def, Def::Const(_)) {
            self.note_use(file, span, def);
        }
        if self.names.is_some()
            && let Some(target) = NameTarget::of_def(def)
        {
            self.record_name(file, span, target);
        }
    }

    pub(crate) fn record_local(
        &mut self,
        file: FileId,
        local: &t27_ir::Local,
        declared: LocalDecl,
    ) {
        if self.names.is_some() {
            self.record_name(
                file,
                local.span,
                NameTarget::Local {
                    file,
                    decl: local.span,
                    ty: local.ty.clone(),
                    declared,
                },
            );
        }
    }
}
