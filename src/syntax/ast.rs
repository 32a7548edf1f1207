//! The one abstract syntax both surface syntaxes parse into.
//!
//! In: nothing (plain data). Out: [`Program`], a list of GDL-style rules over
//! interned symbols, every node carrying the [`Span`] of the text it came from,
//! plus the [`Meta`] that declarations leave for the renderer.
//! Holds: a program is a flat list of rules; facts are rules with an empty body;
//! `true`, `does`, `next`, `init`, `legal`, `goal`, `terminal`, `role` are
//! ordinary relation names here and get their meaning later.

pub use crate::diag::source::{FileId, Span};
pub use crate::symbols::{Sym, Symbols};

/// Integer arithmetic operators (native syntax only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl ArithOp {
    pub fn as_str(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Mod => "mod",
        }
    }

    /// Evaluates the operator; `None` on division by zero or overflow.
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            ArithOp::Add => a.checked_add(b),
            ArithOp::Sub => a.checked_sub(b),
            ArithOp::Mul => a.checked_mul(b),
            ArithOp::Div => a.checked_div_euclid(b),
            ArithOp::Mod => a.checked_rem_euclid(b),
        }
    }
}

/// Comparison operators. `distinct(A, B)` of GDL is `Ne`.
/// `X = Expr` with `X` not yet bound binds `X` (as Prolog's `is`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "=<",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A term and the place it was written. Two terms are equal (and hash
/// alike) when they are written alike, wherever they stand: the span is
/// left out of comparison, so desugaring can key maps and sets by terms.
#[derive(Clone, Debug)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        self.kind == other.kind
    }
}

impl Eq for Term {}

impl std::hash::Hash for Term {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
    }
}

/// The name the native reader gives the `n`-th anonymous `_` of a file:
/// `_#n`, which no user can write (`#` is no character of a variable), so
/// a user's `_1` stays a variable of its own.
pub fn anonymous_variable(n: usize) -> String {
    format!("_#{n}")
}

/// Whether a variable's name is one [`anonymous_variable`] made.
pub fn is_anonymous_variable(name: &str) -> bool {
    name.strip_prefix("_#")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// A variable; the parsers give every anonymous `_` a fresh name.
    Var(Sym),
    /// A constant symbol (in KIF, numbers are constants too, as GDL says).
    Const(Sym),
    /// An integer (native syntax).
    Int(i64),
    /// A function term `f(t1, ..., tn)` with n >= 1.
    App(Sym, Vec<Term>),
    /// An arithmetic expression, evaluated during grounding.
    Arith(ArithOp, Box<Term>, Box<Term>),
}

impl Term {
    pub fn new(kind: TermKind, span: Span) -> Term {
        Term { kind, span }
    }

    /// Calls `f` on every variable of the term, left to right.
    pub fn for_each_var(&self, f: &mut impl FnMut(Sym, Span)) {
        match &self.kind {
            TermKind::Var(v) => f(*v, self.span),
            TermKind::Const(_) | TermKind::Int(_) => {}
            TermKind::App(_, args) => args.iter().for_each(|a| a.for_each_var(f)),
            TermKind::Arith(_, a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
        }
    }

    pub fn has_arith(&self) -> bool {
        match &self.kind {
            TermKind::Arith(..) => true,
            TermKind::App(_, args) => args.iter().any(Term::has_arith),
            _ => false,
        }
    }
}

/// `rel(args...)`; a relation with no arguments has an empty `args`.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    pub rel: Sym,
    pub args: Vec<Term>,
    pub span: Span,
}

impl Atom {
    pub fn for_each_var(&self, f: &mut impl FnMut(Sym, Span)) {
        self.args.iter().for_each(|a| a.for_each_var(f));
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Pos(Atom),
    /// Negation as failure of a literal (normally an atom).
    Not(Box<Literal>, Span),
    /// A comparison; GDL's `distinct` is `Ne`.
    Cmp(CmpOp, Term, Term, Span),
    /// A disjunction of conjunctions.
    Or(Vec<Vec<Literal>>, Span),
    /// `N = count { ... }` and the like (native syntax only).
    Agg(Box<Aggregate>),
}

/// What an aggregate computes over the distinct bindings of its local
/// variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AggOp {
    Count,
    Sum,
    Min,
    Max,
}

impl AggOp {
    pub fn as_str(self) -> &'static str {
        match self {
            AggOp::Count => "count",
            AggOp::Sum => "sum",
            AggOp::Min => "min",
            AggOp::Max => "max",
        }
    }
}

/// `result = op value { body }`: the variables of `body` that occur nowhere
/// else in the rule are local; the others are shared and bound outside.
/// `value` is `None` for `count`.
#[derive(Clone, Debug, PartialEq)]
pub struct Aggregate {
    pub op: AggOp,
    pub value: Option<Term>,
    pub body: Vec<Literal>,
    pub result: Term,
    pub span: Span,
}

impl Literal {
    /// Calls `f` on every variable of the literal, at any depth.
    pub fn for_each_var(&self, f: &mut impl FnMut(Sym, Span)) {
        match self {
            Literal::Pos(a) => a.for_each_var(f),
            Literal::Not(inner, _) => inner.for_each_var(f),
            Literal::Cmp(_, a, b, _) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Literal::Or(alts, _) => alts.iter().flatten().for_each(|l| l.for_each_var(f)),
            Literal::Agg(a) => {
                a.result.for_each_var(f);
                a.for_each_inner_var(f);
            }
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Literal::Pos(a) => a.span,
            Literal::Not(_, s) | Literal::Cmp(_, _, _, s) | Literal::Or(_, s) => *s,
            Literal::Agg(a) => a.span,
        }
    }
}

impl Aggregate {
    /// Every variable inside the braces and of the value term.
    pub fn for_each_inner_var(&self, f: &mut impl FnMut(Sym, Span)) {
        if let Some(v) = &self.value {
            v.for_each_var(f);
        }
        self.body.iter().for_each(|l| l.for_each_var(f));
    }
}

/// The variables of aggregate `rule.body[index]` (which must be one) that
/// it shares with the rest of the rule (head, other literals, its result),
/// in order of first occurrence; the others of its braces are local.
pub fn aggregate_shared(rule: &Rule, index: usize) -> Vec<Sym> {
    let Literal::Agg(agg) = &rule.body[index] else {
        return Vec::new();
    };
    let mut outside = std::collections::HashSet::new();
    rule.head.for_each_var(&mut |v, _| {
        outside.insert(v);
    });
    agg.result.for_each_var(&mut |v, _| {
        outside.insert(v);
    });
    for (i, lit) in rule.body.iter().enumerate() {
        if i != index {
            lit.for_each_var(&mut |v, _| {
                outside.insert(v);
            });
        }
    }
    let mut shared = Vec::new();
    agg.for_each_inner_var(&mut |v, _| {
        if outside.contains(&v) && !shared.contains(&v) {
            shared.push(v);
        }
    });
    shared
}

/// `head :- body.` A fact has an empty body.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
    pub span: Span,
}

/// Which surface syntax a program came from; moves and states print in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Kif,
    Rules,
}

/// What declarations leave beside the rules: for the renderer and the CLI.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    pub title: Option<String>,
    pub board: Option<BoardView>,
    /// Parameters with their final values, in declaration order.
    pub params: Vec<(String, String)>,
    /// Each declaration statement's span and keyword (`pieces`, `region`,
    /// `counter`...): the rules it generated lie inside its span, so a
    /// message about a generated name can say which declaration made it.
    pub declarations: Vec<(Span, String)>,
}

impl Meta {
    /// The keyword of the declaration whose generated rules hold `span`.
    pub fn generated_by(&self, span: Span) -> Option<&str> {
        self.declarations
            .iter()
            .find(|(d, _)| d.file == span.file && d.start <= span.start && span.end <= d.end)
            .map(|(_, keyword)| keyword.as_str())
    }
}

/// How to draw a board: where each cell sits on screen and which facts of a
/// state put which piece on which cell.
#[derive(Clone, Debug, Default)]
pub struct BoardView {
    /// Size of the screen grid in character cells (columns, rows).
    pub width: u32,
    pub height: u32,
    pub cells: Vec<CellView>,
    pub pieces: Vec<PieceView>,
    /// The colour a region's cells are drawn in (`region N: ... as COLOUR`).
    pub mark_colours: Vec<(Sym, Colour)>,
}

/// A colour a piece or a region may be declared with (`as red`); the
/// renderer paints it only when asked for colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Black,
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    White,
}

impl Colour {
    /// Every colour with its name, in the order of the terminal's palette.
    pub const ALL: [(&'static str, Colour); 8] = [
        ("black", Colour::Black),
        ("red", Colour::Red),
        ("green", Colour::Green),
        ("yellow", Colour::Yellow),
        ("blue", Colour::Blue),
        ("magenta", Colour::Magenta),
        ("cyan", Colour::Cyan),
        ("white", Colour::White),
    ];

    /// The colour called `name`, if there is one.
    pub fn named(name: &str) -> Option<Colour> {
        Colour::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }
}

/// One cell: its name as a ground term, its screen position (column and row
/// from the top left) and any marks to draw it with (e.g. `safe`, `home`).
#[derive(Clone, Debug)]
pub struct CellView {
    pub name: Term,
    pub col: u32,
    pub row: u32,
    pub marks: Vec<Sym>,
}

/// A pattern over the facts of a state: every true fact matching `fact`
/// draws `glyph` (a term over the pattern's variables, printed) on the cell
/// named by `cell` (a term over the pattern's variables), in `colour` if
/// its `pieces` declaration gave one.
#[derive(Clone, Debug)]
pub struct PieceView {
    pub fact: Term,
    pub cell: Term,
    pub glyph: Term,
    pub colour: Option<Colour>,
}

/// A parsed program in the core language.
#[derive(Clone, Debug)]
pub struct Program {
    pub syntax: Syntax,
    pub symbols: Symbols,
    pub rules: Vec<Rule>,
    pub meta: Meta,
}
