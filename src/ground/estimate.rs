//! What grounding costs, counted rather than timed, so the default engine
//! can be chosen before grounding runs to its limits.
//!
//! In: the grounder's counters (candidate facts tried by the joins, literals
//! of the ground rules written, ground atoms made). Out: the grounding's
//! effort in [`Effort`] steps, and the budgets the default choice grounds
//! within ([`FIRST_LOOK`], [`budget_for`]). Holds: every figure is a count,
//! so the same program gets the same estimate and the same engine on every
//! machine and at every load.
//!
//! The weights come from profiles of the public corpus: a literal written
//! and a candidate tried cost about the same, an atom about eight times as
//! much (it is interned, indexed and hashed in every relation it is in).

/// Grounding effort, in steps: candidate facts tried, plus literals of
/// the ground rules written, plus [`ATOM_STEPS`] per ground atom.
pub type Effort = u64;

/// Steps one ground atom counts for.
pub const ATOM_STEPS: Effort = 8;

/// The effort of a grounding that tried `work` candidate facts and wrote
/// `literals` literals and `atoms` atoms.
pub fn effort(work: u64, literals: usize, atoms: usize) -> Effort {
    work.saturating_add(literals as Effort)
        .saturating_add((atoms as Effort).saturating_mul(ATOM_STEPS))
}

/// The effort every game may ground with, whatever its work per state:
/// a tenth of a second or two. Every conformance and shipped game grounds
/// within it (the largest in 1,803,210 steps: docs/ENGINES.md); past it
/// only a game whose cost per state on the rule evaluator allows it
/// ([`budget_for`]) grounds on, so a game that falls back spends no more
/// than this on grounding (no more than [`MEASURE_AT`] if its states are
/// cheap).
pub const FIRST_LOOK: Effort = 2_500_000;

/// The effort at which a game's state is measured on the rule evaluator
/// (half the first look): a game whose budget ([`budget_for`]) is no more
/// than that falls back there, without grounding the rest of the first
/// look; another grounds on, in place, to its budget or the first look,
/// whichever is larger ([`grounds_up_to`]). Every conformance and shipped
/// game but one grounds within it (the next largest in 1,176,869 steps),
/// so only that one pays for a measure it does not need.
pub const MEASURE_AT: Effort = FIRST_LOOK / 2;

/// Where the default choice stops grounding a game whose budget is
/// `budget`: at [`MEASURE_AT`] if the budget is no more, else at the
/// budget or the first look, whichever is larger.
pub fn grounds_up_to(budget: Effort) -> Effort {
    match budget <= MEASURE_AT {
        true => MEASURE_AT,
        false => budget.max(FIRST_LOOK),
    }
}

/// States whose evaluation on the rule evaluator a grounding may cost
/// (one step against one candidate fact tried) before the rule evaluator
/// is the better choice: a game whose ground program is huge for the work
/// of one of its states runs without one.
pub const PAYBACK_STATES: Effort = 1_500;

/// The most effort a game the rule evaluator can run is ever grounded with
/// by default, however costly its states (a second or two): a game whose
/// ground program would pass the limits falls back after it instead of
/// grounding up to them. The largest grounding kept in the public corpus
/// takes 14,800,000.
pub const MAX_BUDGET: Effort = 20_000_000;

/// The cost of a state on the rule evaluator from which the budget is
/// [`MAX_BUDGET`]: a measure may stop there.
pub const ENOUGH_PER_STATE: u64 = MAX_BUDGET.div_ceil(PAYBACK_STATES);

/// The effort a game may ground with when one of its states costs the rule
/// evaluator `per_state` candidate facts: [`PAYBACK_STATES`] such states,
/// at most [`MAX_BUDGET`].
pub fn budget_for(per_state: u64) -> Effort {
    per_state.saturating_mul(PAYBACK_STATES).min(MAX_BUDGET)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atom_counts_eight_steps_and_nothing_overflows() {
        assert_eq!(effort(10, 20, 3), 54);
        assert_eq!(effort(u64::MAX, usize::MAX, usize::MAX), u64::MAX);
    }

    #[test]
    fn a_cheap_game_stops_at_the_measure_another_at_its_budget_or_the_first_look() {
        assert_eq!(grounds_up_to(0), MEASURE_AT);
        assert_eq!(grounds_up_to(MEASURE_AT), MEASURE_AT);
        assert_eq!(grounds_up_to(MEASURE_AT + 1), FIRST_LOOK);
        assert_eq!(grounds_up_to(MAX_BUDGET), MAX_BUDGET);
    }

    #[test]
    fn the_budget_is_the_payback_states_work_up_to_the_most() {
        assert_eq!(budget_for(0), 0);
        assert_eq!(budget_for(4_000), 6_000_000);
        assert_eq!(budget_for(19_000), MAX_BUDGET);
        assert_eq!(budget_for(u64::MAX), MAX_BUDGET);
    }
}
