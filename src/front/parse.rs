//! Reading what a person types: moves, outcomes, facts and queries, in the
//! game's own syntax. Used by the REPL and by `tabula play`.
//!
//! In: a [`Game`] and text. Out: move indices, fact ids or terms, or an
//! [`InputError`] whose text is one line saying what is wrong (with the
//! legal alternatives where that helps).
//! Holds: the game's symbol table is never changed (text is parsed into a
//! clone), so nothing a person types can alter the game.

use crate::engine::{Game, State};
use crate::ground::TermId;
use crate::syntax::{self, Literal, SourceMap, Syntax, Term, TermKind};
use std::path::{Path, PathBuf};

/// Why typed text is not what was asked for.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// `play mark(1,`: the text does not parse; `column` where it breaks.
    #[error("cannot read `{text}`{}: {message}", column.map_or(String::new(), |c| format!(" at column {c}")))]
    Unreadable {
        text: String,
        column: Option<usize>,
        message: String,
    },
    /// `query not p`: a query is one positive atom.
    #[error("`{text}` is not an atom: a query asks for one relation, such as {example}")]
    NotAnAtom { text: String, example: &'static str },
    /// `play a=`: nothing where a move should be.
    #[error("expected a move of {role}")]
    NoMove { role: String },
    /// `play 9` with fewer legal moves.
    #[error("there is no {what} {number}: {role} has {} (1 to {count})", count_of(*count, if *what == "outcome" { "outcome" } else { "legal move" }))]
    NoSuchNumber {
        what: &'static str,
        number: String,
        role: String,
        count: usize,
    },
    /// `roll 7` where nature cannot throw 7.
    #[error("`{text}` is not a possible outcome here; possible: {possible}")]
    NotAnOutcome { text: String, possible: String },
    /// A move that is not legal for the role here.
    #[error("`{text}` is not a legal move of {role}; legal: {legal}")]
    NotLegal {
        text: String,
        role: String,
        legal: String,
    },
    /// `set` with nothing after it.
    #[error("no facts given")]
    NoFacts,
    /// A fact no state of the game can hold.
    #[error("`{text}` is not a fact this game's states can hold")]
    NotAStateFact { text: String },
    /// A position file that cannot be read.
    #[error("cannot read {}: {message}", path.display())]
    CannotRead { path: PathBuf, message: String },
    /// Something wrong inside a position file, at this line and column
    /// (from 1) of it.
    #[error("{}:{line}:{column}: {error}", path.display())]
    InFile {
        path: PathBuf,
        line: usize,
        column: usize,
        error: Box<InputError>,
    },
}

/// One item of a `play` line: `MOVE` or `ROLE=MOVE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub role: Option<String>,
    pub text: String,
}

/// Splits a line into items at whitespace and commas outside brackets and
/// strings, so `(mark 1 1)` and `move(1, 2)` stay whole.
pub fn split(text: &str) -> Vec<String> {
    split_at(text).into_iter().map(|(_, w)| w).collect()
}

/// [`split`], each item with the byte offset where it starts.
fn split_at(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    let mut depth = 0usize;
    let mut in_str = false;
    for (at, c) in text.char_indices() {
        if cur.is_empty() {
            start = at;
        }
        if in_str {
            in_str = c != '"';
            cur.push(c);
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                cur.push(c);
            }
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth = depth.saturating_sub(1);
                cur.push(c);
            }
            c if depth == 0 && (c.is_whitespace() || c == ',') => {
                if !cur.is_empty() {
                    out.push((start, std::mem::take(&mut cur)));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push((start, cur));
    }
    out
}

/// Items of a `play` line; `ROLE = MOVE` may have spaces around `=`.
pub fn items(text: &str) -> Vec<Item> {
    let mut words = split(text);
    // Glue `x =`, `= m`, `x= m` and `x =m` into one word.
    let mut glued: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let mut w = std::mem::take(&mut words[i]);
        i += 1;
        while i < words.len() && (w.ends_with('=') || words[i].starts_with('=')) {
            w.push_str(&words[i]);
            i += 1;
        }
        glued.push(w);
    }
    glued
        .into_iter()
        .map(|w| match w.split_once('=') {
            Some((r, m))
                if !r.is_empty()
                    && r.chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-') =>
            {
                Item {
                    role: Some(r.to_string()),
                    text: m.to_string(),
                }
            }
            _ => Item {
                role: None,
                text: w,
            },
        })
        .collect()
}

/// Reads one term in the game's syntax.
pub fn term(game: &Game, text: &str) -> Result<Term, InputError> {
    let mut sources = SourceMap::default();
    let file = sources.add("<input>", text);
    let mut symbols = game.symbols.clone();
    syntax::parse_term(&sources, file, game.syntax, &mut symbols)
        .map_err(|d| syntax_error(text, &d, &sources))
}

/// Reads one atom (a query pattern, variables allowed) in the game's syntax.
pub fn atom(game: &Game, text: &str) -> Result<Term, InputError> {
    let mut sources = SourceMap::default();
    let file = sources.add("<input>", text);
    let mut symbols = game.symbols.clone();
    let lit = syntax::parse_literal(&sources, file, game.syntax, &mut symbols)
        .map_err(|d| syntax_error(text, &d, &sources))?;
    match lit {
        Literal::Pos(a) if a.args.is_empty() => Ok(Term::new(TermKind::Const(a.rel), a.span)),
        Literal::Pos(a) => Ok(Term::new(TermKind::App(a.rel, a.args), a.span)),
        _ => Err(InputError::NotAnAtom {
            text: text.trim().to_string(),
            example: match game.syntax {
                Syntax::Kif => "`(legal ?r ?m)`",
                Syntax::Rules => "`legal(R, M)`",
            },
        }),
    }
}

fn syntax_error(text: &str, d: &crate::diag::Diagnostic, sources: &SourceMap) -> InputError {
    let column = match d.span {
        Some(span) if !text.trim().is_empty() => {
            Some(sources.file(span.file).line_col(span.start as usize).1)
        }
        _ => None,
    };
    InputError::Unreadable {
        text: text.trim().to_string(),
        column,
        message: d.message.clone(),
    }
}

/// The legal moves of a role, shown, joined, shortened if long.
pub fn alternatives(game: &Game, role: usize, legal: &[u32]) -> String {
    const MAX: usize = 12;
    let mut shown: Vec<String> = legal
        .iter()
        .take(MAX)
        .map(|&m| game.show_move(role, m))
        .collect();
    if legal.len() > MAX {
        shown.push(format!("and {} more (type `moves`)", legal.len() - MAX));
    }
    shown.join(", ")
}

/// A role's choice among its legal moves, typed as the move's text or as
/// its number (1-based) in the list of legal moves. Text equal to a legal
/// move's wins over a number.
pub fn choice(game: &Game, role: usize, legal: &[u32], text: &str) -> Result<u32, InputError> {
    let text = text.trim();
    let chance = game.random_role() == Some(role);
    let name = game.role_name(role);
    if text.is_empty() {
        return Err(InputError::NoMove { role: name });
    }
    if let Some(&m) = legal.iter().find(|&&m| game.show_move(role, m) == text) {
        return Ok(m);
    }
    if text.chars().all(|c| c.is_ascii_digit()) {
        return match text.parse::<usize>() {
            Ok(n) if (1..=legal.len()).contains(&n) => Ok(legal[n - 1]),
            _ => Err(InputError::NoSuchNumber {
                what: if chance { "outcome" } else { "move" },
                number: text.to_string(),
                role: name,
                count: legal.len(),
            }),
        };
    }
    let t = term(game, text)?;
    let found = game.term_id(&t).and_then(|id| game.find_move(role, id));
    match found {
        Some(m) if legal.contains(&m) => Ok(m),
        _ if chance => Err(InputError::NotAnOutcome {
            text: text.to_string(),
            possible: alternatives(game, role, legal),
        }),
        _ => Err(InputError::NotLegal {
            text: text.to_string(),
            role: name,
            legal: alternatives(game, role, legal),
        }),
    }
}

/// "1 move", "3 moves".
pub fn count_of(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The facts of a position written as text (whitespace, commas or new lines
/// between them; comments of the game's syntax allowed).
pub fn facts(game: &Game, text: &str) -> Result<Vec<TermId>, InputError> {
    located_facts(game, text)
        .map(|found| found.into_iter().map(|(id, _)| id).collect())
        .map_err(|(_, e)| e)
}

/// [`facts`], each with the byte offset of its text; an error comes with
/// the offset of the text it is about.
fn located_facts(game: &Game, text: &str) -> Result<Vec<(TermId, usize)>, (usize, InputError)> {
    let comment = match game.syntax {
        Syntax::Kif => ';',
        Syntax::Rules => '%',
    };
    // Comments become spaces, byte for byte, so offsets stay those of `text`.
    let mut clean = String::with_capacity(text.len());
    let mut in_comment = false;
    for c in text.chars() {
        in_comment = (in_comment || c == comment) && c != '\n';
        if in_comment {
            clean.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            clean.push(c);
        }
    }
    let words = split_at(&clean);
    if words.is_empty() {
        return Err((0, InputError::NoFacts));
    }
    let possible = game.possible_facts();
    let mut out: Vec<(TermId, usize)> = Vec::new();
    for (at, w) in words {
        let w = w.trim_end_matches('.');
        let t = term(game, w).map_err(|e| (at, e))?;
        match game.term_id(&t) {
            Some(id) if possible.contains(&id) => {
                if !out.iter().any(|&(seen, _)| seen == id) {
                    out.push((id, at))
                }
            }
            _ => {
                let text = w.to_string();
                return Err((at, InputError::NotAStateFact { text }));
            }
        }
    }
    Ok(out)
}

/// A position read from a file of facts, as `load-state` and
/// `tabula play --from` take it; an error names the line and column.
pub fn state_file(game: &Game, path: &Path) -> Result<State, InputError> {
    let cannot_read = |message: String| InputError::CannotRead {
        path: path.to_path_buf(),
        message,
    };
    let bytes = syntax::read_capped(path).map_err(|e| cannot_read(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        cannot_read(format!("not UTF-8 text (invalid byte at offset {offset})"))
    })?;
    let in_file = |at: usize, error| {
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let column = before[line_start..].chars().count() + 1;
        InputError::InFile {
            path: path.to_path_buf(),
            line,
            column,
            error: Box::new(error),
        }
    };
    let facts = located_facts(game, &text).map_err(|(at, e)| in_file(at, e))?;
    let ids: Vec<TermId> = facts.iter().map(|&(id, _)| id).collect();
    // `located_facts` keeps only facts a state can hold.
    game.state_from_facts(&ids).map_err(|f| {
        let at = facts
            .iter()
            .find(|&&(id, _)| id == f)
            .map_or(0, |&(_, at)| at);
        in_file(at, InputError::NotAStateFact { text: game.show(f) })
    })
}
