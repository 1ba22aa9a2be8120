//! Exact search above either kind of databases ([`Tablebase`]): MTD(f) over
//! an alpha-beta search with a transposition table, reading the databases
//! wherever a move brings the board down to a held layer ([`crate::Solver`]
//! over the board-only ones, [`crate::CountedSolver`] over the counted ones). A node is a
//! board with South to move and, under a move limit, its no-capture count
//! (the counted databases' values depend on it; the game ends at the limit).
//! When a budget runs out first, [`Search::bounds`] says what the search
//! proved by then: bounds on the value, from probes to a growing horizon.
//!
//! Without a move limit, play that comes back to a board already on the
//! current search path (a cycle without capture above the databases) is scored by the same
//! convention as in the databases: each player takes the seeds on their own
//! side, here at the repeated board, as the repetition rule would. Such
//! scores depend on the path, so the search counts them
//! ([`SearchStats::repetitions`]) and never stores a result that one of them
//! took part in (the graph-history interaction). A result found with no
//! repetition and no database read of a board whose bounds differ
//! ([`SearchStats::db_open_reads`]) is exact whatever endless play is worth;
//! otherwise [`Endless::RootWorst`] and [`Endless::RootBest`] bracket it.
//! Each table entry remembers whether such a read or repetition took part in
//! it, so that [`Search::depends_on_endless`] tells, after each call, whether
//! its answer could (it errs only on the side of saying so). Under a move
//! limit no line comes back (the count grows until a capture takes seeds
//! off the board) and every value is exact.
//! Boards whose database value does not depend on endless play get the same
//! value from the search: the side that can force it by play that ends never
//! has to repeat.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use ayo_core::{EndReason, Move, Position, PITS};

use crate::tablebase::Tablebase;
use crate::threads::on_search_thread;
use crate::{child_view, counted_position, own_side_split, seeds, DbError};

/// Counters of a [`Search`]'s work since it was made (or [`Search::reset_stats`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Boards expanded (move generation run) above the databases.
    pub nodes: u64,
    /// Values read from the databases.
    pub db_reads: u64,
    /// Of those, values that depend on how endless play is scored (bounds
    /// `lo < hi`, in the board's layer or below).
    pub db_open_reads: u64,
    /// Transposition-table cutoffs.
    pub tt_hits: u64,
    /// Boards scored by the repetition convention on the search path.
    pub repetitions: u64,
    /// Results not stored because a repetition on the path scored part of them.
    pub tainted: u64,
    /// Null-window searches run by MTD(f).
    pub probes: u64,
    /// Times the transposition table could not grow (out of memory) and was
    /// emptied instead.
    pub table_drops: u64,
}

/// How the search scores play that never ends: a board repeated on the
/// search path, and database values that depend on it (`lo < hi`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Endless {
    /// The convention: each player takes the seeds on their own side (at
    /// the repeated board), and the databases' values as stored (the same
    /// convention).
    #[default]
    Convention,
    /// As the worst possible result for the player to move at the root
    /// (at a repeated board all its seeds to the opponent; a database board
    /// at its bound worst for the root's mover). A value found this way is
    /// a lower bound whatever endless play is worth.
    RootWorst,
    /// As the best possible result for the player to move at the root.
    /// With [`Endless::RootWorst`], brackets the value under every convention.
    RootBest,
}

/// A table entry: bounds on the value of a node, its best move, and whether
/// a database read of an open board or a repetition took part in the bounds
/// (they may depend on how endless play is scored).
#[derive(Clone, Copy, Debug)]
struct Slot {
    lo: i8,
    hi: i8,
    best: u8,
    open: bool,
}

/// Why a search gave no answer.
enum Stop {
    /// The node budget or the deadline ran out.
    OutOfBudget,
    /// A line reached the horizon of a probe of [`Search::board_bounds`]
    /// before its value was decided.
    Horizon,
}

/// No horizon: the search goes to the end of every line (each ply takes
/// one off, and no line comes near this many plies).
const NO_HORIZON: u32 = u32::MAX;

/// Exact values and best moves from the databases of kind `T` plus search.
/// See the [module](self) docs.
#[derive(Debug)]
pub struct Search<T: Tablebase> {
    db: Arc<T>,
    tt: HashMap<u128, Slot>,
    stats: SearchStats,
    /// The node budget of each call.
    budget: Option<u64>,
    /// The node count at which the current call stops.
    end: Option<u64>,
    deadline: Option<Instant>,
    /// The move limit of the databases' rules: nodes carry their count.
    limit: Option<u16>,
    path: Vec<u128>,
    tainted: bool,
    /// The current call has read an open board, scored a repetition or used
    /// a table entry that did.
    open: bool,
    endless: Endless,
}

/// A node of the search: a board with South to move, and its no-capture
/// count where values depend on it (under a move limit; 0 elsewhere).
pub type Node = ([u8; PITS], u16);

/// The table key of (board, count): one byte a pit, then the count (the
/// top byte stays free for the endless-play mark).
#[inline]
fn key(board: &[u8; PITS], count: u16) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..PITS].copy_from_slice(board);
    bytes[PITS..PITS + 2].copy_from_slice(&count.to_le_bytes());
    u128::from_le_bytes(bytes)
}

impl<T: Tablebase> Search<T> {
    /// A search over `db` (owned, or shared with other searches through an
    /// [`Arc`]), with no node budget.
    pub fn new(db: impl Into<Arc<T>>) -> Search<T> {
        let db = db.into();
        Search {
            limit: db.rules().move_limit(),
            db,
            tt: HashMap::new(),
            stats: SearchStats::default(),
            budget: None,
            end: None,
            deadline: None,
            path: Vec::new(),
            tainted: false,
            open: false,
            endless: Endless::Convention,
        }
    }

    /// [`Search::new`] over shared databases.
    pub fn over(db: Arc<T>) -> Search<T> {
        Search::new(db)
    }

    /// Limits each call to `nodes` expanded boards (`None`: no limit); a call
    /// that would need more answers `None`.
    pub fn set_budget(&mut self, nodes: Option<u64>) {
        self.budget = nodes;
    }

    /// Stops each call at `deadline` (`None`: no deadline); a call still
    /// searching then answers `None`, like an exhausted node budget.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Sets how play that never ends is scored (clears the transposition
    /// table: its entries depend on it). Nothing changes under a move limit,
    /// where play always ends.
    pub fn set_endless(&mut self, endless: Endless) {
        if endless != self.endless {
            self.tt.clear();
        }
        self.endless = endless;
    }

    /// The endless-play scoring in force.
    pub fn endless(&self) -> Endless {
        self.endless
    }

    /// The databases.
    pub fn database(&self) -> &T {
        &self.db
    }

    /// The databases, shared.
    pub fn shared_database(&self) -> Arc<T> {
        Arc::clone(&self.db)
    }

    /// Empties the transposition table (its memory grows with every search).
    pub fn clear_table(&mut self) {
        self.tt.clear();
    }

    /// The work done so far.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// Boards expanded so far, over every call.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes
    }

    /// Clears the counters (the transposition table is kept).
    pub fn reset_stats(&mut self) {
        self.stats = SearchStats::default();
    }

    /// Whether the answer of the last call may depend on how endless play is
    /// scored: some line under it read a database board whose bounds differ
    /// (`lo < hi`), scored a repetition on its path, or used a table entry
    /// that did. `false` means the answer holds whatever endless play is
    /// worth (it is the game's value, or bound, with best play).
    pub fn depends_on_endless(&self) -> bool {
        self.open
    }

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// The node of `pos`: its board turned so that its mover sits South, and
    /// its no-capture count where values depend on it (0 elsewhere).
    #[inline]
    pub fn node(&self, pos: &Position) -> Node {
        let count = if self.limit.is_some() {
            pos.no_capture()
        } else {
            0
        };
        (pos.normalized().board(), count)
    }

    /// The exact value of `pos` for the player to move (the seeds now on the
    /// board that they will still capture minus those the opponent will, with
    /// best play to the end) within `nodes` expanded boards (`None`: no
    /// limit, and the budget of the next calls); `Ok(None)` when they run
    /// out, [`DbError::OutOfMemory`] if the search thread cannot be started.
    pub fn value_within(
        &mut self,
        pos: &Position,
        nodes: Option<u64>,
    ) -> Result<Option<i32>, DbError> {
        self.set_budget(nodes);
        let (board, count) = self.node(pos);
        self.node_value(&board, count)
    }

    /// The exact value of `board` (South to move) after `count` capture-less
    /// moves, within the budget: the databases' if held, else MTD(f).
    pub fn node_value(&mut self, board: &[u8; PITS], count: u16) -> Result<Option<i32>, DbError> {
        self.start_call();
        self.exact(board, count)
    }

    /// Whether the value of `board` at `count` is at most `t`: one
    /// null-window search, usually much cheaper than the exact value.
    /// `Ok(None)` if the budget ran out.
    pub fn node_at_most(
        &mut self,
        board: &[u8; PITS],
        count: u16,
        t: i32,
    ) -> Result<Option<bool>, DbError> {
        self.start_call();
        if let Some(v) = self.db_read(board, count, true) {
            return Ok(Some(v <= t));
        }
        let board = *board;
        self.deep(|s| {
            s.stats.probes += 1;
            s.path.clear();
            s.tainted = false;
            s.search(&board, count, t, t + 1, true, NO_HORIZON)
                .ok()
                .map(|g| g <= t)
        })
    }

    /// Exact values of every legal move of `pos` (the action, relative to
    /// the player to move, and the mover's captures from now on minus the
    /// opponent's, this move's included), all within the budget; `Ok(None)`
    /// when it runs out.
    pub fn move_values(&mut self, pos: &Position) -> Result<Option<Vec<(Move, i32)>>, DbError> {
        self.start_call();
        let rules = *self.db.rules();
        let me = pos.to_move();
        let mut out = Vec::new();
        for (mv, child) in pos.children(&rules).iter() {
            let gain = child.margin(me) - pos.margin(me);
            let (board, count) = self.node(child);
            let Some(rest) = self.exact(&board, count)? else {
                return Ok(None);
            };
            out.push((*mv, gain - rest));
        }
        Ok(Some(out))
    }

    /// The best move of `pos` and its exact value (`Ok(None)` if there is no
    /// legal move or the budget ran out). Ties go to the lowest pit.
    pub fn best_move(&mut self, pos: &Position) -> Result<Option<(Move, i32)>, DbError> {
        let Some(moves) = self.move_values(pos)? else {
            return Ok(None);
        };
        Ok(moves.into_iter().fold(None, |best, (mv, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((mv, v)),
        }))
    }

    /// What the search proves about the value of `pos` for its mover within
    /// the budget and deadline: `(lo, hi)` with `lo <= value <= hi`, equal
    /// when it is exact. See [`Search::board_bounds`].
    pub fn bounds(&mut self, pos: &Position) -> (i32, i32) {
        let (board, count) = self.node(pos);
        self.board_bounds(&board, count)
    }

    /// [`Search::bounds`] of `board` (South to move) after `count`
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
        self.start_call();
        if let Some(v) = self.db_read(board, count, true) {
            return (v, v);
        }
        let n = seeds(board) as i32;
        let (mut lo, mut hi) = self
            .tt
            .get(&key(board, count))
            .map_or((-n, n), |e| (i32::from(e.lo), i32::from(e.hi)));
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
                self.stats.probes += 1;
                self.path.clear();
                self.tainted = false;
                match self.search(board, count, t, t + 1, true, horizon) {
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

    /// Starts a call: its node budget from now, and no open read yet.
    fn start_call(&mut self) {
        self.end = self.budget.map(|b| self.stats.nodes.saturating_add(b));
        self.open = false;
    }

    /// The exact value of a node within the current call's budget.
    fn exact(&mut self, board: &[u8; PITS], count: u16) -> Result<Option<i32>, DbError> {
        if let Some(v) = self.db_read(board, count, true) {
            return Ok(Some(v));
        }
        let board = *board;
        self.deep(|s| s.mtdf(&board, count))
    }

    /// Runs `f`, a search: on a search thread with a large stack without a
    /// move limit, where a line without captures can run hundreds of plies
    /// deep; on this thread under a move limit, which cuts such a line at the
    /// limit (sparing a thread per call).
    fn deep<R: Send>(&mut self, f: impl FnOnce(&mut Self) -> R + Send) -> Result<R, DbError> {
        if self.limit.is_some() {
            Ok(f(self))
        } else {
            on_search_thread(self, f)
        }
    }

    /// The score of endless play at `board` for its mover, who is the root's
    /// mover when `root_side`; `convention` is the conventional score.
    fn endless_score(&self, board: &[u8; PITS], root_side: bool, convention: i32) -> i32 {
        let n = seeds(board) as i32;
        match (self.endless, root_side) {
            (Endless::Convention, _) => convention,
            (Endless::RootWorst, true) | (Endless::RootBest, false) => -n,
            (Endless::RootWorst, false) | (Endless::RootBest, true) => n,
        }
    }

    /// The databases' value of a node, if held, counted. Under
    /// [`Endless::RootWorst`] / [`Endless::RootBest`] a board whose value
    /// depends on endless play (in its layer or below, `lo < hi`) gives the
    /// bound that is worst / best for the root's mover: `lo` when its mover
    /// is the root's mover, else `hi` (and the other way round).
    #[inline]
    fn db_read(&mut self, board: &[u8; PITS], count: u16, root_side: bool) -> Option<i32> {
        let e = self.db.held(board, count)?;
        self.stats.db_reads += 1;
        if e.lo < e.hi {
            self.stats.db_open_reads += 1;
            self.open = true;
        }
        Some(match (self.endless, root_side) {
            (Endless::Convention, _) => e.value,
            (Endless::RootWorst, true) | (Endless::RootBest, false) => e.lo,
            (Endless::RootWorst, false) | (Endless::RootBest, true) => e.hi,
        })
    }

    /// MTD(f): null-window searches closing in on the exact value.
    fn mtdf(&mut self, board: &[u8; PITS], count: u16) -> Option<i32> {
        let n = seeds(board) as i32;
        let (mut lo, mut hi) = (-n, n);
        let mut g = self
            .tt
            .get(&key(board, count))
            .map_or(0, |e| i32::from(e.lo).max(-n));
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            self.stats.probes += 1;
            self.path.clear();
            self.tainted = false;
            g = self
                .search(board, count, beta - 1, beta, true, NO_HORIZON)
                .ok()?;
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        Some(g)
    }

    /// Makes room for one more table entry without aborting when memory runs
    /// out: a table that cannot grow is emptied and its memory given back
    /// (it is only a cache: the search stays exact, it just repeats work).
    fn table_room(&mut self) {
        if self.tt.try_reserve(1).is_err() {
            self.tt = HashMap::new();
            self.stats.table_drops += 1;
        }
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
        mut beta: i32,
        root_side: bool,
        horizon: u32,
    ) -> Result<i32, Stop> {
        if let Some(v) = self.db_read(board, count, root_side) {
            return Ok(v);
        }
        let mut k = key(board, count);
        if self.endless != Endless::Convention && root_side {
            k |= 1u128 << 127;
        }
        // Under a move limit no line comes back: the scan is skipped.
        if self.limit.is_none() && self.path.contains(&k) {
            self.stats.repetitions += 1;
            self.tainted = true;
            self.open = true;
            return Ok(self.endless_score(board, root_side, own_side_split(board)));
        }
        let (alpha0, beta0) = (alpha, beta);
        // The table's best action, or u8::MAX (no action) when the board is new:
        // a sentinel rather than an `Option`, whose `None` payload optimised
        // comparisons read (valgrind reports that as uninitialised).
        let mut first = u8::MAX;
        if let Some(e) = self.tt.get(&k) {
            let (lo, hi) = (i32::from(e.lo), i32::from(e.hi));
            // The entry's bounds narrow or decide this result either way.
            self.open |= e.open;
            if lo >= beta || hi <= alpha || lo == hi {
                self.stats.tt_hits += 1;
                return Ok(if lo >= beta { lo } else { hi });
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            first = e.best;
        }
        // Reading the clock costs more than a node: look every 1,024 nodes.
        if self.end.is_some_and(|e| self.stats.nodes >= e)
            || (self.stats.nodes.is_multiple_of(1024)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(Stop::OutOfBudget);
        }
        self.stats.nodes += 1;
        let rules = *self.db.rules();
        let pos = counted_position(board, count);
        let at_limit = self.limit.is_some_and(|l| count >= l);
        let children = if at_limit {
            Default::default()
        } else {
            pos.children(&rules)
        };
        if children.is_empty() {
            let reason = if at_limit {
                EndReason::MoveLimit
            } else {
                EndReason::NoLegalMove
            };
            let o = pos.final_outcome(&rules, reason);
            let v = i32::from(o.scores[0]) - i32::from(o.scores[1]);
            self.table_room();
            self.tt.insert(
                k,
                Slot {
                    lo: v as i8,
                    hi: v as i8,
                    best: u8::MAX,
                    open: false,
                },
            );
            return Ok(v);
        }
        if horizon == 0 {
            return Err(Stop::Horizon);
        }
        // Order: the table's best move, then captures, the larger first
        // (one sort key: the gains lie within ±48).
        let counted = self.limit.is_some();
        let mut order: Vec<(i32, u8, i32, [u8; PITS], u16)> = children
            .iter()
            .map(|(mv, c)| {
                let (gain, nb) = child_view(c);
                let nc = c.no_capture();
                let action = mv.action();
                let rank = if action == first {
                    i32::MIN
                } else {
                    (i32::from(nc != 0) << 8) - gain
                };
                (rank, action, gain, nb, if counted { nc } else { 0 })
            })
            .collect();
        order.sort_by_key(|o| o.0);
        self.path.push(k);
        // Whether a repetition on the path scored part of this subtree: such
        // a result depends on the path, so it is not stored.
        let outer_taint = std::mem::replace(&mut self.tainted, false);
        // Likewise whether this subtree depends on endless play, for its entry.
        let outer_open = std::mem::replace(&mut self.open, false);
        let mut best = i32::MIN;
        let mut best_mv = u8::MAX;
        // A move cut at the horizon: without a move good enough, no answer.
        let mut cut = false;
        for (_, action, gain, nb, nc) in order {
            let next = horizon.saturating_sub(1);
            let v = match self.search(&nb, nc, gain - beta, gain - alpha, !root_side, next) {
                Ok(cv) => gain - cv,
                Err(Stop::Horizon) => {
                    cut = true;
                    continue;
                }
                Err(stop) => {
                    self.path.pop();
                    return Err(stop);
                }
            };
            if v > best {
                best = v;
                best_mv = action;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        let tainted = self.tainted;
        self.tainted |= outer_taint;
        let open = self.open;
        self.open |= outer_open;
        if cut && best < beta {
            return Err(Stop::Horizon);
        }
        if tainted {
            self.stats.tainted += 1;
            return Ok(best);
        }
        let n = seeds(board) as i32;
        self.table_room();
        let e = self.tt.entry(k).or_insert(Slot {
            lo: -n as i8,
            hi: n as i8,
            best: best_mv,
            open: false,
        });
        e.open |= open;
        if best <= alpha0 {
            e.hi = e.hi.min(best as i8);
        } else if best >= beta0 {
            e.lo = e.lo.max(best as i8);
        } else {
            e.lo = best as i8;
            e.hi = best as i8;
        }
        e.best = best_mv;
        Ok(best)
    }
}

/// The exact value of every legal move of `pos` ([`Search::move_values`])
/// within `nodes` expanded boards in all (`None`: no limit); `Ok(None)`
/// when they run out.
pub fn move_values<T: Tablebase>(
    db: Arc<T>,
    pos: &Position,
    nodes: Option<u64>,
) -> Result<Option<Vec<(Move, i32)>>, DbError> {
    let mut search = Search::over(db);
    search.set_budget(nodes);
    search.move_values(pos)
}
