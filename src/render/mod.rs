//! Drawing a state as text.
//!
//! In: a [`Game`], a [`State`] and a [`Style`] chosen by the caller. Out: a
//! `String`. With a [`BoardView`] (declared by a native game) the board is a
//! grid of cells in Unicode: pieces come from the view's patterns matched
//! against the state's true facts, marked cells (regions such as `safe`) get
//! their own brackets and a legend, and the facts no pattern draws follow
//! under the board. Pieces and regions declared with a colour (`as red`)
//! are painted in it, the others in a colour taken from their glyph.
//! Without a board (every `.kif` game) the true facts are listed, one per
//! line or wrapped compactly.
//! Holds: colour escapes appear only when `Style::color` is set; the library
//! never looks at the terminal.

use crate::engine::{Game, State};
use crate::ground::terms::TermRef;
use crate::ground::{TermId, TermTable};
use crate::syntax::print::{Shape, TermView};
use crate::syntax::{BoardView, Colour, Show, Sym, Term, TermKind};
use std::collections::HashMap;
use std::fmt::Write;

/// How to draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// ANSI colour escapes.
    pub color: bool,
    /// Facts wrapped several to a line instead of one per line.
    pub compact: bool,
}

/// Width to wrap compact text at.
pub const WIDTH: usize = 78;

const RESET: &str = "\x1b[0m";
const DIM: &str = "\x1b[2m";
const PALETTE: [&str; 6] = [
    "\x1b[1;31m",
    "\x1b[1;34m",
    "\x1b[1;32m",
    "\x1b[1;33m",
    "\x1b[1;35m",
    "\x1b[1;36m",
];
/// A declared colour as a terminal escape (bold; black as dark grey, so
/// that it shows on a dark background).
fn ansi(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "\x1b[1;90m",
        Colour::Red => "\x1b[1;31m",
        Colour::Green => "\x1b[1;32m",
        Colour::Yellow => "\x1b[1;33m",
        Colour::Blue => "\x1b[1;34m",
        Colour::Magenta => "\x1b[1;35m",
        Colour::Cyan => "\x1b[1;36m",
        Colour::White => "\x1b[1;37m",
    }
}

/// The brackets of the marks, in order of first use (the ninth mark reuses
/// the first's).
const BRACKETS: [(char, char); 8] = [
    ('[', ']'),
    ('(', ')'),
    ('{', '}'),
    ('<', '>'),
    ('|', '|'),
    (':', ':'),
    ('«', '»'),
    ('‹', '›'),
];

/// The state as the game would show it: its board if it declares one,
/// otherwise its true facts.
pub fn state(game: &Game, state: &State, style: Style) -> String {
    match &game.meta.board {
        Some(view) if !view.cells.is_empty() => board(game, view, state, style),
        _ => facts(game, state, style),
    }
}

/// The true facts of a state in the game's syntax.
pub fn facts(game: &Game, state: &State, style: Style) -> String {
    let shown: Vec<String> = game
        .facts(state)
        .into_iter()
        .map(|t| game.show(t))
        .collect();
    if shown.is_empty() {
        return "(no facts are true)\n".to_string();
    }
    if style.compact {
        wrap(&shown, WIDTH)
    } else {
        shown.iter().map(|s| format!("{s}\n")).collect()
    }
}

/// Items joined by two spaces, wrapped before `width` columns.
pub fn wrap(items: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for item in items {
        let w = item.chars().count();
        if line > 0 && line + 2 + w > width {
            out.push('\n');
            line = 0;
        }
        if line > 0 {
            out.push_str("  ");
            line += 2;
        }
        out.push_str(item);
        line += w;
    }
    out.push('\n');
    out
}

/// A board drawn cell by cell on its screen grid: column labels, one line
/// per screen row, the legend of marks, then the facts no pattern drew.
pub fn board(game: &Game, view: &BoardView, state: &State, style: Style) -> String {
    let facts = game.facts(state);
    let (glyphs, drawn) = place_pieces(game, view, &facts);
    let contents: Vec<Vec<Glyph>> = glyphs.iter().map(|g| stack(g)).collect();
    let slot = contents.iter().map(|c| width(c)).max().unwrap_or(1).max(1);
    let (cols, rows) = labels(game, view);
    let sheet = Sheet {
        view,
        style,
        contents,
        slot,
        marks: marks(view),
        label_w: rows.iter().flatten().map(|l| l.chars().count()).max(),
    };
    let mut out = String::new();
    if let Some(cols) = &cols {
        out.push_str(&sheet.column_labels(cols));
    }
    for (y, label) in rows.iter().enumerate() {
        out.push_str(&sheet.row(y, label.as_deref()));
    }
    if !sheet.marks.is_empty() {
        let legend: Vec<String> = sheet
            .marks
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let (o, c) = BRACKETS[k % BRACKETS.len()];
                let (paint, reset) = (sheet.mark_paint(*m), sheet.paint(RESET));
                format!("{paint}{o}{c}{reset} {}", game.symbols.name(*m))
            })
            .collect();
        out.push_str(&wrap(&legend, WIDTH));
    }
    let rest: Vec<String> = facts
        .iter()
        .zip(&drawn)
        .filter(|(_, d)| !**d)
        .map(|(&f, _)| game.show(f))
        .collect();
    if !rest.is_empty() {
        out.push_str(&wrap(&rest, WIDTH));
    }
    out
}

/// A glyph as drawn, with its declared colour if any.
type Glyph = (String, Option<Colour>);

/// The glyphs each cell shows (by cell index) and which facts some piece
/// pattern drew.
fn place_pieces(game: &Game, view: &BoardView, facts: &[TermId]) -> (Vec<Vec<Glyph>>, Vec<bool>) {
    let mut by_name: HashMap<TermId, usize> = HashMap::new();
    for (i, c) in view.cells.iter().enumerate() {
        if let Some(id) = game.term_id(&c.name) {
            by_name.entry(id).or_insert(i);
        }
    }
    let mut glyphs: Vec<Vec<Glyph>> = vec![Vec::new(); view.cells.len()];
    let mut drawn = vec![false; facts.len()];
    for piece in &view.pieces {
        for (i, &fact) in facts.iter().enumerate() {
            let mut env = Vec::new();
            if !game.terms.matches(&piece.fact, fact, &mut env) {
                continue;
            }
            let cell = game.terms.lookup(&piece.cell, &env);
            if let Some(&c) = cell.and_then(|cell| by_name.get(&cell)) {
                glyphs[c].push((show_pattern(game, &piece.glyph, &env), piece.colour));
                drawn[i] = true;
            }
        }
    }
    (glyphs, drawn)
}

/// Marks in order of first use; a cell shows its first mark's brackets.
fn marks(view: &BoardView) -> Vec<Sym> {
    let mut marks: Vec<Sym> = Vec::new();
    for c in &view.cells {
        for m in &c.marks {
            if !marks.contains(m) {
                marks.push(*m);
            }
        }
    }
    marks
}

/// What a board's lines are drawn from.
struct Sheet<'v> {
    view: &'v BoardView,
    style: Style,
    /// What each cell shows, by cell index.
    contents: Vec<Vec<Glyph>>,
    /// Width of a cell's contents.
    slot: usize,
    marks: Vec<Sym>,
    /// Width of the row labels, if rows have labels.
    label_w: Option<usize>,
}

impl Sheet<'_> {
    fn paint(&self, code: &'static str) -> &'static str {
        if self.style.color { code } else { "" }
    }

    /// The escape a mark's brackets are drawn with: its colour, or dim.
    fn mark_paint(&self, mark: Sym) -> &'static str {
        let colour = self.view.mark_colours.iter().find(|(m, _)| *m == mark);
        self.paint(colour.map_or(DIM, |&(_, c)| ansi(c)))
    }

    /// The cell drawn at a screen position, the first declared there.
    fn cell_at(&self, x: usize, y: usize) -> Option<usize> {
        self.view
            .cells
            .iter()
            .position(|c| c.col as usize == x && c.row as usize == y)
    }

    fn column_labels(&self, cols: &[Option<String>]) -> String {
        let margin = self.label_w.map_or(0, |w| w + 1);
        let mut line = " ".repeat(margin);
        // A label may use the cell's bracket columns too, so "10" stays
        // over a one-character cell.
        let cell_w = self.slot + 2;
        for l in cols {
            let l = l.as_deref().unwrap_or("");
            let _ = write!(line, "{l:^cell_w$}");
        }
        let (dim, reset) = (self.paint(DIM), self.paint(RESET));
        format!("{dim}{}{reset}\n", line.trim_end())
    }

    fn row(&self, y: usize, label: Option<&str>) -> String {
        let (dim, reset) = (self.paint(DIM), self.paint(RESET));
        let mut line = String::new();
        if let Some(w) = self.label_w {
            let l = label.unwrap_or("");
            let _ = write!(line, "{dim}{l:>w$}{reset} ");
        }
        for x in 0..self.view.width as usize {
            match self.cell_at(x, y) {
                Some(i) => line.push_str(&self.cell(i)),
                None => line.push_str(&" ".repeat(self.slot + 2)),
            }
        }
        format!("{}\n", line.trim_end())
    }

    /// One cell: its contents (a dot when empty) in its first mark's
    /// brackets.
    fn cell(&self, i: usize) -> String {
        let (dim, reset) = (self.paint(DIM), self.paint(RESET));
        let slot = self.slot;
        let first = self.view.cells[i]
            .marks
            .iter()
            .filter_map(|m| self.marks.iter().position(|n| n == m))
            .min();
        let body = match &self.contents[i] {
            c if c.is_empty() => format!("{dim}{:^slot$}{reset}", "·"),
            c => {
                let pad = slot - width(c);
                let mut body = " ".repeat(pad / 2);
                for (g, colour) in c {
                    let code = colour.map_or_else(|| color_of(g), ansi);
                    let _ = write!(body, "{}{g}{reset}", self.paint(code));
                }
                body.push_str(&" ".repeat(pad - pad / 2));
                body
            }
        };
        match first {
            None => format!(" {body} "),
            Some(k) => {
                let (open, close) = BRACKETS[k % BRACKETS.len()];
                let paint = self.mark_paint(self.marks[k]);
                format!("{paint}{open}{reset}{body}{paint}{close}{reset}")
            }
        }
    }
}

/// What one cell shows: its glyphs side by side, or one glyph and a count.
fn stack(glyphs: &[Glyph]) -> Vec<Glyph> {
    match glyphs {
        [g, rest @ ..] if !rest.is_empty() && rest.iter().all(|h| h == g) => {
            vec![(format!("{}{}", g.0, glyphs.len()), g.1)]
        }
        _ => glyphs.to_vec(),
    }
}

/// The width of a cell's glyphs side by side.
fn width(glyphs: &[Glyph]) -> usize {
    glyphs.iter().map(|(g, _)| g.chars().count()).sum()
}

/// A stable colour for a glyph.
fn color_of(glyph: &str) -> &'static str {
    let h = glyph
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .fold(0u32, |h, c| h.wrapping_mul(31).wrapping_add(c as u32));
    PALETTE[h as usize % PALETTE.len()]
}

/// Column and row labels, where the cells' names give them: a screen column
/// whose cells all have the same first argument is labelled with it, a row
/// with the same second argument likewise. `None` where names disagree.
type Labels = Option<Vec<Option<String>>>;

fn labels(game: &Game, view: &BoardView) -> (Labels, Vec<Option<String>>) {
    let mut cols: Vec<Option<String>> = vec![None; view.width as usize];
    let mut rows: Vec<Option<String>> = vec![None; view.height as usize];
    let (mut cols_ok, mut rows_ok) = (true, true);
    for c in &view.cells {
        let TermKind::App(_, args) = &c.name.kind else {
            continue;
        };
        if args.len() < 2 {
            continue;
        }
        let show = |t: &Term| match &t.kind {
            TermKind::Int(i) => Some(i.to_string()),
            TermKind::Const(s) => Some(game.symbols.name(*s).to_string()),
            _ => None,
        };
        for (slot, arg, ok) in [
            (cols.get_mut(c.col as usize), &args[0], &mut cols_ok),
            (rows.get_mut(c.row as usize), &args[1], &mut rows_ok),
        ] {
            let (Some(slot), Some(v)) = (slot, show(arg)) else {
                *ok = false;
                continue;
            };
            match slot {
                Some(old) if *old != v => *ok = false,
                _ => *slot = Some(v),
            }
        }
    }
    let cols = (cols_ok && cols.iter().any(Option::is_some)).then_some(cols);
    if !rows_ok || rows.iter().all(Option::is_none) {
        rows = vec![None; view.height as usize];
    }
    (cols, rows)
}

/// A glyph pattern seen through the bindings of its variables, so that the
/// one printer of terms prints it: a bound variable shows its ground value.
#[derive(Clone, Copy)]
enum Bound<'a> {
    Pattern(&'a Term, &'a [(Sym, TermId)], &'a TermTable),
    Ground(TermRef<'a>),
}

impl Bound<'_> {
    fn value(term: &Term, env: &[(Sym, TermId)]) -> Option<TermId> {
        match term.kind {
            TermKind::Var(v) => env.iter().find(|(w, _)| *w == v).map(|&(_, t)| t),
            _ => None,
        }
    }
}

impl TermView for Bound<'_> {
    fn shape(self) -> Shape<Self> {
        match self {
            Bound::Ground(t) => match t.shape() {
                Shape::Var(s) => Shape::Var(s),
                Shape::Const(s) => Shape::Const(s),
                Shape::Int(i) => Shape::Int(i),
                Shape::App(f, n) => Shape::App(f, n),
                Shape::Arith(op, a, b) => Shape::Arith(op, Bound::Ground(a), Bound::Ground(b)),
            },
            Bound::Pattern(t, env, table) => match (Bound::value(t, env), &t.kind) {
                (Some(id), _) => Bound::Ground(table.view(id)).shape(),
                (None, TermKind::Arith(op, a, b)) => Shape::Arith(
                    *op,
                    Bound::Pattern(a, env, table),
                    Bound::Pattern(b, env, table),
                ),
                (None, TermKind::Var(v)) => Shape::Var(*v),
                (None, TermKind::Const(c)) => Shape::Const(*c),
                (None, TermKind::Int(i)) => Shape::Int(*i),
                (None, TermKind::App(f, args)) => Shape::App(*f, args.len()),
            },
        }
    }

    fn arg(self, i: usize) -> Self {
        match self {
            Bound::Ground(t) => Bound::Ground(t.arg(i)),
            Bound::Pattern(t, env, table) => match (Bound::value(t, env), &t.kind) {
                (Some(id), _) => Bound::Ground(table.view(id).arg(i)),
                (None, TermKind::App(_, args)) => Bound::Pattern(&args[i], env, table),
                (None, _) => self,
            },
        }
    }
}

/// A glyph: its pattern printed with the bindings of one matched fact.
fn show_pattern(game: &Game, p: &Term, env: &[(Sym, TermId)]) -> String {
    Show {
        item: Bound::Pattern(p, env, &game.terms),
        symbols: &game.symbols,
        syntax: game.syntax,
    }
    .to_string()
}
