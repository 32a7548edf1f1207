//! Agents: what picks a role's move. Random, first-move and human agents,
//! and Monte Carlo tree search ([`mcts`]); a game between agents
//! ([`duel`]) and the statistics of many ([`tally`]).
//!
//! In: a [`Machine`] with a state loaded, a role, a seeded generator; for
//! specs, text such as `mcts:1000`. Out: a legal move of the role, or the
//! engine's error. Holds: the same seed (and, for MCTS with an iteration
//! budget, the same thread count) gives the same move; nature always throws
//! by weight; a role with one legal move plays it without a draw.

pub mod duel;
pub mod mcts;
pub mod survey;
pub mod tally;

use crate::engine::{EngineError, Game, Machine};
use rand::Rng;
use std::fmt;
use std::time::Duration;

/// Iterations of `mcts` without a budget.
pub const DEFAULT_ITERATIONS: u32 = 1000;

/// The valid forms of an agent spec, for usage errors.
pub const FORMS: &str = "random, first, human, mcts, mcts:ITERATIONS (e.g. mcts:1000), \
                         mcts:SECONDSs (e.g. mcts:2s or mcts:0.5s)";

/// How a role picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// Uniformly at random among the legal moves (nature: by weight).
    Random,
    /// Its first legal move.
    First,
    /// Moves typed by a person.
    Human,
    /// Monte Carlo tree search with this budget per move.
    Mcts(Budget),
}

/// How long MCTS thinks about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Playouts in all (shared among the threads).
    Iterations(u32),
    /// Wall-clock time (every thread searches that long).
    Time(Duration),
}

/// Why a spec is no agent; the message lists the valid forms.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// `smart`.
    #[error("`{0}` is not an agent; the agents are {FORMS}")]
    Unknown(String),
    /// `mcts:0`, `mcts:-5`, `mcts:0s`, `mcts:lots`.
    #[error("`{0}` is not a budget: give a positive number of iterations or seconds ({FORMS})")]
    Budget(String),
}

impl Agent {
    /// Reads `random`, `first`, `human`, `mcts`, `mcts:N` or `mcts:Ts`.
    pub fn parse(spec: &str) -> Result<Agent, SpecError> {
        let spec = spec.trim();
        match spec {
            "random" => return Ok(Agent::Random),
            "first" => return Ok(Agent::First),
            "human" => return Ok(Agent::Human),
            "mcts" => return Ok(Agent::Mcts(Budget::Iterations(DEFAULT_ITERATIONS))),
            _ => {}
        }
        let Some(budget) = spec.strip_prefix("mcts:") else {
            return Err(SpecError::Unknown(spec.to_string()));
        };
        let bad = || SpecError::Budget(budget.to_string());
        if let Some(seconds) = budget.strip_suffix('s') {
            let s: f64 = seconds.parse().map_err(|_| bad())?;
            if !(s > 0.0 && s <= 86_400.0) {
                return Err(bad());
            }
            return Ok(Agent::Mcts(Budget::Time(Duration::from_secs_f64(s))));
        }
        match budget.parse::<u32>() {
            Ok(n) if n > 0 => Ok(Agent::Mcts(Budget::Iterations(n))),
            _ => Err(bad()),
        }
    }

    /// The move of a machine agent (`Human` has none); nature always throws
    /// by weight, and a single legal move is played without a draw. MCTS
    /// searches with `threads` root-parallel trees.
    pub fn pick<R: Rng>(
        self,
        m: &Machine,
        role: usize,
        rng: &mut R,
        threads: usize,
    ) -> Option<Result<u32, EngineError>> {
        let legal = m.legal(role);
        let nature = Some(role) == m.game().random_role();
        match self {
            _ if legal.len() == 1 => Some(Ok(legal[0])),
            _ if nature => Some(m.random_move(role, rng)),
            Agent::First => Some(Ok(legal[0])),
            Agent::Human => None,
            Agent::Random => Some(m.random_move(role, rng)),
            Agent::Mcts(budget) => {
                let seed = rng.next_u64();
                let search = mcts::Search::new(budget, threads, seed);
                Some(
                    search
                        .run(m.game(), m.state())
                        .map(|s| s.best(role).unwrap_or(legal[0])),
                )
            }
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Agent::Random => write!(f, "random"),
            Agent::First => write!(f, "first"),
            Agent::Human => write!(f, "human"),
            Agent::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            Agent::Mcts(Budget::Time(t)) => write!(f, "mcts:{}s", t.as_secs_f64()),
        }
    }
}

/// Why an `--agent ROLE=SPEC` option is refused.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum AgentOptionError {
    /// `mcts` with no `ROLE=`.
    #[error("--agent takes ROLE=AGENT, not `{0}`; the agents are {FORMS}")]
    Form(String),
    /// `z=random` in a game without the role `z`.
    #[error("--agent {option}: there is no role `{role}`; the roles are {roles}")]
    NoRole {
        option: String,
        role: String,
        roles: String,
    },
    /// `random=first`.
    #[error("--agent {option}: `{role}` is nature, which always throws by weight")]
    Nature { option: String, role: String },
    /// `x=a x=b`.
    #[error("--agent {option}: role `{role}` has an agent already")]
    Twice { option: String, role: String },
    #[error("--agent {option}: {error}")]
    Spec { option: String, error: SpecError },
}

/// `--agent ROLE=SPEC` options as (role index, agent), in the order given;
/// each role at most once, nature never.
pub fn parse_options(
    game: &Game,
    options: &[String],
) -> Result<Vec<(usize, Agent)>, AgentOptionError> {
    let names: Vec<String> = (0..game.role_count()).map(|r| game.role_name(r)).collect();
    let mut out: Vec<(usize, Agent)> = Vec::new();
    for option in options {
        let Some((role, spec)) = option.split_once('=') else {
            return Err(AgentOptionError::Form(option.clone()));
        };
        let role = role.trim().to_string();
        let Some(r) = names.iter().position(|n| *n == role) else {
            return Err(AgentOptionError::NoRole {
                option: option.clone(),
                role,
                roles: player_names(game).join(", "),
            });
        };
        if Some(r) == game.random_role() {
            return Err(AgentOptionError::Nature {
                option: option.clone(),
                role,
            });
        }
        if out.iter().any(|&(seen, _)| seen == r) {
            return Err(AgentOptionError::Twice {
                option: option.clone(),
                role,
            });
        }
        let agent = Agent::parse(spec).map_err(|error| AgentOptionError::Spec {
            option: option.clone(),
            error,
        })?;
        out.push((r, agent));
    }
    Ok(out)
}

/// Each role's agent from `--agent` options, `Random` where none is given.
pub fn agents_per_role(game: &Game, options: &[String]) -> Result<Vec<Agent>, AgentOptionError> {
    let mut agents = vec![Agent::Random; game.role_count()];
    for (r, a) in parse_options(game, options)? {
        agents[r] = a;
    }
    Ok(agents)
}

/// The roles that are players (every role but nature), in role order.
pub fn players(game: &Game) -> Vec<usize> {
    (0..game.role_count())
        .filter(|&r| Some(r) != game.random_role())
        .collect()
}

fn player_names(game: &Game) -> Vec<String> {
    players(game)
        .into_iter()
        .map(|r| game.role_name(r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        for spec in [
            "random",
            "first",
            "human",
            "mcts:1000",
            "mcts:2s",
            "mcts:0.5s",
        ] {
            assert_eq!(Agent::parse(spec).unwrap().to_string(), spec);
        }
        assert_eq!(
            Agent::parse("mcts"),
            Ok(Agent::Mcts(Budget::Iterations(DEFAULT_ITERATIONS)))
        );
    }

    #[test]
    fn bad_specs_are_refused_with_the_forms() {
        for bad in [
            "mcts:0",
            "mcts:-5",
            "mcts:0s",
            "mcts:-1s",
            "mcts:x",
            "mcts:",
            "mcts:nans",
        ] {
            let e = Agent::parse(bad).unwrap_err();
            assert!(matches!(e, SpecError::Budget(_)), "{bad}: {e:?}");
            assert!(e.to_string().contains("mcts:ITERATIONS"), "{e}");
        }
        assert_eq!(
            Agent::parse("smart").unwrap_err().to_string(),
            format!("`smart` is not an agent; the agents are {FORMS}")
        );
    }
}
