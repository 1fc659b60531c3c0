//! What the host runner (`js::HOST_RUNNER`) prints, read back as the engines' outcomes, so
//! that `t27 test --host` reports a block exactly as `t27 test` does: the assert's span and
//! both sides' values for a failure, the trap's kind and span, a timeout.

use crate::js::Site;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::time::Duration;
use t27_ir::{Outcome, Program, Shown, TestId, TrapKind, Ty, Value};

/// One block's result on the host.
#[derive(Debug)]
pub struct HostResult {
    pub test: TestId,
    /// The outcome, or why the host could not give one (a crash of the host itself).
    pub outcome: Result<Outcome, String>,
    pub duration: Duration,
}

/// Reads the runner's output, one JSON object a line. `sites` are the places the generated
/// files name, with their spans. A line that is not a result is an error.
pub fn read_results(
    p: &Program,
    output: &str,
    sites: &BTreeMap<String, Site>,
) -> Result<Vec<HostResult>, String> {
    output
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| read_line(p, line, sites).ok_or_else(|| format!("unreadable result: {line}")))
        .collect()
}

fn read_line(p: &Program, line: &str, sites: &BTreeMap<String, Site>) -> Option<HostResult> {
    let v: Json = serde_json::from_str(line).ok()?;
    let test = TestId(u32::try_from(v.get("id")?.as_u64()?).ok()?);
    let duration = Duration::from_nanos(v.get("ns").and_then(Json::as_u64).unwrap_or(0));
    let site = |v: &Json| sites.get(v.get("at")?.as_str()?);
    let outcome = match v.get("outcome")?.as_str()? {
        "pass" => Ok(Outcome::Pass),
        "timeout" => Ok(Outcome::Timeout),
        "trap" => {
            let name = v.get("kind")?.as_str()?;
            let kind = TrapKind::ALL.into_iter().find(|k| k.name() == name)?;
            Ok(Outcome::Trap {
                kind,
                span: site(&v)?.span,
            })
        }
        "fail" => {
            let s = site(&v)?;
            let (left, right) = match &s.sides {
                Some((l, r)) => (
                    Some(shown(p, v.get("left")?, l)?),
                    Some(shown(p, v.get("right")?, r)?),
                ),
                None => (None, None),
            };
            Ok(Outcome::Fail {
                assert: s.span,
                left,
                right,
            })
        }
        _ => Err(v
            .get("message")
            .and_then(Json::as_str)
            .unwrap_or("the host gave no outcome")
            .to_string()),
    };
    Some(HostResult {
        test,
        outcome,
        duration,
    })
}

/// A value of type `ty` the runner encoded, as a failure report shows it (what the
/// evaluator's `Rt::shown` gives for the same value).
fn shown(p: &Program, v: &Json, ty: &Ty) -> Option<Shown> {
    Some(match ty {
        Ty::Int(_) | Ty::UntypedInt => Shown::Int(number(v)?.parse().ok()?),
        Ty::F64 => Shown::F64(float(number(v)?)?),
        Ty::Bool => Shown::Bool(v.get("b")?.as_bool()?),
        Ty::Str => Shown::Str(bytes(v)?),
        _ => Shown::Other(display(p, v, ty)?),
    })
}

fn number(v: &Json) -> Option<&str> {
    v.get("n")?.as_str()
}

fn float(text: &str) -> Option<f64> {
    match text {
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        "NaN" => Some(f64::NAN),
        _ => text.parse().ok(),
    }
}

fn bytes(v: &Json) -> Option<Vec<u8>> {
    v.get("s")?
        .as_array()?
        .iter()
        .map(|b| u8::try_from(b.as_u64()?).ok())
        .collect()
}

/// An aggregate written as the evaluator writes one: `[1, true, "x", [2, 3]]`.
fn display(p: &Program, v: &Json, ty: &Ty) -> Option<String> {
    Some(match ty {
        Ty::Int(_) | Ty::UntypedInt => number(v)?.to_string(),
        Ty::F64 => format!("{:?}", float(number(v)?)?),
        Ty::Bool => v.get("b")?.as_bool()?.to_string(),
        Ty::Str => Value::Str(bytes(v)?).to_string(),
        _ => {
            let items = v.get("a")?.as_array()?;
            let types: Vec<Ty> = match ty {
                Ty::Array(e, _) => vec![(**e).clone(); items.len()],
                Ty::MutSlice => vec![Ty::Int(t27_ir::IntTy::U8); items.len()],
                Ty::Tuple(ts) => ts.clone(),
                Ty::Struct(id) => p.structs[id.index()]
                    .fields
                    .iter()
                    .map(|f| f.ty.clone())
                    .collect(),
                _ => return None,
            };
            let parts: Option<Vec<String>> = items
                .iter()
                .zip(&types)
                .map(|(x, t)| display(p, x, t))
                .collect();
            format!("[{}]", parts?.join(", "))
        }
    })
}
