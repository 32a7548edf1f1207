//! Compiling a ground program into a flat state machine.
//!
//! In: a [`Ground`] program. Out: a [`Net`]: value slots (two constants, one
//! per base fact `true(X)`, one per move `does(R, M)`, one per remaining
//! derived atom), rules as flat literal arrays over slots, and one evaluation
//! plan per query cone, plus the tables the queries read (roles, legal moves,
//! next, goals, terminal, weights, the initial state).
//! Holds: atoms that depend on neither `true` nor `does` are evaluated here
//! once and folded away; derived slots are numbered in dependency order, so a
//! plan is a sorted list of slots, and a recursive component occupies a
//! contiguous range that is evaluated to its least fixpoint (`fixpoint`).
//! Numbers computed at play time ([`crate::ground::numbers`]) sit beside the
//! boolean slots ([`NetNumbers`]): value nodes (constants, arithmetic, and
//! aggregates over member slots with their weights) and test slots, derived
//! slots with no rules that hold when their comparison of two nodes does
//! (false where a side has no value). A test slot comes after the members of
//! the aggregates it reads, so a plan computes it in slot order as a
//! [`PlanStep::Test`] step; the reference folds each aggregate over its
//! members there, the incremental engine keeps a running value per
//! aggregate.
//!
//! The stages, each a function with a typed result: [`AtomGraph::new`]
//! (dependencies and components), [`fold`] (classify atoms, evaluate the
//! static ones), [`Layout::new`] (assign slots), [`encode`] (rules as
//! literal arrays, move-triggered rules filed under their move),
//! [`query_tables`] (roles, moves, goals, weights, init, next, terminal),
//! [`Plans::new`] (one plan per query cone) and [`early_rules`] (triggered
//! rules decided as soon as the move is known; those and the other
//! triggered rules grouped by a state fact they share).

use super::fixpoint::Recursion;
use crate::diag::{Diagnostic, codes};
use crate::gdl::{self, Names, Relation};
use crate::ground::numbers::{self, Node, Test};
use crate::ground::{AtomId, GTerm, Ground, Lit, TermId};
use crate::syntax::AggOp;
use rustc_hash::FxHashMap;

pub const SLOT_FALSE: u32 = 0;
pub const SLOT_TRUE: u32 = 1;
pub const BASE0: u32 = 2;

/// One step of an evaluation plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanStep {
    /// Compute one slot from its rules.
    One(u32),
    /// Compute a recursive component (slots `start..end`) to its fixpoint.
    Fixpoint(u32, u32),
    /// Compute a test slot: test `t` of [`NetNumbers::tests`].
    Test(u32, u32),
}

/// The numbers computed at play time over slots: value nodes in
/// dependency order (an aggregate's members are `members[start..end]`,
/// slots with their weights), and the tests the test slots hold for.
#[derive(Clone, Debug, Default)]
pub struct NetNumbers {
    pub nodes: Vec<Node>,
    pub members: Vec<(u32, i64)>,
    pub tests: Vec<Test>,
    /// The value node of each open position of each open atom, as (atom,
    /// position, node), sorted.
    pub values: Vec<(u32, u32, u32)>,
}

impl NetNumbers {
    /// The value of a node in `vals`, each aggregate folded over its
    /// members (what the reference plans do).
    pub fn value(&self, vals: &[bool], node: u32) -> Option<i64> {
        numbers::value(&self.nodes, node, &|n| self.fold(vals, n))
    }

    /// The value nodes of an atom's open positions, as (position, node).
    pub fn open_positions(&self, atom: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let from = self.values.partition_point(|v| v.0 < atom);
        self.values[from..]
            .iter()
            .take_while(move |v| v.0 == atom)
            .map(|v| (v.1, v.2))
    }

    /// Whether test `t` holds in `vals`.
    pub fn holds(&self, vals: &[bool], t: u32) -> bool {
        numbers::holds(&self.nodes, self.tests[t as usize], &|n| self.fold(vals, n))
    }

    /// An aggregate node folded over its members that hold: `None` for
    /// the least or greatest of nothing and a sum out of range.
    pub fn fold(&self, vals: &[bool], node: u32) -> Option<i64> {
        let Node::Agg(op, a, b) = self.nodes[node as usize] else {
            return None;
        };
        let held = self.members[a as usize..b as usize]
            .iter()
            .filter(|&&(s, _)| vals[s as usize])
            .map(|&(_, w)| w);
        match op {
            AggOp::Count => Some(held.count() as i64),
            AggOp::Sum => i64::try_from(held.map(i128::from).sum::<i128>()).ok(),
            AggOp::Min => held.min(),
            AggOp::Max => held.max(),
        }
    }
}

/// One move a role may ever make.
#[derive(Clone, Debug)]
pub struct MoveEntry {
    pub term: TermId,
    pub legal: u32,
    pub does: u32,
}

#[derive(Clone, Debug)]
pub struct RoleEntry {
    pub name: TermId,
    pub moves: Vec<MoveEntry>,
    /// `goal(R, N)` slots with their values.
    pub goals: Vec<(u32, GoalValue)>,
}

/// The value of a `goal(R, N)` atom: written, or computed at play time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalValue {
    Const(i64),
    /// The value node of `N` (see [`NetNumbers`]).
    Computed(u32),
}

/// The compiled program.
#[derive(Clone, Debug)]
pub struct Net {
    pub slots: usize,
    /// Base fact `i` lives in slot `BASE0 + i`.
    pub base: Vec<TermId>,
    pub first_derived: u32,
    /// Rules of derived slot `s` are `slot_rules[s - first_derived]..[+1]`.
    pub slot_rules: Vec<u32>,
    pub rule_lits: Vec<u32>,
    /// Slot of the first move (`does`) atom.
    pub first_input: u32,
    /// For move slot `first_input + i`: the (head slot, rule) pairs it
    /// triggers whose bodies read only the state and `view` slots, so they
    /// can be decided as soon as the move is known.
    pub early: Vec<Vec<(u32, u32)>>,
    /// For move slot `first_input + i`: (literal, start, end) groups of
    /// `early[i]` whose rules all contain that literal. A group whose start
    /// has the bit [`SPLIT`] is split by a second literal:
    /// `start & !SPLIT..end` are its subgroups in `early_subgroups[i]`.
    pub early_groups: Vec<Vec<(u32, u32, u32)>>,
    /// For move slot `first_input + i`: (literal, start, end) subgroups of
    /// the split groups of `early_groups[i]`, over `early[i]`, whose rules
    /// all contain that literal too.
    pub early_subgroups: Vec<Vec<(u32, u32, u32)>>,
    /// The other triggered rules, decided when the plan reaches their head.
    pub triggered: Vec<Vec<(u32, u32)>>,
    /// For move slot `first_input + i`: (literal, start, end) groups of
    /// `triggered[i]` whose rules all contain that literal (a state fact,
    /// or the constant true).
    pub triggered_groups: Vec<Vec<(u32, u32, u32)>>,
    /// `slot << 1 | negated`.
    pub lits: Vec<u32>,
    pub roles: Vec<RoleEntry>,
    /// Index of the role `random`, if the game has one.
    pub random: Option<usize>,
    /// For each move of the random role: `weight(M, W)` slots with W.
    pub weights: Vec<Vec<(u32, i64)>>,
    /// `next(X)` slot and the base index of `true(X)`.
    pub next: Vec<(u32, u32)>,
    pub init: Vec<u32>,
    pub terminal: u32,
    /// Terminal, legal moves and weights: everything that depends on the state only.
    pub view: Vec<PlanStep>,
    pub goal: Vec<PlanStep>,
    /// What `next` needs beyond `view`: run after `view`, with the moves set.
    pub after: Vec<PlanStep>,
    /// Every derived slot that does not depend on the moves (for queries).
    pub full: Vec<PlanStep>,
    /// The slot of every ground atom (constants on slots 0 and 1).
    pub atom_slot: Vec<u32>,
    /// How each recursive component is evaluated to its fixpoint.
    pub recursion: Recursion,
    /// The numbers computed at play time and the tests over them.
    pub numbers: NetNumbers,
}

impl Net {
    /// How many rules (not move-triggered) a plan evaluates in one pass.
    pub fn plan_rules(&self, plan: &[PlanStep]) -> usize {
        let rules = |s: u32| {
            let d = (s - self.first_derived) as usize;
            (self.slot_rules[d + 1] - self.slot_rules[d]) as usize
        };
        plan.iter()
            .map(|step| match *step {
                PlanStep::One(s) => rules(s),
                PlanStep::Fixpoint(a, b) => (a..b).map(rules).sum(),
                PlanStep::Test(..) => 0,
            })
            .sum()
    }
}

/// A game the compiler refuses.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// `(role x) (<= (role o) (true (c)))`: a role that depends on the state
    /// (the checks refuse it first; this guards the compiler on its own).
    #[error("`role` must not depend on the state or the moves")]
    RoleNotFixed,
    /// `(role x) (goal x win)`: a goal value that is not a number.
    #[error("a goal value is not an integer")]
    GoalNotInteger { role: TermId, value: TermId },
    /// `roles random. legal(random, a). weight(a, heavy).`
    #[error("a weight is not an integer")]
    WeightNotInteger { mv: TermId, weight: TermId },
    /// `(init (c))`: no `role` fact holds.
    #[error("the game declares no roles")]
    NoRoles,
}

impl CompileError {
    /// The diagnostic, with the terms printed in the game's syntax.
    pub fn diagnostic(&self, g: &Ground) -> Diagnostic {
        let show = |t: TermId| g.terms.show(t, &g.symbols, g.syntax).to_string();
        match *self {
            CompileError::RoleNotFixed => Diagnostic::global(codes::RESERVED, self.to_string()),
            CompileError::GoalNotInteger { role, value } => Diagnostic::global(
                codes::ARITHMETIC,
                format!(
                    "goal value {} of role {} is not an integer",
                    show(value),
                    show(role)
                ),
            ),
            CompileError::WeightNotInteger { mv, weight } => Diagnostic::global(
                codes::ARITHMETIC,
                format!(
                    "weight {} of move {} is not an integer",
                    show(weight),
                    show(mv)
                ),
            ),
            CompileError::NoRoles => Diagnostic::global(codes::NO_ROLES, self.to_string()),
        }
    }
}

/// Compiles a ground program, or says every reason it cannot.
pub fn compile(g: &Ground) -> Result<Net, Vec<Diagnostic>> {
    let names = Names::new(&g.symbols);
    let kinds: Vec<Option<Relation>> = g
        .atoms
        .iter()
        .map(|a| names.atom(a.rel, a.args.len()))
        .collect();
    let graph = AtomGraph::new(g);
    let folded = fold(g, &kinds, &graph);
    let layout = Layout::new(&folded, &graph);
    let mut encoded = encode(&folded, &layout);
    let tables = query_tables(g, &kinds, &folded, &layout)
        .map_err(|errors| errors.iter().map(|e| e.diagnostic(g)).collect::<Vec<_>>())?;
    let (numbers, tests) = test_slots(g, &layout);
    let plans = Plans::new(&layout, &encoded, &tables, &tests, &numbers);
    let (mut early, mut early_groups, triggered_groups) =
        early_rules(&layout, &mut encoded, &plans);
    let early_subgroups = split_groups(&layout, &encoded, &mut early, &mut early_groups);
    let mut net = Net {
        slots: layout.slots,
        base: folded.base,
        first_derived: layout.first_derived,
        slot_rules: encoded.slot_rules,
        rule_lits: encoded.rule_lits,
        first_input: layout.first_input,
        early,
        early_groups,
        early_subgroups,
        triggered: encoded.triggered,
        triggered_groups,
        lits: encoded.lits,
        roles: tables.roles,
        random: tables.random,
        weights: tables.weights,
        next: tables.next,
        init: tables.init,
        terminal: tables.terminal,
        view: plans.view,
        goal: plans.goal,
        after: plans.after,
        full: plans.full,
        atom_slot: layout.slot,
        recursion: Recursion::default(),
        numbers,
    };
    let recursive = layout.ranges.iter().filter(|r| r.recursive);
    net.recursion = Recursion::new(&net, recursive.map(|r| (r.start, r.end)));
    Ok(net)
}

/// The net of a game on the rule evaluator: base facts, the initial state
/// and the roles with their moves; no slots beyond the constants, no rules.
pub fn skeleton(
    base: Vec<TermId>,
    init: Vec<u32>,
    roles: &[TermId],
    moves: &[Vec<TermId>],
    random: Option<usize>,
) -> Net {
    let roles = (roles.iter().zip(moves))
        .map(|(&name, moves)| RoleEntry {
            name,
            moves: (moves.iter())
                .map(|&term| MoveEntry {
                    term,
                    legal: SLOT_FALSE,
                    does: SLOT_FALSE,
                })
                .collect(),
            goals: Vec::new(),
        })
        .collect();
    Net {
        slots: BASE0 as usize,
        base,
        first_derived: BASE0,
        slot_rules: vec![0],
        rule_lits: vec![0],
        first_input: BASE0,
        early: Vec::new(),
        early_groups: Vec::new(),
        early_subgroups: Vec::new(),
        triggered: Vec::new(),
        triggered_groups: Vec::new(),
        lits: Vec::new(),
        roles,
        random,
        weights: Vec::new(),
        next: Vec::new(),
        init,
        terminal: SLOT_FALSE,
        view: Vec::new(),
        goal: Vec::new(),
        after: Vec::new(),
        full: Vec::new(),
        atom_slot: Vec::new(),
        recursion: Recursion::default(),
        numbers: NetNumbers::default(),
    }
}

/// Which atoms each atom's rules read, and the strongly connected
/// components of that graph.
struct AtomGraph {
    /// The rules of each atom (with the atom as head), in rule order.
    head_rules: Lists,
    /// The atoms each atom's rules read, sorted, without repeats.
    succ: Lists,
    /// Components, every one after the components it reads.
    comps: Vec<Vec<u32>>,
}

/// A list of numbers per node, stored flat (one allocation for all, where a
/// game may have millions of nodes): list `i` is
/// `items[starts[i]..starts[i + 1]]`.
struct Lists {
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    fn get(&self, i: usize) -> &[u32] {
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

impl AtomGraph {
    fn new(g: &Ground) -> AtomGraph {
        let n = g.atoms.len();
        // Counting sort of the rules by head.
        let mut starts = vec![0u32; n + 1];
        g.heads.iter().for_each(|h| starts[h.0 as usize + 1] += 1);
        for a in 0..n {
            starts[a + 1] += starts[a];
        }
        let mut items = vec![0u32; g.heads.len()];
        let mut cursor = starts.clone();
        for (r, h) in g.heads.iter().enumerate() {
            items[cursor[h.0 as usize] as usize] = r as u32;
            cursor[h.0 as usize] += 1;
        }
        let head_rules = Lists { starts, items };
        // A test reads the members of the aggregates it compares.
        let mut test_reads: Vec<(u32, u32)> = Vec::new();
        let mut aggregates = Vec::new();
        for &(atom, test) in &g.numbers.tests {
            aggregates.clear();
            numbers::test_aggregates(&g.numbers.nodes, test, &mut aggregates);
            for &n in &aggregates {
                if let Node::Agg(_, a, b) = g.numbers.nodes[n as usize] {
                    let members = &g.numbers.members[a as usize..b as usize];
                    test_reads.extend(members.iter().map(|m| (atom.0, m.0.0)));
                }
            }
        }
        test_reads.sort_unstable();
        let mut test_reads = test_reads.as_slice();
        // `seen[b] == a + 1`: atom `b` is already a successor of `a`.
        let mut seen = vec![0u32; n];
        let mut succ = Lists {
            starts: Vec::with_capacity(n + 1),
            items: Vec::new(),
        };
        succ.starts.push(0);
        for a in 0..n {
            let from = succ.items.len();
            for &r in head_rules.get(a) {
                for l in g.body(r as usize) {
                    let b = l.atom().0 as usize;
                    if seen[b] != a as u32 + 1 {
                        seen[b] = a as u32 + 1;
                        succ.items.push(b as u32);
                    }
                }
            }
            let reads = test_reads.partition_point(|&(t, _)| t as usize == a);
            succ.items
                .extend(test_reads[..reads].iter().map(|&(_, m)| m));
            test_reads = &test_reads[reads..];
            let list = &mut succ.items[from..];
            list.sort_unstable();
            let kept = dedup_sorted(list);
            succ.items.truncate(from + kept);
            succ.starts.push(succ.items.len() as u32);
        }
        let comps = crate::scc::components(n, |a, k| succ.get(a).get(k).map(|&b| b as usize));
        AtomGraph {
            head_rules,
            succ,
            comps,
        }
    }

    /// Whether a component is recursive: several atoms, or one that reads
    /// itself.
    fn recursive(&self, comp: &[u32]) -> bool {
        comp.len() > 1 || self.succ.get(comp[0] as usize).contains(&comp[0])
    }
}

/// What an atom is, once the static ones are evaluated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Const(bool),
    /// Base fact number `i` (`true(X)`).
    Base(u32),
    /// A move (`does(R, M)`).
    Input,
    /// A derived atom; `true` if it depends on `does`.
    Derived(bool),
}

/// The atoms classified, the static ones evaluated.
struct Folded {
    status: Vec<Status>,
    /// The rules of each derived atom, simplified against the constants
    /// (none for every other atom).
    rules: Rules,
    /// The term of each base fact.
    base: Vec<TermId>,
}

/// Rules as ranges of one literal list (one allocation for millions of
/// rules), filed by head atom.
struct Rules {
    lits: Vec<Lit>,
    /// Rule `i`'s literals are `lits[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    /// Atom `a`'s rules are `of_atom[a].0..of_atom[a].1`.
    of_atom: Vec<(u32, u32)>,
}

impl Rules {
    /// Room for the rules and literals of `g`, which folding only removes.
    fn new(g: &Ground) -> Rules {
        let mut start = Vec::with_capacity(g.heads.len() + 1);
        start.push(0);
        Rules {
            lits: Vec::with_capacity(g.lits.len()),
            start,
            of_atom: vec![(0, 0); g.atoms.len()],
        }
    }

    fn count(&self) -> u32 {
        self.start.len() as u32 - 1
    }

    /// Ends the rule whose literals were pushed since the last one ended.
    fn close(&mut self) {
        self.start.push(self.lits.len() as u32);
    }

    /// Forgets rule `rule` and every rule after it.
    fn truncate(&mut self, rule: u32) {
        self.lits.truncate(self.start[rule as usize] as usize);
        self.start.truncate(rule as usize + 1);
    }

    /// The bodies of atom `a`'s rules.
    fn of(&self, a: usize) -> impl Iterator<Item = &[Lit]> {
        let (from, to) = self.of_atom[a];
        (from as usize..to as usize)
            .map(|r| &self.lits[self.start[r] as usize..self.start[r + 1] as usize])
    }
}

/// Classifies every atom: base facts numbered in the natural order of
/// their terms (names alphabetically, numbers numerically, so states print
/// in that order), moves, and derived atoms, of which those that depend on
/// neither the state nor the moves are evaluated to constants.
fn fold(g: &Ground, kinds: &[Option<Relation>], graph: &AtomGraph) -> Folded {
    let n = g.atoms.len();
    let mut status = vec![Status::Const(false); n];
    let mut base_atoms: Vec<usize> = (0..n)
        .filter(|&a| kinds[a] == Some(Relation::True))
        .collect();
    base_atoms.sort_by(|&a, &b| {
        let (ta, tb) = (g.atoms[a].args[0], g.atoms[b].args[0]);
        g.terms.compare(ta, tb, &g.symbols)
    });
    for (i, &a) in base_atoms.iter().enumerate() {
        status[a] = Status::Base(i as u32);
    }
    for (a, st) in status.iter_mut().enumerate() {
        if kinds[a] == Some(Relation::Does) {
            *st = Status::Input;
        }
    }
    let mut folded = Folded {
        status,
        rules: Rules::new(g),
        base: base_atoms.iter().map(|&a| g.atoms[a].args[0]).collect(),
    };
    let mut member = Membership {
        comp: vec![0; n],
        position: vec![0; n],
    };
    for (ci, comp) in graph.comps.iter().enumerate() {
        for (i, &a) in comp.iter().enumerate() {
            member.comp[a as usize] = ci as u32;
            member.position[a as usize] = i as u32;
        }
    }
    let mut is_test = vec![false; n];
    g.numbers
        .tests
        .iter()
        .for_each(|&(a, _)| is_test[a.0 as usize] = true);
    for (ci, comp) in graph.comps.iter().enumerate() {
        let inputs = comp
            .iter()
            .any(|&a| matches!(folded.status[a as usize], Status::Base(_) | Status::Input));
        if let [a] = comp[..]
            && is_test[a as usize]
        {
            // A test has no rules: its comparison is evaluated at play time.
            folded.status[a as usize] = Status::Derived(false);
        } else if !inputs {
            // Base and input atoms have no rules.
            fold_component(g, graph, ci as u32, &member, &mut folded);
        }
    }
    folded
}

/// The component of every atom and its position there.
struct Membership {
    comp: Vec<u32>,
    position: Vec<u32>,
}

/// Simplifies the rules of one component of derived atoms against the
/// constants outside it, and sets the members' status: constants if
/// nothing dynamic is left, derived otherwise.
fn fold_component(
    g: &Ground,
    graph: &AtomGraph,
    ci: u32,
    member: &Membership,
    folded: &mut Folded,
) {
    let comp = &graph.comps[ci as usize];
    let inside = |a: AtomId| member.comp[a.0 as usize] == ci;
    let mut dynamic = false;
    let mut uses_does = false;
    let first = folded.rules.count();
    for &a in comp {
        let from = folded.rules.count();
        'rule: for &r in graph.head_rules.get(a as usize) {
            let mark = folded.rules.lits.len();
            for &l in g.body(r as usize) {
                match folded.status[l.atom().0 as usize] {
                    Status::Const(v) if !inside(l.atom()) => {
                        if v == l.negated() {
                            // A false literal kills the rule.
                            folded.rules.lits.truncate(mark);
                            continue 'rule;
                        }
                        continue; // a true literal is dropped
                    }
                    Status::Base(_) => dynamic = true,
                    Status::Input => (dynamic, uses_does) = (true, true),
                    Status::Derived(d) if !inside(l.atom()) => {
                        dynamic = true;
                        uses_does |= d;
                    }
                    _ => {}
                }
                folded.rules.lits.push(l);
            }
            folded.rules.close();
        }
        folded.rules.of_atom[a as usize] = (from, folded.rules.count());
    }
    let recursive = graph.recursive(comp);
    if !dynamic {
        let values = static_values(comp, recursive, &member.position, &folded.rules);
        // The component's rules are the last ones filed.
        folded.rules.truncate(first);
        for (&a, v) in comp.iter().zip(values) {
            folded.status[a as usize] = Status::Const(v);
            folded.rules.of_atom[a as usize] = (first, first);
        }
    } else if !recursive {
        let a = comp[0] as usize;
        let rules = &folded.rules;
        folded.status[a] = if rules.of(a).any(|b| b.is_empty()) {
            Status::Const(true)
        } else if rules.of(a).next().is_none() {
            Status::Const(false)
        } else {
            Status::Derived(uses_does)
        };
    } else {
        for &a in comp {
            folded.status[a as usize] = Status::Derived(uses_does);
        }
    }
}

/// The least fixpoint of a static component whose rules read, besides
/// constants already folded away, only its own members.
fn static_values(comp: &[u32], recursive: bool, position: &[u32], rules: &Rules) -> Vec<bool> {
    let mut values = vec![false; comp.len()];
    let rounds = if recursive { comp.len() + 1 } else { 1 };
    for _ in 0..rounds {
        let mut changed = false;
        for (i, &a) in comp.iter().enumerate() {
            let v = rules.of(a as usize).any(|body| {
                // Every literal left reads a member of the component.
                body.iter()
                    .all(|l| values[position[l.atom().0 as usize] as usize] != l.negated())
            });
            if v != values[i] {
                values[i] = v;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    values
}

/// A derived component's slots.
#[derive(Clone, Copy, Debug)]
struct SlotRange {
    start: u32,
    end: u32,
    recursive: bool,
}

/// Where every atom lives: constants on slots 0 and 1, base facts, moves,
/// then derived atoms in component order.
struct Layout {
    /// The slot of every atom.
    slot: Vec<u32>,
    first_input: u32,
    first_derived: u32,
    slots: usize,
    /// The derived components, in dependency order (so in slot order).
    ranges: Vec<SlotRange>,
    /// The atom of each derived slot.
    slot_atom: Vec<u32>,
    /// Whether each slot is a derived atom that depends on the moves.
    uses_does: Vec<bool>,
}

impl Layout {
    fn new(folded: &Folded, graph: &AtomGraph) -> Layout {
        let status = &folded.status;
        let mut slot = vec![SLOT_FALSE; status.len()];
        for (a, st) in status.iter().enumerate() {
            match *st {
                Status::Const(true) => slot[a] = SLOT_TRUE,
                Status::Base(i) => slot[a] = BASE0 + i,
                _ => {}
            }
        }
        let first_input = BASE0 + folded.base.len() as u32;
        let mut next_slot = first_input;
        for (a, st) in status.iter().enumerate() {
            if *st == Status::Input {
                slot[a] = next_slot;
                next_slot += 1;
            }
        }
        let first_derived = next_slot;
        let mut ranges = Vec::new();
        for comp in &graph.comps {
            if !matches!(status[comp[0] as usize], Status::Derived(_)) {
                continue;
            }
            let start = next_slot;
            for &a in comp {
                slot[a as usize] = next_slot;
                next_slot += 1;
            }
            let recursive = graph.recursive(comp);
            ranges.push(SlotRange {
                start,
                end: next_slot,
                recursive,
            });
        }
        let slots = next_slot as usize;
        let mut slot_atom = vec![u32::MAX; slots];
        let mut uses_does = vec![false; slots];
        for (a, st) in status.iter().enumerate() {
            if let Status::Derived(d) = *st {
                slot_atom[slot[a] as usize] = a as u32;
                uses_does[slot[a] as usize] = d;
            }
        }
        Layout {
            slot,
            first_input,
            first_derived,
            slots,
            ranges,
            slot_atom,
            uses_does,
        }
    }

    fn is_move(&self, slot: u32) -> bool {
        (self.first_input..self.first_derived).contains(&slot)
    }
}

/// The rules as literal arrays over slots.
struct Encoded {
    /// Rules of derived slot `s` are `slot_rules[s - first_derived]..[+1]`.
    slot_rules: Vec<u32>,
    /// Rule `r`'s literals are `lits[rule_lits[r]..rule_lits[r + 1]]`.
    rule_lits: Vec<u32>,
    lits: Vec<u32>,
    /// Per move slot `first_input + i`: the (head, rule) pairs it triggers.
    triggered: Vec<Vec<(u32, u32)>>,
    /// Per slot: its rules that a move triggers.
    head_triggered: Vec<Vec<u32>>,
}

impl Encoded {
    fn body(&self, rule: u32) -> &[u32] {
        &self.lits
            [self.rule_lits[rule as usize] as usize..self.rule_lits[rule as usize + 1] as usize]
    }
}

/// Encodes the rules of every derived slot. A rule of a non-recursive slot
/// with a positive `does` literal is triggered by that move instead of
/// being scanned every time: the literal is dropped and the rule filed
/// under the move (after every scanned rule, so each slot's scanned rules
/// stay contiguous).
fn encode(folded: &Folded, layout: &Layout) -> Encoded {
    let mut recursive_slot = vec![false; layout.slots];
    for range in layout.ranges.iter().filter(|r| r.recursive) {
        (range.start..range.end).for_each(|s| recursive_slot[s as usize] = true);
    }
    let mut rule_lits = Vec::with_capacity(folded.rules.count() as usize + 1);
    rule_lits.push(0);
    let mut out = Encoded {
        slot_rules: vec![0],
        rule_lits,
        lits: Vec::with_capacity(folded.rules.lits.len()),
        triggered: vec![Vec::new(); (layout.first_derived - layout.first_input) as usize],
        head_triggered: vec![Vec::new(); layout.slots],
    };
    // Triggered rules as (head, move, start, end) in `deferred_lits`.
    let mut deferred = Vec::new();
    let mut deferred_lits = Vec::new();
    for s in layout.first_derived..layout.slots as u32 {
        let a = layout.slot_atom[s as usize] as usize;
        for body in folded.rules.of(a) {
            let mark = out.lits.len();
            out.lits.extend(
                body.iter()
                    .map(|l| layout.slot[l.atom().0 as usize] << 1 | l.negated() as u32),
            );
            let encoded = &out.lits[mark..];
            let trigger = encoded
                .iter()
                .position(|&l| l & 1 == 0 && layout.is_move(l >> 1));
            match trigger {
                Some(i) if !recursive_slot[s as usize] => {
                    let from = deferred_lits.len() as u32;
                    let rest = encoded.iter().enumerate().filter(|&(k, _)| k != i);
                    deferred_lits.extend(rest.map(|(_, &l)| l));
                    deferred.push((s, encoded[i] >> 1, from, deferred_lits.len() as u32));
                    out.lits.truncate(mark);
                }
                _ => out.rule_lits.push(out.lits.len() as u32),
            }
        }
        out.slot_rules.push(out.rule_lits.len() as u32 - 1);
    }
    for (head, does, from, to) in deferred {
        out.lits
            .extend_from_slice(&deferred_lits[from as usize..to as usize]);
        out.rule_lits.push(out.lits.len() as u32);
        let rule = out.rule_lits.len() as u32 - 2;
        out.triggered[(does - layout.first_input) as usize].push((head, rule));
        out.head_triggered[head as usize].push(rule);
    }
    out
}

/// What the queries read: roles with their moves and goals, weights,
/// the initial state, `next` and `terminal`.
struct Tables {
    roles: Vec<RoleEntry>,
    random: Option<usize>,
    weights: Vec<Vec<(u32, i64)>>,
    next: Vec<(u32, u32)>,
    init: Vec<u32>,
    terminal: u32,
}

/// The `legal`, `goal` and `weight` atoms that may hold: (first argument,
/// second argument, slot), and for goals the atom.
#[derive(Default)]
struct Pending {
    legal: Vec<(TermId, TermId, u32)>,
    goal: Vec<(TermId, TermId, u32, AtomId)>,
    weight: Vec<(TermId, TermId, u32)>,
}

/// Moves the distinct numbers of a sorted list to its front; how many.
fn dedup_sorted(list: &mut [u32]) -> usize {
    let mut kept = 0;
    for i in 0..list.len() {
        if i == 0 || list[i] != list[kept - 1] {
            list[kept] = list[i];
            kept += 1;
        }
    }
    kept
}

/// Builds the query tables, or every error found on the way.
fn query_tables(
    g: &Ground,
    kinds: &[Option<Relation>],
    folded: &Folded,
    layout: &Layout,
) -> Result<Tables, Vec<CompileError>> {
    let mut errors = Vec::new();
    let mut roles = role_entries(g, kinds, &folded.status, &mut errors);
    // Every `true(X)` atom is a base fact, and the grounder's bridge rule
    // `true(X) :- init(X)` (and `:- next(X)`) made one for every `init` and
    // `next` atom, so these look-ups find their fact.
    let base_index: FxHashMap<TermId, u32> = folded
        .base
        .iter()
        .enumerate()
        .map(|(i, t)| (*t, i as u32))
        .collect();
    let mut tables = Tables {
        roles: Vec::new(),
        random: None,
        weights: Vec::new(),
        next: Vec::new(),
        init: Vec::new(),
        terminal: SLOT_FALSE,
    };
    let mut pending = Pending::default();
    for (a, atom) in g.atoms.iter().enumerate() {
        let s = layout.slot[a];
        if s == SLOT_FALSE {
            continue; // never holds
        }
        let args = &atom.args;
        match kinds[a] {
            Some(Relation::Init) if s == SLOT_TRUE => tables.init.push(base_index[&args[0]]),
            Some(Relation::Next) => tables.next.push((s, base_index[&args[0]])),
            Some(Relation::Terminal) => tables.terminal = s,
            Some(Relation::Legal) => pending.legal.push((args[0], args[1], s)),
            Some(Relation::Goal) => pending.goal.push((args[0], args[1], s, AtomId(a as u32))),
            Some(Relation::Weight) => pending.weight.push((args[0], args[1], s)),
            _ => {}
        }
    }
    attach_moves(g, kinds, layout, &mut roles, pending.legal);
    attach_goals(g, &mut roles, pending.goal, &mut errors);
    tables.random = roles.iter().position(|r| is_random(g, r.name));
    if let Some(ri) = tables.random {
        tables.weights = weights(g, &roles[ri], pending.weight, &mut errors);
    }
    if roles.is_empty() {
        errors.push(CompileError::NoRoles);
    }
    tables.roles = roles;
    if errors.is_empty() {
        Ok(tables)
    } else {
        Err(errors)
    }
}

/// A role per `role(R)` that holds, in atom order.
fn role_entries(
    g: &Ground,
    kinds: &[Option<Relation>],
    status: &[Status],
    errors: &mut Vec<CompileError>,
) -> Vec<RoleEntry> {
    let mut roles = Vec::new();
    for (a, atom) in g.atoms.iter().enumerate() {
        if kinds[a] != Some(Relation::Role) {
            continue;
        }
        match status[a] {
            Status::Const(true) => roles.push(RoleEntry {
                name: atom.args[0],
                moves: Vec::new(),
                goals: Vec::new(),
            }),
            Status::Derived(_) => errors.push(CompileError::RoleNotFixed),
            _ => {}
        }
    }
    roles
}

fn is_random(g: &Ground, role: TermId) -> bool {
    matches!(g.terms.term(role), GTerm::Sym(s) if g.symbols.name(*s) == gdl::RANDOM)
}

/// The moves of each role, in atom order of their `legal` atoms.
fn attach_moves(
    g: &Ground,
    kinds: &[Option<Relation>],
    layout: &Layout,
    roles: &mut [RoleEntry],
    legal: Vec<(TermId, TermId, u32)>,
) {
    // The grounder's bridge rule `does(R, M) :- legal(R, M)` made a `does`
    // atom for every `legal` atom, so the look-up below finds its slot.
    let does_slot: FxHashMap<(TermId, TermId), u32> = g
        .atoms
        .iter()
        .enumerate()
        .filter(|&(a, _)| kinds[a] == Some(Relation::Does))
        .map(|(a, atom)| ((atom.args[0], atom.args[1]), layout.slot[a]))
        .collect();
    for (r, m, s) in legal {
        if let Some(role) = roles.iter_mut().find(|e| e.name == r) {
            role.moves.push(MoveEntry {
                term: m,
                legal: s,
                does: does_slot[&(r, m)],
            });
        }
    }
}

fn attach_goals(
    g: &Ground,
    roles: &mut [RoleEntry],
    goals: Vec<(TermId, TermId, u32, AtomId)>,
    errors: &mut Vec<CompileError>,
) {
    for (r, v, s, atom) in goals {
        let Some(role) = roles.iter_mut().find(|e| e.name == r) else {
            continue;
        };
        let computed = || {
            let values = &g.numbers.values;
            let i = values.partition_point(|x| (x.0, x.1) < (atom, 1));
            values
                .get(i)
                .filter(|x| (x.0, x.1) == (atom, 1))
                .map(|x| x.2)
        };
        match (g.terms.int_value(v, &g.symbols), computed()) {
            (Some(n), _) => role.goals.push((s, GoalValue::Const(n))),
            (None, Some(node)) => role.goals.push((s, GoalValue::Computed(node))),
            (None, None) => errors.push(CompileError::GoalNotInteger { role: r, value: v }),
        }
    }
}

/// The `weight(M, W)` slots of each move of the chance role.
fn weights(
    g: &Ground,
    random: &RoleEntry,
    weights: Vec<(TermId, TermId, u32)>,
    errors: &mut Vec<CompileError>,
) -> Vec<Vec<(u32, i64)>> {
    let mut out = vec![Vec::new(); random.moves.len()];
    for (m, w, s) in weights {
        let Some(mi) = random.moves.iter().position(|e| e.term == m) else {
            continue;
        };
        match g.terms.int_value(w, &g.symbols) {
            Some(n) => out[mi].push((s, n)),
            None => errors.push(CompileError::WeightNotInteger { mv: m, weight: w }),
        }
    }
    out
}

/// One plan per query cone.
struct Plans {
    view: Vec<PlanStep>,
    goal: Vec<PlanStep>,
    after: Vec<PlanStep>,
    full: Vec<PlanStep>,
    /// Whether each slot is computed by `view`.
    in_view: Vec<bool>,
}

/// The test slots: the test of each and the slots it reads.
#[derive(Default)]
struct TestSlots {
    test_of: FxHashMap<u32, u32>,
    reads: FxHashMap<u32, Vec<u32>>,
}

/// The numbers over slots (members that never hold dropped) and the
/// test slots.
fn test_slots(g: &Ground, layout: &Layout) -> (NetNumbers, TestSlots) {
    let mut net = NetNumbers::default();
    for &node in &g.numbers.nodes {
        net.nodes.push(match node {
            Node::Agg(op, a, b) => {
                let start = net.members.len() as u32;
                for &(atom, w) in &g.numbers.members[a as usize..b as usize] {
                    let s = layout.slot[atom.0 as usize];
                    if s != SLOT_FALSE {
                        net.members.push((s, w));
                    }
                }
                Node::Agg(op, start, net.members.len() as u32)
            }
            other => other,
        });
    }
    net.values = (g.numbers.values.iter())
        .map(|&(atom, p, node)| (atom.0, p, node))
        .collect();
    let mut slots = TestSlots::default();
    let mut aggregates = Vec::new();
    for &(atom, test) in &g.numbers.tests {
        let s = layout.slot[atom.0 as usize];
        if s < layout.first_derived {
            continue;
        }
        slots.test_of.insert(s, net.tests.len() as u32);
        net.tests.push(test);
        aggregates.clear();
        numbers::test_aggregates(&net.nodes, test, &mut aggregates);
        let mut reads = Vec::new();
        for &n in &aggregates {
            if let Node::Agg(_, a, b) = net.nodes[n as usize] {
                reads.extend(net.members[a as usize..b as usize].iter().map(|m| m.0));
            }
        }
        slots.reads.insert(s, reads);
    }
    (net, slots)
}

impl Plans {
    fn new(
        layout: &Layout,
        encoded: &Encoded,
        tables: &Tables,
        tests: &TestSlots,
        numbers: &NetNumbers,
    ) -> Plans {
        let mut view_targets = vec![tables.terminal];
        for r in &tables.roles {
            view_targets.extend(r.moves.iter().map(|m| m.legal));
        }
        view_targets.extend(tables.weights.iter().flatten().map(|w| w.0));
        let view = plan(layout, encoded, tests, &view_targets, |_| false);
        // A computed goal value also reads its aggregates' members.
        let mut goal_targets = Vec::new();
        let mut aggregates = Vec::new();
        for &(s, value) in tables.roles.iter().flat_map(|r| &r.goals) {
            goal_targets.push(s);
            if let GoalValue::Computed(node) = value {
                numbers::test_aggregates(&numbers.nodes, Test::Defined(node), &mut aggregates);
            }
        }
        for &n in &aggregates {
            if let Node::Agg(_, a, b) = numbers.nodes[n as usize] {
                goal_targets.extend(numbers.members[a as usize..b as usize].iter().map(|m| m.0));
            }
        }
        let goal = plan(layout, encoded, tests, &goal_targets, |_| false);
        let mut in_view = vec![false; layout.slots];
        for step in &view {
            match *step {
                PlanStep::One(s) | PlanStep::Test(s, _) => in_view[s as usize] = true,
                PlanStep::Fixpoint(a, b) => (a..b).for_each(|s| in_view[s as usize] = true),
            }
        }
        let uses_does = &layout.uses_does;
        let next_targets: Vec<u32> = tables.next.iter().map(|n| n.0).collect();
        let after = plan(layout, encoded, tests, &next_targets, |s| {
            in_view[s as usize] && !uses_does[s as usize]
        });
        let all: Vec<u32> = (layout.first_derived..layout.slots as u32).collect();
        let full = plan(layout, encoded, tests, &all, |s| uses_does[s as usize]);
        Plans {
            view,
            goal,
            after,
            full,
            in_view,
        }
    }
}

/// The plan that computes `targets`: every derived component they read
/// (through scanned and triggered rules), except those `skip` names by
/// their first slot, in slot order.
fn plan(
    layout: &Layout,
    encoded: &Encoded,
    tests: &TestSlots,
    targets: &[u32],
    skip: impl Fn(u32) -> bool,
) -> Vec<PlanStep> {
    let first_derived = layout.first_derived;
    let mut seen = vec![false; layout.slots];
    let mut stack: Vec<u32> = targets
        .iter()
        .copied()
        .filter(|&s| s >= first_derived)
        .collect();
    while let Some(s) = stack.pop() {
        if seen[s as usize] {
            continue;
        }
        seen[s as usize] = true;
        let d = (s - first_derived) as usize;
        let own = encoded.slot_rules[d]..encoded.slot_rules[d + 1];
        for r in own.chain(encoded.head_triggered[s as usize].iter().copied()) {
            for &l in encoded.body(r) {
                let ls = l >> 1;
                if ls >= first_derived && !seen[ls as usize] {
                    stack.push(ls);
                }
            }
        }
        for &ls in tests.reads.get(&s).map_or(&[][..], |v| v.as_slice()) {
            if ls >= first_derived && !seen[ls as usize] {
                stack.push(ls);
            }
        }
    }
    layout
        .ranges
        .iter()
        .filter(|r| seen[r.start as usize] && !skip(r.start))
        .map(|r| match (r.recursive, tests.test_of.get(&r.start)) {
            (true, _) => PlanStep::Fixpoint(r.start, r.end),
            (false, Some(&t)) => PlanStep::Test(r.start, t),
            (false, None) => PlanStep::One(r.start),
        })
        .collect()
}

/// Moves the triggered rules whose bodies read only the state and slots
/// `view` computes out of `triggered` into the early lists. Returns the
/// early lists and their groups (see [`group_by_state_fact`]), and groups
/// the triggered lists that stay the same way, so a step links no rule of
/// a group whose fact is false.
#[allow(clippy::type_complexity)]
fn early_rules(
    layout: &Layout,
    encoded: &mut Encoded,
    plans: &Plans,
) -> (
    Vec<Vec<(u32, u32)>>,
    Vec<Vec<(u32, u32, u32)>>,
    Vec<Vec<(u32, u32, u32)>>,
) {
    let ready = |l: u32| {
        let s = l >> 1;
        s < layout.first_derived || (plans.in_view[s as usize] && !layout.uses_does[s as usize])
    };
    let mut triggered = std::mem::take(&mut encoded.triggered);
    let mut early = vec![Vec::new(); triggered.len()];
    for (list, early) in triggered.iter_mut().zip(&mut early) {
        list.retain(|&(head, rule)| {
            let now = encoded.body(rule).iter().all(|&l| ready(l));
            if now {
                early.push((head, rule));
            }
            !now
        });
    }
    let early_groups = group_by_state_fact(layout, encoded, &mut early);
    let mut triggered_groups = group_by_state_fact(layout, encoded, &mut triggered);
    // Groups of fewer than two rules on average skip less than their
    // tests cost a move made and taken back (a game of many one-rule
    // groups measured 2% slower, docs/ENGINES.md): such a move's triggered
    // rules are one group, which always holds.
    for (groups, list) in triggered_groups.iter_mut().zip(&triggered) {
        if 2 * groups.len() > list.len() {
            *groups = vec![(SLOT_TRUE << 1, 0, list.len() as u32)];
        }
    }
    encoded.triggered = triggered;
    (early, early_groups, triggered_groups)
}

/// Marks an early group split into subgroups (`Net::early_groups`).
pub const SPLIT: u32 = 1 << 31;

/// A group of early rules this large is split by a second state fact when
/// that makes subgroups of one and a half rules or more on average: a
/// move made then visits the rules of the subgroups whose fact holds, not
/// all the group's (a frame rule that also reads where the blank is: one
/// in nine of the group's rules instead of all).
const SPLIT_RULES: u32 = 8;

/// Splits each large group of `groups` (over `lists`, as
/// [`group_by_state_fact`] made them) by the first positive state fact of
/// its rules other than the group's; returns the subgroups, per move.
fn split_groups(
    layout: &Layout,
    encoded: &Encoded,
    lists: &mut [Vec<(u32, u32)>],
    groups: &mut [Vec<(u32, u32, u32)>],
) -> Vec<Vec<(u32, u32, u32)>> {
    let mut all = Vec::with_capacity(lists.len());
    for (list, groups) in lists.iter_mut().zip(groups) {
        let mut subgroups: Vec<(u32, u32, u32)> = Vec::new();
        for group in groups.iter_mut() {
            let (key, a, b) = *group;
            if b - a < SPLIT_RULES {
                continue;
            }
            let second_of = |rule: u32| {
                encoded
                    .body(rule)
                    .iter()
                    .copied()
                    .find(|&l| {
                        l != key && l & 1 == 0 && (BASE0..layout.first_input).contains(&(l >> 1))
                    })
                    .unwrap_or(SLOT_TRUE << 1)
            };
            let rules = &mut list[a as usize..b as usize];
            // Rules are unique, so an unstable sort orders the same as a stable one.
            rules.sort_unstable_by_key(|&(head, rule)| (second_of(rule), head, rule));
            let first = subgroups.len();
            for (k, &(_, rule)) in rules.iter().enumerate() {
                let (second, at) = (second_of(rule), a + k as u32);
                let started = subgroups.len() > first;
                match subgroups.last_mut() {
                    Some(g) if started && g.0 == second => g.2 = at + 1,
                    _ => subgroups.push((second, at, at + 1)),
                }
            }
            let made = (subgroups.len() - first) as u32;
            if made >= 2 && 2 * (b - a) >= 3 * made {
                *group = (key, SPLIT | first as u32, first as u32 + made);
            } else {
                subgroups.truncate(first);
            }
        }
        all.push(subgroups);
    }
    all
}

/// Orders each move's (head, rule) list by a literal its rules share (the
/// first positive state fact of the body, where there is one, else the
/// constant true) and returns the (literal, start, end) groups of each
/// list: when the moves are made the state is loaded, so a group whose
/// fact is false holds no rule and is skipped whole.
fn group_by_state_fact(
    layout: &Layout,
    encoded: &Encoded,
    lists: &mut [Vec<(u32, u32)>],
) -> Vec<Vec<(u32, u32, u32)>> {
    let key_of = |rule: u32| {
        encoded
            .body(rule)
            .iter()
            .copied()
            .find(|&l| l & 1 == 0 && (BASE0..layout.first_input).contains(&(l >> 1)))
            .unwrap_or(SLOT_TRUE << 1)
    };
    let mut groups = Vec::with_capacity(lists.len());
    let mut keyed: Vec<(u32, u32, u32)> = Vec::new();
    for list in lists {
        keyed.clear();
        keyed.extend(list.iter().map(|&(head, rule)| (key_of(rule), head, rule)));
        // Rules are unique, so an unstable sort orders the same as a stable one.
        keyed.sort_unstable();
        list.clear();
        list.extend(keyed.iter().map(|&(_, head, rule)| (head, rule)));
        let mut own: Vec<(u32, u32, u32)> = Vec::new();
        for (k, &(key, _, _)) in keyed.iter().enumerate() {
            match own.last_mut() {
                Some(g) if g.0 == key => g.2 = k as u32 + 1,
                _ => own.push((key, k as u32, k as u32 + 1)),
            }
        }
        groups.push(own);
    }
    groups
}
