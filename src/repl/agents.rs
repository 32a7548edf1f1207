//! The REPL's machine players: `hint [ITERATIONS]` (an MCTS search from the
//! current state, shown per role to move) and `agent ROLE SPEC` (the agent
//! `auto` plays a role with).
//!
//! In: the session and the command's arguments. Out: text, or a
//! [`CommandError`]. Holds: `hint` draws nothing from the session's
//! generator (its seed comes from the session's seed and step), so asking
//! for a hint never changes what follows; `agent` changes no position.

use super::{CommandError, Session};
use crate::agent::mcts::Search;
use crate::agent::{Agent, Budget, DEFAULT_ITERATIONS};
use crate::engine::{EngineError, Machine};
use crate::front::choosing;
use rand::Rng;

impl Session {
    /// `hint [ITERATIONS]`: every legal move of each role to move, with its
    /// visits and mean goal, best first.
    pub(super) fn hint(&mut self, args: &str) -> Result<String, CommandError> {
        let iterations = match args {
            "" => DEFAULT_ITERATIONS,
            n => match n.parse::<u32>() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(CommandError::Agent(format!(
                        "`hint` takes a positive number of iterations, not `{n}`"
                    )));
                }
            },
        };
        let m = self.machine();
        if m.is_terminal() {
            return Err(CommandError::NoMoves);
        }
        m.check_playable()?;
        let roles = choosing(&m);
        if roles.is_empty() {
            return Ok("nobody has a choice here\n".into());
        }
        let seed = self.seed ^ (self.cursor as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let search = Search::new(Budget::Iterations(iterations), 1, seed);
        let found = search.run(&self.game, self.state())?;
        let mut out = format!("mcts:{iterations}, {} iterations\n", found.iterations);
        for r in roles {
            out.push_str(&format!("{}:\n", self.game.role_name(r)));
            for s in &found.moves[r] {
                let number = m.legal(r).iter().position(|&l| l == s.mv).unwrap_or(0) + 1;
                out.push_str(&format!(
                    "  {number:>3}. {:<24} visits {:>6}  mean goal {:>5.1}\n",
                    self.game.show_move(r, s.mv),
                    s.visits,
                    s.mean
                ));
            }
        }
        Ok(out)
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
