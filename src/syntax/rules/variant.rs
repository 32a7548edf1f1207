//! A variant over its base, and the labels of rules.
//!
//! In: the statements of a base (already merged with its own base) and of a
//! variant. Out: one list of statements, with the variant's changes applied
//! in its order: a `param` changes the base's value (and keeps the values
//! the base allows unless it says its own), a `section` replaces
//! the base's section of that name, `replace LABEL: clause` replaces the
//! base's rule of that label where it stands, `drop LABEL` and `drop section
//! NAME` remove them, a `game` title replaces the base's, and everything else
//! is added at the end.
//! Holds: a parameter, section or label that the base does not have is an
//! error (E0107) at the variant's line; a label is used once per file, and a
//! variant's new `rule LABEL:` must not take a label of its base (E0003, with
//! both places); `replace` and `drop` are refused in a file that extends
//! nothing. No `Labelled` statement left in the result is a `replace`.

use super::parser::{Stmt, StmtKind};
use crate::diag::{Diagnostic, codes};
use crate::syntax::ast::Span;
use indexmap::IndexMap;

/// A variant's statements applied to its base's.
pub fn merge(mut base: Vec<Stmt>, own: Vec<Stmt>, errors: &mut Vec<Diagnostic>) -> Vec<Stmt> {
    for stmt in own {
        match &stmt.kind {
            StmtKind::Param {
                name, name_span, ..
            } => {
                let (name, span) = (name.clone(), *name_span);
                match find_mut(&mut base, &|s| is_param(s, &name)) {
                    Some(slot) => *slot = with_base_values(stmt, slot),
                    None => errors.push(unknown(span, Kind::Param, &name, &base)),
                }
            }
            StmtKind::Section {
                name, name_span, ..
            } => match base.iter().position(|s| section_name(s) == Some(name)) {
                Some(i) => base[i] = stmt,
                None => errors.push(unknown(*name_span, Kind::Section, name, &base)),
            },
            StmtKind::Labelled { .. } => labelled(&mut base, stmt, errors),
            StmtKind::Drop {
                section: true,
                name,
                name_span,
            } => match base.iter().position(|s| section_name(s) == Some(name)) {
                Some(i) => {
                    base.remove(i);
                }
                None => errors.push(unknown(*name_span, Kind::Section, name, &base)),
            },
            StmtKind::Drop {
                section: false,
                name,
                name_span,
            } => {
                if !remove_labelled(&mut base, name) {
                    errors.push(unknown(*name_span, Kind::Label, name, &base));
                }
            }
            StmtKind::Decl(d) if d.keyword == "game" => {
                let slot = base
                    .iter_mut()
                    .find(|s| matches!(&s.kind, StmtKind::Decl(b) if b.keyword == "game"));
                match slot {
                    Some(slot) => *slot = stmt,
                    None => base.push(stmt),
                }
            }
            _ => base.push(stmt),
        }
    }
    base
}

/// A variant's `param`: without values of its own (`in ...`), it keeps
/// those the base allows.
fn with_base_values(mut stmt: Stmt, base: &Stmt) -> Stmt {
    if let (StmtKind::Param { valid, .. }, StmtKind::Param { valid: allowed, .. }) =
        (&mut stmt.kind, &base.kind)
        && valid.is_empty()
    {
        valid.clone_from(allowed);
    }
    stmt
}

/// A variant's `rule LABEL:` (added, its label new) or `replace LABEL:`
/// (in the place of the base's rule of that label).
fn labelled(base: &mut Vec<Stmt>, mut stmt: Stmt, errors: &mut Vec<Diagnostic>) {
    let StmtKind::Labelled {
        label,
        label_span,
        replace,
        ..
    } = &mut stmt.kind
    else {
        return;
    };
    let (name, span, was_replace) = (label.clone(), *label_span, *replace);
    *replace = false;
    let slot = find_mut(base, &|s| label_of(s).is_some_and(|(l, _)| l == name));
    match (slot, was_replace) {
        (Some(slot), true) => *slot = stmt,
        (None, true) => errors.push(unknown(span, Kind::Label, &name, base)),
        (None, false) => base.push(stmt),
        (Some(old), false) => {
            let old_span = label_of(old).map_or(old.span, |(_, s)| s);
            errors.push(
                Diagnostic::error(
                    codes::DECLARATION,
                    span,
                    format!("the base file already has a rule labelled `{name}`"),
                )
                .with_label(old_span, "labelled here")
                .with_note(format!("a variant changes it with `replace {name}: ...`")),
            );
        }
    }
}

/// Refuses a label, or a section name, used twice in one file's
/// statements: a variant's `replace`, `drop` or `section` would change only
/// the first.
pub fn check_labels(stmts: &[Stmt], errors: &mut Vec<Diagnostic>) {
    let mut labels: IndexMap<String, Span> = IndexMap::new();
    let mut sections: IndexMap<String, Span> = IndexMap::new();
    visit(stmts, &mut |s| {
        let (seen, what, name, span) = match (&s.kind, label_of(s)) {
            (_, Some((label, span))) => (&mut labels, "label", label, span),
            (
                StmtKind::Section {
                    name, name_span, ..
                },
                None,
            ) => (&mut sections, "section name", name.as_str(), *name_span),
            _ => return,
        };
        match seen.get(name) {
            Some(first) => errors.push(
                Diagnostic::error(
                    codes::DECLARATION,
                    span,
                    format!("the {what} `{name}` is used twice in this file"),
                )
                .with_label(*first, "first used here"),
            ),
            None => {
                seen.insert(name.to_string(), span);
            }
        }
    });
}

/// The statements of a file that extends nothing, without its `replace` and
/// `drop` statements, each refused.
pub fn without_base(stmts: Vec<Stmt>, errors: &mut Vec<Diagnostic>) -> Vec<Stmt> {
    refuse_changes(
        stmts,
        "changes a base file, and this file has no `extends`",
        errors,
    )
}

/// A variant's statements, without the `replace` and `drop` statements of
/// its sections, each refused (a section replaces the base's whole).
pub fn changes_outside_sections(stmts: Vec<Stmt>, errors: &mut Vec<Diagnostic>) -> Vec<Stmt> {
    let mut stmts = stmts;
    for s in &mut stmts {
        if let StmtKind::Section { body, .. } = &mut s.kind {
            let why = "stands outside sections (a variant's section replaces the base's whole)";
            *body = refuse_changes(std::mem::take(body), why, errors);
        }
    }
    stmts
}

fn refuse_changes(stmts: Vec<Stmt>, why: &str, errors: &mut Vec<Diagnostic>) -> Vec<Stmt> {
    let mut kept = Vec::with_capacity(stmts.len());
    for mut stmt in stmts {
        let change = match &mut stmt.kind {
            StmtKind::Labelled {
                replace: true,
                label_span,
                ..
            } => Some(("replace", *label_span)),
            StmtKind::Drop { name_span, .. } => Some(("drop", *name_span)),
            StmtKind::Section { body, .. } => {
                *body = refuse_changes(std::mem::take(body), why, errors);
                None
            }
            _ => None,
        };
        match change {
            Some((word, span)) => errors.push(Diagnostic::error(
                codes::UNKNOWN_NAME,
                span,
                format!("`{word}` {why}"),
            )),
            None => kept.push(stmt),
        }
    }
    kept
}

/// What a variant names in its base.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Param,
    Section,
    Label,
}

/// A name the base does not have: the nearest one it has, and every one.
fn unknown(span: Span, kind: Kind, name: &str, base: &[Stmt]) -> Diagnostic {
    let (what, plural) = match kind {
        Kind::Param => (format!("parameter `{name}`"), "parameters"),
        Kind::Section => (format!("section `{name}`"), "sections"),
        Kind::Label => (format!("rule labelled `{name}`"), "labels"),
    };
    let mut known: Vec<String> = Vec::new();
    visit(base, &mut |s| {
        let found = match (&s.kind, kind) {
            (StmtKind::Param { name, .. }, Kind::Param) => Some(name.as_str()),
            (StmtKind::Section { name, .. }, Kind::Section) => Some(name.as_str()),
            (_, Kind::Label) => label_of(s).map(|(l, _)| l),
            _ => None,
        };
        known.extend(found.map(str::to_string));
    });
    let mut d = Diagnostic::error(
        codes::UNKNOWN_NAME,
        span,
        format!("the base file has no {what}"),
    );
    if let Some(near) = crate::diag::suggest::closest(name, known.iter().map(String::as_str)) {
        d = d.with_note(format!("did you mean `{near}`?"));
    }
    let listed: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    d.with_note(match listed.is_empty() {
        true => format!("the base file has no {plural}"),
        false => format!("its {plural}: {}", listed.join(", ")),
    })
}

fn label_of(s: &Stmt) -> Option<(&str, Span)> {
    match &s.kind {
        StmtKind::Labelled {
            label, label_span, ..
        } => Some((label, *label_span)),
        _ => None,
    }
}

fn section_name(s: &Stmt) -> Option<&String> {
    match &s.kind {
        StmtKind::Section { name, .. } => Some(name),
        _ => None,
    }
}

fn is_param(s: &Stmt, name: &str) -> bool {
    matches!(&s.kind, StmtKind::Param { name: n, .. } if n == name)
}

/// The first statement that `wanted`, at the top or in a section.
fn find_mut<'a>(stmts: &'a mut [Stmt], wanted: &dyn Fn(&Stmt) -> bool) -> Option<&'a mut Stmt> {
    for s in stmts.iter_mut() {
        if wanted(s) {
            return Some(s);
        }
        if let StmtKind::Section { body, .. } = &mut s.kind
            && let Some(found) = find_mut(body, wanted)
        {
            return Some(found);
        }
    }
    None
}

/// Removes the rule labelled `label`, at the top or in a section.
fn remove_labelled(stmts: &mut Vec<Stmt>, label: &str) -> bool {
    if let Some(i) = stmts
        .iter()
        .position(|s| label_of(s).is_some_and(|(l, _)| l == label))
    {
        stmts.remove(i);
        return true;
    }
    stmts.iter_mut().any(|s| match &mut s.kind {
        StmtKind::Section { body, .. } => remove_labelled(body, label),
        _ => false,
    })
}

/// Every statement, sections' included.
fn visit(stmts: &[Stmt], f: &mut dyn FnMut(&Stmt)) {
    for s in stmts {
        f(s);
        if let StmtKind::Section { body, .. } = &s.kind {
            visit(body, f);
        }
    }
}
