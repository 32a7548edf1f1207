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
//! contiguous range that is iterated to its least fixpoint.

use super::scc::tarjan;
use crate::diag::{Diagnostic, codes};
use crate::ground::{AtomId, Ground, Lit, TermId};

pub const SLOT_FALSE: u32 = 0;
pub const SLOT_TRUE: u32 = 1;

/// One step of an evaluation plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanStep {
    /// Compute one slot from its rules.
    One(u32),
    /// Compute a recursive component (slots `start..end`) to its fixpoint.
    Fixpoint(u32, u32),
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
    pub goals: Vec<(u32, i64)>,
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
    /// `early[i]` whose rules all contain that literal.
    pub early_groups: Vec<Vec<(u32, u32, u32)>>,
    /// The other triggered rules, decided when the plan reaches their head.
    pub triggered: Vec<Vec<(u32, u32)>>,
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
}

pub const BASE0: u32 = 2;

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
            })
            .sum()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Const(bool),
    Base(u32),
    Input,
    /// A derived atom; `true` if it depends on `does`.
    Derived(bool),
}

pub fn compile(g: &Ground) -> Result<Net, Vec<Diagnostic>> {
    let n = g.atoms.len();
    let name = |a: AtomId| g.symbols.name(g.atoms[a.0 as usize].rel);
    let arity = |a: AtomId| g.atoms[a.0 as usize].args.len();
    let is = |a: AtomId, rel: &str, k: usize| name(a) == rel && arity(a) == k;

    // Rules per head atom (CSR) and successor lists (head -> body atoms).
    let mut head_rules: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (r, h) in g.heads.iter().enumerate() {
        head_rules[h.0 as usize].push(r as u32);
    }
    let succ: Vec<Vec<u32>> = (0..n)
        .map(|a| {
            let mut s: Vec<u32> = head_rules[a]
                .iter()
                .flat_map(|&r| g.body(r as usize).iter().map(|l| l.atom().0))
                .collect();
            s.sort_unstable();
            s.dedup();
            s
        })
        .collect();
    let comps = tarjan(n, |a| &succ[a]);

    // Classify every atom, evaluating the static ones.
    let mut status = vec![Status::Const(false); n];
    // Base facts are numbered in a natural order of their terms (names
    // alphabetically, integers numerically), so states print in that order.
    let mut base_atoms: Vec<usize> = (0..n)
        .filter(|&a| is(AtomId(a as u32), "true", 1))
        .collect();
    base_atoms.sort_by(|&a, &b| {
        let (ta, tb) = (g.atoms[a].args[0], g.atoms[b].args[0]);
        compare_terms(g, ta, tb)
    });
    let base_count = base_atoms.len() as u32;
    let base_terms: Vec<TermId> = base_atoms.iter().map(|&a| g.atoms[a].args[0]).collect();
    for (i, &a) in base_atoms.iter().enumerate() {
        status[a] = Status::Base(i as u32);
    }
    for (a, st) in status.iter_mut().enumerate() {
        if is(AtomId(a as u32), "does", 2) {
            *st = Status::Input;
        }
    }
    let lit_status = |status: &[Status], l: Lit| status[l.atom().0 as usize];
    // Rules simplified against the constants, per atom.
    let mut simplified: Vec<Vec<Vec<Lit>>> = vec![Vec::new(); n];
    let mut in_comp = vec![u32::MAX; n];
    let mut pos_in_comp = vec![0u32; n];
    for (ci, comp) in comps.iter().enumerate() {
        for (i, &a) in comp.iter().enumerate() {
            in_comp[a as usize] = ci as u32;
            pos_in_comp[a as usize] = i as u32;
        }
        if comp
            .iter()
            .any(|&a| matches!(status[a as usize], Status::Base(_) | Status::Input))
        {
            continue; // base and input atoms have no rules
        }
        let recursive = comp.len() > 1 || succ[comp[0] as usize].contains(&comp[0]);
        // Simplify each member's rules against constants outside the component.
        let mut dynamic = false;
        let mut uses_does = false;
        for &a in comp {
            let mut rules = Vec::new();
            'rule: for &r in &head_rules[a as usize] {
                let mut body = Vec::new();
                for &l in g.body(r as usize) {
                    let inside = in_comp[l.atom().0 as usize] == ci as u32;
                    match lit_status(&status, l) {
                        Status::Const(v) if !inside => {
                            if v == l.negated() {
                                continue 'rule; // a false literal kills the rule
                            }
                        }
                        Status::Base(_) => {
                            dynamic = true;
                            body.push(l);
                        }
                        Status::Input => {
                            dynamic = true;
                            uses_does = true;
                            body.push(l);
                        }
                        Status::Derived(d) if !inside => {
                            dynamic = true;
                            uses_does |= d;
                            body.push(l);
                        }
                        _ => body.push(l),
                    }
                }
                rules.push(body);
            }
            simplified[a as usize] = rules;
        }
        if !dynamic {
            // Static: least fixpoint over the component, then constants.
            let mut val: Vec<bool> = vec![false; comp.len()];
            let rounds = if recursive { comp.len() + 1 } else { 1 };
            for _ in 0..rounds {
                let mut changed = false;
                for (i, &a) in comp.iter().enumerate() {
                    let v = simplified[a as usize].iter().any(|body| {
                        body.iter()
                            .all(|l| val[pos_in_comp[l.atom().0 as usize] as usize] != l.negated())
                    });
                    if v != val[i] {
                        val[i] = v;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for (i, &a) in comp.iter().enumerate() {
                status[a as usize] = Status::Const(val[i]);
                simplified[a as usize].clear();
            }
        } else if !recursive {
            let a = comp[0] as usize;
            let rules = &simplified[a];
            status[a] = if rules.iter().any(|b| b.is_empty()) {
                Status::Const(true)
            } else if rules.is_empty() {
                Status::Const(false)
            } else {
                Status::Derived(uses_does)
            };
        } else {
            for &a in comp {
                status[a as usize] = Status::Derived(uses_does);
            }
        }
    }

    // Slots: constants, base, inputs, then derived in component order.
    let mut slot = vec![SLOT_FALSE; n];
    let mut next_slot = BASE0 + base_count;
    for a in 0..n {
        match status[a] {
            Status::Const(true) => slot[a] = SLOT_TRUE,
            Status::Const(false) => slot[a] = SLOT_FALSE,
            Status::Base(i) => slot[a] = BASE0 + i,
            _ => {}
        }
    }
    for a in 0..n {
        if status[a] == Status::Input {
            slot[a] = next_slot;
            next_slot += 1;
        }
    }
    let first_derived = next_slot;
    // Components whose members are derived, in dependency order, with ranges.
    let mut comp_range = vec![(0u32, 0u32); comps.len()];
    let mut recursive_comp = vec![false; comps.len()];
    for (ci, comp) in comps.iter().enumerate() {
        if !matches!(status[comp[0] as usize], Status::Derived(_)) {
            continue;
        }
        let start = next_slot;
        for &a in comp {
            slot[a as usize] = next_slot;
            next_slot += 1;
        }
        comp_range[ci] = (start, next_slot);
        recursive_comp[ci] = comp.len() > 1 || succ[comp[0] as usize].contains(&comp[0]);
    }
    let slots = next_slot as usize;
    let mut slot_atom = vec![u32::MAX; slots];
    for a in 0..n {
        if matches!(status[a], Status::Derived(_)) {
            slot_atom[slot[a] as usize] = a as u32;
        }
    }
    // Rules of non-recursive slots with a positive `does` literal are
    // triggered by that move instead of being scanned every time: the
    // literal is dropped and the rule filed under the move's slot.
    let first_input = BASE0 + base_count;
    let mut recursive_slot = vec![false; slots];
    for (ci, &(a, b)) in comp_range.iter().enumerate() {
        if recursive_comp[ci] {
            (a..b).for_each(|s| recursive_slot[s as usize] = true);
        }
    }
    let mut slot_rules = vec![0u32];
    let mut rule_lits = vec![0u32];
    let mut lits = Vec::new();
    let mut triggered: Vec<Vec<(u32, u32)>> =
        vec![Vec::new(); (first_derived - first_input) as usize];
    let mut deferred = Vec::new();
    for s in first_derived..next_slot {
        let a = slot_atom[s as usize] as usize;
        for body in &simplified[a] {
            let encoded: Vec<u32> = body
                .iter()
                .map(|l| slot[l.atom().0 as usize] << 1 | l.negated() as u32)
                .collect();
            let trigger = encoded
                .iter()
                .position(|&l| l & 1 == 0 && (first_input..first_derived).contains(&(l >> 1)));
            match trigger {
                Some(i) if !recursive_slot[s as usize] => {
                    let mut rest = encoded;
                    let does = rest.remove(i) >> 1;
                    deferred.push((s, does, rest));
                }
                _ => {
                    lits.extend(encoded);
                    rule_lits.push(lits.len() as u32);
                }
            }
        }
        slot_rules.push(rule_lits.len() as u32 - 1);
    }
    let mut head_triggered: Vec<Vec<u32>> = vec![Vec::new(); slots];
    for (head, does, body) in deferred {
        lits.extend(body);
        rule_lits.push(lits.len() as u32);
        let rule = rule_lits.len() as u32 - 2;
        triggered[(does - first_input) as usize].push((head, rule));
        head_triggered[head as usize].push(rule);
    }

    // Query tables.
    let mut errors = Vec::new();
    let mut roles: Vec<RoleEntry> = Vec::new();
    for (a, &st) in status.iter().enumerate() {
        let id = AtomId(a as u32);
        if is(id, "role", 1) && st == Status::Const(true) {
            roles.push(RoleEntry {
                name: g.atoms[a].args[0],
                moves: Vec::new(),
                goals: Vec::new(),
            });
        } else if is(id, "role", 1) && matches!(st, Status::Derived(_)) {
            errors.push(Diagnostic::global(
                codes::RESERVED,
                "`role` must not depend on the state or the moves",
            ));
        }
    }
    let role_names: Vec<TermId> = roles.iter().map(|r| r.name).collect();
    let role_of = |t: TermId| role_names.iter().position(|&r| r == t);
    let mut does_slot = std::collections::HashMap::new();
    for (a, &s) in slot.iter().enumerate() {
        if is(AtomId(a as u32), "does", 2) {
            let args = &g.atoms[a].args;
            does_slot.insert((args[0], args[1]), s);
        }
    }
    let mut init = Vec::new();
    let mut next = Vec::new();
    let mut terminal = SLOT_FALSE;
    let mut legal_pending = Vec::new();
    let mut goal_pending = Vec::new();
    let mut weight_pending = Vec::new();
    let base_index: std::collections::HashMap<TermId, u32> = base_terms
        .iter()
        .enumerate()
        .map(|(i, t)| (*t, i as u32))
        .collect();
    for a in 0..n {
        let id = AtomId(a as u32);
        let s = slot[a];
        if s == SLOT_FALSE && !matches!(status[a], Status::Base(_)) {
            continue; // never holds
        }
        let args = &g.atoms[a].args;
        if is(id, "init", 1) {
            if status[a] == Status::Const(true) {
                init.push(base_index[&args[0]]);
            }
        } else if is(id, "next", 1) {
            next.push((s, base_index[&args[0]]));
        } else if is(id, "terminal", 0) {
            terminal = s;
        } else if is(id, "legal", 2) {
            legal_pending.push((args[0], args[1], s));
        } else if is(id, "goal", 2) {
            goal_pending.push((args[0], args[1], s));
        } else if is(id, "weight", 2) {
            weight_pending.push((args[0], args[1], s));
        }
    }
    for (r, m, s) in legal_pending {
        if let Some(ri) = role_of(r) {
            roles[ri].moves.push(MoveEntry {
                term: m,
                legal: s,
                does: does_slot[&(r, m)],
            });
        }
    }
    for (r, v, s) in goal_pending {
        let Some(ri) = role_of(r) else { continue };
        match g.terms.int_value(v, &g.symbols) {
            Some(v) => roles[ri].goals.push((s, v)),
            None => errors.push(Diagnostic::global(
                codes::ARITHMETIC,
                format!(
                    "goal value {} of role {} is not an integer",
                    g.terms.show(v, &g.symbols, g.syntax),
                    g.terms.show(r, &g.symbols, g.syntax)
                ),
            )),
        }
    }
    let random = roles
        .iter()
        .position(|r| matches!(g.terms.term(r.name), crate::ground::GTerm::Sym(s) if g.symbols.name(*s) == "random"));
    let mut weights = Vec::new();
    if let Some(ri) = random {
        weights = vec![Vec::new(); roles[ri].moves.len()];
        for (m, w, s) in weight_pending {
            let Some(mi) = roles[ri].moves.iter().position(|e| e.term == m) else {
                continue;
            };
            match g.terms.int_value(w, &g.symbols) {
                Some(w) => weights[mi].push((s, w)),
                None => errors.push(Diagnostic::global(
                    codes::ARITHMETIC,
                    format!(
                        "weight {} of move {} is not an integer",
                        g.terms.show(w, &g.symbols, g.syntax),
                        g.terms.show(m, &g.symbols, g.syntax)
                    ),
                )),
            }
        }
    }
    if roles.is_empty() {
        errors.push(Diagnostic::global(
            codes::NO_ROLES,
            "the game declares no roles",
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Plans.
    let plan_of = |targets: &[u32], skip: &dyn Fn(u32) -> bool| -> Vec<PlanStep> {
        let mut seen = vec![false; slots];
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
            let own = slot_rules[d]..slot_rules[d + 1];
            for r in own.chain(head_triggered[s as usize].iter().copied()) {
                for &l in &lits[rule_lits[r as usize] as usize..rule_lits[r as usize + 1] as usize]
                {
                    let ls = l >> 1;
                    if ls >= first_derived && !seen[ls as usize] {
                        stack.push(ls);
                    }
                }
            }
        }
        let mut steps = Vec::new();
        for (ci, &(start, end)) in comp_range.iter().enumerate() {
            if start == end || !seen[start as usize] || skip(start) {
                continue;
            }
            if recursive_comp[ci] {
                steps.push(PlanStep::Fixpoint(start, end));
            } else {
                steps.push(PlanStep::One(start));
            }
        }
        steps.sort_by_key(|s| match s {
            PlanStep::One(a) | PlanStep::Fixpoint(a, _) => *a,
        });
        steps
    };
    let mut view_targets = vec![terminal];
    for r in &roles {
        view_targets.extend(r.moves.iter().map(|m| m.legal));
    }
    view_targets.extend(weights.iter().flatten().map(|w| w.0));
    let view = plan_of(&view_targets, &|_| false);
    let goal_targets: Vec<u32> = roles
        .iter()
        .flat_map(|r| r.goals.iter().map(|g| g.0))
        .collect();
    let goal = plan_of(&goal_targets, &|_| false);
    let mut in_view = vec![false; slots];
    for step in &view {
        match *step {
            PlanStep::One(s) => in_view[s as usize] = true,
            PlanStep::Fixpoint(a, b) => (a..b).for_each(|s| in_view[s as usize] = true),
        }
    }
    let uses_does: Vec<bool> = (0..slots)
        .map(|s| {
            let a = slot_atom[s];
            a != u32::MAX && status[a as usize] == Status::Derived(true)
        })
        .collect();
    let next_targets: Vec<u32> = next.iter().map(|n| n.0).collect();
    let after = plan_of(&next_targets, &|s| {
        in_view[s as usize] && !uses_does[s as usize]
    });
    let ready = |l: u32| {
        let s = l >> 1;
        s < first_derived || (in_view[s as usize] && !uses_does[s as usize])
    };
    let mut early = vec![Vec::new(); triggered.len()];
    for (list, early) in triggered.iter_mut().zip(&mut early) {
        list.retain(|&(head, rule)| {
            let body =
                &lits[rule_lits[rule as usize] as usize..rule_lits[rule as usize + 1] as usize];
            if body.iter().all(|&l| ready(l)) {
                early.push((head, rule));
                false
            } else {
                true
            }
        });
    }
    // Early rules of one move are grouped by a literal they share (the first
    // positive state fact of the body, where there is one), so a step skips a
    // whole group when that fact is false.
    let key_of = |rule: u32| {
        let body = &lits[rule_lits[rule as usize] as usize..rule_lits[rule as usize + 1] as usize];
        body.iter()
            .copied()
            .find(|&l| l & 1 == 0 && (BASE0..first_input).contains(&(l >> 1)))
            .unwrap_or(SLOT_TRUE << 1)
    };
    let mut early_groups = Vec::with_capacity(early.len());
    for list in &mut early {
        list.sort_by_key(|&(head, rule)| (key_of(rule), head, rule));
        let mut groups: Vec<(u32, u32, u32)> = Vec::new();
        for (k, &(_, rule)) in list.iter().enumerate() {
            let key = key_of(rule);
            match groups.last_mut() {
                Some(g) if g.0 == key => g.2 = k as u32 + 1,
                _ => groups.push((key, k as u32, k as u32 + 1)),
            }
        }
        early_groups.push(groups);
    }
    let all: Vec<u32> = (first_derived..next_slot).collect();
    let full = plan_of(&all, &|s| uses_does[s as usize]);

    Ok(Net {
        slots,
        base: base_terms,
        first_derived,
        slot_rules,
        rule_lits,
        first_input,
        early,
        early_groups,
        triggered,
        lits,
        roles,
        random,
        weights,
        next,
        init,
        terminal,
        view,
        goal,
        after,
        full,
        atom_slot: slot,
    })
}

/// A natural order of ground terms: integers numerically first, then by
/// name (a constant before the compound terms of the same name), then
/// argument by argument.
fn compare_terms(g: &Ground, a: TermId, b: TermId) -> std::cmp::Ordering {
    use crate::ground::GTerm;
    use std::cmp::Ordering;
    let split = |t: TermId| match g.terms.term(t) {
        GTerm::Int(_) => (None, &[][..]),
        GTerm::Sym(s) => (Some(g.symbols.name(*s)), &[][..]),
        GTerm::App(f, args) => (Some(g.symbols.name(*f)), &args[..]),
    };
    match (g.terms.term(a), g.terms.term(b)) {
        (GTerm::Int(x), GTerm::Int(y)) => return x.cmp(y),
        (GTerm::Int(_), _) => return Ordering::Less,
        (_, GTerm::Int(_)) => return Ordering::Greater,
        _ => {}
    }
    let ((fa, xs), (fb, ys)) = (split(a), split(b));
    natural(fa.unwrap_or(""), fb.unwrap_or(""))
        .then(xs.len().cmp(&ys.len()))
        .then_with(|| {
            xs.iter()
                .zip(ys)
                .map(|(&x, &y)| compare_terms(g, x, y))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        })
}

/// Names compared as numbers when both are (KIF numbers are symbols).
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}
