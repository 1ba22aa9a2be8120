//! The `perfect` computer level: optimal moves from the databases plus the
//! exact search, and the strongest search where they cannot answer.
//!
//! [`PerfectPlayer`] is an [`Agent`] like every other player, over either
//! kind of databases: [`Perfect`] over the board-only ones, [`CountedPerfect`]
//! over the counted ones (rules with a move limit: `olopon`, `ayo`, whose
//! play always ends, so no value there rests on a convention). For each move
//! it asks the [`Search`] for the exact value of every legal move (board and
//! no-capture count, as the core's move gives them) and plays the best;
//! it answers from the databases at once when the board is held, and searches
//! above them within its [`Budget`]. Under a repetition rule (`oware`) the
//! values come instead from the [`RepetitionSearch`], whose game-tree search
//! lets the game's history decide repetitions, reading the databases only
//! after captures, where their bounds agree. When the rules are not those of the
//! databases, or the search runs out of budget, it plays as level `max`
//! ([`Level::MAX`]) and says so ([`PerfectPlayer::last_source`], and
//! [`PerfectPlayer::fallback_name`] for what it fell back to); the analysis is then
//! level `max`'s, with that search's [`Basis`] (a depth-limited search is not
//! a proof).
//!
//! **What a value is**: read from the databases, [`Basis::Proven`] by
//! [`Proof::Database`]; searched above them, by [`Proof::CompleteSearch`]
//! (every line of the search ends in a game end or a database board). Under
//! a repetition rule every value is the game's, proven. Otherwise, unless
//! it depends on how play that never ends is scored: a move to a database
//! board whose bounds differ (`lo < hi`, [`crate::tablebase::Entry::open`]), or
//! whose search read such a board, scored a repetition on its path or used a
//! table entry that did ([`Search::depends_on_endless`]), holds the value
//! under the convention (each player takes the seeds on their own side).
//! The analysis ([`Agent::analyze`]) then brackets it: the database board's
//! bounds, or searches that score endless play as worst and as best for the
//! mover ([`Endless::RootWorst`], [`Endless::RootBest`]); where the two agree
//! the value is proven after all, else it is [`Basis::Convention`], not a
//! proof. The position's value is proven when the best move's is and no
//! move can be worth more under any scoring (every move proven, or its
//! bracket's top no higher). When only the best move's value is proven the
//! position's is a proven lower bound (a move valued by the convention might
//! be worth more under another), and when the best move's value rests on the
//! convention, so does the position's.
//!
//! **Values** are seed differences if play goes on until the board is empty:
//! the current stores plus the exact future captures (the target never
//! changes who wins, see `docs/solving.md`).
//!
//! **Choosing among equal values.** Several moves can keep the best value.
//! A value that does not depend on endless play is always kept by a move whose
//! own value does not either (the other moves can only be worth less), and the
//! player prefers those, then moves to a position not yet seen in the game
//! (so that it does not walk in circles), then larger immediate captures (so
//! that it cashes its win), then the lowest pit. So it never lets a database
//! win slip (`tests/perfect.rs` plays thousands of won positions against every
//! level and checks that the margin is realised).
//!
//! ```
//! use std::sync::Arc;
//! use ayo_core::{players::{Agent, Basis, Proof}, Game, Rules, Setup, Position};
//! use ayo_solve::{perfect::{Perfect, Source}, Database};
//!
//! let rules = Rules::preset("ayoayo")?;
//! let db = Arc::new(Database::build(&rules, 6, None, true)?.0);
//! let mut setup = Setup::start(&rules);
//! setup.board = [0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0];
//! setup.stores = [23, 22];
//! let game = Game::from_position(rules, Position::from_setup(&rules, &setup)?);
//! let mut perfect = Perfect::new(db, ayo_core::players::Budget::Nodes(100_000), 1);
//! let a = perfect.analyze(&game);
//! assert_eq!(perfect.last_source(), Source::Database);
//! assert_eq!(a.basis, Basis::Proven(Proof::Database));
//! assert_eq!(a.value.proven(), Some(1 + 3)); // 23 - 22 now, +3 to come
//! assert_eq!(perfect.choose(&game), a.best);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use ayo_core::players::{
    Agent, Analysis, Basis, Budget, Level, MoveValue, OutOfMemory, Proof, Value,
};
use ayo_core::{Game, Move, Position, Repetition, Rules};

use crate::counted::CountedDatabase;
use crate::repetition::RepetitionSearch;
use crate::search::{Endless, Node, Search};
use crate::tablebase::Tablebase;
use crate::{Database, DbError};

/// The search budget of a `perfect` player given [`Budget::Depth`] (which
/// means nothing to an exact search): nodes per move.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// Clear the solver's transposition table when it grows past this many entries.
const TABLE_LIMIT: usize = 4_000_000;

/// Plies of principal variation reported by [`Agent::analyze`].
const PV_PLIES: usize = 24;

/// The fallback of a `perfect` player of either kind: level `max`, or
/// alpha-beta with the same wall time under a time budget.
fn fallback_for(budget: Budget, seed: u64) -> Box<dyn Agent> {
    match budget {
        Budget::Time(_) => {
            ayo_core::players::new_player(ayo_core::players::Kind::AlphaBeta, budget, seed)
        }
        _ => Level::MAX.player(seed),
    }
}

/// [`PerfectPlayer::fallback_name`] of a player of either kind.
fn fallback_name_of(budget: Budget, fallback: &dyn Agent) -> String {
    match budget {
        Budget::Time(_) => fallback.name(),
        _ => format!("level {} ({})", Level::MAX, fallback.name()),
    }
}

/// The wall-time limit of one move under `budget`, from now.
fn deadline_of(budget: Budget) -> Option<Instant> {
    match budget {
        Budget::Time(t) => Some(Instant::now() + t),
        _ => None,
    }
}

/// The node limit of one move under `budget` (`None` under a time budget).
fn nodes_of(budget: Budget) -> Option<u64> {
    match budget {
        Budget::Nodes(n) => Some(n),
        Budget::Depth(_) => Some(DEFAULT_NODES),
        Budget::Time(_) => None,
    }
}

/// The principal variation from `game` of a player of either kind: `first`,
/// then the move `next` picks in each position reached, up to [`PV_PLIES`]
/// plies or until it picks none.
fn principal_variation(
    game: &Game,
    first: Move,
    mut next: impl FnMut(&Game) -> Option<Move>,
) -> Vec<Move> {
    let mut pv = vec![first];
    let mut line = game.clone();
    line.play(first).expect("a scored move is legal");
    while pv.len() < PV_PLIES {
        let Some(mv) = next(&line) else {
            break;
        };
        pv.push(mv);
        line.play(mv).expect("a scored move is legal");
    }
    pv
}

/// The stores' difference for the player to move.
fn banked(pos: &Position) -> i32 {
    pos.margin(pos.to_move())
}

/// Where a `perfect` player's last answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Nothing asked yet, or the game was over.
    None,
    /// Every move's value read from the databases.
    Database,
    /// Exact values found by searching above the databases.
    Search,
    /// The rules are not the databases' or the budget ran out: level `max`.
    Fallback,
}

impl Source {
    /// A short name: `none`, `database`, `search` or `fallback`.
    pub const fn name(self) -> &'static str {
        match self {
            Source::None => "none",
            Source::Database => "database",
            Source::Search => "search",
            Source::Fallback => "fallback",
        }
    }
}

/// One legal move as the exact search sees it.
#[derive(Clone, Copy, Debug)]
struct Scored {
    mv: Move,
    /// The mover's future captures minus the opponent's, this move included.
    value: i32,
    /// What this move captures now (mover minus opponent).
    gain: i32,
    /// The value depends on how endless play is scored.
    endless: bool,
    /// The value was searched above the databases, not read from them.
    searched: bool,
    /// The move leads back to a position already seen in the game.
    repeats: bool,
}

impl Scored {
    /// The preference order described in the module docs (greater is better).
    fn key(&self) -> (i32, bool, bool, i32, std::cmp::Reverse<u8>) {
        (
            self.value,
            !self.endless,
            !self.repeats,
            self.gain,
            std::cmp::Reverse(self.mv.action()),
        )
    }
}

/// What a kind of databases adds to the `perfect` player over it.
pub trait PerfectKind: Tablebase {
    /// How the player's name calls the databases: `db`, `counted db`.
    const LABEL: &'static str;

    /// The search of the game's values under a repetition rule (`oware`),
    /// for the kind whose rules can have one.
    fn repetition_search(db: &Arc<Self>) -> Option<RepetitionSearch>;
}

/// A `perfect` player of either kind, as the foreign handles keep it
/// ([`crate::engine::Engine`]).
pub trait PerfectAgent: Agent {
    /// Where its last answer came from.
    fn last_source(&self) -> Source;

    /// What it falls back to, in words.
    fn fallback_name(&self) -> String;
}

/// The `perfect` level over databases of kind `T`. See the [module](self) docs.
pub struct PerfectPlayer<T: PerfectKind> {
    solver: Search<T>,
    /// The values under a repetition rule.
    exact: Option<RepetitionSearch>,
    budget: Budget,
    fallback: Box<dyn Agent>,
    last: Source,
    seed: u64,
}

/// The `perfect` level over board-only databases.
pub type Perfect = PerfectPlayer<Database>;

/// The `perfect` level over counted databases (rules with a move limit).
pub type CountedPerfect = PerfectPlayer<CountedDatabase>;

impl<T: PerfectKind> std::fmt::Debug for PerfectPlayer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerfectPlayer")
            .field("rules", &self.solver.database().key())
            .field("max_seeds", &self.solver.database().max_seeds())
            .field("budget", &self.budget)
            .field("last", &self.last)
            .finish()
    }
}

impl<T: PerfectKind> PerfectPlayer<T> {
    /// A perfect player over `db` (shareable between players) searching
    /// within `budget` per move: [`Budget::Nodes`] counts boards expanded
    /// above the databases, [`Budget::Time`] is a wall-time limit, and
    /// [`Budget::Depth`] means [`DEFAULT_NODES`]. The fallback (level `max`,
    /// or alpha-beta with the same wall time under a time budget) is seeded
    /// by `seed`.
    pub fn new(db: impl Into<Arc<T>>, budget: Budget, seed: u64) -> PerfectPlayer<T> {
        let db = db.into();
        PerfectPlayer {
            exact: T::repetition_search(&db),
            solver: Search::new(db),
            budget,
            fallback: fallback_for(budget, seed),
            last: Source::None,
            seed,
        }
    }

    /// [`PerfectPlayer::new`] over shared databases.
    pub fn over(db: Arc<T>, budget: Budget, seed: u64) -> PerfectPlayer<T> {
        PerfectPlayer::new(db, budget, seed)
    }

    /// Loads every layer of `rules` found in `dir` ([`Tablebase::open_all`])
    /// and makes a player over them.
    pub fn open(
        rules: &Rules,
        dir: &Path,
        budget: Budget,
        seed: u64,
    ) -> Result<PerfectPlayer<T>, DbError> {
        Ok(PerfectPlayer::new(T::open_all(rules, dir)?, budget, seed))
    }

    /// The databases.
    pub fn database(&self) -> &T {
        self.solver.database()
    }

    /// The databases, to share with another player.
    pub fn shared_database(&self) -> Arc<T> {
        self.solver.shared_database()
    }

    /// The budget per move.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The seed of the fallback player.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the last [`Agent::choose`] or [`Agent::analyze`] got its answer.
    pub fn last_source(&self) -> Source {
        self.last
    }

    /// What the player falls back to where the databases and the exact
    /// search cannot answer ([`Source::Fallback`]), in words: `level max
    /// (alphabeta(nodes=300000))`, or under a time budget
    /// `alphabeta(time=500ms)`.
    ///
    /// ```
    /// use ayo_core::{players::Budget, Rules};
    /// use ayo_solve::{perfect::Perfect, Database};
    /// let db = Database::build(&Rules::preset("ayoayo")?, 2, None, true)?.0;
    /// let p = Perfect::new(db, Budget::Nodes(1_000), 1);
    /// assert_eq!(p.fallback_name(), "level max (alphabeta(nodes=300000))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fallback_name(&self) -> String {
        fallback_name_of(self.budget, self.fallback.as_ref())
    }

    /// Whether the databases are for `rules` (the same rules, any target),
    /// so that the player gives the game's values. Under a repetition rule
    /// (`oware`) they come from the [`RepetitionSearch`]: the game scores the
    /// position that repeats, which depends on the path, where the databases
    /// score a board whose play never ends by its own split
    /// (`docs/solving.md`, "Oware").
    pub fn plays(&self, rules: &Rules) -> bool {
        Tablebase::plays(self.solver.database(), rules)
    }

    /// [`PerfectPlayer::score`] under a repetition rule: every move's value
    /// from the [`RepetitionSearch`], `None` when its budget ran out (or the
    /// kind has none: the counted databases refuse such rules).
    fn score_repetition(&mut self, game: &Game) -> Option<Vec<Scored>> {
        let search = self.exact.as_mut()?;
        if search.table_len() > TABLE_LIMIT {
            search.clear_table();
        }
        search.set_deadline(deadline_of(self.budget));
        search.set_budget(nodes_of(self.budget));
        let nodes_before = search.stats().nodes;
        // A search that cannot start (no room for its thread) ends the exact
        // answer as the budget does.
        let exact = search.move_values(game).ok().flatten();
        search.set_budget(None);
        search.set_deadline(None);
        let searched_nodes = search.stats().nodes > nodes_before;
        let scored: Vec<Scored> = exact?
            .into_iter()
            .map(|m| {
                let child = game
                    .children()
                    .iter()
                    .find(|c| c.0 == m.mv)
                    .expect("a valued move is legal")
                    .1;
                Scored {
                    mv: m.mv,
                    value: m.value,
                    gain: m.gain,
                    endless: false,
                    searched: m.proof != Proof::Database,
                    repeats: repeats(game, &child),
                }
            })
            .collect();
        // A value can be found without a node: by the bounds of the root's
        // component given its window.
        self.last = if searched_nodes || scored.iter().any(|s| s.searched) {
            Source::Search
        } else {
            Source::Database
        };
        Some(scored)
    }

    /// The work of the repetition search (every call so far).
    fn exact_nodes(&self) -> u64 {
        self.exact.as_ref().map_or(0, |e| e.stats().nodes)
    }

    /// The exact value of every legal move of `pos` in `game` (the history
    /// marks repeats), or `None` when the rules differ or the budget ran out.
    fn score(
        &mut self,
        game: &Game,
        pos: &Position,
        children: &[(Move, Position)],
    ) -> Option<Vec<Scored>> {
        if children.is_empty() || !self.plays(game.rules()) {
            return None;
        }
        if game.rules().repetition() != Repetition::Off {
            return self.score_repetition(game);
        }
        if self.solver.table_len() > TABLE_LIMIT {
            self.solver.clear_table();
        }
        let budget = self.begin();
        let me = pos.to_move();
        let searched_before = self.solver.stats().nodes;
        let mut out = Vec::with_capacity(children.len());
        for &(mv, child) in children {
            let gain = child.margin(me) - pos.margin(me);
            let (board, count) = self.solver.node(&child);
            let (rest, endless, searched) = match self.solver.database().held(&board, count) {
                Some(e) => (e.value, e.open(), false),
                None => {
                    self.spend(budget);
                    // A search that cannot start (no room for its thread)
                    // ends the exact answer as the budget does.
                    match self.solver.node_value(&board, count).ok().flatten() {
                        Some(v) => (v, self.solver.depends_on_endless(), true),
                        None => {
                            self.end_budget();
                            return None;
                        }
                    }
                }
            };
            let repeats = repeats(game, &child);
            out.push(Scored {
                mv,
                value: gain - rest,
                gain,
                endless,
                searched,
                repeats,
            });
        }
        self.end_budget();
        self.last = if self.solver.stats().nodes > searched_before {
            Source::Search
        } else {
            Source::Database
        };
        Some(out)
    }

    /// For each scored move (in `children`'s order), the least and the most
    /// it is worth under every scoring of play that never ends: its value
    /// alone when that does not depend on it; else the database board's
    /// bounds, or searches with endless play scored as worst and as best for
    /// the mover after it ([`Endless::RootWorst`], [`Endless::RootBest`]).
    /// `None` where a search runs out of the move's budget.
    fn ranges(
        &mut self,
        children: &[(Move, Position)],
        scored: &[Scored],
    ) -> Vec<Option<(i32, i32)>> {
        let mut out = Vec::with_capacity(scored.len());
        let budget = self.begin();
        for (s, &(_, child)) in scored.iter().zip(children) {
            if !s.endless {
                out.push(Some((s.value, s.value)));
                continue;
            }
            let (board, count) = self.solver.node(&child);
            // The opponent's value after the move, at its least and its most.
            let rest = match self.solver.database().held(&board, count) {
                Some(e) => Some((e.lo, e.hi)),
                None => {
                    let mut bounds = [0; 2];
                    let mut done = true;
                    for (i, mode) in [Endless::RootWorst, Endless::RootBest]
                        .into_iter()
                        .enumerate()
                    {
                        self.solver.set_endless(mode);
                        self.spend(budget);
                        match self.solver.node_value(&board, count).ok().flatten() {
                            Some(v) => bounds[i] = v,
                            None => done = false,
                        }
                    }
                    self.solver.set_endless(Endless::Convention);
                    done.then_some((bounds[0], bounds[1]))
                }
            };
            out.push(rest.map(|(lo, hi)| (s.gain - hi, s.gain - lo)));
        }
        self.end_budget();
        out
    }

    /// Starts the budget of one move: the node limit (`None`: a time
    /// budget, whose deadline is set here) and the node count so far.
    fn begin(&mut self) -> (Option<u64>, u64) {
        self.solver.set_deadline(deadline_of(self.budget));
        (nodes_of(self.budget), self.solver.stats().nodes)
    }

    /// Limits the next search to what is left of the move's budget.
    fn spend(&mut self, (nodes, start): (Option<u64>, u64)) {
        let used = self.solver.stats().nodes - start;
        self.solver
            .set_budget(nodes.map(|n| n.saturating_sub(used)));
    }

    fn end_budget(&mut self) {
        self.solver.set_budget(None);
        self.solver.set_deadline(None);
    }

    /// A best move above the databases found without the exact value of
    /// every move: the position's value `v` (MTD(f)), then, in the order of
    /// preference, the first move shown by one null-window search to reach
    /// `v`. Far cheaper than [`PerfectPlayer::score`] when some bad move would be
    /// costly to value exactly. `None` under a repetition rule (the solver
    /// scores repetitions by the convention), when the position is in the
    /// databases (scoring every move is free there), the budget runs out, or
    /// no move is shown to reach `v` (repetitions on a search path can score
    /// a move differently from the same board searched from the root).
    fn choose_by_bounds(&mut self, game: &Game, children: &[(Move, Position)]) -> Option<Move> {
        let pos = *game.position();
        let root = self.solver.node(&pos);
        if !self.plays(game.rules())
            || game.rules().repetition() != Repetition::Off
            || self.solver.database().held(&root.0, root.1).is_some()
        {
            return None;
        }
        if self.solver.table_len() > TABLE_LIMIT {
            self.solver.clear_table();
        }
        let budget = self.begin();
        let found = self.reach_value(game, &pos, root, children, budget);
        self.end_budget();
        found
    }

    fn reach_value(
        &mut self,
        game: &Game,
        pos: &Position,
        (root, root_count): Node,
        children: &[(Move, Position)],
        budget: (Option<u64>, u64),
    ) -> Option<Move> {
        self.spend(budget);
        let v = self.solver.node_value(&root, root_count).ok().flatten()?;
        let me = pos.to_move();
        let mut order: Vec<(Scored, Node, Option<i32>)> = children
            .iter()
            .map(|&(mv, child)| {
                let gain = child.margin(me) - pos.margin(me);
                let node = self.solver.node(&child);
                let entry = self.solver.database().held(&node.0, node.1);
                let scored = Scored {
                    mv,
                    value: 0,
                    gain,
                    endless: entry.is_some_and(|e| e.open()),
                    searched: entry.is_none(),
                    repeats: repeats(game, &child),
                };
                (scored, node, entry.map(|e| e.value))
            })
            .collect();
        order.sort_by_key(|(s, _, _)| std::cmp::Reverse(s.key()));
        for (s, (board, count), known) in order {
            let reaches = match known {
                Some(rest) => s.gain - rest >= v,
                None => {
                    self.spend(budget);
                    // gain - V(child) >= v  <=>  V(child) <= gain - v
                    self.solver
                        .node_at_most(&board, count, s.gain - v)
                        .ok()
                        .flatten()?
                }
            };
            if reaches {
                return Some(s.mv);
            }
        }
        None
    }

    fn best(scored: &[Scored]) -> Scored {
        *scored
            .iter()
            .max_by_key(|s| s.key())
            .expect("scored moves are never empty")
    }
}

impl<T: PerfectKind> Agent for PerfectPlayer<T> {
    fn name(&self) -> String {
        format!(
            "perfect({}<={}, {})",
            T::LABEL,
            self.solver.database().max_seeds(),
            self.budget
        )
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let children = game.children().to_vec();
        if children.is_empty() {
            self.last = Source::None;
            return None;
        }
        if let Some(mv) = self.choose_by_bounds(game, &children) {
            self.last = Source::Search;
            return Some(mv);
        }
        match self.score(game, game.position(), &children) {
            Some(scored) => Some(PerfectPlayer::<T>::best(&scored).mv),
            None => {
                self.last = Source::Fallback;
                self.fallback.choose(game)
            }
        }
    }

    fn analyze(&mut self, game: &Game) -> Analysis {
        if let Some(a) = Analysis::of_ended(game) {
            self.last = Source::None;
            return a;
        }
        let pos = *game.position();
        let nodes_before = self.solver.stats().nodes + self.exact_nodes();
        let children = game.children().to_vec();
        let Some(scored) = self.score(game, &pos, &children) else {
            self.last = Source::Fallback;
            return self.fallback.analyze(game);
        };
        let source = self.last;
        let banked = banked(&pos);
        // Each move's values under every scoring of endless play.
        let ranges = self.ranges(&children, &scored);
        let mut scored = scored;
        for (s, range) in scored.iter_mut().zip(&ranges) {
            if range.is_some_and(|(lo, hi)| lo == hi) {
                s.endless = false;
            }
        }
        let best = PerfectPlayer::<T>::best(&scored);
        let value_of = |s: &Scored| MoveValue {
            mv: s.mv,
            value: Value::from_final_difference(banked + s.value),
            basis: match (s.endless, s.searched) {
                (true, _) => Basis::Convention,
                (false, false) => Basis::Proven(Proof::Database),
                (false, true) => Basis::Proven(Proof::CompleteSearch),
            },
        };
        let moves: Vec<MoveValue> = scored.iter().map(value_of).collect();
        // The best move's value is exact and no move is worth more under any
        // scoring: the position's value is proven, convention or not.
        let none_better = !best.endless
            && ranges
                .iter()
                .all(|r| r.is_some_and(|(_, hi)| hi <= best.value));
        let basis = match Basis::of_position(&moves, &value_of(&best), 0) {
            // Proving that no move is worth more took a search.
            Basis::Proven(_) if source == Source::Search => Basis::Proven(Proof::CompleteSearch),
            _ if none_better && source == Source::Search => Basis::Proven(Proof::CompleteSearch),
            _ if none_better => Basis::Proven(Proof::Database),
            other => other,
        };
        // The principal variation: both sides playing this player's choice.
        let pv = principal_variation(game, best.mv, |line| {
            let children = line.children().to_vec();
            let here = *line.position();
            self.score(line, &here, &children)
                .map(|s| PerfectPlayer::<T>::best(&s).mv)
        });
        self.last = source;
        Analysis {
            best: Some(best.mv),
            value: Value::from_final_difference(banked + best.value),
            basis,
            depth: pv.len() as u32,
            pv,
            moves,
            nodes: self.solver.stats().nodes + self.exact_nodes() - nodes_before,
        }
    }

    /// The fallback's tables (the databases and the exact search allocate
    /// fallibly as they go).
    fn prepare(&mut self, rules: &Rules) -> Result<(), OutOfMemory> {
        self.fallback.prepare(rules)
    }
}

impl<T: PerfectKind> PerfectAgent for PerfectPlayer<T> {
    fn last_source(&self) -> Source {
        self.last
    }

    fn fallback_name(&self) -> String {
        fallback_name_of(self.budget, self.fallback.as_ref())
    }
}

/// Whether `child` is a position already seen in `game`.
fn repeats(game: &Game, child: &Position) -> bool {
    game.positions()
        .iter()
        .any(|p| p.board() == child.board() && p.to_move() == child.to_move())
}
