// The owner's route to a card, rebuilt here for comparison (BENCHMARKS.md, "wasm cards"):
// the rules of specs/queen/dispatch.t27 as plain C, as the owner's C back end writes them
// (unchecked arithmetic), compiled by `zig cc --target=wasm32-wasi -Oz -mexec-model=reactor`.
// Only the two functions of the dispatch sweep are here; the seeds are the source of truth.
#include <stdbool.h>
#include <stdint.h>

#define EXPORT(name) __attribute__((export_name(#name)))

enum { S_NONE = 0, S_RUNNING = 1, S_REFUSED = 2, S_ENDED = 3, S_WAIT = 4, S_ACCEPT = 5,
       S_SENDBACK = 6, S_ESCALATE = 7, S_EMPTY = 8, S_STALE = 9, S_REAPED = 10,
       S_RELEASED = 11, ILLEGAL = 99 };
enum { E_START = 0, E_REFUSE = 1, E_END = 2, E_END_OTHER_TURN = 3, E_REAP_STALL = 4,
       E_REAP_BOOT = 5, E_VERDICT_ACCEPT = 6, E_VERDICT_SENDBACK = 7, E_VERDICT_ESCALATE = 8,
       E_VERDICT_WAIT = 9, E_VERDICT_EMPTY = 10, E_CRITERIA_CHANGED = 11,
       E_CI_RED_UNDER_CEILING = 12, E_CI_RED_AT_CEILING = 13, E_FLOOR_PASSED = 14,
       E_REDISPATCH = 15 };
enum { V_NONE = 0, V_BLANK = 1, V_WAIT = 2, V_EMPTY = 3, V_SENDBACK = 4, V_ESCALATE = 5,
       V_ACCEPT = 6, V_FAILED = 7, V_CANCELLED = 8, V_STALE = 9 };
enum { C_RUNNING = 0, C_ACCEPTED = 1, C_REJECTED = 2, C_AWAITING_REVIEW = 3, C_FAILED = 4 };
static const uint64_t EMPTY_FLOOR_MS = 1800000, SENDBACK_FLOOR_MS = 3600000,
                      WAIT_FLOOR_MS = 21600000, CEILING_RELEASE_MS = 3600000;
static const uint32_t MAX_CEILING_RELEASES = 1, SENDBACK_CEILING = 2;

EXPORT(next_state) uint32_t next_state(uint32_t state, uint32_t event) {
    if (state == S_NONE) {
        if (event == E_START) return S_RUNNING;
        if (event == E_REFUSE) return S_REFUSED;
        return ILLEGAL;
    }
    if (state == S_RUNNING) {
        if (event == E_END) return S_ENDED;
        if (event == E_REAP_STALL) return S_REAPED;
        if (event == E_REAP_BOOT) return S_REAPED;
        return ILLEGAL;
    }
    if (state == S_ENDED || state == S_WAIT) {
        if (event == E_VERDICT_ACCEPT) return S_ACCEPT;
        if (event == E_VERDICT_SENDBACK) return S_SENDBACK;
        if (event == E_VERDICT_ESCALATE) return S_ESCALATE;
        if (event == E_VERDICT_WAIT) return S_WAIT;
        if (event == E_VERDICT_EMPTY) return S_EMPTY;
        if (event == E_CRITERIA_CHANGED) return S_STALE;
        if (event == E_FLOOR_PASSED) return S_RELEASED;
        return ILLEGAL;
    }
    if (state == S_ACCEPT) {
        if (event == E_CI_RED_UNDER_CEILING) return S_SENDBACK;
        if (event == E_CI_RED_AT_CEILING) return S_ESCALATE;
        return ILLEGAL;
    }
    if (state == S_SENDBACK || state == S_EMPTY) {
        if (event == E_CRITERIA_CHANGED) return S_STALE;
        if (event == E_FLOOR_PASSED) return S_RELEASED;
        return ILLEGAL;
    }
    if (state == S_ESCALATE) {
        if (event == E_CRITERIA_CHANGED) return S_STALE;
        return ILLEGAL;
    }
    if (state == S_STALE || state == S_REAPED || state == S_REFUSED || state == S_RELEASED) {
        if (event == E_REDISPATCH) return S_RUNNING;
        return ILLEGAL;
    }
    return ILLEGAL;
}

EXPORT(claim_of) uint32_t claim_of(bool finished, uint32_t verdict, uint64_t idle_ms,
                                   uint32_t send_backs, uint32_t releases) {
    if (finished == false) return C_RUNNING;
    if (verdict == V_ACCEPT) return C_ACCEPTED;
    if (verdict == V_FAILED || verdict == V_CANCELLED) return C_FAILED;
    if (verdict == V_EMPTY) {
        if (idle_ms >= EMPTY_FLOOR_MS) return C_FAILED;
        return C_REJECTED;
    }
    if (verdict == V_STALE) return C_FAILED;
    if (verdict == V_SENDBACK) {
        if (idle_ms >= SENDBACK_FLOOR_MS && send_backs < SENDBACK_CEILING) return C_FAILED;
        if (releases >= MAX_CEILING_RELEASES) return C_REJECTED;
        if (idle_ms >= CEILING_RELEASE_MS) return C_FAILED;
        return C_REJECTED;
    }
    if (verdict == V_NONE || verdict == V_BLANK || verdict == V_WAIT) {
        if (idle_ms >= WAIT_FLOOR_MS && send_backs < SENDBACK_CEILING) return C_FAILED;
    }
    return C_AWAITING_REVIEW;
}

// The rest of the module's public functions, so that both cards hold the same module.
enum { COL_BACKLOG = 0, COL_BLOCKED = 1, COL_RUNNING = 2, COL_REVIEW = 3, COL_DONE = 4,
       COL_DROPPED = 5 };
enum { R_ACCEPT = 0, R_SENDBACK = 1, R_ESCALATE = 2, R_WAIT = 3 };
enum { R_MODEL_ENDED_TURN = 0, R_TIME_TOKEN_LIMIT = 1, R_CRASHED = 2, R_BOUNDARY_CORRECT = 3,
       R_REFUSAL_START = 4, R_PUSH_FAILED = 5, R_UNKNOWN = 6, END_REASON_COUNT = 7 };
static const uint32_t NONE_CHOSEN = 5, STALL_MINUTES = 120;

EXPORT(releases_read_by_round) uint32_t releases_read_by_round(uint32_t stored) { return 0; }
EXPORT(column_of) uint32_t column_of(uint32_t claim, bool issue_open, bool issue_list_known) {
    if (claim != C_RUNNING && issue_list_known && issue_open == false) return COL_DONE;
    if (claim == C_RUNNING) return COL_RUNNING;
    if (claim == C_ACCEPTED) return COL_DONE;
    if (claim == C_REJECTED || claim == C_AWAITING_REVIEW) return COL_REVIEW;
    return COL_DROPPED;
}
EXPORT(chosen_of) uint32_t chosen_of(bool e0, bool e1, bool e2, bool e3, bool e4) {
    if (e0) return 0;
    if (e1) return 1;
    if (e2) return 2;
    if (e3) return 3;
    if (e4) return 4;
    return NONE_CHOSEN;
}
EXPORT(can_start) bool can_start(uint32_t running, uint32_t limit) { return running < limit; }
EXPORT(review_of) uint32_t review_of(uint32_t total, uint32_t judged, uint32_t met,
                                     bool committed_known, uint32_t committed,
                                     uint32_t prior_send_backs) {
    if (total == 0) return R_ESCALATE;
    if (judged < total) return R_WAIT;
    if (met == total) {
        if (committed_known && committed > 0) return R_ACCEPT;
        return R_ESCALATE;
    }
    if (prior_send_backs >= SENDBACK_CEILING) return R_ESCALATE;
    return R_SENDBACK;
}
EXPORT(retry_allowed) bool retry_allowed(uint32_t real_attempts) { return real_attempts < SENDBACK_CEILING; }
EXPORT(counts_against_issue) bool counts_against_issue(bool interrupted) { return interrupted == false; }
EXPORT(lease_taken) bool lease_taken(bool expired, bool same_holder) { return expired || same_holder; }
EXPORT(fence_after) uint64_t fence_after(uint64_t fence) { return fence + 1; }
EXPORT(owners_per_term) uint32_t owners_per_term(void) { return 1; }
EXPORT(stall_reapable) bool stall_reapable(uint32_t age_minutes) { return age_minutes > STALL_MINUTES; }
EXPORT(followup_rounds) uint32_t followup_rounds(uint32_t requests_during_round) {
    if (requests_during_round > 0) return 1;
    return 0;
}
EXPORT(accept_requires_pull_request) bool accept_requires_pull_request(void) { return false; }
EXPORT(writer_enforces_table) bool writer_enforces_table(void) { return false; }
EXPORT(is_valid_end_reason) bool is_valid_end_reason(uint32_t reason) { return reason < END_REASON_COUNT; }
EXPORT(is_no_diff_end_reason) bool is_no_diff_end_reason(uint32_t reason) {
    return reason == R_MODEL_ENDED_TURN || reason == R_TIME_TOKEN_LIMIT ||
           reason == R_BOUNDARY_CORRECT || reason == R_REFUSAL_START ||
           reason == R_PUSH_FAILED || reason == R_UNKNOWN;
}
EXPORT(is_crash_end_reason) bool is_crash_end_reason(uint32_t reason) { return reason == R_CRASHED; }
