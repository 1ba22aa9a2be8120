//! Exact values under a repetition rule (`oware`): a game-tree search over
//! [`ayo_core::Game`], whose window of positions since the last capture ends
//! a game on a repeated position (each player taking their own row), down to
//! the board-only databases.
//!
//! Between captures a value depends on the path (the window decides which
//! position repeats), so it is searched, not stored. A capture starts a
//! fresh window, so the value after a capture depends on the board alone:
//! it is read from the databases where the board's bounds agree, and
//! otherwise searched from a fresh window, what the search finds (bounds,
//! and the move that decided them) remembered.
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
//! window, and prunes by those bounds widened by the splits of the window's
//! positions there (`RepetitionSearch::window_bounds`); in the root's
//! component, by bounds that count the root's window exactly
//! (`WindowComponent`), widened only by the line since the root.
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
use crate::index::{layer_size, rank, unrank};
use crate::threads::on_search_thread;
use crate::{
    child_view, own_side_split, seeds, solve_rules, south_position, stuck_value, Database, DbError,
};

/// The largest layer whose components are computed (boards): layers up to
/// 11 seeds. Above it every move is taken to be able to come back.
const COMPONENTS_MAX_BOARDS: u64 = 800_000;

/// The largest component (boards) whose bounds given the root's window are
/// computed ([`WindowComponent`]).
const WINDOW_COMPONENT_MAX: usize = 100_000;

/// Sweeps at most of those bounds' fixpoint iteration (every sweep's bounds
/// hold: more only tighten them).
const WINDOW_COMPONENT_SWEEPS: usize = 256;

/// Ran out of node budget or time.
struct OutOfBudget;

/// What is known of a value: it lies in `lower..=upper`, and the move that
/// last decided it (its action 0..=5 for the mover, plus one; 0: none).
#[derive(Clone, Copy, Debug)]
struct Known {
    lower: i8,
    upper: i8,
    best: u8,
}

impl Known {
    /// `self` narrowed by what a search inside `(alpha, beta)` (fail-hard)
    /// returned, `best` the move that decided it.
    fn narrowed(mut self, alpha: i32, beta: i32, v: i32, best: Option<Move>) -> Known {
        let v8 = v.clamp(-127, 127) as i8;
        if v >= beta {
            self.lower = self.lower.max(v8);
        } else if v <= alpha {
            self.upper = self.upper.min(v8);
        } else {
            self.lower = v8;
            self.upper = v8;
        }
        if let Some(mv) = best {
            self.best = mv.action() + 1;
        }
        self
    }
}

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
    /// Positions worth their board's fresh value that what is known of it
    /// (the databases' bounds, narrowed by earlier searches) decided without
    /// a search.
    pub table_cutoffs: u64,
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
    /// What is known of the values of boards (South to move) with a fresh
    /// window.
    fresh: HashMap<[u8; PITS], Known>,
    /// The components of each layer's capture-free move graph, by rank
    /// (`None`: too large a layer, or no memory for it).
    components: HashMap<usize, Option<Vec<u32>>>,
    stats: RepetitionStats,
    budget: Option<u64>,
    deadline: Option<Instant>,
    /// `stats.nodes` when the current call began.
    start: u64,
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

    /// Boards remembered with what is known of their fresh-window value.
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
        // The component's bounds serve only moves that stay in it.
        let c = self.component(&pos.normalized().board());
        let mut stays = false;
        for (_, child) in line.game.children() {
            stays |= c.is_some()
                && child.no_capture() != 0
                && self.component(&child.normalized().board()) == c;
        }
        if stays {
            self.bound_component(line)?;
        }
        for (mv, child) in line.game.children().to_vec() {
            let gain = child.margin(me) - pos.margin(me);
            let board = child.normalized().board();
            let (lo, hi, fresh) = if child.no_capture() == 0 {
                (0, 0, true)
            } else {
                self.window_bounds(line, &child)
            };
            let (value, proof) = if fresh {
                let (db_lo, db_hi) = self.fresh_bounds(&board);
                let proof = if db_lo == db_hi {
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
        let known = self.fresh_known(board);
        let (lo, hi) = (i32::from(known.lower), i32::from(known.upper));
        if lo == hi {
            self.stats.db_reads += u64::from(!self.fresh.contains_key(board));
            return Ok(lo);
        }
        self.stats.fresh_searches += 1;
        let game = Game::from_position(*self.db.rules(), south_position(board));
        let mut line = Line::new(self, game);
        // The value lies in [lo, hi] (module docs).
        self.exact(&mut line, lo, hi, self.guess(board))
    }

    /// The value of `board` with a fresh window, fail-hard inside
    /// `(alpha, beta)`: settled by what is known where it can be, else
    /// searched (and what the search finds remembered).
    fn fresh_search(
        &mut self,
        board: &[u8; PITS],
        alpha: i32,
        beta: i32,
    ) -> Result<i32, OutOfBudget> {
        let known = self.fresh_known(board);
        let (lo, hi) = (i32::from(known.lower), i32::from(known.upper));
        if lo >= beta {
            return Ok(beta);
        }
        if hi <= alpha {
            return Ok(alpha);
        }
        if lo == hi {
            return Ok(lo);
        }
        self.stats.fresh_searches += 1;
        let game = Game::from_position(*self.db.rules(), south_position(board));
        let mut line = Line::new(self, game);
        self.search(&mut line, alpha, beta)
    }

    /// What is known of the value of `board` with a fresh window: the
    /// databases' bounds, narrowed by earlier searches.
    fn fresh_known(&self, board: &[u8; PITS]) -> Known {
        self.fresh.get(board).copied().unwrap_or_else(|| {
            let (lo, hi) = self.fresh_bounds(board);
            Known {
                lower: lo as i8,
                upper: hi as i8,
                best: 0,
            }
        })
    }

    /// Remembers `known` for `board` with a fresh window (only a cache: a
    /// table that cannot grow starts again empty).
    fn remember(&mut self, board: [u8; PITS], known: Known) {
        if self.fresh.try_reserve(1).is_err() {
            self.fresh = HashMap::new();
        }
        self.fresh.insert(board, known);
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

    /// The bounds of the component of `line`'s position given its window
    /// ([`WindowComponent`]), when its layer's components are known and it
    /// has at most [`WINDOW_COMPONENT_MAX`] boards.
    fn window_component(&mut self, line: &Line) -> Option<WindowComponent> {
        let board = line.game.position().normalized().board();
        let n = seeds(&board);
        let c = self.component(&board)?;
        let rules = *self.db.rules();
        let comp = self.components.get(&n)?.as_ref()?;
        let ranks: Vec<u64> = (0..comp.len() as u64)
            .filter(|&r| comp[r as usize] == c)
            .collect();
        if ranks.len() > WINDOW_COMPONENT_MAX {
            return None;
        }
        let members: HashMap<u64, u32> = ranks
            .iter()
            .enumerate()
            .map(|(i, &r)| (r, i as u32))
            .collect();
        // Values that never change: the window's positions (a repetition)
        // and boards without a move.
        let mut fixed: Vec<Option<i8>> = vec![None; 2 * ranks.len()];
        let mut offs = Vec::with_capacity(ranks.len() + 1);
        offs.push(0);
        let mut moves = Vec::new();
        for (i, &r) in ranks.iter().enumerate() {
            let x = unrank(n, r);
            let children = south_position(&x).children(&rules);
            if children.is_empty() {
                let v = stuck_value(&rules, &x) as i8;
                fixed[2 * i] = Some(v);
                fixed[2 * i + 1] = Some(v);
            }
            for (_, child) in children.iter() {
                let (gain, nb) = child_view(child);
                let inside = if seeds(&nb) == n {
                    members.get(&rank(&nb)).copied()
                } else {
                    None
                };
                moves.push(match inside {
                    Some(j) => ComponentMove {
                        to: j,
                        exit: (0, 0),
                    },
                    None => {
                        let k = self.fresh_known(&nb);
                        ComponentMove {
                            to: u32::MAX,
                            exit: (
                                (gain - i32::from(k.upper)) as i8,
                                (gain - i32::from(k.lower)) as i8,
                            ),
                        }
                    }
                });
            }
            offs.push(moves.len());
        }
        for (p, e) in line.game.positions().iter().zip(&line.window) {
            let turned = p.normalized().board();
            if let (true, Some(&i)) = (e.component == Some(c), members.get(&rank(&turned))) {
                let node = 2 * i as usize + usize::from(p.to_move() != Player::South);
                fixed[node] = Some(own_side_split(&turned) as i8);
            }
        }
        let seeds_i8 = n as i8;
        let mut bounds: Vec<(i8, i8)> = fixed
            .iter()
            .map(|f| f.map_or((-seeds_i8, seeds_i8), |v| (v, v)))
            .collect();
        for _ in 0..WINDOW_COMPONENT_SWEEPS {
            let mut changed = false;
            for i in 0..ranks.len() {
                for o in 0..2 {
                    let node = 2 * i + o;
                    if fixed[node].is_some() {
                        continue;
                    }
                    let (mut lo, mut hi) = (i8::MIN, i8::MIN);
                    for m in &moves[offs[i]..offs[i + 1]] {
                        let (l, h) = if m.to == u32::MAX {
                            m.exit
                        } else {
                            let (clo, chi) = bounds[2 * m.to as usize + 1 - o];
                            (-chi, -clo)
                        };
                        lo = lo.max(l);
                        hi = hi.max(h);
                    }
                    let b = &mut bounds[node];
                    if lo > b.0 {
                        b.0 = lo;
                        changed = true;
                    }
                    if hi < b.1 {
                        b.1 = hi;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Some(WindowComponent {
            component: c,
            members,
            bounds,
        })
    }

    /// Computes the bounds of the component of `line`'s position given its
    /// window ([`WindowComponent`]) for the search below it, if the component
    /// is known and has at most [`WINDOW_COMPONENT_MAX`] boards. Every board
    /// of the component is expanded: they count as nodes.
    fn bound_component(&mut self, line: &mut Line) -> Result<(), OutOfBudget> {
        if let Some(w) = self.window_component(line) {
            self.stats.nodes += w.members.len() as u64;
            self.check_budget()?;
            line.bounds = Some((line.window.len(), w));
        }
        Ok(())
    }

    /// Bounds on the value of `child`, a move of `line` that captures
    /// nothing, for its mover, and whether its window is in effect fresh.
    ///
    /// Play can come back only to the positions of the window in the
    /// component of `child`'s board (the boards turned to their mover, so a
    /// position and its mirror with the other side to move count as one:
    /// that errs only on the side of "can"). With none, the window is fresh:
    /// what is known of the board with a fresh window. Otherwise a strategy
    /// of the mover that forces a lower bound with a fresh window either
    /// keeps it or meets a position of the window, which ends the game with
    /// that position's split (no capture since: the stores are the same);
    /// likewise the opponent's and an upper bound. So the value lies between
    /// the fresh bounds widened by those splits.
    fn window_bounds(&mut self, line: &Line, child: &Position) -> (i32, i32, bool) {
        let board = child.normalized().board();
        let c = self.component(&board);
        // The root's window's positions are counted in the root component's
        // bounds: only the line's since the root widen them.
        let (covered, from) = match &line.bounds {
            Some((from, w)) if Some(w.component) == c => (w.bounds_of(child), *from),
            _ => (None, 0),
        };
        let (mut lo, mut hi) = covered.unwrap_or_else(|| {
            let k = self.fresh_known(&board);
            (i32::from(k.lower), i32::from(k.upper))
        });
        let from = if covered.is_some() { from } else { 0 };
        let sign = if child.to_move() == Player::South {
            1
        } else {
            -1
        };
        let mut fresh = c.is_some();
        for (i, e) in line.window.iter().enumerate() {
            if c.is_some() && e.component != c {
                continue;
            }
            fresh = false;
            if i >= from {
                lo = lo.min(sign * e.south_split);
                hi = hi.max(sign * e.south_split);
            }
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
        self.check_budget()
    }

    /// Out of budget past the node limit or the deadline.
    fn check_budget(&mut self) -> Result<(), OutOfBudget> {
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
            return Ok(fin - pos.margin(me));
        }
        // A position whose window holds none of its component but itself is
        // worth its board's fresh value: what is known of it decides or
        // orders its search, and what this one finds is remembered.
        let fresh = line.fresh_board();
        let known = fresh.map(|b| self.fresh_known(&b));
        if let Some(k) = known {
            if i32::from(k.lower) >= beta {
                self.stats.table_cutoffs += 1;
                return Ok(beta);
            }
            if i32::from(k.upper) <= alpha {
                self.stats.table_cutoffs += 1;
                return Ok(alpha);
            }
        }
        self.expand()?;
        // Order only speeds the search up: the move that decided an earlier
        // search of this board first, then the moves the databases rate
        // best, captures before the rest on ties.
        let first = known.map_or(0, |k| k.best);
        let mut children: Vec<(bool, i32, bool, Move, Position)> = line
            .game
            .children()
            .iter()
            .map(|&(mv, c)| {
                let gain = c.margin(me) - pos.margin(me);
                let guess = self.guess(&c.normalized().board());
                (
                    mv.action() + 1 != first,
                    gain - guess,
                    c.no_capture() != 0,
                    mv,
                    c,
                )
            })
            .collect();
        children
            .sort_by_key(|&(later, guess, quiet, _, _)| (later, std::cmp::Reverse(guess), quiet));
        let alpha0 = alpha;
        let mut best = None;
        for (_, _, quiet, mv, child) in children {
            let gain = child.margin(me) - pos.margin(me);
            let board = child.normalized().board();
            let (lo, hi, fresh) = if quiet {
                self.window_bounds(line, &child)
            } else {
                let k = self.fresh_known(&board);
                (i32::from(k.lower), i32::from(k.upper), true)
            };
            // The child's bounds may settle the move.
            if gain - lo <= alpha {
                self.stats.bound_cutoffs += 1;
                continue;
            }
            if gain - hi >= beta {
                self.stats.bound_cutoffs += 1;
                alpha = beta;
                best = Some(mv);
                break;
            }
            let v = if fresh {
                gain - self.fresh_search(&board, gain - beta, gain - alpha)?
            } else {
                line.play(self, mv);
                let v = gain - self.search(line, gain - beta, gain - alpha)?;
                line.undo();
                v
            };
            if v > alpha {
                alpha = v;
                best = Some(mv);
                if alpha >= beta {
                    break;
                }
            }
        }
        if let (Some(board), Some(k)) = (fresh, known) {
            self.remember(board, k.narrowed(alpha0, beta, alpha, best));
        }
        Ok(alpha)
    }
}

/// Bounds on the values of the positions of the root's component, given the
/// root's window ([`RepetitionSearch::window_component`]).
///
/// They are the least and greatest fixpoints of the component's max
/// equations over positions (both movers), from `−n` and `+n`: the window's
/// positions end the game with their split; a move out of the component (a
/// capture, or into a component that holds none of the window) is worth what
/// is known of its board with a fresh window; endless play counts as the
/// mover's worst (`lo`) and best (`hi`). As for the databases (module docs)
/// the mover forces `lo` by always moving to a position whose bound was
/// reached at an earlier update: on that line no position comes twice but
/// the window's, which end the game as counted. A position searched from the
/// root has the root's window and the line since: the line's positions can
/// come again, so its bounds are these widened by their splits.
#[derive(Debug)]
struct WindowComponent {
    component: u32,
    /// The component's boards (South to move) by rank: their index.
    members: HashMap<u64, u32>,
    /// `(lo, hi)` for the mover of member `i`'s board with South to move
    /// (`2i`) and of its mirror with North to move (`2i + 1`).
    bounds: Vec<(i8, i8)>,
}

/// One move of a [`WindowComponent`]'s board: into member `to` (`u32::MAX`:
/// out of the component, worth `exit` = (lo, hi) for the mover).
#[derive(Clone, Copy, Debug)]
struct ComponentMove {
    to: u32,
    exit: (i8, i8),
}

impl WindowComponent {
    /// The bounds of `pos` (in the component), for its mover.
    fn bounds_of(&self, pos: &Position) -> Option<(i32, i32)> {
        let i = *self.members.get(&rank(&pos.normalized().board()))?;
        let (lo, hi) = self.bounds[2 * i as usize + usize::from(pos.to_move() != Player::South)];
        Some((i32::from(lo), i32::from(hi)))
    }
}

/// One position of a [`Line`]'s window.
struct WindowEntry {
    /// The component of its board turned to its mover.
    component: Option<u32>,
    /// South's row minus North's.
    south_split: i32,
}

/// A game being searched, with what the search needs of each position of its
/// window.
struct Line {
    game: Game,
    window: Vec<WindowEntry>,
    /// Bounds of the component given the window's first positions, and how
    /// many they are (the root's window; `None` for a line of a fresh board).
    bounds: Option<(usize, WindowComponent)>,
}

impl Line {
    /// `game`, whose positions are all in its window.
    fn new(s: &mut RepetitionSearch, game: Game) -> Line {
        let window = game.positions().iter().map(|p| Line::entry(s, p)).collect();
        Line {
            game,
            window,
            bounds: None,
        }
    }

    fn entry(s: &mut RepetitionSearch, p: &Position) -> WindowEntry {
        let b = p.board();
        let south: i32 = b[..6].iter().map(|&x| i32::from(x)).sum();
        let north: i32 = b[6..].iter().map(|&x| i32::from(x)).sum();
        WindowEntry {
            component: s.component(&p.normalized().board()),
            south_split: south - north,
        }
    }

    /// The current position's board turned to its mover, if no position
    /// before it in its window shares its component (with the components
    /// unknown: if there is none before it), so that it is worth that
    /// board's fresh value.
    fn fresh_board(&self) -> Option<[u8; PITS]> {
        let (current, before) = self.window.split_last().expect("a window");
        let c = current.component;
        before
            .iter()
            .all(|e| c.is_some() && e.component != c)
            .then(|| self.game.position().normalized().board())
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
    let since = game.since_last_capture();
    let first = game.positions().len() - since.len();
    let mut g = Game::from_position(rules, since[0]);
    for &mv in &game.moves()[first..] {
        g.play(mv)
            .expect("a move of the game is legal without the target");
    }
    g
}
