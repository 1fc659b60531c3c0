//! Statements and blocks, with the recovery that lets one bad statement leave its block intact.

use super::{SyntaxErr, TokenInput, coded, ident, span};
use crate::ast::*;
use crate::parser::expr::type_expr;
use crate::token::Token;
use chumsky::prelude::*;

/// Requires a `;` after `p`; a missing one is reported (E0101) just after the statement and
/// parsing carries on as if it were there.
pub(crate) fn terminated<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>, O>(
    p: impl Parser<'t, I, O, extra::Err<E>> + Clone,
) -> impl Parser<'t, I, O, extra::Err<E>> + Clone {
    // A `;` is taken as missing only where the next token could begin the next statement;
    // anything else (`x * * 2`) is a broken expression, left to the recovery of the caller.
    let next_starts_statement = any()
        .filter(|t: &Token| {
            t.starts_declaration()
                || matches!(
                    t,
                    Token::RBrace
                        | Token::Ident(_)
                        | Token::Const
                        | Token::Var
                        | Token::Let
                        | Token::Assert
                        | Token::Return
                        | Token::If
                        | Token::While
                        | Token::For
                        | Token::Break
                        | Token::Continue
                )
        })
        .ignored()
        .or(end())
        .rewind();
    let semi = just(Token::Semi)
        .to(true)
        .or(next_starts_statement.to(false));
    p.map_with(|out, e| (out, e.span()))
        .then(semi)
        .validate(|((out, sp), semi), _, emitter| {
            if !semi {
                let at = SimpleSpan::from(sp.end..sp.end);
                emitter.emit(coded(
                    "E0101",
                    at,
                    "missing `;` after this statement",
                    "expected `;` here",
                    "add `;`",
                ));
            }
            out
        })
}

/// Tokens skipped while recovering from a bad statement: anything up to the next `;`, stopping
/// before a `}` or a token that can only start a declaration. Brace groups are skipped whole.
/// Returns the first skipped tokens, so that a broken local still declares its name.
fn skip_statement<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, Vec<Option<(Token<'s>, SimpleSpan)>>, extra::Err<E>> + Clone {
    let group = nested_delimiters(
        Token::LBrace,
        Token::RBrace,
        [
            (Token::LParen, Token::RParen),
            (Token::LBracket, Token::RBracket),
        ],
        |_| (),
    )
    .to(None);
    let plain = any()
        .filter(|t: &Token| {
            !matches!(t, Token::Semi | Token::LBrace | Token::RBrace) && !t.starts_declaration()
        })
        .map_with(|t, e| Some((t, e.span())));
    choice((
        group
            .or(plain)
            .repeated()
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(just(Token::Semi).or_not()),
        just(Token::Semi).to(Vec::new()),
    ))
}

/// What a skipped bad statement leaves: a local with a broken initialiser still declares its
/// name, so that its uses further down are not reported as unknown.
fn recovered(skipped: &[Option<(Token<'_>, SimpleSpan)>], whole: SimpleSpan) -> StmtKind {
    let kind = match skipped.first() {
        Some(Some((Token::Var, _))) => LocalKind::Var,
        Some(Some((Token::Let, _))) => LocalKind::Let,
        Some(Some((Token::Const, _))) => LocalKind::Const,
        _ => return StmtKind::Error,
    };
    match skipped.get(1) {
        Some(Some((Token::Ident(name), at))) => StmtKind::Local {
            kind,
            names: Path::from_buf([Ident {
                name: (*name).into(),
                span: span(*at),
            }]),
            tuple: false,
            ty: None,
            init: Box::new(Expr::new(ExprKind::Error, span(whole))),
        },
        _ => StmtKind::Error,
    }
}

/// A `{ ... }` block of statements.
pub(crate) fn block<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>(
    expr: impl Parser<'t, I, Expr, extra::Err<E>> + Clone + 't,
) -> impl Parser<'t, I, Block, extra::Err<E>> + Clone {
    recursive(move |block| {
        let stmt = statement(expr.clone(), block);
        // A body that runs into a declaration or the end of the file lost its `}`: report the
        // `{` and end the block there, so the following declarations are still read.
        let close = just(Token::RBrace).to(true).or(any()
            .filter(|t: &Token| t.starts_declaration())
            .ignored()
            .or(end())
            .rewind()
            .to(false));
        just(Token::LBrace)
            .map_with(|_, e| e.span())
            .then(stmt.repeated().collect::<Vec<_>>())
            .then(close)
            .validate(|((open, mut stmts), closed), e, emitter| {
                // Every body is held until it is checked: no room to spare in it.
                stmts.shrink_to_fit();
                if !closed {
                    emitter.emit(coded(
                        "E0102",
                        open,
                        "this `{` is never closed",
                        "the block opened here runs into the next declaration",
                        "add `}` where the block ends",
                    ));
                }
                Block {
                    stmts,
                    span: span(e.span()),
                }
            })
            .labelled("a block")
            .boxed()
    })
}

fn statement<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>(
    expr: impl Parser<'t, I, Expr, extra::Err<E>> + Clone + 't,
    block: impl Parser<'t, I, Block, extra::Err<E>> + Clone + 't,
) -> impl Parser<'t, I, Stmt, extra::Err<E>> + Clone {
    recursive(move |stmt| {
        let with_span =
            |kind: StmtKind, e: &mut chumsky::input::MapExtra<'t, '_, I, extra::Err<E>>| Stmt {
                kind,
                span: span(e.span()),
            };
        let names = ident().map(|n| (Path::from_buf([n]), false)).or(ident()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .at_least(1)
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map(|ns| (Path::from_vec(ns), true)));
        let local_kind = select! {
            Token::Var => LocalKind::Var,
            Token::Let => LocalKind::Let,
            Token::Const => LocalKind::Const,
        };
        let local = local_kind
            .then(names)
            .then(
                just(Token::Colon)
                    .ignore_then(type_expr().map(Box::new))
                    .or_not(),
            )
            .then_ignore(just(Token::Eq))
            .then(expr.clone())
            .map_with(move |(((kind, (names, tuple)), ty), init), e| {
                with_span(
                    StmtKind::Local {
                        kind,
                        names,
                        tuple,
                        ty,
                        init: Box::new(init),
                    },
                    e,
                )
            });
        let assign_op = select! {
            Token::Eq => AssignOp::Set,
            Token::PlusEq => AssignOp::Add,
            Token::MinusEq => AssignOp::Sub,
            Token::StarEq => AssignOp::Mul,
            Token::ShlEq => AssignOp::Shl,
            Token::ShrEq => AssignOp::Shr,
        };
        let assign_or_expr = expr
            .clone()
            .then(assign_op.then(expr.clone()).or_not())
            .map_with(move |(target, rest), e| {
                let kind = match rest {
                    Some((op, value)) => StmtKind::Assign {
                        target: Box::new(target),
                        op,
                        value: Box::new(value),
                    },
                    None => StmtKind::Expr(target),
                };
                with_span(kind, e)
            });
        // The statements that also stand in a `for (...)` header, without their `;`.
        let simple = local.clone().or(assign_or_expr.clone());

        // A body is a block or, as seen in the owner's specs, one statement: `if (c) x = 1;`.
        let body = block
            .clone()
            .or(stmt.clone().map(|s: Stmt| Block {
                span: s.span,
                stmts: vec![s],
            }))
            .labelled("a block");
        let if_stmt = just(Token::If)
            .ignore_then(expr.clone())
            .then(body.clone())
            .then(just(Token::Else).ignore_then(body.clone()).or_not())
            .map_with(move |((cond, then), otherwise), e| {
                with_span(
                    StmtKind::If {
                        cond: Box::new(cond),
                        then,
                        otherwise,
                    },
                    e,
                )
            });
        let while_stmt = just(Token::While)
            .ignore_then(expr.clone())
            .then(
                just(Token::Colon)
                    .ignore_then(
                        simple
                            .clone()
                            .delimited_by(just(Token::LParen), just(Token::RParen)),
                    )
                    .or_not(),
            )
            .then(body.clone())
            .map_with(move |((cond, step), body), e| {
                with_span(
                    StmtKind::While {
                        cond: Box::new(cond),
                        step: step.map(Box::new),
                        body,
                    },
                    e,
                )
            });
        let for_stmt = just(Token::For)
            .ignore_then(
                simple
                    .clone()
                    .or_not()
                    .then_ignore(just(Token::Semi))
                    .then(expr.clone().or_not())
                    .then_ignore(just(Token::Semi))
                    .then(simple.clone().or_not())
                    .delimited_by(just(Token::LParen), just(Token::RParen)),
            )
            .then(body)
            .map_with(move |(((init, cond), step), body), e| {
                with_span(
                    StmtKind::For {
                        init: init.map(Box::new),
                        cond: cond.map(Box::new),
                        step: step.map(Box::new),
                        body,
                    },
                    e,
                )
            });
        let keyword_stmt = choice((
            just(Token::Assert)
                .ignore_then(expr.clone())
                .map(StmtKind::Assert),
            just(Token::Return)
                .ignore_then(expr.clone().or_not())
                .map(StmtKind::Return),
            just(Token::Break).to(StmtKind::Break),
            just(Token::Continue).to(StmtKind::Continue),
        ))
        .map_with(move |kind, e| with_span(kind, e));
        // A `///` inside a body documents nothing; it is read as a comment.
        let stray_doc = select! { Token::DocComment(_) => () }.map_with(move |_, e| {
            with_span(
                StmtKind::Block(Block {
                    stmts: Vec::new(),
                    span: span(e.span()),
                }),
                e,
            )
        });
        choice((
            terminated(local),
            terminated(keyword_stmt),
            if_stmt,
            while_stmt,
            for_stmt,
            block.map(|b| Stmt {
                span: b.span,
                kind: StmtKind::Block(b),
            }),
            stray_doc,
            terminated(assign_or_expr),
        ))
        .labelled("a statement")
        .recover_with(via_parser(skip_statement().map_with(move |skipped, e| {
            with_span(recovered(&skipped, e.span()), e)
        })))
        .boxed()
    })
}
