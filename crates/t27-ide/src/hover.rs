//! Hover: what a name is, as Markdown: its declaration in t27, a constant's computed value,
//! and its doc comment.

use crate::Analysis;
use std::path::Path;
use t27_check::{LocalDecl, NameTarget};
use t27_diag::Span;
use t27_ir::{Decl, FnId, Ty};

/// What hovering over a name shows, and the name's span.
#[derive(Clone, Debug, PartialEq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

impl Analysis {
    pub fn hover(&self, path: &Path, offset: u32) -> Option<Hover> {
        let file = self.file_id(path)?;
        let name = self.name_at(file, offset)?;
        let p = &self.checked.program;
        let ty = |t: &Ty| p.ty_name(t);
        let (code, doc): (String, Option<&str>) = match &name.target {
            NameTarget::Const(id) => {
                let c = &p.consts[id.index()];
                let shown = match &c.ty {
                    Ty::UntypedInt => String::new(),
                    t => format!(" : {}", ty(t)),
                };
                let value = match &c.value {
                    Some(v) => format!(" = {v}"),
                    None => " (no value: it has an error)".to_string(),
                };
                (
                    format!("{}const {}{shown}{value}", vis(&c.decl), c.decl.name),
                    c.decl.doc.as_deref(),
                )
            }
            NameTarget::Global(id) => {
                let g = &p.globals[id.index()];
                let value = g
                    .value
                    .as_ref()
                    .map_or(String::new(), |v| format!(" = {v}"));
                (
                    format!("{}var {} : {}{value}", vis(&g.decl), g.decl.name, ty(&g.ty)),
                    g.decl.doc.as_deref(),
                )
            }
            NameTarget::Fn(id) => (
                self.signature(*id),
                p.functions[id.index()].decl.doc.as_deref(),
            ),
            NameTarget::Struct(id) => {
                let s = &p.structs[id.index()];
                let fields: Vec<String> = s
                    .fields
                    .iter()
                    .map(|f| format!("    {}: {},", f.name, ty(&f.ty)))
                    .collect();
                (
                    format!(
                        "{}struct {} {{\n{}\n}}",
                        vis(&s.decl),
                        s.decl.name,
                        fields.join("\n")
                    ),
                    s.decl.doc.as_deref(),
                )
            }
            NameTarget::Test(id) => {
                let t = &p.tests[id.index()];
                let kind = match t.kind {
                    t27_syntax::ast::TestKind::Test => "test",
                    t27_syntax::ast::TestKind::Invariant => "invariant",
                };
                (
                    format!(
                        "{kind} {} // {} runtime asserts, {} decided when checked",
                        t.decl.name, t.runtime_asserts, t.folded_asserts
                    ),
                    t.decl.doc.as_deref(),
                )
            }
            NameTarget::Module(m) => {
                let module = &p.modules[m.index()];
                let name = self.checked.sources.get(module.file).name.clone();
                (
                    format!(
                        "module {} // {name}, {} declarations",
                        module.name,
                        module.items.len()
                    ),
                    None,
                )
            }
            NameTarget::Local {
                decl,
                ty: t,
                declared,
                ..
            } => {
                let text = self.text(file);
                let written = text.get(decl.range()).unwrap_or("?");
                let shown = match declared {
                    LocalDecl::Parameter => format!("{written}: {} // a parameter", ty(t)),
                    LocalDecl::Var => format!("var {written} : {}", ty(t)),
                    LocalDecl::Let => format!("let {written} : {}", ty(t)),
                    LocalDecl::Const => format!("const {written} : {}", ty(t)),
                };
                (shown, None)
            }
            NameTarget::Field { strukt, index } => {
                let s = &p.structs[strukt.index()];
                let f = &s.fields[*index as usize];
                (format!("{}.{} : {}", s.decl.name, f.name, ty(&f.ty)), None)
            }
        };
        let mut markdown = format!("```t27\n{code}\n```");
        if let Some(doc) = doc {
            markdown.push_str("\n\n");
            markdown.push_str(doc.trim());
        }
        Some(Hover {
            span: name.span,
            markdown,
        })
    }

    /// `pub fn name(a: T, b: U) -> R`, as declared.
    pub(crate) fn signature(&self, id: FnId) -> String {
        let p = &self.checked.program;
        format!("{}{}", vis(&p.functions[id.index()].decl), p.signature(id))
    }
}

fn vis(decl: &Decl) -> &'static str {
    if decl.is_pub { "pub " } else { "" }
}
