//! [`Budget`]: how much work a player may do for one move, and the one check
//! of a budget given from outside ([`Budget::checked`] and the checks of
//! each unit), which the text form, the C ABI and the Python binding share.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How much work a player may do for one move.
///
/// Alpha-beta counts a node for every position it visits; MCTS counts one
/// node per simulation (selection, expansion, playout, backup). Random and
/// greedy players ignore the budget.
///
/// A budget from outside (text, C, Python) is checked by [`Budget::checked`]
/// (or [`Budget::checked_depth`], [`Budget::checked_nodes`],
/// [`Budget::checked_time`]): depth 1 to [`Budget::MAX_DEPTH`] plies, nodes
/// 1 to [`Budget::MAX_NODES`], time more than 0 and at most
/// [`Budget::MAX_TIME`].
///
/// ```
/// use ayo_core::players::Budget;
/// use std::time::Duration;
/// assert_eq!("depth=6".parse::<Budget>().unwrap(), Budget::Depth(6));
/// assert_eq!("nodes=20000".parse::<Budget>().unwrap(), Budget::Nodes(20_000));
/// assert_eq!("time=250ms".parse::<Budget>().unwrap(), Budget::Time(Duration::from_millis(250)));
/// assert_eq!("time=2s".parse::<Budget>().unwrap().to_string(), "time=2000ms");
/// assert!("nodes=0".parse::<Budget>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Search this many plies deep (alpha-beta); MCTS runs `1000 × depth` simulations.
    Depth(u32),
    /// Visit at most about this many nodes (alpha-beta) or run this many simulations (MCTS).
    Nodes(u64),
    /// Stop after this much wall time (not reproducible across machines).
    Time(Duration),
}

/// A budget that [`Budget::checked`] refuses; the message says the limits.
///
/// ```
/// use ayo_core::players::Budget;
/// let e = Budget::checked(None, Some(0), None).unwrap_err();
/// assert_eq!(e.to_string(), "a node budget is at least 1 and at most 1000000000 nodes, not 0");
/// let e = Budget::checked(Some(3), Some(100), None).unwrap_err();
/// assert_eq!(e.to_string(), "give at most one budget: depth, nodes or time");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum BudgetError {
    /// More than one of depth, nodes and time.
    #[error("give at most one budget: depth, nodes or time")]
    Several,
    /// A depth outside `1..=Budget::MAX_DEPTH`.
    #[error(
        "a depth budget is at least 1 and at most {max} plies, not {0}",
        max = Budget::MAX_DEPTH
    )]
    Depth(i128),
    /// A node count outside `1..=Budget::MAX_NODES`.
    #[error(
        "a node budget is at least 1 and at most {max} nodes, not {0}",
        max = Budget::MAX_NODES
    )]
    Nodes(i128),
    /// A time that is not more than 0 and at most `Budget::MAX_TIME` (in seconds).
    #[error(
        "a time budget is more than 0 and at most {max} seconds, not {0}",
        max = Budget::MAX_TIME.as_secs()
    )]
    Time(f64),
}

impl Budget {
    /// The deepest depth budget, in plies.
    pub const MAX_DEPTH: u32 = u32::MAX;
    /// The largest node budget (alpha-beta positions, MCTS simulations, or the
    /// boards a `perfect` player expands): a billion, minutes to hours of
    /// search for one move.
    pub const MAX_NODES: u64 = 1_000_000_000;
    /// The longest time budget: one day.
    pub const MAX_TIME: Duration = Duration::from_secs(86_400);

    /// The budget of at most one of `depth` (plies), `nodes` and `time`
    /// (seconds), each checked as [`Budget::checked_depth`],
    /// [`Budget::checked_nodes`] and [`Budget::checked_time`] check it;
    /// `None` when none is given (the caller's default applies).
    ///
    /// The amounts are wide signed integers so that a binding passes on
    /// whatever its caller gave (a C `uint64_t`, a Python `int`), negative
    /// or huge, and gets this message for it.
    ///
    /// ```
    /// use ayo_core::players::{Budget, BudgetError};
    /// assert_eq!(Budget::checked(Some(4), None, None), Ok(Some(Budget::Depth(4))));
    /// assert_eq!(Budget::checked(None, None, None), Ok(None));
    /// assert_eq!(Budget::checked(None, None, Some(0.0)), Err(BudgetError::Time(0.0)));
    /// assert_eq!(Budget::checked(None, Some(-5), None), Err(BudgetError::Nodes(-5)));
    /// ```
    pub fn checked(
        depth: Option<i128>,
        nodes: Option<i128>,
        time: Option<f64>,
    ) -> Result<Option<Budget>, BudgetError> {
        match (depth, nodes, time) {
            (None, None, None) => Ok(None),
            (Some(d), None, None) => Budget::checked_depth(d).map(Some),
            (None, Some(n), None) => Budget::checked_nodes(n).map(Some),
            (None, None, Some(t)) => Budget::checked_time(t).map(Some),
            _ => Err(BudgetError::Several),
        }
    }

    /// A depth budget of `plies`, 1 to [`Budget::MAX_DEPTH`].
    pub fn checked_depth(plies: i128) -> Result<Budget, BudgetError> {
        match u32::try_from(plies) {
            Ok(d) if d >= 1 => Ok(Budget::Depth(d)),
            _ => Err(BudgetError::Depth(plies)),
        }
    }

    /// A node budget of `nodes`, 1 to [`Budget::MAX_NODES`].
    pub fn checked_nodes(nodes: i128) -> Result<Budget, BudgetError> {
        match u64::try_from(nodes) {
            Ok(n) if (1..=Budget::MAX_NODES).contains(&n) => Ok(Budget::Nodes(n)),
            _ => Err(BudgetError::Nodes(nodes)),
        }
    }

    /// A time budget of `seconds`, more than 0 and at most
    /// [`Budget::MAX_TIME`], rounded to the nearest nanosecond (at least
    /// one), so that a whole number of milliseconds stays exact.
    pub fn checked_time(seconds: f64) -> Result<Budget, BudgetError> {
        if seconds > 0.0 && seconds <= Budget::MAX_TIME.as_secs_f64() {
            // In range and finite: at most 8.64e13 nanoseconds, exact in a u64.
            let nanos = (seconds * 1e9).round().max(1.0) as u64;
            Ok(Budget::Time(Duration::from_nanos(nanos)))
        } else {
            Err(BudgetError::Time(seconds))
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Depth(d) => write!(f, "depth={d}"),
            Budget::Nodes(n) => write!(f, "nodes={n}"),
            Budget::Time(t) => write!(f, "time={}ms", t.as_millis()),
        }
    }
}

impl FromStr for Budget {
    type Err = String;
    /// `depth=N`, `nodes=N` or `time=N(ms|s)`, checked as [`Budget::checked`]
    /// checks it.
    fn from_str(s: &str) -> Result<Budget, String> {
        let bad =
            || format!("`{s}` is not a budget; expected depth=N, nodes=N, time=Nms or time=Ns");
        let (key, value) = s.split_once('=').ok_or_else(bad)?;
        let value = value.trim();
        let number = |text: &str| text.trim().parse::<i128>().map_err(|_| bad());
        let checked = match key.trim() {
            "depth" => Budget::checked_depth(number(value)?),
            "nodes" | "simulations" => Budget::checked_nodes(number(value)?),
            "time" => {
                let (num, per_second) = if let Some(n) = value.strip_suffix("ms") {
                    (n, 1000.0)
                } else if let Some(n) = value.strip_suffix('s') {
                    (n, 1.0)
                } else {
                    return Err(bad());
                };
                Budget::checked_time(number(num)? as f64 / per_second)
            }
            _ => return Err(bad()),
        };
        checked.map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_of_each_unit() {
        let ok = |d, n, t| Budget::checked(d, n, t).unwrap().unwrap();
        assert_eq!(ok(Some(1), None, None), Budget::Depth(1));
        assert_eq!(
            ok(Some(u32::MAX.into()), None, None),
            Budget::Depth(u32::MAX)
        );
        assert_eq!(ok(None, Some(1), None), Budget::Nodes(1));
        assert_eq!(
            ok(None, Some(1_000_000_000), None),
            Budget::Nodes(1_000_000_000)
        );
        assert_eq!(
            ok(None, None, Some(86_400.0)),
            Budget::Time(Duration::from_secs(86_400))
        );
        assert_eq!(
            ok(None, None, Some(1e-12)),
            Budget::Time(Duration::from_nanos(1))
        );
        for d in [0, -1, i128::from(u32::MAX) + 1, i128::MAX] {
            assert_eq!(Budget::checked_depth(d), Err(BudgetError::Depth(d)));
        }
        for n in [0, -1, 1_000_000_001, u64::MAX.into(), i128::MIN] {
            assert_eq!(Budget::checked_nodes(n), Err(BudgetError::Nodes(n)));
        }
        for t in [0.0, -0.5, 86_400.001, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(Budget::checked_time(t), Err(BudgetError::Time(t)));
        }
        assert!(matches!(
            Budget::checked_time(f64::NAN),
            Err(BudgetError::Time(t)) if t.is_nan()
        ));
        // Whole milliseconds stay exact through seconds.
        for ms in [1u64, 3, 7, 250, 999, 86_399_999, 86_400_000] {
            let b = Budget::checked_time(ms as f64 / 1000.0).unwrap();
            assert_eq!(b, Budget::Time(Duration::from_millis(ms)), "{ms} ms");
        }
    }

    #[test]
    fn at_most_one_and_the_messages() {
        assert_eq!(Budget::checked(None, None, None), Ok(None));
        for (d, n, t) in [
            (Some(1), Some(1), None),
            (Some(1), None, Some(1.0)),
            (None, Some(1), Some(1.0)),
            (Some(1), Some(1), Some(1.0)),
            (Some(0), Some(0), None),
        ] {
            assert_eq!(Budget::checked(d, n, t), Err(BudgetError::Several));
        }
        let text = |e: BudgetError| e.to_string();
        assert_eq!(
            text(BudgetError::Several),
            "give at most one budget: depth, nodes or time"
        );
        assert_eq!(
            text(BudgetError::Depth(0)),
            "a depth budget is at least 1 and at most 4294967295 plies, not 0"
        );
        assert_eq!(
            text(BudgetError::Nodes(0)),
            "a node budget is at least 1 and at most 1000000000 nodes, not 0"
        );
        assert_eq!(
            text(BudgetError::Time(-1.5)),
            "a time budget is more than 0 and at most 86400 seconds, not -1.5"
        );
    }

    #[test]
    fn text_goes_through_the_same_check() {
        assert_eq!("depth = 3".parse::<Budget>(), Ok(Budget::Depth(3)));
        assert_eq!("simulations=40".parse::<Budget>(), Ok(Budget::Nodes(40)));
        assert_eq!(
            "time=3ms".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_millis(3)))
        );
        assert_eq!(
            "nodes=0".parse::<Budget>(),
            Err(BudgetError::Nodes(0).to_string())
        );
        assert_eq!(
            "depth=4294967296".parse::<Budget>(),
            Err(BudgetError::Depth(4_294_967_296).to_string())
        );
        assert_eq!(
            "time=0s".parse::<Budget>(),
            Err(BudgetError::Time(0.0).to_string())
        );
        // Once an overflow panic in debug builds (n * 1000).
        assert!("time=18446744073709551615s".parse::<Budget>().is_err());
        for bad in ["depth", "depth=x", "time=5", "speed=3", "nodes=1e3"] {
            let e = bad.parse::<Budget>().unwrap_err();
            assert!(e.contains("is not a budget"), "{bad}: {e}");
        }
    }
}
