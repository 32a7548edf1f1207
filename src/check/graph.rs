//! The relation dependency graph: stratification and reserved dependencies.
//!
//! In: a program. Out: its strata (relations grouped so that each depends
//! only on lower strata, or on its own stratum positively), a
//! `NEGATIVE_CYCLE` error per strongly-connected component with a negative
//! edge inside (naming one such cycle), and a `RESERVED` error per reserved
//! relation that depends on `true` or `does` where GDL forbids it.
//! Holds: an edge goes from the head of a rule to each relation of its body;
//! `true` and `does` are inputs (the previous state, the moves) and have no
//! node, so they break cycles. Tarjan's algorithm and every search here use
//! explicit stacks: 100,000 chained relations do not overflow the stack.

use super::Sink;
use super::walk::body_atoms;
use crate::diag::{Diagnostic, codes};
use crate::syntax::{Program, Span, Sym};
use indexmap::IndexMap;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug)]
struct Edge {
    to: usize,
    negative: bool,
    /// The body literal that makes the edge.
    span: Span,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
    /// First body literal `true ...` / `does ...` in a rule of this relation.
    uses_true: Option<Span>,
    uses_does: Option<Span>,
}

/// The index of `rel`'s node, added if new.
fn node(names: &mut IndexMap<Sym, Node>, rel: Sym) -> usize {
    match names.get_index_of(&rel) {
        Some(i) => i,
        None => names.insert_full(rel, Node::default()).0,
    }
}

pub(super) struct Graph {
    names: IndexMap<Sym, Node>,
}

impl Graph {
    pub fn new(program: &Program) -> Graph {
        let true_ = program.symbols.get("true");
        let does = program.symbols.get("does");
        let mut names: IndexMap<Sym, Node> = IndexMap::new();
        for rule in &program.rules {
            let h = node(&mut names, rule.head.rel);
            body_atoms(&rule.body, &mut |atom, negative| {
                if Some(atom.rel) == true_ {
                    names[h].uses_true.get_or_insert(atom.span);
                } else if Some(atom.rel) == does {
                    names[h].uses_does.get_or_insert(atom.span);
                } else {
                    let to = node(&mut names, atom.rel);
                    names[h].edges.push(Edge {
                        to,
                        negative,
                        span: atom.span,
                    });
                }
            });
        }
        Graph { names }
    }

    fn name(&self, i: usize) -> Sym {
        *self.names.get_index(i).map(|(s, _)| s).unwrap_or(&Sym(0))
    }

    /// Strongly-connected components in reverse topological order (every
    /// component comes after the components it depends on), by an iterative
    /// Tarjan, and the component of each node.
    fn components(&self) -> (Vec<Vec<usize>>, Vec<usize>) {
        const NONE: usize = usize::MAX;
        let n = self.names.len();
        let mut index = vec![NONE; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut comp = vec![NONE; n];
        let mut comps: Vec<Vec<usize>> = Vec::new();
        let mut next = 0;
        // The call stack: a node and how many of its edges are done.
        let mut calls: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if index[root] != NONE {
                continue;
            }
            calls.push((root, 0));
            while let Some(&mut (v, ref mut done)) = calls.last_mut() {
                if *done == 0 && index[v] == NONE {
                    index[v] = next;
                    low[v] = next;
                    next += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                let edges = &self.names[v].edges;
                if let Some(e) = edges.get(*done) {
                    *done += 1;
                    let w = e.to;
                    if index[w] == NONE {
                        calls.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut members = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = comps.len();
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    members.reverse();
                    comps.push(members);
                }
            }
        }
        (comps, comp)
    }

    /// Strata and `NEGATIVE_CYCLE` errors.
    pub fn stratify(&self, program: &Program, out: &mut Sink) -> Vec<Vec<Sym>> {
        let (comps, comp) = self.components();
        let mut level = vec![0usize; comps.len()];
        for (c, members) in comps.iter().enumerate() {
            let mut cycle_reported = false;
            for &v in members {
                for e in &self.names[v].edges {
                    let d = comp[e.to];
                    if d == c {
                        if e.negative && !cycle_reported {
                            cycle_reported = true;
                            out.push(self.cycle_error(program, v, *e, &comp));
                        }
                    } else {
                        level[c] = level[c].max(level[d] + usize::from(e.negative));
                    }
                }
            }
        }
        let height = level.iter().max().map_or(0, |m| m + 1);
        let mut strata = vec![Vec::new(); height];
        for (c, members) in comps.iter().enumerate() {
            strata[level[c]].extend(members.iter().map(|&v| self.name(v)));
        }
        strata
    }

    /// The error for a negative edge `from -> not e.to` inside one
    /// component: a shortest path back from `e.to` to `from` closes the cycle.
    fn cycle_error(&self, program: &Program, from: usize, e: Edge, comp: &[usize]) -> Diagnostic {
        let path = self.path(e.to, |v| v == from, |w| comp[w] == comp[from]);
        let name = |v: usize| program.symbols.name(self.name(v));
        let mut text = format!("{} -> not {}", name(from), name(e.to));
        for step in path.iter().flat_map(|p| p.iter()) {
            let polarity = if step.negative { "not " } else { "" };
            text.push_str(&format!(" -> {polarity}{}", name(step.to)));
        }
        Diagnostic::error(
            codes::NEGATIVE_CYCLE,
            e.span,
            format!("recursion through negation: {text}"),
        )
        .with_note("a relation cannot depend on its own negation; the rules have no stratification")
    }

    /// A shortest path of edges from `start` to a node satisfying `goal`,
    /// through nodes satisfying `allowed` (breadth first); `Some(vec![])` if
    /// `start` is a goal.
    fn path(
        &self,
        start: usize,
        goal: impl Fn(usize) -> bool,
        allowed: impl Fn(usize) -> bool,
    ) -> Option<Vec<Edge>> {
        let mut parent: IndexMap<usize, Option<(usize, Edge)>> = IndexMap::new();
        parent.insert(start, None);
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            if goal(v) {
                let mut steps = Vec::new();
                let mut at = v;
                while let Some(&Some((p, e))) = parent.get(&at) {
                    steps.push(e);
                    at = p;
                }
                steps.reverse();
                return Some(steps);
            }
            for e in &self.names[v].edges {
                if allowed(e.to) && !parent.contains_key(&e.to) {
                    parent.insert(e.to, Some((v, *e)));
                    queue.push_back(e.to);
                }
            }
        }
        None
    }

    /// `RESERVED` errors for reserved relations that depend on `true` or
    /// `does` where GDL forbids it.
    pub fn reserved_dependencies(&self, program: &Program, out: &mut Sink) {
        const FORBIDDEN: &[(&str, bool, bool, &str)] = &[
            // (relation, not on true, not on does, why)
            (
                "role",
                true,
                true,
                "the roles are fixed before the game starts",
            ),
            (
                "init",
                true,
                true,
                "the initial state cannot depend on a state or on moves",
            ),
            (
                "base",
                true,
                true,
                "`base` lists the possible fluents once and for all",
            ),
            (
                "input",
                true,
                true,
                "`input` lists the possible moves once and for all",
            ),
            (
                "legal",
                false,
                true,
                "the legal moves must be known before the moves are chosen",
            ),
            (
                "goal",
                false,
                true,
                "goals are read in a state, not during a move",
            ),
            (
                "terminal",
                false,
                true,
                "termination is read in a state, not during a move",
            ),
        ];
        for &(rel, no_true, no_does, why) in FORBIDDEN {
            let Some(start) = program
                .symbols
                .get(rel)
                .and_then(|s| self.names.get_index_of(&s))
            else {
                continue;
            };
            for (input, forbidden) in [("does", no_does), ("true", no_true)] {
                if !forbidden {
                    continue;
                }
                let uses = |v: usize| {
                    let node = &self.names[v];
                    if input == "does" {
                        node.uses_does
                    } else {
                        node.uses_true
                    }
                };
                let Some(path) = self.path(start, |v| uses(v).is_some(), |_| true) else {
                    continue;
                };
                let last = path.last().map_or(start, |e| e.to);
                let Some(use_span) = uses(last) else { continue };
                let mut chain = rel.to_string();
                for e in &path {
                    chain.push_str(" -> ");
                    if e.negative {
                        chain.push_str("not ");
                    }
                    chain.push_str(program.symbols.name(self.name(e.to)));
                }
                let message = format!("`{rel}` must not depend on `{input}`: {why}");
                let d = match path.first() {
                    None => Diagnostic::error(codes::RESERVED, use_span, message),
                    Some(first) => Diagnostic::error(codes::RESERVED, first.span, message)
                        .with_label(use_span, format!("`{input}` is used here"))
                        .with_note(format!("the dependency: {chain} -> {input}")),
                };
                out.push(d);
                // One error per relation: the `does` one is the more telling.
                break;
            }
        }
    }
}
