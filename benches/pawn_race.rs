//! The hand-written ceilings for `games/pawn_whopping.rules` (8×8): the
//! same rules as bitboards and as an 8×8 array (`pawn_race/engines.rs`),
//! the same uniform random choice, outside the library. Prints playouts per
//! second and the mean length of each, one after the other in one run, to
//! set beside `tabula bench games/pawn_whopping.rules --playouts N --seed 1`.
//! Run with `cargo bench --bench pawn_race [-- PLAYOUTS]`.

#[path = "pawn_race/engines.rs"]
#[allow(dead_code)] // perft is the test's
mod engines;

use engines::{Array, Bitboard, Race};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Plays `count` seeded playouts on one engine and prints the rate.
fn measure<R: Race>(name: &str, count: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let (mut buf, mut other) = (Vec::with_capacity(64), Vec::with_capacity(64));
    let start = Instant::now();
    let mut steps = 0u64;
    for _ in 0..count {
        steps += engines::playout::<R>(&mut rng, &mut buf, &mut other) as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: {count} playouts in {secs:.3} s: {:.1} playouts/s, mean length {:.2}",
        count as f64 / secs,
        steps as f64 / count as f64
    );
}

fn main() {
    let count: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    measure::<Bitboard>("bitboard", count);
    measure::<Array>("array", count);
}
