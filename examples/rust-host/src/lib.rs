//! A Rust host of the owner's specs. `build.rs` compiles `specs/queen` with `t27-build`; the
//! mirrors come in as the modules `queen::dispatch` and `queen::review_first`, with the exact
//! types and values the spec computes, and its functions: the host decides with them.

include!(concat!(env!("OUT_DIR"), "/t27/mirrors.rs"));

use queen::dispatch;

/// The name of a dispatch state, from the spec's own codes: the host never writes a code down.
pub fn state_name(state: u32) -> Option<&'static str> {
    Some(match state {
        dispatch::S_NONE => "none",
        dispatch::S_RUNNING => "running",
        dispatch::S_REFUSED => "refused",
        dispatch::S_ENDED => "ended",
        dispatch::S_WAIT => "wait",
        dispatch::S_ACCEPT => "accept",
        dispatch::S_SENDBACK => "sendback",
        dispatch::S_ESCALATE => "escalate",
        dispatch::S_EMPTY => "empty",
        dispatch::S_STALE => "stale",
        dispatch::S_REAPED => "reaped",
        dispatch::S_RELEASED => "released",
        _ => return None,
    })
}

/// Where a task ends after `events`, from `S_NONE`, by the spec's own `next_state`; `None`
/// when an event is one the spec refuses.
pub fn replay(events: &[u32]) -> Option<u32> {
    let mut state = dispatch::S_NONE;
    for &event in events {
        state = dispatch::next_state(state, event);
        if state == dispatch::ILLEGAL {
            return None;
        }
    }
    Some(state)
}

/// Which candidates of a round are admitted while `waiting` dispatches wait in review, by the
/// spec's own `admits`.
pub fn admitted(kinds: &[u8], waiting: u32) -> Vec<u8> {
    kinds
        .iter()
        .copied()
        .filter(|&k| queen::review_first::admits(k, waiting))
        .collect()
}

/// What the review valve says when `waiting` dispatches hold the backlog closed.
pub fn refusal(waiting: u32) -> String {
    format!("{waiting}{}", queen::review_first::REFUSAL_TAIL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mirrored_codes_are_the_specs() {
        assert_eq!(dispatch::KIND, "queen-dispatch");
        assert_eq!((dispatch::S_RUNNING, dispatch::ILLEGAL), (1, 99));
        assert_eq!(state_name(dispatch::S_RELEASED), Some("released"));
        assert_eq!(state_name(dispatch::ILLEGAL), None);
        let names: Vec<_> = (0..12).filter_map(state_name).collect();
        assert_eq!(names.len(), 12, "every state from 0 to 11 has a name");
    }

    #[test]
    fn a_constant_of_the_other_module_has_its_exact_type() {
        let max: u32 = queen::review_first::REVIEW_QUEUE_MAX;
        let admit: u8 = queen::review_first::R_ADMIT;
        assert_eq!((max, admit), (0, 0));
        assert!(refusal(3).starts_with("3 dispatches wait in review"));
    }

    #[test]
    fn the_host_decides_with_the_specs_functions() {
        use queen::review_first::admission;
        use queen::review_first::{KIND_ASSIGNED, KIND_BACKLOG, KIND_REWORK, R_REVIEW_FIRST};
        assert_eq!(admission(KIND_BACKLOG, 29), R_REVIEW_FIRST);
        assert_eq!(
            admitted(&[KIND_BACKLOG, KIND_REWORK, KIND_ASSIGNED], 29),
            [KIND_REWORK, KIND_ASSIGNED]
        );
        assert_eq!(admitted(&[KIND_BACKLOG], 0), [KIND_BACKLOG]);
        let (start, end, accept) = (
            dispatch::E_START,
            dispatch::E_END,
            dispatch::E_VERDICT_ACCEPT,
        );
        assert_eq!(replay(&[start, end, accept]), Some(dispatch::S_ACCEPT));
        assert_eq!(replay(&[start, start]), None);
        let claim = dispatch::claim_of(true, dispatch::V_EMPTY, dispatch::EMPTY_FLOOR_MS, 0, 0);
        assert_eq!(claim, dispatch::C_FAILED);
    }
}
