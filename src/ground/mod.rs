//! Grounding: from a checked program to a finite propositional program.
//!
//! In: a [`Program`] that passed the static checks. Out: a [`Ground`] program:
//! every ground atom that can ever hold (the relaxed model: the least model of
//! the rules with negation ignored, `true` fed from `init`/`next` and `does`
//! from `legal`), and every ground instance of every rule whose positive body
//! holds in that model, with arithmetic and comparisons already evaluated.
//! Holds: semi-naive evaluation, so each instance is produced once; a
//! [`Limits`] guard turns a blow-up into a GROUNDING diagnostic instead of an
//! exhausted machine.

mod prepare;
pub mod terms;

use crate::diag::{Diagnostic, codes};
use crate::gdl::Relation as Reserved;
use crate::syntax::{ArithOp, CmpOp, Program, Span, Sym, Symbols, Syntax};
use prepare::{PAtom, Pat, Prepared, RelKey};
use rustc_hash::FxHashMap;
pub use terms::{GTerm, TermId, TermTable};

/// Bounds that keep grounding finite and fast.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_atoms: usize,
    pub max_rules: usize,
    pub max_term_depth: u32,
    /// Candidate matches tried, in all; bounds the time spent in joins.
    pub max_work: u64,
    /// Rounds of the fixpoint: a recursion that needs more never settles.
    pub max_rounds: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_atoms: 2_000_000,
            max_rules: 8_000_000,
            max_term_depth: 64,
            max_work: 400_000_000,
            max_rounds: 20_000,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AtomId(pub u32);

/// A literal of a ground rule: an atom, possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit(pub u32);

impl Lit {
    pub fn new(atom: AtomId, negated: bool) -> Lit {
        Lit(atom.0 << 1 | negated as u32)
    }
    pub fn atom(self) -> AtomId {
        AtomId(self.0 >> 1)
    }
    pub fn negated(self) -> bool {
        self.0 & 1 == 1
    }
}

/// A ground atom: a relation and its arguments.
#[derive(Clone, Debug)]
pub struct GroundAtom {
    pub rel: Sym,
    pub args: Box<[TermId]>,
}

/// The ground program.
#[derive(Clone, Debug)]
pub struct Ground {
    pub syntax: Syntax,
    pub symbols: Symbols,
    pub terms: TermTable,
    pub atoms: Vec<GroundAtom>,
    /// Rule `i` is `heads[i] :- lits[starts[i]..starts[i + 1]]`.
    pub heads: Vec<AtomId>,
    pub starts: Vec<u32>,
    pub lits: Vec<Lit>,
}

/// Sizes of a ground program, for `check --explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroundStats {
    pub atoms: usize,
    pub rules: usize,
    pub terms: usize,
}

impl Ground {
    pub fn stats(&self) -> GroundStats {
        GroundStats {
            atoms: self.atoms.len(),
            rules: self.heads.len(),
            terms: self.terms.len(),
        }
    }

    pub fn body(&self, rule: usize) -> &[Lit] {
        &self.lits[self.starts[rule] as usize..self.starts[rule + 1] as usize]
    }
}

/// Index keys are (path, term): path `pos * PATH_STRIDE` is argument `pos`,
/// `pos * PATH_STRIDE + 1 + k` is argument `k` of a compound argument `pos`.
const PATH_STRIDE: u32 = 16;

/// One relation of the relaxed model: its facts in insertion order, with
/// an index per argument position.
struct Relation {
    name: Sym,
    arity: usize,
    args: Vec<TermId>,
    atoms: Vec<AtomId>,
    set: FxHashMap<Box<[TermId]>, u32>,
    index: FxHashMap<(u32, TermId), Vec<u32>>,
    /// Facts `0..old` were seen by every rule in earlier rounds; `old..cur`
    /// are this round's delta.
    old: u32,
    cur: u32,
}

impl Relation {
    fn fact(&self, i: u32) -> &[TermId] {
        let a = self.arity;
        &self.args[i as usize * a..i as usize * a + a]
    }
}

/// Grounds a checked program.
pub fn ground(program: &Program, limits: &Limits) -> Result<Ground, Vec<Diagnostic>> {
    let mut g = Grounder {
        terms: TermTable::default(),
        rels: Vec::new(),
        rel_ids: FxHashMap::default(),
        atoms: Vec::new(),
        heads: Vec::new(),
        starts: vec![0],
        lits: Vec::new(),
        pending_neg: Vec::new(),
        limits: *limits,
        work: 0,
        symbols: program.symbols.clone(),
        syntax: program.syntax,
        last_span: Span::default(),
    };
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for rule in &program.rules {
        match prepare::prepare(rule, &mut g.terms) {
            Ok(p) => rules.extend(p),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    rules.extend(g.bridges());
    for r in &rules {
        g.rel(r.head.rel);
        r.pos.iter().chain(&r.neg).for_each(|a| {
            g.rel(a.rel);
        });
    }
    g.solve(&rules).map_err(|e| vec![e])?;
    Ok(g.finish(program.syntax))
}

struct Grounder {
    terms: TermTable,
    rels: Vec<Relation>,
    rel_ids: FxHashMap<RelKey, usize>,
    atoms: Vec<GroundAtom>,
    heads: Vec<AtomId>,
    starts: Vec<u32>,
    /// Literals of the rules found so far; negative literals are stored as
    /// indices into `pending_neg` until the model is complete.
    lits: Vec<Lit>,
    pending_neg: Vec<(usize, Box<[TermId]>)>,
    limits: Limits,
    work: u64,
    symbols: Symbols,
    syntax: Syntax,
    /// The rule that added the latest new fact, for errors about growth.
    last_span: Span,
}

/// One instance found by a join: head arguments, positive body atoms,
/// negative body atoms (relation index, arguments).
struct Found {
    head: Box<[TermId]>,
    pos: Vec<AtomId>,
    neg: Vec<(usize, Box<[TermId]>)>,
}

/// The facts a positive literal may match: a range of fact numbers, or a
/// range `lo..hi` of the index list under `key` of relation `rel`.
enum Candidates {
    Range(u32, u32),
    List(usize, (u32, TermId), u32, u32),
}

impl Candidates {
    fn len(&self) -> u32 {
        match *self {
            Candidates::Range(lo, hi) | Candidates::List(_, _, lo, hi) => hi - lo,
        }
    }
}

impl Grounder {
    fn rel(&mut self, key: RelKey) -> usize {
        if let Some(&i) = self.rel_ids.get(&key) {
            return i;
        }
        self.rels.push(Relation {
            name: key.0,
            arity: key.1,
            args: Vec::new(),
            atoms: Vec::new(),
            set: FxHashMap::default(),
            index: FxHashMap::default(),
            old: 0,
            cur: 0,
        });
        self.rel_ids.insert(key, self.rels.len() - 1);
        self.rels.len() - 1
    }

    /// `true(X) :- init(X).  true(X) :- next(X).  does(R, M) :- legal(R, M).`
    fn bridges(&mut self) -> Vec<Prepared> {
        let symbols = &mut self.symbols;
        let mut atom = |r: Reserved| PAtom {
            rel: (symbols.intern(r.name()), r.arity()),
            args: (0..r.arity() as u32).map(Pat::Var).collect(),
        };
        let mut bridge = |head: Reserved, body: Reserved| Prepared {
            head: atom(head),
            pos: vec![atom(body)],
            neg: Vec::new(),
            cmps: Vec::new(),
            vars: head.arity(),
            span: Span::default(),
            bridge: true,
        };
        vec![
            bridge(Reserved::True, Reserved::Init),
            bridge(Reserved::True, Reserved::Next),
            bridge(Reserved::Does, Reserved::Legal),
        ]
    }

    fn too_big(&self, span: Span, what: &str) -> Diagnostic {
        let mut d = Diagnostic::error(
            codes::GROUNDING,
            span,
            format!("grounding this game is too large: {what}"),
        );
        if let Some(atom) = self.atoms.last() {
            let args: Vec<String> = atom
                .args
                .iter()
                .map(|&t| self.terms.show(t, &self.symbols, self.syntax).to_string())
                .collect();
            let name = self.symbols.name(atom.rel);
            let shown = match self.syntax {
                Syntax::Kif => format!("({name} {})", args.join(" ")),
                Syntax::Rules => format!("{name}({})", args.join(", ")),
            };
            let shown = match shown.char_indices().nth(60) {
                Some((cut, _)) => format!("{}…", &shown[..cut]),
                None => shown,
            };
            d = d.with_note(format!(
                "this rule was still producing new facts such as `{shown}`"
            ));
        }
        d.with_note(
            "a relation probably grows without bound (a counter with no upper limit, or a \
             term that nests deeper each step); bound it with a comparison such as `N < 100`",
        )
    }

    fn solve(&mut self, rules: &[Prepared]) -> Result<(), Diagnostic> {
        let rule_rels: Vec<(usize, Vec<usize>)> = rules
            .iter()
            .map(|r| {
                (
                    self.rel_ids[&r.head.rel],
                    r.pos.iter().map(|a| self.rel_ids[&a.rel]).collect(),
                )
            })
            .collect();
        let mut first = true;
        for round in 0.. {
            if round == self.limits.max_rounds {
                return Err(self.too_big(
                    self.last_span,
                    &format!("recursion still adds facts after {round} rounds"),
                ));
            }
            for rel in &mut self.rels {
                rel.cur = rel.atoms.len() as u32;
            }
            let any_delta = self.rels.iter().any(|r| r.cur > r.old);
            if !first && !any_delta {
                break;
            }
            for (ri, rule) in rules.iter().enumerate() {
                if rule.pos.is_empty() {
                    if first {
                        self.run(rule, &rule_rels[ri].1, None)?;
                    }
                    continue;
                }
                for (i, &rel) in rule_rels[ri].1.iter().enumerate() {
                    let r = &self.rels[rel];
                    if r.cur > r.old {
                        self.run(rule, &rule_rels[ri].1, Some(i))?;
                    }
                }
            }
            for rel in &mut self.rels {
                rel.old = rel.cur;
            }
            first = false;
        }
        Ok(())
    }

    /// Finds and records every instance of a rule; `delta` is the literal
    /// that reads only this round's new facts.
    fn run(
        &mut self,
        rule: &Prepared,
        rels: &[usize],
        delta: Option<usize>,
    ) -> Result<(), Diagnostic> {
        let mut env = vec![None; rule.vars];
        let mut found = Vec::new();
        self.join(
            rule,
            rels,
            delta,
            0,
            0,
            &mut env,
            &mut Vec::new(),
            &mut found,
        )?;
        for f in found {
            self.emit(rule, f)?;
        }
        Ok(())
    }

    /// The join: match the starting literal first, then at every level do
    /// the cheapest thing: a comparison whose sides are bound (a test, or a
    /// binding `=`), else the unmatched positive literal with the fewest
    /// candidate facts under the current bindings. `used` masks say which
    /// positive literals and comparisons are done.
    #[allow(clippy::too_many_arguments)]
    fn join(
        &mut self,
        rule: &Prepared,
        rels: &[usize],
        delta: Option<usize>,
        used_pos: u64,
        used_cmp: u64,
        env: &mut Vec<Option<TermId>>,
        body: &mut Vec<AtomId>,
        found: &mut Vec<Found>,
    ) -> Result<(), Diagnostic> {
        // Comparisons first: each either binds, filters or waits.
        for (i, c) in rule.cmps.iter().enumerate() {
            if used_cmp >> i & 1 == 1 {
                continue;
            }
            let next_cmp = used_cmp | 1 << i;
            let (l, r) = (self.is_bound(&c.left, env), self.is_bound(&c.right, env));
            let (pat, value) = match (l, r, c.op) {
                (true, true, _) => {
                    if self.compare(c.op, &c.left, &c.right, env) {
                        self.join(rule, rels, delta, used_pos, next_cmp, env, body, found)?;
                    }
                    return Ok(());
                }
                (false, true, CmpOp::Eq) if !matches!(c.left, Pat::Arith(..)) => {
                    (&c.left, &c.right)
                }
                (true, false, CmpOp::Eq) if !matches!(c.right, Pat::Arith(..)) => {
                    (&c.right, &c.left)
                }
                _ => continue,
            };
            let Some(v) = self.build(value, env) else {
                return Ok(());
            };
            if self.terms.depth(v) > self.limits.max_term_depth {
                return Err(self.too_big(rule.span, "a term nests too deeply"));
            }
            let mut trail = Vec::new();
            if unify(pat, v, env, &mut trail, &self.terms) {
                self.join(rule, rels, delta, used_pos, next_cmp, env, body, found)?;
            }
            for v in trail {
                env[v as usize] = None;
            }
            return Ok(());
        }
        // Then the positive literal with the fewest candidates.
        let mut best: Option<(usize, Candidates)> = None;
        for i in 0..rule.pos.len() {
            if used_pos >> i & 1 == 1 {
                continue;
            }
            if used_pos == 0 && delta.is_some_and(|d| d != i) {
                continue; // the delta literal goes first
            }
            let c = self.candidates(rule, rels, delta, i, env);
            if c.len() == 0 {
                return Ok(());
            }
            if best.as_ref().is_none_or(|(_, b)| c.len() < b.len()) {
                best = Some((i, c));
            }
        }
        let Some((i, candidates)) = best else {
            return self.leaf(rule, env, body, found);
        };
        let candidates: Vec<u32> = match candidates {
            Candidates::Range(lo, hi) => (lo..hi).collect(),
            Candidates::List(rel, key, lo, hi) => {
                self.rels[rel].index[&key][lo as usize..hi as usize].to_vec()
            }
        };
        self.work += candidates.len() as u64;
        if self.work > self.limits.max_work {
            return Err(self.too_big(rule.span, "joining this rule's body takes too long"));
        }
        let rel = rels[i];
        let atom = &rule.pos[i];
        let mut trail = Vec::new();
        for f in candidates {
            trail.clear();
            let ok = {
                let fact = self.rels[rel].fact(f);
                atom.args
                    .iter()
                    .zip(fact)
                    .all(|(p, &t)| unify(p, t, env, &mut trail, &self.terms))
            };
            if ok {
                body.push(self.rels[rel].atoms[f as usize]);
                self.join(
                    rule,
                    rels,
                    delta,
                    used_pos | 1 << i,
                    used_cmp,
                    env,
                    body,
                    found,
                )?;
                body.pop();
            }
            for v in trail.drain(..) {
                env[v as usize] = None;
            }
        }
        Ok(())
    }

    /// Every literal matched: the head and the negative literals are ground.
    fn leaf(
        &mut self,
        rule: &Prepared,
        env: &[Option<TermId>],
        body: &[AtomId],
        found: &mut Vec<Found>,
    ) -> Result<(), Diagnostic> {
        let head = rule
            .head
            .args
            .iter()
            .map(|p| self.build(p, env))
            .collect::<Option<Box<[TermId]>>>();
        let Some(head) = head else {
            return Ok(());
        };
        let mut neg = Vec::with_capacity(rule.neg.len());
        for a in &rule.neg {
            let args = a
                .args
                .iter()
                .map(|p| self.build(p, env))
                .collect::<Option<Box<[TermId]>>>();
            // Arithmetic that fails in a negated atom: the atom cannot
            // hold, so the literal is true and is left out.
            if let Some(args) = args {
                neg.push((self.rel_ids[&a.rel], args));
            }
        }
        found.push(Found {
            head,
            pos: body.to_vec(),
            neg,
        });
        Ok(())
    }

    /// Where the facts that positive literal `i` may match lie: the shortest
    /// index list among its bound argument paths (whole arguments, and
    /// arguments of compound ones), cut to the literal's window.
    fn candidates(
        &self,
        rule: &Prepared,
        rels: &[usize],
        delta: Option<usize>,
        i: usize,
        env: &[Option<TermId>],
    ) -> Candidates {
        let rel = rels[i];
        let r = &self.rels[rel];
        let (lo, hi) = match delta {
            Some(d) if d == i => (r.old, r.cur),
            Some(d) if i < d => (0, r.old),
            _ => (0, r.cur),
        };
        let mut best = Candidates::Range(lo, hi);
        let mut consider = |key: (u32, TermId)| -> bool {
            let Some(list) = r.index.get(&key) else {
                return false;
            };
            let a = list.partition_point(|&f| f < lo) as u32;
            let b = list.partition_point(|&f| f < hi) as u32;
            let c = Candidates::List(rel, key, a, b);
            if c.len() < best.len() {
                best = c;
            }
            true
        };
        for (pos, p) in rule.pos[i].args.iter().enumerate() {
            let path = pos as u32 * PATH_STRIDE;
            if let Some(t) = self.lookup(p, env) {
                if !consider((path, t)) {
                    return Candidates::Range(0, 0);
                }
            } else if self.is_bound(p, env) {
                return Candidates::Range(0, 0); // a bound term that does not exist
            } else if let Pat::App(_, sub) = p {
                for (k, q) in sub.iter().enumerate().take(PATH_STRIDE as usize - 1) {
                    if let Some(t) = self.lookup(q, env) {
                        if !consider((path + 1 + k as u32, t)) {
                            return Candidates::Range(0, 0);
                        }
                    } else if self.is_bound(q, env) {
                        return Candidates::Range(0, 0);
                    }
                }
            }
        }
        best
    }

    fn is_bound(&self, p: &Pat, env: &[Option<TermId>]) -> bool {
        match p {
            Pat::Var(v) => env[*v as usize].is_some(),
            Pat::Ground(_) => true,
            Pat::App(_, args) => args.iter().all(|a| self.is_bound(a, env)),
            Pat::Arith(_, a, b) => self.is_bound(a, env) && self.is_bound(b, env),
        }
    }

    /// The existing term a bound pattern denotes, without creating terms.
    fn lookup(&self, p: &Pat, env: &[Option<TermId>]) -> Option<TermId> {
        match p {
            Pat::Var(v) => env[*v as usize],
            Pat::Ground(t) => Some(*t),
            Pat::App(f, args) => {
                let args = args
                    .iter()
                    .map(|a| self.lookup(a, env))
                    .collect::<Option<Box<[TermId]>>>()?;
                self.terms.get(&GTerm::App(*f, args))
            }
            Pat::Arith(..) => None,
        }
    }

    /// Builds the ground term of a bound pattern; `None` if arithmetic fails.
    fn build(&mut self, p: &Pat, env: &[Option<TermId>]) -> Option<TermId> {
        match p {
            Pat::Var(v) => env[*v as usize],
            Pat::Ground(t) => Some(*t),
            Pat::App(f, args) => {
                let args = args
                    .iter()
                    .map(|a| self.build(a, env))
                    .collect::<Option<Box<[TermId]>>>()?;
                Some(self.terms.intern(GTerm::App(*f, args)))
            }
            Pat::Arith(op, a, b) => {
                let v = self.arith(*op, a, b, env)?;
                Some(self.terms.intern(GTerm::Int(v)))
            }
        }
    }

    fn arith(&mut self, op: ArithOp, a: &Pat, b: &Pat, env: &[Option<TermId>]) -> Option<i64> {
        let a = self.build(a, env)?;
        let b = self.build(b, env)?;
        op.apply(self.terms.int(a)?, self.terms.int(b)?)
    }

    fn compare(&mut self, op: CmpOp, l: &Pat, r: &Pat, env: &[Option<TermId>]) -> bool {
        let (Some(a), Some(b)) = (self.build(l, env), self.build(r, env)) else {
            return false;
        };
        match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            _ => match (self.terms.int(a), self.terms.int(b)) {
                (Some(x), Some(y)) => match op {
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    _ => x >= y,
                },
                _ => false,
            },
        }
    }

    /// Records one instance: the head fact (added to the model) and, unless
    /// the rule is a bridge, the ground rule. Negative literals are kept as
    /// pending (relation, arguments) until the model is complete.
    fn emit(&mut self, rule: &Prepared, found: Found) -> Result<(), Diagnostic> {
        for &t in found.head.iter() {
            if self.terms.depth(t) > self.limits.max_term_depth {
                return Err(self.too_big(rule.span, "a term nests too deeply"));
            }
        }
        let head_rel = self.rel_ids[&rule.head.rel];
        let before = self.atoms.len();
        let head_atom = self.insert(head_rel, found.head, rule.span)?;
        if self.atoms.len() > before {
            self.last_span = rule.span;
        }
        if rule.bridge {
            return Ok(());
        }
        self.heads.push(head_atom);
        self.lits
            .extend(found.pos.into_iter().map(|a| Lit::new(a, false)));
        for (rel, args) in found.neg {
            self.lits
                .push(Lit::new(AtomId(self.pending_neg.len() as u32), true));
            self.pending_neg.push((rel, args));
        }
        self.starts.push(self.lits.len() as u32);
        if self.heads.len() > self.limits.max_rules {
            return Err(self.too_big(
                rule.span,
                &format!("more than {} ground rules", self.limits.max_rules),
            ));
        }
        Ok(())
    }

    fn insert(
        &mut self,
        rel: usize,
        args: Box<[TermId]>,
        span: Span,
    ) -> Result<AtomId, Diagnostic> {
        if let Some(&i) = self.rels[rel].set.get(&args) {
            return Ok(self.rels[rel].atoms[i as usize]);
        }
        if self.atoms.len() >= self.limits.max_atoms {
            return Err(self.too_big(
                span,
                &format!("more than {} ground atoms", self.limits.max_atoms),
            ));
        }
        let id = AtomId(self.atoms.len() as u32);
        self.atoms.push(GroundAtom {
            rel: self.rels[rel].name,
            args: args.clone(),
        });
        let r = &mut self.rels[rel];
        let f = r.atoms.len() as u32;
        for (pos, &t) in args.iter().enumerate() {
            let path = pos as u32 * PATH_STRIDE;
            r.index.entry((path, t)).or_default().push(f);
            if let GTerm::App(_, sub) = self.terms.term(t) {
                for (k, &u) in sub.iter().enumerate().take(PATH_STRIDE as usize - 1) {
                    r.index.entry((path + 1 + k as u32, u)).or_default().push(f);
                }
            }
        }
        r.args.extend_from_slice(&args);
        r.atoms.push(id);
        r.set.insert(args, f);
        Ok(id)
    }

    /// Resolves the pending negative literals against the complete model:
    /// an atom outside it never holds, so its negation is dropped.
    fn finish(self, syntax: Syntax) -> Ground {
        let resolved: Vec<Option<AtomId>> = self
            .pending_neg
            .iter()
            .map(|(rel, args)| {
                let r = &self.rels[*rel];
                r.set.get(args).map(|&f| r.atoms[f as usize])
            })
            .collect();
        let mut lits = Vec::with_capacity(self.lits.len());
        let mut starts = Vec::with_capacity(self.starts.len());
        starts.push(0);
        for w in self.starts.windows(2) {
            for &lit in &self.lits[w[0] as usize..w[1] as usize] {
                if !lit.negated() {
                    lits.push(lit);
                } else if let Some(atom) = resolved[lit.atom().0 as usize] {
                    lits.push(Lit::new(atom, true));
                }
            }
            starts.push(lits.len() as u32);
        }
        Ground {
            syntax,
            symbols: self.symbols,
            terms: self.terms,
            atoms: self.atoms,
            heads: self.heads,
            starts,
            lits,
        }
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
