//! Literals as JavaScript writes them.

use num_bigint::BigInt;

const MAX_SAFE: i64 = (1 << 53) - 1;

/// An integer in the runtime's canonical form: a number while it is a safe integer, else a
/// bigint. Negative ones are parenthesised, so that they can stand after any operator.
pub(crate) fn int_literal(i: &BigInt) -> String {
    let safe = *i <= BigInt::from(MAX_SAFE) && *i >= BigInt::from(-MAX_SAFE);
    let text = if safe { i.to_string() } else { format!("{i}n") };
    if text.starts_with('-') {
        format!("({text})")
    } else {
        text
    }
}

/// An `f64`, exactly (Rust's shortest round-trip form is valid JavaScript).
pub(crate) fn f64_literal(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "(-Infinity)" }.into()
    } else if x == 0.0 && x.is_sign_negative() {
        "(-0)".into()
    } else if x < 0.0 {
        format!("({x:?})")
    } else {
        format!("{x:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_numbers_while_safe() {
        assert_eq!(int_literal(&BigInt::from(MAX_SAFE)), "9007199254740991");
        assert_eq!(
            int_literal(&BigInt::from(MAX_SAFE + 1)),
            "9007199254740992n"
        );
        assert_eq!(int_literal(&BigInt::from(-MAX_SAFE)), "(-9007199254740991)");
        assert_eq!(
            int_literal(&BigInt::from(i64::MIN)),
            "(-9223372036854775808n)"
        );
    }

    #[test]
    fn floats_keep_every_bit() {
        assert_eq!(f64_literal(0.1), "0.1");
        assert_eq!(f64_literal(-0.0), "(-0)");
        assert_eq!(f64_literal(1e300), "1e300");
        assert_eq!(f64_literal(f64::NEG_INFINITY), "(-Infinity)");
    }
}
