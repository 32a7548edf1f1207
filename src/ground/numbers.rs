//! Numbers computed at play time: which integer arguments stay open, and
//! the value nodes and tests that replace their ground values.
//!
//! In: the prepared rules and the aggregates of a program. Out: the open
//! argument positions of each relation ([`open_positions`], which also marks
//! each rule's open variables and the role of its comparisons), and, while
//! the join runs, per ground instance its numeric part ([`Numbers`]).
//! Holds: a position is open when, in every rule of its relation, it is a
//! variable bound by a state-dependent aggregate or by arithmetic over open
//! values, and every read of it is a variable used only in comparisons,
//! arithmetic and other open positions (a greatest fixpoint: positions are
//! closed until every rule agrees). The relaxed model holds one atom per
//! key with the abstract term `_value` at open positions; arithmetic over
//! it gives it and a comparison with it passes. Each open atom has exactly
//! one ground instance, whose head expression is its value node (a
//! relation with a second instance for one key is grounded again with its
//! integers ground, [`super::ground_with`]); a
//! comparison over open values becomes a test atom, a boolean defined by
//! the comparison of two nodes, and the instance reads it as a literal.
//! Every open value a rule reads is defined when the rule's other literals
//! hold (an open atom holds only with a value, and a binding by arithmetic
//! adds a test that it is defined), so a test is false on an undefined
//! value only where the rule evaluator's comparison fails too.

use super::prepare::{PCmp, Pat, Prepared, RelKey};
use super::{AtomId, Grounder, Lit, TermId, TermTable};
use crate::diag::{Diagnostic, codes};
use crate::gdl::{Names, Relation};
use crate::ground::GTerm;
use crate::syntax::{AggOp, ArithOp, CmpOp, Sym, Symbols};
use rustc_hash::{FxHashMap, FxHashSet};

/// The name of the abstract integer at an open position.
pub const OPEN_VALUE: &str = "_value";

/// A value node: a constant, arithmetic over two nodes, or an aggregate
/// over member atoms (`members[start..end]` of [`Numbers`] with their
/// integer weights; `count` weighs each 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Const(i64),
    Arith(ArithOp, u32, u32),
    Agg(AggOp, u32, u32),
}

/// What a test atom holds for: a node has a value, or two nodes compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    Defined(u32),
    Cmp(CmpOp, u32, u32),
}

/// The numeric part of a ground program: value nodes in dependency order
/// (a node reads only earlier ones), the aggregates' members, and the test
/// atoms with what they test.
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    pub nodes: Vec<Node>,
    pub members: Vec<(AtomId, i64)>,
    pub tests: Vec<(AtomId, Test)>,
    /// The value node of each open position of each open atom, as (atom,
    /// position, node), sorted.
    pub values: Vec<(AtomId, u32, u32)>,
}

/// The value of `node`, given how to fold an aggregate node.
pub fn value(nodes: &[Node], node: u32, agg: &impl Fn(u32) -> Option<i64>) -> Option<i64> {
    match nodes[node as usize] {
        Node::Const(c) => Some(c),
        Node::Arith(op, a, b) => op.apply(value(nodes, a, agg)?, value(nodes, b, agg)?),
        Node::Agg(..) => agg(node),
    }
}

/// Whether a test holds, given how to fold an aggregate node; a
/// comparison with an undefined side is false.
pub fn holds(nodes: &[Node], test: Test, agg: &impl Fn(u32) -> Option<i64>) -> bool {
    match test {
        Test::Defined(n) => value(nodes, n, agg).is_some(),
        Test::Cmp(op, a, b) => match (value(nodes, a, agg), value(nodes, b, agg)) {
            (Some(x), Some(y)) => compare(op, x, y),
            _ => false,
        },
    }
}

fn compare(op: CmpOp, x: i64, y: i64) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// The aggregate nodes a test reads.
pub fn test_aggregates(nodes: &[Node], test: Test, out: &mut Vec<u32>) {
    let mut stack: Vec<u32> = match test {
        Test::Defined(n) => vec![n],
        Test::Cmp(_, a, b) => vec![a, b],
    };
    while let Some(n) = stack.pop() {
        match nodes[n as usize] {
            Node::Const(_) => {}
            Node::Arith(_, a, b) => stack.extend([a, b]),
            Node::Agg(..) => {
                if !out.contains(&n) {
                    out.push(n)
                }
            }
        }
    }
}

/// What a comparison of a rule does with open values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CmpRole {
    /// It reads no open value: decided during grounding.
    #[default]
    Closed,
    /// `X = Expr` over open values binds the open variable `X`.
    Bind(u32),
    /// It compares open values: a test at play time.
    Test,
}

/// Open argument positions: a bit per position of each relation (only
/// relations of at most 64 arguments have open positions).
pub type Open = FxHashMap<RelKey, u64>;

/// Whether position `p` is open in a relation's mask.
fn is_open(mask: u64, p: usize) -> bool {
    p < 64 && mask >> p & 1 == 1
}

/// Finds the open positions of the relations of `rules` and marks, in
/// each rule, its open variables and the role of its comparisons.
/// `aggregates` are the `_aggv_K` relations of the aggregates that may be
/// open (over the state, not the moves) with their value position.
pub fn open_positions(
    rules: &mut [Prepared],
    aggregates: &[(RelKey, usize)],
    symbols: &Symbols,
    terms: &TermTable,
    kept_ground: &[RelKey],
) -> Open {
    let mut open = Open::default();
    if aggregates.is_empty() {
        return open;
    }
    for &(rel, p) in aggregates.iter().filter(|a| a.1 < 64) {
        open.insert(rel, 1 << p);
    }
    let names = Names::new(symbols);
    let recursive = recursive_relations(rules);
    for r in rules.iter() {
        let (sym, arity) = r.head.rel;
        let generated = symbols.name(sym).starts_with('_');
        if generated || recursive.contains(&r.head.rel) || kept_ground.contains(&r.head.rel) {
            continue;
        }
        match names.atom(sym, arity) {
            // A goal's value may be a number computed at play time.
            Some(Relation::Goal) => open.insert(r.head.rel, 1 << 1),
            Some(_) => continue,
            None if arity <= 64 => open.insert(
                r.head.rel,
                if arity == 64 {
                    u64::MAX
                } else {
                    (1 << arity) - 1
                },
            ),
            None => continue,
        };
    }
    for r in rules.iter_mut() {
        constants_as_tests(r, &open, terms);
    }
    loop {
        let mut closed = Vec::new();
        for r in rules.iter() {
            classify(r, &open, &mut closed);
        }
        if closed.is_empty() {
            break;
        }
        for (rel, p) in closed {
            if let Some(mask) = open.get_mut(&rel) {
                *mask &= !(1 << p);
            }
        }
    }
    open.retain(|_, m| *m != 0);
    let mut unused = Vec::new();
    for r in rules.iter_mut() {
        let marks = classify(r, &open, &mut unused);
        r.open_vars = marks.open_var;
        for (c, role) in r.cmps.iter_mut().zip(marks.roles) {
            c.role = role;
        }
    }
    open
}

/// The relations on a cycle of rule dependencies.
fn recursive_relations(rules: &[Prepared]) -> FxHashSet<RelKey> {
    let mut ids: FxHashMap<RelKey, usize> = FxHashMap::default();
    let mut succ: Vec<Vec<usize>> = Vec::new();
    let mut id = |k: RelKey, succ: &mut Vec<Vec<usize>>| {
        let n = ids.len();
        let i = *ids.entry(k).or_insert(n);
        if i == succ.len() {
            succ.push(Vec::new());
        }
        i
    };
    for r in rules {
        let h = id(r.head.rel, &mut succ);
        for a in r.pos.iter().chain(&r.neg) {
            let b = id(a.rel, &mut succ);
            succ[h].push(b);
        }
    }
    let comps = crate::scc::components(succ.len(), |a, k| succ[a].get(k).copied());
    let mut out = FxHashSet::default();
    for comp in comps {
        let a = comp[0] as usize;
        if comp.len() > 1 || succ[a].contains(&a) {
            for (&k, &i) in &ids {
                if comp.contains(&(i as u32)) {
                    out.insert(k);
                }
            }
        }
    }
    out
}

/// A rule's open variables and the role of each comparison.
struct Marks {
    open_var: Vec<bool>,
    roles: Vec<CmpRole>,
}

/// Whether some variable of a pattern satisfies `f`.
fn any_var(p: &Pat, f: &mut impl FnMut(u32) -> bool) -> bool {
    match p {
        Pat::Var(v) => f(*v),
        Pat::Ground(_) => false,
        Pat::App(_, args) => args.iter().any(|a| any_var(a, f)),
        Pat::Arith(_, a, b) => any_var(a, f) || any_var(b, f),
    }
}

/// Variables of a pattern inside a compound term (not as a whole argument
/// or an operand of arithmetic).
fn nested_vars(p: &Pat, out: &mut Vec<u32>) {
    match p {
        Pat::Var(_) | Pat::Ground(_) => {}
        Pat::App(_, args) => args.iter().for_each(|a| a.vars(out)),
        Pat::Arith(_, a, b) => {
            nested_vars(a, out);
            nested_vars(b, out);
        }
    }
}

/// The ways a comparison `X = E` may bind a variable `X`: the variable
/// and `E`, for each side that is a variable.
fn bindings(c: &PCmp) -> impl Iterator<Item = (u32, &Pat)> {
    let eq = !c.negated && c.op == CmpOp::Eq;
    let left = match &c.left {
        Pat::Var(v) if eq => Some((*v, &c.right)),
        _ => None,
    };
    let right = match &c.right {
        Pat::Var(v) if eq => Some((*v, &c.left)),
        _ => None,
    };
    left.into_iter().chain(right)
}

/// Rewrites each integer constant that a positive literal reads at a
/// position that may be open into a fresh variable and an equality test
/// (`defence_left(0)` reads as `defence_left(N), N = 0`), so that such a
/// read keeps the position open; where the position closes after all, the
/// equality is the same filter as the constant.
fn constants_as_tests(r: &mut Prepared, open: &Open, terms: &TermTable) {
    for a in r.pos.iter_mut() {
        let m = open.get(&a.rel).copied().unwrap_or(0);
        for (p, pat) in a.args.iter_mut().enumerate() {
            if let Pat::Ground(t) = *pat
                && is_open(m, p)
                && terms.int(t).is_some()
            {
                let v = r.vars as u32;
                r.vars += 1;
                *pat = Pat::Var(v);
                r.cmps.push(PCmp {
                    op: CmpOp::Eq,
                    left: Pat::Var(v),
                    right: Pat::Ground(t),
                    negated: false,
                    role: CmpRole::Closed,
                });
            }
        }
    }
}

/// Classifies one rule's variables under the open positions `open`, and
/// pushes onto `closed` every open position the rule disagrees with.
fn classify(r: &Prepared, open: &Open, closed: &mut Vec<(RelKey, usize)>) -> Marks {
    let n = r.vars;
    let mask = |k: RelKey| open.get(&k).copied().unwrap_or(0);
    // Variables bound by closed values: closed positions of positive
    // literals, then `=` with a closed side.
    let mut bound = vec![false; n];
    let mut vs = Vec::new();
    for a in &r.pos {
        let m = mask(a.rel);
        for (p, pat) in a.args.iter().enumerate() {
            if !is_open(m, p) {
                vs.clear();
                pat.vars(&mut vs);
                vs.iter().for_each(|&v| bound[v as usize] = true);
            }
        }
    }
    // Variables read at open positions: `= constant` tests them rather
    // than binding them (see [`constants_as_tests`]).
    let mut read_open = vec![false; n];
    for a in &r.pos {
        let m = mask(a.rel);
        for (p, pat) in a.args.iter().enumerate() {
            if let Pat::Var(v) = pat
                && is_open(m, p)
            {
                read_open[*v as usize] = true;
            }
        }
    }
    let all = |p: &Pat, set: &[bool]| !any_var(p, &mut |v| !set[v as usize]);
    let any = |p: &Pat, set: &[bool]| any_var(p, &mut |v| set[v as usize]);
    loop {
        let mut more = false;
        for c in &r.cmps {
            for (x, e) in bindings(c) {
                let tested = read_open[x as usize] && matches!(e, Pat::Ground(_));
                if !bound[x as usize] && !tested && all(e, &bound) {
                    bound[x as usize] = true;
                    more = true;
                }
            }
        }
        if !more {
            break;
        }
    }
    // Open variables: read at open positions, or bound by `=` to
    // arithmetic over open ones; each with the positions it comes from.
    let mut open_var = vec![false; n];
    let mut sources: Vec<Vec<(RelKey, usize)>> = vec![Vec::new(); n];
    let mut bad = vec![false; n];
    for a in &r.pos {
        let m = mask(a.rel);
        for (p, pat) in a.args.iter().enumerate() {
            if !is_open(m, p) {
                continue;
            }
            match pat {
                // A variable read twice is an equality test.
                Pat::Var(v) if !bound[*v as usize] => {
                    let v = *v as usize;
                    open_var[v] = true;
                    sources[v].push((a.rel, p));
                }
                _ => closed.push((a.rel, p)),
            }
        }
    }
    let mut roles = vec![CmpRole::Closed; r.cmps.len()];
    loop {
        let mut more = false;
        let known: Vec<bool> = (0..n).map(|v| bound[v] || open_var[v]).collect();
        for (i, c) in r.cmps.iter().enumerate() {
            let found = bindings(c).find(|&(x, e)| {
                !bound[x as usize]
                    && !open_var[x as usize]
                    && roles[i] == CmpRole::Closed
                    && any(e, &open_var)
                    && all(e, &known)
            });
            if let Some((x, e)) = found {
                let mut from = Vec::new();
                vs.clear();
                e.vars(&mut vs);
                for &v in &vs {
                    from.extend_from_slice(&sources[v as usize]);
                }
                open_var[x as usize] = true;
                sources[x as usize] = from;
                roles[i] = CmpRole::Bind(x);
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    for (i, c) in r.cmps.iter().enumerate() {
        if roles[i] == CmpRole::Closed && (any(&c.left, &open_var) || any(&c.right, &open_var)) {
            roles[i] = CmpRole::Test;
        }
        vs.clear();
        nested_vars(&c.left, &mut vs);
        nested_vars(&c.right, &mut vs);
        vs.iter().for_each(|&v| bad[v as usize] = true);
    }
    // A negated literal is decided on ground atoms: what it reads at an
    // open position closes that position.
    for a in &r.neg {
        let m = mask(a.rel);
        for p in (0..a.args.len()).filter(|&p| is_open(m, p)) {
            closed.push((a.rel, p));
        }
        vs.clear();
        a.args.iter().for_each(|p| p.vars(&mut vs));
        vs.iter().for_each(|&v| bad[v as usize] = true);
    }
    for a in &r.pos {
        for pat in a.args.iter() {
            vs.clear();
            nested_vars(pat, &mut vs);
            vs.iter().for_each(|&v| bad[v as usize] = true);
        }
    }
    let head_mask = mask(r.head.rel);
    for (p, pat) in r.head.args.iter().enumerate() {
        match pat {
            Pat::Var(v) if is_open(head_mask, p) => {
                if !open_var[*v as usize] {
                    closed.push((r.head.rel, p));
                }
            }
            _ => {
                vs.clear();
                pat.vars(&mut vs);
                vs.iter().for_each(|&v| bad[v as usize] = true);
                if is_open(head_mask, p) {
                    closed.push((r.head.rel, p));
                }
            }
        }
    }
    for v in 0..n {
        if bad[v] && open_var[v] {
            closed.extend_from_slice(&sources[v]);
        }
    }
    Marks { open_var, roles }
}

/// The numeric part of one ground instance, in the grounder's scratch.
#[derive(Default)]
pub(super) struct Scratch {
    /// The value node of each open variable.
    var_node: Vec<Option<u32>>,
    /// The instance's test literals.
    tests: Vec<(AtomId, bool)>,
}

/// One side of a comparison over open values.
enum Side {
    Node(u32),
    /// A closed term that is not an integer.
    Symbol,
    /// Arithmetic over closed values that has no value.
    Undefined,
}

/// The grounder's numeric state: open positions, nodes and tests.
#[derive(Default)]
pub(super) struct State {
    pub open: Open,
    /// The abstract integer `_value`, once some position is open.
    pub value: Option<TermId>,
    pub numbers: Numbers,
    node_ids: FxHashMap<Node, u32>,
    test_ids: FxHashMap<Test, AtomId>,
    /// The value node of each open position of each open atom.
    pub values: FxHashMap<(AtomId, u32), u32>,
    pub scratch: Scratch,
    /// The relation of the test atoms.
    pub test_rel: Option<usize>,
    /// Set when an open atom of this relation has a second instance: its
    /// integers are then kept ground.
    pub several: Option<RelKey>,
}

impl State {
    /// The numbers of the complete model, the open values listed.
    pub fn finish(mut self) -> Numbers {
        self.numbers.values = self.values.iter().map(|(&(a, p), &n)| (a, p, n)).collect();
        self.numbers.values.sort_unstable();
        self.numbers
    }

    fn node(&mut self, node: Node) -> u32 {
        if let Some(&id) = self.node_ids.get(&node) {
            return id;
        }
        let id = self.numbers.nodes.len() as u32;
        self.numbers.nodes.push(node);
        self.node_ids.insert(node, id);
        id
    }

    /// A new aggregate node; its members are set by [`State::set_members`].
    pub fn aggregate(&mut self, op: AggOp) -> u32 {
        self.numbers.nodes.push(Node::Agg(op, 0, 0));
        self.numbers.nodes.len() as u32 - 1
    }

    pub fn set_members(&mut self, node: u32, members: &[(AtomId, i64)]) {
        let Node::Agg(op, ..) = self.numbers.nodes[node as usize] else {
            return;
        };
        let start = self.numbers.members.len() as u32;
        self.numbers.members.extend_from_slice(members);
        let end = self.numbers.members.len() as u32;
        self.numbers.nodes[node as usize] = Node::Agg(op, start, end);
    }
}

impl Grounder<'_> {
    /// The open mask of a relation.
    pub(super) fn open_mask(&self, rel: RelKey) -> u64 {
        self.num.open.get(&rel).copied().unwrap_or(0)
    }

    /// The side of a comparison as a node.
    fn side(&mut self, p: &Pat, env: &[Option<TermId>]) -> Side {
        match p {
            Pat::Var(v) => match self.num.scratch.var_node[*v as usize] {
                Some(n) => Side::Node(n),
                None => self.closed_side(env[*v as usize]),
            },
            Pat::Ground(t) => self.closed_side(Some(*t)),
            Pat::App(..) => Side::Symbol,
            Pat::Arith(op, a, b) => match (self.side(a, env), self.side(b, env)) {
                (Side::Node(x), Side::Node(y)) => {
                    let nodes = &self.num.numbers.nodes;
                    match (nodes[x as usize], nodes[y as usize]) {
                        (Node::Const(i), Node::Const(j)) => match op.apply(i, j) {
                            Some(k) => Side::Node(self.num.node(Node::Const(k))),
                            None => Side::Undefined,
                        },
                        _ => Side::Node(self.num.node(Node::Arith(*op, x, y))),
                    }
                }
                _ => Side::Undefined,
            },
        }
    }

    fn closed_side(&mut self, t: Option<TermId>) -> Side {
        match t.map(|t| self.terms.term(t)) {
            Some(&GTerm::Int(i)) => Side::Node(self.num.node(Node::Const(i))),
            Some(_) => Side::Symbol,
            None => Side::Undefined,
        }
    }

    /// The test atom of a test, made on first use.
    pub(super) fn test_atom(
        &mut self,
        test: Test,
        span: crate::syntax::Span,
    ) -> Result<AtomId, Diagnostic> {
        if let Some(&a) = self.num.test_ids.get(&test) {
            return Ok(a);
        }
        let rel = match self.num.test_rel {
            Some(r) => r,
            None => {
                let sym = self.symbols.intern("_test");
                let r = self.rel((sym, 1));
                self.num.test_rel = Some(r);
                r
            }
        };
        let n = self
            .terms
            .intern(GTerm::Int(self.num.numbers.tests.len() as i64));
        let atom = self.insert(rel, &[n], span)?;
        self.num.numbers.tests.push((atom, test));
        self.num.test_ids.insert(test, atom);
        Ok(atom)
    }

    /// The numeric part of an instance of `rule` whose positive literals
    /// matched `body` (literal `order[k]` matched `body[k]`), left in the
    /// scratch: the node of each open variable and the test literals.
    /// `false` if a test is decided false, so the instance never holds.
    pub(super) fn instance_numbers(
        &mut self,
        rule: &Prepared,
        body: &[AtomId],
        order: &[usize],
        env: &[Option<TermId>],
    ) -> Result<bool, Diagnostic> {
        let mut scratch = std::mem::take(&mut self.num.scratch);
        scratch.var_node.clear();
        scratch.var_node.resize(rule.vars, None);
        scratch.tests.clear();
        self.num.scratch = scratch;
        for (&i, &atom) in order.iter().zip(body) {
            let lit = &rule.pos[i];
            let m = self.open_mask(lit.rel);
            for (p, pat) in lit.args.iter().enumerate() {
                if !is_open(m, p) {
                    continue;
                }
                let (Pat::Var(v), Some(&node)) = (pat, self.num.values.get(&(atom, p as u32)))
                else {
                    return Err(internal(rule));
                };
                match self.num.scratch.var_node[*v as usize] {
                    Some(first) if first != node => {
                        let t = self.test_atom(Test::Cmp(CmpOp::Eq, first, node), rule.span)?;
                        self.num.scratch.tests.push((t, false));
                    }
                    _ => self.num.scratch.var_node[*v as usize] = Some(node),
                }
            }
        }
        // Bindings, each once its expression's open variables have nodes.
        let mut pending: u64 = 0;
        for (i, c) in rule.cmps.iter().enumerate() {
            if matches!(c.role, CmpRole::Bind(_)) {
                pending |= 1 << i;
            }
        }
        while pending != 0 {
            let before = pending;
            for i in 0..rule.cmps.len() {
                let c = &rule.cmps[i];
                let CmpRole::Bind(x) = c.role else { continue };
                if pending >> i & 1 == 0 {
                    continue;
                }
                let e = if matches!(c.left, Pat::Var(v) if v == x) {
                    &c.right
                } else {
                    &c.left
                };
                let mut vs = Vec::new();
                e.vars(&mut vs);
                let ready = vs.iter().all(|&v| {
                    !rule.open_vars[v as usize] || self.num.scratch.var_node[v as usize].is_some()
                });
                if !ready {
                    continue;
                }
                pending &= !(1 << i);
                let Side::Node(node) = self.side(e, env) else {
                    return Ok(false);
                };
                self.num.scratch.var_node[x as usize] = Some(node);
                if matches!(self.num.numbers.nodes[node as usize], Node::Arith(..)) {
                    let t = self.test_atom(Test::Defined(node), rule.span)?;
                    self.num.scratch.tests.push((t, false));
                }
            }
            if pending == before {
                return Err(internal(rule));
            }
        }
        for c in &rule.cmps {
            if c.role != CmpRole::Test {
                continue;
            }
            let (l, r) = (self.side(&c.left, env), self.side(&c.right, env));
            let decided = match (l, r) {
                (Side::Node(a), Side::Node(b)) => {
                    let nodes = &self.num.numbers.nodes;
                    match (nodes[a as usize], nodes[b as usize]) {
                        (Node::Const(x), Node::Const(y)) => Some(compare(c.op, x, y)),
                        _ => {
                            let t = self.test_atom(Test::Cmp(c.op, a, b), rule.span)?;
                            self.num.scratch.tests.push((t, c.negated));
                            None
                        }
                    }
                }
                (Side::Undefined, _) | (_, Side::Undefined) => Some(false),
                _ => Some(c.op == CmpOp::Ne),
            };
            if decided.is_some_and(|holds| holds == c.negated) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Records the values of an open head atom from the scratch; an atom
    /// that already has them has a second instance, which the compiled
    /// engines cannot take.
    pub(super) fn record_head_values(
        &mut self,
        rule: &Prepared,
        head: AtomId,
    ) -> Result<(), Diagnostic> {
        let m = self.open_mask(rule.head.rel);
        for (p, pat) in rule.head.args.iter().enumerate() {
            if !is_open(m, p) {
                continue;
            }
            let node = match pat {
                Pat::Var(v) => self.num.scratch.var_node[*v as usize],
                _ => None,
            };
            let Some(node) = node else {
                return Err(internal(rule));
            };
            if self.num.values.insert((head, p as u32), node).is_some() {
                return Err(self.several_values(rule, head));
            }
        }
        Ok(())
    }

    /// An open atom with a second instance: grounding starts again with
    /// its relation's integers ground ([`super::ground_with`]).
    fn several_values(&mut self, rule: &Prepared, head: AtomId) -> Diagnostic {
        let (rel, _) = self.atoms[head.0 as usize];
        let r = &self.rels[rel as usize];
        self.num.several = Some((r.name, r.arity));
        internal(rule)
    }

    /// Pushes the instance's test literals onto the rule being recorded.
    pub(super) fn push_tests(&mut self) {
        for k in 0..self.num.scratch.tests.len() {
            let (atom, negated) = self.num.scratch.tests[k];
            if negated {
                let (rel, fact) = self.atoms[atom.0 as usize];
                self.pending_args
                    .extend_from_slice(self.rels[rel as usize].fact(fact));
                self.lits
                    .push(Lit::new(AtomId(self.pending_rels.len() as u32), true));
                self.pending_rels.push(rel);
            } else {
                self.lits.push(Lit::new(atom, false));
            }
        }
    }
}

/// A rule the analysis marked but the instance does not fit: a bug, said
/// as a diagnostic rather than a panic.
fn internal(rule: &Prepared) -> Diagnostic {
    Diagnostic::error(
        codes::GROUNDING,
        rule.span,
        "internal error: this rule's numbers computed at play time could not be grounded",
    )
}

/// Whether an aggregate's braces may be an open value: they read the
/// state (directly or through derived relations) and not the moves.
pub fn state_dependent(rules: &[Prepared], facts: RelKey, names: &Names) -> bool {
    let is = |k: RelKey, r: Relation| names.atom(k.0, k.1) == Some(r);
    let mut heads: FxHashMap<RelKey, Vec<usize>> = FxHashMap::default();
    for (i, r) in rules.iter().enumerate() {
        heads.entry(r.head.rel).or_default().push(i);
    }
    let mut seen: FxHashSet<RelKey> = FxHashSet::default();
    let mut stack = vec![facts];
    let mut state = false;
    while let Some(k) = stack.pop() {
        if !seen.insert(k) {
            continue;
        }
        if is(k, Relation::Does) {
            return false;
        }
        state |= is(k, Relation::True);
        for &i in heads.get(&k).map_or(&[][..], |v| v.as_slice()) {
            stack.extend(rules[i].pos.iter().chain(&rules[i].neg).map(|a| a.rel));
        }
    }
    state
}

/// The symbol of the abstract integer.
pub fn open_value_symbol(symbols: &mut Symbols) -> Sym {
    symbols.intern(OPEN_VALUE)
}
