//! [`GuidedSearch`]: the trees of a batch, their nodes (a node holds its
//! moves) in one arena reserved (fallibly) for the whole search, node `k`
//! of every tree side by side ([`Room`]), asked and told round by round.

use rand::{Rng as _, SeedableRng};

use super::noise::{dirichlet, gumbel};
use super::rounds::{run_rounds, Answers, Rounds};
use super::select::{self, lanes, Arms, Num, Trees, GUMBEL_TREES, LANES, PADDING, PUCT_TREES};
use super::{
    check_games, end_value, SearchError, SearchOptions, SearchResult, Selection, ACTIONS, OBS,
};
use crate::games::random_move::Rng;
use crate::kernels::dispatch::{active, Kernel, Loop};
use crate::memory::{try_grow_exact, OutOfMemory};
use crate::observation::{write_view, MASK_BOOL};
use crate::rules::end::end_reason;
use crate::rules::repeat::{key_of, repeats_in_line};
use crate::{LeanGame, Player, Position, Repetition, Rules};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Reached, not yet handed out: whether it ends the game is checked
    /// next (the root's, by `start`).
    New,
    /// Handed out to the network; its edges are made, their priors not.
    Pending,
    /// Evaluated, with edges.
    Expanded,
    /// A game end: `raw_value` is exact.
    Terminal,
}

/// A position the search has reached, with its moves (its edges). A node
/// holds its edges' statistics, lane by lane as selection reads them
/// ([`Arms`]), so that a step down the tree reads one record of three
/// adjacent cache lines; the position an edge leads to is played when a
/// simulation first takes it (most edges of a short search never are).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Node {
    pos: Position,
    /// The network's value, or the exact value of a game end, for the
    /// player to move here.
    raw_value: f32,
    /// Its legal actions (mover-relative), an edge each.
    legal: u8,
    state: State,
    /// Whether `prior` and `logit` hold the priors and the logits less the
    /// largest; until then (until a simulation selects from the node a
    /// second time, most often), `logit` holds the network's logits as told
    /// (most leaves of a short search are never selected from, or once,
    /// and need no softmax).
    priors: bool,
    /// Whether a simulation has selected an edge here (the root's are
    /// chosen by its own rule, and this is not read there).
    chosen: bool,
    /// The node each edge leads to, by action, 0 while no simulation has
    /// taken it (the root is no edge's).
    to: [u32; ACTIONS],
    /// By action (the lanes of illegal actions 0): the move's logit less the largest
    /// of its siblings', its prior probability (with the root's Dirichlet
    /// noise under PUCT), its visits, and the sum of the values backed up
    /// through it, for South (one point of view for the whole tree: the
    /// player to move need not alternate).
    logit: [f32; LANES],
    prior: [f32; LANES],
    visits: [u32; LANES],
    value_sum: [f32; LANES],
}

// Three cache lines: the position and the links, then the lanes.
const _: () = assert!(std::mem::size_of::<Node>() == 192);

impl Node {
    fn new(pos: Position) -> Node {
        Node {
            pos,
            raw_value: 0.0,
            legal: 0,
            state: State::New,
            priors: false,
            chosen: false,
            to: [0; ACTIONS],
            logit: [0.0; LANES],
            prior: [0.0; LANES],
            visits: [0; LANES],
            value_sum: [0.0; LANES],
        }
    }

    /// Its edges.
    fn count(&self) -> usize {
        self.legal.count_ones() as usize
    }

    /// The priors, the softmax of the logits as told (once).
    #[inline(always)]
    fn set_priors(&mut self) {
        if self.priors {
            return;
        }
        let mut x = self.logit;
        // The logits become relative to the largest (the illegal ones minus
        // infinity, then 0).
        self.prior = select::softmax(&mut x, &PADDING[usize::from(self.legal)]);
        for (l, x) in self.logit.iter_mut().zip(x) {
            *l = if x == f32::NEG_INFINITY { 0.0 } else { x };
        }
        self.priors = true;
    }
}

/// The actions of the bit set `legal`, ascending.
fn actions(legal: u8) -> impl Iterator<Item = usize> {
    (0..ACTIONS).filter(move |a| legal >> a & 1 == 1)
}

/// An edge taken on a line: its node and its action, in one word.
fn taken(node: u32, a: usize) -> u32 {
    node << 3 | a as u32
}

/// The node and action of a [`taken`] edge.
fn untaken(e: u32) -> (usize, usize) {
    ((e >> 3) as usize, (e & 7) as usize)
}

/// One tree's nodes in the arena of every tree's ([`GuidedSearch::nodes`]):
/// node `k` of the tree at `k · stride + tree`, so that the trees' roots
/// lie side by side, and the nodes each tree reaches in a round.
struct Room<'a> {
    arena: &'a mut [Node],
    tree: usize,
    stride: usize,
}

impl std::ops::Index<usize> for Room<'_> {
    type Output = Node;
    #[inline(always)]
    fn index(&self, k: usize) -> &Node {
        &self.arena[k * self.stride + self.tree]
    }
}

impl std::ops::IndexMut<usize> for Room<'_> {
    #[inline(always)]
    fn index_mut(&mut self, k: usize) -> &mut Node {
        &mut self.arena[k * self.stride + self.tree]
    }
}

/// Whether buffers of `obs` and `mask` items hold a row for each of `games`.
pub(crate) fn check_rows(games: usize, obs: usize, mask: usize) -> Result<(), SearchError> {
    let short = |what, expected, got| SearchError::Shape {
        what,
        expected,
        leaves: games,
        got,
    };
    if obs < games * OBS {
        return Err(short("obs", games * OBS, obs));
    }
    if mask < games * ACTIONS {
        return Err(short("mask", games * ACTIONS, mask));
    }
    Ok(())
}

/// +1 for South, -1 for North: values for `player` times this are South's.
fn sign(player: Player) -> f32 {
    match player {
        Player::South => 1.0,
        Player::North => -1.0,
    }
}

/// The edges of a node (or of one node a tree, in [`Trees`]) as selection
/// sees them, made from `arms` holding the edges' value sums (for South)
/// in `q`: each edge's mean value from the point of view of the player to
/// move (`sign` of [`sign`]; 0 for an edge without visits, whose value sum
/// is 0).
#[inline(always)]
fn arms_of<V: Num>(arms: Arms<V>, sign: V) -> Arms<V> {
    Arms {
        // The padding lanes' value sums and visits are 0: their Q is the
        // sign times 0.
        q: lanes!(i => {
            if i < ACTIONS {
                sign * arms.q[i] / arms.visits[i].max(V::splat(1.0))
            } else {
                sign * arms.q[i]
            }
        }),
        ..arms
    }
}

/// No leaf: [`GuidedSearch::leaf_of`] of a tree that hands out none.
const NO_LEAF: u32 = u32::MAX;

/// One game's tree. The game itself (with the repetition window the tree's
/// ends ask) is kept apart, in `GuidedSearch::roots`, so that a round's
/// walk over the trees reads only what it uses.
struct Tree {
    rules: Rules,
    /// The positions reached, the root first: the first `len` of its room
    /// in `GuidedSearch::nodes`.
    len: u32,
    /// The root's visits (its evaluation and every simulation) and South's
    /// value sum.
    root_visits: u32,
    root_value_sum: f32,
    /// Simulations done (the root's evaluation is not one).
    sims: u64,
    /// The root's Gumbel noise, by edge.
    gumbel: [f32; LANES],
    rng: Rng,
    done: bool,
}

/// A batched search with the network in the loop. See the [module](super)
/// docs.
///
/// ```
/// use ayo_core::guided::{GuidedSearch, SearchOptions};
/// use ayo_core::{LeanGame, Position, Rules};
/// let rules = Rules::preset("oware")?;
/// let games = vec![LeanGame::new(rules, Position::start(&rules)); 4];
/// let mut search = GuidedSearch::new(SearchOptions::new(16))?;
/// search.start(&games)?;
/// // A uniform network: equal logits, value 0.
/// let results = search.run(|_obs, _mask, logits, values| {
///     logits.fill(0.0);
///     values.fill(0.0);
/// })?;
/// assert_eq!(results.len(), 4);
/// assert!((results[0].policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct GuidedSearch {
    opts: SearchOptions,
    /// The trees (those past `len` kept for their memory).
    trees: Vec<Tree>,
    /// The trees' nodes, room for `simulations + 1` a tree, node `k` of
    /// tree `i` at `k · len + i` ([`Room`]).
    nodes: Vec<Node>,
    /// The game at each tree's root, with its repetition window.
    roots: Vec<LeanGame>,
    len: usize,
    /// Sequential halving's visit counts by simulation, for 1..=6
    /// considered actions (row `m - 1`), under Gumbel search.
    considered: Vec<u32>,
    /// Each tree's line: the edges from its root to the node its
    /// simulation stands on ([`taken`]), tree `i`'s from `lines[i ·
    /// (simulations + 1)]`, `line_len[i]` of them; and that node, `at[i]`.
    lines: Vec<u32>,
    line_len: Vec<u32>,
    at: Vec<u32>,
    /// The trees walking down in a round: those to step, and those that
    /// select next, at their root and inside the tree.
    walking: Vec<u32>,
    at_root: Vec<u32>,
    inside: Vec<u32>,
    /// The leaf each tree hands out this round ([`NO_LEAF`]: none).
    leaf_of: Vec<u32>,
    /// The leaves handed out this round: their trees and their nodes, in
    /// the trees' order.
    rows: Vec<u32>,
    leaves: Vec<u32>,
    /// The observations and masks of `ask` (`ask_into` writes the caller's).
    obs: Vec<f32>,
    mask: Vec<bool>,
    /// The network's answers of `run`.
    answers: Answers,
    /// Leaves are out and await `tell`.
    asked: bool,
    results: Vec<SearchResult>,
    finished: usize,
    /// Seeds each tree's generator.
    seeder: Rng,
    /// PUCT's move is the most visited whatever the temperature (self-play
    /// past its temperature plies).
    pub(crate) greedy: bool,
    /// The instructions the rounds run on ([`active`]).
    kernel: Kernel,
}

/// The leaves handed out by a round: row `i` of each belongs to game
/// `games[i]` of the batch.
#[derive(Clone, Copy, Debug)]
pub struct Leaves<'a> {
    /// [`OBS`] seeds a leaf (float32, the player to move's view).
    pub obs: &'a [f32],
    /// [`ACTIONS`] legal flags a leaf.
    pub mask: &'a [bool],
    /// The game of each leaf.
    pub games: &'a [u32],
}

impl GuidedSearch {
    /// A search with `opts`, checked ([`SearchOptions::check`]).
    pub fn new(opts: SearchOptions) -> Result<GuidedSearch, SearchError> {
        opts.check()?;
        Ok(GuidedSearch {
            opts,
            trees: Vec::new(),
            nodes: Vec::new(),
            roots: Vec::new(),
            len: 0,
            considered: Vec::new(),
            lines: Vec::new(),
            line_len: Vec::new(),
            at: Vec::new(),
            walking: Vec::new(),
            at_root: Vec::new(),
            inside: Vec::new(),
            leaf_of: Vec::new(),
            rows: Vec::new(),
            leaves: Vec::new(),
            obs: Vec::new(),
            mask: Vec::new(),
            answers: Answers::default(),
            asked: false,
            results: Vec::new(),
            finished: 0,
            seeder: Rng::seed_from_u64(opts.seed),
            greedy: false,
            kernel: active(),
        })
    }

    /// The options.
    pub fn options(&self) -> &SearchOptions {
        &self.opts
    }

    /// Games in the current batch.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no batch has been started.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Allocates everything a search of `games` games needs (the trees at
    /// their largest, the rows of a round), so that memory running out is
    /// this error, before the search, as the players' `Agent::prepare`.
    pub fn prepare(&mut self, games: usize) -> Result<(), SearchError> {
        self.opts.check_batch(games)?;
        let sims = self.opts.simulations as usize;
        // Made once: it depends on the options only.
        if matches!(self.opts.selection, Selection::Gumbel(_)) && self.considered.is_empty() {
            try_grow_exact(&mut self.considered, 6 * sims, "sequential halving's table")?;
            self.considered.resize(6 * sims, 0);
            for (m, row) in self.considered.chunks_mut(sims).enumerate() {
                select::considered_visits(m + 1, row);
            }
        }
        let more = games.saturating_sub(self.trees.len());
        let refused = |what, each: usize| OutOfMemory {
            bytes: (more as u64).saturating_mul(each as u64),
            what,
        };
        self.trees
            .try_reserve_exact(more)
            .map_err(|_| refused("a guided search's trees", std::mem::size_of::<Tree>()))?;
        self.roots
            .try_reserve_exact(more)
            .map_err(|_| refused("a guided search's games", std::mem::size_of::<LeanGame>()))?;
        for i in 0..games {
            if i == self.trees.len() {
                // A placeholder, replaced by `start`.
                let rules = Rules::default();
                self.roots
                    .push(LeanGame::new(rules, Position::start(&rules)));
                self.trees.push(Tree {
                    rules,
                    len: 0,
                    root_visits: 0,
                    root_value_sum: 0.0,
                    sims: 0,
                    gumbel: [0.0; LANES],
                    rng: Rng::seed_from_u64(0),
                    done: true,
                });
            }
        }
        // Every tree's room in one arena, the root and a node a simulation
        // each ([`Room`]).
        let nodes = games.saturating_mul(sims + 1);
        try_grow_exact(&mut self.nodes, nodes, "a guided search's trees")?;
        if self.nodes.len() < nodes {
            let rules = Rules::default();
            // Within the room just reserved.
            self.nodes.resize(nodes, Node::new(Position::start(&rules)));
        }
        // A line holds at most a node a simulation.
        let lines = games.saturating_mul(sims + 1);
        try_grow_exact(&mut self.lines, lines, "a round's lines")?;
        for (v, what) in [
            (&mut self.line_len, "a round's lines"),
            (&mut self.at, "a round's walks"),
            (&mut self.walking, "a round's walks"),
            (&mut self.at_root, "a round's walks"),
            (&mut self.inside, "a round's walks"),
            (&mut self.leaf_of, "a round's leaves"),
            (&mut self.rows, "a round's leaves"),
            (&mut self.leaves, "a round's leaves"),
        ] {
            try_grow_exact(v, games, what)?;
        }
        // Within the room just reserved: no reallocation.
        if self.lines.len() < lines {
            self.lines.resize(lines, 0);
        }
        for v in [&mut self.line_len, &mut self.at, &mut self.leaf_of] {
            if v.len() < games {
                v.resize(games, 0);
            }
        }
        self.leaf_of.fill(NO_LEAF);
        try_grow_exact(&mut self.obs, games * OBS, "a round's observations")?;
        try_grow_exact(&mut self.mask, games * ACTIONS, "a round's masks")?;
        try_grow_exact(
            &mut self.answers.logits,
            games * ACTIONS,
            "a round's logits",
        )?;
        try_grow_exact(&mut self.answers.values, games, "a round's values")?;
        try_grow_exact(&mut self.results, games, "a search's results")?;
        Ok(())
    }

    /// Starts a search of every game of `games` (none over), dropping any
    /// search under way.
    pub fn start(&mut self, games: &[LeanGame]) -> Result<(), SearchError> {
        self.start_with(games.len(), |i, root| {
            root.clone_from(&games[i]);
            Ok::<(), SearchError>(())
        })
    }

    /// [`GuidedSearch::start`] of `games` games that `root(i, slot)` writes
    /// into the search's own slots (kept between batches), game `i` into
    /// `slot`: a caller that holds its games in another form (the Python
    /// `ayo.Game`s) makes each once, in place. `root`'s error, or the
    /// search's, stops the start, and no batch is left half started.
    pub fn start_with<E: From<SearchError>>(
        &mut self,
        games: usize,
        mut root: impl FnMut(usize, &mut LeanGame) -> Result<(), E>,
    ) -> Result<(), E> {
        // Whatever fails below, no batch is left half started.
        self.len = 0;
        self.finished = 0;
        self.asked = false;
        self.clear_round();
        self.prepare(games)?;
        for (i, slot) in self.roots[..games].iter_mut().enumerate() {
            root(i, slot)?;
        }
        self.len = games;
        let mut roots_over = Ok(());
        for (i, (t, root)) in self.trees[..self.len]
            .iter_mut()
            .zip(&mut self.roots)
            .enumerate()
        {
            if roots_over.is_ok() {
                roots_over =
                    check_games(std::slice::from_mut(root)).map_err(|_| SearchError::GameOver(i));
            }
            t.rules = *root.rules();
            self.nodes[i] = Node::new(*root.position());
            t.len = 1;
            (t.root_visits, t.root_value_sum) = (0, 0.0);
            t.sims = 0;
            t.done = false;
            t.rng = Rng::seed_from_u64(self.seeder.random());
        }
        if let Err(e) = roots_over {
            self.len = 0;
            return Err(e.into());
        }
        self.results.clear();
        self.results.resize(
            self.len,
            SearchResult {
                action: 0,
                policy: [0.0; ACTIONS],
                value: 0.0,
                visits: [0; ACTIONS],
                q: [0.0; ACTIONS],
            },
        );
        Ok(())
    }

    /// Forgets the round's leaves.
    fn clear_round(&mut self) {
        self.rows.clear();
        self.leaves.clear();
    }

    /// Whether every tree has run its simulations.
    pub fn is_done(&self) -> bool {
        self.finished == self.len
    }

    /// Collects the next round's leaves, at most one a tree, into the
    /// search's own rows ([`GuidedSearch::leaves`]); returns how many (0 once
    /// the search is done). Asked again before [`GuidedSearch::tell`], the
    /// same leaves.
    pub fn ask(&mut self) -> usize {
        let (mut obs, mut mask) = (
            std::mem::take(&mut self.obs),
            std::mem::take(&mut self.mask),
        );
        // Room for a row a game was reserved by `prepare`: no reallocation.
        // Sized once, not a round (`leaves` shows the round's rows).
        if obs.len() < self.len * OBS {
            obs.resize(self.len * OBS, 0.0);
        }
        if mask.len() < self.len * ACTIONS {
            mask.resize(self.len * ACTIONS, false);
        }
        // The buffers were just sized for every game: never refused.
        let n = self.ask_into(&mut obs, &mut mask).unwrap_or(0);
        (self.obs, self.mask) = (obs, mask);
        n
    }

    /// [`GuidedSearch::ask`] writing the rows into the caller's `obs` (at
    /// least [`OBS`] × games, else [`SearchError::Shape`]) and `mask`
    /// ([`ACTIONS`] × games); asked again before [`GuidedSearch::tell`],
    /// writes nothing and returns the same count.
    pub fn ask_into(&mut self, obs: &mut [f32], mask: &mut [bool]) -> Result<usize, SearchError> {
        check_rows(self.len, obs.len(), mask.len())?;
        if self.asked {
            return Ok(self.rows.len());
        }
        self.clear_round();
        self.kernel.run(AskRound {
            search: self,
            obs,
            mask,
        });
        self.asked = !self.rows.is_empty();
        Ok(self.rows.len())
    }

    /// The body of [`GuidedSearch::ask_into`], compiled for the CPU's
    /// kernel ([`AskRound`]). Every tree's simulation walks down level by
    /// level: at each level the trees standing on an expanded node select
    /// together, several at a time ([`GuidedSearch::select_in`]), and
    /// each steps down its chosen edge; a tree reaching a node not yet
    /// evaluated hands it out, or scores the game end there and begins its
    /// next simulation. The leaves are written in the trees' order.
    #[inline(always)]
    fn ask_trees(&mut self, obs: &mut [f32], mask: &mut [bool]) {
        self.walking.clear();
        for i in 0..self.len {
            if !self.trees[i].done {
                self.walking.push(i as u32);
            }
        }
        // `select::first_visit`'s scale of the priors.
        let first_scale = match self.opts.selection {
            Selection::Puct(p) => p.c_puct,
            Selection::Gumbel(_) => 1.0,
        };
        let mut first = true;
        while !self.walking.is_empty() {
            self.at_root.clear();
            self.inside.clear();
            for w in 0..self.walking.len() {
                let i = self.walking[w] as usize;
                // Until the tree stands on an expanded node, hands out a
                // leaf or has run its simulations.
                let mut begin = first;
                loop {
                    if begin && !self.begin(i) {
                        self.finish(i);
                        break;
                    }
                    let node = self.at[i];
                    let at = self.slot(i, node);
                    let n = &mut self.nodes[at];
                    if n.state == State::Expanded {
                        if node != 0 && !n.chosen {
                            // Its first selection: no child has a visit,
                            // and the priors alone choose (the logits, most
                            // often), here, onto a new node.
                            n.chosen = true;
                            let a = select::first_visit_by_logits(&n.logit, n.legal, first_scale)
                                .unwrap_or_else(|| {
                                    n.set_priors();
                                    select::first_visit(&n.prior, n.legal, first_scale)
                                });
                            self.descend(i, a);
                            begin = false;
                            continue;
                        }
                        n.set_priors();
                        match node {
                            0 => self.at_root.push(i as u32),
                            _ => self.inside.push(i as u32),
                        }
                        break;
                    }
                    if self.reach_leaf(i) {
                        self.leaf_of[i] = node;
                        break;
                    }
                    begin = true;
                }
            }
            first = false;
            self.walking.clear();
            self.select_in(true);
            self.select_in(false);
        }
        for i in 0..self.len {
            let leaf = self.leaf_of[i];
            if leaf == NO_LEAF {
                continue;
            }
            self.leaf_of[i] = NO_LEAF;
            let r = self.rows.len();
            let node = &self.nodes[self.slot(i, leaf)];
            write_view(
                &node.pos.view(node.pos.to_move()),
                &mut obs[r * OBS..(r + 1) * OBS],
            );
            mask[r * ACTIONS..(r + 1) * ACTIONS]
                .copy_from_slice(&MASK_BOOL[usize::from(node.legal)]);
            self.rows.push(i as u32);
            self.leaves.push(leaf);
        }
    }

    /// The leaves of the last [`GuidedSearch::ask`].
    pub fn leaves(&self) -> Leaves<'_> {
        let n = if self.asked { self.rows.len() } else { 0 };
        Leaves {
            obs: &self.obs[..(n * OBS).min(self.obs.len())],
            mask: &self.mask[..(n * ACTIONS).min(self.mask.len())],
            games: &self.rows[..n],
        }
    }

    /// The games of the leaves handed out and awaiting values.
    pub fn leaf_games(&self) -> &[u32] {
        if self.asked {
            &self.rows
        } else {
            &[]
        }
    }

    /// The network's answer for the leaves handed out: [`ACTIONS`] logits a
    /// leaf (those of illegal actions are ignored, and may be anything; the
    /// legal ones must be finite) and a value a leaf, in `[-1, 1]` (up to
    /// 1e-4 beyond, clamped) for the player to move there. Checked first:
    /// on error nothing changes.
    pub fn tell(&mut self, logits: &[f32], values: &[f32]) -> Result<(), SearchError> {
        if !self.asked {
            return Err(SearchError::NotAsked);
        }
        let n = self.rows.len();
        let shape = |what, expected, got| SearchError::Shape {
            what,
            expected,
            leaves: n,
            got,
        };
        if logits.len() != n * ACTIONS {
            return Err(shape("logits", n * ACTIONS, logits.len()));
        }
        if values.len() != n {
            return Err(shape("values", n, values.len()));
        }
        // Most answers are all in range: checked at once, without a branch a
        // number, before any leaf is looked at.
        let values_fine = values
            .iter()
            .fold(true, |ok, v| ok & (v.abs() <= 1.0 + 1e-4));
        let logits_fine = logits.iter().fold(true, |ok, l| ok & l.is_finite());
        for (r, &v) in values.iter().enumerate() {
            if values_fine && logits_fine {
                break;
            }
            if !(v.is_finite() && v.abs() <= 1.0 + 1e-4) {
                return Err(SearchError::BadNumber {
                    what: "the value".into(),
                    leaf: r,
                    range: "a finite number in [-1, 1]",
                    value: v.into(),
                });
            }
            let leaf = &self.nodes[self.slot(self.rows[r] as usize, self.leaves[r])];
            let row = &logits[r * ACTIONS..(r + 1) * ACTIONS];
            if let Some(a) = actions(leaf.legal).find(|&a| !row[a].is_finite()) {
                return Err(SearchError::BadNumber {
                    what: format!("the logit of legal action {a}"),
                    leaf: r,
                    range: "finite",
                    value: row[a].into(),
                });
            }
        }
        self.kernel.run(TellRound {
            search: self,
            logits,
            values,
        });
        self.asked = false;
        self.clear_round();
        Ok(())
    }

    /// Every game's result, once [`GuidedSearch::is_done`].
    pub fn results(&self) -> Result<&[SearchResult], SearchError> {
        if self.is_done() {
            Ok(&self.results[..self.len])
        } else {
            Err(SearchError::NotDone)
        }
    }

    /// Asks and tells until the search is done, `evaluate(obs, mask, logits,
    /// values)` answering each round (it fills `logits` and `values`, a row a
    /// leaf); the results. A started search ([`GuidedSearch::start`]).
    pub fn run(
        &mut self,
        evaluate: impl FnMut(&[f32], &[bool], &mut [f32], &mut [f32]),
    ) -> Result<&[SearchResult], SearchError> {
        run_rounds(self, evaluate)?;
        self.results()
    }

    /// The body of [`GuidedSearch::tell`] once the answers are checked,
    /// compiled for the CPU's kernel ([`TellRound`]).
    #[inline(always)]
    fn expand_leaves(&mut self, logits: &[f32], values: &[f32]) {
        for r in 0..self.rows.len() {
            let row = &logits[r * ACTIONS..(r + 1) * ACTIONS];
            self.expand(r, row, values[r].clamp(-1.0, 1.0));
        }
    }

    /// Where tree `i`'s line starts in `lines` (room for a node a
    /// simulation and the root: a line is at most a node a simulation).
    fn base(&self, i: usize) -> usize {
        i * (self.opts.simulations as usize + 1)
    }

    /// Where node `k` of tree `i` is in `nodes` ([`Room`]).
    #[inline(always)]
    fn slot(&self, i: usize, k: u32) -> usize {
        k as usize * self.len + i
    }

    /// Tree `i`'s nodes ([`Room`]).
    #[inline(always)]
    fn room(nodes: &mut [Node], len: usize, i: usize) -> Room<'_> {
        Room {
            arena: nodes,
            tree: i,
            stride: len,
        }
    }

    /// Begins tree `i`'s next simulation at its root; false when it has run
    /// them all (and its root is evaluated).
    #[inline(always)]
    fn begin(&mut self, i: usize) -> bool {
        let t = &self.trees[i];
        if t.sims >= self.opts.simulations && self.nodes[i].state != State::New {
            return false;
        }
        self.at[i] = 0;
        self.line_len[i] = 0;
        true
    }

    /// Tree `i`'s simulation at a node that is not expanded: a game end,
    /// scored and backed up (false), or a leaf for the network, its edges
    /// made, pending (true).
    #[inline(always)]
    fn reach_leaf(&mut self, i: usize) -> bool {
        let opts = self.opts;
        let start = self.base(i);
        let line = &self.lines[start..start + self.line_len[i] as usize];
        let root = &self.roots[i];
        let t = &mut self.trees[i];
        let mut nodes = Self::room(&mut self.nodes, self.len, i);
        let rules = t.rules;
        let node = self.at[i];
        let n = &nodes[node as usize];
        let (pos, state, raw_value) = (n.pos, n.state, n.raw_value);
        if state == State::Terminal {
            t.backup(&mut nodes, line, raw_value, pos.to_move());
            t.sims += 1;
            return false;
        }
        // A pending or expanded node ends no line: one leaf a tree a
        // round, told before the next round.
        debug_assert_eq!(state, State::New);
        let legal = pos.legal_actions(&rules);
        // The root's game is not over (`start` checked).
        let end = if node == 0 {
            None
        } else {
            let nodes = &nodes;
            let repeated = || {
                rules.repetition() == Repetition::OwnSide && {
                    let earlier = line.iter().map(|&e| nodes[untaken(e).0].pos.packed());
                    let p = pos;
                    repeats_in_line(&p, earlier, |_| {
                        root.window()
                            .holds(&rules, key_of(p.board_key()), || p.packed())
                    })
                }
            };
            end_reason(&rules, &pos, true, repeated, || legal == 0)
        };
        let m = &mut nodes[node as usize];
        if let Some(reason) = end {
            let o = pos.final_outcome(&rules, reason);
            let v = end_value(opts.values, &rules, &o, pos.to_move());
            m.state = State::Terminal;
            m.raw_value = v;
            t.backup(&mut nodes, line, v, pos.to_move());
            t.sims += 1;
            return false;
        }
        m.legal = legal;
        m.state = State::Pending;
        true
    }

    /// The trees of `at_root` (or of `inside`) select an edge at the
    /// expanded node they stand on, several at a time ([`PUCT_TREES`],
    /// [`GUMBEL_TREES`]), and step down it (into `walking`).
    #[inline(always)]
    fn select_in(&mut self, root: bool) {
        let list = std::mem::take(if root {
            &mut self.at_root
        } else {
            &mut self.inside
        });
        match self.opts.selection {
            Selection::Puct(_) => self.select_chunks::<PUCT_TREES>(&list, root),
            Selection::Gumbel(_) => self.select_chunks::<GUMBEL_TREES>(&list, root),
        }
        if root {
            self.at_root = list;
        } else {
            self.inside = list;
        }
    }

    /// [`GuidedSearch::select_in`] of the trees of `list`, `N` at a time.
    #[inline(always)]
    fn select_chunks<const N: usize>(&mut self, list: &[u32], root: bool) {
        for chunk in list.chunks(N) {
            let chosen = self.choose::<N>(chunk, root);
            for (&i, a) in chunk.iter().zip(chosen.0) {
                self.step(i as usize, a as usize);
            }
        }
    }

    /// The edges the trees of `chunk` (1 to `N` of them; the last
    /// stands in for the missing) take at the nodes they stand on, at their
    /// roots if `root`: each node's lanes gathered into a lane of
    /// [`Trees`] and the selection run on them all at once.
    #[inline(always)]
    // Lanes of the nodes and of the trees indexed side by side.
    #[allow(clippy::needless_range_loop)]
    fn choose<const N: usize>(&self, chunk: &[u32], root: bool) -> Trees<N> {
        let mut nodes = [&self.nodes[0]; N];
        for (k, n) in nodes.iter_mut().enumerate() {
            let i = chunk[k.min(chunk.len() - 1)] as usize;
            *n = &self.nodes[self.slot(i, self.at[i])];
        }
        // Lane `a` of every node, a vector at a time (lanes 6 and 7 are
        // padding, as they were made: 0, and infinity in `pad`).
        let mut signs = Trees::splat(0.0);
        let mut raw = Trees::splat(0.0);
        let mut first = Trees::splat(0.0);
        for k in 0..N {
            let n = nodes[k];
            first.0[k] = n.legal.trailing_zeros() as f32;
            signs.0[k] = sign(n.pos.to_move());
            raw.0[k] = n.raw_value;
        }
        let arms = Arms {
            pad: Trees::transpose(std::array::from_fn(|k| {
                &PADDING[usize::from(nodes[k].legal)]
            })),
            first,
            logit: Trees::transpose(std::array::from_fn(|k| &nodes[k].logit)),
            prior: Trees::transpose(std::array::from_fn(|k| &nodes[k].prior)),
            visits: Trees::transpose_counts(std::array::from_fn(|k| &nodes[k].visits)),
            q: Trees::transpose(std::array::from_fn(|k| &nodes[k].value_sum)),
        };
        let arms = arms_of(arms, signs);
        match self.opts.selection {
            Selection::Puct(p) => select::puct(&arms, p.c_puct),
            Selection::Gumbel(g) if root => {
                let sims = self.opts.simulations as usize;
                let mut gumbel = [Trees::splat(0.0); LANES];
                let mut wanted = Trees::splat(0.0);
                for k in 0..N {
                    let i = chunk[k.min(chunk.len() - 1)] as usize;
                    let t = &self.trees[i];
                    let m = self.nodes[i].count();
                    let m = m.min(usize::from(g.max_considered));
                    let j = (t.root_visits as usize).saturating_sub(1).min(sims - 1);
                    wanted.0[k] = self.considered[(m - 1) * sims + j] as f32;
                    for a in 0..ACTIONS {
                        gumbel[a].0[k] = t.gumbel[a];
                    }
                }
                select::gumbel_root(&arms, &gumbel, raw, &g, wanted)
            }
            Selection::Gumbel(g) => select::gumbel_interior(&arms, raw, &g),
        }
    }

    /// Tree `i` takes edge `a` of the node it stands on ([`Self::descend`])
    /// and walks on at the next level.
    #[inline(always)]
    fn step(&mut self, i: usize, a: usize) {
        self.descend(i, a);
        self.walking.push(i as u32);
    }

    /// Tree `i` takes edge `a` of the node it stands on: onto its line, and
    /// down to the node it leads to (its move played, the first time).
    #[inline(always)]
    fn descend(&mut self, i: usize, a: usize) {
        let node = self.at[i];
        let len = self.line_len[i] as usize;
        // A line is at most a node a simulation: within its room.
        let start = self.base(i);
        self.lines[start + len] = taken(node, a);
        self.line_len[i] += 1;
        let t = &mut self.trees[i];
        let mut nodes = Self::room(&mut self.nodes, self.len, i);
        self.at[i] = match nodes[node as usize].to[a] {
            0 => t.reach(&mut nodes, node, a),
            next => next,
        };
    }

    /// Sets the priors of row `r`'s pending leaf from `logits` and backs up
    /// `value`.
    #[inline(always)]
    fn expand(&mut self, r: usize, logits: &[f32], value: f32) {
        let opts = self.opts;
        let i = self.rows[r] as usize;
        let start = self.base(i);
        let line = &self.lines[start..start + self.line_len[i] as usize];
        let t = &mut self.trees[i];
        let mut nodes = Self::room(&mut self.nodes, self.len, i);
        let leaf = self.leaves[r] as usize;
        let node = &mut nodes[leaf];
        let count = node.count();
        // Kept as told, in the legal lanes (the others may be anything).
        let pad = &PADDING[usize::from(node.legal)];
        for ((l, &told), &pad) in node.logit.iter_mut().zip(logits).zip(pad) {
            *l = if pad == 0.0 { told } else { 0.0 };
        }
        if leaf == 0 {
            // The root's priors now: its noise is mixed into them.
            node.set_priors();
            match opts.selection {
                Selection::Puct(p) if p.dirichlet_fraction > 0.0 => {
                    let mut noise = [0.0f32; ACTIONS];
                    dirichlet(&mut t.rng, p.dirichlet_alpha, &mut noise[..count]);
                    for (a, n) in actions(node.legal).zip(noise) {
                        let prior = &mut node.prior[a];
                        *prior = (1.0 - p.dirichlet_fraction) * *prior + p.dirichlet_fraction * n;
                    }
                }
                Selection::Puct(_) => {}
                Selection::Gumbel(g) => {
                    t.gumbel = [0.0; LANES];
                    for a in actions(node.legal) {
                        t.gumbel[a] = g.gumbel_scale * gumbel(&mut t.rng);
                    }
                }
            }
        }
        node.raw_value = value;
        node.state = State::Expanded;
        let mover = node.pos.to_move();
        t.backup(&mut nodes, line, value, mover);
        if leaf != 0 {
            t.sims += 1;
        }
    }

    /// Tree `i`'s result: the chosen action, the policy target, the value.
    fn finish(&mut self, i: usize) {
        let opts = self.opts;
        let t = &mut self.trees[i];
        t.done = true;
        let root = &self.nodes[i];
        let (root_pos, root_raw, root_legal) = (root.pos, root.raw_value, root.legal);
        let arms = node_arms(root);
        let mut r = SearchResult {
            action: 0,
            policy: [0.0; ACTIONS],
            value: sign(root_pos.to_move()) * t.root_value_sum / t.root_visits.max(1) as f32,
            visits: [0; ACTIONS],
            q: [0.0; ACTIONS],
        };
        for a in actions(root_legal) {
            r.visits[a] = arms.visits[a] as u32;
            r.q[a] = arms.q[a];
        }
        let chosen = match opts.selection {
            Selection::Puct(p) => {
                let total: f32 = arms.visits.iter().sum();
                for a in actions(root_legal) {
                    r.policy[a] = arms.visits[a] / total.max(1.0);
                }
                let best = actions(root_legal)
                    .max_by(|&a, &b| {
                        (arms.visits[a], arms.prior[a])
                            .partial_cmp(&(arms.visits[b], arms.prior[b]))
                            .expect("finite")
                            .then(b.cmp(&a))
                    })
                    .expect("the root has children");
                if p.temperature == 0.0 || self.greedy || total == 0.0 {
                    best
                } else {
                    // n^(1/T), relative to the most visited so that a small
                    // temperature cannot overflow.
                    let top = f64::from(arms.visits[best]);
                    let mut weights = [0.0f64; ACTIONS];
                    for a in actions(root_legal) {
                        weights[a] =
                            (f64::from(arms.visits[a]) / top).powf(1.0 / f64::from(p.temperature));
                    }
                    let sum: f64 = weights.iter().sum();
                    let mut x = t.rng.random::<f64>() * sum;
                    let mut pick = best;
                    for (a, &w) in weights.iter().enumerate() {
                        if w > 0.0 {
                            pick = a;
                            if x < w {
                                break;
                            }
                            x -= w;
                        }
                    }
                    pick
                }
            }
            Selection::Gumbel(g) => {
                let pi = select::improved_policy(&arms, root_raw, &g);
                r.policy.copy_from_slice(&pi[..ACTIONS]);
                let most = arms.visits.iter().copied().fold(0.0, f32::max);
                select::gumbel_root(&arms, &t.gumbel, root_raw, &g, most) as usize
            }
        };
        r.action = chosen as u8;
        self.results[i] = r;
        self.finished += 1;
    }
}

/// The edges of node `n` as selection sees them, from the point of view of
/// its player to move.
fn node_arms(n: &Node) -> Arms<f32> {
    let mut visits = [0.0; LANES];
    for (v, &n) in visits.iter_mut().zip(&n.visits) {
        *v = n as i32 as f32;
    }
    let arms = Arms {
        pad: PADDING[usize::from(n.legal)],
        first: n.legal.trailing_zeros() as f32,
        logit: n.logit,
        prior: n.prior,
        visits,
        q: n.value_sum,
    };
    arms_of(arms, sign(n.pos.to_move()))
}

impl Tree {
    /// The node edge `a` of `node` leads to, reached for the first time:
    /// its move played (a legal move's sowing ends), the tree's next node
    /// in `nodes` (its room).
    #[inline(always)]
    fn reach(&mut self, nodes: &mut Room<'_>, node: u32, a: usize) -> u32 {
        let n = &nodes[node as usize];
        let mv = n.pos.move_for_action(a as u8).expect("a legal action");
        let pos = n.pos.play_unchecked_inline(&self.rules, mv);
        let next = self.len;
        // Within the room `prepare` made: a node a simulation.
        nodes[next as usize] = Node::new(pos);
        self.len += 1;
        nodes[node as usize].to[a] = next;
        next
    }

    /// Backs `value` (for `player`) up the root and the edges of `line`
    /// (of the tree's `nodes`).
    #[inline(always)]
    fn backup(&mut self, nodes: &mut Room<'_>, line: &[u32], value: f32, player: Player) {
        let v = sign(player) * value;
        self.root_visits += 1;
        self.root_value_sum += v;
        for &e in line {
            let (node, j) = untaken(e);
            let n = &mut nodes[node];
            n.visits[j] += 1;
            n.value_sum[j] += v;
        }
    }
}

/// A round's asking, run by [`Kernel::run`] so that the walks down the
/// trees and selection's lane formulas are compiled for the CPU's widest
/// vectors (the same operations in the same order on every kernel, so the
/// same search).
struct AskRound<'a> {
    search: &'a mut GuidedSearch,
    obs: &'a mut [f32],
    mask: &'a mut [bool],
}

impl Loop for AskRound<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.search.ask_trees(self.obs, self.mask);
    }
}

/// A round's telling (the priors' softmax and the backups), as [`AskRound`].
struct TellRound<'a> {
    search: &'a mut GuidedSearch,
    logits: &'a [f32],
    values: &'a [f32],
}

impl Loop for TellRound<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.search.expand_leaves(self.logits, self.values);
    }
}

impl Rounds for GuidedSearch {
    fn ask_round(&mut self) -> Result<usize, SearchError> {
        Ok(self.ask())
    }
    fn leaves(&self) -> (&[f32], &[bool]) {
        let l = GuidedSearch::leaves(self);
        (l.obs, l.mask)
    }
    fn answers(&mut self) -> &mut Answers {
        &mut self.answers
    }
    fn tell_round(&mut self, logits: &[f32], values: &[f32]) -> Result<(), SearchError> {
        self.tell(logits, values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guided::{Gumbel, Puct, Values};
    use crate::{Game, Rules};

    /// Every node the search reached, replayed in a full `Game` from the
    /// root's history: a terminal node is exactly a game end with the
    /// core's value, an evaluated node a game that goes on with the same
    /// legal actions.
    pub(super) fn check_tree_pub(t: &[Node], game: &mut Game, node: u32, values: Values) {
        check_tree(t, game, node, values);
    }

    impl GuidedSearch {
        /// Tree `i`'s nodes.
        pub(super) fn tree_nodes(&self, i: usize) -> Vec<Node> {
            (0..self.trees[i].len)
                .map(|k| self.nodes[self.slot(i, k)])
                .collect()
        }
    }

    fn check_tree(t: &[Node], game: &mut Game, node: u32, values: Values) {
        let n = t[node as usize];
        assert_eq!(*game.position(), n.pos);
        match n.state {
            State::New => {}
            State::Terminal => {
                let o = game.outcome().expect("a terminal node ends the game");
                let v = end_value(values, game.rules(), &o, n.pos.to_move());
                assert_eq!(n.raw_value, v);
            }
            State::Pending | State::Expanded => {
                assert!(game.outcome().is_none(), "{:?}", n.pos);
                assert_eq!(n.legal, game.legal_action_mask());
                for a in 0..ACTIONS {
                    // An edge leads to a node once a simulation took it.
                    assert_eq!(n.to[a] != 0, n.visits[a] > 0);
                    if n.legal >> a & 1 == 0 {
                        assert_eq!((n.visits[a], n.prior[a], n.logit[a]), (0, 0.0, 0.0));
                    } else if n.to[a] != 0 {
                        game.play(n.pos.move_for_action(a as u8).unwrap()).unwrap();
                        check_tree(t, game, n.to[a], values);
                        game.undo();
                    }
                }
            }
        }
    }

    /// A game of `rules` after up to `plies` random moves, if it goes on.
    fn random_game(rules: Rules, plies: usize, rng: &mut Rng) -> Option<Game> {
        let mut game = Game::new(rules);
        for _ in 0..plies {
            let legal = game.legal_moves().to_vec();
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(legal[rng.random_range(0..legal.len())]).unwrap();
        }
        (game.outcome().is_none() && !game.legal_moves().is_empty()).then_some(game)
    }

    #[test]
    fn the_trees_ends_are_the_core_s() {
        let mut rng = Rng::seed_from_u64(11);
        let mut terminals = 0;
        for preset in ["ayoayo", "ayo", "olopon", "oware"] {
            let rules = Rules::preset(preset).unwrap();
            for (k, values) in [Values::Outcome, Values::SeedDifference]
                .into_iter()
                .enumerate()
            {
                // Roots from the opening to deep in random games, where the
                // ends (and the move limits and repetitions) are near.
                let mut games = Vec::new();
                let mut fulls = Vec::new();
                for g in 0..12 {
                    let plies = [0, 20, 60, 120, 200, 400][g % 6] + k * 7;
                    if let Some(game) = random_game(rules, plies, &mut rng) {
                        games.push(LeanGame::from_game(&game));
                        fulls.push(game);
                    }
                }
                let selection = if k == 0 {
                    Selection::Puct(Puct::default())
                } else {
                    Selection::Gumbel(Gumbel::default())
                };
                let opts = SearchOptions {
                    simulations: 200,
                    selection,
                    values,
                    seed: 3,
                };
                let mut s = GuidedSearch::new(opts).unwrap();
                s.start(&games).unwrap();
                s.run(|_, _, l, v| {
                    l.fill(0.0);
                    v.fill(0.0);
                })
                .unwrap();
                for (i, (t, game)) in s.trees.iter().zip(&mut fulls).enumerate() {
                    let nodes = s.tree_nodes(i);
                    terminals += nodes.iter().filter(|n| n.state == State::Terminal).count();
                    check_tree(&nodes, game, 0, values);
                    // The root's visits: its evaluation and every simulation.
                    assert_eq!(u64::from(t.root_visits), opts.simulations + 1);
                }
            }
        }
        assert!(terminals > 40, "{terminals} terminal nodes");
    }

    #[test]
    fn every_kernel_searches_the_same() {
        // The lane formulas are compiled once a kernel: the same operations
        // in the same order, so the same trees, bit for bit.
        let mut rng = Rng::seed_from_u64(5);
        for preset in ["oware", "ayoayo"] {
            let rules = Rules::preset(preset).unwrap();
            let games: Vec<LeanGame> = (0..16)
                .filter_map(|g| random_game(rules, g * 5, &mut rng))
                .map(|game| LeanGame::from_game(&game))
                .collect();
            for selection in [
                Selection::Puct(Puct::default()),
                Selection::Gumbel(Gumbel::default()),
            ] {
                let opts = SearchOptions {
                    selection,
                    ..SearchOptions::new(64)
                };
                let mut seen: Option<Vec<SearchResult>> = None;
                for kernel in Kernel::available() {
                    let mut s = GuidedSearch::new(opts).unwrap();
                    s.kernel = kernel;
                    s.start(&games).unwrap();
                    // A network that tells the leaves apart: logits and values from
                    // the observation.
                    let r = s
                        .run(|obs, _, logits, values| {
                            for (i, v) in values.iter_mut().enumerate() {
                                let o = &obs[i * OBS..(i + 1) * OBS];
                                *v = ((o[0] - o[6]) / 10.0).clamp(-1.0, 1.0);
                                for (a, l) in logits[i * ACTIONS..(i + 1) * ACTIONS]
                                    .iter_mut()
                                    .enumerate()
                                {
                                    *l = o[a] * 0.3 - o[11 - a] * 0.1;
                                }
                            }
                        })
                        .unwrap()
                        .to_vec();
                    match &seen {
                        None => seen = Some(r),
                        Some(first) => {
                            for (a, b) in first.iter().zip(&r) {
                                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{kernel}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn repetition_inside_the_tree_and_before_the_root() {
        // Oware late in random games, where no capture is near: the search
        // meets repeated positions, which the replay in `Game` confirms.
        let rules = Rules::preset("oware").unwrap();
        let mut rng = Rng::seed_from_u64(2);
        let mut found = 0;
        for _ in 0..40 {
            let mut game = Game::new(rules);
            while game.outcome().is_none() && game.position().board_seeds() > 6 {
                let legal = game.legal_moves().to_vec();
                game.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
            if game.outcome().is_some() {
                continue;
            }
            let mut s = GuidedSearch::new(SearchOptions::new(300)).unwrap();
            s.start(&[LeanGame::from_game(&game)]).unwrap();
            s.run(|_, _, l, v| {
                l.fill(0.0);
                v.fill(0.0);
            })
            .unwrap();
            let t = s.tree_nodes(0);
            check_tree(&t, &mut game.clone(), 0, Values::Outcome);
            found += t
                .iter()
                .filter(|n| {
                    n.state == State::Terminal
                        && n.pos.ended_by_counters(&rules).is_none()
                        && !n.pos.children(&rules).is_empty()
                })
                .count();
        }
        assert!(found > 0, "no repetition met");
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;
    use crate::games::record::parse_position;
    use crate::guided::Values;
    use crate::{EndReason, Game};

    #[test]
    fn move_limits_end_inside_the_tree() {
        // Two moves short of the limit (ayo: 60, olopon: 40 without a
        // capture): the ends by the limit are terminal nodes, scored as the
        // core scores them (the replay in a `Game` checks each node).
        for (preset, limit) in [("ayo", 60), ("olopon", 40)] {
            let mut limits = 0;
            for board in [
                "4,4,4,4,4,4/4,4,4,4,4,4 0-0",
                "1,3,0,2,1,0/0,2,1,3,0,1 18-16",
                "2,0,5,1,0,3/1,1,0,4,2,0 15-14",
            ] {
                let text = format!("{preset} {board} s {} 120", limit - 1);
                let (rules, pos) = parse_position(&text).unwrap();
                let mut game = Game::from_position(rules, pos);
                let mut s = GuidedSearch::new(SearchOptions::new(60)).unwrap();
                s.start(&[LeanGame::from_game(&game)]).unwrap();
                s.run(|_, _, l, v| {
                    l.fill(0.0);
                    v.fill(0.0);
                })
                .unwrap();
                let t = s.tree_nodes(0);
                super::tests::check_tree_pub(&t, &mut game, 0, Values::Outcome);
                limits += t
                    .iter()
                    .filter(|n| {
                        n.state == State::Terminal
                            && n.pos.ended_by_counters(&rules) == Some(EndReason::MoveLimit)
                    })
                    .count();
            }
            assert!(limits > 0, "{preset}: no end by the move limit");
        }
    }
}
