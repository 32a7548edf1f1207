//! Drawing a state as an SVG picture.
//!
//! In: a [`Game`], a [`State`] and a [`Frame`] (the last move, a caption).
//! Out: a standalone SVG document. With a [`BoardView`] every cell is a
//! square at its screen place, tinted, outlined and crossed by its regions;
//! labels are written on free places; pieces are discs in their colours
//! with their glyphs (several on a cell shrink to fit, equal ones show a
//! count); the cells the last move names are outlined; the reserves follow
//! as rows of titled boxes, then the caption and the facts no pattern drew.
//! Without a board the true facts are listed.
//! Holds: the output depends only on its inputs (no clock, no randomness),
//! so golden files can pin it; every text is escaped.

use super::scene::{self, Piece, Scene};
use crate::engine::{Game, Machine, State};
use crate::front::{choosing, engine_error, view};
use crate::ground::TermId;
use crate::syntax::{BoardView, CellView, Colour, MarkStyle, RegionStyle, Sym};
use std::fmt::Write;

/// Side of a cell in pixels.
const CELL: u32 = 40;
/// Room around the board for coordinates.
const MARGIN: u32 = 28;
/// Height of a line of text.
const LINE: u32 = 18;
/// Height of a reserve's row: its title and its boxes.
const RESERVE_ROW: u32 = CELL + LINE + 12;

const BACKGROUND: &str = "#f6f1e7";
const CELL_FILL: &str = "#fffdf8";
const CELL_STROKE: &str = "#8d7b68";
const INK: &str = "#2b2b2b";
const FAINT: &str = "#8a8a8a";
const HIGHLIGHT: &str = "#ff8f00";

/// What to show beside the state.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The moves of the last step (one per role that moved), whose cells
    /// are outlined.
    pub last_move: Vec<TermId>,
    /// Lines under the board: the step, the last move, whose turn.
    pub caption: Vec<String>,
    /// Whether each cell gets a transparent area on top for a page to click
    /// (`class="cell"`), naming its index in the view (`data-cell`), the
    /// cell (`data-name`) and the glyphs standing on it (`data-pieces`).
    pub clickable: bool,
}

/// The state as an SVG document.
pub fn state(game: &Game, state: &State, frame: &Frame) -> String {
    let facts = game.facts(state);
    let mut page = Page::default();
    match &game.meta.board {
        Some(view) if !view.cells.is_empty() || !view.reserves.is_empty() => {
            let scene = Scene::new(game, view, &facts);
            page.board(game, view, &scene, frame);
            page.reserves(game, view, &scene);
            page.text_lines(&frame.caption, INK);
            let rest: Vec<String> = scene.undrawn.iter().map(|&f| game.show(f)).collect();
            page.wrapped(&rest);
        }
        _ => {
            page.text_lines(&frame.caption, INK);
            let shown: Vec<String> = facts.iter().map(|&f| game.show(f)).collect();
            page.text_lines(&shown, INK);
        }
    }
    page.finish(game.meta.title.as_deref())
}

/// The SVG of a position after `step` steps, with the last joint move (if
/// any) outlined and named in the caption, and whose turn it is; with
/// `clickable` its cells can be clicked on a page (see [`Frame`]).
pub fn position(
    game: &Game,
    state: &State,
    last: Option<&[u32]>,
    step: usize,
    clickable: bool,
) -> String {
    let mut machine = game.machine();
    machine.set_state(state);
    let mut caption = vec![format!("step {step}: {}", turn(&mut machine))];
    let mut frame = Frame {
        clickable,
        ..Frame::default()
    };
    if let Some(joint) = last {
        caption.push(format!("last step: {}", view::joint(game, joint)));
        frame.last_move = joint
            .iter()
            .enumerate()
            .map(|(r, &m)| game.move_term(r, m))
            .collect();
    }
    frame.caption = caption;
    self::state(game, state, &frame)
}

/// Whose turn it is, in a few words: the goals at the end, the roles that
/// choose and nature's throw, or the one joint move there is.
fn turn(m: &mut Machine) -> String {
    let game = m.game();
    if m.is_terminal() {
        return format!("game over; {}", view::goals(m).trim_end());
    }
    if let Err(e) = m.check_playable() {
        return format!("error: {}", engine_error(game, &e));
    }
    let mut who: Vec<String> = choosing(m)
        .iter()
        .map(|&r| format!("{} to move", game.role_name(r)))
        .collect();
    if let Some(r) = game.random_role().filter(|&r| m.legal(r).len() > 1) {
        who.push(format!("{} throws", game.role_name(r)));
    }
    if who.is_empty() {
        let only: Vec<u32> = (0..game.role_count()).map(|r| m.legal(r)[0]).collect();
        return format!("the one joint move is {}", view::joint(game, &only));
    }
    who.join(", ")
}

/// An SVG body being laid out from the top down.
#[derive(Default)]
struct Page {
    body: String,
    width: u32,
    /// Where the next thing goes.
    y: u32,
}

impl Page {
    fn finish(self, title: Option<&str>) -> String {
        let (w, h) = (self.width.max(200) + MARGIN, self.y + MARGIN / 2);
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
        );
        if let Some(t) = title {
            let _ = writeln!(out, "<title>{}</title>", escape(t));
        }
        let _ = writeln!(
            out,
            "<rect width=\"{w}\" height=\"{h}\" fill=\"{BACKGROUND}\"/>"
        );
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
    }

    /// The board: coordinates, cells, labels, pieces, the last move.
    fn board(&mut self, game: &Game, view: &BoardView, scene: &Scene, frame: &Frame) {
        if view.cells.is_empty() {
            return;
        }
        let (left, top) = (MARGIN, MARGIN);
        self.coordinates(game, view, left, top);
        let marks = scene::marks(view);
        let last = scene::named_cells(game, view, &frame.last_move);
        for (i, cell) in view.cells.iter().enumerate() {
            let (x, y) = (left + cell.col * CELL, top + cell.row * CELL);
            let look = Look::of(cell, &marks);
            let fill = look.fill.map_or(CELL_FILL.to_string(), |c| tint(c, 0.35));
            let (stroke, stroke_w) = look
                .border
                .map_or((CELL_STROKE.to_string(), 1), |c| (hex(c), 3));
            let _ = writeln!(
                self.body,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" \
                 stroke=\"{stroke}\" stroke-width=\"{stroke_w}\"/>"
            );
            if let Some(c) = look.cross {
                let (a, b) = (6, CELL - 6);
                let _ = writeln!(
                    self.body,
                    "<path d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"{}\" stroke-width=\"2\" \
                     opacity=\"0.6\"/>",
                    x + a,
                    y + a,
                    x + b,
                    y + b,
                    x + b,
                    y + a,
                    x + a,
                    y + b,
                    hex(c)
                );
            }
            if last.contains(&i) {
                let _ = writeln!(
                    self.body,
                    "<rect class=\"last-move\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
                     fill=\"none\" stroke=\"{HIGHLIGHT}\" stroke-width=\"3\"/>",
                    x + 2,
                    y + 2,
                    CELL - 4,
                    CELL - 4
                );
            }
        }
        for label in &view.labels {
            let (x, y) = (
                left + label.col * CELL + 4,
                top + label.row * CELL + CELL / 2 + 5,
            );
            let fill = label.colour.map_or(INK.to_string(), hex);
            let _ = writeln!(
                self.body,
                "<text x=\"{x}\" y=\"{y}\" font-size=\"15\" font-weight=\"bold\" \
                 fill=\"{fill}\">{}</text>",
                escape(&label.text)
            );
        }
        for (cell, pieces) in view.cells.iter().zip(&scene.cells) {
            let (x, y) = (left + cell.col * CELL, top + cell.row * CELL);
            self.pieces(x, y, CELL, pieces);
        }
        if frame.clickable {
            self.hit_areas(game, view, scene, left, top);
        }
        self.width = self.width.max(left + view.width * CELL);
        self.y = top + view.height * CELL + MARGIN / 2;
    }

    /// A transparent square over each cell, on top of its pieces, that
    /// names the cell and what stands on it.
    fn hit_areas(&mut self, game: &Game, view: &BoardView, scene: &Scene, left: u32, top: u32) {
        for (i, (cell, pieces)) in view.cells.iter().zip(&scene.cells).enumerate() {
            let (x, y) = (left + cell.col * CELL, top + cell.row * CELL);
            let name = escape(&super::show_pattern(game, &cell.name, &[]));
            let glyphs: Vec<&str> = pieces.iter().map(|p| p.glyph.as_str()).collect();
            let glyphs = escape(&glyphs.join(" "));
            let _ = writeln!(
                self.body,
                "<rect class=\"cell\" data-cell=\"{i}\" data-name=\"{name}\" \
                 data-pieces=\"{glyphs}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" \
                 height=\"{CELL}\" fill=\"transparent\"><title>{name} {glyphs}</title></rect>"
            );
        }
    }

    /// Column numbers above the board and row numbers left of it, where the
    /// cells' names give them.
    fn coordinates(&mut self, game: &Game, view: &BoardView, left: u32, top: u32) {
        let (cols, rows) = super::labels(game, view);
        for (x, l) in cols.iter().flatten().enumerate() {
            if let Some(l) = l {
                let cx = left + x as u32 * CELL + CELL / 2;
                let _ = writeln!(
                    self.body,
                    "<text x=\"{cx}\" y=\"{}\" font-size=\"11\" fill=\"{FAINT}\" \
                     text-anchor=\"middle\">{}</text>",
                    top - 8,
                    escape(l)
                );
            }
        }
        for (y, l) in rows.iter().enumerate() {
            if let Some(l) = l {
                let cy = top + y as u32 * CELL + CELL / 2 + 4;
                let _ = writeln!(
                    self.body,
                    "<text x=\"{}\" y=\"{cy}\" font-size=\"11\" fill=\"{FAINT}\" \
                     text-anchor=\"end\">{}</text>",
                    left - 6,
                    escape(l)
                );
            }
        }
    }

    /// The pieces standing in a square of side `side` at (x, y): one disc,
    /// a disc with a count for equal pieces, or small discs in rows.
    fn pieces(&mut self, x: u32, y: u32, side: u32, pieces: &[Piece]) {
        let shown = super::stack(pieces);
        let n = shown.len() as u32;
        if n == 0 {
            return;
        }
        let per_row = (n as f64).sqrt().ceil() as u32;
        let rows = n.div_ceil(per_row);
        let step = side as f64 / per_row.max(rows) as f64;
        for (k, p) in shown.iter().enumerate() {
            let (col, row) = (k as u32 % per_row, k as u32 / per_row);
            let cx =
                x as f64 + step * (col as f64 + 0.5) + (side as f64 - step * per_row as f64) / 2.0;
            let cy =
                y as f64 + step * (row as f64 + 0.5) + (side as f64 - step * rows as f64) / 2.0;
            self.disc(cx, cy, step * 0.42, p);
        }
    }

    fn disc(&mut self, cx: f64, cy: f64, r: f64, piece: &Piece) {
        let (fill, ink) = (hex(piece.colour), text_on(piece.colour));
        let chars = piece.glyph.chars().count().max(1) as f64;
        let size = (r * 1.3).min(r * 2.6 / chars).max(6.0);
        let _ = writeln!(
            self.body,
            "<g class=\"piece\"><circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{fill}\" \
             stroke=\"{INK}\" stroke-width=\"1\"/><text x=\"{cx:.1}\" y=\"{:.1}\" \
             font-size=\"{size:.1}\" font-weight=\"bold\" fill=\"{ink}\" \
             text-anchor=\"middle\">{}</text></g>",
            cy + size * 0.36,
            escape(&piece.glyph)
        );
    }

    /// Each reserve as a row: its title, then a box per place with its
    /// caption and its pieces.
    fn reserves(&mut self, game: &Game, view: &BoardView, scene: &Scene) {
        for (reserve, places) in view.reserves.iter().zip(&scene.reserves) {
            let ink = reserve.colour.map_or(INK.to_string(), hex);
            let _ = writeln!(
                self.body,
                "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" \
                 fill=\"{ink}\">{}</text>",
                self.y + 13,
                escape(&reserve.title)
            );
            let top = self.y + LINE;
            let mut x = MARGIN;
            for (place, pieces) in reserve.places.iter().zip(places) {
                let count = super::stack(pieces).len().max(1) as u32;
                let w = (count * CELL).clamp(CELL, 4 * CELL);
                let caption = super::place_caption(game, place);
                let _ = writeln!(
                    self.body,
                    "<rect class=\"reserve\" x=\"{x}\" y=\"{top}\" width=\"{w}\" height=\"{CELL}\" \
                     rx=\"6\" fill=\"{CELL_FILL}\" stroke=\"{CELL_STROKE}\"/>"
                );
                if count == 1 {
                    self.pieces(x, top, CELL, pieces);
                } else {
                    let shown = super::stack(pieces);
                    let step = w / count;
                    for (k, p) in shown.iter().enumerate() {
                        let cx = x as f64 + step as f64 * (k as f64 + 0.5);
                        let r = (step as f64 * 0.42).min(CELL as f64 * 0.42);
                        self.disc(cx, top as f64 + CELL as f64 / 2.0, r, p);
                    }
                }
                if let Some(c) = caption {
                    let _ = writeln!(
                        self.body,
                        "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"{FAINT}\" \
                         text-anchor=\"middle\">{}</text>",
                        x + w / 2,
                        top + CELL + 11,
                        escape(&c)
                    );
                }
                x += w + 8;
            }
            self.width = self.width.max(x);
            self.y += RESERVE_ROW;
        }
    }

    fn text_lines(&mut self, lines: &[String], ink: &str) {
        for l in lines {
            self.y += LINE;
            let _ = writeln!(
                self.body,
                "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"13\" fill=\"{ink}\">{}</text>",
                self.y,
                escape(l)
            );
            self.width = self.width.max(MARGIN + 8 * l.chars().count() as u32);
        }
    }

    /// Facts wrapped to the width of the page so far.
    fn wrapped(&mut self, items: &[String]) {
        if items.is_empty() {
            return;
        }
        let chars = ((self.width.saturating_sub(MARGIN)) / 7).max(40) as usize;
        let text = super::wrap(items, chars);
        let lines: Vec<String> = text.lines().map(String::from).collect();
        self.text_lines(&lines, FAINT);
    }
}

/// How a cell looks by its regions: the first filled region's tint, the
/// first outlined region's border, the first marked region's cross.
#[derive(Default)]
struct Look {
    fill: Option<Colour>,
    border: Option<Colour>,
    cross: Option<Colour>,
}

impl Look {
    fn of(cell: &CellView, marks: &[(Sym, MarkStyle)]) -> Look {
        let mut look = Look::default();
        let mut own: Vec<usize> = cell
            .marks
            .iter()
            .filter_map(|m| marks.iter().position(|(n, _)| n == m))
            .collect();
        own.sort_unstable();
        for k in own {
            let (style, colour) = (marks[k].1, scene::mark_colour(marks[k].1, k));
            let slot = match style.style {
                RegionStyle::Filled => &mut look.fill,
                RegionStyle::Outlined => &mut look.border,
                RegionStyle::Marked => &mut look.cross,
            };
            slot.get_or_insert(colour);
        }
        look
    }
}

/// `#rrggbb`.
fn hex(c: Colour) -> String {
    let (r, g, b) = c.rgb();
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The colour mixed with white, `amount` of the colour.
fn tint(c: Colour, amount: f64) -> String {
    let (r, g, b) = c.rgb();
    let mix = |v: u8| (v as f64 * amount + 255.0 * (1.0 - amount)).round() as u8;
    hex(Colour::Rgb(mix(r), mix(g), mix(b)))
}

/// Black or white, whichever reads better on the colour.
fn text_on(c: Colour) -> &'static str {
    let (r, g, b) = c.rgb();
    let luma = 0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64;
    if luma > 150.0 { "#1a1a1a" } else { "#ffffff" }
}

/// Text made safe inside an XML element.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}
