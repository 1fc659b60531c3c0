//! Finding and reading modules: spec roots, `use` paths to files, and import cycles.
//!
//! The checker never touches the file system itself: it asks a [`Loader`] for bytes.

use crate::sources::SourceMap;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use t27_diag::{Code, Diagnostic, FileId, Span};
use t27_syntax::ast::{ItemKind, SourceFile};
use t27_syntax::lexer::SemicolonComment;

/// Reads spec files for the checker. The CLI reads the disk; tests and benchmarks serve memory.
///
/// Besides the bytes, a loader says which file a path is and where a file's spec root is:
/// on a disk, `b.t27` typed in `specs/queen` and `../queen/b.t27` reached through a `use` are
/// one file, and its root is `..`, which no lexical rule can tell. The defaults are the
/// lexical rules, right for files held in memory.
pub trait Loader {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String>;

    /// One key per file, however its path is written (two paths with one key are one module).
    fn locate(&mut self, path: &Path) -> PathBuf {
        normalize(path)
    }

    /// The spec root of a requested file (see [`spec_root`]), written so that the root's
    /// paths read as the file's do (relative when it is).
    fn spec_root(&mut self, file: &Path, root: Option<&Path>) -> PathBuf {
        spec_root(file, root)
    }
}

/// Serves spec files held in memory (benchmarks, fuzzing); any other path is not found.
#[derive(Clone, Debug, Default)]
pub struct MemoryLoader {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl MemoryLoader {
    pub fn new<P: AsRef<Path>, B: Into<Vec<u8>>>(files: impl IntoIterator<Item = (P, B)>) -> Self {
        MemoryLoader {
            files: files
                .into_iter()
                .map(|(p, b)| (normalize(p.as_ref()), b.into()))
                .collect(),
        }
    }
}

impl Loader for MemoryLoader {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| "not found".to_string())
    }
}

/// The spec root of a file by its path alone: `root` when given, else the nearest ancestor
/// folder named `specs` of the path as written, else the file's own folder. A loader that
/// reads a disk finds the `specs` folder from the file's real place instead
/// (`t27_build::files::spec_root`).
pub fn spec_root(file: &Path, root: Option<&Path>) -> PathBuf {
    if let Some(r) = root {
        return normalize(r);
    }
    let file = normalize(file);
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d.file_name().is_some_and(|n| n == "specs") {
            return d.to_path_buf();
        }
        dir = d.parent();
    }
    file.parent().map_or_else(PathBuf::new, Path::to_path_buf)
}

/// Removes `.` and resolves `..` lexically, so one file has one key however it was reached.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// One module as loaded: its file, parse tree and where it sits.
#[derive(Clone)]
pub(crate) struct LoadedModule {
    pub file: FileId,
    pub root: PathBuf,
    pub path: Vec<String>,
    pub ast: SourceFile,
    pub semicolon_comments: Vec<SemicolonComment>,
    pub requested: bool,
    /// For each `use` item (by item index): the module it names, once resolved.
    pub uses: HashMap<usize, UseTarget>,
}

#[derive(Clone, Debug)]
pub(crate) enum UseTarget {
    /// `use a::b::NAME;`: the item NAME of module `.0`.
    Item(usize, String),
    /// `use a::b;`: the module itself.
    Module(usize),
}

pub(crate) struct Loaded {
    pub modules: Vec<LoadedModule>,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    pub io_errors: Vec<(PathBuf, String)>,
    pub bytes: usize,
    pub tokens: usize,
}

/// Loads the requested files and, transitively, every module they `use`.
pub(crate) fn load_all(files: &[PathBuf], root: Option<&Path>, loader: &mut dyn Loader) -> Loaded {
    let mut loaded = Loaded {
        modules: Vec::new(),
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        io_errors: Vec::new(),
        bytes: 0,
        tokens: 0,
    };
    let mut by_path = Paths::default();
    // The requested files are read and decoded in order, then parsed on every core: they
    // are most of the work, and each file's parse depends on nothing else.
    let mut read: Vec<(PathBuf, PathBuf, Decoded)> = Vec::new();
    let mut seen: HashMap<PathBuf, usize> = HashMap::new();
    for f in files {
        let key = loader.locate(f);
        if seen.contains_key(&key) {
            continue;
        }
        match loader.read(f) {
            Ok(bytes) => {
                seen.insert(key.clone(), read.len());
                let file_id = FileId(read.len() as u32);
                read.push((f.clone(), key, Decoded::new(file_id, bytes)));
            }
            Err(e) => loaded.io_errors.push((f.clone(), e)),
        }
    }
    let texts: Vec<&str> = read.iter().map(|(_, _, d)| d.text.as_str()).collect();
    let parsed = parse_in_parallel(&texts);
    drop(texts);
    for ((f, key, decoded), parsed) in read.into_iter().zip(parsed) {
        let r = loader.spec_root(&f, root);
        // The module's path is the file's place under its root, compared where both really
        // are: `b.t27` under the root `..` is `queen/b` when the current folder is
        // `specs/queen`.
        let module_path = module_path(&key, &loader.locate(&r)).unwrap_or_else(|| {
            vec![
                f.file_stem()
                    .map_or(String::new(), |s| s.to_string_lossy().into_owned()),
            ]
        });
        let lexical = normalize(&f);
        if let Some(m) = add_parsed(&mut loaded, f, r, module_path, decoded, parsed, true) {
            by_path.insert(lexical, key, m);
        }
    }
    // Resolve `use` paths breadth first; newly loaded modules are appended and visited too.
    let mut next = 0;
    while next < loaded.modules.len() {
        let m = next;
        next += 1;
        let uses: Vec<(usize, Vec<String>, Span)> = loaded.modules[m]
            .ast
            .items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match &item.kind {
                ItemKind::Use(u) => Some((
                    i,
                    u.path.iter().map(|p| p.name.to_string()).collect(),
                    item.span,
                )),
                _ => None,
            })
            .collect();
        for (index, segments, span) in uses {
            if let Some(target) = resolve_use(&mut loaded, &mut by_path, loader, m, &segments, span)
            {
                loaded.modules[m].uses.insert(index, target);
            }
        }
    }
    report_cycles(&mut loaded);
    loaded
}

/// A file's bytes decoded: its text and the decoding errors.
struct Decoded {
    size: usize,
    text: String,
    errors: Vec<Diagnostic>,
}

impl Decoded {
    fn new(file_id: FileId, bytes: Vec<u8>) -> Decoded {
        let size = bytes.len();
        let (text, errors) = t27_syntax::decode(file_id, bytes);
        Decoded { size, text, errors }
    }
}

/// Parses `texts` (which are file ids 0, 1, ... in order) on every core, largest first,
/// each thread taking the next file when it is done with one.
fn parse_in_parallel(texts: &[&str]) -> Vec<t27_syntax::Parsed> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(texts.len());
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let parse = |i: usize| t27_syntax::parse(FileId(i as u32), texts[i]);
    // A small request is parsed on this thread: starting threads would cost more.
    if threads <= 1 || bytes < 256 * 1024 {
        return (0..texts.len()).map(parse).collect();
    }
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<t27_syntax::Parsed>> = (0..texts.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("t27-parse".into())
                    .stack_size(t27_syntax::THREAD_STACK)
                    .spawn_scoped(scope, || {
                        let mut done = Vec::new();
                        loop {
                            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&i) = order.get(k) else { break };
                            done.push((i, parse(i)));
                        }
                        done
                    })
                    .ok()
            })
            .collect();
        // A thread that could not be started leaves its files to the others, or to this one
        // below.
        for w in workers {
            // A panic in a parser thread is a bug; the file is then parsed again here,
            // where the panic reaches the caller as it would have without threads.
            if let Ok(done) = w.join() {
                for (i, r) in done {
                    results[i] = Some(r);
                }
            }
        }
    });
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| parse(i)))
        .collect()
}

/// The modules loaded so far, by the path as written (normalized: no loader call for a path
/// seen before) and by the loader's key (one module however its path is written).
#[derive(Default)]
struct Paths {
    written: HashMap<PathBuf, usize>,
    located: HashMap<PathBuf, usize>,
}

impl Paths {
    fn insert(&mut self, written: PathBuf, located: PathBuf, m: usize) {
        self.written.insert(written, m);
        self.located.insert(located, m);
    }
}

/// `file`'s path under `root` without its extension, as module path segments (`queen`,
/// `dispatch`); `None` when the file is not under the root.
fn module_path(file: &Path, root: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(root).ok()?.with_extension("");
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect(),
    )
}

fn add_module(
    loaded: &mut Loaded,
    path: PathBuf,
    root: PathBuf,
    module_path: Vec<String>,
    bytes: Vec<u8>,
) -> Option<usize> {
    let file_id = FileId(loaded.sources.len() as u32);
    let decoded = Decoded::new(file_id, bytes);
    let parsed = t27_syntax::parse(file_id, &decoded.text);
    add_parsed(loaded, path, root, module_path, decoded, parsed, false)
}

/// Adds a parsed file as the next module (its file id is the next one): the module's index,
/// or `None` for a document that is not t27 (W0008), whose source is kept for its warning
/// but which is no module.
fn add_parsed(
    loaded: &mut Loaded,
    path: PathBuf,
    root: PathBuf,
    module_path: Vec<String>,
    decoded: Decoded,
    parsed: t27_syntax::Parsed,
    requested: bool,
) -> Option<usize> {
    let file_id = FileId(loaded.sources.len() as u32);
    loaded.bytes += decoded.size;
    loaded.tokens += parsed.token_count;
    loaded.diagnostics.extend(decoded.errors);
    loaded.diagnostics.extend(parsed.diagnostics);
    loaded.sources.add(path, decoded.text);
    if parsed.skipped {
        return None;
    }
    loaded.modules.push(LoadedModule {
        file: file_id,
        root,
        path: module_path,
        ast: parsed.file,
        semicolon_comments: parsed.semicolon_comments,
        requested,
        uses: HashMap::new(),
    });
    Some(loaded.modules.len() - 1)
}

fn module_file(root: &Path, segments: &[String]) -> PathBuf {
    let mut p = root.to_path_buf();
    for s in segments {
        p.push(s);
    }
    p.set_extension("t27");
    p
}

/// Finds the module a `use` names, loading it when needed. `use a::b::NAME` reads
/// `ROOT/a/b.t27`; when that file does not exist, `use a::b` is tried as the module `ROOT/a/b.t27`.
fn resolve_use(
    loaded: &mut Loaded,
    by_path: &mut Paths,
    loader: &mut dyn Loader,
    from: usize,
    segments: &[String],
    span: Span,
) -> Option<UseTarget> {
    let root = loaded.modules[from].root.clone();
    let file = loaded.modules[from].file;
    let mut tried = Vec::new();
    if segments.len() >= 2 {
        let (module, name) = segments.split_at(segments.len() - 1);
        let path = module_file(&root, module);
        if let Some(m) = open(loaded, by_path, loader, &path, &root, module) {
            return Some(UseTarget::Item(m, name[0].clone()));
        }
        tried.push(path);
    }
    let path = module_file(&root, segments);
    if let Some(m) = open(loaded, by_path, loader, &path, &root, segments) {
        return Some(UseTarget::Module(m));
    }
    tried.push(path);
    let shown: Vec<String> = tried.iter().map(|p| format!("`{}`", p.display())).collect();
    loaded.diagnostics.push(
        Diagnostic::new(Code("E1003"), file, span, format!("no module file for `use {}`", segments.join("::")))
            .with_label("this module does not exist")
            .with_note(format!("looked for {}", shown.join(" and ")))
            .with_note(format!("the spec root is `{}`", root.display()))
            .with_help("check the path, or pass `--root DIR` when the specs are not under a folder named `specs`"),
    );
    None
}

/// The module at `path` (`ROOT/segments.t27`), loaded now if it is not yet.
fn open(
    loaded: &mut Loaded,
    by_path: &mut Paths,
    loader: &mut dyn Loader,
    path: &Path,
    root: &Path,
    segments: &[String],
) -> Option<usize> {
    let written = normalize(path);
    if let Some(&m) = by_path.written.get(&written) {
        return Some(m);
    }
    let located = loader.locate(path);
    if let Some(&m) = by_path.located.get(&located) {
        by_path.written.insert(written, m);
        return Some(m);
    }
    let bytes = loader.read(path).ok()?;
    let m = add_module(
        loaded,
        path.to_path_buf(),
        root.to_path_buf(),
        segments.to_vec(),
        bytes,
    )?;
    by_path.insert(written, located, m);
    Some(m)
}

/// Reports every import cycle once, at the `use` that closes it.
fn report_cycles(loaded: &mut Loaded) {
    let n = loaded.modules.len();
    // Edges: (target module, use span) per module, in source order.
    let edges: Vec<Vec<(usize, Span)>> = loaded
        .modules
        .iter()
        .map(|m| {
            let mut e: Vec<(usize, Span)> = m
                .uses
                .iter()
                .map(|(&i, t)| {
                    let target = match t {
                        UseTarget::Item(m, _) | UseTarget::Module(m) => *m,
                    };
                    (i, target, m.ast.items[i].span)
                })
                .map(|(_, t, s)| (t, s))
                .collect();
            e.sort_by_key(|(_, s)| s.start);
            e
        })
        .collect();
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut reported: Vec<Vec<usize>> = Vec::new();
    for start in 0..n {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative depth-first search: a deep import chain cannot overflow the stack.
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        mark[start] = Mark::Active;
        while let Some(&mut (m, ref mut next)) = stack.last_mut() {
            if let Some(&(target, span)) = edges[m].get(*next) {
                *next += 1;
                match mark[target] {
                    Mark::New => {
                        mark[target] = Mark::Active;
                        stack.push((target, 0));
                    }
                    Mark::Active => {
                        let from = stack.iter().position(|(x, _)| *x == target).unwrap_or(0);
                        let mut cycle: Vec<usize> = stack[from..].iter().map(|(x, _)| *x).collect();
                        let mut key = cycle.clone();
                        key.sort_unstable();
                        if !reported.contains(&key) {
                            reported.push(key);
                            cycle.push(target);
                            let names: Vec<String> = cycle
                                .iter()
                                .map(|&x| loaded.modules[x].path.join("::"))
                                .collect();
                            let file = loaded.modules[m].file;
                            loaded.diagnostics.push(
                                Diagnostic::new(
                                    Code("E1005"),
                                    file,
                                    span,
                                    format!("import cycle: {}", names.join(" -> ")),
                                )
                                .with_label("this `use` closes the cycle")
                                .with_help(
                                    "move the shared declarations into a module that both import",
                                ),
                            );
                        }
                    }
                    Mark::Done => {}
                }
            } else {
                mark[m] = Mark::Done;
                stack.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files parsed on every core give exactly what parsing them one by one gives: the same
    /// trees, the same diagnostics with the same file ids, in the request's order.
    #[test]
    fn parsing_in_parallel_gives_what_parsing_in_order_gives() {
        let files: Vec<(PathBuf, Vec<u8>)> = (0..40)
            .map(|i| {
                let mut text = format!("module M{i};\n");
                for j in 0..(200 + 37 * i) {
                    text.push_str(&format!("pub const C{j} : u32 = {j};\n"));
                }
                // A mistake in some files, bad bytes in others.
                if i % 3 == 0 {
                    text.push_str("pub fn broken( -> u32 { return 1 }\n");
                }
                let mut bytes = text.into_bytes();
                if i % 5 == 0 {
                    bytes.extend_from_slice(b"; \xff\n");
                }
                (PathBuf::from(format!("specs/m{i}.t27")), bytes)
            })
            .collect();
        assert!(files.iter().map(|(_, b)| b.len()).sum::<usize>() > 256 * 1024);
        let decoded: Vec<Decoded> = files
            .into_iter()
            .enumerate()
            .map(|(i, (_, bytes))| Decoded::new(FileId(i as u32), bytes))
            .collect();
        assert_eq!(decoded.iter().filter(|d| !d.errors.is_empty()).count(), 8);
        let texts: Vec<&str> = decoded.iter().map(|d| d.text.as_str()).collect();
        let parallel = parse_in_parallel(&texts);
        assert_eq!(parallel.len(), texts.len());
        for (i, (text, parsed)) in texts.iter().zip(parallel).enumerate() {
            let p = t27_syntax::parse(FileId(i as u32), text);
            assert_eq!(parsed.file, p.file);
            assert_eq!(parsed.diagnostics, p.diagnostics);
            assert_eq!(parsed.token_count, p.token_count);
        }
    }
}
