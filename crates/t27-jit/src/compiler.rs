//! Program-level compilation: declaring every function and block, laying out constants and
//! module `var`s, and the compiled program the runner calls into.

use crate::inline::{Inliner, constant_tables, reached_functions};
use crate::layout::{self, Arena};
use crate::runtime::{self, Ctx, Host, STATUS_FAIL, STATUS_TIMEOUT, STATUS_TRAP};
use crate::translate::FnTranslator;
use cranelift::prelude::*;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use t27_ir::{ConstId, Function, IntTy, Outcome, Program, TestId, TrapKind, Ty, Value as IrValue};

/// Where one compiled function or block lies in memory: what a profiler needs to name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeCode {
    /// `module::function` or `module::block`.
    pub name: String,
    pub address: u64,
    pub size: u64,
}

/// Why a program could not be compiled (a bug in t27 if it ever happens on a checked program).
#[derive(Debug)]
pub struct JitError(pub String);

impl std::fmt::Display for JitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JIT: {}", self.0)
    }
}

/// The host functions compiled code may call, by name.
pub(crate) struct Imports {
    pub capture: FuncId,
    pub str_eq: FuncId,
    pub str_contains: FuncId,
    pub agg_eq: FuncId,
    pub fmod: FuncId,
    pub snapshot: FuncId,
}

/// Shared state while functions are translated.
pub(crate) struct Shared<'p> {
    pub p: &'p Program,
    pub module: JITModule,
    pub fns: Vec<FuncId>,
    pub imports: Imports,
    pub arena: Arena,
    /// Native memory for constant aggregates, keyed by constant.
    pub const_mem: HashMap<ConstId, u64>,
    /// Keeps aggregate constant memory alive (8-byte aligned).
    pub blocks: Vec<Box<[u64]>>,
    pub global_offsets: Vec<u64>,
    pub sites: Vec<runtime::Site>,
    pub agg_types: Vec<Ty>,
    /// Per function: whether it makes no calls. A leaf cannot recurse, so a call of it has
    /// no depth bookkeeping or limit (`MAX_CALL_DEPTH`), and a leaf does not poll the
    /// interrupt on entry (its loops poll on their own).
    pub leaf: Vec<bool>,
    /// Whether each leaf can stop a block (a trap, or a timeout in one of its loops): after
    /// a call to a leaf that cannot, there is no status to check. Always true for the rest.
    pub may_stop: Vec<bool>,
    /// The address of the interrupt flag, which the program keeps alive as long as its code.
    pub interrupt: *const AtomicBool,
    /// The address of a coverage run's counters (null when there are none), kept alive the
    /// same way.
    pub counters: *const std::sync::atomic::AtomicU64,
}

impl Shared<'_> {
    pub fn site(&mut self, span: t27_diag::Span, sides: Option<(Ty, Ty)>) -> u32 {
        self.sites.push(runtime::Site { span, sides });
        self.sites.len() as u32 - 1
    }

    pub fn agg_type(&mut self, ty: &Ty) -> u64 {
        if let Some(i) = self.agg_types.iter().position(|t| t == ty) {
            return i as u64;
        }
        self.agg_types.push(ty.clone());
        self.agg_types.len() as u64 - 1
    }

    /// Native memory holding a constant value of an aggregate type, for reading only.
    pub fn constant_memory(&mut self, v: &IrValue, ty: &Ty) -> u64 {
        let (size, _) = layout::size_align(ty, self.p);
        let mut mem: Box<[u64]> = vec![0u64; (size as usize).div_ceil(8).max(1)].into_boxed_slice();
        // SAFETY: `mem` holds at least `size` bytes, 8-byte aligned.
        unsafe { layout::write_value(mem.as_mut_ptr() as *mut u8, v, ty, self.p, &mut self.arena) };
        let ptr = mem.as_ptr() as u64;
        self.blocks.push(mem);
        ptr
    }
}

/// The parts a value of a type takes as function parameters or results.
pub(crate) fn abi_parts(ty: &Ty) -> Vec<types::Type> {
    match ty {
        Ty::Int(t) => vec![int_type(*t)],
        Ty::Bool => vec![types::I8],
        Ty::F64 => vec![types::F64],
        Ty::Str | Ty::MutSlice => vec![types::I64, types::I64],
        Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_) => vec![types::I64],
        _ => Vec::new(),
    }
}

pub(crate) fn int_type(t: IntTy) -> types::Type {
    match t.bits() {
        8 => types::I8,
        16 => types::I16,
        32 => types::I32,
        _ => types::I64,
    }
}

pub(crate) fn is_aggregate(ty: &Ty) -> bool {
    matches!(ty, Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_))
}

/// A compiled program: native code for every function and block.
pub struct JitProgram<'p> {
    p: &'p Program,
    // Kept alive: the code and data compiled code points into. Freed on drop.
    module: Option<JITModule>,
    _arena: Arena,
    _blocks: Vec<Box<[u64]>>,
    /// The entry point of each compiled block.
    block_code: Vec<Option<*const u8>>,
    host: Box<Host>,
    globals: Vec<u64>,
    global_offsets: Vec<u64>,
    global_arena: Arena,
    /// The flag compiled code polls, at an address built into the code: kept alive here.
    _interrupt: Arc<AtomicBool>,
    /// The counters compiled code adds to, likewise.
    _counters: Option<t27_ir::Counters>,
    /// Every compiled function and block, where it lies.
    native_code: Vec<NativeCode>,
}

impl<'p> JitProgram<'p> {
    /// Compiles the given blocks (each with its body, as `t27_check::BlockLowerer` lowers it)
    /// and every function they reach (not the other blocks:
    /// a request names a few modules, and the modules they import bring their own blocks).
    /// Compiled code polls `interrupt` (at loops and calls) and stops the running block
    /// when it is raised.
    pub fn compile(
        p: &'p Program,
        blocks: &[(TestId, &t27_ir::Body)],
        interrupt: Arc<AtomicBool>,
    ) -> Result<JitProgram<'p>, JitError> {
        JitProgram::compile_counting(p, blocks, interrupt, None)
    }

    /// [`JitProgram::compile`], the code adding to `counters` at the probes of a program
    /// `t27-cover` instrumented.
    pub fn compile_counting(
        p: &'p Program,
        blocks: &[(TestId, &t27_ir::Body)],
        interrupt: Arc<AtomicBool>,
        counters: Option<t27_ir::Counters>,
    ) -> Result<JitProgram<'p>, JitError> {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v).map_err(|e| JitError(e.to_string()))
        };
        set(&mut flags, "opt_level", "speed")?;
        set(&mut flags, "use_colocated_libcalls", "false")?;
        set(&mut flags, "is_pic", "false")?;
        // Cranelift's verifier checks the IR this crate builds. Tests, the differential test
        // and the fuzz targets build with debug assertions and keep it; a release build
        // skips it, a fifth of the time it takes to compile a small spec.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        set(&mut flags, "enable_verifier", verify)?;
        let isa = cranelift_native::builder()
            .map_err(|e| JitError(e.to_string()))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| JitError(e.to_string()))?;
        let mut builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
        // All code and data in one reserved region: calls between compiled functions are
        // 32-bit relative, and separately mapped blobs can land more than 2 GiB apart (found
        // by fuzzing, where the sanitizer's mappings spread memory out).
        let arena = cranelift_jit::ArenaMemoryProvider::new_with_size(1 << 30)
            .map_err(|e| JitError(e.to_string()))?;
        builder.memory_provider(Box::new(arena));
        builder.symbol("t27_capture", runtime::t27_capture as *const u8);
        builder.symbol("t27_str_eq", runtime::t27_str_eq as *const u8);
        builder.symbol("t27_str_contains", runtime::t27_str_contains as *const u8);
        builder.symbol("t27_agg_eq", runtime::t27_agg_eq as *const u8);
        builder.symbol("t27_fmod", runtime::t27_fmod as *const u8);
        builder.symbol("t27_snapshot", runtime::t27_snapshot as *const u8);
        let mut module = JITModule::new(builder);
        let ptr = types::I64;
        let import =
            |module: &mut JITModule, name: &str, params: &[types::Type], rets: &[types::Type]| {
                let mut sig = module.make_signature();
                sig.params.extend(params.iter().map(|t| AbiParam::new(*t)));
                sig.returns.extend(rets.iter().map(|t| AbiParam::new(*t)));
                module
                    .declare_function(name, Linkage::Import, &sig)
                    .map_err(|e| JitError(e.to_string()))
            };
        let imports = Imports {
            capture: import(&mut module, "t27_capture", &[ptr], &[])?,
            str_eq: import(
                &mut module,
                "t27_str_eq",
                &[ptr, ptr, ptr, ptr],
                &[types::I8],
            )?,
            str_contains: import(
                &mut module,
                "t27_str_contains",
                &[ptr, ptr, ptr, ptr],
                &[types::I8],
            )?,
            agg_eq: import(
                &mut module,
                "t27_agg_eq",
                &[ptr, ptr, ptr, ptr],
                &[types::I8],
            )?,
            fmod: import(
                &mut module,
                "t27_fmod",
                &[types::F64, types::F64],
                &[types::F64],
            )?,
            snapshot: import(&mut module, "t27_snapshot", &[ptr, ptr, ptr], &[ptr])?,
        };
        let mut fns = Vec::with_capacity(p.functions.len());
        for (i, f) in p.functions.iter().enumerate() {
            let sig = function_signature(&module, f);
            let id = module
                .declare_function(&format!("fn{i}_{}", f.decl.name), Linkage::Local, &sig)
                .map_err(|e| JitError(e.to_string()))?;
            fns.push(id);
        }
        let reached = reached_functions(p, blocks);
        let mut block_ids = Vec::with_capacity(p.tests.len());
        for (i, t) in p.tests.iter().enumerate() {
            let mut sig = module.make_signature();
            sig.params.push(AbiParam::new(ptr));
            let id = module
                .declare_function(&format!("block{i}_{}", t.decl.name), Linkage::Local, &sig)
                .map_err(|e| JitError(e.to_string()))?;
            block_ids.push(id);
        }
        let mut global_offsets = Vec::with_capacity(p.globals.len());
        let mut end = 0;
        for g in &p.globals {
            let (size, align) = layout::size_align(&g.ty, p);
            let off = layout::round_up(end, align.max(8));
            global_offsets.push(off);
            end = off + size;
        }
        let mut shared = Shared {
            p,
            module,
            fns,
            imports,
            arena: Arena::default(),
            const_mem: HashMap::new(),
            blocks: Vec::new(),
            global_offsets: global_offsets.clone(),
            sites: Vec::new(),
            agg_types: Vec::new(),
            leaf: p
                .functions
                .iter()
                .map(|f| !f.body.block.makes_calls())
                .collect(),
            may_stop: vec![true; p.functions.len()],
            interrupt: Arc::as_ptr(&interrupt),
            counters: counters
                .as_ref()
                .map_or(std::ptr::null(), t27_ir::Counters::as_ptr),
        };
        let mut ctx = shared.module.make_context();
        let mut fctx = FunctionBuilderContext::new();
        // Translate every function first, so that small leaves can be inlined into callers;
        // leaves before the rest, so that their callers know which of them can stop a block.
        let mut clifs: Vec<cranelift::codegen::ir::Function> =
            vec![cranelift::codegen::ir::Function::new(); p.functions.len()];
        let (leaves, others): (Vec<usize>, Vec<usize>) = (0..p.functions.len())
            .filter(|&i| reached[i])
            .partition(|&i| shared.leaf[i]);
        for i in leaves.into_iter().chain(others) {
            let f = &p.functions[i];
            ctx.func.signature = function_signature(&shared.module, f);
            let leaf = shared.leaf[i];
            shared.may_stop[i] = FnTranslator::translate(
                &mut shared,
                &mut ctx.func,
                &mut fctx,
                &f.body,
                &f.ret,
                f.params.len(),
                !leaf,
            )?;
            clifs[i] = ctx.func.clone();
            shared.module.clear_context(&mut ctx);
        }
        let inliner = Inliner::new(&shared, &clifs, &reached);
        let mut defined = Vec::new();
        for (i, f) in p.functions.iter().enumerate() {
            if !reached[i] {
                continue;
            }
            ctx.func = clifs[i].clone();
            ctx.inline(&inliner)
                .map_err(|e| JitError(format!("{}: {e:?}", f.decl.name)))?;
            constant_tables(&mut ctx, &mut shared)
                .map_err(|e| JitError(format!("{}: {e:?}", f.decl.name)))?;
            let id = shared.fns[i];
            shared
                .module
                .define_function(id, &mut ctx)
                .map_err(|e| JitError(format!("{}: {e:?}", f.decl.name)))?;
            defined.push((id, qualified(p, &f.decl), code_size(&ctx)));
            shared.module.clear_context(&mut ctx);
        }
        for &(test, body) in blocks {
            let (i, t) = (test.index(), &p.tests[test.index()]);
            ctx.func.signature.params.push(AbiParam::new(ptr));
            FnTranslator::translate(
                &mut shared,
                &mut ctx.func,
                &mut fctx,
                body,
                &Ty::Void,
                0,
                true,
            )?;
            ctx.inline(&inliner)
                .map_err(|e| JitError(format!("{}: {e:?}", t.decl.name)))?;
            constant_tables(&mut ctx, &mut shared)
                .map_err(|e| JitError(format!("{}: {e:?}", t.decl.name)))?;
            shared
                .module
                .define_function(block_ids[i], &mut ctx)
                .map_err(|e| JitError(format!("{}: {e:?}", t.decl.name)))?;
            defined.push((block_ids[i], qualified(p, &t.decl), code_size(&ctx)));
            shared.module.clear_context(&mut ctx);
        }
        shared
            .module
            .finalize_definitions()
            .map_err(|e| JitError(e.to_string()))?;
        let native_code = defined
            .into_iter()
            .map(|(id, name, size)| NativeCode {
                name,
                address: shared.module.get_finalized_function(id) as u64,
                size,
            })
            .collect();
        let mut block_code = vec![None; p.tests.len()];
        for &(test, _) in blocks {
            block_code[test.index()] = Some(
                shared
                    .module
                    .get_finalized_function(block_ids[test.index()]),
            );
        }
        let host = Box::new(Host {
            program: p as *const Program,
            sites: shared.sites,
            captured: None,
            agg_types: shared.agg_types,
            snapshots: Vec::new(),
        });
        Ok(JitProgram {
            p,
            module: Some(shared.module),
            _arena: shared.arena,
            _blocks: shared.blocks,
            block_code,
            host,
            globals: vec![0u64; (end as usize).div_ceil(8).max(1)],
            global_offsets,
            global_arena: Arena::default(),
            _interrupt: interrupt,
            _counters: counters,
            native_code,
        })
    }

    /// Every compiled function and block, where it lies in memory.
    pub fn native_code(&self) -> &[NativeCode] {
        &self.native_code
    }

    /// Sets every module `var` to its initial value: the start of a module run.
    pub fn reset_globals(&mut self) {
        self.globals.iter_mut().for_each(|w| *w = 0);
        self.global_arena = Arena::default();
        for (i, g) in self.p.globals.iter().enumerate() {
            if let Some(v) = &g.value {
                self.write_global(i, v);
            }
        }
    }

    /// Writes module `var` number `i`.
    fn write_global(&mut self, i: usize, v: &IrValue) {
        let (g, off) = (&self.p.globals[i], self.global_offsets[i]);
        let base = self.globals.as_mut_ptr() as *mut u8;
        // SAFETY: the globals buffer was sized from the same layout.
        unsafe {
            layout::write_value(
                base.add(off as usize),
                v,
                &g.ty,
                self.p,
                &mut self.global_arena,
            )
        };
    }

    /// The module `var`s as they are now (what a block after this one starts from).
    pub fn globals(&self) -> Vec<IrValue> {
        let base = self.globals.as_ptr() as *const u8;
        self.p
            .globals
            .iter()
            .zip(&self.global_offsets)
            // SAFETY: the globals buffer holds every module `var` at its offset.
            .map(|(g, off)| unsafe { layout::read_value(base.add(*off as usize), &g.ty, self.p) })
            .collect()
    }

    /// Sets the module `var`s (to what another engine left them at).
    pub fn set_globals(&mut self, values: &[IrValue]) {
        for (i, v) in values.iter().enumerate().take(self.p.globals.len()) {
            self.write_global(i, v);
        }
    }

    /// Whether a block's native code is here.
    pub fn has_block(&self, test: TestId) -> bool {
        self.block_code[test.index()].is_some()
    }

    /// Runs one block's native code; `None` when the block was not among those compiled.
    pub fn run_block(&mut self, test: TestId) -> Option<Outcome> {
        let code = self.block_code[test.index()]?;
        let mut ctx = Ctx {
            globals: self.globals.as_mut_ptr() as *mut u8,
            depth: 0,
            status: 0,
            code: 0,
            site: 0,
            left: [0; 2],
            right: [0; 2],
            host: &mut *self.host as *mut Host,
        };
        self.host.captured = None;
        self.host.snapshots.clear();
        // SAFETY: the code was compiled for exactly this signature, and every pointer in `ctx`
        // lives until the call returns. Compiled code never unwinds: traps return through
        // `ctx.status`.
        unsafe {
            let f: extern "C" fn(*mut Ctx) = std::mem::transmute(code);
            f(&mut ctx);
        }
        let site = self
            .host
            .sites
            .get(ctx.site as usize)
            .map(|s| s.span)
            .unwrap_or_default();
        Some(match ctx.status {
            STATUS_FAIL => {
                let (left, right) = match self.host.captured.take() {
                    Some((l, r)) => (Some(l), Some(r)),
                    None => (None, None),
                };
                Outcome::Fail {
                    assert: site,
                    left,
                    right,
                }
            }
            STATUS_TRAP => Outcome::Trap {
                kind: trap_kind(ctx.code),
                span: site,
            },
            STATUS_TIMEOUT => Outcome::Timeout,
            _ => Outcome::Pass,
        })
    }
}

impl Drop for JitProgram<'_> {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: the program is going away: no compiled function runs now, and none of
            // their pointers is called after this.
            unsafe { module.free_memory() };
        }
    }
}

pub(crate) const TRAP_KINDS: [TrapKind; 6] = TrapKind::ALL;

fn trap_kind(code: u32) -> TrapKind {
    TRAP_KINDS
        .get(code as usize)
        .copied()
        .unwrap_or(TrapKind::Overflow)
}

pub(crate) fn trap_code(kind: TrapKind) -> u32 {
    TRAP_KINDS.iter().position(|k| *k == kind).unwrap_or(0) as u32
}

/// `(ctx, [result pointer], params...) -> results`.
/// `module::name` of a declaration.
fn qualified(p: &Program, decl: &t27_ir::Decl) -> String {
    format!("{}::{}", p.modules[decl.module.index()].name, decl.name)
}

/// The size of the machine code Cranelift just compiled into `ctx`.
fn code_size(ctx: &cranelift::codegen::Context) -> u64 {
    ctx.compiled_code()
        .map_or(0, |c| u64::from(c.code_info().total_size))
}

fn function_signature(module: &JITModule, f: &Function) -> Signature {
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(types::I64));
    if is_aggregate(&f.ret) {
        sig.params.push(AbiParam::new(types::I64));
    } else {
        sig.returns
            .extend(abi_parts(&f.ret).into_iter().map(AbiParam::new));
    }
    for p in &f.params {
        let ty = &f.body.locals[p.index()].ty;
        sig.params
            .extend(abi_parts(ty).into_iter().map(AbiParam::new));
    }
    sig
}
