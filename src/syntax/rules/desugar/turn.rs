//! `turn R1, R2, ... [using MOVES] [until DONE].`: whose turn it is.
//!
//! Out: `control(R)` passed round in order (`init`, `next`, `turn_order`),
//! `noop` for every role not in control; with `using`, the legal moves of the
//! role in control come from the relation `MOVES(R, M)` (and `noop` when it
//! has none); with `until`, control stays while `DONE` is false.

use super::Desugar;
use crate::syntax::ast::{Literal, Span};
use crate::syntax::rules::parser::{Decl, Ex};

impl Desugar<'_> {
    pub(super) fn turn(&mut self, d: &Decl, span: Span) {
        self.only_parts(d, &["", "using", "until"]);
        let Some(items) = self.part(d, "", "the roles in turn order", span) else {
            return;
        };
        let order = self.turn_order(items);
        if order.is_empty() {
            return;
        }
        let using = self.optional_relation(d, "using", span);
        let until = self.optional_relation(d, "until", span);
        // init control(First).
        let first = self.lw.konst(&order[0].0, order[0].1);
        let ctl = self.app("control", vec![first], span);
        self.fact("init", vec![ctl], span);
        for (i, (cur, cur_span)) in order.iter().enumerate() {
            let (nxt, _) = &order[(i + 1) % order.len()];
            self.pass_control(cur, nxt, *cur_span, until.as_deref());
            self.wait(cur, *cur_span, using.is_some());
        }
        if let Some(u) = &using {
            self.moves_from(u, span);
        }
    }

    /// The roles of a `turn`, each a declared role other than `random`.
    fn turn_order(&mut self, items: &[Vec<Ex>]) -> Vec<(String, Span)> {
        let mut order = Vec::new();
        for item in items {
            if item.len() > 1 {
                self.decl_error(item[1].span, "separate role names with `,`");
            }
            for ex in item.iter().take(1) {
                if let Some(n) = self.name_of(ex, "a role name") {
                    if n == crate::gdl::RANDOM {
                        self.decl_error(ex.span, "nature (`random`) takes no turns");
                    } else if self.role_known(&n, ex.span) {
                        order.push((n, ex.span));
                    }
                }
            }
        }
        order
    }

    /// The relation named after `word` (`using`, `until`), if the part is there.
    fn optional_relation(&mut self, d: &Decl, word: &str, span: Span) -> Option<String> {
        d.part(word)?;
        let ex = self.one(d, word, "a relation name", span)?;
        self.name_of(ex, "a relation name")
    }

    /// `turn_order(Cur, Next).`, `next control(Next) :- true control(Cur)
    /// [, Until].` and, with `until`, `next control(Cur) :- true
    /// control(Cur), not Until.`
    fn pass_control(&mut self, cur: &str, nxt: &str, span: Span, until: Option<&str>) {
        let cur_t = self.lw.konst(cur, span);
        let nxt_t = self.lw.konst(nxt, span);
        self.fact("turn_order", vec![cur_t.clone(), nxt_t.clone()], span);
        let ctl_cur = self.app("control", vec![cur_t], span);
        let ctl_nxt = self.app("control", vec![nxt_t], span);
        let mut body = vec![self.holds(ctl_cur.clone(), span)];
        if let Some(u) = until {
            body.push(self.pos(u, Vec::new(), span));
        }
        let head = self.atom("next", vec![ctl_nxt], span);
        self.rule(head, body, span);
        if let Some(u) = until {
            let not_u = self.pos(u, Vec::new(), span);
            let body = vec![
                self.holds(ctl_cur.clone(), span),
                Literal::Not(Box::new(not_u), span),
            ];
            let head = self.atom("next", vec![ctl_cur], span);
            self.rule(head, body, span);
        }
    }

    /// `legal(Cur, noop) :- not true control(Cur).` and, with `using`,
    /// `legal(Cur, noop) :- not has_move(Cur).`
    fn wait(&mut self, cur: &str, span: Span, using: bool) {
        let cur_t = self.lw.konst(cur, span);
        let ctl_cur = self.app("control", vec![cur_t.clone()], span);
        let noop = self.lw.konst("noop", span);
        let waiting = self.holds(ctl_cur, span);
        let head = self.atom("legal", vec![cur_t.clone(), noop.clone()], span);
        self.rule(head, vec![Literal::Not(Box::new(waiting), span)], span);
        if using {
            let has = self.pos("has_move", vec![cur_t.clone()], span);
            let head = self.atom("legal", vec![cur_t, noop], span);
            self.rule(head, vec![Literal::Not(Box::new(has), span)], span);
        }
    }

    /// `legal(R, M) :- true control(R), Using(R, M).` and
    /// `has_move(R) :- Using(R, M).`
    fn moves_from(&mut self, using: &str, span: Span) {
        let r = self.var("R", span);
        let m = self.var("M", span);
        let ctl = self.app("control", vec![r.clone()], span);
        let body = vec![
            self.holds(ctl, span),
            self.pos(using, vec![r.clone(), m.clone()], span),
        ];
        let head = self.atom("legal", vec![r.clone(), m.clone()], span);
        self.rule(head, body, span);
        let body = vec![self.pos(using, vec![r.clone(), m], span)];
        let head = self.atom("has_move", vec![r], span);
        self.rule(head, body, span);
    }
}
