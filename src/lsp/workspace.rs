//! The files the server knows: the documents open in the editor (their
//! text as typed) and the game files on disk, each with its index; and how
//! they are linked by `extends`.
//!
//! In: documents opened, changed and closed; paths. Out: [`File`]s (path,
//! text, index), a file's chain of bases, its family (every file linked to
//! it by `extends`), the files of the workspace. Holds: an open document
//! wins over the file on disk; a file on disk is read again only when its
//! modification time or size changed; every walk is bounded (at most
//! [`MAX_FILES`] files, [`MAX_DEPTH`] folders deep, files of at most
//! [`crate::syntax::MAX_INPUT_BYTES`]), so no request does unbounded work.

use super::index::FileIndex;
use crate::syntax::Syntax;
use lsp_types::Url;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

/// Most game files looked at when searching a folder.
pub const MAX_FILES: usize = 2000;
/// Deepest folder searched below a root.
pub const MAX_DEPTH: usize = 4;

/// One game file: where it is, its text and its index.
pub struct File {
    pub path: PathBuf,
    pub uri: Url,
    pub text: String,
    pub syntax: Syntax,
    pub index: FileIndex,
}

/// A document open in the editor.
pub struct Document {
    pub path: PathBuf,
    pub version: i32,
    pub text: String,
    pub syntax: Syntax,
    /// Its [`File`], made when a request first needs it after a change.
    file: Option<Rc<File>>,
}

#[derive(Default)]
pub struct Workspace {
    pub documents: HashMap<Url, Document>,
    /// The workspace folders the client named.
    roots: Vec<PathBuf>,
    /// Files read from disk, with the time and size they were read at.
    disk: HashMap<PathBuf, (SystemTime, u64, Rc<File>)>,
}

/// The path a document's URI names, made canonical when the file exists
/// (so that a base named `../base.rules` from a variant's folder is the
/// same file as the open `base.rules`).
pub fn path_of(uri: &Url) -> PathBuf {
    let path = uri
        .to_file_path()
        .unwrap_or_else(|_| PathBuf::from(uri.path()));
    std::fs::canonicalize(&path).unwrap_or(path)
}

/// The syntax of a path, as the CLI decides it.
pub fn syntax_of(path: &Path) -> Syntax {
    crate::syntax::syntax_of(path)
}

impl Workspace {
    pub fn new(roots: Vec<PathBuf>) -> Workspace {
        Workspace {
            roots,
            ..Workspace::default()
        }
    }

    pub fn open(&mut self, uri: Url, version: i32, text: String) {
        let path = path_of(&uri);
        let syntax = syntax_of(&path);
        self.documents.insert(
            uri,
            Document {
                path,
                version,
                text,
                syntax,
                file: None,
            },
        );
    }

    /// The document after a change (its text already edited by `edit`).
    pub fn change(&mut self, uri: &Url, version: i32, edit: impl FnOnce(&mut String)) {
        if let Some(doc) = self.documents.get_mut(uri) {
            edit(&mut doc.text);
            doc.version = version;
            doc.file = None;
        }
    }

    pub fn close(&mut self, uri: &Url) {
        self.documents.remove(uri);
    }

    /// The file of an open document.
    pub fn document_file(&mut self, uri: &Url) -> Option<Rc<File>> {
        let doc = self.documents.get_mut(uri)?;
        if doc.file.is_none() {
            doc.file = Some(Rc::new(File {
                path: doc.path.clone(),
                uri: uri.clone(),
                index: FileIndex::new(&doc.text, doc.syntax),
                text: doc.text.clone(),
                syntax: doc.syntax,
            }));
        }
        doc.file.clone()
    }

    /// The file at a canonical path: the open document, or the file on disk.
    pub fn file(&mut self, path: &Path) -> Option<Rc<File>> {
        let open = self
            .documents
            .iter()
            .find(|(_, d)| d.path == path)
            .map(|(uri, _)| uri.clone());
        if let Some(uri) = open {
            return self.document_file(&uri);
        }
        let meta = std::fs::metadata(path).ok()?;
        let (modified, size) = (meta.modified().ok()?, meta.len());
        if let Some((m, s, file)) = self.disk.get(path)
            && (*m, *s) == (modified, size)
        {
            return Some(file.clone());
        }
        let bytes = crate::syntax::read_capped(path).ok()?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let syntax = syntax_of(path);
        let file = Rc::new(File {
            path: path.to_path_buf(),
            uri: Url::from_file_path(path).ok()?,
            index: FileIndex::new(&text, syntax),
            text,
            syntax,
        });
        self.disk
            .insert(path.to_path_buf(), (modified, size, file.clone()));
        Some(file)
    }

    /// The file and its bases, nearest first (at most
    /// [`crate::syntax::rules::MAX_EXTENDS`] levels, a cycle cut).
    pub fn chain(&mut self, file: Rc<File>) -> Vec<Rc<File>> {
        let mut chain = vec![file];
        while chain.len() <= crate::syntax::rules::MAX_EXTENDS {
            let last = &chain[chain.len() - 1];
            let Some((base, _)) = &last.index.extends else {
                break;
            };
            let dir = last
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let target = dir.join(base);
            let target = std::fs::canonicalize(&target).unwrap_or(target);
            if chain.iter().any(|f| f.path == target) {
                break;
            }
            match self.file(&target) {
                Some(base) => chain.push(base),
                None => break,
            }
        }
        chain
    }

    /// Every file linked to `file` by `extends`: its bases, and every file
    /// in the folder of its first base (or below it) or open in the editor
    /// that extends that base, directly or not. The file itself comes first.
    pub fn family(&mut self, file: Rc<File>) -> Vec<Rc<File>> {
        let chain = self.chain(file);
        let root = chain[chain.len() - 1].path.clone();
        let mut family = chain;
        let folder = root.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut candidates = game_files(&[folder]);
        candidates.extend(self.documents.values().map(|d| d.path.clone()));
        for path in candidates {
            if family.iter().any(|f| f.path == path) {
                continue;
            }
            let Some(candidate) = self.file(&path) else {
                continue;
            };
            if candidate.index.extends.is_none() {
                continue;
            }
            if self.chain(candidate.clone()).iter().any(|f| f.path == root) {
                family.push(candidate);
            }
        }
        family
    }

    /// Every game file of the workspace folders and every open document.
    pub fn all_files(&mut self) -> Vec<Rc<File>> {
        let mut paths = game_files(&self.roots);
        paths.extend(self.documents.values().map(|d| d.path.clone()));
        paths.sort();
        paths.dedup();
        paths.iter().filter_map(|p| self.file(p)).collect()
    }
}

/// The game files (`.rules`, `.kif`, `.gdl`) under some folders, canonical,
/// at most [`MAX_FILES`], skipping hidden folders and `target`.
pub fn game_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack: Vec<(PathBuf, usize)> = roots.iter().map(|r| (r.clone(), 0)).collect();
    let mut visited = 0;
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            visited += 1;
            if found.len() >= MAX_FILES || visited > 20 * MAX_FILES {
                return found;
            }
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if depth < MAX_DEPTH && !name.starts_with('.') && name != "target" {
                    stack.push((path, depth + 1));
                }
            } else if [".rules", ".kif", ".gdl"].iter().any(|e| name.ends_with(e)) {
                found.push(std::fs::canonicalize(&path).unwrap_or(path));
            }
        }
    }
    found
}
