//! Calls: of functions, with arity and argument types checked, and of the built-in methods
//! `.len()` and `.contains()`.

use crate::body::BodyCtx;
use crate::checker::{Checker, Def};
use crate::collect::path_text;
use crate::ops::plural;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;
use t27_syntax::ast::{self, ExprKind as A};

impl Checker {
    pub(crate) fn lower_call(
        &mut self,
        cx: &mut BodyCtx,
        callee: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        if let A::Field(recv, method) = &callee.kind {
            return self.lower_method(cx, recv, method, args, span);
        }
        let A::Path(path) = &callee.kind else {
            self.report(
                Diagnostic::new(
                    Code("E2017"),
                    file,
                    callee.span,
                    "only functions can be called",
                )
                .with_label("not a function name")
                .with_help("call a function by its name: `name(arguments)`"),
            );
            return Expr::error(span);
        };
        if path.len() == 1 && cx.lookup(&path[0].name).is_some() {
            self.report(
                Diagnostic::new(
                    Code("E2017"),
                    file,
                    callee.span,
                    format!("`{}` is a local variable, not a function", path[0].name),
                )
                .with_label("not a function")
                .with_help("call a function by its name"),
            );
            return Expr::error(span);
        }
        let Some(def) = self.resolve_callee(cx, path) else {
            for a in args {
                self.lower_expr(cx, a, None);
            }
            return Expr::error(span);
        };
        let Def::Fn(id) = def else {
            let what = match def {
                Def::Const(_) => "a constant",
                Def::Global(_) => "a module `var`",
                Def::Struct(_) => "a struct type",
                Def::Test(_) => "a test",
                _ => "a module",
            };
            self.report(
                Diagnostic::new(
                    Code("E2017"),
                    file,
                    callee.span,
                    format!("`{}` is {what}, not a function", path_text(path)),
                )
                .with_label("cannot be called")
                .with_help("remove the parentheses to use its value"),
            );
            return Expr::error(span);
        };
        let params: Vec<Ty> = {
            let f = &self.program.functions[id.index()];
            f.params
                .iter()
                .map(|p| {
                    f.body
                        .locals
                        .get(p.index())
                        .map_or(Ty::Error, |l| l.ty.clone())
                })
                .collect()
        };
        let ret = self.program.functions[id.index()].ret.clone();
        if params.len() != args.len() {
            let f = &self.program.functions[id.index()];
            let signature = self.program.signature(id);
            let def_file = self.file_of(f.decl.module);
            let name_span = f.decl.name_span;
            let mut d = Diagnostic::new(
                Code("E2007"),
                file,
                span,
                format!(
                    "`{}` takes {} argument{}, but {} {} given",
                    f.decl.name,
                    params.len(),
                    plural(params.len()),
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            )
            .with_label(format!("{} argument{}", args.len(), plural(args.len())))
            .with_note(format!("the signature is `{signature}`"));
            if def_file == file {
                d = d.with_secondary(def_file, name_span, "declared here");
            }
            self.report(d);
            for a in args {
                self.lower_expr(cx, a, None);
            }
            return Expr::error(span);
        }
        let lowered = args
            .iter()
            .zip(&params)
            .map(|(a, t)| {
                let x = self.lower_expr(cx, a, Some(t));
                self.coerce(file, x, t)
            })
            .collect();
        Expr {
            kind: ExprKind::Call(id, lowered),
            ty: ret,
            span,
        }
    }

    /// Resolves a called name, suggesting the nearest function for a typo (`str_eq`).
    fn resolve_callee(&mut self, cx: &BodyCtx, path: &[ast::Ident]) -> Option<Def> {
        if path.len() == 1 && self.scopes[cx.module.index()].get(&path[0].name).is_none() {
            let file = self.file_of(cx.module);
            let name = &path[0];
            let scope = &self.scopes[cx.module.index()];
            let functions: Vec<&str> = scope
                .items
                .iter()
                .chain(scope.imports.iter())
                .filter(|(_, (d, _))| matches!(d, Def::Fn(_)))
                .map(|(k, _)| k.as_str())
                .collect();
            let suggestion = crate::suggest::nearest(&name.name, functions).map(str::to_string);
            let mut d = Diagnostic::new(
                Code("E1001"),
                file,
                name.span,
                format!("no function named `{}` in this scope", name.name),
            )
            .with_label("not found");
            d = match suggestion {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None if name.name == "str_eq" => d.with_help("compare strings with `==`: `a == b`"),
                None => d.with_help("declare the function, or import it with `use`"),
            };
            self.report(d);
            return None;
        }
        self.resolve_path(cx.module, path, "function")
    }

    fn lower_method(
        &mut self,
        cx: &mut BodyCtx,
        recv: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let recv = self.lower_expr(cx, recv, None);
        if recv.ty.has_error() {
            return Expr::error(span);
        }
        match (method.name.as_str(), &recv.ty, args.len()) {
            ("len", Ty::Str | Ty::MutSlice | Ty::Array(..), 0) => Expr {
                kind: ExprKind::Len(Box::new(recv)),
                ty: Ty::Int(IntTy::Usize),
                span,
            },
            ("contains", Ty::Str | Ty::MutSlice, 1) => {
                // A `[]u8` is searched as the `[]const u8` it converts to.
                let recv = self.coerce(file, recv, &Ty::Str);
                let needle = self.lower_expr(cx, &args[0], Some(&Ty::Str));
                let needle = self.coerce(file, needle, &Ty::Str);
                Expr {
                    kind: ExprKind::Contains(Box::new(recv), Box::new(needle)),
                    ty: Ty::Bool,
                    span,
                }
            }
            ("len", Ty::Str | Ty::MutSlice | Ty::Array(..), n)
            | ("contains", Ty::Str | Ty::MutSlice, n) => {
                let want = if method.name == "len" { 0 } else { 1 };
                self.report(
                    Diagnostic::new(
                        Code("E2007"),
                        file,
                        span,
                        format!(
                            "`.{}()` takes {want} argument{}, but {n} {} given",
                            method.name,
                            plural(want),
                            if n == 1 { "was" } else { "were" }
                        ),
                    )
                    .with_label(format!("{n} argument{}", plural(n))),
                );
                Expr::error(span)
            }
            _ => {
                self.no_field(file, &recv.ty, method, true);
                Expr::error(span)
            }
        }
    }
}
