//! `t27 test --watch`: every block first; after a save, the blocks of the changed module and of
//! the modules that import it, and no other, with a summary; the watcher keeps going.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The lines a child writes on one of its streams, as they come.
fn lines(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// Every line until one contains `text`, which is the last; a failure after 60 seconds.
fn until(from: &Receiver<String>, text: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut got = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match from.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(text);
                got.push(line);
                if done {
                    return got;
                }
            }
            Err(_) => break,
        }
    }
    panic!("no line with {text:?}; got {got:#?}");
}

struct Stop(Child);

impl Drop for Stop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_save_reruns_the_module_and_its_importers_only() {
    watch_from("", &[]);
}

/// The same from inside the module's folder: `use q::b::LIMIT` still reaches `b.t27` (the
/// root is the `specs` folder above), and a save of it still reruns its importer.
#[test]
fn a_save_reruns_the_importers_from_the_module_folder_too() {
    watch_from("specs/q", &["."]);
}

/// Watches the tree below `cwd` (under the temporary folder) with `paths`.
fn watch_from(cwd: &str, paths: &[&str]) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let specs = dir.path().join("specs/q");
    std::fs::create_dir_all(&specs).expect("folders");
    let write = |name: &str, text: &str| std::fs::write(specs.join(name), text).expect("write");
    write(
        "b.t27",
        "module B;\npub const LIMIT: u32 = 4;\ntest b_limit { assert LIMIT == 4; }\n",
    );
    write(
        "a.t27",
        "module A;\nuse q::b::LIMIT;\ntest a_uses_limit { assert LIMIT > 3; }\n",
    );
    write("c.t27", "module C;\ntest c_alone { assert 1 == 1; }\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_t27"))
        .args(["test", "--watch", "--color", "never"])
        .args(paths)
        .current_dir(dir.path().join(cwd))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("t27 runs");
    let (out, err) = (
        lines(child.stdout.take().expect("stdout")),
        lines(child.stderr.take().expect("stderr")),
    );
    let _stop = Stop(child);
    let first = until(&out, "3 passed, 0 failed");
    assert!(first.iter().any(|l| l.contains("C::c_alone")), "{first:#?}");
    until(&err, "[watch] waiting for changes to 3 files");

    write(
        "b.t27",
        "module B;\npub const LIMIT: u32 = 3;\ntest b_limit { assert LIMIT == 4; }\n",
    );
    let said = until(&err, "[watch] some failed");
    assert!(
        said.iter()
            .any(|l| l.contains("b.t27 changed: running the blocks of 2 modules")),
        "{said:#?}"
    );
    let second = until(&out, "0 passed, 2 failed");
    let ran = |name: &str| {
        second
            .iter()
            .any(|l| l.starts_with("FAIL") && l.contains(name))
    };
    assert!(ran("A::a_uses_limit") && ran("B::b_limit"), "{second:#?}");
    assert!(
        !second.iter().any(|l| l.contains("C::c_alone")),
        "{second:#?}"
    );

    // It goes on: a fix is seen too.
    write(
        "b.t27",
        "module B;\npub const LIMIT: u32 = 4;\ntest b_limit { assert LIMIT == 4; }\n",
    );
    until(&err, "[watch] all passed");
    until(&out, "2 passed, 0 failed");
}
