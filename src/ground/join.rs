//! The join: every instance of one rule over the relaxed model so far.
//!
//! In: a prepared rule, the relations of its literals, the window of fact
//! numbers each positive literal may match, and which positive literal
//! reads only new facts (semi-naive evaluation). Out:
//! each instance, handed to the grounder as soon as it is found (ground
//! head, positive body atoms, the bindings for the negative literals), so
//! no join holds more than one instance.
//! Holds: at every level the join does the cheapest thing: a comparison
//! whose sides are bound (a test, or a binding `=`), else the unmatched
//! positive literal with the fewest candidate facts under the current
//! bindings (indexed by argument, by argument of a compound argument, and
//! by the function name of a compound argument), so the order in which a
//! rule writes its literals does not change the work; the work done is
//! counted against [`super::Limits::max_work`] before it is done.
//! For the relaxed model alone ([`super::Output::Atoms`]) a join stops
//! where it would only repeat itself: once a variable is read by no
//! literal left and not by the head, the bindings that differ only in such
//! variables lead to the same head atoms, so a branch whose live bindings
//! (and literals done) were explored before is cut ([`Uses`]); once the
//! head's variables are bound, a branch whose head atom is in the model
//! already is cut (asked while it pays, [`HeadChecks`]), and a branch ends
//! once it has made its atom. A negative literal of a relaxed model reads
//! a relation of facts and drops the instances whose atom is one.

use super::numbers::CmpRole;
use super::prepare::{Pat, Prepared};
use super::relation::{FUNCTOR, PATH_STRIDE, SUB_ARGS};
use super::{AtomId, GTerm, Grounder, Output, Reached, RuleRels, TermId, TermTable};
use crate::diag::Diagnostic;
use crate::syntax::{ArithOp, CmpOp};
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// Compound terms of up to this many arguments are looked up without
/// allocating.
const LOOKUP_ARGS: usize = 16;

/// One rule's join in progress.
struct Join<'r> {
    rule: &'r Prepared,
    rels: &'r RuleRels,
    /// The positive literal that reads only new facts, matched first.
    delta: Option<usize>,
    /// The facts each positive literal may match: a range of fact numbers.
    windows: &'r [(u32, u32)],
    /// The binding of each variable of the rule, and the variables bound,
    /// in order (each match undoes its own).
    env: Vec<Option<TermId>>,
    trail: Vec<u32>,
    /// The positive body atoms matched so far, and their literals.
    body: Vec<AtomId>,
    order: Vec<usize>,
    /// The branches explored so far, when the join looks for atoms only.
    explored: Option<Explored>,
    /// For a join that looks for atoms only: whether the head's variables
    /// are bound (by the branch being explored), and whether its atom has
    /// been made since, which ends the branch.
    head_fixed: bool,
    head_made: bool,
    /// The head's variables not bound yet.
    head_unbound: usize,
    head_checks: HeadChecks,
}

impl Join<'_> {
    /// Unbinds the variables the trail holds from `mark` on.
    fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.env[v as usize] = None;
        }
    }
}

/// How often a join found the head atom of a branch known: where heads
/// are new (a model that grows), asking costs a look-up per branch for
/// nothing, so the join stops asking after [`HeadChecks::TRIAL`] misses
/// unless one in [`HeadChecks::HIT_RATE`] found it.
#[derive(Default)]
struct HeadChecks {
    asked: u32,
    known: u32,
}

impl HeadChecks {
    const TRIAL: u32 = 64;
    const HIT_RATE: u32 = 8;

    fn worth_asking(&self) -> bool {
        self.asked < Self::TRIAL || self.known * Self::HIT_RATE >= self.asked
    }

    /// Counts an answer and returns it.
    fn record(&mut self, known: bool) -> bool {
        self.asked += 1;
        self.known += u32::from(known);
        known
    }
}

/// Where each variable of a rule is read, for a join that makes atoms
/// only: a variable is live while the head or a literal not done reads it.
pub(super) struct Uses {
    /// Per variable: whether the leaf reads it (the head or a negative
    /// literal), and the positive literals and comparisons that do (bit
    /// `i` for literal `i`).
    leaf: Vec<bool>,
    /// Per variable, whether the head reads it.
    head: Vec<bool>,
    pos: Vec<u64>,
    cmp: Vec<u64>,
    /// The variables of each positive literal and of each comparison.
    pos_vars: Vec<Vec<u32>>,
    cmp_vars: Vec<Vec<u32>>,
}

impl Uses {
    pub(super) fn of(rule: &Prepared) -> Uses {
        let vars_of = |pats: &mut dyn Iterator<Item = &Pat>| {
            let mut vs = Vec::new();
            pats.for_each(|p| p.vars(&mut vs));
            vs.sort_unstable();
            vs.dedup();
            vs
        };
        let pos_vars: Vec<Vec<u32>> = (rule.pos.iter())
            .map(|a| vars_of(&mut a.args.iter()))
            .collect();
        let cmp_vars: Vec<Vec<u32>> = (rule.cmps.iter())
            .map(|c| vars_of(&mut [&c.left, &c.right].into_iter()))
            .collect();
        let mut uses = Uses {
            leaf: vec![false; rule.vars],
            head: vec![false; rule.vars],
            pos: vec![0; rule.vars],
            cmp: vec![0; rule.vars],
            pos_vars,
            cmp_vars,
        };
        for v in vars_of(&mut rule.head.args.iter()) {
            uses.head[v as usize] = true;
        }
        let negated = rule.neg.iter().flat_map(|a| a.args.iter());
        for v in vars_of(&mut rule.head.args.iter().chain(negated)) {
            uses.leaf[v as usize] = true;
        }
        for (i, vs) in uses.pos_vars.iter().enumerate() {
            vs.iter().for_each(|&v| uses.pos[v as usize] |= 1 << i);
        }
        for (i, vs) in uses.cmp_vars.iter().enumerate() {
            vs.iter().for_each(|&v| uses.cmp[v as usize] |= 1 << i);
        }
        uses
    }

    /// Whether variable `v` is still read once the literals of `done` are.
    fn live(&self, v: u32, done: Done) -> bool {
        let v = v as usize;
        self.leaf[v] || self.pos[v] & !done.pos != 0 || self.cmp[v] & !done.cmp != 0
    }
}

/// The branches of one join explored so far, each as the literals done
/// and the bindings of the live variables (a dead or unbound one as
/// [`u32::MAX`]); keys of four words for the literals done and one per
/// variable, stored flat.
#[derive(Default)]
struct Explored {
    keys: Vec<u32>,
    table: HashTable<(u64, u32)>,
    key: Vec<u32>,
}

impl Explored {
    /// Whether the key in `key` was explored, recording it if not.
    fn seen(&mut self) -> bool {
        let hash = rustc_hash::FxBuildHasher.hash_one(&self.key);
        let len = self.key.len();
        let (keys, key) = (&self.keys, &self.key);
        let stored = |at: u32| &keys[at as usize..at as usize + len];
        if (self
            .table
            .find(hash, |&(h, at)| h == hash && stored(at) == &key[..]))
        .is_some()
        {
            return true;
        }
        let at = self.keys.len() as u32;
        self.keys.extend_from_slice(&self.key);
        self.table.insert_unique(hash, (hash, at), |&(h, _)| h);
        false
    }
}

/// Which literals are done: bit `i` of `pos` for positive literal `i`, of
/// `cmp` for comparison `i` (a rule has at most 64 of each).
#[derive(Clone, Copy)]
struct Done {
    pos: u64,
    cmp: u64,
}

/// What a comparison whose sides are bound enough does.
enum CmpStep {
    /// Both sides are bound: test it.
    Test,
    /// `pattern = value` with `value` bound: bind the pattern (the left
    /// side if `true`).
    Bind(bool),
}

/// The facts a positive literal may match: a range of fact numbers, or a
/// range `lo..hi` of the literal's relation's index list `list`.
enum Candidates {
    Range(u32, u32),
    List(u32, u32, u32),
}

impl Candidates {
    fn len(&self) -> u32 {
        match *self {
            Candidates::Range(lo, hi) | Candidates::List(_, lo, hi) => hi - lo,
        }
    }
}

/// The next positive literal to match.
enum Cheapest {
    /// Some literal has no candidate: the rule has no instance here.
    Nothing,
    /// Every positive literal is matched.
    AllMatched,
    Literal(usize, Candidates),
}

impl Grounder<'_> {
    /// Finds and records every instance of a rule whose positive literal
    /// `i` matches a fact numbered in `windows[i]`; `delta` is the literal
    /// that reads only new facts.
    pub(super) fn run(
        &mut self,
        rule: &Prepared,
        rels: &RuleRels,
        delta: Option<usize>,
        windows: &[(u32, u32)],
    ) -> Result<(), Diagnostic> {
        let mut join = Join {
            rule,
            rels,
            delta,
            windows,
            env: vec![None; rule.vars],
            trail: Vec::new(),
            body: Vec::new(),
            order: Vec::new(),
            explored: rels.uses.as_ref().map(|_| Explored::default()),
            head_fixed: false,
            head_made: false,
            head_unbound: (rels.uses.as_ref()).map_or(0, |u| u.head.iter().filter(|&&h| h).count()),
            head_checks: HeadChecks::default(),
        };
        self.join(&mut join, Done { pos: 0, cmp: 0 })
    }

    fn join(&mut self, j: &mut Join, done: Done) -> Result<(), Diagnostic> {
        // At the leaf, making the atom is the check.
        let leaf = done.pos.count_ones() as usize == j.rule.pos.len()
            && done.cmp.count_ones() as usize == j.rule.cmps.len();
        if j.explored.is_some() && !j.head_fixed && j.head_unbound == 0 && !leaf {
            if j.head_checks.worth_asking() && j.head_checks.record(self.head_known(j)) {
                return Ok(());
            }
            j.head_fixed = true;
            let result = self.join_next(j, done);
            (j.head_fixed, j.head_made) = (false, false);
            return result;
        }
        self.join_next(j, done)
    }

    /// [`Self::join`] once the variables of the trail from `mark` on are
    /// bound.
    fn join_bound(&mut self, j: &mut Join, done: Done, mark: usize) -> Result<(), Diagnostic> {
        let Some(uses) = j.rels.uses.as_ref() else {
            return self.join(j, done);
        };
        let bound = (j.trail[mark..].iter())
            .filter(|&&v| uses.head[v as usize])
            .count();
        j.head_unbound -= bound;
        let result = self.join(j, done);
        j.head_unbound += bound;
        result
    }

    /// The join's next step: a comparison ready, else a positive literal.
    fn join_next(&mut self, j: &mut Join, done: Done) -> Result<(), Diagnostic> {
        match self.ready_comparison(j, done) {
            Some((i, step)) => self.join_comparison(j, done, i, step),
            None => self.join_literal(j, done),
        }
    }

    /// The first comparison not done that can be tested or bind now.
    fn ready_comparison(&self, j: &Join, done: Done) -> Option<(usize, CmpStep)> {
        for (i, c) in j.rule.cmps.iter().enumerate() {
            if done.cmp >> i & 1 == 1 {
                continue;
            }
            let (l, r) = (
                self.is_bound(&c.left, &j.env),
                self.is_bound(&c.right, &j.env),
            );
            match (l, r, c.op) {
                (true, true, _) => return Some((i, CmpStep::Test)),
                // A test of open values binds nothing.
                _ if c.negated || c.role == CmpRole::Test => {}
                (false, true, CmpOp::Eq) if !matches!(c.left, Pat::Arith(..)) => {
                    return Some((i, CmpStep::Bind(true)));
                }
                (true, false, CmpOp::Eq) if !matches!(c.right, Pat::Arith(..)) => {
                    return Some((i, CmpStep::Bind(false)));
                }
                _ => {}
            }
        }
        None
    }

    fn join_comparison(
        &mut self,
        j: &mut Join,
        done: Done,
        i: usize,
        step: CmpStep,
    ) -> Result<(), Diagnostic> {
        let rule = j.rule;
        let c = &rule.cmps[i];
        let next = Done {
            cmp: done.cmp | 1 << i,
            ..done
        };
        let (pat, value) = match step {
            CmpStep::Test => {
                // A test of open values is decided at play time.
                let holds = c.role == CmpRole::Test
                    || self.compare(c.op, &c.left, &c.right, &j.env) != c.negated;
                if holds && !explored_before(j, next, Read::Cmp(i)) {
                    self.join(j, next)?;
                }
                return Ok(());
            }
            CmpStep::Bind(true) => (&c.left, &c.right),
            CmpStep::Bind(false) => (&c.right, &c.left),
        };
        let Some(v) = self.build(value, &j.env) else {
            return Ok(());
        };
        if self.terms.depth(v) > self.limits.max_term_depth {
            return Err(self.too_big(rule.span, Reached::Depth));
        }
        let mark = j.trail.len();
        if unify(pat, v, &mut j.env, &mut j.trail, &self.terms)
            && !explored_before(j, next, Read::Cmp(i))
        {
            self.join_bound(j, next, mark)?;
        }
        j.undo(mark);
        Ok(())
    }

    /// Matches the cheapest positive literal against each candidate fact.
    fn join_literal(&mut self, j: &mut Join, done: Done) -> Result<(), Diagnostic> {
        let (i, candidates) = match self.cheapest(j, done) {
            Cheapest::Nothing => return Ok(()),
            Cheapest::AllMatched => return self.leaf(j),
            Cheapest::Literal(i, c) => (i, c),
        };
        self.work += candidates.len() as u64;
        if self.work > self.limits.max_work {
            return Err(self.too_big(j.rule.span, Reached::Work));
        }
        // The relaxed model writes no rules, where the grounder checks its
        // effort: a join that keeps finding the atoms it has would pass it.
        if self.output == Output::Atoms && self.past_budget() {
            return Err(self.too_big(j.rule.span, Reached::Effort));
        }
        let atom = &j.rule.pos[i];
        let rel = j.rels.pos[i];
        let next = Done {
            pos: done.pos | 1 << i,
            ..done
        };
        let mark = j.trail.len();
        let (lo, hi) = match candidates {
            Candidates::Range(lo, hi) | Candidates::List(_, lo, hi) => (lo, hi),
        };
        for k in lo..hi {
            // Lists only grow while the join runs, so `k` stays in range.
            let f = match candidates {
                Candidates::Range(..) => k,
                Candidates::List(list, ..) => self.rels[rel].list(list)[k as usize],
            };
            let fact = self.rels[rel].fact(f);
            let matched = (atom.args.iter().zip(fact))
                .all(|(p, &t)| unify(p, t, &mut j.env, &mut j.trail, &self.terms));
            if matched && !explored_before(j, next, Read::Pos(i)) {
                j.body.push(self.rels[rel].atoms[f as usize]);
                j.order.push(i);
                self.join_bound(j, next, mark)?;
                j.body.pop();
                j.order.pop();
            }
            j.undo(mark);
            if j.head_made {
                break;
            }
        }
        Ok(())
    }

    /// Whether the head atom, its variables bound, is in the model already:
    /// every instance of the branch would make it again, so it is cut.
    /// Asked once per branch, where its last head variable is bound; below,
    /// the branch ends once it makes the atom ([`Join::head_made`]).
    fn head_known(&mut self, j: &Join) -> bool {
        let mut head = std::mem::take(&mut self.scratch);
        head.clear();
        for p in j.rule.head.args.iter() {
            match self.lookup(p, &j.env) {
                Some(t) => head.push(t),
                None => break,
            }
        }
        let known =
            head.len() == j.rule.head.args.len() && self.rels[j.rels.head].find(&head).is_some();
        self.scratch = head;
        known
    }

    /// The unmatched positive literal with the fewest candidates (the
    /// delta literal first of all).
    fn cheapest(&mut self, j: &Join, done: Done) -> Cheapest {
        let mut best: Option<(usize, Candidates)> = None;
        for i in 0..j.rule.pos.len() {
            if done.pos >> i & 1 == 1 {
                continue;
            }
            if done.pos == 0 && j.delta.is_some_and(|d| d != i) {
                continue; // the delta literal goes first
            }
            let c = self.candidates(j, i);
            if c.len() == 0 {
                return Cheapest::Nothing;
            }
            if c.len() == 1 {
                // Nothing but an empty literal is cheaper, and one found
                // later empties the next level as well: the literals left
                // need not be looked up here (a body of bound literals
                // would be looked up once per literal per level).
                return Cheapest::Literal(i, c);
            }
            if best.as_ref().is_none_or(|(_, b)| c.len() < b.len()) {
                best = Some((i, c));
            }
        }
        match best {
            Some((i, c)) => Cheapest::Literal(i, c),
            None => Cheapest::AllMatched,
        }
    }

    /// Every literal matched: the head and the negative literals are ground.
    fn leaf(&mut self, j: &mut Join) -> Result<(), Diagnostic> {
        if j.explored.is_some() && self.negated_fact(j) {
            return Ok(());
        }
        let mut head = std::mem::take(&mut self.scratch);
        head.clear();
        for p in j.rule.head.args.iter() {
            match self.build(p, &j.env) {
                Some(t) => head.push(t),
                None => break, // arithmetic failed: no instance
            }
        }
        let complete = head.len() == j.rule.head.args.len();
        let result = match complete {
            true => self.emit(j.rule, j.rels, &head, &j.body, &j.order, &j.env),
            false => Ok(()),
        };
        j.head_made |= complete && j.head_fixed;
        self.scratch = head;
        result
    }

    /// For a join that makes atoms only: whether a negative literal's atom
    /// is a fact, so the instance does not hold. A relaxed model keeps only
    /// the negative literals over relations of facts, which are all made
    /// before any join runs ([`super::relaxed_model`]).
    fn negated_fact(&self, j: &Join) -> bool {
        let mut args = [TermId(0); LOOKUP_ARGS];
        (j.rule.neg.iter().zip(&j.rels.neg)).any(|(atom, &rel)| {
            atom.args.len() <= LOOKUP_ARGS
                && (atom.args.iter().zip(args.iter_mut()))
                    .all(|(p, arg)| self.lookup(p, &j.env).map(|t| *arg = t).is_some())
                && self.rels[rel].find(&args[..atom.args.len()]).is_some()
        })
    }

    /// Where the facts that positive literal `i` may match lie: with every
    /// argument bound, the one fact that has them; else the index list of
    /// the facts with the literal's bound paths (whole arguments, arguments
    /// and function names of compound ones); cut to the literal's window.
    fn candidates(&mut self, j: &Join, i: usize) -> Candidates {
        let mut key = std::mem::take(&mut self.key);
        let found = self.narrowest(j, i, &mut key);
        self.key = key;
        found
    }

    /// [`Self::candidates`], with `key` a buffer for the bound paths.
    fn narrowest(&mut self, j: &Join, i: usize, key: &mut Key) -> Candidates {
        const NONE: Candidates = Candidates::Range(0, 0);
        let rel = j.rels.pos[i];
        let (lo, hi) = j.windows[i];
        let Some(all_bound) = self.bound_paths(j, i, key) else {
            return NONE;
        };
        let r = &mut self.rels[rel];
        if all_bound {
            // `key.terms` are the arguments, in order.
            return match r.find(&key.terms) {
                Some(f) if (lo..hi).contains(&f) => Candidates::Range(f, f + 1),
                _ => NONE,
            };
        }
        if key.paths.is_empty() {
            return Candidates::Range(lo, hi);
        }
        let Some(list) = r.lookup(&key.paths, &key.terms, &self.terms) else {
            return NONE;
        };
        let facts = r.list(list);
        let a = facts.partition_point(|&f| f < lo) as u32;
        let b = facts.partition_point(|&f| f < hi) as u32;
        Candidates::List(list, a, b)
    }

    /// The bound paths of literal `i` and their terms, in path order, put
    /// in `key`; whether every argument is bound (then the paths are the
    /// whole arguments); `None` if a bound path is a term that does not
    /// exist, so that no fact has it.
    fn bound_paths(&self, j: &Join, i: usize, key: &mut Key) -> Option<bool> {
        key.paths.clear();
        key.terms.clear();
        let mut whole = 0;
        for (pos, p) in j.rule.pos[i].args.iter().enumerate() {
            let path = pos as u32 * PATH_STRIDE;
            if let Some(t) = self.lookup(p, &j.env) {
                key.push(path, t);
                whole += 1;
            } else if self.is_bound(p, &j.env) {
                return None;
            } else if let Pat::App(name, sub) = p {
                for (k, q) in sub.iter().enumerate().take(SUB_ARGS) {
                    if let Some(t) = self.lookup(q, &j.env) {
                        key.push(path + 1 + k as u32, t);
                    } else if self.is_bound(q, &j.env) {
                        return None;
                    }
                }
                key.push(path + FUNCTOR, TermId(name.0));
            }
        }
        Some(whole == j.rule.pos[i].args.len())
    }

    fn is_bound(&self, p: &Pat, env: &[Option<TermId>]) -> bool {
        match p {
            Pat::Var(v) => env[*v as usize].is_some(),
            Pat::Ground(_) => true,
            Pat::App(_, args) => args.iter().all(|a| self.is_bound(a, env)),
            Pat::Arith(_, a, b) => self.is_bound(a, env) && self.is_bound(b, env),
        }
    }

    /// The existing term a bound pattern denotes, without creating terms
    /// (and without allocating, up to [`LOOKUP_ARGS`] arguments).
    fn lookup(&self, p: &Pat, env: &[Option<TermId>]) -> Option<TermId> {
        match p {
            Pat::Var(v) => env[*v as usize],
            Pat::Ground(t) => Some(*t),
            Pat::App(f, args) if args.len() <= LOOKUP_ARGS => {
                let mut ids = [TermId(0); LOOKUP_ARGS];
                for (id, a) in ids.iter_mut().zip(args.iter()) {
                    *id = self.lookup(a, env)?;
                }
                self.terms.get_app(*f, &ids[..args.len()])
            }
            Pat::App(f, args) => {
                let ids = (args.iter().map(|a| self.lookup(a, env))).collect::<Option<Vec<_>>>()?;
                self.terms.get_app(*f, &ids)
            }
            Pat::Arith(..) => None,
        }
    }

    /// Builds the ground term of a bound pattern; `None` if arithmetic fails.
    /// The arguments of a compound term are gathered on `arg_stack`, so
    /// only a term that is new allocates.
    pub(super) fn build(&mut self, p: &Pat, env: &[Option<TermId>]) -> Option<TermId> {
        match p {
            Pat::Var(v) => env[*v as usize],
            Pat::Ground(t) => Some(*t),
            Pat::App(f, args) => {
                let mark = self.arg_stack.len();
                for a in args.iter() {
                    let Some(t) = self.build(a, env) else {
                        self.arg_stack.truncate(mark);
                        return None;
                    };
                    self.arg_stack.push(t);
                }
                let id = self.terms.intern_app(*f, &self.arg_stack[mark..]);
                self.arg_stack.truncate(mark);
                Some(id)
            }
            Pat::Arith(op, a, b) => self.arith(*op, a, b, env),
        }
    }

    /// Arithmetic; over the abstract integer of an open position it is
    /// that integer.
    fn arith(&mut self, op: ArithOp, a: &Pat, b: &Pat, env: &[Option<TermId>]) -> Option<TermId> {
        let a = self.build(a, env)?;
        let b = self.build(b, env)?;
        if self.num.value.is_some_and(|v| v == a || v == b) {
            return self.num.value;
        }
        let v = op.apply(self.terms.int(a)?, self.terms.int(b)?)?;
        Some(self.terms.intern(GTerm::Int(v)))
    }

    fn compare(&mut self, op: CmpOp, l: &Pat, r: &Pat, env: &[Option<TermId>]) -> bool {
        let (Some(a), Some(b)) = (self.build(l, env), self.build(r, env)) else {
            return false;
        };
        self.terms.satisfies(op, a, b)
    }
}

/// The literal just matched: positive literal `i` or comparison `i`.
#[derive(Clone, Copy)]
enum Read {
    Pos(usize),
    Cmp(usize),
}

/// For a join that makes atoms only: whether the branch reached by
/// matching `read` (the literals of `done` now matched) was explored
/// before, recording it if not. Only a match after which one of its
/// variables is dead can repeat a branch with other bindings.
fn explored_before(j: &mut Join, done: Done, read: Read) -> bool {
    let (Some(uses), Some(explored)) = (j.rels.uses.as_ref(), j.explored.as_mut()) else {
        return false;
    };
    let vars = match read {
        Read::Pos(i) => &uses.pos_vars[i],
        Read::Cmp(i) => &uses.cmp_vars[i],
    };
    if vars.iter().all(|&v| uses.live(v, done)) {
        return false;
    }
    explored.key.clear();
    explored.key.push(done.pos as u32);
    explored.key.push((done.pos >> 32) as u32);
    explored.key.push(done.cmp as u32);
    explored.key.push((done.cmp >> 32) as u32);
    explored
        .key
        .extend(j.env.iter().enumerate().map(|(v, binding)| {
            let live = binding.filter(|_| uses.live(v as u32, done));
            live.map_or(u32::MAX, |t| t.0)
        }));
    explored.seen()
}

/// The bound paths of a literal and the terms there, for an index lookup.
#[derive(Default)]
pub(super) struct Key {
    paths: Vec<u32>,
    terms: Vec<TermId>,
}

impl Key {
    fn push(&mut self, path: u32, term: TermId) {
        self.paths.push(path);
        self.terms.push(term);
    }
}

/// Matches a pattern against a ground term, binding variables (recorded in
/// `trail` so the caller can undo them).
fn unify(
    p: &Pat,
    t: TermId,
    env: &mut [Option<TermId>],
    trail: &mut Vec<u32>,
    terms: &TermTable,
) -> bool {
    match p {
        Pat::Var(v) => match env[*v as usize] {
            Some(b) => b == t,
            None => {
                env[*v as usize] = Some(t);
                trail.push(*v);
                true
            }
        },
        Pat::Ground(g) => *g == t,
        Pat::App(f, args) => match terms.term(t) {
            GTerm::App(g, targs) if g == f && targs.len() == args.len() => args
                .iter()
                .zip(targs.iter())
                .all(|(p, &t)| unify(p, t, env, trail, terms)),
            _ => false,
        },
        Pat::Arith(..) => false,
    }
}
