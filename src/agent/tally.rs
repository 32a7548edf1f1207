//! Statistics over many games: wins, draws and losses, the mean goal with
//! its 95% confidence interval, the mean length, the time per move.
//!
//! In: per game, a role's goal, the result it means for the role (see
//! [`result`]), the game's length and the role's thinking time. Out: a
//! [`Summary`]. Holds: a role wins when its goal is the highest and some
//! other player's is lower, loses when another player's is higher, and
//! draws when every player has the same goal (alone, a player wins at 100
//! and loses at 0); so teams expressed in goals win and lose together.

/// What a game's end means for one role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    Win,
    Draw,
    Loss,
}

/// The result for `role` of a game that ended with `goals`; `players` are
/// the roles that count (nature's goal does not).
pub fn result(goals: &[Option<i64>], role: usize, players: &[usize]) -> Result3 {
    let own = goals[role].unwrap_or(0);
    let values: Vec<i64> = players.iter().map(|&p| goals[p].unwrap_or(0)).collect();
    if values.len() == 1 {
        return match own {
            100 => Result3::Win,
            0 => Result3::Loss,
            _ => Result3::Draw,
        };
    }
    if values.iter().any(|&v| v > own) {
        Result3::Loss
    } else if values.iter().any(|&v| v < own) {
        Result3::Win
    } else {
        Result3::Draw
    }
}

/// Running sums for one role or one agent.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games stopped by the step limit (not in the goal statistics).
    pub unfinished: u32,
    /// Sum of the goals of the finished games, and of their squares.
    pub goal_sum: f64,
    pub goal_squares: f64,
    /// Joint moves of all the games.
    pub length_sum: u64,
    /// Thinking time in all, and the choices it was spent on.
    pub seconds: f64,
    pub choices: u64,
}

/// The figures of a [`Tally`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub unfinished: u32,
    pub mean_goal: f64,
    /// Half the width of the 95% confidence interval of the mean goal.
    pub ci95: f64,
    pub mean_length: f64,
    /// Mean seconds per choice (0 if the role never had one).
    pub seconds_per_move: f64,
}

impl Tally {
    /// A finished game: the role's goal and result.
    pub fn add(&mut self, goal: i64, result: Result3, length: u32, thinking: (f64, u32)) {
        match result {
            Result3::Win => self.wins += 1,
            Result3::Draw => self.draws += 1,
            Result3::Loss => self.losses += 1,
        }
        let g = goal as f64;
        self.goal_sum += g;
        self.goal_squares += g * g;
        self.add_length(length, thinking);
    }

    /// A game stopped by the step limit.
    pub fn add_unfinished(&mut self, length: u32, thinking: (f64, u32)) {
        self.unfinished += 1;
        self.add_length(length, thinking);
    }

    /// Adds the games of another tally of the same role.
    pub fn merge(&mut self, other: &Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.unfinished += other.unfinished;
        self.goal_sum += other.goal_sum;
        self.goal_squares += other.goal_squares;
        self.length_sum += other.length_sum;
        self.seconds += other.seconds;
        self.choices += other.choices;
    }

    fn add_length(&mut self, length: u32, thinking: (f64, u32)) {
        self.length_sum += u64::from(length);
        self.seconds += thinking.0;
        self.choices += u64::from(thinking.1);
    }

    pub fn summary(&self) -> Summary {
        let finished = self.wins + self.draws + self.losses;
        let games = finished + self.unfinished;
        let n = f64::from(finished.max(1));
        let mean = self.goal_sum / n;
        let variance = if finished > 1 {
            ((self.goal_squares - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        Summary {
            games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            unfinished: self.unfinished,
            mean_goal: mean,
            ci95: 1.96 * (variance / n).sqrt(),
            mean_length: self.length_sum as f64 / f64::from(games.max(1)),
            seconds_per_move: self.seconds / self.choices.max(1) as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_follow_the_goals() {
        let players = [0, 1];
        let g = [Some(100), Some(0), None];
        assert_eq!(result(&g, 0, &players), Result3::Win);
        assert_eq!(result(&g, 1, &players), Result3::Loss);
        let tie = [Some(50), Some(50)];
        assert_eq!(result(&tie, 0, &players), Result3::Draw);
        // Two teams of two: teammates share the result.
        let teams = [Some(100), Some(0), Some(100), Some(0)];
        let four = [0, 1, 2, 3];
        assert_eq!(result(&teams, 2, &four), Result3::Win);
        assert_eq!(result(&teams, 3, &four), Result3::Loss);
        assert_eq!(result(&[Some(100)], 0, &[0]), Result3::Win);
        assert_eq!(result(&[Some(40)], 0, &[0]), Result3::Draw);
    }

    #[test]
    fn mean_and_interval_of_known_goals() {
        let mut t = Tally::default();
        for (goal, r) in [
            (100, Result3::Win),
            (0, Result3::Loss),
            (50, Result3::Draw),
            (50, Result3::Draw),
        ] {
            t.add(goal, r, 10, (2.0, 4));
        }
        t.add_unfinished(30, (0.0, 0));
        let s = t.summary();
        assert_eq!(
            (s.games, s.wins, s.draws, s.losses, s.unfinished),
            (5, 1, 2, 1, 1)
        );
        assert_eq!(s.mean_goal, 50.0);
        // Sample variance (2500 + 2500 + 0 + 0) / 3; interval 1.96 * sqrt(var / 4).
        let expected = 1.96 * (5000.0f64 / 3.0 / 4.0).sqrt();
        assert!((s.ci95 - expected).abs() < 1e-9, "{}", s.ci95);
        assert_eq!(s.mean_length, 14.0);
        assert_eq!(s.seconds_per_move, 0.5);
    }
}
