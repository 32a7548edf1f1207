//! A playout step of the incremental engine allocates nothing: a counting
//! global allocator watches `set_state`, `random_move` and `next_into`
//! over whole random playouts of a shipped game with chance and captures,
//! and of a test game whose goal is a recursive component.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use tabula::engine::{EngineKind, Machine};

struct Counting;

thread_local! {
    /// Allocations made by this thread (tests run on several threads).
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

fn count_one() {
    ALLOCATIONS.with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Plays a random playout with the machine's buffers only; returns the
/// steps played and the allocations they made.
fn play(m: &mut Machine, joint: &mut [u32], seed: u64) -> (u64, [u64; 3]) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = m.game().initial();
    let mut next = state.clone();
    let mut steps = 0;
    let mut made = [0; 3];
    let count = |phase: &mut u64, since: u64| *phase += allocations() - since;
    m.set_state(&state);
    while !m.is_terminal() && steps < 2_000 {
        let since = allocations();
        for (r, j) in joint.iter_mut().enumerate() {
            *j = m.random_move(r, &mut rng).expect("a legal move");
        }
        count(&mut made[0], since);
        let since = allocations();
        m.next_into(joint, &mut next).expect("next state");
        count(&mut made[1], since);
        std::mem::swap(&mut state, &mut next);
        let since = allocations();
        m.set_state(&state);
        count(&mut made[2], since);
        steps += 1;
    }
    (steps, made)
}

fn steps_allocate_nothing(file: &str, engine: EngineKind) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut game = match tabula::load::open(&path, None, &Default::default()) {
        Ok(l) => l.game,
        Err(f) => panic!("{file} does not load: {:?}", f.diagnostics),
    };
    game.set_engine(engine);
    let mut m = game.machine();
    let mut joint = vec![0; game.role_count()];
    let mut steps = 0;
    let mut made = [0; 3];
    for seed in 0..5 {
        let (s, a) = play(&mut m, &mut joint, seed);
        steps += s;
        (0..3).for_each(|i| made[i] += a[i]);
    }
    assert!(steps > 100, "{file}: only {steps} steps played");
    assert_eq!(
        made, [0; 3],
        "{file}: allocations in {steps} steps (random moves, next, set_state)"
    );
}

#[test]
fn a_pawn_race_step_allocates_nothing() {
    steps_allocate_nothing("games/pawn_whopping.rules", EngineKind::Incremental);
}

#[test]
fn a_tablan_step_allocates_nothing() {
    steps_allocate_nothing("games/tablan.rules", EngineKind::Incremental);
}

/// The goal of hexlink reads a recursive component, evaluated again
/// whenever a stone is placed.
#[test]
fn a_step_through_a_recursive_component_allocates_nothing() {
    steps_allocate_nothing("tests/games/hexlink.kif", EngineKind::Incremental);
}
