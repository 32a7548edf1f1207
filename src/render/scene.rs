//! What a state shows on a declared board, before any drawing.
//!
//! In: a [`Game`], its [`BoardView`] and the true facts of a state. Out: a
//! [`Scene`]: the pieces on each cell and on each reserve place, each with
//! its glyph and colour, and the facts no pattern drew. The text board and
//! the SVG board both draw a scene, so they always show the same pieces.
//! Holds: every piece has a colour; a piece whose declaration gives none
//! takes one from [`UNDECLARED`] by the order its glyph first appears among
//! the view's patterns, so that undeclared owners get distinct colours.

use crate::engine::Game;
use crate::ground::TermId;
use crate::ground::terms::GTerm;
use crate::syntax::{BoardView, Colour, MarkStyle, RegionStyle, Sym, Term, TermKind};
use std::collections::HashMap;

/// Colours for pieces and regions declared without one, in order of use:
/// each reads on a light and on a dark background.
pub const UNDECLARED: [Colour; 8] = [
    Colour::Red,
    Colour::Blue,
    Colour::Green,
    Colour::Magenta,
    Colour::Orange,
    Colour::Purple,
    Colour::Brown,
    Colour::Cyan,
];

/// One piece as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub glyph: String,
    pub colour: Colour,
}

/// The pieces of a state, by place.
pub struct Scene {
    /// By cell index of the view.
    pub cells: Vec<Vec<Piece>>,
    /// By reserve, then by place of the reserve.
    pub reserves: Vec<Vec<Vec<Piece>>>,
    /// The true facts no pattern drew.
    pub undrawn: Vec<TermId>,
}

impl Scene {
    pub fn new(game: &Game, view: &BoardView, facts: &[TermId]) -> Scene {
        let mut cells: HashMap<TermId, usize> = HashMap::new();
        for (i, c) in view.cells.iter().enumerate() {
            if let Some(id) = game.term_id(&c.name) {
                cells.entry(id).or_insert(i);
            }
        }
        let mut scene = Scene {
            cells: vec![Vec::new(); view.cells.len()],
            reserves: view
                .reserves
                .iter()
                .map(|r| vec![Vec::new(); r.places.len()])
                .collect(),
            undrawn: Vec::new(),
        };
        let colours = piece_colours(game, view);
        let mut drawn = vec![false; facts.len()];
        for (piece, &colour) in view.pieces.iter().zip(&colours) {
            for (i, &fact) in facts.iter().enumerate() {
                let mut env = Vec::new();
                if !game.terms.matches(&piece.fact, fact, &mut env) {
                    continue;
                }
                let glyph = super::show_pattern(game, &piece.glyph, &env);
                let drawn_piece = Piece { glyph, colour };
                let cell = game.terms.lookup(&piece.cell, &env);
                if let Some(&k) = cell.and_then(|c| cells.get(&c)) {
                    scene.cells[k].push(drawn_piece);
                    drawn[i] = true;
                } else if let Some((r, k)) = reserve_place(game, view, &piece.cell, &env) {
                    scene.reserves[r][k].push(drawn_piece);
                    drawn[i] = true;
                }
            }
        }
        scene.undrawn = facts
            .iter()
            .zip(&drawn)
            .filter(|(_, d)| !**d)
            .map(|(&f, _)| f)
            .collect();
        scene
    }
}

/// The reserve and place a pattern names under the bindings of a match.
/// Reserve places need not occur in any rule, so they are compared as
/// terms rather than looked up in the game's table of terms.
fn reserve_place(
    game: &Game,
    view: &BoardView,
    pattern: &Term,
    env: &[(Sym, TermId)],
) -> Option<(usize, usize)> {
    view.reserves.iter().enumerate().find_map(|(r, reserve)| {
        let k = reserve
            .places
            .iter()
            .position(|p| pattern_is(game, pattern, env, p))?;
        Some((r, k))
    })
}

/// Whether a pattern, its variables bound by `env`, is the ground term
/// `target`.
fn pattern_is(game: &Game, pattern: &Term, env: &[(Sym, TermId)], target: &Term) -> bool {
    match (&pattern.kind, &target.kind) {
        (TermKind::Var(v), _) => env
            .iter()
            .find(|(w, _)| w == v)
            .is_some_and(|&(_, id)| id_is(game, id, target)),
        (TermKind::App(f, args), TermKind::App(g, targets)) => {
            f == g
                && args.len() == targets.len()
                && args
                    .iter()
                    .zip(targets)
                    .all(|(a, t)| pattern_is(game, a, env, t))
        }
        (TermKind::Const(a), TermKind::Const(b)) => a == b,
        (TermKind::Int(a), TermKind::Int(b)) => a == b,
        _ => false,
    }
}

/// Whether a ground term of the game's table is the term `target`.
fn id_is(game: &Game, id: TermId, target: &Term) -> bool {
    match (game.terms.term(id), &target.kind) {
        (GTerm::Sym(a), TermKind::Const(b)) => a == b,
        (GTerm::Int(a), TermKind::Int(b)) => a == b,
        (GTerm::App(f, args), TermKind::App(g, targets)) => {
            f == g
                && args.len() == targets.len()
                && args.iter().zip(targets).all(|(&a, t)| id_is(game, a, t))
        }
        _ => false,
    }
}

/// The colour of each piece pattern of the view: its declared one, or the
/// next of [`UNDECLARED`] for each glyph not seen before.
fn piece_colours(game: &Game, view: &BoardView) -> Vec<Colour> {
    let mut seen: Vec<String> = Vec::new();
    view.pieces
        .iter()
        .map(|p| {
            p.colour.unwrap_or_else(|| {
                let key = super::show_pattern(game, &p.glyph, &[]);
                let k = seen.iter().position(|s| *s == key).unwrap_or_else(|| {
                    seen.push(key);
                    seen.len() - 1
                });
                UNDECLARED[k % UNDECLARED.len()]
            })
        })
        .collect()
}

/// Marks in order of first use on the cells, each with its style; a mark
/// declared without a colour takes the next of [`UNDECLARED`] from the end
/// (so that its tint differs from the first pieces' colours).
pub fn marks(view: &BoardView) -> Vec<(Sym, MarkStyle)> {
    let mut marks: Vec<(Sym, MarkStyle)> = Vec::new();
    for c in &view.cells {
        for m in &c.marks {
            if !marks.iter().any(|(n, _)| n == m) {
                let declared = view.mark_styles.iter().find(|(n, _)| n == m);
                let style = declared.map_or(MarkStyle::default(), |&(_, s)| s);
                marks.push((*m, style));
            }
        }
    }
    marks
}

/// The colour a mark is drawn in: its own, or one from the end of
/// [`UNDECLARED`] by its place among the marks.
pub fn mark_colour(style: MarkStyle, k: usize) -> Colour {
    style
        .colour
        .unwrap_or(UNDECLARED[UNDECLARED.len() - 1 - k % UNDECLARED.len()])
}

/// Whether an empty cell of this style shows a cross.
pub fn crossed(style: MarkStyle) -> bool {
    style.style == RegionStyle::Marked
}

/// The cells a joint move names, in the order the moves name them: every
/// cell of the view that is one of the moves' terms or a part of one; when
/// there is none, every cell whose name's two arguments are two neighbouring
/// arguments of one, read from the left without overlap (`move(4, 4, 4, 5)`
/// names `sq(4, 4)` then `sq(4, 5)`, not `sq(4, 4)`).
pub fn named_cells(game: &Game, view: &BoardView, moves: &[TermId]) -> Vec<usize> {
    let cell_of: HashMap<TermId, usize> = view
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| game.term_id(&c.name).map(|id| (id, i)))
        .collect();
    let mut named: Vec<usize> = Vec::new();
    let add = |named: &mut Vec<usize>, i: usize| {
        if !named.contains(&i) {
            named.push(i);
        }
    };
    // The moves' terms and their parts, each argument list left to right.
    let mut terms: Vec<TermId> = Vec::new();
    let mut stack: Vec<TermId> = moves.iter().rev().copied().collect();
    while let Some(t) = stack.pop() {
        if terms.contains(&t) {
            continue;
        }
        terms.push(t);
        if let GTerm::App(_, args) = game.terms.term(t) {
            stack.extend(args.iter().rev().copied());
        }
    }
    for t in &terms {
        if let Some(&i) = cell_of.get(t) {
            add(&mut named, i);
        }
    }
    if !named.is_empty() {
        return named;
    }
    let by_pair: HashMap<(TermId, TermId), usize> = view
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match &c.name.kind {
            TermKind::App(_, args) if args.len() == 2 => {
                Some(((game.term_id(&args[0])?, game.term_id(&args[1])?), i))
            }
            _ => None,
        })
        .collect();
    for t in &terms {
        if let GTerm::App(_, args) = game.terms.term(*t) {
            let mut k = 0;
            while k + 1 < args.len() {
                match by_pair.get(&(args[k], args[k + 1])) {
                    Some(&i) => {
                        add(&mut named, i);
                        k += 2;
                    }
                    None => k += 1,
                }
            }
        }
    }
    named
}
