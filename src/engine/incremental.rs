//! The event-driven evaluator of a state's view (terminal, legal moves,
//! weights): differential propagation between consecutive states.
//!
//! In: a compiled [`Net`]. Out: [`Propagation`] (immutable tables, shared by
//! every machine of a game) and [`Counters`] (one machine's values).
//! Holds: after [`Counters::load`], every slot of the view cone has the
//! value the reference plan would compute for that state. Per rule it keeps
//! the number of false literals, per non-recursive derived slot the number
//! of rules that hold; a changed slot updates the rules that read it
//! (fan-out), and slots whose support crosses zero are settled once, in slot
//! order (which is dependency order). A recursive component is recomputed
//! with the fixpoint when one of its inputs changes. Loading allocates
//! nothing.

use super::compile::{BASE0, Net, PlanStep, SLOT_TRUE};

/// No recursive component starts at this slot.
const NOT_COMPONENT: u32 = 0;

/// The tables propagation reads, built once per game.
#[derive(Clone, Debug)]
pub struct Propagation {
    /// For every slot: the view rules reading it, as `rule << 1 | negated`,
    /// at `fanout[fanout_start[s]..fanout_start[s + 1]]`.
    fanout_start: Vec<u32>,
    fanout: Vec<u32>,
    /// For every slot: the first slots of the recursive view components
    /// (other than its own) that read it.
    component_start: Vec<u32>,
    components: Vec<u32>,
    /// For the first slot of a recursive view component: its end.
    component_end: Vec<u32>,
    /// The head slot of every rule (meaningful for view rules).
    head: Vec<u32>,
    /// The view plan's derived slots, in order, and its rules.
    view_slots: Vec<u32>,
    /// For every slot: the (role, move) pairs whose legality it is, at
    /// `moves[move_start[s]..move_start[s + 1]]`.
    move_start: Vec<u32>,
    moves: Vec<(u32, u32)>,
    /// View slots that another plan may compute differently (they depend
    /// on the moves): copied to the machine's values after every load.
    overwritten: Vec<u32>,
    /// The largest recursive view component.
    widest: usize,
}

fn head_in_view(view_slots: &[u32], s: u32) -> bool {
    view_slots.binary_search(&s).is_ok()
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

impl Propagation {
    pub fn new(net: &Net) -> Propagation {
        let mut component_end = vec![NOT_COMPONENT; net.slots];
        let mut owner = vec![u32::MAX; net.slots];
        let mut view_slots = Vec::new();
        let mut widest = 0;
        for step in &net.view {
            match *step {
                PlanStep::One(s) => view_slots.push(s),
                PlanStep::Fixpoint(a, b) => {
                    component_end[a as usize] = b;
                    (a..b).for_each(|s| owner[s as usize] = a);
                    view_slots.extend(a..b);
                    widest = widest.max((b - a) as usize);
                }
            }
        }
        let mut head = vec![u32::MAX; net.rule_lits.len() - 1];
        let mut reads = Vec::new();
        let mut component_reads = Vec::new();
        for &s in &view_slots {
            for rule in rules_of(net, s) {
                head[rule as usize] = s;
                for &l in body(net, rule) {
                    let read = l >> 1;
                    match owner[s as usize] {
                        u32::MAX => reads.push((read, rule << 1 | (l & 1))),
                        c if owner[read as usize] != c => component_reads.push((read, c)),
                        _ => {}
                    }
                }
            }
        }
        component_reads.sort_unstable();
        component_reads.dedup();
        let (fanout_start, fanout) = grouped(net.slots, &reads);
        let (component_start, components) = grouped(net.slots, &component_reads);
        let mut legal = Vec::new();
        let mut pairs = Vec::new();
        for (r, role) in net.roles.iter().enumerate() {
            for (m, mv) in role.moves.iter().enumerate() {
                legal.push((mv.legal, pairs.len() as u32));
                pairs.push((r as u32, m as u32));
            }
        }
        let (move_start, move_index) = grouped(net.slots, &legal);
        let moves = move_index.iter().map(|&i| pairs[i as usize]).collect();
        let mut overwritten = Vec::new();
        for step in &net.after {
            let (a, b) = match *step {
                PlanStep::One(s) => (s, s + 1),
                PlanStep::Fixpoint(a, b) => (a, b),
            };
            overwritten.extend((a..b).filter(|&s| head_in_view(&view_slots, s)));
        }
        Propagation {
            fanout_start,
            fanout,
            component_start,
            components,
            component_end,
            head,
            view_slots,
            move_start,
            moves,
            overwritten,
            widest,
        }
    }

    /// The (role, move) pairs whose legality slot `s` is.
    fn moves_of(&self, s: u32) -> &[(u32, u32)] {
        &self.moves[self.move_start[s as usize] as usize..self.move_start[s as usize + 1] as usize]
    }
}

fn rules_of(net: &Net, s: u32) -> std::ops::Range<u32> {
    let d = (s - net.first_derived) as usize;
    net.slot_rules[d]..net.slot_rules[d + 1]
}

fn body(net: &Net, rule: u32) -> &[u32] {
    &net.lits[net.rule_lits[rule as usize] as usize..net.rule_lits[rule as usize + 1] as usize]
}

fn holds(net: &Net, vals: &[bool], rule: u32) -> bool {
    body(net, rule)
        .iter()
        .all(|&l| vals[(l >> 1) as usize] != (l & 1 == 1))
}

/// One machine's propagation state: the values of the loaded state, the
/// counters, and scratch lists reused by every load.
#[derive(Clone, Debug)]
pub struct Counters {
    /// The base facts the values describe.
    loaded: Box<[u64]>,
    vals: Vec<bool>,
    /// Per rule, its false literals.
    false_lits: Vec<u32>,
    /// Per slot, its rules that hold.
    support: Vec<u32>,
    /// Slots to settle, as a bitset.
    dirty: Vec<u64>,
    /// Slots whose value changed in the last load.
    changed: Vec<u32>,
    /// A recursive component's values before it is recomputed.
    before: Vec<bool>,
}

impl Counters {
    /// The counters of a state, computed from scratch.
    pub fn new(net: &Net, prop: &Propagation, state: &[u64]) -> Counters {
        let mut vals = vec![false; net.slots];
        vals[SLOT_TRUE as usize] = true;
        for i in 0..net.base.len() {
            vals[BASE0 as usize + i] = state[i / 64] >> (i % 64) & 1 == 1;
        }
        for step in &net.view {
            match *step {
                PlanStep::One(s) => vals[s as usize] = rules_of(net, s).any(|r| holds(net, &vals, r)),
                PlanStep::Fixpoint(a, b) => fixpoint(net, &mut vals, a, b),
            }
        }
        let mut false_lits = vec![0; prop.head.len()];
        let mut support = vec![0; net.slots];
        for &s in &prop.view_slots {
            for rule in rules_of(net, s) {
                let f = body(net, rule)
                    .iter()
                    .filter(|&&l| vals[(l >> 1) as usize] == (l & 1 == 1))
                    .count();
                false_lits[rule as usize] = f as u32;
                support[s as usize] += (f == 0) as u32;
            }
        }
        Counters {
            loaded: state.into(),
            vals,
            false_lits,
            support,
            dirty: vec![0; net.slots.div_ceil(64)],
            changed: Vec::with_capacity(net.slots),
            before: vec![false; prop.widest],
        }
    }

    /// The values of every view slot (and base fact) of the loaded state.
    pub fn vals(&self) -> &[bool] {
        &self.vals
    }

    /// Moves the values to `state`, propagating what changed; then copies
    /// the changed values into `out` and updates the sorted legal lists.
    pub fn load(
        &mut self,
        net: &Net,
        prop: &Propagation,
        state: &[u64],
        out: &mut [bool],
        legal: &mut [Vec<u32>],
    ) {
        self.changed.clear();
        for (w, &word) in state.iter().enumerate() {
            let mut diff = word ^ self.loaded[w];
            self.loaded[w] = word;
            while diff != 0 {
                let s = BASE0 + (w * 64) as u32 + diff.trailing_zeros();
                diff &= diff - 1;
                self.flip(prop, s);
            }
        }
        self.settle(net, prop);
        for &s in &self.changed {
            out[s as usize] = self.vals[s as usize];
            for &(r, m) in prop.moves_of(s) {
                let list = &mut legal[r as usize];
                match (self.vals[s as usize], list.binary_search(&m)) {
                    (true, Err(at)) => list.insert(at, m),
                    (false, Ok(at)) => {
                        list.remove(at);
                    }
                    _ => {}
                }
            }
        }
        for &s in &prop.overwritten {
            out[s as usize] = self.vals[s as usize];
        }
    }

    /// Changes the value of slot `s` and tells the rules that read it.
    fn flip(&mut self, prop: &Propagation, s: u32) {
        let v = !self.vals[s as usize];
        self.vals[s as usize] = v;
        self.changed.push(s);
        let (a, b) = (
            prop.fanout_start[s as usize] as usize,
            prop.fanout_start[s as usize + 1] as usize,
        );
        for &e in &prop.fanout[a..b] {
            let rule = (e >> 1) as usize;
            let head = prop.head[rule];
            if v != (e & 1 == 1) {
                self.false_lits[rule] -= 1;
                if self.false_lits[rule] == 0 {
                    self.support[head as usize] += 1;
                    self.mark(head);
                }
            } else {
                self.false_lits[rule] += 1;
                if self.false_lits[rule] == 1 {
                    self.support[head as usize] -= 1;
                    self.mark(head);
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

    fn mark(&mut self, s: u32) {
        self.dirty[s as usize / 64] |= 1 << (s % 64);
    }

    /// Settles the dirty slots in slot order: a slot marks only later ones.
    fn settle(&mut self, net: &Net, prop: &Propagation) {
        for w in 0..self.dirty.len() {
            while self.dirty[w] != 0 {
                let bit = self.dirty[w].trailing_zeros();
                self.dirty[w] &= !(1 << bit);
                let s = (w * 64) as u32 + bit;
                match prop.component_end[s as usize] {
                    NOT_COMPONENT => {
                        if (self.support[s as usize] > 0) != self.vals[s as usize] {
                            self.flip(prop, s);
                        }
                    }
                    end => self.recompute(net, prop, s, end),
                }
            }
        }
    }

    /// Recomputes a recursive component and tells what changed.
    fn recompute(&mut self, net: &Net, prop: &Propagation, a: u32, b: u32) {
        let n = (b - a) as usize;
        self.before[..n].copy_from_slice(&self.vals[a as usize..b as usize]);
        fixpoint(net, &mut self.vals, a, b);
        for i in 0..n {
            let s = a + i as u32;
            if self.vals[s as usize] != self.before[i] {
                // `flip` negates again: restore the old value first.
                self.vals[s as usize] = self.before[i];
                self.flip(prop, s);
            }
        }
    }
}

/// The least fixpoint of a recursive component, as the reference computes it.
fn fixpoint(net: &Net, vals: &mut [bool], a: u32, b: u32) {
    vals[a as usize..b as usize].fill(false);
    loop {
        let mut changed = false;
        for s in a..b {
            let v = rules_of(net, s).any(|r| holds(net, vals, r));
            if v != vals[s as usize] {
                vals[s as usize] = v;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}
