//! Strongly connected components by Tarjan's algorithm, iteratively (no
//! recursion, so a chain of a million nodes cannot overflow the stack).
//!
//! In: a graph as `n` nodes and a successor function: `successor(v, k)` is
//! the `k`-th successor of `v`, `None` past the last. Out: the components,
//! each with its members in the order the search discovered them.
//! Holds: components come in the order Tarjan's algorithm closes them, so
//! every component comes after all components it has edges into
//! (dependencies first when edges point from a rule's head to its body).
//! Used by the checks (relations) and the compiler (ground atoms).
//! [`shortest_path`] names a cycle once a component shows one.

use rustc_hash::FxHashMap;
use std::collections::VecDeque;

pub fn components(n: usize, successor: impl Fn(usize, usize) -> Option<usize>) -> Vec<Vec<u32>> {
    let mut search = Search {
        index: vec![UNSEEN; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        frames: Vec::new(),
        counter: 0,
    };
    let mut out = Vec::new();
    for root in 0..n {
        if search.index[root] != UNSEEN {
            continue;
        }
        search.visit(root);
        while let Some(&mut (v, ref mut done)) = search.frames.last_mut() {
            if let Some(w) = successor(v, *done) {
                *done += 1;
                if search.index[w] == UNSEEN {
                    search.visit(w);
                } else if search.on_stack[w] {
                    search.low[v] = search.low[v].min(search.index[w]);
                }
                continue;
            }
            search.frames.pop();
            if let Some(&(parent, _)) = search.frames.last() {
                search.low[parent] = search.low[parent].min(search.low[v]);
            }
            if search.low[v] == search.index[v] {
                out.push(search.close(v));
            }
        }
    }
    out
}

/// A shortest path from `start` to a node satisfying `goal` through nodes
/// satisfying `allowed`, breadth first, as the labels of its edges:
/// `edge(v, k)` is the `k`-th edge of `v` as (target, label), `None` past
/// the last. `Some(vec![])` if `start` is a goal; `None` if no goal is
/// reachable.
pub fn shortest_path<L: Copy>(
    start: usize,
    goal: impl Fn(usize) -> bool,
    allowed: impl Fn(usize) -> bool,
    edge: impl Fn(usize, usize) -> Option<(usize, L)>,
) -> Option<Vec<L>> {
    let mut parent: FxHashMap<usize, Option<(usize, L)>> = FxHashMap::default();
    parent.insert(start, None);
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        if goal(v) {
            let mut labels = Vec::new();
            let mut at = v;
            while let Some(&Some((p, label))) = parent.get(&at) {
                labels.push(label);
                at = p;
            }
            labels.reverse();
            return Some(labels);
        }
        let mut k = 0;
        while let Some((w, label)) = edge(v, k) {
            k += 1;
            if !allowed(w) {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                e.insert(Some((v, label)));
                queue.push_back(w);
            }
        }
    }
    None
}

const UNSEEN: u32 = u32::MAX;

struct Search {
    /// Discovery number of each node, `UNSEEN` before.
    index: Vec<u32>,
    /// The lowest discovery number reachable through the node's subtree.
    low: Vec<u32>,
    on_stack: Vec<bool>,
    /// Discovered nodes whose component is not closed yet.
    stack: Vec<u32>,
    /// Call frames: (node, how many of its successors are done).
    frames: Vec<(usize, usize)>,
    counter: u32,
}

impl Search {
    fn visit(&mut self, v: usize) {
        self.index[v] = self.counter;
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v as u32);
        self.on_stack[v] = true;
        self.frames.push((v, 0));
    }

    /// The component whose root is `v`: the stack down to `v`.
    fn close(&mut self, v: usize) -> Vec<u32> {
        let at = self.stack.iter().rposition(|&w| w as usize == v);
        // `v` is on the stack: it was pushed when visited and only a closed
        // component leaves it.
        let members = self.stack.split_off(at.unwrap_or(0));
        members
            .iter()
            .for_each(|&w| self.on_stack[w as usize] = false);
        members
    }
}

#[cfg(test)]
mod tests {
    use super::{components, shortest_path};

    fn of(edges: &[Vec<u32>]) -> Vec<Vec<u32>> {
        components(edges.len(), |v, k| edges[v].get(k).map(|&w| w as usize))
    }

    #[test]
    fn components_come_after_their_dependencies() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3
        let edges = [vec![1], vec![2], vec![1, 3], vec![]];
        assert_eq!(of(&edges), [vec![3], vec![1, 2], vec![0]]);
    }

    #[test]
    fn members_come_in_discovery_order() {
        // 0 -> 2 -> 1 -> 0: discovered 0, 2, 1.
        let edges = [vec![2], vec![0], vec![1]];
        assert_eq!(of(&edges), [vec![0, 2, 1]]);
    }

    #[test]
    fn shortest_path_takes_the_fewest_edges() {
        // 0 -> 1 -> 2 -> 3 and 0 -> 3: the direct edge wins.
        let edges = [vec![1, 3], vec![2], vec![3], vec![]];
        let edge = |v: usize, k: usize| edges[v].get(k).map(|&w| (w, (v, w)));
        let any = |_| true;
        assert_eq!(shortest_path(0, |v| v == 3, any, edge), Some(vec![(0, 3)]));
        let path = shortest_path(1, |v| v == 3, any, edge);
        assert_eq!(path, Some(vec![(1, 2), (2, 3)]));
        assert_eq!(shortest_path(3, |v| v == 0, any, edge), None);
        assert_eq!(shortest_path(2, |v| v == 2, any, edge), Some(vec![]));
        // Every path from 0 to 2 passes through 1.
        assert_eq!(shortest_path(0, |v| v == 2, |v| v != 1, edge), None);
    }

    #[test]
    fn a_long_chain_does_not_overflow() {
        let n = 1_000_000;
        let edges: Vec<Vec<u32>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        assert_eq!(of(&edges).len(), n as usize);
    }
}
