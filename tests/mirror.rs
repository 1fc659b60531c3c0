//! Host mirrors: the generated TypeScript and Rust for the owner's specs and the mirror
//! fixtures are snapshotted, compile with `rustc -D warnings` and `tsc --strict`, and give back
//! exactly the values t27 computed when a Node program and a Rust program print them.

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use t27_check::Checked;
use t27_diag::Sources;
use t27_gen::Target;
use t27_ir::{ItemRef, ModuleId, Ty};

/// A request whose mirror is tested, and which of its modules can be mirrored.
struct Request {
    what: &'static str,
    checked: Checked,
    faults: Vec<Option<t27_check::ModuleFault>>,
}

impl Request {
    fn new(what: &'static str, dir: &str) -> Request {
        let checked = check_paths(&t27_files(Path::new(dir)), &mut MemLoader::default());
        let faults = t27_check::module_faults(&checked);
        Request {
            what,
            checked,
            faults,
        }
    }

    fn mirrored(&self, m: ModuleId) -> bool {
        self.faults[m.index()].is_none()
    }

    /// The requested modules that are mirrored.
    fn modules(&self) -> impl Iterator<Item = &t27_ir::Module> {
        let p = &self.checked.program;
        p.modules
            .iter()
            .enumerate()
            .filter(|(i, m)| m.requested && self.mirrored(ModuleId(*i as u32)))
            .map(|(_, m)| m)
    }
}

/// The requests whose mirrors are tested: the owner's specs, the mirror fixtures, and a tree
/// with broken modules, of which only the sound ones are mirrored.
fn requests() -> Vec<Request> {
    let owner = Request::new("owner", "specs");
    let fixtures = Request::new("fixtures", "tests/fixtures/gen");
    for r in [&owner, &fixtures] {
        assert_eq!(r.checked.error_count(), 0, "{}", rendered(&r.checked));
    }
    let isolation = Request::new("isolation", "tests/fixtures/isolation");
    let names: Vec<&str> = isolation.modules().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["QueenBase", "QueenClean"], "the sound modules");
    vec![owner, fixtures, isolation]
}

/// Every generated file of a request, by relative path.
fn generate(req: &Request, target: t27_gen::Target) -> BTreeMap<PathBuf, String> {
    let checked = &req.checked;
    let p = &checked.program;
    let source = |m: ModuleId| checked.sources.text(p.modules[m.index()].file).to_string();
    let layout = t27_gen::Layout::Tree;
    t27_gen::mirror_files(p, target, layout, &source, &|m| req.mirrored(m), &|_| false)
}

fn write_tree(dir: &Path, files: &BTreeMap<PathBuf, String>) {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent folder")).expect("temp folder");
        std::fs::write(path, text).expect("temp file");
    }
}

/// A fresh folder of the test's own, removed when it goes out of scope.
fn temp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("t27-mirror-{name}-"))
        .tempdir()
        .expect("temp folder")
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn mirrors_are_snapshotted() {
    for req in requests() {
        let what = req.what;
        for target in [Target::TypeScript, Target::JavaScript, Target::Rust] {
            // The runtime is a file of the repository (crates/t27-gen/src/js), copied as it is.
            let files = generate(&req, target);
            for (rel, text) in files
                .iter()
                .filter(|(r, _)| !r.to_string_lossy().starts_with("t27_runtime"))
            {
                let name = format!("{what}__{}", rel.display()).replace(['/', '\\'], "__");
                insta::assert_snapshot!(name, text);
            }
        }
    }
}

/// The `t27 consts` values of every public constant: `module::name` to JSON value.
fn t27_values(req: &Request) -> BTreeMap<String, serde_json::Value> {
    let p = &req.checked.program;
    let file = |m: ModuleId| {
        req.checked
            .sources
            .name(p.modules[m.index()].file)
            .to_string()
    };
    t27_gen::consts_json(p, &file, &|m| req.mirrored(m))
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v["pub"] == true)
        .map(|v| {
            (
                format!(
                    "{}::{}",
                    v["module"].as_str().unwrap_or(""),
                    v["name"].as_str().unwrap_or("")
                ),
                v["value"].clone(),
            )
        })
        .collect()
}

fn parse_lines(text: &str) -> BTreeMap<String, serde_json::Value> {
    text.lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .map(|v| {
            (
                v["key"].as_str().unwrap_or("").to_string(),
                v["value"].clone(),
            )
        })
        .collect()
}

/// The TypeScript mirrors type-check under `--strict` and, compiled, give back t27's values;
/// so do the JavaScript mirrors, run as they are, whose `.d.ts` files type-check too.
#[test]
fn typescript_and_javascript_mirrors_type_check_and_round_trip() {
    for req in requests() {
        let what = req.what;
        let folder = temp(&format!("ts-{what}"));
        let dir = folder.path();
        let files = generate(&req, Target::TypeScript);
        write_tree(&dir.join("src"), &files);
        let sources: Vec<PathBuf> = files
            .keys()
            .filter(|r| r.to_string_lossy().ends_with(".ts"))
            .map(|r| dir.join("src").join(r))
            .collect();
        run(Command::new(tsc())
            .args(["--strict", "--target", "es2022", "--module", "es2022"])
            .args(["--moduleResolution", "bundler", "--outDir"])
            .arg(dir.join("ts"))
            .arg("--rootDir")
            .arg(dir.join("src"))
            .args(&sources));
        std::fs::write(
            dir.join("ts").join(t27_gen::js::RUNTIME_FILE),
            t27_gen::js::RUNTIME_JS,
        )
        .expect("runtime");
        let js = generate(&req, Target::JavaScript);
        write_tree(&dir.join("js"), &js);
        let declarations: Vec<PathBuf> = js
            .keys()
            .filter(|r| r.to_string_lossy().ends_with(".d.ts"))
            .map(|r| dir.join("js").join(r))
            .collect();
        run(Command::new(tsc())
            .args([
                "--strict", "--noEmit", "--target", "es2022", "--module", "es2022",
            ])
            .args(["--moduleResolution", "bundler"])
            .args(&declarations));
        for (flavor, folder) in [("ts", "ts"), ("js", "js")] {
            std::fs::write(
                dir.join(folder).join("package.json"),
                "{ \"type\": \"module\" }",
            )
            .expect("package.json");
            // A small Node program prints every constant with the rules of `t27 consts`.
            let mut script = String::from(
                "const toJson = (v) => typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Array.from(v) :\n  Array.isArray(v) ? v.map(toJson) : (v !== null && typeof v === 'object') ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)])) : v;\n",
            );
            for m in req.modules() {
                let file = dir.join(folder).join(t27_gen::output_path(m, "js"));
                script.push_str(&format!(
                    "for (const [k, v] of Object.entries(await import({:?}))) if (typeof v !== 'function') console.log(JSON.stringify({{ key: {:?} + '::' + k, value: toJson(v) }}));\n",
                    file.display().to_string(),
                    m.name
                ));
            }
            let js_file = dir.join(format!("print-{flavor}.mjs"));
            std::fs::write(&js_file, script).expect("script");
            let printed = parse_lines(&run(Command::new("node").arg(&js_file)));
            assert_eq!(
                printed,
                t27_values(&req),
                "{flavor} values differ from t27's for {what}"
            );
        }
    }
}

/// JSON printing helpers of the Rust round-trip program, with the rules of `t27 consts`.
const HELPERS: &str = r#"
fn int(v: i128) -> String {
    if v.abs() <= (1i128 << 53) - 1 { v.to_string() } else { format!("\"{v}\"") }
}
fn text(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) => {
            let mut o = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => o.push_str("\\\""),
                    '\\' => o.push_str("\\\\"),
                    c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                    c => o.push(c),
                }
            }
            o.push('"');
            o
        }
        Err(_) => format!("[{}]", b.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
    }
}
"#;

/// Rust code that prints a constant of type `ty` as JSON with the rules of `t27 consts`.
fn rust_printer(checked: &Checked, ty: &Ty, expr: &str) -> String {
    let p = &checked.program;
    match ty {
        Ty::Int(_) => format!("int({expr} as i128)"),
        Ty::Bool => format!("{expr}.to_string()"),
        Ty::F64 => format!("format!(\"{{:?}}\", {expr})"),
        Ty::Str => format!("text({expr}.as_ref())"),
        Ty::Array(e, _) => {
            format!(
                "format!(\"[{{}}]\", {expr}.iter().map(|x| {}).collect::<Vec<_>>().join(\",\"))",
                rust_printer(checked, e, "(*x)")
            )
        }
        Ty::Struct(id) => {
            let fields: Vec<String> = p.structs[id.index()]
                .fields
                .iter()
                .map(|f| {
                    let inner = rust_printer(
                        checked,
                        &f.ty,
                        &format!("{expr}.{}", t27_gen::rust_name(&f.name)),
                    );
                    format!("format!(\"\\\"{}\\\":{{}}\", {inner})", f.name)
                })
                .collect();
            format!(
                "format!(\"{{{{{{}}}}}}\", [{}].join(\",\"))",
                fields.join(", ")
            )
        }
        _ => "String::from(\"null\")".to_string(),
    }
}

#[test]
fn rust_mirrors_compile_and_round_trip() {
    for req in requests() {
        let (what, checked) = (req.what, &req.checked);
        let folder = temp(&format!("rs-{what}"));
        let dir = folder.path();
        // The tree as `t27 gen rust` writes it, mod.rs files included.
        write_tree(&dir.join("gen"), &generate(&req, Target::Rust));
        run(Command::new("rustc")
            .args([
                "--edition",
                "2021",
                "--crate-type",
                "lib",
                "-D",
                "warnings",
                "--out-dir",
            ])
            .arg(dir)
            .arg(dir.join("gen/mod.rs")));
        // And each module's file through `include!`, as `t27-build`'s include file nests them
        // (a `build.rs` host includes it from `OUT_DIR`): no inner attribute or `//!` doc may
        // be in a file (E0753), and paths between mirrors hold there as in the `mod.rs` tree.
        let files = generate(&req, Target::Rust);
        let included = t27_gen::rust_include_file(&dir.join("gen"), files.keys());
        let included_rs = dir.join("included.rs");
        std::fs::write(&included_rs, included).expect("included.rs");
        run(Command::new("rustc")
            .args(["--edition", "2021", "--crate-type", "lib", "-D", "warnings"])
            .args(["--crate-name", "included", "--out-dir"])
            .arg(dir)
            .arg(&included_rs));
        let p = &checked.program;
        let mut main = format!(
            "#![allow(dead_code)]\n#[path = {:?}]\nmod mirror;\n{}\nfn main() {{\n",
            dir.join("gen/mod.rs").display().to_string(),
            HELPERS
        );
        for m in req.modules() {
            let path: Vec<String> = m
                .path
                .iter()
                .map(|s| t27_gen::rust_module_name(&s.replace('-', "_")))
                .collect();
            for item in &m.items {
                let ItemRef::Const(id) = item else { continue };
                let c = &p.consts[id.index()];
                if !c.decl.is_pub || c.value.is_none() {
                    continue;
                }
                let expr = format!(
                    "mirror::{}::{}",
                    path.join("::"),
                    t27_gen::rust_name(&c.decl.name)
                );
                main.push_str(&format!(
                    "    println!(\"{{{{\\\"key\\\":\\\"{}::{}\\\",\\\"value\\\":{{}}}}}}\", {});\n",
                    m.name,
                    c.decl.name,
                    rust_printer(checked, &c.ty, &expr)
                ));
            }
        }
        main.push_str("}\n");
        let main_rs = dir.join("main.rs");
        std::fs::write(&main_rs, main).expect("main.rs");
        let exe = dir.join("print");
        run(Command::new("rustc")
            .args(["--edition", "2021", "-o"])
            .arg(&exe)
            .arg(&main_rs));
        let printed = parse_lines(&run(&mut Command::new(&exe)));
        assert_eq!(
            printed,
            t27_values(&req),
            "Rust values differ from t27's for {what}"
        );
    }
}

/// A host's arguments are checked at the mirror's entry: what the parameter's type does not
/// hold is a `TypeError` or a `RangeError` naming the parameter, a 64-bit value may be a
/// bigint, and a string may be a JS string.
#[test]
fn javascript_mirror_refuses_what_the_types_do_not_hold() {
    let req = Request::new("fixtures", "tests/fixtures/gen");
    let folder = temp("arguments");
    let dir = folder.path();
    write_tree(dir, &generate(&req, Target::JavaScript));
    std::fs::write(dir.join("package.json"), "{ \"type\": \"module\" }").expect("package.json");
    let script = "import { pick } from './mirror/arguments.js';\n\
        const call = (...a) => { try { return String(pick(...a)); } catch (e) { return `${e.name}: ${e.message}`; } };\n\
        for (const args of [\n\
          [7, -1, true, 0.5, 'n'], [7, -1n, true, 0.5, 'n'], [7, -1, true, 0.5, new Uint8Array([110])],\n\
          [256, -1, true, 0.5, 'n'], [-1, -1, true, 0.5, 'n'], [1.5, -1, true, 0.5, 'n'], ['7', -1, true, 0.5, 'n'],\n\
          [7, 2 ** 60, true, 0.5, 'n'], [7, 2n ** 63n, true, 0.5, 'n'], [7, -1, 1, 0.5, 'n'], [7, -1, true, '0.5', 'n'],\n\
        ]) console.log(call(...args));\n";
    std::fs::write(dir.join("call.mjs"), script).expect("script");
    let printed = run(Command::new("node").arg(dir.join("call.mjs")));
    insta::assert_snapshot!("arguments_refused", printed);
}
