//! A joint move from what a person typed: `play` and `roll` lines.
//!
//! In: a [`Machine`] with a state loaded, the items of a line (`MOVE` or
//! `ROLE=MOVE`) and a seeded generator. Out: one legal move per role, or a
//! [`JointError`] saying what is missing or wrong. Holds: `ROLE=MOVE` items
//! go to their role, the other items to the choosing roles in role order,
//! roles with one legal move get it, and nature throws with the generator
//! unless told an outcome.

use super::parse::{self, InputError, Item};
use super::{choosing, view};
use crate::engine::{EngineError, Machine};
use rand::Rng;

/// Why a line does not make a joint move.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum JointError {
    /// `play 1` in a terminal state; `goals` is the goal line.
    #[error("the game is over ({goals}); `undo` or `restart`")]
    GameOver { goals: String },
    /// The game misbehaves here (e.g. a role without a legal move).
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Input(#[from] InputError),
    /// `play z=1` in a game without the role `z`.
    #[error("there is no role `{role}`; the roles are {roles}")]
    NoRole { role: String, roles: String },
    /// `play a=1 a=2`.
    #[error("two moves for {role}")]
    TwoMoves { role: String },
    /// `roll` while a player must choose as well.
    #[error(
        "{who} must move too: `play MOVE` (nature then throws), or `play MOVE {nature}=OUTCOME`"
    )]
    PlayersToo { who: String, nature: String },
    /// A move typed where only nature chooses.
    #[error("`{text}` is not a legal move: only nature chooses here (`roll` or `roll OUTCOME`)")]
    OnlyNature { text: String },
    /// A move typed where every role has one legal move.
    #[error(
        "`{text}` is not a legal move: nobody has a choice here; `play` makes the only moves ({forced})"
    )]
    NoChoice { text: String, forced: String },
    /// `play` without a move where one role chooses.
    #[error("{role} to move: `play MOVE` or `play N`; legal: {legal}")]
    ToMove { role: String, legal: String },
    /// Several moves where one role chooses.
    #[error("{role} to move: give one move")]
    OneMove { role: String },
    /// Not one move per choosing role.
    #[error("{count} roles choose here ({who}): give one move each, in this order or as ROLE=MOVE")]
    OneEach { count: usize, who: String },
}

/// Builds a joint move from the items of a `play` line (or a `roll` with
/// `roll` set).
pub fn joint<R: Rng>(
    m: &mut Machine,
    items: &[Item],
    roll: bool,
    rng: &mut R,
) -> Result<Vec<u32>, JointError> {
    if m.is_terminal() {
        return Err(JointError::GameOver {
            goals: view::goals(m).trim_end().to_string(),
        });
    }
    m.check_playable()?;
    let (mut joint, loose) = named_moves(m, items)?;
    let open: Vec<usize> = choosing(m)
        .into_iter()
        .filter(|&r| joint[r].is_none())
        .collect();
    if roll && !open.is_empty() {
        return Err(JointError::PlayersToo {
            who: names(m, &open).join(" and "),
            nature: m
                .game()
                .random_role()
                .map_or("random".into(), |r| m.game().role_name(r)),
        });
    }
    if open.is_empty() && !loose.is_empty() {
        check_forced(m, &joint, &loose)?;
    } else if loose.len() != open.len() {
        return Err(miscount(m, &open, loose.len()));
    } else {
        for (&r, item) in open.iter().zip(&loose) {
            joint[r] = Some(parse::choice(m.game(), r, m.legal(r), &item.text)?);
        }
    }
    let mut out = Vec::with_capacity(joint.len());
    for (r, j) in joint.iter().enumerate() {
        out.push(match j {
            Some(mv) => *mv,
            None => m.random_move(r, rng)?,
        });
    }
    Ok(out)
}

/// The moves given as `ROLE=MOVE`, by role, and the items without a role.
fn named_moves<'i>(
    m: &Machine,
    items: &'i [Item],
) -> Result<(Vec<Option<u32>>, Vec<&'i Item>), JointError> {
    let game = m.game();
    let all: Vec<usize> = (0..game.role_count()).collect();
    let roles = names(m, &all);
    let mut joint = vec![None; roles.len()];
    let mut loose = Vec::new();
    for item in items {
        let Some(role) = &item.role else {
            loose.push(item);
            continue;
        };
        let Some(r) = roles.iter().position(|n| n == role) else {
            return Err(JointError::NoRole {
                role: role.clone(),
                roles: roles.join(", "),
            });
        };
        if joint[r].is_some() {
            return Err(JointError::TwoMoves { role: role.clone() });
        }
        joint[r] = Some(parse::choice(game, r, m.legal(r), &item.text)?);
    }
    Ok((joint, loose))
}

/// Nobody chooses: a move typed out (or its number) is accepted only if it
/// is some role's forced move.
fn check_forced(m: &Machine, joint: &[Option<u32>], loose: &[&Item]) -> Result<(), JointError> {
    let game = m.game();
    for item in loose {
        let fits = (0..game.role_count()).any(|r| {
            joint[r].is_none()
                && Some(r) != game.random_role()
                && parse::choice(game, r, m.legal(r), &item.text).is_ok()
        });
        if fits {
            continue;
        }
        if game.random_role().is_some_and(|r| m.legal(r).len() > 1) {
            return Err(JointError::OnlyNature {
                text: item.text.clone(),
            });
        }
        return Err(JointError::NoChoice {
            text: item.text.clone(),
            forced: forced(m),
        });
    }
    Ok(())
}

/// The error for a number of loose moves that does not fit the roles open.
fn miscount(m: &Machine, open: &[usize], given: usize) -> JointError {
    let who = names(m, open);
    match (open.len(), given) {
        (1, 0) => JointError::ToMove {
            role: who[0].clone(),
            legal: parse::alternatives(m.game(), open[0], m.legal(open[0])),
        },
        (1, _) => JointError::OneMove {
            role: who[0].clone(),
        },
        _ => JointError::OneEach {
            count: open.len(),
            who: who.join(", "),
        },
    }
}

fn names(m: &Machine, roles: &[usize]) -> Vec<String> {
    roles.iter().map(|&r| m.game().role_name(r)).collect()
}

/// The moves of roles with a single legal move, as `ROLE=MOVE`.
fn forced(m: &Machine) -> String {
    let game = m.game();
    (0..game.role_count())
        .filter(|&r| m.legal(r).len() == 1)
        .map(|r| format!("{}={}", game.role_name(r), game.show_move(r, m.legal(r)[0])))
        .collect::<Vec<_>>()
        .join(" ")
}
