//! The tokens of t27, recognised by logos.
//!
//! Only context-free rules live here. The `;` comment rule (a `;` that starts a line, or that
//! follows a statement's `;` on the same line, starts a comment) needs the previous token, so
//! [`crate::lexer`] applies it on top of this token stream.

use logos::Logos;
use std::fmt;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f\x{FEFF}]+")]
pub enum Token<'src> {
    #[regex(r"//[^\n]*", priority = 3, allow_greedy = true)]
    LineComment,
    #[regex(r"///[^\n]*", priority = 5, allow_greedy = true, callback = |lex| lex.slice())]
    DocComment(&'src str),

    #[token("module")]
    Module,
    #[token("use")]
    Use,
    #[token("import")]
    Import,
    #[token("pub")]
    Pub,
    #[token("const")]
    Const,
    #[token("var")]
    Var,
    #[token("let")]
    Let,
    #[token("fn")]
    Fn,
    #[token("test")]
    Test,
    #[token("invariant")]
    Invariant,
    #[token("struct")]
    Struct,
    #[token("assert")]
    Assert,
    #[token("return")]
    Return,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("for")]
    For,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("switch")]
    Switch,
    #[token("and")]
    And,
    #[token("or")]
    Or,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("undefined")]
    Undefined,
    #[token("as")]
    As,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Ident(&'src str),
    /// Any run of digits and letters that starts with a digit; [`crate::literal`] checks the form.
    #[regex(r"[0-9][0-9A-Za-z_]*", |lex| lex.slice())]
    Int(&'src str),
    #[regex(r"[0-9][0-9A-Za-z_]*\.[0-9][0-9A-Za-z_]*", |lex| lex.slice())]
    Float(&'src str),
    /// A string literal with its quotes; escapes are checked by the lexer wrapper.
    #[regex(r#""([^"\\\n]|\\[^\n])*""#, |lex| lex.slice())]
    Str(&'src str),
    #[regex(r#""([^"\\\n]|\\[^\n])*"#)]
    UnterminatedStr,
    #[regex(r"'([^'\\\n]|\\[^\n])*'", |lex| lex.slice())]
    Char(&'src str),
    #[regex(r"'([^'\\\n]|\\[^\n])*")]
    UnterminatedChar,

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token(";")]
    Semi,
    #[token(".")]
    Dot,
    #[token("->")]
    Arrow,
    #[token("=>")]
    FatArrow,
    #[token("=")]
    Eq,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("!")]
    Bang,
    #[token("&&")]
    AmpAmp,
    #[token("||")]
    PipePipe,
    #[token("#")]
    Hash,

    /// Produced by the lexer wrapper for input logos does not recognise; it has been reported.
    Error,
    /// A test or invariant body taken whole, unread: made from a piece's tokens before it is
    /// parsed (`parser/skip.rs`), never by logos.
    Body,
}

impl Token<'_> {
    /// Whether this token can only start a top-level declaration. A body that meets one of
    /// these has lost its closing `}`.
    pub fn starts_declaration(&self) -> bool {
        matches!(
            self,
            Token::Pub
                | Token::Fn
                | Token::Test
                | Token::Invariant
                | Token::Struct
                | Token::Use
                | Token::Module
                | Token::Import
                | Token::Hash
                | Token::DocComment(_)
        )
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Token::LineComment => "a comment",
            Token::DocComment(_) => "a doc comment",
            Token::Ident(s) => return write!(f, "`{s}`"),
            Token::Int(s) | Token::Float(s) | Token::Str(s) | Token::Char(s) => {
                return write!(f, "`{s}`");
            }
            Token::UnterminatedStr => "an unterminated string",
            Token::UnterminatedChar => "an unterminated character literal",
            Token::Error => "an invalid token",
            Token::Body => "a block",
            other => return write!(f, "`{}`", other.punctuation()),
        };
        f.write_str(text)
    }
}

impl Token<'_> {
    /// The source text of a keyword or punctuation token.
    pub fn punctuation(&self) -> &'static str {
        match self {
            Token::Module => "module",
            Token::Use => "use",
            Token::Import => "import",
            Token::Pub => "pub",
            Token::Const => "const",
            Token::Var => "var",
            Token::Let => "let",
            Token::Fn => "fn",
            Token::Test => "test",
            Token::Invariant => "invariant",
            Token::Struct => "struct",
            Token::Assert => "assert",
            Token::Return => "return",
            Token::If => "if",
            Token::Else => "else",
            Token::While => "while",
            Token::For => "for",
            Token::Break => "break",
            Token::Continue => "continue",
            Token::Switch => "switch",
            Token::And => "and",
            Token::Or => "or",
            Token::True => "true",
            Token::False => "false",
            Token::Undefined => "undefined",
            Token::As => "as",
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBrace => "{",
            Token::RBrace => "}",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::Comma => ",",
            Token::Colon => ":",
            Token::ColonColon => "::",
            Token::Semi => ";",
            Token::Dot => ".",
            Token::Arrow => "->",
            Token::FatArrow => "=>",
            Token::Eq => "=",
            Token::PlusEq => "+=",
            Token::MinusEq => "-=",
            Token::StarEq => "*=",
            Token::ShlEq => "<<=",
            Token::ShrEq => ">>=",
            Token::EqEq => "==",
            Token::NotEq => "!=",
            Token::Lt => "<",
            Token::Le => "<=",
            Token::Gt => ">",
            Token::Ge => ">=",
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Star => "*",
            Token::Slash => "/",
            Token::Percent => "%",
            Token::Amp => "&",
            Token::Pipe => "|",
            Token::Caret => "^",
            Token::Shl => "<<",
            Token::Shr => ">>",
            Token::Bang => "!",
            Token::AmpAmp => "&&",
            Token::PipePipe => "||",
            Token::Hash => "#",
            _ => "?",
        }
    }
}
