//! Expressions and types.

use super::{SyntaxErr, TokenInput, ident, path, span};
use crate::ast::*;
use crate::literal;
use crate::token::Token;
use chumsky::pratt::{infix, left, postfix, prefix};
use chumsky::prelude::*;

/// `u32`, `[N]T`, `[]const u8`, `(T, U)`, `module::Struct`.
pub(crate) fn type_expr<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, TypeExpr, extra::Err<E>> + Clone {
    recursive(|ty| {
        // Array lengths are literals or constant names; anything richer belongs in a constant.
        let length = select! { Token::Int(t) => ExprKind::Int(literal::int_value(t)) }
            .or(path().map(ExprKind::Path))
            .map_with(|kind, e| Expr::new(kind, span(e.span())))
            .labelled("an array length");
        let slice = just(Token::LBracket)
            .then(just(Token::RBracket))
            .ignore_then(just(Token::Const).or_not())
            .then(ty.clone())
            .map(|(c, elem)| TypeKind::Slice {
                is_const: c.is_some(),
                elem: Box::new(elem),
            });
        let array = length
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .then(ty.clone())
            .map(|(len, elem)| TypeKind::Array(Box::new(len), Box::new(elem)));
        let tuple = ty
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map(TypeKind::Tuple);
        choice((slice, array, path().map(TypeKind::Named), tuple))
            .map_with(|kind, e| TypeExpr::new(kind, span(e.span())))
            .labelled("a type")
    })
}

enum Postfix {
    Call(Vec<Expr>),
    Index(Expr),
    Field(Ident),
    Cast(TypeExpr),
}

/// The expression parser: by hand on the fast pass (`climb.rs`), chumsky's otherwise (whose
/// errors say what was expected).
pub(crate) fn expr<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>(
    by_hand: bool,
) -> Boxed<'t, 't, I, Expr, extra::Err<E>> {
    if by_hand {
        super::climb::expr(type_expr()).boxed()
    } else {
        chumsky_expr().boxed()
    }
}

pub(crate) fn chumsky_expr<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, Expr, extra::Err<E>> + Clone {
    recursive(|expr| {
        let literal = select! {
            Token::Int(t) => ExprKind::Int(literal::int_value(t)),
            Token::Float(t) => ExprKind::Float(literal::float_value(t)),
            Token::Str(t) => ExprKind::Str(literal::unescape(&t[1..t.len() - 1])),
            Token::Char(t) => ExprKind::Char(literal::unescape(&t[1..t.len() - 1]).first().copied().unwrap_or(0)),
            Token::True => ExprKind::Bool(true),
            Token::False => ExprKind::Bool(false),
            Token::Undefined => ExprKind::Undefined,
            // Already reported by the lexer.
            Token::Error => ExprKind::Error,
        };
        let items = expr
            .clone()
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>();
        // `(e)` is grouping; `(a, b)` is a tuple.
        let parens = items
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map(|mut items| match items.len() {
                1 => items
                    .pop()
                    .map_or(ExprKind::Error, |only| ExprKind::Paren(Box::new(only))),
                _ => ExprKind::Tuple(items),
            });
        let array = items
            .clone()
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map(ExprKind::Array);
        let field_init = ident().then_ignore(just(Token::Colon)).then(expr.clone());
        let struct_lit = field_init
            .separated_by(just(Token::Comma))
            .allow_trailing()
            .collect::<Vec<_>>()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map(ExprKind::StructLit);
        let condition = expr
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen));
        let if_expr = just(Token::If)
            .ignore_then(condition.clone())
            .then(expr.clone())
            .then_ignore(just(Token::Else))
            .then(expr.clone())
            .map(|((c, a), b)| ExprKind::If(Box::new(c), Box::new(a), Box::new(b)));
        let arm_patterns = just(Token::Else).to(Vec::new()).or(expr
            .clone()
            .separated_by(just(Token::Comma))
            .at_least(1)
            .collect::<Vec<_>>());
        let arm = arm_patterns
            .then_ignore(just(Token::FatArrow))
            .then(expr.clone())
            .map_with(|(patterns, value), e| SwitchArm {
                patterns,
                value,
                span: span(e.span()),
            });
        let switch = just(Token::Switch)
            .ignore_then(condition)
            .then(
                arm.separated_by(just(Token::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .delimited_by(just(Token::LBrace), just(Token::RBrace)),
            )
            .map(|(x, arms)| ExprKind::Switch(Box::new(x), arms));
        let atom = choice((
            literal,
            path().map(ExprKind::Path),
            parens,
            array,
            struct_lit,
            if_expr,
            switch,
        ))
        // The pratt loop moves its operand through every operator it tries, so it works on
        // boxes (one word) rather than whole nodes; the boxes become the tree's children.
        .map_with(|kind, e| Box::new(Expr::new(kind, span(e.span()))))
        .labelled("an expression")
        .boxed();

        let call_args = items
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map(Postfix::Call);
        let index = expr
            .clone()
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map(Postfix::Index);
        let field = just(Token::Dot).ignore_then(ident()).map(Postfix::Field);
        let cast = just(Token::As).ignore_then(type_expr()).map(Postfix::Cast);
        let postfix_op = choice((call_args, index, field, cast));

        let bin = |l: Box<Expr>,
                   op: BinOp,
                   r: Box<Expr>,
                   e: &mut chumsky::input::MapExtra<'t, '_, I, extra::Err<E>>| {
            Box::new(Expr::new(ExprKind::Binary(op, l, r), span(e.span())))
        };
        atom.pratt((
            postfix(11, postfix_op, |lhs: Box<Expr>, op, e| {
                let kind = match op {
                    Postfix::Call(args) => ExprKind::Call(lhs, args),
                    Postfix::Index(i) => ExprKind::Index(lhs, Box::new(i)),
                    Postfix::Field(f) => ExprKind::Field(lhs, f),
                    Postfix::Cast(t) => ExprKind::Cast(lhs, Box::new(t)),
                };
                Box::new(Expr::new(kind, span(e.span())))
            }),
            prefix(
                10,
                select! { Token::Bang => Some(UnOp::Not), Token::Minus => Some(UnOp::Neg), Token::Amp => None },
                |op: Option<UnOp>, rhs: Box<Expr>, e| {
                    let kind = match op {
                        Some(op) => ExprKind::Unary(op, rhs),
                        None => ExprKind::AddrOf(rhs),
                    };
                    Box::new(Expr::new(kind, span(e.span())))
                },
            ),
            // One operator parser per precedence level: the pratt loop tries each level's
            // parser after every operand, so fewer levels is measurably faster.
            infix(left(9), select! { Token::Star => BinOp::Mul, Token::Slash => BinOp::Div, Token::Percent => BinOp::Rem }, bin),
            infix(left(8), select! { Token::Plus => BinOp::Add, Token::Minus => BinOp::Sub }, bin),
            infix(left(7), select! { Token::Shl => BinOp::Shl, Token::Shr => BinOp::Shr }, bin),
            infix(left(6), just(Token::Amp).to(BinOp::BitAnd), bin),
            infix(left(5), just(Token::Caret).to(BinOp::BitXor), bin),
            infix(left(4), just(Token::Pipe).to(BinOp::BitOr), bin),
            infix(left(3), comparison(), bin),
            infix(left(2), select! { Token::And => BinOp::And, Token::AmpAmp => BinOp::And }, bin),
            infix(left(1), select! { Token::Or => BinOp::Or, Token::PipePipe => BinOp::Or }, bin),
        ))
        .map(|boxed| *boxed)
        .labelled("an expression")
        .boxed()
    })
}

fn comparison<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, BinOp, extra::Err<E>> + Clone {
    select! {
        Token::EqEq => BinOp::Eq,
        Token::NotEq => BinOp::Ne,
        Token::Lt => BinOp::Lt,
        Token::Le => BinOp::Le,
        Token::Gt => BinOp::Gt,
        Token::Ge => BinOp::Ge,
    }
}
