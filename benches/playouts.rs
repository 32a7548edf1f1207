//! Random playouts from the initial state of each game, one criterion
//! element per playout (so criterion reports playouts per second). Every
//! role, `random` included, picks uniformly among its legal moves from one
//! seeded generator per game. Run with `cargo bench --bench playouts`.

mod common;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Duration;
use tabula::load;
use tabula::syntax::Overrides;

const SEED: u64 = 1;
/// Joint moves after which a playout stops (unfinished).
const MAX_STEPS: u32 = 100_000;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playouts");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sampling_mode(SamplingMode::Flat)
        .throughput(Throughput::Elements(1));
    for game in common::games() {
        let Ok(loaded) = load::open(&game.path, None, &Overrides::new()) else {
            eprintln!("playouts: skipping {} (does not load)", game.label);
            continue;
        };
        let game_ = &loaded.game;
        let initial = game_.initial();
        let mut machine = game_.machine();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        if let Err(e) = machine.playout(&initial, &mut rng, MAX_STEPS) {
            eprintln!("playouts: skipping {} ({e})", game.label);
            continue;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        let mut errors = 0u64;
        group.bench_function(&game.label, |b| {
            b.iter(|| match machine.playout(&initial, &mut rng, MAX_STEPS) {
                Ok(p) => black_box(p.length),
                Err(_) => {
                    errors += 1;
                    0
                }
            })
        });
        if errors > 0 {
            eprintln!(
                "playouts: {}: {errors} playouts ended in a runtime error",
                game.label
            );
        }
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
