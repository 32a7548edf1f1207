//! Drawing a state as text.
//!
//! In: a [`Game`], a [`State`] and a [`Style`] chosen by the caller. Out: a
//! `String`. With a [`BoardView`] (declared by a native game) the board is a
//! grid of cells in Unicode: pieces come from the view's patterns matched
//! against the state's true facts, marked cells (regions such as `safe`) get
//! their own brackets and a legend, and the facts no pattern draws follow
//! under the board. Without a board (every `.kif` game) the true facts are
//! listed, one per line or wrapped compactly.
//! Holds: colour escapes appear only when `Style::color` is set; the library
//! never looks at the terminal.

use crate::engine::{Game, State};
use crate::ground::{GTerm, TermId, TermTable};
use crate::syntax::{BoardView, Sym, Syntax, Term, TermKind};
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
const BRACKETS: [(char, char); 4] = [('[', ']'), ('(', ')'), ('{', '}'), ('<', '>')];

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

/// A board drawn cell by cell on its screen grid.
pub fn board(game: &Game, view: &BoardView, state: &State, style: Style) -> String {
    let paint = |code: &'static str| if style.color { code } else { "" };
    let facts = game.facts(state);
    let mut by_name: HashMap<TermId, usize> = HashMap::new();
    for (i, c) in view.cells.iter().enumerate() {
        if let Some(id) = game.term_id(&c.name) {
            by_name.entry(id).or_insert(i);
        }
    }
    // Glyphs per cell, and which facts some pattern drew.
    let mut glyphs: Vec<Vec<String>> = vec![Vec::new(); view.cells.len()];
    let mut drawn = vec![false; facts.len()];
    for piece in &view.pieces {
        for (i, &fact) in facts.iter().enumerate() {
            let mut env = Vec::new();
            if !game.terms.matches(&piece.fact, fact, &mut env) {
                continue;
            }
            let Some(cell) = build(&piece.cell, &env, &game.terms) else {
                continue;
            };
            if let Some(&c) = by_name.get(&cell) {
                glyphs[c].push(show_pattern(game, &piece.glyph, &env));
                drawn[i] = true;
            }
        }
    }
    let contents: Vec<String> = glyphs.iter().map(|g| stack(g)).collect();
    let slot = contents
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);

    // Marks in order of first use; a cell shows its first mark's brackets.
    let mut marks: Vec<Sym> = Vec::new();
    for c in &view.cells {
        for m in &c.marks {
            if !marks.contains(m) {
                marks.push(*m);
            }
        }
    }
    let (cols, rows) = labels(game, view);
    let label_w = rows.iter().flatten().map(|l| l.chars().count()).max();
    let width = view.width as usize;
    let height = view.height as usize;
    let mut grid: Vec<Option<usize>> = vec![None; width * height];
    for (i, c) in view.cells.iter().enumerate() {
        let (x, y) = (c.col as usize, c.row as usize);
        if x < width && y < height && grid[y * width + x].is_none() {
            grid[y * width + x] = Some(i);
        }
    }

    let mut out = String::new();
    let margin = label_w.map_or(0, |w| w + 1);
    if let Some(cols) = &cols {
        let mut line = " ".repeat(margin);
        // A label may use the cell's bracket columns too, so "10" stays
        // over a one-character cell.
        let cell_w = slot + 2;
        for l in cols {
            let l = l.as_deref().unwrap_or("");
            let _ = write!(line, "{l:^cell_w$}");
        }
        let _ = writeln!(out, "{}{}{}", paint(DIM), line.trim_end(), paint(RESET));
    }
    for y in 0..height {
        let mut line = String::new();
        if let Some(w) = label_w {
            let l = rows[y].as_deref().unwrap_or("");
            let _ = write!(line, "{}{l:>w$}{} ", paint(DIM), paint(RESET));
        }
        for x in 0..width {
            let Some(i) = grid[y * width + x] else {
                line.push_str(&" ".repeat(slot + 2));
                continue;
            };
            let cell = &view.cells[i];
            let (open, close) = cell
                .marks
                .iter()
                .filter_map(|m| marks.iter().position(|n| n == m))
                .min()
                .map_or((' ', ' '), |k| BRACKETS[k % BRACKETS.len()]);
            let body = if contents[i].is_empty() {
                format!("{}{:^slot$}{}", paint(DIM), "·", paint(RESET))
            } else {
                let c = &contents[i];
                format!("{}{c:^slot$}{}", paint(color_of(c)), paint(RESET))
            };
            if open == ' ' {
                let _ = write!(line, " {body} ");
            } else {
                let _ = write!(
                    line,
                    "{}{open}{}{body}{}{close}{}",
                    paint(DIM),
                    paint(RESET),
                    paint(DIM),
                    paint(RESET)
                );
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if !marks.is_empty() {
        let legend: Vec<String> = marks
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let (o, c) = BRACKETS[k % BRACKETS.len()];
                format!("{o}{c} {}", game.symbols.name(*m))
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

/// What one cell shows: its glyphs side by side, or one glyph and a count.
fn stack(glyphs: &[String]) -> String {
    match glyphs {
        [] => String::new(),
        [g] => g.clone(),
        [g, rest @ ..] if rest.iter().all(|h| h == g) => format!("{g}{}", glyphs.len()),
        _ => glyphs.concat(),
    }
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

/// The ground term a pattern denotes under `env`, if the game knows it.
fn build(p: &Term, env: &[(Sym, TermId)], terms: &TermTable) -> Option<TermId> {
    let g = match &p.kind {
        TermKind::Var(v) => return env.iter().find(|(w, _)| w == v).map(|(_, t)| *t),
        TermKind::Const(s) => GTerm::Sym(*s),
        TermKind::Int(i) => GTerm::Int(*i),
        TermKind::App(f, args) => GTerm::App(
            *f,
            args.iter()
                .map(|a| build(a, env, terms))
                .collect::<Option<Box<[TermId]>>>()?,
        ),
        TermKind::Arith(..) => return None,
    };
    terms.get(&g)
}

/// A pattern printed with its variables replaced by their values.
fn show_pattern(game: &Game, p: &Term, env: &[(Sym, TermId)]) -> String {
    match &p.kind {
        TermKind::Var(v) => match env.iter().find(|(w, _)| w == v) {
            Some(&(_, t)) => game.show(t),
            None => game.symbols.name(*v).to_string(),
        },
        TermKind::Const(s) => game.symbols.name(*s).to_string(),
        TermKind::Int(i) => i.to_string(),
        TermKind::App(f, args) => {
            let args: Vec<String> = args.iter().map(|a| show_pattern(game, a, env)).collect();
            match game.syntax {
                Syntax::Kif => format!("({} {})", game.symbols.name(*f), args.join(" ")),
                Syntax::Rules => format!("{}({})", game.symbols.name(*f), args.join(", ")),
            }
        }
        TermKind::Arith(..) => "?".to_string(),
    }
}
