//! The relaxed model's evaluation order: each relation as complete as it
//! can be before its readers run.
//!
//! In: the rules of a relaxed model ([`super::Output::Atoms`]) and their
//! relations. Out: the model, made by [`Grounder::run`] joins. Holds:
//! every rule remembers, per positive literal, how many of its relation's
//! facts it has joined with; a run joins each literal's facts new since
//! then with the facts the others had (the literals before it) or have now
//! (those after it), so every instance is found once, whatever order the
//! rules run in. The order ([`Step`]): the relations' components of mutual
//! recursion, dependencies first, leaving out the bridges (`true` from
//! `init` and `next`, `does` from `legal`) that close a game's cycle; a
//! component runs until it adds nothing, its relation with the largest
//! rule (the most positive literals) once per turn and the others, ordered
//! the same way without it, in between: a weak topological order (F.
//! Bourdoncle, 1993). The bridges run last, and the pass starts again
//! while they add facts. A costly join then runs about once per step of
//! the game's reach instead of once per round of the slowest recursion (a
//! `less than` climbing 50 numbers one per round): a join that enumerates
//! many bindings to make a few atoms runs fewer times
//! ([`join`](super::join)'s cuts hold within one run only).

use super::prepare::Prepared;
use super::{Grounder, Reached, RuleRels, aggregate};
use crate::diag::Diagnostic;
use crate::gdl::Relation as Reserved;
use std::cmp::Ordering;

/// Components nest at most this deep; a component deeper down runs its
/// rules in turn, in rule order, until they add nothing.
const MAX_NESTING: usize = 16;

/// One step of the order.
enum Step {
    /// Rules run once on what they have not joined yet: those of a relation
    /// outside any recursion.
    Once(Vec<usize>),
    /// A component of mutual recursion, run until it adds nothing: the
    /// rules of its head relation, then the steps of the others.
    Loop(Vec<usize>, Vec<Step>),
}

/// The rules of a relaxed model, what each has joined, and a buffer for
/// the windows of a run.
struct Run<'a> {
    rules: &'a [Prepared],
    rels: &'a [RuleRels],
    joined: Vec<Vec<u32>>,
    windows: Vec<(u32, u32)>,
}

impl Grounder<'_> {
    /// Evaluates the rules of a relaxed model to its least model, the
    /// rules without positive literals already run; `rels[i]` are the
    /// relations of `rules[i]`. When the rules add nothing, the
    /// aggregates' candidate values are brought up to date, and evaluation
    /// goes on while they grow. A round is a pass, or a component's turn
    /// after its first in a pass; neither a component nor the passes may
    /// take more than [`super::Limits::max_rounds`].
    pub(super) fn solve_in_order(
        &mut self,
        rules: &[Prepared],
        rels: &[RuleRels],
        aggregates: &[aggregate::AggSpec],
    ) -> Result<(), Diagnostic> {
        let steps = self.order(rules, rels);
        let mut run = Run {
            rules,
            rels,
            joined: rels.iter().map(|r| vec![0; r.pos.len()]).collect(),
            windows: Vec::new(),
        };
        for pass in 1.. {
            if !self.steps(&steps, &mut run)? && !self.aggregate_candidates(aggregates)? {
                return Ok(());
            }
            self.next_round(pass)?;
        }
        Ok(())
    }

    /// Runs the steps once; whether any rule had facts to join.
    fn steps(&mut self, steps: &[Step], run: &mut Run) -> Result<bool, Diagnostic> {
        let mut ran = false;
        for step in steps {
            match step {
                Step::Once(rules) => ran |= self.run_rules(rules, run)?,
                Step::Loop(head, rest) => {
                    for turn in 0.. {
                        let turned = self.run_rules(head, run)? | self.steps(rest, run)?;
                        if !turned {
                            break;
                        }
                        if turn > 0 {
                            self.next_round(turn)?;
                        }
                        ran = true;
                    }
                }
            }
        }
        Ok(ran)
    }

    /// Runs each rule on what it has not joined yet; whether any had facts
    /// to join.
    fn run_rules(&mut self, rules: &[usize], run: &mut Run) -> Result<bool, Diagnostic> {
        let mut ran = false;
        for &r in rules {
            ran |= self.run_new(r, run)?;
        }
        Ok(ran)
    }

    /// Starts a round, the `count`-th of a component or of the passes, or
    /// stops at [`super::Limits::max_rounds`].
    fn next_round(&mut self, count: u32) -> Result<(), Diagnostic> {
        self.extents.push(self.terms.extent());
        if count >= self.limits.max_rounds {
            return Err(self.too_big(self.last_span, Reached::Rounds));
        }
        Ok(())
    }

    /// Runs rule `r` on the facts its literals have gained since it last
    /// ran, once per literal with new facts; whether there were any.
    fn run_new(&mut self, r: usize, run: &mut Run) -> Result<bool, Diagnostic> {
        let (rule, rels, joined) = (&run.rules[r], &run.rels[r], &mut run.joined[r]);
        let now: Vec<u32> = (rels.pos.iter())
            .map(|&rel| self.rels[rel].atoms.len() as u32)
            .collect();
        let mut ran = false;
        for delta in (0..now.len()).filter(|&i| now[i] > joined[i]) {
            run.windows.clear();
            run.windows
                .extend((0..now.len()).map(|i| match i.cmp(&delta) {
                    Ordering::Less => (0, joined[i]),
                    Ordering::Equal => (joined[i], now[i]),
                    Ordering::Greater => (0, now[i]),
                }));
            self.run(rule, rels, Some(delta), &run.windows)?;
            ran = true;
        }
        joined.copy_from_slice(&now);
        Ok(ran)
    }

    /// The steps of every rule with positive literals: the relations but
    /// `true` and `does` (which only the bridges define) in their order,
    /// then the bridges.
    fn order(&self, rules: &[Prepared], rels: &[RuleRels]) -> Vec<Step> {
        let bridged = [Reserved::True, Reserved::Does].map(|r| {
            let name = self.symbols.get(r.name());
            name.and_then(|s| self.rel_ids.get(&(s, r.arity())).copied())
        });
        let is_bridge = |rel: usize| bridged.contains(&Some(rel));
        let mut graph = Graph {
            reads: vec![Vec::new(); self.rels.len()],
            rules_of: vec![Vec::new(); self.rels.len()],
            size: vec![0; self.rels.len()],
        };
        let mut bridges = Vec::new();
        for (r, rule_rels) in rels.iter().enumerate() {
            let head = rule_rels.head;
            if rules[r].pos.is_empty() {
                continue;
            }
            if is_bridge(head) {
                bridges.push(r);
                continue;
            }
            graph.reads[head].extend(rule_rels.pos.iter().filter(|&&b| !is_bridge(b)));
            graph.rules_of[head].push(r);
            graph.size[head] = graph.size[head].max(rules[r].pos.len());
        }
        let nodes: Vec<usize> = (0..self.rels.len())
            .filter(|&v| !graph.rules_of[v].is_empty())
            .collect();
        let mut steps = graph.steps(&nodes, 0);
        steps.push(Step::Once(bridges));
        steps
    }
}

/// The relations with rules, as a graph from each to those its rules read.
struct Graph {
    reads: Vec<Vec<usize>>,
    rules_of: Vec<Vec<usize>>,
    /// The most positive literals of a rule of each relation.
    size: Vec<usize>,
}

impl Graph {
    /// The steps of the relations `nodes` (sorted), dependencies first.
    fn steps(&self, nodes: &[usize], depth: usize) -> Vec<Step> {
        let inside = |v: &usize| nodes.binary_search(v).ok();
        let edges: Vec<Vec<usize>> = (nodes.iter())
            .map(|&v| self.reads[v].iter().filter_map(inside).collect())
            .collect();
        let components = crate::scc::components(nodes.len(), |v, k| edges[v].get(k).copied());
        let mut steps = Vec::new();
        for component in components {
            let mut members: Vec<usize> = component.iter().map(|&i| nodes[i as usize]).collect();
            let recursive = members.len() > 1
                || edges[component[0] as usize].contains(&(component[0] as usize));
            if !recursive {
                steps.push(Step::Once(self.rules_of[members[0]].clone()));
                continue;
            }
            members.sort_unstable();
            if depth >= MAX_NESTING {
                let mut rules: Vec<usize> = members
                    .iter()
                    .flat_map(|&v| self.rules_of[v].iter().copied())
                    .collect();
                rules.sort_unstable();
                steps.push(Step::Loop(rules, Vec::new()));
                continue;
            }
            // The largest rule's relation heads the component (the first
            // such on a tie).
            let head = *members
                .iter()
                .rev()
                .max_by_key(|&&v| self.size[v])
                .expect("a component has members");
            members.retain(|&v| v != head);
            steps.push(Step::Loop(
                self.rules_of[head].clone(),
                self.steps(&members, depth + 1),
            ));
        }
        steps
    }
}
