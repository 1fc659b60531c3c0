//! What happens to a function between its translation and Cranelift's compilation: small
//! leaves are inlined into their callers, and jump tables that then only pick constants
//! become table loads. Also which functions a set of blocks reaches.

use crate::compiler::Shared;
use cranelift::prelude::*;
use cranelift_module::Module;
use std::collections::HashMap;
use t27_ir::{FnId, Program, TestId};

/// Optimises a function that has jump tables, so that Cranelift folds what its inlined
/// calls decide, and turns those that then only pick a constant into table loads
/// (`lookup.rs`). Cranelift optimises the function again when it compiles it.
pub(crate) fn constant_tables(
    ctx: &mut cranelift::codegen::Context,
    shared: &mut Shared<'_>,
) -> cranelift::codegen::CodegenResult<()> {
    if !crate::lookup::has_jump_table(&ctx.func) {
        return Ok(());
    }
    let mut plane = cranelift::codegen::control::ControlPlane::default();
    ctx.optimize(shared.module.isa(), &mut plane)?;
    if crate::lookup::tabulate(&mut ctx.func, &mut shared.blocks) {
        // Compiling verifies the function against the graphs `optimize` left.
        ctx.compute_cfg();
        ctx.compute_domtree();
    }
    Ok(())
}

/// Per function: whether one of the blocks calls it, or a function they reach does.
pub(crate) fn reached_functions(p: &Program, blocks: &[(TestId, &t27_ir::Body)]) -> Vec<bool> {
    let mut reached = vec![false; p.functions.len()];
    let mut work: Vec<FnId> = blocks
        .iter()
        .flat_map(|(_, body)| body.block.callees())
        .collect();
    while let Some(f) = work.pop() {
        if !std::mem::replace(&mut reached[f.index()], true) {
            work.extend(p.functions[f.index()].body.block.callees());
        }
    }
    reached
}

/// Inlines calls of small leaf functions: their bodies become part of the caller, where
/// Cranelift optimises them with the caller's constants and loops.
pub(crate) struct Inliner<'c> {
    /// The translated body behind each module function id, when it may be inlined.
    inlinable: HashMap<u32, &'c cranelift::codegen::ir::Function>,
}

/// Larger leaves stay calls: inlining them would grow code more than it saves.
const INLINE_LIMIT: usize = 400;

impl<'c> Inliner<'c> {
    pub fn new(
        shared: &Shared<'_>,
        clifs: &'c [cranelift::codegen::ir::Function],
        reached: &[bool],
    ) -> Inliner<'c> {
        let mut inlinable = HashMap::new();
        for (i, clif) in clifs.iter().enumerate().filter(|(i, _)| reached[*i]) {
            let size: usize = clif
                .layout
                .blocks()
                .map(|b| clif.layout.block_insts(b).count())
                .sum();
            if shared.leaf[i] && size <= INLINE_LIMIT {
                inlinable.insert(shared.fns[i].as_u32(), clif);
            }
        }
        Inliner { inlinable }
    }
}

impl cranelift::codegen::inline::Inline for &Inliner<'_> {
    fn inline(
        &mut self,
        caller: &cranelift::codegen::ir::Function,
        _inst: cranelift::codegen::ir::Inst,
        _opcode: cranelift::codegen::ir::Opcode,
        callee: cranelift::codegen::ir::FuncRef,
        _args: &[Value],
    ) -> cranelift::codegen::inline::InlineCommand<'_> {
        use cranelift::codegen::inline::InlineCommand;
        let cranelift::codegen::ir::ExternalName::User(name) = &caller.dfg.ext_funcs[callee].name
        else {
            return InlineCommand::KeepCall;
        };
        let index = caller.params.user_named_funcs()[*name].index;
        match self.inlinable.get(&index) {
            Some(f) => InlineCommand::Inline {
                callee: std::borrow::Cow::Borrowed(*f),
                visit_callee: false,
            },
            None => InlineCommand::KeepCall,
        }
    }
}
