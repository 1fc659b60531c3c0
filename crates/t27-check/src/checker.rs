//! The checker's shared state and the order of its phases.

use crate::load::LoadedModule;
use crate::sources::SourceMap;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;
use t27_diag::{Diagnostic, FileId, Span};
use t27_ir::*;
use t27_syntax::ast;

/// What a name in a module's namespace stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Def {
    Const(ConstId),
    Global(GlobalId),
    Fn(FnId),
    Struct(StructId),
    Test(TestId),
    Module(ModuleId),
    /// An imported name whose `use` failed (already reported): every use of it is silent.
    Unresolved,
}

/// A module's namespace: its own declarations and what it imported.
#[derive(Default, Clone)]
pub(crate) struct Scope {
    pub items: HashMap<String, (Def, Span)>,
    pub imports: HashMap<String, (Def, Span)>,
}

impl Scope {
    pub fn get(&self, name: &str) -> Option<Def> {
        self.items
            .get(name)
            .or_else(|| self.imports.get(name))
            .map(|(d, _)| *d)
    }
}

/// Where a declaration's syntax lives: module index and item index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AstRef {
    pub module: usize,
    pub item: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ConstState {
    Pending,
    InProgress,
    Done,
}

/// What checking a set of modules produced.
pub(crate) struct Output {
    pub program: Arc<Program>,
    pub lowerer: crate::BlockLowerer,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    pub syntax: Vec<ast::SourceFile>,
    pub import_uses: Vec<ImportUse>,
    pub broken_uses: Vec<crate::BrokenUse>,
    pub names: Vec<crate::NameUse>,
}

pub(crate) struct Checker {
    /// Shared with the workers that lower bodies (`body.rs`); a phase that changes one of
    /// these goes through `Arc::make_mut`, which copies nothing while no worker runs.
    pub modules: Arc<Vec<LoadedModule>>,
    pub sources: SourceMap,
    pub program: Arc<Program>,
    pub scopes: Arc<Vec<Scope>>,
    pub diags: Vec<Diagnostic>,
    pub const_ast: Vec<AstRef>,
    pub const_state: Vec<ConstState>,
    pub global_ast: Vec<AstRef>,
    pub fn_ast: Vec<AstRef>,
    pub struct_ast: Vec<AstRef>,
    pub test_ast: Vec<AstRef>,
    /// Spans of lexical and syntax errors: analyses of a body with one inside are skipped
    /// where the broken syntax would make them wrong (missing returns, unreachable code).
    pub syntax_errors: Vec<(FileId, Span)>,
    /// Every name resolved through a `use` that has an error, where it was written.
    pub import_uses: Vec<ImportUse>,
    /// Every name written for a declaration that has an error (`broken.rs`).
    pub broken_uses: Vec<crate::BrokenUse>,
    /// The `use`s with an error, by file and the start of the name they import.
    pub broken_imports: rustc_hash::FxHashSet<(FileId, u32)>,
    /// From how many bytes of source bodies are lowered on two threads.
    pub parallel_from: usize,
    /// Whether test and invariant bodies are lowered with the rest (for their diagnostics),
    /// or left to a [`crate::BlockLowerer`] when they run.
    pub check_blocks: bool,
    /// Whether lowered function bodies go into the program (see [`crate::check_diagnostics`]).
    pub keep_bodies: bool,
    /// Every name written and what it stands for, when asked ([`crate::check_names`]).
    pub names: Option<Vec<crate::NameUse>>,
    /// How many constants are being computed, each inside the one before
    /// ([`Checker::ensure_const`]): bounded, since each is a level of this thread's stack.
    pub const_depth: u32,
    /// The binary128 values of the untyped float constants (`floats.rs`), set while the
    /// constants are computed, before any worker shares them.
    pub float_consts: Arc<rustc_hash::FxHashMap<ConstId, rustc_apfloat::ieee::Quad>>,
}

/// A name written at `site` in `file` that a `use` with an error imported; `import` is the
/// span of the name in that `use` (as in [`Scope::imports`]).
#[derive(Clone, Copy, Debug)]
pub struct ImportUse {
    pub file: FileId,
    pub site: Span,
    pub import: Span,
}

impl Checker {
    /// Checks the loaded modules; bodies are lowered on two threads when the modules' source
    /// comes to `parallel_from` bytes or more.
    pub fn run(
        modules: Vec<LoadedModule>,
        sources: SourceMap,
        diags: Vec<Diagnostic>,
        parallel_from: usize,
        check_blocks: bool,
        keep_bodies: bool,
        keep_names: bool,
    ) -> Output {
        let syntax_errors = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.file, d.primary.span))
            .collect();
        let mut c = Checker {
            modules: Arc::new(modules),
            sources,
            program: Arc::default(),
            scopes: Arc::default(),
            diags,
            const_ast: Vec::new(),
            const_state: Vec::new(),
            global_ast: Vec::new(),
            fn_ast: Vec::new(),
            struct_ast: Vec::new(),
            test_ast: Vec::new(),
            syntax_errors,
            import_uses: Vec::new(),
            broken_uses: Vec::new(),
            broken_imports: Default::default(),
            parallel_from,
            check_blocks,
            keep_bodies,
            names: keep_names.then(Vec::new),
            const_depth: 0,
            float_consts: Arc::default(),
        };
        c.collect_declarations();
        c.resolve_imports();
        // Every error of a `use` is known by now (loading, resolving imports).
        c.find_broken_imports();
        c.resolve_structs();
        // Before anything walks a struct type: afterwards none holds itself.
        c.check_struct_cycles();
        c.resolve_signatures();
        // Module `var`s first: a constant that reads one is then reported as not computable.
        c.check_globals();
        for id in 0..c.program.consts.len() {
            c.ensure_const(ConstId(id as u32));
        }
        c.check_bodies();
        c.lint_modules();
        let lowerer = crate::BlockLowerer::new(&c);
        // The syntax trees go back to the caller (who may keep them, or exit without the
        // cost of freeing them); the checker holds the only other reference by now.
        let asts = match Arc::try_unwrap(c.modules) {
            Ok(modules) => modules.into_iter().map(|m| m.ast).collect(),
            Err(_) => Vec::new(),
        };
        Output {
            program: c.program,
            lowerer,
            sources: c.sources,
            diagnostics: c.diags,
            syntax: asts,
            import_uses: c.import_uses,
            broken_uses: c.broken_uses,
            names: c.names.unwrap_or_default(),
        }
    }

    /// Marks the `use`s that have an error (any error whose span starts inside the `use`).
    fn find_broken_imports(&mut self) {
        let errors: Vec<(FileId, u32)> = self
            .diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.file, d.primary.span.start))
            .collect();
        if errors.is_empty() {
            return;
        }
        for m in self.modules.iter() {
            for item in &m.ast.items {
                let ast::ItemKind::Use(u) = &item.kind else {
                    continue;
                };
                let broken = errors
                    .iter()
                    .any(|&(f, at)| f == m.file && item.span.start <= at && at <= item.span.end);
                if let (true, Some(last)) = (broken, u.path.last()) {
                    self.broken_imports.insert((m.file, last.span.start));
                }
            }
        }
    }

    /// The program, to change it: copied only if a worker still shares it (none does outside
    /// `check_bodies`).
    pub fn program_mut(&mut self) -> &mut Program {
        Arc::make_mut(&mut self.program)
    }

    pub fn scopes_mut(&mut self) -> &mut Vec<Scope> {
        Arc::make_mut(&mut self.scopes)
    }

    pub fn file_of(&self, module: ModuleId) -> FileId {
        self.program.modules[module.index()].file
    }

    /// Whether a syntax error lies inside `span` of `file`.
    pub fn has_syntax_error_in(&self, file: FileId, span: Span) -> bool {
        self.syntax_errors
            .iter()
            .any(|(f, s)| *f == file && span.start <= s.start && s.start <= span.end)
    }

    pub fn report(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub fn ty_name(&self, ty: &Ty) -> String {
        self.program.ty_name(ty)
    }

    /// Resolves a path of names in module `m` to a declaration, reporting what goes wrong.
    /// `what` says what kind of thing the caller wants ("a value", "a function", "a type").
    pub fn resolve_path(&mut self, m: ModuleId, path: &[ast::Ident], what: &str) -> Option<Def> {
        let file = self.file_of(m);
        let first = &path[0];
        let scope = &self.scopes[m.index()];
        let found = match scope.items.get(first.name.as_str()) {
            Some((def, _)) => Some(*def),
            None => scope.imports.get(first.name.as_str()).map(|(def, import)| {
                // Which declarations reach a broken `use` decides which blocks it keeps
                // from running (`isolate.rs`).
                if self.broken_imports.contains(&(file, import.start)) {
                    self.import_uses.push(ImportUse {
                        file,
                        site: first.span,
                        import: *import,
                    });
                }
                *def
            }),
        };
        if path.len() == 1 {
            match found {
                Some(Def::Unresolved) => return None,
                Some(def) => {
                    self.record_def(file, first.span, def);
                    return Some(def);
                }
                None => {}
            }
            self.unknown_name(m, first, what, None);
            return None;
        }
        // `alias::NAME` through `use a::b;`, or a full module path of a loaded module.
        let (module_segments, name) = path.split_at(path.len() - 1);
        let name = &name[0];
        let target = match found {
            // `b::NAME` through a `use a::b;` that failed: reported once, at the `use`.
            Some(Def::Unresolved) if module_segments.len() == 1 => return None,
            Some(Def::Module(t)) if module_segments.len() == 1 => Some(t),
            _ => {
                let wanted: Vec<&str> = module_segments.iter().map(|s| s.name.as_str()).collect();
                self.program
                    .modules
                    .iter()
                    .position(|md| md.path == wanted)
                    .map(|i| ModuleId(i as u32))
            }
        };
        let Some(target) = target else {
            let joined: Vec<&str> = module_segments.iter().map(|s| s.name.as_str()).collect();
            let span = module_segments[0]
                .span
                .to(module_segments[module_segments.len() - 1].span);
            self.report(
                Diagnostic::new(
                    t27_diag::Code("E1001"),
                    file,
                    span,
                    format!("no module `{}` is imported here", joined.join("::")),
                )
                .with_label("unknown module")
                .with_help(format!("import it with `use {};`", joined.join("::"))),
            );
            return None;
        };
        let last_segment = module_segments[module_segments.len() - 1].span;
        self.record_def(file, last_segment, Def::Module(target));
        match self.scopes[target.index()]
            .items
            .get(name.name.as_str())
            .map(|(d, _)| *d)
        {
            Some(def) => {
                self.record_def(file, name.span, def);
                if !self.def_is_pub(def) {
                    let decl_span = self.def_span(def);
                    let target_file = self.file_of(target);
                    self.report(
                        Diagnostic::new(
                            t27_diag::Code("E1006"),
                            file,
                            name.span,
                            format!("`{}` is not `pub`", name.name),
                        )
                        .with_label("private to its module")
                        .with_secondary(target_file, decl_span, "declared here without `pub`")
                        .with_help("mark the declaration `pub` to use it from another module"),
                    );
                }
                Some(def)
            }
            None => {
                self.unknown_name(target, name, what, Some(file));
                None
            }
        }
    }

    /// Reports an unknown name with the nearest visible name as a suggestion. `use_file` is
    /// the file the name was written in when it was looked up in another module.
    pub fn unknown_name(
        &mut self,
        m: ModuleId,
        name: &ast::Ident,
        what: &str,
        use_file: Option<FileId>,
    ) {
        let scope = &self.scopes[m.index()];
        let mut candidates: Vec<&str> = scope.items.keys().map(String::as_str).collect();
        if use_file.is_none() {
            candidates.extend(scope.imports.keys().map(String::as_str));
        }
        let suggestion = crate::suggest::nearest(&name.name, candidates).map(str::to_string);
        let file = use_file.unwrap_or_else(|| self.file_of(m));
        let message = match use_file {
            Some(_) => format!(
                "module `{}` has no {what} named `{}`",
                self.program.modules[m.index()].name,
                name.name
            ),
            None => format!("no {what} named `{}` in this scope", name.name),
        };
        let mut d = Diagnostic::new(t27_diag::Code("E1001"), file, name.span, message)
            .with_label("not found");
        d = match suggestion {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d.with_help("declare it, or import it with `use`"),
        };
        self.report(d);
    }

    pub fn def_is_pub(&self, def: Def) -> bool {
        let p = &self.program;
        match def {
            Def::Const(id) => p.consts[id.index()].decl.is_pub,
            Def::Global(id) => p.globals[id.index()].decl.is_pub,
            Def::Fn(id) => p.functions[id.index()].decl.is_pub,
            Def::Struct(id) => p.structs[id.index()].decl.is_pub,
            Def::Test(_) => false,
            Def::Module(_) | Def::Unresolved => true,
        }
    }

    pub fn def_span(&self, def: Def) -> Span {
        let p = &self.program;
        match def {
            Def::Const(id) => p.consts[id.index()].decl.name_span,
            Def::Global(id) => p.globals[id.index()].decl.name_span,
            Def::Fn(id) => p.functions[id.index()].decl.name_span,
            Def::Struct(id) => p.structs[id.index()].decl.name_span,
            Def::Test(id) => p.tests[id.index()].decl.name_span,
            Def::Module(_) | Def::Unresolved => Span::default(),
        }
    }
}
