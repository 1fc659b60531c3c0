//! The card's own helper functions: byte-string equality and `contains`, on (address,
//! length) pairs.

use crate::emit::mem;
use wasm_encoder::{BlockType, Function, Instruction as I, ValType};

/// `str_eq(p1, l1, p2, l2) -> i32`.
pub fn str_eq() -> Function {
    let mut f = Function::new_with_locals_types([ValType::I32]);
    let i = 4;
    for ins in [
        I::LocalGet(1),
        I::LocalGet(3),
        I::I32Ne,
        I::If(BlockType::Empty),
        I::I32Const(0),
        I::Return,
        I::End,
        I::Loop(BlockType::Empty),
        I::LocalGet(i),
        I::LocalGet(1),
        I::I32GeU,
        I::If(BlockType::Empty),
        I::I32Const(1),
        I::Return,
        I::End,
        I::LocalGet(0),
        I::LocalGet(i),
        I::I32Add,
        I::I32Load8U(mem(0, 0)),
        I::LocalGet(2),
        I::LocalGet(i),
        I::I32Add,
        I::I32Load8U(mem(0, 0)),
        I::I32Ne,
        I::If(BlockType::Empty),
        I::I32Const(0),
        I::Return,
        I::End,
        I::LocalGet(i),
        I::I32Const(1),
        I::I32Add,
        I::LocalSet(i),
        I::Br(0),
        I::End,
        I::Unreachable,
        I::End,
    ] {
        f.instruction(&ins);
    }
    f
}

/// `str_contains(p1, l1, p2, l2) -> i32`: whether the second string occurs in the first
/// (the empty string occurs in every string).
pub fn str_contains(str_eq: u32) -> Function {
    let mut f = Function::new_with_locals_types([ValType::I32]);
    let i = 4;
    for ins in [
        I::LocalGet(3),
        I::I32Eqz,
        I::If(BlockType::Empty),
        I::I32Const(1),
        I::Return,
        I::End,
        I::Loop(BlockType::Empty),
        // i + l2 > l1: no room left.
        I::LocalGet(i),
        I::LocalGet(3),
        I::I32Add,
        I::LocalGet(1),
        I::I32GtU,
        I::If(BlockType::Empty),
        I::I32Const(0),
        I::Return,
        I::End,
        I::LocalGet(0),
        I::LocalGet(i),
        I::I32Add,
        I::LocalGet(3),
        I::LocalGet(2),
        I::LocalGet(3),
        I::Call(str_eq),
        I::If(BlockType::Empty),
        I::I32Const(1),
        I::Return,
        I::End,
        I::LocalGet(i),
        I::I32Const(1),
        I::I32Add,
        I::LocalSet(i),
        I::Br(0),
        I::End,
        I::Unreachable,
        I::End,
    ] {
        f.instruction(&ins);
    }
    f
}
