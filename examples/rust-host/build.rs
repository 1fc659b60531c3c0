//! Mirrors the owner's specs into `OUT_DIR` on every build that needs it: Cargo reruns this
//! when a spec changes (t27-build tells it which files it read).

fn main() {
    let specs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../specs/queen");
    t27_build::Build::new().spec(specs).compile_or_exit();
}
