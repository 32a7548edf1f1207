//! The hand-written pawn race engines of `benches/pawn_race.rs` play the
//! rules of `games/pawn_whopping.rules`: their perft counts equal tabula's
//! to depth 5, so the benchmark compares like with like.

#[path = "../benches/pawn_race/engines.rs"]
#[allow(dead_code)] // the playout is the benchmark's
mod engines;

use engines::{Array, Bitboard, Race, perft};
use std::path::Path;
use tabula::engine::perft::perft as tabula_perft;

#[test]
fn hand_written_engines_count_as_tabula() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/pawn_whopping.rules");
    let Ok(loaded) = tabula::load::open(&path, None, &Default::default()) else {
        panic!("{} does not load", path.display());
    };
    let levels = tabula_perft(&loaded.game, 5, |_| {}).expect("perft");
    let expected: Vec<u64> = levels.iter().map(|l| l.leaves as u64).collect();
    assert_eq!(expected, [1, 16, 256, 3846, 57744, 815760]);
    for depth in 0..=5 {
        let want = expected[depth as usize];
        assert_eq!(
            perft(Bitboard::start(), depth),
            want,
            "bitboard, depth {depth}"
        );
        assert_eq!(perft(Array::start(), depth), want, "array, depth {depth}");
    }
}
