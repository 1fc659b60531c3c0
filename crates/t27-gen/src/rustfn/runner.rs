// The host runner: runs every block in order, each from the declared module `var`s, on a
// thread with a large stack (a spec nests calls 10,000 deep before it traps), each within its
// time budget (milliseconds, the first argument), and prints one JSON line per block: its id,
// outcome, place and values, and time.
fn main() {
    let timeout_ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    // A trap is a panic; its message goes into the block's record, not to stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let worker = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for (reset, block, id) in BLOCKS {
                // Every block starts from the declared module `var`s (LANGUAGE.md 17.1).
                reset();
                let started = std::time::Instant::now();
                t27_rt::start(Some(started + std::time::Duration::from_millis(timeout_ms)));
                let result = std::panic::catch_unwind(*block);
                let ns = started.elapsed().as_nanos();
                let record = match result {
                    Ok(()) => "\"outcome\":\"pass\"".to_string(),
                    Err(payload) => outcome(payload),
                };
                let _ = writeln!(out, "{{{record},\"id\":{id},\"ns\":{ns}}}");
            }
        })
        .expect("a thread for the blocks");
    let _ = worker.join();
}

const KINDS: [(&str, &str); 6] = [
    ("overflow", t27_rt::OVERFLOW),
    ("division_by_zero", t27_rt::DIVISION_BY_ZERO),
    ("shift_too_wide", t27_rt::SHIFT_TOO_WIDE),
    ("index_out_of_bounds", t27_rt::INDEX_OUT_OF_BOUNDS),
    ("lossy_cast", t27_rt::LOSSY_CAST),
    ("recursion_too_deep", t27_rt::RECURSION_TOO_DEEP),
];

fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn outcome(payload: Box<dyn std::any::Any + Send>) -> String {
    if payload.downcast_ref::<t27_rt::Timeout>().is_some() {
        return "\"outcome\":\"timeout\"".to_string();
    }
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    if let Some(rest) = message.strip_prefix("assert failed at ") {
        return match rest.split_once("; left ") {
            Some((at, sides)) => {
                let (l, r) = sides.split_once("; right ").unwrap_or((sides, "null"));
                format!("\"outcome\":\"fail\",\"at\":{},\"left\":{l},\"right\":{r}", json(at))
            }
            None => format!("\"outcome\":\"fail\",\"at\":{}", json(rest)),
        };
    }
    for (kind, describe) in KINDS {
        if let Some(at) = message
            .strip_prefix(describe)
            .and_then(|rest| rest.strip_prefix(" at "))
        {
            return format!("\"outcome\":\"trap\",\"kind\":\"{kind}\",\"at\":{}", json(at));
        }
    }
    format!("\"outcome\":\"error\",\"message\":{}", json(&message))
}
