//! Type expressions to types.

use crate::checker::{Checker, Def};
use crate::collect::path_text;
use t27_diag::{Code, Diagnostic};
use t27_ir::*;
use t27_syntax::ast::{ExprKind as AstExpr, TypeExpr, TypeKind};

/// The most values an array (with its nested arrays) may hold.
pub(crate) const MAX_ARRAY_ELEMENTS: u64 = 1 << 20;

/// How many values an array type holds in all, counting nested arrays.
fn elements(t: &Ty) -> u64 {
    match t {
        Ty::Array(e, n) => n.saturating_mul(elements(e)),
        _ => 1,
    }
}

const BUILTIN_TYPES: [&str; 13] = [
    "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "bool", "str", "f64", "string",
];

impl Checker {
    /// A type where a value is held: `[]u8`, a writable view of the caller's array, is only
    /// a parameter's type (E2024 anywhere else).
    pub(crate) fn resolve_type(&mut self, m: ModuleId, t: &TypeExpr) -> Ty {
        let ty = self.resolve_param_type(m, t);
        if ty != Ty::MutSlice {
            return ty;
        }
        let file = self.file_of(m);
        self.report(
            Diagnostic::new(
                Code("E2024"),
                file,
                t.span,
                "`[]u8` is only the type of a parameter",
            )
            .with_label("a writable view of an array the caller holds")
            .with_help("hold bytes in an array `[N]u8`, or read them as `[]const u8`"),
        );
        Ty::Error
    }

    /// A parameter's type: any type, `[]u8` included.
    pub(crate) fn resolve_param_type(&mut self, m: ModuleId, t: &TypeExpr) -> Ty {
        let file = self.file_of(m);
        match &t.kind {
            TypeKind::Error => Ty::Error,
            // `[1][1]...u32`: brackets that close at once are not nesting to the parser's
            // limit, so the parser cut the type short (`TypeExpr::new`).
            TypeKind::TooDeep => {
                self.report(
                    Diagnostic::new(
                        Code("E0109"),
                        file,
                        t.span,
                        "this type is nested too deeply",
                    )
                    .with_label(format!("more than {} levels", t27_syntax::MAX_NESTING))
                    .with_help("name a struct for the inner part, or flatten the arrays"),
                );
                Ty::Error
            }
            TypeKind::Named(path) => {
                if path.len() == 1 {
                    let name = path[0].name.as_str();
                    if let Some(i) = IntTy::from_name(name) {
                        return Ty::Int(i);
                    }
                    match name {
                        "bool" => return Ty::Bool,
                        "str" => return Ty::Str,
                        "f64" => return Ty::F64,
                        "string" => {
                            self.report(
                                Diagnostic::new(
                                    Code("W0002"),
                                    file,
                                    t.span,
                                    "`string` is an alias; the type is written `str`",
                                )
                                .with_label("read as `str`")
                                .with_help("write `str`")
                                .with_fix(t.span, "str"),
                            );
                            return Ty::Str;
                        }
                        _ => {}
                    }
                    if self.scopes[m.index()].get(name).is_none() {
                        let mut candidates: Vec<&str> = BUILTIN_TYPES.to_vec();
                        let structs: Vec<String> = self.scopes[m.index()]
                            .items
                            .iter()
                            .chain(self.scopes[m.index()].imports.iter())
                            .filter(|(_, (d, _))| matches!(d, Def::Struct(_)))
                            .map(|(k, _)| k.clone())
                            .collect();
                        candidates.extend(structs.iter().map(String::as_str));
                        let mut d = Diagnostic::new(
                            Code("E1007"),
                            file,
                            t.span,
                            format!("unknown type `{name}`"),
                        )
                        .with_label("not a type");
                        d = match crate::suggest::nearest(name, candidates) {
                            Some(s) => d.with_help(format!("did you mean `{s}`?")),
                            None => d.with_note("types are u8 u16 u32 u64 usize i8 i16 i32 i64 bool str f64, arrays, tuples and declared structs"),
                        };
                        self.report(d);
                        return Ty::Error;
                    }
                }
                match self.resolve_path(m, path, "type") {
                    Some(Def::Struct(id)) => Ty::Struct(id),
                    Some(_) => {
                        self.report(
                            Diagnostic::new(
                                Code("E1007"),
                                file,
                                t.span,
                                format!("`{}` is not a type", path_text(path)),
                            )
                            .with_label("a value, not a type")
                            .with_help(
                                "use a built-in type or a struct declared with `pub struct`",
                            ),
                        );
                        Ty::Error
                    }
                    None => Ty::Error,
                }
            }
            TypeKind::Array(len, elem) => {
                let elem = self.resolve_type(m, elem);
                let n = match &len.kind {
                    AstExpr::Int(v) => v.to_u64(),
                    AstExpr::Path(path) => match self.resolve_path(m, path, "constant") {
                        Some(Def::Const(id)) => {
                            self.ensure_const(id);
                            let site = path[path.len() - 1].span;
                            self.note_use(file, site, Def::Const(id));
                            match &self.program.consts[id.index()].value {
                                Some(Value::Int(v)) => u64::try_from(v).ok(),
                                None => return Ty::Error,
                                Some(_) => None,
                            }
                        }
                        None => return Ty::Error,
                        Some(_) => None,
                    },
                    _ => None,
                };
                match n {
                    Some(n) if n.saturating_mul(elements(&elem)) > MAX_ARRAY_ELEMENTS => {
                        self.report(
                            Diagnostic::new(Code("E2023"), file, t.span, format!("an array of {n} elements is too large"))
                                .with_label(format!("more than {MAX_ARRAY_ELEMENTS} values in all"))
                                .with_note("every array is a value: the engines hold it whole, on the stack or in memory")
                                .with_help("use a smaller array"),
                        );
                        Ty::Error
                    }
                    Some(n) => Ty::Array(Box::new(elem), n),
                    None => {
                        self.report(
                            Diagnostic::new(Code("E2001"), file, len.span, "an array length must be a non-negative integer constant")
                                .with_label("not a length")
                                .with_help("write a literal such as `[5]str`, or the name of an integer constant"),
                        );
                        Ty::Error
                    }
                }
            }
            TypeKind::Slice { elem, is_const } => match self.resolve_type(m, elem) {
                Ty::Int(IntTy::U8) if *is_const => Ty::Str,
                Ty::Int(IntTy::U8) => Ty::MutSlice,
                Ty::Error => Ty::Error,
                other => {
                    let shown = self.ty_name(&other);
                    self.report(
                        Diagnostic::new(
                            Code("E1007"),
                            file,
                            t.span,
                            format!("`[]{shown}` is not a type t27 has"),
                        )
                        .with_label("only byte slices exist")
                        .with_help("use `[]const u8` for bytes, or an array `[N]T`"),
                    );
                    Ty::Error
                }
            },
            TypeKind::Tuple(items) => {
                Ty::Tuple(items.iter().map(|i| self.resolve_type(m, i)).collect())
            }
        }
    }
}
