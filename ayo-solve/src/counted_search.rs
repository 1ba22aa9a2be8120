//! Exact search above the counted databases ([`crate::counted`]): alpha-beta
//! on (board, no-capture count) with a transposition table of bounds keyed
//! by both (a value depends on nothing else under a move limit), down to the
//! held layers, the core's end of game at the limit or with no legal move.

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

/// The search ran out of its budget.
struct OutOfBudget;

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
        self.search(board, count, -n - 1, n + 1).ok()
    }

    /// Whether the value of `board` at `count` is at most `bound`, or
    /// `None` when the budget ran out.
    pub fn board_at_most(&mut self, board: &[u8; PITS], count: u16, bound: i32) -> Option<bool> {
        self.search(board, count, bound, bound + 1)
            .ok()
            .map(|v| v <= bound)
    }

    /// Fail-soft alpha-beta: the value if inside `(alpha, beta)`, else a bound
    /// on the right side.
    fn search(
        &mut self,
        board: &[u8; PITS],
        count: u16,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, OutOfBudget> {
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
            return Err(OutOfBudget);
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
            self.table.insert(k, (v as i8, v as i8));
            return Ok(v);
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
        for (gain, nb, c) in order {
            let v = gain - self.search(&nb, c, gain - beta, gain - alpha)?;
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
        if best <= alpha0 {
            hi = hi.min(best);
        } else if best >= beta {
            lo = lo.max(best);
        } else {
            lo = best;
            hi = best;
        }
        self.table.insert(k, (lo as i8, hi as i8));
        Ok(best)
    }
}
