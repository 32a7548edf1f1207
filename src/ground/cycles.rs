//! Local stratification: recursion through negation by relation names is
//! accepted when no ground atom depends on its own negation.
//!
//! In: before grounding, the prepared rules and their relations ([`watched`]:
//! which rules can close a negative cycle); after it, the ground program and
//! the ground instances of those rules ([`negative_cycle`]). Out: a
//! `NEGATIVE_CYCLE` error naming a cycle of ground atoms through a negation,
//! if the ground program has one.
//! Holds: a cycle of ground atoms maps onto a cycle of their relations, so
//! only rules whose head lies in a component of relations with a negative
//! edge inside can close one; a program stratified by relation names
//! watches no rule and pays nothing. Every search is iterative
//! ([`crate::scc`]), so a cycle of a hundred thousand atoms is found and
//! named without recursion. The compiler numbers ground atoms by the same
//! components, so in a program without such a cycle every negation is
//! evaluated after the atom it reads, never inside a fixpoint.

use super::prepare::Prepared;
use super::{Ground, RuleRels};
use crate::diag::{Diagnostic, codes};
use crate::scc;
use crate::syntax::Span;
use rustc_hash::FxHashMap;

/// Steps of a ground cycle shown in the message before the rest is elided.
const SHOWN_STEPS: usize = 8;

/// Whether each rule's head lies in a component of relations with a
/// negative edge inside. Bridge rules are left out: the ground program does
/// not hold them (`true` and `does` are inputs, they break cycles).
pub(super) fn watched(rules: &[Prepared], rels: &[RuleRels], relations: usize) -> Vec<bool> {
    let mut succ: Vec<Vec<(usize, bool)>> = vec![Vec::new(); relations];
    for (rule, r) in rules.iter().zip(rels) {
        if !rule.bridge {
            succ[r.head].extend(r.pos.iter().map(|&b| (b, false)));
            succ[r.head].extend(r.neg.iter().map(|&b| (b, true)));
        }
    }
    let comps = scc::components(relations, |v, k| succ[v].get(k).map(|e| e.0));
    let mut comp = vec![0; relations];
    for (c, members) in comps.iter().enumerate() {
        members.iter().for_each(|&v| comp[v as usize] = c);
    }
    let mut negative = vec![false; comps.len()];
    for (v, edges) in succ.iter().enumerate() {
        for &(w, negated) in edges {
            negative[comp[v]] |= negated && comp[w] == comp[v];
        }
    }
    rules
        .iter()
        .zip(rels)
        .map(|(rule, r)| !rule.bridge && negative[comp[r.head]])
        .collect()
}

/// An edge from a ground atom to one its rule reads.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    negated: bool,
    /// The watched ground rule that makes it (an index into `watched`).
    rule: u32,
}

/// The error for a cycle of ground atoms through a negation, if any;
/// `watched` holds every ground instance (rule number, source span) of the
/// rules [`watched`] chose.
pub(super) fn negative_cycle(ground: &Ground, watched: &[(u32, Span)]) -> Option<Diagnostic> {
    // Only heads of watched rules can lie on a cycle: number them densely.
    let mut node: FxHashMap<u32, u32> = FxHashMap::default();
    let mut atoms: Vec<u32> = Vec::new();
    for &(r, _) in watched {
        let head = ground.heads[r as usize].0;
        node.entry(head).or_insert_with(|| {
            atoms.push(head);
            atoms.len() as u32 - 1
        });
    }
    let mut edges: Vec<Vec<Edge>> = vec![Vec::new(); atoms.len()];
    for (i, &(r, _)) in watched.iter().enumerate() {
        let from = node[&ground.heads[r as usize].0] as usize;
        for lit in ground.body(r as usize) {
            if let Some(&to) = node.get(&lit.atom().0) {
                let negated = lit.negated();
                let rule = i as u32;
                edges[from].push(Edge { to, negated, rule });
            }
        }
    }
    let comps = scc::components(atoms.len(), |v, k| edges[v].get(k).map(|e| e.to as usize));
    let mut comp = vec![0; atoms.len()];
    for (c, members) in comps.iter().enumerate() {
        members.iter().for_each(|&v| comp[v as usize] = c);
    }
    let (from, e) = edges.iter().enumerate().find_map(|(v, es)| {
        es.iter()
            .find(|e| e.negated && comp[e.to as usize] == comp[v])
            .map(|e| (v, *e))
    })?;
    // `e.to` reaches `from` inside their component: the path closes the cycle.
    let back = scc::shortest_path(
        e.to as usize,
        |w| w == from,
        |w| comp[w] == comp[from],
        |w, k| edges[w].get(k).map(|x| (x.to as usize, *x)),
    )?;
    let show = |v: u32| ground.show_atom(super::AtomId(atoms[v as usize]));
    let steps: Vec<Edge> = std::iter::once(e).chain(back).collect();
    Some(
        Diagnostic::error(
            codes::NEGATIVE_CYCLE,
            watched[e.rule as usize].1,
            format!(
                "recursion through negation on ground atoms: {}",
                cycle_text(&show(from as u32), &steps, show)
            ),
        )
        .with_note(
            "a ground atom depends on its own negation, so the rules have no stratification, \
             not even on ground atoms",
        ),
    )
}

/// `a -> not b -> a`, with the middle of a long cycle elided.
fn cycle_text(start: &str, steps: &[Edge], show: impl Fn(u32) -> String) -> String {
    let step = |e: &Edge| format!(" -> {}{}", if e.negated { "not " } else { "" }, show(e.to));
    let mut text = start.to_string();
    if steps.len() <= SHOWN_STEPS + 1 {
        steps.iter().for_each(|e| text.push_str(&step(e)));
        return text;
    }
    steps[..SHOWN_STEPS]
        .iter()
        .for_each(|e| text.push_str(&step(e)));
    let elided = steps.len() - SHOWN_STEPS - 1;
    text.push_str(&format!(" -> … {elided} more …"));
    text.push_str(&step(&steps[steps.len() - 1]));
    text
}
