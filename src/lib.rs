//! tabula: a general game description interpreter.
//!
//! Pipeline: [`syntax`] (text → AST) → [`check`] (static checks) →
//! [`ground`] (finite ground program) → [`engine`] (compiled state machine);
//! [`load`] runs them in one call. [`agent`]: random, first, human and
//! MCTS agents, games between them. [`format`]: the canonical layout of
//! a game file (`tabula fmt`). Front ends: [`front`] (moves typed as
//! text, positions as text), [`render`] (boards), [`repl`] (the
//! session behind `tabula repl`), [`serve`] (the page and JSON API of
//! `tabula serve`), [`lsp`] (the language server) and `cli`. The library never prints; only
//! `cli` talks to a terminal. Leaves that every stage shares: [`symbols`]
//! (interned names), [`diag`] (diagnostics and source positions), [`gdl`]
//! (the reserved names of GDL) and `scc` (strongly connected components).
// Denied everywhere but in the one module that calls native code
// (`engine::jit`), which allows it with a `SAFETY:` comment on each use.
#![deny(unsafe_code)]

pub mod agent;
pub mod check;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod format;
pub mod front;
pub mod gdl;
pub mod ground;
pub mod load;
pub mod lsp;
pub mod render;
pub mod repl;
mod scc;
pub mod serve;
pub mod symbols;
pub mod syntax;
