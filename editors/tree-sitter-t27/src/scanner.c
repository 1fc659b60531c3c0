// The `;` of t27, which is either a statement's end or a comment to the end of its line: a
// comment when it is the first character of its line but blanks, or when only blanks stand
// between it and a statement's `;` on the same line (`return X; ; why`). That is what
// crates/t27-syntax/src/lexer.rs decides; a grammar alone cannot, so every `;` the parser may
// meet is read here.

#include "tree_sitter/alloc.h"
#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  SEMICOLON_COMMENT,
  TERMINATOR,
};

typedef struct {
  // The statement's `;` just read has another `;` after it on its line, which is a comment.
  bool comment_follows;
} Scanner;

void *tree_sitter_t27_external_scanner_create(void) {
  Scanner *s = ts_calloc(1, sizeof(Scanner));
  return s;
}

void tree_sitter_t27_external_scanner_destroy(void *payload) { ts_free(payload); }

unsigned tree_sitter_t27_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = payload;
  buffer[0] = (char)s->comment_follows;
  return 1;
}

void tree_sitter_t27_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  Scanner *s = payload;
  s->comment_follows = length > 0 && buffer[0];
}

static bool is_blank(int32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == 0xFEFF; }

static void to_line_end(TSLexer *lexer) {
  while (lexer->lookahead != '\n' && !lexer->eof(lexer)) {
    lexer->advance(lexer, false);
  }
}

bool tree_sitter_t27_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  Scanner *s = payload;
  bool comment_follows = s->comment_follows;
  s->comment_follows = false;

  // Only blanks before this point on its line: the scanner is called right after the last
  // token, so that is the start of the file or of a line, or a newline skipped below.
  bool line_start = lexer->get_column(lexer) == 0;
  while (is_blank(lexer->lookahead) || lexer->lookahead == '\n') {
    if (lexer->lookahead == '\n') {
      line_start = true;
      comment_follows = false;
    }
    lexer->advance(lexer, true);
  }
  if (lexer->lookahead != ';') {
    return false;
  }
  if ((line_start || comment_follows) && valid_symbols[SEMICOLON_COMMENT]) {
    lexer->advance(lexer, false);
    to_line_end(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = SEMICOLON_COMMENT;
    return true;
  }
  if (!valid_symbols[TERMINATOR]) {
    // A `;` of a `for` header: the grammar's own token.
    return false;
  }
  lexer->advance(lexer, false);
  lexer->mark_end(lexer);
  lexer->result_symbol = TERMINATOR;
  while (is_blank(lexer->lookahead)) {
    lexer->advance(lexer, false);
  }
  s->comment_follows = lexer->lookahead == ';';
  return true;
}
