//! Exact values under a repetition rule (`oware`): a game-tree search over
//! [`ayo_core::Game`], whose window of positions since the last capture ends
//! a game on a repeated position (each player taking their own row), down to
//! the board-only databases.
//!
//! Between captures a value depends on the path (the window decides which
//! position repeats), so it is searched, never stored. A capture starts a
//! fresh window, so the value after a capture depends on the board alone:
//! it is read from the databases where the board's bounds agree, and
//! otherwise searched from a fresh window and remembered.
//!
//! **Why a board whose bounds agree (`lo == hi`, [`Database::board_bounds`])
//! holds the game's value after a capture.** `lo` is the least fixpoint of
//! the board graph's max equations from `−n` (endless play counted as the
//! mover's worst). The side to move forces `lo` by a strategy that, inside a
//! layer, always moves to a board reached at an earlier iteration of that
//! fixpoint, and the opponent cannot take it back to a later one; so no
//! board on the line comes twice before the next capture, whose board starts
//! a fresh window one layer down, where the same holds. The line never meets
//! the repetition rule, and scores at least `lo` under it. The opponent forces
//! at most `hi` the same way. So a board with a fresh window is worth a value
//! in `[lo, hi]` under the repetition rule, exactly `lo` when they agree.
//! With a longer window (positions before the board since the last capture)
//! that strategy may meet a position of the window, so the bounds hold only
//! where no position of the window can come again: play can come back only
//! inside the strongly connected component of the capture-free move graph
//! ([`crate::components`]), and every position of the window leads to the
//! current one, so a move into a component that holds no position of the
//! window starts, in effect, a fresh window: its board's value is read or
//! remembered like a capture's. Inside a component the search follows the
//! window, and the bounds prune nothing there.
//!
//! No rule is re-implemented: moves, captures, repetitions and the end of
//! the game come from [`Game`]; the target is removed as for the databases
//! ([`crate::solve_rules`]; it never changes who wins).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use ayo_core::players::Proof;
use ayo_core::{Game, Move, Player, Position, Rules, PITS};

use crate::components::components;
use crate::index::{layer_size, rank};
use crate::threads::on_search_thread;
use crate::{seeds, solve_rules, south_position, Database, DbError};

/// The largest layer whose components are computed (boards): layers up to
/// 11 seeds. Above it every move is taken to be able to come back.
const COMPONENTS_MAX_BOARDS: u64 = 800_000;

/// Ran out of node budget or time.
struct OutOfBudget;

/// Counters of a [`RepetitionSearch`]'s work since it was made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepetitionStats {
    /// Positions expanded (move generation run).
    pub nodes: u64,
    /// Values read from the databases (boards whose bounds agree).
    pub db_reads: u64,
    /// Boards after a capture searched from a fresh window (their value
    /// then remembered).
    pub fresh_searches: u64,
    /// Moves without a capture into a component of the move graph that holds
    /// no position of the window, valued as fresh boards.
    pub component_exits: u64,
    /// Moves into a fresh board whose databases' bounds alone decided a cutoff.
    pub bound_cutoffs: u64,
}

/// The exact value of one legal move under the repetition rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactMove {
    /// The move.
    pub mv: Move,
    /// The mover's future captures minus the opponent's, this move included.
    pub value: i32,
    /// What the move captures now (mover minus opponent).
    pub gain: i32,
    /// [`Proof::Database`] for a move onto a board with a fresh window (a
    /// capture, or a move that can never come back to the window) whose
    /// value the databases hold exactly, else [`Proof::CompleteSearch`].
    pub proof: Proof,
}

/// Exact values under the repetition rule. See the [module](self) docs.
#[derive(Debug)]
pub struct RepetitionSearch {
    db: Arc<Database>,
    /// The values of boards (South to move) with a fresh window.
    fresh: HashMap<[u8; PITS], i8>,
    /// The components of each layer's capture-free move graph, by rank
    /// (`None`: too large a layer, or no memory for it).
    components: HashMap<usize, Option<Vec<u32>>>,
    stats: RepetitionStats,
    budget: Option<u64>,
    deadline: Option<Instant>,
    /// `stats.nodes` when the current call began.
    start: u64,
}

/// The stores' difference for `p`.
fn banked(pos: &Position, p: Player) -> i32 {
    i32::from(pos.store(p)) - i32::from(pos.store(p.opponent()))
}

impl RepetitionSearch {
    /// A search over `db` (owned, or shared through an [`Arc`]), with no
    /// budget. The databases' rules must have a repetition rule for the
    /// values to be the game's (without one every window is the same and
    /// the databases answer alone).
    pub fn new(db: impl Into<Arc<Database>>) -> RepetitionSearch {
        RepetitionSearch {
            db: db.into(),
            fresh: HashMap::new(),
            components: HashMap::new(),
            stats: RepetitionStats::default(),
            budget: None,
            deadline: None,
            start: 0,
        }
    }

    /// The databases.
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Limits each call to `nodes` expanded positions (`None`: no limit); a
    /// call that would need more answers `None`.
    pub fn set_budget(&mut self, nodes: Option<u64>) {
        self.budget = nodes;
    }

    /// A wall-clock deadline for every call until changed (`None`: none).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The work done so far.
    pub fn stats(&self) -> &RepetitionStats {
        &self.stats
    }

    /// Boards remembered with their fresh-window value.
    pub fn table_len(&self) -> usize {
        self.fresh.len()
    }

    /// Forgets the remembered values (their memory grows with every search).
    pub fn clear_table(&mut self) {
        self.fresh.clear();
    }

    /// The value of `board` (South to move) at the start of a window (after
    /// a capture, or as a game's first position): the seeds now on the board
    /// that South will still capture minus those North will, with best play
    /// under the repetition rule. `Ok(None)` when the budget ran out;
    /// [`DbError::OutOfMemory`] when the search thread cannot be started.
    pub fn board_value(&mut self, board: &[u8; PITS]) -> Result<Option<i32>, DbError> {
        self.start = self.stats.nodes;
        if let Some((lo, hi)) = self.db.board_bounds(board) {
            if lo == hi {
                self.stats.db_reads += 1;
                return Ok(Some(lo));
            }
        }
        let board = *board;
        on_search_thread(self, |s| s.fresh_value(&board).ok())
    }

    /// The exact value of every legal move of `game`'s position, its window
    /// (the positions since the last capture) deciding repetitions, in the
    /// order of [`Game::children`]. `Ok(None)` when the budget ran out or the
    /// game is over; [`DbError::UnsupportedRules`] when the game's rules are
    /// not the databases' (any target).
    pub fn move_values(&mut self, game: &Game) -> Result<Option<Vec<ExactMove>>, DbError> {
        let rules = *self.db.rules();
        if solve_rules(game.rules())? != rules {
            return Err(DbError::UnsupportedRules {
                why: format!(
                    "the game's rules are not those of the databases ({})",
                    self.db.key()
                ),
            });
        }
        if game.outcome().is_some() || game.children().is_empty() {
            return Ok(None);
        }
        self.start = self.stats.nodes;
        let game = window_game(rules, game);
        on_search_thread(self, |s| {
            let mut line = Line::new(s, game);
            s.root_moves(&mut line).ok()
        })
    }

    fn root_moves(&mut self, line: &mut Line) -> Result<Vec<ExactMove>, OutOfBudget> {
        let pos = *line.game.position();
        let me = pos.to_move();
        let mut out = Vec::with_capacity(line.game.children().len());
        for (mv, child) in line.game.children().to_vec() {
            let gain = banked(&child, me) - banked(&pos, me);
            let board = child.normalized().board();
            let (lo, hi, fresh) = if child.no_capture() == 0 {
                let (lo, hi) = self.fresh_bounds(&board);
                (lo, hi, true)
            } else {
                self.window_bounds(line, &child)
            };
            let (value, proof) = if fresh {
                let proof = if lo == hi {
                    Proof::Database
                } else {
                    Proof::CompleteSearch
                };
                (gain - self.fresh_value(&board)?, proof)
            } else {
                line.play(self, mv);
                let v = gain - self.exact(line, lo, hi, self.guess(&board))?;
                line.undo();
                (v, Proof::CompleteSearch)
            };
            out.push(ExactMove {
                mv,
                value,
                gain,
                proof,
            });
        }
        Ok(out)
    }

    /// The exact value of `board` with a fresh window: the databases' where
    /// its bounds agree, else remembered or searched within them.
    fn fresh_value(&mut self, board: &[u8; PITS]) -> Result<i32, OutOfBudget> {
        let (lo, hi) = self.fresh_bounds(board);
        if lo == hi {
            self.stats.db_reads += 1;
            return Ok(lo);
        }
        if let Some(&v) = self.fresh.get(board) {
            return Ok(i32::from(v));
        }
        self.stats.fresh_searches += 1;
        let game = Game::from_position(*self.db.rules(), south_position(board));
        let mut line = Line::new(self, game);
        // The value lies in [lo, hi] (module docs).
        let v = self.exact(&mut line, lo, hi, self.guess(board))?;
        if self.fresh.try_reserve(1).is_err() {
            // Only a cache: the search stays exact without it.
            self.fresh = HashMap::new();
        }
        self.fresh.insert(*board, v as i8);
        Ok(v)
    }

    /// Bounds on the value of `board` with a fresh window: the databases'
    /// where its layer is held, else every seed either way.
    fn fresh_bounds(&self, board: &[u8; PITS]) -> (i32, i32) {
        self.db.board_bounds(board).unwrap_or_else(|| {
            let n = seeds(board) as i32;
            (-n, n)
        })
    }

    /// A first guess at the value of `board`: the databases' (the
    /// convention's, usually right), else 0.
    fn guess(&self, board: &[u8; PITS]) -> i32 {
        self.db.board_value(board).unwrap_or(0)
    }

    /// The exact value of `line`'s position, known to lie in `lo..=hi`:
    /// MTD(f) from `guess`, null-window searches closing in on it.
    fn exact(
        &mut self,
        line: &mut Line,
        mut lo: i32,
        mut hi: i32,
        guess: i32,
    ) -> Result<i32, OutOfBudget> {
        let mut g = guess.clamp(lo, hi);
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            let r = self.search(line, beta - 1, beta)?;
            if r >= beta {
                lo = r;
                g = lo;
            } else {
                hi = beta - 1;
                g = hi;
            }
        }
        Ok(lo)
    }

    /// Bounds on the value of `child`, a move of `line` that captures
    /// nothing, for its mover, and whether its window is in effect fresh.
    ///
    /// Play can come back only to the positions of the window in the
    /// component of `child`'s board (the boards turned to their mover, so a
    /// position and its mirror with the other side to move count as one:
    /// that errs only on the side of "can"). With none, the window is fresh:
    /// the board's bounds. Otherwise the mover's strategy that forces `lo`
    /// either keeps its value or meets a position of the window, which ends
    /// the game with that position's split (no capture since: the stores are
    /// the same); likewise the opponent's and `hi`. So the value lies
    /// between the board's bounds widened by those splits.
    fn window_bounds(&mut self, line: &Line, child: &Position) -> (i32, i32, bool) {
        let board = child.normalized().board();
        let (mut lo, mut hi) = self.fresh_bounds(&board);
        let c = self.component(&board);
        let sign = if child.to_move() == Player::South {
            1
        } else {
            -1
        };
        let mut fresh = c.is_some();
        for &(component, south_split) in &line.window {
            if c.is_some() && component != c {
                continue;
            }
            fresh = false;
            lo = lo.min(sign * south_split);
            hi = hi.max(sign * south_split);
        }
        self.stats.component_exits += u64::from(fresh);
        (lo, hi, fresh)
    }

    /// The component of `board` in its layer's capture-free move graph.
    fn component(&mut self, board: &[u8; PITS]) -> Option<u32> {
        let n = seeds(board);
        let rules = *self.db.rules();
        let layer = self.components.entry(n).or_insert_with(|| {
            (layer_size(n) <= COMPONENTS_MAX_BOARDS)
                .then(|| components(&rules, n).ok())
                .flatten()
        });
        layer.as_ref().map(|c| c[rank(board) as usize])
    }

    /// Counts a node; out of budget past the node limit or the deadline.
    fn expand(&mut self) -> Result<(), OutOfBudget> {
        self.stats.nodes += 1;
        if self
            .budget
            .is_some_and(|b| self.stats.nodes - self.start > b)
        {
            return Err(OutOfBudget);
        }
        // Reading the clock costs more than a node: look every 1,024 nodes.
        if let Some(d) = self.deadline {
            if self.stats.nodes.is_multiple_of(1024) && Instant::now() >= d {
                return Err(OutOfBudget);
            }
        }
        Ok(())
    }

    /// Alpha-beta (fail-hard inside `(alpha, beta)`) on the mover's future
    /// captures minus the opponent's, the game's window deciding repetitions.
    /// On running out of budget `line` is left part-played: the caller drops it.
    fn search(&mut self, line: &mut Line, mut alpha: i32, beta: i32) -> Result<i32, OutOfBudget> {
        let pos = *line.game.position();
        let me = pos.to_move();
        if let Some(o) = line.game.outcome() {
            let fin = i32::from(o.scores[me.index()]) - i32::from(o.scores[me.opponent().index()]);
            return Ok(fin - banked(&pos, me));
        }
        self.expand()?;
        // Order only speeds the search up: the moves the databases rate best
        // first, captures before the rest on ties.
        let mut children: Vec<(i32, bool, Move, Position)> = line
            .game
            .children()
            .iter()
            .map(|&(mv, c)| {
                let gain = banked(&c, me) - banked(&pos, me);
                let guess = self.guess(&c.normalized().board());
                (gain - guess, c.no_capture() != 0, mv, c)
            })
            .collect();
        children.sort_by_key(|&(guess, quiet, _, _)| (std::cmp::Reverse(guess), quiet));
        for (_, quiet, mv, child) in children {
            let gain = banked(&child, me) - banked(&pos, me);
            let board = child.normalized().board();
            let (lo, hi, fresh) = if quiet {
                self.window_bounds(line, &child)
            } else {
                let (lo, hi) = self.fresh_bounds(&board);
                (lo, hi, true)
            };
            // The child's bounds may settle the move.
            if gain - lo <= alpha {
                self.stats.bound_cutoffs += 1;
                continue;
            }
            if gain - hi >= beta {
                self.stats.bound_cutoffs += 1;
                return Ok(beta);
            }
            let v = if fresh {
                gain - self.fresh_value(&board)?
            } else {
                line.play(self, mv);
                let v = gain - self.search(line, gain - beta, gain - alpha)?;
                line.undo();
                v
            };
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(alpha)
    }
}

/// A game being searched, with the component of each position of its window
/// (its board turned to its mover) and its split (South's row minus North's).
struct Line {
    game: Game,
    window: Vec<(Option<u32>, i32)>,
}

impl Line {
    /// `game`, whose positions are all in its window.
    fn new(s: &mut RepetitionSearch, game: Game) -> Line {
        let window = game.positions().iter().map(|p| Line::entry(s, p)).collect();
        Line { game, window }
    }

    fn entry(s: &mut RepetitionSearch, p: &Position) -> (Option<u32>, i32) {
        let b = p.board();
        let south: i32 = b[..6].iter().map(|&x| i32::from(x)).sum();
        let north: i32 = b[6..].iter().map(|&x| i32::from(x)).sum();
        (s.component(&p.normalized().board()), south - north)
    }

    /// Plays `mv`, a legal move that captures nothing.
    fn play(&mut self, s: &mut RepetitionSearch, mv: Move) {
        self.game.play(mv).expect("a child's move is legal");
        let e = Line::entry(s, self.game.position());
        self.window.push(e);
    }

    fn undo(&mut self) {
        self.game.undo();
        self.window.pop();
    }
}

/// `game`'s window as a game of `rules` (the databases' rules: the target
/// removed): its first position (the last capture, or the game's start)
/// and every move since, so that the search sees the same repetitions.
fn window_game(rules: Rules, game: &Game) -> Game {
    let positions = game.positions();
    let last = positions.len() - 1;
    let first = last - usize::from(positions[last].no_capture()).min(last);
    let mut g = Game::from_position(rules, positions[first]);
    for &mv in &game.moves()[first..] {
        g.play(mv)
            .expect("a move of the game is legal without the target");
    }
    g
}
