//! Go to definition, find references and rename, from the checker's record of names.

use crate::{Analysis, Location, same_target};
use std::path::{Path, PathBuf};
use t27_check::{NameTarget, NameUse};
use t27_diag::{Edit, FileId, Span};
use t27_ir::{Decl, ItemRef};
use t27_syntax::token::Token;

/// Why a rename cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenameError(pub String);

impl Analysis {
    /// The declaration of the name at `offset` of `path`.
    pub fn definition(&self, path: &Path, offset: u32) -> Option<Location> {
        let file = self.file_id(path)?;
        let name = self.name_at(file, offset)?;
        self.target_location(&name.target)
    }

    /// Every place the name at `offset` of `path` is written, in every file of the analysis,
    /// its declaration first when `include_declaration`.
    pub fn references(&self, path: &Path, offset: u32, include_declaration: bool) -> Vec<Location> {
        let Some(file) = self.file_id(path) else {
            return Vec::new();
        };
        let Some(name) = self.name_at(file, offset) else {
            return Vec::new();
        };
        let declaration = self.target_location(&name.target);
        let mut found: Vec<Location> = Vec::new();
        if include_declaration && let Some(d) = &declaration {
            found.push(d.clone());
        }
        for n in &self.checked.names {
            if !same_target(&n.target, &name.target) {
                continue;
            }
            let at = Location {
                path: self.path_of(n.file).to_path_buf(),
                span: n.span,
            };
            if Some(&at) != declaration.as_ref() {
                found.push(at);
            }
        }
        found
    }

    /// The span of the name a rename at `offset` would change, or why none can be made.
    pub fn prepare_rename(&self, path: &Path, offset: u32) -> Result<Span, RenameError> {
        let file = self
            .file_id(path)
            .ok_or_else(|| RenameError("this file is not part of the analysis".into()))?;
        let name = self
            .name_at(file, offset)
            .ok_or_else(|| RenameError("there is no name here to rename".into()))?;
        if let NameTarget::Module(_) = name.target {
            return Err(RenameError(
                "a module is named by its file: rename the file and its `module` line".into(),
            ));
        }
        Ok(name.span)
    }

    /// The edits, by file, that rename the name at `offset` of `path` to `new_name`
    /// everywhere it is written.
    pub fn rename(
        &self,
        path: &Path,
        offset: u32,
        new_name: &str,
    ) -> Result<Vec<(PathBuf, Vec<Edit>)>, RenameError> {
        self.prepare_rename(path, offset)?;
        if !is_identifier(new_name) {
            return Err(RenameError(format!(
                "`{new_name}` is not a name: a letter or `_`, then letters, digits or `_`, and not a keyword"
            )));
        }
        let mut by_file: Vec<(PathBuf, Vec<Edit>)> = Vec::new();
        for at in self.references(path, offset, true) {
            let edit = Edit {
                span: at.span,
                text: new_name.to_string(),
            };
            match by_file.iter_mut().find(|(p, _)| *p == at.path) {
                Some((_, edits)) => edits.push(edit),
                None => by_file.push((at.path, vec![edit])),
            }
        }
        for (_, edits) in &mut by_file {
            edits.sort_by_key(|e| e.span.start);
            edits.dedup();
        }
        Ok(by_file)
    }

    /// Where a target is declared.
    pub(crate) fn target_location(&self, target: &NameTarget) -> Option<Location> {
        let p = &self.checked.program;
        let (file, span) = match target {
            NameTarget::Local { file, decl, .. } => (*file, *decl),
            NameTarget::Field { strukt, index } => {
                let s = p.structs.get(strukt.index())?;
                let field = s.fields.get(*index as usize)?;
                (p.modules[s.decl.module.index()].file, field.span)
            }
            NameTarget::Module(m) => {
                let module = p.modules.get(m.index())?;
                let span = self
                    .checked
                    .syntax
                    .get(m.index())
                    .and_then(|s| s.module.as_ref())
                    .map_or(Span::default(), |d| d.span);
                (module.file, span)
            }
            other => {
                let decl = self.target_decl(other)?;
                (p.modules[decl.module.index()].file, decl.name_span)
            }
        };
        Some(Location {
            path: self.path_of(file).to_path_buf(),
            span,
        })
    }

    /// The declaration of a module-level target.
    pub(crate) fn target_decl(&self, target: &NameTarget) -> Option<&Decl> {
        let p = &self.checked.program;
        Some(match target {
            NameTarget::Const(id) => &p.consts.get(id.index())?.decl,
            NameTarget::Global(id) => &p.globals.get(id.index())?.decl,
            NameTarget::Fn(id) => &p.functions.get(id.index())?.decl,
            NameTarget::Struct(id) => &p.structs.get(id.index())?.decl,
            NameTarget::Test(id) => &p.tests.get(id.index())?.decl,
            _ => return None,
        })
    }

    pub(crate) fn item_decl(&self, item: ItemRef) -> (&Decl, NameTarget) {
        let target = match item {
            ItemRef::Const(id) => NameTarget::Const(id),
            ItemRef::Global(id) => NameTarget::Global(id),
            ItemRef::Fn(id) => NameTarget::Fn(id),
            ItemRef::Struct(id) => NameTarget::Struct(id),
            ItemRef::Test(id) => NameTarget::Test(id),
        };
        (self.checked.program.decl(item), target)
    }

    /// A module-level declaration's own name, or a struct field's, at `offset` (the
    /// checker records only the names that refer to them).
    pub(crate) fn declaration_at(&self, file: FileId, offset: u32) -> Option<NameUse> {
        let m = self.module_of(file)?;
        let contains = |s: Span| s.start <= offset && offset <= s.end;
        for &item in &self.checked.program.modules[m.index()].items {
            let (decl, target) = self.item_decl(item);
            if contains(decl.name_span) {
                return Some(NameUse {
                    file,
                    span: decl.name_span,
                    target,
                });
            }
            if let ItemRef::Struct(id) = item {
                let fields = &self.checked.program.structs[id.index()].fields;
                if let Some(i) = fields.iter().position(|f| contains(f.span)) {
                    return Some(NameUse {
                        file,
                        span: fields[i].span,
                        target: NameTarget::Field {
                            strukt: id,
                            index: i as u32,
                        },
                    });
                }
            }
        }
        None
    }
}

/// Whether `name` lexes as one identifier (so not a keyword).
pub(crate) fn is_identifier(name: &str) -> bool {
    let lexed = t27_syntax::lexer::lex(FileId(0), name);
    matches!(lexed.tokens.as_slice(), [(Token::Ident(s), _)] if *s == name)
        && lexed.diagnostics.is_empty()
}
