//! `tabula check FILE...`: parse and check game files, print diagnostics.
//!
//! In: file paths and options. Out: diagnostics on stderr (with the
//! warnings of `--playouts` seeded random playouts of each valid file); on
//! stdout a line per valid file (`FILE: ok (roles x, o; 57 ground rules)`,
//! or `(roles white, black; 1006 rules, on the rule evaluator)` for a game
//! too large to ground; none with `--quiet`), or its sizes and the
//! playouts' depth and joint branching (nature included) with `--explain`;
//! and the exit code: 0 if every file is valid (warnings allowed), 1 if any
//! is invalid, 2 for a usage or I/O error (a file that cannot be opened). A
//! file that is not UTF-8 or does not parse is invalid.
//! Files open as in every other command ([`super::open_file`]).

use super::{EXIT_OK, GameOptions, open_file, print_diagnostics};
use crate::check::simulate::{Budget, Observed, simulate};
use crate::engine::EngineKind;
use crate::load::Loaded;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Game files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub options: GameOptions,
    /// Print the sizes of each valid file (relations, rules, strata) on stdout.
    #[arg(long)]
    pub explain: bool,
    /// Print nothing for a valid file (diagnostics are still printed).
    #[arg(long, short)]
    pub quiet: bool,
    /// Random playouts played to find goals, moves or ends that misbehave
    /// (0 skips them). Without it, at most 100 in at most 0.4 s.
    #[arg(long, value_name = "N")]
    pub playouts: Option<u32>,
}

pub fn run(args: Args) -> i32 {
    let overrides = match args.options.overrides_or_usage() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut code = EXIT_OK;
    for path in &args.files {
        match open_file(path, &args.options, &overrides) {
            Ok(loaded) => {
                let budget = match args.playouts {
                    Some(playouts) => Budget {
                        playouts,
                        time: None,
                        ..Budget::default()
                    },
                    None => Budget::default(),
                };
                let (warnings, observed) = simulate(&loaded.game, &budget);
                print_diagnostics(&warnings, 0, &loaded.sources, path);
                if args.explain {
                    print_summary(path, &loaded, &observed);
                } else if !args.quiet {
                    print_ok(path, &loaded);
                }
            }
            Err(c) => code = code.max(c),
        }
    }
    code
}

/// The line of a valid file: its roles and the size of its ground program.
fn print_ok(path: &Path, loaded: &Loaded) {
    let game = &loaded.game;
    let roles: Vec<String> = (0..game.role_count()).map(|r| game.role_name(r)).collect();
    let size = match game.engine() {
        EngineKind::Rules => format!("{} rules, on the rule evaluator", loaded.summary.rules),
        _ => match game.ground_stats().rules {
            1 => "1 ground rule".to_string(),
            n => format!("{n} ground rules"),
        },
    };
    outln!(
        "{}: ok (roles {}; {size})",
        path.display(),
        roles.join(", ")
    );
}

fn print_summary(path: &Path, loaded: &Loaded, observed: &Observed) {
    let (game, summary) = (&loaded.game, &loaded.summary);
    let ground = game.ground_stats();
    let net = game.stats();
    let mut text = format!("{}\n", path.display());
    let mut rows = vec![
        ("relations", summary.relations),
        ("facts", summary.facts),
        ("rules", summary.rules),
        ("strata", summary.strata.len()),
    ];
    match game.query_rules() {
        // The rule evaluator grounds only its domains' cone and runs the
        // rules of each query as written.
        Some(q) => rows.extend([
            ("domain atoms", ground.atoms),
            ("domain rules", ground.rules),
            ("state facts", net.base_facts),
            ("moves", net.moves),
            ("terminal rules", q.terminal),
            ("legal rules", q.legal),
            ("weight rules", q.weight),
            ("next rules", q.next),
            ("goal rules", q.goal),
            ("aggregates", q.aggregates),
        ]),
        None => rows.extend([
            ("ground atoms", ground.atoms),
            ("ground rules", ground.rules),
            ("state facts", net.base_facts),
            ("moves", net.moves),
            ("view rules", net.view_rules),
            ("next rules", net.next_rules),
            ("goal rules", net.goal_rules),
            ("state bytes", 8 * net.base_facts.div_ceil(64)),
            ("machine bytes", game.machine().bytes()),
        ]),
    }
    for (what, n) in rows {
        text.push_str(&format!("  {what:<14} {n}\n"));
    }
    // Where the ground program's size comes from: rules (atoms) per relation.
    let largest: Vec<String> = game
        .largest_relations()
        .iter()
        .map(|r| format!("{} {} ({})", r.name, r.rules, r.atoms))
        .collect();
    if !largest.is_empty() {
        text.push_str(&format!("  largest        {}\n", largest.join(", ")));
    }
    text.push_str(&format!(
        "  engine         {}: {}\n",
        game.engine().name(),
        loaded.choice.explain()
    ));
    if let Some((t, engine)) = game.playout_work() {
        text.push_str(&format!(
            "  playout work   {} flips and readers, {} word operations per joint move \
             ({} run whole, {} of them outside native code): bench and match play on {}\n",
            t.flips,
            t.words,
            t.whole,
            t.whole - t.native,
            engine.name()
        ));
    }
    // The game's symbols extend the program's, so the ids are the same.
    for (i, stratum) in summary.strata.iter().enumerate() {
        let mut names: Vec<&str> = stratum.iter().map(|s| game.symbols.name(*s)).collect();
        names.sort_unstable();
        text.push_str(&format!("  stratum {i}: {}\n", names.join(" ")));
    }
    if observed.playouts > 0 {
        text.push_str(&format!(
            "  playouts       {} ({} ended)\n  depth          mean {:.1}, max {}\n  joint branching mean {:.1} (every role's legal moves multiplied, nature's outcomes included)\n",
            observed.playouts,
            observed.finished,
            observed.mean_depth,
            observed.max_depth,
            observed.mean_branching
        ));
    }
    out!("{text}");
}
