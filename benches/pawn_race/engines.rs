//! Two hand-written engines of `games/pawn_whopping.rules` (8×8), the
//! ceilings tabula is measured against: [`Bitboard`] moves all of a side's
//! pawns with one word operation; [`Array`] keeps an 8×8 array and
//! generates the moves square by square each step. The same rules: x moves
//! up from row 2, o down from row 7, one step forward onto an empty square,
//! two from the start row over two empty squares, a capture one column
//! aside and one row forward; a side reaching the far row or taking the
//! last pawn of the other wins; the side in control with no move passes;
//! neither able to move ends the game. Squares are `8 * row + column`, row
//! 0 on x's side. Shared by `benches/pawn_race.rs` and
//! `tests/pawn_race_engines.rs` (perft against tabula).

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// One move as (from square, to square).
pub type Move = (u8, u8);

/// A pawn race position: who stands where, and whose turn it is.
pub trait Race: Copy {
    fn start() -> Self;
    /// Whether x is the side in control.
    fn x_moves(&self) -> bool;
    /// A pawn on its far row, or a side with no pawns left.
    fn decided(&self) -> bool;
    /// The moves of x (`x`) or of o, appended to `out`.
    fn moves(&self, x: bool, out: &mut Vec<Move>);
    /// The side in control moves; control passes.
    fn play(&mut self, mv: Move);
    /// The side in control has no move; control passes.
    fn pass(&mut self);
}

const ROW_1: u64 = 0xff;
const ROW_2: u64 = ROW_1 << 8;
const ROW_7: u64 = ROW_1 << 48;
const ROW_8: u64 = ROW_1 << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Pawns of x and o as bitboards.
#[derive(Clone, Copy)]
pub struct Bitboard {
    x: u64,
    o: u64,
    x_moves: bool,
}

impl Race for Bitboard {
    fn start() -> Self {
        Bitboard {
            x: ROW_2,
            o: ROW_7,
            x_moves: true,
        }
    }

    fn x_moves(&self) -> bool {
        self.x_moves
    }

    fn decided(&self) -> bool {
        self.x & ROW_8 != 0 || self.o & ROW_1 != 0 || self.x == 0 || self.o == 0
    }

    fn moves(&self, x: bool, out: &mut Vec<Move>) {
        let (own, other) = if x {
            (self.x, self.o)
        } else {
            (self.o, self.x)
        };
        let empty = !(own | other);
        let shift = |b: u64, n: u32| if x { b << n } else { b >> n };
        let (start, step) = (if x { ROW_2 } else { ROW_7 }, if x { 8 } else { -8 });
        let mut add = |targets: u64, delta: i32| {
            let mut t = targets;
            while t != 0 {
                let to = t.trailing_zeros() as i32;
                t &= t - 1;
                out.push(((to - delta) as u8, to as u8));
            }
        };
        add(shift(own, 8) & empty, step);
        add(shift(shift(own & start, 8) & empty, 8) & empty, 2 * step);
        let (east, west) = if x { (9, 7) } else { (7, 9) };
        add(shift(own & !FILE_H, east) & other, if x { 9 } else { -7 });
        add(shift(own & !FILE_A, west) & other, if x { 7 } else { -9 });
    }

    fn play(&mut self, (from, to): Move) {
        let (from, to) = (1u64 << from, 1u64 << to);
        let (own, them) = if self.x_moves {
            (&mut self.x, &mut self.o)
        } else {
            (&mut self.o, &mut self.x)
        };
        *own = *own & !from | to;
        *them &= !to;
        self.x_moves = !self.x_moves;
    }

    fn pass(&mut self) {
        self.x_moves = !self.x_moves;
    }
}

const EMPTY: u8 = 0;
const X: u8 = 1;
const O: u8 = 2;

/// The board as an 8×8 array of squares (empty, x or o).
#[derive(Clone, Copy)]
pub struct Array {
    squares: [[u8; 8]; 8],
    x_moves: bool,
}

impl Race for Array {
    fn start() -> Self {
        let mut squares = [[EMPTY; 8]; 8];
        squares[1] = [X; 8];
        squares[6] = [O; 8];
        Array {
            squares,
            x_moves: true,
        }
    }

    fn x_moves(&self) -> bool {
        self.x_moves
    }

    fn decided(&self) -> bool {
        if self.squares[7].contains(&X) || self.squares[0].contains(&O) {
            return true;
        }
        let has = |side: u8| self.squares.iter().any(|row| row.contains(&side));
        !has(X) || !has(O)
    }

    fn moves(&self, x: bool, out: &mut Vec<Move>) {
        let (own, other, forward, start): (u8, u8, i32, usize) =
            if x { (X, O, 1, 1) } else { (O, X, -1, 6) };
        let square = |row: usize, col: usize| (8 * row + col) as u8;
        for row in 0..8 {
            for col in 0..8 {
                if self.squares[row][col] != own {
                    continue;
                }
                let ahead = row as i32 + forward;
                if !(0..8).contains(&ahead) {
                    continue;
                }
                let ahead = ahead as usize;
                if self.squares[ahead][col] == EMPTY {
                    out.push((square(row, col), square(ahead, col)));
                    let two = (ahead as i32 + forward) as usize;
                    if row == start && self.squares[two][col] == EMPTY {
                        out.push((square(row, col), square(two, col)));
                    }
                }
                for side in [col.wrapping_sub(1), col + 1] {
                    if side < 8 && self.squares[ahead][side] == other {
                        out.push((square(row, col), square(ahead, side)));
                    }
                }
            }
        }
    }

    fn play(&mut self, (from, to): Move) {
        let (from, to) = (from as usize, to as usize);
        self.squares[to / 8][to % 8] = self.squares[from / 8][from % 8];
        self.squares[from / 8][from % 8] = EMPTY;
        self.x_moves = !self.x_moves;
    }

    fn pass(&mut self) {
        self.x_moves = !self.x_moves;
    }
}

/// Plays one uniform random playout (the side in control picks uniformly
/// among its moves); returns its length in joint moves.
pub fn playout<R: Race>(
    rng: &mut Xoshiro256PlusPlus,
    buf: &mut Vec<Move>,
    other: &mut Vec<Move>,
) -> u32 {
    let mut board = R::start();
    let mut length = 0;
    loop {
        if board.decided() {
            return length;
        }
        buf.clear();
        board.moves(board.x_moves(), buf);
        if buf.is_empty() {
            other.clear();
            board.moves(!board.x_moves(), other);
            if other.is_empty() {
                return length; // neither side can move
            }
            board.pass();
        } else {
            board.play(buf[rng.random_range(0..buf.len())]);
        }
        length += 1;
    }
}

/// The joint-move sequences of length `depth` from `board`, ended games
/// not continued (what `tabula perft` counts as leaves).
pub fn perft<R: Race>(board: R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if board.decided() {
        return 0;
    }
    let mut moves = Vec::new();
    board.moves(board.x_moves(), &mut moves);
    if moves.is_empty() {
        board.moves(!board.x_moves(), &mut moves);
        if moves.is_empty() {
            return 0;
        }
        let mut passed = board;
        passed.pass();
        return perft(passed, depth - 1);
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut next = board;
            next.play(mv);
            perft(next, depth - 1)
        })
        .sum()
}
