//! The command line: argument parsing and one module per subcommand.
//!
//! In: process arguments. Out: an exit code (0 success, 1 invalid game file,
//! 2 usage or I/O error). Only this module and `repl` print.

/// `println!` that never panics: a closed pipe (`tabula perft ... | head`)
/// just means nobody reads any more.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that never panics (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// Public for its report ([`analyze::json_report`]), which the Python
/// module's distributed analysis fills from its parts.
pub mod analyze;
mod bench;
mod chance;
mod check;
mod fmt;
mod lsp;
mod match_;
mod perft;
mod play;
mod progress;
mod render;
mod repl;
mod serve;

use crate::diag::{self, Diagnostic};
use crate::engine::EngineKind;
use crate::load::{Choice, Failed, Loaded, Staged};
use crate::syntax::rules::is_param_value;
use crate::syntax::{Overrides, SourceMap, Syntax};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "A general game description interpreter"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, check and ground game files; print diagnostics.
    Check(check::Args),
    /// Count the game tree exhaustively, depth by depth.
    Perft(perft::Args),
    /// Random playouts: speed, mean length, mean goals.
    Bench(bench::Args),
    /// Play one game: random, first-move or human agents per role.
    Play(play::Args),
    /// Step through a game interactively (or from a script on stdin).
    Repl(repl::Args),
    /// Many games between agents: wins, draws, losses, mean goals.
    Match(match_::Args),
    /// Length, branching, draws and balance under random play and MCTS.
    Analyze(analyze::Args),
    /// Draw one position as an SVG picture.
    Render(render::Args),
    /// Serve the game as a web page to step through and play.
    Serve(serve::Args),
    /// Lay game files out in the canonical layout (in place, or `--check`).
    Fmt(fmt::Args),
    /// A language server for editors, over standard input and output.
    Lsp(lsp::Args),
}

/// Options of every command that opens games.
#[derive(clap::Args, Clone, Debug)]
pub struct GameOptions {
    /// Read the file in this syntax whatever its extension.
    #[arg(long, value_enum)]
    pub syntax: Option<SyntaxArg>,
    /// Set a parameter of a native game: `--param NAME=VALUE`.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The evaluator: `reference` re-derives every state, `incremental`
    /// propagates what changed, `words` evaluates rule instances 64 to a
    /// word, `rules` evaluates the rules without grounding them (all answer
    /// the same; by default a game too large to ground uses `rules`).
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum EngineArg {
    Reference,
    Incremental,
    Words,
    Rules,
}

/// The game file and options of a command that opens one game.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// The game file (`.rules`, or `.kif`/`.gdl` for GDL in KIF syntax).
    pub file: PathBuf,
    #[command(flatten)]
    pub options: GameOptions,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SyntaxArg {
    Kif,
    Rules,
}

pub const EXIT_OK: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// At most this many diagnostics are printed per file; the rest are counted.
const MAX_SHOWN: usize = 100;

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
        }
    };
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Play(args) => play::run(args),
        Command::Repl(args) => repl::run(args),
        Command::Match(args) => match_::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Render(args) => render::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Lsp(args) => lsp::run(args),
    }
}

impl GameOptions {
    pub fn syntax(&self) -> Option<Syntax> {
        self.syntax.map(|s| match s {
            SyntaxArg::Kif => Syntax::Kif,
            SyntaxArg::Rules => Syntax::Rules,
        })
    }

    /// `--param NAME=VALUE` pairs, trimmed, each VALUE an integer or a
    /// lower-case name; `Err` names the malformed one.
    pub fn overrides(&self) -> Result<Overrides, String> {
        self.params
            .iter()
            .map(|p| match p.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() && is_param_value(v.trim()) => {
                    Ok((k.trim().to_string(), v.trim().to_string()))
                }
                _ => Err(p.clone()),
            })
            .collect()
    }

    /// The overrides, or the usage error printed.
    fn overrides_or_usage(&self) -> Result<Overrides, i32> {
        self.overrides().map_err(|bad| {
            errln!(
                "error: --param takes NAME=VALUE, VALUE an integer or a lower-case name, not `{bad}`"
            );
            EXIT_USAGE
        })
    }
}

/// A seed for when none is given.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (std::process::id() as u64).rotate_left(32)
}

/// Whether output to `stream` may use colour: on a terminal, unless
/// `NO_COLOR` is set to something (see no-color.org). Every command asks
/// this, and only this.
pub fn use_color(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The longest line read from standard input (a command, a move).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of standard input, without its line break.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// Not UTF-8: the offset in the line of the first invalid byte.
    NotText(usize),
    /// Longer than [`MAX_LINE_BYTES`] (the rest of it was skipped).
    TooLong,
}

impl Line {
    /// Why a line cannot be used, in words ("is not UTF-8 text ...").
    pub fn problem(&self) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::NotText(at) => Some(format!("is not UTF-8 text (invalid byte at offset {at})")),
            Line::TooLong => Some(format!("is longer than {MAX_LINE_BYTES} bytes")),
        }
    }
}

/// Reads one line of at most [`MAX_LINE_BYTES`]; `None` at the end of the
/// input. A longer line is read to its end but not kept, so no input
/// (`/dev/zero`) makes memory grow without bound.
pub fn read_line(input: &mut impl std::io::BufRead) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let (mut any, mut too_long) = (false, false);
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        too_long |= bytes.len() + chunk.len() > MAX_LINE_BYTES;
        if !too_long {
            bytes.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(ended);
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(e) => Line::NotText(e.utf8_error().valid_up_to()),
    }))
}

/// Prints diagnostics on stderr, at most [`MAX_SHOWN`]; `omitted` more were
/// found but not kept.
fn print_diagnostics(diags: &[Diagnostic], omitted: usize, sources: &SourceMap, path: &Path) {
    if diags.is_empty() {
        return;
    }
    let color = use_color(&std::io::stderr());
    let fallback = path.display().to_string();
    let mut text = String::new();
    for d in diags.iter().take(MAX_SHOWN) {
        text.push_str(&diag::render(d, sources, &fallback, color));
    }
    let hidden = diags.len().saturating_sub(MAX_SHOWN) + omitted;
    if hidden > 0 {
        text.push_str(&format!(
            "{fallback}: {hidden} more diagnostics not shown\n"
        ));
    }
    err!("{text}");
}

/// Opens a game file the way every command does, printing its diagnostics
/// (warnings too); on failure returns the exit code to use.
fn open_file(path: &Path, options: &GameOptions, overrides: &Overrides) -> Result<Loaded, i32> {
    let engine = options.engine.map(|engine| match engine {
        EngineArg::Reference => EngineKind::Reference,
        EngineArg::Incremental => EngineKind::Incremental,
        EngineArg::Words => EngineKind::Words,
        EngineArg::Rules => EngineKind::Rules,
    });
    match crate::load::open_with(path, options.syntax(), overrides, engine) {
        Ok(loaded) => {
            report_opened(path, &loaded, engine);
            Ok(loaded)
        }
        Err(failed) => Err(report_failed(path, failed)),
    }
}

/// Prints what opening a game found: why it runs on the rule evaluator if
/// it fell back there, or why it does not run on the engine asked for,
/// and its warnings.
fn report_opened(path: &Path, loaded: &Loaded, engine: Option<EngineKind>) {
    if let Some(why) = loaded.choice.fallback() {
        errln!("note: {}: {why}; using the rule evaluator", path.display());
    }
    if engine == Some(EngineKind::Words) && loaded.game.engine() != EngineKind::Words {
        let why = loaded.game.word_engine_refusal().unwrap_or("");
        errln!(
            "note: {}: the word engine does not take this game ({why}); using the {} engine",
            path.display(),
            loaded.game.engine().name()
        );
    }
    print_diagnostics(&loaded.warnings, loaded.omitted, &loaded.sources, path);
}

/// Prints why a game could not be opened; returns the exit code to use.
fn report_failed(path: &Path, failed: Failed) -> i32 {
    if let Some(e) = failed.unreadable {
        errln!("error: {e}");
        return EXIT_USAGE;
    }
    print_diagnostics(&failed.diagnostics, failed.omitted, &failed.sources, path);
    EXIT_INVALID
}

/// The position a command starts from: the facts of `--from`'s file, or
/// the initial state; an unreadable file is a usage error (printed here).
pub fn start_state(
    game: &crate::engine::Game,
    from: Option<&Path>,
) -> Result<crate::engine::State, i32> {
    match from {
        Some(path) => crate::front::parse::state_file(game, path).map_err(|e| {
            errln!("error: {e}");
            EXIT_USAGE
        }),
        None => Ok(game.initial()),
    }
}

/// Opens the game named on the command line (see [`open_file`]).
pub fn open_game(args: &GameArgs) -> Result<Loaded, i32> {
    let overrides = args.options.overrides_or_usage()?;
    open_file(&args.file, &args.options, &overrides)
}

/// Opens the game named on the command line, without `--engine`, for a
/// count level by level ([`crate::load::open_staged`]).
pub fn open_staged_game(args: &GameArgs) -> Result<Staged, i32> {
    let overrides = args.options.overrides_or_usage()?;
    let path = &args.file;
    match crate::load::open_staged(path, args.options.syntax(), &overrides) {
        Ok(staged) => {
            report_opened(path, &staged.loaded, None);
            Ok(staged)
        }
        Err(failed) => Err(report_failed(path, failed)),
    }
}

/// Opens a game for many random playouts: unless an engine is asked for,
/// on the compiled engine a short trial predicts cheaper
/// ([`crate::engine::Game::prefer_cheaper_playouts`]).
pub fn open_for_playouts(args: &GameArgs) -> Result<Loaded, i32> {
    let mut loaded = open_game(args)?;
    if loaded.choice != Choice::Asked {
        loaded.game.prefer_cheaper_playouts();
    }
    Ok(loaded)
}

/// A string as a JSON string literal.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
