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

    /// Whether the term has no variable (arithmetic over constants counts
    /// as variable-free).
    pub fn has_no_vars(&self) -> bool {
        match &self.kind {
            TermKind::Var(_) => false,
            TermKind::Const(_) | TermKind::Int(_) => true,
            TermKind::App(_, args) => args.iter().all(Term::has_no_vars),
            TermKind::Arith(_, a, b) => a.has_no_vars() && b.has_no_vars(),
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

/// How to draw a board: where each cell sits on screen, which facts of a
/// state put which piece on which cell or reserve place, and the styles,
/// labels and reserves declared beside it.
#[derive(Clone, Debug, Default)]
pub struct BoardView {
    /// Size of the screen grid in character cells (columns, rows).
    pub width: u32,
    pub height: u32,
    pub cells: Vec<CellView>,
    pub pieces: Vec<PieceView>,
    /// How a region's cells are drawn (`region N: ... as COLOUR STYLE`).
    pub mark_styles: Vec<(Sym, MarkStyle)>,
    /// Text written on free places of the screen grid (`label`).
    pub labels: Vec<LabelView>,
    /// Places off the board (`reserve`), drawn beside it.
    pub reserves: Vec<ReserveView>,
}

/// How a region's cells are drawn: a colour (if declared) and a style.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkStyle {
    pub colour: Option<Colour>,
    pub style: RegionStyle,
}

/// The look of a region's cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RegionStyle {
    /// The cell is tinted with the colour (the default).
    #[default]
    Filled,
    /// Only the cell's border is drawn in the colour.
    Outlined,
    /// The cell carries a cross, as the safe squares of cross boards do
    /// (an empty cell shows `×` as text).
    Marked,
}

impl RegionStyle {
    pub const ALL: [(&'static str, RegionStyle); 3] = [
        ("filled", RegionStyle::Filled),
        ("outlined", RegionStyle::Outlined),
        ("marked", RegionStyle::Marked),
    ];

    pub fn named(name: &str) -> Option<RegionStyle> {
        RegionStyle::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, s)| s)
    }
}

/// `label "TEXT" at X Y`: text on the screen grid, from column `col` of
/// row `row` rightwards, over places no cell takes.
#[derive(Clone, Debug)]
pub struct LabelView {
    pub text: String,
    pub col: u32,
    pub row: u32,
    pub colour: Option<Colour>,
}

/// `reserve "TITLE": PLACES`: places off the board with a title; `draw`
/// puts pieces on a place as on a cell.
#[derive(Clone, Debug)]
pub struct ReserveView {
    pub title: String,
    pub places: Vec<Term>,
    pub colour: Option<Colour>,
}

/// A colour a piece, a region, a label or a reserve may be declared with
/// (`as red`, `as "#c03030"`); the text renderer paints it only when asked
/// for colour.
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
    Orange,
    Purple,
    Brown,
    Grey,
    /// `#rrggbb`.
    Rgb(u8, u8, u8),
}

impl Colour {
    /// Every named colour with its name.
    pub const ALL: [(&'static str, Colour); 12] = [
        ("black", Colour::Black),
        ("red", Colour::Red),
        ("green", Colour::Green),
        ("yellow", Colour::Yellow),
        ("blue", Colour::Blue),
        ("magenta", Colour::Magenta),
        ("cyan", Colour::Cyan),
        ("white", Colour::White),
        ("orange", Colour::Orange),
        ("purple", Colour::Purple),
        ("brown", Colour::Brown),
        ("grey", Colour::Grey),
    ];

    /// The colour called `name`, or written `#rrggbb`, if there is one.
    pub fn named(name: &str) -> Option<Colour> {
        if let Some(hex) = name.strip_prefix('#') {
            if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
            return Some(Colour::Rgb(byte(0)?, byte(2)?, byte(4)?));
        }
        Colour::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }

    /// Red, green and blue: the shade drawn for each named colour, chosen
    /// to read on a light and on a dark background.
    pub fn rgb(self) -> (u8, u8, u8) {
        match self {
            Colour::Black => (0x3a, 0x3a, 0x3a),
            Colour::Red => (0xc6, 0x28, 0x28),
            Colour::Green => (0x2e, 0x7d, 0x32),
            Colour::Yellow => (0xe0, 0xb0, 0x00),
            Colour::Blue => (0x15, 0x65, 0xc0),
            Colour::Magenta => (0xad, 0x14, 0x57),
            Colour::Cyan => (0x00, 0x83, 0x8f),
            Colour::White => (0xf5, 0xf5, 0xf5),
            Colour::Orange => (0xef, 0x6c, 0x00),
            Colour::Purple => (0x6a, 0x1b, 0x9a),
            Colour::Brown => (0x6d, 0x4c, 0x41),
            Colour::Grey => (0x75, 0x75, 0x75),
            Colour::Rgb(r, g, b) => (r, g, b),
        }
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
