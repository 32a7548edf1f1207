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

use crate::syntax::CmpOp;

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

/// The effort at which the default choice first predicts the ground
/// program's size ([`crate::ground::Overrun::predicted`]): a game predicted
/// past [`MEASURE_AT`] is measured there, without grounding on to it.
pub const PEEK: Effort = MEASURE_AT / 4;

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

/// The instances of a join predicted from its literals: `facts[i]` facts
/// match literal `i`, and `values[v]` lists the distinct values variable `v`
/// takes in each literal that reads it. The product of the facts, divided,
/// for each variable, by its distinct values in every literal but the one
/// where it takes fewest (values taken independently: two literals sharing
/// a variable of `d` values pair each fact with `1/d` of the other's), and
/// multiplied by the share `kept` the rule's comparisons let through
/// ([`comparison_keeps`]).
pub fn join_size(facts: &[u64], values: &[Vec<u64>], kept: f64) -> u64 {
    let mut size: f64 = facts.iter().map(|&n| n as f64).product::<f64>() * kept;
    for distinct in values.iter().filter(|d| d.len() > 1) {
        let fewest = distinct.iter().copied().min().unwrap_or(1).max(1);
        let all: f64 = distinct.iter().map(|&d| d.max(1) as f64).product();
        size *= fewest as f64 / all;
    }
    // `as` saturates: a product past the largest count is the largest.
    size.round() as u64
}

/// The steps a grounding that took `so_far` steps to write `written`
/// ground rules and literals would take to write `predicted`: as many
/// again for each as many more, never fewer than taken.
pub fn scaled(so_far: Effort, predicted: u64, written: u64) -> Effort {
    if predicted <= written {
        return so_far;
    }
    let ratio = predicted as f64 / written.max(1) as f64;
    // `as` saturates: past the largest count is the largest.
    ((so_far as f64 * ratio).round() as Effort).min(MOST_PREDICTED)
}

/// The largest prediction told apart from a larger one: a thousand times
/// the largest budget, where any prediction is far beyond.
pub const MOST_PREDICTED: Effort = MAX_BUDGET * 1_000;

/// Whether a grounding predicted to take `predicted` steps is beyond the
/// `up_to` it may take: more than twice that, as a prediction may be off
/// by as much (docs/ENGINES.md, "How an engine is chosen").
pub fn beyond(predicted: Effort, up_to: Effort) -> bool {
    predicted / 2 > up_to
}

/// One side of a comparison, for [`comparison_keeps`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A variable a positive literal binds, taking this many values.
    Values(u64),
    /// A constant.
    Constant,
    /// An expression whose variables positive literals bind: one value
    /// per instance, like a constant.
    Expression,
    /// A variable the comparison itself binds, or an expression that
    /// reads one.
    Other,
}

/// The share of a join's instances a comparison lets through, its values
/// taken as independent and uniform: `X = Y` one in the larger number of
/// values, `X != Y` all but one in the smaller, an ordering half; `not`
/// the rest. A variable a literal binds equal to an expression (`M = N +
/// 1`) or a constant keeps one in its values; an `=` that binds an
/// expression's value filters nothing.
pub fn comparison_keeps(op: CmpOp, negated: bool, left: Side, right: Side) -> f64 {
    let equal = match (left, right) {
        (Side::Values(a), Side::Values(b)) => Some(1.0 / a.max(b).max(1) as f64),
        (Side::Values(d), Side::Constant | Side::Expression)
        | (Side::Constant | Side::Expression, Side::Values(d)) => Some(1.0 / d.max(1) as f64),
        (Side::Other, _) | (_, Side::Other) => None,
        (Side::Constant | Side::Expression, Side::Constant | Side::Expression) => None,
    };
    let share = match op {
        CmpOp::Eq => equal.unwrap_or(1.0),
        CmpOp::Ne => equal.map_or(1.0, |e| 1.0 - e),
        CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => 0.5,
    };
    match negated {
        true => 1.0 - share,
        false => share,
    }
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
    fn a_join_divides_by_the_values_of_its_shared_variables() {
        // p(X, Y) of 100 facts, 10 values of Y; q(Y, Z) of 50 facts, 25
        // values of Y: 100 x 50 / 25 pairs.
        assert_eq!(
            join_size(&[100, 50], &[vec![], vec![10, 25], vec![]], 1.0),
            200
        );
        // A variable read by three literals: divided by all but the fewest.
        assert_eq!(join_size(&[8, 8, 8], &[vec![8, 4, 2]], 1.0), 16);
        // A literal with no fact: no instance.
        assert_eq!(join_size(&[0, 1_000], &[], 1.0), 0);
        // Past the largest count: the largest.
        assert_eq!(join_size(&[u64::MAX, 1_000], &[], 1.0), u64::MAX);
        assert_eq!(join_size(&[100, 100], &[], 0.5), 5_000);
    }

    #[test]
    fn comparisons_keep_a_share_of_the_instances() {
        use Side::{Constant, Expression, Other, Values};
        let keeps = comparison_keeps;
        assert_eq!(keeps(CmpOp::Ne, false, Values(8), Values(4)), 0.875);
        assert_eq!(keeps(CmpOp::Eq, false, Values(8), Values(4)), 0.125);
        assert_eq!(keeps(CmpOp::Eq, false, Values(5), Constant), 0.2);
        assert!((keeps(CmpOp::Eq, true, Values(5), Constant) - 0.8).abs() < 1e-12);
        assert_eq!(keeps(CmpOp::Lt, false, Values(5), Values(5)), 0.5);
        // `N = M` binds N: no filter.
        assert_eq!(keeps(CmpOp::Eq, false, Other, Values(5)), 1.0);
        // `M = N + 1`, both bound: one M in its 5 values is N + 1.
        assert_eq!(keeps(CmpOp::Eq, false, Values(5), Expression), 0.2);
        assert_eq!(keeps(CmpOp::Ne, false, Expression, Values(5)), 0.8);
    }

    #[test]
    fn a_prediction_scales_the_steps_taken_by_the_rules_still_to_write() {
        assert_eq!(scaled(1_000, 5_000, 1_000), 5_000);
        // Fewer predicted than written: the steps taken.
        assert_eq!(scaled(1_000, 10, 1_000), 1_000);
        assert_eq!(scaled(1_000, 10, 0), 10_000);
        assert_eq!(scaled(u64::MAX, u64::MAX, 1), MOST_PREDICTED);
    }

    #[test]
    fn beyond_is_more_than_twice() {
        assert!(!beyond(2 * MEASURE_AT, MEASURE_AT));
        assert!(!beyond(2 * MEASURE_AT + 1, MEASURE_AT));
        assert!(beyond(2 * MEASURE_AT + 2, MEASURE_AT));
        assert!(beyond(u64::MAX, MAX_BUDGET));
    }

    #[test]
    fn the_budget_is_the_payback_states_work_up_to_the_most() {
        assert_eq!(budget_for(0), 0);
        assert_eq!(budget_for(4_000), 6_000_000);
        assert_eq!(budget_for(19_000), MAX_BUDGET);
        assert_eq!(budget_for(u64::MAX), MAX_BUDGET);
    }
}
