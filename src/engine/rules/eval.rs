//! Top-down evaluation with a table per call pattern.
//!
//! In: a [`RuleGame`], a state (its true facts) and, for `next`, the moves.
//! Out: the answers of a call such as `legal(?R, ?M)` or `next(?X)`.
//! Holds: a call is a relation with each argument either a ground term or
//! free; its table holds every answer, found by running each rule of the
//! relation with its body in the order [`plan`](super::plan) chose for the
//! call's bound arguments. Tables of static relations live as long as the
//! evaluator, those reading `true` until the next state, those reading
//! `does` until the next moves. Recursion: a call met again while it is
//! being solved returns the answers found so far and the calls in between
//! form a group whose first call (the leader) runs its rules again until a
//! pass adds nothing (GDL's left recursion would loop in plain resolution).
//! A negation is decided only on a complete table of a fully bound call,
//! which is what stratification atom by atom guarantees; meeting an
//! unfinished one is a cycle through negation and an error. An aggregate's
//! value relation has no rules: its table is folded from the complete
//! tables of its facts relation, one per binding of the shared arguments
//! (whose rules read only the braces, behind a guard that holds for bound
//! arguments, so a rule recursing outside the braces is no cycle).

use super::facts::Facts;
use super::plan::{Kind, Step, plan};
use super::{Agg, Level, RuleGame};
use crate::ground::prepare::{Pat, Prepared};
use crate::ground::{GTerm, TermId, TermTable};
use crate::syntax::{AggOp, CmpOp};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;

/// Why an evaluation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A bound of [`RuleLimits`](super::RuleLimits) was reached: which.
    Limit(&'static str),
    /// A negated call met a call still being solved: the relation's name.
    NegativeCycle(String),
    /// A `sum`, `min` or `max` met a value that is not an integer: the
    /// message.
    NotInteger(String),
    /// A call with every argument bound has its answer (internal: unwinds
    /// its rules to [`Evaluator::evaluate`], which stops there).
    Found,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Limit(what) => write!(f, "the rule evaluator reached its limit of {what}"),
            Stop::NegativeCycle(rel) => write!(
                f,
                "the rule evaluator met `{rel}` depending on its own negation in this state"
            ),
            Stop::NotInteger(message) => f.write_str(message),
            Stop::Found => write!(f, "an answer was found"),
        }
    }
}

/// A table: which store holds it and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRef(u8, u32);

/// Where the solving of a table stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Status {
    /// Being solved by the frame at this depth.
    Active(usize),
    /// Solved once in pass `pass` inside a group whose leader is not done;
    /// `low` is the shallowest frame it depends on.
    Incomplete { pass: u64, low: usize },
    /// Left by a pass cut short: its answers hold, but may not be all.
    Unfinished,
    #[default]
    Complete,
}

/// Above this many answers a table indexes them by hash to find repeats.
const LINEAR: usize = 8;

#[derive(Default)]
struct Table {
    rel: u32,
    call: Vec<Option<TermId>>,
    arity: usize,
    /// The answers, `arity` terms each.
    answers: Vec<TermId>,
    /// Past [`LINEAR`] answers: the last answer with each hash, and per
    /// answer the one before it with the same hash (or [`NO_ANSWER`]).
    last_with_hash: FxHashMap<u64, u32>,
    same_hash: Vec<u32>,
    /// A proposition's one empty answer (arity 0).
    holds: bool,
    status: Status,
    /// Whether it is on the list of tables of an unfinished group.
    listed: bool,
    /// The next table whose call has the same hash, or [`NO_TABLE`].
    next: u32,
}

/// No answer: the end of a chain of answers with the same hash.
const NO_ANSWER: u32 = u32::MAX;

impl Table {
    /// Makes this (possibly used) table the empty table of a new call,
    /// keeping its vectors' room.
    fn reset(&mut self, rel: u32, call: &[Option<TermId>], next: u32) {
        self.rel = rel;
        self.call.clear();
        self.call.extend_from_slice(call);
        self.arity = call.len();
        self.answers.clear();
        self.last_with_hash.clear();
        self.same_hash.clear();
        self.holds = false;
        self.status = Status::Complete;
        self.listed = false;
        self.next = next;
    }

    fn count(&self) -> usize {
        match self.arity {
            0 => usize::from(self.holds),
            n => self.answers.len() / n,
        }
    }

    fn is_empty(&self) -> bool {
        self.answers.is_empty() && !self.holds
    }

    fn answer(&self, i: u32) -> &[TermId] {
        let n = self.arity;
        &self.answers[i as usize * n..(i as usize + 1) * n]
    }

    /// Adds an answer; whether it is new.
    fn insert(&mut self, args: &[TermId]) -> bool {
        let n = args.len();
        if n == 0 {
            return !std::mem::replace(&mut self.holds, true);
        }
        let count = self.answers.len() / n;
        if count < LINEAR {
            if self.answers.chunks(n).any(|a| a == args) {
                return false;
            }
        } else {
            if count == LINEAR {
                (0..count as u32).for_each(|i| self.index(i));
            }
            let mut i = (self.last_with_hash.get(&answer_hash(args)).copied()).unwrap_or(NO_ANSWER);
            while i != NO_ANSWER {
                if self.answer(i) == args {
                    return false;
                }
                i = self.same_hash[i as usize];
            }
        }
        self.answers.extend_from_slice(args);
        if count >= LINEAR {
            self.index(count as u32);
        }
        true
    }

    /// Files answer `i` (the next unfiled one) under its hash.
    fn index(&mut self, i: u32) {
        let hash = answer_hash(self.answer(i));
        let before = self.last_with_hash.insert(hash, i);
        self.same_hash.push(before.unwrap_or(NO_ANSWER));
    }
}

/// The hash of an answer.
fn answer_hash(args: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    args.iter().for_each(|a| h.write_u32(a.0));
    h.finish()
}

/// No table: the end of a chain of tables with the same hash.
const NO_TABLE: u32 = u32::MAX;

/// The tables of one level, found by their call: the call's hash leads to
/// a chain of the tables with that hash. Clearing keeps the tables' room,
/// and a new table reuses the vectors of the one that was in its place,
/// so once the store has grown a state's tables allocate nothing.
#[derive(Default)]
struct Store {
    heads: FxHashMap<u64, u32>,
    tables: Vec<Table>,
    /// The tables in use: `tables[..live]`.
    live: usize,
    /// The answers held in the tables in use.
    answers: usize,
}

impl Store {
    fn clear(&mut self) {
        self.heads.clear();
        self.live = 0;
        self.answers = 0;
    }

    /// The table of `rel(call)`, whose hash is `hash`, if there is one.
    fn find(&self, hash: u64, rel: u32, call: &[Option<TermId>]) -> Option<u32> {
        let mut i = *self.heads.get(&hash)?;
        while i != NO_TABLE {
            let table = &self.tables[i as usize];
            if table.rel == rel && table.call == call {
                return Some(i);
            }
            i = table.next;
        }
        None
    }

    /// A new, empty table for `rel(call)`.
    fn add(&mut self, hash: u64, rel: u32, call: &[Option<TermId>]) -> u32 {
        let i = self.live as u32;
        let next = self.heads.insert(hash, i).unwrap_or(NO_TABLE);
        if self.live == self.tables.len() {
            self.tables.push(Table::default());
        }
        self.tables[self.live].reset(rel, call, next);
        self.live += 1;
        i
    }
}

/// The hash of a call.
fn call_hash(rel: u32, call: &[Option<TermId>]) -> u64 {
    let mut h = FxHasher::default();
    h.write_u32(rel);
    for a in call {
        h.write_u32(a.map_or(u32::MAX, |t| t.0));
    }
    h.finish()
}

/// One call being solved.
struct Frame {
    /// The shallowest frame the call was found to depend on.
    low: usize,
}

/// What the body of one rule instance runs with.
struct Ctx<'a> {
    rule: &'a Prepared,
    index: usize,
    /// The body's steps: an index into [`Evaluator::steps`].
    plan: u32,
    base: usize,
    table: TableRef,
    call: &'a [Option<TermId>],
}

/// Stack left below which a nested call gets a new segment, and its size.
const RED_ZONE: usize = 128 * 1024;
const STACK_STEP: usize = 2 * 1024 * 1024;

/// One machine's evaluator of a [`RuleGame`].
pub struct Evaluator<'g> {
    game: &'g RuleGame,
    terms: TermTable,
    stores: [Store; 3],
    /// Variable values of every rule instance being run, one slice each.
    env: Vec<Option<TermId>>,
    /// Variables bound since each choice point, to undo them.
    trail: Vec<usize>,
    frames: Vec<Frame>,
    /// Tables of unfinished groups, completed by their leader.
    incomplete: Vec<TableRef>,
    pass: u64,
    /// The loaded state's facts.
    facts: Facts,
    /// The moves being made, as (role, move) terms.
    does: Vec<(TermId, TermId)>,
    /// The plan of each (rule, call pattern), as an index into `steps`.
    plans: FxHashMap<(u32, u64), u32>,
    steps: Vec<Box<[Step]>>,
    /// Arguments of calls being built (a stack, one call on top of another).
    args: Vec<Option<TermId>>,
    /// Arguments of compound terms being built (a stack, as `args`).
    built: Vec<TermId>,
    /// Vectors for the calls whose rules run, kept for reuse.
    calls: Vec<Vec<Option<TermId>>>,
    head: Vec<TermId>,
    /// Candidate facts tried in the current evaluation (a state's view and
    /// goals, or one next state), rules tried included ([`RULES_PER_CANDIDATE`]
    /// to one).
    work: u64,
    /// Candidate facts one evaluation may try, below the limits (an
    /// estimate that needs to know only whether a state costs that much).
    work_cap: u64,
    /// Rules tried in the current evaluation (their heads unified with a
    /// call): every [`RULES_PER_CANDIDATE`] count as one candidate fact.
    rules_tried: u64,
    /// Candidate facts tried by the evaluations before the current one.
    spent: u64,
}

/// Rules tried (a head unified with a call, no more) that count as one
/// candidate fact in [`Evaluator::work`].
const RULES_PER_CANDIDATE: u64 = 4;

impl<'g> Evaluator<'g> {
    pub fn new(game: &'g RuleGame, terms: TermTable) -> Evaluator<'g> {
        Evaluator {
            game,
            terms,
            stores: Default::default(),
            env: Vec::new(),
            trail: Vec::new(),
            frames: Vec::new(),
            incomplete: Vec::new(),
            pass: 0,
            facts: Facts::new(&game.base, &game.terms),
            does: Vec::new(),
            plans: FxHashMap::default(),
            steps: Vec::new(),
            args: Vec::new(),
            calls: Vec::new(),
            built: Vec::new(),
            head: Vec::new(),
            work: 0,
            work_cap: u64::MAX,
            rules_tried: 0,
            spent: 0,
        }
    }

    pub fn terms(&self) -> &TermTable {
        &self.terms
    }

    /// The term table, with the terms the evaluations made.
    pub fn into_terms(self) -> TermTable {
        self.terms
    }

    /// Candidate facts tried since the state or the moves were last set.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Candidate facts tried by every evaluation of this evaluator.
    pub fn total_work(&self) -> u64 {
        self.spent + self.work
    }

    /// Stops every later evaluation past `cap` candidate facts.
    pub fn set_work_cap(&mut self, cap: u64) {
        self.work_cap = cap;
    }

    /// Loads a state given as its bitset over the game's base facts.
    pub fn load(&mut self, bits: &[u64]) {
        self.stores[Level::State as usize].clear();
        self.stores[Level::Move as usize].clear();
        self.facts.load(bits);
        self.spent += self.work;
        self.work = 0;
        self.rules_tried = 0;
    }

    /// Sets the moves being made (forgetting what the previous ones implied):
    /// each joint move of a state is a new evaluation with its own limits.
    pub fn set_moves(&mut self, does: impl Iterator<Item = (TermId, TermId)>) {
        self.stores[Level::Move as usize].clear();
        self.spent += self.work;
        self.work = 0;
        self.rules_tried = 0;
        self.does.clear();
        self.does.extend(does);
    }

    /// The answers of a call of relation `rel` (`None` arguments free), as
    /// a flat list of `arity` terms each, or why it stopped; after a stop
    /// every table is dropped, so the evaluator is usable again.
    pub fn ask(&mut self, rel: u32, call: &[Option<TermId>]) -> Result<Vec<TermId>, Stop> {
        self.args.clear();
        self.args.extend_from_slice(call);
        let result = self.solve(rel, 0).map(|t| {
            let table = self.table(t);
            match call.len() {
                0 if !table.is_empty() => vec![TermId(0)],
                _ => table.answers.clone(),
            }
        });
        if result.is_err() {
            self.stores.iter_mut().for_each(Store::clear);
            self.frames.clear();
            self.incomplete.clear();
            self.env.clear();
            self.trail.clear();
        }
        self.args.clear();
        result
    }

    /// Whether a proposition (a relation without arguments) holds.
    pub fn holds(&mut self, rel: u32) -> Result<bool, Stop> {
        Ok(!self.ask(rel, &[])?.is_empty())
    }

    fn table(&self, t: TableRef) -> &Table {
        &self.stores[t.0 as usize].tables[t.1 as usize]
    }

    fn table_mut(&mut self, t: TableRef) -> &mut Table {
        &mut self.stores[t.0 as usize].tables[t.1 as usize]
    }

    /// Lowers the current frame's dependency to depth `d`.
    fn lower(&mut self, d: usize) {
        if let Some(f) = self.frames.last_mut() {
            f.low = f.low.min(d);
        }
    }

    /// The table of the call `rel(self.args[from..])`, solved unless it is
    /// being solved already (then holding the answers found so far).
    fn solve(&mut self, rel: u32, from: usize) -> Result<TableRef, Stop> {
        let level = self.game.rules.level[rel as usize] as usize;
        let call = &self.args[from..];
        let hash = call_hash(rel, call);
        let store = &mut self.stores[level];
        let t = match store.find(hash, rel, call) {
            Some(i) => {
                let t = TableRef(level as u8, i);
                match self.table(t).status {
                    Status::Complete => return Ok(t),
                    Status::Active(d) => {
                        self.lower(d);
                        return Ok(t);
                    }
                    Status::Incomplete { pass, low } if pass == self.pass => {
                        self.lower(low);
                        return Ok(t);
                    }
                    Status::Incomplete { .. } | Status::Unfinished => t,
                }
            }
            None => TableRef(level as u8, store.add(hash, rel, call)),
        };
        // Deep recursion runs on stack grown on the heap (bounded by
        // `max_depth`), so a thread's small stack does not overflow.
        stacker::maybe_grow(RED_ZONE, STACK_STEP, || self.evaluate(rel, t))
    }

    /// Runs the rules of a table's call, again while the call leads a
    /// group whose pass added answers.
    fn evaluate(&mut self, rel: u32, t: TableRef) -> Result<TableRef, Stop> {
        let depth = self.frames.len();
        if depth >= self.game.rules.limits.max_depth {
            return Err(Stop::Limit("nested calls"));
        }
        let mark = self.incomplete.len();
        self.frames.push(Frame { low: depth });
        self.table_mut(t).status = Status::Active(depth);
        // A copy of the call (in a vector kept for reuse) while its rules run.
        let mut call = self.calls.pop().unwrap_or_default();
        call.extend_from_slice(&self.table(t).call);
        let mask = places(call.iter().map(Option::is_some));
        let rules = &self.game.rules;
        // A call with every argument bound has at most one answer: found,
        // it is final, and the remaining rules need not run.
        let closed = call.iter().all(Option::is_some);
        'passes: loop {
            let before = self.group_size(t, mark);
            if let Some(&k) = rules.agg_of.get(&rel) {
                match self.aggregate(&rules.aggs[k], &call, t) {
                    Err(Stop::Found) => break 'passes,
                    other => other?,
                }
            }
            for &r in &rules.by_head[rel as usize] {
                match self.run_rule(r as usize, &call, mask, t) {
                    Err(Stop::Found) => break 'passes,
                    other => other?,
                }
            }
            let low = self.frames[depth].low;
            if low < depth || self.group_size(t, mark) == before {
                break;
            }
            self.pass += 1;
        }
        let low = self.frames.pop().map_or(depth, |f| f.low);
        call.clear();
        self.calls.push(call);
        if closed && !self.table(t).is_empty() {
            // Final whatever the group: the tables the cut pass left
            // unfinished keep their (sound) answers and run again when met.
            self.table_mut(t).status = Status::Complete;
            self.settle_group(mark, Status::Unfinished);
            return Ok(t);
        }
        if low < depth {
            self.lower(low);
            let pass = self.pass;
            let table = self.table_mut(t);
            table.status = Status::Incomplete { pass, low };
            if !table.listed {
                table.listed = true;
                self.incomplete.push(t);
            }
            for k in mark..self.incomplete.len() {
                let m = self.incomplete[k];
                if let Status::Incomplete { pass, low: l } = self.table(m).status {
                    self.table_mut(m).status = Status::Incomplete {
                        pass,
                        low: l.min(low),
                    };
                }
            }
        } else {
            self.table_mut(t).status = Status::Complete;
            self.settle_group(mark, Status::Complete);
        }
        Ok(t)
    }

    /// Takes the tables of a group (those listed from `mark` on) off the
    /// list, leaving them in `status`.
    fn settle_group(&mut self, mark: usize, status: Status) {
        for k in mark..self.incomplete.len() {
            let table = self.table_mut(self.incomplete[k]);
            table.status = status;
            table.listed = false;
        }
        self.incomplete.truncate(mark);
    }

    /// Answers and members of the group led by `t`, to see a pass add none.
    fn group_size(&self, t: TableRef, mark: usize) -> usize {
        self.incomplete[mark..]
            .iter()
            .map(|&m| self.table(m).count() + 1)
            .sum::<usize>()
            + self.table(t).count()
    }

    /// The plan of rule `r` for a call binding the places in `mask`.
    fn plan_of(&mut self, r: usize, mask: u64) -> u32 {
        let rules = &self.game.rules;
        let steps = &mut self.steps;
        *self.plans.entry((r as u32, mask)).or_insert_with(|| {
            let does = rules.special.does;
            let pos = &rules.pos_rels[r];
            let kind = |i: usize| match rules.agg_of.get(&pos[i]) {
                Some(&k) => Kind::Aggregate(rules.aggs[k].shared),
                None if Some(pos[i]) == does => Kind::Does,
                None => Kind::Plain,
            };
            steps.push(plan(&rules.rules[r], mask, kind).into());
            steps.len() as u32 - 1
        })
    }

    fn run_rule(
        &mut self,
        r: usize,
        call: &[Option<TermId>],
        mask: u64,
        t: TableRef,
    ) -> Result<(), Stop> {
        // Rules tried count too: a relation of many facts, called with
        // bound arguments, unifies each one's head.
        self.rules_tried += 1;
        if self.rules_tried.is_multiple_of(RULES_PER_CANDIDATE) {
            self.tick()?;
        }
        let rules = &self.game.rules;
        let rule = &rules.rules[r];
        let base = self.env.len();
        self.env.resize(base + rule.vars, None);
        let trail = self.trail.len();
        let unified = (rule.head.args.iter().zip(call)).all(|(p, a)| match a {
            Some(term) => unify(p, *term, base, &mut self.env, &mut self.trail, &self.terms),
            None => true,
        });
        let result = match unified {
            true => {
                let ctx = Ctx {
                    rule,
                    index: r,
                    plan: self.plan_of(r, mask),
                    base,
                    table: t,
                    call,
                };
                self.body(&ctx, 0)
            }
            false => Ok(()),
        };
        self.trail.truncate(trail);
        self.env.truncate(base);
        result
    }

    /// Runs the body from step `k` on, adding an answer at its end.
    fn body(&mut self, ctx: &Ctx, k: usize) -> Result<(), Stop> {
        let Some(&step) = self.steps[ctx.plan as usize].get(k) else {
            return self.emit(ctx);
        };
        match step {
            Step::Pos(i) => self.positive(ctx, k, i as usize),
            Step::Neg(i) => {
                if !self.negative_holds(ctx, i as usize)? {
                    return Ok(());
                }
                self.body(ctx, k + 1)
            }
            Step::Test(c) => {
                let cmp = &ctx.rule.cmps[c as usize];
                let holds = self.compare(cmp.op, &cmp.left, &cmp.right, ctx.base);
                match holds != cmp.negated {
                    true => self.body(ctx, k + 1),
                    false => Ok(()),
                }
            }
            Step::Bind(c, left) => {
                let cmp = &ctx.rule.cmps[c as usize];
                let (target, source) = match left {
                    true => (&cmp.left, &cmp.right),
                    false => (&cmp.right, &cmp.left),
                };
                let Some(value) = self.build(source, ctx.base) else {
                    return Ok(());
                };
                self.with_match(ctx, k, std::slice::from_ref(target), &[value])
            }
        }
    }

    /// Matches `pats` against `terms`, runs the rest of the body, undoes.
    fn with_match(
        &mut self,
        ctx: &Ctx,
        k: usize,
        pats: &[Pat],
        terms: &[TermId],
    ) -> Result<(), Stop> {
        let trail = self.trail.len();
        let base = ctx.base;
        let ok = (pats.iter().zip(terms))
            .all(|(p, &t)| unify(p, t, base, &mut self.env, &mut self.trail, &self.terms));
        let result = match ok {
            true => self.body(ctx, k + 1),
            false => Ok(()),
        };
        self.undo(trail);
        result
    }

    fn undo(&mut self, trail: usize) {
        for &v in &self.trail[trail..] {
            self.env[v] = None;
        }
        self.trail.truncate(trail);
    }

    fn tick(&mut self) -> Result<(), Stop> {
        self.work += 1;
        let limits = &self.game.rules.limits;
        if self.work > limits.max_work.min(self.work_cap) {
            return Err(Stop::Limit("candidate facts tried in one evaluation"));
        }
        if self.terms.len() > limits.max_terms {
            return Err(Stop::Limit("terms made by one machine"));
        }
        Ok(())
    }

    /// Positive literal `i` at step `k`: each match, then the rest.
    fn positive(&mut self, ctx: &Ctx, k: usize, i: usize) -> Result<(), Stop> {
        let rules = &self.game.rules;
        let atom = &ctx.rule.pos[i];
        let rel = rules.pos_rels[ctx.index][i];
        if Some(rel) == rules.special.truth {
            return self.positive_true(ctx, k, &atom.args[0]);
        }
        if Some(rel) == rules.special.does {
            for j in 0..self.does.len() {
                self.tick()?;
                let (r, m) = self.does[j];
                self.with_match(ctx, k, &atom.args, &[r, m])?;
            }
            return Ok(());
        }
        if rules.is_guard(rel) {
            return match atom.args.iter().all(|p| is_bound(p, ctx.base, &self.env)) {
                true => self.body(ctx, k + 1),
                false => Ok(()),
            };
        }
        let from = self.args.len();
        for p in atom.args.iter() {
            let a = self.build(p, ctx.base);
            self.args.push(a);
        }
        // An answer holds the call's value at each bound place: only the
        // free places need matching (and every place from 64 on).
        let free = places(self.args[from..].iter().map(Option::is_none));
        let all_bound = self.args[from..].iter().all(Option::is_some);
        let solved = self.solve(rel, from);
        self.args.truncate(from);
        let t = solved?;
        let n = atom.args.len();
        if all_bound {
            return match self.table(t).is_empty() {
                true => Ok(()),
                false => self.body(ctx, k + 1),
            };
        }
        let mut j = 0;
        while j * n < self.table(t).answers.len() {
            self.tick()?;
            let trail = self.trail.len();
            let answers = &self.stores[t.0 as usize].tables[t.1 as usize].answers;
            let answer = &answers[j * n..(j + 1) * n];
            let ok = (atom.args.iter().zip(answer).enumerate())
                .filter(|&(place, _)| place >= 64 || free >> place & 1 == 1)
                .all(|(_, (p, &a))| {
                    unify(p, a, ctx.base, &mut self.env, &mut self.trail, &self.terms)
                });
            if ok {
                self.body(ctx, k + 1)?;
            }
            self.undo(trail);
            j += 1;
        }
        Ok(())
    }

    /// `true(P)`: a look-up when `P` is bound; else, when some top-level
    /// argument is bound, the base facts with those values (an index);
    /// else the true facts of `P`'s functor, or every true fact.
    fn positive_true(&mut self, ctx: &Ctx, k: usize, p: &Pat) -> Result<(), Stop> {
        if let Some(fact) = self.build(p, ctx.base) {
            return match self.fact_holds(fact) {
                true => self.body(ctx, k + 1),
                false => Ok(()),
            };
        }
        let one = std::slice::from_ref(p);
        let Pat::App(f, args) = p else {
            for j in 0..self.facts.all().len() {
                self.tick()?;
                let fact = self.facts.all()[j];
                self.with_match(ctx, k, one, &[fact])?;
            }
            return Ok(());
        };
        let (mut mask, from) = (0u64, self.built.len());
        for (i, a) in args.iter().enumerate().take(64) {
            if let Some(v) = self.build(a, ctx.base) {
                mask |= 1 << i;
                self.built.push(v);
            }
        }
        let functor = (*f, args.len());
        if mask != 0 {
            let values = &self.built[from..];
            let (ix, a, b) = self.facts.lookup(&self.terms, functor, mask, values);
            self.built.truncate(from);
            for j in a..b {
                self.tick()?;
                if let Some(fact) = self.facts.indexed(ix, j) {
                    self.with_match(ctx, k, one, &[fact])?;
                }
            }
            return Ok(());
        }
        let Some(g) = self.facts.group(functor.0, functor.1) else {
            return Ok(());
        };
        for j in 0..self.facts.of_group(g).len() {
            self.tick()?;
            let fact = self.facts.of_group(g)[j];
            self.with_match(ctx, k, one, &[fact])?;
        }
        Ok(())
    }

    fn fact_holds(&self, fact: TermId) -> bool {
        match self.game.base_index.get(&fact) {
            Some(&i) => self.facts.holds_index(i),
            None => false,
        }
    }

    /// Whether negative literal `i` holds: its atom, fully bound, has no
    /// answer (or no value, when arithmetic in it fails).
    fn negative_holds(&mut self, ctx: &Ctx, i: usize) -> Result<bool, Stop> {
        let rules = &self.game.rules;
        let atom = &ctx.rule.neg[i];
        let rel = rules.neg_rels[ctx.index][i];
        let from = self.args.len();
        for p in atom.args.iter() {
            match self.build(p, ctx.base) {
                Some(t) => self.args.push(Some(t)),
                None => {
                    self.args.truncate(from);
                    return Ok(true);
                }
            }
        }
        let arg = |i: usize| self.args[from + i].unwrap_or(TermId(0));
        if Some(rel) == rules.special.truth {
            let fact = arg(0);
            self.args.truncate(from);
            return Ok(!self.fact_holds(fact));
        }
        if Some(rel) == rules.special.does {
            let (role, mv) = (arg(0), arg(1));
            self.args.truncate(from);
            return Ok(!self.does.contains(&(role, mv)));
        }
        let solved = self.solve(rel, from);
        self.args.truncate(from);
        let table = self.table(solved?);
        match table.status {
            Status::Complete => Ok(table.is_empty()),
            _ => {
                let name = self.game.rules.rels[rel as usize].0;
                Err(Stop::NegativeCycle(
                    self.game.symbols.name(name).to_string(),
                ))
            }
        }
    }

    /// The end of a body: the head's instance is an answer of the table.
    fn emit(&mut self, ctx: &Ctx) -> Result<(), Stop> {
        self.head.clear();
        for p in ctx.rule.head.args.iter() {
            match self.build(p, ctx.base) {
                Some(t) => self.head.push(t),
                None => return Ok(()), // arithmetic without a value
            }
        }
        // A head with arithmetic may differ from a bound argument of the call.
        if (self.head.iter().zip(ctx.call)).any(|(h, c)| c.is_some_and(|c| c != *h)) {
            return Ok(());
        }
        let head = std::mem::take(&mut self.head);
        let added = self.add_answer(ctx.table, &head, ctx.call);
        self.head = head;
        added
    }

    /// Adds an answer to the table of `call`, within the limit; a call with
    /// every argument bound stops at its answer.
    fn add_answer(
        &mut self,
        t: TableRef,
        answer: &[TermId],
        call: &[Option<TermId>],
    ) -> Result<(), Stop> {
        if self.table_mut(t).insert(answer) {
            self.stores[t.0 as usize].answers += 1;
            let held: usize = self.stores.iter().map(|s| s.answers).sum();
            if held > self.game.rules.limits.max_answers {
                return Err(Stop::Limit("answers held for one evaluation"));
            }
            if call.iter().all(Option::is_some) {
                return Err(Stop::Found);
            }
        }
        Ok(())
    }

    /// The answers of an aggregate's value relation for `call`: for each
    /// binding `s` of the shared arguments (the call's, else those of the
    /// aggregate's bindings relation), the aggregate of the answers of its
    /// facts relation called with `s`, a sub-query whose table must be
    /// complete, as a negation's.
    fn aggregate(&mut self, agg: &Agg, call: &[Option<TermId>], t: TableRef) -> Result<(), Stop> {
        let shared = &call[..agg.shared];
        let bindings: Vec<Box<[TermId]>> = match shared.iter().all(Option::is_some) {
            true => vec![shared.iter().flatten().copied().collect()],
            false => {
                let d = self.complete_call(agg.domain, shared)?;
                let answers = &self.table(d).answers;
                answers.chunks(agg.shared).map(Box::from).collect()
            }
        };
        let mut inner: Vec<Option<TermId>> = Vec::with_capacity(agg.facts_arity);
        for s in bindings {
            inner.clear();
            inner.extend(s.iter().map(|&x| Some(x)));
            inner.resize(agg.facts_arity, None);
            let f = self.complete_call(agg.facts, &inner)?;
            let Some(value) = self.fold(agg, f)? else {
                continue;
            };
            let value = self.terms.intern(GTerm::Int(value));
            if call[agg.shared].is_some_and(|c| c != value) {
                continue;
            }
            let mut answer = s.into_vec();
            answer.push(value);
            self.add_answer(t, &answer, call)?;
        }
        Ok(())
    }

    /// The table of a call whose answers must all be known.
    fn complete_call(&mut self, rel: u32, call: &[Option<TermId>]) -> Result<TableRef, Stop> {
        let from = self.args.len();
        self.args.extend_from_slice(call);
        let solved = self.solve(rel, from);
        self.args.truncate(from);
        let t = solved?;
        match self.table(t).status {
            Status::Complete => Ok(t),
            _ => {
                let name = self.game.rules.rels[rel as usize].0;
                let name = self.game.symbols.name(name).to_string();
                Err(Stop::NegativeCycle(name))
            }
        }
    }

    /// The aggregate of a complete facts table: the count of its answers,
    /// or the sum, least or greatest of their values (the last argument);
    /// `None` for the least or greatest of nothing or a sum that overflows.
    fn fold(&self, agg: &Agg, f: TableRef) -> Result<Option<i64>, Stop> {
        let table = self.table(f);
        if agg.op == AggOp::Count {
            return Ok(Some(table.count() as i64));
        }
        let mut values = Vec::with_capacity(table.count());
        for answer in table.answers.chunks(agg.facts_arity) {
            let last = answer[agg.facts_arity - 1];
            let Some(v) = self.terms.int(last) else {
                let shown = self.terms.show(last, &self.game.symbols, self.game.syntax);
                return Err(Stop::NotInteger(format!(
                    "`{}` needs integer values, and one value here is `{shown}`",
                    agg.op.as_str()
                )));
            };
            values.push(v);
        }
        Ok(match agg.op {
            AggOp::Sum => values.iter().try_fold(0i64, |a, &b| a.checked_add(b)),
            AggOp::Min => values.into_iter().min(),
            _ => values.into_iter().max(),
        })
    }

    /// The ground term of a bound pattern; `None` if arithmetic has no
    /// value or a variable is unbound (one pass: no separate test of
    /// whether every variable is bound). New terms are counted by
    /// [`Evaluator::tick`] against the limit.
    fn build(&mut self, p: &Pat, base: usize) -> Option<TermId> {
        match p {
            Pat::Var(v) => self.env[base + *v as usize],
            Pat::Ground(t) => Some(*t),
            Pat::App(f, args) => {
                let from = self.built.len();
                for a in args.iter() {
                    match self.build(a, base) {
                        Some(t) => self.built.push(t),
                        None => {
                            self.built.truncate(from);
                            return None;
                        }
                    }
                }
                let t = self.terms.intern_app(*f, &self.built[from..]);
                self.built.truncate(from);
                Some(t)
            }
            Pat::Arith(op, a, b) => {
                let a = self.build(a, base)?;
                let b = self.build(b, base)?;
                let v = op.apply(self.terms.int(a)?, self.terms.int(b)?)?;
                Some(self.terms.intern(GTerm::Int(v)))
            }
        }
    }

    /// A comparison as the grounder decides it: `=`/`!=` on terms, the
    /// orderings on integers only; a side without a value makes it fail.
    fn compare(&mut self, op: CmpOp, l: &Pat, r: &Pat, base: usize) -> bool {
        let (Some(a), Some(b)) = (self.build(l, base), self.build(r, base)) else {
            return false;
        };
        self.terms.satisfies(op, a, b)
    }
}

fn is_bound(p: &Pat, base: usize, env: &[Option<TermId>]) -> bool {
    match p {
        Pat::Var(v) => env[base + *v as usize].is_some(),
        Pat::Ground(_) => true,
        Pat::App(_, args) => args.iter().all(|a| is_bound(a, base, env)),
        Pat::Arith(_, a, b) => is_bound(a, base, env) && is_bound(b, base, env),
    }
}

/// Matches a pattern against a ground term, binding variables of the rule
/// instance at `base` (recorded in `trail`). Arithmetic matches anything:
/// a head with arithmetic is checked once built ([`Evaluator::emit`]).
fn unify(
    p: &Pat,
    t: TermId,
    base: usize,
    env: &mut [Option<TermId>],
    trail: &mut Vec<usize>,
    terms: &TermTable,
) -> bool {
    match p {
        Pat::Var(v) => {
            let slot = base + *v as usize;
            match env[slot] {
                Some(b) => b == t,
                None => {
                    env[slot] = Some(t);
                    trail.push(slot);
                    true
                }
            }
        }
        Pat::Ground(g) => *g == t,
        Pat::App(f, args) => match terms.term(t) {
            GTerm::App(g, targs) if g == f && targs.len() == args.len() => (args.iter())
                .zip(targs.iter())
                .all(|(p, &t)| unify(p, t, base, env, trail, terms)),
            _ => false,
        },
        Pat::Arith(..) => true,
    }
}

/// Bit `i` set for each of the first 64 places `i` that `flags` marks. A
/// place from 64 on is in no mask: a call pattern plans it as free (its
/// value, if bound, is still matched) and an index does not key on it.
fn places(flags: impl Iterator<Item = bool>) -> u64 {
    (flags.take(64).enumerate()).fold(0, |mask, (i, flag)| mask | u64::from(flag) << i)
}
