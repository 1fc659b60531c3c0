//! The program: modules and their declarations, and the typed trees of bodies.

use crate::types::Ty;
use crate::value::Value;
use t27_diag::{FileId, Span};
use t27_syntax::ast::{BinOp, TestKind, UnOp};

macro_rules! id {
    ($($name:ident),*) => {$(
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}
id!(ModuleId, ConstId, GlobalId, FnId, StructId, TestId, LocalId);

/// A whole checked program: every module loaded for the request, and their declarations.
#[derive(Debug, Default, Clone)]
pub struct Program {
    pub modules: Vec<Module>,
    pub consts: Vec<Const>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub structs: Vec<Struct>,
    pub tests: Vec<Test>,
}

impl Program {
    pub fn struct_name(&self, id: StructId) -> String {
        self.structs
            .get(id.index())
            .map_or_else(|| "?".to_string(), |s| s.decl.name.clone())
    }
    /// Displays a type with struct names.
    pub fn ty_name(&self, ty: &Ty) -> String {
        ty.display(&|id| self.struct_name(id)).to_string()
    }

    /// The declaration of a module-level item: its name, module, doc and spans.
    pub fn decl(&self, item: ItemRef) -> &Decl {
        match item {
            ItemRef::Const(id) => &self.consts[id.index()].decl,
            ItemRef::Global(id) => &self.globals[id.index()].decl,
            ItemRef::Fn(id) => &self.functions[id.index()].decl,
            ItemRef::Struct(id) => &self.structs[id.index()].decl,
            ItemRef::Test(id) => &self.tests[id.index()].decl,
        }
    }

    /// `fn name(a: T, b: U) -> R`, as a function is declared (without `pub`).
    pub fn signature(&self, id: FnId) -> String {
        let f = &self.functions[id.index()];
        let params: Vec<String> = f
            .params
            .iter()
            .filter_map(|p| f.body.locals.get(p.index()))
            .map(|l| format!("{}: {}", l.name, self.ty_name(&l.ty)))
            .collect();
        let ret = match &f.ret {
            Ty::Void => String::new(),
            t => format!(" -> {}", self.ty_name(t)),
        };
        format!("fn {}({}){ret}", f.decl.name, params.join(", "))
    }
}

#[derive(Debug, Clone)]
pub struct Module {
    /// The name from `module NAME;` (or the file stem when the line is missing).
    pub name: String,
    pub file: FileId,
    /// The module's path under its spec root: `["queen", "review_first"]`.
    pub path: Vec<String>,
    /// Declarations in source order.
    pub items: Vec<ItemRef>,
    /// Whether the module's file was named by the request (not only reached through `use`).
    pub requested: bool,
    /// The modules this one names in its `use` declarations.
    pub imports: Vec<ModuleId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemRef {
    Const(ConstId),
    Global(GlobalId),
    Fn(FnId),
    Struct(StructId),
    Test(TestId),
}

/// What declarations share: where they are and what they say about themselves.
#[derive(Debug, Clone)]
pub struct Decl {
    pub name: String,
    pub module: ModuleId,
    pub is_pub: bool,
    pub doc: Option<String>,
    /// The whole declaration.
    pub span: Span,
    pub name_span: Span,
}

#[derive(Debug, Clone)]
pub struct Const {
    pub decl: Decl,
    pub ty: Ty,
    pub init: Expr,
    /// The computed value; `None` when the initialiser has an error (already reported).
    pub value: Option<Value>,
}

/// A module-level `var`: set to its initial value once per module run.
#[derive(Debug, Clone)]
pub struct Global {
    pub decl: Decl,
    pub ty: Ty,
    pub init: Expr,
    pub value: Option<Value>,
}

#[derive(Debug, Clone)]
pub struct Struct {
    pub decl: Decl,
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub ty: Ty,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
    pub mutable: bool,
    pub span: Span,
}

/// A function, or the body of a test or invariant, with its locals.
#[derive(Debug, Default, Clone)]
pub struct Body {
    pub locals: Vec<Local>,
    pub block: Block,
}

#[derive(Debug, Clone)]
pub struct Function {
    pub decl: Decl,
    /// The parameters are the first locals of the body, in order.
    pub params: Vec<LocalId>,
    pub ret: Ty,
    pub body: Body,
}

#[derive(Debug, Clone)]
pub struct Test {
    pub decl: Decl,
    pub kind: TestKind,
    /// Empty but for its span (`{` to `}`): a checked program does not hold the statements of
    /// its blocks (a replay spec's million asserts); `t27_check::BlockLowerer` lowers a block
    /// again when it runs.
    pub body: Body,
    /// What the block's body refers to, each once, in source order. This and the two counts
    /// below are filled by `t27_check::check`; after `t27_check::check_declarations` they are
    /// empty, and each lowered block carries its own.
    pub reaches: Vec<ItemRef>,
    /// Asserts decided at compile time (only literals and constants).
    pub folded_asserts: u32,
    /// Asserts that run code: they call a function or read a local or a module `var`.
    pub runtime_asserts: u32,
}

#[derive(Debug, Default, Clone)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// Statements are held by the million in a large spec: an expression beside other fields is
/// boxed, so that no statement is larger than an `assert`.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `var`, `let` or `const` local. `init` of kind `Undefined` fills it as
    /// [`crate::undefined`] says (0xAA bytes).
    Let {
        local: LocalId,
        init: Expr,
    },
    /// `let (a, b) = e;`
    LetTuple {
        locals: Vec<LocalId>,
        init: Box<Expr>,
    },
    /// `place = value` or, with an operator, `place op= value`.
    Assign {
        place: Box<Expr>,
        op: Option<BinOp>,
        value: Box<Expr>,
    },
    If {
        cond: Box<Expr>,
        then: Block,
        otherwise: Block,
    },
    /// Also `for` loops: their initialiser is a statement before the loop, their step runs
    /// after the body and after every `continue`.
    While {
        cond: Box<Expr>,
        body: Block,
        step: Block,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    /// `folded` is the compile-time result of an assert on constants only.
    Assert {
        cond: Expr,
        folded: Option<bool>,
    },
    Expr(Expr),
    Block(Block),
    /// Coverage: adds one to counter `id`. Only in a program `t27-cover` instrumented (the
    /// checker never makes one; the hosts' generators never see one).
    Count(u32),
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub span: Span,
}

/// What a counted expression adds to (`ExprKind::Counted`): a counter each time it is
/// computed, or, for a `bool`, when it comes out true, when false, or one counter for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tally {
    Each(u32),
    WhenTrue(u32),
    WhenFalse(u32),
    Both { on_true: u32, on_false: u32 },
}

#[derive(Debug, Clone)]
pub struct SwitchArm {
    pub patterns: Vec<Value>,
    pub value: Expr,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A value known at compile time: a literal, or an expression of literals only.
    Lit(Value),
    Const(ConstId),
    Global(GlobalId),
    Local(LocalId),
    Call(FnId, Vec<Expr>),
    /// `.len` / `.len()` of an array, string or slice.
    Len(Box<Expr>),
    /// `s.contains(t)` on strings.
    Contains(Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A conversion to `ty`: an explicit `as`, or an implicit lossless widening.
    Cast(Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, u32),
    Array(Vec<Expr>),
    Tuple(Vec<Expr>),
    /// Field values in declaration order.
    Struct(Vec<Expr>),
    /// `&arr` of a `[N]u8`: the bytes as a slice.
    AddrOf(Box<Expr>),
    /// `&arr` passed as a `[]u8`: a writable view of the array place `arr` (a `var` local,
    /// a module `var`, or an element or field of one).
    View(Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Switch(Box<Expr>, Vec<SwitchArm>, Option<Box<Expr>>),
    /// `undefined` as the initialiser of a `var`: 0xAA bytes ([`crate::undefined`]).
    Undefined,
    /// Coverage: `value`, adding one to a counter as `tally` says. Only in a program
    /// `t27-cover` instrumented.
    Counted {
        value: Box<Expr>,
        tally: Tally,
    },
    /// Something already reported as wrong.
    Error,
}

impl Expr {
    pub fn error(span: Span) -> Expr {
        Expr {
            kind: ExprKind::Error,
            ty: Ty::Error,
            span,
        }
    }

    /// Whether the expression uses only literals and constants, so that it can be decided at
    /// compile time. Calls are never folded: the code under test must really run.
    pub fn is_constant(&self) -> bool {
        match &self.kind {
            // A counted expression must run to count.
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Call(..)
            | ExprKind::Counted { .. } => false,
            _ => {
                let mut constant = true;
                self.for_each_child(&mut |x| constant = constant && x.is_constant());
                constant
            }
        }
    }
}
