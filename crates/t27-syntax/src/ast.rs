//! The abstract syntax tree. Every node carries the byte span of its source text; nodes that
//! did not parse are `Error` variants, already reported, so later phases skip them silently.

pub use crate::literal::IntLit;
pub use smol_str::SmolStr;
use t27_diag::Span;

/// A name as written, with its span. Names are short, so `SmolStr` keeps them inline
/// without an allocation each.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: SmolStr,
    pub span: Span,
}

/// A name, or names joined by `::`. Almost every path is one name, kept inline without an
/// allocation of its own (a large share of all nodes are names).
pub type Path = smallvec::SmallVec<[Ident; 1]>;

/// One parsed file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SourceFile {
    pub module: Option<ModuleDecl>,
    pub items: Vec<Item>,
    /// Spans of the `&&` and `||` operators and of the `and` and `or` keywords, for the lint
    /// that flags a file mixing both spellings.
    pub symbolic_logic_ops: Vec<Span>,
    pub word_logic_ops: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ModuleDecl {
    /// The name with any `-` kept, e.g. `queen-task-analysis`.
    pub name: String,
    pub span: Span,
}

/// A `///` doc text: the comment lines joined with `\n`, without the slashes.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub doc: Option<Doc>,
    pub kind: ItemKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    Use(UseDecl),
    Const(GlobalDecl),
    Var(GlobalDecl),
    Fn(FnDecl),
    Test(TestDecl),
    Struct(StructDecl),
    /// A declaration that did not parse.
    Error,
}

impl ItemKind {
    /// The name the item declares in its module, if it declares one.
    pub fn name(&self) -> Option<&Ident> {
        match self {
            ItemKind::Const(g) | ItemKind::Var(g) => Some(&g.name),
            ItemKind::Fn(f) => Some(&f.name),
            ItemKind::Test(t) => Some(&t.name),
            ItemKind::Struct(s) => Some(&s.name),
            ItemKind::Use(_) | ItemKind::Error => None,
        }
    }
}

/// `use a::b::NAME;` or `use a::b;`.
#[derive(Clone, Debug, PartialEq)]
pub struct UseDecl {
    pub path: Vec<Ident>,
}

/// A module-level `const` or `var`.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalDecl {
    pub is_pub: bool,
    pub name: Ident,
    pub ty: Option<TypeExpr>,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FnDecl {
    pub is_pub: bool,
    pub name: Ident,
    pub params: Vec<Param>,
    pub ret: Option<TypeExpr>,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestKind {
    Test,
    Invariant,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TestDecl {
    pub kind: TestKind,
    pub name: Ident,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub is_pub: bool,
    pub name: Ident,
    pub fields: Vec<Param>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// A built-in type name or a struct, possibly through a module: `u32`, `Point`, `geo::Point`.
    Named(Path),
    /// `[N]T`.
    Array(Box<Expr>, Box<TypeExpr>),
    /// `[]const u8` or `[]u8`.
    Slice {
        is_const: bool,
        elem: Box<TypeExpr>,
    },
    /// `(T, U)`.
    Tuple(Vec<TypeExpr>),
    Error,
    /// A type nested deeper than [`crate::MAX_NESTING`] (`[1][1]...u32`, whose brackets close
    /// at once, so the parser's limit on open brackets does not see it); reported by the
    /// checker (E0109).
    TooDeep,
}

impl TypeExpr {
    /// A type node; one nested deeper than [`crate::MAX_NESTING`] becomes
    /// [`TypeKind::TooDeep`], so that no phase walks (or drops) a deeper tree recursively.
    pub fn new(kind: TypeKind, span: Span) -> TypeExpr {
        let t = TypeExpr { kind, span };
        if t.depth() > crate::MAX_NESTING {
            return TypeExpr {
                kind: TypeKind::TooDeep,
                span,
            };
        }
        t
    }

    /// How deeply the type nests (1 for a name). Bounded: its parts were built by
    /// [`TypeExpr::new`] too.
    pub fn depth(&self) -> u32 {
        1 + match &self.kind {
            TypeKind::Array(_, elem) | TypeKind::Slice { elem, .. } => elem.depth(),
            TypeKind::Tuple(items) => items.iter().map(TypeExpr::depth).max().unwrap_or(0),
            TypeKind::Named(_) | TypeKind::Error | TypeKind::TooDeep => 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalKind {
    Var,
    Let,
    Const,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Shl,
    Shr,
}

/// Statements are held by the million in a large spec: an expression beside other fields is
/// boxed, so that no statement is larger than an `assert`.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `var x : T = e;`, `let (a, b) = f();`
    Local {
        kind: LocalKind,
        names: Path,
        tuple: bool,
        ty: Option<Box<TypeExpr>>,
        init: Box<Expr>,
    },
    Assign {
        target: Box<Expr>,
        op: AssignOp,
        value: Box<Expr>,
    },
    If {
        cond: Box<Expr>,
        then: Block,
        otherwise: Option<Block>,
    },
    While {
        cond: Box<Expr>,
        step: Option<Box<Stmt>>,
        body: Block,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Box<Expr>>,
        step: Option<Box<Stmt>>,
        body: Block,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Assert(Expr),
    Expr(Expr),
    Block(Block),
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// How deep the tree below is, counting this node.
    pub depth: u32,
}

/// The deepest expression tree t27 builds. Deeper ones (100,000 nested parentheses, a chain of
/// 100,000 `+`) become [`ExprKind::TooDeep`], reported as E0109: every later phase walks
/// expressions recursively, and a limit keeps them all within their stack.
pub const MAX_EXPR_DEPTH: u32 = 256;

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        let depth = 1 + kind.children_depth();
        if depth > MAX_EXPR_DEPTH {
            return Expr {
                kind: ExprKind::TooDeep,
                span,
                depth: 1,
            };
        }
        Expr { kind, span, depth }
    }
}

impl ExprKind {
    fn children_depth(&self) -> u32 {
        let max = |xs: &[Expr]| xs.iter().map(|x| x.depth).max().unwrap_or(0);
        match self {
            ExprKind::Paren(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Field(x, _)
            | ExprKind::Cast(x, _)
            | ExprKind::AddrOf(x) => x.depth,
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => a.depth.max(b.depth),
            ExprKind::Call(f, args) => f.depth.max(max(args)),
            ExprKind::Array(xs) | ExprKind::Tuple(xs) => max(xs),
            ExprKind::StructLit(fields) => fields.iter().map(|(_, x)| x.depth).max().unwrap_or(0),
            ExprKind::If(c, a, b) => c.depth.max(a.depth).max(b.depth),
            ExprKind::Switch(x, arms) => arms
                .iter()
                .map(|a| {
                    a.value
                        .depth
                        .max(a.patterns.iter().map(|p| p.depth).max().unwrap_or(0))
                })
                .max()
                .unwrap_or(0)
                .max(x.depth),
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// `a op b` for a comparison operator; `None` for any other.
    pub fn compare<T: Ord>(self, a: &T, b: &T) -> Option<bool> {
        Some(match self {
            BinOp::Eq => a == b,
            BinOp::Ne => a != b,
            BinOp::Lt => a < b,
            BinOp::Le => a <= b,
            BinOp::Gt => a > b,
            BinOp::Ge => a >= b,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchArm {
    /// The values this arm matches; empty for the `else` arm.
    pub patterns: Vec<Expr>,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(IntLit),
    Float(f64),
    Str(Vec<u8>),
    Char(u8),
    Bool(bool),
    Undefined,
    /// A name or a path through modules: `x`, `review_valve::STEP_HOLD`.
    Path(Path),
    Paren(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, Ident),
    /// The type is boxed: casts are rare, and every other expression would carry its size.
    Cast(Box<Expr>, Box<TypeExpr>),
    Array(Vec<Expr>),
    Tuple(Vec<Expr>),
    StructLit(Vec<(Ident, Expr)>),
    AddrOf(Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Switch(Box<Expr>, Vec<SwitchArm>),
    /// An expression nested deeper than [`MAX_EXPR_DEPTH`]; reported by the checker (E0109).
    TooDeep,
    Error,
}
