//! Time to open each game: read, parse, check, ground and compile
//! (`tabula::load::open`). Run with `cargo bench --bench grounding`.

mod common;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tabula::load;
use tabula::syntax::Overrides;

fn grounding(c: &mut Criterion) {
    let mut group = c.benchmark_group("grounding");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sampling_mode(SamplingMode::Flat);
    let overrides = Overrides::new();
    for game in common::games() {
        if load::open(&game.path, None, &overrides).is_err() {
            eprintln!("grounding: skipping {} (does not load)", game.label);
            continue;
        }
        group.bench_function(&game.label, |b| {
            b.iter(|| {
                let loaded = load::open(black_box(&game.path), None, &overrides);
                black_box(loaded.is_ok())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, grounding);
criterion_main!(benches);
