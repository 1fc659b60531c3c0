//! Writable byte slices: `&buf` passed as a `[]u8` is a view of the caller's `var` array, and
//! what the callee writes through it lands there. A view is taken only of a writable place;
//! a `[]u8` converts to `[]const u8` (the bytes it holds then), never back.

use crate::body::BodyCtx;
use crate::checker::Checker;
use t27_diag::{Code, Diagnostic, FileId, Span};
use t27_ir::*;
use t27_syntax::ast;

impl Checker {
    /// `&x` where a `[]u8` is expected.
    pub(crate) fn lower_view(&mut self, cx: &mut BodyCtx, x: &ast::Expr, span: Span) -> Expr {
        let file = self.file_of(cx.module);
        let inner = self.lower_expr(cx, x, None);
        match &inner.ty {
            Ty::Array(elem, _) if **elem == Ty::Int(IntTy::U8) => {
                if let Some((why, decl)) = self.immutable_root(cx, &inner) {
                    let help = match &inner.kind {
                        ExprKind::Const(_) => {
                            "copy it into a `var` array of the block and pass `&` of that"
                        }
                        ExprKind::Local(_) => "declare it with `var` to write to it",
                        _ => "pass `&buf` of a `var buf : [N]u8`",
                    };
                    let mut d = Diagnostic::new(
                        Code("E2025"),
                        file,
                        span,
                        format!("cannot take a writable view of {why}"),
                    )
                    .with_label("read-only")
                    .with_help(help);
                    if let Some((decl_file, at)) = decl {
                        d = d.with_secondary(decl_file, at, "declared here");
                    }
                    self.report(d);
                    return Expr::error(span);
                }
                Expr {
                    kind: ExprKind::View(Box::new(inner)),
                    ty: Ty::MutSlice,
                    span,
                }
            }
            Ty::Str => {
                self.read_only_bytes(file, &inner, span);
                Expr::error(span)
            }
            t if t.has_error() => Expr::error(span),
            t => {
                let t = t.clone();
                self.not_a_byte_array(file, &t, span, "pass `&buf` of a `var buf : [N]u8`")
            }
        }
    }

    /// `&x` of something other than a `[N]u8` array (E2022).
    pub(crate) fn not_a_byte_array(
        &mut self,
        file: FileId,
        t: &Ty,
        span: Span,
        help: &str,
    ) -> Expr {
        let shown = self.ty_name(t);
        self.report(
            Diagnostic::new(
                Code("E2022"),
                file,
                span,
                format!("`&` cannot take a slice of a `{shown}`"),
            )
            .with_label("only a `[N]u8` array becomes a byte slice")
            .with_help(help),
        );
        Expr::error(span)
    }

    /// A `[]const u8` (a `str`) where a `[]u8` is expected: it cannot be written through.
    pub(crate) fn read_only_bytes(&mut self, file: FileId, e: &Expr, span: Span) {
        let (message, help) = match &e.kind {
            ExprKind::Lit(Value::Str(bytes)) => (
                "a string literal cannot be written through a `[]u8`".to_string(),
                format!(
                    "copy it into an array first: `var buf : [{}]u8 = ...;`, then pass `&buf`",
                    bytes.len()
                ),
            ),
            _ => (
                "a `[]const u8` cannot become a `[]u8`".to_string(),
                "pass `&buf` of a `var buf : [N]u8`; read-only bytes stay read-only".to_string(),
            ),
        };
        self.report(
            Diagnostic::new(Code("E2025"), file, span, message)
                .with_label("read-only bytes")
                .with_help(help),
        );
    }
}
