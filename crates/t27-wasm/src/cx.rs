//! What the functions of one card share while they are emitted: the function and global
//! indexes, the function types, the data, and the places a trap or a failed assert names.

use crate::data::{BASE, Data, int64};
use crate::repr::Repr;
use std::collections::HashMap;
use t27_diag::Span;
use t27_ir::{FnId, GlobalId, ModuleId, Program, Ty, Value};
use wasm_encoder::{ConstExpr, ValType};

/// The call stack's size, when a card keeps arrays in memory: the engines nest 10,000 calls.
pub const STACK_SIZE: u32 = 1 << 20;

/// The globals every card has, by index.
pub const G_TRAP_KIND: u32 = 0;
pub const G_TRAP_SITE: u32 = 1;
pub const G_DEPTH: u32 = 2;
/// A failed assert's two sides: integers and bools as i64, floats, and strings' address
/// and length.
pub const G_LEFT_INT: u32 = 3;
pub const G_RIGHT_INT: u32 = 4;
pub const G_LEFT_F64: u32 = 5;
pub const G_RIGHT_F64: u32 = 6;
pub const G_LEFT_PTR: u32 = 7;
pub const G_LEFT_LEN: u32 = 8;
pub const G_RIGHT_PTR: u32 = 9;
pub const G_RIGHT_LEN: u32 = 10;
pub const FIXED_GLOBALS: u32 = 11;

/// Trap kind codes, as `t27_trap_kind()` answers: 0 while nothing trapped, then
/// `TrapKind::ALL` in order from 1, then these two.
pub const KIND_ASSERT: i32 = 7;
pub const KIND_BAD_ARGUMENT: i32 = 8;

pub fn kind_code(k: t27_ir::TrapKind) -> i32 {
    t27_ir::TrapKind::ALL
        .iter()
        .position(|x| *x == k)
        .map_or(0, |i| i as i32 + 1)
}

/// A place a trap or an assert names: its module, span and, for an assert of a comparison,
/// the types of both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    pub module: ModuleId,
    pub span: Span,
    pub sides: Option<(Ty, Ty)>,
}

pub struct Cx<'p> {
    pub p: &'p Program,
    pub data: Data,
    pub types: Vec<(Vec<ValType>, Vec<ValType>)>,
    type_index: HashMap<(Vec<ValType>, Vec<ValType>), u32>,
    /// The wasm index of each spec function the card holds.
    pub fn_index: HashMap<FnId, u32>,
    /// Module `var`s: the first of their wasm globals (two for a string), by id.
    pub globals: HashMap<GlobalId, u32>,
    /// Every global past the fixed ones: its type and initial value.
    pub global_inits: Vec<(ValType, ConstExpr)>,
    /// The module `var`s in the order they were given globals, for `t27_reset`.
    pub var_order: Vec<GlobalId>,
    pub sites: Vec<Site>,
    site_index: HashMap<(ModuleId, u32, u32, bool), u32>,
    /// Per function: whether it calls none (the depth limit does not apply to it).
    pub leaf: Vec<bool>,
    /// The index of the runtime's `str_eq` (`str_contains` is the next): right after the
    /// spec functions, and in the card only when something compares or searches strings.
    pub helpers: u32,
    pub uses_strings: bool,
    /// Whether a false assert records both sides (a test card's report shows them; a card's
    /// host only asks the kind and place).
    pub record_sides: bool,
    /// The stack pointer's global, when the card has a stack.
    pub sp: Option<u32>,
    /// Module `var` arrays: their live and initial copies in the data.
    pub global_arrays: HashMap<GlobalId, (u32, u32)>,
}

impl<'p> Cx<'p> {
    /// A card's context; `test` for a test card, `stack` when its code keeps arrays in
    /// memory (a call stack of [`STACK_SIZE`] bytes then sits below the data).
    pub fn new(p: &'p Program, test: bool, stack: bool) -> Cx<'p> {
        let base = if stack { BASE + STACK_SIZE } else { BASE };
        let mut cx = Cx {
            p,
            data: Data::new(base),
            types: Vec::new(),
            type_index: HashMap::new(),
            fn_index: HashMap::new(),
            globals: HashMap::new(),
            global_inits: Vec::new(),
            var_order: Vec::new(),
            sites: Vec::new(),
            site_index: HashMap::new(),
            leaf: p
                .functions
                .iter()
                .map(|f| !f.body.block.makes_calls())
                .collect(),
            helpers: 0,
            uses_strings: false,
            record_sides: test,
            sp: None,
            global_arrays: HashMap::new(),
        };
        if stack {
            // The stack pointer: the first global past the fixed ones, starting at the top.
            cx.sp = Some(cx.fixed_globals());
            cx.global_inits.push((
                ValType::I32,
                ConstExpr::i32_const((BASE + STACK_SIZE) as i32),
            ));
        }
        cx
    }

    /// The stack's top, where the stack pointer starts each call from the host.
    pub fn stack_top(&self) -> u32 {
        BASE + STACK_SIZE
    }

    /// Where module `var` array `g` lives (its current value) and its initial value (what
    /// `t27_reset` copies back), both in the data.
    pub fn global_array(&mut self, g: GlobalId) -> Result<(u32, u32), String> {
        if let Some(&at) = self.global_arrays.get(&g) {
            return Ok(at);
        }
        let decl = &self.p.globals[g.index()];
        let live = self.data.value(&decl.ty, decl.value.as_ref())?;
        let initial = self.data.value(&decl.ty, decl.value.as_ref())?;
        self.global_arrays.insert(g, (live, initial));
        self.var_order.push(g);
        Ok((live, initial))
    }

    /// How many of the fixed globals the card has: the sides of a failed assert only in a
    /// test card.
    pub fn fixed_globals(&self) -> u32 {
        if self.record_sides {
            FIXED_GLOBALS
        } else {
            G_LEFT_INT
        }
    }

    pub fn str_eq(&mut self) -> u32 {
        self.uses_strings = true;
        self.helpers
    }

    pub fn str_contains(&mut self) -> u32 {
        self.uses_strings = true;
        self.helpers + 1
    }

    pub fn ty(&mut self, params: &[ValType], results: &[ValType]) -> u32 {
        let key = (params.to_vec(), results.to_vec());
        if let Some(&i) = self.type_index.get(&key) {
            return i;
        }
        let i = self.types.len() as u32;
        self.types.push(key.clone());
        self.type_index.insert(key, i);
        i
    }

    pub fn site(&mut self, module: ModuleId, span: Span, sides: Option<(Ty, Ty)>) -> u32 {
        let key = (module, span.start, span.end, sides.is_some());
        if let Some(&i) = self.site_index.get(&key) {
            return i;
        }
        let i = self.sites.len() as u32;
        self.sites.push(Site {
            module,
            span,
            sides,
        });
        self.site_index.insert(key, i);
        i
    }

    /// The first wasm global of module `var` `g`, made the first time.
    pub fn global(&mut self, g: GlobalId) -> Result<u32, String> {
        if let Some(&i) = self.globals.get(&g) {
            return Ok(i);
        }
        let decl = &self.p.globals[g.index()];
        let repr = Repr::of(&decl.ty).map_err(|why| format!("module `var`s of {why}"))?;
        let first = self.fixed_globals() + self.global_inits.len() as u32;
        for (val, init) in self.init_of(repr, decl.value.as_ref())? {
            self.global_inits.push((val, init));
        }
        self.globals.insert(g, first);
        self.var_order.push(g);
        Ok(first)
    }

    /// The constant expressions a module `var` of `repr` starts at (zero without a value).
    pub fn init_of(
        &mut self,
        repr: Repr,
        value: Option<&Value>,
    ) -> Result<Vec<(ValType, ConstExpr)>, String> {
        Ok(match (repr, value) {
            (Repr::I32, None) => vec![(ValType::I32, ConstExpr::i32_const(0))],
            (Repr::I64, None) => vec![(ValType::I64, ConstExpr::i64_const(0))],
            (Repr::F64, None) => vec![(ValType::F64, ConstExpr::f64_const(0.0.into()))],
            (Repr::Str, None) => vec![
                (ValType::I32, ConstExpr::i32_const(0)),
                (ValType::I32, ConstExpr::i32_const(0)),
            ],
            (Repr::I32, Some(Value::Bool(b))) => {
                vec![(ValType::I32, ConstExpr::i32_const(*b as i32))]
            }
            (Repr::I32, Some(Value::Int(n))) => {
                vec![(ValType::I32, ConstExpr::i32_const(int64(n)? as i32))]
            }
            (Repr::I64, Some(Value::Int(n))) => {
                vec![(ValType::I64, ConstExpr::i64_const(int64(n)?))]
            }
            (Repr::F64, Some(Value::F64(x))) => {
                vec![(ValType::F64, ConstExpr::f64_const((*x).into()))]
            }
            (Repr::Str, Some(Value::Str(s))) => {
                let at = self.data.string(s);
                vec![
                    (ValType::I32, ConstExpr::i32_const(at as i32)),
                    (ValType::I32, ConstExpr::i32_const(s.len() as i32)),
                ]
            }
            _ => return Err("a module `var` of this kind".into()),
        })
    }
}
