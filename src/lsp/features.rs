//! The answers to requests: hover, definition, references, completion,
//! rename, document and workspace symbols, formatting.
//!
//! In: the [`Workspace`] (files and their indexes), what the checker
//! [`Shared`] (generated relations, published diagnostics), a document and
//! a position. Out: values of `lsp_types`. Holds: a name is looked up in
//! its file's chain of bases for definitions, and in its whole family
//! (every file linked by `extends`) for references and rename; every answer
//! is bounded by the files a [`Workspace`] walk may visit.

use super::check::{Generated, Shared};
use super::docs;
use super::index::{Namespace, Occurrence, Role, StatementKind};
use super::text::{LineIndex, word_at};
use super::workspace::{File, Workspace};
use lsp_types::{
    CompletionItem, CompletionItemKind, DocumentSymbol, Hover, HoverContents, Location,
    MarkupContent, MarkupKind, Position, SymbolInformation, SymbolKind, TextEdit, Url,
    WorkspaceEdit,
};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Mutex;

/// The edits that lay a document out as `tabula fmt` does: none when it is
/// already formatted, else one edit replacing the whole text. A file that
/// does not parse is not formatted: the error says where, as `check` does.
pub fn formatting(file: &File) -> Result<Vec<TextEdit>, String> {
    let mut sources = crate::diag::SourceMap::default();
    let name = file.path.display().to_string();
    let id = sources.add(name.clone(), file.text.clone());
    match crate::format::format(&file.text, file.syntax, id) {
        Ok(out) if out == file.text => Ok(Vec::new()),
        Ok(out) => Ok(vec![TextEdit {
            range: LineIndex::new(&file.text).range(0..file.text.len()),
            new_text: out,
        }]),
        Err(diagnostics) => {
            let first = diagnostics
                .first()
                .map(|d| crate::diag::render(d, &sources, &name, false))
                .unwrap_or_default();
            Err(format!(
                "not formatted: {}",
                first.lines().next().unwrap_or("the file does not parse")
            ))
        }
    }
}

/// Most items a completion, a symbol search or a reference search returns.
const MAX_ITEMS: usize = 1000;

/// The symbol under the cursor: its file, the occurrence and its offset.
fn symbol_at(ws: &mut Workspace, uri: &Url, position: Position) -> Option<(Rc<File>, Occurrence)> {
    let file = ws.document_file(uri)?;
    let offset = LineIndex::new(&file.text).offset(position);
    let occurrence = file.index.occurrence_at(offset)?.clone();
    Some((file, occurrence))
}

fn location(file: &File, range: std::ops::Range<usize>) -> Location {
    Location::new(file.uri.clone(), LineIndex::new(&file.text).range(range))
}

/// Whether an occurrence defines its name (for a label: `rule LABEL:`).
fn defines(o: &Occurrence) -> bool {
    matches!(o.role, Role::Definition | Role::Parameter)
}

/// The relations of a file's last parsed text that declarations generated.
fn generated_in(shared: &Mutex<Shared>, file: &File, name: &str) -> Vec<Generated> {
    let shared = shared.lock().unwrap_or_else(|p| p.into_inner());
    shared
        .generated
        .get(&file.path)
        .map(|all| all.iter().filter(|g| g.name == name).cloned().collect())
        .unwrap_or_default()
}

/// Where `name` is defined, seen from the file `file`: its definitions in
/// the file and its bases (the nearest file first); for a name only a
/// declaration introduces, the declarations.
pub fn definition(
    ws: &mut Workspace,
    shared: &Mutex<Shared>,
    uri: &Url,
    position: Position,
) -> Vec<Location> {
    let Some((file, occurrence)) = symbol_at(ws, uri, position) else {
        return Vec::new();
    };
    let (name, namespace) = (occurrence.name.as_str(), occurrence.namespace);
    let chain = ws.chain(file.clone());
    let mut found: Vec<Location> = Vec::new();
    for f in &chain {
        found.extend(
            f.index
                .occurrences_of(name, namespace)
                .filter(|o| defines(o))
                .map(|o| location(f, o.range.clone())),
        );
    }
    if namespace == Namespace::Name {
        for g in generated_in(shared, &file, name) {
            if let Some(f) = ws.file(&g.path) {
                let here = location(&f, g.range.clone());
                if !found.contains(&here) {
                    found.push(here);
                }
            }
        }
        if found.is_empty() {
            for f in &chain {
                found.extend(
                    f.index
                        .occurrences_of(name, namespace)
                        .filter(|o| o.role == Role::Declared)
                        .map(|o| location(f, o.range.clone())),
                );
            }
        }
    }
    found
}

/// Every occurrence of the name under the cursor in its family.
pub fn references(
    ws: &mut Workspace,
    uri: &Url,
    position: Position,
    with_definitions: bool,
) -> Vec<Location> {
    let Some((file, occurrence)) = symbol_at(ws, uri, position) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for f in ws.family(file) {
        for o in f
            .index
            .occurrences_of(&occurrence.name, occurrence.namespace)
        {
            if (with_definitions || !defines(o)) && found.len() < MAX_ITEMS {
                found.push(location(&f, o.range.clone()));
            }
        }
    }
    found
}

/// Why a rename is refused.
pub type Refusal = String;

/// Renames the relation, name, parameter, label or section under the
/// cursor in its whole family.
pub fn rename(
    ws: &mut Workspace,
    shared: &Mutex<Shared>,
    uri: &Url,
    position: Position,
    new_name: &str,
) -> Result<WorkspaceEdit, Refusal> {
    let Some((file, occurrence)) = symbol_at(ws, uri, position) else {
        return Err("no relation, label or section here".to_string());
    };
    let name = occurrence.name.as_str();
    let well_formed = new_name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        && new_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !well_formed || ["not", "mod"].contains(&new_name) {
        return Err(format!(
            "`{new_name}` is not a name: a name starts with a lower-case letter, then letters, digits and `_`"
        ));
    }
    if occurrence.namespace == Namespace::Name {
        if crate::gdl::is_reserved_name(name) || crate::gdl::is_reserved_name(new_name) {
            return Err(format!(
                "`{}` is a name GDL reserves",
                if crate::gdl::is_reserved_name(name) {
                    name
                } else {
                    new_name
                }
            ));
        }
        if let Some(g) = generated_in(shared, &file, name).first() {
            return Err(format!(
                "`{name}` is generated by a `{}` declaration: rename what it declares there",
                g.keyword
            ));
        }
    }
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for f in ws.family(file) {
        let index = LineIndex::new(&f.text);
        let edits: Vec<TextEdit> = f
            .index
            .occurrences_of(name, occurrence.namespace)
            .map(|o| TextEdit::new(index.range(o.range.clone()), new_name.to_string()))
            .collect();
        if !edits.is_empty() {
            changes.insert(f.uri.clone(), edits);
        }
    }
    Ok(WorkspaceEdit::new(changes))
}

/// The `%` comment lines right above a statement that starts at `start`.
fn doc_comment(text: &str, start: usize) -> String {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let mut lines: Vec<&str> = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|l| l.starts_with('%'))
        .map(|l| l.trim_start_matches('%').trim())
        .collect();
    lines.reverse();
    lines.join("\n")
}

/// `file:line` of a byte offset (the file's name alone).
fn place(file: &File, offset: usize) -> String {
    let line = LineIndex::new(&file.text).position(offset).line + 1;
    let name = file.path.file_name().map_or_else(
        || file.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    format!("{name}:{line}")
}

/// The text of a statement, on one line, at most 120 characters (nothing
/// for a range the text no longer has: a declaration's range is kept from
/// the checker's last reading of its file).
fn statement_text(text: &str, range: std::ops::Range<usize>) -> String {
    let one_line: String = text
        .get(range)
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match one_line.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None => one_line,
    }
}

pub fn hover(
    ws: &mut Workspace,
    shared: &Mutex<Shared>,
    uri: &Url,
    position: Position,
) -> Option<Hover> {
    let file = ws.document_file(uri)?;
    let offset = LineIndex::new(&file.text).offset(position);
    let mut parts = Vec::new();
    match file.index.occurrence_at(offset).cloned() {
        Some(occurrence) => parts.push(describe(ws, shared, &file, &occurrence)),
        None => {
            if let Some((word, _)) = word_at(&file.text, offset)
                && let Some(text) = docs::keyword(word).or_else(|| docs::code(word))
            {
                parts.push(text);
            }
        }
    }
    // The explanation of each diagnostic shown here.
    let codes: Vec<String> = {
        let shared = shared.lock().unwrap_or_else(|p| p.into_inner());
        let mut codes: Vec<String> = shared
            .published
            .get(uri)
            .into_iter()
            .flatten()
            .filter(|d| d.range.start <= position && position <= d.range.end)
            .filter_map(|d| match &d.code {
                Some(lsp_types::NumberOrString::String(c)) => Some(c.clone()),
                _ => None,
            })
            .collect();
        codes.dedup();
        codes
    };
    for code in codes {
        if let Some(text) = docs::code(&code) {
            parts.push(text);
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range: None,
    })
}

/// What a hover says about a name, label or section.
fn describe(
    ws: &mut Workspace,
    shared: &Mutex<Shared>,
    file: &Rc<File>,
    occurrence: &Occurrence,
) -> String {
    let name = occurrence.name.as_str();
    let chain = ws.chain(file.clone());
    let mut definitions: Vec<(Rc<File>, Occurrence)> = Vec::new();
    for f in &chain {
        for o in f.index.occurrences_of(name, occurrence.namespace) {
            if defines(o) {
                definitions.push((f.clone(), o.clone()));
            }
        }
    }
    let mut text = String::new();
    match occurrence.namespace {
        Namespace::Label => text.push_str(&format!("**label** `{name}`")),
        Namespace::Section => text.push_str(&format!("**section** `{name}`")),
        Namespace::Name if definitions.iter().any(|(_, o)| o.role == Role::Parameter) => {
            text.push_str(&format!("**parameter** `{name}`"))
        }
        Namespace::Name => {
            let mut arities: Vec<usize> = chain
                .iter()
                .flat_map(|f| f.index.occurrences_of(name, Namespace::Name))
                .filter_map(|o| o.arity)
                .collect();
            let generated = generated_in(shared, file, name);
            arities.extend(generated.iter().map(|g| g.arity));
            arities.sort_unstable();
            arities.dedup();
            match arities.as_slice() {
                [] => text.push_str(&format!("**name** `{name}` (a term, never a relation)")),
                [n] => text.push_str(&format!("**relation** `{name}/{n}` (arity {n})")),
                many => {
                    let shown: Vec<String> = many.iter().map(|n| n.to_string()).collect();
                    text.push_str(&format!(
                        "**relation** `{name}` (arities {})",
                        shown.join(", ")
                    ))
                }
            }
            for g in &generated {
                if let Some(f) = ws.file(&g.path) {
                    text.push_str(&format!(
                        "\n\ngenerated by the `{}` declaration at {}: `{}`",
                        g.keyword,
                        place(&f, g.range.start),
                        statement_text(&f.text, g.range.clone())
                    ));
                }
            }
        }
    }
    if definitions.is_empty() {
        return text;
    }
    let shown: Vec<String> = definitions
        .iter()
        .take(5)
        .map(|(f, o)| place(f, o.range.start))
        .collect();
    let more = definitions.len().saturating_sub(5);
    text.push_str(&format!(
        "\n\ndefined at {}{}",
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ));
    let (f, first) = &definitions[0];
    if let Some(statement) = f.index.statements.get(first.statement) {
        let start = match occurrence.namespace {
            Namespace::Section => f
                .index
                .sections
                .iter()
                .find(|s| s.name == name)
                .map_or(statement.range.start, |s| s.range.start),
            _ => statement.range.start,
        };
        let comment = doc_comment(&f.text, start);
        if occurrence.namespace != Namespace::Section {
            text.push_str(&format!(
                "\n\n```\n{}\n```",
                statement_text(&f.text, statement.range.clone())
            ));
        }
        if !comment.is_empty() {
            text.push_str(&format!("\n\n{comment}"));
        }
    }
    text
}

/// What may be typed at the cursor: labels or sections after `replace` and
/// `drop`, else names, parameters, generated relations and (at the start
/// of a statement) keywords.
pub fn completion(
    ws: &mut Workspace,
    shared: &Mutex<Shared>,
    uri: &Url,
    position: Position,
) -> Vec<CompletionItem> {
    let Some(file) = ws.document_file(uri) else {
        return Vec::new();
    };
    let offset = LineIndex::new(&file.text).offset(position);
    let word_start = word_at(&file.text, offset).map_or(offset, |(_, r)| r.start.min(offset));
    let before = &file.text[..word_start];
    let previous: Vec<&str> = before.split_whitespace().rev().take(2).collect();
    let chain = ws.chain(file.clone());
    let bases = &chain[1..];
    let mut items: Vec<CompletionItem> = Vec::new();
    let mut add = |label: &str, kind: CompletionItemKind, detail: String| {
        if items.len() < MAX_ITEMS && !items.iter().any(|i| i.label == label) {
            items.push(CompletionItem {
                label: label.to_string(),
                kind: Some(kind),
                detail: Some(detail),
                ..Default::default()
            });
        }
    };
    let in_bases = |namespace: Namespace| {
        bases
            .iter()
            .flat_map(|f| f.index.occurrences.iter())
            .filter(move |o| o.namespace == namespace && o.role == Role::Definition)
            .map(|o| o.name.clone())
            .collect::<Vec<_>>()
    };
    match previous.as_slice() {
        ["section", "drop", ..] => {
            for name in in_bases(Namespace::Section) {
                add(
                    &name,
                    CompletionItemKind::MODULE,
                    "section of the base".to_string(),
                );
            }
            return items;
        }
        ["replace", ..] | ["drop", ..] => {
            for name in in_bases(Namespace::Label) {
                add(
                    &name,
                    CompletionItemKind::REFERENCE,
                    "labelled rule of the base".to_string(),
                );
            }
            if previous.first() == Some(&"drop") {
                add(
                    "section",
                    CompletionItemKind::KEYWORD,
                    "drop a whole section".to_string(),
                );
            }
            return items;
        }
        _ => {}
    }
    let at_statement_start =
        before.trim_end().is_empty() || before.trim_end().ends_with(['.', '{', '}']);
    if at_statement_start && file.syntax == crate::syntax::Syntax::Rules {
        for keyword in docs::KEYWORDS {
            add(
                keyword,
                CompletionItemKind::KEYWORD,
                "declaration".to_string(),
            );
        }
    }
    for f in &chain {
        for o in f
            .index
            .occurrences
            .iter()
            .filter(|o| o.namespace == Namespace::Name)
        {
            if o.range.start <= offset && offset <= o.range.end && Rc::ptr_eq(f, &file) {
                continue;
            }
            match (o.role, o.arity) {
                (Role::Parameter, _) => add(
                    &o.name,
                    CompletionItemKind::CONSTANT,
                    "parameter".to_string(),
                ),
                (_, Some(n)) => add(
                    &o.name,
                    CompletionItemKind::FUNCTION,
                    format!("relation/{n}"),
                ),
                (_, None) => add(&o.name, CompletionItemKind::VALUE, "name".to_string()),
            }
        }
    }
    let generated: Vec<Generated> = {
        let shared = shared.lock().unwrap_or_else(|p| p.into_inner());
        shared
            .generated
            .get(&file.path)
            .cloned()
            .unwrap_or_default()
    };
    for g in generated {
        add(
            &g.name,
            CompletionItemKind::FUNCTION,
            format!("relation/{} (from `{}`)", g.arity, g.keyword),
        );
    }
    items
}

/// The outline of a document: sections holding their statements; labelled
/// rules, declarations, parameters, counters, and each relation at its
/// first rule in its section.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written out.
pub fn document_symbols(ws: &mut Workspace, uri: &Url) -> Vec<DocumentSymbol> {
    let Some(file) = ws.document_file(uri) else {
        return Vec::new();
    };
    let index = LineIndex::new(&file.text);
    let symbol = |name: String,
                  detail: Option<String>,
                  kind,
                  range: std::ops::Range<usize>,
                  selection: std::ops::Range<usize>| DocumentSymbol {
        name: if name.is_empty() {
            "?".to_string()
        } else {
            name
        },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: index.range(range),
        selection_range: index.range(selection),
        children: None,
    };
    let mut top: Vec<DocumentSymbol> = Vec::new();
    let mut sections: Vec<(DocumentSymbol, Vec<DocumentSymbol>)> = file
        .index
        .sections
        .iter()
        .map(|s| {
            (
                symbol(
                    s.name.clone(),
                    Some("section".to_string()),
                    SymbolKind::NAMESPACE,
                    s.range.clone(),
                    s.name_range.clone(),
                ),
                Vec::new(),
            )
        })
        .collect();
    let mut seen: Vec<(Option<usize>, String, usize)> = Vec::new();
    for (i, statement) in file.index.statements.iter().enumerate() {
        let first_name = file
            .index
            .occurrences
            .iter()
            .find(|o| o.statement == i)
            .map_or(statement.range.start..statement.range.start, |o| {
                o.range.clone()
            });
        let text = statement_text(&file.text, statement.range.clone());
        let made = match &statement.kind {
            StatementKind::Clause { head, arity } => {
                let key = (statement.section, head.clone(), *arity);
                if seen.contains(&key) {
                    None
                } else {
                    seen.push(key);
                    Some(symbol(
                        format!("{head}/{arity}"),
                        Some(text),
                        SymbolKind::FUNCTION,
                        statement.range.clone(),
                        first_name,
                    ))
                }
            }
            StatementKind::Labelled { label, head } => Some(symbol(
                label.clone(),
                Some(format!("{head}: {text}")),
                SymbolKind::METHOD,
                statement.range.clone(),
                first_name,
            )),
            StatementKind::Declaration { keyword } => Some(symbol(
                keyword.clone(),
                Some(text),
                SymbolKind::STRUCT,
                statement.range.clone(),
                statement.range.clone(),
            )),
            StatementKind::Param { name } => Some(symbol(
                name.clone(),
                Some(text),
                SymbolKind::CONSTANT,
                statement.range.clone(),
                first_name,
            )),
            StatementKind::Counter { name } => Some(symbol(
                name.clone(),
                Some(text),
                SymbolKind::VARIABLE,
                statement.range.clone(),
                first_name,
            )),
            StatementKind::Drop { .. } | StatementKind::Extends => None,
        };
        if let Some(made) = made {
            match statement.section.and_then(|s| sections.get_mut(s)) {
                Some((_, children)) => children.push(made),
                None => top.push(made),
            }
        }
    }
    for (mut section, children) in sections {
        section.children = Some(children);
        top.push(section);
    }
    top.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    top
}

/// The relations, labels, sections and parameters of every game file of
/// the workspace whose name holds `query` (case ignored).
#[allow(deprecated)] // `SymbolInformation::deprecated` must be written out.
pub fn workspace_symbols(ws: &mut Workspace, query: &str) -> Vec<SymbolInformation> {
    let query = query.to_lowercase();
    let mut found = Vec::new();
    for file in ws.all_files() {
        let mut seen: Vec<(&str, Namespace)> = Vec::new();
        for o in &file.index.occurrences {
            if !defines(o)
                || seen.contains(&(o.name.as_str(), o.namespace))
                || !o.name.to_lowercase().contains(&query)
            {
                continue;
            }
            seen.push((o.name.as_str(), o.namespace));
            let kind = match (o.namespace, o.role) {
                (Namespace::Label, _) => SymbolKind::METHOD,
                (Namespace::Section, _) => SymbolKind::NAMESPACE,
                (Namespace::Name, Role::Parameter) => SymbolKind::CONSTANT,
                (Namespace::Name, _) => SymbolKind::FUNCTION,
            };
            found.push(SymbolInformation {
                name: o.name.clone(),
                kind,
                tags: None,
                deprecated: None,
                location: location(&file, o.range.clone()),
                container_name: file
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned()),
            });
            if found.len() >= MAX_ITEMS {
                return found;
            }
        }
    }
    found
}

/// The files that extend `path` among the open documents (directly or
/// not), so that a change to a base checks its open variants again.
pub fn open_dependents(ws: &mut Workspace, uri: &Url) -> Vec<Url> {
    let Some(path) = ws.documents.get(uri).map(|d| d.path.clone()) else {
        return Vec::new();
    };
    let others: Vec<Url> = ws.documents.keys().filter(|u| *u != uri).cloned().collect();
    others
        .into_iter()
        .filter(|other| {
            ws.document_file(other).is_some_and(|f| {
                f.index.extends.is_some() && ws.chain(f).iter().skip(1).any(|b| b.path == path)
            })
        })
        .collect()
}
