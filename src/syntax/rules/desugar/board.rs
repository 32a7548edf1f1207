//! `board grid(W, H)`, `board cross(ARM, WIDTH)` and `board cells: ...`;
//! a grid or cross may add cells with no neighbours after `:`.
//!
//! Out: `square(Cell)`, `direction(D)` and `adjacent(From, D, To)` facts
//! (with `arm(Arm, Cell)` on a cross), and the cells of the [`BoardView`](crate::syntax::BoardView)
//! with their screen places. Holds: a cross's centre block is one cell,
//! `centre`; every board is at most [`MAX_CELLS`] cells.

use super::{Desugar, MAX_CELLS, MAX_SIDE};
use crate::syntax::ast::{CellView, Span, Term, TermKind};
use crate::syntax::rules::lower::is_ground;
use crate::syntax::rules::parser::{Decl, Ex, ExKind};
use indexmap::{IndexMap, IndexSet};
use std::collections::HashSet;

/// The squares of a grid or cross board, before they are named.
struct Frame {
    /// Offsets `(x, y)` from the origin, with their screen places
    /// (column, row from the top left).
    squares: Vec<(i64, i64, (u32, u32))>,
    /// The coordinate of the first square (1 unless `from` says otherwise).
    origin: i64,
    /// A cross's arm length and width.
    cross: Option<(i64, i64)>,
}

impl Frame {
    /// True for the squares of a cross's centre block, which make one cell.
    fn in_centre(&self, x: i64, y: i64) -> bool {
        match self.cross {
            Some((l, k)) => (l..l + k).contains(&x) && (l..l + k).contains(&y),
            None => false,
        }
    }

    /// The default eight directions, named by the compass.
    const COMPASS: [(&str, i64, i64); 8] = [
        ("n", 0, 1),
        ("ne", 1, 1),
        ("e", 1, 0),
        ("se", 1, -1),
        ("s", 0, -1),
        ("sw", -1, -1),
        ("w", -1, 0),
        ("nw", -1, 1),
    ];
}

impl Desugar<'_> {
    pub(super) fn board(&mut self, d: &Decl, span: Span) {
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
                self.only_parts(d, &["", "from", "directions", ":"]);
                self.grid(d, shape, args, span);
            }
            ExKind::App(f, args) if f == "cross" && args.len() == 2 => {
                self.only_parts(d, &["", "from", "directions", "arms", ":"]);
                self.cross(d, shape, args, span);
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

    /// `grid(W, H)`: W x H squares `sq(X, Y)`, `sq(1, 1)` bottom left.
    fn grid(&mut self, d: &Decl, shape: &Ex, args: &[Ex], span: Span) {
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
        let mut squares = Vec::new();
        for y in 0..h {
            for x in 0..w {
                squares.push((x, y, (x as u32, (h - 1 - y) as u32)));
            }
        }
        self.view.width = w as u32;
        self.view.height = h as u32;
        let Some(origin) = self.origin(d, w.max(h), span) else {
            return;
        };
        self.frame_origin = Some(origin);
        let frame = Frame {
            squares,
            origin,
            cross: None,
        };
        self.frame_board(d, &frame, span);
    }

    /// `cross(ARM, WIDTH)`: four arms of ARM x WIDTH squares round a
    /// WIDTH x WIDTH centre, which is one cell.
    fn cross(&mut self, d: &Decl, shape: &Ex, args: &[Ex], span: Span) {
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
        let f = 2 * l + k;
        let mut squares = Vec::new();
        for y in 0..f {
            for x in 0..f {
                if (l..l + k).contains(&x) || (l..l + k).contains(&y) {
                    squares.push((x, y, (x as u32, (f - 1 - y) as u32)));
                }
            }
        }
        self.view.width = f as u32;
        self.view.height = f as u32;
        let Some(origin) = self.origin(d, f, span) else {
            return;
        };
        self.frame_origin = Some(origin);
        let frame = Frame {
            squares,
            origin,
            cross: Some((l, k)),
        };
        self.frame_board(d, &frame, span);
    }

    /// The first coordinate (`from O`, 1 by default) of a frame `side`
    /// squares across; `None` (reported) where its last coordinate would
    /// pass the largest integer.
    fn origin(&mut self, d: &Decl, side: i64, span: Span) -> Option<i64> {
        if d.part("from").is_none() {
            return Some(1);
        }
        let e = self.one(d, "from", "the first coordinate", span)?;
        let origin = self.lw.int(e, "the first coordinate")?;
        if origin.checked_add(side - 1).is_none() {
            let why = format!("coordinates from {origin} pass the largest integer on this board");
            self.decl_error(e.span, why);
            return None;
        }
        Some(origin)
    }

    fn directions(&mut self, d: &Decl) -> Vec<(String, i64, i64, Span)> {
        let Some(p) = d.part("directions") else {
            return Frame::COMPASS
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

    /// The four arm names of a cross (`arms`, or north, east, south, west).
    fn arm_names(&mut self, d: &Decl) -> Option<Vec<String>> {
        let Some(p) = d.part("arms") else {
            return Some(
                ["north", "east", "south", "west"]
                    .map(String::from)
                    .to_vec(),
            );
        };
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
            return None;
        }
        Some(names.into_iter().flatten().collect())
    }

    /// Grid and cross boards: the cells of a frame, its directions and the
    /// adjacency between its cells.
    fn frame_board(&mut self, d: &Decl, frame: &Frame, span: Span) {
        let dirs = self.directions(d);
        let arms = match frame.cross {
            Some(_) => match self.arm_names(d) {
                Some(names) => names,
                None => return,
            },
            None => Vec::new(),
        };
        self.frame_cells(frame, &arms, span);
        self.frame_links(frame, &dirs, span);
        self.extra_cells(d, frame.origin);
    }

    /// `: NAME X Y, ...` after a grid or cross: cells with no neighbours,
    /// drawn where the frame's square `sq(X, Y)` would be (a free place:
    /// a corner of a cross, or a square of its centre block beside the
    /// middle one, and not an earlier extra cell's), such as a zero mark
    /// off the track.
    fn extra_cells(&mut self, d: &Decl, origin: i64) {
        let Some(p) = d.part(":") else { return };
        let (w, h) = (i64::from(self.view.width), i64::from(self.view.height));
        let mut taken: HashSet<(u32, u32)> =
            self.view.cells.iter().map(|c| (c.col, c.row)).collect();
        for item in &p.items {
            let [cell, x, y] = item.as_slice() else {
                let s = item.first().map_or(p.span, |e| e.span);
                self.decl_error(s, "an extra cell is `NAME X Y`, X and Y as in `sq(X, Y)`");
                continue;
            };
            let (Some(x), Some(y)) = (self.lw.int(x, "a column"), self.lw.int(y, "a row")) else {
                continue;
            };
            let offsets = x.checked_sub(origin).zip(y.checked_sub(origin));
            let Some((dx, dy)) =
                offsets.filter(|&(dx, dy)| (0..w).contains(&dx) && (0..h).contains(&dy))
            else {
                self.decl_error(
                    cell.span,
                    format!("({x}, {y}) is outside the board's frame"),
                );
                continue;
            };
            let (col, row) = (dx as u32, (h - 1 - dy) as u32);
            if !taken.insert((col, row)) {
                let why = format!("({x}, {y}) is not a free place of the frame");
                self.decl_error(cell.span, why);
                continue;
            }
            let t = self.lw.term(cell);
            if !is_ground(&t) {
                self.decl_error(cell.span, "a cell name must be a ground term");
                continue;
            }
            self.add_cell(t, col, row, cell.span);
        }
    }

    /// The term naming the square at frame offset (x, y).
    fn square_name(&mut self, frame: &Frame, x: i64, y: i64, span: Span) -> Term {
        if frame.in_centre(x, y) {
            return self.lw.konst("centre", span);
        }
        let a = Term::new(TermKind::Int(x + frame.origin), span);
        let b = Term::new(TermKind::Int(y + frame.origin), span);
        self.app("sq", vec![a, b], span)
    }

    /// One cell per square (the centre of a cross once, in its middle), and
    /// on a cross `arm(Arm, Cell)` for the cells of each arm.
    fn frame_cells(&mut self, frame: &Frame, arms: &[String], span: Span) {
        let mut centre_done = false;
        for &(x, y, (col, row)) in &frame.squares {
            let c = self.square_name(frame, x, y, span);
            if frame.in_centre(x, y) {
                if !centre_done {
                    centre_done = true;
                    let (l, k) = frame.cross.unwrap_or((0, 1));
                    let mid = (l + k / 2) as u32;
                    self.add_cell(c, mid, self.view.height - 1 - mid, span);
                }
                continue;
            }
            self.add_cell(c.clone(), col, row, span);
            if let Some((l, k)) = frame.cross {
                let arm = if y >= l + k {
                    0
                } else if x >= l + k {
                    1
                } else if y < l {
                    2
                } else {
                    3
                };
                let a = self.lw.konst(&arms[arm], span);
                self.fact("arm", vec![a, c], span);
            }
        }
    }

    /// `direction(D)` for each direction, and `adjacent(From, D, To)` for
    /// each square and direction that stays on the board (once per pair of
    /// cells, so the centre of a cross is not adjacent to itself).
    fn frame_links(&mut self, frame: &Frame, dirs: &[(String, i64, i64, Span)], span: Span) {
        for (dn, _, _, dspan) in dirs {
            let dt = self.lw.konst(dn, *dspan);
            self.fact("direction", vec![dt], *dspan);
        }
        let on_board: IndexSet<(i64, i64)> = frame.squares.iter().map(|s| (s.0, s.1)).collect();
        let mut seen = IndexSet::new();
        for &(x, y, _) in &frame.squares {
            for (dn, dx, dy, dspan) in dirs {
                let (nx, ny) = (x + dx, y + dy);
                if !on_board.contains(&(nx, ny))
                    || (frame.in_centre(x, y) && frame.in_centre(nx, ny))
                {
                    continue;
                }
                let from = self.square_name(frame, x, y, span);
                let to = self.square_name(frame, nx, ny, span);
                if !seen.insert((from.clone(), dn.clone(), to.clone())) {
                    continue;
                }
                let dt = self.lw.konst(dn, *dspan);
                self.fact("adjacent", vec![from, dt, to], *dspan);
            }
        }
    }

    fn add_cell(&mut self, name: Term, col: u32, row: u32, span: Span) {
        let cells = self.cells.get_or_insert_with(IndexMap::new);
        if cells.contains_key(&name) {
            let shown = self.shown(&name);
            self.decl_error(name.span, format!("cell `{shown}` is declared twice"));
            return;
        }
        cells.insert(name.clone(), self.view.cells.len());
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
        self.links(d);
    }

    /// `links DIR(FROM, TO), ...` of a board of named cells.
    fn links(&mut self, d: &Decl) {
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
}
