//! A progress line for long commands, on the terminal's stderr.
//!
//! In: lines of text as work goes on. Out: the latest line, rewritten in
//! place at most ten times a second and erased when the work is done (or
//! the value dropped). Holds: nothing at all is written when stderr is not
//! a terminal, so redirected output and logs stay clean.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    enabled: bool,
    shown: bool,
    last: Option<Instant>,
}

impl Progress {
    /// A progress line if `wanted` and stderr is a terminal; otherwise one
    /// that shows nothing.
    pub fn on_terminal(wanted: bool) -> Progress {
        Progress {
            enabled: wanted && std::io::stderr().is_terminal(),
            shown: false,
            last: None,
        }
    }

    /// Shows `line()` unless a line was shown less than 0.1 s ago (the
    /// line is only built when shown).
    pub fn show(&mut self, line: impl FnOnce() -> String) {
        if !self.enabled || self.last.is_some_and(|t| t.elapsed() < EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        self.shown = true;
        let mut err = std::io::stderr();
        let _ = write!(err, "\r{}\x1b[K", line());
        let _ = err.flush();
    }

    /// Erases the line.
    pub fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.shown = false;
        }
        self.last = None;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The time left after `elapsed` when `fraction` (0 to 1) of the work is
/// done, in words: `about 40 s left`, `about 3 min left`; `None` before
/// anything can be said.
pub fn time_left(elapsed: Duration, fraction: f64) -> Option<String> {
    if !(fraction > 0.0 && fraction.is_finite()) {
        return None;
    }
    let left = elapsed.as_secs_f64() * (1.0 / fraction.min(1.0) - 1.0);
    Some(format!("about {} left", duration_words(left)))
}

/// `12 s`, `3 min`, `2.5 h`.
pub fn duration_words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{:.0} s", seconds.max(0.0))
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_scales_the_elapsed_time() {
        let ten = Duration::from_secs(10);
        assert_eq!(time_left(ten, 0.5).as_deref(), Some("about 10 s left"));
        assert_eq!(time_left(ten, 0.2).as_deref(), Some("about 40 s left"));
        assert_eq!(time_left(ten, 0.05).as_deref(), Some("about 3 min left"));
        assert_eq!(time_left(ten, 0.0), None);
        assert_eq!(duration_words(600.0), "10 min");
        assert_eq!(duration_words(7200.0), "2.0 h");
    }
}
