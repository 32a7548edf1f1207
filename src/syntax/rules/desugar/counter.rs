//! `counter NAME from START to TOP, up when L, reset when L.`: a bounded
//! counter held in the state as the fluent `NAME(V)`.
//!
//! Out, for `counter c from S to T` (S and T integers, parameters allowed):
//! `init c(S)`; `_c_up :- L` for every `up when L` and `_c_reset :- L` for
//! every `reset when L`; then `next c(N) :- true c(M), _c_up, M < T,
//! N = M + 1`, `next c(T) :- true c(T), _c_up` (the top stays) and
//! `next c(M) :- true c(M), not _c_up`, each with `not _c_reset` when there
//! are resets, and `next c(S) :- _c_reset` (a reset wins over a step up).
//! Every rule carries the span of the counter's name, but the `_c_up` and
//! `_c_reset` rules carry their condition's.
//! Holds: S =< T, the counter has at most [`MAX_COUNTER_VALUES`] values and
//! at least one `up when`; otherwise a located error (E0003) and no rules.

use super::{Desugar, MAX_COUNTER_VALUES};
use crate::syntax::ast::{ArithOp, Atom, CmpOp, Literal, Span, Term, TermKind};
use crate::syntax::rules::parser::Counter;

impl Desugar<'_> {
    pub(super) fn counter(&mut self, c: &Counter) {
        let Some((start, top)) = self.counter_range(c) else {
            return;
        };
        let span = c.name_span;
        if !c.when.iter().any(|(is_up, _)| *is_up) {
            self.decl_error(span, "a counter needs an `up when` condition");
            return;
        }
        let name = c.name.as_str();
        let up = format!("_{name}_up");
        let reset = format!("_{name}_reset");
        let value = |v: i64| Term::new(TermKind::Int(v), span);
        let at = self.app(name, vec![value(start)], span);
        self.fact("init", vec![at], span);
        for (is_up, lit) in &c.when {
            if let Some(l) = self.lw.literal(lit) {
                let head = self.atom(if *is_up { &up } else { &reset }, Vec::new(), lit.span());
                self.rule(head, vec![l], lit.span());
            }
        }
        let resets = c.when.iter().any(|(is_up, _)| !is_up);
        let no_reset =
            resets.then(|| Literal::Not(Box::new(self.pos(&reset, Vec::new(), span)), span));
        let m = self.var("M", span);
        let n = self.var("N", span);
        let stepping = self.pos(&up, Vec::new(), span);
        let still = Literal::Not(Box::new(stepping.clone()), span);
        // Up by one below the top; the top stays; no step, no change.
        let below = Literal::Cmp(CmpOp::Lt, m.clone(), value(top), span);
        let plus = Term::new(
            TermKind::Arith(ArithOp::Add, Box::new(m.clone()), Box::new(value(1))),
            span,
        );
        let add = Literal::Cmp(CmpOp::Eq, n.clone(), plus, span);
        let steps = [
            (m.clone(), n, vec![stepping.clone(), below, add]),
            (value(top), value(top), vec![stepping]),
            (m.clone(), m, vec![still]),
        ];
        for (now, then, mut conditions) in steps {
            conditions.extend(no_reset.clone());
            let fluent = self.app(name, vec![now], span);
            let mut body = vec![self.holds(fluent, span)];
            body.extend(conditions);
            let head = self.next_atom(name, then, span);
            self.rule(head, body, span);
        }
        if resets {
            let head = self.next_atom(name, value(start), span);
            let body = vec![self.pos(&reset, Vec::new(), span)];
            self.rule(head, body, span);
        }
    }

    fn next_atom(&mut self, name: &str, v: Term, span: Span) -> Atom {
        let fluent = self.app(name, vec![v], span);
        self.atom("next", vec![fluent], span)
    }

    /// START and TOP as integers, START =< TOP, not too many values.
    fn counter_range(&mut self, c: &Counter) -> Option<(i64, i64)> {
        let start = self.lw.int(&c.start, "a counter's start");
        let top = self.lw.int(&c.top, "a counter's top");
        let (start, top) = (start?, top?);
        let span = c.start.span.to(c.top.span);
        if start > top {
            self.decl_error(
                span,
                format!("a counter counts up: its start {start} is above its top {top}"),
            );
            return None;
        }
        if top
            .checked_sub(start)
            .is_none_or(|d| d >= MAX_COUNTER_VALUES)
        {
            self.decl_error(
                span,
                format!("a counter may hold at most {MAX_COUNTER_VALUES} values"),
            );
            return None;
        }
        Some((start, top))
    }
}
