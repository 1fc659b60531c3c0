//! A body's statements on the fast pass, by hand, straight from its tokens.
//!
//! A body taken whole before parsing (`skip.rs`) is read again when it is lowered: for a large
//! spec that is most of the parsing, and chumsky's statement parser, with the expression
//! parser reading through chumsky's input, most of that. This reads what `stmt.rs` reads, from
//! the token slice, and builds the same tree; where it is not sure, it gives up (`None`) and
//! chumsky reads the body as before. So it has no errors and no recovery: any statement that
//! is not exactly well formed makes it give up (`hand_tests.rs` holds it to chumsky on every
//! body of every fixture and seed, and on mutated copies of them).
//!
//! Statements are told apart by their first token, as chumsky's `choice` does in effect:
//! `var`/`let`/`const` a local, `assert`/`return`/`break`/`continue`, `if`, `while`, `for`, `{`
//! a block, `///` a stray doc comment, anything else an expression or an assignment. Where
//! chumsky would go on to try another alternative after one fails, this gives up instead.

use super::climb::{Tokens, climb, eat, name, path, separated};
use crate::ast::*;
use crate::literal;
use crate::token::Token;
use chumsky::span::SimpleSpan;
use t27_diag::Span;

/// A body's tokens as the expression parser reads them.
pub(crate) struct Slice<'a, 's> {
    tokens: &'a [(Token<'s>, SimpleSpan)],
    at: usize,
    /// Where the input ends (chumsky's end-of-input span).
    eoi: usize,
}

impl<'s> Tokens<'s> for Slice<'_, 's> {
    type Mark = usize;
    type Pos = usize;
    fn peek(&mut self) -> Option<Token<'s>> {
        self.tokens.get(self.at).map(|(t, _)| *t)
    }
    fn skip(&mut self) {
        if self.at < self.tokens.len() {
            self.at += 1;
        }
    }
    fn save(&mut self) -> usize {
        self.at
    }
    fn rewind(&mut self, mark: usize) {
        self.at = mark;
    }
    fn pos(&mut self) -> usize {
        self.at
    }
    /// As chumsky's mapped input gives it: from the start of the token at `from` (the end of
    /// the input past the last) to the end of the last token taken.
    fn span_since(&mut self, from: &usize) -> Span {
        let start = self.tokens.get(*from).map_or(self.eoi, |(_, s)| s.start);
        let end = match self.at {
            0 => self.eoi,
            at => self.tokens[at - 1].1.end,
        };
        Span::new(start, end)
    }
    /// (Where it fails, the caller goes back to before the `as`, as with chumsky's input.)
    fn cast_type(&mut self) -> Option<TypeExpr> {
        type_expr(self, 0)
    }
}

/// The deepest type read by hand; a deeper one is left to chumsky. (A file nested deeper than
/// [`crate::MAX_NESTING`] is not parsed at all.)
const MAX_TYPE_DEPTH: usize = crate::MAX_NESTING as usize;

/// A type as `expr::type_expr` reads it: `[]T`, `[]const T`, `[N]T`, a path, a tuple.
fn type_expr(inp: &mut Slice<'_, '_>, depth: usize) -> Option<TypeExpr> {
    if depth > MAX_TYPE_DEPTH {
        return None;
    }
    let start = inp.pos();
    let kind = match inp.peek()? {
        Token::LBracket => {
            inp.skip();
            if eat(inp, Token::RBracket).is_some() {
                let is_const = eat(inp, Token::Const).is_some();
                let elem = type_expr(inp, depth + 1)?;
                TypeKind::Slice {
                    is_const,
                    elem: Box::new(elem),
                }
            } else {
                let at = inp.pos();
                let length = match inp.peek()? {
                    Token::Int(t) => {
                        inp.skip();
                        ExprKind::Int(literal::int_value(t))
                    }
                    _ => ExprKind::Path(path(inp)?),
                };
                let length = Expr::new(length, inp.span_since(&at));
                eat(inp, Token::RBracket)?;
                let elem = type_expr(inp, depth + 1)?;
                TypeKind::Array(Box::new(length), Box::new(elem))
            }
        }
        Token::LParen => {
            inp.skip();
            let mut items = Vec::new();
            separated(inp, true, |inp| {
                type_expr(inp, depth + 1).map(|t| items.push(t))
            });
            eat(inp, Token::RParen)?;
            TypeKind::Tuple(items)
        }
        _ => TypeKind::Named(path(inp)?),
    };
    Some(TypeExpr::new(kind, inp.span_since(&start)))
}

/// The `{ ... }` block that `tokens` are, read by hand; `None` when this parser is not sure.
pub(crate) fn block(src_end: usize, tokens: &[(Token<'_>, SimpleSpan)]) -> Option<Block> {
    let mut inp = Slice {
        tokens,
        at: 0,
        eoi: src_end,
    };
    let block = read_block(&mut inp, 0)?;
    (inp.at == tokens.len()).then_some(block)
}

/// The deepest nesting of bodies read by hand: blocks in blocks, and `else if` chains, each of
/// which the scan of a file allows [`crate::MAX_NESTING`] of.
const MAX_BLOCK_DEPTH: usize = 2 * crate::MAX_NESTING as usize;

fn read_block(inp: &mut Slice<'_, '_>, depth: usize) -> Option<Block> {
    if depth > MAX_BLOCK_DEPTH {
        return None;
    }
    let start = inp.pos();
    eat(inp, Token::LBrace)?;
    let mut stmts = Vec::new();
    while inp.peek()? != Token::RBrace {
        stmts.push(statement(inp, depth)?);
    }
    inp.skip();
    stmts.shrink_to_fit();
    Some(Block {
        stmts,
        span: inp.span_since(&start),
    })
}

fn statement(inp: &mut Slice<'_, '_>, depth: usize) -> Option<Stmt> {
    let start = inp.pos();
    let kind = match inp.peek()? {
        Token::Var | Token::Let | Token::Const => return terminated(inp, local),
        Token::Assert | Token::Return | Token::Break | Token::Continue => {
            return terminated(inp, keyword);
        }
        Token::If => {
            inp.skip();
            let cond = climb(inp, i32::MIN)?;
            let then = body(inp, depth)?;
            let otherwise = match eat(inp, Token::Else) {
                Some(()) => Some(body(inp, depth)?),
                None => None,
            };
            StmtKind::If {
                cond: Box::new(cond),
                then,
                otherwise,
            }
        }
        Token::While => {
            inp.skip();
            let cond = climb(inp, i32::MIN)?;
            let step = match eat(inp, Token::Colon) {
                Some(()) => {
                    eat(inp, Token::LParen)?;
                    let step = simple(inp)?;
                    eat(inp, Token::RParen)?;
                    Some(Box::new(step))
                }
                None => None,
            };
            let body = body(inp, depth)?;
            StmtKind::While {
                cond: Box::new(cond),
                step,
                body,
            }
        }
        Token::For => {
            inp.skip();
            eat(inp, Token::LParen)?;
            let init = unless(inp, Token::Semi, simple)?;
            eat(inp, Token::Semi)?;
            let cond = unless(inp, Token::Semi, |inp| climb(inp, i32::MIN))?;
            eat(inp, Token::Semi)?;
            let step = unless(inp, Token::RParen, simple)?;
            eat(inp, Token::RParen)?;
            let body = body(inp, depth)?;
            StmtKind::For {
                init: init.map(Box::new),
                cond: cond.map(Box::new),
                step: step.map(Box::new),
                body,
            }
        }
        Token::LBrace => {
            let b = read_block(inp, depth + 1)?;
            return Some(Stmt {
                span: b.span,
                kind: StmtKind::Block(b),
            });
        }
        Token::DocComment(_) => {
            inp.skip();
            StmtKind::Block(Block {
                stmts: Vec::new(),
                span: inp.span_since(&start),
            })
        }
        _ => return terminated(inp, assign_or_expr),
    };
    Some(Stmt {
        kind,
        span: inp.span_since(&start),
    })
}

/// What `read` reads, unless the next token is `end` (then nothing is read, and `Some(None)`).
fn unless<'s, T>(
    inp: &mut Slice<'_, 's>,
    end: Token<'s>,
    read: impl FnOnce(&mut Slice<'_, 's>) -> Option<T>,
) -> Option<Option<T>> {
    if inp.peek()? == end {
        Some(None)
    } else {
        read(inp).map(Some)
    }
}

/// A statement that ends with `;`: its span stops before the `;`.
fn terminated<'a, 's>(
    inp: &mut Slice<'a, 's>,
    read: impl FnOnce(&mut Slice<'a, 's>) -> Option<StmtKind>,
) -> Option<Stmt> {
    let start = inp.pos();
    let kind = read(inp)?;
    let span = inp.span_since(&start);
    eat(inp, Token::Semi)?;
    Some(Stmt { kind, span })
}

/// The body of an `if`, `while` or `for`: a block, or one statement.
fn body(inp: &mut Slice<'_, '_>, depth: usize) -> Option<Block> {
    if inp.peek()? == Token::LBrace {
        return read_block(inp, depth + 1);
    }
    let s = statement(inp, depth + 1)?;
    Some(Block {
        span: s.span,
        stmts: vec![s],
    })
}

/// A local or an assignment or expression, as in a `for (...)` header: without its `;`.
fn simple(inp: &mut Slice<'_, '_>) -> Option<Stmt> {
    let start = inp.pos();
    let kind = match inp.peek()? {
        Token::Var | Token::Let | Token::Const => local(inp)?,
        _ => assign_or_expr(inp)?,
    };
    Some(Stmt {
        kind,
        span: inp.span_since(&start),
    })
}

fn local(inp: &mut Slice<'_, '_>) -> Option<StmtKind> {
    let kind = match inp.peek()? {
        Token::Var => LocalKind::Var,
        Token::Let => LocalKind::Let,
        Token::Const => LocalKind::Const,
        _ => return None,
    };
    inp.skip();
    let (names, tuple) = match inp.peek()? {
        Token::Ident(_) => (Path::from_buf([name(inp)?]), false),
        Token::LParen => {
            inp.skip();
            let mut names = Vec::new();
            separated(inp, true, |inp| name(inp).map(|n| names.push(n)));
            if names.is_empty() {
                return None;
            }
            eat(inp, Token::RParen)?;
            (Path::from_vec(names), true)
        }
        _ => return None,
    };
    let ty = match eat(inp, Token::Colon) {
        Some(()) => Some(Box::new(type_expr(inp, 0)?)),
        None => None,
    };
    eat(inp, Token::Eq)?;
    let init = climb(inp, i32::MIN)?;
    Some(StmtKind::Local {
        kind,
        names,
        tuple,
        ty,
        init: Box::new(init),
    })
}

fn keyword(inp: &mut Slice<'_, '_>) -> Option<StmtKind> {
    let first = inp.peek()?;
    inp.skip();
    Some(match first {
        Token::Assert => StmtKind::Assert(climb(inp, i32::MIN)?),
        Token::Return => StmtKind::Return(unless(inp, Token::Semi, |inp| climb(inp, i32::MIN))?),
        Token::Break => StmtKind::Break,
        Token::Continue => StmtKind::Continue,
        _ => return None,
    })
}

fn assign_or_expr(inp: &mut Slice<'_, '_>) -> Option<StmtKind> {
    let target = climb(inp, i32::MIN)?;
    let op = match inp.peek() {
        Some(Token::Eq) => AssignOp::Set,
        Some(Token::PlusEq) => AssignOp::Add,
        Some(Token::MinusEq) => AssignOp::Sub,
        Some(Token::StarEq) => AssignOp::Mul,
        Some(Token::ShlEq) => AssignOp::Shl,
        Some(Token::ShrEq) => AssignOp::Shr,
        _ => return Some(StmtKind::Expr(target)),
    };
    inp.skip();
    let value = climb(inp, i32::MIN)?;
    Some(StmtKind::Assign {
        target: Box::new(target),
        op,
        value: Box::new(value),
    })
}
