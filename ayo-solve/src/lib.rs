//! # ayo-solve
//!
//! Endgame databases and exact solving of Ayo games: board-only databases
//! for rule sets without a move limit (the `ayoayo` preset, its documented
//! variants, and `oware`, whose repetitions the databases score by their
//! cycle convention — the game's value only where it does not depend on
//! endless play, see `docs/solving.md`), and
//! counted databases of (board, no-capture count) for rule sets with a move
//! limit (`olopon`, `ayo`: [`counted`]), with one exact search ([`Search`])
//! and one `perfect` player ([`PerfectPlayer`]) over both ([`tablebase`]).
//!
//! * [`index`] ranks every board of `n` seeds perfectly (no hashing).
//! * [`Database`] holds one byte per board for every layer `0..=max` (and
//!   the bounds of the boards whose value depends on endless play), built
//!   layer by layer on every core ([`Database::build`]), stored in versioned,
//!   checksummed files ([`db`]), checked against the successors
//!   ([`Database::verify`]).
//! * [`Solver`] searches positions with more seeds (MTD(f) with a
//!   transposition table) down to the databases.
//! * [`RepetitionSearch`] gives the game's values under a repetition rule
//!   (`oware`), the history deciding repetitions, down to the databases.
//!
//! ## Values
//! The value of a position is the number of the seeds now on the board that
//! the player to move will still capture, minus the number the opponent will,
//! with best play by both to the end of the game (the target is ignored: play
//! goes on to the end, which never changes who wins — see `docs/solving.md`).
//! Successors always come from [`ayo_core::Position::children`]. Play that
//! would never end is scored by the convention documented in [`build`].
//!
//! ```
//! use ayo_core::{Position, Rules, Setup, Player};
//! use ayo_solve::{Database, Solver};
//!
//! let rules = Rules::preset("ayoayo")?;
//! let db = Database::build(&rules, 6, None, true)?.0;
//! // South to move: pit 5 holds one seed, North's pit 6 (facing pit 5) two:
//! // sowing pit 4's seed into empty pit 5 captures pit 6 and the capturing seed.
//! let mut setup = Setup::start(&rules);
//! setup.board = [0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0];
//! setup.stores = [23, 22];
//! let pos = Position::from_setup_unchecked(&setup);
//! let mut solver = Solver::new(db);
//! let value = solver.value(&pos)?.unwrap();
//! assert_eq!(value, 3);
//! let (mv, v) = solver.best_move(&pos)?.unwrap();
//! assert_eq!(v, value);
//! assert!(pos.is_legal(&rules, mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ayo_core::{EndReason, Player, Position, RuleParams, Rules, Setup, PITS};

pub mod build;
pub mod components;
pub mod counted;
pub mod db;
pub mod engine;
mod error;
mod frame;
pub mod index;
mod kinds;
pub mod perfect;
pub mod repetition;
pub mod search;
pub mod tablebase;
pub mod threads;

pub use build::{check_max_seeds, Database, LayerReport, VerifyReport, MAX_DATABASE_SEEDS};
pub use db::{DbError, Layer};
pub use kinds::{CountedSolver, Solver};
pub use perfect::{CountedPerfect, Perfect, PerfectPlayer};
pub use repetition::RepetitionSearch;
pub use search::{Search, SearchStats};
pub use tablebase::Tablebase;

/// The rules a board-only database is built for: `rules` with the target
/// removed. Refuses rules with a move limit (their values depend on the
/// no-capture counter: see [`counted`]). A repetition rule (`oware`) is
/// accepted: it scores a repeated position as "each player takes their own
/// row", the convention the databases give play that never ends; how far
/// that makes the databases' values the game's is in `docs/solving.md`
/// (section "Oware").
///
/// ```
/// use ayo_core::Rules;
/// let r = ayo_solve::solve_rules(&Rules::preset("ayoayo").unwrap()).unwrap();
/// assert_eq!(r.target(), None);
/// assert!(ayo_solve::solve_rules(&Rules::preset("oware").unwrap()).is_ok());
/// assert!(ayo_solve::solve_rules(&Rules::preset("olopon").unwrap()).is_err());
/// ```
pub fn solve_rules(rules: &Rules) -> Result<Rules, DbError> {
    if rules.move_limit().is_some() {
        return Err(DbError::UnsupportedRules {
            why: "a move limit makes values depend on the no-capture counter \
                  (use the counted databases)"
                .into(),
        });
    }
    let params = RuleParams {
        target: None,
        ..rules.params()
    };
    Rules::new(params).map_err(|e| DbError::UnsupportedRules { why: e.to_string() })
}

/// The position with `board`, empty stores and South to move.
#[inline]
pub fn south_position(board: &[u8; PITS]) -> Position {
    counted_position(board, 0)
}

/// The position with `board`, empty stores, South to move and `count`
/// capture-less moves behind it.
#[inline]
pub fn counted_position(board: &[u8; PITS], count: u16) -> Position {
    Position::from_setup_unchecked(&Setup {
        board: *board,
        stores: [0, 0],
        to_move: Player::South,
        no_capture: count,
        ply: u32::from(count),
    })
}

/// Seeds on a board.
#[inline]
pub fn seeds(board: &[u8; PITS]) -> usize {
    board.iter().map(|&s| usize::from(s)).sum()
}

/// The mover's row minus the opponent's row, South to move: the score of
/// the cycle convention ("each player takes the seeds on their own side").
#[inline]
pub fn own_side_split(board: &[u8; PITS]) -> i32 {
    let south: i32 = board[..6].iter().map(|&s| i32::from(s)).sum();
    let north: i32 = board[6..].iter().map(|&s| i32::from(s)).sum();
    south - north
}

/// The value for the player to move (South) when they have no legal move:
/// the final scores of the core's end-of-game rule (the stuck-seeds rule,
/// [`ayo_core::Position::final_outcome`]), South's minus North's.
#[inline]
pub fn stuck_value(rules: &Rules, board: &[u8; PITS]) -> i32 {
    let o = south_position(board).final_outcome(rules, EndReason::NoLegalMove);
    i32::from(o.scores[0]) - i32::from(o.scores[1])
}

/// A child of a South-to-move position with empty stores, seen from the
/// child's mover: what South gained minus what North gained by the move, and
/// the child's board turned so that its mover sits South.
#[inline]
pub fn child_view(child: &Position) -> (i32, [u8; PITS]) {
    let st = child.stores();
    let gain = i32::from(st[0]) - i32::from(st[1]);
    let b = child.board();
    let mut nb = [0u8; PITS];
    nb[..6].copy_from_slice(&b[6..]);
    nb[6..].copy_from_slice(&b[..6]);
    (gain, nb)
}
