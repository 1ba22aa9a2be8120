//! Oware's databases against the game itself: for every board of a few
//! seeds, the exact value under the real repetition rule — a game-tree
//! search over `ayo_core::Game`, whose window of positions since the last
//! capture ends a game on a repeated position (each player taking their own
//! row) — compared with the board-only databases, whose cycle convention is
//! meant to give the same value.
//!
//! The search plays every line to its end by the core's rules (no rule is
//! re-implemented here). After a capture the window starts afresh, so the
//! value of the position a capture leads to depends on its board alone and
//! is remembered; between captures the value depends on the path and is
//! searched (alpha-beta, exact at each fresh root).

use std::collections::HashMap;

use ayo_core::{Game, Move, Player, Position, RuleParams, Rules, Setup};
use ayo_solve::index::rank;
use ayo_solve::{Database, RepetitionSearch};

use crate::common::boards;

fn south(board: [u8; 12]) -> Position {
    Position::from_setup_unchecked(&Setup {
        board,
        stores: [0, 0],
        to_move: Player::South,
        no_capture: 0,
        ply: 0,
    })
}

fn oware() -> Rules {
    Rules::new(RuleParams {
        target: None,
        ..Rules::preset("oware").unwrap().params()
    })
    .unwrap()
}

/// The stores' difference for `p`.
fn banked(pos: &Position, p: Player) -> i32 {
    i32::from(pos.store(p)) - i32::from(pos.store(p.opponent()))
}

/// Exact values under the real repetition rule.
struct Tree {
    rules: Rules,
    /// The value of a board with South to move and a fresh window.
    fresh: HashMap<[u8; 12], i32>,
    nodes: u64,
    /// Databases used only to order moves.
    order: Option<Database>,
    /// The components of each layer's capture-free move graph
    /// (`ayo_solve::components`, checked against reachability below), by
    /// rank: a move into a component that holds no position of the window
    /// can never come back to one, so its value is the fresh board's.
    components: HashMap<usize, Vec<u32>>,
}

impl Tree {
    /// The mover's future captures minus the opponent's from `board`
    /// (South to move), the game starting there.
    fn fresh_value(&mut self, board: [u8; 12]) -> i32 {
        if let Some(&v) = self.fresh.get(&board) {
            return v;
        }
        let n = board.iter().map(|&s| i32::from(s)).sum::<i32>();
        let mut game = Game::from_position(self.rules, south(board));
        let v = self.search(&mut game, -n - 1, n + 1);
        self.fresh.insert(board, v);
        v
    }

    /// Alpha-beta (fail-hard inside `(alpha, beta)`) on the mover's future
    /// captures minus the opponent's, the game's history deciding repetitions.
    fn search(&mut self, game: &mut Game, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let pos = *game.position();
        let me = pos.to_move();
        if let Some(o) = game.outcome() {
            let fin = i32::from(o.scores[me.index()]) - i32::from(o.scores[me.opponent().index()]);
            return fin - banked(&pos, me);
        }
        let mut children = game.children().to_vec();
        // Order only speeds the search up: captures first, then the moves
        // the databases rate best.
        if let Some(db) = &self.order {
            children.sort_by_cached_key(|(_, c)| {
                let (gain, rest) = (
                    banked(c, me) - banked(&pos, me),
                    db.board_value(&c.normalized().board()).unwrap(),
                );
                (-(gain - rest), c.no_capture() != 0)
            });
        }
        for (mv, child) in children {
            let gain = banked(&child, me) - banked(&pos, me);
            let v = if child.no_capture() == 0 || self.leaves_window(game, &child) {
                // A capture: the window starts again at the child.
                gain - self.fresh_value(child.normalized().board())
            } else {
                game.play(mv).unwrap();
                let v = gain - self.search(game, gain - beta, gain - alpha);
                game.undo().unwrap();
                v
            };
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

impl Tree {
    fn component(&mut self, board: &[u8; 12]) -> u32 {
        let n = board.iter().map(|&s| usize::from(s)).sum::<usize>();
        let rules = self.rules;
        self.components
            .entry(n)
            .or_insert_with(|| ayo_solve::components::components(&rules, n).unwrap())
            [rank(board) as usize]
    }

    /// Whether no position of `game`'s window shares the component of
    /// `child` (a move that captures nothing).
    fn leaves_window(&mut self, game: &Game, child: &Position) -> bool {
        let c = self.component(&child.normalized().board());
        game.positions()
            .iter()
            .all(|p| self.component(&p.normalized().board()) != c)
    }
}

/// Every board of `0..=max` seeds: `(board, database value, flagged, game value)`.
fn compare(max: usize) -> Vec<([u8; 12], i32, bool, i32)> {
    let rules = oware();
    let db = Database::build(&rules, max, None, true).unwrap().0;
    let mut tree = Tree {
        rules,
        fresh: HashMap::new(),
        nodes: 0,
        order: Some(db.clone()),
        components: HashMap::new(),
    };
    let mut out = Vec::new();
    for n in 0..=max {
        let t0 = std::time::Instant::now();
        for b in boards(n) {
            let (v, cycle) = db.board_entry(&b).unwrap();
            assert_eq!(i32::from(db.layers()[n].value(rank(&b))), v);
            out.push((b, v, cycle, tree.fresh_value(b)));
        }
        eprintln!(
            "layer {n}: {} boards, {} search nodes so far, {:.2?}",
            boards(n).len(),
            tree.nodes,
            t0.elapsed()
        );
    }
    out
}

/// Seeds compared (more with `AYO_OWARE_TREE_SEEDS`; the search grows
/// very fast with the seeds: paths between captures are long).
fn max_seeds() -> usize {
    std::env::var("AYO_OWARE_TREE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

/// Where the value does not depend on endless play the databases give the
/// game's value; where it does, the convention (the board's own split,
/// clamped to what each side can force) is not always what the repetition
/// rule gives, which scores the position that repeats.
#[test]
fn oware_values_match_the_game_where_they_do_not_depend_on_endless_play() {
    let all = compare(max_seeds());
    let flagged = all.iter().filter(|r| r.2).count();
    let differ: Vec<_> = all.iter().filter(|r| r.1 != r.3).collect();
    eprintln!(
        "{} boards, {flagged} flagged, {} differ from the game",
        all.len(),
        differ.len()
    );
    for d in &differ {
        eprintln!(
            "{:?}: database {} (flagged {}), game {}",
            d.0, d.1, d.2, d.3
        );
        assert!(d.2, "an unflagged board differs from the game: {d:?}");
    }
}

/// The smallest case: South's seeds in pits 1 and 5 (absolute 1, 5), North's
/// row empty. South must feed (pit 5 to 6), and the two seeds then chase each
/// other round the board. The game's value is 0 (the repetition closes on a
/// position with one seed a side), while the convention scores this board,
/// which play never comes back to, by its own split: +2.
#[test]
fn the_convention_scores_a_board_the_repetition_rule_never_reaches() {
    let board = [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    let rules = oware();
    let db = Database::build(&rules, 2, None, true).unwrap().0;
    assert_eq!(db.board_entry(&board), Some((2, true)));
    let mut tree = Tree {
        rules,
        fresh: HashMap::new(),
        nodes: 0,
        order: None,
        components: HashMap::new(),
    };
    assert_eq!(tree.fresh_value(board), 0);
}

impl Tree {
    /// The exact value of every legal move of `game` (its window deciding
    /// repetitions), this move's capture included.
    fn move_values(&mut self, game: &Game) -> Vec<(Move, i32)> {
        let pos = *game.position();
        let me = pos.to_move();
        let n = pos.board().iter().map(|&s| i32::from(s)).sum::<i32>();
        let children = game.children().to_vec();
        children
            .into_iter()
            .map(|(mv, child)| {
                let gain = banked(&child, me) - banked(&pos, me);
                let v = if child.no_capture() == 0 {
                    gain - self.fresh_value(child.normalized().board())
                } else {
                    let mut g = game.clone();
                    g.play(mv).unwrap();
                    gain - self.search(&mut g, -n - 1, n + 1)
                };
                (mv, v)
            })
            .collect()
    }
}

/// The claim of `ayo_solve::repetition`: a board with a fresh window is worth
/// a value within the databases' bounds `[lo, hi]` under the repetition rule,
/// exactly `lo` where they agree; and the library's search gives the same
/// values as the tree here.
#[test]
fn oware_game_values_lie_within_the_databases_bounds() {
    let max = max_seeds();
    let rules = oware();
    let db = std::sync::Arc::new(Database::build(&rules, max, None, true).unwrap().0);
    let mut tree = Tree {
        rules,
        fresh: HashMap::new(),
        nodes: 0,
        order: Some((*db).clone()),
        components: HashMap::new(),
    };
    let mut search = RepetitionSearch::new(db.clone());
    let (mut open, mut exact_open, mut convention_off) = (0, 0, 0);
    for n in 0..=max {
        for b in boards(n) {
            let game_value = tree.fresh_value(b);
            let (lo, hi) = db.board_bounds(&b).unwrap();
            assert!(
                lo <= game_value && game_value <= hi,
                "{b:?}: {game_value} outside [{lo}, {hi}]"
            );
            if lo < hi {
                open += 1;
                exact_open += i32::from(game_value == db.board_value(&b).unwrap());
            } else {
                assert_eq!(db.board_value(&b), Some(lo), "{b:?}");
            }
            convention_off += i32::from(game_value != db.board_value(&b).unwrap());
            assert_eq!(search.board_value(&b).unwrap(), Some(game_value), "{b:?}");
        }
    }
    eprintln!(
        "to {max} seeds: {open} open boards, the convention right on {exact_open}; \
         {convention_off} boards where it is not the game's value; {:?}",
        search.stats()
    );
    assert!(open > 0 && convention_off > 0);
}

/// Whether a move of `game` leads back to a position of its history.
fn can_repeat(game: &Game) -> bool {
    game.children().iter().any(|(_, c)| {
        game.positions()
            .iter()
            .any(|p| p.board() == c.board() && p.to_move() == c.to_move())
    })
}

/// Games of a few seeds with a history: from every board of up to
/// `max_seeds()` seeds, a walk of up to 30 moves that capture nothing and do
/// not end the game (turning through the legal ones); its positions after 1
/// and 2 moves, and those where a move would repeat a position.
fn games_with_history(rules: Rules) -> Vec<Game> {
    let mut out = Vec::new();
    for n in 1..=max_seeds() {
        for b in boards(n) {
            let mut game = Game::from_position(rules, south(b));
            if game.outcome().is_some() {
                continue;
            }
            out.push(game.clone());
            for ply in 1..=30 {
                let quiet: Vec<Move> = game
                    .children()
                    .iter()
                    .filter(|(_, c)| c.no_capture() != 0)
                    .map(|&(mv, _)| mv)
                    .filter(|&mv| {
                        let mut g = game.clone();
                        g.play(mv).unwrap();
                        g.outcome().is_none()
                    })
                    .collect();
                if quiet.is_empty() {
                    break;
                }
                game.play(quiet[ply % quiet.len()]).unwrap();
                if ply <= 2 || can_repeat(&game) {
                    out.push(game.clone());
                }
            }
        }
    }
    out
}

/// The perfect player's move values in Oware are the game's (the tree's),
/// proven, on fresh boards and after moves that fill the window, some of
/// which repeat a position of the history.
#[test]
fn the_perfect_players_oware_values_are_the_games() {
    use ayo_core::players::{Agent, Basis, Budget, Proof, Value};
    use ayo_solve::perfect::{Perfect, Source};
    let rules = oware();
    let db = Database::build(&rules, max_seeds(), None, true).unwrap().0;
    let mut tree = Tree {
        rules,
        fresh: HashMap::new(),
        nodes: 0,
        order: None,
        components: HashMap::new(),
    };
    let mut perfect = Perfect::new(db, Budget::Nodes(10_000_000), 3);
    assert!(perfect.plays(&rules) && perfect.plays(&Rules::preset("oware").unwrap()));
    let (mut positions, mut with_history, mut repeating, mut searched) = (0, 0, 0, 0);
    for game in games_with_history(rules) {
        let a = perfect.analyze(&game);
        assert_ne!(perfect.last_source(), Source::Fallback);
        searched += i32::from(perfect.last_source() == Source::Search);
        let truth = tree.move_values(&game);
        assert_eq!(a.moves.len(), truth.len());
        for (m, (mv, v)) in a.moves.iter().zip(&truth) {
            assert_eq!(m.mv, *mv);
            assert_eq!(m.value, Value::from_final_difference(*v), "{game:?} {mv:?}");
            assert!(matches!(m.basis, Basis::Proven(_)), "{m:?}");
        }
        assert!(matches!(a.basis, Basis::Proven(_)));
        let best = truth.iter().map(|t| t.1).max().unwrap();
        assert_eq!(a.value, Value::from_final_difference(best));
        let mv = perfect.choose(&game).unwrap();
        assert_eq!(truth.iter().find(|t| t.0 == mv).unwrap().1, best);
        positions += 1;
        with_history += i32::from(!game.moves().is_empty());
        repeating += i32::from(can_repeat(&game));
        if game.moves().is_empty()
            && a.moves
                .iter()
                .all(|m| m.basis == Basis::Proven(Proof::Database))
        {
            assert_eq!(perfect.last_source(), Source::Database);
        }
    }
    eprintln!(
        "{positions} positions ({with_history} with a history, {repeating} with a move that \
         repeats one), {searched} searched"
    );
    assert!(with_history > 0 && repeating > 0 && searched > 0);
}

/// Above the databases, with too small a budget to close the search, the
/// perfect player plays level `max` in Oware and says so.
#[test]
fn the_perfect_player_falls_back_in_oware_when_the_search_does_not_close() {
    use ayo_core::players::{Agent, Budget, Level};
    use ayo_solve::perfect::{Perfect, Source};
    let rules = Rules::preset("oware").unwrap();
    let db = Database::build(&rules, 4, None, true).unwrap().0;
    let mut perfect = Perfect::new(db, Budget::Nodes(1_000), 3);
    assert!(perfect.plays(&rules));
    let game = Game::new(rules);
    let mv = perfect.choose(&game).unwrap();
    assert_eq!(perfect.last_source(), Source::Fallback);
    assert_eq!(Some(mv), Level::MAX.player(3).choose(&game));
    assert_eq!(perfect.analyze(&game), Level::MAX.player(3).analyze(&game));
    assert_eq!(perfect.last_source(), Source::Fallback);
}

/// `ayo_solve::components` against plain reachability: two boards share a
/// component exactly when each reaches the other by moves that capture
/// nothing (every board of `max_seeds() + 1` seeds and fewer).
#[test]
fn components_are_the_boards_that_reach_each_other() {
    use std::collections::HashSet;
    let rules = oware();
    for n in 0..=max_seeds() + 1 {
        let comp = ayo_solve::components::components(&rules, n).unwrap();
        let reach: HashMap<[u8; 12], HashSet<[u8; 12]>> = boards(n)
            .into_iter()
            .map(|b| {
                let mut seen = HashSet::from([b]);
                let mut todo = vec![b];
                while let Some(x) = todo.pop() {
                    for (_, c) in south(x).children(&rules) {
                        let nb = c.normalized().board();
                        if c.no_capture() != 0 && seen.insert(nb) {
                            todo.push(nb);
                        }
                    }
                }
                (b, seen)
            })
            .collect();
        for (a, from_a) in &reach {
            for (b, from_b) in &reach {
                let mutual = from_a.contains(b) && from_b.contains(a);
                assert_eq!(
                    comp[rank(a) as usize] == comp[rank(b) as usize],
                    mutual,
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
