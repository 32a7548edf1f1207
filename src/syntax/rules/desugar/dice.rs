//! `dice [N] NAME: FACE [weight W], ....`: nature's throws.
//!
//! Out: `outcome(Name, Throw)` and `weight(Throw, W)` for every throw of N
//! dice (ordered tuples of faces, equal tuples merged with their weights
//! added), and `legal(random, Throw) :- roll(Name), outcome(Name, Throw)`;
//! nature passes (`noop`) while no dice are rolled. Holds: at most
//! [`MAX_OUTCOMES`] throws; every weight exact (the faces' weights divided
//! by their common divisor where the products would not fit an `i64`, and
//! the declaration refused where they still do not).

use super::{Desugar, MAX_OUTCOMES};
use crate::syntax::ast::{Literal, Span, Term, TermKind};
use crate::syntax::rules::lower::is_ground;
use crate::syntax::rules::parser::{Decl, Ex, ExKind};
use indexmap::IndexMap;

impl Desugar<'_> {
    pub(super) fn dice(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", ":"]);
        if self.roles_seen && !self.roles.iter().any(|r| r == crate::gdl::RANDOM) {
            self.decl_error(
                d.keyword_span,
                "dice need nature: add the role `random` to `roles`",
            );
        }
        let Some((count, name, name_span)) = self.dice_name(d, span) else {
            return;
        };
        let Some(items) = self.part(d, ":", "faces after `:`", span) else {
            return;
        };
        let faces = self.faces(items);
        if faces.is_empty() {
            self.decl_error(span, "dice need at least one face");
            return;
        }
        if count < 1 || (faces.len() as f64).powi(count.min(64) as i32) > MAX_OUTCOMES as f64 {
            self.decl_error(
                span,
                format!(
                    "dice may have 1 to {MAX_OUTCOMES} outcomes in all (faces to the power of dice)"
                ),
            );
            return;
        }
        let dname = self.lw.konst(&name, name_span);
        let fsym = self.lw.sym(&name);
        let Some(throws) = throws(&faces, count).or_else(|| throws(&reduced(&faces), count)) else {
            self.decl_error(
                span,
                format!(
                    "a throw of these dice weighs more than {} (the product of its faces' weights over their common divisor), so its probability cannot be exact: use fewer dice or closer weights",
                    i64::MAX
                ),
            );
            return;
        };
        for (faces, w) in throws {
            let m = Term::new(TermKind::App(fsym, faces), span);
            self.fact("outcome", vec![dname.clone(), m.clone()], span);
            let wt = Term::new(TermKind::Int(w), span);
            self.fact("weight", vec![m, wt], span);
        }
        self.nature_rules(dname, span);
    }

    /// `dice NAME` or `dice N NAME`: the number of dice, the name and its
    /// span, once per name.
    fn dice_name(&mut self, d: &Decl, span: Span) -> Option<(i64, String, Span)> {
        let head = self.part(d, "", "a name", span)?;
        let (count, name_ex) = match head {
            [item] if item.len() == 1 => (Some(1), &item[0]),
            [item] if item.len() == 2 => (self.lw.int(&item[0], "the number of dice"), &item[1]),
            _ => {
                self.decl_error(span, "expected `dice NAME: ...` or `dice N NAME: ...`");
                return None;
            }
        };
        let count = count?;
        let name = self.name_of(name_ex, "the name of the dice")?;
        if !self.dice.insert(name.clone()) {
            self.decl_error(name_ex.span, format!("dice `{name}` are declared twice"));
            return None;
        }
        Some((count, name, name_ex.span))
    }

    /// The faces after `:`, each `FACE` or `FACE weight W`, ranges expanded.
    fn faces(&mut self, items: &[Vec<Ex>]) -> Vec<(Term, i64)> {
        let mut faces: Vec<(Term, i64)> = Vec::new();
        for item in items {
            let (face, weight, weight_span) = match item.as_slice() {
                [f] => (f, Some(1), f.span),
                [
                    f,
                    Ex {
                        kind: ExKind::Name(w),
                        ..
                    },
                    wt,
                ] if w == "weight" => (f, self.lw.int(wt, "a weight"), wt.span),
                _ => {
                    self.decl_error(item[0].span, "a face is `FACE` or `FACE weight W`");
                    continue;
                }
            };
            let Some(weight) = weight else { continue };
            if !(1..=1_000_000).contains(&weight) {
                self.decl_error(weight_span, "a weight must be 1 to 1000000");
                continue;
            }
            for t in self.lw.expand(face, false) {
                if !is_ground(&t) {
                    self.decl_error(t.span, "a face must be a ground term");
                    continue;
                }
                if faces.len() >= MAX_OUTCOMES {
                    self.decl_error(
                        face.span,
                        format!("dice may have at most {MAX_OUTCOMES} faces; these are more"),
                    );
                    return faces;
                }
                faces.push((t, weight));
            }
        }
        faces
    }

    /// `legal(random, M) :- roll(Name), outcome(Name, M).` and, with the
    /// first dice, `legal(random, noop) :- not _rolling.` and
    /// `_rolling :- roll(D).`
    fn nature_rules(&mut self, dname: Term, span: Span) {
        let random = self.lw.konst(crate::gdl::RANDOM, span);
        let m = self.var("M", span);
        let body = vec![
            self.pos("roll", vec![dname.clone()], span),
            self.pos("outcome", vec![dname, m.clone()], span),
        ];
        let head = self.atom("legal", vec![random.clone(), m], span);
        self.rule(head, body, span);
        if self.dice.len() == 1 {
            let noop = self.lw.konst("noop", span);
            let rolling = self.pos("_rolling", Vec::new(), span);
            let head = self.atom("legal", vec![random, noop], span);
            self.rule(head, vec![Literal::Not(Box::new(rolling), span)], span);
            let dv = self.var("D", span);
            let body = vec![self.pos("roll", vec![dv], span)];
            let head = self.atom("_rolling", Vec::new(), span);
            self.rule(head, body, span);
        }
    }
}

/// The faces with their weights divided by the weights' greatest common
/// divisor: the same probabilities from smaller numbers.
fn reduced(faces: &[(Term, i64)]) -> Vec<(Term, i64)> {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let divisor = faces.iter().fold(0, |g, &(_, w)| gcd(g, w)).max(1);
    (faces.iter())
        .map(|(face, w)| (face.clone(), w / divisor))
        .collect()
}

/// Every throw of `count` dice: ordered tuples of faces with their weights
/// multiplied, equal tuples merged (weights added), in first-seen order;
/// `None` if a throw's weight passes `i64::MAX`.
fn throws(faces: &[(Term, i64)], count: i64) -> Option<IndexMap<Vec<Term>, i64>> {
    let mut tuples: Vec<(Vec<Term>, i64)> = vec![(Vec::new(), 1)];
    for _ in 0..count {
        let mut longer = Vec::with_capacity(tuples.len() * faces.len());
        for (t, w) in tuples {
            for (f, fw) in faces {
                let mut t = t.clone();
                t.push(f.clone());
                longer.push((t, w.checked_mul(*fw)?));
            }
        }
        tuples = longer;
    }
    let mut outcomes: IndexMap<Vec<Term>, i64> = IndexMap::new();
    for (t, w) in tuples {
        let total = outcomes.entry(t).or_insert(0);
        *total = total.checked_add(w)?;
    }
    Some(outcomes)
}
