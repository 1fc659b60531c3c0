//! Function and block bodies as Rust, with the engines' meaning (`t27-eval` is the
//! reference): every integer operation checked through the embedded runtime (`t27_rt`), which
//! panics as the engines trap, naming the same span. Values are Rust values (arrays, tuples
//! and structs copy or clone); a `[]u8` view is a `&mut [u8]` of the caller's array; module
//! `var`s are thread-locals. Rust evaluates an assignment's value before its place, so the
//! indexes of a place are computed into temporaries first, as the spec orders them.

use crate::js::Site;
use crate::names;
use std::collections::BTreeMap;
use t27_diag::Span;
use t27_ir::*;

mod expr;

pub(crate) struct Emitter<'a> {
    pub p: &'a Program,
    /// The module whose file this is: its functions keep their names.
    pub home: ModuleId,
    /// In a mirror: the home module's public constants are read by their names (the mirror
    /// declares them above the functions).
    pub named_consts: bool,
    pub place: &'a dyn Fn(ModuleId, Span) -> String,
    pub sites: BTreeMap<String, Site>,
    module: ModuleId,
    locals: Vec<String>,
    local_types: Vec<(Ty, bool)>,
    temps: usize,
    /// The number of each enclosing loop: `'loopN` breaks it, `'bodyN` continues it.
    loops: Vec<usize>,
    /// The module `var`s the views among a call's arguments show.
    view_globals: Vec<u32>,
    indent: usize,
    pub out: String,
    /// Each module's name as the start of an identifier (`fn_name`).
    pub prefixes: Vec<String>,
}

fn aggregate_or_str(ty: &Ty) -> bool {
    matches!(ty, Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_) | Ty::Str)
}

impl<'a> Emitter<'a> {
    pub fn new(
        p: &'a Program,
        home: ModuleId,
        place: &'a dyn Fn(ModuleId, Span) -> String,
    ) -> Emitter<'a> {
        Emitter {
            p,
            home,
            named_consts: false,
            place,
            sites: BTreeMap::new(),
            module: ModuleId(0),
            locals: Vec::new(),
            local_types: Vec::new(),
            temps: 0,
            loops: Vec::new(),
            view_globals: Vec::new(),
            indent: 0,
            out: String::new(),
            prefixes: names::module_prefixes(p),
        }
    }

    pub fn ty(&self, t: &Ty) -> String {
        match t {
            Ty::Int(i) => i.name().into(),
            Ty::UntypedInt => "i128".into(),
            Ty::Bool => "bool".into(),
            Ty::F64 => "f64".into(),
            Ty::Str => "t27_rt::Str".into(),
            // A view: cells, so that two views of one array may be passed together.
            Ty::MutSlice => "&[std::cell::Cell<u8>]".into(),
            Ty::Void => "()".into(),
            Ty::Array(e, n) => format!("[{}; {n}]", self.ty(e)),
            Ty::Tuple(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| self.ty(t)).collect();
                format!("({},)", parts.join(", "))
            }
            Ty::Struct(id) => names::rust(&self.p.structs[id.index()].decl.name),
            Ty::Error => "()".into(),
        }
    }

    fn at(&mut self, span: Span) -> String {
        self.site(span, None)
    }

    fn site(&mut self, span: Span, sides: Option<(Ty, Ty)>) -> String {
        let at = (self.place)(self.module, span);
        Site::record(&mut self.sites, &at, self.module, span, sides);
        format!("{at:?}")
    }

    /// A name for a temporary that no local of the spec has (theirs never start with `__`).
    fn temp(&mut self, base: &str) -> String {
        self.temps += 1;
        format!("__{base}{}", self.temps)
    }

    fn start_body(&mut self, body: &Body) {
        let mut seen = std::collections::HashSet::new();
        self.locals = body
            .locals
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let name = names::rust(&l.name);
                let name =
                    if seen.contains(&name) || name.starts_with("r#") || name.starts_with("__") {
                        format!("{}_{i}", l.name)
                    } else {
                        name
                    };
                seen.insert(name.clone());
                name
            })
            .collect();
        self.local_types = body
            .locals
            .iter()
            .map(|l| (l.ty.clone(), l.mutable))
            .collect();
    }

    // ---- Declarations -----------------------------------------------------------------------

    /// A function of the mirror: `pub` when the spec's is.
    pub fn function(&mut self, id: FnId, name: &str) {
        let f = &self.p.functions[id.index()];
        self.module = f.decl.module;
        self.start_body(&f.body);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|l| {
                // A string argument may be any bytes: a mirrored `&str` constant, a `String`,
                // a `t27_rt::Str`.
                let ty = match &f.body.locals[l.index()].ty {
                    Ty::Str => "impl AsRef<[u8]>".to_string(),
                    ty => self.ty(ty),
                };
                format!("{}: {ty}", self.locals[l.index()])
            })
            .collect();
        let ret = match f.ret {
            Ty::Void => String::new(),
            ref t => format!(" -> {}", self.ty(t)),
        };
        let vis = if f.decl.is_pub && f.decl.module == self.home && !super::takes_views(f) {
            "pub "
        } else {
            ""
        };
        self.out.push_str(ALLOW);
        self.out
            .push_str(&format!("{vis}fn {name}({}){ret} {{\n", params.join(", ")));
        self.indent = 1;
        for l in &f.params {
            if f.body.locals[l.index()].ty == Ty::Str {
                let name = self.locals[l.index()].clone();
                self.line(&format!(
                    "let {name}: t27_rt::Str = t27_rt::owned({name}.as_ref());"
                ));
            }
        }
        self.block_stmts(&f.body.block);
        let returns = matches!(
            f.body.block.stmts.last().map(|s| &s.kind),
            Some(StmtKind::Return(_))
        );
        if f.ret != Ty::Void && !returns {
            // Every path returns (the checker proved it); Rust wants the end unreachable.
            self.line("#[allow(unreachable_code)]");
            self.line("{ unreachable!() }");
        }
        self.indent = 0;
        self.out.push_str("}\n");
    }

    /// The host's entry to a public function that takes views: `&mut [u8]` for each, as cells.
    pub fn view_wrapper(&mut self, id: FnId) {
        let f = &self.p.functions[id.index()];
        let mut params = Vec::new();
        let mut args = Vec::new();
        for l in &f.params {
            let name = &self.locals[l.index()];
            match &f.body.locals[l.index()].ty {
                Ty::MutSlice => {
                    params.push(format!("{name}: &mut [u8]"));
                    args.push(format!(
                        "std::cell::Cell::from_mut({name}).as_slice_of_cells()"
                    ));
                }
                Ty::Str => {
                    params.push(format!("{name}: impl AsRef<[u8]>"));
                    args.push(name.clone());
                }
                ty => {
                    params.push(format!("{name}: {}", self.ty(ty)));
                    args.push(name.clone());
                }
            }
        }
        let ret = match f.ret {
            Ty::Void => String::new(),
            ref t => format!(" -> {}", self.ty(t)),
        };
        self.out.push_str(&format!(
            "\n/// `{}` for a host: each view is the host's own `&mut [u8]`.\n{ALLOW}pub fn {}({}){ret} {{\n    {}({})\n}}\n",
            f.decl.name,
            names::rust(&f.decl.name),
            params.join(", "),
            fn_name(self.p, &self.prefixes, self.home, id),
            args.join(", ")
        ));
    }

    /// A test or invariant block as a function `name`.
    pub fn block(&mut self, module: ModuleId, body: &Body, name: &str) {
        self.module = module;
        self.start_body(body);
        self.out.push_str(ALLOW);
        self.out.push_str(&format!("pub fn {name}() {{\n"));
        self.indent = 1;
        self.block_stmts(&body.block);
        self.indent = 0;
        self.out.push_str("}\n");
    }

    // ---- Statements -------------------------------------------------------------------------

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
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
                let (ty, mutable) = self.local_types[local.index()].clone();
                let value = match init.kind {
                    ExprKind::Undefined => self.undefined(&ty),
                    _ => self.expr(init),
                };
                let m = if mutable { "mut " } else { "" };
                let text = format!(
                    "let {m}{}: {} = {value};",
                    self.locals[local.index()],
                    self.ty(&ty)
                );
                self.line(&text);
            }
            StmtKind::LetTuple { locals, init } => {
                let names: Vec<String> = locals
                    .iter()
                    .map(|l| {
                        let m = if self.local_types[l.index()].1 {
                            "mut "
                        } else {
                            ""
                        };
                        format!("{m}{}", self.locals[l.index()])
                    })
                    .collect();
                let value = self.expr(init);
                self.line(&format!("let ({},) = {value};", names.join(", ")));
            }
            StmtKind::Assign { place, op, value } => self.assign(place, *op, value),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.expr(cond);
                self.nested(&format!("if {c} {{"), then);
                if !otherwise.stmts.is_empty() {
                    self.nested("} else {", otherwise);
                }
                self.line("}");
            }
            StmtKind::While { cond, body, step } => {
                // `continue` runs the step: the body is a labelled block it breaks out of.
                self.temps += 1;
                let n = self.temps;
                self.line(&format!("'loop{n}: loop {{"));
                self.indent += 1;
                self.line("t27_rt::tick();");
                let c = self.expr(cond);
                self.line(&format!("if !({c}) {{ break; }}"));
                self.loops.push(n);
                self.nested(&format!("'body{n}: {{"), body);
                self.line("}");
                self.loops.pop();
                self.block_stmts(step);
                self.indent -= 1;
                self.line("}");
            }
            StmtKind::Break => {
                let n = self.loops.last().copied().unwrap_or_default();
                self.line(&format!("break 'loop{n};"));
            }
            StmtKind::Continue => {
                let n = self.loops.last().copied().unwrap_or_default();
                self.line(&format!("break 'body{n};"));
            }
            StmtKind::Return(None) => self.line("return;"),
            StmtKind::Return(Some(e)) => {
                let v = self.expr(e);
                self.line(&format!("return {v};"));
            }
            StmtKind::Assert { cond, .. } => self.assert(cond, s.span),
            StmtKind::Expr(e) => {
                let v = self.expr(e);
                self.line(&format!("let _ = {v};"));
            }
            StmtKind::Block(b) => {
                self.nested("{", b);
                self.line("}");
            }
            // Coverage probes count on the engines only.
            StmtKind::Count(_) => {}
        }
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
            let (a, b) = (self.expr(l), self.expr(r));
            let (tl, tr) = (self.ty(&l.ty), self.ty(&r.ty));
            let (x, y) = (self.temp("l"), self.temp("r"));
            let test = compare(*op, &l.ty, &x, &y);
            self.line("{");
            self.line(&format!("    let {x}: {tl} = {a};"));
            self.line(&format!("    let {y}: {tr} = {b};"));
            self.line(&format!(
                "    if !({test}) {{ t27_rt::fail({at}, Some((t27_rt::Show::show(&{x}), t27_rt::Show::show(&{y})))); }}"
            ));
            self.line("}");
            return;
        }
        let at = self.site(span, None);
        let c = self.expr(cond);
        self.line(&format!("if !({c}) {{ t27_rt::fail({at}, None); }}"));
    }

    /// A store in Zig's order: the place's indexes (outermost first), then for `op=` the
    /// place's current value, then the value, then the store.
    fn assign(&mut self, place: &Expr, op: Option<BinOp>, value: &Expr) {
        self.line("{");
        self.indent += 1;
        let (root, path) = self.place_path(place);
        let through_view =
            matches!(&place.kind, ExprKind::Index(base, _) if base.ty == Ty::MutSlice);
        let target = |root: &str| format!("{root}{path}");
        // Only numbers take `op=`, so the current value is a copy. A value that calls nothing
        // cannot change the place, which is then read where it is combined.
        let old = op.filter(|_| value.makes_calls()).map(|_| {
            let read = match &root {
                Root::Local(name) if through_view => format!("{}.get()", target(name)),
                Root::Local(name) => target(name),
                Root::Global(g) => format!("G{g}.with_borrow(|__g| {})", target("(*__g)")),
            };
            let ot = self.temp("o");
            self.line(&format!("let {ot} = {read};"));
            ot
        });
        let v = self.expr(value);
        let vt = self.temp("v");
        self.line(&format!("let {vt} = {v};"));
        let result = match (op, old) {
            (Some(op), Some(old)) => self.arith(op, &place.ty, &old, &vt, place.span),
            (Some(op), None) => {
                let read = match &root {
                    Root::Local(name) if through_view => format!("{}.get()", target(name)),
                    Root::Local(name) => target(name),
                    Root::Global(_) => target("(*__g)"),
                };
                self.arith(op, &place.ty, &read, &vt, place.span)
            }
            (None, _) => vt.clone(),
        };
        match root {
            Root::Local(name) if through_view => {
                self.line(&format!("{}.set({result});", target(&name)));
            }
            Root::Local(name) => {
                self.line(&format!("{} = {result};", target(&name)));
            }
            Root::Global(g) => {
                let t = target("(*__g)");
                self.line(&format!("G{g}.with_borrow_mut(|__g| {t} = {result});"));
            }
        }
        self.indent -= 1;
        self.line("}");
    }

    /// A place's root variable and the path below it (`[i0].field`), its indexes computed
    /// into temporaries `i0`, `i1`, ... now.
    fn place_path(&mut self, place: &Expr) -> (Root, String) {
        match &place.kind {
            ExprKind::Local(id) => (Root::Local(self.locals[id.index()].clone()), String::new()),
            ExprKind::Global(id) => (Root::Global(id.0), String::new()),
            ExprKind::Field(base, i) => {
                let (root, path) = self.place_path(base);
                (root, format!("{path}{}", self.field(&base.ty, *i)))
            }
            ExprKind::Index(base, index) => {
                let (root, path) = self.place_path(base);
                let n = match (&base.ty, &root) {
                    (Ty::Array(_, n), _) => n.to_string(),
                    (_, Root::Local(name)) => format!("{name}{path}.len()"),
                    (_, Root::Global(_)) => "0".into(),
                };
                let i = self.expr(index);
                let at = self.at(index.span);
                let t = self.temp("i");
                self.line(&format!("let {t} = t27_rt::idx(({i}) as i128, {n}, {at});"));
                (root, format!("{path}[{t}]"))
            }
            _ => (Root::Local("_".into()), String::new()),
        }
    }
}

pub(crate) enum Root {
    Local(String),
    Global(u32),
}

/// The Rust name a function has in a file of module `home`: its own for the module's
/// functions, `Module__name` for what another module contributes (`prefixes`: each module's
/// name as an identifier, `names::module_prefixes`).
pub(crate) fn fn_name(p: &Program, prefixes: &[String], home: ModuleId, f: FnId) -> String {
    let func = &p.functions[f.index()];
    let name = if func.decl.module == home {
        names::rust(&func.decl.name)
    } else {
        format!("{}__{}", prefixes[func.decl.module.index()], func.decl.name)
    };
    // A function that takes views is called by the code as `name__views` (cells); hosts call
    // `name`, which takes `&mut [u8]`.
    if super::takes_views(func) {
        format!("{}__views", name.trim_start_matches("r#"))
    } else {
        name
    }
}

/// An integer literal of its type: `(5u8)`, `(-128i8)`.
fn int_literal(i: &num_bigint::BigInt, t: Option<IntTy>) -> String {
    match t {
        Some(t) => format!("({i}{})", t.name()),
        None => format!("({i}i128)"),
    }
}

fn compare(op: BinOp, ty: &Ty, a: &str, b: &str) -> String {
    let ordered = matches!(ty, Ty::Int(_) | Ty::UntypedInt | Ty::F64);
    match op {
        BinOp::Eq => format!("{a} == {b}"),
        BinOp::Ne => format!("{a} != {b}"),
        _ if !ordered => "false".into(),
        _ => format!("{a} {} {b}", op.symbol()),
    }
}

/// A byte string literal: printable ASCII as it is, every other byte escaped.
pub(crate) fn byte_string(bytes: &[u8]) -> String {
    let mut out = String::from("b\"");
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

fn f64_literal(x: f64) -> String {
    if x.is_nan() {
        "f64::NAN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "f64::INFINITY"
        } else {
            "f64::NEG_INFINITY"
        }
        .into()
    } else {
        format!("({x:?}f64)")
    }
}

/// What every generated function allows: the generator writes parentheses, `mut`s, labels and
/// clones uniformly, and names locals as the spec does.
const ALLOW: &str = "#[allow(unused_parens, unused_mut, unused_variables, unused_assignments, unused_labels, unused_braces, unreachable_code, non_snake_case, clippy::all)]\n";
