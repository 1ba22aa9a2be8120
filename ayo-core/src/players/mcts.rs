//! The Monte Carlo tree search player: UCT over the core's legal moves, with
//! uniformly random playouts ([`crate::games::playout::random_playout`]) and an
//! optional evaluation cut-off.
//!
//! Rewards are 1 for a win, ½ for a draw and 0 for a loss, from the point of
//! view of the player who made the move into a node. A node is expanded (all
//! of its children generated at once, with the core's
//! [`crate::Position::children`]) on its second visit; an unvisited child is
//! picked at random. Game ends in the tree, repetition included (checked
//! against the game's history plus the tree path), are exact terminal nodes.
//! Inside a playout, repetition is counted from the playout's start.
//!
//! With a cut-off of `k` plies, a playout that has not ended after `k` moves is
//! scored by the [evaluation](super::eval): reward `1 / (1 + e^(-v / 400))`
//! with `v` in hundredths of a seed (so ±4 seeds ≈ 73 % / 27 %).
//!
//! The move chosen is the most visited child of the root (ties: the higher
//! mean reward, then the lower pit).

use std::time::Instant;

use rand::{Rng as _, SeedableRng};

use super::eval::{evaluate, Weights};
use super::{try_room, Agent, Analysis, Basis, Budget, MoveValue, OutOfMemory, Proof, Rng, Value};
use crate::games::playout::random_playout;
use crate::rules::end::end_reason;
use crate::rules::legal::no_legal_move_unsown;
use crate::rules::repeat::repeats_in_line;
use crate::{EndReason, Game, Move, Player, Position, Repetition, Rules};

/// Plies a playout may run before it is scored as a draw when there is no
/// cut-off (random games end long before this).
const PLAYOUT_CAP: u32 = 5_000;
/// Tree nodes kept at most; past this, leaves are no longer expanded.
const MAX_NODES: usize = 2_000_000;

#[derive(Clone, Copy, Debug)]
struct Node {
    pos: Position,
    mv: Move,
    /// Index of the first child; children are contiguous.
    first: u32,
    count: u8,
    expanded: bool,
    /// The exact reward of a terminal node, for the player who moved into it.
    terminal: Option<f32>,
    /// The final seed difference of a terminal node, for that player.
    terminal_diff: i16,
    visits: u32,
    /// Sum of rewards for the player who moved into the node.
    reward: f64,
    /// Sum of final (or evaluated) seed differences for that player.
    diff: f64,
}

/// Monte Carlo tree search (UCT). See the [module](self) docs.
///
/// ```
/// use ayo_core::{players::{Agent, Budget, Mcts}, Game, Rules};
/// let game = Game::new(Rules::preset("oware")?);
/// let mut m = Mcts::new(Budget::Nodes(500), 9);
/// let a = m.analyze(&game);
/// assert_eq!(a.nodes, 500);
/// assert!(game.is_legal(a.best.unwrap()));
/// assert_eq!(Mcts::new(Budget::Nodes(500), 9).choose(&game), a.best);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Mcts {
    budget: Budget,
    exploration: f64,
    cutoff: Option<u32>,
    weights: Option<Weights>,
    rng: Rng,
    tree: Vec<Node>,
}

impl Mcts {
    /// UCT with exploration constant √2, full random playouts, seeded by `seed`.
    pub fn new(budget: Budget, seed: u64) -> Mcts {
        Mcts {
            budget,
            exploration: std::f64::consts::SQRT_2,
            cutoff: None,
            weights: None,
            rng: Rng::seed_from_u64(seed),
            tree: Vec::new(),
        }
    }

    /// The same player with the UCT exploration constant `c`.
    pub fn with_exploration(mut self, c: f64) -> Mcts {
        self.exploration = c;
        self
    }

    /// The same player with playouts cut off after `plies` moves and scored by
    /// the evaluation (`None`: play every playout to the end).
    pub fn with_cutoff(mut self, plies: Option<u32>) -> Mcts {
        self.cutoff = plies;
        self
    }

    /// The same player with fixed weights for the cut-off evaluation
    /// (instead of [`Weights::for_rules`]).
    pub fn with_weights(mut self, weights: Weights) -> Mcts {
        self.weights = Some(weights);
        self
    }

    /// The budget.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    fn new_node(pos: Position, mv: Move, terminal: Option<(f32, i16)>) -> Node {
        Node {
            pos,
            mv,
            first: 0,
            count: 0,
            expanded: false,
            terminal: terminal.map(|t| t.0),
            terminal_diff: terminal.map_or(0, |t| t.1),
            visits: 0,
            reward: 0.0,
            diff: 0.0,
        }
    }

    /// Reward and seed difference of an outcome for `player`.
    fn score(o: &crate::Outcome, player: Player) -> (f32, i16) {
        let d = o.scores[player.index()] as i16 - o.scores[player.opponent().index()] as i16;
        (0.5 + 0.5 * d.signum() as f32, d)
    }

    /// Runs the search on the current position of `game`.
    fn run(&mut self, game: &Game) -> Analysis {
        if let Some(a) = Analysis::of_ended(game) {
            return a;
        }
        let rules = *game.rules();
        let weights = self.weights.unwrap_or_else(|| Weights::for_rules(&rules));
        let start = Instant::now();
        let (limit, deadline) = match self.budget {
            Budget::Depth(d) => (u64::from(d.max(1)) * 1000, None),
            Budget::Nodes(n) => (n.max(1), None),
            Budget::Time(t) => (u64::MAX, Some(start + t)),
        };
        let track = rules.repetition() == Repetition::OwnSide;
        let mut history: Vec<u128> = Vec::new();
        if track {
            let hist = game.positions();
            let n = hist.len();
            let back = (game.position().no_capture() as usize).min(n - 1);
            history.extend(hist[n - 1 - back..n - 1].iter().map(Position::packed));
        }
        self.tree.clear();
        let root = *game.position();
        self.tree
            .push(Mcts::new_node(root, Move::new(0).expect("pit 0"), None));
        // The root's children come from the game (they are already known).
        self.tree[0].first = 1;
        self.tree[0].count = game.children().len() as u8;
        self.tree[0].expanded = true;
        for &(mv, child) in game.children() {
            let term = self.terminal(
                &rules,
                &child,
                root.to_move(),
                &history,
                &[root.packed()],
                track,
            );
            self.tree.push(Mcts::new_node(child, mv, term));
        }
        let mut path: Vec<u32> = Vec::with_capacity(64);
        let mut packed_path: Vec<u128> = Vec::with_capacity(64);
        let mut sims = 0u64;
        let mut max_depth = 0u32;
        while sims < limit {
            if sims & 255 == 0 && deadline.is_some_and(|d| Instant::now() >= d) && sims > 0 {
                break;
            }
            sims += 1;
            path.clear();
            packed_path.clear();
            let mut node = 0u32;
            path.push(0);
            packed_path.push(root.packed());
            // Selection.
            loop {
                let n = &self.tree[node as usize];
                if n.terminal.is_some() || !n.expanded {
                    break;
                }
                node = self.select(node);
                path.push(node);
                packed_path.push(self.tree[node as usize].pos.packed());
            }
            max_depth = max_depth.max(path.len() as u32 - 1);
            // Expansion on the second visit.
            let leaf = self.tree[node as usize];
            let mut target = node;
            if leaf.terminal.is_none() && leaf.visits > 0 && self.tree.len() < MAX_NODES {
                let children = leaf.pos.children(&rules);
                let mover = leaf.pos.to_move();
                let first = self.tree.len() as u32;
                for &(mv, child) in &children {
                    let term = self.terminal(&rules, &child, mover, &history, &packed_path, track);
                    self.tree.push(Mcts::new_node(child, mv, term));
                }
                let l = &mut self.tree[node as usize];
                l.first = first;
                l.count = children.len() as u8;
                l.expanded = true;
                if children.is_empty() {
                    let o = leaf.pos.final_outcome(&rules, EndReason::NoLegalMove);
                    let (r, d) = Mcts::score(&o, mover.opponent());
                    l.terminal = Some(r);
                    l.terminal_diff = d;
                } else {
                    target = first + self.rng.random_range(0..children.len() as u32);
                    path.push(target);
                }
            }
            // Simulation: reward and difference for the player who moved into `target`.
            let t = self.tree[target as usize];
            let (reward, diff) = match t.terminal {
                Some(r) => (r, f64::from(t.terminal_diff)),
                None => self.playout(&rules, &weights, &t.pos),
            };
            // Backup: alternate the point of view up the path.
            let mut r = reward as f64;
            let mut d = diff;
            for &i in path.iter().rev() {
                let n = &mut self.tree[i as usize];
                n.visits += 1;
                n.reward += r;
                n.diff += d;
                r = 1.0 - r;
                d = -d;
            }
        }
        self.analysis(sims, max_depth)
    }

    /// A terminal score when `child` (reached by a move of `mover`) ends the game.
    fn terminal(
        &self,
        rules: &Rules,
        child: &Position,
        mover: Player,
        history: &[u128],
        path: &[u128],
        track: bool,
    ) -> Option<(f32, i16)> {
        // The arrival's ends, in the rules' order, the moves not sown: a
        // relay position whose every move is an endless relay is found when
        // it is expanded.
        let p = child.packed();
        let in_hist = |n: usize| history.iter().rev().take(n).any(|&q| q == p);
        let reason = end_reason(
            rules,
            child,
            true,
            || track && repeats_in_line(child, path.iter().copied(), in_hist),
            || no_legal_move_unsown(rules, child),
        )?;
        Some(Mcts::score(&child.final_outcome(rules, reason), mover))
    }

    fn select(&mut self, node: u32) -> u32 {
        let n = self.tree[node as usize];
        let first = n.first as usize;
        let kids = &self.tree[first..first + n.count as usize];
        let unvisited = kids.iter().filter(|k| k.visits == 0).count();
        if unvisited > 0 {
            let mut k = self.rng.random_range(0..unvisited);
            for (i, c) in kids.iter().enumerate() {
                if c.visits == 0 {
                    if k == 0 {
                        return (first + i) as u32;
                    }
                    k -= 1;
                }
            }
        }
        let ln = (f64::from(n.visits)).ln();
        let mut best = (f64::NEG_INFINITY, first);
        for (i, c) in kids.iter().enumerate() {
            let v = f64::from(c.visits);
            let u = c.reward / v + self.exploration * (ln / v).sqrt();
            if u > best.0 {
                best = (u, first + i);
            }
        }
        best.1 as u32
    }

    /// Reward and seed difference of a playout from `pos`, for the player who moved into it.
    fn playout(&mut self, rules: &Rules, weights: &Weights, pos: &Position) -> (f32, f64) {
        let mover = pos.to_move().opponent();
        let p = random_playout(
            rules,
            *pos,
            &mut self.rng,
            self.cutoff.unwrap_or(PLAYOUT_CAP),
        );
        match p.outcome {
            Some(o) => {
                let (r, d) = Mcts::score(&o, mover);
                (r, f64::from(d))
            }
            None if self.cutoff.is_some() => {
                let mut v = evaluate(&p.last, rules, weights);
                if p.last.to_move() != mover {
                    v = -v;
                }
                let r = 1.0 / (1.0 + (-f64::from(v) / 400.0).exp());
                (r as f32, f64::from(v) / f64::from(Value::SEED))
            }
            None => (0.5, 0.0),
        }
    }

    fn analysis(&self, sims: u64, depth: u32) -> Analysis {
        let root = &self.tree[0];
        let kids = &self.tree[root.first as usize..(root.first + root.count as u32) as usize];
        // A move that ends the game is worth its end, proven; any other, the
        // mean of the simulations through it.
        let value_of = |c: &Node| match c.terminal {
            Some(_) => MoveValue {
                mv: c.mv,
                value: Value::from_final_difference(i32::from(c.terminal_diff)),
                basis: Basis::Proven(Proof::CompleteSearch),
            },
            None => MoveValue {
                mv: c.mv,
                value: if c.visits == 0 {
                    Value(0)
                } else {
                    Value((c.diff / f64::from(c.visits) * f64::from(Value::SEED)).round() as i32)
                },
                basis: Basis::Estimate {
                    simulations: u64::from(c.visits),
                },
            },
        };
        let best_i = (0..kids.len())
            .max_by(|&a, &b| {
                let (x, y) = (&kids[a], &kids[b]);
                let mx = if x.visits > 0 {
                    x.reward / f64::from(x.visits)
                } else {
                    0.0
                };
                let my = if y.visits > 0 {
                    y.reward / f64::from(y.visits)
                } else {
                    0.0
                };
                x.visits
                    .cmp(&y.visits)
                    .then(mx.total_cmp(&my))
                    .then(b.cmp(&a))
            })
            .expect("the root has children");
        let mut moves: Vec<MoveValue> = kids.iter().map(value_of).collect();
        moves.sort_by_key(|m| m.mv);
        let chosen = value_of(&kids[best_i]);
        let basis = match Basis::of_position(&moves, &chosen, depth) {
            Basis::Estimate { .. } => Basis::Estimate { simulations: sims },
            other => other,
        };
        // The principal variation: most visited children down the tree.
        let mut pv = vec![kids[best_i].mv];
        let mut cur = &kids[best_i];
        while cur.expanded && cur.count > 0 {
            let ks = &self.tree[cur.first as usize..(cur.first + cur.count as u32) as usize];
            let next = ks.iter().max_by_key(|k| k.visits).expect("non-empty");
            if next.visits == 0 {
                break;
            }
            pv.push(next.mv);
            cur = next;
        }
        Analysis {
            best: Some(kids[best_i].mv),
            value: chosen.value,
            basis,
            pv,
            moves,
            depth,
            nodes: sims,
        }
    }
}

impl Agent for Mcts {
    fn name(&self) -> String {
        match self.cutoff {
            Some(k) => format!("mcts({}, cutoff={k})", self.budget),
            None => format!("mcts({})", self.budget),
        }
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        self.run(game).best
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        self.run(game)
    }

    /// Room for the largest tree the budget can grow (each simulation
    /// expands at most one leaf, into at most six children), so that the
    /// search never reallocates it.
    fn prepare(&mut self, _rules: &Rules) -> Result<(), OutOfMemory> {
        let simulations = match self.budget {
            Budget::Depth(d) => u64::from(d.max(1)) * 1000,
            Budget::Nodes(n) => n.max(1),
            Budget::Time(_) => MAX_NODES as u64,
        };
        let most =
            (simulations.saturating_mul(6).saturating_add(7)).min(MAX_NODES as u64 + 7) as usize;
        if self.tree.capacity() < most {
            try_room(&mut self.tree, most, "a Monte Carlo player's tree")?;
        }
        Ok(())
    }
}
