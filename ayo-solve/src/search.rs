//! Exact search above the databases: MTD(f) over an alpha-beta search with a
//! transposition table, reading the databases wherever a move brings the
//! board down to a held layer.
//!
//! Play that comes back to a board already on the current search path (a
//! cycle without capture above the databases) is scored by the same
//! convention as in the databases: each player takes the seeds on their own
//! side, here at the repeated board, as the repetition rule would. Such
//! scores depend on the path, so the search counts them
//! ([`SearchStats::repetitions`]) and never stores a result that one of them
//! took part in (the graph-history interaction). A result found with no
//! repetition and no database read of a board whose bounds differ
//! ([`SearchStats::db_open_reads`]) is exact whatever endless play is worth;
//! otherwise [`Endless::RootWorst`] and [`Endless::RootBest`] bracket it.
//! Each table entry remembers whether such a read or repetition took part in
//! it, so that [`Solver::depends_on_endless`] tells, after each call, whether
//! its answer could (it errs only on the side of saying so).
//! Boards whose database value does not depend on endless play get the same
//! value from the search: the side that can force it by play that ends never
//! has to repeat.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use ayo_core::{Move, Position, PITS};

use crate::index::rank;
use crate::threads::on_search_thread;
use crate::{child_view, own_side_split, seeds, south_position, stuck_value, Database, DbError};

/// Counters of a [`Solver`]'s work since it was made (or [`Solver::reset_stats`]).
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

#[derive(Clone, Copy, Debug)]
struct Entry {
    lo: i8,
    hi: i8,
    best: u8,
    /// A database read of an open board or a repetition took part in one of
    /// the bounds: they may depend on how endless play is scored.
    open: bool,
}

/// Ran out of node budget.
struct OutOfBudget;

/// Exact values and best moves from the databases plus search.
#[derive(Debug)]
pub struct Solver {
    db: Arc<Database>,
    tt: HashMap<u128, Entry>,
    stats: SearchStats,
    budget: Option<u64>,
    deadline: Option<Instant>,
    path: Vec<u128>,
    tainted: bool,
    /// The current call has read an open board, scored a repetition or used
    /// a table entry that did.
    open: bool,
    endless: Endless,
}

fn key(board: &[u8; PITS]) -> u128 {
    let mut k = 0u128;
    for (i, &b) in board.iter().enumerate() {
        k |= u128::from(b) << (8 * i);
    }
    k
}

impl Solver {
    /// A solver over `db` (owned, or shared with other solvers through an
    /// [`Arc`]), with no node budget.
    pub fn new(db: impl Into<Arc<Database>>) -> Solver {
        Solver {
            db: db.into(),
            tt: HashMap::new(),
            stats: SearchStats::default(),
            budget: None,
            deadline: None,
            path: Vec::new(),
            tainted: false,
            open: false,
            endless: Endless::Convention,
        }
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
    /// table: its entries depend on it).
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

    /// The databases' value of `board`, if held, counted. Under
    /// [`Endless::RootWorst`] / [`Endless::RootBest`] a board whose value
    /// depends on endless play (in its layer or below, `lo < hi`) gives the
    /// bound that is worst / best for the root's mover: `lo` when its mover
    /// is the root's mover, else `hi` (and the other way round).
    fn db_read(&mut self, board: &[u8; PITS], root_side: bool) -> Option<i32> {
        let layer = self.db.layers().get(seeds(board))?;
        let (v, lo, hi) = layer.entry(rank(board));
        let (v, lo, hi) = (i32::from(v), i32::from(lo), i32::from(hi));
        self.stats.db_reads += 1;
        if lo < hi {
            self.stats.db_open_reads += 1;
            self.open = true;
        }
        Some(match (self.endless, root_side) {
            (Endless::Convention, _) => v,
            (Endless::RootWorst, true) | (Endless::RootBest, false) => lo,
            (Endless::RootWorst, false) | (Endless::RootBest, true) => hi,
        })
    }

    /// The databases.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// The databases, shared.
    pub fn shared_database(&self) -> Arc<Database> {
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

    /// Clears the counters (the transposition table is kept).
    pub fn reset_stats(&mut self) {
        self.stats = SearchStats::default();
    }

    /// Whether the answer of the last [`Solver::value`],
    /// [`Solver::board_value`] or [`Solver::board_at_most`] may depend on how
    /// endless play is scored: some line under it read a database board whose
    /// bounds differ (`lo < hi`), scored a repetition on its path, or used a
    /// table entry that did. `false` means the answer holds whatever endless
    /// play is worth (it is the game's value, or bound, with best play).
    pub fn depends_on_endless(&self) -> bool {
        self.open
    }

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// The exact value of `pos` for the player to move: the seeds now on the
    /// board that they will still capture minus those the opponent will, with
    /// best play to the end. `Ok(None)` if the node budget ran out;
    /// [`DbError::OutOfMemory`] if the search thread cannot be started.
    pub fn value(&mut self, pos: &Position) -> Result<Option<i32>, DbError> {
        let board = pos.normalized().board();
        self.board_value(&board)
    }

    /// [`Solver::value`] of `board` with South to move.
    pub fn board_value(&mut self, board: &[u8; PITS]) -> Result<Option<i32>, DbError> {
        self.open = false;
        if let Some(v) = self.db_read(board, true) {
            return Ok(Some(v));
        }
        let board = *board;
        on_search_thread(self, |s| s.mtdf(&board))
    }

    /// Whether the value of `board` (South to move) is at most `t`: one
    /// null-window search, usually much cheaper than the exact value.
    /// `Ok(None)` if the node budget ran out.
    pub fn board_at_most(&mut self, board: &[u8; PITS], t: i32) -> Result<Option<bool>, DbError> {
        self.open = false;
        if let Some(v) = self.db_read(board, true) {
            return Ok(Some(v <= t));
        }
        let board = *board;
        on_search_thread(self, |s| {
            let start = s.stats.nodes;
            s.stats.probes += 1;
            s.path.clear();
            s.tainted = false;
            match s.search(&board, t, t + 1, true, start) {
                Ok(g) => Some(g <= t),
                Err(OutOfBudget) => None,
            }
        })
    }

    /// MTD(f): null-window searches closing in on the exact value.
    fn mtdf(&mut self, board: &[u8; PITS]) -> Option<i32> {
        let start = self.stats.nodes;
        let n = seeds(board) as i32;
        let (mut lo, mut hi) = (-n, n);
        let mut g = self
            .tt
            .get(&key(board))
            .map_or(0, |e| i32::from(e.lo).max(-n));
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            self.stats.probes += 1;
            self.path.clear();
            self.tainted = false;
            g = match self.search(board, beta - 1, beta, true, start) {
                Ok(v) => v,
                Err(OutOfBudget) => return None,
            };
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        Some(g)
    }

    /// The best move of `pos` and its exact value (`Ok(None)` if there is no
    /// legal move or the node budget ran out). Ties go to the lowest pit.
    pub fn best_move(&mut self, pos: &Position) -> Result<Option<(Move, i32)>, DbError> {
        let norm = pos.normalized();
        let rules = *self.db.rules();
        let mut best: Option<(u8, i32)> = None;
        for (mv, child) in norm.children(&rules) {
            let (gain, nb) = child_view(&south_child(&norm, &child));
            let Some(rest) = self.board_value(&nb)? else {
                return Ok(None);
            };
            let v = gain - rest;
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((mv.action(), v));
            }
        }
        Ok(best.and_then(|(action, v)| Some((pos.move_for_action(action).ok()?, v))))
    }

    /// Exact values of every legal move of `pos` (mover-relative action, value).
    pub fn move_values(&mut self, pos: &Position) -> Result<Option<Vec<(Move, i32)>>, DbError> {
        let norm = pos.normalized();
        let rules = *self.db.rules();
        let mut out = Vec::new();
        for (mv, child) in norm.children(&rules) {
            let (gain, nb) = child_view(&south_child(&norm, &child));
            let Some(rest) = self.board_value(&nb)? else {
                return Ok(None);
            };
            let Ok(m) = pos.move_for_action(mv.action()) else {
                return Ok(None);
            };
            out.push((m, gain - rest));
        }
        Ok(Some(out))
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

    fn search(
        &mut self,
        board: &[u8; PITS],
        mut alpha: i32,
        mut beta: i32,
        root_side: bool,
        start: u64,
    ) -> Result<i32, OutOfBudget> {
        if let Some(v) = self.db_read(board, root_side) {
            return Ok(v);
        }
        let mut k = key(board);
        if self.endless != Endless::Convention && root_side {
            k |= 1u128 << 127;
        }
        if self.path.contains(&k) {
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
        self.stats.nodes += 1;
        if let Some(b) = self.budget {
            if self.stats.nodes - start > b {
                return Err(OutOfBudget);
            }
        }
        // Reading the clock costs more than a node: look every 1,024 nodes.
        if let Some(d) = self.deadline {
            if self.stats.nodes.is_multiple_of(1024) && Instant::now() >= d {
                return Err(OutOfBudget);
            }
        }
        let rules = *self.db.rules();
        let children = south_position(board).children(&rules);
        if children.is_empty() {
            let v = stuck_value(&rules, board);
            self.table_room();
            self.tt.insert(
                k,
                Entry {
                    lo: v as i8,
                    hi: v as i8,
                    best: u8::MAX,
                    open: false,
                },
            );
            return Ok(v);
        }
        // Order: the table's best move, then larger gains first.
        let mut order: Vec<(i32, u8, i32, [u8; PITS])> = children
            .iter()
            .map(|(mv, c)| {
                let (gain, nb) = child_view(c);
                let pri = if mv.action() == first { 1000 } else { gain };
                (pri, mv.action(), gain, nb)
            })
            .collect();
        order.sort_by_key(|o| std::cmp::Reverse(o.0));
        self.path.push(k);
        // Whether a repetition on the path scored part of this subtree: such
        // a result depends on the path, so it is not stored.
        let outer_taint = std::mem::replace(&mut self.tainted, false);
        // Likewise whether this subtree depends on endless play, for its entry.
        let outer_open = std::mem::replace(&mut self.open, false);
        let mut best = i32::MIN;
        let mut best_mv = u8::MAX;
        for (_, action, gain, nb) in order {
            let v = match self.search(&nb, gain - beta, gain - alpha, !root_side, start) {
                Ok(cv) => gain - cv,
                Err(e) => {
                    self.path.pop();
                    return Err(e);
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
        if tainted {
            self.stats.tainted += 1;
            return Ok(best);
        }
        let n = seeds(board) as i32;
        self.table_room();
        let e = self.tt.entry(k).or_insert(Entry {
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

/// `child` as reached from the South-to-move `norm`, with the stores reset so
/// that [`child_view`] reads the gain of this move alone.
fn south_child(norm: &Position, child: &Position) -> Position {
    let mut s = child.to_setup();
    let before = norm.stores();
    s.stores = [s.stores[0] - before[0], s.stores[1] - before[1]];
    Position::from_setup_unchecked(&s)
}
