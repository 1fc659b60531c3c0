//! Expressions on the fast pass, by hand: precedence climbing over the token stream.
//!
//! Chumsky's pratt parser was a quarter of the time of checking a large spec. This parser reads
//! exactly what [`super::expr::chumsky_expr`] reads and builds exactly the same tree (the
//! `fast_expressions` tests hold it to that on every fixture and on mutated copies of them);
//! it has no error messages, because the fast pass has none: a file it cannot read is read
//! again by the chumsky parser with rich errors. Where the two could differ, this one must fail:
//! a failure here only costs the rich pass, a success that chumsky would not give would be a
//! wrong tree.
//!
//! It reads from a [`Tokens`]: chumsky's input, inside a declaration, or a body's tokens
//! themselves (`hand.rs`, which reads a body's statements by hand too).
//!
//! The binding powers are chumsky's (`pratt.rs`): an infix operator of precedence `p` binds at
//! `2p` on its left and `2p + 1` on its right, so every operator is left-associative; a prefix
//! operator's operand is parsed at 20, above every infix operator (so `-a * b` is `(-a) * b`)
//! and below the postfix ones (so `-a.b` is `-(a.b)`); postfix operators (calls, indexing,
//! fields, casts) bind tightest of all. A node's span runs from its first token to its last.

use super::{SyntaxErr, TokenInput, span};
use crate::ast::*;
use crate::literal;
use crate::token::Token;
use chumsky::input::{Checkpoint, Cursor, Input, InputRef};
use chumsky::prelude::*;
use t27_diag::Span;

type Inp<'t, 'p, I, E> = InputRef<'t, 'p, I, extra::Err<E>>;

/// Where the expression parser reads its tokens from.
pub(crate) trait Tokens<'s> {
    /// A place to go back to.
    type Mark;
    /// Where a node starts, for its span.
    type Pos;
    fn peek(&mut self) -> Option<Token<'s>>;
    fn skip(&mut self);
    fn save(&mut self) -> Self::Mark;
    fn rewind(&mut self, mark: Self::Mark);
    fn pos(&mut self) -> Self::Pos;
    /// From the first token at `from` to the last one taken.
    fn span_since(&mut self, from: &Self::Pos) -> Span;
    /// The type after `as`.
    fn cast_type(&mut self) -> Option<TypeExpr>;
}

/// Chumsky's input, with the type parser a cast uses.
struct InChumsky<'a, 't, 'p, I: Input<'t>, E: chumsky::error::Error<'t, I>, T> {
    inp: &'a mut Inp<'t, 'p, I, E>,
    ty: &'a T,
}

impl<'t, 's: 't, 'p, I, E, T> Tokens<'s> for InChumsky<'_, 't, 'p, I, E, T>
where
    I: TokenInput<'t, 's>,
    E: SyntaxErr<'t, 's, I>,
    T: Parser<'t, I, TypeExpr, extra::Err<E>>,
{
    type Mark = Checkpoint<'t, 'p, I, ()>;
    type Pos = Cursor<'t, 'p, I>;
    fn peek(&mut self) -> Option<Token<'s>> {
        self.inp.peek()
    }
    fn skip(&mut self) {
        self.inp.skip()
    }
    fn save(&mut self) -> Self::Mark {
        self.inp.save()
    }
    fn rewind(&mut self, mark: Self::Mark) {
        self.inp.rewind(mark)
    }
    fn pos(&mut self) -> Self::Pos {
        self.inp.cursor()
    }
    fn span_since(&mut self, from: &Self::Pos) -> Span {
        span(self.inp.span_since(from))
    }
    fn cast_type(&mut self) -> Option<TypeExpr> {
        self.inp.parse(self.ty).ok()
    }
}

/// The expression parser of the fast pass; `ty` parses the type of a cast.
pub(crate) fn expr<'t, 's: 't, I, E, T>(ty: T) -> impl Parser<'t, I, Expr, extra::Err<E>> + Clone
where
    I: TokenInput<'t, 's>,
    E: SyntaxErr<'t, 's, I>,
    T: Parser<'t, I, TypeExpr, extra::Err<E>> + Clone,
{
    custom(move |inp: &mut Inp<'t, '_, I, E>| {
        let before = inp.save();
        let parsed = climb(
            &mut InChumsky {
                inp: &mut *inp,
                ty: &ty,
            },
            i32::MIN,
        );
        match parsed {
            Some(e) => Ok(e),
            None => {
                inp.rewind(before);
                let here = inp.span_since(&inp.cursor());
                Err(E::custom(here, String::new()))
            }
        }
    })
}

/// An infix operator: its precedence (chumsky's `left(p)`) and meaning.
fn infix(t: Option<Token<'_>>) -> Option<(i32, BinOp)> {
    Some(match t? {
        Token::Star => (9, BinOp::Mul),
        Token::Slash => (9, BinOp::Div),
        Token::Percent => (9, BinOp::Rem),
        Token::Plus => (8, BinOp::Add),
        Token::Minus => (8, BinOp::Sub),
        Token::Shl => (7, BinOp::Shl),
        Token::Shr => (7, BinOp::Shr),
        Token::Amp => (6, BinOp::BitAnd),
        Token::Caret => (5, BinOp::BitXor),
        Token::Pipe => (4, BinOp::BitOr),
        Token::EqEq => (3, BinOp::Eq),
        Token::NotEq => (3, BinOp::Ne),
        Token::Lt => (3, BinOp::Lt),
        Token::Le => (3, BinOp::Le),
        Token::Gt => (3, BinOp::Gt),
        Token::Ge => (3, BinOp::Ge),
        Token::And | Token::AmpAmp => (2, BinOp::And),
        Token::Or | Token::PipePipe => (1, BinOp::Or),
        _ => return None,
    })
}

/// A prefix operator: `Some(op)`, or `None` for `&` (a view).
fn prefix(t: Option<Token<'_>>) -> Option<Option<UnOp>> {
    match t? {
        Token::Bang => Some(Some(UnOp::Not)),
        Token::Minus => Some(Some(UnOp::Neg)),
        Token::Amp => Some(None),
        _ => None,
    }
}

fn node<'s, C: Tokens<'s>>(inp: &mut C, from: &C::Pos, kind: ExprKind) -> Expr {
    let at = inp.span_since(from);
    Expr::new(kind, at)
}

/// The next token, taken if it is `t`.
pub(crate) fn eat<'s, C: Tokens<'s>>(inp: &mut C, t: Token<'s>) -> Option<()> {
    (inp.peek()? == t).then(|| inp.skip())
}

/// An expression whose operators all bind at `min` or tighter.
pub(crate) fn climb<'s, C: Tokens<'s>>(inp: &mut C, min: i32) -> Option<Expr> {
    let start = inp.pos();
    let mut lhs = unary(inp)?;
    // A postfix operator after an operand was taken by the operand itself (postfix binds
    // tightest), so only infix operators can follow here.
    while let Some((precedence, op)) = infix(inp.peek()) {
        let left_power = 2 * precedence;
        if left_power < min {
            break;
        }
        let before_op = inp.save();
        inp.skip();
        match climb(inp, left_power + 1) {
            Some(rhs) => {
                lhs = node(
                    inp,
                    &start,
                    ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                )
            }
            None => {
                // As chumsky does: the expression ends before an operator without an operand.
                inp.rewind(before_op);
                break;
            }
        }
    }
    Some(lhs)
}

/// Prefix operators (in a loop, however many), an atom, and its postfix operators: a prefix
/// operator's operand binds at 20, tighter than every infix operator.
fn unary<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Expr> {
    let mut prefixes = Vec::new();
    while let Some(op) = prefix(inp.peek()) {
        prefixes.push((op, inp.pos()));
        inp.skip();
    }
    let start = inp.pos();
    let atom = atom(inp)?;
    let mut e = postfixes(inp, &start, atom);
    for (op, at) in prefixes.into_iter().rev() {
        let kind = match op {
            Some(op) => ExprKind::Unary(op, Box::new(e)),
            None => ExprKind::AddrOf(Box::new(e)),
        };
        e = node(inp, &at, kind);
    }
    Some(e)
}

/// Calls, indexing, fields and casts after `e`, which began at `start`.
fn postfixes<'s, C: Tokens<'s>>(inp: &mut C, start: &C::Pos, mut e: Expr) -> Expr {
    loop {
        let before = inp.save();
        let Some(next) = inp.peek() else {
            return e;
        };
        inp.skip();
        let op = match next {
            Token::LParen => items(inp, Token::RParen).map(Postfix::Call),
            Token::LBracket => climb(inp, i32::MIN)
                .and_then(|i| eat(inp, Token::RBracket).map(|()| Postfix::Index(i))),
            Token::Dot => name(inp).map(Postfix::Field),
            Token::As => inp.cast_type().map(Postfix::Cast),
            _ => None,
        };
        let Some(op) = op else {
            inp.rewind(before);
            return e;
        };
        let kind = match op {
            Postfix::Call(args) => ExprKind::Call(Box::new(e), args),
            Postfix::Index(i) => ExprKind::Index(Box::new(e), Box::new(i)),
            Postfix::Field(f) => ExprKind::Field(Box::new(e), f),
            Postfix::Cast(t) => ExprKind::Cast(Box::new(e), Box::new(t)),
        };
        e = node(inp, start, kind);
    }
}

enum Postfix {
    Call(Vec<Expr>),
    Index(Expr),
    Field(Ident),
    Cast(TypeExpr),
}

pub(crate) fn name<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Ident> {
    let at = inp.pos();
    let Some(Token::Ident(text)) = inp.peek() else {
        return None;
    };
    inp.skip();
    Some(Ident {
        name: SmolStr::new(text),
        span: inp.span_since(&at),
    })
}

/// `a` or `a::b::c`; a `::` not followed by a name is left where it is, as chumsky's `path`
/// leaves it.
pub(crate) fn path<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Path> {
    let mut path = Path::from_buf([name(inp)?]);
    loop {
        let before = inp.save();
        if eat(inp, Token::ColonColon).is_none() {
            break;
        }
        match name(inp) {
            Some(next) => path.push(next),
            None => {
                inp.rewind(before);
                break;
            }
        }
    }
    Some(path)
}

/// A literal, a path, `(...)`, `[...]`, `{ field: ... }`, `if` or `switch`.
fn atom<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Expr> {
    let start = inp.pos();
    let first = inp.peek()?;
    let kind = match first {
        Token::Ident(_) => ExprKind::Path(path(inp)?),
        Token::LParen => {
            inp.skip();
            let mut items = items(inp, Token::RParen)?;
            match items.len() {
                1 => items
                    .pop()
                    .map_or(ExprKind::Error, |only| ExprKind::Paren(Box::new(only))),
                _ => ExprKind::Tuple(items),
            }
        }
        Token::LBracket => {
            inp.skip();
            ExprKind::Array(items(inp, Token::RBracket)?)
        }
        Token::LBrace => {
            inp.skip();
            ExprKind::StructLit(fields(inp)?)
        }
        Token::If => {
            inp.skip();
            let c = condition(inp)?;
            let a = climb(inp, i32::MIN)?;
            eat(inp, Token::Else)?;
            let b = climb(inp, i32::MIN)?;
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Token::Switch => {
            inp.skip();
            let x = condition(inp)?;
            eat(inp, Token::LBrace)?;
            let arms = arms(inp)?;
            ExprKind::Switch(Box::new(x), arms)
        }
        literal => {
            let kind = match literal {
                Token::Int(t) => ExprKind::Int(literal::int_value(t)),
                Token::Float(t) => ExprKind::Float(literal::float_value(t)),
                Token::Str(t) => ExprKind::Str(literal::unescape(&t[1..t.len() - 1])),
                Token::Char(t) => ExprKind::Char(
                    literal::unescape(&t[1..t.len() - 1])
                        .first()
                        .copied()
                        .unwrap_or(0),
                ),
                Token::True => ExprKind::Bool(true),
                Token::False => ExprKind::Bool(false),
                Token::Undefined => ExprKind::Undefined,
                Token::Error => ExprKind::Error,
                _ => return None,
            };
            inp.skip();
            kind
        }
    };
    Some(node(inp, &start, kind))
}

/// `(expr)`, as after `if` and `switch`.
fn condition<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Expr> {
    eat(inp, Token::LParen)?;
    let c = climb(inp, i32::MIN)?;
    eat(inp, Token::RParen)?;
    Some(c)
}

/// Comma-separated expressions (a trailing comma allowed) up to `close`, which is taken.
fn items<'s, C: Tokens<'s>>(inp: &mut C, close: Token<'s>) -> Option<Vec<Expr>> {
    let mut out = Vec::new();
    separated(inp, true, |inp| climb(inp, i32::MIN).map(|e| out.push(e)));
    eat(inp, close)?;
    Some(out)
}

/// `name: expr` fields (a trailing comma allowed) up to the closing `}`, which is taken.
fn fields<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Vec<(Ident, Expr)>> {
    let mut out = Vec::new();
    separated(inp, true, |inp| {
        let field = name(inp)?;
        eat(inp, Token::Colon)?;
        let value = climb(inp, i32::MIN)?;
        out.push((field, value));
        Some(())
    });
    eat(inp, Token::RBrace)?;
    Some(out)
}

/// A switch's arms up to its closing `}`, which is taken.
fn arms<'s, C: Tokens<'s>>(inp: &mut C) -> Option<Vec<SwitchArm>> {
    let mut out = Vec::new();
    separated(inp, true, |inp| {
        let start = inp.pos();
        let mut patterns = Vec::new();
        if eat(inp, Token::Else).is_none() {
            // At least one pattern, no trailing comma.
            let mut count = 0;
            separated(inp, false, |inp| {
                climb(inp, i32::MIN).map(|p| {
                    count += 1;
                    patterns.push(p)
                })
            });
            if count == 0 {
                return None;
            }
        }
        eat(inp, Token::FatArrow)?;
        let value = climb(inp, i32::MIN)?;
        let at = inp.span_since(&start);
        out.push(SwitchArm {
            patterns,
            value,
            span: at,
        });
        Some(())
    });
    eat(inp, Token::RBrace)?;
    Some(out)
}

/// Items separated by commas, as chumsky's `separated_by` reads them: as many as there are;
/// an item that fails leaves the input where it was before it (and before its comma, unless
/// a trailing comma is allowed).
pub(crate) fn separated<'s, C: Tokens<'s>>(
    inp: &mut C,
    allow_trailing: bool,
    mut item: impl FnMut(&mut C) -> Option<()>,
) {
    let mut count = 0;
    loop {
        let before_separator = inp.save();
        if count > 0 && eat(inp, Token::Comma).is_none() {
            inp.rewind(before_separator);
            return;
        }
        let before_item = inp.save();
        if item(inp).is_none() {
            inp.rewind(if allow_trailing {
                before_item
            } else {
                before_separator
            });
            return;
        }
        count += 1;
    }
}
