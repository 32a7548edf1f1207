//! Text → surface statements of the native language.
//!
//! In: the text of one file. Out: [`Stmt`]s with spans, still holding ranges,
//! parameter names and declarations, plus every syntax error found.
//! Holds: the file is parsed one statement at a time; after an error the
//! reader skips to the end of that statement (the next `.` that is not part
//! of `..`) and goes on, so all errors of a file are reported. `section NAME {`
//! and `}` are recognised here, between statements. Nesting is bounded before
//! pest sees the text, and so are operator chains, so no input overflows the
//! stack.

use super::super::ast::{AggOp, ArithOp, CmpOp, FileId, Span};
use super::super::scan::{
    RULES, guard_nesting, pest_diagnostic, section_open, skip_blank, statement_end,
    unterminated_string,
};
use crate::diag::{Diagnostic, codes};
use pest::Parser;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/rules.pest"]
pub(crate) struct RulesParser;

/// Deepest bracket nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// Longest chain of operators (`a + b + ...`, `not not ...`) in one term.
pub const MAX_CHAIN: usize = 256;
/// Errors reported per file before the reader gives up.
pub const MAX_ERRORS: usize = 50;

/// A surface term: a core term plus ranges, strings and parameter names.
#[derive(Clone, Debug)]
pub struct Ex {
    pub kind: ExKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExKind {
    Var(String),
    /// A lower-case name: a constant, or a parameter's name.
    Name(String),
    Int(i64),
    Str(String),
    App(String, Vec<Ex>),
    Arith(ArithOp, Box<Ex>, Box<Ex>),
    Neg(Box<Ex>),
    Range(Box<Ex>, Box<Ex>),
}

/// A surface literal of a rule body.
#[derive(Clone, Debug)]
pub enum Lit {
    /// An atom, given as a term (a name or an application).
    Atom(Ex),
    Not(Box<Lit>, Span),
    Cmp(CmpOp, Ex, Ex, Span),
    Or(Vec<Vec<Lit>>, Span),
    Agg(Box<AggLit>),
}

/// `result = op value { body }`.
#[derive(Clone, Debug)]
pub struct AggLit {
    pub op: AggOp,
    pub value: Option<Ex>,
    pub body: Vec<Lit>,
    pub result: Ex,
    pub span: Span,
}

impl Lit {
    pub fn span(&self) -> Span {
        match self {
            Lit::Atom(e) => e.span,
            Lit::Not(_, s) | Lit::Cmp(_, _, _, s) | Lit::Or(_, s) => *s,
            Lit::Agg(a) => a.span,
        }
    }
}

/// One part of a declaration: what follows its keyword, a `:` or an option
/// word, as comma-separated items of juxtaposed terms.
#[derive(Clone, Debug)]
pub struct Part {
    /// `""` for the part right after the keyword, `":"`, or the option word.
    pub word: String,
    pub span: Span,
    pub items: Vec<Vec<Ex>>,
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub keyword: String,
    pub keyword_span: Span,
    /// The text of `game "..."`.
    pub text: Option<(String, Span)>,
    pub parts: Vec<Part>,
}

impl Decl {
    pub fn part(&self, word: &str) -> Option<&Part> {
        self.parts.iter().find(|p| p.word == word)
    }
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Clause {
        head: Ex,
        body: Vec<Lit>,
    },
    Decl(Decl),
    Param {
        name: String,
        name_span: Span,
        value: Ex,
        /// The values it may take (`in 1..9, 12`): integers, ranges and
        /// names; empty for any value.
        valid: Vec<Ex>,
    },
    Extends {
        path: String,
    },
    Section {
        name: String,
        name_span: Span,
        body: Vec<Stmt>,
    },
    /// `rule LABEL: clause.`, or in a variant `replace LABEL: clause.`;
    /// `clause` is a [`StmtKind::Clause`].
    Labelled {
        label: String,
        label_span: Span,
        replace: bool,
        clause: Box<Stmt>,
    },
    /// `drop LABEL.` or `drop section NAME.` (in a variant).
    Drop {
        section: bool,
        name: String,
        name_span: Span,
    },
    Counter(Counter),
}

/// `counter NAME from START to TOP, up when L, reset when L.`
#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub name_span: Span,
    pub start: Ex,
    pub top: Ex,
    /// Every `up when L` (`true`) and `reset when L` (`false`), in order.
    pub when: Vec<(bool, Lit)>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// The user's words for every grammar rule.
pub fn describe(rule: &Rule) -> String {
    match rule {
        Rule::WHITESPACE | Rule::COMMENT | Rule::ident_char => "a space".into(),
        Rule::kw_not => "`not`".into(),
        Rule::kw_mod => "an operator".into(),
        Rule::kw_true | Rule::kw_next | Rule::kw_init | Rule::sugar => {
            "`true`, `next` or `init`".into()
        }
        Rule::name => "a name".into(),
        Rule::variable => "a variable".into(),
        Rule::integer => "an integer".into(),
        Rule::string | Rule::text => "a string".into(),
        Rule::expr
        | Rule::primary
        | Rule::product
        | Rule::unary
        | Rule::paren
        | Rule::compound
        | Rule::arg
        | Rule::item
        | Rule::items
        | Rule::single_term => "a term".into(),
        Rule::add_op | Rule::mul_op | Rule::minus => "an operator".into(),
        Rule::args | Rule::lparen => "`(`".into(),
        Rule::rparen => "`)`".into(),
        Rule::comma => "`,`".into(),
        Rule::semicolon => "`;`".into(),
        Rule::neck => "`:-`".into(),
        Rule::equals => "`=`".into(),
        Rule::lbrace => "`{`".into(),
        Rule::rbrace => "`}`".into(),
        Rule::agg_kw | Rule::aggregate => "an aggregate (`count`, `sum`, `min`, `max`)".into(),
        Rule::range => "`..`".into(),
        Rule::cmp_op | Rule::agg_eq => "a comparison".into(),
        Rule::literal | Rule::body | Rule::single_literal => "a literal".into(),
        Rule::head | Rule::clause | Rule::statement => "a rule or a declaration".into(),
        Rule::decl_kw | Rule::declaration => "a declaration".into(),
        Rule::option => "a declaration word (`at`, `as`, `from`, `using`, ...)".into(),
        Rule::colon => "`:`".into(),
        Rule::kw_param | Rule::param => "`param`".into(),
        Rule::kw_in => "`in`".into(),
        Rule::kw_extends | Rule::extends => "`extends`".into(),
        Rule::kw_rule => "`rule`".into(),
        Rule::kw_replace => "`replace`".into(),
        Rule::labelled => "a labelled rule".into(),
        Rule::label_colon => "`:`".into(),
        Rule::kw_drop | Rule::drop => "`drop`".into(),
        Rule::kw_section => "`section`".into(),
        Rule::kw_counter | Rule::counter => "`counter`".into(),
        Rule::kw_from => "`from`".into(),
        Rule::kw_to => "`to`".into(),
        Rule::kw_up | Rule::kw_reset | Rule::counter_when => "`up` or `reset`".into(),
        Rule::kw_when => "`when`".into(),
        Rule::stop => "`.`".into(),
        Rule::EOI => "end of input".into(),
    }
}

/// Parses a whole file into statements, collecting every error.
pub fn parse_file(text: &str, file: FileId) -> (Vec<Stmt>, Vec<Diagnostic>) {
    let mut reader = Reader {
        file,
        errors: Vec::new(),
        anon: 0,
    };
    if let Err(d) = guard_nesting(text, file, MAX_DEPTH, &[(b'(', b')'), (b'{', b'}')], RULES) {
        return (Vec::new(), vec![d]);
    }
    let mut nest = Nest::default();
    let mut pos = 0;
    loop {
        pos = skip_blank(text, pos, RULES);
        if pos >= text.len() || reader.errors.len() >= MAX_ERRORS {
            break;
        }
        let rest = &text[pos..];
        if let Some((name, name_at, len)) = section_open(rest, RULES) {
            if !nest.open.is_empty() {
                reader.error(
                    Span::new(file, pos, pos + 7),
                    "a section cannot contain another section",
                );
            }
            let name_span = Span::new(file, pos + name_at, pos + name_at + name.len());
            nest.open.push((name, name_span, pos, Vec::new()));
            pos += len;
        } else if rest.starts_with('}') {
            match nest.close(Span::new(file, pos, pos + 1)) {
                Some(stmt) => nest.push(stmt),
                None => reader.error(Span::new(file, pos, pos + 1), "`}` without a section"),
            }
            pos += 1;
        } else {
            pos = reader.statement_at(text, pos, &mut nest);
        }
    }
    for (_, span, _, _) in nest.open {
        reader.error(span, "this section is never closed with `}`");
    }
    (nest.top, reader.errors)
}

/// The statements read so far, with the sections still open.
#[derive(Default)]
struct Nest {
    top: Vec<Stmt>,
    /// Open sections: name, name span, start offset, statements.
    open: Vec<(String, Span, usize, Vec<Stmt>)>,
}

impl Nest {
    /// Adds a statement to the innermost open section, or to the file.
    fn push(&mut self, stmt: Stmt) {
        match self.open.last_mut() {
            Some(outer) => outer.3.push(stmt),
            None => self.top.push(stmt),
        }
    }

    /// Closes the innermost section at the `}` of `brace`.
    fn close(&mut self, brace: Span) -> Option<Stmt> {
        let (name, name_span, start, body) = self.open.pop()?;
        Some(Stmt {
            kind: StmtKind::Section {
                name,
                name_span,
                body,
            },
            span: Span::new(brace.file, start, brace.end as usize),
        })
    }
}

/// Parses one term typed by a user.
pub fn parse_single_term(text: &str, file: FileId) -> Result<Ex, Diagnostic> {
    parse_single(text, file, Rule::single_term, |r, p| r.expr(p, 0))
}

/// Parses one body literal typed by a user.
pub fn parse_single_literal(text: &str, file: FileId) -> Result<Lit, Diagnostic> {
    parse_single(text, file, Rule::single_literal, |r, p| r.literal(p, 0))
}

/// Parses a text holding exactly one item of grammar rule `rule` (whose
/// only child is the item) and reads the item with `read`.
fn parse_single<T>(
    text: &str,
    file: FileId,
    rule: Rule,
    read: impl FnOnce(&mut Reader, Pair<'_, Rule>) -> T,
) -> Result<T, Diagnostic> {
    guard_nesting(text, file, MAX_DEPTH, &[(b'(', b')')], RULES)?;
    let mut pairs =
        RulesParser::parse(rule, text).map_err(|e| pest_diagnostic(e, file, describe))?;
    let mut reader = Reader {
        file,
        errors: Vec::new(),
        anon: 0,
    };
    let top = pairs.next().expect("pest returns the start rule");
    let item = top
        .into_inner()
        .next()
        .expect("grammar: a single-item rule has its item");
    let value = read(&mut reader, item);
    match reader.errors.pop() {
        Some(d) => Err(d),
        None => Ok(value),
    }
}

struct Reader {
    file: FileId,
    errors: Vec<Diagnostic>,
    anon: usize,
}

impl Reader {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors
            .push(Diagnostic::error(codes::SYNTAX, span, message));
    }

    /// The span of a parse node, without the blanks a node ending in an
    /// optional part (`name ~ args?`) takes after it.
    fn span(&self, pair: &Pair<'_, Rule>, base: usize) -> Span {
        let s = pair.as_span();
        let end = s.start() + pair.as_str().trim_end().len();
        Span::new(self.file, base + s.start(), base + end)
    }

    /// Reads the statement at `pos` into `nest` (or records its error) and
    /// returns the offset after it.
    fn statement_at(&mut self, text: &str, pos: usize, nest: &mut Nest) -> usize {
        // Parse only up to the statement's end: pest indexes the lines of
        // all the text it is given, which would make a long file quadratic.
        let rest = &text[pos..statement_end(text, pos, RULES).min(text.len())];
        match RulesParser::parse(Rule::statement, rest) {
            Ok(mut pairs) => {
                let pair = pairs.next().expect("pest returns the start rule");
                let len = pair.as_span().end();
                if let Some(stmt) = self.statement(pair, pos) {
                    nest.push(stmt);
                }
                return pos + len.max(1);
            }
            Err(_) if unterminated_string(rest, RULES).is_some() => {
                let at = pos + unterminated_string(rest, RULES).unwrap_or(0);
                self.error(
                    Span::new(self.file, at, at + 1),
                    "this string is never closed (a string ends on its line)",
                );
            }
            Err(e) => {
                let wants_stop = matches!(&e.variant,
                    pest::error::ErrorVariant::ParsingError { positives, .. }
                        if positives.contains(&Rule::stop));
                let mut d = pest_diagnostic(e, self.file, describe);
                if let Some(s) = d.span.as_mut() {
                    // A missing `.`: where the statement should have ended,
                    // not at the next statement, lines below.
                    if wants_stop && let Some(end) = end_before_blank_lines(rest, s.start as usize)
                    {
                        (s.start, s.end) = (end as u32, end as u32 + 1);
                    }
                    s.start += pos as u32;
                    s.end += pos as u32;
                    s.end = s.end.min(text.len() as u32).max(s.start);
                }
                self.errors.push(d);
            }
        }
        statement_end(text, pos, RULES)
    }

    fn statement(&mut self, pair: Pair<'_, Rule>, base: usize) -> Option<Stmt> {
        let span = self.span(&pair, base);
        let inner = kids(pair).next()?;
        let kind = match inner.as_rule() {
            Rule::extends => {
                let s = kids(inner).nth(1)?;
                StmtKind::Extends {
                    path: unescape(kids(s).next()?.as_str()),
                }
            }
            Rule::param => {
                let mut it = kids(inner).skip(1);
                let name = it.next()?;
                let name_span = self.span(&name, base);
                let value = self.arg(it.next()?, base);
                let valid = (it.filter(|p| p.as_rule() == Rule::arg))
                    .map(|p| self.arg(p, base))
                    .collect();
                StmtKind::Param {
                    name: name.as_str().to_string(),
                    name_span,
                    value,
                    valid,
                }
            }
            Rule::declaration => StmtKind::Decl(self.declaration(inner, base)?),
            Rule::clause => self.clause(inner, base)?,
            Rule::labelled => {
                let mut it = kids(inner);
                let replace = it.next()?.as_rule() == Rule::kw_replace;
                let label = it.next()?;
                let clause = it.next()?;
                let clause_start = base + clause.as_span().start();
                let clause_span = Span::new(self.file, clause_start, span.end as usize);
                StmtKind::Labelled {
                    label: label.as_str().to_string(),
                    label_span: self.span(&label, base),
                    replace,
                    clause: Box::new(Stmt {
                        kind: self.clause(clause, base)?,
                        span: clause_span,
                    }),
                }
            }
            Rule::drop => {
                let mut it = kids(inner).skip(1).peekable();
                let section = it.next_if(|p| p.as_rule() == Rule::kw_section).is_some();
                let name = it.next()?;
                StmtKind::Drop {
                    section,
                    name: name.as_str().to_string(),
                    name_span: self.span(&name, base),
                }
            }
            Rule::counter => StmtKind::Counter(self.counter(inner, base)?),
            _ => return None,
        };
        Some(Stmt { kind, span })
    }

    fn clause(&mut self, pair: Pair<'_, Rule>, base: usize) -> Option<StmtKind> {
        let mut it = kids(pair);
        let head = self.head(it.next()?, base);
        let body = match it.next() {
            Some(b) => self.body(b, base),
            None => Vec::new(),
        };
        Some(StmtKind::Clause { head, body })
    }

    /// `counter NAME from START to TOP, (up | reset) when L, ...`
    fn counter(&mut self, pair: Pair<'_, Rule>, base: usize) -> Option<Counter> {
        let mut it = kids(pair).skip(1);
        let name = it.next()?;
        let start = self.expr(it.nth(1)?, base);
        let top = self.expr(it.nth(1)?, base);
        let mut when = Vec::new();
        for w in it {
            let mut parts = kids(w);
            let up = parts.next()?.as_rule() == Rule::kw_up;
            let lit = self.literal(parts.nth(1)?, base);
            when.push((up, lit));
        }
        Some(Counter {
            name: name.as_str().to_string(),
            name_span: self.span(&name, base),
            start,
            top,
            when,
        })
    }

    fn declaration(&mut self, pair: Pair<'_, Rule>, base: usize) -> Option<Decl> {
        let mut it = kids(pair);
        let kw = it.next()?;
        let mut decl = Decl {
            keyword: kw.as_str().to_string(),
            keyword_span: self.span(&kw, base),
            text: None,
            parts: Vec::new(),
        };
        let mut word = String::new();
        let mut word_span = decl.keyword_span;
        for p in it {
            match p.as_rule() {
                Rule::string => {
                    let span = self.span(&p, base);
                    let t = kids(p).next().map(|t| unescape(t.as_str()));
                    decl.text = Some((t.unwrap_or_default(), span));
                }
                Rule::colon | Rule::option => {
                    word = p.as_str().to_string();
                    word_span = self.span(&p, base);
                }
                Rule::items => {
                    let items = kids(p)
                        .map(|item| kids(item).map(|a| self.arg(a, base)).collect())
                        .collect();
                    decl.parts.push(Part {
                        word: std::mem::take(&mut word),
                        span: word_span,
                        items,
                    });
                }
                _ => {}
            }
        }
        Some(decl)
    }

    fn head(&mut self, pair: Pair<'_, Rule>, base: usize) -> Ex {
        let span = self.span(&pair, base);
        let mut it = kids(pair);
        let first = it.next().expect("grammar: head is not empty");
        if first.as_rule() == Rule::sugar {
            let word = first.as_str().to_string();
            let e = self.expr(it.next().expect("grammar: sugar has a term"), base);
            return Ex {
                kind: ExKind::App(word, vec![e]),
                span,
            };
        }
        self.expr(first, base)
    }

    fn body(&mut self, pair: Pair<'_, Rule>, base: usize) -> Vec<Lit> {
        kids(pair).map(|l| self.literal(l, base)).collect()
    }

    fn literal(&mut self, pair: Pair<'_, Rule>, base: usize) -> Lit {
        let mut nots = Vec::new();
        let mut it = kids(pair).peekable();
        while let Some(p) = it.next_if(|p| p.as_rule() == Rule::kw_not) {
            nots.push(self.span(&p, base));
        }
        if nots.len() > 2 {
            self.error(nots[2], "more than two `not` in a row");
            nots.truncate(2);
        }
        let first = it.next().expect("grammar: literal has a core");
        let core_start = self.span(&first, base);
        let mut lit = if first.as_rule() == Rule::sugar {
            let word = first.as_str().to_string();
            let e = self.expr(it.next().expect("grammar: sugar has a term"), base);
            let s = core_start.to(e.span);
            Lit::Atom(Ex {
                kind: ExKind::App(word, vec![e]),
                span: s,
            })
        } else {
            let left = self.expr_or_group(first, base);
            match it.next() {
                Some(tail) if tail.as_rule() == Rule::aggregate => {
                    let result = self.term_before(left, "the aggregate");
                    self.aggregate(result, tail, base)
                }
                Some(op) => {
                    let op = match op.as_str() {
                        "=" => CmpOp::Eq,
                        "!=" => CmpOp::Ne,
                        "<" => CmpOp::Lt,
                        "=<" => CmpOp::Le,
                        ">" => CmpOp::Gt,
                        _ => CmpOp::Ge,
                    };
                    let right =
                        self.expr(it.next().expect("grammar: comparison has two sides"), base);
                    let left = self.term_before(left, "the comparison");
                    let s = left.span.to(right.span);
                    Lit::Cmp(op, left, right, s)
                }
                None => match left {
                    Ok(e) => Lit::Atom(e),
                    Err(l) => *l,
                },
            }
        };
        for n in nots.into_iter().rev() {
            let s = n.to(lit.span());
            lit = Lit::Not(Box::new(lit), s);
        }
        lit
    }

    /// The left side of a comparison or aggregate: a term, not a group.
    fn term_before(&mut self, left: Result<Ex, Box<Lit>>, what: &str) -> Ex {
        match left {
            Ok(e) => e,
            Err(l) => {
                self.error(l.span(), format!("expected a term before {what}"));
                self.dummy(l.span())
            }
        }
    }

    /// `N = count { ... }`, `T = sum V { ... }`, ...: `pair` is what follows
    /// the result term.
    fn aggregate(&mut self, result: Ex, pair: Pair<'_, Rule>, base: usize) -> Lit {
        let span = result.span.to(self.span(&pair, base));
        let mut op = AggOp::Count;
        let mut value = None;
        let mut body = Vec::new();
        for p in kids(pair) {
            match p.as_rule() {
                Rule::agg_kw => {
                    op = match p.as_str() {
                        "count" => AggOp::Count,
                        "sum" => AggOp::Sum,
                        "min" => AggOp::Min,
                        _ => AggOp::Max,
                    }
                }
                Rule::body => body = self.body(p, base),
                Rule::expr => value = Some(self.expr(p, base)),
                _ => {}
            }
        }
        match (op, &value) {
            (AggOp::Count, Some(v)) => {
                self.error(v.span, "`count` takes no value: write `count { ... }`")
            }
            (AggOp::Sum | AggOp::Min | AggOp::Max, None) => self.error(
                span,
                format!(
                    "`{}` needs a value: write `{} X {{ ... }}`",
                    op.as_str(),
                    op.as_str()
                ),
            ),
            _ => {}
        }
        Lit::Agg(Box::new(AggLit {
            op,
            value,
            body,
            result,
            span,
        }))
    }

    /// A term, or (for a parenthesised group in a body) a literal.
    fn expr_or_group(&mut self, pair: Pair<'_, Rule>, base: usize) -> Result<Ex, Box<Lit>> {
        // expr > product > unary > primary: a lone group is a body group.
        if let Some(group) = lone_paren(&pair) {
            let span = self.span(&group, base);
            let alts: Vec<Vec<Lit>> = kids(group).map(|b| self.body(b, base)).collect();
            if let [alt] = alts.as_slice()
                && let [Lit::Atom(e)] = alt.as_slice()
            {
                return Ok(e.clone());
            }
            return Err(Box::new(Lit::Or(alts, span)));
        }
        Ok(self.expr(pair, base))
    }

    fn dummy(&mut self, span: Span) -> Ex {
        Ex {
            kind: ExKind::Int(0),
            span,
        }
    }

    fn arg(&mut self, pair: Pair<'_, Rule>, base: usize) -> Ex {
        let span = self.span(&pair, base);
        let mut it = kids(pair);
        let lo = self.expr(it.next().expect("grammar: arg has an expr"), base);
        match it.nth(1) {
            Some(hi) => {
                let hi = self.expr(hi, base);
                Ex {
                    kind: ExKind::Range(Box::new(lo), Box::new(hi)),
                    span,
                }
            }
            None => lo,
        }
    }

    fn expr(&mut self, pair: Pair<'_, Rule>, base: usize) -> Ex {
        let span = self.span(&pair, base);
        match pair.as_rule() {
            Rule::expr | Rule::product => self.operators(pair, base),
            Rule::unary => self.minuses(pair, base),
            Rule::paren => {
                let alts: Vec<Vec<Lit>> = kids(pair).map(|b| self.body(b, base)).collect();
                if let [alt] = alts.as_slice()
                    && let [Lit::Atom(e)] = alt.as_slice()
                {
                    return e.clone();
                }
                self.error(span, "expected a term, found a group of literals");
                self.dummy(span)
            }
            Rule::compound => self.compound(pair, base),
            Rule::variable => {
                let name = if pair.as_str() == "_" {
                    self.anon += 1;
                    crate::syntax::ast::anonymous_variable(self.anon)
                } else {
                    pair.as_str().to_string()
                };
                Ex {
                    kind: ExKind::Var(name),
                    span,
                }
            }
            Rule::integer => match pair.as_str().parse::<i64>() {
                Ok(i) => Ex {
                    kind: ExKind::Int(i),
                    span,
                },
                Err(_) => {
                    self.error(span, "integer too large");
                    self.dummy(span)
                }
            },
            Rule::string => {
                let t = kids(pair).next().map(|t| unescape(t.as_str()));
                Ex {
                    kind: ExKind::Str(t.unwrap_or_default()),
                    span,
                }
            }
            _ => {
                self.error(span, "expected a term");
                self.dummy(span)
            }
        }
    }

    /// `a + b - c` or `a * b mod c`: left-associative, at most
    /// [`MAX_CHAIN`] operators.
    fn operators(&mut self, pair: Pair<'_, Rule>, base: usize) -> Ex {
        let count = kids(pair.clone()).count();
        if count > 2 * MAX_CHAIN {
            let span = self.span(&pair, base);
            self.errors.push(Diagnostic::error(
                codes::TOO_DEEP,
                span,
                format!("more than {MAX_CHAIN} operators in one term"),
            ));
            return self.dummy(span);
        }
        let mut it = kids(pair);
        let mut acc = self.expr(it.next().expect("grammar: operand"), base);
        while let (Some(op), Some(rhs)) = (it.next(), it.next()) {
            let op = match op.as_str() {
                "+" => ArithOp::Add,
                "-" => ArithOp::Sub,
                "*" => ArithOp::Mul,
                "/" => ArithOp::Div,
                _ => ArithOp::Mod,
            };
            let rhs = self.expr(rhs, base);
            let span = acc.span.to(rhs.span);
            acc = Ex {
                kind: ExKind::Arith(op, Box::new(acc), Box::new(rhs)),
                span,
            };
        }
        acc
    }

    /// `-X`, `- -3`: at most two minus signs; a negative integer is folded.
    fn minuses(&mut self, pair: Pair<'_, Rule>, base: usize) -> Ex {
        let span = self.span(&pair, base);
        let parts: Vec<_> = kids(pair).collect();
        let minuses = parts.len() - 1;
        let mut e = self.expr(parts[minuses].clone(), base);
        if minuses > 2 {
            self.error(span, "more than two `-` in a row");
            return e;
        }
        for _ in 0..minuses {
            e = match e.kind {
                ExKind::Int(i) => Ex {
                    kind: ExKind::Int(-i),
                    span,
                },
                _ => Ex {
                    kind: ExKind::Neg(Box::new(e)),
                    span,
                },
            };
        }
        e
    }

    /// `name` or `name(args...)`.
    fn compound(&mut self, pair: Pair<'_, Rule>, base: usize) -> Ex {
        let span = self.span(&pair, base);
        let mut it = kids(pair);
        let name = it.next().expect("grammar: compound has a name").as_str();
        let kind = match it.next() {
            Some(args) => {
                let args = kids(args).map(|a| self.arg(a, base)).collect();
                ExKind::App(name.to_string(), args)
            }
            None => ExKind::Name(name.to_string()),
        };
        Ex { kind, span }
    }
}

/// The children of a pair, without punctuation.
fn kids<'a>(pair: Pair<'a, Rule>) -> impl Iterator<Item = Pair<'a, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::lparen
                | Rule::rparen
                | Rule::comma
                | Rule::semicolon
                | Rule::neck
                | Rule::equals
                | Rule::agg_eq
                | Rule::lbrace
                | Rule::rbrace
                | Rule::stop
                | Rule::label_colon
        )
    })
}

/// If an expr is nothing but one parenthesised group, that group.
fn lone_paren<'a>(pair: &Pair<'a, Rule>) -> Option<Pair<'a, Rule>> {
    let mut p = pair.clone();
    loop {
        let mut it = kids(p.clone());
        let first = it.next()?;
        if it.next().is_some() {
            return None;
        }
        match first.as_rule() {
            Rule::paren => return Some(first),
            Rule::product | Rule::unary => p = first,
            _ => return None,
        }
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The offset just after the last character of code (not a blank, not in a
/// comment) before `at`, if a line break lies between them: where a
/// statement that the text at `at` does not continue should have ended.
fn end_before_blank_lines(text: &str, at: usize) -> Option<usize> {
    let (mut last, mut in_comment, mut in_string, mut escaped) = (None, false, false, false);
    for (i, c) in text.get(..at)?.char_indices() {
        match c {
            '\n' => in_comment = false,
            _ if in_comment => {}
            '"' if !escaped => in_string = !in_string,
            '%' if !in_string => in_comment = true,
            _ => {}
        }
        escaped = in_string && c == '\\' && !escaped;
        if !in_comment && !c.is_whitespace() {
            last = Some(i + c.len_utf8());
        }
    }
    let end = last?;
    text[end..at].contains('\n').then_some(end)
}
