//! The REPL's machine players: `hint [ITERATIONS|SECONDSs]` (an MCTS search
//! from the current state, shown per role to move, saying when the best
//! moves are within each other's confidence interval) and `agent ROLE SPEC`
//! (the agent `auto` plays a role with).
//!
//! In: the session and the command's arguments. Out: text, or a
//! [`CommandError`]. Holds: `hint` draws nothing from the session's
//! generator (its seed comes from the session's seed and step), so asking
//! for a hint never changes what follows; `agent` changes no position.

use super::{CommandError, Session};
use crate::agent::mcts::{MoveStat, Search};
use crate::agent::{Agent, Budget, DEFAULT_ITERATIONS};
use crate::engine::{EngineError, Machine};
use crate::front::choosing;
use rand::Rng;
use std::time::Instant;

/// The half-width of a conservative 95% confidence interval of a move's
/// mean goal (0 to 100): the goal taken as either 0 or 100, which has the
/// largest variance a goal of that mean can have, with the Agresti-Coull
/// adjustment (two more wins and losses) so that a few playouts that all
/// ended alike do not look certain.
fn ci95(s: &MoveStat) -> f64 {
    let n = s.visits as f64 + 4.0;
    let p = (s.mean / 100.0 * s.visits as f64 + 2.0) / n;
    100.0 * 1.96 * (p * (1.0 - p) / n).sqrt()
}

/// What `hint` found: the search and, for each role to move, its moves.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The search, as an agent (`mcts:1000`).
    pub search: Agent,
    pub iterations: u64,
    pub roles: Vec<RoleHint>,
}

/// One role's moves as `hint` found them, best first.
#[derive(Clone, Debug)]
pub struct RoleHint {
    pub role: usize,
    pub moves: Vec<HintMove>,
    /// The numbers of the best two moves when each is within the other's
    /// 95% confidence interval (a longer search may tell them apart).
    pub close: Option<(usize, usize)>,
}

/// A move with what the search found of it.
#[derive(Clone, Debug)]
pub struct HintMove {
    /// Its place in the role's list of legal moves, from 1.
    pub number: usize,
    pub text: String,
    pub visits: u64,
    pub mean: f64,
    /// The half-width of its conservative 95% confidence interval.
    pub ci95: f64,
}

impl Session {
    /// `hint [ITERATIONS|SECONDSs]`: every legal move of each role to move,
    /// with its visits and mean goal (± its 95% confidence interval), best
    /// first, and a note where the best two are within each other's
    /// interval.
    pub(super) fn hint(&mut self, args: &str) -> Result<String, CommandError> {
        let budget = match args {
            "" => Budget::Iterations(DEFAULT_ITERATIONS),
            given => match Agent::parse(&format!("mcts:{given}")) {
                Ok(Agent::Mcts(budget)) => budget,
                _ => {
                    return Err(CommandError::Agent(format!(
                        "`hint` takes a positive number of iterations (`hint 5000`) or seconds (`hint 2s`), not `{given}`"
                    )));
                }
            },
        };
        let Some(hint) = self.hint_search(budget)? else {
            return Ok("nobody has a choice here\n".into());
        };
        let mut out = format!("{}, {} iterations\n", hint.search, hint.iterations);
        for r in &hint.roles {
            out.push_str(&format!("{}:\n", self.game.role_name(r.role)));
            for s in &r.moves {
                out.push_str(&format!(
                    "  {:>3}. {:<24} visits {:>6}  mean goal {:>5.1} ± {:.1}\n",
                    s.number, s.text, s.visits, s.mean, s.ci95
                ));
            }
            if let Some((a, b)) = r.close {
                out.push_str(&format!(
                    "  moves {a} and {b} are within each other's 95% confidence interval: a longer search (`hint 5000`, `hint 5s`) may tell them apart\n"
                ));
            }
        }
        Ok(out)
    }

    /// The search behind `hint`, from the current state; `None` when no
    /// role has a choice. Its seed comes from the session's seed and step,
    /// so it draws nothing from the session's generator.
    pub fn hint_search(&mut self, budget: Budget) -> Result<Option<Hint>, CommandError> {
        let m = self.machine();
        if m.is_terminal() {
            return Err(CommandError::NoMoves);
        }
        m.check_playable()?;
        let roles = choosing(&m);
        if roles.is_empty() {
            return Ok(None);
        }
        let seed = self.seed ^ (self.cursor as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let search = Search::new(budget, 1, seed);
        let started = Instant::now();
        let watch = |share: f64| {
            if let Some(show) = &self.progress {
                show(share, started.elapsed());
            }
        };
        let found = search.run_watched(&self.game, self.state(), &watch);
        watch(1.0);
        let found = found?;
        let roles = roles
            .into_iter()
            .map(|r| {
                let number =
                    |s: &MoveStat| m.legal(r).iter().position(|&l| l == s.mv).unwrap_or(0) + 1;
                let close = match &found.moves[r][..] {
                    [best, second, ..]
                        if (best.mean - second.mean).abs() <= ci95(best) + ci95(second) =>
                    {
                        Some((number(best), number(second)))
                    }
                    _ => None,
                };
                let moves = found.moves[r]
                    .iter()
                    .map(|s| HintMove {
                        number: number(s),
                        text: self.game.show_move(r, s.mv),
                        visits: s.visits,
                        mean: s.mean,
                        ci95: ci95(s),
                    })
                    .collect();
                RoleHint {
                    role: r,
                    moves,
                    close,
                }
            })
            .collect();
        Ok(Some(Hint {
            search: Agent::Mcts(budget),
            iterations: found.iterations,
            roles,
        }))
    }

    /// `agent ROLE SPEC`, or `agent` alone for the list.
    pub(super) fn agent(&mut self, args: &str) -> Result<String, CommandError> {
        let names: Vec<String> = (0..self.game.role_count())
            .filter(|&r| Some(r) != self.game.random_role())
            .map(|r| self.game.role_name(r))
            .collect();
        let words: Vec<&str> = args.split_whitespace().collect();
        let (role, spec) = match words[..] {
            [] => return Ok(self.agent_list()),
            [role, spec] => (role, spec),
            _ => {
                return Err(CommandError::Agent(format!(
                    "`agent` takes ROLE AGENT, such as `agent {} mcts:500`",
                    names.first().map_or("ROLE", String::as_str)
                )));
            }
        };
        let Some(r) = (0..self.game.role_count())
            .find(|&r| self.game.role_name(r) == role && Some(r) != self.game.random_role())
        else {
            return Err(CommandError::Agent(format!(
                "there is no player `{role}`; the players are {}",
                names.join(", ")
            )));
        };
        let agent = Agent::parse(spec).map_err(|e| CommandError::Agent(e.to_string()))?;
        if agent == Agent::Human {
            return Err(CommandError::Agent(
                "`auto` plays machine agents only (random, first, mcts, mcts:ITERATIONS, \
                 mcts:SECONDSs); play a role yourself with `play`"
                    .into(),
            ));
        }
        self.agents[r] = agent;
        Ok(format!("{role} is played by {agent} in `auto`\n"))
    }

    fn agent_list(&self) -> String {
        (0..self.game.role_count())
            .filter(|&r| Some(r) != self.game.random_role())
            .map(|r| format!("{}: {}\n", self.game.role_name(r), self.agents[r]))
            .collect()
    }
}

/// Every role's move in the loaded state by its agent (nature by weight).
pub(super) fn agents_joint<R: Rng>(
    agents: &[Agent],
    m: &Machine,
    rng: &mut R,
) -> Result<Vec<u32>, EngineError> {
    m.check_playable()?;
    let mut joint = Vec::with_capacity(agents.len());
    for (r, agent) in agents.iter().enumerate() {
        joint.push(match agent.pick(m, r, rng, 1) {
            Some(mv) => mv?,
            None => m.random_move(r, rng)?,
        });
    }
    Ok(joint)
}
