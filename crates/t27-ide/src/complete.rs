//! Completion: what can be written at a place, read from the text before it (which may not
//! parse yet) and the checked program.

use crate::Analysis;
use std::path::Path;
use t27_check::NameTarget;
use t27_diag::{FileId, Span};
use t27_ir::{ItemRef, ModuleId, Ty};
use t27_syntax::ast::ItemKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Module,
    Constant,
    Variable,
    Function,
    Struct,
    Field,
    Local,
    Keyword,
    Type,
    Method,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// Its type or signature.
    pub detail: String,
}

const KEYWORDS: &[&str] = &[
    "module",
    "use",
    "pub",
    "const",
    "var",
    "let",
    "fn",
    "test",
    "invariant",
    "struct",
    "assert",
    "return",
    "if",
    "else",
    "while",
    "for",
    "break",
    "continue",
    "switch",
    "and",
    "or",
    "true",
    "false",
    "undefined",
    "as",
];
const TYPES: &[&str] = &[
    "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "bool", "str", "f64",
];

impl Analysis {
    /// What could be written at `offset` of `path`.
    pub fn completions(&self, path: &Path, offset: u32) -> Vec<Completion> {
        let Some(file) = self.file_id(path) else {
            return Vec::new();
        };
        let text = self.text(file);
        let offset = (offset as usize).min(text.len());
        let Some(before) = text.get(..offset) else {
            return Vec::new();
        };
        let line = before.rsplit('\n').next().unwrap_or("");
        // The word being typed, and what comes before it.
        let word_start = line.len() - last_word(line).len();
        let head = &line[..word_start];
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("use ") {
            let path = rest.trim_start();
            let segments: Vec<&str> = path.split("::").collect();
            return self.use_completions(&segments[..segments.len() - 1]);
        }
        if let Some(before_colons) = head.strip_suffix("::") {
            let alias = last_word(before_colons);
            return self.module_member_completions(file, alias);
        }
        if let Some(before_dot) = head.strip_suffix('.') {
            let receiver = last_word(before_dot);
            let at = (offset - (line.len() - word_start) - 1 - receiver.len()) as u32;
            return self.field_completions(file, receiver, at);
        }
        let mut found = self.scope_completions(file, offset as u32);
        found.extend(KEYWORDS.iter().map(|k| Completion {
            label: k.to_string(),
            kind: CompletionKind::Keyword,
            detail: "keyword".into(),
        }));
        found.extend(TYPES.iter().map(|t| Completion {
            label: t.to_string(),
            kind: CompletionKind::Type,
            detail: "type".into(),
        }));
        found
    }

    /// After `use a::b::`: the next segment of every module path that starts so, or the
    /// public declarations of the module named.
    fn use_completions(&self, typed: &[&str]) -> Vec<Completion> {
        let p = &self.checked.program;
        let mut found: Vec<Completion> = Vec::new();
        for (i, module) in p.modules.iter().enumerate() {
            let path: Vec<&str> = module.path.iter().map(String::as_str).collect();
            if path.len() > typed.len() && path[..typed.len()] == *typed {
                let label = path[typed.len()].to_string();
                if !found.iter().any(|c| c.label == label) {
                    found.push(Completion {
                        label,
                        kind: CompletionKind::Module,
                        detail: path.join("::"),
                    });
                }
            } else if path == typed {
                found.extend(self.members(ModuleId(i as u32)));
            }
        }
        found
    }

    /// After `alias::`: the public declarations of the module the alias names.
    fn module_member_completions(&self, file: FileId, alias: &str) -> Vec<Completion> {
        let p = &self.checked.program;
        let named = self
            .imported(file)
            .into_iter()
            .find_map(|(name, target)| match target {
                NameTarget::Module(m) if name == alias => Some(m),
                _ => None,
            });
        let module = named.or_else(|| {
            p.modules
                .iter()
                .position(|m| m.path.last().is_some_and(|l| l == alias))
                .map(|i| ModuleId(i as u32))
        });
        module.map_or_else(Vec::new, |m| self.members(m))
    }

    /// After `receiver.`: the fields of its struct type, or the built-in methods.
    fn field_completions(&self, file: FileId, receiver: &str, at: u32) -> Vec<Completion> {
        let p = &self.checked.program;
        let Some(ty) = self.type_of_name(file, receiver, at) else {
            return Vec::new();
        };
        match ty {
            Ty::Struct(id) => p.structs[id.index()]
                .fields
                .iter()
                .map(|f| Completion {
                    label: f.name.clone(),
                    kind: CompletionKind::Field,
                    detail: p.ty_name(&f.ty),
                })
                .collect(),
            Ty::Str | Ty::MutSlice => vec![
                method("len", "() -> usize"),
                method("contains", "(byte) -> bool"),
            ],
            Ty::Array(..) => vec![method("len", "() -> usize")],
            _ => Vec::new(),
        }
    }

    /// The type of the name `word` written just before `at`: as the checker resolved it
    /// there, or else the latest local of that name declared before it in the same
    /// declaration, or a module-level name.
    fn type_of_name(&self, file: FileId, word: &str, at: u32) -> Option<Ty> {
        let p = &self.checked.program;
        let ty_of = |t: &NameTarget| -> Option<Ty> {
            Some(match t {
                NameTarget::Local { ty, .. } => ty.clone(),
                NameTarget::Const(id) => p.consts[id.index()].ty.clone(),
                NameTarget::Global(id) => p.globals[id.index()].ty.clone(),
                _ => return None,
            })
        };
        if let Some(n) = self.name_at(file, at)
            && self.text(file).get(n.span.range()) == Some(word)
        {
            return ty_of(&n.target);
        }
        let item = self.enclosing_item(file, at);
        let local = self
            .locals_before(file, item, at)
            .into_iter()
            .rev()
            .find(|(name, _)| name == word);
        if let Some((_, target)) = local {
            return ty_of(&target);
        }
        self.module_names(file)
            .into_iter()
            .find(|(name, _)| name == word)
            .and_then(|(_, t)| ty_of(&t))
    }

    /// Locals declared before `at`, then the module's declarations and imports.
    fn scope_completions(&self, file: FileId, at: u32) -> Vec<Completion> {
        let p = &self.checked.program;
        let item = self.enclosing_item(file, at);
        let mut found: Vec<Completion> = Vec::new();
        for (name, target) in self.locals_before(file, item, at).into_iter().rev() {
            if found.iter().any(|c| c.label == name) {
                continue;
            }
            let detail = match &target {
                NameTarget::Local { ty, .. } => p.ty_name(ty),
                _ => String::new(),
            };
            found.push(Completion {
                label: name,
                kind: CompletionKind::Local,
                detail,
            });
        }
        for (name, target) in self.module_names(file) {
            if !found.iter().any(|c| c.label == name) {
                found.push(self.completion_of(name, &target));
            }
        }
        found
    }

    /// Every name of `file`'s module scope: its declarations (but tests), then its imports.
    fn module_names(&self, file: FileId) -> Vec<(String, NameTarget)> {
        let mut names = Vec::new();
        if let Some(m) = self.module_of(file) {
            for &item in &self.checked.program.modules[m.index()].items {
                if matches!(item, ItemRef::Test(_)) {
                    continue;
                }
                let (decl, target) = self.item_decl(item);
                names.push((decl.name.clone(), target));
            }
        }
        names.extend(self.imported(file));
        names
    }

    /// What the `use`s of `file` bring in, by the name they bring.
    fn imported(&self, file: FileId) -> Vec<(String, NameTarget)> {
        let Some(m) = self.module_of(file) else {
            return Vec::new();
        };
        let Some(syntax) = self.checked.syntax.get(m.index()) else {
            return Vec::new();
        };
        syntax
            .items
            .iter()
            .filter_map(|item| match &item.kind {
                ItemKind::Use(u) => u.path.last(),
                _ => None,
            })
            .filter_map(|last| {
                let n = self.name_at(file, last.span.start)?;
                (n.span == last.span).then(|| (last.name.to_string(), n.target))
            })
            .collect()
    }

    /// The locals (and parameters) declared in `item` of `file` before `at`, in order.
    fn locals_before(
        &self,
        file: FileId,
        item: Option<Span>,
        at: u32,
    ) -> Vec<(String, NameTarget)> {
        let Some(item) = item else {
            return Vec::new();
        };
        let text = self.text(file);
        self.checked
            .names
            .iter()
            .filter(|n| n.file == file && item.start <= n.span.start && n.span.end <= at)
            .filter(|n| matches!(&n.target, NameTarget::Local { decl, .. } if *decl == n.span))
            .map(|n| {
                (
                    text.get(n.span.range()).unwrap_or("").to_string(),
                    n.target.clone(),
                )
            })
            .collect()
    }

    /// The span of the module-level declaration `at` lies in.
    fn enclosing_item(&self, file: FileId, at: u32) -> Option<Span> {
        let m = self.module_of(file)?;
        self.checked
            .syntax
            .get(m.index())?
            .items
            .iter()
            .map(|i| i.span)
            .find(|s| s.start <= at && at <= s.end)
    }

    /// The public declarations of module `m`.
    fn members(&self, m: ModuleId) -> Vec<Completion> {
        self.checked.program.modules[m.index()]
            .items
            .iter()
            .filter(|i| !matches!(i, ItemRef::Test(_)))
            .map(|&i| self.item_decl(i))
            .filter(|(decl, _)| decl.is_pub)
            .map(|(decl, target)| self.completion_of(decl.name.clone(), &target))
            .collect()
    }

    fn completion_of(&self, label: String, target: &NameTarget) -> Completion {
        let p = &self.checked.program;
        let (kind, detail) = match target {
            NameTarget::Const(id) => {
                let c = &p.consts[id.index()];
                let value = c
                    .value
                    .as_ref()
                    .map_or(String::new(), |v| format!(" = {v}"));
                (
                    CompletionKind::Constant,
                    format!("{}{value}", p.ty_name(&c.ty)),
                )
            }
            NameTarget::Global(id) => (
                CompletionKind::Variable,
                p.ty_name(&p.globals[id.index()].ty),
            ),
            NameTarget::Fn(id) => (CompletionKind::Function, self.signature(*id)),
            NameTarget::Struct(_) => (CompletionKind::Struct, "struct".to_string()),
            NameTarget::Module(m) => (CompletionKind::Module, p.modules[m.index()].path.join("::")),
            NameTarget::Test(_) => (CompletionKind::Function, "test".to_string()),
            NameTarget::Local { ty, .. } => (CompletionKind::Local, p.ty_name(ty)),
            NameTarget::Field { .. } => (CompletionKind::Field, String::new()),
        };
        Completion {
            label,
            kind,
            detail,
        }
    }
}

fn method(name: &str, detail: &str) -> Completion {
    Completion {
        label: name.to_string(),
        kind: CompletionKind::Method,
        detail: detail.to_string(),
    }
}

/// The identifier at the end of `text`.
fn last_word(text: &str) -> &str {
    let start = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
        .last()
        .map_or(text.len(), |(i, _)| i);
    &text[start..]
}
