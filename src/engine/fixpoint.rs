//! Recursive components evaluated by propagation instead of rounds.
//!
//! In: a compiled [`Net`] whose recursive components occupy contiguous slot
//! ranges. Out: [`Recursion`], built once per game: for each component its
//! rules, the ones that read no member (the seeds), and for every member the
//! rules reading it. Holds: [`Recursion::evaluate`] leaves a component's
//! slots at the least fixpoint of its rules over the values outside it,
//! exactly as rounds of every rule until nothing changes would, but it
//! tries each seed once and any other rule only when the last of the
//! members it reads becomes true. A chain of n atoms then costs its rules
//! about once, where rounds cost up to n passes over every rule of the
//! component. A component that reads one of its own members negated (which
//! the checks refuse before compiling) is evaluated by rounds.

use super::compile::Net;
use super::rule_holds;

/// The propagation tables of every recursive component of a net.
#[derive(Clone, Debug, Default)]
pub struct Recursion {
    /// Components in slot order, and the first slot of each.
    components: Vec<Component>,
    starts: Vec<u32>,
    /// The most rules and the most members of one component.
    widest_rules: usize,
    widest_members: usize,
}

/// One recursive component: slots `start..end`.
#[derive(Clone, Debug)]
struct Component {
    start: u32,
    end: u32,
    /// Every rule of the component as (head slot, rule).
    rules: Vec<(u32, u32)>,
    /// Per rule (index into `rules`): how many of its literals read a member.
    members_read: Vec<u32>,
    /// The rules that read no member.
    seeds: Vec<u32>,
    /// For member `i` (slot `start + i`): the rules reading it (one entry
    /// per literal), at `readers[reader_start[i]..reader_start[i + 1]]`.
    reader_start: Vec<u32>,
    readers: Vec<u32>,
    /// Some rule reads a member negated: evaluate by rounds.
    by_rounds: bool,
}

/// One machine's working space, sized for the widest component so that an
/// evaluation never allocates.
#[derive(Debug)]
pub struct Scratch {
    /// Per rule of the component being evaluated: members it still waits for.
    waiting: Vec<u32>,
    /// Members that became true and whose readers are not yet visited.
    stack: Vec<u32>,
}

/// A copy keeps the room of the lists, so it never allocates either.
impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch {
            waiting: Vec::with_capacity(self.waiting.capacity()),
            stack: Vec::with_capacity(self.stack.capacity()),
        }
    }
}

impl Recursion {
    /// The tables of the components `ranges` (each `start..end`, recursive).
    pub fn new(net: &Net, ranges: impl Iterator<Item = (u32, u32)>) -> Recursion {
        let components: Vec<Component> = ranges.map(|(a, b)| Component::new(net, a, b)).collect();
        Recursion {
            starts: components.iter().map(|c| c.start).collect(),
            widest_rules: components.iter().map(|c| c.rules.len()).max().unwrap_or(0),
            widest_members: components
                .iter()
                .map(|c| (c.end - c.start) as usize)
                .max()
                .unwrap_or(0),
            components,
        }
    }

    /// Working space for [`Recursion::evaluate`] on any component of this net.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            waiting: Vec::with_capacity(self.widest_rules),
            stack: Vec::with_capacity(self.widest_members),
        }
    }

    /// Sets slots `a..b`, a recursive component, to the least fixpoint of
    /// its rules; every slot it reads outside the range must be computed.
    pub fn evaluate(&self, net: &Net, vals: &mut [bool], a: u32, b: u32, scratch: &mut Scratch) {
        vals[a as usize..b as usize].fill(false);
        match self.starts.binary_search(&a) {
            Ok(i) if !self.components[i].by_rounds => {
                self.components[i].propagate(net, vals, scratch)
            }
            _ => rounds(net, vals, a, b),
        }
    }
}

impl Component {
    fn new(net: &Net, start: u32, end: u32) -> Component {
        let members = (end - start) as usize;
        let mut rules = Vec::new();
        let mut members_read = Vec::new();
        let mut seeds = Vec::new();
        let mut reads: Vec<(u32, u32)> = Vec::new();
        let mut by_rounds = false;
        for head in start..end {
            for rule in rules_of(net, head) {
                let index = rules.len() as u32;
                rules.push((head, rule));
                let mut n = 0;
                for &l in body(net, rule) {
                    let s = l >> 1;
                    if (start..end).contains(&s) {
                        by_rounds |= l & 1 == 1;
                        reads.push((s - start, index));
                        n += 1;
                    }
                }
                if n == 0 {
                    seeds.push(index);
                }
                members_read.push(n);
            }
        }
        reads.sort_unstable();
        let mut reader_start = vec![0u32; members + 1];
        for &(m, _) in &reads {
            reader_start[m as usize + 1] += 1;
        }
        for m in 0..members {
            reader_start[m + 1] += reader_start[m];
        }
        Component {
            start,
            end,
            rules,
            members_read,
            seeds,
            reader_start,
            readers: reads.into_iter().map(|(_, r)| r).collect(),
            by_rounds,
        }
    }

    /// The least fixpoint from all members false: the seeds once, then the
    /// readers of each member that becomes true, each rule tried when it
    /// waits for no member any more.
    fn propagate(&self, net: &Net, vals: &mut [bool], scratch: &mut Scratch) {
        let Scratch { waiting, stack } = scratch;
        waiting.clear();
        waiting.extend_from_slice(&self.members_read);
        stack.clear();
        let fire = |i: u32, vals: &mut [bool], stack: &mut Vec<u32>| {
            let (head, rule) = self.rules[i as usize];
            if !vals[head as usize] && rule_holds(net, vals, rule) {
                vals[head as usize] = true;
                stack.push(head);
            }
        };
        for &i in &self.seeds {
            fire(i, vals, stack);
        }
        while let Some(s) = stack.pop() {
            let m = (s - self.start) as usize;
            let (from, to) = (self.reader_start[m], self.reader_start[m + 1]);
            for &i in &self.readers[from as usize..to as usize] {
                waiting[i as usize] -= 1;
                if waiting[i as usize] == 0 {
                    fire(i, vals, stack);
                }
            }
        }
    }
}

/// Rounds of every rule of `a..b`, in slot order, until nothing changes.
fn rounds(net: &Net, vals: &mut [bool], a: u32, b: u32) {
    loop {
        let mut changed = false;
        for s in a..b {
            let v = rules_of(net, s).any(|r| rule_holds(net, vals, r));
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

/// The rules of derived slot `s`.
fn rules_of(net: &Net, s: u32) -> std::ops::Range<u32> {
    let d = (s - net.first_derived) as usize;
    net.slot_rules[d]..net.slot_rules[d + 1]
}

fn body(net: &Net, rule: u32) -> &[u32] {
    &net.lits[net.rule_lits[rule as usize] as usize..net.rule_lits[rule as usize + 1] as usize]
}
