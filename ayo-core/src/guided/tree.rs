//! [`GuidedSearch`]: the trees of a batch, each an arena of nodes in a
//! `Vec` reserved (fallibly) for its whole search, asked and told round by
//! round.

use rand::{Rng as _, SeedableRng};

use super::noise::{dirichlet, gumbel};
use super::rounds::{run_rounds, Answers, Rounds};
use super::select::{self, Arm};
use super::{
    check_games, end_value, SearchError, SearchOptions, SearchResult, Selection, ACTIONS, OBS,
};
use crate::games::random_move::Rng;
use crate::memory::{try_grow_exact, OutOfMemory};
use crate::observation::{write_view, MASK_BOOL};
use crate::rules::end::end_reason;
use crate::rules::repeat::{key_of, repeats_in_line};
use crate::{LeanGame, Player, Position, Repetition};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Not reached yet: whether it ends the game is not known.
    New,
    /// Handed out to the network; its children are made, their priors not.
    Pending,
    /// Evaluated, with children.
    Expanded,
    /// A game end: `raw_value` is exact.
    Terminal,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    pos: Position,
    /// The sum of the values backed up through the node, for South (one
    /// point of view for the whole tree: the player to move need not
    /// alternate).
    value_sum: f32,
    /// The network's value, or the exact value of a game end, for the
    /// player to move here.
    raw_value: f32,
    /// The logit of the move into the node, less the largest of its siblings'.
    logit: f32,
    /// Its prior probability (with the root's Dirichlet noise under PUCT).
    prior: f32,
    visits: u32,
    /// The first child; the children are contiguous, in action order.
    first: u32,
    /// The mover-relative action into the node.
    action: u8,
    count: u8,
    state: State,
}

impl Node {
    fn new(pos: Position, action: u8) -> Node {
        Node {
            pos,
            value_sum: 0.0,
            raw_value: 0.0,
            logit: 0.0,
            prior: 0.0,
            visits: 0,
            first: 0,
            action,
            count: 0,
            state: State::New,
        }
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

struct Tree {
    /// The game at the root, with its repetition window.
    root: LeanGame,
    nodes: Vec<Node>,
    /// The line from the root to the leaf being searched.
    path: Vec<u32>,
    /// Simulations done (the root's evaluation is not one).
    sims: u64,
    /// The root's Gumbel noise, by child.
    gumbel: [f32; ACTIONS],
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
    len: usize,
    /// Sequential halving's visit counts by simulation, for 1..=6
    /// considered actions (row `m - 1`), under Gumbel search.
    considered: Vec<u32>,
    /// The leaves handed out this round: their trees.
    rows: Vec<u32>,
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
            len: 0,
            considered: Vec::new(),
            rows: Vec::new(),
            obs: Vec::new(),
            mask: Vec::new(),
            answers: Answers::default(),
            asked: false,
            results: Vec::new(),
            finished: 0,
            seeder: Rng::seed_from_u64(opts.seed),
            greedy: false,
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
        let per_tree = self.opts.nodes_per_tree() as usize;
        let sims = self.opts.simulations as usize;
        // Made once: it depends on the options only.
        if matches!(self.opts.selection, Selection::Gumbel(_)) && self.considered.is_empty() {
            try_grow_exact(&mut self.considered, 6 * sims, "sequential halving's table")?;
            self.considered.resize(6 * sims, 0);
            for (m, row) in self.considered.chunks_mut(sims).enumerate() {
                select::considered_visits(m + 1, row);
            }
        }
        if self.trees.len() < games {
            let more = games - self.trees.len();
            self.trees
                .try_reserve_exact(more)
                .map_err(|_| OutOfMemory {
                    bytes: (more as u64).saturating_mul(std::mem::size_of::<Tree>() as u64),
                    what: "a guided search's trees",
                })?;
        }
        for i in 0..games {
            if i == self.trees.len() {
                // A placeholder root, replaced by `start`.
                let rules = crate::Rules::default();
                self.trees.push(Tree {
                    root: LeanGame::new(rules, Position::start(&rules)),
                    nodes: Vec::new(),
                    path: Vec::new(),
                    sims: 0,
                    gumbel: [0.0; ACTIONS],
                    rng: Rng::seed_from_u64(0),
                    done: true,
                });
            }
            let t = &mut self.trees[i];
            try_grow_exact(&mut t.nodes, per_tree, "a guided search's tree")?;
            try_grow_exact(&mut t.path, sims + 2, "a guided search's path")?;
        }
        try_grow_exact(&mut self.rows, games, "a round's leaves")?;
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
        // Whatever fails below, no batch is left half started.
        self.len = 0;
        self.finished = 0;
        self.asked = false;
        self.rows.clear();
        self.prepare(games.len())?;
        for (t, g) in self.trees.iter_mut().zip(games) {
            t.root.clone_from(g);
        }
        self.len = games.len();
        let sims = self.opts.simulations;
        let mut roots_over = Ok(());
        for (i, t) in self.trees[..self.len].iter_mut().enumerate() {
            if roots_over.is_ok() {
                roots_over = check_games(std::slice::from_mut(&mut t.root))
                    .map_err(|_| SearchError::GameOver(i));
            }
            t.nodes.clear();
            t.nodes.push(Node::new(*t.root.position(), 0));
            t.path.clear();
            t.sims = 0;
            t.done = false;
            t.rng = Rng::seed_from_u64(self.seeder.random());
        }
        if let Err(e) = roots_over {
            self.len = 0;
            return Err(e);
        }
        // Room reserved by `prepare`.
        debug_assert!(sims >= 1);
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
        self.finished = 0;
        self.asked = false;
        self.rows.clear();
        Ok(())
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
        obs.resize(self.len * OBS, 0.0);
        mask.resize(self.len * ACTIONS, false);
        // The buffers were just sized for every game: never refused.
        let n = self.ask_into(&mut obs, &mut mask).unwrap_or(0);
        obs.truncate(n * OBS);
        mask.truncate(n * ACTIONS);
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
        self.rows.clear();
        for i in 0..self.len {
            if self.trees[i].done {
                continue;
            }
            match self.advance(i) {
                Some(leaf) => {
                    let r = self.rows.len();
                    let t = &self.trees[i];
                    let node = &t.nodes[leaf as usize];
                    write_view(
                        &node.pos.view(node.pos.to_move()),
                        &mut obs[r * OBS..(r + 1) * OBS],
                    );
                    let legal = t.nodes[node.first as usize..][..usize::from(node.count)]
                        .iter()
                        .fold(0u8, |m, c| m | 1 << c.action);
                    mask[r * ACTIONS..(r + 1) * ACTIONS]
                        .copy_from_slice(&MASK_BOOL[usize::from(legal)]);
                    self.rows.push(i as u32);
                }
                None => self.finish(i),
            }
        }
        self.asked = !self.rows.is_empty();
        Ok(self.rows.len())
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
        for (r, &v) in values.iter().enumerate() {
            if !(v.is_finite() && v.abs() <= 1.0 + 1e-4) {
                return Err(SearchError::BadNumber {
                    what: "the value".into(),
                    leaf: r,
                    range: "a finite number in [-1, 1]",
                    value: v.into(),
                });
            }
            let t = &self.trees[self.rows[r] as usize];
            let leaf = &t.nodes[*t.path.last().expect("a leaf") as usize];
            for c in &t.nodes[leaf.first as usize..][..usize::from(leaf.count)] {
                let l = logits[r * ACTIONS + usize::from(c.action)];
                if !l.is_finite() {
                    return Err(SearchError::BadNumber {
                        what: format!("the logit of legal action {}", c.action),
                        leaf: r,
                        range: "finite",
                        value: l.into(),
                    });
                }
            }
        }
        for r in 0..n {
            let i = self.rows[r] as usize;
            let row = &logits[r * ACTIONS..(r + 1) * ACTIONS];
            self.expand(i, row, values[r].clamp(-1.0, 1.0));
        }
        self.asked = false;
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

    /// Runs tree `i`'s simulations until one reaches a leaf for the network
    /// (returned, its children made, pending) or the simulations are spent
    /// (`None`). Game ends are scored and backed up here.
    fn advance(&mut self, i: usize) -> Option<u32> {
        let opts = self.opts;
        let considered = &self.considered;
        let t = &mut self.trees[i];
        let rules = *t.root.rules();
        loop {
            let root_new = t.nodes[0].state == State::New;
            if t.sims >= opts.simulations && !root_new {
                return None;
            }
            t.path.clear();
            let mut node = 0u32;
            t.path.push(0);
            while t.nodes[node as usize].state == State::Expanded {
                node = t.select(node, &opts, considered);
                t.path.push(node);
            }
            let n = t.nodes[node as usize];
            match n.state {
                State::Terminal => {
                    t.backup(n.raw_value, n.pos.to_move());
                    t.sims += 1;
                }
                State::New => {
                    let children = n.pos.children(&rules);
                    // The root's game is not over (`start` checked).
                    let end = if node == 0 {
                        None
                    } else {
                        let (nodes, path, root) = (&t.nodes, &t.path, &t.root);
                        let repeated = || {
                            rules.repetition() == Repetition::OwnSide && {
                                let line = path[..path.len() - 1]
                                    .iter()
                                    .map(|&j| nodes[j as usize].pos.packed());
                                let p = n.pos;
                                repeats_in_line(&p, line, |_| {
                                    root.window()
                                        .holds(&rules, key_of(p.board_key()), || p.packed())
                                })
                            }
                        };
                        end_reason(&rules, &n.pos, true, repeated, || children.is_empty())
                    };
                    if let Some(reason) = end {
                        let o = n.pos.final_outcome(&rules, reason);
                        let v = end_value(opts.values, &rules, &o, n.pos.to_move());
                        let m = &mut t.nodes[node as usize];
                        m.state = State::Terminal;
                        m.raw_value = v;
                        t.backup(v, n.pos.to_move());
                        t.sims += 1;
                        continue;
                    }
                    let first = t.nodes.len() as u32;
                    for &(mv, child) in &children {
                        // Within the room `prepare` reserved: a tree grows by
                        // at most six nodes a simulation.
                        debug_assert!(t.nodes.len() < t.nodes.capacity());
                        t.nodes.push(Node::new(child, mv.action()));
                    }
                    let m = &mut t.nodes[node as usize];
                    m.first = first;
                    m.count = children.len() as u8;
                    m.state = State::Pending;
                    return Some(node);
                }
                // One leaf a tree a round, told before the next round.
                State::Pending | State::Expanded => unreachable!("a pending leaf is told first"),
            }
        }
    }

    /// Sets the priors of tree `i`'s pending leaf from `logits` and backs
    /// up `value`.
    fn expand(&mut self, i: usize, logits: &[f32], value: f32) {
        let opts = self.opts;
        let t = &mut self.trees[i];
        let leaf = *t.path.last().expect("a pending leaf") as usize;
        let (first, count) = (
            t.nodes[leaf].first as usize,
            usize::from(t.nodes[leaf].count),
        );
        let kids = &mut t.nodes[first..first + count];
        let max = kids
            .iter()
            .map(|c| logits[usize::from(c.action)])
            .fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for c in kids.iter_mut() {
            c.logit = logits[usize::from(c.action)] - max;
            c.prior = c.logit.exp();
            sum += c.prior;
        }
        for c in kids.iter_mut() {
            c.prior /= sum;
        }
        if leaf == 0 {
            match opts.selection {
                Selection::Puct(p) if p.dirichlet_fraction > 0.0 => {
                    let mut noise = [0.0f32; ACTIONS];
                    dirichlet(&mut t.rng, p.dirichlet_alpha, &mut noise[..count]);
                    for (c, e) in kids.iter_mut().zip(noise) {
                        c.prior = (1.0 - p.dirichlet_fraction) * c.prior + p.dirichlet_fraction * e;
                    }
                }
                Selection::Puct(_) => {}
                Selection::Gumbel(g) => {
                    for x in t.gumbel.iter_mut().take(count) {
                        *x = g.gumbel_scale * gumbel(&mut t.rng);
                    }
                }
            }
        }
        let node = &mut t.nodes[leaf];
        node.raw_value = value;
        node.state = State::Expanded;
        let mover = node.pos.to_move();
        t.backup(value, mover);
        if leaf != 0 {
            t.sims += 1;
        }
    }

    /// Tree `i`'s result: the chosen action, the policy target, the value.
    fn finish(&mut self, i: usize) {
        let opts = self.opts;
        let t = &mut self.trees[i];
        t.done = true;
        let root = t.nodes[0];
        let arms = t.arms(0);
        let kids = &t.nodes[root.first as usize..][..usize::from(root.count)];
        let mut r = SearchResult {
            action: 0,
            policy: [0.0; ACTIONS],
            value: sign(root.pos.to_move()) * root.value_sum / root.visits.max(1) as f32,
            visits: [0; ACTIONS],
            q: [0.0; ACTIONS],
        };
        for (c, a) in kids.iter().zip(&arms) {
            r.visits[usize::from(c.action)] = c.visits;
            r.q[usize::from(c.action)] = a.q;
        }
        let k = arms.len();
        let chosen = match opts.selection {
            Selection::Puct(p) => {
                let total: u32 = kids.iter().map(|c| c.visits).sum();
                for c in kids {
                    r.policy[usize::from(c.action)] = c.visits as f32 / total.max(1) as f32;
                }
                let best = (0..k)
                    .max_by(|&a, &b| {
                        (arms[a].visits, arms[a].prior)
                            .partial_cmp(&(arms[b].visits, arms[b].prior))
                            .expect("finite")
                            .then(b.cmp(&a))
                    })
                    .expect("the root has children");
                if p.temperature == 0.0 || self.greedy || total == 0 {
                    best
                } else {
                    // n^(1/T), relative to the most visited so that a small
                    // temperature cannot overflow.
                    let top = f64::from(arms[best].visits);
                    let mut weights = [0.0f64; ACTIONS];
                    for (w, a) in weights.iter_mut().zip(&arms) {
                        *w = (f64::from(a.visits) / top).powf(1.0 / f64::from(p.temperature));
                    }
                    let sum: f64 = weights[..k].iter().sum();
                    let mut x = t.rng.random::<f64>() * sum;
                    let mut pick = best;
                    for (j, &w) in weights[..k].iter().enumerate() {
                        if w > 0.0 {
                            pick = j;
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
                let mut pi = [0.0f32; ACTIONS];
                select::improved_policy(&arms, root.raw_value, &g, &mut pi);
                for (c, p) in kids.iter().zip(pi) {
                    r.policy[usize::from(c.action)] = p;
                }
                let most = arms.iter().map(|a| a.visits).max().unwrap_or(0);
                select::gumbel_root(&arms, &t.gumbel[..k], root.raw_value, &g, most)
            }
        };
        r.action = kids[chosen].action;
        self.results[i] = r;
        self.finished += 1;
    }
}

impl Tree {
    /// The children of `node` as selection sees them, from the point of
    /// view of its player to move.
    fn arms(&self, node: u32) -> arrayvec::ArrayVec<Arm, ACTIONS> {
        let n = &self.nodes[node as usize];
        let s = sign(n.pos.to_move());
        self.nodes[n.first as usize..][..usize::from(n.count)]
            .iter()
            .map(|c| Arm {
                logit: c.logit,
                prior: c.prior,
                visits: c.visits,
                q: if c.visits > 0 {
                    s * c.value_sum / c.visits as f32
                } else {
                    0.0
                },
            })
            .collect()
    }

    /// The child of expanded `node` a simulation goes to.
    fn select(&self, node: u32, opts: &SearchOptions, considered: &[u32]) -> u32 {
        let n = &self.nodes[node as usize];
        let arms = self.arms(node);
        let j = match opts.selection {
            Selection::Puct(p) => select::puct(&arms, p.c_puct),
            Selection::Gumbel(g) if node == 0 => {
                let sims = opts.simulations as usize;
                let m = arms.len().min(usize::from(g.max_considered));
                let k = (n.visits as usize).saturating_sub(1).min(sims - 1);
                let visit = considered[(m - 1) * sims + k];
                select::gumbel_root(&arms, &self.gumbel[..arms.len()], n.raw_value, &g, visit)
            }
            Selection::Gumbel(g) => select::gumbel_interior(&arms, n.raw_value, &g),
        };
        n.first + j as u32
    }

    /// Backs `value` (for `player`) up the path.
    fn backup(&mut self, value: f32, player: Player) {
        let v = sign(player) * value;
        for &j in &self.path {
            let n = &mut self.nodes[j as usize];
            n.visits += 1;
            n.value_sum += v;
        }
    }
}

impl Rounds for GuidedSearch {
    fn ask_round(&mut self) -> Result<usize, SearchError> {
        Ok(self.ask())
    }
    fn leaves(&self) -> (&[f32], &[bool]) {
        (&self.obs, &self.mask)
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
    pub(super) fn check_tree_pub(t: &Tree, game: &mut Game, node: u32, values: Values) {
        check_tree(t, game, node, values);
    }

    fn check_tree(t: &Tree, game: &mut Game, node: u32, values: Values) {
        let n = t.nodes[node as usize];
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
                let kids = &t.nodes[n.first as usize..][..usize::from(n.count)];
                let legal = kids.iter().fold(0u8, |m, c| m | 1 << c.action);
                assert_eq!(legal, game.legal_action_mask());
                for (j, c) in kids.iter().enumerate() {
                    game.play(n.pos.move_for_action(c.action).unwrap()).unwrap();
                    check_tree(t, game, n.first + j as u32, values);
                    game.undo();
                }
            }
        }
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
                    let mut game = Game::new(rules);
                    let plies = [0, 20, 60, 120, 200, 400][g % 6] + k * 7;
                    for _ in 0..plies {
                        let legal = game.legal_moves().to_vec();
                        if legal.is_empty() || game.outcome().is_some() {
                            break;
                        }
                        game.play(legal[rng.random_range(0..legal.len())]).unwrap();
                    }
                    if game.outcome().is_none() && !game.legal_moves().is_empty() {
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
                for (t, game) in s.trees.iter().zip(&mut fulls) {
                    terminals += t
                        .nodes
                        .iter()
                        .filter(|n| n.state == State::Terminal)
                        .count();
                    check_tree(t, game, 0, values);
                    // The root's visits: its evaluation and every simulation.
                    assert_eq!(u64::from(t.nodes[0].visits), opts.simulations + 1);
                }
            }
        }
        assert!(terminals > 40, "{terminals} terminal nodes");
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
            let t = &s.trees[0];
            check_tree(t, &mut game.clone(), 0, Values::Outcome);
            found += t
                .nodes
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
                let t = &s.trees[0];
                super::tests::check_tree_pub(t, &mut game, 0, Values::Outcome);
                limits += t
                    .nodes
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
