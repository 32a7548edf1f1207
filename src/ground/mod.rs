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

mod join;
mod prepare;
pub mod terms;

use crate::diag::{Diagnostic, codes};
use crate::gdl::Relation as Reserved;
use crate::syntax::{Program, Span, Sym, Symbols, Syntax};
use join::Found;
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
    let rule_rels: Vec<RuleRels> = rules
        .iter()
        .map(|r| RuleRels {
            head: g.rel(r.head.rel),
            pos: r.pos.iter().map(|a| g.rel(a.rel)).collect(),
            neg: r.neg.iter().map(|a| g.rel(a.rel)).collect(),
        })
        .collect();
    g.solve(&rules, &rule_rels).map_err(|e| vec![e])?;
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

/// The relations (indices into `Grounder::rels`) of one rule's head,
/// positive and negative literals.
struct RuleRels {
    head: usize,
    pos: Vec<usize>,
    neg: Vec<usize>,
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

    /// `GROUNDING` at the rule that keeps producing facts (a bridge rule,
    /// which has no place, stands for the last real rule that added one).
    fn too_big(&self, span: Span, what: &str) -> Diagnostic {
        let span = if span == Span::default() {
            self.last_span
        } else {
            span
        };
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
        d.with_note(self.growth_note())
    }

    /// What to do about the growth the last fact shows: a counter far below
    /// zero goes down, one far above goes up.
    fn growth_note(&self) -> &'static str {
        const FAR: i64 = 1_000;
        let mut stack: Vec<TermId> = self.atoms.last().map_or(Vec::new(), |a| a.args.to_vec());
        let (mut low, mut high) = (false, false);
        while let Some(t) = stack.pop() {
            match self.terms.term(t) {
                GTerm::Int(i) => {
                    low |= *i < -FAR;
                    high |= *i > FAR;
                }
                GTerm::App(_, sub) if stack.len() < 256 => stack.extend(sub.iter()),
                _ => {}
            }
        }
        match (low, high) {
            (true, false) => {
                "a counter goes down without bound; bound it with a comparison such as `N >= 0`"
            }
            (false, true) => {
                "a counter goes up without bound; bound it with a comparison such as `N < 100`"
            }
            _ => {
                "a relation probably grows without bound (a counter with no upper limit, or a \
                 term that nests deeper each step); bound it with a comparison such as \
                 `N < 100` (or `N >= 0` for one that goes down)"
            }
        }
    }

    /// Semi-naive evaluation to the relaxed model, recording every ground
    /// rule on the way; `rels[i]` are the relations of `rules[i]`.
    fn solve(&mut self, rules: &[Prepared], rels: &[RuleRels]) -> Result<(), Diagnostic> {
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
            for (rule, rels) in rules.iter().zip(rels) {
                if rule.pos.is_empty() {
                    if first {
                        self.run(rule, rels, None)?;
                    }
                    continue;
                }
                for (i, &rel) in rels.pos.iter().enumerate() {
                    let r = &self.rels[rel];
                    if r.cur > r.old {
                        self.run(rule, rels, Some(i))?;
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
        rels: &RuleRels,
        delta: Option<usize>,
    ) -> Result<(), Diagnostic> {
        for found in self.instances(rule, rels, delta)? {
            self.emit(rule, rels.head, found)?;
        }
        Ok(())
    }

    /// Records one instance: the head fact (added to the model) and, unless
    /// the rule is a bridge, the ground rule. Negative literals are kept as
    /// pending (relation, arguments) until the model is complete.
    fn emit(&mut self, rule: &Prepared, head_rel: usize, found: Found) -> Result<(), Diagnostic> {
        for &t in found.head.iter() {
            if self.terms.depth(t) > self.limits.max_term_depth {
                return Err(self.too_big(rule.span, "a term nests too deeply"));
            }
        }
        let before = self.atoms.len();
        let head_atom = self.insert(head_rel, found.head, rule.span)?;
        if self.atoms.len() > before && !rule.bridge {
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
