//! The chumsky parser: tokens to [`SourceFile`]. It never gives up on a file: each bad
//! statement or declaration is reported, skipped, and parsing continues after it.

mod climb;
#[cfg(test)]
mod climb_tests;
mod expr;
mod hand;
#[cfg(test)]
mod hand_tests;
mod item;
#[cfg(test)]
mod mutants;
pub(crate) mod skip;
mod stmt;

use crate::ast::*;
use crate::token::Token;
use chumsky::error::{RichPattern, RichReason};
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use t27_diag::{Code, Diagnostic, FileId, Span};

pub(crate) trait TokenInput<'t, 's: 't>:
    ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>
{
}
impl<'t, 's: 't, I> TokenInput<'t, 's> for I where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>
{
}

/// The error type of a parse: `EmptyErr` on the fast pass (chumsky skips all error
/// bookkeeping for a zero-sized error), `Rich` on the pass that explains a broken file.
pub(crate) trait SyntaxErr<'t, 's: 't, I: TokenInput<'t, 's>>:
    chumsky::error::Error<'t, I> + chumsky::label::LabelError<'t, I, &'static str> + 't
{
    fn custom(at: SimpleSpan, message: String) -> Self;
}

impl<'t, 's: 't, I: TokenInput<'t, 's>> SyntaxErr<'t, 's, I> for EmptyErr {
    fn custom(_: SimpleSpan, _: String) -> Self {
        EmptyErr::default()
    }
}

impl<'t, 's: 't, I: TokenInput<'t, 's>> SyntaxErr<'t, 's, I> for Rich<'t, Token<'s>> {
    fn custom(at: SimpleSpan, message: String) -> Self {
        Rich::custom(at, message)
    }
}

pub(crate) fn span(s: SimpleSpan) -> Span {
    Span::new(s.start, s.end)
}

pub(crate) fn ident<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, Ident, extra::Err<E>> + Clone {
    select! { Token::Ident(name) => name }
        .map_with(|name: &str, e| Ident {
            name: SmolStr::new(name),
            span: span(e.span()),
        })
        .labelled("a name")
}

/// `a`, `a::b::c`.
pub(crate) fn path<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>()
-> impl Parser<'t, I, Path, extra::Err<E>> + Clone {
    ident().map(|first| Path::from_buf([first])).foldl(
        just(Token::ColonColon).ignore_then(ident()).repeated(),
        |mut path, next| {
            path.push(next);
            path
        },
    )
}

/// Fields of a coded parser error, packed into chumsky's custom message and unpacked by
/// [`to_diagnostic`]; chumsky then keeps them through backtracking like any other error.
const SEP: char = '\u{1f}';

pub(crate) fn coded<'t, 's: 't, I: TokenInput<'t, 's>, E: SyntaxErr<'t, 's, I>>(
    code: &str,
    at: SimpleSpan,
    message: &str,
    label: &str,
    help: &str,
) -> E {
    E::custom(at, format!("{code}{SEP}{message}{SEP}{label}{SEP}{help}"))
}

/// Parses a run of whole declarations without error bookkeeping (chumsky skips it all for a
/// zero-sized error); `None` when there is anything to report (an error, or a warning the
/// parser emits): [`parse_tokens`] then explains it.
pub(crate) fn parse_fast<'s>(
    src_end: usize,
    tokens: &[(Token<'s>, SimpleSpan)],
) -> Option<Vec<TopLevel>> {
    parse_fast_by(src_end, tokens, true)
}

/// [`parse_fast`], with expressions read by hand or by chumsky (the tests compare the two).
pub(crate) fn parse_fast_by<'s>(
    src_end: usize,
    tokens: &[(Token<'s>, SimpleSpan)],
    by_hand: bool,
) -> Option<Vec<TopLevel>> {
    let eoi = SimpleSpan::from(src_end..src_end);
    let fast = item::top_level::<_, EmptyErr>(by_hand)
        .repeated()
        .collect::<Vec<_>>()
        .then_ignore(end())
        .parse(tokens.map(eoi, |(t, s)| (t, s)));
    clean(fast)
}

/// A fast pass's output, when it has nothing to report.
fn clean<T>(parsed: chumsky::ParseResult<T, EmptyErr>) -> Option<T> {
    if parsed.has_errors() {
        None
    } else {
        parsed.into_output()
    }
}

/// Parses the tokens of one `{ ... }` block by hand (`hand.rs`), or, where that gives up, with
/// chumsky's statements and the expressions by hand; `None` when they have anything to report.
pub(crate) fn parse_block_fast(
    src_end: usize,
    tokens: &[(Token<'_>, SimpleSpan)],
) -> Option<Block> {
    hand::block(src_end, tokens).or_else(|| parse_block_by_chumsky(src_end, tokens))
}

/// [`parse_block_fast`] with chumsky's statement parser (what it falls back to).
pub(crate) fn parse_block_by_chumsky(
    src_end: usize,
    tokens: &[(Token<'_>, SimpleSpan)],
) -> Option<Block> {
    let eoi = SimpleSpan::from(src_end..src_end);
    let fast = stmt::block::<_, EmptyErr>(expr::expr(true))
        .then_ignore(end())
        .parse(tokens.map(eoi, |(t, s)| (t, s)));
    clean(fast)
}

/// Parses the tokens of one `{ ... }` block with rich errors, as [`parse_rich`] reads a block:
/// the statements recovered, and what is wrong with them.
pub(crate) fn parse_block_rich(
    file: FileId,
    src_end: usize,
    tokens: &[(Token<'_>, SimpleSpan)],
) -> (Option<Block>, Vec<Diagnostic>) {
    let eoi = SimpleSpan::from(src_end..src_end);
    let (output, errors) = stmt::block::<_, Rich<'_, Token<'_>>>(expr::expr(false))
        .then_ignore(end())
        .parse(tokens.map(eoi, |(t, s)| (t, s)))
        .into_output_errors();
    let diagnostics = errors
        .iter()
        // An error token was reported by the lexer already.
        .filter(|e| !matches!(e.found(), Some(Token::Error)))
        .map(|e| to_diagnostic(file, e))
        .collect();
    (output, diagnostics)
}

/// Parses the lexed rest of a file (`src_end` is the file's length): the fast pass first, and a
/// pass with rich errors when it has anything to report.
pub(crate) fn parse_tokens<'s>(
    file: FileId,
    src_end: usize,
    tokens: &[(Token<'s>, SimpleSpan)],
) -> (Vec<TopLevel>, Vec<Diagnostic>) {
    if let Some(tops) = parse_fast(src_end, tokens) {
        return (tops, Vec::new());
    }
    parse_rich(file, src_end, tokens)
}

/// Parses with rich errors, keeping the statements of every body that was not taken whole.
pub(crate) fn parse_rich<'s>(
    file: FileId,
    src_end: usize,
    tokens: &[(Token<'s>, SimpleSpan)],
) -> (Vec<TopLevel>, Vec<Diagnostic>) {
    let eoi = SimpleSpan::from(src_end..src_end);
    let rich = item::top_level::<_, Rich<'_, Token<'s>>>(false)
        .repeated()
        .collect::<Vec<_>>()
        .then_ignore(end());
    let (output, errors) = rich
        .parse(tokens.map(eoi, |(t, s)| (t, s)))
        .into_output_errors();
    let diagnostics = errors
        .into_iter()
        // An error token was reported by the lexer already.
        .filter(|e| !matches!(e.found(), Some(Token::Error)))
        .map(|e| to_diagnostic(file, &e))
        .collect();
    (output.unwrap_or_default(), diagnostics)
}

/// Sorts a file's top-level declarations into its `module` line and its items, reporting a
/// second `module` line or one after other declarations.
pub(crate) fn assemble(
    file: FileId,
    tops: Vec<TopLevel>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Option<ModuleDecl>, Vec<Item>) {
    let mut module: Option<ModuleDecl> = None;
    let mut first_item: Option<Span> = None;
    // Collected in place: the items keep the vector the parser filled (a large file's
    // declarations are not copied).
    let items: Vec<Item> = tops
        .into_iter()
        .filter_map(|top| match top {
            TopLevel::Module(decl) => {
                if let Some(first) = &module {
                    diagnostics.push(
                        Diagnostic::new(
                            Code("E0108"),
                            file,
                            decl.span,
                            "a second `module` declaration",
                        )
                        .with_label("a file is exactly one module")
                        .with_secondary(file, first.span, "the module is declared here")
                        .with_help("remove this line"),
                    );
                } else if let Some(before) = first_item {
                    diagnostics.push(
                        Diagnostic::new(
                            Code("E0108"),
                            file,
                            decl.span,
                            "`module` must be the first declaration",
                        )
                        .with_label("declared after other declarations")
                        .with_secondary(file, before, "this declaration comes first")
                        .with_help("move the `module` line to the top of the file"),
                    );
                    module = Some(decl);
                } else {
                    module = Some(decl);
                }
                None
            }
            TopLevel::Item(item) => {
                first_item.get_or_insert(item.span);
                Some(item)
            }
        })
        .collect();
    (module, items)
}

pub(crate) use item::TopLevel;

fn to_diagnostic(file: FileId, err: &Rich<'_, Token<'_>>) -> Diagnostic {
    let at = span(*err.span());
    match err.reason() {
        RichReason::Custom(packed) => {
            let mut parts = packed.split(SEP);
            let code = parts.next().unwrap_or("E0100");
            let message = parts.next().unwrap_or("");
            let label = parts.next().unwrap_or("");
            let help = parts.next().unwrap_or("");
            let code = t27_diag::explain(code).map_or(Code("E0100"), |info| Code(info.code));
            let mut d = Diagnostic::new(code, file, at, message).with_label(label);
            if !help.is_empty() {
                d = d.with_help(help);
            }
            // A `;` missing where the parser went on as if it were there: putting it there is
            // certain.
            if matches!(code.as_str(), "E0101" | "W0001") && at.is_empty() {
                d = d.with_fix(at, ";");
            }
            d
        }
        RichReason::ExpectedFound { expected, found } => {
            let found_text = match found {
                Some(t) => describe_found(t),
                None => "the end of the file".to_string(),
            };
            let mut wanted: Vec<String> = expected.iter().filter_map(describe_pattern).collect();
            wanted.sort();
            wanted.dedup();
            // "an expression" already says that a prefix operator could start one.
            if wanted.iter().any(|w| w == "an expression") {
                wanted.retain(|w| !matches!(w.as_str(), "`!`" | "`&`" | "`-`"));
            }
            let expected_text = match wanted.len() {
                0 => "something else".to_string(),
                1 => wanted[0].clone(),
                n if n <= 6 => format!("{} or {}", wanted[..n - 1].join(", "), wanted[n - 1]),
                _ => format!(
                    "{}, or one of {} other things",
                    wanted[..5].join(", "),
                    wanted.len() - 5
                ),
            };
            Diagnostic::new(
                Code("E0100"),
                file,
                at,
                format!("expected {expected_text}, found {found_text}"),
            )
            .with_label(format!("unexpected {found_text}"))
        }
    }
}

fn describe_found(token: &Token<'_>) -> String {
    token.to_string()
}

fn describe_pattern(p: &RichPattern<'_, Token<'_>>) -> Option<String> {
    Some(match p {
        RichPattern::Token(t) => t.to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(i) => format!("`{i}`"),
        RichPattern::Any => "any token".to_string(),
        RichPattern::EndOfInput => "the end of the file".to_string(),
        _ => return None,
    })
}
