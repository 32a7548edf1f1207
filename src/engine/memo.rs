//! Remembered playout steps: a bounded table of the states a machine's
//! random playouts have met, each with its legal moves (or, at the end,
//! its goals), and of the joint moves made from them with the state each
//! led to.
//!
//! In: states the machine has loaded and evaluated, and the steps it made.
//! Out: for a known state, what the engine would answer; for a known step,
//! the next state, as a node of the table. A playout walks known steps
//! without evaluating anything, drawing the same random numbers from the
//! same legal lists, so it plays the same game as without the table
//! (`tests/memo.rs`). Only the machine's own evaluations fill it, so it is
//! exact by construction.
//!
//! Bounded: the tables of all machines alive share [`ALL_MEMO_BYTES`], one
//! table at most [`MEMO_BYTES`]; a table past its share is emptied (its
//! memory freed) and filled again. A machine keeps its table only while
//! enough steps are found in it (see [`Memo::worth_keeping`]): games whose
//! playouts rarely meet a state twice stop paying for it after one window
//! of steps.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The most bytes one machine's table holds before it is emptied.
pub const MEMO_BYTES: usize = 16 << 20;

/// The most bytes the tables of all machines alive hold together.
pub const ALL_MEMO_BYTES: usize = 256 << 20;

/// Tables alive in this process.
static TABLES: AtomicUsize = AtomicUsize::new(0);

/// One table's share of [`ALL_MEMO_BYTES`] when `tables` are alive.
fn share(tables: usize) -> usize {
    (ALL_MEMO_BYTES / tables.max(1)).min(MEMO_BYTES)
}

/// Steps looked up per window of [`Memo::worth_keeping`].
const WINDOW: u64 = 1024;

/// No node (an empty hash slot, or goals that are not remembered).
const NONE: u32 = u32::MAX;

/// The nodes a table has room for at first: about the states of the first
/// two windows, so that a table dropped by then never grew.
const FIRST_NODES: usize = 2 * WINDOW as usize;

/// The first sizes of the two hash tables (powers of two, at most half
/// full).
const FIRST_SLOTS: usize = 2 * FIRST_NODES;

#[derive(Clone, Copy)]
struct Node {
    /// The low 32 bits of its state's hash.
    hash: u32,
    terminal: bool,
    /// A non-terminal node's first entry in `bounds`; a terminal node's
    /// first entry in `goals`, or [`NONE`] when its goals break the rules
    /// (the engine is asked again, for the error).
    at: u32,
}

/// A step: the joint move `joint` from node `from` leads to node `to`.
#[derive(Clone, Copy)]
struct Edge {
    from: u32,
    to: u32,
    joint: u64,
}

const NO_EDGE: Edge = Edge {
    from: NONE,
    to: NONE,
    joint: 0,
};

pub struct Memo {
    /// Words of one state.
    words: usize,
    roles: usize,
    /// A joint move's key is the sum of its moves times these (mixed radix).
    strides: Vec<u64>,
    /// Node `n`'s state is `states[n * words..(n + 1) * words]`.
    states: Vec<u64>,
    nodes: Vec<Node>,
    /// For a non-terminal node, `roles + 1` offsets into `moves`.
    bounds: Vec<u32>,
    moves: Vec<u32>,
    goals: Vec<Option<i64>>,
    /// Open addressing by state: a node or [`NONE`].
    by_state: Vec<u32>,
    /// Open addressing by (node, joint move).
    edges: Vec<Edge>,
    edge_count: usize,
    /// Steps found and not found in the current window.
    found: u64,
    missed: u64,
    /// Windows judged so far.
    windows: u32,
    /// The most bytes it holds before it is emptied, whatever its share
    /// ([`MEMO_BYTES`]).
    budget: usize,
}

impl Memo {
    /// A table for states of `words` words and roles with these numbers of
    /// moves; `None` when a joint move's key would not fit in 64 bits.
    pub fn new(words: usize, move_counts: &[usize]) -> Option<Memo> {
        let mut strides = Vec::with_capacity(move_counts.len());
        let mut stride = 1u64;
        for &count in move_counts {
            strides.push(stride);
            stride = stride.checked_mul(count.max(1) as u64)?;
        }
        TABLES.fetch_add(1, Ordering::Relaxed);
        let mut memo = Memo {
            words,
            roles: move_counts.len(),
            strides,
            states: Vec::new(),
            nodes: Vec::new(),
            bounds: Vec::new(),
            moves: Vec::new(),
            goals: Vec::new(),
            by_state: Vec::new(),
            edges: Vec::new(),
            edge_count: 0,
            found: 0,
            missed: 0,
            windows: 0,
            budget: MEMO_BYTES,
        };
        memo.clear();
        Some(memo)
    }

    /// The bytes the table has allocated.
    pub fn bytes(&self) -> usize {
        8 * self.states.capacity()
            + size_of::<Node>() * self.nodes.capacity()
            + 4 * (self.bounds.capacity() + self.moves.capacity() + self.by_state.len())
            + size_of::<Option<i64>>() * self.goals.capacity()
            + size_of::<Edge>() * self.edges.len()
    }

    /// Whether the table has grown past its share of the memory (then
    /// [`Memo::clear`]).
    pub fn is_full(&self) -> bool {
        self.bytes() > self.budget.min(share(TABLES.load(Ordering::Relaxed)))
    }

    /// Forgets every state and step, and frees their memory but for the
    /// room of [`FIRST_NODES`].
    pub fn clear(&mut self) {
        self.states = Vec::with_capacity(self.words * FIRST_NODES);
        self.nodes = Vec::with_capacity(FIRST_NODES);
        self.bounds = Vec::with_capacity((self.roles + 1) * FIRST_NODES);
        self.moves = Vec::with_capacity(self.roles * FIRST_NODES);
        self.goals = Vec::new();
        self.by_state = vec![NONE; FIRST_SLOTS];
        self.edges = vec![NO_EDGE; FIRST_SLOTS];
        self.edge_count = 0;
    }

    /// Whether remembering still pays, judged once per window of
    /// [`WINDOW`] steps looked up: a step found saves most of an
    /// evaluation, one not found costs a little on top of it. The first
    /// window, which starts from an empty table, must find one step in 32,
    /// the second 3 in 32, every later one 4 (one in 8): a table filling up
    /// must find more.
    pub fn worth_keeping(&mut self) -> bool {
        let looked_up = self.found + self.missed;
        if looked_up < WINDOW {
            return true;
        }
        let bar = [1, 3, 4][self.windows.min(2) as usize];
        let keep = 32 * self.found >= bar * looked_up;
        self.windows += 1;
        self.found = 0;
        self.missed = 0;
        keep
    }

    /// The node of a state, if it is known.
    pub fn find(&self, state: &[u64]) -> Option<u32> {
        let mask = self.by_state.len() - 1;
        let hash = hash_words(state) as u32;
        let mut i = hash as usize & mask;
        loop {
            match self.by_state[i] {
                NONE => return None,
                n if self.nodes[n as usize].hash == hash && self.state(n) == state => {
                    return Some(n);
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Remembers a non-terminal state with each role's legal moves.
    pub fn insert_playing<'a>(
        &mut self,
        state: &[u64],
        legal: impl Iterator<Item = &'a [u32]>,
    ) -> u32 {
        let at = self.bounds.len() as u32;
        self.bounds.push(self.moves.len() as u32);
        for moves in legal {
            self.moves.extend_from_slice(moves);
            self.bounds.push(self.moves.len() as u32);
        }
        self.insert(state, false, at)
    }

    /// Remembers a terminal state with its goals (`None`: they break the
    /// rules, and are not remembered).
    pub fn insert_terminal(&mut self, state: &[u64], goals: Option<&[Option<i64>]>) -> u32 {
        let at = match goals {
            Some(goals) => {
                self.goals.extend_from_slice(goals);
                (self.goals.len() - goals.len()) as u32
            }
            None => NONE,
        };
        self.insert(state, true, at)
    }

    fn insert(&mut self, state: &[u64], terminal: bool, at: u32) -> u32 {
        let n = self.nodes.len() as u32;
        let hash = hash_words(state) as u32;
        self.nodes.push(Node { hash, terminal, at });
        self.states.extend_from_slice(state);
        if 2 * self.nodes.len() > self.by_state.len() {
            self.by_state = vec![NONE; 2 * self.by_state.len()];
            for k in 0..n {
                self.place_state(k);
            }
        }
        self.place_state(n);
        n
    }

    fn place_state(&mut self, n: u32) {
        let mask = self.by_state.len() - 1;
        let mut i = self.nodes[n as usize].hash as usize & mask;
        while self.by_state[i] != NONE {
            i = (i + 1) & mask;
        }
        self.by_state[i] = n;
    }

    /// Node `n`'s state.
    pub fn state(&self, n: u32) -> &[u64] {
        let i = n as usize * self.words;
        &self.states[i..i + self.words]
    }

    pub fn is_terminal(&self, n: u32) -> bool {
        self.nodes[n as usize].terminal
    }

    /// A terminal node's goals, if they were remembered.
    pub fn goals(&self, n: u32) -> Option<&[Option<i64>]> {
        match self.nodes[n as usize].at {
            NONE => None,
            at => Some(&self.goals[at as usize..at as usize + self.roles]),
        }
    }

    /// Role `role`'s legal moves in non-terminal node `n`.
    pub fn legal(&self, n: u32, role: usize) -> &[u32] {
        let at = self.nodes[n as usize].at as usize + role;
        &self.moves[self.bounds[at] as usize..self.bounds[at + 1] as usize]
    }

    /// The key of a joint move (one move index per role).
    pub fn joint_key(&self, joint: &[u32]) -> u64 {
        joint
            .iter()
            .zip(&self.strides)
            .map(|(&m, &s)| u64::from(m) * s)
            .sum()
    }

    /// The node a joint move from node `from` led to, if it is known; counts
    /// the lookup for [`Memo::worth_keeping`].
    pub fn step(&mut self, from: u32, joint: u64) -> Option<u32> {
        let mask = self.edges.len() - 1;
        let mut i = hash_edge(from, joint) as usize & mask;
        loop {
            let e = self.edges[i];
            if e.from == NONE {
                self.missed += 1;
                return None;
            }
            if e.from == from && e.joint == joint {
                self.found += 1;
                return Some(e.to);
            }
            i = (i + 1) & mask;
        }
    }

    /// Remembers that a joint move from node `from` leads to node `to`,
    /// unless the table is full.
    pub fn insert_step(&mut self, from: u32, joint: u64, to: u32) {
        if self.is_full() {
            return;
        }
        self.edge_count += 1;
        if 2 * self.edge_count > self.edges.len() {
            let wider = vec![NO_EDGE; 2 * self.edges.len()];
            let old = std::mem::replace(&mut self.edges, wider);
            for e in old.into_iter().filter(|e| e.from != NONE) {
                self.place_step(e);
            }
        }
        self.place_step(Edge { from, to, joint });
    }

    fn place_step(&mut self, e: Edge) {
        let mask = self.edges.len() - 1;
        let mut i = hash_edge(e.from, e.joint) as usize & mask;
        while self.edges[i].from != NONE {
            i = (i + 1) & mask;
        }
        self.edges[i] = e;
    }
}

impl Drop for Memo {
    fn drop(&mut self) {
        TABLES.fetch_sub(1, Ordering::Relaxed);
    }
}

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(h: u64) -> u64 {
    let h = h.wrapping_mul(MIX);
    h ^ (h >> 32)
}

fn hash_words(words: &[u64]) -> u64 {
    mix(words
        .iter()
        .fold(0u64, |h, &w| (h.rotate_left(23) ^ w).wrapping_mul(MIX)))
}

fn hash_edge(from: u32, joint: u64) -> u64 {
    mix(joint.wrapping_mul(MIX) ^ u64::from(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table for two roles of 3 and 5 moves, states of two words.
    fn table() -> Memo {
        Memo::new(2, &[3, 5]).expect("keys fit")
    }

    #[test]
    fn remembers_states_moves_goals_and_steps() {
        let mut memo = table();
        let (a, b, c) = ([1, 0], [0, 1 << 63], [5, 7]);
        let na = memo.insert_playing(&a, [&[0, 2][..], &[4][..]].into_iter());
        let nb = memo.insert_terminal(&b, Some(&[Some(100), None]));
        let nc = memo.insert_terminal(&c, None);
        assert_eq!(
            (memo.find(&a), memo.find(&b), memo.find(&c)),
            (Some(na), Some(nb), Some(nc))
        );
        assert_eq!(memo.find(&[1, 1]), None);
        assert!(!memo.is_terminal(na) && memo.is_terminal(nb) && memo.is_terminal(nc));
        assert_eq!(
            (memo.legal(na, 0), memo.legal(na, 1)),
            (&[0, 2][..], &[4][..])
        );
        assert_eq!(memo.goals(nb), Some(&[Some(100), None][..]));
        assert_eq!(memo.goals(nc), None);
        assert_eq!(memo.state(nb), &b);
        // Every joint move has its own key: move of role 0 plus 3 times role 1's.
        let keys: Vec<u64> = (0..3)
            .flat_map(|x| (0..5).map(move |y| [x, y]))
            .map(|j| memo.joint_key(&j))
            .collect();
        assert_eq!(
            keys,
            (0..15).map(|k| k % 5 * 3 + k / 5).collect::<Vec<u64>>()
        );
        memo.insert_step(na, memo.joint_key(&[2, 4]), nb);
        assert_eq!(memo.step(na, memo.joint_key(&[2, 4])), Some(nb));
        assert_eq!(memo.step(na, memo.joint_key(&[0, 4])), None);
        assert_eq!(memo.step(nb, memo.joint_key(&[2, 4])), None);
    }

    #[test]
    fn tables_grow_and_find_every_state_again() {
        let mut memo = table();
        let nodes: Vec<u32> = (0..5000u64)
            .map(|i| memo.insert_playing(&[i, i * 7], [&[1][..], &[2][..]].into_iter()))
            .collect();
        for (i, &n) in nodes.iter().enumerate() {
            memo.insert_step(n, 1, nodes[(i + 1) % nodes.len()]);
        }
        for (i, &n) in nodes.iter().enumerate() {
            let i = i as u64;
            assert_eq!(memo.find(&[i, i * 7]), Some(n));
            assert_eq!(memo.step(n, 1), Some(nodes[(i as usize + 1) % nodes.len()]));
        }
    }

    #[test]
    fn a_full_table_is_emptied_and_used_again() {
        let mut memo = table();
        memo.budget = 1 << 20;
        let mut i = 0u64;
        while !memo.is_full() {
            memo.insert_playing(&[i, 0], [&[0][..], &[0][..]].into_iter());
            i += 1;
        }
        assert!(i > FIRST_NODES as u64, "{i} states fill 1 MB");
        // A full table remembers no more steps.
        memo.insert_step(0, 1, 1);
        assert_eq!(memo.step(0, 1), None);
        memo.clear();
        assert!(!memo.is_full());
        assert_eq!(memo.find(&[0, 0]), None);
        let n = memo.insert_playing(&[9, 9], [&[2][..], &[3][..]].into_iter());
        assert_eq!((n, memo.find(&[9, 9])), (0, Some(0)));
        memo.insert_step(n, 4, n);
        assert_eq!(memo.step(n, 4), Some(n));
    }

    #[test]
    fn tables_alive_share_the_memory() {
        assert_eq!(share(0), MEMO_BYTES);
        assert_eq!(share(1), MEMO_BYTES);
        assert_eq!(share(16), MEMO_BYTES);
        assert_eq!(share(64), 4 << 20);
        assert_eq!(share(256), 1 << 20);
    }

    #[test]
    fn keys_that_do_not_fit_in_a_word_refuse_a_table() {
        assert!(Memo::new(1, &[1 << 32, 1 << 32]).is_none());
        assert!(Memo::new(1, &[1 << 32, (1 << 32) - 1]).is_some());
    }

    #[test]
    fn windows_keep_the_table_while_enough_steps_are_found() {
        let mut memo = table();
        let n = memo.insert_playing(&[0, 0], [&[0][..], &[0][..]].into_iter());
        memo.insert_step(n, 0, n);
        // Looks up `found` remembered steps and `missed` unknown ones.
        let window = |memo: &mut Memo, found: u64, missed: u64| {
            (0..found).for_each(|_| assert_eq!(memo.step(n, 0), Some(n)));
            (0..missed).for_each(|_| assert_eq!(memo.step(n, 1), None));
            memo.worth_keeping()
        };
        assert!(window(&mut memo, 10, 10), "a window not yet full keeps it");
        assert!(window(&mut memo, 22, 982), "first window: 32 of 1024 found");
        assert!(window(&mut memo, 96, 928), "second: 96 of 1024");
        assert!(window(&mut memo, 128, 896), "third: 128 of 1024");
        assert!(window(&mut memo, 128, 896), "fourth: 128 of 1024");
        assert!(!window(&mut memo, 127, 897), "fifth: 127 of 1024");
        let mut second = table();
        let n2 = second.insert_playing(&[0, 0], [&[0][..], &[0][..]].into_iter());
        second.insert_step(n2, 0, n2);
        let mut second_window = |found: u64, missed: u64| {
            (0..found).for_each(|_| assert_eq!(second.step(n2, 0), Some(n2)));
            (0..missed).for_each(|_| assert_eq!(second.step(n2, 1), None));
            second.worth_keeping()
        };
        assert!(second_window(32, 992));
        assert!(!second_window(95, 929), "second: 95 of 1024");
        let mut cold = table();
        let n = cold.insert_playing(&[0, 0], [&[0][..], &[0][..]].into_iter());
        cold.insert_step(n, 0, n);
        let found = (0..31).filter(|_| cold.step(n, 0).is_some()).count();
        (0..993).for_each(|_| assert_eq!(cold.step(n, 1), None));
        assert_eq!(found, 31);
        assert!(!cold.worth_keeping(), "first window: 31 of 1024");
    }
}
