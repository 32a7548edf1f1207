//! Diagnostics: values built by every stage, rendered in one place.
//!
//! In: a [`Code`], a [`Span`] of a [`SourceMap`] and a message. Out:
//! [`Diagnostic`] values; [`render()`] turns one into text in the contract's
//! format. Holds: this module and its children import nothing from the
//! stages (`source` is the leaf that `syntax`, `check` and `ground` point
//! into), so the import graph has no circle.

mod code;
mod render;
pub mod source;
pub mod suggest;

pub use code::{Code, codes};
pub use render::render;
pub use source::{FileId, SourceFile, SourceMap, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about the user's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable code such as `E0101`; see `docs/ERRORS.md`.
    pub code: Code,
    pub message: String,
    pub span: Option<Span>,
    /// Secondary places, each with a short label.
    pub labels: Vec<(Span, String)>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span: Some(span),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    /// A diagnostic that points at no place in the text.
    pub fn global(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span: None,
            ..Diagnostic::error(code, Span::default(), message)
        }
    }

    /// A warning that points at no place in the text.
    pub fn global_warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::global(code, message)
        }
    }

    pub fn with_label(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.labels.push((span, label.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True if any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
