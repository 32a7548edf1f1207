//! The finite domains of the rule evaluator: every base fact a state may
//! hold and every move a role may make.
//!
//! In: a checked [`Program`]. Out: a [`Domain`] and the term table and
//! symbols of its grounding. Holds: only the rules of the positive
//! dependency cone of `role`, `init`, `legal` and `next` are grounded, their
//! negative literals dropped but those of permanent facts (an `init` fact a
//! frame rule keeps, true in every reachable state), so the relaxed model
//! over-approximates every state fact and move (`true` from `init` and
//! `next`, `does` from `legal`, as the grounder's bridge rules say);
//! relations read only under `not`
//! are never grounded, and so are `distinct`s between two variables the
//! head does not read (they would keep those variables alive in the join,
//! which enumerates only what the head atoms need: [`ground::relaxed_model`]).
//! A cone too large to ground this way gets its domains per argument
//! position instead ([`positions`](super::positions)).

use crate::gdl::{Names, Relation};
use crate::ground::{self, GTerm, GroundError, GroundStats, Limits, TermId, TermTable};
use crate::syntax::{Atom, CmpOp, Literal, Program, Rule, Sym, Symbols, Term, TermKind};
use rustc_hash::{FxHashMap, FxHashSet};

/// Every base fact and move the game can ever have.
#[derive(Clone, Debug)]
pub struct Domain {
    /// The base facts in the natural order of their terms.
    pub base: Vec<TermId>,
    /// Every `(role, move)` a `legal` atom of the relaxed model names, in
    /// atom order.
    pub moves: Vec<(TermId, TermId)>,
    /// The sizes of the cone's grounding.
    pub stats: GroundStats,
}

/// A quarter of the grounder's limits: the relaxed model is tried first
/// with these, so a blow-up is found fast.
pub fn quick(limits: &Limits) -> Limits {
    Limits {
        max_atoms: limits.max_atoms / 4,
        max_rules: limits.max_rules / 4,
        max_work: limits.max_work / 4,
        ..*limits
    }
}

/// Grounds the positive cone of the domains' relations within `limits`.
pub fn ground_domain(
    program: &Program,
    limits: &Limits,
) -> Result<(Domain, TermTable, Symbols), GroundError> {
    ground_relaxed(program, limits, Slim::None)
}

/// The relaxed model of a slimmer cone, for a game whose whole relaxed
/// model is too large: the rules of `legal`, `next` and `init` keep only
/// the positive literals their safety needs (a coarser over-approximation:
/// a move or a fact whose variables some literal binds); if that is still
/// too large (a helper relation of `legal` whose join makes too many
/// ground rules), every rule of the cone is slimmed so. Slimming every
/// rule is not always smaller: a rule that loses a literal joining its
/// others (a relation between two cells) can make more atoms, hence the
/// order.
pub fn ground_slimmed(
    program: &Program,
    limits: &Limits,
) -> Result<(Domain, TermTable, Symbols), GroundError> {
    ground_relaxed(program, limits, Slim::Reserved)
        .or_else(|_| ground_relaxed(program, limits, Slim::All))
}

fn ground_relaxed(
    program: &Program,
    limits: &Limits,
    slim: Slim,
) -> Result<(Domain, TermTable, Symbols), GroundError> {
    let names = Names::new(&program.symbols);
    let g = ground::relaxed_model(&relaxed(program, &names, slim), limits)?;
    let kind = |rel: Sym, arity: usize| names.atom(rel, arity);
    let mut base: Vec<TermId> = (g.atoms.iter())
        .filter(|a| kind(a.rel, a.args.len()) == Some(Relation::True))
        .map(|a| a.args[0])
        .collect();
    sort_naturally(&mut base, &g.terms, &g.symbols);
    let moves = (g.atoms.iter())
        .filter(|a| kind(a.rel, a.args.len()) == Some(Relation::Legal))
        .map(|a| (a.args[0], a.args[1]))
        .collect();
    let stats = GroundStats {
        rules: g.instances,
        ..g.stats()
    };
    let domain = Domain { base, moves, stats };
    Ok((domain, g.terms, g.symbols))
}

/// Sorts distinct terms in their natural order ([`TermTable::compare`]),
/// comparing the arguments of two terms of the same name by their ranks
/// among every argument: the same order, without walking the names and
/// arguments again for each pair (40,320 orders of eight names take a
/// quarter of the time otherwise). Each term's ranks are looked up once,
/// before sorting.
pub(super) fn sort_naturally(ids: &mut [TermId], terms: &TermTable, symbols: &Symbols) {
    let args_of = |t: TermId| match terms.term(t) {
        GTerm::App(_, args) => &args[..],
        _ => &[],
    };
    let mut args: Vec<TermId> = ids.iter().flat_map(|&t| args_of(t)).copied().collect();
    args.sort_unstable();
    args.dedup();
    args.sort_unstable_by(|&a, &b| terms.compare(a, b, symbols));
    let rank: FxHashMap<TermId, u32> = (args.iter().enumerate())
        .map(|(i, &t)| (t, i as u32))
        .collect();
    // The ranks of term `i`'s arguments are `ranks[starts[i]..starts[i + 1]]`.
    let mut starts = Vec::with_capacity(ids.len() + 1);
    let mut ranks = Vec::new();
    starts.push(0);
    for &t in ids.iter() {
        ranks.extend(args_of(t).iter().map(|a| rank[a]));
        starts.push(ranks.len());
    }
    let ranks_of = |i: usize| &ranks[starts[i]..starts[i + 1]];
    let names: Vec<Option<Sym>> = (ids.iter())
        .map(|&t| match terms.term(t) {
            GTerm::App(f, _) => Some(*f),
            _ => None,
        })
        .collect();
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_unstable_by(|&i, &k| match (names[i], names[k]) {
        (Some(f), Some(g)) if f == g && ranks_of(i).len() == ranks_of(k).len() => {
            ranks_of(i).cmp(ranks_of(k))
        }
        _ => terms.compare(ids[i], ids[k], symbols),
    });
    let sorted: Vec<TermId> = order.iter().map(|&i| ids[i]).collect();
    ids.copy_from_slice(&sorted);
}

/// Which rules of the cone lose the positive literals they are safe
/// without (see [`drop_unneeded`]).
#[derive(Clone, Copy, PartialEq)]
enum Slim {
    None,
    /// The rules of the reserved relations (`legal`, `next`, `init`...).
    Reserved,
    All,
}

/// The cone's rules without negation, slimmed as `slim` says; but for a
/// negation of a permanent fact ([`permanent_facts`]), which reads those
/// facts instead.
fn relaxed(program: &Program, names: &Names, slim: Slim) -> Program {
    let mut symbols = program.symbols.clone();
    let permanent = permanent_facts(program, names);
    let permanent_rel = fresh_name(&mut symbols, "_permanent");
    let mut negates_permanent = false;
    let mut rules: Vec<Rule> = (program.rules.iter())
        .map(|r| {
            let mut body = without_negation(&r.body);
            for atom in negated_permanent(&r.body, &permanent, names) {
                let args = atom.args.clone();
                let atom = Atom {
                    rel: permanent_rel,
                    args,
                    span: atom.span,
                };
                body.push(Literal::Not(Box::new(Literal::Pos(atom)), r.span));
                negates_permanent = true;
            }
            drop_distinct_unread(&r.head, &mut body);
            let reserved = names.atom(r.head.rel, r.head.args.len()).is_some();
            if slim == Slim::All || (slim == Slim::Reserved && reserved) {
                drop_unneeded(&r.head, &mut body);
            }
            Rule {
                head: r.head.clone(),
                body,
                span: r.span,
            }
        })
        .collect();
    let cone = positive_cone(&rules, names);
    rules.retain(|r| cone.contains(&(r.head.rel, r.head.args.len())));
    if negates_permanent {
        rules.extend(permanent.into_iter().map(|fact| Rule {
            head: Atom {
                rel: permanent_rel,
                args: vec![fact],
                span: Default::default(),
            },
            body: Vec::new(),
            span: Default::default(),
        }));
    }
    restrict_to_demand(&mut rules, &mut symbols, names);
    Program {
        syntax: program.syntax,
        symbols,
        rules,
        meta: program.meta.clone(),
    }
}

/// Restricts each helper relation to the atoms its readers can read, at
/// the argument positions every reader binds: with a ground term, or with
/// a variable that the literals before it bind (the reader's earlier
/// positive atoms, or the demand of the reader's own rule). A relation
/// `_demand_K` holds those arguments of every reader, and every rule of
/// the helper reads it first: `stones(red, P) :- count(e3, e4, f3, f4,
/// red, P)` makes `count` for those five cells and that player only, not
/// for every four cells of the board (a fact `_demand_K(e3, e4, f3, f4,
/// red)`), and `moved(M, X2) :- true(at(M, X)), step(X, X2)` makes `step`
/// only from the cells where a piece stands (a rule `_demand_K(X) :-
/// true(at(M, X))`). This is the magic-sets rewriting with one pattern of
/// bound positions per relation: each reader's literals before it, read
/// left to right, are those its arguments are computed from, so the
/// readers match no atom that the restriction leaves out, and the model
/// stays an over-approximation where it matters. A demand only passes on
/// variables and ground terms, never builds a term, so it takes values
/// from the terms of the unrestricted model: it stays finite when that is.
fn restrict_to_demand(rules: &mut Vec<Rule>, symbols: &mut Symbols, names: &Names) {
    let derived: FxHashSet<(Sym, usize)> = (rules.iter())
        .filter(|r| !r.body.is_empty())
        .map(|r| (r.head.rel, r.head.args.len()))
        .filter(|&(rel, arity)| names.atom(rel, arity).is_none())
        .collect();
    let mut readers: Vec<Reader> = Vec::new();
    for (r, rule) in rules.iter().enumerate() {
        for (i, lit) in rule.body.iter().enumerate() {
            let in_aggregate = match lit {
                Literal::Pos(_) | Literal::Or(..) => false,
                Literal::Agg(_) => true,
                Literal::Not(..) | Literal::Cmp(..) => continue,
            };
            for_each_positive_atom(std::slice::from_ref(lit), &mut |a| {
                readers.push(Reader {
                    rule: r,
                    before: i,
                    atom: a.clone(),
                    in_aggregate,
                });
            });
        }
    }
    // The bound positions grow with the demands of the readers' own rules:
    // from none, to the fixpoint.
    let mut bound_at: FxHashMap<(Sym, usize), Vec<usize>> = FxHashMap::default();
    loop {
        let mut next: FxHashMap<(Sym, usize), Vec<usize>> = FxHashMap::default();
        for reader in &readers {
            let key = (reader.atom.rel, reader.atom.args.len());
            if !derived.contains(&key) {
                continue;
            }
            let bound = bound_vars(&rules[reader.rule], reader, &bound_at);
            let here: Vec<usize> = (0..key.1)
                .filter(|&i| binds(&reader.atom.args[i], &bound))
                .collect();
            let at = next.entry(key).or_insert(here.clone());
            at.retain(|i| here.contains(i));
        }
        next.retain(|_, at| !at.is_empty());
        if next == bound_at {
            break;
        }
        bound_at = next;
    }
    let mut keys: Vec<(Sym, usize)> = bound_at.keys().copied().collect();
    keys.sort_unstable();
    let demands: FxHashMap<(Sym, usize), Sym> = (keys.into_iter())
        .map(|key| (key, fresh_name(symbols, "_demand")))
        .collect();
    let guard = |head: &Atom| {
        let key = (head.rel, head.args.len());
        (demands.get(&key)).map(|&demand| demanded(demand, &bound_at[&key], head))
    };
    let mut demand_rules: Vec<Rule> = Vec::new();
    for reader in &readers {
        let key = (reader.atom.rel, reader.atom.args.len());
        let Some(&demand) = demands.get(&key) else {
            continue;
        };
        let head = demanded(demand, &bound_at[&key], &reader.atom);
        let rule = &rules[reader.rule];
        let body = match head.args.iter().all(Term::has_no_vars) {
            true => Vec::new(),
            false => {
                let earlier = guard(&rule.head).into_iter().chain(
                    (rule.body[..reader.before].iter()).filter_map(|l| match l {
                        Literal::Pos(a) => Some(a.clone()),
                        _ => None,
                    }),
                );
                let mut body: Vec<Literal> = earlier.map(Literal::Pos).collect();
                drop_unneeded(&head, &mut body);
                body
            }
        };
        let span = reader.atom.span;
        demand_rules.push(Rule { head, body, span });
    }
    for rule in rules.iter_mut() {
        if let Some(g) = guard(&rule.head).filter(|_| !rule.body.is_empty()) {
            rule.body.insert(0, Literal::Pos(g));
        }
    }
    rules.extend(demand_rules);
}

/// A new relation name `PREFIX_K`, the first `K` from 0 the program does
/// not name.
fn fresh_name(symbols: &mut Symbols, prefix: &str) -> Sym {
    let name = (0..)
        .map(|k| format!("{prefix}_{k}"))
        .find(|name| symbols.get(name).is_none())
        .unwrap_or_default();
    symbols.intern(&name)
}

/// The base facts true in every reachable state: each `init` fact that a
/// frame rule `next(P) :- true(P)` (its whole body) keeps, the fact an
/// instance of `P`. Such a fact holds in the initial state and, whenever
/// it holds, in the next, whatever the moves: a rule negating it never
/// holds (walls laid out at the start and never removed, which bound
/// every move at a maze's edge).
fn permanent_facts(program: &Program, names: &Names) -> Vec<Term> {
    let is = |a: &Atom, rel: Relation| names.atom(a.rel, a.args.len()) == Some(rel);
    let frames: Vec<&Term> = (program.rules.iter())
        .filter(|r| is(&r.head, Relation::Next))
        .filter_map(|r| match r.body.as_slice() {
            [Literal::Pos(a)] if is(a, Relation::True) && a.args == r.head.args => {
                Some(&r.head.args[0])
            }
            _ => None,
        })
        .collect();
    (program.rules.iter())
        .filter(|r| r.body.is_empty() && is(&r.head, Relation::Init))
        .map(|r| r.head.args[0].clone())
        .filter(|f| f.has_no_vars())
        .filter(|f| (frames.iter()).any(|p| instance_of(p, f, &mut FxHashMap::default())))
        .collect()
}

/// The atoms `true(T)` a body negates at its top level where `T` may be a
/// permanent fact and every variable of `T` is bound by the body's
/// positive atoms (as safety needs once the other literals are dropped).
fn negated_permanent<'a>(body: &'a [Literal], permanent: &[Term], names: &Names) -> Vec<&'a Atom> {
    let mut bound: FxHashSet<Sym> = FxHashSet::default();
    for lit in body {
        if let Literal::Pos(a) = lit {
            a.for_each_var(&mut |v, _| {
                bound.insert(v);
            });
        }
    }
    (body.iter())
        .filter_map(|lit| match lit {
            Literal::Not(inner, _) => match inner.as_ref() {
                Literal::Pos(a) if names.atom(a.rel, a.args.len()) == Some(Relation::True) => {
                    Some(a)
                }
                _ => None,
            },
            _ => None,
        })
        .filter(|a| {
            let mut safe = true;
            a.for_each_var(&mut |v, _| safe &= bound.contains(&v));
            safe
        })
        .filter(|a| {
            (permanent.iter()).any(|f| instance_of(&a.args[0], f, &mut FxHashMap::default()))
        })
        .collect()
}

/// Whether the ground term `t` is an instance of `pattern`, its variables
/// bound in `bound` as they match.
fn instance_of(pattern: &Term, t: &Term, bound: &mut FxHashMap<Sym, Term>) -> bool {
    match (&pattern.kind, &t.kind) {
        (TermKind::Var(v), _) => match bound.get(v) {
            Some(b) => b == t,
            None => {
                bound.insert(*v, t.clone());
                true
            }
        },
        (TermKind::App(f, xs), TermKind::App(g, ys)) => {
            f == g
                && xs.len() == ys.len()
                && (xs.iter().zip(ys)).all(|(x, y)| instance_of(x, y, bound))
        }
        (TermKind::Arith(..), _) => false,
        _ => pattern == t,
    }
}

/// A positive atom read in a rule's body: the rule, the index of the body
/// literal it is in (itself, a disjunction or an aggregate), and whether
/// that literal is an aggregate (whose reader's only bound arguments are
/// its ground ones; in a disjunction, the alternatives' own earlier atoms
/// are not counted).
struct Reader {
    rule: usize,
    before: usize,
    atom: Atom,
    in_aggregate: bool,
}

/// The variables bound before `reader` in `rule`: those of the rule's own
/// demand (its head at its bound positions) and of the positive atoms of
/// the body before the reader's literal.
fn bound_vars(
    rule: &Rule,
    reader: &Reader,
    bound_at: &FxHashMap<(Sym, usize), Vec<usize>>,
) -> FxHashSet<Sym> {
    let mut bound = FxHashSet::default();
    if reader.in_aggregate {
        return bound;
    }
    let mut add = |t: &Term| {
        t.for_each_var(&mut |v, _| {
            bound.insert(v);
        })
    };
    if let Some(at) = bound_at.get(&(rule.head.rel, rule.head.args.len())) {
        at.iter().for_each(|&i| add(&rule.head.args[i]));
    }
    for lit in &rule.body[..reader.before] {
        if let Literal::Pos(a) = lit {
            a.args.iter().for_each(&mut add);
        }
    }
    bound
}

/// Whether a reader's argument is bound: ground, or a bound variable.
fn binds(t: &Term, bound: &FxHashSet<Sym>) -> bool {
    match &t.kind {
        TermKind::Var(v) => bound.contains(v),
        _ => t.has_no_vars(),
    }
}

/// The atom of relation `demand` with the arguments of `a` at `at`.
fn demanded(demand: Sym, at: &[usize], a: &Atom) -> Atom {
    Atom {
        rel: demand,
        args: at.iter().map(|&i| a.args[i].clone()).collect(),
        span: a.span,
    }
}

/// Calls `f` on every positive atom of a body, in disjunctions and
/// aggregates too (the values an aggregate can take come from its inner
/// relations).
fn for_each_positive_atom<'a>(body: &'a [Literal], f: &mut impl FnMut(&'a Atom)) {
    for lit in body {
        match lit {
            Literal::Pos(a) => f(a),
            Literal::Or(alts, _) => alts.iter().for_each(|alt| for_each_positive_atom(alt, f)),
            Literal::Agg(agg) => for_each_positive_atom(&agg.body, f),
            Literal::Not(..) | Literal::Cmp(..) => {}
        }
    }
}

/// Drops the `distinct`s between two variables that the head does not
/// read: dropping a test only over-approximates, and such a test keeps
/// both variables alive in the join until both are bound (four cells
/// pairwise distinct: every quadruple of cells instead of each cell once).
fn drop_distinct_unread(head: &Atom, body: &mut Vec<Literal>) {
    let mut read = FxHashSet::default();
    head.for_each_var(&mut |v, _| {
        read.insert(v);
    });
    let unread = |t: &Term| matches!(t.kind, TermKind::Var(v) if !read.contains(&v));
    body.retain(|lit| !matches!(lit, Literal::Cmp(CmpOp::Ne, a, b, _) if unread(a) && unread(b)));
}

/// Keeps of a body the positive literals that cover the head's variables,
/// chosen greedily (the one binding most uncovered head variables first,
/// the narrower on a tie), and the comparisons over their variables; the
/// body stays whole if those are not safe.
fn drop_unneeded(head: &Atom, body: &mut Vec<Literal>) {
    let vars_of = |a: &Atom| {
        let mut vs = FxHashSet::default();
        a.for_each_var(&mut |v, _| {
            vs.insert(v);
        });
        vs
    };
    let need = vars_of(head);
    let mut covered: FxHashSet<Sym> = FxHashSet::default();
    let mut chosen = vec![false; body.len()];
    loop {
        let best = (body.iter().enumerate())
            .filter(|&(i, _)| !chosen[i])
            .filter_map(|(i, l)| match l {
                Literal::Pos(a) => Some((i, vars_of(a))),
                _ => None,
            })
            .map(|(i, vs)| {
                let gain = vs
                    .iter()
                    .filter(|v| need.contains(*v) && !covered.contains(*v))
                    .count();
                (gain, std::cmp::Reverse(vs.len()), std::cmp::Reverse(i), vs)
            })
            .max_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        match best {
            Some((gain, _, std::cmp::Reverse(i), vs)) if gain > 0 => {
                chosen[i] = true;
                covered.extend(vs);
            }
            _ => break,
        }
    }
    let slim: Vec<Literal> = (body.iter().zip(&chosen))
        .filter(|&(l, &c)| c || matches!(l, Literal::Cmp(..)))
        .map(|(l, _)| l.clone())
        .collect();
    // A comparison over a variable no chosen literal binds goes too.
    let mut slim: Vec<Literal> = slim
        .iter()
        .filter(|l| match l {
            Literal::Cmp(_, a, b, _) => {
                let mut ok = true;
                a.for_each_var(&mut |v, _| ok &= covered.contains(&v));
                b.for_each_var(&mut |v, _| ok &= covered.contains(&v));
                ok || matches!(l, Literal::Cmp(CmpOp::Eq, ..))
            }
            _ => true,
        })
        .cloned()
        .collect();
    if is_safe(head, &slim) {
        std::mem::swap(body, &mut slim);
    }
}

/// Whether every variable of the head and of the comparisons is bound by
/// the positive atoms, directly or through `X = Expr`.
fn is_safe(head: &Atom, body: &[Literal]) -> bool {
    let mut bound: FxHashSet<Sym> = FxHashSet::default();
    for lit in body {
        if let Literal::Pos(a) = lit {
            a.for_each_var(&mut |v, _| {
                bound.insert(v);
            });
        }
    }
    let vars = |t: &Term| {
        let mut vs = Vec::new();
        t.for_each_var(&mut |v, _| vs.push(v));
        vs
    };
    loop {
        let before = bound.len();
        for lit in body {
            if let Literal::Cmp(CmpOp::Eq, l, r, _) = lit {
                let (lv, rv) = (vars(l), vars(r));
                if lv.iter().all(|v| bound.contains(v)) {
                    bound.extend(rv.iter().copied());
                } else if rv.iter().all(|v| bound.contains(v)) {
                    bound.extend(lv.iter().copied());
                }
            }
        }
        if bound.len() == before {
            break;
        }
    }
    let mut safe = true;
    head.for_each_var(&mut |v, _| safe &= bound.contains(&v));
    for lit in body {
        if let Literal::Cmp(_, l, r, _) = lit {
            safe &= vars(l).iter().chain(&vars(r)).all(|v| bound.contains(v));
        }
    }
    safe
}

/// The relations `role`, `init`, `legal` and `next` depend on through
/// positive literals (`true` and `does` bring in `init`, `next`, `legal`).
fn positive_cone(rules: &[Rule], names: &Names) -> FxHashSet<(Sym, usize)> {
    let roots = [
        Relation::Role,
        Relation::Init,
        Relation::Legal,
        Relation::Next,
    ];
    let mut cone: FxHashSet<(Sym, usize)> = roots
        .iter()
        .filter_map(|&r| names.sym(r).map(|s| (s, r.arity())))
        .collect();
    loop {
        let before = cone.len();
        for rule in rules {
            if cone.contains(&(rule.head.rel, rule.head.args.len())) {
                for_each_positive_atom(&rule.body, &mut |a| {
                    cone.insert((a.rel, a.args.len()));
                });
            }
        }
        if cone.len() == before {
            return cone;
        }
    }
}

/// A body with every negative literal dropped (inside disjunctions and
/// aggregates too: an aggregate over more bindings can take every value
/// the real one can, as the grounder's candidates count subsets).
fn without_negation(body: &[Literal]) -> Vec<Literal> {
    body.iter()
        .filter_map(|lit| match lit {
            Literal::Not(..) => None,
            Literal::Or(alts, span) => Some(Literal::Or(
                alts.iter().map(|alt| without_negation(alt)).collect(),
                *span,
            )),
            Literal::Agg(agg) => {
                let mut agg = agg.clone();
                agg.body = without_negation(&agg.body);
                Some(Literal::Agg(agg))
            }
            other => Some(other.clone()),
        })
        .collect()
}
