//! The reference engine's plans flattened into one array of words each.
//!
//! In: a compiled [`Net`] and one of its plans. Out: a [`FlatPlan`]: the
//! plan's steps in order, each slot followed by its rules' literals, so a
//! step reads its rules from one run of memory instead of looking each up
//! through `slot_rules` and `rule_lits`. A slot's rules are grouped by
//! their first literal, written once per group: a group whose first
//! literal is false is skipped whole (a `goal` slot's rules that read one
//! player's score fact, say). Holds: [`FlatPlan::steps`] walks the plan's
//! steps in its order with the same rules (within a slot, in the order of
//! their groups), so the values it computes are the plan's
//! (`tests/differential.rs`).
//!
//! Layout of a step, by the tag in the low two bits of its first word:
//! - `ONE`: `slot << 2`, the index just past the step, then each group as
//!   its first literal (`slot << 1 | negated`), the number of words that
//!   follow for its rules, and each rule as the count of its other
//!   literals followed by them;
//! - `FIXPOINT`: `start << 2 | 1`, `end` (a recursive component);
//! - `TEST`: `slot << 2 | 2`, the test's index in the net's numbers.

use super::compile::{Net, PlanStep, SLOT_TRUE};

const ONE: u32 = 0;
const FIXPOINT: u32 = 1;
const TEST: u32 = 2;

/// One plan as words (see the module's layout).
#[derive(Clone, Debug, Default)]
pub struct FlatPlan {
    code: Vec<u32>,
}

/// A step of a [`FlatPlan`], as [`FlatPlan::steps`] yields it.
pub enum FlatStep<'p> {
    /// A slot and its rules, group by group ([`Groups`]).
    One(u32, Groups<'p>),
    /// A recursive component, slots `start..end`.
    Fixpoint(u32, u32),
    /// A test slot and its test.
    Test(u32, u32),
}

/// The groups of a `One` step's rules: each group's first literal and
/// its rules.
pub struct Groups<'p> {
    words: &'p [u32],
}

impl<'p> Iterator for Groups<'p> {
    type Item = (u32, Rules<'p>);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, Rules<'p>)> {
        let (&first, rest) = self.words.split_first()?;
        let (&len, rest) = rest.split_first()?;
        let (rules, rest) = rest.split_at(len as usize);
        self.words = rest;
        Some((first, Rules { words: rules }))
    }
}

/// The rules of a group, each as its literals after the first.
pub struct Rules<'p> {
    words: &'p [u32],
}

impl<'p> Iterator for Rules<'p> {
    type Item = &'p [u32];

    #[inline(always)]
    fn next(&mut self) -> Option<&'p [u32]> {
        let (&len, rest) = self.words.split_first()?;
        let (body, rest) = rest.split_at(len as usize);
        self.words = rest;
        Some(body)
    }
}

impl FlatPlan {
    /// Flattens `plan`, whose slots' rules are the net's.
    pub fn new(net: &Net, plan: &[PlanStep]) -> FlatPlan {
        let mut code = Vec::new();
        for step in plan {
            match *step {
                PlanStep::One(s) => {
                    code.push(s << 2 | ONE);
                    let end_at = code.len();
                    code.push(0);
                    let d = (s - net.first_derived) as usize;
                    let mut bodies: Vec<(u32, &[u32])> = (net.slot_rules[d]..net.slot_rules[d + 1])
                        .map(|r| {
                            let (a, b) = (
                                net.rule_lits[r as usize] as usize,
                                net.rule_lits[r as usize + 1] as usize,
                            );
                            match net.lits[a..b].split_first() {
                                Some((&first, rest)) => (first, rest),
                                None => (SLOT_TRUE << 1, &[][..]),
                            }
                        })
                        .collect();
                    // Stable: the rules of a group keep the plan's order.
                    bodies.sort_by_key(|&(first, _)| first);
                    for group in bodies.chunk_by(|a, b| a.0 == b.0) {
                        code.push(group[0].0);
                        let group_len_at = code.len();
                        code.push(0);
                        for &(_, rest) in group {
                            code.push(rest.len() as u32);
                            code.extend_from_slice(rest);
                        }
                        code[group_len_at] = (code.len() - group_len_at - 1) as u32;
                    }
                    code[end_at] = code.len() as u32;
                }
                PlanStep::Fixpoint(a, b) => code.extend([a << 2 | FIXPOINT, b]),
                PlanStep::Test(s, t) => code.extend([s << 2 | TEST, t]),
            }
        }
        FlatPlan { code }
    }

    /// The plan's steps in order.
    #[inline(always)]
    pub fn steps(&self) -> Steps<'_> {
        Steps {
            code: &self.code,
            at: 0,
        }
    }
}

/// The steps of a [`FlatPlan`].
pub struct Steps<'p> {
    code: &'p [u32],
    at: usize,
}

impl<'p> Iterator for Steps<'p> {
    type Item = FlatStep<'p>;

    #[inline(always)]
    fn next(&mut self) -> Option<FlatStep<'p>> {
        let head = *self.code.get(self.at)?;
        let (value, tag) = (head >> 2, head & 3);
        let second = self.code[self.at + 1];
        Some(match tag {
            ONE => {
                let words = &self.code[self.at + 2..second as usize];
                self.at = second as usize;
                FlatStep::One(value, Groups { words })
            }
            FIXPOINT => {
                self.at += 2;
                FlatStep::Fixpoint(value, second)
            }
            _ => {
                self.at += 2;
                FlatStep::Test(value, second)
            }
        })
    }
}

/// The three plans a step of the reference engine runs.
#[derive(Clone, Debug, Default)]
pub struct FlatPlans {
    pub view: FlatPlan,
    pub after: FlatPlan,
    pub goal: FlatPlan,
}

impl FlatPlans {
    pub fn new(net: &Net) -> FlatPlans {
        FlatPlans {
            view: FlatPlan::new(net, &net.view),
            after: FlatPlan::new(net, &net.after),
            goal: FlatPlan::new(net, &net.goal),
        }
    }
}
