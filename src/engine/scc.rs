//! Strongly connected components, iteratively (no recursion, so a chain of a
//! million atoms cannot overflow the stack).
//!
//! In: a graph as `n` nodes and a successor function. Out: the components in
//! the order Tarjan's algorithm closes them: every component comes after all
//! components it has edges into (dependencies first when edges point from a
//! rule's head to its body).

pub fn tarjan<'a>(n: usize, succ: impl Fn(usize) -> &'a [u32]) -> Vec<Vec<u32>> {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0u32;
    // Call frames: (node, next successor position).
    let mut frames: Vec<(u32, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        frames.push((root as u32, 0));
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = frames.last_mut() {
            let vs = v as usize;
            let succs = succ(vs);
            if *pos < succs.len() {
                let w = succs[*pos] as usize;
                *pos += 1;
                if index[w] == UNSEEN {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    frames.push((w as u32, 0));
                } else if on_stack[w] {
                    low[vs] = low[vs].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                let p = parent as usize;
                low[p] = low[p].min(low[vs]);
            }
            if low[vs] == index[vs] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().expect("node of the component is on the stack");
                    on_stack[w as usize] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tarjan;

    #[test]
    fn components_come_after_their_dependencies() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3
        let edges: Vec<Vec<u32>> = vec![vec![1], vec![2], vec![1, 3], vec![]];
        let comps = tarjan(4, |v| &edges[v]);
        let mut sorted: Vec<Vec<u32>> = comps
            .iter()
            .map(|c| {
                let mut c = c.clone();
                c.sort();
                c
            })
            .collect();
        assert_eq!(sorted.remove(0), vec![3]);
        assert_eq!(sorted.remove(0), vec![1, 2]);
        assert_eq!(sorted.remove(0), vec![0]);
    }

    #[test]
    fn a_long_chain_does_not_overflow() {
        let n = 1_000_000;
        let edges: Vec<Vec<u32>> = (0..n)
            .map(|i| {
                if i + 1 < n {
                    vec![i as u32 + 1]
                } else {
                    vec![]
                }
            })
            .collect();
        assert_eq!(tarjan(n, |v| &edges[v]).len(), n);
    }
}
