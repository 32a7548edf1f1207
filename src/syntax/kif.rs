//! Reader for standard GDL in KIF syntax (`.kif`, `.gdl`).
//!
//! In: text. Out: a [`Program`] in the core AST, or located diagnostics.
//! Holds: symbols are lower-cased, as GGP systems treat KIF case-insensitively;
//! numbers stay constants (GDL has no arithmetic); `distinct` becomes `Ne`.
//! The logical operators ([`OPERATORS`]) are KIF's reserved words, never
//! constants: a relation, function or object named by one is refused, so a
//! doubled `<=` cannot silently change a rule.

use super::SourceMap;
use super::ast::*;
use super::scan::{self, guard_nesting, pest_diagnostic, unbalanced};
use crate::diag::{Diagnostic, codes};
use pest::Parser;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/kif.pest"]
struct KifParser;

/// Deepest list nesting accepted; deeper input is refused before parsing.
const MAX_DEPTH: usize = 200;

/// The words GDL gives a logical meaning at the head of a list (`and` as
/// KIF has it); none of them names a relation, a function or an object.
const OPERATORS: [&str; 5] = ["<=", "not", "or", "and", "distinct"];

fn is_operator(word: &str) -> bool {
    OPERATORS.contains(&word)
}

/// A parsed s-expression, before it is given GDL meaning.
enum Sx {
    List(Vec<Sx>, Span),
    Var(String, Span),
    Word(String, Span),
}

impl Sx {
    fn span(&self) -> Span {
        match self {
            Sx::List(_, s) | Sx::Var(_, s) | Sx::Word(_, s) => *s,
        }
    }
}

fn to_sx(pair: Pair<'_, Rule>, file: FileId) -> Sx {
    let span = Span::new(file, pair.as_span().start(), pair.as_span().end());
    match pair.as_rule() {
        Rule::list => Sx::List(pair.into_inner().map(|p| to_sx(p, file)).collect(), span),
        Rule::variable => Sx::Var(pair.as_str().to_lowercase(), span),
        _ => Sx::Word(pair.as_str().to_lowercase(), span),
    }
}

fn describe(rule: &Rule) -> String {
    match rule {
        Rule::list | Rule::expr => "`(`".into(),
        Rule::variable => "a variable".into(),
        Rule::word => "a symbol".into(),
        Rule::EOI => "end of input".into(),
        other => format!("{other:?}"),
    }
}

fn parse_sx(sources: &SourceMap, file: FileId, rule: Rule) -> Result<Vec<Sx>, Diagnostic> {
    let top = syntax_tree(&sources.file(file).text, file, rule)?;
    Ok(top
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| to_sx(p, file))
        .collect())
}

/// The parse tree of `text` under grammar rule `rule` (`Rule::file` for a
/// whole file), or the located syntax error: the formatter reads it too.
pub(crate) fn syntax_tree(
    text: &str,
    file: FileId,
    rule: Rule,
) -> Result<Pair<'_, Rule>, Diagnostic> {
    guard_nesting(text, file, MAX_DEPTH, &[(b'(', b')')], scan::KIF)?;
    refuse_braces(text, file)?;
    let pairs = KifParser::parse(rule, text).map_err(|e| {
        unbalanced(text, file, scan::KIF).unwrap_or_else(|| pest_diagnostic(e, file, describe))
    })?;
    Ok(pairs
        .into_iter()
        .next()
        .expect("pest returns the start rule"))
}

/// KIF has no aggregates: a `{` (outside comments) is refused with a
/// message that says where they exist, rather than read as a symbol.
fn refuse_braces(text: &str, file: FileId) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(s) = scan::skip(scan::KIF, bytes, i) {
            i = s.end();
            continue;
        }
        if bytes[i] == b'{' {
            return Err(Diagnostic::error(
                codes::SYNTAX,
                Span::new(file, i, i + 1),
                "KIF has no aggregates: `{ ... }` (`count`, `sum`, `min`, `max`) \
                 exists only in the native syntax (`.rules`)",
            ));
        }
        i += 1;
    }
    Ok(())
}

/// Reads a whole KIF file into a program.
pub fn parse_program(sources: &SourceMap, file: FileId) -> Result<Program, Vec<Diagnostic>> {
    let sxs = parse_sx(sources, file, Rule::file).map_err(|d| vec![d])?;
    let mut reader = Reader {
        symbols: Symbols::default(),
        errors: Vec::new(),
    };
    let rules = sxs.iter().filter_map(|sx| reader.rule(sx)).collect();
    if !reader.errors.is_empty() {
        return Err(reader.errors);
    }
    Ok(Program {
        syntax: Syntax::Kif,
        symbols: reader.symbols,
        rules,
        meta: Meta::default(),
    })
}

/// Reads one term (a move, a fact) typed by a user, interning into `symbols`.
pub fn parse_term(
    sources: &SourceMap,
    file: FileId,
    symbols: &mut Symbols,
) -> Result<Term, Diagnostic> {
    let sxs = parse_sx(sources, file, Rule::single)?;
    let mut reader = Reader {
        symbols: std::mem::take(symbols),
        errors: Vec::new(),
    };
    let term = reader.term(&sxs[0]);
    *symbols = reader.symbols;
    match reader.errors.pop() {
        Some(e) => Err(e),
        None => Ok(term),
    }
}

/// Reads one literal of a rule body (as a REPL query), interning into `symbols`.
pub fn parse_literal(
    sources: &SourceMap,
    file: FileId,
    symbols: &mut Symbols,
) -> Result<Literal, Diagnostic> {
    let sxs = parse_sx(sources, file, Rule::single)?;
    let mut reader = Reader {
        symbols: std::mem::take(symbols),
        errors: Vec::new(),
    };
    let lit = reader.literal(&sxs[0]);
    *symbols = reader.symbols;
    match (reader.errors.pop(), lit) {
        (Some(e), _) => Err(e),
        (None, Some(l)) => Ok(l),
        (None, None) => Err(Diagnostic::error(
            codes::SYNTAX,
            sxs[0].span(),
            "expected a literal",
        )),
    }
}

struct Reader {
    symbols: Symbols,
    errors: Vec<Diagnostic>,
}

impl Reader {
    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors
            .push(Diagnostic::error(codes::SYNTAX, span, message));
    }

    fn rule(&mut self, sx: &Sx) -> Option<super::ast::Rule> {
        if let Sx::List(items, span) = sx
            && let Some(Sx::Word(w, _)) = items.first()
            && w == "<="
        {
            let Some(head) = items.get(1) else {
                self.error(*span, "a rule `(<= head body...)` needs a head");
                return None;
            };
            let head = self.sentence(head)?;
            let body = items[2..].iter().filter_map(|l| self.literal(l)).collect();
            return Some(super::ast::Rule {
                head,
                body,
                span: *span,
            });
        }
        let head = self.sentence(sx)?;
        Some(super::ast::Rule {
            span: head.span,
            head,
            body: Vec::new(),
        })
    }

    fn sentence(&mut self, sx: &Sx) -> Option<Atom> {
        match sx {
            Sx::Word(w, span) if is_operator(w) => {
                self.error(*span, format!("`{w}` cannot be used as a relation here"));
                None
            }
            Sx::Word(w, span) => Some(Atom {
                rel: self.symbols.intern(w),
                args: Vec::new(),
                span: *span,
            }),
            Sx::List(items, span) => match items.first() {
                Some(Sx::Word(w, _)) if !is_operator(w) => {
                    let rel = self.symbols.intern(w);
                    let args = items[1..].iter().map(|t| self.term(t)).collect();
                    Some(Atom {
                        rel,
                        args,
                        span: *span,
                    })
                }
                Some(Sx::Word(w, wspan)) => {
                    self.error(*wspan, format!("`{w}` cannot be used as a relation here"));
                    None
                }
                Some(other) => {
                    self.error(other.span(), "expected a relation name after `(`");
                    None
                }
                None => {
                    self.error(*span, "expected a relation, found `()`");
                    None
                }
            },
            Sx::Var(v, span) => {
                self.error(
                    *span,
                    format!("expected a relation, found the variable `{v}`"),
                );
                None
            }
        }
    }

    fn literal(&mut self, sx: &Sx) -> Option<Literal> {
        if let Sx::List(items, span) = sx
            && let Some(Sx::Word(w, _)) = items.first()
        {
            let args = &items[1..];
            match w.as_str() {
                "not" => {
                    if args.len() != 1 {
                        self.error(*span, "`not` takes exactly one literal");
                        return None;
                    }
                    let inner = self.literal(&args[0])?;
                    return Some(Literal::Not(Box::new(inner), *span));
                }
                "or" => {
                    let alts = args
                        .iter()
                        .map(|a| self.conjunction(a))
                        .collect::<Option<Vec<_>>>()?;
                    return Some(Literal::Or(alts, *span));
                }
                "and" => {
                    let conj = args
                        .iter()
                        .map(|a| self.literal(a))
                        .collect::<Option<Vec<_>>>()?;
                    return Some(Literal::Or(vec![conj], *span));
                }
                "distinct" => {
                    if args.len() != 2 {
                        self.error(*span, "`distinct` takes exactly two terms");
                        return None;
                    }
                    let a = self.term(&args[0]);
                    let b = self.term(&args[1]);
                    return Some(Literal::Cmp(CmpOp::Ne, a, b, *span));
                }
                _ => {}
            }
        }
        self.sentence(sx).map(Literal::Pos)
    }

    /// One disjunct of `or`: an `(and ...)` or a single literal.
    fn conjunction(&mut self, sx: &Sx) -> Option<Vec<Literal>> {
        if let Sx::List(items, _) = sx
            && let Some(Sx::Word(w, _)) = items.first()
            && w == "and"
        {
            return items[1..].iter().map(|a| self.literal(a)).collect();
        }
        self.literal(sx).map(|l| vec![l])
    }

    fn term(&mut self, sx: &Sx) -> Term {
        let operator = match sx {
            Sx::Word(w, span) if is_operator(w) => Some((w, *span)),
            Sx::List(items, _) => match items.first() {
                Some(Sx::Word(w, span)) if is_operator(w) => Some((w, *span)),
                _ => None,
            },
            _ => None,
        };
        if let Some((w, span)) = operator {
            self.error(
                span,
                format!("`{w}` cannot be used as a constant or function here"),
            );
            return Term::new(TermKind::Const(self.symbols.intern("?")), sx.span());
        }
        match sx {
            Sx::Word(w, span) => Term::new(TermKind::Const(self.symbols.intern(w)), *span),
            Sx::Var(v, span) => Term::new(TermKind::Var(self.symbols.intern(v)), *span),
            Sx::List(items, span) => match items.split_first() {
                Some((Sx::Word(f, _), [])) => {
                    Term::new(TermKind::Const(self.symbols.intern(f)), *span)
                }
                Some((Sx::Word(f, _), args)) => {
                    let f = self.symbols.intern(f);
                    let args = args.iter().map(|a| self.term(a)).collect();
                    Term::new(TermKind::App(f, args), *span)
                }
                _ => {
                    self.error(*span, "expected a function name after `(`");
                    Term::new(TermKind::Const(self.symbols.intern("?")), *span)
                }
            },
        }
    }
}
