//! The alpha-beta player: negamax with principal-variation search, iterative
//! deepening, a transposition table keyed by [`Position::hash`], move ordering
//! (table move, captures first, history heuristic) and the evaluation of
//! [`super::eval`].
//!
//! **Game ends in the search** are scored from [`Position::final_outcome`]:
//! target and move limit (seen from the position's counters), no legal move,
//! and repetition when the rules end the game on it. Repetition is checked
//! exactly against the game's history since the last capture plus the search
//! path. At the horizon (depth 0) a position is scored as an end when its
//! counters say so, when it repeats, when the mover's row is empty, or when a
//! feeding rule leaves the mover no move; a relay position whose every move is
//! an endless relay is only recognised one ply earlier, when it is expanded.
//!
//! **What a value is** ([`Basis`]): a root move's value is proven
//! ([`Basis::Proven`]) only when its search was complete: no line stopped at
//! the horizon, and no table entry it reused rests on one (each entry records
//! whether its own subtree was complete; in rules that end on repetition an
//! entry reused after a non-capturing move counts as incomplete, since the
//! repetitions under it depend on the path to it). Otherwise it is the
//! value of a search to its depth ([`Basis::Search`]), or, refuted by a null
//! window, an upper bound ([`Basis::Bound`]). The position's value follows
//! from its moves' ([`Basis::of_position`]).
//!
//! **Approximations** (documented, as in most game programs): a table entry
//! may have been stored under another path, so a value that depends on
//! repetition can be reused where the repetition would not occur; and a value
//! searched deeper than asked may be reused at a shallower depth. With a move
//! limit the no-capture counter is part of the table key, so the limit is
//! never confused.

use std::time::Instant;

use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::eval::{evaluate, Weights};
use super::{try_room, Agent, Analysis, Basis, Budget, MoveValue, OutOfMemory, Rng, Value};
use crate::rules::end::end_reason;
use crate::rules::legal::no_legal_move_unsown;
use crate::rules::moves::Children;
use crate::rules::repeat::repeats_in_line;
use crate::{EndReason, Game, Move, Position, Repetition, Rules};

const INF: i32 = i32::MAX / 2;
const MAX_PLY: usize = 128;
/// The deepest iteration of a node or time budget (searches that solve the
/// position stop earlier).
const MAX_DEPTH: u32 = 100;
const NO_MOVE: u8 = 0xFF;

/// A completed iteration: root move values, best move, principal variation, depth.
type Iteration = (Vec<MoveValue>, Move, Vec<Move>, u32);

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    /// `EXACT`, `LOWER` or `UPPER`, with `COMPLETE` set when the subtree
    /// behind the value was complete.
    bound: u8,
    mv: u8,
    /// The search that stored the entry; entries of earlier searches count as empty.
    generation: u8,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// The bits of `Entry::bound` that say which bound it is.
const BOUND_KIND: u8 = 3;
/// Set in `Entry::bound` when no line under the entry was cut off.
const COMPLETE: u8 = 4;

/// Negamax alpha-beta with iterative deepening. See the [module](self) docs.
///
/// ```
/// use ayo_core::{players::{Agent, AlphaBeta, Basis, Budget}, Game, Rules};
/// let game = Game::new(Rules::preset("olopon")?);
/// let mut ab = AlphaBeta::new(Budget::Depth(5), 1);
/// let a = ab.analyze(&game);
/// assert_eq!(a.depth, 5);
/// assert_eq!(a.basis, Basis::Search { depth: 5 }); // not a proof
/// assert_eq!(a.moves.len(), 6);
/// assert!(a.moves.iter().all(|m| m.basis == a.basis && m.value <= a.value));
/// assert_eq!(a.pv[0], a.best.unwrap());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct AlphaBeta {
    budget: Budget,
    weights: Option<Weights>,
    tt_bits: Option<u32>,
    rng: Rng,
    seed: u64,
    /// The table, kept between searches so that it is not allocated each move.
    table: Vec<Entry>,
    generation: u8,
}

/// One search: the state that lives for a single `choose` or `analyze`.
struct Search<'a> {
    rules: &'a Rules,
    weights: Weights,
    tt: Vec<Entry>,
    tt_mask: usize,
    generation: u8,
    history: [u32; 12],
    path: Vec<u128>,
    track_repetition: bool,
    key_counter: bool,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    can_stop: bool,
    stop: bool,
    hit_horizon: bool,
    /// A line searched since this was cleared stopped before a game end: at
    /// the horizon, or at a table entry that did (or may, on this path).
    unfinished: bool,
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

impl std::fmt::Debug for AlphaBeta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("budget", &self.budget)
            .field("weights", &self.weights)
            .field("table_bits", &self.table_bits())
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl AlphaBeta {
    /// An alpha-beta player with `budget`, the rules' default weights and a
    /// transposition table sized for the budget; `seed` orders equal root moves.
    pub fn new(budget: Budget, seed: u64) -> AlphaBeta {
        AlphaBeta {
            budget,
            weights: None,
            tt_bits: None,
            rng: Rng::seed_from_u64(seed),
            seed,
            table: Vec::new(),
            generation: 0,
        }
    }

    /// The same player with fixed evaluation weights (instead of [`Weights::for_rules`]).
    pub fn with_weights(mut self, weights: Weights) -> AlphaBeta {
        self.weights = Some(weights);
        self
    }

    /// The same player with a transposition table of `2^bits` entries (0: no table).
    pub fn with_table_bits(mut self, bits: u32) -> AlphaBeta {
        self.tt_bits = Some(bits.min(28));
        self
    }

    /// The budget.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Entries of the transposition table a search uses.
    fn table_size(&self) -> usize {
        match self.table_bits() {
            0 => 0,
            bits => 1usize << bits,
        }
    }

    fn table_bits(&self) -> u32 {
        self.tt_bits.unwrap_or(match self.budget {
            Budget::Depth(d) => (8 + 2 * d).min(22),
            Budget::Nodes(n) => (64 - n.max(1).leading_zeros()).clamp(10, 22),
            Budget::Time(_) => 22,
        })
    }

    /// Searches the current position of `game`. With `all_exact` every root
    /// move gets a full window (each value the search's own, slower);
    /// otherwise only the best move's is and the others are upper bounds.
    pub fn search(&mut self, game: &Game, all_exact: bool) -> Analysis {
        if let Some(a) = Analysis::of_ended(game) {
            return a;
        }
        let rules = game.rules();
        let start = Instant::now();
        let (max_depth, node_limit, deadline) = match self.budget {
            Budget::Depth(d) => (d.clamp(1, MAX_PLY as u32 - 8), u64::MAX, None),
            Budget::Nodes(n) => (MAX_DEPTH, n, None),
            Budget::Time(t) => (MAX_DEPTH, u64::MAX, Some(start + t)),
        };
        let size = self.table_size();
        // A new generation makes every stored entry count as empty, exactly as
        // a cleared table; the table is really cleared when the counter wraps
        // (in place: `prepare` made it, and a search allocates nothing big).
        self.generation = self.generation.wrapping_add(1);
        if self.table.len() != size {
            self.table = vec![Entry::default(); size];
            self.generation = 1;
        } else if self.generation == 0 {
            self.table.fill(Entry::default());
            self.generation = 1;
        }
        let mut s = Search {
            rules,
            weights: self.weights.unwrap_or_else(|| Weights::for_rules(rules)),
            tt: std::mem::take(&mut self.table),
            tt_mask: size.saturating_sub(1),
            generation: self.generation,
            history: [0; 12],
            path: Vec::with_capacity(256),
            track_repetition: rules.repetition() == Repetition::OwnSide,
            key_counter: rules.move_limit().is_some(),
            nodes: 0,
            node_limit,
            deadline,
            can_stop: false,
            stop: false,
            hit_horizon: false,
            unfinished: false,
            pv: Box::new([[NO_MOVE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
        };
        if s.track_repetition {
            let since = game.since_last_capture();
            s.path
                .extend(since[..since.len() - 1].iter().map(Position::packed));
        }
        let root = *game.position();
        let mut order: Vec<(Move, Position)> = game.children().to_vec();
        order.shuffle(&mut self.rng);
        let mut done: Option<Iteration> = None;
        for depth in 1..=max_depth {
            s.hit_horizon = false;
            let r = s.root(&root, &mut order, depth, all_exact);
            s.can_stop = true;
            if s.stop {
                break;
            }
            let (moves, best, value) = r;
            let pv: Vec<Move> = (0..s.pv_len[0])
                .map(|i| Move::new(s.pv[0][i]).expect("pit"))
                .collect();
            let solved = value.proven().is_some() || !s.hit_horizon;
            done = Some((moves, best, pv, depth));
            if solved {
                break;
            }
        }
        self.table = std::mem::take(&mut s.tt);
        let (mut moves, best, pv, depth) = done.expect("the first iteration always completes");
        moves.sort_by_key(|m| m.mv);
        let chosen = *moves
            .iter()
            .find(|m| m.mv == best)
            .expect("the best move is valued");
        Analysis {
            best: Some(best),
            value: chosen.value,
            basis: Basis::of_position(&moves, &chosen, depth),
            pv,
            moves,
            depth,
            nodes: s.nodes,
        }
    }
}

impl Search<'_> {
    #[inline]
    fn key(&self, pos: &Position) -> u64 {
        let h = pos.hash();
        if self.key_counter {
            h ^ u64::from(pos.no_capture()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            h
        }
    }

    #[inline]
    fn end_value(&self, pos: &Position, reason: EndReason) -> i32 {
        Value::of_outcome(&pos.final_outcome(self.rules, reason), pos.to_move()).0
    }

    /// The repetition rule at `pos`, on the path (the game since the last
    /// capture, then the search line).
    #[inline]
    fn repeats(&self, pos: &Position) -> bool {
        repeats_in_line(pos, self.path.iter().copied(), |_| false)
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.can_stop
            && (self.nodes >= self.node_limit
                || (self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.stop = true;
        }
        self.stop
    }

    /// The ordering score of a child: table move, then seed gain, then history.
    #[inline]
    fn order_score(&self, pos: &Position, mv: Move, child: &Position, tt_move: u8) -> i64 {
        if mv.pit() as u8 == tt_move {
            return i64::MAX;
        }
        let me = pos.to_move();
        let gain = i64::from(child.margin(me) - pos.margin(me));
        (gain << 32) + i64::from(self.history[mv.pit()])
    }

    /// The root of one iteration: every move's value (exact or bound), the best
    /// move and the value. `order` is reordered best first for the next iteration.
    fn root(
        &mut self,
        root: &Position,
        order: &mut [(Move, Position)],
        depth: u32,
        all_exact: bool,
    ) -> (Vec<MoveValue>, Move, Value) {
        self.nodes += 1;
        if self.track_repetition {
            self.path.push(root.packed());
        }
        let mut alpha = -INF;
        let mut best = (-INF, order[0].0);
        let mut values = Vec::with_capacity(order.len());
        for (k, &(mv, child)) in order.iter().enumerate() {
            self.unfinished = false;
            let (v, refuted) = if all_exact || k == 0 {
                (-self.negamax(&child, depth - 1, -INF, INF, 1), false)
            } else {
                let v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if v > alpha && !self.stop {
                    (-self.negamax(&child, depth - 1, -INF, -alpha, 1), false)
                } else {
                    (v, true)
                }
            };
            if self.stop {
                break;
            }
            values.push(MoveValue {
                mv,
                value: Value(v),
                basis: Basis::of_search(!self.unfinished, depth, refuted),
            });
            if v > best.0 {
                best = (v, mv);
                self.pv[0][0] = mv.pit() as u8;
                let n = self.pv_len[1];
                let (head, tail) = self.pv.split_at_mut(1);
                head[0][1..=n].copy_from_slice(&tail[0][..n]);
                self.pv_len[0] = n + 1;
            }
            alpha = alpha.max(v);
        }
        if self.track_repetition {
            self.path.pop();
        }
        // Best first, then by value (bounds sort by their bound).
        let rank = |m: &Move| {
            values
                .iter()
                .find(|x| x.mv == *m)
                .map_or(-INF, |x| x.value.0)
        };
        order.sort_by_key(|(m, _)| std::cmp::Reverse(rank(m)));
        (values, best.1, Value(best.0))
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if self.out_of_budget() {
            return 0;
        }
        // The arrival's ends, in the rules' order; the moves are sown here
        // only below the horizon (there they are searched anyway).
        let horizon = depth == 0 || ply + 1 >= MAX_PLY;
        let mut children = Children::new();
        let reason = end_reason(
            self.rules,
            pos,
            true,
            || self.track_repetition && self.repeats(pos),
            || {
                if horizon {
                    return no_legal_move_unsown(self.rules, pos);
                }
                children = pos.children(self.rules);
                children.is_empty()
            },
        );
        if let Some(reason) = reason {
            return self.end_value(pos, reason);
        }
        if horizon {
            self.hit_horizon = true;
            self.unfinished = true;
            return evaluate(pos, self.rules, &self.weights);
        }
        let key = self.key(pos);
        let slot = (key as usize) & self.tt_mask;
        let mut tt_move = NO_MOVE;
        if !self.tt.is_empty() {
            let e = self.tt[slot];
            if e.key == key && e.generation == self.generation {
                tt_move = e.mv;
                if u32::from(e.depth) >= depth {
                    let cut = match e.bound & BOUND_KIND {
                        EXACT => true,
                        LOWER => e.value >= beta,
                        _ => e.value <= alpha,
                    };
                    if cut {
                        if Value(e.value).proven().is_none() {
                            self.hit_horizon = true;
                        }
                        // After a non-capturing move, a repetition under the
                        // entry can involve the path to it: path-dependent.
                        if e.bound & COMPLETE == 0
                            || (self.track_repetition && pos.no_capture() > 0)
                        {
                            self.unfinished = true;
                        }
                        return e.value;
                    }
                }
            }
        }
        let mut idx: [(i64, u8); 6] = [(0, 0); 6];
        for (i, (mv, child)) in children.iter().enumerate() {
            idx[i] = (self.order_score(pos, *mv, child, tt_move), i as u8);
        }
        let n = children.len();
        idx[..n].sort_unstable_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
        if self.track_repetition {
            self.path.push(pos.packed());
        }
        let alpha0 = alpha;
        // The lines under this node alone, for its table entry.
        let outer_unfinished = std::mem::replace(&mut self.unfinished, false);
        let mut best = -INF;
        let mut best_mv = NO_MOVE;
        for (k, &(_, i)) in idx[..n].iter().enumerate() {
            let (mv, child) = children[i as usize];
            let v = if k == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let v = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta && !self.stop {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    v
                }
            };
            if self.stop {
                break;
            }
            if v > best {
                best = v;
                best_mv = mv.pit() as u8;
                if v > alpha {
                    alpha = v;
                    self.pv[ply][0] = best_mv;
                    let m = self.pv_len[ply + 1];
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=m].copy_from_slice(&tail[0][..m]);
                    self.pv_len[ply] = m + 1;
                    if alpha >= beta {
                        self.history[mv.pit()] =
                            self.history[mv.pit()].saturating_add(depth * depth);
                        break;
                    }
                }
            }
        }
        if self.track_repetition {
            self.path.pop();
        }
        let complete = !self.unfinished;
        self.unfinished |= outer_unfinished;
        if self.stop {
            return 0;
        }
        if !self.tt.is_empty() {
            let kind = if best <= alpha0 {
                UPPER
            } else if best >= beta {
                LOWER
            } else {
                EXACT
            };
            let bound = if complete { kind | COMPLETE } else { kind };
            let e = &mut self.tt[slot];
            if e.key != key || e.generation != self.generation || u32::from(e.depth) <= depth {
                *e = Entry {
                    key,
                    value: best,
                    depth: depth.min(255) as u8,
                    bound,
                    mv: best_mv,
                    generation: self.generation,
                };
            }
        }
        best
    }
}

impl Agent for AlphaBeta {
    fn name(&self) -> String {
        format!("alphabeta({})", self.budget)
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.search(game, false).best
    }

    /// Every root move searched with a full window, so each value is the
    /// search's own (proven only when its search was complete).
    fn analyze(&mut self, game: &Game) -> Analysis {
        self.search(game, true)
    }

    /// The transposition table, allocated once for the budget.
    fn prepare(&mut self, _rules: &Rules) -> Result<(), OutOfMemory> {
        let size = self.table_size();
        if self.table.len() != size {
            try_room(
                &mut self.table,
                size,
                "an alpha-beta player's transposition table",
            )?;
            self.table.resize(size, Entry::default());
            self.generation = 0;
        }
        Ok(())
    }
}

impl AlphaBeta {
    /// The seed the player was built with.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}
