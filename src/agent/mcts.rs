//! Monte Carlo tree search: UCT over the compiled engine with random
//! playouts.
//!
//! In: a [`Game`], a state, a [`Budget`], a thread count and a seed. Out:
//! for every role, each legal move at the root with its visit count and
//! mean goal ([`Outcome`]). Holds:
//! - Each role maximises its own goal (scaled to 0..1): every node keeps,
//!   per role, the statistics of that role's moves (decoupled UCT), so one
//!   to four players, simultaneous moves and teams expressed in goals need
//!   nothing special. At a node each player picks its move by UCB1 from its
//!   own statistics, independently of the others. Where several players
//!   choose at once each also explores at random now and then
//!   ([`JOINT_EPSILON`], its own draw): symmetric roles with the same
//!   statistics would otherwise explore in lockstep, so a move would only
//!   ever be tried against the other's exploring move, and a dominant move
//!   (keep when the other gives) go unseen.
//! - Nature is sampled: its move is drawn with the declared weights, and the
//!   child is the one for the whole joint move, nature's outcome included.
//!   The tree is closed-loop with sampled chance outcomes rather than
//!   open-loop: a node holds its exact state, so its legal moves never vary
//!   between visits (in an open-loop tree a dice throw changes which moves
//!   exist at a node) and a step down the tree costs nothing once the child
//!   exists; outcomes are visited in proportion to their weights, so the
//!   statistics of a player's move are an average over nature's outcomes.
//! - Deterministic for a given seed, iteration budget and thread count:
//!   thread `i` searches its own tree with its own generator (root
//!   parallelism) and the roots' statistics are summed in thread order.
//! - A playout is [`Machine::playout`], which allocates nothing per step; the
//!   tree allocates once per new node, and stops growing at
//!   [`MAX_NODES`] nodes (the search then only samples below its leaves).

use super::Budget;
use crate::engine::{End, EngineError, Game, Machine, State};
use rand::{Rng, RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// Nodes one tree may hold.
pub const MAX_NODES: usize = 200_000;
/// How often (in iterations) an iteration-budget search reports progress.
const WATCH_EVERY: usize = 16;
/// A playout longer than this many joint moves counts as a tie.
pub const MAX_PLAYOUT: u32 = 10_000;
/// The UCB1 exploration constant for goals scaled to 0..1.
pub const EXPLORATION: f64 = 0.4;
/// Where several players choose at once, the chance that each (on its own
/// draw) picks a uniformly random move instead of its UCB1 move.
pub const JOINT_EPSILON: f64 = 0.3;

/// A search to run: budget, threads, seed.
#[derive(Clone, Copy, Debug)]
pub struct Search {
    pub budget: Budget,
    pub threads: usize,
    pub seed: u64,
}

/// A root move's statistics summed over the trees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStat {
    pub mv: u32,
    pub visits: u64,
    /// Mean goal (0..100) of the playouts through this move.
    pub mean: f64,
}

/// What a search found at the root.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Per role, its legal moves best first (empty for nature).
    pub moves: Vec<Vec<MoveStat>>,
    pub iterations: u64,
}

impl Outcome {
    /// The most visited move of a role (ties: the better mean, then the
    /// earlier move); `None` for nature and in a terminal state.
    pub fn best(&self, role: usize) -> Option<u32> {
        self.moves[role].first().map(|s| s.mv)
    }
}

impl Search {
    pub fn new(budget: Budget, threads: usize, seed: u64) -> Search {
        Search {
            budget,
            threads: threads.max(1),
            seed,
        }
    }

    /// Searches from `state` (which must not be terminal).
    pub fn run(&self, game: &Game, state: &State) -> Result<Outcome, EngineError> {
        self.run_watched(game, state, &|_| {})
    }

    /// [`Search::run`], calling `watch` now and then with the share of the
    /// budget spent (0 to 1), for progress shown by a front end.
    pub fn run_watched(
        &self,
        game: &Game,
        state: &State,
        watch: &(dyn Fn(f64) + Sync),
    ) -> Result<Outcome, EngineError> {
        let trees: Vec<Result<Tree, EngineError>> = if self.threads == 1 {
            vec![self.grow(game, state, 0, watch)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..self.threads)
                    .map(|i| scope.spawn(move || self.grow(game, state, i, watch)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            })
        };
        let mut trees = trees.into_iter().collect::<Result<Vec<_>, _>>()?;
        let first = trees.remove(0);
        Ok(first.merge_roots(&trees))
    }

    /// Thread `i`'s tree, grown for its share of the budget; thread 0
    /// reports the share spent to `watch` every [`WATCH_EVERY`] iterations.
    fn grow(
        &self,
        game: &Game,
        state: &State,
        i: usize,
        watch: &(dyn Fn(f64) + Sync),
    ) -> Result<Tree, EngineError> {
        let seed = self.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut m = game.machine();
        let mut tree = Tree::new(&mut m, state.clone())?;
        match self.budget {
            Budget::Iterations(n) => {
                let (n, t) = (n as usize, self.threads);
                let share = n / t + usize::from(i < n % t);
                for k in 0..share.max(1) {
                    tree.iterate(&mut m, &mut rng)?;
                    if i == 0 && k % WATCH_EVERY == 0 {
                        watch(k as f64 / share.max(1) as f64);
                    }
                }
            }
            Budget::Time(limit) => {
                let start = Instant::now();
                loop {
                    for _ in 0..16 {
                        tree.iterate(&mut m, &mut rng)?;
                    }
                    if i == 0 {
                        watch(start.elapsed().as_secs_f64() / limit.as_secs_f64().max(1e-9));
                    }
                    if start.elapsed() >= limit {
                        break;
                    }
                }
            }
        }
        Ok(tree)
    }
}

/// A role's statistics for one of its moves at a node.
#[derive(Clone, Copy, Debug)]
struct Edge {
    mv: u32,
    visits: u64,
    /// Sum of the role's goals, scaled to 0..1.
    total: f64,
}

struct Node {
    state: State,
    /// Goals scaled to 0..1 where the state is terminal.
    goals: Option<Box<[f64]>>,
    /// Per role, its legal moves (empty for nature).
    edges: Vec<Vec<Edge>>,
    /// Nature's outcomes with their weights, and their sum.
    chance: Vec<(u32, u64)>,
    /// The sum of the weights (each below 2^63, so the sum fits u128).
    chance_total: u128,
    /// Children by joint move (nature's outcome included).
    children: Vec<(Box<[u32]>, u32)>,
    visits: u64,
}

/// One search tree with its reusable buffers.
struct Tree {
    nodes: Vec<Node>,
    roles: usize,
    nature: Option<usize>,
    /// The nodes of this iteration's path, with the edge each role took
    /// (`NONE` for nature and for the leaf).
    path: Vec<(u32, usize)>,
    choices: Vec<u32>,
    joint: Vec<u32>,
    reward: Vec<f64>,
    iterations: u64,
}

const NONE: u32 = u32::MAX;

impl Tree {
    fn new(m: &mut Machine, root: State) -> Result<Tree, EngineError> {
        let game = m.game();
        let roles = game.role_count();
        let mut tree = Tree {
            nodes: Vec::new(),
            roles,
            nature: game.random_role(),
            path: Vec::new(),
            choices: Vec::new(),
            joint: vec![0; roles],
            reward: vec![0.5; roles],
            iterations: 0,
        };
        let node = tree.node(m, root)?;
        tree.nodes.push(node);
        Ok(tree)
    }

    /// A new node for `state`: its terminal goals, or its legal moves.
    fn node(&self, m: &mut Machine, state: State) -> Result<Node, EngineError> {
        m.set_state(&state);
        let mut node = Node {
            state,
            goals: None,
            edges: vec![Vec::new(); self.roles],
            chance: Vec::new(),
            chance_total: 0,
            children: Vec::new(),
            visits: 0,
        };
        if m.is_terminal() {
            let goals = m.goals()?;
            node.goals = Some(
                goals
                    .iter()
                    .map(|g| g.unwrap_or(0) as f64 / 100.0)
                    .collect(),
            );
            return Ok(node);
        }
        m.check_playable()?;
        for r in (0..self.roles).filter(|&r| Some(r) != self.nature) {
            node.edges[r] = m
                .legal(r)
                .iter()
                .map(|&mv| Edge {
                    mv,
                    visits: 0,
                    total: 0.0,
                })
                .collect();
        }
        node.chance = m.chance()?;
        node.chance_total = node.chance.iter().map(|&(_, w)| u128::from(w)).sum();
        Ok(node)
    }

    /// One iteration: down the tree by UCB1, one new node, a playout from
    /// it, and its goals back up the path.
    fn iterate<R: Rng>(&mut self, m: &mut Machine, rng: &mut R) -> Result<(), EngineError> {
        self.path.clear();
        self.choices.clear();
        let mut at = 0usize;
        loop {
            if let Some(goals) = &self.nodes[at].goals {
                self.reward.copy_from_slice(goals);
                self.path.push((at as u32, self.choices.len()));
                self.choices.extend(std::iter::repeat_n(NONE, self.roles));
                break;
            }
            self.choose(at, rng);
            self.path.push((at as u32, self.choices.len() - self.roles));
            let node = &self.nodes[at];
            if let Some(&(_, child)) = node.children.iter().find(|(j, _)| **j == self.joint[..]) {
                at = child as usize;
                continue;
            }
            m.set_state(&node.state);
            let next = m.next(&self.joint)?;
            if self.nodes.len() < MAX_NODES {
                let child = self.node(m, next.clone())?;
                let id = self.nodes.len() as u32;
                self.nodes.push(child);
                let joint = self.joint.clone().into_boxed_slice();
                self.nodes[at].children.push((joint, id));
                self.path.push((id, self.choices.len()));
                self.choices.extend(std::iter::repeat_n(NONE, self.roles));
            }
            self.playout(m, &next, rng)?;
            break;
        }
        self.back_up();
        self.iterations += 1;
        Ok(())
    }

    /// Picks every role's move at node `at` into `joint`, recording the
    /// players' edges in `choices`.
    fn choose<R: Rng>(&mut self, at: usize, rng: &mut R) {
        let node = &self.nodes[at];
        let log_n = ((node.visits + 1) as f64).ln();
        let several = node.edges.iter().filter(|e| e.len() > 1).count() > 1;
        for r in 0..self.roles {
            if Some(r) == self.nature {
                self.joint[r] = sample(&node.chance, node.chance_total, rng);
                self.choices.push(NONE);
                continue;
            }
            let edges = &node.edges[r];
            let i = if several && edges.len() > 1 && rng.random_bool(JOINT_EPSILON) {
                rng.random_range(0..edges.len())
            } else {
                ucb(edges, log_n, rng)
            };
            self.joint[r] = edges[i].mv;
            self.choices.push(i as u32);
        }
    }

    /// The goals of a random playout from `state` into `reward`.
    fn playout<R: Rng>(
        &mut self,
        m: &mut Machine,
        state: &State,
        rng: &mut R,
    ) -> Result<(), EngineError> {
        match m.playout(state, rng, MAX_PLAYOUT)?.end {
            End::Goals(goals) => {
                for (w, g) in self.reward.iter_mut().zip(goals) {
                    *w = g.unwrap_or(0) as f64 / 100.0;
                }
            }
            End::Unfinished => self.reward.fill(0.5),
            End::BadGoals(e) => return Err(e),
        }
        Ok(())
    }

    /// Adds `reward` to every node of the path and to the edges taken.
    fn back_up(&mut self) {
        for &(node, first) in &self.path {
            let node = &mut self.nodes[node as usize];
            node.visits += 1;
            for r in 0..self.roles {
                let i = self.choices[first + r];
                if i != NONE {
                    let e = &mut node.edges[r][i as usize];
                    e.visits += 1;
                    e.total += self.reward[r];
                }
            }
        }
    }

    /// The root statistics of this tree and `others`, summed per move, each
    /// role's moves best first.
    fn merge_roots(&self, others: &[Tree]) -> Outcome {
        let root = &self.nodes[0];
        let moves = (0..self.roles)
            .map(|r| {
                let mut stats: Vec<MoveStat> = root.edges[r]
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let (visits, total) = others
                            .iter()
                            .map(|t| t.nodes[0].edges[r][i])
                            .fold((e.visits, e.total), |(v, t), o| (v + o.visits, t + o.total));
                        MoveStat {
                            mv: e.mv,
                            visits,
                            mean: 100.0 * total / visits.max(1) as f64,
                        }
                    })
                    .collect();
                stats.sort_by(|a, b| {
                    b.visits
                        .cmp(&a.visits)
                        .then(b.mean.total_cmp(&a.mean))
                        .then(a.mv.cmp(&b.mv))
                });
                stats
            })
            .collect();
        Outcome {
            moves,
            iterations: self.iterations + others.iter().map(|t| t.iterations).sum::<u64>(),
        }
    }
}

/// UCB1 over a role's edges: an unvisited edge first (a random one), else
/// the best mean plus exploration bonus (ties: the earlier edge).
fn ucb<R: Rng>(edges: &[Edge], log_n: f64, rng: &mut R) -> usize {
    if edges.len() == 1 {
        return 0;
    }
    let unvisited = edges.iter().filter(|e| e.visits == 0).count();
    if unvisited > 0 {
        let k = rng.random_range(0..unvisited);
        return edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.visits == 0)
            .nth(k)
            .map_or(0, |(i, _)| i);
    }
    let mut best = (0, f64::NEG_INFINITY);
    for (i, e) in edges.iter().enumerate() {
        let n = e.visits as f64;
        let value = e.total / n + EXPLORATION * (log_n / n).sqrt();
        if value > best.1 {
            best = (i, value);
        }
    }
    best.0
}

/// Nature's outcome drawn by weight (the only one without a draw).
fn sample<R: Rng>(chance: &[(u32, u64)], total: u128, rng: &mut R) -> u32 {
    if chance.len() == 1 {
        return chance[0].0;
    }
    let mut x = crate::engine::draw_below(total, rng);
    for &(mv, w) in chance {
        let w = u128::from(w);
        if x < w {
            return mv;
        }
        x -= w;
    }
    chance[chance.len() - 1].0
}
