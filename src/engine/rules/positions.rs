//! The rule evaluator's domains computed per argument position, for games
//! whose relaxed model is too large to ground: a rule whose body reads
//! several independent facts (two pieces' four coordinates, a move of six
//! coordinates) makes the product of their values in a join, and here
//! no join is made.
//!
//! In: a game's prepared [`Rules`](super::Rules) and term table. Out: a
//! [`Domain`] (every base fact a state may hold, every move a role may
//! make). Holds: the static relations (reading neither `true` nor `does`)
//! are answered exactly by the rule evaluator, negation included, each
//! within [`STATIC_WORK`] (past it the first attempt fails, and the last
//! gives that relation values per position like the others); every
//! other relation of the positive cone of `legal` and `next` gets one set
//! of values per argument position, the least fixpoint of two steps. A
//! variable of a rule ranges over the values that every positive body
//! literal allows at its places, narrowed by the comparisons of that one
//! variable and bound by `X = Expr`; each head argument takes the values
//! of its pattern over the product of its own variables' ranges (a `legal`
//! head over the product of both arguments', so a move keeps its role).
//! Negation and comparisons of several variables are ignored, so the
//! relaxed model's facts and moves are all in the result and evaluation
//! stays exact. An aggregate that changes with the state has no bounded
//! values here: such a game is left to the relaxed model.

use super::domain::Domain;
use super::eval::Evaluator;
use super::{Level, RuleGame};
use crate::gdl::{Names, Relation};
use crate::ground::prepare::{Pat, Prepared};
use crate::ground::{GTerm, GroundStats, Limits, TermId, TermTable};
use crate::syntax::CmpOp;
use indexmap::IndexSet;
use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

type Values = IndexSet<TermId, FxBuildHasher>;

/// The values of one variable of a rule: unknown until a literal or a
/// binding names them.
type Range = Option<Vec<TermId>>;

/// A sixteenth of the grounder's limits: the domains per position are
/// tried first within these, so a game they would swell is found fast.
pub fn small(limits: &Limits) -> Limits {
    Limits {
        max_atoms: limits.max_atoms / 16,
        max_work: limits.max_work / 16,
        ..*limits
    }
}

/// Computes the domains of `game` per argument position (its `base` and
/// moves are not read); the terms the domains name are added to
/// `game.terms`. `Err` says why the game needs the relaxed model instead.
pub fn domain_by_position(
    game: &mut RuleGame,
    limits: &Limits,
    loosen: bool,
) -> Result<Domain, String> {
    let rules = &game.rules;
    // A static relation too large to answer exactly gets values per
    // position too (the direction between every two points of a 51 by 51
    // grid: millions of answers).
    let mut loose = vec![false; rules.rels.len()];
    let (
        cone,
        Exact {
            places,
            holds,
            pairs,
            terms,
        },
    ) = loop {
        let cone = positive_cone(game, &loose);
        match exact_statics(game, &cone, &loose)? {
            Ok(exact) => break (cone, exact),
            Err(rel) if loosen => loose[rel as usize] = true,
            Err(rel) => {
                let name = game.symbols.name(rules.rels[rel as usize].0);
                return Err(format!(
                    "the static relation `{name}` has more answers than the domains per \
                     position take exactly"
                ));
            }
        }
    };
    let mut run = Run {
        terms,
        places,
        holds,
        pairs,
        changed_at: vec![0; rules.rels.len()],
        tick: 1,
        work: 0,
        limits: *limits,
        values: 0,
        copies: [rules.special.truth, rules.special.does],
        moves_per_role: FxHashMap::default(),
        last_sizes: vec![None; rules.rules.len()],
    };
    run.bridge(game);
    let dynamic: Vec<usize> = (0..rules.rules.len())
        .filter(|&r| {
            let head = rules.rules[r].head.rel;
            let rel = rules.rel_ids[&head] as usize;
            cone[rel] && (rules.level[rel] != Level::Static || loose[rel])
        })
        .collect();
    let mut last_run = vec![0u64; rules.rules.len()];
    let mut rounds = 0;
    loop {
        let mut grew = false;
        for &r in &dynamic {
            let due = last_run[r] == 0
                || (rules.pos_rels[r].iter()).any(|&b| run.changed_at[b as usize] >= last_run[r]);
            if !due {
                continue;
            }
            last_run[r] = run.tick;
            grew |= run.rule(game, r)?;
        }
        if !grew {
            break;
        }
        rounds += 1;
        if rounds > limits.max_rounds {
            return Err("the domains still grow".to_string());
        }
    }
    let Run {
        terms,
        places,
        pairs,
        values,
        ..
    } = run;
    let mut base: Vec<TermId> = match rules.special.truth {
        Some(t) => places[t as usize][0].iter().copied().collect(),
        None => Vec::new(),
    };
    super::domain::sort_naturally(&mut base, &terms, &game.symbols);
    let stats = GroundStats {
        atoms: values,
        rules: 0,
        terms: terms.len(),
    };
    game.terms = terms;
    Ok(Domain {
        base,
        moves: pairs.into_iter().collect(),
        stats,
    })
}

type Pairs = IndexSet<(TermId, TermId), FxBuildHasher>;

/// Candidate facts the exact answers of one static relation may cost
/// before it gets values per position instead.
const STATIC_WORK: u64 = 1_000_000;

/// The static relations' answers: per relation, per argument position,
/// the values; whether a relation without arguments holds; the `legal`
/// pairs; the term table they are in.
struct Exact {
    places: Vec<Vec<Values>>,
    holds: Vec<bool>,
    pairs: Pairs,
    terms: TermTable,
}

/// Answers the static relations of `cone` (but the `loose` ones) exactly:
/// one call each with every argument free. `Ok(Err(rel))` for a relation
/// that costs more than [`STATIC_WORK`] (not an aggregate's: the values
/// per position do not fold aggregates).
fn exact_statics(
    game: &RuleGame,
    cone: &[bool],
    loose: &[bool],
) -> Result<Result<Exact, u32>, String> {
    let rules = &game.rules;
    let mut places: Vec<Vec<Values>> = (rules.rels.iter())
        .map(|&(_, arity)| vec![Values::default(); arity])
        .collect();
    let mut holds = vec![false; rules.rels.len()];
    let mut statics = Vec::new();
    for (rel, &in_cone) in cone.iter().enumerate() {
        if !in_cone {
            continue;
        }
        let is_aggregate = rules.agg_of.contains_key(&(rel as u32)) || rules.guard[rel];
        match rules.level[rel] {
            Level::Static if !loose[rel] => statics.push((rel as u32, is_aggregate)),
            Level::Static => {}
            _ if is_aggregate => {
                return Err("an aggregate that changes with the state".to_string());
            }
            _ => {}
        }
    }
    let mut pairs: Pairs = Pairs::default();
    let mut eval = Evaluator::new(game, game.terms.clone());
    eval.load(&[0]);
    for &(rel, is_aggregate) in &statics {
        let arity = rules.rels[rel as usize].1;
        eval.set_work_cap(eval.work().saturating_add(STATIC_WORK));
        let answers = match eval.ask(rel, &vec![None; arity]) {
            Ok(answers) => answers,
            Err(_) if !is_aggregate => return Ok(Err(rel)),
            Err(stop) => return Err(stop.to_string()),
        };
        holds[rel as usize] = !answers.is_empty();
        for answer in answers.chunks(arity.max(1)).filter(|_| arity > 0) {
            for (p, &t) in answer.iter().enumerate() {
                places[rel as usize][p].insert(t);
            }
            if Some(rel) == rules.special.legal {
                pairs.insert((answer[0], answer[1]));
            }
        }
    }
    Ok(Ok(Exact {
        places,
        holds,
        pairs,
        terms: eval.into_terms(),
    }))
}

/// The relations `legal` and `next` depend on through positive literals
/// (`true` and `does` through `init`, `next` and `legal`), by number; what
/// a static relation reads only if it is `loose`.
fn positive_cone(game: &RuleGame, loose: &[bool]) -> Vec<bool> {
    let rules = &game.rules;
    let s = &rules.special;
    let init = init_relation(game);
    let mut cone = vec![false; rules.rels.len()];
    let mut stack: Vec<u32> = [s.legal, s.next, s.truth, s.does, init]
        .into_iter()
        .flatten()
        .collect();
    while let Some(rel) = stack.pop() {
        // A static relation is answered exactly: what it reads is not needed.
        if std::mem::replace(&mut cone[rel as usize], true)
            || (rules.level[rel as usize] == Level::Static && !loose[rel as usize])
        {
            continue;
        }
        for &r in &rules.by_head[rel as usize] {
            stack.extend(&rules.pos_rels[r as usize]);
        }
        if let Some(&k) = rules.agg_of.get(&rel) {
            stack.extend([rules.aggs[k].facts, rules.aggs[k].domain]);
        }
        let feeds: &[Option<u32>] = match Some(rel) {
            r if r == s.truth => &[s.next, init],
            r if r == s.does => &[s.legal],
            _ => &[],
        };
        stack.extend(feeds.iter().flatten());
    }
    cone
}

/// The number of `init`, if the program has it.
fn init_relation(game: &RuleGame) -> Option<u32> {
    let init = Names::new(&game.symbols).sym(Relation::Init)?;
    game.rules.relation((init, 1))
}

/// The fixpoint's state.
struct Run {
    terms: TermTable,
    /// Per relation, per argument position, its values.
    places: Vec<Vec<Values>>,
    /// Per relation without arguments, whether it can hold.
    holds: Vec<bool>,
    /// Every (role, move) a `legal` head can name.
    pairs: Pairs,
    /// Per relation, the tick of its last new value.
    changed_at: Vec<u64>,
    tick: u64,
    /// Values tried, against the grounder's work limit.
    work: u64,
    limits: Limits,
    /// Values held in all, against the grounder's atom limit.
    values: usize,
    /// The relations `true` and `does`.
    copies: [Option<u32>; 2],
    /// How many moves each role has.
    moves_per_role: FxHashMap<TermId, usize>,
    /// Per rule, the sizes of its variables' ranges when its head was last
    /// instantiated.
    last_sizes: Vec<Option<Vec<usize>>>,
}

impl Run {
    /// `true` takes the values of `init` and `next`, `does` those of `legal`.
    fn bridge(&mut self, game: &RuleGame) {
        let s = &game.rules.special;
        let init = init_relation(game);
        for (to, from) in [(s.truth, init), (s.truth, s.next), (s.does, s.legal)] {
            let (Some(to), Some(from)) = (to, from) else {
                continue;
            };
            for p in 0..self.places[from as usize].len() {
                let values: Vec<TermId> = self.places[from as usize][p].iter().copied().collect();
                for v in values {
                    self.add(to, p, v);
                }
            }
        }
    }

    /// Adds a value at place `p` of `rel`; whether it is new. The values
    /// of `true` and `does`, copies of others, are not counted.
    fn add(&mut self, rel: u32, p: usize, value: TermId) -> bool {
        let added = self.places[rel as usize][p].insert(value);
        if added {
            self.values += usize::from(!self.copies.contains(&Some(rel)));
            self.changed_at[rel as usize] = self.tick;
            self.tick += 1;
        }
        added
    }

    fn count(&mut self, n: usize) -> Result<(), String> {
        self.work += n as u64;
        if self.work > self.limits.max_work {
            return Err("the domains' work limit was reached".to_string());
        }
        if self.values > self.limits.max_atoms {
            return Err("the domains hold too many values".to_string());
        }
        Ok(())
    }

    /// Runs rule `r` once on the current values; whether a head value is new.
    fn rule(&mut self, game: &RuleGame, r: usize) -> Result<bool, String> {
        let rules = &game.rules;
        let rule = &rules.rules[r];
        let mut ranges: Vec<Range> = vec![None; rule.vars];
        for (atom, &rel) in rule.pos.iter().zip(&rules.pos_rels[r]) {
            if rules.guard[rel as usize] {
                continue;
            }
            if atom.args.is_empty() && !self.holds[rel as usize] {
                return Ok(false);
            }
            for (p, pat) in atom.args.iter().enumerate() {
                let values = &self.places[rel as usize][p];
                let found = project(pat, values.iter().copied(), rule.vars, &self.terms);
                self.count(values.len())?;
                if !narrow(&mut ranges, found) {
                    return Ok(false);
                }
            }
        }
        if !self.compare(rule, &mut ranges)? {
            return Ok(false);
        }
        // Ranges only grow: the same sizes as last time are the same ranges.
        let sizes: Vec<usize> = ranges
            .iter()
            .map(|r| r.as_ref().map_or(0, Vec::len))
            .collect();
        if self.last_sizes[r].as_ref() == Some(&sizes) {
            return Ok(false);
        }
        self.last_sizes[r] = Some(sizes);
        let head = rules.rel_ids[&rule.head.rel];
        let mut grew = false;
        if rule.head.args.is_empty() && !std::mem::replace(&mut self.holds[head as usize], true) {
            grew = true;
            self.changed_at[head as usize] = self.tick;
            self.tick += 1;
        }
        let special = &rules.special;
        let mut by_place = Vec::with_capacity(rule.head.args.len());
        for (p, pat) in rule.head.args.iter().enumerate() {
            let values: Vec<TermId> = (self.instances(std::slice::from_ref(pat), &ranges)?)
                .into_iter()
                .map(|v| v[0])
                .collect();
            for &value in &values {
                if self.add(head, p, value) {
                    grew = true;
                    let also = match Some(head) {
                        h if h == special.next => special.truth,
                        h if h == special.legal => special.does,
                        _ => None,
                    };
                    if let Some(to) = also {
                        self.add(to, p, value);
                    }
                }
            }
            by_place.push(values);
        }
        if Some(head) == special.legal {
            let mut role_vars = Vec::new();
            rule.head.args[0].vars(&mut role_vars);
            let mut move_vars = Vec::new();
            rule.head.args[1].vars(&mut move_vars);
            // Unless the role and the move share a variable, every pair.
            let pairs: Vec<Vec<TermId>> = match role_vars.iter().any(|v| move_vars.contains(v)) {
                true => self.instances(&rule.head.args, &ranges)?,
                false => (by_place[0].iter())
                    .flat_map(|&role| by_place[1].iter().map(move |&m| vec![role, m]))
                    .collect(),
            };
            for pair in pairs {
                if self.pairs.insert((pair[0], pair[1])) {
                    grew = true;
                    let moves = self.moves_per_role.entry(pair[0]).or_default();
                    *moves += 1;
                    if *moves > self.limits.max_atoms {
                        return Err("a role has too many moves".to_string());
                    }
                }
            }
        }
        Ok(grew)
    }

    /// Applies the comparisons: `X = Expr` gives `X` the values of `Expr`
    /// over its variables' ranges; one of a single variable keeps the
    /// values that satisfy it. Whether every range is still non-empty.
    fn compare(&mut self, rule: &Prepared, ranges: &mut [Range]) -> Result<bool, String> {
        let mut done = vec![false; rule.cmps.len()];
        loop {
            let mut progressed = false;
            for (c, cmp) in rule.cmps.iter().enumerate() {
                if done[c] {
                    continue;
                }
                let mut vars = Vec::new();
                cmp.left.vars(&mut vars);
                cmp.right.vars(&mut vars);
                vars.sort_unstable();
                vars.dedup();
                let known = |p: &Pat| {
                    let mut vs = Vec::new();
                    p.vars(&mut vs);
                    vs.iter().all(|&v| ranges[v as usize].is_some())
                };
                let (left, right) = (known(&cmp.left), known(&cmp.right));
                if cmp.op == CmpOp::Eq && !cmp.negated && left != right {
                    let (target, source) = match left {
                        true => (&cmp.right, &cmp.left),
                        false => (&cmp.left, &cmp.right),
                    };
                    let values = self.instances(std::slice::from_ref(source), ranges)?;
                    let values: Vec<TermId> = values.into_iter().map(|v| v[0]).collect();
                    self.count(values.len())?;
                    let found = project(target, values.into_iter(), rule.vars, &self.terms);
                    if !narrow(ranges, found) {
                        return Ok(false);
                    }
                    (done[c], progressed) = (true, true);
                } else if left && right && vars.len() == 1 {
                    let v = vars[0] as usize;
                    let mut env = vec![None; rule.vars];
                    let range = ranges[v].take().unwrap_or_default();
                    self.count(range.len())?;
                    let kept: Vec<TermId> = (range.into_iter())
                        .filter(|&value| {
                            env[v] = Some(value);
                            let sides = (
                                build(&cmp.left, &env, &mut self.terms),
                                build(&cmp.right, &env, &mut self.terms),
                            );
                            let holds = match sides {
                                (Some(a), Some(b)) => self.terms.satisfies(cmp.op, a, b),
                                _ => false,
                            };
                            holds != cmp.negated
                        })
                        .collect();
                    if kept.is_empty() {
                        return Ok(false);
                    }
                    ranges[v] = Some(kept);
                    (done[c], progressed) = (true, true);
                } else if left && right {
                    done[c] = true; // several variables: ignored
                }
            }
            if !progressed {
                return Ok(true);
            }
        }
    }

    /// The instances of `pats` over the product of their variables'
    /// ranges (those without a value, as arithmetic that fails, left out).
    fn instances(&mut self, pats: &[Pat], ranges: &[Range]) -> Result<Vec<Vec<TermId>>, String> {
        let mut vars = Vec::new();
        pats.iter().for_each(|p| p.vars(&mut vars));
        vars.sort_unstable();
        vars.dedup();
        let mut size: usize = 1;
        for &v in &vars {
            let Some(range) = &ranges[v as usize] else {
                return Err("a variable that no positive literal binds".to_string());
            };
            size = size.saturating_mul(range.len());
        }
        if size > self.limits.max_atoms {
            return Err("a rule's head has too many instances".to_string());
        }
        self.count(size)?;
        let mut env: Vec<Option<TermId>> = vec![None; ranges.len()];
        let mut at = vec![0usize; vars.len()];
        let mut out = Vec::with_capacity(size);
        if size == 0 {
            return Ok(out);
        }
        'product: loop {
            for (k, &v) in vars.iter().enumerate() {
                env[v as usize] = ranges[v as usize].as_ref().map(|r| r[at[k]]);
            }
            let built: Option<Vec<TermId>> = pats
                .iter()
                .map(|p| build(p, &env, &mut self.terms))
                .collect();
            if let Some(built) = built {
                if built
                    .iter()
                    .any(|&t| self.terms.depth(t) > self.limits.max_term_depth)
                {
                    return Err("a term of the domains nests too deeply".to_string());
                }
                out.push(built);
            }
            for k in (0..vars.len()).rev() {
                at[k] += 1;
                if at[k] < ranges[vars[k] as usize].as_ref().map_or(0, Vec::len) {
                    continue 'product;
                }
                at[k] = 0;
            }
            break;
        }
        Ok(out)
    }
}

/// Per variable of `pat`, the values it takes in the `values` that match
/// `pat` (`None` for a variable `pat` does not bind); `None` in all when
/// no value matches.
fn project(
    pat: &Pat,
    values: impl Iterator<Item = TermId>,
    vars: usize,
    terms: &TermTable,
) -> Option<FxHashMap<u32, FxHashSet<TermId>>> {
    let mut bindable = Vec::new();
    super::plan::bindable(pat, &mut bindable);
    bindable.sort_unstable();
    bindable.dedup();
    let mut found: FxHashMap<u32, FxHashSet<TermId>> = bindable
        .iter()
        .map(|&v| (v, FxHashSet::default()))
        .collect();
    let mut env = vec![None; vars];
    let mut any = false;
    for t in values {
        env.iter_mut().for_each(|e| *e = None);
        if matches(pat, t, &mut env, terms) {
            any = true;
            for &v in &bindable {
                if let (Some(value), Some(set)) = (env[v as usize], found.get_mut(&v)) {
                    set.insert(value);
                }
            }
        }
    }
    any.then_some(found)
}

/// Narrows each variable's range to the values found for it; whether
/// every range is still non-empty (`found` is `None` when nothing matched).
fn narrow(ranges: &mut [Range], found: Option<FxHashMap<u32, FxHashSet<TermId>>>) -> bool {
    let Some(found) = found else {
        return false;
    };
    for (v, values) in found {
        let range = &mut ranges[v as usize];
        *range = Some(match range.take() {
            None => values.into_iter().collect(),
            Some(old) => old.into_iter().filter(|t| values.contains(t)).collect(),
        });
        if range.as_ref().is_some_and(Vec::is_empty) {
            return false;
        }
    }
    true
}

/// Matches a pattern against a ground term, binding its variables in
/// `env`; arithmetic matches anything.
fn matches(p: &Pat, t: TermId, env: &mut [Option<TermId>], terms: &TermTable) -> bool {
    match p {
        Pat::Var(v) => match env[*v as usize] {
            Some(b) => b == t,
            None => {
                env[*v as usize] = Some(t);
                true
            }
        },
        Pat::Ground(g) => *g == t,
        Pat::App(f, args) => match terms.term(t) {
            GTerm::App(g, targs) if g == f && targs.len() == args.len() => (args.iter())
                .zip(targs.iter())
                .all(|(p, &t)| matches(p, t, env, terms)),
            _ => false,
        },
        Pat::Arith(..) => true,
    }
}

/// The ground term of a pattern whose variables `env` binds; `None` if
/// arithmetic has no value.
fn build(p: &Pat, env: &[Option<TermId>], terms: &mut TermTable) -> Option<TermId> {
    match p {
        Pat::Var(v) => env[*v as usize],
        Pat::Ground(t) => Some(*t),
        Pat::App(f, args) => {
            let args: Option<Vec<TermId>> = args.iter().map(|a| build(a, env, terms)).collect();
            Some(terms.intern_app(*f, &args?))
        }
        Pat::Arith(op, a, b) => {
            let a = build(a, env, terms)?;
            let b = build(b, env, terms)?;
            let v = op.apply(terms.int(a)?, terms.int(b)?)?;
            Some(terms.intern(GTerm::Int(v)))
        }
    }
}
