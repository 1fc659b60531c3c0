//! Errors isolated by dependency: which blocks can still run, and which modules can still be
//! mirrored, when some declarations have errors.
//!
//! Every error is attributed to the declaration (or `use`) whose span holds it; an error that
//! lies in no declaration, or is about the file as a whole (no `module` line, an older
//! dialect), belongs to its module. A block runs when nothing it reaches is broken: the
//! functions it calls (transitively), the constants, module `var`s and structs they use, and
//! the `use`s the names they write come through. The module-wide errors of a block's own
//! module also stop it, because a syntax error outside every declaration may have cut one.
//!
//! The answer for a block is a [`Blocker`]: the shortest chain of references from the block to
//! a broken declaration, and that declaration's first error.

use crate::{Checked, LoweredBlock};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::VecDeque;
use t27_diag::{Code, Diagnostic, FileId, LineIndex, Sources, Span};
use t27_ir::{ItemRef, ModuleId, Program, TestId};
use t27_syntax::ast::ItemKind;

/// Codes that are about a file as a whole, wherever their span points.
const MODULE_WIDE: [&str; 3] = ["E0103", "E0105", "E0108"];

/// A false folded assert is not a compile error for the runner: its block runs and fails at
/// that assert like any other.
const RUNS_ANYWAY: &str = "E3008";

/// What the dependency graph is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Item(ItemRef),
    /// A `use` declaration: the module and the item's index in its syntax tree.
    Use(ModuleId, u32),
    /// What in a module lies outside every declaration.
    Module(ModuleId),
}

/// How one step of a blocker's chain reaches the next declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    Calls,
    Reads,
    UsesVar,
    UsesStruct,
    /// A name brought in by a `use` that has an error.
    Imports,
    /// An error of the module outside every declaration.
    InModule,
}

/// One step of a blocker's chain: how it is reached and the name of what it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub reach: Reach,
    pub name: String,
}

/// Why a block cannot run: the chain from the block to the first broken declaration on its
/// path (empty when the block itself has the error), and that declaration's first error.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocker {
    pub path: Vec<Step>,
    /// The name of what is broken: a declaration, the name a broken `use` imports, or the
    /// module.
    pub name: String,
    pub code: Code,
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

impl Blocker {
    fn new(path: Vec<Step>, name: String, d: &Diagnostic) -> Blocker {
        Blocker {
            path,
            name,
            code: d.code,
            file: d.file,
            span: d.primary.span,
            message: d.message.clone(),
        }
    }

    /// The 1-based line and column of the error.
    pub fn line_col(&self, sources: &dyn Sources) -> (usize, usize) {
        line_col(sources, self.file, self.span)
    }

    /// In words: "calls `route_of`, which calls `holder_of`: error E1001 at
    /// queen/keyed.t27:12:8: no function named `cast` in this scope".
    pub fn describe(&self, sources: &dyn Sources) -> String {
        let mut out = String::new();
        for (i, step) in self.path.iter().enumerate() {
            if i > 0 {
                out.push_str(", which ");
            }
            let name = &step.name;
            out.push_str(&match step.reach {
                Reach::Calls => format!("calls `{name}`"),
                Reach::Reads => format!("reads `{name}`"),
                Reach::UsesVar => format!("uses the module `var` `{name}`"),
                Reach::UsesStruct => format!("uses the struct `{name}`"),
                Reach::Imports => format!("uses `{name}` through a `use` with an error"),
                Reach::InModule => {
                    format!("its module `{name}` has an error outside any declaration")
                }
            });
        }
        if out.is_empty() {
            out.push_str("this block has an error");
        }
        let at = located(sources, self.code, self.file, self.span, &self.message);
        format!("{out}: error {at}")
    }
}

/// The dependency graph of a checked program, with the first error of each broken node.
pub struct Isolation<'c> {
    checked: &'c Checked,
    /// The first error of each node that has one, as an index into the diagnostics.
    own: HashMap<Node, usize>,
    /// Per file: the top-level declarations and `use`s, by span.
    spans: HashMap<FileId, Vec<(Span, Node)>>,
    /// Per file: the sites of names resolved through a `use`, sorted, with that `use`.
    import_sites: HashMap<FileId, Vec<(u32, Node)>>,
    module_of_file: HashMap<FileId, ModuleId>,
    /// Per declaration: the broken declarations it names where its IR no longer does
    /// ([`crate::BrokenUse`]).
    broken_refs: HashMap<Node, Vec<ItemRef>>,
    /// Nodes from which no broken node can be reached.
    clean: HashSet<Node>,
}

impl<'c> Isolation<'c> {
    pub fn new(checked: &'c Checked) -> Isolation<'c> {
        let p = &checked.program;
        let mut spans: HashMap<FileId, Vec<(Span, Node)>> = HashMap::default();
        let mut module_of_file = HashMap::default();
        for (mi, m) in p.modules.iter().enumerate() {
            let module = ModuleId(mi as u32);
            module_of_file.insert(m.file, module);
            let at = spans.entry(m.file).or_default();
            for item in &m.items {
                at.push((p.decl(*item).span, Node::Item(*item)));
            }
            if let Some(tree) = checked.syntax.get(mi) {
                for (i, item) in tree.items.iter().enumerate() {
                    if matches!(item.kind, ItemKind::Use(_)) {
                        at.push((item.span, Node::Use(module, i as u32)));
                    }
                }
            }
        }
        for at in spans.values_mut() {
            at.sort_by_key(|(s, _)| (s.start, s.end));
        }
        let mut iso = Isolation {
            checked,
            own: HashMap::default(),
            spans,
            import_sites: HashMap::default(),
            module_of_file,
            broken_refs: HashMap::default(),
            clean: HashSet::default(),
        };
        for (i, d) in checked.diagnostics.iter().enumerate() {
            if !d.is_error() || d.code.as_str() == RUNS_ANYWAY {
                continue;
            }
            let node = match iso.node_at(d.file, d.primary.span.start) {
                Some(n) if !MODULE_WIDE.contains(&d.code.as_str()) => n,
                _ => match iso.module_of_file.get(&d.file) {
                    Some(m) => Node::Module(*m),
                    None => continue,
                },
            };
            iso.own.entry(node).or_insert(i);
        }
        let mut sites: HashMap<FileId, Vec<(u32, Node)>> = HashMap::default();
        for u in &checked.import_uses {
            if let Some(node @ Node::Use(..)) = iso.node_at(u.file, u.import.start) {
                sites.entry(u.file).or_default().push((u.site.start, node));
            }
        }
        for at in sites.values_mut() {
            at.sort_by_key(|(s, _)| *s);
        }
        iso.import_sites = sites;
        let mut broken_refs: HashMap<Node, Vec<ItemRef>> = HashMap::default();
        for u in &checked.broken_uses {
            if let Some(node @ Node::Item(_)) = iso.node_at(u.file, u.site.start) {
                broken_refs.entry(node).or_default().push(u.target);
            }
        }
        iso.broken_refs = broken_refs;
        iso
    }

    /// The top-level declaration or `use` whose span holds `offset` of `file`.
    fn node_at(&self, file: FileId, offset: u32) -> Option<Node> {
        let at = self.spans.get(&file)?;
        let i = at.partition_point(|(s, _)| s.start <= offset);
        let (span, node) = at.get(i.checked_sub(1)?)?;
        (offset <= span.end).then_some(*node)
    }

    /// Why `test` cannot run, or `None` when everything it reaches checked without error
    /// (for a program whose blocks were checked with it: [`crate::check`]).
    pub fn blocker(&mut self, test: TestId) -> Option<Blocker> {
        self.search(test, None)
    }

    /// Why `test` cannot run, from `lowered`, what lowering the block just told (for a program
    /// checked without its blocks: [`crate::check_declarations`]): its own errors, what it
    /// refers to and the names it writes through broken `use`s.
    pub fn blocker_of(&mut self, test: TestId, lowered: &LoweredBlock) -> Option<Blocker> {
        let start = Node::Item(ItemRef::Test(test));
        let own = lowered
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && d.code.as_str() != RUNS_ANYWAY)
            .chain(self.own.get(&start).map(|&i| &self.checked.diagnostics[i]))
            .min_by_key(|d| (d.primary.span.start, d.primary.span.end));
        if let Some(d) = own {
            return Some(Blocker::new(Vec::new(), self.name(start), d));
        }
        self.search(test, Some(lowered))
    }

    /// Breadth first from `test` to the nearest node with an error; the block's own
    /// references from `lowered` when given, else from the checked program.
    fn search(&mut self, test: TestId, lowered: Option<&LoweredBlock>) -> Option<Blocker> {
        if self.own.is_empty() {
            // Nothing has an error: nothing can block.
            return None;
        }
        let start = Node::Item(ItemRef::Test(test));
        let mut parent: HashMap<Node, (Node, Reach)> = HashMap::default();
        let mut seen: HashSet<Node> = HashSet::default();
        let mut queue = VecDeque::from([start]);
        seen.insert(start);
        while let Some(node) = queue.pop_front() {
            if let Some(&d) = self.own.get(&node) {
                return Some(self.explain(start, node, &parent, d));
            }
            let edges = match lowered {
                Some(block) if node == start => self.edges_of_block(test, block),
                _ => self.edges(node),
            };
            for (next, reach) in edges {
                if !self.clean.contains(&next) && seen.insert(next) {
                    parent.insert(next, (node, reach));
                    queue.push_back(next);
                }
            }
        }
        self.clean.extend(seen);
        None
    }

    fn explain(
        &self,
        start: Node,
        broken: Node,
        parent: &HashMap<Node, (Node, Reach)>,
        diagnostic: usize,
    ) -> Blocker {
        let mut path = Vec::new();
        let mut at = broken;
        while at != start {
            let Some(&(from, reach)) = parent.get(&at) else {
                break;
            };
            path.push(Step {
                reach,
                name: self.name(at),
            });
            at = from;
        }
        path.reverse();
        Blocker::new(
            path,
            self.name(broken),
            &self.checked.diagnostics[diagnostic],
        )
    }

    fn name(&self, node: Node) -> String {
        let p = &self.checked.program;
        match node {
            Node::Item(item) => p.decl(item).name.clone(),
            Node::Module(m) => p.modules[m.index()].name.clone(),
            Node::Use(m, i) => match self
                .checked
                .syntax
                .get(m.index())
                .and_then(|t| t.items.get(i as usize))
                .map(|item| &item.kind)
            {
                Some(ItemKind::Use(u)) => {
                    u.path.last().map_or(String::new(), |s| s.name.to_string())
                }
                _ => String::new(),
            },
        }
    }

    /// What a block just lowered refers to, as [`Isolation::edges`] gives it for a checked one.
    fn edges_of_block(&self, test: TestId, block: &LoweredBlock) -> Vec<(Node, Reach)> {
        let decl = &self.checked.program.tests[test.index()].decl;
        let mut sites: Vec<(u32, Node)> = block
            .import_uses
            .iter()
            .filter_map(|u| match self.node_at(u.file, u.import.start) {
                Some(node @ Node::Use(..)) => Some((u.site.start, node)),
                _ => None,
            })
            .collect();
        sites.sort_by_key(|(s, _)| *s);
        let first = std::iter::once((Node::Module(decl.module), Reach::InModule))
            .chain(sites.into_iter().map(|(_, node)| (node, Reach::Imports)));
        let refs = block
            .reaches()
            .into_iter()
            .chain(block.broken_uses.iter().map(|u| u.target))
            .map(|r| (Node::Item(r), reach_of(r)));
        let mut seen = HashSet::default();
        first.chain(refs).filter(|(n, _)| seen.insert(*n)).collect()
    }

    /// What a node refers to, in source order, each once.
    fn edges(&self, node: Node) -> Vec<(Node, Reach)> {
        let p = &self.checked.program;
        let Node::Item(item) = node else {
            return Vec::new();
        };
        // Each once, in order: a replay block names the same function a million times.
        let mut refs: Vec<ItemRef> = Vec::new();
        let mut named: HashSet<ItemRef> = HashSet::default();
        let mut push = |r: ItemRef| {
            if r != item && named.insert(r) {
                refs.push(r)
            }
        };
        let mut first = Vec::new();
        match item {
            ItemRef::Test(t) => {
                let test = &p.tests[t.index()];
                first.push((Node::Module(test.decl.module), Reach::InModule));
                test.reaches.iter().for_each(|r| push(*r));
            }
            ItemRef::Fn(f) => {
                let f = &p.functions[f.index()];
                f.ret.for_each_struct(&mut |s| push(ItemRef::Struct(s)));
                f.body.for_each_reference(&mut push);
            }
            ItemRef::Const(c) => value(
                &mut push,
                &p.consts[c.index()].ty,
                &p.consts[c.index()].init,
            ),
            ItemRef::Global(g) => value(
                &mut push,
                &p.globals[g.index()].ty,
                &p.globals[g.index()].init,
            ),
            ItemRef::Struct(s) => {
                for field in &p.structs[s.index()].fields {
                    field.ty.for_each_struct(&mut |s| push(ItemRef::Struct(s)));
                }
            }
        }
        // What it names that its IR lost to an error node.
        if let Some(broken) = self.broken_refs.get(&node) {
            broken.iter().for_each(|r| push(*r));
        }
        let decl = p.decl(item);
        let file = p.modules[decl.module.index()].file;
        if let Some(sites) = self.import_sites.get(&file) {
            let from = sites.partition_point(|(s, _)| *s < decl.span.start);
            for (site, node) in &sites[from..] {
                if *site > decl.span.end {
                    break;
                }
                first.push((*node, Reach::Imports));
            }
        }
        let mut seen = HashSet::default();
        first
            .into_iter()
            .chain(refs.into_iter().map(|r| (Node::Item(r), reach_of(r))))
            .filter(|(n, _)| seen.insert(*n))
            .collect()
    }
}

/// Why a module cannot be mirrored: its own first error, or the first module it imports
/// (directly or not) that has one.
#[derive(Clone, Debug)]
pub struct ModuleFault {
    /// The imported module with the error, `None` when it is the module's own.
    pub through: Option<ModuleId>,
    pub code: Code,
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

impl ModuleFault {
    /// In words: "it imports `queen::keyed`, whose first error is E2001 at ...: ...".
    pub fn describe(&self, p: &Program, sources: &dyn Sources) -> String {
        let at = located(sources, self.code, self.file, self.span, &self.message);
        match self.through {
            None => format!("its first error is {at}"),
            Some(m) => format!(
                "it imports `{}`, whose first error is {at}",
                p.modules[m.index()].path.join("::")
            ),
        }
    }
}

/// For each module: why it cannot be mirrored, or `None` when it and everything it imports
/// checked without any error (a false folded assert included: its constants may be wrong).
pub fn module_faults(checked: &Checked) -> Vec<Option<ModuleFault>> {
    let p = &checked.program;
    let own: Vec<Option<&Diagnostic>> = p
        .modules
        .iter()
        .map(|m| {
            checked
                .diagnostics
                .iter()
                .find(|d| d.is_error() && d.file == m.file)
        })
        .collect();
    (0..p.modules.len())
        .map(|start| {
            // Breadth first through the imports: the nearest broken module is named.
            let mut seen = vec![false; p.modules.len()];
            let mut queue = VecDeque::from([start]);
            seen[start] = true;
            while let Some(m) = queue.pop_front() {
                if let Some(d) = own[m] {
                    return Some(ModuleFault {
                        through: (m != start).then_some(ModuleId(m as u32)),
                        code: d.code,
                        file: d.file,
                        span: d.primary.span,
                        message: d.message.clone(),
                    });
                }
                for i in &p.modules[m].imports {
                    if !std::mem::replace(&mut seen[i.index()], true) {
                        queue.push_back(i.index());
                    }
                }
            }
            None
        })
        .collect()
}

/// How a reference reaches what it names.
fn reach_of(r: ItemRef) -> Reach {
    match r {
        ItemRef::Fn(_) => Reach::Calls,
        ItemRef::Const(_) => Reach::Reads,
        ItemRef::Global(_) => Reach::UsesVar,
        ItemRef::Struct(_) | ItemRef::Test(_) => Reach::UsesStruct,
    }
}

/// What a constant or module `var` refers to: the structs of its type, what its value reads.
fn value(push: &mut impl FnMut(ItemRef), ty: &t27_ir::Ty, init: &t27_ir::Expr) {
    ty.for_each_struct(&mut |s| push(ItemRef::Struct(s)));
    init.for_each_reference(push);
}

/// The 1-based line and column of `span`'s start.
fn line_col(sources: &dyn Sources, file: FileId, span: Span) -> (usize, usize) {
    let text = sources.text(file);
    LineIndex::new(text).line_col(text, span.start as usize)
}

/// An error in words: "E1001 at queen/keyed.t27:12:8: no function named `cast` ...".
fn located(sources: &dyn Sources, code: Code, file: FileId, span: Span, message: &str) -> String {
    let (line, column) = line_col(sources, file, span);
    format!(
        "{code} at {}:{line}:{column}: {message}",
        sources.name(file)
    )
}
