//! Interned names: every relation, function, constant and variable name
//! of a program is a [`Sym`], a dense index into its [`Symbols`].
//!
//! In: names as text. Out: `Copy` ids and the names back. Holds: the same
//! name always gets the same id within one table; ids are never reused.
//! A leaf module, so that the table of reserved names (`gdl`) and the
//! readers (`syntax`) can both use it without importing each other.

use indexmap::IndexSet;

/// An interned symbol: a relation, function, constant or variable name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// The symbol table: `IndexSet` gives each distinct name a dense id.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    names: IndexSet<Box<str>>,
}

impl Symbols {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(i) = self.names.get_index_of(name) {
            return Sym(i as u32);
        }
        Sym(self.names.insert_full(name.into()).0 as u32)
    }

    /// The id of `name` if it was ever interned.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.names.get_index_of(name).map(|i| Sym(i as u32))
    }

    pub fn name(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
