//! A naive reference evaluator of GDL, written independently of
//! `src/ground` and `src/engine`, for differential tests.
//!
//! In: a parsed KIF [`Program`] (the AST is shared with tabula, nothing
//! else). Out: for a state given as a set of ground facts (plus, for `next`,
//! the moves made), the true instances of any relation.
//! Holds: evaluation is bottom-up and stratified, directly over the
//! non-ground rules: strongly connected component by component of the
//! dependency graph, in order, recursive ones iterated to a fixpoint; a rule's body
//! is solved left to right by matching positive literals against the facts
//! found so far, and `not`/`distinct` wait until their variables are bound.
//! No grounding, no compilation, no cleverness: slow but easy to trust.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use tabula::syntax::{self, CmpOp, Literal, Program, SourceMap, Syntax, TermKind};

/// A term: constants, variables and function applications, by name.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum T {
    Var(String),
    Sym(String),
    App(String, Vec<T>),
}

impl fmt::Display for T {
    /// KIF printing, as GDL systems (and tabula on `.kif` games) print terms.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            T::Var(v) | T::Sym(v) => f.write_str(v),
            T::App(name, args) => {
                write!(f, "({name}")?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl T {
    pub fn sym(s: &str) -> T {
        T::Sym(s.to_string())
    }

    fn vars(&self, out: &mut Vec<String>) {
        match self {
            T::Var(v) => out.push(v.clone()),
            T::Sym(_) => {}
            T::App(_, args) => args.iter().for_each(|a| a.vars(out)),
        }
    }

    /// The term with every bound variable replaced; unbound ones stay.
    fn subst(&self, env: &Env) -> T {
        match self {
            T::Var(v) => lookup(env, v).cloned().unwrap_or_else(|| self.clone()),
            T::Sym(_) => self.clone(),
            T::App(f, args) => T::App(f.clone(), args.iter().map(|a| a.subst(env)).collect()),
        }
    }

    fn is_ground(&self) -> bool {
        match self {
            T::Var(_) => false,
            T::Sym(_) => true,
            T::App(_, args) => args.iter().all(T::is_ground),
        }
    }
}

/// A body literal.
#[derive(Clone, Debug)]
enum Lit {
    Pos(String, Vec<T>),
    Not(Box<Lit>),
    Distinct(T, T),
    /// A disjunction of conjunctions.
    Or(Vec<Vec<Lit>>),
}

impl Lit {
    fn vars(&self, out: &mut Vec<String>) {
        match self {
            Lit::Pos(_, args) => args.iter().for_each(|a| a.vars(out)),
            Lit::Not(l) => l.vars(out),
            Lit::Distinct(a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Lit::Or(alts) => alts.iter().flatten().for_each(|l| l.vars(out)),
        }
    }

    /// Relations used, each with whether it is used under a negation.
    fn deps(&self, negated: bool, out: &mut Vec<(String, bool)>) {
        match self {
            Lit::Pos(rel, _) => out.push((rel.clone(), negated)),
            Lit::Not(l) => l.deps(true, out),
            Lit::Distinct(..) => {}
            Lit::Or(alts) => alts.iter().flatten().for_each(|l| l.deps(negated, out)),
        }
    }
}

#[derive(Clone, Debug)]
struct Rule {
    rel: String,
    args: Vec<T>,
    body: Vec<Lit>,
}

/// Variable bindings, undone by truncation on backtracking.
type Env = Vec<(String, T)>;

fn lookup<'a>(env: &'a Env, v: &str) -> Option<&'a T> {
    env.iter().rev().find(|(w, _)| w == v).map(|(_, t)| t)
}

/// Matches a pattern against a ground term, extending `env`. On failure
/// `env` may hold partial bindings: the caller truncates.
fn matches(pattern: &T, ground: &T, env: &mut Env) -> bool {
    match (pattern, ground) {
        (T::Var(v), _) => match lookup(env, v) {
            Some(bound) => bound == ground,
            None => {
                env.push((v.clone(), ground.clone()));
                true
            }
        },
        (T::Sym(a), T::Sym(b)) => a == b,
        (T::App(f, xs), T::App(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| matches(x, y, env))
        }
        _ => false,
    }
}

/// The true facts of one relation, with an index on every argument
/// position (a lookup by any bound argument is then a hash probe).
#[derive(Default, Debug)]
pub struct Rel {
    set: HashSet<Vec<T>>,
    rows: Vec<Vec<T>>,
    by_arg: Vec<HashMap<T, Vec<usize>>>,
}

impl Rel {
    fn insert(&mut self, tuple: Vec<T>) {
        if self.set.contains(&tuple) {
            return;
        }
        if self.by_arg.len() < tuple.len() {
            self.by_arg.resize_with(tuple.len(), HashMap::new);
        }
        for (i, a) in tuple.iter().enumerate() {
            self.by_arg[i]
                .entry(a.clone())
                .or_default()
                .push(self.rows.len());
        }
        self.rows.push(tuple.clone());
        self.set.insert(tuple);
    }

    pub fn contains(&self, tuple: &[T]) -> bool {
        self.set.contains(tuple)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Vec<T>> {
        self.rows.iter()
    }

    /// Rows that may match `pattern`: those sharing its first ground
    /// argument, or all of them.
    fn candidates(&self, pattern: &[T]) -> Vec<usize> {
        for (i, p) in pattern.iter().enumerate() {
            if p.is_ground() {
                return self
                    .by_arg
                    .get(i)
                    .and_then(|m| m.get(p))
                    .cloned()
                    .unwrap_or_default();
            }
        }
        (0..self.rows.len()).collect()
    }
}

/// The true facts of every relation: relation name to its ground tuples.
pub type Db = HashMap<String, Rel>;

/// A state: its set of true facts.
pub type Facts = BTreeSet<T>;

/// What holds in one state, without moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub terminal: bool,
    /// Role to its legal moves.
    pub legal: BTreeMap<T, BTreeSet<T>>,
    /// Role to every goal value that holds for it.
    pub goals: BTreeMap<T, BTreeSet<T>>,
    /// Move of the `random` role to every weight that holds for it.
    pub weights: BTreeMap<T, BTreeSet<T>>,
}

pub struct Oracle {
    rules: Vec<Rule>,
    /// Rule indices component by component, in an order where each only
    /// needs earlier ones, each with whether it is recursive.
    levels: Vec<(Vec<usize>, bool)>,
    /// Relations each relation's rules use.
    uses: HashMap<String, BTreeSet<String>>,
    /// The relations that do not depend on the state, and their facts.
    fixed_rels: HashSet<String>,
    fixed: Db,
    /// Roles in the order of the program's `role` facts.
    pub roles: Vec<T>,
}

fn term(t: &syntax::Term, p: &Program) -> T {
    match &t.kind {
        TermKind::Var(v) => T::Var(p.symbols.name(*v).to_string()),
        TermKind::Const(c) => T::Sym(p.symbols.name(*c).to_string()),
        TermKind::Int(i) => T::Sym(i.to_string()),
        TermKind::App(f, args) => T::App(
            p.symbols.name(*f).to_string(),
            args.iter().map(|a| term(a, p)).collect(),
        ),
        TermKind::Arith(..) => panic!("oracle: arithmetic is not GDL"),
    }
}

fn literal(l: &Literal, p: &Program) -> Lit {
    match l {
        Literal::Pos(a) => Lit::Pos(
            p.symbols.name(a.rel).to_string(),
            a.args.iter().map(|t| term(t, p)).collect(),
        ),
        Literal::Not(inner, _) => Lit::Not(Box::new(literal(inner, p))),
        Literal::Cmp(CmpOp::Ne, a, b, _) => Lit::Distinct(term(a, p), term(b, p)),
        Literal::Cmp(op, ..) => panic!("oracle: comparison {} is not GDL", op.as_str()),
        Literal::Or(alts, _) => Lit::Or(
            alts.iter()
                .map(|c| c.iter().map(|l| literal(l, p)).collect())
                .collect(),
        ),
    }
}

impl Oracle {
    /// Reads a game in KIF.
    pub fn from_kif(text: &str) -> Oracle {
        let mut sources = SourceMap::default();
        let program = syntax::parse_str(&mut sources, "oracle.kif", text, Syntax::Kif)
            .unwrap_or_else(|e| panic!("oracle: the game does not parse: {e:?}"));
        Oracle::new(&program)
    }

    pub fn new(p: &Program) -> Oracle {
        let rules: Vec<Rule> = p
            .rules
            .iter()
            .map(|r| Rule {
                rel: p.symbols.name(r.head.rel).to_string(),
                args: r.head.args.iter().map(|t| term(t, p)).collect(),
                body: r.body.iter().map(|l| literal(l, p)).collect(),
            })
            .collect();
        // Evaluation order. `uses` is the dependency graph; two relations
        // are in one strongly connected component when each reaches the
        // other. level(head) >= level(used) inside a component, and
        // > across components, so each level only needs lower levels and
        // itself. Negation inside a component is recursion through negation.
        let mut deps = Vec::new();
        let mut uses: HashMap<String, BTreeSet<String>> = HashMap::new();
        for r in &rules {
            let mut d = Vec::new();
            r.body.iter().for_each(|l| l.deps(false, &mut d));
            for (rel, _) in &d {
                uses.entry(r.rel.clone()).or_default().insert(rel.clone());
            }
            deps.push((r.rel.clone(), d));
        }
        let reaches = |from: &str| -> HashSet<String> {
            let mut seen = HashSet::new();
            let mut stack: Vec<&String> = uses.get(from).into_iter().flatten().collect();
            while let Some(r) = stack.pop() {
                if seen.insert(r.clone()) {
                    stack.extend(uses.get(r).into_iter().flatten());
                }
            }
            seen
        };
        let reach: HashMap<String, HashSet<String>> = rules
            .iter()
            .map(|r| (r.rel.clone(), reaches(&r.rel)))
            .collect();
        let mut level: HashMap<String, usize> = rules.iter().map(|r| (r.rel.clone(), 0)).collect();
        loop {
            let mut changed = false;
            for (head, d) in &deps {
                for (rel, neg) in d {
                    // head uses rel, so they share a component iff rel
                    // reaches head.
                    let same = reach.get(rel).is_some_and(|s| s.contains(head));
                    assert!(!(same && *neg), "oracle: {head} recurses through negation");
                    let need = level.get(rel).copied().unwrap_or(0) + usize::from(!same);
                    let l = level.get_mut(head).expect("every head has a level");
                    if *l < need {
                        *l = need;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // Each component's rules are evaluated together, components in
        // order of level; a component is named by its least relation.
        let component = |rel: &str| -> String {
            let mut names: Vec<&str> = reach[rel]
                .iter()
                .filter(|o| reach.get(*o).is_some_and(|s| s.contains(rel)))
                .map(String::as_str)
                .collect();
            names.push(rel);
            names.into_iter().min().unwrap_or(rel).to_string()
        };
        let mut groups: BTreeMap<(usize, String), Vec<usize>> = BTreeMap::new();
        for (i, r) in rules.iter().enumerate() {
            groups
                .entry((level[&r.rel], component(&r.rel)))
                .or_default()
                .push(i);
        }
        let levels = groups
            .into_values()
            .map(|ids| {
                let recursive = ids
                    .iter()
                    .any(|&i| reach[&rules[i].rel].contains(&rules[i].rel));
                (ids, recursive)
            })
            .collect();
        // Relations that depend on neither `true` nor `does` are the same in
        // every state: computed once.
        let fixed_rels: HashSet<String> = reach
            .iter()
            .filter(|(_, r)| !r.contains("true") && !r.contains("does"))
            .map(|(rel, _)| rel.clone())
            .collect();
        let mut oracle = Oracle {
            rules,
            levels,
            uses,
            roles: Vec::new(),
            fixed: Db::new(),
            fixed_rels: HashSet::new(),
        };
        let all: Vec<&str> = fixed_rels.iter().map(String::as_str).collect();
        oracle.fixed = oracle.model(&Facts::new(), &[], &all);
        oracle.fixed_rels = fixed_rels;
        // Roles in program order (for printing).
        let mut seen = HashSet::new();
        let have = |args: &[T]| oracle.fixed.get("role").is_some_and(|h| h.contains(args));
        let mut roles = Vec::new();
        for r in oracle
            .rules
            .iter()
            .filter(|r| r.rel == "role" && r.body.is_empty())
        {
            if have(&r.args) && seen.insert(r.args[0].clone()) {
                roles.push(r.args[0].clone());
            }
        }
        oracle.roles = roles;
        oracle
    }

    /// Every relation the given ones depend on, themselves included.
    fn cone(&self, wanted: &[&str]) -> HashSet<String> {
        let mut out: HashSet<String> = HashSet::new();
        let mut stack: Vec<String> = wanted.iter().map(|s| s.to_string()).collect();
        while let Some(r) = stack.pop() {
            if out.insert(r.clone()) {
                stack.extend(self.uses.get(&r).into_iter().flatten().cloned());
            }
        }
        out
    }

    /// The model of the rules the `wanted` relations depend on, given the
    /// true facts of a state and the moves made (role, move). The state
    /// independent relations stay in `self.fixed`; look up through
    /// [`Tables`].
    pub fn model(&self, state: &Facts, moves: &[(T, T)], wanted: &[&str]) -> Db {
        let mut live: Db = HashMap::new();
        let truth = live.entry("true".into()).or_default();
        state.iter().for_each(|f| truth.insert(vec![f.clone()]));
        let does = live.entry("does".into()).or_default();
        moves
            .iter()
            .for_each(|(r, m)| does.insert(vec![r.clone(), m.clone()]));
        let cone = self.cone(wanted);
        for (ids, recursive) in &self.levels {
            let rules: Vec<&Rule> = ids
                .iter()
                .map(|&i| &self.rules[i])
                .filter(|r| r.rel != "true" && r.rel != "does")
                .filter(|r| cone.contains(&r.rel) && !self.fixed_rels.contains(&r.rel))
                .collect();
            loop {
                let mut new = Vec::new();
                let db = Tables {
                    fixed: &self.fixed,
                    live: &live,
                };
                for r in &rules {
                    let body: Vec<&Lit> = r.body.iter().collect();
                    let mut env = Env::new();
                    solve(&db, &body, &mut env, &mut |env| {
                        let args: Vec<T> = r.args.iter().map(|a| a.subst(env)).collect();
                        assert!(
                            args.iter().all(T::is_ground),
                            "oracle: unsafe rule for {}",
                            r.rel
                        );
                        if !db.get(&r.rel).is_some_and(|set| set.contains(&args)) {
                            new.push((r.rel.clone(), args));
                        }
                    });
                }
                if new.is_empty() {
                    break;
                }
                for (rel, args) in new {
                    live.entry(rel).or_default().insert(args);
                }
                if !recursive {
                    break;
                }
            }
        }
        live
    }

    fn tables<'a>(&'a self, live: &'a Db) -> Tables<'a> {
        Tables {
            fixed: &self.fixed,
            live,
        }
    }

    pub fn initial(&self) -> Facts {
        let live = self.model(&Facts::new(), &[], &["init"]);
        let db = self.tables(&live);
        tuples(&db, "init").map(|t| t[0].clone()).collect()
    }

    /// Terminal, legal moves, goals and chance weights of a state.
    pub fn view(&self, state: &Facts) -> View {
        let live = self.model(state, &[], &["terminal", "legal", "goal", "weight"]);
        let db = self.tables(&live);
        let pairs = |rel: &str| {
            let mut m: BTreeMap<T, BTreeSet<T>> = BTreeMap::new();
            for t in tuples(&db, rel).filter(|t| t.len() == 2) {
                m.entry(t[0].clone()).or_default().insert(t[1].clone());
            }
            m
        };
        let mut legal = pairs("legal");
        for r in &self.roles {
            legal.entry(r.clone()).or_default();
        }
        legal.retain(|r, _| self.roles.contains(r));
        let mut goals = pairs("goal");
        goals.retain(|r, _| self.roles.contains(r));
        let mut weights = pairs("weight");
        let random_moves = legal.get(&T::sym("random")).cloned().unwrap_or_default();
        weights.retain(|m, _| random_moves.contains(m));
        View {
            terminal: tuples(&db, "terminal").next().is_some(),
            legal,
            goals,
            weights,
        }
    }

    /// The state after the given moves, one (role, move) per role.
    pub fn next(&self, state: &Facts, moves: &[(T, T)]) -> Facts {
        let live = self.model(state, moves, &["next"]);
        let db = self.tables(&live);
        tuples(&db, "next").map(|t| t[0].clone()).collect()
    }

    /// Every joint move of a view's legal moves, roles in `self.roles` order.
    pub fn joint_moves(&self, view: &View) -> Vec<Vec<(T, T)>> {
        let mut out: Vec<Vec<(T, T)>> = vec![Vec::new()];
        for r in &self.roles {
            let moves = &view.legal[r];
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    moves.iter().map(move |m| {
                        let mut j = prefix.clone();
                        j.push((r.clone(), m.clone()));
                        j
                    })
                })
                .collect();
        }
        out
    }

    /// Perft by brute force: leaves and distinct states at each depth
    /// 0..=depth, walking every joint-move sequence (no transpositions
    /// merged), terminal states not expanded.
    pub fn perft(&self, depth: u32) -> Vec<(u128, u64)> {
        let mut leaves = vec![0u128; depth as usize + 1];
        let mut states = vec![HashSet::new(); depth as usize + 1];
        self.walk(&self.initial(), 0, depth, &mut leaves, &mut states);
        leaves
            .into_iter()
            .zip(states)
            .map(|(l, s)| (l, s.len() as u64))
            .collect()
    }

    fn walk(
        &self,
        state: &Facts,
        d: u32,
        depth: u32,
        leaves: &mut [u128],
        states: &mut [HashSet<Facts>],
    ) {
        leaves[d as usize] += 1;
        states[d as usize].insert(state.clone());
        if d == depth {
            return;
        }
        let view = self.view(state);
        if view.terminal {
            return;
        }
        for joint in self.joint_moves(&view) {
            self.walk(&self.next(state, &joint), d + 1, depth, leaves, states);
        }
    }
}

/// The state-independent relations and those of one state, as one database.
pub struct Tables<'a> {
    fixed: &'a Db,
    live: &'a Db,
}

impl Tables<'_> {
    fn get(&self, rel: &str) -> Option<&Rel> {
        self.live.get(rel).or_else(|| self.fixed.get(rel))
    }
}

fn tuples<'a>(db: &'a Tables, rel: &str) -> impl Iterator<Item = &'a Vec<T>> {
    db.get(rel).into_iter().flat_map(Rel::iter)
}

fn bound(l: &Lit, env: &Env) -> bool {
    let mut vs = Vec::new();
    l.vars(&mut vs);
    vs.iter().all(|v| lookup(env, v).is_some())
}

/// Calls `out` with every extension of `env` satisfying the conjunction.
/// Negations and `distinct` are taken as soon as their variables are bound
/// (GDL's safety rule guarantees that happens); positive atoms and `or`
/// are taken left to right.
fn solve(db: &Tables, lits: &[&Lit], env: &mut Env, out: &mut dyn FnMut(&Env)) {
    if lits.is_empty() {
        out(env);
        return;
    }
    let ready = |l: &&Lit| matches!(l, Lit::Not(_) | Lit::Distinct(..)) && bound(l, env);
    let i = lits
        .iter()
        .position(ready)
        .or_else(|| {
            lits.iter()
                .position(|l| matches!(l, Lit::Pos(..) | Lit::Or(_)))
        })
        .unwrap_or_else(|| panic!("oracle: unsafe body, unbound variables in {lits:?}"));
    let rest: Vec<&Lit> = lits
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, l)| *l)
        .collect();
    match lits[i] {
        Lit::Pos(rel, args) => {
            let Some(table) = db.get(rel) else { return };
            let pattern: Vec<T> = args.iter().map(|a| a.subst(env)).collect();
            for row in table.candidates(&pattern) {
                let tuple = &table.rows[row];
                let mark = env.len();
                if tuple.len() == args.len()
                    && args.iter().zip(tuple).all(|(a, t)| matches(a, t, env))
                {
                    solve(db, &rest, env, out);
                }
                env.truncate(mark);
            }
        }
        Lit::Not(inner) => {
            let mut found = false;
            let mark = env.len();
            solve(db, &[inner.as_ref()], env, &mut |_| found = true);
            env.truncate(mark);
            if !found {
                solve(db, &rest, env, out);
            }
        }
        Lit::Distinct(a, b) => {
            if a.subst(env) != b.subst(env) {
                solve(db, &rest, env, out);
            }
        }
        Lit::Or(alts) => {
            for alt in alts {
                let lits: Vec<&Lit> = alt.iter().chain(rest.iter().copied()).collect();
                let mark = env.len();
                solve(db, &lits, env, out);
                env.truncate(mark);
            }
        }
    }
}
