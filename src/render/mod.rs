//! Drawing a state: as text here, as SVG in [`svg`].
//!
//! In: a [`Game`], a [`State`] and a [`Style`] chosen by the caller. Out: a
//! `String`. With a [`BoardView`] (declared by a native game) the board is a
//! grid of cells in Unicode: the [`Scene`] says which pieces stand on which
//! cell and reserve place, marked cells (regions such as `safe`) get their
//! own brackets and a legend, labels are written on free places, each
//! reserve follows as a line, and the facts no pattern draws follow under
//! the board. Pieces, regions, labels and reserves are painted in their
//! declared colours, the others in distinct colours of their own.
//! Without a board (every `.kif` game) the true facts are listed, one per
//! line or wrapped compactly.
//! Holds: colour escapes appear only when `Style::color` is set; the library
//! never looks at the terminal.

pub mod scene;
pub mod svg;

use crate::engine::{Game, State};
use crate::ground::terms::TermRef;
use crate::ground::{TermId, TermTable};
use crate::syntax::print::{Shape, TermView};
use crate::syntax::{BoardView, Colour, MarkStyle, Show, Sym, Term, TermKind};
use scene::{Piece, Scene};
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

/// A colour as a terminal escape (bold; the eight first named colours as
/// the terminal's own, black as dark grey so that it shows on a dark
/// background, the others in 24-bit colour).
fn ansi(colour: Colour) -> String {
    let basic = match colour {
        Colour::Black => "90",
        Colour::Red => "31",
        Colour::Green => "32",
        Colour::Yellow => "33",
        Colour::Blue => "34",
        Colour::Magenta => "35",
        Colour::Cyan => "36",
        Colour::White => "37",
        _ => {
            let (r, g, b) = colour.rgb();
            return format!("\x1b[1;38;2;{r};{g};{b}m");
        }
    };
    format!("\x1b[1;{basic}m")
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
        Some(view) if !view.cells.is_empty() || !view.reserves.is_empty() => {
            board(game, view, state, style)
        }
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
/// per screen row, the reserves, the legend of marks, then the facts no
/// pattern drew.
pub fn board(game: &Game, view: &BoardView, state: &State, style: Style) -> String {
    let facts = game.facts(state);
    let scene = Scene::new(game, view, &facts);
    let contents: Vec<Vec<Piece>> = scene.cells.iter().map(|g| stack(g)).collect();
    let slot = contents.iter().map(|c| width(c)).max().unwrap_or(1).max(1);
    let (cols, rows) = labels(game, view);
    let sheet = Sheet {
        view,
        style,
        contents,
        slot,
        marks: scene::marks(view),
        label_w: rows.iter().flatten().map(|l| l.chars().count()).max(),
    };
    let mut out = String::new();
    if !view.cells.is_empty() {
        if let Some(cols) = &cols {
            out.push_str(&sheet.column_labels(cols));
        }
        for (y, label) in rows.iter().enumerate() {
            out.push_str(&sheet.row(y, label.as_deref()));
        }
    }
    for (reserve, pieces) in view.reserves.iter().zip(&scene.reserves) {
        out.push_str(&sheet.reserve_line(game, reserve, pieces));
    }
    if !sheet.marks.is_empty() {
        let legend: Vec<String> = sheet
            .marks
            .iter()
            .enumerate()
            .map(|(k, &(m, _))| {
                let (o, c) = BRACKETS[k % BRACKETS.len()];
                let (paint, reset) = (sheet.mark_paint(k), sheet.paint(RESET));
                format!("{paint}{o}{c}{reset} {}", game.symbols.name(m))
            })
            .collect();
        out.push_str(&wrap(&legend, WIDTH));
    }
    let rest: Vec<String> = scene.undrawn.iter().map(|&f| game.show(f)).collect();
    if !rest.is_empty() {
        out.push_str(&wrap(&rest, WIDTH));
    }
    out
}

/// What a board's lines are drawn from.
struct Sheet<'v> {
    view: &'v BoardView,
    style: Style,
    /// What each cell shows, by cell index.
    contents: Vec<Vec<Piece>>,
    /// Width of a cell's contents.
    slot: usize,
    marks: Vec<(Sym, MarkStyle)>,
    /// Width of the row labels, if rows have labels.
    label_w: Option<usize>,
}

impl Sheet<'_> {
    fn paint(&self, code: &'static str) -> &'static str {
        if self.style.color { code } else { "" }
    }

    fn paint_colour(&self, colour: Colour) -> String {
        if self.style.color {
            ansi(colour)
        } else {
            String::new()
        }
    }

    /// The escape the `k`-th mark's brackets are drawn with: its declared
    /// colour, or dim.
    fn mark_paint(&self, k: usize) -> String {
        match self.marks[k].1.colour {
            Some(c) => self.paint_colour(c),
            None => self.paint(DIM).to_string(),
        }
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

    /// One screen row: its cells, and any label over the free places.
    fn row(&self, y: usize, label: Option<&str>) -> String {
        let (dim, reset) = (self.paint(DIM), self.paint(RESET));
        let mut line = String::new();
        if let Some(w) = self.label_w {
            let l = label.unwrap_or("");
            let _ = write!(line, "{dim}{l:>w$}{reset} ");
        }
        let cell_w = self.slot + 2;
        let width = self.view.width as usize;
        let mut x = 0;
        while x < width {
            if let Some(i) = self.cell_at(x, y) {
                line.push_str(&self.cell(i));
                x += 1;
                continue;
            }
            let label = self
                .view
                .labels
                .iter()
                .find(|l| (l.col as usize, l.row as usize) == (x, y));
            let Some(label) = label else {
                line.push_str(&" ".repeat(cell_w));
                x += 1;
                continue;
            };
            // The label takes the free places from here to the next cell.
            let free = (x..width)
                .take_while(|&f| self.cell_at(f, y).is_none())
                .count();
            let text: String = label.text.chars().take(free * cell_w).collect();
            let pad = free * cell_w - text.chars().count();
            let paint = label
                .colour
                .map_or_else(String::new, |c| self.paint_colour(c));
            let reset = if paint.is_empty() { "" } else { reset };
            let _ = write!(line, "{paint}{text}{reset}{}", " ".repeat(pad));
            x += free;
        }
        format!("{}\n", line.trim_end())
    }

    /// One cell: its contents (a dot when empty, a cross on a marked
    /// region) in its first mark's brackets.
    fn cell(&self, i: usize) -> String {
        let (dim, reset) = (self.paint(DIM), self.paint(RESET));
        let slot = self.slot;
        let first = self.view.cells[i]
            .marks
            .iter()
            .filter_map(|m| self.marks.iter().position(|(n, _)| n == m))
            .min();
        let empty = match first {
            Some(k) if scene::crossed(self.marks[k].1) => "×",
            _ => "·",
        };
        let body = match &self.contents[i] {
            c if c.is_empty() => format!("{dim}{empty:^slot$}{reset}"),
            c => {
                let pad = slot - width(c);
                let mut body = " ".repeat(pad / 2);
                body.push_str(&self.pieces(c));
                body.push_str(&" ".repeat(pad - pad / 2));
                body
            }
        };
        match first {
            None => format!(" {body} "),
            Some(k) => {
                let (open, close) = BRACKETS[k % BRACKETS.len()];
                let paint = self.mark_paint(k);
                format!("{paint}{open}{reset}{body}{paint}{close}{reset}")
            }
        }
    }

    /// Glyphs side by side, each in its colour.
    fn pieces(&self, pieces: &[Piece]) -> String {
        let reset = self.paint(RESET);
        let mut out = String::new();
        for p in pieces {
            let _ = write!(out, "{}{}{reset}", self.paint_colour(p.colour), p.glyph);
        }
        out
    }

    /// A reserve as one line: its title, then each place with its pieces
    /// (a dot when none stand there).
    fn reserve_line(
        &self,
        game: &Game,
        reserve: &crate::syntax::ReserveView,
        pieces: &[Vec<Piece>],
    ) -> String {
        let paint = reserve
            .colour
            .map_or_else(String::new, |c| self.paint_colour(c));
        let reset = if paint.is_empty() {
            ""
        } else {
            self.paint(RESET)
        };
        let mut line = format!("{paint}{}:{reset}", reserve.title);
        for (place, here) in reserve.places.iter().zip(pieces) {
            let name = place_caption(game, place);
            let shown = match stack(here) {
                s if s.is_empty() => format!("{}·{}", self.paint(DIM), self.paint(RESET)),
                s => self.pieces(&s),
            };
            match name {
                Some(n) => {
                    let _ = write!(line, "  {n} {shown}");
                }
                None => {
                    let _ = write!(line, " {shown}");
                }
            }
        }
        line.push('\n');
        line
    }
}

/// What a reserve place is called beside its pieces: the last argument of
/// a compound place (`hand(black)` is `black`), none for a plain name (the
/// reserve's title says it).
pub fn place_caption(game: &Game, place: &Term) -> Option<String> {
    match &place.kind {
        TermKind::App(_, args) => args.last().map(|a| {
            Show {
                item: a,
                symbols: &game.symbols,
                syntax: game.syntax,
            }
            .to_string()
        }),
        _ => None,
    }
}

/// What one cell shows: its glyphs side by side, or one glyph and a count.
pub fn stack(pieces: &[Piece]) -> Vec<Piece> {
    match pieces {
        [g, rest @ ..] if !rest.is_empty() && rest.iter().all(|h| h == g) => {
            vec![Piece {
                glyph: format!("{}{}", g.glyph, pieces.len()),
                colour: g.colour,
            }]
        }
        _ => pieces.to_vec(),
    }
}

/// The width of a cell's glyphs side by side.
fn width(pieces: &[Piece]) -> usize {
    pieces.iter().map(|p| p.glyph.chars().count()).sum()
}

/// Column and row labels, where the cells' names give them: a screen column
/// whose cells all have the same first argument is labelled with it, a row
/// with the same second argument likewise. `None` where names disagree.
type Labels = Option<Vec<Option<String>>>;

pub fn labels(game: &Game, view: &BoardView) -> (Labels, Vec<Option<String>>) {
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
pub fn show_pattern(game: &Game, p: &Term, env: &[(Sym, TermId)]) -> String {
    Show {
        item: Bound::Pattern(p, env, &game.terms),
        symbols: &game.symbols,
        syntax: game.syntax,
    }
    .to_string()
}
