//! Boards you can see: `tabula render` draws one position of each seed game
//! and of a board of named cells (tests/render/loop.rules) as SVG (golden
//! files in tests/render/, `TABULA_BLESS=1` rewrites them), and the text
//! board shows the same pieces, reserves and labels.

mod common;
use common::run;

const SEED_GAMES: [&str; 5] = ["pachisi", "chaupar", "generals", "tablan", "pawn_whopping"];

/// The game file of a picture of tests/render/.
fn file_of(game: &str) -> String {
    match game {
        "loop" => "tests/render/loop.rules".to_string(),
        _ => format!("games/{game}.rules"),
    }
}

/// The position a transcript of tests/render/ reaches, as SVG.
fn svg_of(game: &str, extra: &[&str]) -> String {
    let file = file_of(game);
    let transcript = format!("tests/render/{game}.transcript");
    let mut args = vec!["render", &file, "--transcript", &transcript];
    args.extend_from_slice(extra);
    let (out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn one_position_of_each_seed_game_is_pinned() {
    let bless = std::env::var_os("TABULA_BLESS").is_some_and(|v| v == "1");
    for game in SEED_GAMES.iter().chain(&["loop"]) {
        let svg = svg_of(game, &[]);
        let path = format!("{}/tests/render/{game}.svg", env!("CARGO_MANIFEST_DIR"));
        if bless {
            std::fs::write(&path, &svg).expect("write the golden SVG");
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{path}: missing (TABULA_BLESS=1 creates it)"));
        assert!(svg == expected, "{game}: the SVG differs from {path}");
    }
}

#[test]
fn the_svg_draws_pieces_moves_and_reserves() {
    for game in SEED_GAMES {
        let svg = svg_of(game, &[]);
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{game}"
        );
        assert!(svg.ends_with("</svg>\n"), "{game}");
        assert!(svg.contains("class=\"piece\""), "{game}: no piece drawn");
        assert!(
            svg.contains("class=\"reserve\""),
            "{game}: no reserve drawn"
        );
        assert!(
            svg.contains("last step: "),
            "{game}: no caption of the last step"
        );
    }
    // A move naming cells outlines them: Chaupar's move(sq(12, 8), sq(15, 10)).
    let chaupar = svg_of("chaupar", &[]);
    assert!(chaupar.contains("red=move(sq(12, 8), sq(15, 10))"));
    assert_eq!(chaupar.matches("class=\"last-move\"").count(), 2);
    // A move naming coordinates outlines the cells they make: move(4, 4, 4, 5).
    let pawns = svg_of("pawn_whopping", &[]);
    assert!(pawns.contains("x=move(4, 4, 4, 5)"));
    assert_eq!(pawns.matches("class=\"last-move\"").count(), 2);
    // Declared colours: black pieces in the declared black, columns tinted.
    let pachisi = svg_of("pachisi", &[]);
    assert!(pachisi.contains("fill=\"#3a3a3a\""), "black pieces");
    assert!(
        pachisi.contains(">Black</text>"),
        "the label of black's arm"
    );
}

#[test]
fn step_zero_is_the_start_and_has_no_last_move() {
    let svg = svg_of("tablan", &["--step", "0"]);
    assert!(!svg.contains("last step"));
    assert!(!svg.contains("class=\"last-move\""));
    // The initial position drawn without a transcript is the same picture.
    let (start, _, code) = run(&["render", "games/tablan.rules"], "");
    assert_eq!(code, 0);
    assert_eq!(svg, start);
    // 24 men on the board, and the one to move in the reserve "To move".
    assert_eq!(svg.matches("class=\"piece\"").count(), 25);
}

#[test]
fn render_refuses_what_it_cannot_draw() {
    let (_, err, code) = run(
        &[
            "render",
            "games/tablan.rules",
            "--transcript",
            "tests/render/tablan.transcript",
            "--step",
            "999",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("the transcript has 60 steps, not 999"),
        "{err}"
    );
    let (_, err, code) = run(
        &[
            "render",
            "games/pachisi.rules",
            "--transcript",
            "tests/render/tablan.transcript",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("the transcript is of games/tablan.rules, not games/pachisi.rules"),
        "{err}"
    );
    let (_, err, code) = run(&["render", "games/tablan.rules", "--step", "1"], "");
    assert_eq!(code, 2, "--step needs --transcript: {err}");
}

#[test]
fn a_board_of_named_cells_shows_every_region() {
    let svg = svg_of("loop", &[]);
    // Cell a is in `corners` (outlined) and `start` (marked): both show.
    assert!(
        svg.contains("stroke=\"#8d6e63\" stroke-width=\"3\""),
        "the outlined corners"
    );
    assert!(
        svg.contains("<path d=\"M34 34 L"),
        "the cross of the start cell"
    );
    assert!(svg.contains(">loop</text>"), "the label");
    assert!(svg.contains(">Laps</text>"), "the reserve");
    // The walker has no declared colour: the first of the undeclared ones.
    assert!(svg.contains("fill=\"#c62828\""), "the walker in red");
}

#[test]
fn a_game_without_a_board_lists_its_facts() {
    let (svg, _, code) = run(&["render", "tests/repl/count.kif"], "");
    assert_eq!(code, 0);
    assert!(svg.contains("<svg ") && !svg.contains("class=\"piece\""));
    assert!(svg.contains("<text"), "the facts as text");
}

#[test]
fn the_text_board_shows_reserves_and_labels() {
    // Pachisi starts with every piece on its zero mark, drawn in the reserve.
    let (out, err, code) = run(
        &[
            "play",
            "games/pachisi.rules",
            "--seed",
            "1",
            "--max-steps",
            "1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("On the zero mark:  black K4  blue B4  red R4  green G4"),
        "{out}"
    );
    assert!(
        out.contains("Home in the centre:  black ·  blue ·  red ·  green ·"),
        "{out}"
    );
    assert!(
        out.contains("Black") && out.contains("Green"),
        "the arms' labels"
    );
    assert!(out.contains("(×)"), "a safe square, marked, shows a cross");
    assert!(
        !out.contains("zero(black, 1)"),
        "a piece in a reserve is not listed as a fact"
    );
    // Pawn whopping shows whose turn it is as a piece.
    let (out, _, _) = run(
        &[
            "play",
            "games/pawn_whopping.rules",
            "--seed",
            "1",
            "--max-steps",
            "1",
        ],
        "",
    );
    assert!(out.contains("To move: o"), "{out}");
}
