/**
 * @file The t27 spec language (../../LANGUAGE.md is the reference; crates/t27-syntax the parser
 * this grammar follows).
 * @license Apache-2.0
 *
 * The one rule a grammar cannot say alone, the `;` comment (a `;` that starts its line, or that
 * follows a statement's `;` on the same line), is src/scanner.c's: it reads every `;`, and says
 * which are comments and which end a statement.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const PREC = {
  or: 1,
  and: 2,
  compare: 3,
  bit_or: 4,
  bit_xor: 5,
  bit_and: 6,
  shift: 7,
  add: 8,
  multiply: 9,
  unary: 10,
  postfix: 11,
};

const commaSep = (rule) => optional(seq(rule, repeat(seq(',', rule)), optional(',')));

module.exports = grammar({
  name: 't27',

  externals: ($) => [$.semicolon_comment, $._terminator],

  extras: ($) => [/\s|\uFEFF/, $.line_comment, $.doc_comment, $.semicolon_comment],

  word: ($) => $.identifier,

  conflicts: ($) => [
    [$.block, $.struct_literal],
    [$.if_statement, $._expression, $.if_expression],
  ],

  rules: {
    source_file: ($) => repeat($._item),

    _item: ($) =>
      choice(
        $.module_declaration,
        $.use_declaration,
        $.import_declaration,
        $.const_declaration,
        $.var_declaration,
        $.function_declaration,
        $.test_declaration,
        $.struct_declaration,
      ),

    // `module QueenDispatch;`, `module queen-task-analysis;` (a missing `;` is t27's warning).
    module_declaration: ($) => seq('module', field('name', $.module_name), optional($._terminator)),
    module_name: (_) => /[A-Za-z_][A-Za-z0-9_-]*/,

    use_declaration: ($) => seq('use', field('path', $.path), $._terminator),
    // The legacy form, which t27 reports.
    import_declaration: ($) => seq('import', $.identifier, $._terminator),

    visibility: (_) => 'pub',

    const_declaration: ($) =>
      seq(
        optional($.visibility),
        'const',
        field('name', $.identifier),
        optional(seq(':', field('type', $._type))),
        '=',
        field('value', $._expression),
        $._terminator,
      ),

    var_declaration: ($) =>
      seq(
        optional($.visibility),
        'var',
        field('name', $.identifier),
        optional(seq(':', field('type', $._type))),
        '=',
        field('value', $._expression),
        $._terminator,
      ),

    function_declaration: ($) =>
      seq(
        // `#[test] pub fn`, a Rust habit t27 reads as a test block (with a warning).
        optional($.attribute),
        optional($.visibility),
        'fn',
        field('name', $.identifier),
        field('parameters', $.parameters),
        optional(seq('->', field('return_type', $._type))),
        field('body', $.block),
      ),

    attribute: ($) => seq('#', '[', $.identifier, ']'),

    parameters: ($) => seq('(', commaSep($.parameter), ')'),
    parameter: ($) => seq(field('name', $.identifier), ':', field('type', $._type)),

    test_declaration: ($) =>
      seq(field('kind', choice('test', 'invariant')), field('name', $.identifier), field('body', $.block)),

    struct_declaration: ($) =>
      seq(
        optional($.visibility),
        'struct',
        field('name', $.identifier),
        '{',
        commaSep($.field_declaration),
        '}',
      ),
    field_declaration: ($) => seq(field('name', $.identifier), ':', field('type', $._type)),

    // ---- Types ----
    _type: ($) =>
      choice($.primitive_type, alias($.identifier, $.type_identifier), $.type_path, $.array_type, $.slice_type, $.tuple_type),
    primitive_type: (_) =>
      choice('u8', 'u16', 'u32', 'u64', 'usize', 'i8', 'i16', 'i32', 'i64', 'bool', 'str', 'string', 'f64', 'void'),
    type_path: ($) => $.path,
    array_type: ($) => seq('[', field('length', $._expression), ']', field('element', $._type)),
    slice_type: ($) => seq('[', ']', optional('const'), field('element', $._type)),
    tuple_type: ($) => seq('(', commaSep($._type), ')'),

    // ---- Statements ----
    block: ($) => seq('{', repeat($._statement), '}'),

    _statement: ($) =>
      choice(
        $.local_declaration,
        $.tuple_declaration,
        $.assignment,
        $.if_statement,
        $.while_statement,
        $.for_statement,
        $.break_statement,
        $.continue_statement,
        $.return_statement,
        $.assert_statement,
        $.expression_statement,
        $.block,
      ),

    _local: ($) =>
      seq(
        field('kind', choice('var', 'let', 'const')),
        field('name', $.identifier),
        optional(seq(':', field('type', $._type))),
        '=',
        field('value', $._expression),
      ),
    local_declaration: ($) => seq($._local, $._terminator),

    tuple_declaration: ($) =>
      seq(
        field('kind', choice('var', 'let', 'const')),
        '(',
        commaSep($.identifier),
        ')',
        '=',
        field('value', $._expression),
        $._terminator,
      ),

    _assign: ($) =>
      seq(field('place', $.place), field('operator', choice('=', '+=', '-=', '*=', '<<=', '>>=')), field('value', $._expression)),
    assignment: ($) => seq($._assign, $._terminator),
    place: ($) => choice($.identifier, $.field_expression, $.index_expression),

    if_statement: ($) =>
      prec.right(
        seq(
          'if',
          choice(
            seq(field('condition', $.parenthesized_expression), field('consequence', choice($.block, $._single_statement))),
            // `if verdict != "accept" {`: without parentheses, braces follow.
            seq(field('condition', $._expression), field('consequence', $.block)),
          ),
          optional(seq('else', field('alternative', choice($.block, $.if_statement, $._single_statement)))),
        ),
      ),
    // `if (c) x = 1;`: a single statement without braces.
    _single_statement: ($) =>
      choice($.assignment, $.return_statement, $.break_statement, $.continue_statement, $.assert_statement, $.expression_statement),

    while_statement: ($) =>
      seq(
        'while',
        field('condition', $.parenthesized_expression),
        optional(seq(':', '(', field('step', $._assign), ')')),
        field('body', $.block),
      ),

    for_statement: ($) =>
      seq(
        'for',
        '(',
        optional(field('init', choice($._local, $._assign))),
        ';',
        optional(field('condition', $._expression)),
        ';',
        optional(field('step', choice($._assign, $._expression))),
        ')',
        field('body', $.block),
      ),

    break_statement: ($) => seq('break', $._terminator),
    continue_statement: ($) => seq('continue', $._terminator),
    return_statement: ($) => seq('return', optional(field('value', $._expression)), $._terminator),
    assert_statement: ($) => seq('assert', field('condition', $._expression), $._terminator),
    expression_statement: ($) => seq($._expression, $._terminator),

    // ---- Expressions ----
    _expression: ($) =>
      choice(
        $.binary_expression,
        $.unary_expression,
        $.cast_expression,
        $.call_expression,
        $.index_expression,
        $.field_expression,
        $.parenthesized_expression,
        $.tuple_expression,
        $.array_literal,
        $.struct_literal,
        $.address_of,
        $.if_expression,
        $.switch_expression,
        $.path,
        $.identifier,
        $.integer,
        $.float,
        $.string,
        $.char,
        $.boolean,
        $.undefined,
      ),

    binary_expression: ($) => {
      const table = [
        [PREC.or, choice('or', '||')],
        [PREC.and, choice('and', '&&')],
        [PREC.compare, choice('==', '!=', '<', '<=', '>', '>=')],
        [PREC.bit_or, '|'],
        [PREC.bit_xor, '^'],
        [PREC.bit_and, '&'],
        [PREC.shift, choice('<<', '>>')],
        [PREC.add, choice('+', '-')],
        [PREC.multiply, choice('*', '/', '%')],
      ];
      return choice(
        ...table.map(([p, op]) =>
          prec.left(p, seq(field('left', $._expression), field('operator', op), field('right', $._expression))),
        ),
      );
    },

    unary_expression: ($) => prec(PREC.unary, seq(field('operator', choice('!', '-')), field('operand', $._expression))),
    address_of: ($) => prec(PREC.unary, seq('&', field('operand', $._expression))),
    cast_expression: ($) => prec(PREC.postfix, seq(field('value', $._expression), 'as', field('type', $._type))),
    call_expression: ($) => prec(PREC.postfix, seq(field('function', $._expression), field('arguments', $.arguments))),
    arguments: ($) => seq('(', commaSep($._expression), ')'),
    index_expression: ($) => prec(PREC.postfix, seq(field('value', $._expression), '[', field('index', $._expression), ']')),
    field_expression: ($) => prec(PREC.postfix, seq(field('value', $._expression), '.', field('field', $.identifier))),
    parenthesized_expression: ($) => seq('(', $._expression, ')'),
    tuple_expression: ($) => seq('(', $._expression, ',', commaSep($._expression), ')'),
    array_literal: ($) => seq('[', commaSep($._expression), ']'),
    struct_literal: ($) => seq('{', commaSep($.field_initializer), '}'),
    field_initializer: ($) => seq(field('name', $.identifier), ':', field('value', $._expression)),

    if_expression: ($) =>
      prec.right(
        seq(
          'if',
          field('condition', $.parenthesized_expression),
          field('consequence', $._expression),
          'else',
          field('alternative', $._expression),
        ),
      ),

    switch_expression: ($) =>
      seq('switch', field('value', $.parenthesized_expression), '{', commaSep($.switch_arm), '}'),
    switch_arm: ($) =>
      seq(
        field('patterns', choice('else', seq($._expression, repeat(seq(',', $._expression))))),
        '=>',
        field('value', $._expression),
      ),

    // `a::b::NAME`; a path of one name is an identifier.
    path: ($) => prec(1, seq(repeat1(seq(field('module', $.identifier), '::')), field('name', $.identifier))),

    identifier: (_) => /[A-Za-z_][A-Za-z0-9_]*/,
    integer: (_) => /[0-9][0-9A-Za-z_]*/,
    float: (_) => /[0-9][0-9A-Za-z_]*\.[0-9][0-9A-Za-z_]*/,
    string: ($) => seq('"', repeat(choice($.string_content, $.escape_sequence)), token.immediate('"')),
    string_content: (_) => token.immediate(prec(1, /[^"\\\n]+/)),
    escape_sequence: (_) => token.immediate(/\\(x[0-9A-Fa-f]{2}|[^\n])/),
    char: (_) => /'([^'\\\n]|\\[^\n])*'/,
    boolean: (_) => choice('true', 'false'),
    undefined: (_) => 'undefined',

    line_comment: (_) => token(prec(-1, seq('//', /[^\n]*/))),
    doc_comment: (_) => token(seq('///', /[^\n]*/)),
  },
});
