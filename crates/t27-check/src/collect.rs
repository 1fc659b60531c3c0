//! Phase one: declarations get ids and names, `use` binds imported names, and the types in
//! struct fields and function signatures are resolved.

use crate::checker::{AstRef, Checker, ConstState, Def, Scope};
use crate::load::UseTarget;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;
use t27_syntax::ast::{self, ItemKind};

impl Checker {
    pub(crate) fn collect_declarations(&mut self) {
        let modules = Arc::clone(&self.modules);
        for (mi, loaded) in modules.iter().enumerate() {
            let module = ModuleId(mi as u32);
            let name = loaded
                .ast
                .module
                .as_ref()
                .map_or_else(|| loaded.path.join("_"), |d| d.name.clone());
            self.program_mut().modules.push(Module {
                name,
                file: loaded.file,
                path: loaded.path.clone(),
                items: Vec::new(),
                requested: loaded.requested,
                imports: Vec::new(),
            });
            self.scopes_mut().push(Scope::default());
            for (ii, item) in loaded.ast.items.iter().enumerate() {
                let Some(name) = item.kind.name() else {
                    continue;
                };
                let at = AstRef {
                    module: mi,
                    item: ii,
                };
                let decl = |is_pub: bool| Decl {
                    name: name.name.to_string(),
                    module,
                    is_pub,
                    doc: item.doc.as_ref().map(|d| d.text.clone()),
                    span: item.span,
                    name_span: name.span,
                };
                let p = Arc::make_mut(&mut self.program);
                let (def, item_ref) = match &item.kind {
                    ItemKind::Const(g) => {
                        let id = ConstId(p.consts.len() as u32);
                        p.consts.push(Const {
                            decl: decl(g.is_pub),
                            ty: Ty::Error,
                            init: Expr::error(item.span),
                            value: None,
                        });
                        self.const_ast.push(at);
                        self.const_state.push(ConstState::Pending);
                        (Def::Const(id), ItemRef::Const(id))
                    }
                    ItemKind::Var(g) => {
                        let id = GlobalId(p.globals.len() as u32);
                        p.globals.push(Global {
                            decl: decl(g.is_pub),
                            ty: Ty::Error,
                            init: Expr::error(item.span),
                            value: None,
                        });
                        self.global_ast.push(at);
                        (Def::Global(id), ItemRef::Global(id))
                    }
                    ItemKind::Fn(f) => {
                        let id = FnId(p.functions.len() as u32);
                        p.functions.push(Function {
                            decl: decl(f.is_pub),
                            params: Vec::new(),
                            ret: Ty::Void,
                            body: Body::default(),
                        });
                        self.fn_ast.push(at);
                        (Def::Fn(id), ItemRef::Fn(id))
                    }
                    ItemKind::Struct(s) => {
                        let id = StructId(p.structs.len() as u32);
                        p.structs.push(Struct {
                            decl: decl(s.is_pub),
                            fields: Vec::new(),
                        });
                        self.struct_ast.push(at);
                        (Def::Struct(id), ItemRef::Struct(id))
                    }
                    ItemKind::Test(t) => {
                        let id = TestId(p.tests.len() as u32);
                        p.tests.push(Test {
                            decl: decl(false),
                            kind: t.kind,
                            body: Body {
                                locals: Vec::new(),
                                block: Block {
                                    stmts: Vec::new(),
                                    span: t.body.span,
                                },
                            },
                            reaches: Vec::new(),
                            folded_asserts: 0,
                            runtime_asserts: 0,
                        });
                        self.test_ast.push(at);
                        (Def::Test(id), ItemRef::Test(id))
                    }
                    ItemKind::Use(_) | ItemKind::Error => continue,
                };
                self.program_mut().modules[mi].items.push(item_ref);
                if let Some((_, first)) = self.scopes[mi].items.get(name.name.as_str()) {
                    let first = *first;
                    self.report(duplicate(loaded.file, &name.name, name.span, first));
                } else {
                    self.scopes_mut()[mi]
                        .items
                        .insert(name.name.to_string(), (def, name.span));
                }
            }
        }
    }

    pub(crate) fn resolve_imports(&mut self) {
        let modules = Arc::clone(&self.modules);
        for (mi, loaded) in modules.iter().enumerate() {
            for (item_index, item) in loaded.ast.items.iter().enumerate() {
                let ItemKind::Use(u) = &item.kind else {
                    continue;
                };
                let last = &u.path[u.path.len() - 1];
                let Some(target) = loaded.uses.get(&item_index) else {
                    // The module was not found (reported): uses of the name stay silent.
                    self.scopes_mut()[mi]
                        .imports
                        .entry(last.name.to_string())
                        .or_insert((Def::Unresolved, last.span));
                    continue;
                };
                let imported = match target {
                    UseTarget::Module(t) | UseTarget::Item(t, _) => ModuleId(*t as u32),
                };
                // `use a::b::NAME;`: `b` names the module.
                if let (UseTarget::Item(..), [.., module, _]) = (target, u.path.as_slice()) {
                    self.record_def(loaded.file, module.span, Def::Module(imported));
                }
                if !self.program.modules[mi].imports.contains(&imported) {
                    self.program_mut().modules[mi].imports.push(imported);
                }
                let def = match target {
                    UseTarget::Module(t) => Def::Module(ModuleId(*t as u32)),
                    UseTarget::Item(t, name) => {
                        match self.scopes[*t].items.get(name).map(|(d, _)| *d) {
                            Some(Def::Test(_)) | None => {
                                let candidates: Vec<&str> = self.scopes[*t]
                                    .items
                                    .iter()
                                    .filter(|(_, (d, _))| !matches!(d, Def::Test(_)))
                                    .map(|(k, _)| k.as_str())
                                    .collect();
                                let suggestion =
                                    crate::suggest::nearest(name, candidates).map(str::to_string);
                                let mut d = Diagnostic::new(
                                Code("E1004"),
                                loaded.file,
                                last.span,
                                format!("module `{}` has no constant, function or struct named `{name}`", modules[*t].path.join("::")),
                            )
                            .with_label("not declared there");
                                d = match suggestion {
                                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                                    None => d.with_help(
                                        "check the name against the module's declarations",
                                    ),
                                };
                                self.report(d);
                                self.scopes_mut()[mi]
                                    .imports
                                    .entry(last.name.to_string())
                                    .or_insert((Def::Unresolved, last.span));
                                continue;
                            }
                            Some(def) => {
                                if !self.def_is_pub(def) {
                                    let decl_span = self.def_span(def);
                                    self.report(
                                        Diagnostic::new(
                                            Code("E1006"),
                                            loaded.file,
                                            last.span,
                                            format!("`{name}` is not `pub`"),
                                        )
                                        .with_label("private to its module")
                                        .with_secondary(
                                            modules[*t].file,
                                            decl_span,
                                            "declared here without `pub`",
                                        )
                                        .with_help("mark the declaration `pub` to import it"),
                                    );
                                }
                                def
                            }
                        }
                    }
                };
                self.record_def(loaded.file, last.span, def);
                let scope = &mut self.scopes_mut()[mi];
                let clash = scope
                    .items
                    .get(last.name.as_str())
                    .or_else(|| scope.imports.get(last.name.as_str()))
                    .map(|(_, s)| *s);
                match clash {
                    Some(first) => {
                        self.report(duplicate(loaded.file, &last.name, last.span, first))
                    }
                    None => {
                        scope
                            .imports
                            .insert(last.name.to_string(), (def, last.span));
                    }
                }
            }
        }
    }

    pub(crate) fn resolve_structs(&mut self) {
        let modules = Arc::clone(&self.modules);
        for (si, at) in self.struct_ast.clone().into_iter().enumerate() {
            let ItemKind::Struct(s) = &modules[at.module].ast.items[at.item].kind else {
                continue;
            };
            let m = ModuleId(at.module as u32);
            let mut seen: HashMap<&str, Span> = HashMap::default();
            let mut fields = Vec::new();
            for f in &s.fields {
                if let Some(first) = seen.insert(&f.name.name, f.name.span) {
                    self.report(duplicate(
                        modules[at.module].file,
                        &f.name.name,
                        f.name.span,
                        first,
                    ));
                }
                let ty = self.resolve_type(m, &f.ty);
                fields.push(Field {
                    name: f.name.name.to_string(),
                    ty,
                    span: f.name.span,
                });
            }
            self.program_mut().structs[si].fields = fields;
        }
    }

    pub(crate) fn resolve_signatures(&mut self) {
        let modules = Arc::clone(&self.modules);
        for (fi, at) in self.fn_ast.clone().into_iter().enumerate() {
            let ItemKind::Fn(f) = &modules[at.module].ast.items[at.item].kind else {
                continue;
            };
            let m = ModuleId(at.module as u32);
            let mut seen: HashMap<&str, Span> = HashMap::default();
            let mut locals = Vec::new();
            for p in &f.params {
                if let Some(first) = seen.insert(&p.name.name, p.name.span) {
                    self.report(duplicate(
                        modules[at.module].file,
                        &p.name.name,
                        p.name.span,
                        first,
                    ));
                }
                let ty = self.resolve_param_type(m, &p.ty);
                locals.push(Local {
                    name: p.name.name.to_string(),
                    ty,
                    mutable: false,
                    span: p.name.span,
                });
            }
            let ret = f.ret.as_ref().map_or(Ty::Void, |t| self.resolve_type(m, t));
            let func = &mut self.program_mut().functions[fi];
            func.params = (0..locals.len() as u32).map(LocalId).collect();
            func.body.locals = locals;
            func.ret = ret;
        }
    }
}

pub(crate) fn duplicate(file: t27_diag::FileId, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(
        Code("E1002"),
        file,
        span,
        format!("`{name}` is declared twice"),
    )
    .with_label("declared again here")
    .with_secondary(file, first, "first declared here")
    .with_help("rename one of them, or remove the one that is stale")
}

/// The name written for a syntax path, for messages.
pub(crate) fn path_text(path: &[ast::Ident]) -> String {
    path.iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join("::")
}
