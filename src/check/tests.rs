//! The checks on small programs: what is accepted, what is refused, and
//! the strata they compute.

use super::analyse;
use crate::diag::{Diagnostic, Severity, codes};
use crate::syntax::{SourceMap, Syntax, parse_str};

fn run(text: &str, syntax: Syntax) -> (Vec<Diagnostic>, Vec<Vec<String>>) {
    let mut sources = SourceMap::default();
    let program = parse_str(&mut sources, "t", text, syntax)
        .unwrap_or_else(|e| panic!("does not parse: {e:?}"));
    let analysis = analyse(&program);
    let strata = analysis
        .summary
        .strata
        .iter()
        .map(|s| {
            let mut names: Vec<String> = s
                .iter()
                .map(|r| program.symbols.name(*r).to_string())
                .collect();
            names.sort();
            names
        })
        .collect();
    (analysis.diagnostics, strata)
}

/// The codes of the errors (not warnings), in order.
fn errors(text: &str, syntax: Syntax) -> Vec<&'static str> {
    run(text, syntax)
        .0
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.as_str())
        .collect()
}

const KIF: Syntax = Syntax::Kif;
const RULES: Syntax = Syntax::Rules;

#[test]
fn binding_does_not_depend_on_literal_order() {
    let ok = "roles x. q(1). p(Z) :- Z = Y + 1, Y = X * 2, q(X).";
    assert_eq!(errors(ok, RULES), Vec::<&str>::new());
    let ok = "roles x. q(1). p(X) :- not r(X), X != 2, q(X). r(3).";
    assert_eq!(errors(ok, RULES), Vec::<&str>::new());
}

#[test]
fn an_equation_of_two_unbound_variables_binds_neither() {
    assert_eq!(errors("roles x. p(X) :- X = Y.", RULES), ["E0102", "E0102"]);
}

#[test]
fn or_binds_what_every_branch_binds() {
    let ok = "(role x) (q a) (r a) (<= (p ?x) (or (q ?x) (and (r ?x) (q ?x))))";
    assert_eq!(errors(ok, KIF), Vec::<&str>::new());
    let bad = "(role x) (q a) (<= (p ?x) (or (q ?x) (q a)))";
    assert_eq!(errors(bad, KIF), ["E0102"]);
    // A branch may use what the rest of the body binds.
    let ok = "(role x) (q a) (r a) (<= (p ?x) (q ?x) (or (r ?x) (distinct ?x b)))";
    assert_eq!(errors(ok, KIF), Vec::<&str>::new());
}

#[test]
fn arithmetic_inside_a_positive_atom_does_not_bind() {
    assert_eq!(errors("roles x. q(1). p :- q(X + 1).", RULES), ["E0102"]);
}

#[test]
fn strata_follow_negation() {
    let text = "(role x) (q a) (<= r (q a)) (<= p (not r)) (<= s p (not p))";
    let (diags, strata) = run(text, KIF);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(strata, [vec!["q", "r", "role"], vec!["p"], vec!["s"]]);
}

#[test]
fn true_and_does_break_cycles() {
    let text = "(role x) (init (c 1)) (<= (next (c 1)) (not (true (c 1)))) \
                (<= (legal x a) (true (c 1))) (<= (next (c 2)) (does x a) (not (next-ok)))\
                (<= (next-ok) (true (c 2)))";
    assert_eq!(errors(text, KIF), Vec::<&str>::new());
}

#[test]
fn a_negative_cycle_through_a_long_path_is_named() {
    let text = "(role x) (<= a b) (<= b c) (<= c (not d)) (<= d a)";
    let (diags, _) = run(text, KIF);
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        "recursion through negation by relation names: c -> not d -> a -> b -> c"
    );
}

#[test]
fn positive_recursion_is_fine() {
    let text = "(role x) (succ 1 2) (succ 2 3) (<= (lt ?a ?b) (succ ?a ?b)) \
                (<= (lt ?a ?c) (succ ?a ?b) (lt ?b ?c))";
    assert_eq!(errors(text, KIF), Vec::<&str>::new());
}

#[test]
fn reserved_dependencies() {
    // goal may depend on true; terminal on true.
    let ok = "(role x) (<= (goal x 1) (true done)) (<= terminal (true done))";
    assert_eq!(errors(ok, KIF), Vec::<&str>::new());
    // terminal may not depend on does, even through two relations.
    let bad = "(role x) (<= m (does x a)) (<= n m) (<= terminal n)";
    assert_eq!(errors(bad, KIF), ["E0104"]);
    // role must be static.
    let bad = "(role x) (<= (role y) (true (c 1)))";
    assert_eq!(errors(bad, KIF), ["E0104"]);
    // next and sees may depend on does.
    let ok = "(role x) (<= (next (c ?m)) (does x ?m)) (<= (sees x ?m) (does x ?m))";
    assert_eq!(errors(ok, KIF), Vec::<&str>::new());
}

#[test]
fn moves_and_fluents_have_their_own_arities() {
    // `cell` the fluent and `cell` the relation are different things.
    let ok = "(role x) (cell 1 2) (init (cell 1 2 3)) (<= (legal x (cell 1)) (cell 1 2))";
    assert_eq!(errors(ok, KIF), Vec::<&str>::new());
    assert_eq!(errors("(role x) (<= (legal x) (role x))", KIF), ["E0101"]);
    assert_eq!(
        errors("(role x) (<= (terminal x) (role x))", KIF),
        ["E0101"]
    );
}

#[test]
fn undefined_is_a_warning_once_per_relation() {
    let (diags, _) = run("(role x) (<= p (q 1)) (<= r (q 2))", KIF);
    let undefined: Vec<_> = diags
        .iter()
        .filter(|d| d.code == codes::UNDEFINED)
        .collect();
    assert_eq!(undefined.len(), 1);
    assert_eq!(undefined[0].severity, Severity::Warning);
}

#[test]
fn no_roles_in_an_empty_program() {
    assert_eq!(errors("", KIF), ["E0106"]);
    assert_eq!(errors("", RULES), ["E0106"]);
}
