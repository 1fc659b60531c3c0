//! The forms of number, string and character literals.

use num_bigint::BigUint;
use num_traits::Num;

/// Checks a number token (`42`, `0xff`, `0b1010`, `1_000`, `0.5`); the error says what is wrong.
pub fn check_number(text: &str) -> Result<(), &'static str> {
    // Nearly every number is plain decimal digits, and a replay spec has millions of them.
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(());
    }
    if let Some((int, frac)) = text.split_once('.') {
        check_digits(int, 10)?;
        return check_digits(frac, 10);
    }
    let (digits, radix) = split_radix(text);
    check_digits(digits, radix)
}

fn split_radix(text: &str) -> (&str, u32) {
    if let Some(rest) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        (rest, 16)
    } else if let Some(rest) = text.strip_prefix("0b").or_else(|| text.strip_prefix("0B")) {
        (rest, 2)
    } else {
        (text, 10)
    }
}

fn check_digits(digits: &str, radix: u32) -> Result<(), &'static str> {
    if digits.is_empty() {
        return Err("no digits");
    }
    if digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return Err("`_` may only separate two digits");
    }
    if !digits.chars().all(|c| c == '_' || c.is_digit(radix)) {
        return Err(match radix {
            16 => "not a hexadecimal digit",
            2 => "binary literals use only 0 and 1",
            _ => "letters cannot follow the digits of a number",
        });
    }
    Ok(())
}

/// The value of an integer token already accepted by [`check_number`].
pub fn int_value(text: &str) -> IntLit {
    // Most literals are short decimal numbers: skip the general path for them.
    if text.len() <= 19 && text.bytes().all(|b| b.is_ascii_digit()) {
        return IntLit::Small(text.parse::<u64>().unwrap_or_default());
    }
    let (digits, radix) = split_radix(text);
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    let value = BigUint::from_str_radix(&clean, radix).unwrap_or_default();
    match u64::try_from(&value) {
        Ok(small) => IntLit::Small(small),
        Err(_) => IntLit::Big(Box::new(value)),
    }
}

/// The value of an integer literal. Nearly all fit in a `u64` and are kept inline: a spec
/// has millions of them in its replay tests, and a heap allocation each showed in profiles.
#[derive(Clone, Debug, PartialEq)]
pub enum IntLit {
    Small(u64),
    Big(Box<BigUint>),
}

impl IntLit {
    pub fn to_biguint(&self) -> BigUint {
        match self {
            IntLit::Small(v) => BigUint::from(*v),
            IntLit::Big(v) => (**v).clone(),
        }
    }
    pub fn to_u64(&self) -> Option<u64> {
        match self {
            IntLit::Small(v) => Some(*v),
            IntLit::Big(_) => None,
        }
    }
}

/// The value of a float token already accepted by [`check_number`].
pub fn float_value(text: &str) -> f64 {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    clean.parse().unwrap_or(0.0)
}

/// The byte offsets and lengths of escapes in a literal's body that t27 does not have.
pub fn bad_escapes(body: &str) -> Vec<(usize, usize)> {
    let bytes = body.as_bytes();
    let mut bad = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'"' | b'\'' | b'\\' | b'n' | b't' | b'r') => i += 2,
            Some(b'x') => {
                let ok = bytes
                    .get(i + 2..i + 4)
                    .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
                if !ok {
                    bad.push((i, 2));
                }
                i += if ok { 4 } else { 2 };
            }
            Some(_) => {
                let len = body[i + 1..].chars().next().map_or(1, |c| 1 + c.len_utf8());
                bad.push((i, len));
                i += len;
            }
            None => {
                bad.push((i, 1));
                i += 1;
            }
        }
    }
    bad
}

/// The bytes a literal's body stands for; bad escapes were reported by the lexer and are kept as
/// written.
pub fn unescape(body: &str) -> Vec<u8> {
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 >= bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        let (value, len) = match bytes[i + 1] {
            b'n' => (b'\n', 2),
            b't' => (b'\t', 2),
            b'r' => (b'\r', 2),
            b'x' => match body
                .get(i + 2..i + 4)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                Some(v) => (v, 4),
                None => (b'\\', 1),
            },
            other => (other, 2),
        };
        out.push(value);
        i += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimal_numbers_are_accepted_and_the_rest_checked_as_before() {
        assert_eq!(check_number("42"), Ok(()));
        assert_eq!(check_number("0"), Ok(()));
        assert!(check_number("1__0").is_err());
        assert!(check_number("0x").is_err());
        assert!(check_number("12ab").is_err());
        assert_eq!(check_number("1_000"), Ok(()));
        assert_eq!(check_number("0.5"), Ok(()));
    }
}
