//! Function and block bodies as JavaScript, and with `typed` as TypeScript: the same
//! statements either way, with type annotations only in TypeScript.
//!
//! The meaning is the engines' (`t27-eval` is the reference): every integer operation is
//! checked against its type through the runtime (`t27_runtime.js`), which traps as the engines
//! do, at the same span (`Emitter::at` names it as `file:line:col-line:col`). Aggregates are
//! values: reading a variable for a place that keeps it (a local, a field, an argument, a
//! returned value) copies it, and a `[]u8` view is the array itself, so what is written through
//! it lands in the caller's array.

use super::names::Names;
use super::values::{f64_literal, int_literal};
use std::collections::BTreeMap;
use t27_diag::Span;
use t27_ir::*;

mod expr;
pub(crate) use expr::inlined;

/// Where a trap or an assert is, for the host test runner: the module and span, and for a
/// comparison assert the types of its two sides.
#[derive(Clone, Debug)]
pub struct Site {
    pub module: ModuleId,
    pub span: Span,
    pub sides: Option<(Ty, Ty)>,
}

impl Site {
    /// Records the site of an assert or trap at `at` in `sites`, for both mirrors' hosts.
    /// `assert a == b and c` asserts its operands one by one at the same span: the sides of
    /// the comparison stay recorded when an operand without sides follows it.
    pub(crate) fn record(
        sites: &mut std::collections::BTreeMap<String, Site>,
        at: &str,
        module: ModuleId,
        span: Span,
        sides: Option<(Ty, Ty)>,
    ) {
        let site = sites.entry(at.to_string()).or_insert(Site {
            module,
            span,
            sides: None,
        });
        if sides.is_some() {
            site.sides = sides;
        }
    }
}

pub(crate) struct Emitter<'a> {
    pub p: &'a Program,
    pub typed: bool,
    pub names: &'a Names,
    /// `file:line:col-line:col` of a span in a module's file.
    pub place: &'a dyn Fn(ModuleId, Span) -> String,
    pub sites: BTreeMap<String, Site>,
    /// String literals, hoisted to module constants `$s0`, `$s1`, ...
    pub strings: BTreeMap<Vec<u8>, usize>,
    /// The module of the body being emitted (its spans are in that module's file).
    module: ModuleId,
    locals: Vec<String>,
    /// The types of the locals of the body being emitted, and whether each is a `var`.
    local_types: Vec<(Ty, bool)>,
    /// Per enclosing loop: the label a `continue` breaks to (a loop with a step), if any.
    loops: Vec<Option<String>>,
    labels: usize,
    switches: usize,
    indent: usize,
    pub out: String,
}

const SMALL_BITS: u32 = 32;

fn small(t: IntTy) -> bool {
    t.bits() <= SMALL_BITS
}

fn aggregate(ty: &Ty) -> bool {
    matches!(ty, Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_))
}

impl<'a> Emitter<'a> {
    pub fn new(
        p: &'a Program,
        typed: bool,
        names: &'a Names,
        place: &'a dyn Fn(ModuleId, Span) -> String,
    ) -> Emitter<'a> {
        Emitter {
            p,
            typed,
            names,
            place,
            sites: BTreeMap::new(),
            strings: BTreeMap::new(),
            module: ModuleId(0),
            locals: Vec::new(),
            local_types: Vec::new(),
            loops: Vec::new(),
            labels: 0,
            switches: 0,
            indent: 0,
            out: String::new(),
        }
    }

    // ---- Types (TypeScript only) ------------------------------------------------------------

    /// A type as TypeScript writes it. `readonly`: the form a parameter or a struct field
    /// takes, which accepts the `as const` constants of the mirror.
    pub fn ty(&self, t: &Ty, readonly: bool) -> String {
        match t {
            Ty::Int(i) if small(*i) => "number".into(),
            Ty::Int(_) | Ty::UntypedInt => "$.I64".into(),
            Ty::Bool => "boolean".into(),
            Ty::F64 => "number".into(),
            Ty::Str => "Uint8Array".into(),
            Ty::MutSlice => "number[]".into(),
            Ty::Void => "void".into(),
            Ty::Array(e, _) if readonly => format!("ReadonlyArray<{}>", self.ty(e, true)),
            Ty::Array(e, _) => format!("Array<{}>", self.ty(e, false)),
            Ty::Tuple(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| self.ty(t, readonly)).collect();
                let ro = if readonly { "readonly " } else { "" };
                format!("{ro}[{}]", parts.join(", "))
            }
            Ty::Struct(id) if readonly => self.names.structs[id.index()].clone(),
            Ty::Struct(id) => format!("$.Mut<{}>", self.names.structs[id.index()]),
            Ty::Error => "unknown".into(),
        }
    }

    /// `: T` in TypeScript, nothing in JavaScript.
    fn annot(&self, t: &Ty, readonly: bool) -> String {
        if self.typed {
            format!(": {}", self.ty(t, readonly))
        } else {
            String::new()
        }
    }

    // ---- Places in the spec ---------------------------------------------------------------

    /// The string a trap at `span` names, recorded for the host test runner.
    fn at(&mut self, span: Span) -> String {
        self.site(span, None)
    }

    fn site(&mut self, span: Span, sides: Option<(Ty, Ty)>) -> String {
        let at = (self.place)(self.module, span);
        Site::record(&mut self.sites, &at, self.module, span, sides);
        serde_json::Value::String(at).to_string()
    }

    // ---- Declarations ---------------------------------------------------------------------

    /// A function: exported under its own name when `export`, with a wrapper in front when the
    /// host's arguments need converting or the call counted (`Names::wrapped`).
    pub fn function(&mut self, id: FnId, export: bool) {
        let f = &self.p.functions[id.index()];
        self.module = f.decl.module;
        self.start_body(&f.body);
        let internal = self.names.function(id);
        let leaf = !f.body.block.makes_calls();
        let params: Vec<String> = f
            .params
            .iter()
            .map(|l| {
                let local = &f.body.locals[l.index()];
                format!("{}{}", self.locals[l.index()], self.annot(&local.ty, true))
            })
            .collect();
        let ret = if self.typed {
            format!(": {}", self.ty(&f.ret, false))
        } else {
            String::new()
        };
        let wrapped = self.names.wrapped(id);
        if export {
            super::doc(&mut self.out, &f.decl.doc);
        }
        if export && wrapped {
            // The host's entry: strings as bytes, and the call counted like a spec's.
            let signature = if self.typed {
                self.host_signature(id)
            } else {
                let names: Vec<&str> = f
                    .params
                    .iter()
                    .map(|l| self.locals[l.index()].as_str())
                    .collect();
                format!("{}({})", self.names.exported(id), names.join(", "))
            };
            let mut args: Vec<String> = Vec::new();
            for l in &f.params {
                let name = self.locals[l.index()].clone();
                let local = &f.body.locals[l.index()];
                // The spec's own name of the parameter, and where it is declared.
                let spelled = format!("{:?}", local.name);
                // A checked parameter is a test inline, which V8 compiles to a type check
                // and a compare or two, and the runtime's `$.arg`-family call only when it
                // fails: that call throws the TypeError or RangeError naming the parameter
                // (its name and place are literals, read only there), or returns the value
                // in its canonical form (a 64-bit bigint in range).
                let at = self.at(local.span);
                let arg = match &local.ty {
                    Ty::Str => format!("$.str({name})"),
                    Ty::Int(t) if small(*t) => {
                        let (lo, hi) = bounds(*t);
                        format!(
                            "{} ? {name} : $.arg({name}, {lo}, {hi}, {spelled}, {at})",
                            small_test(*t, &name)
                        )
                    }
                    Ty::Int(t) => {
                        let (lo, hi) = bounds(*t);
                        // A safe integer in range needs no bigint; `+ 0` makes a -0 the 0
                        // that `$.arg64` would return.
                        let sign = if t.signed() {
                            String::new()
                        } else {
                            format!(" && {name} >= 0")
                        };
                        format!(
                            "typeof {name} === \"number\" && Number.isSafeInteger({name}){sign} \
                             ? {name} + 0 : $.arg64({name}, {lo}, {hi}, {spelled}, {at})"
                        )
                    }
                    Ty::Bool => format!(
                        "typeof {name} === \"boolean\" ? {name} : $.flag({name}, {spelled}, {at})"
                    ),
                    Ty::F64 => format!(
                        "typeof {name} === \"number\" ? {name} : $.real({name}, {spelled}, {at})"
                    ),
                    t if contains_str(self.p, t) => format!("$.own({name})"),
                    _ => name,
                };
                args.push(arg);
            }
            if !leaf {
                let at = self.at(f.decl.name_span);
                args.push(format!("$.enter({at})"));
            }
            let call = format!("  return {internal}({});", args.join(", "));
            let call = if call.len() <= 100 {
                call
            } else {
                format!("  return {internal}(\n    {}\n  );", args.join(",\n    "))
            };
            self.out
                .push_str(&format!("export function {signature} {{\n{call}\n}}\n"));
        }
        let mut params = params;
        if !leaf {
            params.push(if self.typed {
                "_enter?: void".into()
            } else {
                "_enter".into()
            });
        }
        let keyword = if export && !wrapped {
            "export function"
        } else {
            "function"
        };
        self.out.push_str(&format!(
            "{keyword} {internal}({}){ret} {{\n",
            params.join(", ")
        ));
        self.indent = 1;
        if leaf {
            self.block_stmts(&f.body.block);
        } else {
            self.line("try {");
            self.indent += 1;
            self.block_stmts(&f.body.block);
            self.indent -= 1;
            self.line("} finally {");
            self.line("  $.leave();");
            self.line("}");
        }
        self.indent = 0;
        self.out.push_str("}\n");
    }

    /// How a host calls a public function, in TypeScript: `name(a: number, s: $.Bytes): number`.
    pub fn host_signature(&self, id: FnId) -> String {
        let f = &self.p.functions[id.index()];
        let names = self.names.locals(&f.body);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|l| {
                let ty = &f.body.locals[l.index()].ty;
                let ty = match ty {
                    Ty::Str => "$.Bytes".to_string(),
                    t if contains_str(self.p, t) => format!("$.Host<{}>", self.ty(t, true)),
                    t => self.ty(t, true),
                };
                format!("{}: {ty}", names[l.index()])
            })
            .collect();
        format!(
            "{}({}): {}",
            self.names.exported(id),
            params.join(", "),
            self.ty(&f.ret, false)
        )
    }

    /// A test or invariant block as the body of an arrow function.
    pub fn block_body(&mut self, module: ModuleId, body: &Body) {
        self.module = module;
        self.start_body(body);
        self.indent = 2;
        self.block_stmts(&body.block);
        self.indent = 0;
    }

    // ---- Statements -------------------------------------------------------------------------

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn block_stmts(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn nested(&mut self, open: &str, b: &Block) {
        self.line(open);
        self.indent += 1;
        self.block_stmts(b);
        self.indent -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { local, init } => {
                let l = &self.locals_ty(*local);
                let value = match init.kind {
                    ExprKind::Undefined => self.undefined(&l.0),
                    _ => self.expr(init),
                };
                let keyword = if l.1 { "let" } else { "const" };
                let text = format!(
                    "{keyword} {}{} = {value};",
                    self.locals[local.index()],
                    self.annot(&l.0, false)
                );
                self.line(&text);
            }
            StmtKind::LetTuple { locals, init } => {
                let names: Vec<String> = locals
                    .iter()
                    .map(|l| self.locals[l.index()].clone())
                    .collect();
                let value = self.expr(init);
                let annot = self.annot(&init.ty, false);
                let mutable = locals.iter().any(|l| self.locals_ty(*l).1);
                let keyword = if mutable { "let" } else { "const" };
                self.line(&format!(
                    "{keyword} [{}]{annot} = {value};",
                    names.join(", ")
                ));
            }
            StmtKind::Assign { place, op, value } => self.assign(place, *op, value),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.raw(cond);
                self.nested(&format!("if ({}) {{", bare(&c)), then);
                if !otherwise.stmts.is_empty() {
                    self.nested("} else {", otherwise);
                }
                self.line("}");
            }
            StmtKind::While { cond, body, step } => {
                let label = (!step.stmts.is_empty()).then(|| {
                    self.labels += 1;
                    format!("$body{}", self.labels)
                });
                self.line("while (true) {");
                self.indent += 1;
                self.line("$.tick();");
                let c = self.raw(cond);
                self.line(&format!("if (!{}) break;", parenthesised(&c)));
                self.loops.push(label.clone());
                match &label {
                    Some(l) => {
                        self.nested(&format!("{l}: {{"), body);
                        self.line("}");
                    }
                    None => self.block_stmts(body),
                }
                self.loops.pop();
                self.block_stmts(step);
                self.indent -= 1;
                self.line("}");
            }
            StmtKind::Break => self.line("break;"),
            StmtKind::Continue => match self.loops.last().cloned().flatten() {
                Some(label) => self.line(&format!("break {label};")),
                None => self.line("continue;"),
            },
            StmtKind::Return(None) => self.line("return;"),
            StmtKind::Return(Some(e)) => {
                let v = self.expr(e);
                self.line(&format!("return {v};"));
            }
            StmtKind::Assert { cond, .. } => self.assert(cond, s.span),
            StmtKind::Expr(e) => {
                let v = self.raw(e);
                self.line(&format!("{v};"));
            }
            StmtKind::Block(b) => {
                self.nested("{", b);
                self.line("}");
            }
            // Coverage probes count on the engines only.
            StmtKind::Count(_) => {}
        }
    }

    fn start_body(&mut self, body: &Body) {
        self.locals = self.names.locals(body);
        self.local_types = body
            .locals
            .iter()
            .map(|l| (l.ty.clone(), l.mutable))
            .collect();
    }

    /// The type of a local of the body being emitted, and whether it is a `var`.
    fn locals_ty(&self, id: LocalId) -> (Ty, bool) {
        self.local_types
            .get(id.index())
            .cloned()
            .unwrap_or((Ty::Error, false))
    }

    /// `assert a and b` is `assert a; assert b;`, so that a report shows the comparison that
    /// failed, with both its sides, as the engines do.
    fn assert(&mut self, cond: &Expr, span: Span) {
        if let ExprKind::Binary(BinOp::And, l, r) = &cond.kind {
            self.assert(l, span);
            self.assert(r, span);
            return;
        }
        if let ExprKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
        {
            let at = self.site(span, Some((l.ty.clone(), r.ty.clone())));
            let (a, b) = (self.raw(l), self.raw(r));
            let test = self.compare(*op, &l.ty, "$l", "$r");
            let (tl, tr) = (self.annot(&l.ty, true), self.annot(&r.ty, true));
            self.line("{");
            self.line(&format!("  const $l{tl} = {a}, $r{tr} = {b};"));
            self.line(&format!(
                "  if (!({test})) throw new $.T27Fail({at}, $l, $r);"
            ));
            self.line("}");
            return;
        }
        let at = self.site(span, None);
        let c = self.raw(cond);
        self.line(&format!(
            "if (!{}) throw new $.T27Fail({at});",
            parenthesised(&c)
        ));
    }

    fn assign(&mut self, place: &Expr, op: Option<BinOp>, value: &Expr) {
        let Some(op) = op else {
            // The place's indexes are evaluated (and checked) before the value, as in JS.
            let target = self.place(place);
            let v = self.expr(value);
            self.line(&format!("{target} = {v};"));
            return;
        };
        // `place op= value` in Zig's order: the indexes, the place's current value, then the
        // value. A value that calls may change the place (its change is then overwritten, as
        // in Zig), so the place is read into `$o` first; one that calls nothing cannot.
        self.line("{");
        self.indent += 1;
        let mut temps = 0;
        let target = self.place_with_temps(place, &mut temps);
        let old = if value.makes_calls() {
            self.line(&format!("const $o = {target};"));
            "$o".to_string()
        } else {
            target.clone()
        };
        let v = self.expr(value);
        self.line(&format!("const $v = {v};"));
        let result = self.arith(op, &place.ty, &old, "$v", place.span);
        self.line(&format!("{target} = {result};"));
        self.indent -= 1;
        self.line("}");
    }

    /// A place to store into: a variable, or an element or field of one.
    fn place(&mut self, place: &Expr) -> String {
        match &place.kind {
            ExprKind::Field(base, i) => {
                let b = self.place(base);
                format!("{b}{}", self.field(&base.ty, *i))
            }
            ExprKind::Index(base, index) => {
                let b = self.place(base);
                let i = self.index_of(base, &b, index);
                format!("{b}[{i}]")
            }
            _ => self.raw(place),
        }
    }

    /// A place whose indexes are computed into constants first, so that it can be read and
    /// written without computing them twice.
    fn place_with_temps(&mut self, place: &Expr, temps: &mut usize) -> String {
        match &place.kind {
            ExprKind::Field(base, i) => {
                let b = self.place_with_temps(base, temps);
                format!("{b}{}", self.field(&base.ty, *i))
            }
            ExprKind::Index(base, index) => {
                let b = self.place_with_temps(base, temps);
                let i = self.index_of(base, &b, index);
                let name = format!("$i{temps}");
                *temps += 1;
                self.line(&format!("const {name} = {i};"));
                format!("{b}[{name}]")
            }
            _ => self.raw(place),
        }
    }
}

/// Whether TypeScript may give an expression a literal type: a literal, a constant (the
/// mirror exports them with their values' types), a choice of such, or a widening of one.
fn literal_typed(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(_) | ExprKind::Const(_) | ExprKind::If(..) | ExprKind::Switch(..) => true,
        // A widening is written as its operand.
        ExprKind::Cast(x) => literal_typed(x),
        _ => false,
    }
}

/// `(x)` without the parentheses that wrap all of it, for a place that has its own.
fn bare(s: &str) -> &str {
    if s.starts_with('(') && s.ends_with(')') && wraps_all(s) {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

/// `x` in parentheses unless a pair already wraps all of it.
fn parenthesised(s: &str) -> String {
    if s.starts_with('(') && s.ends_with(')') && wraps_all(s) {
        s.to_string()
    } else {
        format!("({s})")
    }
}

/// Whether the `(` that starts `s` closes at its end (strings in generated code are JSON
/// literals, whose brackets are skipped).
fn wraps_all(s: &str) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in s.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == s.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// The inline test that a host's value is a whole number of the 32-bit-or-narrower type `t`:
/// a number that the operator which wraps to `t`'s range leaves as it is (so a fraction, NaN,
/// an infinity or a number out of range is refused; a -0 passes, as it does `$.arg`).
fn small_test(t: IntTy, v: &str) -> String {
    let wrapped = match t {
        IntTy::U8 => format!("({v} & 255)"),
        IntTy::U16 => format!("({v} & 65535)"),
        IntTy::U32 => format!("({v} >>> 0)"),
        IntTy::I8 => format!("(({v} << 24) >> 24)"),
        IntTy::I16 => format!("(({v} << 16) >> 16)"),
        IntTy::I32 => format!("({v} | 0)"),
        // Not small (their parameters take the 64-bit test): the plain form, all the same.
        IntTy::U64 | IntTy::Usize | IntTy::I64 => {
            let (lo, hi) = bounds(t);
            return format!("Number.isInteger({v}) && {v} >= {lo} && {v} <= {hi}");
        }
    };
    format!("typeof {v} === \"number\" && {wrapped} === {v}")
}

/// The range of an integer type as the runtime's arguments.
fn bounds(t: IntTy) -> (String, String) {
    (int_literal(&t.min()), int_literal(&t.max()))
}

/// Whether a value of type `t` holds a string anywhere (a host may pass it as text).
pub(crate) fn contains_str(p: &Program, t: &Ty) -> bool {
    match t {
        Ty::Str => true,
        Ty::Array(e, _) => contains_str(p, e),
        Ty::Tuple(ts) => ts.iter().any(|t| contains_str(p, t)),
        Ty::Struct(id) => p.structs[id.index()]
            .fields
            .iter()
            .any(|f| contains_str(p, &f.ty)),
        _ => false,
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A struct field's name as an object key.
pub(crate) fn js_key(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        serde_json::Value::String(name.to_string()).to_string()
    }
}
