//! A naive reference evaluator of the core language, written independently
//! of `src/ground` and `src/engine`, for differential tests.
//!
//! In: a parsed [`Program`] (the AST is shared with tabula, and a `.rules`
//! game is read and desugared by tabula's reader; nothing else is). Out: for
//! a state given as a set of ground facts (plus, for `next`, the moves made),
//! the true instances of any relation, printed in the game's syntax.
//! Holds: evaluation is bottom-up and stratified, directly over the
//! non-ground rules: strongly connected component by component of the
//! dependency graph, in order, recursive ones iterated to a fixpoint; a rule's body
//! is solved by matching positive literals against the facts found so far,
//! left to right; `not` and comparisons wait until their variables are
//! bound, and `X = Expr` binds `X` once `Expr` is bound. Integers and
//! arithmetic are evaluated here, by the language's definition (`docs/
//! LANGUAGE.md`: `/` and `mod` Euclidean; a division by zero or an overflow
//! has no value, so an atom holding it is false, and so is a comparison;
//! the orderings compare integers only). No grounding, no compilation, no
//! cleverness: slow but easy to trust.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::Path;
use tabula::syntax::{
    self, AggOp, ArithOp, CmpOp, Literal, Program, SourceMap, Symbols, Syntax, TermKind,
};

/// The arithmetic operators, on the oracle's own terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl Op {
    /// The value of `a op b`; `None` for a division by zero or an overflow.
    /// Division and remainder are Euclidean: `-7 / 2 = -4`, `-7 mod 2 = 1`.
    fn eval(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            Op::Div => a.checked_div_euclid(b),
            Op::Mod => a.checked_rem_euclid(b),
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Mod => "mod",
        }
    }
}

/// A term: constants, integers, variables, function applications by name,
/// and (in rules only) arithmetic. A KIF number is a constant, as GDL says.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum T {
    Var(String),
    Sym(String),
    Int(i64),
    App(String, Vec<T>),
    Arith(Op, Box<T>, Box<T>),
}

impl fmt::Display for T {
    /// KIF printing, as GDL systems (and tabula on `.kif` games) print terms.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Syntax::Kif)
    }
}

impl T {
    pub fn sym(s: &str) -> T {
        T::Sym(s.to_string())
    }

    /// The term printed as tabula prints it in `syntax`: `(f a 1)` in KIF,
    /// `f(a, 1)` in the native syntax.
    pub fn show(&self, syntax: Syntax) -> String {
        struct In<'a>(&'a T, Syntax);
        impl fmt::Display for In<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, self.1)
            }
        }
        In(self, syntax).to_string()
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, syntax: Syntax) -> fmt::Result {
        let sub = |t: &T| t.show(syntax);
        match (self, syntax) {
            (T::Var(v) | T::Sym(v), _) => f.write_str(v),
            (T::Int(i), _) => write!(f, "{i}"),
            (T::App(name, args), Syntax::Kif) => {
                write!(f, "({name}")?;
                for a in args {
                    write!(f, " {}", sub(a))?;
                }
                f.write_str(")")
            }
            (T::App(name, args), Syntax::Rules) => {
                let args: Vec<String> = args.iter().map(sub).collect();
                write!(f, "{name}({})", args.join(", "))
            }
            (T::Arith(op, a, b), _) => write!(f, "({} {} {})", sub(a), op.symbol(), sub(b)),
        }
    }

    fn vars(&self, out: &mut Vec<String>) {
        match self {
            T::Var(v) => out.push(v.clone()),
            T::Sym(_) | T::Int(_) => {}
            T::App(_, args) => args.iter().for_each(|a| a.vars(out)),
            T::Arith(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }

    /// The term under `env`: bound variables replaced, arithmetic over
    /// bound operands computed. Unbound variables outside arithmetic stay,
    /// to be bound by matching.
    fn resolve(&self, env: &Env) -> Result<T, Unresolved> {
        match self {
            T::Var(v) => Ok(lookup(env, v).cloned().unwrap_or_else(|| self.clone())),
            T::Sym(_) | T::Int(_) => Ok(self.clone()),
            T::App(f, args) => Ok(T::App(f.clone(), resolve_all(args, env)?)),
            T::Arith(op, a, b) => match (a.resolve(env), b.resolve(env)) {
                (Ok(T::Int(x)), Ok(T::Int(y))) => {
                    op.eval(x, y).map(T::Int).ok_or(Unresolved::Undefined)
                }
                (Ok(x), Ok(y)) if x.is_ground() && y.is_ground() => Err(Unresolved::Undefined),
                (Err(Unresolved::Undefined), _) | (_, Err(Unresolved::Undefined)) => {
                    Err(Unresolved::Undefined)
                }
                _ => Err(Unresolved::Unready),
            },
        }
    }

    /// Whether every variable of the term is bound.
    fn bound(&self, env: &Env) -> bool {
        match self {
            T::Var(v) => lookup(env, v).is_some(),
            T::Sym(_) | T::Int(_) => true,
            T::App(_, args) => args.iter().all(|a| a.bound(env)),
            T::Arith(_, a, b) => a.bound(env) && b.bound(env),
        }
    }

    /// Whether every variable inside arithmetic is bound.
    fn arith_bound(&self, env: &Env) -> bool {
        match self {
            T::Var(_) | T::Sym(_) | T::Int(_) => true,
            T::App(_, args) => args.iter().all(|a| a.arith_bound(env)),
            T::Arith(..) => self.bound(env),
        }
    }

    fn is_ground(&self) -> bool {
        match self {
            T::Var(_) | T::Arith(..) => false,
            T::Sym(_) | T::Int(_) => true,
            T::App(_, args) => args.iter().all(T::is_ground),
        }
    }

    fn has_arith(&self) -> bool {
        match self {
            T::Arith(..) => true,
            T::App(_, args) => args.iter().any(T::has_arith),
            _ => false,
        }
    }
}

/// Why a term has no [`T::resolve`]d form yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Unresolved {
    /// Arithmetic over a variable not bound yet.
    Unready,
    /// Arithmetic without a value.
    Undefined,
}

fn resolve_all(args: &[T], env: &Env) -> Result<Vec<T>, Unresolved> {
    args.iter().map(|a| a.resolve(env)).collect()
}

/// A body literal.
#[derive(Clone, Debug)]
enum Lit {
    Pos(String, Vec<T>),
    Not(Box<Lit>),
    /// A comparison; GDL's `distinct` is `Ne`.
    Cmp(CmpOp, T, T),
    /// A disjunction of conjunctions.
    Or(Vec<Vec<Lit>>),
    /// `result = op value { body }`; `shared` are the variables of the
    /// braces that occur elsewhere in the rule.
    Agg {
        op: AggOp,
        value: Option<T>,
        body: Vec<Lit>,
        result: T,
        shared: Vec<String>,
    },
}

impl Lit {
    fn vars(&self, out: &mut Vec<String>) {
        match self {
            Lit::Pos(_, args) => args.iter().for_each(|a| a.vars(out)),
            Lit::Not(l) => l.vars(out),
            Lit::Cmp(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Lit::Or(alts) => alts.iter().flatten().for_each(|l| l.vars(out)),
            Lit::Agg {
                value,
                body,
                result,
                ..
            } => {
                result.vars(out);
                value.iter().for_each(|v| v.vars(out));
                body.iter().for_each(|l| l.vars(out));
            }
        }
    }

    /// The variables inside an aggregate's braces (and its value).
    fn inner_vars(value: &Option<T>, body: &[Lit]) -> Vec<String> {
        let mut out = Vec::new();
        value.iter().for_each(|v| v.vars(&mut out));
        body.iter().for_each(|l| l.vars(&mut out));
        out
    }

    /// Relations used, each with whether it is used under a negation.
    fn deps(&self, negated: bool, out: &mut Vec<(String, bool)>) {
        match self {
            Lit::Pos(rel, _) => out.push((rel.clone(), negated)),
            Lit::Not(l) => l.deps(true, out),
            Lit::Cmp(..) => {}
            Lit::Or(alts) => alts.iter().flatten().for_each(|l| l.deps(negated, out)),
            // An aggregate needs its relations complete, as a negation does.
            Lit::Agg { body, .. } => body.iter().for_each(|l| l.deps(true, out)),
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

/// Matches a pattern without arithmetic against a ground term, extending
/// `env`. On failure `env` may hold partial bindings: the caller truncates.
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
        (T::Int(a), T::Int(b)) => a == b,
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
    /// The syntax the game was read in, which its terms print in.
    pub syntax: Syntax,
}

fn term(t: &syntax::Term, symbols: &Symbols) -> T {
    match &t.kind {
        TermKind::Var(v) => T::Var(symbols.name(*v).to_string()),
        TermKind::Const(c) => T::Sym(symbols.name(*c).to_string()),
        TermKind::Int(i) => T::Int(*i),
        TermKind::App(f, args) => T::App(
            symbols.name(*f).to_string(),
            args.iter().map(|a| term(a, symbols)).collect(),
        ),
        TermKind::Arith(op, a, b) => {
            let op = match op {
                ArithOp::Add => Op::Add,
                ArithOp::Sub => Op::Sub,
                ArithOp::Mul => Op::Mul,
                ArithOp::Div => Op::Div,
                ArithOp::Mod => Op::Mod,
            };
            T::Arith(op, Box::new(term(a, symbols)), Box::new(term(b, symbols)))
        }
    }
}

fn literal(l: &Literal, p: &Program) -> Lit {
    match l {
        Literal::Pos(a) => Lit::Pos(
            p.symbols.name(a.rel).to_string(),
            a.args.iter().map(|t| term(t, &p.symbols)).collect(),
        ),
        Literal::Not(inner, _) => Lit::Not(Box::new(literal(inner, p))),
        Literal::Cmp(op, a, b, _) => Lit::Cmp(*op, term(a, &p.symbols), term(b, &p.symbols)),
        Literal::Or(alts, _) => Lit::Or(
            alts.iter()
                .map(|c| c.iter().map(|l| literal(l, p)).collect())
                .collect(),
        ),
        Literal::Agg(a) => Lit::Agg {
            op: a.op,
            value: a.value.as_ref().map(|v| term(v, &p.symbols)),
            body: a.body.iter().map(|l| literal(l, p)).collect(),
            result: term(&a.result, &p.symbols),
            shared: Vec::new(),
        },
    }
}

/// A rule's body with each aggregate's shared variables filled in: those
/// of its braces that occur in the head or anywhere else in the body.
fn body_with_shared(head: &[T], mut body: Vec<Lit>) -> Vec<Lit> {
    for i in 0..body.len() {
        let Lit::Agg {
            value, body: inner, ..
        } = &body[i]
        else {
            continue;
        };
        let mut outside = Vec::new();
        head.iter().for_each(|t| t.vars(&mut outside));
        if let Lit::Agg { result, .. } = &body[i] {
            result.vars(&mut outside);
        }
        for (j, l) in body.iter().enumerate() {
            if j != i {
                l.vars(&mut outside);
            }
        }
        let mut shared: Vec<String> = Vec::new();
        for v in Lit::inner_vars(value, inner) {
            if outside.contains(&v) && !shared.contains(&v) {
                shared.push(v);
            }
        }
        if let Lit::Agg { shared: s, .. } = &mut body[i] {
            *s = shared;
        }
    }
    body
}

/// The aggregate of the distinct bindings of the locals of `body` under
/// `env`: `None` for the min or max of nothing, or a sum without a value.
fn aggregate(
    db: &Tables,
    op: AggOp,
    value: &Option<T>,
    body: &[Lit],
    env: &mut Env,
) -> Option<i64> {
    let locals: Vec<String> = Lit::inner_vars(value, body)
        .into_iter()
        .filter(|v| lookup(env, v).is_none())
        .collect();
    let mut seen: BTreeMap<Vec<T>, i64> = BTreeMap::new();
    let lits: Vec<&Lit> = body.iter().collect();
    solve(db, &lits, env, &mut |e| {
        let key: Vec<T> = locals
            .iter()
            .map(|v| lookup(e, v).cloned().expect("bound"))
            .collect();
        // A value without a value (`V / 0`) drops the binding.
        let v = match value.as_ref().map(|t| t.resolve(e)) {
            None => Some(1),
            Some(Ok(T::Int(i))) => Some(i),
            Some(Ok(other)) => panic!("oracle: an aggregate value `{other}` is not an integer"),
            Some(Err(_)) => None,
        };
        if let Some(v) = v {
            seen.insert(key, v);
        }
    });
    let values: Vec<i64> = seen.into_values().collect();
    match op {
        AggOp::Count => Some(values.len() as i64),
        AggOp::Sum => values.iter().try_fold(0i64, |a, &b| a.checked_add(b)),
        AggOp::Min => values.iter().copied().min(),
        AggOp::Max => values.iter().copied().max(),
    }
}

/// Evaluation order. `uses` is the dependency graph; two relations are in
/// one strongly connected component when each reaches the other.
/// level(head) >= level(used) inside a component, and > across components,
/// so each level only needs lower levels and itself. Negation inside a
/// component is recursion through negation. Returns the levels (as
/// [`Oracle::levels`]), `uses`, and what each relation reaches.
#[allow(clippy::type_complexity)]
fn order(
    rules: &[Rule],
) -> (
    Vec<(Vec<usize>, bool)>,
    HashMap<String, BTreeSet<String>>,
    HashMap<String, HashSet<String>>,
) {
    let mut deps = Vec::new();
    let mut uses: HashMap<String, BTreeSet<String>> = HashMap::new();
    for r in rules {
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
                // head uses rel, so they share a component iff rel reaches head.
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
    let levels = components(rules, &level, &reach);
    (levels, uses, reach)
}

/// Rules grouped by component, components in order of level; a component
/// is named by its least relation.
fn components(
    rules: &[Rule],
    level: &HashMap<String, usize>,
    reach: &HashMap<String, HashSet<String>>,
) -> Vec<(Vec<usize>, bool)> {
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
    groups
        .into_values()
        .map(|ids| {
            let recursive = ids
                .iter()
                .any(|&i| reach[&rules[i].rel].contains(&rules[i].rel));
            (ids, recursive)
        })
        .collect()
}

impl Oracle {
    /// Reads a game in KIF.
    pub fn from_kif(text: &str) -> Oracle {
        let mut sources = SourceMap::default();
        let program = syntax::parse_str(&mut sources, "oracle.kif", text, Syntax::Kif)
            .unwrap_or_else(|e| panic!("oracle: the game does not parse: {e:?}"));
        Oracle::new(&program)
    }

    /// Reads a game in the native syntax from a file (with the files it
    /// extends), parameters overridden; its declarations come desugared.
    pub fn from_rules(path: &Path, params: &[(&str, &str)]) -> Oracle {
        let overrides = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut sources = SourceMap::default();
        let program = syntax::load(&mut sources, path, Syntax::Rules, &overrides)
            .unwrap_or_else(|e| panic!("oracle: {} does not parse: {e:?}", path.display()));
        Oracle::new(&program)
    }

    pub fn new(p: &Program) -> Oracle {
        let rules: Vec<Rule> = p
            .rules
            .iter()
            .map(|r| Rule {
                rel: p.symbols.name(r.head.rel).to_string(),
                args: r.head.args.iter().map(|t| term(t, &p.symbols)).collect(),
                body: body_with_shared(
                    &r.head
                        .args
                        .iter()
                        .map(|t| term(t, &p.symbols))
                        .collect::<Vec<_>>(),
                    r.body.iter().map(|l| literal(l, p)).collect(),
                ),
            })
            .collect();
        let (levels, uses, reach) = order(&rules);
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
            syntax: p.syntax,
        };
        let all: Vec<&str> = fixed_rels.iter().map(String::as_str).collect();
        oracle.fixed = oracle.model(&Facts::new(), &[], &all);
        oracle.fixed_rels = fixed_rels;
        oracle.roles = oracle.role_order();
        oracle
    }

    /// A ground term (a fact, a move) printed in the game's syntax, read
    /// back by tabula's reader.
    pub fn parse(&self, text: &str) -> T {
        let mut sources = SourceMap::default();
        let file = sources.add("<term>", text);
        let mut symbols = Symbols::default();
        let t = syntax::parse_term(&sources, file, self.syntax, &mut symbols)
            .unwrap_or_else(|d| panic!("oracle: `{text}` does not parse: {}", d.message));
        match term(&t, &symbols).resolve(&Env::new()) {
            Ok(t) if t.is_ground() => t,
            _ => panic!("oracle: `{text}` is no ground term"),
        }
    }

    /// The roles that hold, in the order of the program's `role` facts.
    fn role_order(&self) -> Vec<T> {
        let mut seen = HashSet::new();
        let have = |args: &[T]| self.fixed.get("role").is_some_and(|h| h.contains(args));
        let mut roles = Vec::new();
        for r in self
            .rules
            .iter()
            .filter(|r| r.rel == "role" && r.body.is_empty())
        {
            if have(&r.args) && seen.insert(r.args[0].clone()) {
                roles.push(r.args[0].clone());
            }
        }
        roles
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
                        // A head whose arithmetic has no value concludes nothing.
                        let args = match resolve_all(&r.args, env) {
                            Ok(args) if args.iter().all(T::is_ground) => args,
                            Err(Unresolved::Undefined) => return,
                            _ => panic!("oracle: unsafe rule for {}", r.rel),
                        };
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
    match l {
        Lit::Pos(_, args) => args.iter().all(|a| a.bound(env)),
        Lit::Not(l) => bound(l, env),
        Lit::Cmp(_, a, b) => a.bound(env) && b.bound(env),
        Lit::Or(alts) => alts.iter().flatten().all(|l| bound(l, env)),
        Lit::Agg { shared, .. } => shared.iter().all(|v| lookup(env, v).is_some()),
    }
}

/// Whether `l` can be solved now: a test once its variables are bound, an
/// `X = Expr` binding once one side is bound and the other has no
/// arithmetic, a positive atom once its arithmetic can be computed, an `or`
/// always. Tests come first, then bindings, then atoms, each left to right.
fn pick(lits: &[&Lit], env: &Env) -> Option<usize> {
    let test = |l: &&Lit| matches!(l, Lit::Not(_) | Lit::Cmp(..)) && bound(l, env);
    let binding = |l: &&Lit| match l {
        Lit::Cmp(CmpOp::Eq, a, b) => {
            (a.bound(env) && !b.has_arith()) || (b.bound(env) && !a.has_arith())
        }
        _ => false,
    };
    let atom = |l: &&Lit| match l {
        Lit::Pos(_, args) => args.iter().all(|a| a.arith_bound(env)),
        Lit::Or(_) => true,
        Lit::Agg { shared, .. } => shared.iter().all(|v| lookup(env, v).is_some()),
        _ => false,
    };
    lits.iter()
        .position(test)
        .or_else(|| lits.iter().position(binding))
        .or_else(|| lits.iter().position(atom))
}

/// The truth of a comparison whose variables are bound. A side without a
/// value makes it false; the orderings hold between integers only.
fn compare(op: CmpOp, a: &T, b: &T, env: &Env) -> bool {
    let (Ok(a), Ok(b)) = (a.resolve(env), b.resolve(env)) else {
        return false;
    };
    match (op, &a, &b) {
        (CmpOp::Eq, ..) => a == b,
        (CmpOp::Ne, ..) => a != b,
        (CmpOp::Lt, T::Int(x), T::Int(y)) => x < y,
        (CmpOp::Le, T::Int(x), T::Int(y)) => x <= y,
        (CmpOp::Gt, T::Int(x), T::Int(y)) => x > y,
        (CmpOp::Ge, T::Int(x), T::Int(y)) => x >= y,
        _ => false,
    }
}

/// Calls `out` with every extension of `env` satisfying the conjunction,
/// taking the literals in the order [`pick`] gives (GDL's and the native
/// language's safety rules guarantee one is always ready).
fn solve(db: &Tables, lits: &[&Lit], env: &mut Env, out: &mut dyn FnMut(&Env)) {
    if lits.is_empty() {
        out(env);
        return;
    }
    let i = pick(lits, env)
        .unwrap_or_else(|| panic!("oracle: unsafe body, unbound variables in {lits:?}"));
    let rest: Vec<&Lit> = lits
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, l)| *l)
        .collect();
    let mark = env.len();
    match lits[i] {
        Lit::Pos(rel, args) => {
            let Some(table) = db.get(rel) else { return };
            // Arithmetic without a value: no fact matches.
            let Ok(pattern) = resolve_all(args, env) else {
                return;
            };
            for row in table.candidates(&pattern) {
                let tuple = &table.rows[row];
                if tuple.len() == pattern.len()
                    && pattern.iter().zip(tuple).all(|(a, t)| matches(a, t, env))
                {
                    solve(db, &rest, env, out);
                }
                env.truncate(mark);
            }
        }
        Lit::Not(inner) => {
            let mut found = false;
            solve(db, &[inner.as_ref()], env, &mut |_| found = true);
            env.truncate(mark);
            if !found {
                solve(db, &rest, env, out);
            }
        }
        Lit::Cmp(op, a, b) if bound(lits[i], env) => {
            if compare(*op, a, b, env) {
                solve(db, &rest, env, out);
            }
        }
        Lit::Cmp(_, a, b) => {
            // `X = Expr`: the unbound side matched against the other's value.
            let (Ok(a), Ok(b)) = (a.resolve(env), b.resolve(env)) else {
                return;
            };
            let (pattern, value) = if b.is_ground() { (a, b) } else { (b, a) };
            if matches(&pattern, &value, env) {
                solve(db, &rest, env, out);
            }
            env.truncate(mark);
        }
        Lit::Or(alts) => {
            for alt in alts {
                let lits: Vec<&Lit> = alt.iter().chain(rest.iter().copied()).collect();
                solve(db, &lits, env, out);
                env.truncate(mark);
            }
        }
        Lit::Agg {
            op,
            value,
            body,
            result,
            ..
        } => {
            let Some(n) = aggregate(db, *op, value, body, env) else {
                return;
            };
            env.truncate(mark);
            let Ok(pattern) = result.resolve(env) else {
                return;
            };
            if matches(&pattern, &T::Int(n), env) {
                solve(db, &rest, env, out);
            }
            env.truncate(mark);
        }
    }
}
