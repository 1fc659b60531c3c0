//! t27's WebAssembly back end: a spec module, from the engines' typed IR, as a *card*: a wasm
//! module that imports nothing and exports its memory and one function per public spec
//! function, with the engines' meaning (every integer operation checked, traps where they
//! trap). Also the test card `t27 test --host wasm` runs: a module's blocks as functions.
//!
//! Pure: typed IR in, bytes and the lists of what could not be compiled out; every card is
//! validated with `wasmparser` before it is returned.

#![deny(clippy::unwrap_used)]

mod arith;
mod cx;
mod data;
mod emit;
mod memory;
mod repr;
mod runtime;

pub use cx::{KIND_ASSERT, KIND_BAD_ARGUMENT, Site, kind_code};
pub use repr::Repr;

use cx::*;
use emit::FnEmit;
use std::collections::{HashMap, HashSet};
use t27_diag::Span;
use t27_ir::{Body, FnId, ItemRef, ModuleId, Program, TestId, Ty};
use wasm_encoder::{
    CodeSection, ConstExpr, DataSection, ExportKind, ExportSection, Function, FunctionSection,
    GlobalSection, GlobalType, Instruction as I, MemorySection, MemoryType, Module, TypeSection,
    ValType,
};

/// The names a card exports for itself; a spec function of one of these names is not exported.
pub const OWN_EXPORTS: [&str; 5] = [
    "memory",
    "t27_trap_kind",
    "t27_trap_place",
    "t27_trap_place_len",
    "t27_reset",
];

/// A module's card.
pub struct Card {
    pub bytes: Vec<u8>,
    /// The public functions exported, in declaration order.
    pub exported: Vec<FnId>,
    /// The public functions not exported, with why.
    pub not_exported: Vec<(FnId, String)>,
}

/// The test card of a module's blocks.
pub struct TestCard {
    pub bytes: Vec<u8>,
    /// The blocks compiled, each exported as `b<test id>`, in the order given.
    pub blocks: Vec<TestId>,
    /// The blocks that could not be compiled, with why.
    pub cannot: Vec<(TestId, String)>,
    /// The places trap and assert codes name, by site number.
    pub sites: Vec<Site>,
}

/// The card of module `m`. `place` writes a span of a module as `path.t27:line:col-line:col`,
/// the place `t27_trap_place` answers.
pub fn card(
    p: &Program,
    m: ModuleId,
    place: &dyn Fn(ModuleId, Span) -> String,
) -> Result<Card, String> {
    let roots: Vec<FnId> = p.modules[m.index()]
        .items
        .iter()
        .filter_map(|i| match i {
            ItemRef::Fn(f) => Some(*f),
            _ => None,
        })
        .collect();
    let (mut cx, mut code, failed) = compile_functions(p, &roots, false, &[]);
    let mut exported = Vec::new();
    let mut not_exported = Vec::new();
    let mut exports = Vec::new();
    let mut wrappers = Vec::new();
    for &f in &roots {
        let func = &p.functions[f.index()];
        if !func.decl.is_pub {
            continue;
        }
        let name = &func.decl.name;
        let crossing = func
            .params
            .iter()
            .map(|l| repr::crossing(&func.body.locals[l.index()].ty, false))
            .chain([repr::crossing(&func.ret, true)])
            .find_map(Result::err);
        let why = if crossing.is_some() {
            crossing
        } else if let Some(why) = failed.get(&f) {
            Some(format!("the card cannot express it yet: {why}"))
        } else if OWN_EXPORTS.contains(&name.as_str()) {
            Some(format!("`{name}` is a name the card exports for itself"))
        } else {
            None
        };
        if let Some(why) = why {
            not_exported.push((f, why));
            continue;
        }
        match wrapper(&mut cx, f)? {
            Some(w) => {
                let index = code.len() as u32 + wrappers.len() as u32;
                let ty = fn_type(&mut cx, f)?;
                wrappers.push((ty, w));
                exports.push((name.clone(), index));
            }
            // No depth or stack to reset: the function itself is exported.
            None => exports.push((name.clone(), cx.fn_index[&f])),
        }
        exported.push(f);
    }
    code.extend(wrappers);
    // The trap places, as text in the data, and the functions that answer them.
    let places: Vec<String> = cx.sites.iter().map(|s| place(s.module, s.span)).collect();
    let pairs: Vec<(u32, u32)> = places
        .iter()
        .map(|t| (cx.data.string(t.as_bytes()), t.len() as u32))
        .collect();
    let table = cx.data.pairs(&pairs);
    let first = code.len() as u32;
    let own = own_functions(&mut cx, table)?;
    for (k, (name, f)) in own.into_iter().enumerate() {
        exports.push((name.to_string(), first + k as u32));
        let results: &[ValType] = if name == "t27_reset" {
            &[]
        } else {
            &[ValType::I32]
        };
        code.push((cx.ty(&[], results), f));
    }
    let bytes = assemble(&mut cx, code, &exports, &[])?;
    Ok(Card {
        bytes,
        exported,
        not_exported,
    })
}

/// The test card of module `m`'s `blocks`: each block a function `b<test id>` of no
/// parameters, run in the order given on one instance, each after `t27_reset` (which sets
/// the module `var`s to their declared values, as every block starts on the engines).
pub fn test_card(p: &Program, m: ModuleId, blocks: &[(TestId, &Body)]) -> Result<TestCard, String> {
    let mut roots = Vec::new();
    for (_, b) in blocks {
        roots.extend(b.block.callees());
    }
    let bodies: Vec<&Body> = blocks.iter().map(|(_, b)| *b).collect();
    let (mut cx, mut code, failed) = compile_functions(p, &roots, true, &bodies);
    let mut compiled = Vec::new();
    let mut cannot = Vec::new();
    let mut exports = Vec::new();
    for (t, body) in blocks {
        let index = code.len() as u32;
        match block_function(&mut cx, m, body) {
            Ok(f) => {
                code.push((cx.ty(&[], &[]), f));
                exports.push((format!("b{}", t.0), index));
                compiled.push(*t);
            }
            Err(why) => {
                // A block that calls a function the card cannot hold says which and why.
                let why = body
                    .block
                    .callees()
                    .into_iter()
                    .find_map(|f| {
                        failed
                            .get(&f)
                            .map(|w| format!("calls `{}`: {w}", p.functions[f.index()].decl.name))
                    })
                    .unwrap_or(why);
                cannot.push((*t, format!("the wasm card cannot express it yet: {why}")));
            }
        }
    }
    // `t27_reset`, which the runner calls before each block: every block starts from the
    // declared module `var`s (LANGUAGE.md 17.1).
    let reset = reset_vars(&mut cx)?;
    exports.push(("t27_reset".to_string(), code.len() as u32));
    code.push((cx.ty(&[], &[]), function_of(&reset)));
    let globals = [
        ("kind", G_TRAP_KIND),
        ("site", G_TRAP_SITE),
        ("li", G_LEFT_INT),
        ("ri", G_RIGHT_INT),
        ("lf", G_LEFT_F64),
        ("rf", G_RIGHT_F64),
        ("lp", G_LEFT_PTR),
        ("ll", G_LEFT_LEN),
        ("rp", G_RIGHT_PTR),
        ("rl", G_RIGHT_LEN),
    ];
    let bytes = assemble(&mut cx, code, &exports, &globals)?;
    Ok(TestCard {
        bytes,
        blocks: compiled,
        cannot,
        sites: cx.sites,
    })
}

/// Every function reachable from `roots`, compiled; those that cannot be (or that call one
/// that cannot) are left out, with why. Compiles again until nothing more is left out, so
/// that the indexes of the card are those of the functions it holds.
fn compile_functions<'p>(
    p: &'p Program,
    roots: &[FnId],
    test: bool,
    also: &[&Body],
) -> (Cx<'p>, Vec<(u32, Function)>, HashMap<FnId, String>) {
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<FnId> = roots.iter().rev().copied().collect();
    while let Some(f) = stack.pop() {
        if !seen.insert(f) {
            continue;
        }
        order.push(f);
        let callees = p.functions[f.index()].body.block.callees();
        stack.extend(callees.into_iter().rev());
    }
    let stack = order
        .iter()
        .map(|f| &p.functions[f.index()].body)
        .chain(also.iter().copied())
        .any(memory::needs_stack);
    let mut failed: HashMap<FnId, String> = HashMap::new();
    loop {
        let mut cx = Cx::new(p, test, stack);
        let held: Vec<FnId> = order
            .iter()
            .copied()
            .filter(|f| !failed.contains_key(f))
            .collect();
        for (i, f) in held.iter().enumerate() {
            cx.fn_index.insert(*f, i as u32);
        }
        cx.helpers = held.len() as u32;
        let mut code = Vec::new();
        let mut more = false;
        for &f in &held {
            match function(&mut cx, f).and_then(|c| Ok((fn_type(&mut cx, f)?, c))) {
                Ok(c) => code.push(c),
                Err(why) => {
                    failed.insert(f, why);
                    more = true;
                }
            }
        }
        if !more {
            // A test card's blocks may compare strings even where its functions do not.
            if cx.uses_strings || test {
                cx.uses_strings = true;
                let str_op = cx.ty(&[ValType::I32; 4], &[ValType::I32]);
                code.push((str_op, runtime::str_eq()));
                code.push((str_op, runtime::str_contains(cx.helpers)));
            }
            return (cx, code, failed);
        }
    }
}

fn fn_type(cx: &mut Cx, f: FnId) -> Result<u32, String> {
    let func = &cx.p.functions[f.index()];
    let mut params = Vec::new();
    for l in &func.params {
        params.extend_from_slice(Repr::of(&func.body.locals[l.index()].ty)?.vals());
    }
    let results = Repr::of(&func.ret)?.vals();
    Ok(cx.ty(&params, results))
}

fn function(cx: &mut Cx, f: FnId) -> Result<Function, String> {
    let func = &cx.p.functions[f.index()];
    let mut em = emitter_of(cx, f)?;
    if func.decl.is_pub {
        argument_checks(&mut em, func)?;
    }
    em.block(&func.body.block)?;
    if func.ret != Ty::Void {
        // The checker sees that every path returns; control never reaches here.
        em.code.push(I::Unreachable);
    }
    Ok(em.finish())
}

/// The emitter of spec function `f`'s body: its module, locals, parameters and result.
fn emitter_of<'c, 'p>(cx: &'c mut Cx<'p>, f: FnId) -> Result<FnEmit<'c, 'p>, String> {
    let p = cx.p;
    let func = &p.functions[f.index()];
    FnEmit::new(
        cx,
        func.decl.module,
        &func.body,
        func.params.len(),
        func.ret.clone(),
    )
}

/// A host's entry (a block, an exported wrapper) starts at call depth 0 with the stack pointer
/// where the card built it, whatever a trap of an earlier call left them at.
fn start_afresh(em: &mut FnEmit) {
    em.reset_sp = true;
    em.code.push(I::I32Const(0));
    em.code.push(I::GlobalSet(G_DEPTH));
}

fn block_function(cx: &mut Cx, m: ModuleId, body: &Body) -> Result<Function, String> {
    let mut em = FnEmit::new(cx, m, body, 0, Ty::Void)?;
    // Each block starts at depth 0, as on the engines (and after a trap left it deeper).
    start_afresh(&mut em);
    em.block(&body.block)?;
    Ok(em.finish())
}

/// What a card exports for a spec function that calls others (or of a card with a stack):
/// the call depth (and stack pointer) reset, as a trap may have left them, then the call.
/// A leaf of a card without a stack is exported as itself.
fn wrapper(cx: &mut Cx, f: FnId) -> Result<Option<Function>, String> {
    let func = &cx.p.functions[f.index()];
    let index = cx.fn_index[&f];
    if cx.leaf[f.index()] && cx.sp.is_none() {
        return Ok(None);
    }
    let mut em = emitter_of(cx, f)?;
    start_afresh(&mut em);
    let mut at = 0;
    for l in &func.params {
        at += Repr::of(&func.body.locals[l.index()].ty)?.vals().len() as u32;
    }
    for i in 0..at {
        em.code.push(I::LocalGet(i));
    }
    em.code.push(I::Call(index));
    Ok(Some(em.finish()))
}

/// At the start of a public function: each parameter of a type narrower than its wasm value
/// (`bool`, 8 and 16 bits) checked, one trap for all (`bad_argument`, at the function's
/// name). In the function itself, not in a wrapper, so that a host's call is one call; the
/// spec's own calls pass checked values and never trap here.
fn argument_checks(em: &mut FnEmit, func: &t27_ir::Function) -> Result<(), String> {
    let mut at = 0;
    let mut any = false;
    for l in &func.params {
        let ty = &func.body.locals[l.index()].ty;
        let check: Option<Vec<I>> = match ty {
            Ty::Bool => Some(vec![I::I32Const(1), I::I32GtU]),
            Ty::Int(t) if t.bits() < 32 && !t.signed() => Some(vec![
                I::I32Const(((1u32 << t.bits()) - 1) as i32),
                I::I32GtU,
            ]),
            Ty::Int(t) if t.bits() < 32 => Some(vec![
                I::LocalGet(at),
                if t.bits() == 8 {
                    I::I32Extend8S
                } else {
                    I::I32Extend16S
                },
                I::I32Ne,
            ]),
            _ => None,
        };
        if let Some(check) = check {
            // Each check's result is or-ed into the one before.
            em.code.push(I::LocalGet(at));
            em.code.extend(check);
            if any {
                em.code.push(I::I32Or);
            }
            any = true;
        }
        at += Repr::of(ty)?.vals().len() as u32;
    }
    if any {
        em.code.push(I::If(wasm_encoder::BlockType::Empty));
        em.trap(KIND_BAD_ARGUMENT, func.decl.name_span, None);
        em.code.push(I::End);
    }
    Ok(())
}

/// `t27_trap_kind`, `t27_trap_place`, `t27_trap_place_len`, and `t27_reset`.
fn own_functions(cx: &mut Cx, table: u32) -> Result<Vec<(&'static str, Function)>, String> {
    let body = |ins: Vec<I<'static>>| function_of(&ins);
    let read = |offset: u64| {
        vec![
            // Before any trap, the site is 0: a place is still there when a card has one.
            I::GlobalGet(G_TRAP_KIND),
            I::If(wasm_encoder::BlockType::Result(ValType::I32)),
            I::GlobalGet(G_TRAP_SITE),
            I::I32Const(8),
            I::I32Mul,
            I::I32Load(emit::mem(u64::from(table) + offset, 2)),
            I::Else,
            I::I32Const(0),
            I::End,
        ]
    };
    let reset = reset_vars(cx)?;
    Ok(vec![
        ("t27_trap_kind", body(vec![I::GlobalGet(G_TRAP_KIND)])),
        ("t27_trap_place", body(read(0))),
        ("t27_trap_place_len", body(read(4))),
        ("t27_reset", body(reset)),
    ])
}

/// A function body of `instructions` (no locals).
fn function_of(instructions: &[I<'static>]) -> Function {
    let mut f = Function::new([]);
    for i in instructions {
        f.instruction(i);
    }
    f.instruction(&I::End);
    f
}

/// The instructions that set every module `var` the card holds to its declared value.
fn reset_vars(cx: &mut Cx) -> Result<Vec<I<'static>>, String> {
    let mut reset = Vec::new();
    for g in cx.var_order.clone() {
        if let Some(&(live, initial)) = cx.global_arrays.get(&g) {
            let size = data::size_of(&cx.p.globals[g.index()].ty).unwrap_or(0);
            reset.extend([
                I::I32Const(live as i32),
                I::I32Const(initial as i32),
                I::I32Const(size as i32),
                I::MemoryCopy {
                    src_mem: 0,
                    dst_mem: 0,
                },
            ]);
            continue;
        }
        let decl = &cx.p.globals[g.index()];
        let first = cx.globals[&g];
        let inits = cx.init_of(Repr::of(&decl.ty)?, decl.value.as_ref())?;
        for (k, (val, _)) in inits.iter().enumerate() {
            reset.push(initial_value(cx, g, k, *val)?);
            reset.push(I::GlobalSet(first + k as u32));
        }
    }
    Ok(reset)
}

/// The `k`th wasm value of module `var` `g`'s initial value, as an instruction.
fn initial_value(
    cx: &mut Cx,
    g: t27_ir::GlobalId,
    k: usize,
    val: ValType,
) -> Result<I<'static>, String> {
    let decl = &cx.p.globals[g.index()];
    Ok(match (&decl.value, val) {
        (None, ValType::I32) => I::I32Const(0),
        (None, ValType::I64) => I::I64Const(0),
        (None, _) => I::F64Const(0.0.into()),
        (Some(t27_ir::Value::Bool(b)), _) => I::I32Const(*b as i32),
        (Some(t27_ir::Value::Int(n)), ValType::I32) => I::I32Const(data::int64(n)? as i32),
        (Some(t27_ir::Value::Int(n)), _) => I::I64Const(data::int64(n)?),
        (Some(t27_ir::Value::F64(x)), _) => I::F64Const((*x).into()),
        (Some(t27_ir::Value::Str(s)), _) => {
            let at = cx.data.string(s);
            I::I32Const(if k == 0 { at as i32 } else { s.len() as i32 })
        }
        _ => return Err("a module `var` of this kind".into()),
    })
}

/// The module: the runtime's functions, then `code` (each with its type), memory, globals,
/// exports and data. Validated before it is returned.
fn assemble(
    cx: &mut Cx,
    code: Vec<(u32, Function)>,
    exports: &[(String, u32)],
    globals: &[(&str, u32)],
) -> Result<Vec<u8>, String> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    for (params, results) in &cx.types {
        types
            .ty()
            .function(params.iter().copied(), results.iter().copied());
    }
    module.section(&types);
    let mut functions = FunctionSection::new();
    for (ty, _) in &code {
        functions.function(*ty);
    }
    module.section(&functions);
    let mut memory = MemorySection::new();
    let pages = u64::from(cx.data.end()).div_ceil(65536).max(1);
    memory.memory(MemoryType {
        minimum: pages,
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    module.section(&memory);
    let mut section = GlobalSection::new();
    let fixed: [(ValType, ConstExpr); FIXED_GLOBALS as usize] = [
        (ValType::I32, ConstExpr::i32_const(0)),
        (ValType::I32, ConstExpr::i32_const(0)),
        (ValType::I32, ConstExpr::i32_const(0)),
        (ValType::I64, ConstExpr::i64_const(0)),
        (ValType::I64, ConstExpr::i64_const(0)),
        (ValType::F64, ConstExpr::f64_const(0.0.into())),
        (ValType::F64, ConstExpr::f64_const(0.0.into())),
        (ValType::I32, ConstExpr::i32_const(0)),
        (ValType::I32, ConstExpr::i32_const(0)),
        (ValType::I32, ConstExpr::i32_const(0)),
        (ValType::I32, ConstExpr::i32_const(0)),
    ];
    let fixed = &fixed[..cx.fixed_globals() as usize];
    for (val, init) in fixed.iter().chain(&cx.global_inits) {
        section.global(
            GlobalType {
                val_type: *val,
                mutable: true,
                shared: false,
            },
            init,
        );
    }
    module.section(&section);
    let mut section = ExportSection::new();
    section.export("memory", ExportKind::Memory, 0);
    for (name, index) in exports {
        section.export(name, ExportKind::Func, *index);
    }
    for (name, index) in globals {
        section.export(name, ExportKind::Global, *index);
    }
    module.section(&section);
    let mut section = CodeSection::new();
    for (_, f) in &code {
        section.function(f);
    }
    module.section(&section);
    let mut section = DataSection::new();
    if !cx.data.bytes().is_empty() {
        section.active(
            0,
            &ConstExpr::i32_const(cx.data.base() as i32),
            cx.data.bytes().iter().copied(),
        );
    }
    module.section(&section);
    let bytes = module.finish();
    wasmparser::Validator::new()
        .validate_all(&bytes)
        .map_err(|e| format!("the card t27 made is not valid wasm (a bug in t27): {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests;
