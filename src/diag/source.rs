//! Source files and positions: the leaf every stage points into.
//!
//! In: texts with their names. Out: a [`SourceMap`] that owns every text a
//! program was read from, and [`Span`]s (file, byte range) that it turns back
//! into file names, lines and columns. Holds: depends on nothing else of the
//! crate; a span is `Copy` and two `u32` offsets wide.

/// Index of a source file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` of one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self.text[start..floor_char_boundary(&self.text, offset)]
            .chars()
            .count();
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every source text of one load: the main file, the files it extends, and
/// texts typed at the REPL.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// Texts that stand for files on disk (an editor's unsaved buffers):
    /// a base that `extends` names is read from here first.
    overlay: Vec<(std::path::PathBuf, String)>,
}

impl SourceMap {
    pub fn add(&mut self, path: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(path, text));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn text(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        let end = floor_char_boundary(text, (span.end as usize).min(text.len()));
        let start = floor_char_boundary(text, (span.start as usize).min(end));
        &text[start..end]
    }

    /// A map whose loads read `texts` instead of the files at those paths
    /// (given as `std::fs::canonicalize` gives them).
    pub fn with_overlay(texts: Vec<(std::path::PathBuf, String)>) -> SourceMap {
        SourceMap {
            files: Vec::new(),
            overlay: texts,
        }
    }

    /// The overlaid text of the file at a canonical path, if there is one.
    pub fn overlaid(&self, path: &std::path::Path) -> Option<&str> {
        self.overlay
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, text)| text.as_str())
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
}
