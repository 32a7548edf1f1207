//! Goal and weight values written as something other than an integer.
//!
//! In: a program that passed the static checks. Out: an `E0202` error at
//! every `goal(R, V)` or `weight(M, V)` head whose value `V` is written as
//! a ground term that is no integer (`(goal x high)`). Holds: the compiled
//! engines and the rule evaluator refuse such a game alike, before
//! grounding, at the rule that says it; a value that only a variable
//! carries is found by the compiler (`compile::CompileError`).

use crate::diag::{Diagnostic, codes};
use crate::syntax::ast::{Program, Symbols, Syntax, Term, TermKind};
use crate::syntax::print::Show;

/// Every goal or weight head with a ground value that is no integer.
pub fn written_values(program: &Program) -> Vec<Diagnostic> {
    let symbols = &program.symbols;
    let show = |t: &Term| {
        let shown = Show {
            item: t,
            symbols,
            syntax: program.syntax,
        };
        shown.to_string()
    };
    let mut errors = Vec::new();
    for rule in &program.rules {
        let head = &rule.head;
        let [first, value] = &head.args[..] else {
            continue;
        };
        let (what, whose) = match symbols.name(head.rel) {
            "goal" => ("goal value", "role"),
            "weight" => ("weight", "move"),
            _ => continue,
        };
        if !value.has_no_vars() || is_integer(value, program.syntax, symbols) {
            continue;
        }
        errors.push(Diagnostic::error(
            codes::ARITHMETIC,
            value.span,
            format!(
                "{what} {} of {whose} {} is not an integer",
                show(value),
                show(first)
            ),
        ));
    }
    errors
}

/// Whether a ground term is an integer: an integer literal, or in KIF a
/// constant that reads as one (GDL's numbers are constants). Arithmetic
/// counts as an integer here; grounding evaluates it.
fn is_integer(t: &Term, syntax: Syntax, symbols: &Symbols) -> bool {
    match &t.kind {
        TermKind::Int(_) | TermKind::Arith(..) => true,
        TermKind::Const(s) => syntax == Syntax::Kif && symbols.name(*s).parse::<i64>().is_ok(),
        _ => false,
    }
}
