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
//!
//! Counting coverage, a case also adds one to the counters of the arms it takes on its way
//! (a load, an add and a store at a constant address). Those become tables too: the `j`-th
//! counter each case adds to, by index (a case with fewer adds to a spare word instead), so
//! that a counted decision is still free of the indirect jump.

use cranelift::codegen::cursor::{Cursor, FuncCursor};
use cranelift::codegen::ir::{
    Block, BlockArg, BlockCall, Function, InstructionData, Opcode, Value, ValueDef,
};
use cranelift::prelude::{InstBuilder, IntCC, MemFlagsData, types};

/// How many blocks a case may pass through (each holding only constants and a jump) before
/// it reaches the block it gives its constant to.
const MAX_HOPS: usize = 8;
/// The most counters one case adds to on its way for its jump table to become tables.
const MAX_COUNTS: usize = 4;

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
        let Some((join, constants, counts)) = constant_cases(func, &cases) else {
            continue;
        };
        let join_ty = func.dfg.value_type(func.dfg.block_params(join)[0]);
        let mut table = |words: Vec<u64>| {
            let memory: Box<[u64]> = words.into_boxed_slice();
            let address = memory.as_ptr() as i64;
            keep.push(memory);
            address
        };
        let values = table(constants);
        // The word a case with fewer counts adds to instead.
        let spare = table(vec![0]) as u64;
        let depth = counts.iter().map(Vec::len).max().unwrap_or(0);
        let counters: Vec<i64> = (0..depth)
            .map(|j| {
                let column = counts.iter().map(|c| c.get(j).copied().unwrap_or(spare));
                table(column.collect())
            })
            .collect();

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
        // The tables never change and the index is in range: their loads cannot fail.
        let flags = MemFlagsData::trusted().with_readonly().with_can_move();
        for column in counters {
            let base = pos.ins().iconst(types::I64, column);
            let at = pos.ins().iadd(base, offset);
            let counter = pos.ins().load(types::I64, flags, at, 0);
            let n = pos
                .ins()
                .load(types::I64, MemFlagsData::trusted(), counter, 0);
            let n = pos.ins().iadd_imm_s(n, 1);
            pos.ins().store(MemFlagsData::trusted(), n, counter, 0);
        }
        let base = pos.ins().iconst(types::I64, values);
        let at = pos.ins().iadd(base, offset);
        // Little-endian: a narrower constant is the low bytes of its 8-byte slot.
        let value = pos.ins().load(join_ty, flags, at, 0);
        pos.ins().jump(join, &[BlockArg::Value(value)]);
        rewrote = true;
    }
    rewrote
}

/// The block every case passes its constant to, the constants (as 8-byte words), and the
/// counters each case adds one to on its way, when there is one such block.
#[allow(clippy::type_complexity)]
fn constant_cases(
    func: &Function,
    cases: &[BlockCall],
) -> Option<(Block, Vec<u64>, Vec<Vec<u64>>)> {
    if cases.len() < 2 {
        return None;
    }
    let mut join = None;
    let mut constants = Vec::with_capacity(cases.len());
    let mut counts = Vec::with_capacity(cases.len());
    for case in cases {
        let (block, constant, counted) = constant_target(func, *case)?;
        if join.is_some_and(|j| j != block)
            || func.dfg.block_params(block).len() != 1
            || counted.len() > MAX_COUNTS
        {
            return None;
        }
        join = Some(block);
        constants.push(constant);
        counts.push(counted);
    }
    Some((join?, constants, counts))
}

/// Follows a case through blocks that hold only constants, counts and a jump, to a jump that
/// passes one constant: the block it jumps to, the constant, and the addresses of the
/// counters the blocks on the way add one to.
fn constant_target(func: &Function, mut call: BlockCall) -> Option<(Block, u64, Vec<u64>)> {
    let mut counted = Vec::new();
    for _ in 0..MAX_HOPS {
        let block = call.block(&func.dfg.value_lists);
        let args: Vec<BlockArg> = call.args(&func.dfg.value_lists).collect();
        if let [BlockArg::Value(v)] = args.as_slice()
            && let Some(c) = constant(func, *v)
        {
            return Some((block, c, counted));
        }
        // Otherwise the block must lead on: its arguments do not matter, as it holds
        // nothing but constants, counts and a jump (whose own arguments the next hop checks).
        let mut jump = None;
        // A count: `n = load [K]; n1 = iadd n, 1; store n1, [K]`, each value used once.
        let mut loaded: Vec<(Value, u64)> = Vec::new();
        let mut added: Vec<(Value, u64)> = Vec::new();
        for inst in func.layout.block_insts(block) {
            match func.dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    ..
                } => {}
                InstructionData::Load {
                    opcode: Opcode::Load,
                    arg,
                    offset,
                    ..
                } => {
                    let v = func.dfg.first_result(inst);
                    if func.dfg.value_type(v) != types::I64 {
                        return None;
                    }
                    loaded.push((v, address(func, arg, offset.into())?));
                }
                InstructionData::Binary {
                    opcode: Opcode::Iadd,
                    args: [a, b],
                } => {
                    let i = loaded.iter().position(|(v, _)| *v == a)?;
                    if constant(func, b) != Some(1) {
                        return None;
                    }
                    let (_, at) = loaded.swap_remove(i);
                    added.push((func.dfg.first_result(inst), at));
                }
                InstructionData::Store {
                    opcode: Opcode::Store,
                    args: [value, addr],
                    offset,
                    ..
                } => {
                    let at = address(func, addr, offset.into())?;
                    let i = added.iter().position(|&(v, a)| v == value && a == at)?;
                    added.swap_remove(i);
                    counted.push(at);
                }
                InstructionData::Jump { destination, .. } => jump = Some(destination),
                _ => return None,
            }
        }
        if !loaded.is_empty() || !added.is_empty() {
            return None;
        }
        call = jump?;
    }
    None
}

/// The address `base + offset` when `base` is a constant.
fn address(func: &Function, base: Value, offset: i32) -> Option<u64> {
    constant(func, base).map(|b| b.wrapping_add(offset as i64 as u64))
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
