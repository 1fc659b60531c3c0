//! Document and workspace symbols: every declaration of a module, struct fields inside their
//! struct.

use crate::{Analysis, Location};
use std::path::Path;
use t27_diag::Span;
use t27_ir::ItemRef;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Module,
    Constant,
    Variable,
    Function,
    Struct,
    Field,
    Test,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// Its type or signature, in a few words.
    pub detail: String,
    pub location: Location,
    /// The whole declaration; `location.span` is its name.
    pub full_span: Span,
    pub children: Vec<Symbol>,
    /// The module it is declared in.
    pub module: String,
}

impl Analysis {
    /// The declarations of `path`, in source order.
    pub fn document_symbols(&self, path: &Path) -> Vec<Symbol> {
        let Some(m) = self.file_id(path).and_then(|f| self.module_of(f)) else {
            return Vec::new();
        };
        let p = &self.checked.program;
        let module = &p.modules[m.index()];
        let here = |span: Span| Location {
            path: self.path_of(module.file).to_path_buf(),
            span,
        };
        let mut symbols = Vec::new();
        for &item in &module.items {
            let (decl, _) = self.item_decl(item);
            let (kind, detail, children) = match item {
                ItemRef::Const(id) => (
                    SymbolKind::Constant,
                    p.ty_name(&p.consts[id.index()].ty),
                    Vec::new(),
                ),
                ItemRef::Global(id) => (
                    SymbolKind::Variable,
                    p.ty_name(&p.globals[id.index()].ty),
                    Vec::new(),
                ),
                ItemRef::Fn(id) => (SymbolKind::Function, self.signature(id), Vec::new()),
                ItemRef::Struct(id) => {
                    let fields = p.structs[id.index()]
                        .fields
                        .iter()
                        .map(|f| Symbol {
                            name: f.name.clone(),
                            kind: SymbolKind::Field,
                            detail: p.ty_name(&f.ty),
                            location: here(f.span),
                            full_span: f.span,
                            children: Vec::new(),
                            module: module.name.clone(),
                        })
                        .collect();
                    (SymbolKind::Struct, "struct".to_string(), fields)
                }
                ItemRef::Test(id) => {
                    let t = &p.tests[id.index()];
                    let kind = match t.kind {
                        t27_syntax::ast::TestKind::Test => "test",
                        t27_syntax::ast::TestKind::Invariant => "invariant",
                    };
                    (SymbolKind::Test, kind.to_string(), Vec::new())
                }
            };
            symbols.push(Symbol {
                name: decl.name.clone(),
                kind,
                detail,
                location: here(decl.name_span),
                full_span: decl.span,
                children,
                module: module.name.clone(),
            });
        }
        symbols
    }

    /// Every declaration of every module whose name holds the letters of `query` in order
    /// (any case), modules themselves included.
    pub fn workspace_symbols(&self, query: &str) -> Vec<Symbol> {
        let mut found = Vec::new();
        for (i, module) in self.checked.program.modules.iter().enumerate() {
            let path = self.path_of(module.file);
            if matches(&module.name, query) {
                let at = self
                    .target_location(&t27_check::NameTarget::Module(t27_ir::ModuleId(i as u32)));
                let span = at.map_or(Span::default(), |l| l.span);
                found.push(Symbol {
                    name: module.name.clone(),
                    kind: SymbolKind::Module,
                    detail: self.checked.sources.get(module.file).name.clone(),
                    location: Location {
                        path: path.to_path_buf(),
                        span,
                    },
                    full_span: span,
                    children: Vec::new(),
                    module: module.name.clone(),
                });
            }
            for mut symbol in self.document_symbols(path) {
                let fields = std::mem::take(&mut symbol.children);
                if matches(&symbol.name, query) {
                    found.push(symbol);
                }
                found.extend(fields.into_iter().filter(|f| matches(&f.name, query)));
            }
        }
        found
    }
}

fn matches(name: &str, query: &str) -> bool {
    let mut letters = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|q| letters.any(|c| c == q))
}
