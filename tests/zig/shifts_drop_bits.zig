// Zig's meaning of tests/fixtures/run/shifts_drop_bits.t27, block for block, and of the folds
// of tests/fixtures/good/specs/shift_folds.t27: the values those fixtures assert are Zig's. Run: `zig test tests/zig/shifts_drop_bits.zig`
// (Zig 0.17). Zig wants a shift amount of type Log2Int(T) (u3 for u8); `amt` casts it, and that
// cast is where Zig's safety check stops an amount at or past the width, where t27 traps.
const std = @import("std");
const expect = std.testing.expect;

fn amt(comptime T: type, n: anytype) std.math.Log2Int(T) {
    return @intCast(n);
}

const A: u8 = 171;
const A4: u8 = A << 4;
const TOP: i8 = 64;
const ALL: u64 = 0xFFFFFFFFFFFFFFFF;
const WIDE: u64 = 1 << 40;

fn shl8(a: u8, n: u8) u8 {
    return a << amt(u8, n);
}
fn shl16(a: u16, n: u32) u16 {
    return a << amt(u16, n);
}
fn shl32(a: u32, n: u8) u32 {
    return a << amt(u32, n);
}
fn shl64(a: u64, n: u64) u64 {
    return a << amt(u64, n);
}
fn shl_usize(a: u64, n: u8) u64 {
    return a << amt(u64, n);
}
fn shl_i8(a: i8, n: u8) i8 {
    return a << amt(i8, n);
}
fn shl_i16(a: i16, n: u8) i16 {
    return a << amt(i16, n);
}
fn shl_i32(a: i32, n: u8) i32 {
    return a << amt(i32, n);
}
fn shl_i64(a: i64, n: u8) i64 {
    return a << amt(i64, n);
}
fn nibble_swap(a: u8) u8 {
    var hi: u8 = a;
    var lo: u8 = a;
    var four: u32 = 4;
    _ = &four;
    hi <<= amt(u8, four);
    lo >>= 4;
    return hi | lo;
}

test "u8_drops_the_high_bits" {
    var a: u8 = 171;
    _ = &a;
    try expect(a << 4 == 176);
    try expect((a << 4) >> 4 == 11);
    try expect(shl8(171, 4) == 176 and shl8(255, 7) == 128 and shl8(1, 7) == 128);
}
test "u16_and_u32_drop_the_high_bits" {
    try expect(shl16(0xABCD, 4) == 0xBCD0 and shl16(0xFFFF, 15) == 0x8000);
    try expect(shl32(0xDEADBEEF, 8) == 0xADBEEF00 and shl32(3, 31) == 0x80000000);
}
test "u64_and_usize_drop_the_high_bits" {
    try expect(shl64(0xFEDCBA9876543210, 4) == 0xEDCBA98765432100);
    try expect(shl64(0x8000000000000001, 63) == 0x8000000000000000);
    try expect(shl64(0xFFFFFFFFFFFFFFFF, 1) == 0xFFFFFFFFFFFFFFFE);
    try expect(shl_usize(0x0123456789ABCDEF, 40) == 0xABCDEF0000000000);
}
test "signed_keeps_the_low_bits_as_twos_complement" {
    var b: i8 = 64;
    _ = &b;
    try expect(b << 1 == -128);
    try expect(shl_i8(64, 1) == -128 and shl_i8(-1, 7) == -128 and shl_i8(85, 1) == -86);
    try expect(shl_i16(0x4000, 1) == -32768 and shl_i16(-3, 14) == 16384);
    try expect(shl_i32(-3, 30) == 1073741824 and shl_i32(1, 31) == -2147483648);
    try expect(shl_i64(3, 62) == -4611686018427387904 and shl_i64(-1, 63) == -9223372036854775807 - 1);
}
test "shift_assignments_drop_the_high_bits" {
    var a: u8 = 171;
    a <<= 4;
    try expect(a == 176);
    a >>= 4;
    try expect(a == 11);
    var s: i16 = 0x4001;
    var n: u8 = 1;
    _ = &n;
    s <<= amt(i16, n);
    try expect(s == -32766);
    try expect(nibble_swap(0xAB) == 0xBA);
}
test "typed_constants_shift_in_their_type" {
    try expect(A << 4 == 176);
    try expect((A << 4) >> 4 == 11);
    try expect(A4 == 176);
    try expect(TOP << 1 == -128);
    try expect(ALL << 8 == 0xFFFFFFFFFFFFFF00);
}
test "untyped_literals_stay_exact" {
    try expect(WIDE == 1099511627776);
    try expect((1 << 40) >> 38 == 4);
}
test "still_runs_after_the_traps" {
    try expect(shl8(3, 7) == 128);
}
test "shift_folds" {
    const BACK: u8 = (A << 4) >> 4;
    const TOP1: i8 = TOP << 1;
    const HALF: u32 = 0x80000001;
    const HALF1: u32 = HALF << 1;
    const MINUS: i32 = -3;
    const MINUS30: i32 = MINUS << 30;
    const EXACT_BACK: u8 = (1 << 40) >> 38;
    try expect(A4 == 176 and BACK == 11);
    try expect(TOP1 == -128 and ALL << 8 == 0xFFFFFFFFFFFFFF00);
    try expect(HALF1 == 2 and MINUS30 == 1073741824);
    try expect(WIDE == 1099511627776 and EXACT_BACK == 4);
}
