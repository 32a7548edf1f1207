//! The compiler on small games: the order of base facts.

use crate::load::open_str;
use crate::syntax::Syntax;

#[test]
fn facts_mixing_numbers_and_names_are_ordered_numbers_first() {
    let mut text = String::from("(role a) (init (c 1a)) (init (c 123456789012345678901234567890))");
    for i in (1..=20).rev() {
        text.push_str(&format!(" (init (c {i}))"));
    }
    text.push_str(
        " (legal a noop) (<= (next (c ?x)) (true (c ?x))) (goal a 100) (<= terminal (true (c 1)))",
    );
    let Ok(loaded) = open_str("mixed.kif", &text, Syntax::Kif) else {
        panic!("the game does not load");
    };
    let game = loaded.game;
    let mut expected: Vec<String> = (1..=20).map(|i| format!("(c {i})")).collect();
    expected.push("(c 123456789012345678901234567890)".into());
    expected.push("(c 1a)".into());
    assert_eq!(game.show_state(&game.initial()), expected.join(" "));
}
