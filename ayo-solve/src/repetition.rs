//! Exact values under a repetition rule (`oware`): a game-tree search over
//! [`ayo_core::Game`], whose window of positions since the last capture ends
//! a game on a repeated position (each player taking their own row), down to
//! the board-only databases.
//!
//! Between captures a value depends on the path: the window decides which
//! position repeats. But only through the positions of the window that play
//! can come back to, those in the position's strongly connected component of
//! the capture-free move graph ([`crate::components`]): so what a search
//! finds (bounds, and the move that decided them) is remembered under the
//! position and those positions (`PathKey`), for later passes of MTD(f)
//! and for the same position reached again with the same of them. A capture
//! starts a fresh window, so the value after a capture depends on the board
//! alone: it is read from the databases where the board's bounds agree, and
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
//! window, and prunes by those bounds widened by the splits of the window's
//! positions there (`RepetitionSearch::window_bounds`).
//!
//! No rule is re-implemented: moves, captures, repetitions and the end of
//! the game come from [`Game`]; the target is removed as for the databases
//! ([`crate::solve_rules`]; it never changes who wins).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
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

/// Positions remembered with their window at most (past it the table of
/// [`RepetitionSearch::paths`] starts again empty: only a cache).
const PATHS_MAX: usize = 1 << 21;

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

/// A position and the positions of its window that play can come back to:
/// its board turned to its mover, and a fingerprint of that set
/// ([`Line::fingerprint`]; 0 for none: a fresh window).
type PathKey = ([u8; PITS], u128);

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
    /// What is known of the values of boards (South to move) with a fresh
    /// window.
    fresh: HashMap<[u8; PITS], Known>,
    /// What is known of the values of positions with a window that play can
    /// come back to (the value depends on that window only through the
    /// positions of it in the position's component, [`PathKey`]).
    paths: HashMap<PathKey, Known>,
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
            paths: HashMap::new(),
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

    /// Values remembered (bounds on them): boards with a fresh window, and
    /// positions with the part of their window that play can come back to.
    pub fn table_len(&self) -> usize {
        self.fresh.len() + self.paths.len()
    }

    /// Forgets the remembered values (their memory grows with every search).
    pub fn clear_table(&mut self) {
        self.fresh.clear();
        self.paths.clear();
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

    /// What is known of the value of the position keyed `key`.
    fn known(&self, key: &PathKey) -> Option<Known> {
        if key.1 == 0 {
            Some(self.fresh_known(&key.0))
        } else {
            self.paths.get(key).copied()
        }
    }

    /// Remembers `known` for the position keyed `key` (only a cache: a
    /// table that cannot grow starts again empty).
    fn remember(&mut self, key: PathKey, known: Known) {
        if key.1 == 0 {
            if self.fresh.try_reserve(1).is_err() {
                self.fresh = HashMap::new();
            }
            self.fresh.insert(key.0, known);
        } else {
            if self.paths.len() >= PATHS_MAX || self.paths.try_reserve(1).is_err() {
                self.paths = HashMap::new();
            }
            self.paths.insert(key, known);
        }
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
    /// what is known of the board with a fresh window. Otherwise a strategy
    /// of the mover that forces a lower bound with a fresh window either
    /// keeps it or meets a position of the window, which ends the game with
    /// that position's split (no capture since: the stores are the same);
    /// likewise the opponent's and an upper bound. So the value lies between
    /// the fresh bounds widened by those splits, and within what an earlier
    /// search of the child with the same positions of its window found.
    fn window_bounds(&mut self, line: &Line, child: &Position) -> (i32, i32, bool) {
        let board = child.normalized().board();
        let fresh_known = self.fresh_known(&board);
        let (mut lo, mut hi) = (i32::from(fresh_known.lower), i32::from(fresh_known.upper));
        let c = self.component(&board);
        let sign = if child.to_move() == Player::South {
            1
        } else {
            -1
        };
        let mut fresh = c.is_some();
        for e in &line.window {
            if c.is_some() && e.component != c {
                continue;
            }
            fresh = false;
            lo = lo.min(sign * e.south_split);
            hi = hi.max(sign * e.south_split);
        }
        if fresh {
            self.stats.component_exits += 1;
        } else {
            let fp = line.fingerprint(c, child.to_move(), line.window.len());
            if let Some(k) = self.paths.get(&(board, fp)) {
                lo = lo.max(i32::from(k.lower));
                hi = hi.min(i32::from(k.upper));
            }
        }
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
        let key = line.key();
        let known = self.known(&key);
        if let Some(k) = known {
            if i32::from(k.lower) >= beta {
                return Ok(beta);
            }
            if i32::from(k.upper) <= alpha {
                return Ok(alpha);
            }
        }
        self.expand()?;
        // Order only speeds the search up: the move that decided an earlier
        // search of this position first, then the moves the databases rate
        // best, captures before the rest on ties.
        let first = known.map_or(0, |k| k.best);
        let mut children: Vec<(bool, i32, bool, Move, Position)> = line
            .game
            .children()
            .iter()
            .map(|&(mv, c)| {
                let gain = banked(&c, me) - banked(&pos, me);
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
            let gain = banked(&child, me) - banked(&pos, me);
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
        let base = known.unwrap_or(Known {
            lower: i8::MIN,
            upper: i8::MAX,
            best: 0,
        });
        self.remember(key, base.narrowed(alpha0, beta, alpha, best));
        Ok(alpha)
    }
}

/// One position of a [`Line`]'s window.
struct WindowEntry {
    /// The component of its board turned to its mover.
    component: Option<u32>,
    /// South's row minus North's.
    south_split: i32,
    mover: Player,
    /// Two hashes of its board turned to its mover, for a position keyed
    /// with the same mover (`[0]`) and with the other (`[1]`).
    hashes: [u128; 2],
}

/// A game being searched, with what the search needs of each position of its
/// window.
struct Line {
    game: Game,
    window: Vec<WindowEntry>,
}

impl Line {
    /// `game`, whose positions are all in its window.
    fn new(s: &mut RepetitionSearch, game: Game) -> Line {
        let window = game.positions().iter().map(|p| Line::entry(s, p)).collect();
        Line { game, window }
    }

    fn entry(s: &mut RepetitionSearch, p: &Position) -> WindowEntry {
        let b = p.board();
        let south: i32 = b[..6].iter().map(|&x| i32::from(x)).sum();
        let north: i32 = b[6..].iter().map(|&x| i32::from(x)).sum();
        let turned = p.normalized().board();
        let hash = |other_mover: bool, which: u8| {
            let mut h = DefaultHasher::new();
            (turned, other_mover, which).hash(&mut h);
            h.finish()
        };
        let both = |other: bool| u128::from(hash(other, 0)) << 64 | u128::from(hash(other, 1));
        WindowEntry {
            component: s.component(&turned),
            south_split: south - north,
            mover: p.to_move(),
            hashes: [both(false), both(true)],
        }
    }

    /// The fingerprint of the positions of the window in `component` (all of
    /// them for `None`), for a position whose mover is `mover`: the sum of
    /// their 128-bit hashes (a set of positions keyed as one, seen from that
    /// mover, so that a position and its mirror share a key). 0 for none;
    /// two different sets share one only by a 128-bit hash collision.
    fn fingerprint(&self, component: Option<u32>, mover: Player, upto: usize) -> u128 {
        self.window[..upto]
            .iter()
            .filter(|e| component.is_none() || e.component == component)
            .fold(0u128, |f, e| {
                f.wrapping_add(e.hashes[usize::from(e.mover != mover)])
            })
    }

    /// The key of the current position: its board turned to its mover, and
    /// the fingerprint of the positions before it in its window that play can
    /// come back to.
    fn key(&self) -> PathKey {
        let pos = self.game.position();
        let last = self.window.len() - 1;
        let fp = self.fingerprint(self.window[last].component, pos.to_move(), last);
        (pos.normalized().board(), fp)
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
