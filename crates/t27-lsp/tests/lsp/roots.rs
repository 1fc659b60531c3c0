//! The spec root does not depend on the folder the editor opened: the workspace opened at the
//! tree's top, at its `specs` folder, at a module's folder, or at a link to that folder, the
//! cross-module `use` resolves (the root is the nearest folder named `specs` of each file's
//! real place, as for `t27 check`).

use crate::codes;
use crate::common::*;
use serde_json::Value;
use std::path::Path;

const A: &str = "module A;\npub const X : u32 = 3;\n";
const B: &str =
    "module B;\nuse queen::a::X;\npub const Y : u32 = X + 1;\ntest t { assert Y == 4; }\n";

/// A tree `specs/queen/{a,b}.t27` in a temporary folder, with a link `link` to `specs/queen`.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let queen = dir.path().join("specs/queen");
    std::fs::create_dir_all(&queen).expect("mkdir");
    std::fs::write(queen.join("a.t27"), A).expect("write");
    std::fs::write(queen.join("b.t27"), B).expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&queen, dir.path().join("link")).expect("symlink");
    dir
}

/// The diagnostics of `b.t27` (under `folder`, through the path the workspace has) once it
/// is opened with `text`, the workspace opened at `workspace`.
fn diagnostics_of_b(workspace: &Path, folder: &Path, text: &str) -> Vec<Value> {
    let mut c = Client::start(workspace);
    let b = uri(&folder.join("b.t27"));
    c.open(&b, text);
    let diags = c.diagnostics(&b);
    c.shutdown();
    diags
}

#[test]
fn the_use_resolves_from_every_folder_the_workspace_is_opened_at() {
    let dir = tree();
    let top = dir.path().to_path_buf();
    let queen = top.join("specs/queen");
    let mut opened = vec![
        (top.clone(), queen.clone()),
        (top.join("specs"), queen.clone()),
        (queen.clone(), queen.clone()),
    ];
    if cfg!(unix) {
        opened.push((top.join("link"), top.join("link")));
    }
    for (workspace, folder) in opened {
        let diags = diagnostics_of_b(&workspace, &folder, B);
        assert_eq!(
            diags,
            Vec::<Value>::new(),
            "opened at {}",
            workspace.display()
        );
        // The server does check the file: a module that is not there is found missing.
        let missing = B.replace("queen::a::X", "queen::nowhere::X");
        let diags = diagnostics_of_b(&workspace, &folder, &missing);
        assert!(
            codes(&diags).contains(&"E1003".to_string()),
            "opened at {}: {diags:?}",
            workspace.display()
        );
    }
}
