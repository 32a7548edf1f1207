//! tabula: a general game description interpreter.
//!
//! Pipeline: [`syntax`] (text → AST) → [`check`] (static checks) →
//! [`ground`] (finite ground program) → [`engine`] (compiled state machine).
//! The library never prints; `cli` and `repl` talk to people.
#![forbid(unsafe_code)]

pub mod diag;
pub mod cli;
pub mod syntax;
