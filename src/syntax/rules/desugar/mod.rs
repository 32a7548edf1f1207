//! Declarations and clauses → core rules and [`Meta`].
//!
//! In: the statements of a program (sections flattened, `extends` and `param`
//! already resolved) and the parameter values. Out: plain rules (facts for
//! boards, pieces, dice and tracks; rules for turn order, nature's moves and
//! counters) and the [`BoardView`] the renderer reads. Every generated rule carries the
//! span of the declaration (or the item of it) that made it.
//! Holds: `roles` and `board` are read first, so other declarations can be
//! checked against them wherever they stand. Sizes are bounded (see the
//! `MAX_*` constants): no declaration can make the reader run long or large.
//! Internal helper relations start with `_`, which no user name can.
//!
//! This file holds the shared core (the walk over statements, helpers to
//! build rules and read declaration parts, clauses, `game` and `roles`);
//! each other declaration has its own file.

mod board;
mod counter;
mod dice;
mod legend;
mod pieces;
mod region;
mod track;
mod turn;

use super::super::ast::*;
use super::super::print::Show;
use super::lower::Lower;
use super::parser::{Decl, Ex, ExKind, Lit, Stmt, StmtKind};
use crate::diag::codes;
use indexmap::{IndexMap, IndexSet};

/// Most cells a board may have.
pub const MAX_CELLS: usize = 100_000;
/// Longest side of a grid, and longest arm of a cross.
pub const MAX_SIDE: i64 = 1000;
/// Most outcomes of one `dice` declaration (faces to the power of dice).
pub const MAX_OUTCOMES: usize = 10_000;
/// Most pieces in one `pieces` declaration.
pub const MAX_PIECES: i64 = 10_000;
/// Most values of one `counter` (each is a fluent).
pub const MAX_COUNTER_VALUES: i64 = 100_000;

pub struct Desugar<'a> {
    pub lw: Lower<'a>,
    pub rules: Vec<Rule>,
    pub meta: Meta,
    roles: Vec<String>,
    roles_seen: bool,
    /// Board cells (compared without their spans), as indices into the
    /// view's cells.
    cells: Option<IndexMap<Term, usize>>,
    /// The first coordinate of a grid or cross (`from`), which `label`
    /// places are written in; `None` on a board of named cells.
    frame_origin: Option<i64>,
    view: BoardView,
    /// (role, kind, glyph, colour) of every `pieces` declaration.
    glyphs: Vec<(Term, Term, Term, Option<Colour>)>,
    dice: IndexSet<String>,
}

impl<'a> Desugar<'a> {
    pub fn new(lw: Lower<'a>) -> Desugar<'a> {
        Desugar {
            lw,
            rules: Vec::new(),
            meta: Meta::default(),
            roles: Vec::new(),
            roles_seen: false,
            cells: None,
            frame_origin: None,
            view: BoardView::default(),
            glyphs: Vec::new(),
            dice: IndexSet::new(),
        }
    }

    fn decl_error(&mut self, span: Span, message: impl Into<String>) {
        self.lw.error(codes::DECLARATION, span, message);
    }

    /// Notes a declaration's place, for messages about the names it makes.
    fn declared(&mut self, span: Span, keyword: &str) {
        self.meta.declarations.push((span, keyword.to_string()));
    }

    pub fn run(&mut self, stmts: &[&Stmt]) {
        for s in stmts {
            if let StmtKind::Decl(d) = &s.kind {
                match d.keyword.as_str() {
                    "roles" => self.roles(d, s.span),
                    "board" => self.board(d, s.span),
                    _ => {}
                }
            }
        }
        for s in stmts {
            match &s.kind {
                StmtKind::Clause { head, body } => self.clause(head, body, s.span),
                StmtKind::Decl(d) => match d.keyword.as_str() {
                    "roles" | "board" => self.declared(s.span, &d.keyword),
                    "game" => self.game(d),
                    "turn" => {
                        self.declared(s.span, "turn");
                        self.turn(d, s.span)
                    }
                    "region" => {
                        self.declared(s.span, "region");
                        self.region(d, s.span)
                    }
                    "pieces" => {
                        self.declared(s.span, "pieces");
                        self.pieces(d, s.span)
                    }
                    "draw" => self.draw(d),
                    "label" => self.label(d, s.span),
                    "reserve" => self.reserve(d, s.span),
                    "dice" => {
                        self.declared(s.span, "dice");
                        self.dice(d, s.span)
                    }
                    "track" => {
                        self.declared(s.span, "track");
                        self.track(d, s.span)
                    }
                    other => {
                        let other = other.to_string();
                        self.decl_error(d.keyword_span, format!("unknown declaration `{other}`"))
                    }
                },
                StmtKind::Counter(c) => {
                    self.declared(s.span, "counter");
                    self.counter(c)
                }
                StmtKind::Param { .. }
                | StmtKind::Extends { .. }
                | StmtKind::Section { .. }
                | StmtKind::Labelled { .. }
                | StmtKind::Drop { .. } => {}
            }
        }
        if self.cells.is_some() || !self.view.reserves.is_empty() {
            self.meta.board = Some(std::mem::take(&mut self.view));
        }
    }

    // ------------------------------------------------------------ helpers

    fn var(&mut self, name: &str, span: Span) -> Term {
        Term::new(TermKind::Var(self.lw.sym(name)), span)
    }

    fn atom(&mut self, rel: &str, args: Vec<Term>, span: Span) -> Atom {
        Atom {
            rel: self.lw.sym(rel),
            args,
            span,
        }
    }

    fn pos(&mut self, rel: &str, args: Vec<Term>, span: Span) -> Literal {
        Literal::Pos(self.atom(rel, args, span))
    }

    fn fact(&mut self, rel: &str, args: Vec<Term>, span: Span) {
        let head = self.atom(rel, args, span);
        self.rules.push(Rule {
            head,
            body: Vec::new(),
            span,
        });
    }

    fn rule(&mut self, head: Atom, body: Vec<Literal>, span: Span) {
        self.rules.push(Rule { head, body, span });
    }

    /// `true(t)` as a literal.
    fn holds(&mut self, t: Term, span: Span) -> Literal {
        self.pos("true", vec![t], span)
    }

    /// The items of a part, or an error naming what is missing.
    fn part<'d>(
        &mut self,
        d: &'d Decl,
        word: &str,
        what: &str,
        span: Span,
    ) -> Option<&'d [Vec<Ex>]> {
        match d.part(word) {
            Some(p) => Some(&p.items),
            None => {
                let kw = &d.keyword;
                let msg = if word.is_empty() {
                    format!("`{kw}` needs {what}")
                } else {
                    format!("`{kw}` needs `{word}` {what}")
                };
                self.decl_error(span, msg);
                None
            }
        }
    }

    /// A part of exactly one single-term item.
    fn one<'d>(&mut self, d: &'d Decl, word: &str, what: &str, span: Span) -> Option<&'d Ex> {
        let items = self.part(d, word, what, span)?;
        match items {
            [item] if item.len() == 1 => Some(&item[0]),
            _ => {
                let s = items
                    .first()
                    .and_then(|i| i.first())
                    .map(|e| e.span)
                    .unwrap_or(span);
                self.decl_error(s, format!("expected {what} here, and nothing else"));
                None
            }
        }
    }

    /// The colour after `as` (`pieces`, `label`, `reserve`), if the part is
    /// there.
    fn colour(&mut self, d: &Decl, span: Span) -> Option<Colour> {
        d.part("as")?;
        let ex = self.one(d, "as", "a colour", span)?;
        self.colour_of(ex)
    }

    /// A colour: a name such as `red`, or a string `"#rrggbb"`.
    fn colour_of(&mut self, ex: &Ex) -> Option<Colour> {
        let name = match &ex.kind {
            ExKind::Name(n) | ExKind::Str(n) => n.clone(),
            _ => {
                self.decl_error(ex.span, "expected a colour: a name or \"#rrggbb\"");
                return None;
            }
        };
        let colour = Colour::named(&name);
        if colour.is_none() {
            let names: Vec<&str> = Colour::ALL.iter().map(|(n, _)| *n).collect();
            let why = format!(
                "no colour `{name}`: one of {}, or \"#rrggbb\"",
                names.join(", ")
            );
            self.decl_error(ex.span, why);
        }
        colour
    }

    /// A plain lower-case name (not a parameter's value).
    fn name_of(&mut self, ex: &Ex, what: &str) -> Option<String> {
        match &ex.kind {
            ExKind::Name(n) => Some(n.clone()),
            _ => {
                self.decl_error(ex.span, format!("expected {what}"));
                None
            }
        }
    }

    /// Refuses parts a declaration does not know.
    fn only_parts(&mut self, d: &Decl, allowed: &[&str]) {
        for p in &d.parts {
            if !allowed.contains(&p.word.as_str()) {
                let kw = &d.keyword;
                let msg = if p.word == ":" {
                    format!("`{kw}` takes no `:` part")
                } else {
                    format!("`{kw}` takes no `{}` part", p.word)
                };
                self.decl_error(p.span, msg);
            }
        }
    }

    fn role_known(&mut self, name: &str, span: Span) -> bool {
        if self.roles_seen && !self.roles.iter().any(|r| r == name) {
            self.decl_error(
                span,
                format!("`{name}` is not a role declared with `roles`"),
            );
            return false;
        }
        true
    }

    /// Checks a ground term is a cell of the declared board (if any).
    fn cell_index(&mut self, t: &Term) -> Option<usize> {
        let cells = self.cells.as_ref()?;
        match cells.get(t) {
            Some(i) => Some(*i),
            None => {
                let shown = self.shown(t);
                self.decl_error(t.span, format!("`{shown}` is not a cell of the board"));
                None
            }
        }
    }

    /// A term as the user would write it, for messages.
    fn shown(&self, t: &Term) -> String {
        Show {
            item: t,
            symbols: self.lw.symbols,
            syntax: Syntax::Rules,
        }
        .to_string()
    }

    // ------------------------------------------------------------ clauses

    fn clause(&mut self, head: &Ex, body: &[Lit], span: Span) {
        let body = match self.lw.body(body) {
            Some(b) => b,
            None => return,
        };
        if body.is_empty()
            && let ExKind::App(..) = head.kind
        {
            // A fact: ranges stand for one fact per value.
            for t in self.lw.expand(head, false) {
                if let Some(a) = self.lw.atom_of(t) {
                    self.rule(a, Vec::new(), span);
                }
            }
            return;
        }
        if let Some(head) = self.lw.atom(head) {
            self.rule(head, body, span);
        }
    }

    // ------------------------------------------------------------ game, roles, turn

    fn game(&mut self, d: &Decl) {
        self.only_parts(d, &[]);
        match &d.text {
            Some((t, span)) => {
                if self.meta.title.is_some() {
                    self.decl_error(*span, "the game already has a title");
                }
                self.meta.title = Some(t.clone());
            }
            None => self.decl_error(d.keyword_span, "`game` needs a title in quotes"),
        }
    }

    fn roles(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &[""]);
        if self.roles_seen {
            self.decl_error(d.keyword_span, "roles are already declared");
            return;
        }
        self.roles_seen = true;
        let Some(items) = self.part(d, "", "role names", span) else {
            return;
        };
        for item in items {
            if item.len() > 1 {
                self.decl_error(item[1].span, "separate role names with `,`");
            }
            for ex in item.iter().take(1) {
                let Some(n) = self.name_of(ex, "a role name") else {
                    continue;
                };
                if self.roles.contains(&n) {
                    self.decl_error(ex.span, format!("role `{n}` is declared twice"));
                    continue;
                }
                let r = self.lw.konst(&n, ex.span);
                self.fact("role", vec![r], ex.span);
                self.roles.push(n);
            }
        }
    }

    fn app(&mut self, f: &str, args: Vec<Term>, span: Span) -> Term {
        Term::new(TermKind::App(self.lw.sym(f), args), span)
    }
}
