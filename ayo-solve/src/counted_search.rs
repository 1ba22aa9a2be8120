//! Exact search above the counted databases ([`crate::counted`]): alpha-beta
//! on (board, no-capture count) with a transposition table of bounds keyed
//! by both (a value depends on nothing else under a move limit), down to the
//! held layers, the core's end of game at the limit or with no legal move.
//! When a budget runs out first, [`CountedSolver::bounds`] says what the
//! search proved by then: bounds on the value, from probes to a growing
//! horizon.

use std::collections::HashMap;
use std::time::Instant;

use ayo_core::{Position, PITS};

use crate::counted::{counted_position, margin, CountedDatabase};
use crate::{child_view, seeds};

/// Exact search above counted databases: alpha-beta on (board, count), with
/// a transposition table of bounds keyed by both. Every line ends: the count
/// bounds the moves between captures, and the databases or the game's end
/// answer below.
pub struct CountedSolver {
    db: std::sync::Arc<CountedDatabase>,
    table: HashMap<u128, (i8, i8)>,
    nodes: u64,
    budget: Option<u64>,
    deadline: Option<Instant>,
}

/// Why a search gave no answer.
enum Stop {
    /// The node budget or the deadline ran out.
    OutOfBudget,
    /// A line reached the horizon of a probe of
    /// [`CountedSolver::board_bounds`] before its value was decided.
    Horizon,
}

/// No horizon: the search goes to the end of every line (each ply takes
/// one off, and no line comes near this many plies).
const NO_HORIZON: u32 = u32::MAX;

/// The table key of (board, count).
#[inline]
fn key(board: &[u8; PITS], count: u16) -> u128 {
    let mut k = u128::from(count);
    for &s in board {
        k = k << 8 | u128::from(s);
    }
    k
}

impl CountedSolver {
    /// A solver over `db`.
    pub fn new(db: impl Into<std::sync::Arc<CountedDatabase>>) -> CountedSolver {
        CountedSolver {
            db: db.into(),
            table: HashMap::new(),
            nodes: 0,
            budget: None,
            deadline: None,
        }
    }

    /// The databases.
    pub fn database(&self) -> &CountedDatabase {
        &self.db
    }

    /// Boards expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// Empties the transposition table.
    pub fn clear_table(&mut self) {
        self.table.clear();
    }

    /// Limits the next searches to `nodes` more expanded boards (`None`: no limit).
    pub fn set_budget(&mut self, nodes: Option<u64>) {
        self.budget = nodes.map(|n| self.nodes.saturating_add(n));
    }

    /// Stops the next searches at `deadline` (`None`: no deadline).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The exact value of `pos` for its mover (future captures minus the
    /// opponent's), or `None` when the budget ran out.
    pub fn value(&mut self, pos: &Position) -> Option<i32> {
        let board = pos.normalized().board();
        self.board_value(&board, pos.no_capture())
    }

    /// The exact value of `board` (South to move) after `count` capture-less
    /// moves, or `None` when the budget ran out.
    pub fn board_value(&mut self, board: &[u8; PITS], count: u16) -> Option<i32> {
        let n = seeds(board) as i32;
        self.search(board, count, -n - 1, n + 1, NO_HORIZON).ok()
    }

    /// Whether the value of `board` at `count` is at most `bound`, or
    /// `None` when the budget ran out.
    pub fn board_at_most(&mut self, board: &[u8; PITS], count: u16, bound: i32) -> Option<bool> {
        self.search(board, count, bound, bound + 1, NO_HORIZON)
            .ok()
            .map(|v| v <= bound)
    }

    /// What the search proves about the value of `pos` for its mover within
    /// the budget and deadline: `(lo, hi)` with `lo <= value <= hi`, equal
    /// when it is exact. See [`CountedSolver::board_bounds`].
    pub fn bounds(&mut self, pos: &Position) -> (i32, i32) {
        let board = pos.normalized().board();
        self.board_bounds(&board, pos.no_capture())
    }

    /// [`CountedSolver::bounds`] of `board` (South to move) after `count`
    /// capture-less moves: null-window probes, each closing one side in,
    /// from the trivial bounds `±seeds` (or the table's), searched to a
    /// horizon of plies that grows by one each round in which no probe
    /// proved anything. A line cut at the horizon proves nothing: a probe
    /// answers only when its answer holds whatever lies beyond (a move
    /// found good enough, or every move found too weak without reaching
    /// it), so its answer is as sound as a full search's; what finished
    /// subtrees proved stays in the table for the next probe. A probe near
    /// a proved bound is the easiest, so each side tests a step past its
    /// own bound, the step doubling after a proof and halving after a probe
    /// cut short. Ends when the bounds meet or the budget (or the deadline)
    /// is spent.
    pub fn board_bounds(&mut self, board: &[u8; PITS], count: u16) -> (i32, i32) {
        if let Some(v) = self.db.board_value(board, count) {
            return (v, v);
        }
        let n = seeds(board) as i32;
        let (mut lo, mut hi) = self
            .table
            .get(&key(board, count))
            .map_or((-n, n), |&(l, h)| (i32::from(l), i32::from(h)));
        // Each side's step past its bound: `[raise lo, lower hi]`.
        let mut steps = [1i32; 2];
        let mut horizon = 1;
        while lo < hi {
            let mut proved = false;
            for (side, step) in steps.iter_mut().enumerate() {
                if lo >= hi {
                    break;
                }
                let by = (*step).min(hi - lo);
                // Whether the value is at most `t`: `lo + by - 1` to raise
                // `lo` by `by`, `hi - by` to lower `hi` by `by`.
                let t = if side == 0 { lo + by - 1 } else { hi - by };
                match self.search(board, count, t, t + 1, horizon) {
                    Ok(g) => {
                        if g <= t {
                            hi = hi.min(g);
                        } else {
                            lo = lo.max(g);
                        }
                        *step = step.saturating_mul(2);
                        proved = true;
                    }
                    Err(Stop::Horizon) => *step = (*step / 2).max(1),
                    Err(Stop::OutOfBudget) => return (lo, hi),
                }
            }
            if !proved {
                horizon += 1;
            }
        }
        (lo, hi)
    }

    /// Records the bounds `lo..=hi` of the board with key `k`. A table that
    /// cannot grow (out of memory) is emptied and its memory given back
    /// rather than aborting: it is only a cache, the search stays exact.
    fn store(&mut self, k: u128, lo: i32, hi: i32) {
        if self.table.try_reserve(1).is_err() {
            self.table = HashMap::new();
        }
        self.table.insert(k, (lo as i8, hi as i8));
    }

    /// Fail-soft alpha-beta: the value if inside `(alpha, beta)`, else a bound
    /// on the right side; [`Stop::Horizon`] when a line still open after
    /// `horizon` more plies left the answer undecided ([`NO_HORIZON`]: never,
    /// as no line is that long).
    fn search(
        &mut self,
        board: &[u8; PITS],
        count: u16,
        mut alpha: i32,
        beta: i32,
        horizon: u32,
    ) -> Result<i32, Stop> {
        if let Some(v) = self.db.board_value(board, count) {
            return Ok(v);
        }
        let k = key(board, count);
        let (mut lo, mut hi) = match self.table.get(&k) {
            Some(&(l, h)) => (i32::from(l), i32::from(h)),
            None => {
                let n = seeds(board) as i32;
                (-n, n)
            }
        };
        if lo == hi || lo >= beta {
            return Ok(lo);
        }
        if hi <= alpha {
            return Ok(hi);
        }
        if self.budget.is_some_and(|b| self.nodes >= b)
            || (self.nodes.is_multiple_of(1024)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(Stop::OutOfBudget);
        }
        self.nodes += 1;
        let rules = *self.db.rules();
        let pos = counted_position(board, count);
        let over_by_count = count >= self.db.limit();
        let children = if over_by_count {
            Default::default()
        } else {
            pos.children(&rules)
        };
        if children.is_empty() {
            let o = pos.outcome(&rules).expect("the game is over");
            let v = margin(&o);
            self.store(k, v, v);
            return Ok(v);
        }
        if horizon == 0 {
            return Err(Stop::Horizon);
        }
        // Captures first, the larger first.
        let mut order: Vec<(i32, [u8; PITS], u16)> = children
            .iter()
            .map(|(_, c)| {
                let (gain, nb) = child_view(c);
                (gain, nb, c.no_capture())
            })
            .collect();
        order.sort_by_key(|&(gain, _, c)| (c != 0, -gain));
        let alpha0 = alpha;
        let mut best = i32::MIN;
        // A move cut at the horizon: without a move good enough, no answer.
        let mut cut = false;
        for (gain, nb, c) in order {
            let v = match self.search(&nb, c, gain - beta, gain - alpha, horizon.saturating_sub(1))
            {
                Ok(cv) => gain - cv,
                Err(Stop::Horizon) => {
                    cut = true;
                    continue;
                }
                Err(stop) => return Err(stop),
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if cut && best < beta {
            return Err(Stop::Horizon);
        }
        if best <= alpha0 {
            hi = hi.min(best);
        } else if best >= beta {
            lo = lo.max(best);
        } else {
            lo = best;
            hi = best;
        }
        self.store(k, lo, hi);
        Ok(best)
    }
}
