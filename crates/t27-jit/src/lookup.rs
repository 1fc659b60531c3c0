//! Jump tables that only pick a constant, turned into loads from a table of the constants.
//!
//! A decision function inlined where some of its inputs are constants (a loop unrolled over
//! an event, a replayed call) folds, in Cranelift's optimiser, down to a switch on the other
//! inputs whose every case does nothing but pass a constant to the code after the switch:
//! `br_table state, [block1, block2, ...]` where `block1: jump join(3)`. Compiled as it is,
//! each such switch costs an indirect jump that the processor must predict; a load of the
//! constant from a table indexed by the same value costs none. This pass runs on the
//! optimised function, before Cranelift compiles it (and optimises it again): each such jump
//! table becomes `if (index < cases) { join(table[index]) } else { default }`, leaving the
//! default case as it was.

use cranelift::codegen::cursor::{Cursor, FuncCursor};
use cranelift::codegen::ir::{
    Block, BlockArg, BlockCall, Function, InstructionData, Opcode, Value, ValueDef,
};
use cranelift::prelude::{InstBuilder, IntCC, MemFlagsData, types};

/// How many blocks a case may pass through (each holding only constants and a jump) before
/// it reaches the block it gives its constant to.
const MAX_HOPS: usize = 8;

/// Whether the function has a jump table: only then is the pass worth an optimiser run.
pub fn has_jump_table(func: &Function) -> bool {
    func.layout.blocks().any(|b| {
        func.layout
            .last_inst(b)
            .is_some_and(|i| func.dfg.insts[i].opcode() == Opcode::BrTable)
    })
}

/// Rewrites every jump table whose cases all pass a constant to one block; the tables'
/// memory goes to `keep`, which must outlive the compiled code. Returns whether it rewrote
/// any (the function's control flow graph is then out of date).
pub fn tabulate(func: &mut Function, keep: &mut Vec<Box<[u64]>>) -> bool {
    let mut rewrote = false;
    let blocks: Vec<Block> = func.layout.blocks().collect();
    for b in blocks {
        let Some(term) = func.layout.last_inst(b) else {
            continue;
        };
        let InstructionData::BranchTable {
            arg: index, table, ..
        } = func.dfg.insts[term]
        else {
            continue;
        };
        let jt = &func.dfg.jump_tables[table];
        let default = jt.default_block();
        let cases: Vec<BlockCall> = jt.as_slice().to_vec();
        let Some((join, constants)) = constant_cases(func, &cases) else {
            continue;
        };
        let join_ty = func.dfg.value_type(func.dfg.block_params(join)[0]);
        let memory: Box<[u64]> = constants.into_boxed_slice();
        let address = memory.as_ptr() as i64;
        keep.push(memory);

        let default_block = default.block(&func.dfg.value_lists);
        let default_args: Vec<BlockArg> = default.args(&func.dfg.value_lists).collect();
        let load_block = func.dfg.make_block();
        func.layout.insert_block_after(load_block, b);
        let mut pos = FuncCursor::new(func).at_inst(term);
        let index_ty = pos.func.dfg.value_type(index);
        let in_range = pos
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, index, cases.len() as i64);
        pos.remove_inst();
        pos.ins()
            .brif(in_range, load_block, &[], default_block, &default_args);
        pos.goto_bottom(load_block);
        let wide = if index_ty == types::I64 {
            index
        } else {
            pos.ins().uextend(types::I64, index)
        };
        let offset = pos.ins().imul_imm_u(wide, 8);
        let base = pos.ins().iconst(types::I64, address);
        let at = pos.ins().iadd(base, offset);
        // The table never changes and the index is in range: the load cannot fail.
        let flags = MemFlagsData::trusted().with_readonly().with_can_move();
        // Little-endian: a narrower constant is the low bytes of its 8-byte slot.
        let value = pos.ins().load(join_ty, flags, at, 0);
        pos.ins().jump(join, &[BlockArg::Value(value)]);
        rewrote = true;
    }
    rewrote
}

/// The block every case passes its constant to, and the constants (as 8-byte words), when
/// there is one such block.
fn constant_cases(func: &Function, cases: &[BlockCall]) -> Option<(Block, Vec<u64>)> {
    if cases.len() < 2 {
        return None;
    }
    let mut join = None;
    let mut constants = Vec::with_capacity(cases.len());
    for case in cases {
        let (block, constant) = constant_target(func, *case)?;
        if join.is_some_and(|j| j != block) || func.dfg.block_params(block).len() != 1 {
            return None;
        }
        join = Some(block);
        constants.push(constant);
    }
    Some((join?, constants))
}

/// Follows a case through blocks that hold only constants and a jump, to a jump that passes
/// one constant: the block it jumps to and the constant.
fn constant_target(func: &Function, mut call: BlockCall) -> Option<(Block, u64)> {
    for _ in 0..MAX_HOPS {
        let block = call.block(&func.dfg.value_lists);
        let args: Vec<BlockArg> = call.args(&func.dfg.value_lists).collect();
        if let [BlockArg::Value(v)] = args.as_slice()
            && let Some(c) = constant(func, *v)
        {
            return Some((block, c));
        }
        // Otherwise the block must lead on: its arguments do not matter, as it holds
        // nothing but constants and a jump (whose own arguments the next hop checks).
        let mut jump = None;
        for inst in func.layout.block_insts(block) {
            match func.dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    ..
                } => {}
                InstructionData::Jump { destination, .. } => jump = Some(destination),
                _ => return None,
            }
        }
        call = jump?;
    }
    None
}

/// The bits of a value defined by `iconst`.
fn constant(func: &Function, v: Value) -> Option<u64> {
    let ValueDef::Result(inst, _) = func.dfg.value_def(v) else {
        return None;
    };
    match func.dfg.insts[inst] {
        InstructionData::UnaryImm {
            opcode: Opcode::Iconst,
            imm,
        } => Some(imm.bits() as u64),
        _ => None,
    }
}
