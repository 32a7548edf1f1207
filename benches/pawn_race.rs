//! The hand-written ceiling for `games/pawn_whopping.rules` (8×8): the same
//! rules as bitboards, the same uniform random choice (the player in
//! control picks uniformly among its moves, or passes with none; control
//! passes after every move), outside the library. Prints playouts per
//! second and the mean length, to set beside
//! `tabula bench games/pawn_whopping.rules --playouts N --seed 1`.
//! Run with `cargo bench --bench pawn_race [-- PLAYOUTS]`.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

const ROW_1: u64 = 0xff;
const ROW_2: u64 = ROW_1 << 8;
const ROW_7: u64 = ROW_1 << 48;
const ROW_8: u64 = ROW_1 << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// One move as (from square, to square).
type Move = (u8, u8);

/// Pawns of x (moving to higher rows) and o; `x_moves` says who is in control.
#[derive(Clone, Copy)]
struct Board {
    x: u64,
    o: u64,
    x_moves: bool,
}

/// The moves of the side `own` moving `up` (x) or down (o), into `out`.
fn moves(own: u64, other: u64, up: bool, out: &mut Vec<Move>) {
    let empty = !(own | other);
    let shift = |b: u64, n: u32| if up { b << n } else { b >> n };
    let (start, step) = (
        if up { ROW_2 } else { ROW_7 },
        8i32 * if up { 1 } else { -1 },
    );
    let mut add = |targets: u64, delta: i32| {
        let mut t = targets;
        while t != 0 {
            let to = t.trailing_zeros() as i32;
            t &= t - 1;
            out.push(((to - delta) as u8, to as u8));
        }
    };
    let single = shift(own, 8) & empty;
    add(single, step);
    add(shift(shift(own & start, 8) & empty, 8) & empty, 2 * step);
    // Captures one column aside, one row forward.
    let (east, west) = if up { (9, 7) } else { (7, 9) };
    add(shift(own & !FILE_H, east) & other, if up { 9 } else { -7 });
    add(shift(own & !FILE_A, west) & other, if up { 7 } else { -9 });
}

/// Plays one random playout; returns its length in joint moves.
fn playout(rng: &mut Xoshiro256PlusPlus, buf: &mut Vec<Move>, other: &mut Vec<Move>) -> u32 {
    let mut b = Board {
        x: ROW_2,
        o: ROW_7,
        x_moves: true,
    };
    let mut length = 0;
    loop {
        if b.x & ROW_8 != 0 || b.o & ROW_1 != 0 || b.x == 0 || b.o == 0 {
            return length;
        }
        buf.clear();
        other.clear();
        let (own, them) = if b.x_moves { (b.x, b.o) } else { (b.o, b.x) };
        moves(own, them, b.x_moves, buf);
        if buf.is_empty() {
            moves(them, own, !b.x_moves, other);
            if other.is_empty() {
                return length; // stuck
            }
        } else {
            let (from, to) = buf[rng.random_range(0..buf.len())];
            let (from, to) = (1u64 << from, 1u64 << to);
            let (own, them) = if b.x_moves {
                (&mut b.x, &mut b.o)
            } else {
                (&mut b.o, &mut b.x)
            };
            *own = *own & !from | to;
            *them &= !to;
        }
        b.x_moves = !b.x_moves;
        length += 1;
    }
}

fn main() {
    let count: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let (mut buf, mut other) = (Vec::with_capacity(64), Vec::with_capacity(64));
    let start = Instant::now();
    let mut steps = 0u64;
    for _ in 0..count {
        steps += playout(&mut rng, &mut buf, &mut other) as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{count} playouts in {secs:.3} s: {:.1} playouts/s, mean length {:.2}",
        count as f64 / secs,
        steps as f64 / count as f64
    );
}
