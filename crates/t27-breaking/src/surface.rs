//! The surface of a checked tree: per requested module, what its mirrors export (its
//! constants with their computed values, its functions' signatures, its structs' fields),
//! read from the typed IR. Module `var`s and blocks are not mirrored, so not part of it.

use t27_check::Checked;
use t27_diag::{FileId, Span};
use t27_ir::{ExprKind, ItemRef, Program, Ty, Value};

/// One module of the tree, known by its path under the spec root: that path is its mirrors'.
pub struct ModuleSurface {
    /// `queen/dispatch`.
    pub path: String,
    /// The name from `module NAME;`.
    pub name: String,
    pub file: FileId,
    /// The `module NAME;` line, or the file's start when it has none.
    pub name_span: Span,
    /// Constants, functions and structs, public or not, in source order.
    pub decls: Vec<Declared>,
    /// Every declaration's (span, name span, name), blocks and `var`s included: where a
    /// comment stands between declarations or in front of one, and which one follows it.
    pub items: Vec<(Span, Span, String)>,
    /// The module's first syntax error, when it has one: a declaration it does not show may
    /// only be unreadable, so its absence is not taken for a removal.
    pub unreadable: Option<(Span, String)>,
}

pub struct Declared {
    pub name: String,
    pub is_pub: bool,
    pub name_span: Span,
    pub shape: Shape,
}

/// A type written as the spec writes it; `None` when the type has an error.
pub type TyName = Option<String>;

pub enum Shape {
    Const {
        ty: TyName,
        /// For an array, its element type.
        element_ty: TyName,
        /// `None` when the value could not be computed (an error in it or what it uses).
        value: Option<Value>,
        value_span: Span,
        /// The spans of an array literal's elements, in order (empty for any other value).
        elements: Vec<Span>,
    },
    Fn {
        params: Vec<Param>,
        ret: TyName,
    },
    Struct {
        fields: Vec<Param>,
    },
}

/// A parameter or a struct field.
pub struct Param {
    pub name: String,
    pub ty: TyName,
    pub span: Span,
}

impl Shape {
    pub fn noun(&self) -> &'static str {
        match self {
            Shape::Const { .. } => "constant",
            Shape::Fn { .. } => "function",
            Shape::Struct { .. } => "struct",
        }
    }
}

fn ty_name(p: &Program, ty: &Ty) -> TyName {
    (!ty.has_error()).then(|| p.ty_name(ty))
}

/// The requested modules of a checked tree.
pub fn surface(checked: &Checked) -> Vec<ModuleSurface> {
    let p = &checked.program;
    p.modules
        .iter()
        .enumerate()
        .filter(|(_, m)| m.requested)
        .map(|(i, m)| {
            let syntax = checked.syntax.get(i).and_then(|s| s.module.as_ref());
            let unreadable = checked
                .diagnostics
                .iter()
                .find(|d| d.file == m.file && d.is_error() && d.code.as_str().starts_with("E0"))
                .map(|d| (d.primary.span, format!("{}: {}", d.code, d.message)));
            let mut decls = Vec::new();
            let mut items = Vec::new();
            for item in &m.items {
                let decl = p.decl(*item);
                items.push((decl.span, decl.name_span, decl.name.clone()));
                if let Some(shape) = shape(p, *item) {
                    decls.push(Declared {
                        name: decl.name.clone(),
                        is_pub: decl.is_pub,
                        name_span: decl.name_span,
                        shape,
                    });
                }
            }
            items.sort_by_key(|(span, _, _)| span.start);
            ModuleSurface {
                path: m.path.join("/"),
                name: m.name.clone(),
                file: m.file,
                name_span: syntax.map_or(Span::default(), |s| s.span),
                decls,
                items,
                unreadable,
            }
        })
        .collect()
}

fn shape(p: &Program, item: ItemRef) -> Option<Shape> {
    Some(match item {
        ItemRef::Const(id) => {
            let c = &p.consts[id.index()];
            let element_ty = match &c.ty {
                Ty::Array(t, _) => ty_name(p, t),
                _ => None,
            };
            let elements = match &c.init.kind {
                ExprKind::Array(items) => items.iter().map(|e| e.span).collect(),
                _ => Vec::new(),
            };
            Shape::Const {
                ty: ty_name(p, &c.ty),
                element_ty,
                value: c.value.clone(),
                value_span: c.init.span,
                elements,
            }
        }
        ItemRef::Fn(id) => {
            let f = &p.functions[id.index()];
            let params = f
                .params
                .iter()
                .filter_map(|l| f.body.locals.get(l.index()))
                .map(|l| Param {
                    name: l.name.clone(),
                    ty: ty_name(p, &l.ty),
                    span: l.span,
                })
                .collect();
            Shape::Fn {
                params,
                ret: ty_name(p, &f.ret),
            }
        }
        ItemRef::Struct(id) => Shape::Struct {
            fields: p.structs[id.index()]
                .fields
                .iter()
                .map(|f| Param {
                    name: f.name.clone(),
                    ty: ty_name(p, &f.ty),
                    span: f.span,
                })
                .collect(),
        },
        ItemRef::Global(_) | ItemRef::Test(_) => return None,
    })
}
