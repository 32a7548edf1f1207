//! The word engine: the ground program as word operations over one array
//! of bits, rule instances that differ only by a position packed into one
//! operation.
//!
//! In: a compiled [`Net`] and the ground atoms and terms it came from. Out:
//! a [`WordProgram`] (shared by threads; `Err` with the reason for a game it
//! does not take) and [`WordMachine`]s, one bit array per thread.
//!
//! Layout: every slot gets a bit of one array. The base facts of one shape
//! (`cell(_, _, _)`) lie on a dense grid over their arguments' values in
//! natural order, so a neighbour on the board is a constant distance away,
//! as on a bitboard. A derived atom is placed when the first family
//! computing it is compiled: at its anchor's position (the family's literal
//! with the most distinct atoms) shifted by one distance per family, so its
//! atoms mirror the anchor's grid.
//!
//! Families: the ground rules of one phase with the same head level, head
//! shape and literal shapes (relation and the functors of its arguments,
//! with the sign), which are the instances of one rule as written. Within
//! a family the instances whose literals and head lie at the same distances
//! from their anchor form one group, evaluated 64 instances per word:
//! `head |= mask & lit1 & !lit2 & ...`, each literal a 64-bit window read
//! at its distance. Instances that do not line up form smaller groups, down
//! to one instance, so every rule is evaluated whatever the layout; the
//! layout only decides how many go into one word.
//!
//! Units: the operations of one level (of the view, then of the `after`
//! phase) that write a common word run together; each unit is filed under
//! the exact bits its operations read. The rules filed under a move
//! (`does`) are packed the same way, per move, and belong to the unit of
//! their head.
//!
//! A step: loading a state copies its words into the grid (shifted, masked
//! word copies; for the state the machine's own `next` computed, copies
//! from its `next` slots), and only the units reading a bit that changed
//! run again, in order, each scheduling the readers of the bits it
//! changed; a role's legal moves are the set bits of its `legal` slots.
//! The next state sets the chosen moves' `does` bits (kept until the next
//! moves) and runs, the same way, the `after` units reading a changed bit
//! and those of the rules filed under the moves made last time and now,
//! then copies the `next` slots' words out; a playout's step
//! ([`WordProgram::play`]) skips that copy and loads the next state from
//! the `next` slots inside the array, and reads
//! the state back from the base slots only where it is needed. Every
//! machine starts from the initial state's bits, and loading the initial
//! state again (a new playout) restores them.
//!
//! Goals: the goal plan's slots outside the view are a phase of their own,
//! compiled after every other operation and run whole when goals are
//! asked; a role's goals are read from its goal slots' bits. Where that
//! cannot be (a goal value computed at play time, a goal slot the `after`
//! phase computes too), the machine runs the goal plan over values copied
//! out of the bits. Holds: the same values as the reference engine's plans
//! (`tests/differential.rs`, `tests/word_steps.rs`). Games with recursive
//! components or numbers computed at play time are not taken (their plans
//! have steps other than single slots).

use super::compile::{BASE0, GoalValue, Net, PlanStep, SLOT_FALSE, SLOT_TRUE};
use super::jit::{Calls, CopyOut, NativeCode, OPS_PER_FUNCTION, Piece, Scatter, WordMove};
use crate::ground::{GTerm, GroundAtom, TermId, TermTable};
use crate::syntax::Symbols;
use indexmap::IndexMap;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::sync::Arc;

/// Bits before the first slot: a guard word, so a shifted copy whose first
/// bit would fall before the array still starts inside it.
const GUARD: u32 = 64;
const FALSE_BIT: u32 = GUARD;
const TRUE_BIT: u32 = GUARD + 1;
const UNPLACED: u32 = u32::MAX;
/// The flag of a literal read as one bit for every instance.
const BROADCAST: u32 = 2;
/// The largest bit array the layout may build.
const MAX_BITS: usize = 1 << 26;
/// A grid or a family's mirrored region is used only while it is at most
/// this many times the atoms it holds (plus a word), else atoms are placed
/// one after the other.
const SPARSENESS: usize = 4;
/// The most words of a role's moves, one bit each, that its legal moves
/// are sorted through (set, then read in order); a role with more moves
/// sorts its list.
const MOVE_ORDER_WORDS: usize = 256;

/// A word copy into the bit array: bits `mask` of source word `word` go
/// `shift` bits further (bit `b` of the source and bit `64 * word + b +
/// shift` of the array). The guard word keeps `64 * word + shift` at or
/// above zero. The source is a state's words or the array itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Transfer {
    pub(super) word: u32,
    pub(super) shift: i64,
    pub(super) mask: u64,
}

/// The packed operations of one phase, level by level.
#[derive(Clone, Debug, Default)]
struct Phase {
    /// Words and masks of the phase's slots, cleared before it runs.
    clear: Vec<(u32, u64)>,
    /// Per level from 1: the range of `ops` holding its operations.
    levels: Vec<(u32, u32)>,
}

/// The operations of one level that write the same words: run together,
/// again only when a bit they read changed.
#[derive(Clone, Copy, Debug)]
struct Unit {
    /// The range of `ops`.
    ops: (u32, u32),
    /// The range of [`Units::heads`]: the words and exact bits it writes.
    heads: (u32, u32),
    /// Its operations' [`Op::cost`], summed.
    cost: u32,
}

/// The units of the view and then of the `after` phase, each phase in
/// level order, and per array word the units reading it with the exact
/// bits each reads there (`fanout[fanout_at[w]..fanout_at[w + 1]]`, in
/// unit order). None when the phases are always run whole (their slots
/// share bits).
#[derive(Clone, Debug, Default)]
struct Units {
    units: Vec<Unit>,
    /// The first unit of the `after` phase.
    first_after: u32,
    heads: Vec<(u32, u64)>,
    fanout_at: Vec<u32>,
    fanout: Vec<(u32, u64)>,
    /// The most words one unit writes.
    widest: usize,
}

impl Units {
    /// Groups every level's operations into units (operations writing a
    /// common word), reordering them so a unit's are contiguous. A level
    /// of `after` also holds the operations of the rules filed under moves
    /// (`triggered`: level and operation), which stay where they are and
    /// are run with their unit when their move is chosen; their units are
    /// returned, in the order of `triggered`.
    fn new(
        ops: &mut [Op],
        lits: &[Lit],
        masks: &[u64],
        phases: [&[(u32, u32)]; 2],
        triggered: &[(u32, u32)],
        words: usize,
    ) -> (Units, Vec<u32>) {
        let mut out = Units::default();
        let mut readers: Vec<Vec<(u32, u64)>> = vec![Vec::new(); words];
        let mut unit_of_triggered = vec![0; triggered.len()];
        for (phase, levels) in phases.into_iter().enumerate() {
            if phase == 1 {
                out.first_after = out.units.len() as u32;
            }
            for (l, &(start, end)) in levels.iter().enumerate() {
                // The level's operations, then its triggered ones (by index
                // into `triggered`, offset by the level's count).
                let own = (end - start) as usize;
                let extra: Vec<usize> = match phase {
                    1 => (0..triggered.len())
                        .filter(|&t| triggered[t].0 == l as u32 + 1)
                        .collect(),
                    _ => Vec::new(),
                };
                let op_at = |k: usize| match k < own {
                    true => start as usize + k,
                    false => triggered[extra[k - own]].1 as usize,
                };
                let count = own + extra.len();
                let heads: Vec<Vec<(u32, u64)>> =
                    (0..count).map(|k| ops[op_at(k)].heads(masks)).collect();
                // Union-find over the level's operations by the words they
                // write.
                let mut parent: Vec<usize> = (0..count).collect();
                fn root(parent: &mut [usize], mut k: usize) -> usize {
                    while parent[k] != k {
                        parent[k] = parent[parent[k]];
                        k = parent[k];
                    }
                    k
                }
                let mut writer: FxHashMap<u32, usize> = FxHashMap::default();
                for (k, words) in heads.iter().enumerate() {
                    for &(w, _) in words {
                        let other = *writer.entry(w).or_insert(k);
                        let (a, b) = (root(&mut parent, k), root(&mut parent, other));
                        parent[a.max(b)] = a.min(b);
                    }
                }
                let mut members: IndexMap<usize, Vec<usize>, FxBuildHasher> = IndexMap::default();
                for k in 0..count {
                    let r = root(&mut parent, k);
                    members.entry(r).or_default().push(k);
                }
                let original = ops[start as usize..end as usize].to_vec();
                let mut at = start;
                for group in members.values() {
                    let unit = out.units.len() as u32;
                    let first_head = out.heads.len() as u32;
                    let written = group.iter().flat_map(|&k| heads[k].iter().copied());
                    let mut merged: Vec<(u32, u64)> = Vec::new();
                    for (w, m) in written {
                        match merged.iter_mut().find(|h| h.0 == w) {
                            Some(h) => h.1 |= m,
                            None => merged.push((w, m)),
                        }
                    }
                    out.widest = out.widest.max(merged.len());
                    out.heads.extend(merged);
                    let first_op = at;
                    for &k in group {
                        let op = match k < own {
                            true => original[k],
                            false => ops[op_at(k)],
                        };
                        for (w, mask) in op.reads(lits, masks) {
                            match readers[w as usize].last_mut() {
                                Some(last) if last.0 == unit => last.1 |= mask,
                                _ => readers[w as usize].push((unit, mask)),
                            }
                        }
                        match k < own {
                            true => {
                                ops[at as usize] = op;
                                at += 1;
                            }
                            false => unit_of_triggered[extra[k - own]] = unit,
                        }
                    }
                    let cost = ops[first_op as usize..at as usize]
                        .iter()
                        .map(Op::cost)
                        .sum();
                    out.units.push(Unit {
                        ops: (first_op, at),
                        heads: (first_head, out.heads.len() as u32),
                        cost,
                    });
                }
            }
        }
        out.fanout_at.push(0);
        for list in readers {
            out.fanout.extend(list);
            out.fanout_at.push(out.fanout.len() as u32);
        }
        (out, unit_of_triggered)
    }
}

/// A role's `legal` slots as words of the array.
#[derive(Clone, Debug, Default)]
struct RoleLegal {
    /// (word, mask of the role's `legal` bits in it).
    words: Vec<(u32, u64)>,
    /// The move of each `legal` bit, from `first` on.
    first: u32,
    move_at: Vec<u32>,
    /// Moves whose `legal` slot is always true.
    always: Vec<u32>,
    /// How moves read in bit order are put into move order.
    order: MoveOrder,
}

/// How a role's legal moves, read in bit order, are put into move order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum MoveOrder {
    /// Bit order is move order and no move is always legal.
    #[default]
    Bits,
    /// Through a bit per move (this many words of the machine's scratch),
    /// set then read in order.
    Set(usize),
    /// By sorting the list.
    Sort,
}

impl RoleLegal {
    /// The role's legal moves in `bits`, in move order, into `out`;
    /// `move_order` is scratch.
    fn list(&self, bits: &[u64], move_order: &mut [u64], out: &mut Vec<u32>) {
        out.clear();
        match self.order {
            MoveOrder::Bits => self.for_each_legal(bits, |m| out.push(m)),
            MoveOrder::Set(words) => {
                self.set_moves(bits, move_order);
                each_move(&move_order[..words], |m| out.push(m));
            }
            MoveOrder::Sort => {
                self.for_each_legal(bits, |m| out.push(m));
                out.extend_from_slice(&self.always);
                out.sort_unstable();
            }
        }
    }

    /// Sets the bit of each legal move in `move_order` (the role's words
    /// cleared first), the always legal ones too ([`MoveOrder::Set`]);
    /// returns how many. Native code does the same
    /// ([`NativeCode::scatter`]).
    #[inline(always)]
    fn set_moves(&self, bits: &[u64], move_order: &mut [u64]) -> usize {
        if let MoveOrder::Set(words) = self.order {
            // Word by word, not `fill`: a call to `memset` costs more than
            // the few words of most roles.
            for word in move_order[..words].iter_mut().filter(|w| **w != 0) {
                *word = 0;
            }
        }
        let mut n = self.always.len();
        let mut set = |m: u32| move_order[(m / 64) as usize] |= 1 << (m % 64);
        self.always.iter().for_each(|&m| set(m));
        self.for_each_legal(bits, |m| {
            set(m);
            n += 1;
        });
        n
    }

    /// Calls `f` with the move of each set `legal` bit, in bit order.
    #[inline(always)]
    fn for_each_legal(&self, bits: &[u64], mut f: impl FnMut(u32)) {
        for &(w, mask) in &self.words {
            let mut set = bits[w as usize] & mask;
            while set != 0 {
                let bit = 64 * w + set.trailing_zeros();
                f(self.move_at[(bit - self.first) as usize]);
                set &= set - 1;
            }
        }
    }
}

/// Calls `f` with the move of each bit set in `move_order`, in order.
#[inline(always)]
fn each_move(move_order: &[u64], mut f: impl FnMut(u32)) {
    for (i, &word) in (0u32..).zip(move_order) {
        let mut moves = word;
        while moves != 0 {
            f(64 * i + moves.trailing_zeros());
            moves &= moves - 1;
        }
    }
}

/// The move of the `k`th bit set in `move_order` (from 0), if any.
fn nth_move(move_order: &[u64], mut k: usize) -> Option<u32> {
    for (i, &word) in (0u32..).zip(move_order) {
        let mut moves = word;
        while moves != 0 {
            if k == 0 {
                return Some(64 * i + moves.trailing_zeros());
            }
            k -= 1;
            moves &= moves - 1;
        }
    }
    None
}

/// The goals as word operations: the goal plan's slots outside the view
/// (a phase run whole when goals are asked), and every role's goal slots
/// with their bits.
#[derive(Clone, Debug)]
struct Goals {
    phase: Phase,
    slots: Vec<(u32, u32)>,
}

/// One move's triggered rules, in unit order (so in level order too).
type Triggered = Vec<TriggeredOp>;

/// The rules filed under a move.
#[derive(Clone, Debug)]
struct MoveRules {
    triggered: Triggered,
    /// The distinct units of `triggered`.
    units: Vec<u32>,
    /// For a phase run whole: the work of its fixed operations (whose bits
    /// [`MoveBits`] holds); its other operations, in level order.
    fixed_cost: u64,
    varying: Triggered,
}

/// Per move, the bits choosing it sets, in one flat table so that a step
/// reads one short run per move: its `does` bit, then the bits its fixed
/// operations set (their `sets`, by word), set as soon as the `after`
/// phase is cleared (a rule's head is read only by higher levels, and
/// every head only gains bits). Each is `(word, mask)`.
#[derive(Clone, Debug, Default)]
struct MoveBits {
    /// Move `i`'s run is `sets[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    sets: Vec<(u32, u64)>,
    /// Per move, whether rules filed under it read more than the move
    /// (`MoveRules::varying` is not empty).
    varying: Vec<bool>,
}

impl MoveBits {
    fn push(&mut self, does_bit: u32, fixed: impl Iterator<Item = (u32, u64)>, varying: bool) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.sets.push((does_bit / 64, 1 << (does_bit % 64)));
        self.sets.extend(fixed);
        self.starts.push(self.sets.len() as u32);
        self.varying.push(varying);
    }

    /// Move `i`'s `does` bit and fixed bits.
    fn all(&self, i: u32) -> &[(u32, u64)] {
        let i = i as usize;
        &self.sets[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Move `i`'s `does` bit.
    fn does(&self, i: u32) -> (u32, u64) {
        self.sets[self.starts[i as usize] as usize]
    }

    /// Move `i`'s fixed bits.
    fn fixed(&self, i: u32) -> &[(u32, u64)] {
        &self.all(i)[1..]
    }
}

/// An operation of a rule filed under a move: its head's level, its unit
/// and its place in `ops`, run when the move is chosen; or, when it reads
/// no bit but the always-true and always-false ones (the `does` literal
/// itself is left out of the rules filed under it), the bits it sets
/// (`sets`: word, and the bits of that word and the next).
#[derive(Clone, Copy, Debug)]
struct TriggeredOp {
    level: u32,
    unit: u32,
    op: u32,
    sets: Option<(u32, u64, u64)>,
}

/// One packed operation: for chunk `c` the 64 head bits from bit `64 *
/// head_word + head_shift + 64c` get `masks[mask + c]` AND every windowed
/// literal's 64 bits, provided every gate holds. With `reduce` the head is
/// one bit, set when any instance holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Op {
    pub(super) head_word: u32,
    pub(super) head_shift: u32,
    pub(super) chunks: u32,
    pub(super) reduce: bool,
    pub(super) mask: u32,
    /// The first chunk's mask (`masks[mask]`), at hand for the operations
    /// of one chunk, most of them.
    pub(super) first_mask: u64,
    /// `lits[start..start + gates]`: literals read as one bit for every
    /// instance; `lits[start + gates..end]`: literals read as 64-bit
    /// windows.
    pub(super) start: u32,
    pub(super) gates: u32,
    pub(super) end: u32,
}

/// A literal: the 64 bits from bit `64 * word + shift` (the bit there for a
/// gate), XOR `invert` (all ones when negated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Lit {
    pub(super) word: u32,
    pub(super) shift: u32,
    pub(super) invert: u64,
}

/// A game compiled to word operations.
#[derive(Clone, Debug)]
pub struct WordProgram {
    words: usize,
    ops: Vec<Op>,
    lits: Vec<Lit>,
    masks: Vec<u64>,
    /// The bit of every slot (`UNPLACED` for slots no phase computes).
    position: Vec<u32>,
    base_clear: Vec<(u32, u64)>,
    /// The state's words into the array.
    load: Vec<Transfer>,
    /// The `next` slots' bits into the base slots' bits, for the state the
    /// machine itself computed last.
    reload: Vec<Transfer>,
    view: Phase,
    units: Units,
    after: Phase,
    /// Per move slot (`first_input + i`): its triggered rules and their
    /// distinct units; and the bits it sets.
    does: Vec<MoveRules>,
    move_bits: MoveBits,
    first_input: u32,
    legal: Vec<RoleLegal>,
    terminal: u32,
    /// Copies of the `next` slots into the next state (by state word).
    next: Vec<Transfer>,
    /// The goals read from the bits, where the program computes them.
    goals: Option<Goals>,
    /// The work of running the view, and the `after` phase, whole.
    whole_cost: (u64, u64),
    /// Whether every load and step runs the phases whole instead of the
    /// units whose input changed ([`WordProgram::run_whole`]).
    whole: bool,
    /// The initial state and a machine's bits once it is loaded and its
    /// `after` phase run with no moves (empty while compiling).
    initial: (Vec<u64>, Vec<u64>),
    /// The operations as native code, once compiled; else interpreted.
    native: Option<Arc<Native>>,
}

/// The native copies out of the loaded state's words and of the next
/// state's ([`NativeCode::copy_out`]).
const STATE_COPY: usize = 0;
const NEXT_COPY: usize = 1;

/// A program's operations as native code ([`super::jit`]) and the
/// functions that run each unit, the whole view and each level of
/// `after`, and the word moves before a phase run whole: loading the
/// state the machine's own `next` slots hold (clearing the view and the
/// base slots, copying the `next` slots in) and clearing the `after`
/// phase. The rules filed under a move stay interpreted: one or two
/// operations each, hundreds of them, their functions would cost more to
/// compile than they save (docs/ENGINES.md, session 14).
#[derive(Debug)]
struct Native {
    code: NativeCode,
    units: Vec<Calls>,
    view: Calls,
    after: Vec<Calls>,
    reload: Calls,
    clear_after: Calls,
    /// Every level of `after`, one after the other (when their operations
    /// are contiguous).
    after_levels: Option<Calls>,
    /// A playout's step after the moves' bits are set, in one function
    /// (where it is short): every level of `after`, the next state loaded,
    /// the `after` phase and the `does` bits cleared, the view.
    step: Option<Calls>,
    /// Per role whose legal moves are put in move order by a bit per move
    /// ([`MoveOrder::Set`]), its scatter's number in the code.
    scatters: Vec<Option<usize>>,
}

/// One thread's bit array and scratch.
#[derive(Clone, Debug)]
pub struct WordMachine {
    bits: Vec<u64>,
    /// Per chosen move, how far its triggered rules have run.
    cursors: Vec<(u32, usize)>,
    /// Whether `bits` hold the view of the state last loaded, and the
    /// `after` phase of the moves last made (`moves`, and `previous`
    /// before them: their `does` bits stay set until the next moves);
    /// when not, the `after` phase and every `does` bit are clear.
    view_loaded: bool,
    after_loaded: bool,
    moves: Vec<u32>,
    previous: Vec<u32>,
    /// The state the last `next` wrote, and whether its `next` slots still
    /// hold it (until the next load).
    last_next: Vec<u64>,
    next_held: bool,
    /// Units to run, one bit each; the words a unit or the load wrote
    /// before.
    scheduled: Vec<u64>,
    saved: Vec<u64>,
    /// A bit per move of the role with the most ([`MoveOrder::Set`]),
    /// scratch, and a role's legal moves drawn from.
    move_order: Vec<u64>,
    listed: Vec<u32>,
    /// The work done so far: [`Op::cost`] per operation run, plus one per
    /// word copied in or out and per `legal` word read.
    work: u64,
    /// The part of `work` spent choosing and running units (their
    /// operations, head words and readers looked at), which a program run
    /// whole ([`WordProgram::run_whole`]) does not spend.
    scheduling: u64,
    /// The part of `work` a playout run whole with native code still does
    /// outside it: reading the `legal` words, and the rules filed under the
    /// moves that read more than their move (the copies in are native code
    /// there, and a playout copies nothing out).
    interpreted: u64,
}

/// The shape of a term: its functors and arities, not its constants.
fn skeleton(terms: &TermTable, t: TermId, out: &mut Vec<u32>) {
    match terms.term(t) {
        GTerm::App(f, args) => {
            out.extend([1, f.0, args.len() as u32]);
            for &a in args.iter() {
                skeleton(terms, a, out);
            }
        }
        _ => out.push(0),
    }
}

/// The leaves (constants and integers) of a term, left to right.
fn leaves(terms: &TermTable, t: TermId, out: &mut Vec<TermId>) {
    match terms.term(t) {
        GTerm::App(_, args) => args.iter().for_each(|&a| leaves(terms, a, out)),
        _ => out.push(t),
    }
}

/// The grid of one shape's atoms: an array over their leaves' values, the
/// leaf with the fewest values most significant (`cell(X, Y, R)`: R, then
/// X and Y, so the squares of one role make one block, as on a bitboard).
struct Grid {
    size: usize,
    /// Whether the atoms fill enough of the grid to be laid out on it.
    dense: bool,
    /// The atoms (slots) of the shape.
    members: Vec<u32>,
}

/// One argument position of a shape on its grid: the rank of each value
/// (an integer's distance from the least, else its place in natural order)
/// and the size, a power of two, so two shapes whose coordinates span
/// 1..8 and 2..7 still have equal strides.
struct Dim {
    rank: FxHashMap<TermId, usize>,
    size: usize,
}

impl Dim {
    fn new(values: impl Iterator<Item = TermId>, terms: &TermTable, symbols: &Symbols) -> Dim {
        let mut values: Vec<TermId> = values.collect();
        values.sort_by(|&a, &b| terms.compare(a, b, symbols));
        values.dedup();
        let ints: Option<Vec<i64>> = values
            .iter()
            .map(|&t| terms.int_value(t, symbols))
            .collect();
        let rank: FxHashMap<TermId, usize> = match ints {
            Some(ints) if ints[ints.len() - 1] - ints[0] < 4 * ints.len() as i64 + 64 => {
                let least = ints[0];
                (values.iter().zip(ints))
                    .map(|(&t, i)| (t, (i - least) as usize))
                    .collect()
            }
            _ => values.iter().enumerate().map(|(r, &t)| (t, r)).collect(),
        };
        let extent = rank.values().max().map_or(1, |&r| r + 1);
        Dim {
            rank,
            size: extent.next_power_of_two(),
        }
    }
}

/// The bit array being laid out.
struct Layout {
    position: Vec<u32>,
    taken: Vec<bool>,
    /// Per slot: its shape (0 for the constants) and its index on the grid.
    shape: Vec<u32>,
    index: Vec<u32>,
    grids: Vec<Grid>,
}

impl Layout {
    fn new(
        net: &Net,
        atoms: &[GroundAtom],
        terms: &TermTable,
        symbols: &Symbols,
    ) -> Result<Layout, &'static str> {
        let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut shape = vec![0; net.slots];
        let mut slot_leaves = vec![Vec::new(); net.slots];
        let mut key = Vec::new();
        for (atom, &slot) in atoms.iter().zip(&net.atom_slot) {
            if slot <= SLOT_TRUE {
                continue;
            }
            key.clear();
            key.extend([atom.rel.0, atom.args.len() as u32]);
            atom.args.iter().for_each(|&a| skeleton(terms, a, &mut key));
            let next = ids.len() as u32 + 1;
            shape[slot as usize] = *ids.entry(key.clone()).or_insert(next);
            let leaves_out = &mut slot_leaves[slot as usize];
            atom.args.iter().for_each(|&a| leaves(terms, a, leaves_out));
        }
        let mut members = vec![Vec::new(); ids.len() + 1];
        for s in BASE0..net.slots as u32 {
            members[shape[s as usize] as usize].push(s);
        }
        let mut index = vec![0; net.slots];
        let mut grids = Vec::with_capacity(members.len());
        for (id, members) in members.into_iter().enumerate() {
            let arity = members
                .first()
                .map_or(0, |&s| slot_leaves[s as usize].len());
            let dims: Vec<Dim> = (0..arity)
                .map(|j| {
                    Dim::new(
                        members.iter().map(|&s| slot_leaves[s as usize][j]),
                        terms,
                        symbols,
                    )
                })
                .collect();
            let size = (dims.iter()).fold(1usize, |acc, d| acc.saturating_mul(d.size));
            let dense = id != 0 && size <= SPARSENESS * members.len() + 64 && size < MAX_BITS;
            if dense {
                let mut order: Vec<&Dim> = dims.iter().collect();
                order.sort_by_key(|d| d.size);
                for &s in &members {
                    let l = &slot_leaves[s as usize];
                    let at = (order.iter()).fold(0, |acc, d| {
                        let j = dims.iter().position(|e| std::ptr::eq(e, *d)).unwrap_or(0);
                        acc * d.size + d.rank[&l[j]]
                    });
                    index[s as usize] = at as u32;
                }
            }
            grids.push(Grid {
                size,
                dense,
                members,
            });
        }
        Ok(Layout {
            position: vec![UNPLACED; net.slots],
            taken: Vec::new(),
            shape,
            index,
            grids,
        })
    }

    fn fresh(&mut self, n: usize) -> Result<u32, &'static str> {
        let start = self.taken.len();
        if start + n > MAX_BITS {
            return Err("the bit array would be too large");
        }
        self.taken.resize(start + n, false);
        Ok(start as u32)
    }

    fn place(&mut self, slot: u32, bit: u32) {
        self.position[slot as usize] = bit;
        self.taken[bit as usize] = true;
    }

    fn place_fresh(&mut self, slot: u32) -> Result<(), &'static str> {
        let bit = self.fresh(1)?;
        self.place(slot, bit);
        Ok(())
    }

    /// Whether a slot's shape is laid out on its grid.
    fn on_grid(&self, slot: u32) -> bool {
        self.grids[self.shape[slot as usize] as usize].dense
    }

    /// Places a slot: with every atom of its shape on their grid where it
    /// is dense, else on the next free bit.
    fn place_slot(&mut self, slot: u32) -> Result<(), &'static str> {
        if !self.on_grid(slot) {
            return self.place_fresh(slot);
        }
        let grid = &self.grids[self.shape[slot as usize] as usize];
        let start = self.fresh(grid.size)?;
        let members = std::mem::take(&mut self.grids[self.shape[slot as usize] as usize].members);
        for &s in &members {
            let bit = start + self.index[s as usize];
            self.place(s, bit);
        }
        Ok(())
    }
}

/// Where an instance's literals lie: per literal `(distance from the
/// anchor, negated)`, or `(bit, negated | BROADCAST)`.
type LitKey = Vec<(i64, u32)>;

/// A ground rule of a phase: head slot and literals (`slot << 1 | negated`).
struct Instance<'n> {
    head: u32,
    lits: &'n [u32],
}

/// Builds the operations of the families of one level.
struct Emitter<'a> {
    layout: &'a mut Layout,
    ops: Vec<Op>,
    lits: Vec<Lit>,
    masks: Vec<u64>,
    /// One past the last bit any operation reads or writes.
    reach: i64,
}

impl Emitter<'_> {
    /// The bits `op` sets, when it reads no bit but the always-true and
    /// always-false ones (an operation of one chunk): (head word, its bits,
    /// the next word's bits).
    fn fixed_sets(&self, op: &Op) -> Option<(u32, u64, u64)> {
        let fixed = |bit: u64| match bit {
            b if b == u64::from(TRUE_BIT) => Some(1u64),
            b if b == u64::from(FALSE_BIT) => Some(0),
            _ => None,
        };
        let (gates, windows) =
            self.lits[op.start as usize..op.end as usize].split_at(op.gates as usize);
        if op.chunks != 1 {
            return None;
        }
        let mut value = op.first_mask;
        for g in gates {
            value &= fixed(64 * u64::from(g.word) + u64::from(g.shift))?.wrapping_neg() ^ g.invert;
        }
        for l in windows {
            let start = 64 * u64::from(l.word) + u64::from(l.shift);
            let mut window = 0;
            for b in 0..64 {
                if value >> b & 1 == 1 {
                    window |= fixed(start + b)? << b;
                }
            }
            value &= window ^ l.invert;
        }
        let (word, shift) = (op.head_word, op.head_shift);
        Some(match (op.reduce, value) {
            (_, 0) => (word, 0, 0),
            (true, _) => (word, 1 << shift, 0),
            (false, _) => (word, value << shift, (value >> 1) >> (63 - shift)),
        })
    }

    fn position(&self, lit: u32) -> Result<u32, &'static str> {
        match self.layout.position[(lit >> 1) as usize] {
            UNPLACED => Err("a rule reads a slot no phase computes"),
            p => Ok(p),
        }
    }

    /// One operation over the instances whose anchors are `anchors`
    /// (sorted, within one run): the head at `head` from the first anchor,
    /// each literal `(at, flags)` at `at` from the anchor, or at bit `at`
    /// for every instance with [`BROADCAST`] in its flags.
    fn emit(&mut self, anchors: &[u32], head: i64, lits: &[(i64, u32)], reduce: bool) {
        let first = anchors[0] as i64;
        let chunks = (anchors[anchors.len() - 1] - anchors[0]) / 64 + 1;
        let span = 64 * chunks as i64 + 64;
        let head = first + head;
        self.reach = self.reach.max(head + span);
        let lit = |bit: i64, flags: u32| Lit {
            word: (bit / 64) as u32,
            shift: (bit % 64) as u32,
            invert: 0u64.wrapping_sub((flags & 1) as u64),
        };
        let start = self.lits.len() as u32;
        for &(at, flags) in lits.iter().filter(|l| l.1 & BROADCAST != 0) {
            self.lits.push(lit(at, flags));
        }
        let gates = self.lits.len() as u32 - start;
        for &(at, flags) in lits.iter().filter(|l| l.1 & BROADCAST == 0) {
            self.lits.push(lit(first + at, flags));
            self.reach = self.reach.max(first + at + span);
        }
        self.ops.push(Op {
            head_word: (head / 64) as u32,
            head_shift: (head % 64) as u32,
            chunks,
            reduce,
            mask: self.masks.len() as u32,
            first_mask: 0,
            start,
            gates,
            end: self.lits.len() as u32,
        });
        let at = self.masks.len();
        self.masks.resize(at + chunks as usize, 0);
        for &a in anchors {
            let bit = a - anchors[0];
            self.masks[at + (bit / 64) as usize] |= 1 << (bit % 64);
        }
        if let Some(op) = self.ops.last_mut() {
            op.first_mask = self.masks[at];
        }
    }

    /// Compiles the rules of a phase's derived `slots` level by level, the
    /// instances of one rule as written making one family, and places the
    /// slots no rule computes.
    fn phase(
        &mut self,
        net: &Net,
        slots: &[u32],
        level: &[u32],
        shape: &[u32],
    ) -> Result<Phase, &'static str> {
        let top = slots.iter().map(|&s| level[s as usize]).max().unwrap_or(0);
        let mut levels = Vec::with_capacity(top as usize);
        for l in 1..=top {
            let start = self.ops.len() as u32;
            let mut families: IndexMap<Vec<u32>, Vec<Instance>, FxBuildHasher> =
                IndexMap::default();
            for &s in slots.iter().filter(|&&s| level[s as usize] == l) {
                for r in slot_rules(net, s) {
                    let lits = rule_body(net, r);
                    let mut key = vec![shape[s as usize]];
                    key.extend(
                        lits.iter()
                            .map(|&l| shape[(l >> 1) as usize] << 1 | (l & 1)),
                    );
                    families
                        .entry(key)
                        .or_default()
                        .push(Instance { head: s, lits });
                }
            }
            for family in families.values() {
                self.family(family)?;
            }
            for &s in slots.iter().filter(|&&s| level[s as usize] == l) {
                if self.layout.position[s as usize] == UNPLACED {
                    self.layout.place_slot(s)?;
                }
            }
            levels.push((start, self.ops.len() as u32));
        }
        let clear = word_masks(slots.iter().map(|&s| self.layout.position[s as usize]));
        Ok(Phase { clear, levels })
    }

    /// The goals read from the bits: the goal plan's slots outside the
    /// view compiled as a phase of their own, after every other operation.
    /// `phase_of` is 1 for a slot the view computes, 2 for one of the
    /// `after` phase. `None`, leaving the program as it was, where that
    /// cannot be: a goal value computed at play time, a goal plan with
    /// steps other than single slots, a slot of the `after` phase in it
    /// (its bits must keep the next state's value), a rule filed under a
    /// move, or an array grown too large.
    fn goals(&mut self, net: &Net, phase_of: &[u8], level: &[u32], shape: &[u32]) -> Option<Goals> {
        let written =
            (net.roles.iter().flat_map(|r| &r.goals)).all(|g| matches!(g.1, GoalValue::Const(_)));
        let plan = single_slots(&net.goal).ok().filter(|_| written)?;
        let own: Vec<u32> = (plan.into_iter())
            .filter(|&s| phase_of[s as usize] != 1)
            .collect();
        let mut is_own = vec![false; net.slots];
        own.iter().for_each(|&s| is_own[s as usize] = true);
        let filed_under_moves = (net.early.iter().chain(&net.triggered))
            .flatten()
            .any(|&(head, _)| is_own[head as usize]);
        let placed = |s: u32| self.layout.position[s as usize] != UNPLACED;
        let reads_unplaced = (own.iter().flat_map(|&s| slot_rules(net, s)))
            .flat_map(|r| rule_body(net, r))
            .any(|&l| !placed(l >> 1) && !is_own[(l >> 1) as usize]);
        if filed_under_moves || reads_unplaced || own.iter().any(|&s| phase_of[s as usize] == 2) {
            return None;
        }
        // Most are placed already, with the other atoms of their grid.
        let unplaced: Vec<u32> = own.iter().copied().filter(|&s| !placed(s)).collect();
        let before = (
            self.ops.len(),
            self.lits.len(),
            self.masks.len(),
            self.reach,
            self.layout.taken.len(),
        );
        let phase = self.phase(net, &own, level, shape);
        let position = &self.layout.position;
        let bit = |s: u32| Some(position[s as usize]).filter(|&b| b != UNPLACED);
        let slots: Option<Vec<(u32, u32)>> = (net.roles.iter().flat_map(|r| &r.goals))
            .map(|&(s, _)| Some((s, bit(s)?)))
            .collect();
        match (phase, slots) {
            (Ok(phase), Some(slots)) => Some(Goals { phase, slots }),
            _ => {
                // Back to the program without the goal phase.
                self.ops.truncate(before.0);
                self.lits.truncate(before.1);
                self.masks.truncate(before.2);
                self.reach = before.3;
                self.layout.taken.truncate(before.4);
                (unplaced.iter()).for_each(|&s| self.layout.position[s as usize] = UNPLACED);
                None
            }
        }
    }

    /// Compiles one family: groups its instances by where their literals
    /// lie from the anchor, places unplaced heads mirroring the anchor (one
    /// region per group), then emits one operation per run of instances
    /// whose heads lie at one distance too.
    fn family(&mut self, family: &[Instance]) -> Result<(), &'static str> {
        let n = family.len();
        let width = family[0].lits.len();
        let distinct = |slots: &mut Vec<u32>| {
            slots.sort_unstable();
            slots.dedup();
            slots.len()
        };
        let columns: Vec<usize> = (0..width)
            .map(|j| distinct(&mut family.iter().map(|f| f.lits[j] >> 1).collect()))
            .collect();
        // A literal on few atoms (`true control(R)`) is read as one bit for
        // all instances; the anchor is the literal on the most atoms.
        let broadcast: Vec<bool> = columns.iter().map(|&d| 4 * d <= n).collect();
        let anchor = (0..width).max_by_key(|&j| (columns[j], std::cmp::Reverse(j)));
        // Many instances per head (`has_move(R) :- can_move(R, M)`): each
        // operation ORs its instances into one head bit.
        let reduce = 4 * distinct(&mut family.iter().map(|f| f.head).collect()) <= n;
        let mut anchors = Vec::with_capacity(n);
        // Instances with the same literals and different heads (x capturing
        // north-east and o south-west read the same two cells) go to
        // different groups, by how many came before, so a group's heads can
        // mirror its anchors.
        let mut by_lits: IndexMap<(LitKey, u32), Vec<usize>, FxBuildHasher> = IndexMap::default();
        let mut seen: FxHashMap<(LitKey, u32), u32> = FxHashMap::default();
        for (k, inst) in family.iter().enumerate() {
            let a = match anchor {
                Some(j) => self.position(inst.lits[j])? as i64,
                None => TRUE_BIT as i64,
            };
            anchors.push(a as u32);
            let mut key = Vec::with_capacity(width.max(1));
            for (j, &l) in inst.lits.iter().enumerate() {
                let bit = self.position(l)? as i64;
                key.push(match broadcast[j] && Some(j) != anchor {
                    true => (bit, l & 1 | BROADCAST),
                    false => (bit - a, l & 1),
                });
            }
            if width == 0 {
                key.push((0, 0)); // an empty body: the anchor is the true bit
            }
            let repeat = seen.entry((key.clone(), a as u32)).or_default();
            by_lits.entry((key, *repeat)).or_default().push(k);
            *repeat += 1;
        }
        for ((lits, _), members) in by_lits {
            self.place_heads(family, &members, &anchors, reduce)?;
            let mut by_head: IndexMap<i64, Vec<u32>, FxBuildHasher> = IndexMap::default();
            for &k in &members {
                let head = self.layout.position[family[k].head as usize] as i64;
                let key = if reduce {
                    head
                } else {
                    head - anchors[k] as i64
                };
                by_head.entry(key).or_default().push(anchors[k]);
            }
            for (head, mut runs) in by_head {
                runs.sort_unstable();
                runs.dedup();
                let mut from = 0;
                for k in 1..=runs.len() {
                    if k == runs.len() || runs[k] - runs[k - 1] > 64 {
                        let head = match reduce {
                            true => head - runs[from] as i64,
                            false => head,
                        };
                        self.emit(&runs[from..k], head, &lits, reduce);
                        from = k;
                    }
                }
            }
        }
        Ok(())
    }

    /// Places the unplaced heads of some instances of a family: on their
    /// shape's grid where it is dense, else (unless the family reduces)
    /// mirroring their anchors in a fresh region where that is not sparse.
    fn place_heads(
        &mut self,
        family: &[Instance],
        members: &[usize],
        anchors: &[u32],
        reduce: bool,
    ) -> Result<(), &'static str> {
        let mut mirror = Vec::new();
        for &k in members {
            let head = family[k].head;
            if self.layout.position[head as usize] != UNPLACED {
                continue;
            }
            if reduce || self.layout.on_grid(head) {
                self.layout.place_slot(head)?;
            } else {
                mirror.push((anchors[k], head));
            }
        }
        // Where the anchors spread too far for one region (a family's
        // instances on two regions of the board), runs of them that fit one
        // are mirrored each in a region of its own.
        mirror.sort_unstable();
        let fits = |run: &[(u32, u32)]| {
            (run[run.len() - 1].0 - run[0].0 + 1) as usize <= SPARSENESS * run.len() + 64
        };
        let mut from = 0;
        for k in 1..=mirror.len() {
            if k == mirror.len() || !fits(&mirror[from..=k]) && !fits(&mirror) {
                self.mirror(&mirror[from..k])?;
                from = k;
            }
        }
        Ok(())
    }

    /// Places the heads of `mirror` (anchor, head) at their anchors'
    /// distances in a fresh region, where that is not sparse; else, and
    /// where a head is placed already, one after the other.
    fn mirror(&mut self, mirror: &[(u32, u32)]) -> Result<(), &'static str> {
        let (Some(&(lo, _)), Some(&(hi, _))) = (mirror.first(), mirror.last()) else {
            return Ok(());
        };
        let span = (hi - lo + 1) as usize;
        let mirrored = span <= SPARSENESS * mirror.len() + 64;
        let start = if mirrored {
            self.layout.fresh(span)?
        } else {
            0
        };
        for &(a, head) in mirror {
            if self.layout.position[head as usize] != UNPLACED {
                continue;
            }
            let bit = start + (a - lo);
            if mirrored && !self.layout.taken[bit as usize] {
                self.layout.place(head, bit);
            } else {
                self.layout.place_fresh(head)?;
            }
        }
        Ok(())
    }
}

/// The words and masks covering some bits.
fn word_masks(bits: impl Iterator<Item = u32>) -> Vec<(u32, u64)> {
    let mut words: FxHashMap<u32, u64> = FxHashMap::default();
    for b in bits {
        *words.entry(b / 64).or_default() |= 1 << (b % 64);
    }
    let mut out: Vec<(u32, u64)> = words.into_iter().collect();
    out.sort_unstable();
    out
}

/// The shifted word copies moving bit `from` to bit `to` for every pair,
/// grouped by the word of `from` and the distance.
fn transfers(pairs: impl Iterator<Item = (u32, u32)>) -> Vec<Transfer> {
    let mut grouped: IndexMap<(u32, i64), u64, FxBuildHasher> = IndexMap::default();
    for (from, to) in pairs {
        *grouped
            .entry((from / 64, to as i64 - from as i64))
            .or_default() |= 1 << (from % 64);
    }
    let mut out: Vec<Transfer> = (grouped.into_iter())
        .map(|((word, shift), mask)| Transfer { word, shift, mask })
        .collect();
    out.sort_by_key(|t| (t.word, t.shift));
    out
}

/// The rules of derived slot `s`.
fn slot_rules(net: &Net, s: u32) -> std::ops::Range<u32> {
    let d = (s - net.first_derived) as usize;
    net.slot_rules[d]..net.slot_rules[d + 1]
}

/// The literals of a rule (`slot << 1 | negated`).
fn rule_body(net: &Net, rule: u32) -> &[u32] {
    &net.lits[net.rule_lits[rule as usize] as usize..net.rule_lits[rule as usize + 1] as usize]
}

/// The slots of a plan, or why the word engine does not take it.
fn single_slots(plan: &[PlanStep]) -> Result<Vec<u32>, &'static str> {
    plan.iter()
        .map(|step| match *step {
            PlanStep::One(s) => Ok(s),
            PlanStep::Fixpoint(..) => Err("it has recursive components"),
            PlanStep::Test(..) => Err("it computes numbers at play time"),
        })
        .collect()
}

impl WordProgram {
    /// Compiles a net, or says why the word engine does not take it.
    pub fn new(
        net: &Net,
        atoms: &[GroundAtom],
        terms: &TermTable,
        symbols: &Symbols,
    ) -> Result<WordProgram, &'static str> {
        let view = single_slots(&net.view)?;
        let after = single_slots(&net.after)?;
        let mut layout = Layout::new(net, atoms, terms, symbols)?;
        layout.fresh(GUARD as usize)?;
        layout.fresh(2)?;
        layout.place(SLOT_FALSE, FALSE_BIT);
        layout.place(SLOT_TRUE, TRUE_BIT);
        for s in BASE0..net.first_derived {
            if layout.position[s as usize] == UNPLACED {
                layout.place_slot(s)?;
            }
        }
        let shape = layout.shape.clone();
        // Rules filed under a move, by head.
        let mut triggered_of: Vec<Vec<(u32, u32)>> = vec![Vec::new(); net.slots];
        for (i, (early, later)) in net.early.iter().zip(&net.triggered).enumerate() {
            for &(head, rule) in early.iter().chain(later) {
                triggered_of[head as usize].push((i as u32, rule));
            }
        }
        let rules_of = |s: u32| slot_rules(net, s);
        let body = |rule: u32| rule_body(net, rule);
        // Levels: one more than the highest slot a rule of the slot reads.
        let mut level = vec![0u32; net.slots];
        for s in net.first_derived..net.slots as u32 {
            let own = rules_of(s).chain(triggered_of[s as usize].iter().map(|t| t.1));
            let reads = own.flat_map(|r| body(r).iter().map(|&l| level[(l >> 1) as usize]));
            level[s as usize] = 1 + reads.max().unwrap_or(0);
        }
        let mut emitter = Emitter {
            layout: &mut layout,
            ops: Vec::new(),
            lits: Vec::new(),
            masks: Vec::new(),
            reach: 0,
        };
        let mut phases = Vec::new();
        for slots in [&view, &after] {
            phases.push(emitter.phase(net, slots, &level, &shape)?);
        }
        // The rules filed under each move, packed as the phases' are (one
        // move's rules differ only by the cells they read, as the phases'
        // instances do), one entry per operation.
        let mut does = Vec::with_capacity(net.triggered.len());
        for (early, later) in net.early.iter().zip(&net.triggered) {
            let mut rules: Vec<(u32, u32)> = (early.iter().chain(later))
                .filter(|&&(head, _)| emitter.layout.position[head as usize] != UNPLACED)
                .copied()
                .collect();
            rules.sort_by_key(|&(head, _)| level[head as usize]);
            let mut ranges = Vec::with_capacity(rules.len());
            for same_level in rules.chunk_by(|a, b| level[a.0 as usize] == level[b.0 as usize]) {
                let mut families: IndexMap<Vec<u32>, Vec<Instance>, FxBuildHasher> =
                    IndexMap::default();
                for &(head, rule) in same_level {
                    let lits = body(rule);
                    let mut key = vec![shape[head as usize]];
                    key.extend(
                        lits.iter()
                            .map(|&l| shape[(l >> 1) as usize] << 1 | (l & 1)),
                    );
                    (families.entry(key).or_default()).push(Instance { head, lits });
                }
                let start = emitter.ops.len() as u32;
                for family in families.values() {
                    emitter.family(family)?;
                }
                let head_level = level[same_level[0].0 as usize];
                ranges.extend((start..emitter.ops.len() as u32).map(|op| TriggeredOp {
                    level: head_level,
                    unit: 0,
                    op,
                    sets: emitter.fixed_sets(&emitter.ops[op as usize]),
                }));
            }
            does.push(MoveRules {
                triggered: ranges,
                units: Vec::new(),
                fixed_cost: 0,
                varying: Vec::new(),
            });
        }
        // Goals from the bits, compiled last so that the other phases'
        // layout does not depend on them.
        let mut phase_of = vec![0u8; net.slots];
        view.iter().for_each(|&s| phase_of[s as usize] = 1);
        after.iter().for_each(|&s| phase_of[s as usize] = 2);
        let goals = emitter.goals(net, &phase_of, &level, &shape);
        let Emitter {
            mut ops,
            lits,
            masks,
            reach,
            ..
        } = emitter;
        let legal = (net.roles.iter())
            .map(|role| role_legal(role.moves.iter().map(|m| m.legal), &layout.position))
            .collect::<Result<_, _>>()?;
        let base_bits = (0..net.base.len() as u32).map(|i| layout.position[(BASE0 + i) as usize]);
        let load = transfers((0..net.base.len() as u32).zip(base_bits.clone()));
        if net
            .next
            .iter()
            .any(|&(s, _)| layout.position[s as usize] == UNPLACED)
        {
            return Err("a `next` slot is in no phase");
        }
        let next = transfers(
            net.next
                .iter()
                .map(|&(s, i)| (i, layout.position[s as usize])),
        );
        let reload = transfers(net.next.iter().map(|&(s, i)| {
            let position = |s: u32| layout.position[s as usize];
            (position(s), position(BASE0 + i))
        }));
        let words = layout.taken.len().max(reach as usize).div_ceil(64) + 2;
        let mut phases = phases.into_iter();
        let (view, after) = (
            phases.next().unwrap_or_default(),
            phases.next().unwrap_or_default(),
        );
        let shared = (view.clear.iter())
            .any(|&(w, m)| (after.clear.iter()).any(|&(v, n)| v == w && m & n != 0));
        let triggered: Vec<(u32, u32)> = (does.iter())
            .flat_map(|d| d.triggered.iter().map(|r| (r.level, r.op)))
            .collect();
        let units = match shared {
            true => Units::default(),
            false => {
                let phases = [&view.levels[..], &after.levels[..]];
                let (units, unit_of) =
                    Units::new(&mut ops, &lits, &masks, phases, &triggered, words);
                let mut unit_of = unit_of.into_iter();
                for d in &mut does {
                    for r in d.triggered.iter_mut() {
                        r.unit = unit_of.next().unwrap_or(0);
                    }
                    d.triggered.sort_by_key(|r| r.unit);
                }
                units
            }
        };
        let mut move_bits = MoveBits::default();
        for (slot, d) in (net.first_input..).zip(&mut does) {
            d.units.extend(d.triggered.iter().map(|r| r.unit));
            d.units.dedup();
            let (fixed, varying): (Triggered, Triggered) =
                d.triggered.iter().partition(|r| r.sets.is_some());
            let sets = fixed.iter().filter_map(|r| r.sets);
            let mut by_word: IndexMap<u32, u64, FxBuildHasher> = IndexMap::default();
            for (w, low, high) in sets {
                *by_word.entry(w).or_default() |= low;
                *by_word.entry(w + 1).or_default() |= high;
            }
            let fixed_bits = by_word.into_iter().filter(|&(_, m)| m != 0);
            let does_bit = layout.position[slot as usize];
            move_bits.push(does_bit, fixed_bits, !varying.is_empty());
            d.fixed_cost = fixed
                .iter()
                .map(|r| u64::from(ops[r.op as usize].cost()))
                .sum();
            d.varying = varying;
            d.varying.sort_by_key(|r| r.level);
        }
        let mut program = WordProgram {
            words,
            ops,
            lits,
            masks,
            base_clear: word_masks(base_bits),
            load,
            reload,
            view,
            units,
            after,
            does,
            move_bits,
            first_input: net.first_input,
            legal,
            terminal: layout.position[net.terminal as usize],
            next,
            goals,
            whole_cost: (0, 0),
            whole: false,
            position: layout.position,
            initial: (Vec::new(), Vec::new()),
            native: None,
        };
        let whole = |phase: &Phase| phase.levels.iter().map(|&(a, b)| program.cost(a, b)).sum();
        program.whole_cost = (whole(&program.view), whole(&program.after));
        // The initial state loaded and its `after` phase run with no moves:
        // where every machine starts, and what a playout's start restores.
        let mut state = vec![0u64; net.base.len().div_ceil(64).max(1)];
        for &i in &net.init {
            state[(i / 64) as usize] |= 1 << (i % 64);
        }
        let mut m = program.machine();
        let mut legal = vec![Vec::new(); net.roles.len()];
        program.load(&mut m, &state, &mut legal);
        program.next(&mut m, std::iter::empty(), &mut vec![0; state.len()]);
        program.initial = (state, m.bits);
        Ok(program)
    }
}

/// A role's `legal` slots as words and a table from bit to move.
fn role_legal(
    legal_slots: impl Iterator<Item = u32>,
    position: &[u32],
) -> Result<RoleLegal, &'static str> {
    let mut out = RoleLegal::default();
    let (mut at, mut moves) = (Vec::new(), 0);
    for (m, s) in legal_slots.enumerate() {
        moves = m + 1;
        match s {
            SLOT_FALSE => {}
            SLOT_TRUE => out.always.push(m as u32),
            _ => match position[s as usize] {
                UNPLACED => return Err("a legal move's slot is in no phase"),
                bit => at.push((bit, m as u32)),
            },
        }
    }
    at.sort_unstable();
    out.order = match !out.always.is_empty() || at.windows(2).any(|w| w[0].1 > w[1].1) {
        false => MoveOrder::Bits,
        true if moves <= 64 * MOVE_ORDER_WORDS => MoveOrder::Set(moves.div_ceil(64)),
        true => MoveOrder::Sort,
    };
    out.words = word_masks(at.iter().map(|a| a.0));
    if let (Some(first), Some(last)) = (at.first(), at.last()) {
        out.first = first.0;
        out.move_at = vec![u32::MAX; (last.0 - first.0 + 1) as usize];
        for &(bit, m) in &at {
            out.move_at[(bit - first.0) as usize] = m;
        }
    }
    Ok(out)
}

impl Op {
    /// Whether the operation may set any bit of `mask` in word `w`.
    fn writes(&self, masks: &[u64], w: u32, mask: u64) -> bool {
        if self.reduce {
            return self.head_word == w && mask >> self.head_shift & 1 == 1;
        }
        let chunk_masks = match self.chunks {
            1 => std::slice::from_ref(&self.first_mask),
            _ => &masks[self.mask as usize..(self.mask + self.chunks) as usize],
        };
        (0u32..).zip(chunk_masks).any(|(c, &chunk)| {
            let at = self.head_word + c;
            let low = chunk << self.head_shift;
            let high = match self.head_shift {
                0 => 0,
                shift => chunk >> (64 - shift),
            };
            (at == w && low & mask != 0) || (at + 1 == w && high & mask != 0)
        })
    }

    /// The operation's work: one, plus one per gate, plus one per windowed
    /// literal and chunk (the counts [`WordMachine::work`] adds up).
    pub(super) fn cost(&self) -> u32 {
        1 + self.gates + self.chunks * (self.end - self.start - self.gates)
    }

    /// The words the operation writes, with the exact bits.
    fn heads(&self, masks: &[u64]) -> Vec<(u32, u64)> {
        let head = 64 * self.head_word + self.head_shift;
        if self.reduce {
            return word_masks(std::iter::once(head));
        }
        let chunk_masks = &masks[self.mask as usize..(self.mask + self.chunks) as usize];
        word_masks(chunk_masks.iter().enumerate().flat_map(|(c, &mask)| {
            (0..64)
                .filter(move |b| mask >> b & 1 == 1)
                .map(move |b| head + 64 * c as u32 + b)
        }))
    }

    /// The words the operation reads, with the bits of them its instances
    /// read (a window's other bits are masked off).
    fn reads(&self, lits: &[Lit], masks: &[u64]) -> Vec<(u32, u64)> {
        let (gates, windows) =
            lits[self.start as usize..self.end as usize].split_at(self.gates as usize);
        let mut out: Vec<(u32, u64)> = gates.iter().map(|g| (g.word, 1 << g.shift)).collect();
        let chunk_masks = &masks[self.mask as usize..(self.mask + self.chunks) as usize];
        for l in windows {
            for (c, &mask) in chunk_masks.iter().enumerate() {
                let w = l.word + c as u32;
                out.push((w, mask << l.shift));
                if l.shift != 0 {
                    out.push((w + 1, mask >> (64 - l.shift)));
                }
            }
        }
        out.retain(|r| r.1 != 0);
        out
    }
}

/// The 64 bits of `bits` from bit `64 * word + shift` on.
#[inline(always)]
fn window(bits: &[u64], word: usize, shift: u32) -> u64 {
    bits[word] >> shift | (bits[word + 1] << 1) << (63 - shift)
}

/// Sets the bits of `value` in `bits` from bit `64 * word + shift` on.
#[inline(always)]
fn or_window(bits: &mut [u64], word: usize, shift: u32, value: u64) {
    bits[word] |= value << shift;
    bits[word + 1] |= (value >> 1) >> (63 - shift);
}

/// Applies word copies from `source` into `bits`.
#[inline(always)]
fn apply(bits: &mut [u64], transfers: &[Transfer], source: impl Fn(&[u64], usize) -> u64) {
    for t in transfers {
        let at = 64 * t.word as i64 + t.shift;
        let value = source(bits, t.word as usize) & t.mask;
        or_window(bits, (at / 64) as usize, (at % 64) as u32, value);
    }
}

impl WordProgram {
    pub fn machine(&self) -> WordMachine {
        let ready = !self.initial.1.is_empty();
        let mut bits = match ready {
            true => self.initial.1.clone(),
            false => vec![0; self.words],
        };
        bits[(TRUE_BIT / 64) as usize] |= 1 << (TRUE_BIT % 64);
        WordMachine {
            bits,
            cursors: Vec::new(),
            view_loaded: ready,
            after_loaded: ready,
            moves: Vec::new(),
            previous: Vec::new(),
            last_next: Vec::new(),
            next_held: false,
            scheduled: vec![0; self.units.units.len().div_ceil(64)],
            saved: vec![0; self.units.widest.max(self.base_clear.len())],
            move_order: vec![0; self.move_order_words()],
            listed: Vec::new(),
            work: 0,
            scheduling: 0,
            interpreted: 0,
        }
    }

    /// The bytes of a machine's bit array and scratch.
    pub fn machine_bytes(&self) -> usize {
        let scratch = self.units.widest.max(self.base_clear.len()) + self.move_order_words();
        8 * (self.words + self.units.units.len().div_ceil(64) + scratch)
    }

    /// The words of [`WordMachine::move_order`].
    fn move_order_words(&self) -> usize {
        (self.legal.iter())
            .map(|role| match role.order {
                MoveOrder::Set(words) => words,
                MoveOrder::Bits | MoveOrder::Sort => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Runs the operations `ops[start..end]`.
    #[inline]
    fn run(&self, bits: &mut [u64], start: u32, end: u32) {
        for op in &self.ops[start as usize..end as usize] {
            let (gates, lits) =
                self.lits[op.start as usize..op.end as usize].split_at(op.gates as usize);
            if gates
                .iter()
                .any(|g| (bits[g.word as usize] >> g.shift ^ g.invert) & 1 == 0)
            {
                continue;
            }
            if op.chunks == 1 {
                let mut word = op.first_mask;
                for l in lits {
                    word &= window(bits, l.word as usize, l.shift) ^ l.invert;
                }
                if word != 0 {
                    match op.reduce {
                        true => bits[op.head_word as usize] |= 1 << op.head_shift,
                        false => or_window(bits, op.head_word as usize, op.head_shift, word),
                    }
                }
                continue;
            }
            let masks = &self.masks[op.mask as usize..(op.mask + op.chunks) as usize];
            for (c, &mask) in masks.iter().enumerate() {
                let mut word = mask;
                for l in lits {
                    word &= window(bits, l.word as usize + c, l.shift) ^ l.invert;
                }
                if word == 0 {
                    continue;
                }
                if op.reduce {
                    bits[op.head_word as usize] |= 1 << op.head_shift;
                    break;
                }
                or_window(bits, op.head_word as usize + c, op.head_shift, word);
            }
        }
    }

    /// Runs an operation of a rule filed under a chosen move, adding its
    /// work to `work` when counting, and to `interpreted` too when it is
    /// interpreted.
    #[inline]
    fn run_triggered<const COUNT: bool>(
        &self,
        bits: &mut [u64],
        rule: &TriggeredOp,
        work: &mut u64,
        interpreted: &mut u64,
    ) {
        match rule.sets {
            Some((w, low, high)) => {
                bits[w as usize] |= low;
                bits[w as usize + 1] |= high;
            }
            None => self.run(bits, rule.op, rule.op + 1),
        }
        if COUNT {
            let cost = self.cost(rule.op, rule.op + 1);
            *work += cost;
            if rule.sets.is_none() {
                *interpreted += cost;
            }
        }
    }

    /// Runs the operations `ops[start..end]`: by the native functions
    /// `calls` picks once the program is compiled, else interpreted.
    #[inline]
    fn run_native_or(
        &self,
        bits: &mut [u64],
        calls: impl FnOnce(&Native) -> Calls,
        start: u32,
        end: u32,
    ) {
        match &self.native {
            Some(native) => native.code.run(bits, calls(native)),
            None => self.run(bits, start, end),
        }
    }

    /// Compiles the operations to native code, which runs them from then
    /// on; when it cannot (no cranelift backend for the host, a failed
    /// compilation, a program over [`super::jit::MAX_WORK`]) the
    /// interpreter goes on, and the reason is returned.
    pub fn compile_native(&mut self) -> Result<(), String> {
        let view_end = self.view.levels.last().map_or(0, |l| l.1);
        let clears = |masks: &[(u32, u64)]| -> Vec<WordMove> {
            (masks.iter())
                .map(|&(word, mask)| WordMove::Clear { word, mask })
                .collect()
        };
        let mut reload = clears(&self.view.clear);
        reload.extend(clears(&self.base_clear));
        reload.extend(self.reload.iter().map(|&t| WordMove::Copy(t)));
        let clear_after = clears(&self.after.clear);
        let plain = |ops: (u32, u32)| Piece {
            ops,
            before: &[],
            then: None,
        };
        let mut pieces: Vec<Piece> = self.units.units.iter().map(|u| plain(u.ops)).collect();
        pieces.push(plain((0, view_end)));
        pieces.extend(self.after.levels.iter().map(|&l| plain(l)));
        for before in [&reload, &clear_after] {
            pieces.push(Piece {
                ops: (view_end, view_end),
                before,
                then: None,
            });
        }
        // Every level of `after` at once, where their operations follow
        // one another (the functions of the levels, reused).
        let levels = &self.after.levels;
        let all_levels = match (levels.first(), levels.last()) {
            (Some(first), Some(last)) if levels.windows(2).all(|w| w[0].1 == w[1].0) => {
                Some((first.0, last.1))
            }
            _ => None,
        };
        pieces.extend(all_levels.map(plain));
        // A playout's whole step in one function, where it is short: every
        // level of `after`, the next state loaded with the `after` phase
        // and the moves' `does` bits cleared behind it, and the view.
        let does_slots = self.first_input..self.first_input + self.does.len() as u32;
        let does_bits = does_slots.map(|s| self.position[s as usize]);
        let clear_does = clears(&word_masks(does_bits));
        let reload_and_clear: Vec<WordMove> = (reload.iter())
            .chain(&clear_after)
            .chain(&clear_does)
            .copied()
            .collect();
        let step = all_levels
            .filter(|&(start, end)| (end - start + view_end) as usize <= OPS_PER_FUNCTION);
        pieces.extend(step.map(|ops| Piece {
            ops,
            before: &[],
            then: Some((&reload_and_clear, (0, view_end))),
        }));
        let mut scatter_of = Vec::with_capacity(self.legal.len());
        let gates: Vec<Vec<Option<Lit>>> = self.legal.iter().map(|r| self.gates(r)).collect();
        let mut scatters = Vec::new();
        for (role, gates) in self.legal.iter().zip(&gates) {
            let MoveOrder::Set(order_words) = role.order else {
                scatter_of.push(None);
                continue;
            };
            scatter_of.push(Some(scatters.len()));
            scatters.push(Scatter {
                words: &role.words,
                gates,
                first: role.first,
                move_at: &role.move_at,
                always: &role.always,
                order_words,
            });
        }
        // The loaded state's words (`state_into`), and the next state's.
        let state_words = self.initial.0.len();
        let copies = [&self.load, &self.next].map(|transfers| CopyOut {
            transfers,
            out_words: state_words,
        });
        let (code, calls) = NativeCode::compile(
            self.words,
            &self.ops,
            &self.lits,
            &self.masks,
            &pieces,
            &scatters,
            &copies,
        )?;
        let mut calls = calls.into_iter();
        let units = calls.by_ref().take(self.units.units.len()).collect();
        let view = calls.next().unwrap_or_default();
        let after = calls.by_ref().take(self.after.levels.len()).collect();
        let (reload, clear_after) = (calls.next(), calls.next());
        let after_levels = all_levels.and_then(|_| calls.next());
        let step = step.and_then(|_| calls.next());
        self.native = Some(Arc::new(Native {
            code,
            units,
            view,
            after,
            reload: reload.unwrap_or_default(),
            clear_after: clear_after.unwrap_or_default(),
            after_levels,
            step,
            scatters: scatter_of,
        }));
        Ok(())
    }

    /// Per word of a role's `legal` bits, a gate every view operation
    /// writing any of them has (the same bit, negated or not), if any:
    /// while it is false, the word holds no legal move of the role.
    fn gates(&self, role: &RoleLegal) -> Vec<Option<Lit>> {
        let view_end = self.view.levels.last().map_or(0, |l| l.1);
        let view = &self.ops[..view_end as usize];
        (role.words.iter())
            .map(|&(w, mask)| {
                let mut writers = view.iter().filter(|op| op.writes(&self.masks, w, mask));
                let first = writers.next()?;
                let gates = |op: &Op| &self.lits[op.start as usize..(op.start + op.gates) as usize];
                let mut common: Vec<Lit> = gates(first).to_vec();
                for op in writers {
                    common.retain(|g| gates(op).contains(g));
                }
                common.first().copied()
            })
            .collect()
    }

    /// Interprets the operations from now on (tests compare the two).
    pub fn interpret(&mut self) {
        self.native = None;
    }

    /// Whether native code runs the operations.
    pub fn is_native(&self) -> bool {
        self.native.is_some()
    }

    /// The work of running the operations `ops[start..end]`.
    fn cost(&self, start: u32, end: u32) -> u64 {
        let ops = &self.ops[start as usize..end as usize];
        ops.iter().map(|op| u64::from(op.cost())).sum()
    }

    /// A machine's bit array.
    pub fn bits<'m>(&self, m: &'m WordMachine) -> &'m [u64] {
        &m.bits
    }

    /// The slot at each placed bit.
    pub fn slot_at_bit(&self) -> FxHashMap<u32, u32> {
        (self.position.iter().enumerate())
            .filter(|&(_, &bit)| bit != UNPLACED)
            .map(|(s, &bit)| (bit, s as u32))
            .collect()
    }

    /// The work a machine has done so far in [`WordProgram::load_counting`]
    /// and [`WordProgram::next_counting`] ([`WordMachine::work`]'s counts).
    pub fn work(&self, m: &WordMachine) -> u64 {
        m.work
    }

    /// The part of [`WordProgram::work`] a program run whole would not
    /// do: choosing and running units.
    pub fn scheduling_work(&self, m: &WordMachine) -> u64 {
        m.scheduling
    }

    /// The part of [`WordProgram::work`] a playout run whole with native
    /// code still interprets ([`WordMachine::interpreted`]).
    pub fn interpreted_work(&self, m: &WordMachine) -> u64 {
        m.interpreted
    }

    /// The work of one load and one step run whole, but for what both ways
    /// share (copies, `legal` words, the rules filed under the moves).
    pub fn whole_work(&self) -> u64 {
        self.whole_cost.0 + self.whole_cost.1
    }

    /// Runs every load and step whole (`true`): each phase's operations
    /// one after the other, with no units to choose and no head words to
    /// compare. With native code that is cheaper for a small program than
    /// choosing the few units a change reaches; the trial decides
    /// ([`super::trial::Trial::whole`]). The same bits either way.
    pub fn run_whole(&mut self, whole: bool) {
        self.whole = whole;
    }

    /// Marks the units reading any of the `changed` bits of word `w` to run;
    /// returns how many readers of the word it looked at (work).
    #[inline]
    fn schedule(&self, scheduled: &mut [u64], w: u32, changed: u64) -> u64 {
        let units = &self.units;
        let readers = units.fanout_at[w as usize]..units.fanout_at[w as usize + 1];
        for &(u, reads) in &units.fanout[readers.start as usize..readers.end as usize] {
            if reads & changed != 0 {
                scheduled[(u / 64) as usize] |= 1 << (u % 64);
            }
        }
        u64::from(readers.end - readers.start)
    }

    /// Runs the scheduled units of `units` in order, each scheduling the
    /// readers of the bits it changed, which are units of higher levels or
    /// of the `after` phase, so further on. An `after` unit also runs the
    /// rules filed under the chosen moves (`cursors`) that are its.
    fn run_scheduled<const COUNT: bool>(&self, m: &mut WordMachine, units: std::ops::Range<u32>) {
        let WordMachine {
            bits,
            scheduled,
            saved,
            cursors,
            work,
            scheduling,
            interpreted,
            ..
        } = m;
        for i in (units.start / 64) as usize..units.end.div_ceil(64) as usize {
            let (lo, hi) = (64 * i as u32, 64 * i as u32 + 64);
            let below_end = match units.end >= hi {
                true => !0,
                false => (1u64 << (units.end - lo)) - 1,
            };
            let in_range = below_end & !((1u64 << (units.start.max(lo) - lo)) - 1);
            while scheduled[i] & in_range != 0 {
                let u = lo + (scheduled[i] & in_range).trailing_zeros();
                scheduled[i] &= !(1 << (u - lo));
                let unit = self.units.units[u as usize];
                let heads = &self.units.heads[unit.heads.0 as usize..unit.heads.1 as usize];
                for (&(w, mask), old) in heads.iter().zip(saved.iter_mut()) {
                    *old = bits[w as usize] & mask;
                    bits[w as usize] &= !mask;
                }
                self.run_native_or(bits, |n| n.units[u as usize], unit.ops.0, unit.ops.1);
                if COUNT {
                    let cost = u64::from(unit.cost) + 2 * heads.len() as u64 + cursors.len() as u64;
                    *work += cost;
                    *scheduling += cost;
                }
                for (i, next) in cursors.iter_mut() {
                    let rules = &self.does[*i as usize].triggered;
                    while rules.get(*next).is_some_and(|r| r.unit < u) {
                        *next += 1;
                    }
                    while let Some(rule) = rules.get(*next).filter(|r| r.unit == u) {
                        self.run_triggered::<COUNT>(bits, rule, work, interpreted);
                        *next += 1;
                    }
                }
                for (&(w, mask), &old) in heads.iter().zip(saved.iter()) {
                    let changed = (bits[w as usize] & mask) ^ old;
                    if changed != 0 {
                        let looked_at = self.schedule(scheduled, w, changed);
                        if COUNT {
                            *work += looked_at;
                            *scheduling += looked_at;
                        }
                    }
                }
            }
        }
    }

    /// Loads a state: its facts into the array, then the view (only the
    /// units whose input changed, once a view is loaded), then every role's
    /// legal moves (in move order).
    pub fn load(&self, m: &mut WordMachine, state: &[u64], legal: &mut [Vec<u32>]) {
        self.load_with::<false>(m, Some(state), Some(legal));
    }

    /// Every role's legal moves in the loaded state (in move order).
    pub fn list_legal(&self, m: &mut WordMachine, legal: &mut [Vec<u32>]) {
        self.legal_into(&m.bits, &mut m.move_order, legal);
    }

    /// Role `role`'s legal move number `draw(n)` in move order, where `n`
    /// is how many it has (at least one; `draw` is not called for one):
    /// the move a list of them would give at that index. `None` when it
    /// has none.
    pub fn draw_legal(
        &self,
        m: &mut WordMachine,
        role: usize,
        draw: impl FnOnce(usize) -> usize,
    ) -> Option<u32> {
        let r = role;
        let role = &self.legal[r];
        let pick = |n: usize| match n {
            0 => None,
            1 => Some(0),
            _ => Some(draw(n)),
        };
        let MoveOrder::Set(words) = role.order else {
            let legal = &mut m.listed;
            role.list(&m.bits, &mut m.move_order, legal);
            return Some(legal[pick(legal.len())?]);
        };
        // As `RoleLegal::list`, keeping only the move drawn.
        let move_order = &mut m.move_order[..words];
        let native = self.native.as_deref();
        match native.and_then(|native| Some((native, native.scatters[r]?))) {
            Some((native, k)) => {
                let n = native.code.scatter(k, &m.bits, move_order);
                match pick(n)? {
                    // The only move: the first bit, found without a count.
                    0 => nth_move(move_order, 0),
                    k => native.code.select(move_order, k),
                }
            }
            None => pick(role.set_moves(&m.bits, move_order)).and_then(|k| nth_move(move_order, k)),
        }
    }

    /// The loaded state's words, read from its base slots.
    pub fn state_into(&self, m: &WordMachine, out: &mut [u64]) {
        self.copy_out(STATE_COPY, &m.bits, &self.load, out);
    }

    /// The words `transfers` read out of `bits` into `out`: by the native
    /// copy `k` where one was compiled for a state's words.
    fn copy_out(&self, k: usize, bits: &[u64], transfers: &[Transfer], out: &mut [u64]) {
        match self.native.as_deref() {
            Some(native) if out.len() == self.initial.0.len() => native.code.copy_out(k, bits, out),
            _ => copy_out(bits, transfers, out),
        }
    }

    /// [`WordProgram::load`], adding its work to the machine's count
    /// ([`WordProgram::work`]).
    pub fn load_counting(&self, m: &mut WordMachine, state: &[u64], legal: &mut [Vec<u32>]) {
        self.load_with::<true>(m, Some(state), Some(legal));
    }

    /// Loads `state`, or with `None` the state the machine's `next` slots
    /// hold (the last step's), and lists the legal moves into `legal` when
    /// given.
    fn load_with<const COUNT: bool>(
        &self,
        m: &mut WordMachine,
        state: Option<&[u64]>,
        legal: Option<&mut [Vec<u32>]>,
    ) {
        let held = std::mem::take(&mut m.next_held);
        let own = held && state.is_none_or(|state| m.last_next[..] == *state);
        let restart = || state.is_some_and(|state| self.initial.0[..] == *state);
        if !own && !self.units.units.is_empty() && restart() {
            // Back to the start (a new playout): the bits of the start.
            m.bits.copy_from_slice(&self.initial.1);
            m.scheduled.iter_mut().for_each(|w| *w = 0);
            m.moves.clear();
            m.previous.clear();
            (m.view_loaded, m.after_loaded) = (true, true);
            if let Some(legal) = legal {
                self.legal_into(&m.bits, &mut m.move_order, legal);
            }
            return;
        }
        let incremental = !self.whole && m.view_loaded && !self.units.units.is_empty();
        match self.native.as_deref().filter(|_| own && !incremental) {
            // The clears and the copies in one native function.
            Some(native) => native.code.run(&mut m.bits, native.reload),
            None => self.copy_in(m, state.filter(|_| !own), incremental),
        }
        if COUNT {
            m.work += match own {
                true => self.reload.len(),
                false => self.load.len(),
            } as u64;
        }
        if incremental {
            for (&(w, mask), &old) in self.base_clear.iter().zip(m.saved.iter()) {
                let changed = (m.bits[w as usize] & mask) ^ old;
                if changed != 0 {
                    let looked_at = self.schedule(&mut m.scheduled, w, changed);
                    if COUNT {
                        m.work += looked_at;
                        m.scheduling += looked_at;
                    }
                }
            }
            m.cursors.clear();
            self.run_scheduled::<COUNT>(m, 0..self.units.first_after);
        } else {
            let end = self.view.levels.last().map_or(0, |l| l.1);
            self.run_native_or(&mut m.bits, |n| n.view, 0, end);
            if COUNT {
                m.work += self.whole_cost.0;
            }
            m.view_loaded = true;
        }
        if let Some(legal) = legal {
            self.legal_into(&m.bits, &mut m.move_order, legal);
        }
        if COUNT {
            let legal_words = self.legal.iter().map(|r| r.words.len() as u64).sum::<u64>();
            m.work += legal_words;
            m.interpreted += legal_words;
        }
    }

    /// Clears the base slots (and the view, when it is run whole) and
    /// copies in `state`'s words, or with `None` the machine's own `next`
    /// slots; when the view is `incremental`, first keeps the base words
    /// (to compare after).
    fn copy_in(&self, m: &mut WordMachine, state: Option<&[u64]>, incremental: bool) {
        if incremental {
            for (&(w, mask), old) in self.base_clear.iter().zip(m.saved.iter_mut()) {
                *old = m.bits[w as usize] & mask;
            }
        } else {
            for &(w, mask) in &self.view.clear {
                m.bits[w as usize] &= !mask;
            }
        }
        let bits = &mut m.bits;
        for &(w, mask) in &self.base_clear {
            bits[w as usize] &= !mask;
        }
        // The machine's own `next` slots (apart from the base slots, which
        // the copies only set), or the state's words.
        match state {
            Some(state) => apply(bits, &self.load, |_, w| state[w]),
            None => apply(bits, &self.reload, |bits, w| bits[w]),
        }
    }

    /// Every role's legal moves (in move order) from the loaded view;
    /// `move_order` is the machine's scratch.
    fn legal_into(&self, bits: &[u64], move_order: &mut [u64], legal: &mut [Vec<u32>]) {
        for (role, out) in self.legal.iter().zip(legal.iter_mut()) {
            role.list(bits, move_order, out);
        }
    }

    /// Whether slot `s` holds in the loaded state (view and base slots).
    pub fn value(&self, m: &WordMachine, s: u32) -> bool {
        match self.position[s as usize] {
            UNPLACED => false,
            bit => m.bits[(bit / 64) as usize] >> (bit % 64) & 1 == 1,
        }
    }

    pub fn is_terminal(&self, m: &WordMachine) -> bool {
        m.bits[(self.terminal / 64) as usize] >> (self.terminal % 64) & 1 == 1
    }

    /// The next state after the moves (their `does` slots) into `out`:
    /// the `after` phase whole the first time, then only the units whose
    /// input changed (the state loaded since, or the moves, whose rules are
    /// run by their units).
    pub fn next(&self, m: &mut WordMachine, does: impl Iterator<Item = u32>, out: &mut [u64]) {
        self.next_with::<false>(m, does, Some(out));
    }

    /// A playout's step: the next state after the moves (their `does`
    /// slots) computed and loaded in place, without copying it out
    /// ([`WordProgram::state_into`] reads it) or listing the legal moves
    /// ([`WordProgram::draw_legal`] draws one). Run whole with native code,
    /// that is the moves' own bits then one native call (`Native::step`,
    /// which leaves the `after` phase and the `does` bits clear for the
    /// next), or four where the step is not one function or a move's rules
    /// are interpreted.
    pub fn play(&self, m: &mut WordMachine, does: impl Iterator<Item = u32>) {
        let Some(native) = self.native.as_deref().filter(|_| self.whole) else {
            self.next_with::<false>(m, does, None);
            self.load_with::<false>(m, None, None);
            return;
        };
        let bits = &mut m.bits[..];
        if m.after_loaded {
            for &i in &m.moves {
                let (w, mask) = self.move_bits.does(i);
                bits[w as usize] &= !mask;
            }
            native.code.run(bits, native.clear_after);
        }
        std::mem::swap(&mut m.moves, &mut m.previous);
        m.moves.clear();
        let mut varying = false;
        for slot in does {
            let i = slot - self.first_input;
            for &(w, mask) in self.move_bits.all(i) {
                bits[w as usize] |= mask;
            }
            varying |= self.move_bits.varying[i as usize];
            m.moves.push(i);
        }
        m.last_next.clear();
        (m.next_held, m.view_loaded) = (false, true);
        if let Some(step) = native.step.filter(|_| !varying) {
            native.code.run(bits, step);
            m.after_loaded = false;
            return;
        }
        match native.after_levels.filter(|_| !varying) {
            Some(calls) => native.code.run(bits, calls),
            None => {
                m.cursors.clear();
                m.cursors.extend(m.moves.iter().map(|&i| (i, 0)));
                let (mut work, mut interpreted) = (0, 0);
                self.run_after_levels::<false>(bits, &mut m.cursors, &mut work, &mut interpreted);
            }
        }
        native.code.run(bits, native.reload);
        native.code.run(bits, native.view);
        m.after_loaded = true;
    }

    /// [`WordProgram::next`], adding its work to the machine's count
    /// ([`WordProgram::work`]).
    pub fn next_counting(
        &self,
        m: &mut WordMachine,
        does: impl Iterator<Item = u32>,
        out: &mut [u64],
    ) {
        self.next_with::<true>(m, does, Some(out));
    }

    fn next_with<const COUNT: bool>(
        &self,
        m: &mut WordMachine,
        does: impl Iterator<Item = u32>,
        out: Option<&mut [u64]>,
    ) {
        let incremental = !self.whole && m.after_loaded && !self.units.units.is_empty();
        let WordMachine {
            bits,
            cursors,
            moves,
            previous,
            scheduled,
            work,
            scheduling,
            interpreted,
            ..
        } = &mut *m;
        std::mem::swap(moves, previous);
        moves.clear();
        moves.extend(does.map(|slot| slot - self.first_input));
        for &i in previous.iter() {
            let (w, mask) = self.move_bits.does(i);
            bits[w as usize] &= !mask;
        }
        for &i in moves.iter() {
            let (w, mask) = self.move_bits.does(i);
            bits[w as usize] |= mask;
        }
        cursors.clear();
        cursors.extend(moves.iter().map(|&i| (i, 0)));
        if incremental {
            // The units of the rules filed under the moves made last time
            // and now, and the readers of the `does` bits that changed.
            let made = (previous.iter().map(|&i| (i, &moves[..])))
                .chain(moves.iter().map(|&i| (i, &previous[..])));
            for (i, other) in made {
                for &u in &self.does[i as usize].units {
                    scheduled[(u / 64) as usize] |= 1 << (u % 64);
                }
                if !other.contains(&i) {
                    let (w, mask) = self.move_bits.does(i);
                    let looked_at = self.schedule(scheduled, w, mask);
                    if COUNT {
                        *work += looked_at;
                        *scheduling += looked_at;
                    }
                }
            }
            let all = self.units.units.len() as u32;
            self.run_scheduled::<COUNT>(m, self.units.first_after..all);
        } else {
            self.run_after_whole::<COUNT>(bits, moves, cursors, work, interpreted);
            m.after_loaded = true;
        }
        if COUNT {
            m.work += self.next.len() as u64;
        }
        m.last_next.clear();
        if let Some(out) = out {
            self.copy_out(NEXT_COPY, &m.bits, &self.next, out);
            m.last_next.extend_from_slice(out);
        }
        m.next_held = true;
    }

    /// The `after` phase run whole for the chosen `moves` (their cursors
    /// at the start of their rules): cleared, the moves' fixed bits set,
    /// then level by level with the moves' other rules of each level, or
    /// all levels in one native call where the moves have no other rule.
    #[inline(always)]
    fn run_after_whole<const COUNT: bool>(
        &self,
        bits: &mut [u64],
        moves: &[u32],
        cursors: &mut [(u32, usize)],
        work: &mut u64,
        interpreted: &mut u64,
    ) {
        match &self.native {
            Some(native) => native.code.run(bits, native.clear_after),
            None => {
                for &(w, mask) in &self.after.clear {
                    bits[w as usize] &= !mask;
                }
            }
        }
        if COUNT {
            *work += self.whole_cost.1;
        }
        let mut varying = false;
        for &i in moves {
            for &(w, mask) in self.move_bits.fixed(i) {
                bits[w as usize] |= mask;
            }
            varying |= self.move_bits.varying[i as usize];
            if COUNT {
                *work += self.does[i as usize].fixed_cost;
            }
        }
        let all_levels = (self.native.as_deref())
            .and_then(|n| Some((n, n.after_levels?)))
            .filter(|_| !varying);
        if let Some((native, calls)) = all_levels {
            native.code.run(bits, calls);
            return;
        }
        self.run_after_levels::<COUNT>(bits, cursors, work, interpreted);
    }

    /// The `after` phase's levels, each followed by the chosen moves'
    /// rules of that level (`cursors`: per move, its next rule).
    #[inline(always)]
    fn run_after_levels<const COUNT: bool>(
        &self,
        bits: &mut [u64],
        cursors: &mut [(u32, usize)],
        work: &mut u64,
        interpreted: &mut u64,
    ) {
        for (l, &(start, end)) in self.after.levels.iter().enumerate() {
            self.run_native_or(bits, |n| n.after[l], start, end);
            let level = l as u32 + 1;
            for (i, next) in cursors.iter_mut() {
                let rules = &self.does[*i as usize].varying;
                while let Some(rule) = rules.get(*next).filter(|r| r.level == level) {
                    self.run_triggered::<COUNT>(bits, rule, work, interpreted);
                    *next += 1;
                }
            }
        }
    }

    /// Whether goals are read from the bits ([`WordProgram::goals_into`]);
    /// otherwise the machine runs the goal plan over the values.
    pub fn reads_goals(&self) -> bool {
        self.goals.is_some()
    }

    /// Computes the goal slots of the loaded state (the goal phase, whole)
    /// and writes their values into `vals` (by slot).
    pub fn goals_into(&self, m: &mut WordMachine, vals: &mut [bool]) {
        let Some(goals) = &self.goals else {
            return;
        };
        for &(w, mask) in &goals.phase.clear {
            m.bits[w as usize] &= !mask;
        }
        for &(start, end) in &goals.phase.levels {
            self.run(&mut m.bits, start, end);
        }
        for &(s, bit) in &goals.slots {
            vals[s as usize] = m.bits[(bit / 64) as usize] >> (bit % 64) & 1 == 1;
        }
    }
}

/// Copies words of the array into a state's words: each transfer's bits of
/// state word `word` from bit `64 * word + shift` of the array.
#[inline(always)]
fn copy_out(bits: &[u64], transfers: &[Transfer], out: &mut [u64]) {
    out.iter_mut().for_each(|w| *w = 0);
    for t in transfers {
        let at = 64 * t.word as i64 + t.shift;
        out[t.word as usize] |= window(bits, (at / 64) as usize, (at % 64) as u32) & t.mask;
    }
}

#[cfg(test)]
mod tests {
    use super::{MoveOrder, RoleLegal, role_legal};

    /// Moves 0..6 of a role: 1 and 4 always legal, 0 never, the others on
    /// bits laid out out of move order (move 5 at bit 0, 2 at bit 1, 3 at
    /// bit 3, 6 at bit 64).
    fn role() -> RoleLegal {
        use super::{SLOT_FALSE, SLOT_TRUE};
        // Slots 2 to 5 (0 and 1 are the always-false and always-true ones).
        let position = [u32::MAX, u32::MAX, 0, 1, 3, 64];
        let slots = [SLOT_FALSE, SLOT_TRUE, 3, 4, SLOT_TRUE, 2, 5];
        role_legal(slots.into_iter(), &position).expect("a role")
    }

    #[test]
    fn every_order_lists_the_moves_in_move_order() {
        let bits = [0b1011, 1];
        assert_eq!(role().order, MoveOrder::Set(1), "out of order");
        for order in [MoveOrder::Set(1), MoveOrder::Sort] {
            let mut role = role();
            role.order = order;
            // The scratch holds whatever its last use left.
            let (mut scratch, mut out) = (vec![!0; 1], Vec::new());
            role.list(&bits, &mut scratch, &mut out);
            assert_eq!(out, [1, 2, 3, 4, 5, 6], "{order:?}");
            role.list(&[0b1000, 0], &mut scratch, &mut out);
            assert_eq!(out, [1, 3, 4], "{order:?}");
        }
    }

    #[test]
    fn bits_in_move_order_are_listed_as_read() {
        let position = [u32::MAX, u32::MAX, 5, 9, 70];
        let role = role_legal([2, 3, 4].into_iter(), &position).expect("a role");
        assert_eq!(role.order, MoveOrder::Bits);
        let mut out = Vec::new();
        role.list(&[1 << 5 | 1 << 9, 1 << 6], &mut [], &mut out);
        assert_eq!(out, [0, 1, 2]);
        role.list(&[1 << 9, 0], &mut [], &mut out);
        assert_eq!(out, [1]);
    }
}
