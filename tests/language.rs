//! The native rule language: the desugaring of every declaration (as printed
//! rules), located errors, parameters, `extends`, sections and labelled
//! rules, counters (read and played), the REPL entry points, bad input, and
//! every example of docs/LANGUAGE.md.

mod common;
use common::{Scenario, sorted};
use std::path::Path;
use tabula::diag::{Diagnostic, codes};
use tabula::syntax::rules::{self, show_literal, show_rule};
use tabula::syntax::{
    self, Colour, MarkStyle, Program, RegionStyle, SourceMap, Symbols, Syntax, Term,
};

fn parse(text: &str) -> Result<Program, (SourceMap, Vec<Diagnostic>)> {
    let mut sources = SourceMap::default();
    match syntax::parse_str(&mut sources, "test.rules", text, Syntax::Rules) {
        Ok(p) => Ok(p),
        Err(e) => Err((sources, e)),
    }
}

fn printed(p: &Program) -> Vec<String> {
    p.rules.iter().map(|r| show_rule(r, &p.symbols)).collect()
}

fn render(sources: &SourceMap, errors: &[Diagnostic]) -> String {
    errors
        .iter()
        .map(|d| tabula::diag::render(d, sources, "test.rules", false))
        .collect()
}

fn program(text: &str) -> Program {
    match parse(text) {
        Ok(p) => p,
        Err((s, e)) => panic!("{}", render(&s, &e)),
    }
}

fn rules_of(text: &str) -> Vec<String> {
    printed(&program(text))
}

/// The printed rules a declaration adds to a program that has only `prefix`.
fn generated(prefix: &str, decl: &str) -> Vec<String> {
    let before = rules_of(prefix).len();
    rules_of(&format!("{prefix}\n{decl}"))[before..].to_vec()
}

fn located(sources: &SourceMap, errors: &[Diagnostic]) -> Vec<String> {
    errors
        .iter()
        .map(|d| match d.span {
            Some(span) => {
                let (l, c) = sources.file(span.file).line_col(span.start as usize);
                format!("{l}:{c} {} {}", d.code, d.message)
            }
            None => format!("- {} {}", d.code, d.message),
        })
        .collect()
}

/// The errors of a text as `LINE:COL CODE message`.
fn show_term(p: &Program, t: &Term) -> String {
    tabula::syntax::Show {
        item: t,
        symbols: &p.symbols,
        syntax: Syntax::Rules,
    }
    .to_string()
}

fn errors_of(text: &str) -> Vec<String> {
    match parse(text) {
        Ok(p) => panic!("expected errors, got {:?}", printed(&p)),
        Err((s, e)) => located(&s, &e),
    }
}

/// Expected rules, one statement per `.` at the end of a word.
fn lines(s: &str) -> Vec<String> {
    s.lines()
        .flat_map(|l| l.split(". "))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            if l.ends_with('.') {
                l.to_string()
            } else {
                format!("{l}.")
            }
        })
        .collect()
}

// ------------------------------------------------------------------ rules

#[test]
fn rules_sugar_anonymous_variables_and_groups() {
    let got = rules_of(
        "p(X) :- q(X, _), not r(X), X + 1 > 2 * 3, (a ; b, c).\n\
         init cell(1..2, 3, b).\n\
         next f(X) :- true g(X), does(R, m(X)), Y = X mod 2 - -1.\n\
         z.",
    );
    assert_eq!(
        got,
        lines(
            "p(X) :- q(X, _), not r(X), (X + 1) > 6, (a ; b, c).
             init(cell(1, 3, b)).
             init(cell(2, 3, b)).
             next(f(X)) :- true(g(X)), does(R, m(X)), Y = ((X mod 2) - -1).
             z."
        )
    );
}

#[test]
fn every_node_has_the_span_of_its_text() {
    let text = "roles x.\np(X) :- q(X).";
    let p = program(text);
    let rule = &p.rules[1];
    let at = |s: tabula::syntax::Span| &text[s.start as usize..s.end as usize];
    assert_eq!(at(rule.span), "p(X) :- q(X).");
    assert_eq!(at(rule.head.span), "p(X)");
    assert_eq!(at(rule.body[0].span()), "q(X)");
    assert_eq!(at(rule.head.args[0].span), "X");
    // Generated rules point at their declaration.
    assert_eq!(at(p.rules[0].span), "x");
}

// ------------------------------------------------------------------ declarations

#[test]
fn game_and_roles() {
    let p = program("game \"Tic \\\"tac\\\" toe\".\nroles x, o, random.");
    assert_eq!(p.meta.title.as_deref(), Some("Tic \"tac\" toe"));
    assert_eq!(printed(&p), lines("role(x). role(o). role(random)."));
}

#[test]
fn turn_plain() {
    assert_eq!(
        generated("roles x, o.", "turn x, o."),
        lines(
            "init(control(x)).
             turn_order(x, o).
             next(control(o)) :- true(control(x)).
             legal(x, noop) :- not true(control(x)).
             turn_order(o, x).
             next(control(x)) :- true(control(o)).
             legal(o, noop) :- not true(control(o))."
        )
    );
}

#[test]
fn turn_using_and_until() {
    assert_eq!(
        generated("roles a, b.", "turn a, b using mv until done."),
        lines(
            "init(control(a)).
             turn_order(a, b).
             next(control(b)) :- true(control(a)), done.
             next(control(a)) :- true(control(a)), not done.
             legal(a, noop) :- not true(control(a)).
             legal(a, noop) :- not has_move(a).
             turn_order(b, a).
             next(control(a)) :- true(control(b)), done.
             next(control(b)) :- true(control(b)), not done.
             legal(b, noop) :- not true(control(b)).
             legal(b, noop) :- not has_move(b).
             legal(R, M) :- true(control(R)), mv(R, M).
             has_move(R) :- mv(R, M)."
        )
    );
}

#[test]
fn grid_board() {
    let got = generated("roles x.", "board grid(2, 2) directions n(0, 1), e(1, 0).");
    assert_eq!(
        got,
        lines(
            "square(sq(1, 1)). square(sq(2, 1)). square(sq(1, 2)). square(sq(2, 2)).
             direction(n). direction(e).
             adjacent(sq(1, 1), n, sq(1, 2)).
             adjacent(sq(1, 1), e, sq(2, 1)).
             adjacent(sq(2, 1), n, sq(2, 2)).
             adjacent(sq(1, 2), e, sq(2, 2))."
        )
    );
    let p = program("roles x.\nboard grid(3, 2) from 0.");
    let b = p.meta.board.as_ref().expect("a board view");
    assert_eq!((b.width, b.height, b.cells.len()), (3, 2, 6));
    // sq(0, 0) is bottom left on screen.
    let show = |t| {
        tabula::syntax::Show {
            item: t,
            symbols: &p.symbols,
            syntax: Syntax::Rules,
        }
        .to_string()
    };
    assert_eq!(show(&b.cells[0].name), "sq(0, 0)");
    assert_eq!((b.cells[0].col, b.cells[0].row), (0, 1));
    let eight = generated("roles x.", "board grid(3, 3).");
    assert_eq!(
        eight
            .iter()
            .filter(|r| r.starts_with("adjacent(sq(2, 2)"))
            .count(),
        8
    );
    assert_eq!(
        eight.iter().filter(|r| r.starts_with("direction(")).count(),
        8
    );
}

#[test]
fn cross_board() {
    let got = generated("roles x.", "board cross(1, 1) arms up, right, down, left.");
    for arm in [
        "arm(up, sq(2, 3)).",
        "arm(right, sq(3, 2)).",
        "arm(down, sq(2, 1)).",
        "arm(left, sq(1, 2)).",
    ] {
        assert!(got.contains(&arm.to_string()), "{arm} in {got:?}");
    }
    // The frame of NOTES.md: 19x19, 3x8 cells per arm, one centre.
    let p = program("roles x.\nboard cross(8, 3) from 0.");
    let b = p.meta.board.as_ref().expect("a board view");
    assert_eq!((b.width, b.height, b.cells.len()), (19, 19, 4 * 24 + 1));
    let rules = printed(&p);
    assert!(rules.contains(&"arm(south, sq(9, 0)).".to_string()));
    assert!(rules.contains(&"arm(north, sq(9, 18)).".to_string()));
    assert!(rules.contains(&"adjacent(sq(9, 7), n, centre).".to_string()));
    assert!(rules.contains(&"adjacent(centre, s, sq(9, 7)).".to_string()));
    assert!(!rules.iter().any(|r| r.contains("sq(9, 9)")));
}

#[test]
fn cross_board_exact() {
    assert_eq!(
        generated(
            "roles x.",
            "board cross(1, 1) from 0 directions n(0, 1), e(1, 0)."
        ),
        lines(
            "square(sq(1, 0)). arm(south, sq(1, 0)).
             square(sq(0, 1)). arm(west, sq(0, 1)).
             square(centre).
             square(sq(2, 1)). arm(east, sq(2, 1)).
             square(sq(1, 2)). arm(north, sq(1, 2)).
             direction(n). direction(e).
             adjacent(sq(1, 0), n, centre).
             adjacent(sq(0, 1), e, centre).
             adjacent(centre, n, sq(1, 2)).
             adjacent(centre, e, sq(2, 1))."
        )
    );
}

#[test]
fn extra_cells_beside_a_cross() {
    let p =
        program("roles x.\nboard cross(1, 1) from 0 directions n(0, 1): zero 0 0, home(x) 2 2.");
    let rules = printed(&p);
    assert!(rules.contains(&"square(zero).".to_string()));
    assert!(rules.contains(&"square(home(x)).".to_string()));
    assert!(
        !rules
            .iter()
            .any(|r| r.starts_with("adjacent") && r.contains("zero"))
    );
    let b = p.meta.board.as_ref().expect("a board view");
    let at = |name: &str| {
        b.cells
            .iter()
            .find(|c| show_term(&p, &c.name) == name)
            .map(|c| (c.col, c.row))
    };
    // Screen rows count from the top: sq(0, 0) is the bottom left.
    assert_eq!(at("zero"), Some((0, 2)));
    assert_eq!(at("home(x)"), Some((2, 0)));
    assert_eq!(
        errors_of("roles x.\nboard cross(1, 1) from 0: a 1 1, b 3 0, c 1 0, d, e 0 0, f 0 0."),
        [
            "2:27 E0003 (1, 1) is not a free place of the frame",
            "2:34 E0003 (3, 0) is outside the board's frame",
            "2:41 E0003 (1, 0) is not a free place of the frame",
            "2:48 E0003 an extra cell is `NAME X Y`, X and Y as in `sq(X, Y)`",
            "2:58 E0003 (0, 0) is not a free place of the frame",
        ]
    );
}

#[test]
fn colours_of_pieces_and_regions() {
    let p = program(
        "roles x, o.\nboard grid(3, 1).\nregion finish: sq(2, 1) as green.\n\
         region safe: sq(3, 1) as \"#a0b0c0\" marked.\nregion gate: sq(1, 1) as outlined.\n\
         pieces x: 1 pawn \"P\" as red.\npieces o: 1 pawn.\n\
         draw cell(C, R) at C as piece(R, pawn).\ndraw flag(C) at C as \"F\" orange.",
    );
    let b = p.meta.board.as_ref().expect("a board");
    let colours: Vec<_> = b.pieces.iter().map(|v| v.colour).collect();
    assert_eq!(colours, vec![Some(Colour::Red), None, Some(Colour::Orange)]);
    let style = |name: &str| {
        let sym = p.symbols.get(name).expect("the region's name");
        b.mark_styles
            .iter()
            .find(|(m, _)| *m == sym)
            .map(|&(_, s)| s)
    };
    let styled = |colour, style| Some(MarkStyle { colour, style });
    assert_eq!(
        style("finish"),
        styled(Some(Colour::Green), RegionStyle::Filled)
    );
    assert_eq!(
        style("safe"),
        styled(Some(Colour::Rgb(0xa0, 0xb0, 0xc0)), RegionStyle::Marked)
    );
    assert_eq!(style("gate"), styled(None, RegionStyle::Outlined));
    assert_eq!(
        errors_of("roles x.\npieces x: 1 pawn as pink.\npieces x: 1 man as \"#12345\"."),
        [
            "2:21 E0003 no colour `pink`: one of black, red, green, yellow, blue, magenta, cyan, \
             white, orange, purple, brown, grey, or \"#rrggbb\"",
            "3:20 E0003 no colour `#12345`: one of black, red, green, yellow, blue, magenta, \
             cyan, white, orange, purple, brown, grey, or \"#rrggbb\""
        ]
    );
}

#[test]
fn labels_sit_on_the_frame() {
    // On a grid the place is written as in sq(X, Y); row 0 is the top.
    let p = program("roles x.\nboard grid(4, 3) from 0.\nlabel \"North\" at 1 2 as blue.");
    let b = p.meta.board.as_ref().expect("a board");
    let l = &b.labels[0];
    assert_eq!(
        (l.text.as_str(), l.col, l.row, l.colour),
        ("North", 1, 0, Some(Colour::Blue))
    );
    // On a board of named cells it is a screen column and row.
    let p = program("roles x.\nboard cells: a 0 0, b 3 0.\nlabel \"gap\" at 1 0.");
    let l = &p.meta.board.as_ref().expect("a board").labels[0];
    assert_eq!((l.col, l.row), (1, 0));
    assert_eq!(
        errors_of(
            "roles x.\nboard grid(2, 2).\nlabel \"far\" at 5 1.\nlabel at 1 1.\nlabel \"x\" at 1."
        ),
        [
            "3:1 E0003 (5, 1) is not a place of the board's frame",
            "4:1 E0003 `label` needs a text in quotes",
            "5:1 E0003 a label's place is `X Y`, two numbers"
        ]
    );
}

#[test]
fn reserves_hold_places_off_the_board() {
    let p = program(
        "roles x, o.\nboard grid(2, 1).\nreserve \"In hand\": hand(x), hand(o) as grey.\n\
         pieces x: 2 pawn.\npieces o: 2 pawn.\ndraw waiting(R, I) at hand(R) as piece(R, pawn).",
    );
    let b = p.meta.board.as_ref().expect("a board");
    let r = &b.reserves[0];
    let places: Vec<String> = r.places.iter().map(|t| show_term(&p, t)).collect();
    assert_eq!(
        (r.title.as_str(), places, r.colour),
        (
            "In hand",
            vec!["hand(x)".to_string(), "hand(o)".to_string()],
            Some(Colour::Grey)
        )
    );
    assert_eq!(
        errors_of(
            "roles x.\nboard grid(2, 1).\nreserve \"A\": sq(1, 1), hand(X).\n\
             reserve \"B\": pot, pot.\nreserve: pot2."
        ),
        [
            "3:14 E0003 `sq(1, 1)` is a cell of the board",
            "3:24 E0003 a reserve place must be a ground term",
            "4:19 E0003 `pot` is already a reserve place",
            "5:1 E0003 `reserve` needs a text in quotes"
        ]
    );
}

#[test]
fn named_cells_and_links() {
    let p = program("roles x.\nboard cells: a, b 3 1, home(x) links next(a, b), next(b, home(x)).");
    assert_eq!(
        printed(&p)[1..],
        lines(
            "square(a). square(b). square(home(x)).
             direction(next).
             adjacent(a, next, b).
             adjacent(b, next, home(x))."
        )[..]
    );
    let b = p.meta.board.as_ref().expect("a board view");
    assert_eq!((b.cells[1].col, b.cells[1].row), (3, 1));
    assert_eq!((b.width, b.height), (4, 2));
}

#[test]
fn regions_mark_cells() {
    let p = program("roles x.\nboard grid(3, 1).\nregion safe: sq(1, 1), sq(3, 1).");
    let rules = printed(&p);
    assert_eq!(
        rules[rules.len() - 2..],
        lines("safe(sq(1, 1)). safe(sq(3, 1)).")[..]
    );
    let b = p.meta.board.as_ref().expect("a board view");
    let marks: Vec<usize> = b.cells.iter().map(|c| c.marks.len()).collect();
    assert_eq!(marks, vec![1, 0, 1]);
}

#[test]
fn pieces_and_draw() {
    let got = generated("roles x, o.", "pieces x: 2 pawn \"P\" at sq(1..2, 1).");
    assert_eq!(
        got,
        lines(
            "piece(x, pawn, 1). piece(x, pawn, 2).
             start(x, pawn, 1, sq(1, 1)). start(x, pawn, 2, sq(2, 1))."
        )
    );
    assert_eq!(
        generated("roles x, o.", "pieces o: 3 man."),
        lines("piece(o, man, 1). piece(o, man, 2). piece(o, man, 3).")
    );
    let p = program(
        "roles x, o.\npieces x: 1 pawn \"P\".\npieces o: 1 pawn \"Q\".\n\
         board grid(2, 2).\ndraw cell(X, Y, R) at sq(X, Y) as piece(R, pawn).",
    );
    let views = &p.meta.board.as_ref().expect("a board").pieces;
    let show = |t| {
        tabula::syntax::Show {
            item: t,
            symbols: &p.symbols,
            syntax: Syntax::Rules,
        }
        .to_string()
    };
    let got: Vec<String> = views
        .iter()
        .map(|v| format!("{} {} {}", show(&v.fact), show(&v.cell), show(&v.glyph)))
        .collect();
    assert_eq!(
        got,
        vec!["cell(X, Y, x) sq(X, Y) P", "cell(X, Y, o) sq(X, Y) Q"]
    );
}

#[test]
fn dice_d6() {
    assert_eq!(
        generated("roles p, random.", "dice d6: 1..3."),
        lines(
            "outcome(d6, d6(1)). weight(d6(1), 1).
             outcome(d6, d6(2)). weight(d6(2), 1).
             outcome(d6, d6(3)). weight(d6(3), 1).
             legal(random, M) :- roll(d6), outcome(d6, M).
             legal(random, noop) :- not _rolling.
             _rolling :- roll(D)."
        )
    );
}

#[test]
fn dice_weights_sticks_cowries_pasa() {
    let sticks = generated(
        "roles p, random.",
        "dice sticks: 2 weight 4, 8 weight 1, 12 weight 1, 0 weight 10.",
    );
    let weights: Vec<&String> = sticks.iter().filter(|r| r.starts_with("weight")).collect();
    assert_eq!(
        weights,
        lines("weight(sticks(2), 4). weight(sticks(8), 1). weight(sticks(12), 1). weight(sticks(0), 10).")
            .iter()
            .collect::<Vec<_>>()
    );
    let cowries = generated(
        "roles p, random.",
        "dice cowries: 25 weight 1, 10 weight 6, 2 weight 15, 3 weight 20, 4 weight 15, 5 weight 6, 6 weight 1.",
    );
    let total: i64 = cowries
        .iter()
        .filter_map(|r| {
            r.strip_prefix("weight(cowries(")?
                .split(", ")
                .nth(1)?
                .strip_suffix(").")?
                .parse::<i64>()
                .ok()
        })
        .sum();
    assert_eq!(total, 64);
    let pasa = generated("roles p, random.", "dice 2 pasa: 1, 3, 4, 6.");
    let outcomes: Vec<&String> = pasa.iter().filter(|r| r.starts_with("outcome")).collect();
    assert_eq!(outcomes.len(), 16);
    assert_eq!(outcomes[1], "outcome(pasa, pasa(1, 3)).");
    assert!(pasa.contains(&"weight(pasa(6, 4), 1).".to_string()));
    // Equal tuples add up: two coins summed by face, not by order.
    let coins = generated("roles p, random.", "dice coin: h weight 1, h weight 2, t.");
    assert!(coins.contains(&"weight(coin(h), 3).".to_string()));
}

#[test]
fn two_dice_share_natures_noop() {
    let got = generated("roles p, random.", "dice a: 1.\ndice b: 2.");
    assert_eq!(got.iter().filter(|r| r.contains("noop")).count(), 1);
}

#[test]
fn tracks() {
    assert_eq!(
        generated("roles y.", "track y from 1: sq(1..2, 1), sq(2..1, 2)."),
        lines(
            "track(y, 1, sq(1, 1)). track(y, 2, sq(2, 1)).
             track(y, 3, sq(2, 2)). track(y, 4, sq(1, 2)).
             track_length(y, 4)."
        )
    );
    // Tablan's yellow track: 48 cells, index 0..47, boustrophedon.
    let t = generated(
        "roles yellow.\nboard grid(12, 4).",
        "track yellow: sq(1..12, 1), sq(12..1, 2), sq(1..12, 3), sq(12..1, 4).",
    );
    assert_eq!(t.len(), 49);
    assert_eq!(t[12], "track(yellow, 12, sq(12, 2)).");
    assert_eq!(t[47], "track(yellow, 47, sq(1, 4)).");
    assert_eq!(t[48], "track_length(yellow, 48).");
}

#[test]
fn counter_up_only() {
    assert_eq!(
        generated(
            "roles p.",
            "counter turns from 0 to 3, up when true control(p).",
        ),
        lines(
            "init(turns(0)).
             _turns_up :- true(control(p)).
             next(turns(N)) :- true(turns(M)), _turns_up, M < 3, N = (M + 1).
             next(turns(3)) :- true(turns(3)), _turns_up.
             next(turns(M)) :- true(turns(M)), not _turns_up."
        )
    );
}

#[test]
fn counter_with_resets_and_parameters() {
    assert_eq!(
        generated(
            "param top = 4.\nroles p.",
            "counter hits from 1 to top - 1, up when hit, up when (a, b), reset when not alive.",
        ),
        lines(
            "init(hits(1)).
             _hits_up :- hit.
             _hits_up :- (a, b).
             _hits_reset :- not alive.
             next(hits(N)) :- true(hits(M)), _hits_up, M < 3, N = (M + 1), not _hits_reset.
             next(hits(3)) :- true(hits(3)), _hits_up, not _hits_reset.
             next(hits(M)) :- true(hits(M)), not _hits_up, not _hits_reset.
             next(hits(1)) :- _hits_reset."
        )
    );
}

/// A counter played: up on every `tick`, stays at its top, back to its
/// start on `clear`.
#[test]
fn counter_counts_stays_at_the_top_and_resets() {
    let dir = common::scratch_dir("language-counter");
    let path = dir.join("count.rules");
    std::fs::write(
        &path,
        "roles p.\n\
         counter n from 1 to 3, up when does(p, tick), reset when does(p, clear).\n\
         legal(p, tick). legal(p, clear). legal(p, wait).\n\
         terminal :- true n(9).\ngoal(p, 100).\n",
    )
    .unwrap();
    let s = Scenario::open(path.to_str().unwrap(), &[]);
    let mut st = s.initial();
    assert_eq!(s.facts(&st), sorted(&["n(1)"]));
    for (mv, after) in [
        ("tick", "n(2)"),
        ("wait", "n(2)"),
        ("tick", "n(3)"),
        ("tick", "n(3)"),
        ("clear", "n(1)"),
    ] {
        st = s.play(&st, &[("p", mv)]);
        assert_eq!(s.facts(&st), sorted(&[after]), "after {mv}");
    }
}

#[test]
fn counter_errors_are_located() {
    assert_eq!(
        errors_of("roles p.\ncounter c from 5 to 2, up when a."),
        vec!["2:16 E0003 a counter counts up: its start 5 is above its top 2"]
    );
    assert_eq!(
        errors_of("roles p.\ncounter c from 0 to 100000, up when a."),
        vec!["2:16 E0003 a counter may hold at most 100000 values"]
    );
    assert_eq!(
        errors_of("roles p.\ncounter c from X to top, up when a."),
        vec![
            "2:16 E0003 a counter's start must be an integer",
            "2:21 E0003 a counter's top must be an integer",
        ]
    );
    assert_eq!(
        errors_of("roles p.\ncounter c from 0 to 3, reset when a."),
        vec!["2:9 E0003 a counter needs an `up when` condition"]
    );
    assert_eq!(
        errors_of("roles p.\ncounter c from 0 to 3."),
        vec!["2:22 E0001 expected `,` or an operator"]
    );
    assert_eq!(
        errors_of("roles p.\ncounter c from 0 to 3, up when a, b."),
        vec!["2:35 E0001 expected `up` or `reset`"]
    );
}

#[test]
fn params_in_rules_and_declarations() {
    let p = program(
        "param n = 3.\nparam m = n * 2 - 1.\nroles x.\nboard grid(n, 1).\nlimit(m).\nbig(X) :- s(X), X > n.",
    );
    let rules = printed(&p);
    assert!(rules.contains(&"limit(5).".to_string()));
    assert!(rules.contains(&"big(X) :- s(X), X > 3.".to_string()));
    assert_eq!(rules.iter().filter(|r| r.starts_with("square")).count(), 3);
    assert_eq!(
        p.meta.params,
        vec![("n".into(), "3".into()), ("m".into(), "5".into())]
    );
}

#[test]
fn param_overrides() {
    let mut sources = SourceMap::default();
    let file = sources.add("t.rules", "param n = 3.\nroles x.\nv(n).");
    let p =
        rules::parse_program(&mut sources, file, &vec![("n".into(), "7".into())]).expect("valid");
    assert!(printed(&p).contains(&"v(7).".to_string()));
    let mut sources = SourceMap::default();
    let file = sources.add("t.rules", "param n = 3.\nroles x.");
    let e = rules::parse_program(&mut sources, file, &vec![("k".into(), "7".into())]).unwrap_err();
    assert_eq!(
        located(&sources, &e),
        vec!["- E0107 the game has no parameter `k`"]
    );
    let file = sources.add("t.rules", "param n = 3.\nroles x.");
    let e =
        rules::parse_program(&mut sources, file, &vec![("n".into(), "7x!".into())]).unwrap_err();
    assert_eq!(e[0].code, codes::DECLARATION);
}

// ------------------------------------------------------------------ extends and sections

fn load(path: &Path) -> Result<Program, (SourceMap, Vec<Diagnostic>)> {
    let mut sources = SourceMap::default();
    match syntax::load(&mut sources, path, Syntax::Rules, &vec![]) {
        Ok(p) => Ok(p),
        Err(syntax::LoadError::Invalid(e)) => Err((sources, e)),
        Err(unreadable) => panic!("{unreadable}"),
    }
}

#[test]
fn extends_overrides_params_and_replaces_sections() {
    let dir = common::scratch_dir("language-extends");
    std::fs::write(
        dir.join("base.rules"),
        "game \"Base\".\nparam n = 2.\nroles x.\nsection rule { r(1). }\nsize(n).\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("v")).unwrap();
    std::fs::write(
        dir.join("v/variant.rules"),
        "extends \"../base.rules\".\ngame \"Variant\".\nparam n = 5.\nsection rule { r(2). r(3). }\nextra.\n",
    )
    .unwrap();
    let p =
        load(&dir.join("v/variant.rules")).unwrap_or_else(|(s, e)| panic!("{}", render(&s, &e)));
    assert_eq!(p.meta.title.as_deref(), Some("Variant"));
    assert_eq!(printed(&p), lines("role(x). r(2). r(3). size(5). extra."));
}

#[test]
fn extends_unknown_param_and_section() {
    let dir = common::scratch_dir("language-unknown");
    std::fs::write(
        dir.join("base.rules"),
        "param n = 2.\nroles x.\nsection a { p. }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("v.rules"),
        "extends \"base.rules\".\nparam k = 1.\nsection b { q. }\n",
    )
    .unwrap();
    let (s, e) = load(&dir.join("v.rules")).expect_err("errors");
    assert_eq!(
        located(&s, &e),
        vec![
            "2:7 E0107 the base file has no parameter `k`",
            "3:9 E0107 the base file has no section `b`",
        ]
    );
}

#[test]
fn a_labelled_rule_is_a_plain_rule() {
    assert_eq!(
        rules_of("roles x.\nrule entry: p(X) :- q(X).\nsection s { rule other: r. }"),
        lines("role(x). p(X) :- q(X). r.")
    );
    // `rule`, `replace`, `drop` and `counter` stay ordinary names.
    assert_eq!(
        rules_of("roles x.\nrule :- drop.\ndrop(1).\nreplace(counter)."),
        lines("role(x). rule :- drop. drop(1). replace(counter).")
    );
}

#[test]
fn labels_are_unique_in_a_file() {
    let (s, e) =
        parse("roles x.\nrule a: p.\nsection s {\n    rule a: q.\n}\n").expect_err("errors");
    assert_eq!(
        located(&s, &e),
        vec!["4:10 E0003 the label `a` is used twice in this file"]
    );
    assert_eq!(
        e[0].labels
            .iter()
            .map(|(span, l)| (s.file(span.file).line_col(span.start as usize), l.as_str()))
            .collect::<Vec<_>>(),
        vec![((2, 6), "first used here")]
    );
}

#[test]
fn replace_and_drop_need_a_base() {
    assert_eq!(
        errors_of("roles x.\nreplace a: p.\ndrop b.\ndrop section c."),
        vec![
            "2:9 E0107 `replace` changes a base file, and this file has no `extends`",
            "3:6 E0107 `drop` changes a base file, and this file has no `extends`",
            "4:14 E0107 `drop` changes a base file, and this file has no `extends`",
        ]
    );
}

/// A variant replaces and drops labelled rules where they stand (in a
/// section or not), drops a section, and adds rules.
#[test]
fn extends_replaces_and_drops_labelled_rules() {
    let dir = common::scratch_dir("language-labels");
    std::fs::write(
        dir.join("base.rules"),
        "roles x.\nrule first: p(1).\nsection s {\n    rule second: p(2).\n    p(3).\n}\n\
         section gone { q. }\nrule third: p(4).\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("v.rules"),
        "extends \"base.rules\".\nreplace second: p(20) :- q.\ndrop third.\n\
         drop section gone.\nrule fourth: p(5).\nq.\n",
    )
    .unwrap();
    let p = load(&dir.join("v.rules")).unwrap_or_else(|(s, e)| panic!("{}", render(&s, &e)));
    assert_eq!(
        printed(&p),
        lines("role(x). p(1). p(20) :- q. p(3). p(5). q.")
    );
    // A variant of the variant replaces the replacement.
    std::fs::write(
        dir.join("w.rules"),
        "extends \"v.rules\".\nreplace second: p(200).\nreplace fourth: p(500).\n",
    )
    .unwrap();
    let p = load(&dir.join("w.rules")).unwrap_or_else(|(s, e)| panic!("{}", render(&s, &e)));
    assert_eq!(
        printed(&p),
        lines("role(x). p(1). p(200). p(3). p(500). q.")
    );
}

#[test]
fn extends_unknown_and_taken_labels() {
    let dir = common::scratch_dir("language-bad-labels");
    std::fs::write(
        dir.join("base.rules"),
        "roles x.\nrule a: p.\nsection s { q. }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("v.rules"),
        "extends \"base.rules\".\nreplace b: p.\ndrop c.\ndrop section t.\nrule a: r.\n\
         section s {\n    drop a.\n}\n",
    )
    .unwrap();
    let (s, e) = load(&dir.join("v.rules")).expect_err("errors");
    assert_eq!(
        located(&s, &e),
        vec![
            "2:9 E0107 the base file has no rule labelled `b`",
            "3:6 E0107 the base file has no rule labelled `c`",
            "4:14 E0107 the base file has no section `t`",
            "5:6 E0003 the base file already has a rule labelled `a`",
            "7:10 E0107 `drop` stands outside sections (a variant's section replaces the base's whole)",
        ]
    );
}

#[test]
fn extends_cycle_and_missing_file() {
    let dir = common::scratch_dir("language-cycle");
    std::fs::write(dir.join("a.rules"), "extends \"b.rules\".\nroles x.\n").unwrap();
    std::fs::write(dir.join("b.rules"), "\n\nextends \"a.rules\".\n").unwrap();
    let (s, e) = load(&dir.join("a.rules")).expect_err("errors");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].code, codes::EXTENDS);
    let span = e[0].span.expect("located");
    assert!(s.file(span.file).path.ends_with("b.rules"));
    assert_eq!(s.file(span.file).line_col(span.start as usize), (3, 1));
    std::fs::write(
        dir.join("c.rules"),
        "roles x.\nextends \"nowhere.rules\".\n",
    )
    .unwrap();
    let (s, e) = load(&dir.join("c.rules")).expect_err("errors");
    assert_eq!(located(&s, &e).len(), 1);
    assert!(located(&s, &e)[0].starts_with("2:1 E0108 cannot read"));
}

#[test]
fn pawn_whopping_and_its_variant_read() {
    let base = load(Path::new("games/pawn_whopping.rules"))
        .unwrap_or_else(|(s, e)| panic!("{}", render(&s, &e)));
    assert_eq!(base.meta.title.as_deref(), Some("Pawn whopping"));
    assert_eq!(base.meta.params, vec![("size".into(), "8".into())]);
    let rules = printed(&base);
    assert!(rules.contains(&"start(o, pawn, 8, sq(8, 7)).".to_string()));
    let v = load(Path::new("games/variants/pawn_whopping_6x6.rules"))
        .unwrap_or_else(|(s, e)| panic!("{}", render(&s, &e)));
    assert_eq!(v.meta.title.as_deref(), Some("Pawn whopping 6x6"));
    let rules = printed(&v);
    assert!(rules.contains(&"start(o, pawn, 6, sq(6, 5)).".to_string()));
    assert!(rules.contains(&"goal_row(x, 6).".to_string()));
    assert_eq!(v.meta.board.expect("board").cells.len(), 36);
}

// ------------------------------------------------------------------ errors

#[test]
fn syntax_errors_are_located_and_all_reported() {
    assert_eq!(
        errors_of("roles x.\np(X :- q.\nok(1).\nr(X) :- s(X)\nt."),
        vec![
            "2:5 E0001 expected `)`, `,`, `..` or an operator",
            // Where the rule without its `.` should have ended.
            "4:13 E0001 expected `,`, `.`, a comparison or an operator",
        ]
    );
    assert_eq!(
        errors_of("p :- q(1..2)."),
        vec!["1:8 E0001 a range `..` can only be used in facts and declarations"]
    );
    assert_eq!(
        errors_of("game \"open.\nroles x."),
        vec!["1:6 E0001 this string is never closed (a string ends on its line)"]
    );
    assert_eq!(
        errors_of("p(\"s\")."),
        vec!["1:3 E0001 a string can only be used in declarations"]
    );
    assert_eq!(
        errors_of("p :- X > 1\n"),
        vec!["1:11 E0001 expected `,`, `.` or an operator"]
    );
    assert_eq!(
        errors_of("section a {\np.\n"),
        vec!["1:9 E0001 this section is never closed with `}`"]
    );
    assert_eq!(
        errors_of("p.\n}\n"),
        vec!["2:1 E0001 `}` without a section"]
    );
}

#[test]
fn no_message_names_a_grammar_rule() {
    for text in [
        "p(",
        "p :- ",
        "roles",
        "board grid(",
        "x :- (a ; ",
        "p(X) :- X >",
        "param = 3.",
        "1.",
        "dice 2: .",
    ] {
        for d in parse(text).expect_err("an error").1 {
            for bad in [
                "expr", "compound", "literal,", "_", "item", "kw_", "decl_", "Rule",
            ] {
                assert!(!d.message.contains(bad), "{text:?}: {}", d.message);
            }
        }
    }
}

#[test]
fn declaration_errors_are_located() {
    assert_eq!(
        errors_of("roles x, o.\nturn x, y.\nboard grid(100000, 100000).\n"),
        vec![
            "2:9 E0003 `y` is not a role declared with `roles`",
            "3:7 E0003 a grid must be 1 to 1000 cells a side and at most 100000 cells, not 100000x100000",
        ]
    );
    assert_eq!(
        errors_of(
            "roles x.\nboard grid(2, 2).\ntrack x: sq(1, 1), sq(3, 1).\nregion role: sq(1, 1)."
        ),
        vec![
            "3:20 E0003 `sq(3, 1)` is not a cell of the board",
            "4:8 E0003 `role` is a reserved relation",
        ]
    );
    assert_eq!(
        errors_of("roles x.\ndice d6: 1..6."),
        vec!["2:1 E0003 dice need nature: add the role `random` to `roles`"]
    );
    assert_eq!(
        errors_of("roles x, random.\ndice 9 d: 1..6."),
        vec!["2:1 E0003 dice may have 1 to 10000 outcomes in all (faces to the power of dice)"]
    );
    assert_eq!(
        errors_of("roles x x."),
        vec!["1:9 E0003 separate role names with `,`"]
    );
    assert_eq!(
        errors_of("roles x, x."),
        vec!["1:10 E0003 role `x` is declared twice"]
    );
    assert_eq!(
        errors_of("param n = 1.\nparam n = 2."),
        vec!["2:7 E0003 parameter `n` is declared twice"]
    );
    assert_eq!(
        errors_of("p(1..1000000)."),
        vec!["1:3 E0003 a range may hold at most 100000 values"]
    );
}

#[test]
fn bad_input_never_panics() {
    let deep = "p(".repeat(200_000);
    assert_eq!(errors_of(&deep)[0].split(' ').nth(1), Some("E0002"));
    let chain = format!("a :- {} > 0.", vec!["1"; 100_000].join(" + "));
    assert_eq!(errors_of(&chain)[0].split(' ').nth(1), Some("E0002"));
    let nots = format!("a :- {} q.", "not ".repeat(100_000));
    assert_eq!(
        errors_of(&nots),
        ["1:14 E0001 more than two `not` in a row"]
    );
    assert_eq!(printed(&program("")), Vec::<String>::new());
    assert_eq!(printed(&program("% only a comment")), Vec::<String>::new());
    // A big file reads, and a big garbage file stops at its first error.
    let big = "p(1).\n".repeat(50_000);
    assert_eq!(program(&big).rules.len(), 50_000);
    let garbage = "@#!\n".repeat(100_000);
    assert_eq!(
        errors_of(&garbage),
        ["1:1 E0001 expected a rule or a declaration"]
    );
    // A pseudo-random token soup: read, or refused with located errors.
    let tokens = [
        "p", "(", ")", "X", "_", ",", ";", ":-", ".", "..", "not", "1", "+", "\"", "%", "\n", "=",
        "{", "}", "section", "board", "dice", ":", "at", "weight", "rule", "replace", "drop",
        "counter", "from", "to", "up", "reset", "when",
    ];
    let mut seed = 12345u64;
    for _ in 0..300 {
        let mut text = String::new();
        for _ in 0..40 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(tokens[(seed >> 33) as usize % tokens.len()]);
            text.push(' ');
        }
        if let Err((sources, errors)) = parse(&text) {
            assert!(!errors.is_empty(), "{text:?} refused without an error");
            for line in located(&sources, &errors) {
                assert!(!line.starts_with('-'), "{text:?}: unlocated {line}");
            }
        }
    }
}

// ------------------------------------------------------------------ REPL entry points

#[test]
fn terms_and_literals_typed_by_a_user() {
    let mut sources = SourceMap::default();
    let mut symbols = Symbols::default();
    let f = sources.add("<input>", "mark(1, 2)");
    let t = syntax::parse_term(&sources, f, Syntax::Rules, &mut symbols).expect("a term");
    let show = |t| {
        tabula::syntax::Show {
            item: t,
            symbols: &symbols,
            syntax: Syntax::Rules,
        }
        .to_string()
    };
    assert_eq!(show(&t), "mark(1, 2)");
    let f = sources.add("<input>", "legal(x, M)");
    let l = syntax::parse_literal(&sources, f, Syntax::Rules, &mut symbols).expect("a literal");
    assert_eq!(show_literal(&l, &symbols), "legal(x, M)");
    let f = sources.add("<input>", "not true cell(1, 1, b)");
    let l = syntax::parse_literal(&sources, f, Syntax::Rules, &mut symbols).expect("a literal");
    assert_eq!(show_literal(&l, &symbols), "not true(cell(1, 1, b))");
    let f = sources.add("<input>", "mark(1, ");
    let e = syntax::parse_term(&sources, f, Syntax::Rules, &mut symbols).unwrap_err();
    assert_eq!(e.code, codes::SYNTAX);
}

// ------------------------------------------------------------------ docs

#[test]
fn every_example_of_the_language_doc_reads() {
    let doc = std::fs::read_to_string("docs/LANGUAGE.md").expect("docs/LANGUAGE.md");
    let mut blocks = 0;
    let mut lines = doc.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(kind) = line.strip_prefix("```rules") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|(_, l)| *l != "```")
            .map(|(_, l)| l)
            .collect();
        let text = body.join("\n");
        blocks += 1;
        match parse(&text) {
            // A complete example also passes the checks, grounds and compiles.
            Ok(p) if kind.trim() != "fragment" => {
                let mut sources = SourceMap::default();
                sources.add("test.rules", text.as_str());
                if let Err(f) = tabula::load::build(p, sources) {
                    panic!(
                        "LANGUAGE.md line {}:\n{}",
                        n + 1,
                        render(&f.sources, &f.diagnostics)
                    );
                }
            }
            Ok(_) => {}
            Err((s, e)) if kind.trim() == "fragment" => {
                let syntax: Vec<&Diagnostic> =
                    e.iter().filter(|d| d.code == codes::SYNTAX).collect();
                assert!(
                    syntax.is_empty(),
                    "LANGUAGE.md line {}:\n{}",
                    n + 1,
                    render(&s, &e)
                );
            }
            Err((s, e)) => panic!("LANGUAGE.md line {}:\n{}", n + 1, render(&s, &e)),
        }
    }
    assert!(blocks >= 20, "only {blocks} examples found");
}
