//! The registry of stable diagnostic codes.
//!
//! Codes never change meaning and are never reused. Ranges by phase: `E0xxx` lexical and
//! syntax, `E1xxx` names and modules, `E2xxx` types, `E3xxx` constant evaluation, `Wxxxx`
//! warnings. Each code's example is a real fixture from `tests/fixtures/errors/`, compiled in so
//! that `t27 explain` shows exactly what the test suite checks.

use crate::diagnostic::Severity;
use std::fmt;

/// A stable diagnostic code such as `E0101`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub &'static str);

impl Code {
    pub fn as_str(self) -> &'static str {
        self.0
    }
    /// The registered information; every code constructed by the phases is registered.
    pub fn info(self) -> Option<&'static CodeInfo> {
        explain(self.0)
    }
    pub fn severity(self) -> Severity {
        if self.0.starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        }
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// What `t27 explain CODE` prints.
pub struct CodeInfo {
    pub code: &'static str,
    pub title: &'static str,
    pub explanation: &'static str,
    pub fix: &'static str,
    /// The fixture file name under `tests/fixtures/errors/`.
    pub example_file: &'static str,
    /// The fixture's bytes: a spec that triggers this code (bytes, because the E0006 example
    /// is deliberately not UTF-8).
    pub example: &'static [u8],
}

/// Looks a code up, case-insensitively.
pub fn explain(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

macro_rules! codes {
    ($($code:literal $file:literal { $title:literal, $explanation:literal, fix: $fix:literal })*) => {
        /// Every registered code, in order.
        pub static CODES: &[CodeInfo] = &[
            $(CodeInfo {
                code: $code,
                title: $title,
                explanation: $explanation,
                fix: $fix,
                example_file: $file,
                example: include_bytes!(concat!("../../../tests/fixtures/errors/", $file)),
            },)*
        ];
    };
}

codes! {
    "E0001" "E0001-invalid-character.t27" {
        "a character that cannot start any token",
        "Outside comments and strings a spec uses only ASCII letters, digits, `_`, white space and the punctuation of the language. Characters such as `$`, `@` or `~`, or any non-ASCII character, cannot start a token.",
        fix: "Delete the character, or move the text into a `//` comment or a string."
    }
    "E0002" "E0002-unterminated-string.t27" {
        "a string literal that is never closed",
        "A string literal starts with `\"` and must end with `\"` on the same line.",
        fix: "Add the closing `\"`; write `\\\"` for a quote inside the string."
    }
    "E0003" "E0003-invalid-escape.t27" {
        "an escape sequence the language does not have",
        "Strings and character literals accept the escapes `\\\"`, `\\'`, `\\\\`, `\\n`, `\\t`, `\\r` and `\\xNN` (two hex digits).",
        fix: "Use one of the listed escapes, or `\\\\` for a literal backslash."
    }
    "E0004" "E0004-invalid-char-literal.t27" {
        "a character literal that is not exactly one byte",
        "A character literal such as `'A'` or `'\\n'` is one `u8` value, so it holds exactly one ASCII character or one escape.",
        fix: "Write one character between the quotes, or use a string literal `\"...\"` for text."
    }
    "E0005" "E0005-malformed-number.t27" {
        "a number literal that is not well formed",
        "Integer literals are decimal (`42`), hexadecimal (`0xff`) or binary (`0b1010`), with optional `_` separators between digits. Float literals have digits on both sides of the point (`0.5`).",
        fix: "Remove the stray letters or separators, or add the missing digits."
    }
    "E0006" "E0006-invalid-utf8.t27" {
        "a file that is not valid UTF-8",
        "Spec files are UTF-8. A byte sequence that is not UTF-8 usually means the file was saved in another encoding (Latin-1, UTF-16) or is not a spec at all.",
        fix: "Save the file as UTF-8; the diagnostic gives the byte offset of the first bad byte."
    }
    "E0100" "E0100-unexpected-token.t27" {
        "a token where the grammar expects something else",
        "The parser met a token that cannot continue the declaration, statement or expression it was reading. The message lists what could come there instead.",
        fix: "Compare the marked line with the forms in LANGUAGE.md sections 2 and 4; a missing operator or comma is the usual cause."
    }
    "E0101" "E0101-missing-semicolon.t27" {
        "a statement or declaration without its closing `;`",
        "Every `const`, `var`, `use` and `module` declaration and every simple statement (`let`, assignment, `assert`, `return`, a call) ends with `;`.",
        fix: "Add `;` where the diagnostic points."
    }
    "E0102" "E0102-unclosed-delimiter.t27" {
        "an opening `{`, `(` or `[` that is never closed",
        "The body that starts at the marked delimiter runs into the next declaration or the end of the file without its closing partner. The rest of the file is still read as if it were closed there.",
        fix: "Add the closing `}`, `)` or `]` where the body ends."
    }
    "E0103" "E0103-missing-module.t27" {
        "a file without a `module` declaration",
        "Every spec file is one module and names it first: `module QueenReviewFirst;` before any other declaration.",
        fix: "Add `module Name;` at the top of the file, after the header comments."
    }
    "E0104" "E0104-legacy-import.t27" {
        "the legacy `import Name;` form",
        "`import Name;` comes from an older dialect and does not say which file to read. t27 imports with `use`, by path from the spec root.",
        fix: "Write `use folder::file::NAME;` for one item, or `use folder::file;` for the whole module."
    }
    "E0105" "E0105-older-dialect.t27" {
        "a file in an older dialect that is not t27",
        "The owner's tree also holds files in older dialects: `module X { ... }` with braces and Zig enums, and an assembler-like form with `.const`/`.code`/`.test` sections. They are not this language, so t27 reports the first line that is not t27 and reads no further.",
        fix: "Port the file to t27: `module X;` followed by `pub const`, `pub fn`, `test` and `invariant` declarations."
    }
    "E0106" "E0106-chained-comparison.t27" {
        "comparisons chained without parentheses",
        "`a < b < c` does not mean `a < b and b < c` in t27: comparisons do not chain.",
        fix: "Write `a < b and b < c`, or add parentheses if you meant to compare a `bool`."
    }
    "E0107" "E0107-unknown-attribute.t27" {
        "an attribute other than `#[test]`",
        "t27 has no attributes. `#[test]` before a function is accepted (with warning W0004) because it is a common Rust habit; any other `#[...]` is an error.",
        fix: "Remove the attribute."
    }
    "E0108" "E0108-misplaced-module.t27" {
        "a `module` declaration that is not the first declaration, or a second one",
        "A file is exactly one module, and its `module Name;` line comes before every other declaration.",
        fix: "Move the `module` line to the top of the file and remove any second one."
    }
    "E0109" "E0109-nested-too-deeply.t27" {
        "code nested too deeply",
        "Expressions and types may nest at most 256 levels deep, and so may brackets, parentheses and braces, and `else if` chains; every phase of t27 walks the code recursively, and the limit keeps each within its stack. Real specs stay far below it; generated or damaged files may not.",
        fix: "Split the code: name parts of a long expression with `let` or constants, move nested blocks into functions."
    }
    "E1001" "E1001-unknown-name.t27" {
        "a name that is not declared",
        "The name is not a local, a parameter, a declaration of this module or an imported item. Names of a module may be used before their declaration, so the cause is a typo or a missing `use`.",
        fix: "Correct the spelling (the diagnostic suggests the nearest name), or import the item with `use`."
    }
    "E1002" "E1002-duplicate-name.t27" {
        "a name declared twice in one module",
        "Every top-level name in a module is unique: two constants, functions, tests or structs of the same name would make every use ambiguous.",
        fix: "Rename one of the two declarations, or delete the one that is stale."
    }
    "E1003" "E1003-module-not-found.t27" {
        "a `use` of a module file that does not exist",
        "`use a::b::NAME;` reads the module in the file `ROOT/a/b.t27`, where ROOT is the spec root: the nearest ancestor folder named `specs`, or the folder given with `--root`.",
        fix: "Check the path against the spec tree, or pass `--root` when the specs are not under a `specs` folder."
    }
    "E1004" "E1004-name-not-in-module.t27" {
        "a `use` of a name the module does not declare",
        "The module file exists but declares no constant, function or struct of that name.",
        fix: "Correct the name (the diagnostic suggests the nearest one) or declare it in that module."
    }
    "E1005" "E1005-import-cycle/a.t27" {
        "modules that import each other in a cycle",
        "A module may not import itself, directly or through other modules: constants could then depend on their own value and no module could be checked first.",
        fix: "Move the shared declarations into a third module that both import."
    }
    "E1006" "E1006-private-import/main.t27" {
        "a `use` of a declaration that is not `pub`",
        "Only declarations marked `pub` can be imported into another module.",
        fix: "Mark the declaration `pub` in its module, or stop importing it."
    }
    "E1007" "E1007-unknown-type.t27" {
        "a type name that is not a built-in type or a declared struct",
        "Types are `u8 u16 u32 u64 usize i8 i16 i32 i64 bool str f64`, arrays `[N]T`, slices `[]const u8`, tuples `(T, U)`, and structs declared with `pub struct`.",
        fix: "Correct the type name, or declare the struct."
    }
    "E2001" "E2001-type-mismatch.t27" {
        "a value of one type where another type is expected",
        "A declared type, a parameter type or the other side of an operator fixes the type a value must have. Integers convert implicitly only when no value can be lost; everything else is an error.",
        fix: "Change the value, the declared type, or convert explicitly with `as`."
    }
    "E2002" "E2002-literal-out-of-range.t27" {
        "an integer literal that does not fit the type its context wants",
        "Integer literals take the type of their context (a declared type, a parameter, the other operand). A literal outside that type's range is rejected at compile time, never truncated.",
        fix: "Use a value inside the range shown, or a wider type."
    }
    "E2003" "E2003-mixed-integers.t27" {
        "two integer types mixed where a value could be lost",
        "`u8` mixes with `u32` (the narrower is widened), but `u64` with `i64`, or `u32` with `i32`, has no common type that holds every value of both.",
        fix: "Convert one side explicitly with `as`, e.g. `x as i64`; a conversion that loses the value traps at run time."
    }
    "E2004" "E2004-array-length.t27" {
        "an array literal whose length differs from its declared type",
        "`[N]T` holds exactly N elements: `[5]str` needs five strings.",
        fix: "Add or remove elements, or change N in the type."
    }
    "E2005" "E2005-missing-return.t27" {
        "a function with a return type that can finish without returning",
        "When a function declares `-> T`, every path through its body must end in `return`. The marked function can reach its closing `}`.",
        fix: "Add a final `return` (for example the default answer) at the end of the body."
    }
    "E2006" "E2006-assign-immutable.t27" {
        "an assignment to a `let`, `const`, parameter or module constant",
        "Only `var` locals and module `var`s can change. Parameters, `let` and `const` are immutable.",
        fix: "Declare the local with `var`, or assign to a new `var` copy of the parameter."
    }
    "E2007" "E2007-argument-count.t27" {
        "a call with the wrong number of arguments",
        "A call passes exactly one argument for each parameter of the function.",
        fix: "Add or remove arguments to match the signature shown in the note."
    }
    "E2008" "E2008-assert-not-bool.t27" {
        "an `assert` whose expression is not a `bool`",
        "`assert e;` checks that `e` is `true`. An integer or string is not a truth value.",
        fix: "Compare the value, e.g. `assert x == 3;` or `assert n != 0;`."
    }
    "E2009" "E2009-bad-operands.t27" {
        "an operator applied to values it does not work on",
        "Arithmetic and bit operators work on integers (and `+ - * /` on `f64`), `< <= > >=` on integers and floats, `and`/`or`/`!` on `bool`, and `==`/`!=` on two values of the same type.",
        fix: "Convert the operands, or use the operator meant for their type."
    }
    "E2010" "E2010-not-indexable.t27" {
        "indexing a value that is not an array, string or slice",
        "`a[i]` reads an element of an array, a string or a slice; other values have no elements.",
        fix: "Index the array itself, not one of its elements or a scalar."
    }
    "E2011" "E2011-no-field.t27" {
        "a field or method the value does not have",
        "Arrays, strings and slices have `.len` (also `.len()`); strings have `.contains(s)`; structs have their declared fields.",
        fix: "Use one of the names listed in the note."
    }
    "E2012" "E2012-invalid-cast.t27" {
        "an `as` conversion between types that do not convert",
        "`as` converts between integer types and between integers and `f64`. Strings, arrays, booleans and structs do not convert with `as`.",
        fix: "Compare or compute the value instead, e.g. `if (b) 1 else 0` for a `bool`."
    }
    "E2013" "E2013-return-value.t27" {
        "a `return` that does not match the function's return type",
        "A function with `-> T` returns a value with every `return`; a function without a return type returns none.",
        fix: "Give the `return` a value of the declared type, or remove the value or the return type."
    }
    "E2014" "E2014-break-outside-loop.t27" {
        "`break` or `continue` outside a loop",
        "`break` and `continue` act on the innermost `while` or `for` loop; there is none around the marked statement.",
        fix: "Use `return` to leave a function, or move the statement into the loop."
    }
    "E2015" "E2015-switch-no-else.t27" {
        "a `switch` that does not cover every value",
        "A `switch` over integers or strings must say what happens for the values its arms do not list.",
        fix: "Add a last arm `else => value`."
    }
    "E2016" "E2016-struct-literal.t27" {
        "a struct literal that does not match its struct",
        "A struct literal `{ a: 1, b: 2 }` takes its type from its context (a declared type, a parameter) and gives every field exactly once.",
        fix: "Add the missing fields, remove unknown ones, or declare the type of the value."
    }
    "E2017" "E2017-not-a-value.t27" {
        "a function, module or struct used where a value is expected, or a call of something that is not a function",
        "Functions are called, not used as values; modules and structs are names for items and types.",
        fix: "Call the function with its arguments, or name a constant."
    }
    "E2018" "E2018-tuple-count.t27" {
        "a tuple destructuring with the wrong number of names",
        "`let (a, b, c) = f(...);` needs one name for each element of the tuple that `f` returns.",
        fix: "Match the names to the tuple type shown."
    }
    "E2019" "E2019-useless-expression.t27" {
        "an expression statement that does nothing",
        "A statement made of an expression other than a call computes a value and drops it; it is almost always a typo for an assignment or an `assert`.",
        fix: "Write `assert e;` to check it, or `x = e;` to keep it."
    }
    "E2020" "E2020-var-needs-type.t27" {
        "a local whose type cannot be inferred",
        "A local initialised with an integer literal alone has no type: literals take their type from context, and here there is none. The same holds for a literal shifted by a run-time amount (`1 << kind`) where nothing around it has a type: it takes the type of the other operand of `& | ^` and of arithmetic, of an assignment's target or declared type, and of a comparison's other side.",
        fix: "Declare the type, e.g. `var count : u32 = 0;`, or give the literal one: `(1 as u32) << kind`. A `var` cannot hold an untyped float either (`var f = 1.5;`): write `var f : f64 = 1.5;`."
    }
    "E2021" "E2021-misplaced-undefined.t27" {
        "`undefined` used as a value",
        "`undefined` only initialises a `var` (a local or a module `var`) whose value is filled in later; until written, its bytes read as 0xAA, as in the reference's Debug build (a `u8` is 170, a `bool` false). It is not a value to compute with.",
        fix: "Initialise the variable with a real value, or assign before use."
    }
    "E2022" "E2022-bad-address-of.t27" {
        "`&` applied to something other than a `[N]u8` array",
        "`&arr` turns a byte array into a byte slice (`[]const u8`). There are no pointers to other values.",
        fix: "Remove the `&`."
    }
    "E2023" "E2023-array-too-large.t27" {
        "an array type too large to hold",
        "An array holds at most 1,048,576 values, counting the values of nested arrays. Arrays are values: the engines keep them whole, so `[4294967295]u64` would need 32 GiB.",
        fix: "Use a smaller array; a spec states rules, not data sets."
    }
    "E2024" "E2024-writable-slice-not-a-parameter.t27" {
        "`[]u8` used as the type of something other than a parameter",
        "A `[]u8` is a writable view of a `var` array that the caller holds: `put(&out, w, cap, c)` passes `&out`, and what `put` writes through its `out: []u8` lands in the caller's array. Only a parameter can be such a view; a value that is kept (a constant, a local, a field, a return value) holds its bytes in an array or reads them as `[]const u8`.",
        fix: "Use `[N]u8` to hold bytes, or `[]const u8` to read them."
    }
    "E2025" "E2025-read-only-view.t27" {
        "a writable view of bytes that cannot be written",
        "A `[]u8` parameter writes into the array its caller passes, so that array must be writable: `&buf` of a `var buf : [N]u8` (a local or a module `var`). A string literal, a `let` or `const` array, a module constant and a `[]const u8` are read-only; `[]u8` converts to `[]const u8`, never back.",
        fix: "Declare the array with `var`, or copy the bytes into a `var` array and pass `&` of that."
    }
    "E2026" "E2026-recursive-struct.t27" {
        "a struct that contains itself by value",
        "A struct holds its fields' values in place, through arrays and tuples too, so a struct that holds itself (`Tree { kids: [2]Tree }`, or through another struct: `A { b: B }` and `B { a: [3]A }`) would be infinitely large. The error is at the field that closes the cycle, and names it (`A.b -> B.a -> A`); t27 has no pointers and no slices of structs to hold such a value another way. Every block that reaches the struct is not run; the others run.",
        fix: "Keep the parts in an array of their own and refer to them by index."
    }
    "E2027" "E2027-nested-declarations.t27" {
        "declarations nested deeper than t27 follows",
        "A struct's value may nest at most 256 deep (structs holding structs by value, counting the arrays and tuples around each), and a constant may need at most 256 constants declared after it, each computed inside the one before (`A = B + 1; B = C + 1; ...`, with `A` first). Checking, the engines and the mirrors follow such chains recursively, and the limit keeps them within their stack. Real specs stay far below it; generated files may not.",
        fix: "Flatten the structs; declare constants before the ones that use them."
    }
    "E2030" "E2030-invariant-writes-module-var.t27" {
        "an invariant that writes a module `var`",
        "The owner's compiler decides an `invariant` while it compiles the spec, where no module `var` can change, so it refuses an invariant that writes one, directly or in a function it calls (LANGUAGE.md 9.6). t27 refuses the same invariants: the error is at the write, or at the call that leads to one, and names the function that writes.",
        fix: "Make the block a `test` (tests run at run time and may change module `var`s), or compute with local `var`s."
    }
    "E3001" "E3001-constant-out-of-range.t27" {
        "a constant whose computed value does not fit its type",
        "An expression of untyped literals is computed with unbounded precision and then fitted to its type. Once a typed constant takes part, each operation is done in that type, as at run time (the owner's rule, LANGUAGE.md 3): `A + 200 - 200` with `A: u8 = 100` leaves `u8` at `A + 200`, even though the end result would fit. The marked value is outside the type's range.",
        fix: "Widen an operand first (`(A as u32) + 200`), change the expression, or use a wider type."
    }
    "E3002" "E3002-constant-division-by-zero.t27" {
        "a division or remainder by zero in a constant",
        "A constant expression that divides by zero has no value; at compile time this is an error at its span (at run time it would be a trap). This includes untyped floats (`1.0 / 0.0`): they are folded in binary128 as Zig's `comptime_float`, and a fold must give a finite number, so the infinity or NaN a run-time `f64` division would give is refused.",
        fix: "Check the divisor constant."
    }
    "E3003" "E3003-constant-index-out-of-bounds.t27" {
        "an index outside its array in a constant expression",
        "Indexes run from 0 to the length minus one.",
        fix: "Use an index below the array's length."
    }
    "E3004" "E3004-constant-shift-too-wide.t27" {
        "a shift by the type's width or more in a constant, or by a constant amount",
        "Shifting a `uN` or `iN` value by N bits or more (or by a negative amount) is a trap. In a constant it is a compile error, and so is a shift whose amount is a constant (`lane << 33` with `lane: u32`), even in a function no block calls: it would trap wherever it runs. The bits `<<` pushes out of the type are not an error: they are dropped (`(a << 4) >> 4` with `a: u8 = 171` is 11).",
        fix: "Shift by less than the width, or widen the type first."
    }
    "E3005" "E3005-constant-lossy-cast.t27" {
        "a narrowing `as` in a constant that loses the value",
        "`x as T` never truncates: when the value does not fit `T` it is a trap, and in a constant a compile error.",
        fix: "Use a type wide enough for the value."
    }
    "E3006" "E3006-constant-cycle.t27" {
        "a constant whose value depends on itself",
        "Constants may refer to each other in any order, but not in a circle: no value could be computed first.",
        fix: "Break the circle by writing one of the values as a literal."
    }
    "E3007" "E3007-constant-not-computable.t27" {
        "a constant initialiser that needs the program to run",
        "Module constants and the initial values of module `var`s are computed when the spec is compiled, from literals and other constants. Calls are never evaluated at compile time, and variables have no value yet.",
        fix: "Compute the value from literals and constants, or move the call into a test."
    }
    "E3008" "E3008-false-folded-assert.t27" {
        "an assert on constants that is false",
        "An assert made only of literals and constants is decided when the spec is compiled (it is folded). This one is false, so its block fails every time it runs.",
        fix: "Correct the constant or the expected value; two such asserts may contradict each other."
    }
    "E3009" "E3009-float-fold-overflow.t27" {
        "an untyped float too large for binary128",
        "Untyped float literals and constants, and `+ - * /` between them, are folded when the spec is compiled, in IEEE binary128 as Zig's `comptime_float` (LANGUAGE.md 11.2). Binary128 reaches about 1.19e4932; a literal or a fold beyond it would be infinite, and a fold must give a finite number. (A finite value too large for `f64` becomes infinity only where it meets an `f64`, as in Zig.)",
        fix: "Change the expression so that its value stays finite, or give an operand a type to compute in `f64` at run time."
    }
    "W0001" "W0001-module-without-semicolon.t27" {
        "a `module` declaration without its `;`",
        "`module Name` without `;` is accepted for old files, but the form is `module Name;`.",
        fix: "Add `;` after the module name."
    }
    "W0002" "W0002-string-alias.t27" {
        "the `string` alias for `str`",
        "`string` is a rare alias for `str`; both mean an immutable byte string.",
        fix: "Write `str`."
    }
    "W0003" "W0003-mixed-logic-operators.t27" {
        "`&&` or `||` in a file that also uses `and` or `or`",
        "Both spellings work, but a file that mixes them reads as if they meant different things.",
        fix: "Write `and` for `&&` and `or` for `||`."
    }
    "W0004" "W0004-test-attribute.t27" {
        "`#[test] pub fn` instead of a `test` block",
        "The Rust habit `#[test] pub fn test_x() { ... }` is read as the test block `test test_x { ... }`.",
        fix: "Write `test test_x { ... }`."
    }
    "W0005" "W0005-shadowed-local.t27" {
        "a local declared again in the same block",
        "The second declaration shadows the first from that point on, as in Rust. Readers may take it for an assignment.",
        fix: "Give the second value its own name, or declare one `var` and assign to it."
    }
    "W0006" "W0006-indented-semicolon-comment.t27" {
        "an indented `;` comment inside a body",
        "A line starting with `;` is a comment, a habit from the headers of the owner's specs. Inside a function or test body it is easily mistaken for an empty statement.",
        fix: "Write the comment with `//`."
    }
    "W0007" "W0007-unreachable-code.t27" {
        "a statement that can never run",
        "The marked statement follows a `return`, `break` or `continue` in the same block, so it never executes; an assert there is never checked.",
        fix: "Remove the statement, or move it before the jump."
    }
    "W0008" "W0008-markdown-document.t27" {
        "a Markdown document with a `.t27` name",
        "The owner keeps design notes beside the specs as Markdown saved with a `.t27` name: a `#` heading on the first line, then tables and prose. Such a file is not t27, so t27 skips it with this one warning instead of reporting every line it cannot lex; nothing in it is checked or run.",
        fix: "Rename the document to `.md`, or write it as t27 with `module Name;` first."
    }
}
