//! The relation dependency graph: stratification and reserved dependencies.
//!
//! In: a program. Out: its strata (relations grouped so that each depends
//! only on lower strata, or on its own stratum positively), per
//! strongly-connected component with a negative edge inside a
//! `NOT_STRATIFIED` warning (or an `AGGREGATE_CYCLE` error through an
//! aggregate) naming one such cycle, and a `RESERVED` error per reserved
//! relation that depends on `true` or `does` where GDL forbids it. Whether
//! a negative cycle of relations is a real one, an atom depending on its own
//! negation, only grounding can tell (`NEGATIVE_CYCLE` there).
//! Holds: an edge goes from the head of a rule to each relation of its body;
//! `true` and `does` are inputs (the previous state, the moves) and have no
//! node, so they break cycles. Tarjan's algorithm and every search here use
//! explicit stacks: 100,000 chained relations do not overflow the stack.

use super::Sink;
use super::walk::{Dep, body_atoms};
use crate::diag::{Diagnostic, codes};
use crate::gdl::{Depends, Names, RESERVED, Relation};
use crate::syntax::{Program, Span, Sym};
use indexmap::IndexMap;

#[derive(Clone, Copy, Debug)]
struct Edge {
    to: usize,
    /// Through `not` or an aggregate: the target must be complete first.
    negative: bool,
    aggregate: bool,
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
        let names = Names::new(&program.symbols);
        let (true_, does) = (names.sym(Relation::True), names.sym(Relation::Does));
        let mut nodes: IndexMap<Sym, Node> = IndexMap::new();
        for rule in &program.rules {
            let h = node(&mut nodes, rule.head.rel);
            body_atoms(&rule.body, &mut |atom, dep| {
                if Some(atom.rel) == true_ {
                    nodes[h].uses_true.get_or_insert(atom.span);
                } else if Some(atom.rel) == does {
                    nodes[h].uses_does.get_or_insert(atom.span);
                } else {
                    let to = node(&mut nodes, atom.rel);
                    nodes[h].edges.push(Edge {
                        to,
                        negative: dep != Dep::Positive,
                        aggregate: dep == Dep::Aggregate,
                        span: atom.span,
                    });
                }
            });
        }
        Graph { names: nodes }
    }

    fn name(&self, i: usize) -> Sym {
        *self.names.get_index(i).map(|(s, _)| s).unwrap_or(&Sym(0))
    }

    /// Strongly-connected components in reverse topological order (every
    /// component comes after the components it depends on), and the
    /// component of each node.
    fn components(&self) -> (Vec<Vec<u32>>, Vec<usize>) {
        let comps = crate::scc::components(self.names.len(), |v, k| {
            self.names[v].edges.get(k).map(|e| e.to)
        });
        let mut comp = vec![0; self.names.len()];
        for (c, members) in comps.iter().enumerate() {
            members.iter().for_each(|&v| comp[v as usize] = c);
        }
        (comps, comp)
    }

    /// Strata, `AGGREGATE_CYCLE` errors and `NOT_STRATIFIED` warnings (a
    /// negative cycle of relations may still be stratified on ground atoms:
    /// the grounder refuses a real one).
    pub fn stratify(&self, program: &Program, out: &mut Sink) -> Vec<Vec<Sym>> {
        let (comps, comp) = self.components();
        let mut level = vec![0usize; comps.len()];
        for (c, members) in comps.iter().enumerate() {
            let mut cycle_reported = false;
            for &v in members {
                let v = v as usize;
                for e in &self.names[v].edges {
                    let d = comp[e.to];
                    if d == c {
                        if e.negative && !cycle_reported {
                            cycle_reported = true;
                            out.push(self.cycle_diagnostic(program, v, *e, &comp));
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
            strata[level[c]].extend(members.iter().map(|&v| self.name(v as usize)));
        }
        strata
    }

    /// The diagnostic for a negative edge `from -> not e.to` inside one
    /// component (an error through an aggregate, else a warning): a
    /// shortest path back from `e.to` to `from` closes the cycle.
    fn cycle_diagnostic(
        &self,
        program: &Program,
        from: usize,
        e: Edge,
        comp: &[usize],
    ) -> Diagnostic {
        let path = self.path(e.to, |v| v == from, |w| comp[w] == comp[from]);
        let name = |v: usize| program.symbols.name(self.name(v));
        let polarity = |step: &Edge| match (step.aggregate, step.negative) {
            (true, _) => "aggregate of ",
            (false, true) => "not ",
            (false, false) => "",
        };
        let mut text = format!("{} -> {}{}", name(from), polarity(&e), name(e.to));
        for step in path.iter().flat_map(|p| p.iter()) {
            text.push_str(&format!(" -> {}{}", polarity(step), name(step.to)));
        }
        if e.aggregate {
            return Diagnostic::error(
                codes::AGGREGATE_CYCLE,
                e.span,
                format!("aggregation through recursion: {text}"),
            )
            .with_note(
                "an aggregate needs every fact of what it ranges over first, so a relation \
                 cannot depend on an aggregate over itself",
            );
        }
        Diagnostic::warning(
            codes::NOT_STRATIFIED,
            e.span,
            format!("recursion through negation by relation names: {text}"),
        )
        .with_note(
            "the rules are not stratified by relation names; they are accepted if no ground \
             atom depends on its own negation, which grounding checks",
        )
    }

    /// A shortest path of edges from `start` to a node satisfying `goal`,
    /// through nodes satisfying `allowed`.
    fn path(
        &self,
        start: usize,
        goal: impl Fn(usize) -> bool,
        allowed: impl Fn(usize) -> bool,
    ) -> Option<Vec<Edge>> {
        crate::scc::shortest_path(start, goal, allowed, |v, k| {
            self.names[v].edges.get(k).map(|e| (e.to, *e))
        })
    }

    /// `RESERVED` errors for reserved relations that depend on `true` or
    /// `does` where GDL forbids it (the `depends` column of [`RESERVED`]):
    /// one per relation, the `does` one first as the more telling.
    pub fn reserved_dependencies(&self, program: &Program, out: &mut Sink) {
        for row in RESERVED {
            let (no_true, why) = match row.depends {
                Depends::Anything => continue,
                Depends::StateOnly(why) => (false, why),
                Depends::Nothing(why) => (true, why),
            };
            let Some(start) = program
                .symbols
                .get(row.name)
                .and_then(|s| self.names.get_index_of(&s))
            else {
                continue;
            };
            let inputs = [(Relation::Does, true), (Relation::True, no_true)];
            let found = inputs
                .into_iter()
                .filter(|&(_, forbidden)| forbidden)
                .find_map(|(input, _)| self.dependency(program, row.name, start, input, why));
            if let Some(d) = found {
                out.push(d);
            }
        }
    }

    /// The error for reserved relation `rel` (node `start`) if it depends
    /// on `input` (`true` or `does`), naming a shortest such dependency.
    fn dependency(
        &self,
        program: &Program,
        rel: &str,
        start: usize,
        input: Relation,
        why: &str,
    ) -> Option<Diagnostic> {
        let uses = |v: usize| {
            let node = &self.names[v];
            match input {
                Relation::Does => node.uses_does,
                _ => node.uses_true,
            }
        };
        let path = self.path(start, |v| uses(v).is_some(), |_| true)?;
        let last = path.last().map_or(start, |e| e.to);
        let use_span = uses(last)?;
        let input = input.name();
        let mut chain = rel.to_string();
        for e in &path {
            chain.push_str(" -> ");
            if e.negative {
                chain.push_str("not ");
            }
            chain.push_str(program.symbols.name(self.name(e.to)));
        }
        let message = format!("`{rel}` must not depend on `{input}`: {why}");
        Some(match path.first() {
            None => Diagnostic::error(codes::RESERVED, use_span, message),
            Some(first) => Diagnostic::error(codes::RESERVED, first.span, message)
                .with_label(use_span, format!("`{input}` is used here"))
                .with_note(format!("the dependency: {chain} -> {input}")),
        })
    }
}
