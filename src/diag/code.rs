//! Diagnostic codes: one enum, each variant with the smallest input that
//! triggers it (as `docs/ERRORS.md` shows it, with a golden test in
//! `tests/diagnostics/`).
//!
//! In: nothing. Out: [`Code`], its stable spelling and its one-line meaning,
//! and [`codes`], the constants call sites use. Holds: [`Code::ALL`] lists
//! every variant once, in the order of `docs/ERRORS.md`.

use std::fmt;

/// A stable diagnostic code: `E00xx` reading, `E01xx` static checks,
/// `E02xx` grounding and compiling, `W00xx` static warnings, `W01xx`
/// warnings from random playouts (`tabula check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// Text that does not parse: `(<= (p ?x)`.
    Syntax,
    /// Input nested deeper than the reader accepts: `(p (f (f ... a)))`.
    TooDeep,
    /// A declaration that is malformed or inconsistent (board, dice,
    /// track...): `board grid(0, a).`
    Declaration,
    /// A relation, fluent or move used with two different numbers of
    /// arguments, or a reserved relation with the wrong number:
    /// `(cell 1 1 b) (<= (free ?x ?y) (cell ?x ?y))`.
    Arity,
    /// A variable of a head, negation, comparison or arithmetic not bound by
    /// a positive literal: `p(X) :- not q(X).`
    Unsafe,
    /// Recursion through negation: `p :- not q. q :- not p.`
    NegativeCycle,
    /// A reserved relation used where GDL forbids it: `true(p) :- q.`,
    /// `legal(R, m) :- does(R, m).`
    Reserved,
    /// A fact with variables: `p(X).`
    FactVariable,
    /// A game without `role` facts (an empty file).
    NoRoles,
    /// A parameter or section that the base file does not have:
    /// `extends "base.rules". param colour = red.`
    UnknownName,
    /// An `extends` path that cannot be read, or a cycle of `extends`.
    Extends,
    /// A relation that depends on an aggregate over itself:
    /// `n(X) :- X = count { n(Y) }.`
    AggregateCycle,
    /// Grounding that is infinite or larger than the limit:
    /// `nat(0). nat(N) :- nat(M), N = M + 1.`
    Grounding,
    /// A value that must be an integer and is not (a goal value, a weight):
    /// `(goal x high)`.
    Arithmetic,
    /// Warning: a relation used but never defined:
    /// `terminal :- not blocked.` with no `blocked`.
    Undefined,
    /// Warning: a state fact read with `true` that no `init` or `next` rule
    /// produces, or a move read with `does` that no `legal` rule allows:
    /// `terminal :- true scor(x).`
    NeverProduced,
    /// Warning: a game without `terminal`, a role without `goal`, a player
    /// without `legal`: `roles x.` alone.
    Incomplete,
    /// Warning: recursion through negation by relation names that grounding
    /// accepts, since no ground atom depends on its own negation:
    /// `(<= (goal x 100) (true won)) (<= (goal x 0) (not (goal x 100)))`.
    NotStratified,
    /// Warning: a track that visits a cell twice, or whose consecutive
    /// cells are not adjacent on a board that defines adjacency:
    /// `board grid(3, 1). track t: sq(1, 1), sq(3, 1).`
    TrackShape,
    /// Warning from random playouts: a terminal state where a role has no
    /// goal, several goals or one outside 0..100.
    PlayoutGoals,
    /// Warning from random playouts: a non-terminal state where a role has
    /// no legal move.
    PlayoutNoMove,
    /// Warning from random playouts: playouts that reach the step limit.
    PlayoutEndless,
    /// Warning from random playouts: a chance move that is never thrown.
    NeverThrown,
}

impl Code {
    /// Every code, in the order of `docs/ERRORS.md`.
    pub const ALL: [Code; 23] = [
        Code::Syntax,
        Code::TooDeep,
        Code::Declaration,
        Code::Arity,
        Code::Unsafe,
        Code::NegativeCycle,
        Code::Reserved,
        Code::FactVariable,
        Code::NoRoles,
        Code::UnknownName,
        Code::Extends,
        Code::AggregateCycle,
        Code::Grounding,
        Code::Arithmetic,
        Code::Undefined,
        Code::NeverProduced,
        Code::Incomplete,
        Code::NotStratified,
        Code::TrackShape,
        Code::PlayoutGoals,
        Code::PlayoutNoMove,
        Code::PlayoutEndless,
        Code::NeverThrown,
    ];

    /// The stable spelling, such as `E0101`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "E0001",
            Code::TooDeep => "E0002",
            Code::Declaration => "E0003",
            Code::Arity => "E0101",
            Code::Unsafe => "E0102",
            Code::NegativeCycle => "E0103",
            Code::Reserved => "E0104",
            Code::FactVariable => "E0105",
            Code::NoRoles => "E0106",
            Code::UnknownName => "E0107",
            Code::Extends => "E0108",
            Code::AggregateCycle => "E0109",
            Code::Grounding => "E0201",
            Code::Arithmetic => "E0202",
            Code::Undefined => "W0001",
            Code::NeverProduced => "W0002",
            Code::Incomplete => "W0003",
            Code::NotStratified => "W0004",
            Code::TrackShape => "W0005",
            Code::PlayoutGoals => "W0101",
            Code::PlayoutNoMove => "W0102",
            Code::PlayoutEndless => "W0103",
            Code::NeverThrown => "W0104",
        }
    }

    /// What the code means in a few words: the title of its section in
    /// `docs/ERRORS.md` (`## E0103 recursion through negation`).
    pub fn meaning(self) -> &'static str {
        match self {
            Code::Syntax => "syntax",
            Code::TooDeep => "too deep",
            Code::Declaration => "declaration",
            Code::Arity => "arity",
            Code::Unsafe => "unsafe variable",
            Code::NegativeCycle => "recursion through negation",
            Code::Reserved => "reserved relation misused",
            Code::FactVariable => "fact with variables",
            Code::NoRoles => "no roles",
            Code::UnknownName => "unknown name",
            Code::Extends => "extends",
            Code::AggregateCycle => "aggregation through recursion",
            Code::Grounding => "grounding",
            Code::Arithmetic => "arithmetic",
            Code::Undefined => "undefined relation",
            Code::NeverProduced => "never produced",
            Code::Incomplete => "incomplete game",
            Code::NotStratified => "stratified only on ground atoms",
            Code::TrackShape => "track shape",
            Code::PlayoutGoals => "malformed goals in play",
            Code::PlayoutNoMove => "no legal move in play",
            Code::PlayoutEndless => "playouts do not end",
            Code::NeverThrown => "chance move never thrown",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The codes under the names call sites use: `codes::ARITY`.
pub mod codes {
    use super::Code;

    pub const SYNTAX: Code = Code::Syntax;
    pub const TOO_DEEP: Code = Code::TooDeep;
    pub const DECLARATION: Code = Code::Declaration;
    pub const AGGREGATE_CYCLE: Code = Code::AggregateCycle;
    pub const ARITY: Code = Code::Arity;
    pub const UNSAFE: Code = Code::Unsafe;
    pub const NEGATIVE_CYCLE: Code = Code::NegativeCycle;
    pub const RESERVED: Code = Code::Reserved;
    pub const FACT_VARIABLE: Code = Code::FactVariable;
    pub const NO_ROLES: Code = Code::NoRoles;
    pub const UNKNOWN_NAME: Code = Code::UnknownName;
    pub const EXTENDS: Code = Code::Extends;
    pub const GROUNDING: Code = Code::Grounding;
    pub const ARITHMETIC: Code = Code::Arithmetic;
    pub const UNDEFINED: Code = Code::Undefined;
    pub const NEVER_PRODUCED: Code = Code::NeverProduced;
    pub const INCOMPLETE: Code = Code::Incomplete;
    pub const NOT_STRATIFIED: Code = Code::NotStratified;
    pub const TRACK_SHAPE: Code = Code::TrackShape;
    pub const PLAYOUT_GOALS: Code = Code::PlayoutGoals;
    pub const PLAYOUT_NO_MOVE: Code = Code::PlayoutNoMove;
    pub const PLAYOUT_ENDLESS: Code = Code::PlayoutEndless;
    pub const NEVER_THROWN: Code = Code::NeverThrown;
}
