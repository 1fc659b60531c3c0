//! Two surfaces compared: every change between them, module by module and declaration by
//! declaration, in the new tree's order (then what the old tree had and the new lacks).

use crate::kind::Kind;
use crate::surface::{Declared, ModuleSurface, Param, Shape, TyName};
use t27_diag::{FileId, Span};
use t27_ir::Value;

/// A place in one of the two trees, with the words under it.
#[derive(Clone, Debug)]
pub struct Site {
    pub file: FileId,
    pub span: Span,
    pub label: String,
}

#[derive(Clone, Debug)]
pub struct Change {
    /// The module's path under the spec root (the old one when it is gone).
    pub module: String,
    /// The declaration, or empty for a change of the whole module.
    pub name: String,
    pub kind: Kind,
    pub message: String,
    /// Where it was, in the old tree.
    pub old: Option<Site>,
    /// Where it is, in the new tree.
    pub new: Option<Site>,
    /// The `allow-break` comment that allows it (an index into `Comparison::allows`).
    pub allowed_by: Option<usize>,
}

fn site(file: FileId, span: Span, label: impl Into<String>) -> Option<Site> {
    Some(Site {
        file,
        span,
        label: label.into(),
    })
}

/// Every change from `old` to `new`.
pub fn compare(old: &[ModuleSurface], new: &[ModuleSurface]) -> Vec<Change> {
    let mut changes = Vec::new();
    let in_old = |path: &str| old.iter().find(|m| m.path == path);
    let in_new = |path: &str| new.iter().any(|m| m.path == path);
    // A module whose path is gone, matched by its name with a module whose path is new.
    let mut moved_to: Vec<Option<&ModuleSurface>> = Vec::new();
    let mut taken: Vec<&str> = Vec::new();
    for m in old {
        let target = (!in_new(&m.path))
            .then(|| {
                new.iter().find(|n| {
                    n.name == m.name && in_old(&n.path).is_none() && !taken.contains(&&*n.path)
                })
            })
            .flatten();
        if let Some(n) = target {
            taken.push(&n.path);
        }
        moved_to.push(target);
    }
    for n in new {
        let from = old
            .iter()
            .zip(&moved_to)
            .find(|(_, to)| to.is_some_and(|t| t.path == n.path))
            .map(|(m, _)| m);
        let Some(o) = in_old(&n.path).or(from) else {
            changes.push(Change {
                module: n.path.clone(),
                name: String::new(),
                kind: Kind::ModuleAdded,
                message: format!("module `{}` is new ({}.t27)", n.name, n.path),
                old: None,
                new: site(n.file, n.name_span, "new"),
                allowed_by: None,
            });
            continue;
        };
        if o.path != n.path {
            changes.push(Change {
                module: n.path.clone(),
                name: String::new(),
                kind: Kind::ModuleMoved,
                message: format!(
                    "module `{}` moved from {}.t27 to {}.t27: its mirrors' paths change",
                    n.name, o.path, n.path
                ),
                old: site(o.file, o.name_span, format!("was {}.t27", o.path)),
                new: site(n.file, n.name_span, format!("is {}.t27", n.path)),
                allowed_by: None,
            });
        } else if o.name != n.name {
            changes.push(Change {
                module: n.path.clone(),
                name: String::new(),
                kind: Kind::ModuleRenamed,
                message: format!(
                    "module `{}` is now named `{}`: the mirrors name it so",
                    o.name, n.name
                ),
                old: site(o.file, o.name_span, format!("was `{}`", o.name)),
                new: site(n.file, n.name_span, format!("is `{}`", n.name)),
                allowed_by: None,
            });
        }
        compare_module(o, n, &mut changes);
    }
    for (o, to) in old.iter().zip(&moved_to) {
        if !in_new(&o.path) && to.is_none() {
            changes.push(Change {
                module: o.path.clone(),
                name: String::new(),
                kind: Kind::ModuleRemoved,
                message: format!(
                    "module `{}` ({}.t27) is gone, with every declaration in it",
                    o.name, o.path
                ),
                old: site(o.file, o.name_span, "was here"),
                new: None,
                allowed_by: None,
            });
        }
    }
    changes
}

/// The declarations of one module in both trees.
fn compare_module(o: &ModuleSurface, n: &ModuleSurface, out: &mut Vec<Change>) {
    let mut at = Changes {
        module: &n.path,
        old_file: o.file,
        new_file: n.file,
        out,
    };
    for new in &n.decls {
        let old = o.decls.iter().find(|d| d.name == new.name);
        match old {
            Some(old) if old.is_pub && new.is_pub => {
                if std::mem::discriminant(&old.shape) == std::mem::discriminant(&new.shape) {
                    at.declaration(old, new);
                } else {
                    let why = format!("is now a {}", new.shape.noun());
                    at.removed(old, Some(new), why);
                    at.added(new);
                }
            }
            Some(old) if old.is_pub => at.removed(old, Some(new), "is no longer public".into()),
            _ if new.is_pub => at.added(new),
            _ => {}
        }
    }
    for old in o.decls.iter().filter(|d| d.is_pub) {
        if n.decls.iter().any(|d| d.name == old.name) {
            continue;
        }
        match &n.unreadable {
            Some((span, why)) => at.push(
                Kind::NotCompared,
                &old.name,
                format!(
                    "`{}` is not in the new {}.t27, which has a syntax error: it may only be unreadable",
                    old.name, n.path
                ),
                site(o.file, old.name_span, "was here"),
                site(n.file, *span, why.clone()),
            ),
            None => at.removed(old, None, "is gone: it was public".into()),
        }
    }
}

struct Changes<'a> {
    module: &'a str,
    old_file: FileId,
    new_file: FileId,
    out: &'a mut Vec<Change>,
}

impl Changes<'_> {
    fn push(
        &mut self,
        kind: Kind,
        name: &str,
        message: String,
        old: Option<Site>,
        new: Option<Site>,
    ) {
        self.out.push(Change {
            module: self.module.to_string(),
            name: name.to_string(),
            kind,
            message,
            old,
            new,
            allowed_by: None,
        });
    }

    fn added(&mut self, new: &Declared) {
        let kind = match new.shape {
            Shape::Const { .. } => Kind::ConstAdded,
            Shape::Fn { .. } => Kind::FnAdded,
            Shape::Struct { .. } => Kind::StructAdded,
        };
        let message = format!("public {} `{}` is new", new.shape.noun(), new.name);
        let new_site = site(self.new_file, new.name_span, "new");
        self.push(kind, &new.name, message, None, new_site);
    }

    fn removed(&mut self, old: &Declared, new: Option<&Declared>, why: String) {
        let kind = match old.shape {
            Shape::Const { .. } => Kind::ConstRemoved,
            Shape::Fn { .. } => Kind::FnRemoved,
            Shape::Struct { .. } => Kind::StructRemoved,
        };
        let message = format!("{} `{}` {why}", old.shape.noun(), old.name);
        let old_site = site(self.old_file, old.name_span, "was public here");
        let new_site = new.and_then(|n| site(self.new_file, n.name_span, why.clone()));
        self.push(kind, &old.name, message, old_site, new_site);
    }

    /// Two public declarations of one name and kind.
    fn declaration(&mut self, old: &Declared, new: &Declared) {
        match (&old.shape, &new.shape) {
            (
                Shape::Const {
                    ty: old_ty,
                    element_ty: old_elem,
                    value: old_value,
                    value_span: old_span,
                    elements: old_elements,
                },
                Shape::Const {
                    ty: new_ty,
                    element_ty: new_elem,
                    value: new_value,
                    value_span: new_span,
                    elements: new_elements,
                },
            ) => {
                let name = &new.name;
                let (Some(ot), Some(nt)) = (old_ty, new_ty) else {
                    return self.not_compared(old, new, "its type has an error");
                };
                let arrays = old_elem.is_some() && new_elem.is_some();
                if (arrays && old_elem != new_elem) || (!arrays && ot != nt) {
                    let message = format!("the type of `{name}` changed from `{ot}` to `{nt}`");
                    let o = site(self.old_file, old.name_span, format!("was `{ot}`"));
                    let n = site(self.new_file, new.name_span, format!("is `{nt}`"));
                    self.push(Kind::ConstTypeChanged, name, message, o, n);
                    if arrays {
                        return;
                    }
                }
                let (Some(ov), Some(nv)) = (old_value, new_value) else {
                    return self.not_compared(old, new, "its value could not be computed");
                };
                match (ov, nv) {
                    (Value::Array(os), Value::Array(ns)) if arrays => {
                        let old_at = |i: usize| old_elements.get(i).copied().unwrap_or(*old_span);
                        let new_at = |i: usize| new_elements.get(i).copied().unwrap_or(*new_span);
                        self.elements(name, os, ns, &old_at, &new_at);
                    }
                    _ if ov != nv => {
                        let message = format!("the value of `{name}` changed from {ov} to {nv}");
                        let o = site(self.old_file, *old_span, format!("was {ov}"));
                        let n = site(self.new_file, *new_span, format!("is {nv}"));
                        self.push(Kind::ConstValueChanged, name, message, o, n);
                    }
                    _ => {}
                }
            }
            (
                Shape::Fn {
                    params: old_params,
                    ret: old_ret,
                },
                Shape::Fn {
                    params: new_params,
                    ret: new_ret,
                },
            ) => {
                let known = |ps: &[Param]| ps.iter().all(|p| p.ty.is_some());
                if !known(old_params)
                    || !known(new_params)
                    || old_ret.is_none()
                    || new_ret.is_none()
                {
                    return self.not_compared(old, new, "its signature has an error");
                }
                let types = |ps: &[Param]| ps.iter().map(|p| p.ty.clone()).collect::<Vec<_>>();
                if types(old_params) != types(new_params) {
                    let (o, n) = (params(old_params), params(new_params));
                    let message = format!(
                        "the parameters of `{}` changed from ({o}) to ({n})",
                        new.name
                    );
                    let os = site(self.old_file, old.name_span, format!("was ({o})"));
                    let ns = site(self.new_file, new.name_span, format!("is ({n})"));
                    self.push(Kind::FnParamsChanged, &new.name, message, os, ns);
                }
                if old_ret != new_ret {
                    let (o, n) = (ret(old_ret), ret(new_ret));
                    let message = format!("`{}` now returns {n}, not {o}", new.name);
                    let os = site(self.old_file, old.name_span, format!("returned {o}"));
                    let ns = site(self.new_file, new.name_span, format!("returns {n}"));
                    self.push(Kind::FnReturnChanged, &new.name, message, os, ns);
                }
            }
            (Shape::Struct { fields: of }, Shape::Struct { fields: nf }) => {
                self.fields(&new.name, of, nf);
            }
            _ => {}
        }
    }

    fn not_compared(&mut self, old: &Declared, new: &Declared, why: &str) {
        let message = format!("`{}` was not compared: {why}", new.name);
        let o = site(self.old_file, old.name_span, "was here");
        let n = site(self.new_file, new.name_span, why);
        self.push(Kind::NotCompared, &new.name, message, o, n);
    }

    /// An array's elements: one kept in place is no change; one found at another index has
    /// moved; one whose index holds a value the old array did not have has changed; one
    /// with neither is removed. New indexes past the old end are appended, which breaks
    /// nothing.
    fn elements(
        &mut self,
        name: &str,
        old: &[Value],
        new: &[Value],
        old_at: &dyn Fn(usize) -> Span,
        new_at: &dyn Fn(usize) -> Span,
    ) {
        let mut used = vec![false; new.len()];
        let mut kept = vec![false; old.len()];
        for i in 0..old.len().min(new.len()) {
            if old[i] == new[i] {
                used[i] = true;
                kept[i] = true;
            }
        }
        let mut found: Vec<Option<usize>> = vec![None; old.len()];
        for (i, v) in old.iter().enumerate().filter(|(i, _)| !kept[*i]) {
            if let Some(j) = (0..new.len()).find(|&j| !used[j] && new[j] == *v) {
                used[j] = true;
                found[i] = Some(j);
            }
        }
        for i in (0..old.len()).filter(|&i| !kept[i]) {
            let (of, nf) = (self.old_file, self.new_file);
            let v = &old[i];
            if let Some(j) = found[i] {
                let message = format!("`{name}[{i}]` ({v}) moved to `{name}[{j}]`");
                let o = site(of, old_at(i), format!("was [{i}]"));
                let n = site(nf, new_at(j), format!("is [{j}]"));
                self.push(Kind::ElementMoved, name, message, o, n);
            } else if i < new.len() && !used[i] {
                used[i] = true;
                let w = &new[i];
                let message = format!("`{name}[{i}]` changed from {v} to {w}");
                let o = site(of, old_at(i), format!("was {v}"));
                let n = site(nf, new_at(i), format!("is {w}"));
                self.push(Kind::ElementChanged, name, message, o, n);
            } else {
                let message = format!("`{name}[{i}]` ({v}) is gone");
                let o = site(of, old_at(i), "was here");
                let n = (i >= new.len())
                    .then(|| site(nf, new_at(new.len().max(1) - 1), "the array ends here"))
                    .flatten();
                self.push(Kind::ElementRemoved, name, message, o, n);
            }
        }
        for j in (0..new.len()).filter(|&j| !used[j]) {
            let (of, nf) = (self.old_file, self.new_file);
            let w = &new[j];
            if j < old.len() {
                // The old element here moved away or is gone (reported above): the index
                // now holds a value of its own.
                let message = format!("`{name}[{j}]` is now {w}, not {}", old[j]);
                let o = site(of, old_at(j), format!("was {}", old[j]));
                let n = site(nf, new_at(j), format!("is {w}"));
                self.push(Kind::ElementChanged, name, message, o, n);
            } else {
                let message = format!("`{name}[{j}]` ({w}) is appended");
                let n = site(nf, new_at(j), "appended");
                self.push(Kind::ElementAdded, name, message, None, n);
            }
        }
    }

    /// A struct's fields, by name: gone, retyped, at another position, or new.
    fn fields(&mut self, name: &str, old: &[Param], new: &[Param]) {
        let (of, nf) = (self.old_file, self.new_file);
        for (i, o) in old.iter().enumerate() {
            let Some((j, n)) = new.iter().enumerate().find(|(_, n)| n.name == o.name) else {
                let message = format!("field `{name}.{}` is gone", o.name);
                self.push(
                    Kind::FieldRemoved,
                    name,
                    message,
                    site(of, o.span, "was here"),
                    None,
                );
                continue;
            };
            if o.ty != n.ty {
                let (ot, nt) = (ty(&o.ty), ty(&n.ty));
                let message = format!(
                    "field `{name}.{}` changed type from `{ot}` to `{nt}`",
                    o.name
                );
                let os = site(of, o.span, format!("was `{ot}`"));
                let ns = site(nf, n.span, format!("is `{nt}`"));
                self.push(Kind::FieldTypeChanged, name, message, os, ns);
            }
            if i != j {
                let message = format!("field `{name}.{}` moved from position {i} to {j}", o.name);
                let os = site(of, o.span, format!("was field {i}"));
                let ns = site(nf, n.span, format!("is field {j}"));
                self.push(Kind::FieldMoved, name, message, os, ns);
            }
        }
        for n in new.iter().filter(|n| !old.iter().any(|o| o.name == n.name)) {
            let message = format!("field `{name}.{}` is new", n.name);
            self.push(
                Kind::FieldAdded,
                name,
                message,
                None,
                site(nf, n.span, "new"),
            );
        }
    }
}

fn ty(t: &TyName) -> &str {
    t.as_deref().unwrap_or("?")
}

fn params(ps: &[Param]) -> String {
    ps.iter()
        .map(|p| format!("{}: {}", p.name, ty(&p.ty)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn ret(t: &TyName) -> String {
    match t.as_deref() {
        Some("nothing") | None => "nothing".to_string(),
        Some(t) => format!("`{t}`"),
    }
}
