//! tabula: a general game description interpreter.
//!
//! Pipeline: [`syntax`] (text → AST) → [`check`] (static checks) →
//! [`ground`] (finite ground program) → [`engine`] (compiled state machine).
//! The library never prints; `cli` and `repl` talk to people.
#![forbid(unsafe_code)]

pub mod check;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod gdl;
pub mod ground;
pub mod load;
pub mod render;
pub mod repl;
mod scc;
pub mod syntax;
