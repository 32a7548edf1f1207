//! The index of one source file: every name, label, section and parameter
//! written in it, where, and in which role.
//!
//! In: the text of a `.rules` file, read with the native reader's statement
//! parser (which skips a bad statement and goes on, so a half-typed file
//! still has the index of its good statements), or of a `.kif` file (read
//! whole: an index only when it parses). Out: a [`FileIndex`]:
//! [`Occurrence`]s with byte ranges, the statements with their sections,
//! the `extends` path. Holds: no I/O; linear in the text; every range lies
//! inside the text on character boundaries.

use crate::diag::FileId;
use crate::syntax::rules::parser::{self, Ex, ExKind, Lit, Stmt, StmtKind};
use crate::syntax::{Atom, Literal, SourceMap, Syntax, Term, TermKind};
use std::ops::Range;

/// The kinds of names that are looked up separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Namespace {
    /// Relations, function and constant names, parameters (a parameter is
    /// used as a constant).
    Name,
    /// Labels of rules (`rule LABEL:`, `replace LABEL:`, `drop LABEL.`).
    Label,
    /// Sections (`section NAME {`, `drop section NAME.`).
    Section,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A rule's head, a `counter`, a `rule LABEL:` or a `section`.
    Definition,
    /// A `param` declaration.
    Parameter,
    /// A term of a declaration (`pieces KIND: ...`): the declaration
    /// introduces the name or refers to it.
    Declared,
    /// Any other occurrence: a body literal, an argument, `replace`, `drop`.
    Use,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub name: String,
    pub namespace: Namespace,
    pub role: Role,
    /// The bytes of the name itself.
    pub range: Range<usize>,
    /// Arguments of a name in the place of an atom (a head or a body
    /// literal); `None` for a term inside another term.
    pub arity: Option<usize>,
    /// The index of its statement in [`FileIndex::statements`].
    pub statement: usize,
}

/// One statement, for outlines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub range: Range<usize>,
    pub kind: StatementKind,
    /// The index of its section in [`FileIndex::sections`].
    pub section: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// A rule or a fact, with its head's name and arity.
    Clause {
        head: String,
        arity: usize,
    },
    /// `rule LABEL: ...` or `replace LABEL: ...`.
    Labelled {
        label: String,
        head: String,
    },
    /// A declaration with its keyword (`board`, `pieces`, ...).
    Declaration {
        keyword: String,
    },
    Param {
        name: String,
    },
    Counter {
        name: String,
    },
    Drop {
        name: String,
    },
    Extends,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub name_range: Range<usize>,
    pub range: Range<usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileIndex {
    pub occurrences: Vec<Occurrence>,
    pub statements: Vec<Statement>,
    pub sections: Vec<Section>,
    /// The path an `extends` names, and the range of the statement.
    pub extends: Option<(String, Range<usize>)>,
}

/// The sugar words that wrap a state fact: `true cell(...)`.
const FACT_WRAPPERS: [&str; 3] = ["true", "next", "init"];

impl FileIndex {
    pub fn new(text: &str, syntax: Syntax) -> FileIndex {
        match syntax {
            Syntax::Rules => {
                let (stmts, _) = parser::parse_file(text, FileId(0));
                let mut builder = Builder {
                    text,
                    index: FileIndex::default(),
                };
                builder.statements(&stmts, None);
                builder.index
            }
            Syntax::Kif => kif_index(text),
        }
    }

    /// The occurrence whose name holds `offset` or ends right at it.
    pub fn occurrence_at(&self, offset: usize) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .find(|o| o.range.start <= offset && offset <= o.range.end)
    }

    pub fn occurrences_of<'a>(
        &'a self,
        name: &'a str,
        namespace: Namespace,
    ) -> impl Iterator<Item = &'a Occurrence> + 'a {
        self.occurrences
            .iter()
            .filter(move |o| o.namespace == namespace && o.name == name)
    }
}

struct Builder<'a> {
    text: &'a str,
    index: FileIndex,
}

impl Builder<'_> {
    fn statements(&mut self, stmts: &[Stmt], section: Option<usize>) {
        for stmt in stmts {
            if let StmtKind::Section {
                name,
                name_span,
                body,
            } = &stmt.kind
            {
                let here = self.index.sections.len();
                let name_range = self.range(name_span.start, name_span.end);
                self.index.sections.push(Section {
                    name: name.clone(),
                    name_range: name_range.clone(),
                    range: self.range(stmt.span.start, stmt.span.end),
                });
                self.index.occurrences.push(Occurrence {
                    name: name.clone(),
                    namespace: Namespace::Section,
                    role: Role::Definition,
                    range: name_range,
                    arity: None,
                    statement: self.index.statements.len(),
                });
                self.statements(body, Some(here));
            } else {
                self.statement(stmt, section);
            }
        }
    }

    fn range(&self, start: u32, end: u32) -> Range<usize> {
        let end = (end as usize).min(self.text.len());
        let start = (start as usize).min(end);
        if self.text.is_char_boundary(start) && self.text.is_char_boundary(end) {
            start..end
        } else {
            end..end
        }
    }

    fn statement(&mut self, stmt: &Stmt, section: Option<usize>) {
        let at = self.index.statements.len();
        let kind = match &stmt.kind {
            StmtKind::Clause { head, body } => {
                let (name, arity) = head_name(head);
                self.clause(head, body, at);
                StatementKind::Clause { head: name, arity }
            }
            StmtKind::Labelled {
                label,
                label_span,
                replace,
                clause,
            } => {
                let role = if *replace {
                    Role::Use
                } else {
                    Role::Definition
                };
                self.push(label, Namespace::Label, role, label_span.start, None, at);
                let mut head_text = String::new();
                if let StmtKind::Clause { head, body } = &clause.kind {
                    head_text = head_name(head).0;
                    self.clause(head, body, at);
                }
                StatementKind::Labelled {
                    label: label.clone(),
                    head: head_text,
                }
            }
            StmtKind::Decl(decl) => {
                for part in &decl.parts {
                    for item in &part.items {
                        for ex in item {
                            self.term(ex, false, Role::Declared, at);
                        }
                    }
                }
                StatementKind::Declaration {
                    keyword: decl.keyword.clone(),
                }
            }
            StmtKind::Param {
                name,
                name_span,
                value,
                valid,
            } => {
                self.push(
                    name,
                    Namespace::Name,
                    Role::Parameter,
                    name_span.start,
                    None,
                    at,
                );
                for ex in std::iter::once(value).chain(valid) {
                    self.term(ex, false, Role::Use, at);
                }
                StatementKind::Param { name: name.clone() }
            }
            StmtKind::Extends { path } => {
                self.index.extends =
                    Some((path.clone(), self.range(stmt.span.start, stmt.span.end)));
                StatementKind::Extends
            }
            StmtKind::Drop {
                section,
                name,
                name_span,
            } => {
                let namespace = match section {
                    true => Namespace::Section,
                    false => Namespace::Label,
                };
                self.push(name, namespace, Role::Use, name_span.start, None, at);
                StatementKind::Drop { name: name.clone() }
            }
            StmtKind::Counter(counter) => {
                let name = &counter.name;
                self.push(
                    name,
                    Namespace::Name,
                    Role::Definition,
                    counter.name_span.start,
                    None,
                    at,
                );
                self.term(&counter.start, false, Role::Use, at);
                self.term(&counter.top, false, Role::Use, at);
                for (_, lit) in &counter.when {
                    self.literal(lit, at);
                }
                StatementKind::Counter { name: name.clone() }
            }
            StmtKind::Section { .. } => return,
        };
        self.index.statements.push(Statement {
            range: self.range(stmt.span.start, stmt.span.end),
            kind,
            section,
        });
    }

    fn clause(&mut self, head: &Ex, body: &[Lit], at: usize) {
        self.term(head, true, Role::Definition, at);
        for lit in body {
            self.literal(lit, at);
        }
    }

    fn literal(&mut self, lit: &Lit, at: usize) {
        match lit {
            Lit::Atom(ex) => self.term(ex, true, Role::Use, at),
            Lit::Not(inner, _) => self.literal(inner, at),
            Lit::Cmp(_, a, b, _) => {
                self.term(a, false, Role::Use, at);
                self.term(b, false, Role::Use, at);
            }
            Lit::Or(alternatives, _) => {
                for lit in alternatives.iter().flatten() {
                    self.literal(lit, at);
                }
            }
            Lit::Agg(agg) => {
                self.term(&agg.result, false, Role::Use, at);
                if let Some(value) = &agg.value {
                    self.term(value, false, Role::Use, at);
                }
                for lit in &agg.body {
                    self.literal(lit, at);
                }
            }
        }
    }

    /// A term; `atom`: in the place of an atom, where `role` applies to
    /// its name (its arguments are uses, or declared in a declaration).
    fn term(&mut self, ex: &Ex, atom: bool, role: Role, at: usize) {
        let inner_role = match role {
            Role::Declared => Role::Declared,
            _ => Role::Use,
        };
        match &ex.kind {
            ExKind::App(name, args)
                if atom && args.len() == 1 && FACT_WRAPPERS.contains(&name.as_str()) =>
            {
                self.term(&args[0], true, role, at);
            }
            ExKind::App(name, args) => {
                let arity = atom.then_some(args.len());
                let role = if atom { role } else { inner_role };
                self.push(name, Namespace::Name, role, ex.span.start, arity, at);
                for arg in args {
                    self.term(arg, false, inner_role, at);
                }
            }
            ExKind::Name(name) => {
                let role = if atom { role } else { inner_role };
                self.push(
                    name,
                    Namespace::Name,
                    role,
                    ex.span.start,
                    atom.then_some(0),
                    at,
                );
            }
            ExKind::Arith(_, a, b) | ExKind::Range(a, b) => {
                self.term(a, false, inner_role, at);
                self.term(b, false, inner_role, at);
            }
            ExKind::Neg(a) => self.term(a, false, inner_role, at),
            ExKind::Var(_) | ExKind::Int(_) | ExKind::Str(_) => {}
        }
    }

    /// Records `name` written at `start` (or, if the text there is not the
    /// name, at its first appearance in the next bytes).
    fn push(
        &mut self,
        name: &str,
        namespace: Namespace,
        role: Role,
        start: u32,
        arity: Option<usize>,
        statement: usize,
    ) {
        let start = start as usize;
        let Some(found) = self
            .text
            .get(start..)
            .and_then(|rest| find_name(rest, name))
        else {
            return;
        };
        self.index.occurrences.push(Occurrence {
            name: name.to_string(),
            namespace,
            role,
            range: start + found..start + found + name.len(),
            arity,
            statement,
        });
    }
}

/// The offset of `name` as a whole word in `text`, looked for in a short
/// stretch (the name starts its term, after a sugar word or a bracket).
fn find_name(text: &str, name: &str) -> Option<usize> {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    let window = &text[..floor_boundary(text, (name.len() + 64).min(text.len()))];
    window.match_indices(name).map(|(i, _)| i).find(|&i| {
        (i == 0 || !is_word(bytes[i - 1])) && bytes.get(i + name.len()).is_none_or(|&b| !is_word(b))
    })
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The name and arity of a clause's head (`cell` for `next cell(X, Y)`).
fn head_name(head: &Ex) -> (String, usize) {
    match &head.kind {
        ExKind::App(name, args) if args.len() == 1 && FACT_WRAPPERS.contains(&name.as_str()) => {
            let (inner, arity) = head_name(&args[0]);
            (format!("{name} {inner}"), arity)
        }
        ExKind::App(name, args) => (name.clone(), args.len()),
        ExKind::Name(name) => (name.clone(), 0),
        _ => (String::new(), 0),
    }
}

/// The index of a KIF file: its relations and terms, from the whole
/// program when it parses (KIF has no declarations, labels or sections).
fn kif_index(text: &str) -> FileIndex {
    let mut sources = SourceMap::default();
    let Ok(program) = crate::syntax::parse_str(&mut sources, "", text, Syntax::Kif) else {
        return FileIndex::default();
    };
    let mut builder = Builder {
        text,
        index: FileIndex::default(),
    };
    for rule in &program.rules {
        let at = builder.index.statements.len();
        let name = |s| program.symbols.name(s).to_string();
        builder.kif_atom(&rule.head, Role::Definition, at, &name);
        for lit in &rule.body {
            builder.kif_literal(lit, at, &name);
        }
        builder.index.statements.push(Statement {
            range: builder.range(rule.span.start, rule.span.end),
            kind: StatementKind::Clause {
                head: name(rule.head.rel),
                arity: rule.head.args.len(),
            },
            section: None,
        });
    }
    builder.index
}

impl Builder<'_> {
    fn kif_atom(
        &mut self,
        atom: &Atom,
        role: Role,
        at: usize,
        name: &dyn Fn(crate::symbols::Sym) -> String,
    ) {
        let rel = name(atom.rel);
        if FACT_WRAPPERS.contains(&rel.as_str()) && atom.args.len() == 1 {
            return self.kif_term(&atom.args[0], Some(role), at, name);
        }
        self.push(
            &rel,
            Namespace::Name,
            role,
            atom.span.start,
            Some(atom.args.len()),
            at,
        );
        for arg in &atom.args {
            self.kif_term(arg, None, at, name);
        }
    }

    /// A term; `atom_role`: the role of its name when it stands for an atom.
    fn kif_term(
        &mut self,
        term: &Term,
        atom_role: Option<Role>,
        at: usize,
        name: &dyn Fn(crate::symbols::Sym) -> String,
    ) {
        let role = atom_role.unwrap_or(Role::Use);
        let arity = |n| atom_role.map(|_| n);
        match &term.kind {
            TermKind::Const(c) => self.push(
                &name(*c),
                Namespace::Name,
                role,
                term.span.start,
                arity(0),
                at,
            ),
            TermKind::App(f, args) => {
                self.push(
                    &name(*f),
                    Namespace::Name,
                    role,
                    term.span.start,
                    arity(args.len()),
                    at,
                );
                for arg in args {
                    self.kif_term(arg, None, at, name);
                }
            }
            TermKind::Arith(_, a, b) => {
                self.kif_term(a, None, at, name);
                self.kif_term(b, None, at, name);
            }
            TermKind::Var(_) | TermKind::Int(_) => {}
        }
    }

    fn kif_literal(
        &mut self,
        lit: &Literal,
        at: usize,
        name: &dyn Fn(crate::symbols::Sym) -> String,
    ) {
        match lit {
            Literal::Pos(atom) => self.kif_atom(atom, Role::Use, at, name),
            Literal::Not(inner, _) => self.kif_literal(inner, at, name),
            Literal::Cmp(_, a, b, _) => {
                self.kif_term(a, None, at, name);
                self.kif_term(b, None, at, name);
            }
            Literal::Or(alternatives, _) => {
                for lit in alternatives.iter().flatten() {
                    self.kif_literal(lit, at, name);
                }
            }
            Literal::Agg(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(text: &str) -> FileIndex {
        FileIndex::new(text, Syntax::Rules)
    }

    /// Each occurrence as `name@start role arity`, in file order.
    fn shown(index: &FileIndex) -> Vec<String> {
        index
            .occurrences
            .iter()
            .map(|o| format!("{}@{} {:?} {:?}", o.name, o.range.start, o.role, o.arity))
            .collect()
    }

    #[test]
    fn heads_define_bodies_use_arguments_are_terms() {
        let text = "next cell(X, Y) :- true cell(X, Y), not moved(X), does(R, go(X)).";
        assert_eq!(
            shown(&index(text)),
            [
                "cell@5 Definition Some(2)",
                "cell@24 Use Some(2)",
                "moved@40 Use Some(1)",
                "does@50 Use Some(2)",
                "go@58 Use None",
            ]
        );
    }

    #[test]
    fn parameters_labels_sections_and_declarations() {
        let text = "param size = 8.\nboard grid(size, size).\nsection capture {\n  rule take: p(size) :- q.\n}\ndrop section capture.\nreplace take: p(1).\n";
        let index = index(text);
        assert_eq!(
            shown(&index),
            [
                "size@6 Parameter None",
                "grid@22 Declared None",
                "size@27 Declared None",
                "size@33 Declared None",
                "capture@48 Definition None",
                "take@65 Definition None",
                "p@71 Definition Some(1)",
                "size@73 Use None",
                "q@82 Use Some(0)",
                "capture@100 Use None",
                "take@117 Use None",
                "p@123 Definition Some(1)",
            ]
        );
        assert_eq!(index.occurrences[5].namespace, Namespace::Label);
        assert_eq!(index.occurrences[4].namespace, Namespace::Section);
        assert_eq!(index.sections.len(), 1);
        assert_eq!(
            &text[index.sections[0].range.clone()],
            "section capture {\n  rule take: p(size) :- q.\n}"
        );
        let in_section: Vec<_> = index.statements.iter().map(|s| s.section).collect();
        assert_eq!(in_section, [None, None, Some(0), None, None]);
    }

    #[test]
    fn a_half_typed_file_keeps_its_good_statements() {
        let text = "roles x, o.\np(a) :- q(\nr(b).\nextends \"base.rules\".\n";
        let index = index(text);
        assert_eq!(shown(&index), ["x@6 Declared None", "o@9 Declared None"]);
        let text = "roles x, o.\np(a) :- q.\nr(b";
        assert_eq!(
            shown(&self::index(text)).len(),
            5,
            "{:?}",
            shown(&self::index(text))
        );
        let text = "extends \"base.rules\".\nr(b).";
        assert_eq!(
            self::index(text).extends,
            Some(("base.rules".to_string(), 0..21))
        );
    }

    #[test]
    fn every_prefix_of_a_game_indexes_within_the_text() {
        let games = [
            include_str!("../../tests/lsp/fixtures/race.rules"),
            include_str!("../../tests/lsp/fixtures/race_short.rules"),
        ];
        for text in games {
            for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                let index = index(&text[..end]);
                for o in &index.occurrences {
                    assert_eq!(&text[o.range.clone()], o.name, "prefix of {end} bytes");
                }
            }
        }
    }

    #[test]
    fn kif_files_index_their_relations() {
        let text = "(role x)\n(<= (legal x (mark ?c)) (true (cell ?c b)))\n";
        assert_eq!(
            shown(&FileIndex::new(text, Syntax::Kif)),
            [
                "role@1 Definition Some(1)",
                "x@6 Use None",
                "legal@14 Definition Some(2)",
                "x@20 Use None",
                "mark@23 Use None",
                "cell@40 Use Some(2)",
                "b@48 Use None",
            ]
        );
        assert!(FileIndex::new("(role", Syntax::Kif).occurrences.is_empty());
    }
}
