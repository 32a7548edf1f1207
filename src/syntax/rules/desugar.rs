//! Declarations and clauses → core rules and [`Meta`].
//!
//! In: the statements of a program (sections flattened, `extends` and `param`
//! already resolved) and the parameter values. Out: plain rules (facts for
//! boards, pieces, dice and tracks; rules for turn order and nature's moves)
//! and the [`BoardView`] the renderer reads. Every generated rule carries the
//! span of the declaration (or the item of it) that made it.
//! Holds: `roles` and `board` are read first, so other declarations can be
//! checked against them wherever they stand. Sizes are bounded (see the
//! `MAX_*` constants): no declaration can make the reader run long or large.
//! Internal helper relations start with `_`, which no user name can.

use super::super::ast::*;
use super::lower::{Lower, is_ground, key};
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

/// Relations whose meaning GDL fixes; a region may not take their names.
const RESERVED: &[&str] = &[
    "role", "init", "true", "next", "legal", "does", "goal", "terminal", "base", "input", "weight",
    "distinct", "or", "and",
];

pub struct Desugar<'a> {
    pub lw: Lower<'a>,
    pub rules: Vec<Rule>,
    pub meta: Meta,
    roles: Vec<String>,
    roles_seen: bool,
    /// Board cells by key, as indices into the view's cells.
    cells: Option<IndexMap<String, usize>>,
    view: BoardView,
    /// (role, kind, glyph) of every `pieces` declaration.
    glyphs: Vec<(Term, Term, Term)>,
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
            view: BoardView::default(),
            glyphs: Vec::new(),
            dice: IndexSet::new(),
        }
    }

    fn decl_error(&mut self, span: Span, message: impl Into<String>) {
        self.lw.error(codes::DECLARATION, span, message);
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
                    "roles" | "board" => {}
                    "game" => self.game(d),
                    "turn" => self.turn(d, s.span),
                    "region" => self.region(d, s.span),
                    "pieces" => self.pieces(d, s.span),
                    "draw" => self.draw(d),
                    "dice" => self.dice(d, s.span),
                    "track" => self.track(d, s.span),
                    other => {
                        let other = other.to_string();
                        self.decl_error(d.keyword_span, format!("unknown declaration `{other}`"))
                    }
                },
                StmtKind::Param { .. } | StmtKind::Extends { .. } | StmtKind::Section { .. } => {}
            }
        }
        if self.cells.is_some() {
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
        let k = key(t, self.lw.symbols);
        let cells = self.cells.as_ref()?;
        match cells.get(&k) {
            Some(i) => Some(*i),
            None => {
                self.decl_error(t.span, format!("`{k}` is not a cell of the board"));
                None
            }
        }
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

    fn turn(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", "using", "until"]);
        let Some(items) = self.part(d, "", "the roles in turn order", span) else {
            return;
        };
        let mut order = Vec::new();
        for item in items {
            if item.len() > 1 {
                self.decl_error(item[1].span, "separate role names with `,`");
            }
            for ex in item.iter().take(1) {
                if let Some(n) = self.name_of(ex, "a role name") {
                    if n == "random" {
                        self.decl_error(ex.span, "nature (`random`) takes no turns");
                    } else if self.role_known(&n, ex.span) {
                        order.push((n, ex.span));
                    }
                }
            }
        }
        if order.is_empty() {
            return;
        }
        let using = match d.part("using") {
            Some(_) => {
                let ex = self.one(d, "using", "a relation name", span);
                ex.and_then(|e| self.name_of(e, "a relation name"))
            }
            None => None,
        };
        let until = match d.part("until") {
            Some(_) => {
                let ex = self.one(d, "until", "a relation name", span);
                ex.and_then(|e| self.name_of(e, "a relation name"))
            }
            None => None,
        };
        // init control(First).
        let first = self.lw.konst(&order[0].0, order[0].1);
        let ctl = self.app("control", vec![first], span);
        self.fact("init", vec![ctl], span);
        for i in 0..order.len() {
            let (cur, cur_span) = order[i].clone();
            let (nxt, _) = order[(i + 1) % order.len()].clone();
            let cur_t = self.lw.konst(&cur, cur_span);
            let nxt_t = self.lw.konst(&nxt, cur_span);
            self.fact("turn_order", vec![cur_t.clone(), nxt_t.clone()], cur_span);
            // next control(Next) :- true control(Cur) [, Until].
            let ctl_cur = self.app("control", vec![cur_t.clone()], cur_span);
            let ctl_nxt = self.app("control", vec![nxt_t], cur_span);
            let mut body = vec![self.holds(ctl_cur.clone(), cur_span)];
            if let Some(u) = &until {
                body.push(self.pos(u, Vec::new(), cur_span));
            }
            let head = self.atom("next", vec![ctl_nxt], cur_span);
            self.rule(head, body, cur_span);
            // next control(Cur) :- true control(Cur), not Until.
            if let Some(u) = &until {
                let not_u = self.pos(u, Vec::new(), cur_span);
                let body = vec![
                    self.holds(ctl_cur.clone(), cur_span),
                    Literal::Not(Box::new(not_u), cur_span),
                ];
                let head = self.atom("next", vec![ctl_cur.clone()], cur_span);
                self.rule(head, body, cur_span);
            }
            // legal(Cur, noop) :- not true control(Cur).
            let noop = self.lw.konst("noop", cur_span);
            let waiting = self.holds(ctl_cur, cur_span);
            let head = self.atom("legal", vec![cur_t.clone(), noop.clone()], cur_span);
            self.rule(
                head,
                vec![Literal::Not(Box::new(waiting), cur_span)],
                cur_span,
            );
            if using.is_some() {
                // legal(Cur, noop) :- not has_move(Cur).
                let has = self.pos("has_move", vec![cur_t.clone()], cur_span);
                let head = self.atom("legal", vec![cur_t, noop], cur_span);
                self.rule(head, vec![Literal::Not(Box::new(has), cur_span)], cur_span);
            }
        }
        if let Some(u) = &using {
            // legal(R, M) :- true control(R), Using(R, M).
            let r = self.var("R", span);
            let m = self.var("M", span);
            let ctl = self.app("control", vec![r.clone()], span);
            let body = vec![
                self.holds(ctl, span),
                self.pos(u, vec![r.clone(), m.clone()], span),
            ];
            let head = self.atom("legal", vec![r.clone(), m.clone()], span);
            self.rule(head, body, span);
            // has_move(R) :- Using(R, M).
            let body = vec![self.pos(u, vec![r.clone(), m], span)];
            let head = self.atom("has_move", vec![r], span);
            self.rule(head, body, span);
        }
    }

    fn app(&mut self, f: &str, args: Vec<Term>, span: Span) -> Term {
        Term::new(TermKind::App(self.lw.sym(f), args), span)
    }

    // ------------------------------------------------------------ board

    fn board(&mut self, d: &Decl, span: Span) {
        if self.cells.is_some() {
            self.decl_error(d.keyword_span, "the game already has a board");
            return;
        }
        let Some(shape) = self.one(
            d,
            "",
            "a shape: `grid(W, H)`, `cross(ARM, WIDTH)` or `cells`",
            span,
        ) else {
            return;
        };
        self.cells = Some(IndexMap::new());
        match &shape.kind {
            ExKind::App(f, args) if f == "grid" && args.len() == 2 => {
                self.only_parts(d, &["", "from", "directions"]);
                let w = self.lw.int(&args[0], "the width");
                let h = self.lw.int(&args[1], "the height");
                let (Some(w), Some(h)) = (w, h) else { return };
                if !(1..=MAX_SIDE).contains(&w)
                    || !(1..=MAX_SIDE).contains(&h)
                    || (w * h) as usize > MAX_CELLS
                {
                    self.decl_error(
                        shape.span,
                        format!("a grid must be 1 to {MAX_SIDE} cells a side and at most {MAX_CELLS} cells, not {w}x{h}"),
                    );
                    return;
                }
                let o = self.origin(d, span);
                let mut squares = Vec::new();
                for y in 0..h {
                    for x in 0..w {
                        squares.push((x, y, (x as u32, (h - 1 - y) as u32)));
                    }
                }
                self.view.width = w as u32;
                self.view.height = h as u32;
                self.frame_board(d, &squares, o, None, span);
            }
            ExKind::App(f, args) if f == "cross" && args.len() == 2 => {
                self.only_parts(d, &["", "from", "directions", "arms"]);
                let l = self.lw.int(&args[0], "the arm length");
                let k = self.lw.int(&args[1], "the arm width");
                let (Some(l), Some(k)) = (l, k) else { return };
                if !(1..=MAX_SIDE / 4).contains(&l) || !(1..=MAX_SIDE / 4).contains(&k) {
                    self.decl_error(
                        shape.span,
                        format!("arm length and width must be 1 to {}", MAX_SIDE / 4),
                    );
                    return;
                }
                let o = self.origin(d, span);
                let f = 2 * l + k;
                let mut squares = Vec::new();
                for y in 0..f {
                    for x in 0..f {
                        let in_col = (l..l + k).contains(&x);
                        let in_row = (l..l + k).contains(&y);
                        if in_col || in_row {
                            squares.push((x, y, (x as u32, (f - 1 - y) as u32)));
                        }
                    }
                }
                self.view.width = f as u32;
                self.view.height = f as u32;
                self.frame_board(d, &squares, o, Some((l, k)), span);
            }
            ExKind::Name(n) if n == "cells" => {
                self.only_parts(d, &["", ":", "links"]);
                self.named_board(d, span);
            }
            _ => self.decl_error(
                shape.span,
                "a board is `grid(W, H)`, `cross(ARM, WIDTH)` or `cells: ...`",
            ),
        }
    }

    fn origin(&mut self, d: &Decl, span: Span) -> i64 {
        if d.part("from").is_none() {
            return 1;
        }
        self.one(d, "from", "the first coordinate", span)
            .and_then(|e| self.lw.int(e, "the first coordinate"))
            .filter(|o| o.abs() <= 1_000_000)
            .unwrap_or(1)
    }

    fn directions(&mut self, d: &Decl) -> Vec<(String, i64, i64, Span)> {
        let Some(p) = d.part("directions") else {
            return [
                ("n", 0, 1),
                ("ne", 1, 1),
                ("e", 1, 0),
                ("se", 1, -1),
                ("s", 0, -1),
                ("sw", -1, -1),
                ("w", -1, 0),
                ("nw", -1, 1),
            ]
            .iter()
            .map(|(n, x, y)| (n.to_string(), *x, *y, d.keyword_span))
            .collect();
        };
        let mut out = Vec::new();
        for item in &p.items {
            match item.as_slice() {
                [
                    Ex {
                        kind: ExKind::App(n, a),
                        span,
                    },
                ] if a.len() == 2 => {
                    let dx = self.lw.int(&a[0], "a step");
                    let dy = self.lw.int(&a[1], "a step");
                    if let (Some(dx), Some(dy)) = (dx, dy) {
                        if dx.abs() > MAX_SIDE || dy.abs() > MAX_SIDE {
                            self.decl_error(*span, "a step is larger than any board");
                        } else {
                            out.push((n.clone(), dx, dy, *span));
                        }
                    }
                }
                _ => {
                    let s = item.first().map(|e| e.span).unwrap_or(p.span);
                    self.decl_error(s, "a direction is `name(DX, DY)`, such as `n(0, 1)`");
                }
            }
        }
        out
    }

    /// Grid and cross boards: squares `sq(X, Y)` of a frame (offsets from
    /// the origin, with their screen places); a cross merges its centre block.
    fn frame_board(
        &mut self,
        d: &Decl,
        squares: &[(i64, i64, (u32, u32))],
        o: i64,
        cross: Option<(i64, i64)>,
        span: Span,
    ) {
        let dirs = self.directions(d);
        let arm_names: Vec<String> = match (cross, d.part("arms")) {
            (Some(_), Some(p)) => {
                let names: Vec<Option<String>> = p
                    .items
                    .iter()
                    .flatten()
                    .map(|e| match &e.kind {
                        ExKind::Name(n) => Some(n.clone()),
                        _ => None,
                    })
                    .collect();
                if names.len() != 4 || names.iter().any(Option::is_none) {
                    self.decl_error(p.span, "`arms` names four arms: north, east, south, west");
                    return;
                }
                names.into_iter().flatten().collect()
            }
            _ => ["north", "east", "south", "west"]
                .map(String::from)
                .to_vec(),
        };
        let in_centre = |x: i64, y: i64| match cross {
            Some((l, k)) => (l..l + k).contains(&x) && (l..l + k).contains(&y),
            None => false,
        };
        let on_board: IndexSet<(i64, i64)> = squares.iter().map(|s| (s.0, s.1)).collect();
        // The term naming the square at frame offset (x, y).
        let name = |me: &mut Self, x: i64, y: i64| -> Term {
            if in_centre(x, y) {
                me.lw.konst("centre", span)
            } else {
                let a = Term::new(TermKind::Int(x + o), span);
                let b = Term::new(TermKind::Int(y + o), span);
                me.app("sq", vec![a, b], span)
            }
        };
        let mut centre_done = false;
        for &(x, y, (col, row)) in squares {
            if in_centre(x, y) {
                if centre_done {
                    continue;
                }
                centre_done = true;
                let (l, k) = cross.unwrap_or((0, 1));
                let c = name(self, x, y);
                let mid = (l + k / 2) as u32;
                self.add_cell(c, mid, self.view.height - 1 - mid, span);
                continue;
            }
            let c = name(self, x, y);
            self.add_cell(c.clone(), col, row, span);
            if let Some((l, k)) = cross {
                let arm = if y >= l + k {
                    0
                } else if x >= l + k {
                    1
                } else if y < l {
                    2
                } else {
                    3
                };
                let a = self.lw.konst(&arm_names[arm], span);
                self.fact("arm", vec![a, c], span);
            }
        }
        let mut seen = IndexSet::new();
        for (dn, _, _, dspan) in &dirs {
            let dt = self.lw.konst(dn, *dspan);
            self.fact("direction", vec![dt], *dspan);
        }
        for &(x, y, _) in squares {
            for (dn, dx, dy, dspan) in &dirs {
                let (nx, ny) = (x + dx, y + dy);
                if !on_board.contains(&(nx, ny)) {
                    continue;
                }
                if in_centre(x, y) && in_centre(nx, ny) {
                    continue;
                }
                let from = name(self, x, y);
                let to = name(self, nx, ny);
                let k = (
                    key(&from, self.lw.symbols),
                    dn.clone(),
                    key(&to, self.lw.symbols),
                );
                if !seen.insert(k) {
                    continue;
                }
                let dt = self.lw.konst(dn, *dspan);
                self.fact("adjacent", vec![from, dt, to], *dspan);
            }
        }
    }

    fn add_cell(&mut self, name: Term, col: u32, row: u32, span: Span) {
        let k = key(&name, self.lw.symbols);
        let cells = self.cells.get_or_insert_with(IndexMap::new);
        if cells.contains_key(&k) {
            self.decl_error(name.span, format!("cell `{k}` is declared twice"));
            return;
        }
        cells.insert(k, self.view.cells.len());
        self.fact("square", vec![name.clone()], span);
        self.view.cells.push(CellView {
            name,
            col,
            row,
            marks: Vec::new(),
        });
    }

    fn named_board(&mut self, d: &Decl, span: Span) {
        let Some(items) = self.part(d, ":", "its cells after `:`", span) else {
            return;
        };
        if items.len() > MAX_CELLS {
            self.decl_error(span, format!("a board has at most {MAX_CELLS} cells"));
            return;
        }
        for (i, item) in items.iter().enumerate() {
            let (cell, col, row) = match item.as_slice() {
                [c] => (c, i as i64, 0),
                [c, x, y] => {
                    let (Some(x), Some(y)) = (self.lw.int(x, "a column"), self.lw.int(y, "a row"))
                    else {
                        continue;
                    };
                    (c, x, y)
                }
                _ => {
                    self.decl_error(item[0].span, "a cell is `NAME` or `NAME COLUMN ROW`");
                    continue;
                }
            };
            if !(0..MAX_SIDE).contains(&col) || !(0..MAX_SIDE).contains(&row) {
                self.decl_error(
                    cell.span,
                    format!("screen places are 0 to {}", MAX_SIDE - 1),
                );
                continue;
            }
            let t = self.lw.term(cell);
            if !is_ground(&t) {
                self.decl_error(cell.span, "a cell name must be a ground term");
                continue;
            }
            self.view.width = self.view.width.max(col as u32 + 1);
            self.view.height = self.view.height.max(row as u32 + 1);
            self.add_cell(t, col as u32, row as u32, cell.span);
        }
        let Some(p) = d.part("links") else { return };
        let mut dirs = IndexSet::new();
        for item in &p.items {
            match item.as_slice() {
                [
                    Ex {
                        kind: ExKind::App(dn, a),
                        span,
                    },
                ] if a.len() == 2 => {
                    let from = self.lw.term(&a[0]);
                    let to = self.lw.term(&a[1]);
                    if self.cell_index(&from).is_none() || self.cell_index(&to).is_none() {
                        continue;
                    }
                    if dirs.insert(dn.clone()) {
                        let dt = self.lw.konst(dn, *span);
                        self.fact("direction", vec![dt], *span);
                    }
                    let dt = self.lw.konst(dn, *span);
                    self.fact("adjacent", vec![from, dt, to], *span);
                }
                _ => {
                    let s = item.first().map(|e| e.span).unwrap_or(p.span);
                    self.decl_error(s, "a link is `DIRECTION(FROM, TO)`, such as `next(a, b)`");
                }
            }
        }
    }

    // ------------------------------------------------------------ regions, pieces, draw

    fn region(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":"]);
        let Some(ex) = self.one(d, "", "a region name", span) else {
            return;
        };
        let Some(name) = self.name_of(ex, "a region name") else {
            return;
        };
        if RESERVED.contains(&name.as_str()) {
            self.decl_error(ex.span, format!("`{name}` is a reserved relation"));
            return;
        }
        let Some(items) = self.part(d, ":", "its cells after `:`", span) else {
            return;
        };
        let mark = self.lw.sym(&name);
        for ex in items.iter().flatten() {
            for t in self.lw.expand(ex, false) {
                if self.cells.is_some() {
                    let Some(i) = self.cell_index(&t) else {
                        continue;
                    };
                    if !self.view.cells[i].marks.contains(&mark) {
                        self.view.cells[i].marks.push(mark);
                    }
                }
                self.fact(&name, vec![t], ex.span);
            }
        }
    }

    fn pieces(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":", "at"]);
        let Some(role_ex) = self.one(d, "", "a role", span) else {
            return;
        };
        let Some(role) = self.name_of(role_ex, "a role") else {
            return;
        };
        if !self.role_known(&role, role_ex.span) {
            return;
        }
        let Some(items) = self.part(d, ":", "`: COUNT KIND \"GLYPH\"`", span) else {
            return;
        };
        let [item] = items else {
            self.decl_error(span, "one `pieces` declaration per kind of piece");
            return;
        };
        let mut it = item.iter().peekable();
        let count = match it.peek().map(|e| &e.kind) {
            Some(ExKind::Int(_)) | Some(ExKind::Arith(..)) => {
                it.next().and_then(|e| self.lw.int(e, "a count"))
            }
            Some(ExKind::Name(n))
                if matches!(self.lw.params.get(n), Some(super::lower::Value::Int(_))) =>
            {
                it.next().and_then(|e| self.lw.int(e, "a count"))
            }
            _ => None,
        };
        let Some(kind_ex) = it.next() else {
            self.decl_error(span, "`pieces` needs the kind of piece");
            return;
        };
        let Some(kind) = self.name_of(kind_ex, "the kind of piece, a name") else {
            return;
        };
        let glyph = match it.next() {
            Some(Ex {
                kind: ExKind::Str(s),
                span,
            }) => Some(self.lw.konst(s, *span)),
            Some(other) => {
                self.decl_error(other.span, "expected the glyph, a string such as \"x\"");
                None
            }
            None => None,
        };
        let mut places = Vec::new();
        if let Some(p) = d.part("at") {
            for ex in p.items.iter().flatten() {
                for t in self.lw.expand(ex, false) {
                    if places.len() >= MAX_PIECES as usize {
                        break;
                    }
                    places.push(t);
                }
            }
        }
        let n = match count {
            Some(c) if !(1..=MAX_PIECES).contains(&c) => {
                self.decl_error(span, format!("a count must be 1 to {MAX_PIECES}"));
                return;
            }
            Some(c) if !places.is_empty() && c as usize != places.len() => {
                self.decl_error(
                    span,
                    format!("{c} pieces but {} places after `at`", places.len()),
                );
                return;
            }
            Some(c) => c,
            None if !places.is_empty() => places.len() as i64,
            None => 1,
        };
        let r = self.lw.konst(&role, role_ex.span);
        let k = self.lw.konst(&kind, kind_ex.span);
        for i in 1..=n {
            let it = Term::new(TermKind::Int(i), span);
            self.fact("piece", vec![r.clone(), k.clone(), it], span);
        }
        for (i, p) in places.into_iter().enumerate() {
            let it = Term::new(TermKind::Int(i as i64 + 1), span);
            self.fact("start", vec![r.clone(), k.clone(), it, p], span);
        }
        let g = glyph.unwrap_or_else(|| {
            let first: String = kind.chars().take(1).collect();
            self.lw.konst(&first, kind_ex.span)
        });
        self.glyphs.push((r, k, g));
    }

    fn draw(&mut self, d: &Decl) {
        let span = d.keyword_span;
        self.only_parts(d, &["", "at", "as"]);
        let fact = self
            .one(d, "", "the fact to draw", span)
            .map(|e| self.lw.term(e));
        let cell = self.one(d, "at", "the cell", span).map(|e| self.lw.term(e));
        let glyph = self
            .one(d, "as", "a glyph", span)
            .map(|e| self.lw.term_in(e, true));
        let (Some(fact), Some(cell), Some(glyph)) = (fact, cell, glyph) else {
            return;
        };
        let piece = self.lw.sym("piece");
        if let TermKind::App(f, args) = &glyph.kind
            && *f == piece
            && args.len() == 2
        {
            let mut found = false;
            for (r, k, g) in self.glyphs.clone() {
                let mut s = Vec::new();
                if bind(&args[0], &r, &mut s) && bind(&args[1], &k, &mut s) {
                    found = true;
                    self.push_view(subst(&fact, &s), subst(&cell, &s), g);
                }
            }
            if !found {
                self.decl_error(glyph.span, "no `pieces` declaration matches this piece");
            }
            return;
        }
        self.push_view(fact, cell, glyph);
    }

    fn push_view(&mut self, fact: Term, cell: Term, glyph: Term) {
        self.view.pieces.push(PieceView { fact, cell, glyph });
    }

    // ------------------------------------------------------------ dice

    fn dice(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":"]);
        if self.roles_seen && !self.roles.iter().any(|r| r == "random") {
            self.decl_error(
                d.keyword_span,
                "dice need nature: add the role `random` to `roles`",
            );
        }
        let Some(head) = self.part(d, "", "a name", span) else {
            return;
        };
        let (count, name_ex) = match head {
            [item] if item.len() == 1 => (Some(1), &item[0]),
            [item] if item.len() == 2 => (self.lw.int(&item[0], "the number of dice"), &item[1]),
            _ => {
                self.decl_error(span, "expected `dice NAME: ...` or `dice N NAME: ...`");
                return;
            }
        };
        let Some(count) = count else { return };
        let Some(name) = self.name_of(name_ex, "the name of the dice") else {
            return;
        };
        if !self.dice.insert(name.clone()) {
            self.decl_error(name_ex.span, format!("dice `{name}` are declared twice"));
            return;
        }
        let Some(items) = self.part(d, ":", "faces after `:`", span) else {
            return;
        };
        let mut faces: Vec<(Term, i64)> = Vec::new();
        for item in items {
            let (face, weight) = match item.as_slice() {
                [f] => (f, Some(1)),
                [
                    f,
                    Ex {
                        kind: ExKind::Name(w),
                        ..
                    },
                    wt,
                ] if w == "weight" => (f, self.lw.int(wt, "a weight")),
                _ => {
                    self.decl_error(item[0].span, "a face is `FACE` or `FACE weight W`");
                    continue;
                }
            };
            let Some(weight) = weight else { continue };
            if !(1..=1_000_000).contains(&weight) {
                self.decl_error(face.span, "a weight must be 1 to 1000000");
                continue;
            }
            for t in self.lw.expand(face, false) {
                if !is_ground(&t) {
                    self.decl_error(t.span, "a face must be a ground term");
                    continue;
                }
                if faces.len() >= MAX_OUTCOMES {
                    break;
                }
                faces.push((t, weight));
            }
        }
        if faces.is_empty() {
            self.decl_error(span, "dice need at least one face");
            return;
        }
        if count < 1 || (faces.len() as f64).powi(count.min(64) as i32) > MAX_OUTCOMES as f64 {
            self.decl_error(
                span,
                format!(
                    "dice may have 1 to {MAX_OUTCOMES} outcomes in all (faces to the power of dice)"
                ),
            );
            return;
        }
        // Ordered tuples of faces, weights multiplied; equal tuples merged.
        let mut outcomes: IndexMap<String, (Vec<Term>, i64)> = IndexMap::new();
        let mut tuples: Vec<(Vec<Term>, i64)> = vec![(Vec::new(), 1)];
        for _ in 0..count {
            tuples = tuples
                .into_iter()
                .flat_map(|(t, w)| {
                    faces.iter().map(move |(f, fw)| {
                        let mut t = t.clone();
                        t.push(f.clone());
                        (t, w.saturating_mul(*fw))
                    })
                })
                .collect();
        }
        let fsym = self.lw.sym(&name);
        for (t, w) in tuples {
            let m = Term::new(TermKind::App(fsym, t.clone()), span);
            let k = key(&m, self.lw.symbols);
            outcomes.entry(k).or_insert((t, 0)).1 += w;
        }
        let dname = self.lw.konst(&name, name_ex.span);
        for (_, (t, w)) in outcomes {
            let m = Term::new(TermKind::App(fsym, t), span);
            self.fact("outcome", vec![dname.clone(), m.clone()], span);
            let wt = Term::new(TermKind::Int(w), span);
            self.fact("weight", vec![m, wt], span);
        }
        // legal(random, M) :- roll(Name), outcome(Name, M).
        let random = self.lw.konst("random", span);
        let m = self.var("M", span);
        let body = vec![
            self.pos("roll", vec![dname.clone()], span),
            self.pos("outcome", vec![dname, m.clone()], span),
        ];
        let head = self.atom("legal", vec![random.clone(), m], span);
        self.rule(head, body, span);
        if self.dice.len() == 1 {
            // legal(random, noop) :- not _rolling.    _rolling :- roll(D).
            let noop = self.lw.konst("noop", span);
            let rolling = self.pos("_rolling", Vec::new(), span);
            let head = self.atom("legal", vec![random, noop], span);
            self.rule(head, vec![Literal::Not(Box::new(rolling), span)], span);
            let dv = self.var("D", span);
            let body = vec![self.pos("roll", vec![dv], span)];
            let head = self.atom("_rolling", Vec::new(), span);
            self.rule(head, body, span);
        }
    }

    // ------------------------------------------------------------ tracks

    fn track(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":", "from"]);
        let Some(name_ex) = self.one(d, "", "a name (a role, or any term)", span) else {
            return;
        };
        let name = self.lw.term(name_ex);
        if !is_ground(&name) {
            self.decl_error(name_ex.span, "a track's name must be a ground term");
            return;
        }
        let first = match d.part("from") {
            Some(_) => self
                .one(d, "from", "the first index", span)
                .and_then(|e| self.lw.int(e, "the first index")),
            None => Some(0),
        };
        let Some(first) = first else { return };
        let Some(items) = self.part(d, ":", "its cells after `:`", span) else {
            return;
        };
        let mut len = 0i64;
        for ex in items.iter().flatten() {
            for t in self.lw.expand(ex, false) {
                if self.cells.is_some() && self.cell_index(&t).is_none() {
                    continue;
                }
                if len >= super::lower::MAX_EXPANSION as i64 {
                    self.decl_error(ex.span, "a track is longer than the limit");
                    return;
                }
                let i = Term::new(TermKind::Int(first + len), ex.span);
                self.fact("track", vec![name.clone(), i, t], ex.span);
                len += 1;
            }
        }
        let l = Term::new(TermKind::Int(len), span);
        self.fact("track_length", vec![name, l], span);
    }
}

/// Matches a pattern term (variables or ground) against a ground term.
fn bind(pat: &Term, val: &Term, s: &mut Vec<(Sym, Term)>) -> bool {
    match (&pat.kind, &val.kind) {
        (TermKind::Var(v), _) => match s.iter().find(|(w, _)| w == v) {
            Some((_, t)) => t.kind == val.kind,
            None => {
                s.push((*v, val.clone()));
                true
            }
        },
        (a, b) => a == b,
    }
}

fn subst(t: &Term, s: &[(Sym, Term)]) -> Term {
    match &t.kind {
        TermKind::Var(v) => match s.iter().find(|(w, _)| w == v) {
            Some((_, val)) => Term::new(val.kind.clone(), t.span),
            None => t.clone(),
        },
        TermKind::App(f, args) => Term::new(
            TermKind::App(*f, args.iter().map(|a| subst(a, s)).collect()),
            t.span,
        ),
        _ => t.clone(),
    }
}
