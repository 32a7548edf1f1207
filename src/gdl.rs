//! The reserved names of GDL, and tabula's one reserved extension, in one
//! table.
//!
//! In: nothing but the table; [`Names::new`] resolves it against a
//! program's [`Symbols`]. Out: for each reserved relation its name, its
//! arity, what its arguments are, which argument is a fluent or a move, and
//! what it may depend on; for a symbol, the reserved relation it names.
//! Holds: the checks, the grounder and the compiler read reserved names only
//! from here, so a name or an arity is written once.

use crate::symbols::{Sym, Symbols};

/// A reserved relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    Role,
    Init,
    True,
    Next,
    Base,
    Legal,
    Does,
    Input,
    Goal,
    Terminal,
    Sees,
    Weight,
}

/// What an argument of a reserved relation is, where it has its own name
/// space: a fluent (a base fact) or a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inner {
    Fluent,
    Move,
}

/// What a reserved relation may depend on, through any chain of rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depends {
    /// Anything (or the question does not arise: `true` and `does` are inputs).
    Anything,
    /// The state (`true`) but not the moves (`does`); the text says why.
    StateOnly(&'static str),
    /// Neither the state nor the moves; the text says why.
    Nothing(&'static str),
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Reserved {
    pub relation: Relation,
    pub name: &'static str,
    pub arity: usize,
    /// What the arguments are, for messages ("a role and a move").
    pub arguments: &'static str,
    /// The argument that is a fluent or a move, if any.
    pub inner: Option<(usize, Inner)>,
    pub depends: Depends,
    /// Part of GDL (or GDL-II), so its arity is checked; tabula's extension
    /// `weight` is not, as a GDL game may use the name for its own relation.
    pub gdl: bool,
}

const fn row(
    relation: Relation,
    name: &'static str,
    arity: usize,
    arguments: &'static str,
    inner: Option<(usize, Inner)>,
    depends: Depends,
) -> Reserved {
    Reserved {
        relation,
        name,
        arity,
        arguments,
        inner,
        depends,
        gdl: true,
    }
}

/// Every reserved relation.
pub const RESERVED: &[Reserved] = &[
    row(
        Relation::Role,
        "role",
        1,
        "a role",
        None,
        Depends::Nothing("the roles are fixed before the game starts"),
    ),
    row(
        Relation::Init,
        "init",
        1,
        "a fluent",
        Some((0, Inner::Fluent)),
        Depends::Nothing("the initial state cannot depend on a state or on moves"),
    ),
    row(
        Relation::True,
        "true",
        1,
        "a fluent",
        Some((0, Inner::Fluent)),
        Depends::Anything,
    ),
    row(
        Relation::Next,
        "next",
        1,
        "a fluent",
        Some((0, Inner::Fluent)),
        Depends::Anything,
    ),
    row(
        Relation::Base,
        "base",
        1,
        "a fluent",
        Some((0, Inner::Fluent)),
        Depends::Nothing("`base` lists the possible fluents once and for all"),
    ),
    row(
        Relation::Legal,
        "legal",
        2,
        "a role and a move",
        Some((1, Inner::Move)),
        Depends::StateOnly("the legal moves must be known before the moves are chosen"),
    ),
    row(
        Relation::Does,
        "does",
        2,
        "a role and a move",
        Some((1, Inner::Move)),
        Depends::Anything,
    ),
    row(
        Relation::Input,
        "input",
        2,
        "a role and a move",
        Some((1, Inner::Move)),
        Depends::Nothing("`input` lists the possible moves once and for all"),
    ),
    row(
        Relation::Goal,
        "goal",
        2,
        "a role and a value",
        None,
        Depends::StateOnly("goals are read in a state, not during a move"),
    ),
    row(
        Relation::Terminal,
        "terminal",
        0,
        "none",
        None,
        Depends::StateOnly("termination is read in a state, not during a move"),
    ),
    row(
        Relation::Sees,
        "sees",
        2,
        "a role and a percept",
        None,
        Depends::Anything,
    ),
    Reserved {
        gdl: false,
        ..row(
            Relation::Weight,
            "weight",
            2,
            "a chance move and its weight",
            None,
            Depends::Anything,
        )
    },
];

/// The role played by nature (as in GDL-II): its moves are chosen by chance.
pub const RANDOM: &str = "random";

/// The connectives of KIF bodies, which no rule may define.
pub const KIF_CONNECTIVES: [&str; 3] = ["distinct", "or", "not"];

/// True for a name whose meaning GDL fixes: a reserved relation or a KIF
/// connective. Declarations may not generate relations of these names.
pub fn is_reserved_name(name: &str) -> bool {
    RESERVED.iter().any(|r| r.name == name) || KIF_CONNECTIVES.contains(&name)
}

impl Relation {
    /// This relation's row of [`RESERVED`].
    pub fn info(self) -> &'static Reserved {
        &RESERVED[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn arity(self) -> usize {
        self.info().arity
    }
}

/// The reserved relations resolved against one program's symbols.
#[derive(Clone, Debug)]
pub struct Names {
    /// The symbol of each row of [`RESERVED`], if the program has it.
    syms: [Option<Sym>; RESERVED.len()],
}

impl Names {
    /// The reserved names the program mentions.
    pub fn new(symbols: &Symbols) -> Names {
        Names {
            syms: std::array::from_fn(|i| symbols.get(RESERVED[i].name)),
        }
    }

    /// The symbol of a reserved relation, if the program has it.
    pub fn sym(&self, relation: Relation) -> Option<Sym> {
        self.syms[relation as usize]
    }

    /// The reserved relation a symbol names, whatever the arity.
    pub fn relation(&self, sym: Sym) -> Option<Relation> {
        let i = self.syms.iter().position(|&s| s == Some(sym))?;
        Some(RESERVED[i].relation)
    }

    /// The reserved relation of an atom: its name and its arity match a row.
    pub fn atom(&self, sym: Sym, arity: usize) -> Option<Relation> {
        self.relation(sym).filter(|r| r.arity() == arity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_is_where_its_relation_points() {
        for (i, row) in RESERVED.iter().enumerate() {
            assert_eq!(row.relation as usize, i, "{}", row.name);
        }
    }

    #[test]
    fn names_resolve_only_what_the_program_has() {
        let mut symbols = Symbols::default();
        let legal = symbols.intern("legal");
        let cell = symbols.intern("cell");
        let names = Names::new(&symbols);
        assert_eq!(names.sym(Relation::Legal), Some(legal));
        assert_eq!(names.sym(Relation::Does), None);
        assert_eq!(names.relation(legal), Some(Relation::Legal));
        assert_eq!(names.relation(cell), None);
        assert_eq!(names.atom(legal, 2), Some(Relation::Legal));
        assert_eq!(names.atom(legal, 3), None);
    }
}
