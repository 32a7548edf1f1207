//! The rule evaluator behind a [`Machine`](crate::engine::Machine): the
//! reserved queries of one state asked of an [`Evaluator`] and turned into
//! move indices, base-fact bits and numbers.
//!
//! In: a state's bits, then a joint move or a request for goals. Out: the
//! terminal test, legal moves per role, weights of the chance role's moves,
//! the next state's bits, goal values. Holds: an evaluation of a state
//! that stops (a limit, a cycle through negation) leaves no legal move and
//! is reported by [`RuleMachine::failure`] until the next state is loaded;
//! one of a next state is an error of [`RuleMachine::next`] itself.

use super::eval::{Evaluator, Stop};
use super::{Level, RuleGame, Special};
use crate::ground::TermId;
use crate::syntax::print::Applied;
use crate::syntax::{Sym, Syntax, Term, TermKind};

/// One machine's rule evaluator and the answers of its loaded state.
pub struct RuleMachine<'g> {
    game: &'g RuleGame,
    eval: Evaluator<'g>,
    pub terminal: bool,
    /// Weights of the chance role's legal moves: (move, weight) pairs.
    pub weights: Vec<(u32, i64)>,
    failed: Option<Stop>,
}

impl<'g> RuleMachine<'g> {
    pub fn new(game: &'g RuleGame) -> RuleMachine<'g> {
        RuleMachine {
            game,
            eval: Evaluator::new(game, game.terms.clone()),
            terminal: false,
            weights: Vec::new(),
            failed: None,
        }
    }

    /// Candidate facts tried by the last [`load`](Self::load) or
    /// [`next`](Self::next) (an estimate's measure of a state's cost).
    pub fn work(&self) -> u64 {
        self.eval.work()
    }

    /// Candidate facts tried by every evaluation of this machine.
    pub fn total_work(&self) -> u64 {
        self.eval.total_work()
    }

    /// Stops every later evaluation past `cap` candidate facts (reported
    /// as a limit reached).
    pub fn set_work_cap(&mut self, cap: u64) {
        self.eval.set_work_cap(cap);
    }

    /// Why the loaded state could not be evaluated, if it could not.
    pub fn failure(&self) -> Option<String> {
        self.failed.as_ref().map(Stop::to_string)
    }

    /// Loads a state: terminal, every role's legal moves and the weights.
    pub fn load(&mut self, bits: &[u64], legal: &mut [Vec<u32>]) {
        legal.iter_mut().for_each(Vec::clear);
        self.weights.clear();
        self.terminal = false;
        self.eval.load(bits);
        self.failed = None;
        if let Err(stop) = self.view(legal) {
            legal.iter_mut().for_each(Vec::clear);
            self.weights.clear();
            self.terminal = false;
            self.failed = Some(stop);
        }
    }

    fn view(&mut self, legal: &mut [Vec<u32>]) -> Result<(), Stop> {
        let special: Special = self.game.rules.special;
        if let Some(t) = special.terminal {
            self.terminal = self.eval.holds(t)?;
        }
        // One call per role: the pattern `legal(R, M)` with `R` bound is
        // the one rules such as `has_legal_move(R)` make, so a terminal test
        // reading them has filled its table already.
        if let Some(l) = special.legal {
            for (r, &role) in self.game.roles.iter().enumerate() {
                for pair in self.eval.ask(l, &[Some(role), None])?.chunks(2) {
                    if let Some(&m) = self.game.moves[r].get(&pair[1]) {
                        legal[r].push(m);
                    }
                }
                legal[r].sort_unstable();
            }
        }
        if let (Some(w), Some(random)) = (special.weight, self.game.random) {
            for pair in self.eval.ask(w, &[None, None])?.chunks(2) {
                let mv = self.game.moves[random].get(&pair[0]);
                let value = self.eval.terms().int_value(pair[1], &self.game.symbols);
                if let (Some(&mv), Some(value)) = (mv, value) {
                    self.weights.push((mv, value));
                }
            }
        }
        Ok(())
    }

    /// The next state's bits after a joint move from the loaded state, or
    /// why the evaluation stopped.
    pub fn next(&mut self, joint: &[u32], out: &mut [u64]) -> Result<(), Stop> {
        out.iter_mut().for_each(|w| *w = 0);
        let game = self.game;
        let does = (joint.iter().enumerate())
            .map(|(r, &m)| (game.roles[r], game.move_terms[r][m as usize]));
        self.eval.set_moves(does);
        let Some(next) = game.rules.special.next else {
            return Ok(());
        };
        for fact in self.eval.ask(next, &[None])? {
            // The domain holds every fact `next` can give.
            if let Some(&i) = game.base_index.get(&fact) {
                out[i as usize / 64] |= 1 << (i % 64);
            }
        }
        Ok(())
    }

    /// Every goal value of every role in the loaded state.
    pub fn goals(&mut self) -> Result<Vec<Vec<i64>>, String> {
        let mut values = vec![Vec::new(); self.game.roles.len()];
        if let Some(e) = self.failure() {
            return Err(e);
        }
        let Some(goal) = self.game.rules.special.goal else {
            return Ok(values);
        };
        let answers = self
            .eval
            .ask(goal, &[None, None])
            .map_err(|s| s.to_string())?;
        for pair in answers.chunks(2) {
            let role = self.game.roles.iter().position(|&r| r == pair[0]);
            let value = self.eval.terms().int_value(pair[1], &self.game.symbols);
            if let (Some(r), Some(v)) = (role, value) {
                values[r].push(v);
            }
        }
        values.iter_mut().for_each(|v| v.sort_unstable());
        Ok(values)
    }

    /// The atoms matching `pattern` that hold in the loaded state, printed
    /// in `syntax` (the REPL's `query`); relations reading `does` never
    /// hold without moves.
    pub fn query(&mut self, pattern: &Term, syntax: Syntax) -> Result<Vec<String>, String> {
        let (name, args): (Sym, &[Term]) = match &pattern.kind {
            TermKind::Const(s) => (*s, &[]),
            TermKind::App(f, args) => (*f, args),
            _ => return Ok(Vec::new()),
        };
        let rules = &self.game.rules;
        let Some(rel) = rules.relation((name, args.len())) else {
            return Ok(Vec::new());
        };
        if rules.level(rel) == Level::Move {
            return Ok(Vec::new());
        }
        let call: Vec<Option<TermId>> = (args.iter())
            .map(|a| self.eval.terms().lookup(a, &[]))
            .collect();
        let answers = self.eval.ask(rel, &call).map_err(|s| s.to_string())?;
        let terms = self.eval.terms();
        let chunks: Vec<&[TermId]> = match args.len() {
            0 => answers.iter().map(|_| &[][..]).collect(),
            n => answers.chunks(n).collect(),
        };
        Ok((chunks.into_iter())
            .filter(|answer| {
                let mut env = Vec::new();
                (args.iter().zip(answer.iter())).all(|(p, &t)| terms.matches(p, t, &mut env))
            })
            .map(|answer| {
                Applied {
                    name,
                    args: answer.iter().map(|&t| terms.view(t)),
                    symbols: &self.game.symbols,
                    syntax,
                }
                .to_string()
            })
            .collect())
    }
}
