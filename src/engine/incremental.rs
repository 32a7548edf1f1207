//! The event-driven evaluator: a state's view (terminal, legal moves,
//! weights) and its next states by differential propagation between
//! consecutive states.
//!
//! In: a compiled [`Net`]. Out: [`Propagation`] (immutable tables, shared by
//! every machine of a game) and [`Counters`] (one machine's values).
//! Holds: after [`Counters::load`], every slot of the `view` and `after`
//! cones has the value the reference plans compute for that state (with no
//! moves), and [`Counters::next`] gives the reference's next state. Per rule
//! it keeps the number of false literals, per non-recursive derived slot the
//! number of rules that hold; a changed slot updates the rules that read it
//! (fan-out), and slots whose support crosses zero are settled once, in slot
//! order (which is dependency order); a `next` slot that nothing reads flips
//! at once instead (see [`AT_ONCE`]), and a head's rules that pair every part
//! of two halves are counted as the parts (see [`Products`]). A move gates
//! the rules it triggers,
//! and a literal many rules share guards them as a group (see [`Guards`]);
//! a rule that reads a slot of very many readers sleeps while a literal of
//! few readers it also reads is false, and that slot's flips skip it (see
//! [`Keys`]);
//! a `legal` slot that nothing reads and whose rules share one guard is
//! kept without it, and the guard switches the legal list it belongs to
//! instead (see [`deferred_slots`] and [`Segments`]); a recursive component
//! is recomputed with the fixpoint when one of its inputs changes. An
//! aggregate node that a tracked test reads keeps a running count, sum and
//! least or greatest value ([`Running`]); a member slot that flips updates
//! it (a least or greatest value that leaves is found again among the
//! members) and marks the tests that read it, which settle in slot order
//! like any slot ([`Values`]). Goals
//! are computed from the tracked values, only their other slots evaluated.
//! Loading and stepping allocate nothing. [`pays_off`] says from the net's
//! size whether this engine is the faster one for a game.

use super::compile::{BASE0, Net, PlanStep, SLOT_FALSE, SLOT_TRUE, SPLIT};
use super::fixpoint::Scratch;
use crate::ground::numbers::{self, Node};
use crate::syntax::AggOp;
use rustc_hash::{FxHashMap, FxHashSet};

/// No recursive component starts at this slot.
const NOT_COMPONENT: u32 = 0;
/// In `component_end`: the slot is a test ([`Values`]).
const TEST_SLOT: u32 = u32::MAX;
/// In choosing between a copy and a propagation: a flipped base fact
/// costs as much as this many fan-out visits (the derived slots it
/// changes in turn), and one visit as much as copying this many bytes
/// (fitted when a rule's counter took 4 bytes; halved with the counters,
/// so that a copy of as many counters weighs as much as before: at 256,
/// a conformance game of 12,254 rules copied its 2-byte counters at the
/// start of each playout instead of propagating, 6% more instructions).
const FLIP_VISITS: usize = 8;
const VISIT_BYTES: usize = 128;
/// A flip counts the readers of its slot where it is (no call, no saved
/// registers: a small fan-out costs less) when they are fewer than this
/// many, out of line otherwise (a loop of its own keeps its counters'
/// place in a register: inlined in a settle, it reloads it at every reader).
const FEW_READERS: u32 = 16;
/// A rule with no guard.
const NO_GROUP: u32 = u32::MAX;
/// No literal: a rule with no guard, a slot that is not deferred.
const NO_LITERAL: u32 = u32::MAX;
/// While deciding deferred slots: a `legal` slot with no guard seen yet.
const SHARED: u32 = u32::MAX - 1;
/// A literal read by at least this many tracked rules guards them.
const GUARD_MIN_RULES: usize = 8;
/// Products ([`Products`]): a head's rules of one body length are looked
/// at for one from this many rules, with bodies of at most `PRODUCT_MAX_LITS`
/// literals.
const PRODUCT_MIN_RULES: usize = 16;
const PRODUCT_MAX_LITS: usize = 8;
/// The rules of [`AT_ONCE`] heads that read no move take the slower way
/// (see [`Propagation::aside`]) in a game with a product, or where they
/// are at least one in this many of the counted rules: where they are
/// fewer, the flips that a settle would have found unneeded cost more than
/// the settles saved (13-19% more on three shipped dice games).
const ASIDE_SHARE: usize = 5;
/// A product is counted as its parts when it has at least this many times
/// as many rules as parts (products of 8 by 4 parts cost more as parts
/// than as rules).
const PRODUCT_MIN_RATIO: usize = 4;
/// In [`RuleInfo::head`]: a part of a product, the rest its half.
const PART: u32 = 1 << 31;
/// Sleeping rules ([`Keys`]): a rule sleeps when it reads a slot of at
/// least `SLEEP_MIN_READERS` counted readers, or of `SLEEP_MIN_READERS_STATE`
/// when its key is a state fact (one of a family, like the facts that group
/// triggered and early rules), on a key read by at most one in `KEY_RATIO`
/// as many rules; those slots count the sleeping ones among their readers
/// only while they are awake. With any key from 64 or 128 readers one
/// shipped dice game cost 4% more: the visits spared did not cross zero,
/// the wakes cost as much (docs/ENGINES.md, "Session 16").
const SLEEP_MIN_READERS: usize = 256;
const SLEEP_MIN_READERS_STATE: usize = 128;
const KEY_RATIO: usize = 4;

/// The tables propagation reads, built once per game.
#[derive(Clone, Debug)]
pub struct Propagation {
    /// For every slot: what a flip of it visits (see [`SlotInfo`]).
    slot: Vec<SlotInfo>,
    /// The counted rules reading each slot, by [`SlotInfo`]'s ranges.
    fanout: Vec<u32>,
    /// For every slot: the ends of its positive and negative readers in
    /// `fanout` (read by flips out of line and the moves' flips).
    fanout_ends: Vec<[u32; 2]>,
    /// For every slot: the first slots of the recursive tracked components
    /// (other than its own) that read it.
    component_start: Vec<u32>,
    components: Vec<u32>,
    /// For the first slot of a recursive tracked component: its end;
    /// `TEST_SLOT` for a tracked test slot.
    component_end: Vec<u32>,
    /// Per rule, what propagation reads of it (see [`RuleInfo`]).
    rule: Vec<RuleInfo>,
    /// Per rule, what a crossing of zero reads of it (see [`Crossing`]).
    crossing: Vec<Crossing>,
    /// Per word of the guard groups' sets, its group's literal.
    word_guard: Vec<u32>,
    /// The tracked plan: the `view` and `after` cones, in slot order.
    steps: Vec<PlanStep>,
    /// What the goals need beyond the tracked values: the steps of the
    /// net's goal plan that are not tracked, or whose slots are deferred.
    goal: Vec<PlanStep>,
    /// Groups of rules sharing a literal that is not counted for them.
    guards: Guards,
    /// Per bit of the guard groups' sets, its rule's head, or for a rule
    /// with a trigger other than `SLOT_TRUE`, `TRIGGERED` and its place in
    /// `triggered`: what a guard that turns reads of each rule that holds,
    /// without going through the rule's number.
    guarded: Vec<u32>,
    /// The head and trigger of each rule with a trigger other than
    /// `SLOT_TRUE` (see [`Crossing`]).
    triggered: Vec<(u32, u32)>,
    /// The tracked non-recursive slots' rules, triggered ones included.
    rule_start: Vec<u32>,
    rules: Vec<u32>,
    /// For every slot: the moves that follow it (see [`legal_moves`]), at
    /// `moves[move_start[s]..move_start[s + 1]]`.
    move_start: Vec<u32>,
    moves: Vec<(u32, u32)>,
    /// The legal lists, per role and guard.
    segments: Segments,
    /// The deferred `legal` slots (see [`deferred_slots`]).
    deferred: Vec<u32>,
    /// For every slot: the base facts of its `next` atoms.
    next_start: Vec<u32>,
    next: Vec<u32>,
    /// Tracked view slots that depend on the moves: copied to the
    /// machine's values after every load.
    overwritten: Vec<u32>,
    /// The largest recursive tracked component.
    widest: usize,
    /// Whether each slot is computed by the tracked plan.
    tracked: Vec<bool>,
    /// The numbers: see [`Values`].
    values: Values,
    /// The rules counted as products of two halves.
    products: Products,
    /// Whether some rule takes the slower way at its crossings (trigger
    /// `SLOT_FALSE`, see [`RuleInfo`]): the propagation then tests for
    /// them, otherwise its code has no such test.
    aside: bool,
    /// The rules that sleep while their key literal is false.
    keys: Keys,
}

/// What propagation reads of the numbers computed at play time: the
/// aggregates the tracked tests read, the members of each as a fan-out
/// from their slots, and the test slots each aggregate changes.
#[derive(Clone, Debug)]
struct Values {
    /// For every slot: the members (indices into the net's members) it is,
    /// at `members[member_start[s]..member_start[s + 1]]`.
    member_start: Vec<u32>,
    members: Vec<u32>,
    /// The aggregate node, slot and weight of each member of the net.
    member_node: Vec<u32>,
    member_slot: Vec<u32>,
    weight: Vec<i64>,
    /// Every node's operation and members (`Count`, none for a node
    /// that is not an aggregate).
    aggregate: Vec<(AggOp, u32, u32)>,
    /// For every node: the tracked test slots that read it.
    test_start: Vec<u32>,
    tests: Vec<u32>,
    /// For every slot: its test, or `NO_TEST`.
    test_at: Vec<u32>,
}

/// A slot that is not a test.
const NO_TEST: u32 = u32::MAX;

/// What a flip of one slot visits, in one place of 8 bytes so that a
/// flip reads one entry: the counted rules that read it positively,
/// `positive` of them from `fanout[start]`, then negatively, `negative`
/// of them (a slot turning true takes a false literal from the first and
/// gives one to the second), and which of the rarer lists it has (the
/// `HAS_` bits). The counts fit a byte where the flip counts the readers
/// inline (fewer than [`FEW_READERS`]); a slot counted out of line
/// ([`OUT_OF_LINE`]) has its lists' ends in [`Propagation::fanout_ends`].
#[derive(Clone, Copy, Debug, Default)]
struct SlotInfo {
    start: u32,
    flags: u16,
    positive: u8,
    negative: u8,
}

/// [`SlotInfo::flags`]: the slot has moves that follow it, base facts
/// whose `next` it is, guard groups, recursive components reading it,
/// aggregates it is a member of, counted rules reading it.
const HAS_MOVES: u16 = 1;
const HAS_NEXT: u16 = 2;
const HAS_GUARDS: u16 = 4;
const HAS_COMPONENTS: u16 = 8;
const HAS_AGGREGATES: u16 = 16;
const HAS_READERS: u16 = 32;
/// [`SlotInfo::flags`]: the slot is the key of sleeping rules, or has
/// sleeping readers (see [`Keys`]).
const HAS_KEYS: u16 = 128;
const HAS_SLEEPERS: u16 = 256;
/// [`SlotInfo::flags`]: a flip of the slot counts its readers out of line
/// ([`Counters::flip_many`]): it has [`FEW_READERS`] counted readers or
/// more, or sleeping readers or rules (a move's slot has neither).
const OUT_OF_LINE: u16 = 512;
/// The flags a flip of the slot leaves to [`Counters::flip_rarer`].
const RARER: u16 = HAS_GUARDS | HAS_COMPONENTS | HAS_AGGREGATES;
/// The flags of a slot whose flip something reads (most `legal` and
/// `next` slots have none, and their flips stop early).
const READ: u16 = RARER | HAS_READERS | HAS_KEYS | HAS_SLEEPERS;
/// [`SlotInfo::flags`]: the slot is the `next` atom of one base fact, and
/// only that (nothing reads it, it has no moves, it is neither a test nor
/// in a recursive component). No order of flips can matter to it, so a
/// move that makes or takes back a rule of it flips it as soon as its
/// support leaves or reaches zero, not in a settle (a flip costs two
/// writes, less than marking and settling it); so do its other rules'
/// crossings where the game takes the slower way ([`Propagation::aside`]).
/// Its entry's `start` is that base fact.
const AT_ONCE: u16 = 64;
/// [`SlotInfo::flags`]: the slot is a test or starts a recursive
/// component (its `component_end` says which), so a settle does not
/// decide it by its support. The common settle reads only the entry.
const SETTLED_APART: u16 = 1024;

impl Values {
    fn new(net: &Net, steps: &[PlanStep]) -> Values {
        let numbers = &net.numbers;
        let mut member_node = vec![0; numbers.members.len()];
        for (n, node) in numbers.nodes.iter().enumerate() {
            if let Node::Agg(_, a, b) = *node {
                member_node[a as usize..b as usize].fill(n as u32);
            }
        }
        let mut test_at = vec![NO_TEST; net.slots];
        let mut watched = vec![false; numbers.nodes.len()];
        let (mut member_pairs, mut test_pairs, mut aggregates) =
            (Vec::new(), Vec::new(), Vec::new());
        for &step in steps {
            let PlanStep::Test(s, t) = step else { continue };
            test_at[s as usize] = t;
            aggregates.clear();
            numbers::test_aggregates(&numbers.nodes, numbers.tests[t as usize], &mut aggregates);
            for &n in &aggregates {
                test_pairs.push((n, s));
                if let (Node::Agg(_, a, b), false) =
                    (numbers.nodes[n as usize], watched[n as usize])
                {
                    watched[n as usize] = true;
                    member_pairs.extend((a..b).map(|m| (numbers.members[m as usize].0, m)));
                }
            }
        }
        let (member_start, members) = grouped(net.slots, &member_pairs);
        let (test_start, tests) = grouped(numbers.nodes.len(), &test_pairs);
        Values {
            member_start,
            members,
            member_node,
            member_slot: numbers.members.iter().map(|m| m.0).collect(),
            weight: numbers.members.iter().map(|m| m.1).collect(),
            aggregate: (numbers.nodes.iter())
                .map(|node| match *node {
                    Node::Agg(op, a, b) => (op, a, b),
                    _ => (AggOp::Count, 0, 0),
                })
                .collect(),
            test_start,
            tests,
            test_at,
        }
    }

    fn members_of(&self, s: u32) -> &[u32] {
        &self.members
            [self.member_start[s as usize] as usize..self.member_start[s as usize + 1] as usize]
    }

    fn tests_of(&self, node: u32) -> &[u32] {
        &self.tests
            [self.test_start[node as usize] as usize..self.test_start[node as usize + 1] as usize]
    }

    /// The running value of aggregate `node` computed from its members in
    /// `vals`.
    fn rescan(&self, vals: &[bool], node: u32) -> Running {
        let (op, a, b) = self.aggregate[node as usize];
        let mut r = Running::default();
        for m in a as usize..b as usize {
            if !vals[self.member_slot[m] as usize] {
                continue;
            }
            r.add(op, self.weight[m]);
        }
        r
    }
}

/// One aggregate node's running value: how many members hold, the sum
/// of their weights, and the least or greatest weight among them.
#[derive(Clone, Copy, Debug, Default)]
struct Running {
    count: i64,
    sum: i128,
    extreme: i64,
}

impl Running {
    /// Counts one more member of weight `w`.
    fn add(&mut self, op: AggOp, w: i64) {
        self.count += 1;
        self.sum += i128::from(w);
        self.extreme = match (op, self.count) {
            (_, 1) => w,
            (AggOp::Min, _) => self.extreme.min(w),
            _ => self.extreme.max(w),
        };
    }

    /// The aggregate's value, as [`NetNumbers::fold`] gives it.
    fn value(&self, op: AggOp) -> Option<i64> {
        match op {
            AggOp::Count => Some(self.count),
            AggOp::Sum => i64::try_from(self.sum).ok(),
            AggOp::Min | AggOp::Max => (self.count > 0).then_some(self.extreme),
        }
    }
}

/// What propagation reads of a rule, together in one place.
#[derive(Clone, Copy, Debug)]
struct RuleInfo {
    /// Its head slot (`u32::MAX` for a rule that is not tracked), or for a
    /// part of a product `PART | half` (see [`Products`]).
    head: u32,
    /// For a move-triggered rule: the slot of its move (`SLOT_TRUE` for a
    /// rule that reads no move). `SLOT_FALSE` for a rule whose crossing of
    /// zero takes the slower way (see [`Counters::satisfied_aside`]): a
    /// part of a product, or a rule reading no move whose head is
    /// [`AT_ONCE`].
    trigger: u32,
    /// Its bit in the guard groups' sets (`NO_GROUP` for a rule in no
    /// group; see [`Guards`]) and the group's literal (`SLOT_TRUE` for
    /// none, which always holds).
    place: u32,
    guard: u32,
}

/// What a crossing of zero reads of a counted rule, in half the bytes of
/// a [`RuleInfo`] (the crossings' reads are spread over the rules, and
/// the smaller table stays closer in the caches): its head, and its bit in
/// the guard groups' sets (`UNGROUPED` for none; its guard is the word's,
/// [`Propagation::word_guard`]). A rule with a trigger other than
/// `SLOT_TRUE` has `TRIGGERED` set in `place`, and its `head` is its
/// place in [`Propagation::triggered`], which holds its head and trigger.
#[derive(Clone, Copy, Debug)]
struct Crossing {
    head: u32,
    place: u32,
}

/// [`Crossing::place`]: no guard group (the sets' bits, one per grouped
/// rule, stay below it); the rule has a trigger (also in
/// [`Propagation::guarded`]).
const UNGROUPED: u32 = (1 << 30) - 1;
const TRIGGERED: u32 = 1 << 31;
/// [`Crossing::place`]: the rule's trigger is `SLOT_FALSE` (it takes the
/// slower way, [`Counters::satisfied_aside`]); its `head` is its head.
const SLOWER: u32 = 1 << 30;

/// The view cone size (rules) from which the incremental engine is the
/// default. Below it a step's fixed costs dominate and the reference's
/// rule scan is faster (views of 5 and 14 rules); from it up most measured
/// games are faster on the incremental engine (views of 26 to 53,242
/// rules), a few a little slower (those whose moves change much of a
/// small view); docs/ENGINES.md's Speed section names the games.
const INCREMENTAL_VIEW_RULES: usize = 20;

/// Whether the incremental engine is expected to be faster than the
/// reference on this net: the reference re-derives the whole view cone
/// every state, so a large cone is what propagation saves. Never for a
/// net it cannot count ([`counts`]).
pub fn pays_off(net: &Net) -> bool {
    counts(net) && net.plan_rules(&net.view) >= INCREMENTAL_VIEW_RULES
}

/// Whether the incremental engine can run this net: a rule's false
/// literals are counted in 16 bits ([`Counters`]), so no body may have more
/// than `u16::MAX` literals.
pub fn counts(net: &Net) -> bool {
    (net.rule_lits.windows(2)).all(|w| w[1] - w[0] <= u32::from(u16::MAX))
}

/// The view and after plans merged, in slot order.
fn tracked_steps(net: &Net) -> Vec<PlanStep> {
    let first = |step: &PlanStep| match *step {
        PlanStep::One(s) | PlanStep::Fixpoint(s, _) | PlanStep::Test(s, _) => s,
    };
    let mut steps: Vec<PlanStep> = net.view.iter().chain(&net.after).copied().collect();
    steps.sort_by_key(first);
    steps.dedup();
    steps
}

fn step_slots(step: PlanStep) -> std::ops::Range<u32> {
    match step {
        PlanStep::One(s) | PlanStep::Test(s, _) => s..s + 1,
        PlanStep::Fixpoint(a, b) => a..b,
    }
}

/// Compressed lists: `items` of key `k` are `items[start[k]..start[k + 1]]`.
fn grouped(keys: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; keys + 1];
    for &(k, _) in pairs {
        start[k as usize + 1] += 1;
    }
    for k in 0..keys {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut items = vec![0u32; pairs.len()];
    for &(k, v) in pairs {
        items[fill[k as usize] as usize] = v;
        fill[k as usize] += 1;
    }
    (start, items)
}

/// Every move-triggered rule that is not early, as (head, rule, move
/// slot). Early rules read only the state and move-independent view slots,
/// which stay fixed while a move is made, so they are evaluated when their
/// move is made, not counted.
fn triggered_rules(net: &Net) -> Vec<(u32, u32, u32)> {
    net.triggered
        .iter()
        .enumerate()
        .flat_map(|(i, list)| {
            let does = net.first_input + i as u32;
            list.iter().map(move |&(head, rule)| (head, rule, does))
        })
        .collect()
}

impl Propagation {
    pub fn new(net: &Net) -> Propagation {
        let steps = tracked_steps(net);
        let mut component_end = vec![NOT_COMPONENT; net.slots];
        let mut owner = vec![u32::MAX; net.slots];
        let mut widest = 0;
        let mut own_rules = Vec::new();
        let mut tracked = vec![false; net.slots];
        for &step in &steps {
            step_slots(step).for_each(|s| tracked[s as usize] = true);
            if let PlanStep::Fixpoint(a, b) = step {
                component_end[a as usize] = b;
                (a..b).for_each(|s| owner[s as usize] = a);
                widest = widest.max((b - a) as usize);
            }
            for s in step_slots(step) {
                own_rules.extend(rules_of(net, s).map(|r| (s, r)));
            }
        }
        let mut trigger = vec![SLOT_TRUE; net.rule_lits.len() - 1];
        for (head, rule, does) in triggered_rules(net) {
            trigger[rule as usize] = does;
            if tracked[head as usize] && owner[head as usize] == u32::MAX {
                own_rules.push((head, rule));
            }
        }
        let (rule_start, rules) = grouped(net.slots, &own_rules);
        let (mut head, mut counted, component_reads) = readers(net, &own_rules, &owner);
        let products = Products::new(net, &own_rules, &owner, &trigger);
        for &rule in &products.replaced {
            head[rule as usize] = u32::MAX;
        }
        counted.retain(|&rule| head[rule as usize] != u32::MAX);
        let mut read_by = vec![false; net.slots];
        let early = net.early.iter().chain(&net.triggered).flatten();
        for rule in counted.iter().copied().chain(early.map(|&(_, r)| r)) {
            body(net, rule)
                .iter()
                .for_each(|&l| read_by[(l >> 1) as usize] = true);
        }
        component_reads
            .iter()
            .for_each(|&(slot, _)| read_by[slot as usize] = true);
        let skip = guard_literals(net, &counted);
        let deferred = deferred_slots(net, &own_rules, &owner, &skip, &trigger, &read_by);
        let guards = Guards::new(net, skip, &deferred, &head);
        let source = mirrored(net, &own_rules, &deferred, &guards);
        // A mirrored slot's rule is not counted: its moves follow its source.
        for &(s, rule) in &own_rules {
            if source[s as usize] != NO_LITERAL {
                head[rule as usize] = u32::MAX;
            }
        }
        counted.retain(|&rule| head[rule as usize] != u32::MAX);
        let mut reads = counted_reads(net, &counted, &guards);
        products.reads(&mut reads);
        let mut rule: Vec<RuleInfo> = (0..head.len())
            .map(|r| RuleInfo {
                head: head[r],
                trigger: trigger[r],
                place: guards.place[r],
                guard: match guards.group[r] {
                    NO_GROUP => SLOT_TRUE << 1,
                    g => guards.literal[g as usize],
                },
            })
            .collect();
        products.rules(&mut rule);
        let moves = net.first_input..net.first_input + net.early.len() as u32;
        let state = BASE0..BASE0 + net.base.len() as u32;
        let keys = Keys::new(
            net.slots,
            &mut reads,
            &rule,
            products.first_rule,
            &owner,
            [state, moves],
        );
        let (fanout_start, fanout) = grouped(2 * net.slots, &reads);
        let (component_start, components) = grouped(net.slots, &component_reads);
        let (move_start, moves, segments) = legal_moves(net, &deferred, &source);
        let next_pairs: Vec<(u32, u32)> = net.next.to_vec();
        let (next_start, next) = grouped(net.slots, &next_pairs);
        let mut early_heads = vec![false; net.slots];
        net.early
            .iter()
            .flatten()
            .for_each(|&(h, _)| early_heads[h as usize] = true);
        let overwritten = move_dependent(net, &steps, &own_rules, &trigger, &early_heads);
        let values = Values::new(net, &steps);
        let mut fanout_ends: Vec<[u32; 2]> = (0..net.slots)
            .map(|s| [fanout_start[2 * s + 1], fanout_start[2 * s + 2]])
            .collect();
        let mut slot = (0..net.slots)
            .map(|s| {
                let listed = |start: &[u32], flag: u16| match start[s] != start[s + 1] {
                    true => flag,
                    false => 0,
                };
                SlotInfo {
                    start: fanout_start[2 * s],
                    positive: 0,
                    negative: 0,
                    flags: listed(&move_start, HAS_MOVES)
                        | listed(&next_start, HAS_NEXT)
                        | listed(&guards.slot_start, HAS_GUARDS)
                        | listed(&component_start, HAS_COMPONENTS)
                        | listed(&values.member_start, HAS_AGGREGATES)
                        | listed(&keys.key_start, HAS_KEYS)
                        | match keys.section[s][0] != keys.section[s][2] {
                            true => HAS_SLEEPERS,
                            false => 0,
                        }
                        | match fanout_start[2 * s] != fanout_start[2 * s + 2] {
                            true => HAS_READERS,
                            false => 0,
                        },
                }
            })
            .collect::<Vec<_>>();
        for (info, &[middle, end]) in slot.iter_mut().zip(&fanout_ends) {
            match end - info.start >= FEW_READERS || info.flags & (HAS_KEYS | HAS_SLEEPERS) != 0 {
                true => info.flags |= OUT_OF_LINE,
                false => {
                    info.positive = (middle - info.start) as u8;
                    info.negative = (end - middle) as u8;
                }
            }
        }
        for (s, &t) in values.test_at.iter().enumerate() {
            if t != NO_TEST {
                component_end[s] = TEST_SLOT;
            }
        }
        for (s, info) in slot.iter_mut().enumerate() {
            let facts = &next[next_start[s] as usize..next_start[s + 1] as usize];
            if let ([i], HAS_NEXT) = (facts, info.flags)
                && owner[s] == u32::MAX
                && component_end[s] == NOT_COMPONENT
                && s >= net.first_derived as usize
            {
                *info = SlotInfo {
                    start: *i,
                    positive: 0,
                    negative: 0,
                    flags: AT_ONCE | HAS_NEXT,
                };
                fanout_ends[s] = [*i, *i];
            }
        }
        for (info, &end) in slot.iter_mut().zip(&component_end) {
            if end != NOT_COMPONENT {
                info.flags |= SETTLED_APART;
            }
        }
        let at_once = |info: &RuleInfo| {
            let h = info.head;
            h != u32::MAX && h & PART == 0 && slot[h as usize].flags & AT_ONCE != 0
        };
        let plain_at_once = (rule.iter())
            .filter(|&info| info.trigger == SLOT_TRUE && at_once(info))
            .count();
        let counted_rules = rule.iter().filter(|info| info.head != u32::MAX).count();
        if !products.head.is_empty() || plain_at_once * ASIDE_SHARE >= counted_rules {
            for info in rule.iter_mut() {
                if info.trigger == SLOT_TRUE && at_once(info) {
                    info.trigger = SLOT_FALSE;
                }
            }
        }
        let aside = rule.iter().any(|info| info.trigger == SLOT_FALSE);
        let mut triggered = Vec::new();
        let mut triggered_at = vec![0; rule.len()];
        let crossing: Vec<Crossing> = (rule.iter().enumerate())
            .map(|(r, info)| {
                let place = match info.place {
                    NO_GROUP => UNGROUPED,
                    place => place,
                };
                if info.trigger != SLOT_TRUE {
                    triggered_at[r] = triggered.len() as u32;
                    triggered.push((info.head, info.trigger));
                }
                match info.trigger {
                    SLOT_TRUE => Crossing {
                        head: info.head,
                        place,
                    },
                    SLOT_FALSE => Crossing {
                        head: info.head,
                        place: place | SLOWER,
                    },
                    _ => Crossing {
                        head: triggered_at[r],
                        place: place | TRIGGERED,
                    },
                }
            })
            .collect();
        let mut word_guard = vec![SLOT_TRUE << 1; guards.member.len() / 64];
        for (g, &literal) in guards.literal.iter().enumerate() {
            guards.words(g).for_each(|w| word_guard[w] = literal);
        }
        let guarded = (guards.member.iter())
            .map(|&r| match rule[r as usize] {
                RuleInfo {
                    head,
                    trigger: SLOT_TRUE,
                    ..
                } => head,
                _ => triggered_at[r as usize] | TRIGGERED,
            })
            .collect();
        let goal = (net.goal.iter().copied())
            .filter(|&step| {
                step_slots(step).any(|s| !tracked[s as usize] || deferred[s as usize] != NO_LITERAL)
            })
            .collect();
        Propagation {
            goal,
            slot,
            fanout,
            fanout_ends,
            component_start,
            components,
            component_end,
            rule,
            crossing,
            word_guard,
            triggered,
            steps,
            guards,
            guarded,
            rule_start,
            rules,
            move_start,
            moves,
            segments,
            deferred: (0..net.slots as u32)
                .filter(|&s| deferred[s as usize] != NO_LITERAL)
                .collect(),
            next_start,
            next,
            overwritten,
            widest,
            tracked,
            values,
            aside,
            products,
            keys,
        }
    }

    /// The steps that compute the goals from the tracked values of a
    /// loaded state.
    pub fn goal_plan(&self) -> &[PlanStep] {
        &self.goal
    }

    /// The counted readers of slot `s` (whose entry is `slot`), positive
    /// and negative.
    #[inline(always)]
    fn readers(&self, s: u32, slot: SlotInfo) -> (&[u32], &[u32]) {
        let start = slot.start as usize;
        let [middle, end] = match slot.flags & OUT_OF_LINE {
            0 => {
                let middle = start + slot.positive as usize;
                [middle, middle + slot.negative as usize]
            }
            _ => self.fanout_ends[s as usize].map(|e| e as usize),
        };
        (&self.fanout[start..middle], &self.fanout[middle..end])
    }

    /// The moves that follow slot `s` (see [`legal_moves`]).
    fn moves_of(&self, s: u32) -> &[(u32, u32)] {
        &self.moves[self.move_start[s as usize] as usize..self.move_start[s as usize + 1] as usize]
    }

    /// The base facts whose `next` atom is slot `s`.
    fn next_of(&self, s: u32) -> &[u32] {
        &self.next[self.next_start[s as usize] as usize..self.next_start[s as usize + 1] as usize]
    }

    /// The rules of a tracked non-recursive slot, triggered ones included.
    fn rules_of(&self, s: u32) -> &[u32] {
        &self.rules[self.rule_start[s as usize] as usize..self.rule_start[s as usize + 1] as usize]
    }

    /// Whether a counted rule with no false literal supports its head: its
    /// move is made (if it has one) and its guard holds (if it has one).
    #[inline]
    fn armed(&self, vals: &[bool], rule: u32) -> bool {
        let info = &self.rule[rule as usize];
        (info.trigger == SLOT_FALSE || vals[info.trigger as usize])
            && literal_holds(vals, info.guard)
    }

    /// Whether a rule holds: its body and its move, if any.
    fn holds(&self, net: &Net, vals: &[bool], rule: u32) -> bool {
        let trigger = self.rule[rule as usize].trigger;
        (trigger == SLOT_FALSE || vals[trigger as usize]) && holds(net, vals, rule)
    }
}

/// Products: a head's rules that are every pairing of one of a few
/// *parts* with one of a few others (`open :- cell(A, b), not tried(x, A),
/// cell(B, b), not tried(o, B)`: 625 rules, two halves of 25 parts) are
/// counted as the parts, not the rules. A part is a counted rule whose
/// crossing of zero moves its half's count of parts that hold; a half that
/// starts or stops holding moves the false count of the product's own rule,
/// whose two literals are its halves and whose head is the rules'. A flip
/// then visits the parts that read it, not every rule of the pairing.
/// Found per head from the bodies alone: rules of one length whose
/// literals at some positions (the first part) and at the others (the
/// second) pair every first with every second exactly once.
#[derive(Clone, Debug, Default)]
struct Products {
    /// The number of the first product rule: the net's rules come first.
    first_rule: u32,
    /// The net's rules counted as parts instead.
    replaced: Vec<u32>,
    /// Per product rule (numbered after the net's rules): its head.
    head: Vec<u32>,
    /// Per half (two per product, `2 * p` and `2 * p + 1`), its parts'
    /// bodies at `lits[part_start[k]..part_start[k + 1]]` for the parts
    /// `half_start[h]..half_start[h + 1]` (numbered after the product
    /// rules).
    half_start: Vec<u32>,
    part_start: Vec<u32>,
    lits: Vec<u32>,
}

impl Products {
    /// The products among the untriggered rules of each tracked head that
    /// is in no recursive component and is no `legal` slot.
    fn new(net: &Net, own_rules: &[(u32, u32)], owner: &[u32], trigger: &[u32]) -> Products {
        let mut legal = vec![false; net.slots];
        for mv in net.roles.iter().flat_map(|r| &r.moves) {
            legal[mv.legal as usize] = true;
        }
        let mut by_head: Vec<(u32, usize, u32)> = (own_rules.iter())
            .filter(|&&(s, r)| {
                owner[s as usize] == u32::MAX
                    && !legal[s as usize]
                    && trigger[r as usize] == SLOT_TRUE
            })
            .map(|&(s, r)| (s, body(net, r).len(), r))
            .filter(|&(_, len, _)| (2..=PRODUCT_MAX_LITS).contains(&len))
            .collect();
        by_head.sort_unstable();
        let mut products = Products {
            first_rule: net.rule_lits.len() as u32 - 1,
            half_start: vec![0],
            part_start: vec![0],
            ..Products::default()
        };
        for group in by_head.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1) {
            if group.len() < PRODUCT_MIN_RULES {
                continue;
            }
            let rules: Vec<&[u32]> = group.iter().map(|&(_, _, r)| body(net, r)).collect();
            if let Some(halves) = split_product(&rules)
                .filter(|[a, b]| group.len() >= PRODUCT_MIN_RATIO * (a.len() + b.len()))
            {
                products.replaced.extend(group.iter().map(|&(_, _, r)| r));
                products.head.push(group[0].0);
                for parts in halves {
                    for part in parts {
                        products.lits.extend_from_slice(&part);
                        products.part_start.push(products.lits.len() as u32);
                    }
                    products
                        .half_start
                        .push(products.part_start.len() as u32 - 1);
                }
            }
        }
        products
    }

    /// The (literal, rule) pairs of the parts, for the fan-out.
    fn reads(&self, reads: &mut Vec<(u32, u32)>) {
        let first_part = self.first_rule + self.head.len() as u32;
        for k in 0..self.part_start.len() - 1 {
            for &l in self.part(k) {
                reads.push((l, first_part + k as u32));
            }
        }
    }

    /// Appends the product rules' and the parts' entries to `rule`.
    fn rules(&self, rule: &mut Vec<RuleInfo>) {
        let plain = |head, trigger| RuleInfo {
            head,
            trigger,
            place: NO_GROUP,
            guard: SLOT_TRUE << 1,
        };
        rule.extend(self.head.iter().map(|&h| plain(h, SLOT_TRUE)));
        for h in 0..self.half_start.len() - 1 {
            let parts = self.half_start[h]..self.half_start[h + 1];
            rule.extend(parts.map(|_| plain(PART | h as u32, SLOT_FALSE)));
        }
    }

    /// The counters of the products in `vals`: each part's and product
    /// rule's false literals, each head's support from its product rules,
    /// and the returned parts that hold per half.
    fn load(&self, vals: &[bool], false_lits: &mut [u16], support: &mut [u32]) -> Vec<u32> {
        let first = self.first_rule as usize;
        let first_part = first + self.head.len();
        let mut halves = vec![0; self.half_start.len() - 1];
        for (h, held) in halves.iter_mut().enumerate() {
            for k in self.half_start[h] as usize..self.half_start[h + 1] as usize {
                let f = self
                    .part(k)
                    .iter()
                    .filter(|&&l| !literal_holds(vals, l))
                    .count();
                false_lits[first_part + k] = (f as u16).wrapping_neg();
                *held += (f == 0) as u32;
            }
        }
        for (p, &head) in self.head.iter().enumerate() {
            let f = (halves[2 * p] == 0) as u32 + (halves[2 * p + 1] == 0) as u32;
            false_lits[first + p] = (f as u16).wrapping_neg();
            support[head as usize] += (f == 0) as u32;
        }
        halves
    }

    /// The body of part `k`.
    fn part(&self, k: usize) -> &[u32] {
        &self.lits[self.part_start[k] as usize..self.part_start[k + 1] as usize]
    }
}

/// The two halves of a product, each as its distinct parts: `rules`
/// (bodies of one length) are split by positions, those whose literals
/// pair with the first position's in fewer ways than all (one side) and
/// the others; `None` unless every part of one side meets every part of
/// the other in exactly one rule, and each side has two parts or more.
fn split_product(rules: &[&[u32]]) -> Option<[Vec<Vec<u32>>; 2]> {
    let len = rules[0].len();
    let distinct = |positions: &[usize]| {
        let mut seen: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let ids: Vec<u32> = (rules.iter())
            .map(|body| {
                let key: Vec<u32> = positions.iter().map(|&i| body[i]).collect();
                let next = seen.len() as u32;
                *seen.entry(key).or_insert(next)
            })
            .collect();
        (seen.len(), ids)
    };
    // Positions whose literals pair in fewer ways than all are on one side,
    // with those of one literal only.
    let count: Vec<usize> = (0..len).map(|i| distinct(&[i]).0).collect();
    let linked = |i: usize, j: usize| {
        let pairs: FxHashSet<(u32, u32)> = rules.iter().map(|body| (body[i], body[j])).collect();
        pairs.len() < count[i] * count[j]
    };
    let mut side: Vec<bool> = count.iter().map(|&n| n == 1).collect();
    let mut todo = vec![0];
    side[0] = true;
    while let Some(i) = todo.pop() {
        for (j, joined) in side.iter_mut().enumerate() {
            if !*joined && linked(i, j) {
                *joined = true;
                todo.push(j);
            }
        }
    }
    let first: Vec<usize> = (0..len).filter(|&i| side[i]).collect();
    let second: Vec<usize> = (0..len).filter(|&i| !side[i]).collect();
    if second.is_empty() {
        return None;
    }
    let ((a, a_ids), (b, b_ids)) = (distinct(&first), distinct(&second));
    if a < 2 || b < 2 || a * b != rules.len() {
        return None;
    }
    let mut met = vec![false; a * b];
    for (&i, &j) in a_ids.iter().zip(&b_ids) {
        let pair = &mut met[i as usize * b + j as usize];
        if *pair {
            return None;
        }
        *pair = true;
    }
    let parts = |positions: &[usize], ids: &[u32], n: usize| {
        let mut parts = vec![Vec::new(); n];
        for (body, &id) in rules.iter().zip(ids) {
            if parts[id as usize].is_empty() {
                parts[id as usize] = positions.iter().map(|&i| body[i]).collect();
            }
        }
        parts
    };
    Some([parts(&first, &a_ids, a), parts(&second, &b_ids, b)])
}

/// Sleeping rules: a counted rule that reads a slot of many readers (at
/// least [`SLEEP_MIN_READERS`], or [`SLEEP_MIN_READERS_STATE`] for a key
/// that is a state fact) and a positive literal of few (its *key*, the one
/// of fewest readers, at most one in [`KEY_RATIO`] as many) is not
/// counted by the many-reader slots while its key is false: it cannot hold
/// then, whatever they say. Such a slot keeps its sleeping readers apart,
/// positive then negative, as bits of the `awake` set (each list from a
/// word boundary), and a flip counts the awake ones only. The key is in no
/// fan-out: turning false it counts its rules' false literal and puts them
/// to sleep; turning true it wakes them and counts their false literals
/// again from the values. A sleeping rule's counter is stale but never
/// zero (its false key is in it), so it never seems to hold.
#[derive(Clone, Debug, Default)]
struct Keys {
    /// For every slot: the sleeping rules (their numbers here) it is the
    /// key of.
    key_start: Vec<u32>,
    keyed: Vec<u32>,
    /// Per sleeping rule: its rule, its key literal, its counted literals
    /// (the key among them) and its bits in the sleepers' lists.
    rule: Vec<u32>,
    key: Vec<u32>,
    lit_start: Vec<u32>,
    lits: Vec<u32>,
    place_start: Vec<u32>,
    places: Vec<u32>,
    /// For every slot: the words of its sleeping readers that read it
    /// positively (`[0]..[1]`) and negatively (`[1]..[2]`).
    section: Vec<[u32; 3]>,
    /// Per bit of the sleepers' lists: its rule.
    member: Vec<u32>,
}

impl Keys {
    /// Chooses the sleeping rules among the counted ones of `reads`
    /// (literal, rule), takes their reads of many-reader slots and of their
    /// keys out of `reads`, and lists them here instead. Rules triggered by
    /// a move, the products' rules and parts, and rules reading a slot of a
    /// recursive component (whose values are written before their flips)
    /// or a move's slot (counted in place by `flip_move`) never sleep.
    /// `state` and `moves`: the slots of the base facts and of the moves.
    fn new(
        slots: usize,
        reads: &mut Vec<(u32, u32)>,
        rule: &[RuleInfo],
        first_product: u32,
        owner: &[u32],
        [state, moves]: [std::ops::Range<u32>; 2],
    ) -> Keys {
        let mut readers = vec![0usize; slots];
        for &(l, _) in reads.iter() {
            readers[(l >> 1) as usize] += 1;
        }
        let many = |l: u32| readers[(l >> 1) as usize] >= SLEEP_MIN_READERS_STATE;
        let mut keys = Keys {
            key_start: vec![0; slots + 1],
            section: vec![[0; 3]; slots],
            lit_start: vec![0],
            place_start: vec![0],
            ..Keys::default()
        };
        if !readers.iter().any(|&n| n >= SLEEP_MIN_READERS_STATE) {
            return keys;
        }
        // The counted literals of the rules that read a many-reader slot.
        let mut reads_many = vec![false; rule.len()];
        (reads.iter())
            .filter(|&&(l, _)| many(l))
            .for_each(|&(_, r)| reads_many[r as usize] = true);
        let by_rule: Vec<(u32, u32)> = (reads.iter())
            .filter(|&&(_, r)| reads_many[r as usize])
            .map(|&(l, r)| (r, l))
            .collect();
        let (lit_start, lits) = grouped(rule.len(), &by_rule);
        let lits_of = |r: usize| &lits[lit_start[r] as usize..lit_start[r + 1] as usize];
        // Per rule: its key literal, or `NO_LITERAL` for a rule awake always.
        let mut key_of = vec![NO_LITERAL; rule.len()];
        for (r, info) in rule.iter().enumerate() {
            let lits = lits_of(r);
            let widest = lits.iter().map(|&l| readers[(l >> 1) as usize]).max();
            if lits.is_empty()
                || r as u32 >= first_product
                || info.head & PART != 0
                || !matches!(info.trigger, SLOT_TRUE | SLOT_FALSE)
                || (lits.iter())
                    .any(|&l| owner[(l >> 1) as usize] != u32::MAX || moves.contains(&(l >> 1)))
            {
                continue;
            }
            let once = |l: u32| lits.iter().filter(|&&m| m >> 1 == l >> 1).count() == 1;
            let key = (lits.iter().copied())
                .filter(|&l| l & 1 == 0 && l >> 1 != SLOT_TRUE && !many(l) && once(l))
                .filter(|&l| readers[(l >> 1) as usize] * KEY_RATIO <= widest.unwrap_or(0))
                .filter(|&l| widest >= Some(SLEEP_MIN_READERS) || state.contains(&(l >> 1)))
                .min_by_key(|&l| (readers[(l >> 1) as usize], l));
            if let Some(l) = key {
                key_of[r] = l;
            }
        }
        // The sleepers of each many-reader slot, positive then negative.
        let mut sleeping: Vec<(u32, u32)> = Vec::new();
        let mut keyed: Vec<(u32, u32)> = Vec::new();
        reads.retain(|&(l, r)| match key_of[r as usize] {
            NO_LITERAL => true,
            k if k == l => {
                keyed.push((l >> 1, r));
                false
            }
            _ if many(l) => {
                sleeping.push((l, r));
                false
            }
            _ => true,
        });
        let (sleeper_start, sleepers) = grouped(2 * slots, &sleeping);
        let mut place_of: Vec<(u32, u32)> = Vec::new();
        let mut bit = 0u32;
        for (s, section) in keys.section.iter_mut().enumerate() {
            section[0] = bit / 64;
            for sign in 0..2 {
                let l = 2 * s + sign;
                for &r in &sleepers[sleeper_start[l] as usize..sleeper_start[l + 1] as usize] {
                    keys.member.push(r);
                    place_of.push((r, bit));
                    bit += 1;
                }
                bit = bit.next_multiple_of(64);
                keys.member.resize(bit as usize, u32::MAX);
                section[sign + 1] = bit / 64;
            }
        }
        let (place_start, places) = grouped(rule.len(), &place_of);
        let mut number = vec![u32::MAX; rule.len()];
        for (r, &k) in key_of.iter().enumerate() {
            if k == NO_LITERAL {
                continue;
            }
            number[r] = keys.rule.len() as u32;
            keys.rule.push(r as u32);
            keys.key.push(k);
            keys.lits.extend_from_slice(lits_of(r));
            keys.lit_start.push(keys.lits.len() as u32);
            keys.places
                .extend_from_slice(&places[place_start[r] as usize..place_start[r + 1] as usize]);
            keys.place_start.push(keys.places.len() as u32);
        }
        let by_key: Vec<(u32, u32)> = keyed
            .iter()
            .map(|&(s, r)| (s, number[r as usize]))
            .collect();
        (keys.key_start, keys.keyed) = grouped(slots, &by_key);
        keys
    }

    /// The sleeping rules slot `s` is the key of.
    fn keyed_by(&self, s: u32) -> &[u32] {
        &self.keyed[self.key_start[s as usize] as usize..self.key_start[s as usize + 1] as usize]
    }

    /// Sleeping rule `k`'s counted literals.
    fn lits_of(&self, k: u32) -> &[u32] {
        &self.lits[self.lit_start[k as usize] as usize..self.lit_start[k as usize + 1] as usize]
    }

    /// Sleeping rule `k`'s bits in the sleepers' lists.
    fn places_of(&self, k: u32) -> &[u32] {
        &self.places
            [self.place_start[k as usize] as usize..self.place_start[k as usize + 1] as usize]
    }
}

/// Guards: a literal shared by many counted rules (`true control(R)` in
/// every `legal` rule of a role) is not counted for them; the rules form a
/// group, and each group keeps the set of its rules with no false literal
/// left, as bits (one per member, each group's from a word boundary). The
/// guard turning on or off visits that set only, not every rule.
#[derive(Clone, Debug)]
struct Guards {
    /// Per rule, its group (`NO_GROUP` if none) and its bit in the sets
    /// (`NO_GROUP` if none).
    group: Vec<u32>,
    place: Vec<u32>,
    /// Per rule, its guard literal, not counted (`NO_LITERAL` if none):
    /// its group's, or the guard of its deferred head.
    skip: Vec<u32>,
    /// Per group, its literal (`slot << 1 | negated`).
    literal: Vec<u32>,
    /// Per group, its first bit (a multiple of 64), and after the last
    /// group the bits of all sets.
    start: Vec<u32>,
    /// Per bit, its rule.
    member: Vec<u32>,
    /// For every slot: the groups it guards.
    slot_start: Vec<u32>,
    slot_groups: Vec<u32>,
}

impl Guards {
    /// Groups the counted rules by their guard literal (see
    /// [`guard_literals`]); a rule of a deferred slot keeps its literal
    /// uncounted but joins no group, since its head ignores the guard.
    fn new(net: &Net, skip: Vec<u32>, deferred: &[u32], head: &[u32]) -> Guards {
        let mut group = vec![NO_GROUP; skip.len()];
        let mut group_of_literal = vec![NO_GROUP; 2 * net.slots];
        let mut literal = Vec::new();
        let mut members = Vec::new();
        for (rule, &l) in skip.iter().enumerate() {
            if l == NO_LITERAL || deferred[head[rule] as usize] != NO_LITERAL {
                continue;
            }
            if group_of_literal[l as usize] == NO_GROUP {
                group_of_literal[l as usize] = literal.len() as u32;
                literal.push(l);
                members.push(0u32);
            }
            let g = group_of_literal[l as usize];
            group[rule] = g;
            members[g as usize] += 1;
        }
        let mut start = vec![0u32];
        for &m in &members {
            start.push(start[start.len() - 1] + m.next_multiple_of(64));
        }
        let mut place = vec![NO_GROUP; skip.len()];
        let mut member = vec![0; start[start.len() - 1] as usize];
        let mut fill = start.clone();
        for (rule, &g) in group.iter().enumerate() {
            if g != NO_GROUP {
                place[rule] = fill[g as usize];
                member[fill[g as usize] as usize] = rule as u32;
                fill[g as usize] += 1;
            }
        }
        let by_slot: Vec<(u32, u32)> = (literal.iter().enumerate())
            .map(|(g, &l)| (l >> 1, g as u32))
            .collect();
        let (slot_start, slot_groups) = grouped(net.slots, &by_slot);
        Guards {
            group,
            place,
            skip,
            literal,
            start,
            member,
            slot_start,
            slot_groups,
        }
    }

    /// The literal not counted for a rule, or a literal no rule has.
    fn literal_of(&self, rule: u32) -> u32 {
        self.skip[rule as usize]
    }

    /// The words of group `g`'s set.
    fn words(&self, g: usize) -> std::ops::Range<usize> {
        self.start[g] as usize / 64..self.start[g + 1] as usize / 64
    }

    /// The groups slot `s` guards.
    fn of_slot(&self, s: u32) -> std::ops::Range<usize> {
        self.slot_start[s as usize] as usize..self.slot_start[s as usize + 1] as usize
    }
}

/// Per rule, the literal that guards it (`NO_LITERAL` for none): of the
/// counted rules' literals that at least `GUARD_MIN_RULES` of them read, the
/// one most read. A literal whose slot a rule reads twice is never its guard.
fn guard_literals(net: &Net, counted: &[u32]) -> Vec<u32> {
    let mut readers = vec![0usize; 2 * net.slots];
    for &rule in counted {
        body(net, rule)
            .iter()
            .for_each(|&l| readers[l as usize] += 1);
    }
    let mut guard = vec![NO_LITERAL; net.rule_lits.len() - 1];
    for &rule in counted {
        let lits = body(net, rule);
        let once = |l: u32| lits.iter().filter(|&&m| m >> 1 == l >> 1).count() == 1;
        let best = lits
            .iter()
            .copied()
            .filter(|&l| readers[l as usize] >= GUARD_MIN_RULES && once(l))
            .max_by_key(|&l| (readers[l as usize], l));
        if let Some(l) = best {
            guard[rule as usize] = l;
        }
    }
    guard
}

/// Per slot, the guard literal of a deferred `legal` slot (`NO_LITERAL` for
/// the others). A `legal` slot is deferred when every rule of it has the
/// same guard and nothing else reads it: no counted rule or component, and
/// it is not a `next`, terminal or weight slot. Its value is then kept
/// without the guard, and the guard only says whether the legal list it
/// belongs to is on (see [`Segments`]), so a guard turning over (`true
/// control(R)` every turn) visits none of its rules.
fn deferred_slots(
    net: &Net,
    own_rules: &[(u32, u32)],
    owner: &[u32],
    guard: &[u32],
    trigger: &[u32],
    read: &[bool],
) -> Vec<u32> {
    let mut deferred = vec![NO_LITERAL; net.slots];
    let mut ruled = vec![false; net.slots];
    for role in &net.roles {
        for mv in &role.moves {
            deferred[mv.legal as usize] = SHARED;
        }
    }
    let mut keep = vec![false; net.slots];
    for &(s, _) in &net.next {
        keep[s as usize] = true;
    }
    keep[net.terminal as usize] = true;
    for &(s, _) in net.weights.iter().flatten() {
        keep[s as usize] = true;
    }
    for &(s, rule) in own_rules {
        let d = &mut deferred[s as usize];
        let g = guard[rule as usize];
        let alone = owner[s as usize] == u32::MAX && trigger[rule as usize] == SLOT_TRUE;
        *d = match *d {
            NO_LITERAL => NO_LITERAL,
            _ if !alone || g == NO_LITERAL || keep[s as usize] || read[s as usize] => NO_LITERAL,
            SHARED => g,
            d if d == g => d,
            _ => NO_LITERAL,
        };
        ruled[s as usize] = true;
    }
    for (s, d) in deferred.iter_mut().enumerate() {
        if *d == SHARED || !ruled[s] {
            *d = NO_LITERAL;
        }
    }
    deferred
}

/// From the tracked rules (head, rule) and each slot's recursive component
/// (`u32::MAX` for none): every rule's head, the counted rules (of slots
/// outside components), and the (slot, component) pairs of the slots a
/// component reads from outside.
fn readers(
    net: &Net,
    own_rules: &[(u32, u32)],
    owner: &[u32],
) -> (Vec<u32>, Vec<u32>, Vec<(u32, u32)>) {
    let mut head = vec![u32::MAX; net.rule_lits.len() - 1];
    let mut counted = Vec::new();
    let mut component_reads = Vec::new();
    for &(s, rule) in own_rules {
        head[rule as usize] = s;
        // A rule's move is not a counted literal: a move turned on or
        // off visits its rules (see `Counters::flip_move`).
        for &l in body(net, rule) {
            let read = l >> 1;
            match owner[s as usize] {
                u32::MAX => counted.push(rule),
                c if owner[read as usize] != c => component_reads.push((read, c)),
                _ => {}
            }
        }
    }
    counted.dedup();
    component_reads.sort_unstable();
    component_reads.dedup();
    (head, counted, component_reads)
}

/// The (`slot << 1 | negated`, rule) pairs of the counted rules'
/// literals, each rule's guard left out.
fn counted_reads(net: &Net, counted: &[u32], guards: &Guards) -> Vec<(u32, u32)> {
    let mut reads = Vec::new();
    for &rule in counted {
        let guard = guards.literal_of(rule);
        let mut skipped = false;
        for &l in body(net, rule) {
            if l == guard && !skipped {
                skipped = true;
            } else {
                reads.push((l, rule));
            }
        }
    }
    reads
}

/// The tracked slots of the view cone whose value depends on the moves
/// (the moves being made change them until the next load).
fn move_dependent(
    net: &Net,
    steps: &[PlanStep],
    own_rules: &[(u32, u32)],
    trigger: &[u32],
    early_heads: &[bool],
) -> Vec<u32> {
    let mut dependent = vec![false; net.slots];
    (net.first_input..net.first_derived).for_each(|s| dependent[s as usize] = true);
    let reads_moves = |dependent: &[bool], rule: u32| {
        trigger[rule as usize] != SLOT_TRUE
            || body(net, rule)
                .iter()
                .any(|&l| dependent[(l >> 1) as usize])
    };
    let mut by_head = own_rules.to_vec();
    by_head.sort_unstable();
    for &step in steps {
        let range = step_slots(step);
        let first = by_head.partition_point(|&(h, _)| h < range.start);
        let last = by_head.partition_point(|&(h, _)| h < range.end);
        let mut rules: Vec<u32> = by_head[first..last].iter().map(|&(_, r)| r).collect();
        if let PlanStep::Fixpoint(a, b) = step {
            rules = (a..b).flat_map(|s| rules_of(net, s)).collect();
        }
        let early = range.clone().any(|s| early_heads[s as usize]);
        if early || rules.iter().any(|&r| reads_moves(&dependent, r)) {
            range.for_each(|s| dependent[s as usize] = true);
        }
    }
    let mut in_view = vec![false; net.slots];
    for &st in &net.view {
        step_slots(st).for_each(|s| in_view[s as usize] = true);
    }
    (net.first_derived..net.slots as u32)
        .filter(|&s| in_view[s as usize] && dependent[s as usize])
        .collect()
}

/// Per slot, the literal a deferred slot mirrors (`NO_LITERAL` for none):
/// a deferred slot with one rule whose body is its guard and one literal
/// (`legal(R, M) :- true control(R), can_move(R, M)`) holds, without the
/// guard, exactly when that literal does, so its moves follow the
/// literal's slot and the slot itself is not propagated. A body that is
/// the guard alone mirrors `SLOT_TRUE`.
fn mirrored(net: &Net, own_rules: &[(u32, u32)], deferred: &[u32], guards: &Guards) -> Vec<u32> {
    let mut rules = vec![0u32; net.slots];
    let mut only = vec![NO_LITERAL; net.slots];
    for &(s, rule) in own_rules {
        if deferred[s as usize] == NO_LITERAL {
            continue;
        }
        rules[s as usize] += 1;
        let guard = guards.literal_of(rule);
        let mut rest = body(net, rule).iter().copied().filter(|&l| l != guard);
        only[s as usize] = match (rest.next(), rest.next(), body(net, rule).len()) {
            (None, None, 1) => SLOT_TRUE << 1,
            (Some(l), None, 2) => l,
            _ => NO_LITERAL,
        };
    }
    (0..net.slots)
        .map(|s| if rules[s] == 1 { only[s] } else { NO_LITERAL })
        .collect()
}

/// Per slot, the moves that follow its value, as (`segment << 1 |
/// negated`, move): a `legal` slot's own, or a mirrored slot's (see
/// [`mirrored`]) at its literal's slot, negated for a negative literal.
/// Also the segments: one per role and guard of its deferred slots, one
/// per role for its other moves.
fn legal_moves(
    net: &Net,
    deferred: &[u32],
    source: &[u32],
) -> (Vec<u32>, Vec<(u32, u32)>, Segments) {
    let mut segments = Segments {
        role: Vec::new(),
        guard: Vec::new(),
        size: Vec::new(),
        role_start: vec![0],
    };
    let mut legal = Vec::new();
    let mut pairs = Vec::new();
    for (r, role) in net.roles.iter().enumerate() {
        let first = segments.role.len();
        for (m, mv) in role.moves.iter().enumerate() {
            let guard = match deferred[mv.legal as usize] {
                NO_LITERAL => SLOT_TRUE << 1,
                l => l,
            };
            let at = (first..segments.role.len()).find(|&g| segments.guard[g] == guard);
            let seg = at.unwrap_or_else(|| {
                segments.role.push(r as u32);
                segments.guard.push(guard);
                segments.size.push(0);
                segments.role.len() - 1
            });
            segments.size[seg] += 1;
            let follows = match source[mv.legal as usize] {
                NO_LITERAL => mv.legal << 1,
                l => l,
            };
            legal.push((follows >> 1, pairs.len() as u32));
            pairs.push(((seg as u32) << 1 | (follows & 1), m as u32));
        }
        segments.role_start.push(segments.role.len() as u32);
    }
    let (move_start, index) = grouped(net.slots, &legal);
    let moves = index.iter().map(|&i| pairs[i as usize]).collect();
    (move_start, moves, segments)
}

/// The legal lists of [`Counters`]: per role, one list per guard of its
/// deferred `legal` slots and one (guard `SLOT_TRUE`, which always holds)
/// for its other moves. A role's legal moves are its lists whose guard holds, together.
#[derive(Clone, Debug)]
struct Segments {
    /// Per segment: its role, its guard, and how many moves it has.
    role: Vec<u32>,
    guard: Vec<u32>,
    size: Vec<u32>,
    /// Role `r`'s segments are `role_start[r]..role_start[r + 1]`.
    role_start: Vec<u32>,
}

impl Segments {
    fn of_role(&self, r: usize) -> std::ops::Range<usize> {
        self.role_start[r] as usize..self.role_start[r + 1] as usize
    }

    /// Whether segment `g`'s guard holds.
    #[inline]
    fn on(&self, vals: &[bool], g: usize) -> bool {
        literal_holds(vals, self.guard[g])
    }
}

fn rules_of(net: &Net, s: u32) -> std::ops::Range<u32> {
    let d = (s - net.first_derived) as usize;
    net.slot_rules[d]..net.slot_rules[d + 1]
}

fn body(net: &Net, rule: u32) -> &[u32] {
    &net.lits[net.rule_lits[rule as usize] as usize..net.rule_lits[rule as usize + 1] as usize]
}

/// Whether a literal (`slot << 1 | negated`) holds.
#[inline]
fn literal_holds(vals: &[bool], l: u32) -> bool {
    vals[(l >> 1) as usize] != (l & 1 == 1)
}

fn holds(net: &Net, vals: &[bool], rule: u32) -> bool {
    body(net, rule).iter().all(|&l| literal_holds(vals, l))
}

/// One machine's propagation state: the values of the loaded state (and
/// of the moves being made), the counters, and scratch lists reused by
/// every load.
#[derive(Debug)]
pub struct Counters {
    /// The base facts the values describe.
    loaded: Box<[u64]>,
    vals: Vec<bool>,
    /// Per rule, its false literals (its move not counted), negated in 16
    /// bits (`0 - n`, wrapping): a literal turning true adds one and the
    /// rule's body holds when that gives zero; one turning false takes one
    /// away, and the body held if that borrows. Each is one
    /// read-modify-write whose flags tell the crossing, and the counters
    /// take half the room of 32 bits (a copy, the cache).
    false_lits: Vec<u16>,
    /// Per slot, its rules that hold.
    support: Vec<u32>,
    /// Per guard group, its rules with no false literal, as bits (see
    /// [`Guards`]).
    held: Vec<u64>,
    /// Slots to settle, as a bitset, and which of its words are not zero
    /// (bit `w` for word `w`), so a settle skips the clean words at 64 a
    /// time: a game with 40,000 slots has 625 words to settle but only a few
    /// dirty ones per step.
    dirty: Vec<u64>,
    dirty_words: Vec<u64>,
    /// `legal` slots whose value changed since the last load began.
    changed: Vec<u32>,
    /// Per segment of [`Segments`], its moves whose `legal` slot holds
    /// (a deferred slot's without its guard), sorted.
    lists: Vec<Vec<u32>>,
    /// Per segment, whether its guard held when the legal lists were last
    /// put together; per role, whether its lists changed since.
    shown: Vec<bool>,
    stale: Vec<bool>,
    /// A recursive component's values before it is recomputed.
    before: Vec<bool>,
    /// Working space of the recursive components' evaluation.
    recursion: Scratch,
    /// The next state for the moves set, as the `next` slots say.
    next: Box<[u64]>,
    /// The heads supported by the early rules of the moves being made.
    armed: Vec<u32>,
    /// The running value of every aggregate node a tracked test reads.
    running: Vec<Running>,
    /// Per half of a product, its parts that hold (see [`Products`]).
    halves: Vec<u32>,
    /// The bits of the sleepers' lists whose rule is awake (see [`Keys`]).
    awake: Vec<u64>,
}

/// A copy keeps the room of the scratch lists, so it never allocates
/// either.
impl Clone for Counters {
    fn clone(&self) -> Counters {
        let with_room = |v: &Vec<u32>| {
            let mut copy = Vec::with_capacity(v.capacity());
            copy.extend_from_slice(v);
            copy
        };
        Counters {
            loaded: self.loaded.clone(),
            vals: self.vals.clone(),
            false_lits: self.false_lits.clone(),
            support: self.support.clone(),
            held: self.held.clone(),
            dirty: self.dirty.clone(),
            dirty_words: self.dirty_words.clone(),
            changed: with_room(&self.changed),
            lists: self.lists.iter().map(with_room).collect(),
            shown: self.shown.clone(),
            stale: self.stale.clone(),
            before: self.before.clone(),
            recursion: self.recursion.clone(),
            next: self.next.clone(),
            armed: with_room(&self.armed),
            running: self.running.clone(),
            halves: self.halves.clone(),
            awake: self.awake.clone(),
        }
    }
}

impl Counters {
    /// The counters of a state (with no moves), computed from scratch.
    pub fn new(net: &Net, prop: &Propagation, state: &[u64]) -> Counters {
        let mut vals = vec![false; net.slots];
        vals[SLOT_TRUE as usize] = true;
        for i in 0..net.base.len() {
            vals[BASE0 as usize + i] = state[i / 64] >> (i % 64) & 1 == 1;
        }
        let mut scratch = net.recursion.scratch();
        for &step in &prop.steps {
            match step {
                PlanStep::One(s) => {
                    vals[s as usize] = prop.rules_of(s).iter().any(|&r| prop.holds(net, &vals, r))
                }
                PlanStep::Fixpoint(a, b) => {
                    net.recursion.evaluate(net, &mut vals, a, b, &mut scratch)
                }
                PlanStep::Test(s, t) => vals[s as usize] = net.numbers.holds(&vals, t),
            }
        }
        let running = (0..net.numbers.nodes.len() as u32)
            .map(|n| prop.values.rescan(&vals, n))
            .collect();
        let mut false_lits = vec![0; prop.rule.len()];
        let mut support = vec![0; net.slots];
        let mut held = vec![0u64; prop.guards.member.len() / 64];
        let net_rules = prop.products.first_rule as usize;
        for (rule, info) in prop.rule[..net_rules].iter().enumerate() {
            let head = info.head;
            if head == u32::MAX {
                continue;
            }
            let guard = prop.guards.literal_of(rule as u32);
            let f = body(net, rule as u32)
                .iter()
                .filter(|&&l| l != guard && !literal_holds(&vals, l))
                .count();
            false_lits[rule] = (f as u16).wrapping_neg();
            if f == 0 && info.place != NO_GROUP {
                held[info.place as usize / 64] |= 1 << (info.place % 64);
            }
            support[head as usize] += (f == 0 && prop.armed(&vals, rule as u32)) as u32;
        }
        let halves = prop.products.load(&vals, &mut false_lits, &mut support);
        let mut awake = vec![0u64; prop.keys.member.len() / 64];
        for (k, &key) in prop.keys.key.iter().enumerate() {
            if literal_holds(&vals, key) {
                for &p in prop.keys.places_of(k as u32) {
                    awake[p as usize / 64] |= 1 << (p % 64);
                }
            }
        }
        for &s in &prop.deferred {
            vals[s as usize] = support[s as usize] > 0;
        }
        let seg = &prop.segments;
        let mut lists: Vec<Vec<u32>> = (seg.size.iter())
            .map(|&n| Vec::with_capacity(n as usize))
            .collect();
        for s in 0..net.slots as u32 {
            for &(g, m) in prop.moves_of(s) {
                if vals[s as usize] != (g & 1 == 1) {
                    lists[g as usize >> 1].push(m);
                }
            }
        }
        lists.iter_mut().for_each(|l| l.sort_unstable());
        let mut next = vec![0u64; state.len()].into_boxed_slice();
        for &(s, i) in &net.next {
            if vals[s as usize] {
                next[i as usize / 64] |= 1 << (i % 64);
            }
        }
        Counters {
            loaded: state.into(),
            vals,
            false_lits,
            support,
            held,
            dirty: vec![0; net.slots.div_ceil(64)],
            dirty_words: vec![0; net.slots.div_ceil(64).div_ceil(64)],
            changed: Vec::with_capacity(net.slots),
            lists,
            shown: vec![false; seg.role.len()],
            stale: vec![true; net.roles.len()],
            before: vec![false; prop.widest],
            recursion: scratch,
            next,
            armed: Vec::with_capacity(net.early.iter().map(Vec::len).sum()),
            running,
            halves,
            awake,
        }
    }

    /// The base facts of the loaded state.
    pub fn loaded(&self) -> &[u64] {
        &self.loaded
    }

    /// Whether becoming a copy of `from` costs less than propagating from
    /// the loaded state to `from`'s: a copy writes every counter, a
    /// propagation visits the readers of each base fact that differs.
    pub fn prefers_restore(&self, prop: &Propagation, from: &Counters) -> bool {
        let mut visits = 0;
        for (w, (&a, &b)) in self.loaded.iter().zip(from.loaded.iter()).enumerate() {
            let mut diff = a ^ b;
            while diff != 0 {
                let s = BASE0 as usize + w * 64 + diff.trailing_zeros() as usize;
                diff &= diff - 1;
                let (positive, negative) = prop.readers(s as u32, prop.slot[s]);
                visits += FLIP_VISITS + positive.len() + negative.len();
            }
        }
        visits * VISIT_BYTES > self.bytes()
    }

    /// The bytes a copy writes: about what the counters hold.
    pub fn bytes(&self) -> usize {
        self.vals.len()
            + 2 * self.false_lits.len()
            + 4 * self.support.len()
            + 8 * self.held.len()
            + 4 * self.lists.iter().map(Vec::len).sum::<usize>()
            + 8 * (self.dirty.len() + self.dirty_words.len() + 2 * self.next.len())
            + 32 * self.running.len()
            + 4 * self.halves.len()
            + 8 * self.awake.len()
    }

    /// Becomes a copy of `from` (counters of the same game), without
    /// allocating.
    pub fn restore(&mut self, from: &Counters) {
        self.loaded.copy_from_slice(&from.loaded);
        self.vals.copy_from_slice(&from.vals);
        self.false_lits.copy_from_slice(&from.false_lits);
        self.support.copy_from_slice(&from.support);
        self.held.copy_from_slice(&from.held);
        self.dirty.copy_from_slice(&from.dirty);
        self.dirty_words.copy_from_slice(&from.dirty_words);
        self.next.copy_from_slice(&from.next);
        self.running.copy_from_slice(&from.running);
        self.halves.copy_from_slice(&from.halves);
        self.awake.copy_from_slice(&from.awake);
        for (list, from) in self.lists.iter_mut().zip(&from.lists) {
            list.clear();
            list.extend_from_slice(from);
        }
        self.stale.fill(true);
        self.changed.clear();
        self.armed.clear();
    }

    /// The values of every tracked slot (and base fact) of the loaded
    /// state, but a deferred `legal` slot's: kept without its guard, or not
    /// at all where it mirrors a literal (its moves live in the legal
    /// lists). The goal plan ([`Propagation::goal_plan`]) and the full plan
    /// compute those again.
    pub fn vals(&self) -> &[bool] {
        &self.vals
    }

    /// Puts every role's legal moves (sorted) into `legal` from the lists
    /// whose guard holds: the roles whose lists or guards changed since the
    /// last time, or every role if `all`.
    pub fn legal_into(&mut self, prop: &Propagation, legal: &mut [Vec<u32>], all: bool) {
        let seg = &prop.segments;
        for (r, list) in legal.iter_mut().enumerate() {
            let mut stale = all || self.stale[r];
            for g in seg.of_role(r) {
                let on = seg.on(&self.vals, g);
                stale |= on != self.shown[g];
                self.shown[g] = on;
            }
            if !stale {
                continue;
            }
            self.stale[r] = false;
            list.clear();
            let mut parts = 0;
            for g in seg.of_role(r) {
                if self.shown[g] && !self.lists[g].is_empty() {
                    list.extend_from_slice(&self.lists[g]);
                    parts += 1;
                }
            }
            if parts > 1 {
                list.sort_unstable();
            }
        }
    }

    /// Moves the values to `state`, propagating what changed; then updates
    /// the sorted legal lists.
    pub fn load(&mut self, net: &Net, prop: &Propagation, state: &[u64], legal: &mut [Vec<u32>]) {
        match prop.aside {
            true => self.load_with::<true>(net, prop, state, legal),
            false => self.load_with::<false>(net, prop, state, legal),
        }
    }

    /// [`Counters::load`], with or without the rules taking the slower way
    /// (see [`Propagation::aside`]).
    fn load_with<const ASIDE: bool>(
        &mut self,
        net: &Net,
        prop: &Propagation,
        state: &[u64],
        legal: &mut [Vec<u32>],
    ) {
        for (w, &word) in state.iter().enumerate() {
            let mut diff = word ^ self.loaded[w];
            self.loaded[w] = word;
            while diff != 0 {
                let s = BASE0 + (w * 64) as u32 + diff.trailing_zeros();
                diff &= diff - 1;
                self.flip::<ASIDE>(prop, s);
            }
        }
        self.settle::<ASIDE>(net, prop);
        for k in 0..self.changed.len() {
            self.sync(prop, self.changed[k]);
        }
        self.changed.clear();
        for &s in &prop.overwritten {
            self.sync(prop, s);
        }
        self.legal_into(prop, legal, false);
    }

    /// Copies slot `s` into the lists of its segments.
    #[inline]
    fn sync(&mut self, prop: &Propagation, s: u32) {
        let v = self.vals[s as usize];
        for &(g, m) in prop.moves_of(s) {
            let list = &mut self.lists[g as usize >> 1];
            match (v != (g & 1 == 1), list.binary_search(&m)) {
                (true, Err(at)) => list.insert(at, m),
                (false, Ok(at)) => {
                    list.remove(at);
                }
                _ => continue,
            }
            self.stale[prop.segments.role[g as usize >> 1] as usize] = true;
        }
    }

    /// The next state for the moves in `does` (their slots), written into
    /// `out`. The moves are taken back at once; what they changed settles
    /// with the next load or move.
    pub fn next(
        &mut self,
        net: &Net,
        prop: &Propagation,
        does: impl Iterator<Item = u32> + Clone,
        out: &mut [u64],
    ) {
        match prop.aside {
            true => self.next_with::<true>(net, prop, does, out),
            false => self.next_with::<false>(net, prop, does, out),
        }
    }

    /// [`Counters::next`], with or without the rules taking the slower way.
    fn next_with<const ASIDE: bool>(
        &mut self,
        net: &Net,
        prop: &Propagation,
        does: impl Iterator<Item = u32> + Clone,
        out: &mut [u64],
    ) {
        // The values the moves change come back by the next settle; only
        // the changes of the state matter to the next load, and the slots
        // of the view that depend on moves are copied at every load.
        let keep = self.changed.len();
        for d in does.clone() {
            if !self.vals[d as usize] {
                self.flip_move::<ASIDE>(net, prop, d);
            }
        }
        // Early rules may read the other roles' moves: all are made first.
        for d in does.clone() {
            self.arm_early(net, prop, d);
        }
        self.settle::<ASIDE>(net, prop);
        out.copy_from_slice(&self.next);
        while let Some(head) = self.armed.pop() {
            self.support_moved(prop, head, false);
        }
        for d in does {
            if self.vals[d as usize] {
                self.flip_move::<ASIDE>(net, prop, d);
            }
        }
        self.changed.truncate(keep);
    }

    /// Changes the value of slot `s` and tells the rules that read it.
    #[inline(always)]
    fn flip<const ASIDE: bool>(&mut self, prop: &Propagation, s: u32) {
        self.flip_slot::<ASIDE>(prop, s, prop.slot[s as usize]);
    }

    /// [`Counters::flip`] of slot `s` whose entry is `slot`.
    #[inline(always)]
    fn flip_slot<const ASIDE: bool>(&mut self, prop: &Propagation, s: u32, slot: SlotInfo) {
        let v = !self.vals[s as usize];
        self.vals[s as usize] = v;
        if slot.flags & HAS_MOVES != 0 {
            self.changed.push(s);
        }
        if slot.flags & HAS_NEXT != 0 {
            for &i in prop.next_of(s) {
                self.next[i as usize / 64] ^= 1 << (i % 64);
            }
        }
        if slot.flags & READ == 0 {
            return;
        }
        match slot.flags & OUT_OF_LINE {
            0 => self.flip_fanout::<ASIDE>(prop, s, slot, v),
            _ => self.flip_many::<ASIDE>(prop, s, slot, v),
        }
    }

    /// [`Counters::flip_fanout`] out of line, for a slot of many readers
    /// (see [`FEW_READERS`]), then its sleepers and keys.
    #[inline(never)]
    fn flip_many<const ASIDE: bool>(
        &mut self,
        prop: &Propagation,
        s: u32,
        slot: SlotInfo,
        v: bool,
    ) {
        self.flip_fanout::<ASIDE>(prop, s, slot, v);
        if slot.flags & (HAS_SLEEPERS | HAS_KEYS) != 0 {
            self.flip_sleepers::<ASIDE>(prop, s, slot.flags, v);
        }
    }

    /// Tells the rules and components reading slot `s` (whose entry is
    /// `slot`) its new value `v`.
    #[inline(always)]
    fn flip_fanout<const ASIDE: bool>(
        &mut self,
        prop: &Propagation,
        s: u32,
        slot: SlotInfo,
        v: bool,
    ) {
        let (positive, negative) = prop.readers(s, slot);
        let (falling, rising) = if v {
            (positive, negative)
        } else {
            (negative, positive)
        };
        for &rule in falling {
            self.one_false_fewer::<ASIDE>(prop, rule);
        }
        for &rule in rising {
            self.one_false_more::<ASIDE>(prop, rule);
        }
        if slot.flags & RARER != 0 {
            self.flip_rarer::<ASIDE>(prop, s, v);
        }
    }

    /// The rest of a flip of slot `s` to `v`: its aggregates, the guard
    /// groups it switches and the recursive components that read it. Kept
    /// out of line, so that the common flip stays small.
    #[inline(never)]
    fn flip_rarer<const ASIDE: bool>(&mut self, prop: &Propagation, s: u32, v: bool) {
        if prop.slot[s as usize].flags & HAS_AGGREGATES != 0 {
            self.update_aggregates(prop, s, v);
        }
        for k in prop.guards.of_slot(s) {
            let g = prop.guards.slot_groups[k] as usize;
            let on = v != (prop.guards.literal[g] & 1 == 1);
            for w in prop.guards.words(g) {
                let mut bits = self.held[w];
                while bits != 0 {
                    let place = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let mut head = prop.guarded[place];
                    if head & TRIGGERED != 0 {
                        let trigger;
                        (head, trigger) = prop.triggered[(head & !TRIGGERED) as usize];
                        if !self.vals[trigger as usize] {
                            if ASIDE && trigger == SLOT_FALSE {
                                self.satisfied_aside(prop, head, on);
                            }
                            continue;
                        }
                    }
                    match on {
                        true => self.gain(head),
                        false => self.lose(head),
                    }
                }
            }
        }
        let (a, b) = (
            prop.component_start[s as usize] as usize,
            prop.component_start[s as usize + 1] as usize,
        );
        for k in a..b {
            self.mark(prop.components[k]);
        }
    }

    /// A flip of slot `s` (of `flags`) to `v`: its awake sleeping readers
    /// count it, and the sleeping rules it is the key of wake or sleep.
    #[inline(never)]
    fn flip_sleepers<const ASIDE: bool>(
        &mut self,
        prop: &Propagation,
        s: u32,
        flags: u16,
        v: bool,
    ) {
        if flags & HAS_SLEEPERS != 0 {
            self.count_awake::<ASIDE>(prop, s, v);
        }
        if flags & HAS_KEYS != 0 {
            self.wake_or_sleep::<ASIDE>(prop, s, v);
        }
    }

    /// Tells the awake sleeping readers of slot `s` its new value `v`.
    #[inline(always)]
    fn count_awake<const ASIDE: bool>(&mut self, prop: &Propagation, s: u32, v: bool) {
        let [positive, middle, end] = prop.keys.section[s as usize];
        let (falling, rising) = match v {
            true => (positive..middle, middle..end),
            false => (middle..end, positive..middle),
        };
        for (words, fewer) in [(falling, true), (rising, false)] {
            for w in words {
                let mut bits = self.awake[w as usize];
                while bits != 0 {
                    let rule = prop.keys.member[w as usize * 64 + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    match fewer {
                        true => self.one_false_fewer::<ASIDE>(prop, rule),
                        false => self.one_false_more::<ASIDE>(prop, rule),
                    }
                }
            }
        }
    }

    /// Key slot `s` turned true (`v`): its sleeping rules wake, their false
    /// literals counted again; or false: its rules count it and sleep.
    #[inline(always)]
    fn wake_or_sleep<const ASIDE: bool>(&mut self, prop: &Propagation, s: u32, v: bool) {
        let keys = &prop.keys;
        for &k in keys.keyed_by(s) {
            let rule = keys.rule[k as usize];
            let places = keys.places_of(k);
            if v {
                for &p in places {
                    self.awake[p as usize / 64] |= 1 << (p % 64);
                }
                let vals = &self.vals;
                let f = (keys.lits_of(k).iter())
                    .filter(|&&l| !literal_holds(vals, l))
                    .count();
                self.false_lits[rule as usize] = (f as u16).wrapping_neg();
                if f == 0 {
                    self.satisfied::<ASIDE>(prop, rule, true);
                }
            } else {
                for &p in places {
                    self.awake[p as usize / 64] &= !(1 << (p % 64));
                }
                self.one_false_more::<ASIDE>(prop, rule);
            }
        }
    }

    /// One literal of `rule` turned true: one false literal fewer (the
    /// count is kept negated); at none, the rule holds.
    #[inline(always)]
    fn one_false_fewer<const ASIDE: bool>(&mut self, prop: &Propagation, rule: u32) {
        let count = &mut self.false_lits[rule as usize];
        *count = count.wrapping_add(1);
        if *count == 0 {
            self.satisfied::<ASIDE>(prop, rule, true);
        }
    }

    /// One literal of `rule` turned false: one false literal more; from
    /// none, the rule no longer holds.
    #[inline(always)]
    fn one_false_more<const ASIDE: bool>(&mut self, prop: &Propagation, rule: u32) {
        let count = &mut self.false_lits[rule as usize];
        let (left, borrowed) = count.overflowing_sub(1);
        *count = left;
        if borrowed {
            self.satisfied::<ASIDE>(prop, rule, false);
        }
    }

    /// A counted rule has just lost its last false literal (`now`) or
    /// gained its first: its guard group's set and its head follow.
    #[inline(always)]
    fn satisfied<const ASIDE: bool>(&mut self, prop: &Propagation, rule: u32, now: bool) {
        let Crossing { mut head, place } = prop.crossing[rule as usize];
        if place & UNGROUPED != UNGROUPED {
            let word = (place & UNGROUPED) as usize / 64;
            let bit = 1 << (place % 64);
            match now {
                true => self.held[word] |= bit,
                false => self.held[word] &= !bit,
            }
            if !literal_holds(&self.vals, prop.word_guard[word]) {
                return;
            }
        }
        if place & (TRIGGERED | SLOWER) != 0 {
            if place & SLOWER != 0 {
                if ASIDE {
                    self.satisfied_aside(prop, head, now);
                }
                return;
            }
            let trigger;
            (head, trigger) = prop.triggered[head as usize];
            if !self.vals[trigger as usize] {
                return;
            }
        }
        match now {
            true => self.gain(head),
            false => self.lose(head),
        }
    }

    /// [`Counters::satisfied`] for a rule marked by trigger `SLOT_FALSE`:
    /// a part of a product (`head` is `PART | half`) or a rule of an
    /// [`AT_ONCE`] head. Out of line, so that the common crossing stays
    /// as small as without them.
    #[inline(never)]
    fn satisfied_aside(&mut self, prop: &Propagation, head: u32, now: bool) {
        match head & PART {
            0 => self.support_moved(prop, head, now),
            _ => self.part_satisfied(prop, head & !PART, now),
        }
    }

    /// A part of half `h` of a product has just lost its last false
    /// literal (`now`) or gained its first: the half's count follows, and
    /// when the half starts or stops holding, its product rule's false
    /// count and head.
    #[inline(never)]
    fn part_satisfied(&mut self, prop: &Propagation, h: u32, now: bool) {
        let held = &mut self.halves[h as usize];
        match now {
            true => *held += 1,
            false => *held -= 1,
        }
        if *held != now as u32 {
            return;
        }
        let rule = prop.products.first_rule + h / 2;
        let count = &mut self.false_lits[rule as usize];
        *count = match now {
            true => count.wrapping_add(1),
            false => count.wrapping_sub(1),
        };
        if *count == (!now as u16).wrapping_neg() {
            self.support_moved(prop, prop.rule[rule as usize].head, now);
        }
    }

    /// One more rule of `head` holds: the head is marked when its support
    /// leaves zero, the only change a settle can see (the invariant: a
    /// slot whose value is not `support > 0` is marked).
    #[inline]
    fn gain(&mut self, head: u32) {
        let support = &mut self.support[head as usize];
        *support += 1;
        if *support == 1 {
            self.mark(head);
        }
    }

    /// One rule of `head` fewer holds: marked when its support reaches zero.
    #[inline]
    fn lose(&mut self, head: u32) {
        let support = &mut self.support[head as usize];
        *support -= 1;
        if *support == 0 {
            self.mark(head);
        }
    }

    /// [`Counters::gain`] (`now`) or [`Counters::lose`] for a head that may
    /// be [`AT_ONCE`]: such a head flips as its support leaves or reaches
    /// zero. (It may also be marked by the plain `gain` and `lose`, when an
    /// armed triggered rule of it crosses zero: a flip at once keeps a
    /// difference between its value and its support, and the settle that
    /// the mark calls for ends it.)
    #[inline(always)]
    fn support_moved(&mut self, prop: &Propagation, head: u32, now: bool) {
        let slot = &prop.slot[head as usize];
        if slot.flags & AT_ONCE == 0 {
            match now {
                true => self.gain(head),
                false => self.lose(head),
            }
            return;
        }
        let support = &mut self.support[head as usize];
        match now {
            true => *support += 1,
            false => *support -= 1,
        }
        if *support == now as u32 {
            self.vals[head as usize] = !self.vals[head as usize];
            self.next[slot.start as usize / 64] ^= 1 << (slot.start % 64);
        }
    }

    /// Turns move slot `does` on or off: the rules it triggers whose bodies
    /// hold gain or lose their head's support. Groups of rules whose shared
    /// state fact is false are skipped whole (the state does not change
    /// while the moves are made).
    fn flip_move<const ASIDE: bool>(&mut self, net: &Net, prop: &Propagation, does: u32) {
        let on = !self.vals[does as usize];
        self.vals[does as usize] = on;
        let i = (does - net.first_input) as usize;
        for &(key, a, b) in &net.triggered_groups[i] {
            if !literal_holds(&self.vals, key) {
                continue; // the state fact every rule of the group reads is false
            }
            for &(head, rule) in &net.triggered[i][a as usize..b as usize] {
                let info = &prop.rule[rule as usize];
                if self.false_lits[rule as usize] == 0
                    && info.head != u32::MAX
                    && literal_holds(&self.vals, info.guard)
                {
                    self.support_moved(prop, head, on);
                }
            }
        }
        self.flip_fanout::<ASIDE>(prop, does, prop.slot[does as usize], on);
    }

    /// Makes move slot `does`'s early rules whose bodies hold support their
    /// heads, remembered in `armed` until the move is taken back. Groups
    /// whose shared literal is false are skipped whole.
    fn arm_early(&mut self, net: &Net, prop: &Propagation, does: u32) {
        let i = (does - net.first_input) as usize;
        for &(key, a, b) in &net.early_groups[i] {
            if !literal_holds(&self.vals, key) {
                continue;
            }
            if a & SPLIT != 0 {
                self.arm_split(net, prop, i, a & !SPLIT, b);
                continue;
            }
            for &(head, rule) in &net.early[i][a as usize..b as usize] {
                if prop.tracked[head as usize] && holds(net, &self.vals, rule) {
                    self.support_moved(prop, head, true);
                    self.armed.push(head);
                }
            }
        }
    }

    /// Arms the early rules of move `first_input + i`'s subgroups `a..b`
    /// whose literal and body hold (a split group whose literal holds).
    /// Out of line, so that the plain groups' loop stays as small.
    #[inline(never)]
    fn arm_split(&mut self, net: &Net, prop: &Propagation, i: usize, a: u32, b: u32) {
        for &(key, a, b) in &net.early_subgroups[i][a as usize..b as usize] {
            if !literal_holds(&self.vals, key) {
                continue;
            }
            for &(head, rule) in &net.early[i][a as usize..b as usize] {
                if prop.tracked[head as usize] && holds(net, &self.vals, rule) {
                    self.support_moved(prop, head, true);
                    self.armed.push(head);
                }
            }
        }
    }

    #[inline]
    fn mark(&mut self, s: u32) {
        let w = s as usize / 64;
        self.dirty[w] |= 1 << (s % 64);
        self.dirty_words[w / 64] |= 1 << (w % 64);
    }

    /// Settles the dirty slots in slot order: a slot marks only later ones,
    /// so a word once emptied stays empty until the next settle.
    fn settle<const ASIDE: bool>(&mut self, net: &Net, prop: &Propagation) {
        for group in 0..self.dirty_words.len() {
            while self.dirty_words[group] != 0 {
                let w = group * 64 + self.dirty_words[group].trailing_zeros() as usize;
                while self.dirty[w] != 0 {
                    let bit = self.dirty[w].trailing_zeros();
                    self.dirty[w] &= !(1 << bit);
                    self.settle_slot::<ASIDE>(net, prop, (w * 64) as u32 + bit);
                }
                self.dirty_words[group] &= !(1 << (w % 64));
            }
        }
    }

    /// Settles one dirty slot: flips it if its support (or, for a test,
    /// its comparison) says so, or recomputes the recursive component it
    /// starts.
    fn settle_slot<const ASIDE: bool>(&mut self, net: &Net, prop: &Propagation, s: u32) {
        let slot = prop.slot[s as usize];
        if slot.flags & SETTLED_APART == 0 {
            if (self.support[s as usize] > 0) != self.vals[s as usize] {
                self.flip_slot::<ASIDE>(prop, s, slot);
            }
            return;
        }
        match prop.component_end[s as usize] {
            TEST_SLOT => {
                if self.test_holds(net, prop.values.test_at[s as usize]) != self.vals[s as usize] {
                    self.flip::<ASIDE>(prop, s);
                }
            }
            end => self.recompute::<ASIDE>(net, prop, s, end),
        }
    }

    /// Whether test `t` holds, from the running values.
    fn test_holds(&self, net: &Net, t: u32) -> bool {
        let nodes = &net.numbers.nodes;
        numbers::holds(
            nodes,
            net.numbers.tests[t as usize],
            &|n| match nodes[n as usize] {
                Node::Agg(op, ..) => self.running[n as usize].value(op),
                _ => None,
            },
        )
    }

    /// Member slot `s` now holds (`on`) or not: its aggregates' running
    /// values follow (a least or greatest value that leaves is found again
    /// among the members), and the tests that read them are marked.
    fn update_aggregates(&mut self, prop: &Propagation, s: u32, on: bool) {
        let values = &prop.values;
        for &m in values.members_of(s) {
            let node = values.member_node[m as usize];
            let (op, w) = (values.aggregate[node as usize].0, values.weight[m as usize]);
            let r = &mut self.running[node as usize];
            let before = r.value(op);
            if on {
                r.add(op, w);
            } else {
                r.count -= 1;
                r.sum -= i128::from(w);
                if matches!(op, AggOp::Min | AggOp::Max) && r.count > 0 && w == r.extreme {
                    *r = values.rescan(&self.vals, node);
                }
            }
            if self.running[node as usize].value(op) != before {
                for &t in values.tests_of(node) {
                    self.mark(t);
                }
            }
        }
    }

    /// Recomputes a recursive component and tells what changed.
    fn recompute<const ASIDE: bool>(&mut self, net: &Net, prop: &Propagation, a: u32, b: u32) {
        let n = (b - a) as usize;
        self.before[..n].copy_from_slice(&self.vals[a as usize..b as usize]);
        net.recursion
            .evaluate(net, &mut self.vals, a, b, &mut self.recursion);
        for i in 0..n {
            let s = a + i as u32;
            if self.vals[s as usize] != self.before[i] {
                // `flip` negates again: restore the old value first.
                self.vals[s as usize] = self.before[i];
                self.flip::<ASIDE>(prop, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_product;

    #[test]
    fn a_full_pairing_splits_into_its_halves() {
        // Positions 0 and 2 go together (a cell and its own mark), 1 and 3
        // too, and position 4 is the same literal in every rule.
        let mut rules = Vec::new();
        for a in 0..3 {
            for b in 0..2 {
                rules.push(vec![10 + a, 20 + b, 30 + a, 40 + b, 7]);
            }
        }
        let bodies: Vec<&[u32]> = rules.iter().map(Vec::as_slice).collect();
        let [first, second] = split_product(&bodies).expect("a product");
        assert_eq!(
            first,
            vec![vec![10, 30, 7], vec![11, 31, 7], vec![12, 32, 7]]
        );
        assert_eq!(second, vec![vec![20, 40], vec![21, 41]]);
    }

    #[test]
    fn a_pairing_with_a_literal_in_both_halves_splits() {
        // `open :- cell(A), cell(B)` with A = B among the pairs.
        let rules: Vec<Vec<u32>> = (0..3)
            .flat_map(|a| (0..3).map(move |b| vec![a, b]))
            .collect();
        let bodies: Vec<&[u32]> = rules.iter().map(Vec::as_slice).collect();
        let [first, second] = split_product(&bodies).expect("a product");
        assert_eq!(first, vec![vec![0], vec![1], vec![2]]);
        assert_eq!(second, vec![vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn a_pairing_with_a_pair_missing_or_twice_does_not_split() {
        let mut rules: Vec<Vec<u32>> = (0..3)
            .flat_map(|a| (0..3).map(move |b| vec![a, 10 + b]))
            .collect();
        rules.pop();
        let bodies: Vec<&[u32]> = rules.iter().map(Vec::as_slice).collect();
        assert!(split_product(&bodies).is_none());
        rules.push(vec![0, 10]);
        let bodies: Vec<&[u32]> = rules.iter().map(Vec::as_slice).collect();
        assert!(split_product(&bodies).is_none());
    }

    #[test]
    fn rules_whose_positions_all_go_together_do_not_split() {
        let rules: Vec<Vec<u32>> = (0..4).map(|a| vec![a, 10 + a]).collect();
        let bodies: Vec<&[u32]> = rules.iter().map(Vec::as_slice).collect();
        assert!(split_product(&bodies).is_none());
    }
}
