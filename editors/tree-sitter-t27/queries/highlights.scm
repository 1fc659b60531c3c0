; Syntax highlighting for t27, with the capture names Neovim, Helix and the tree-sitter CLI share.

(line_comment) @comment
(semicolon_comment) @comment
(doc_comment) @comment.documentation

[
  "module" "use" "import" "const" "var" "let" "fn" "struct" "test" "invariant"
] @keyword

(visibility) @keyword.modifier

[ "if" "else" "switch" ] @keyword.conditional
[ "while" "for" "break" "continue" ] @keyword.repeat
"return" @keyword.return
"assert" @keyword
[ "and" "or" "as" ] @keyword.operator

(module_declaration name: (module_name) @module)
; In `a::b::NAME` every name but the last is a module's.
(path module: (identifier) @module)

(function_declaration name: (identifier) @function)
(call_expression function: (identifier) @function.call)
(call_expression function: (path name: (identifier) @function.call))
(call_expression function: (field_expression field: (identifier) @function.method.call))
(test_declaration name: (identifier) @function)

(struct_declaration name: (identifier) @type)
(primitive_type) @type.builtin
(type_path (path name: (identifier) @type))
(type_identifier) @type
(attribute) @attribute

(field_declaration name: (identifier) @property)
(field_initializer name: (identifier) @property)
(field_expression field: (identifier) @property)

(parameter name: (identifier) @variable.parameter)

(const_declaration name: (identifier) @constant)
(var_declaration name: (identifier) @variable)

; A name written in capitals is a constant wherever it is used.
((identifier) @constant
  (#match? @constant "^[A-Z][A-Z0-9_]*$"))

(identifier) @variable

(integer) @number
(float) @number.float
(string) @string
(escape_sequence) @string.escape
(char) @character
(boolean) @boolean
(undefined) @constant.builtin

[
  "=" "+=" "-=" "*=" "<<=" ">>=" "==" "!=" "<" "<=" ">" ">=" "+" "-" "*" "/" "%" "&" "|" "^" "<<" ">>"
  "!" "&&" "||" "->" "=>"
] @operator

[ "(" ")" "[" "]" "{" "}" ] @punctuation.bracket
[ "," ":" "::" "." ] @punctuation.delimiter
