//! Top-level declarations.

use super::{SyntaxErr, TokenInput, coded, ident, path, span};
use crate::ast::*;
use crate::parser::expr::{expr, type_expr};
use crate::parser::stmt::{block, terminated};
use crate::token::Token;
use chumsky::prelude::*;

/// What one top-level declaration parses to; `module` lines are sorted out by the caller.
#[derive(Debug, PartialEq)]
pub(crate) enum TopLevel {
    Module(ModuleDecl),
    Item(Item),
}

/// Tokens skipped while recovering from a bad declaration: up to the next token that can start
/// one, with brace groups skipped whole so that a body's locals do not look like declarations.
fn skip_declaration<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, (), extra::Err<E>> + Clone {
    let group = nested_delimiters(
        Token::LBrace,
        Token::RBrace,
        [
            (Token::LParen, Token::RParen),
            (Token::LBracket, Token::RBracket),
        ],
        |_| (),
    );
    let plain = any()
        .filter(|t: &Token| {
            !t.starts_declaration() && !matches!(t, Token::Const | Token::Var | Token::LBrace)
        })
        .ignored();
    any().ignored().then(group.or(plain).repeated()).ignored()
}

/// One declaration; `by_hand`: expressions are read by `climb.rs` (the fast pass).
pub(crate) fn top_level<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>(
    by_hand: bool,
) -> impl Parser<'t, I, TopLevel, extra::Err<E>> + Clone {
    let expr = expr(by_hand);
    let body = block(expr.clone());
    let is_pub = just(Token::Pub).or_not().map(|p| p.is_some());

    let doc = select! { Token::DocComment(text) => text }
        .map_with(|text, e| (text, e.span()))
        .repeated()
        .collect::<Vec<_>>()
        .map(|lines: Vec<(&str, SimpleSpan)>| {
            let first = lines.first()?.1;
            let last = lines.last()?.1;
            let text = lines
                .iter()
                .map(|(l, _)| {
                    let l = &l[3..];
                    l.strip_prefix(' ').unwrap_or(l).trim_end()
                })
                .collect::<Vec<_>>()
                .join("\n");
            Some(Doc {
                text,
                span: span(SimpleSpan::from(first.start..last.end)),
            })
        });

    // `module queen-task-analysis;`: names may contain `-`.
    let module_name = ident()
        .separated_by(just(Token::Minus))
        .at_least(1)
        .collect::<Vec<_>>()
        .map(|parts| {
            parts
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join("-")
        })
        .map_with(|name, e| ModuleDecl {
            name,
            span: span(e.span()),
        });
    let module = just(Token::Module)
        .ignore_then(module_name)
        .then(just(Token::Semi).or_not())
        .validate(|(decl, semi), _, emitter| {
            if semi.is_none() {
                let at = SimpleSpan::from(decl.span.end as usize..decl.span.end as usize);
                emitter.emit(coded(
                    "W0001",
                    at,
                    "`module` declaration without `;`",
                    "expected `;` here",
                    "add `;` after the module name",
                ));
            }
            TopLevel::Module(decl)
        });

    let use_decl = terminated(just(Token::Use).ignore_then(path())).map(|path| {
        ItemKind::Use(UseDecl {
            path: path.into_vec(),
        })
    });
    let import = terminated(just(Token::Import).ignore_then(path())).validate(|_, e, emitter| {
        emitter.emit(coded(
            "E0104",
            e.span(),
            "`import` is a legacy form t27 does not read",
            "this does not say which file to read",
            "write `use folder::file::NAME;` to import one item, or `use folder::file;` for the module",
        ));
        ItemKind::Error
    });
    let global = is_pub
        .then(just(Token::Const).to(false).or(just(Token::Var).to(true)))
        .then(ident())
        .then(just(Token::Colon).ignore_then(type_expr()).or_not())
        .then_ignore(just(Token::Eq))
        .then(expr.clone());
    let global = terminated(global).map(|((((is_pub, is_var), name), ty), value)| {
        let decl = GlobalDecl {
            is_pub,
            name,
            ty,
            value,
        };
        if is_var {
            ItemKind::Var(decl)
        } else {
            ItemKind::Const(decl)
        }
    });
    let param = ident()
        .then_ignore(just(Token::Colon))
        .then(type_expr())
        .map(|(name, ty)| Param { name, ty });
    let params = param
        .clone()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LParen), just(Token::RParen));
    // A body taken whole before parsing (`skip.rs`), or one to read.
    let taken_or_read = select! { Token::Body => () }
        .map_with(|(), e| Block {
            stmts: Vec::new(),
            span: span(e.span()),
        })
        .or(body.clone())
        .labelled("a block");
    let function = is_pub
        .then_ignore(just(Token::Fn))
        .then(ident())
        .then(params)
        .then(just(Token::Arrow).ignore_then(type_expr()).or_not())
        .then(taken_or_read.clone())
        .map(|((((is_pub, name), params), ret), body)| FnDecl {
            is_pub,
            name,
            params,
            ret,
            body,
        });
    let test = just(Token::Test)
        .to(TestKind::Test)
        .or(just(Token::Invariant).to(TestKind::Invariant))
        .then(ident())
        .then(taken_or_read)
        .map(|((kind, name), body)| ItemKind::Test(TestDecl { kind, name, body }));
    let structure = is_pub
        .then_ignore(just(Token::Struct))
        .then(ident())
        .then(
            param
                .separated_by(just(Token::Comma))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(just(Token::LBrace), just(Token::RBrace)),
        )
        .map(|((is_pub, name), fields)| {
            ItemKind::Struct(StructDecl {
                is_pub,
                name,
                fields,
            })
        });
    // `#[test] pub fn test_x() { ... }`, a Rust habit, is read as `test test_x { ... }`.
    let attributed = just(Token::Hash)
        .ignore_then(
            ident()
                .or(just(Token::Test).map_with(|_, e| Ident {
                    name: "test".into(),
                    span: span(e.span()),
                }))
                .delimited_by(just(Token::LBracket), just(Token::RBracket)),
        )
        .map_with(|attr, e| (attr, e.span()))
        .then(function.clone())
        .validate(|((attr, attr_span), f), _, emitter| {
            if attr.name == "test" {
                let fix = format!("write `test {} {{ ... }}`", f.name.name);
                emitter.emit(coded(
                    "W0004",
                    attr_span,
                    "`#[test] pub fn` is a Rust habit",
                    "read as a `test` block",
                    &fix,
                ));
                ItemKind::Test(TestDecl {
                    kind: TestKind::Test,
                    name: f.name,
                    body: f.body,
                })
            } else {
                emitter.emit(coded(
                    "E0107",
                    attr_span,
                    &format!("unknown attribute `#[{}]`", attr.name),
                    "t27 has no attributes",
                    "remove the attribute",
                ));
                ItemKind::Fn(f)
            }
        });

    let item = choice((
        use_decl,
        import,
        global,
        function.map(ItemKind::Fn),
        test,
        structure,
        attributed,
    ))
    .labelled("a declaration");
    let documented = doc.then(item).map_with(|(doc, kind), e| {
        TopLevel::Item(Item {
            doc,
            kind,
            span: span(e.span()),
        })
    });
    module
        .or(documented)
        .recover_with(via_parser(skip_declaration().map_with(|_, e| {
            TopLevel::Item(Item {
                doc: None,
                kind: ItemKind::Error,
                span: span(e.span()),
            })
        })))
        .boxed()
}
