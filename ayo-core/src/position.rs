//! Positions, moves and legality.

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::game::{EndReason, Outcome};
use crate::hash::{finalize, NORTH_WEIGHT, PIT_WEIGHT, STORE_WEIGHT};
use crate::rules::{Capture, Feeding, Rules, StuckSeeds};
use crate::sow::{self, byte, PLAYER_SHIFT, ROW_MASK};
use crate::Player;

/// Number of pits on the board.
pub const PITS: usize = 12;

/// A move: the absolute pit (0..=11) whose seeds are lifted.
///
/// Moves are usually named relative to the player to move: pit 1..=6 or action
/// 0..=5 in sowing order from the mover's own side (see
/// [`Position::move_for_action`]).
///
/// ```
/// use ayo_core::{Move, Player};
/// let mv = Move::from_action(Player::North, 1).unwrap();
/// assert_eq!(mv.pit(), 7);
/// assert_eq!(mv.relative_pit(), 2);
/// assert!(Move::new(12).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Move(u8);

impl Move {
    /// The move that lifts absolute pit `pit` (0..=11).
    pub const fn new(pit: u8) -> Result<Move, IllegalMove> {
        if (pit as usize) < PITS {
            Ok(Move(pit))
        } else {
            Err(IllegalMove::PitOutOfRange { pit: pit as i64 })
        }
    }

    /// The move of `player` for action 0..=5 (0 = the player's first pit in sowing order).
    pub const fn from_action(player: Player, action: u8) -> Result<Move, IllegalMove> {
        if action < 6 {
            Ok(Move(player.first_pit() as u8 + action))
        } else {
            Err(IllegalMove::ActionOutOfRange {
                action: action as i64,
            })
        }
    }

    /// The absolute pit, 0..=11.
    #[inline]
    pub const fn pit(self) -> usize {
        self.0 as usize
    }

    /// The action index relative to the pit's owner, 0..=5.
    #[inline]
    pub const fn action(self) -> u8 {
        self.0 % 6
    }

    /// The pit number relative to the pit's owner, 1..=6 (the web app's keys).
    #[inline]
    pub const fn relative_pit(self) -> u8 {
        self.0 % 6 + 1
    }

    /// The player whose row the pit is in.
    #[inline]
    pub const fn player(self) -> Player {
        Player::owner_of(self.0 as usize)
    }
}

impl TryFrom<u8> for Move {
    type Error = IllegalMove;
    fn try_from(pit: u8) -> Result<Move, IllegalMove> {
        Move::new(pit)
    }
}

impl From<Move> for u8 {
    fn from(m: Move) -> u8 {
        m.0
    }
}

impl fmt::Display for Move {
    /// The mover-relative pit number 1..=6, as in game records.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.relative_pit())
    }
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalMove {
    /// An absolute pit outside 0..=11.
    #[error("pit {pit} is not on the board (absolute pits are 0..=11)")]
    PitOutOfRange {
        /// The pit that was given.
        pit: i64,
    },
    /// An action outside 0..=5 (or a relative pit outside 1..=6).
    #[error("action {action} is out of range (actions are 0..=5, relative pits 1..=6)")]
    ActionOutOfRange {
        /// The action that was given.
        action: i64,
    },
    /// The pit is in the opponent's row.
    #[error("pit {pit} is not a pit of the player to move ({mover})")]
    NotMoversPit {
        /// The absolute pit.
        pit: usize,
        /// The player to move.
        mover: Player,
    },
    /// The pit holds no seeds.
    #[error("pit {pit} is empty")]
    EmptyPit {
        /// The absolute pit.
        pit: usize,
    },
    /// Sowing this pit would relay forever.
    #[error("sowing pit {pit} is an endless relay")]
    EndlessRelay {
        /// The absolute pit.
        pit: usize,
    },
    /// The opponent's row is empty and this move leaves it empty while another move would feed it.
    #[error("sowing pit {pit} does not feed the opponent's empty row")]
    DoesNotFeed {
        /// The absolute pit.
        pit: usize,
    },
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The caller's ply cap has been reached.
    #[error("the game was truncated at the ply cap")]
    Truncated,
}

impl IllegalMove {
    /// A stable snake_case name for the kind of error (as in the test vectors).
    pub const fn kind(&self) -> &'static str {
        match self {
            IllegalMove::PitOutOfRange { .. } => "pit_out_of_range",
            IllegalMove::ActionOutOfRange { .. } => "action_out_of_range",
            IllegalMove::NotMoversPit { .. } => "not_movers_pit",
            IllegalMove::EmptyPit { .. } => "empty_pit",
            IllegalMove::EndlessRelay { .. } => "endless_relay",
            IllegalMove::DoesNotFeed { .. } => "does_not_feed",
            IllegalMove::GameOver => "game_over",
            IllegalMove::Truncated => "truncated",
        }
    }
}

/// A failed [`Position::play`]: the reason, and the position, unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct PlayError {
    /// Why the move is illegal.
    pub reason: IllegalMove,
    /// The position the move was tried on.
    pub position: Position,
}

/// The legal moves of a position, ascending.
pub type MoveList = ArrayVec<Move, 6>;

/// The legal moves of a position with the position each leads to, ascending.
/// Relay games must simulate every candidate to rule out endless relays; this
/// keeps those results so that playing the chosen move costs nothing more.
pub type Children = ArrayVec<(Move, Position), 6>;

/// An unvalidated position: any board, stores, player and counters. Turn it into
/// a [`Position`] with [`Position::from_setup`], which lists every problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    /// Seeds in pits 0..=11 (South's row 0..=5, North's 6..=11, in sowing order).
    pub board: [u8; PITS],
    /// Seeds in South's and North's stores.
    pub stores: [u8; 2],
    /// The player to move.
    pub to_move: Player,
    /// Moves played in a row without a capture.
    pub no_capture: u16,
    /// Moves played since the start of the game.
    pub ply: u32,
}

impl Setup {
    /// The start position of `rules`.
    pub fn start(rules: &Rules) -> Setup {
        Setup {
            board: [rules.seeds_per_pit(); PITS],
            stores: [0, 0],
            to_move: rules.first_player(),
            no_capture: 0,
            ply: 0,
        }
    }
}

/// One problem of a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Board and stores do not hold exactly the rules' seeds.
    #[error("board and stores hold {found} seeds; these rules play with {expected}")]
    SeedCount {
        /// Seeds found.
        found: u32,
        /// 12 × seeds per pit.
        expected: u16,
    },
    /// More moves without capture than the move limit allows.
    #[error("{no_capture} moves without capture exceed the move limit of {limit}")]
    NoCaptureOverLimit {
        /// The counter.
        no_capture: u16,
        /// The rules' limit.
        limit: u16,
    },
    /// The no-capture counter exceeds the number of moves played.
    #[error("{no_capture} moves without capture, but only {ply} moves played")]
    NoCaptureOverPly {
        /// The counter.
        no_capture: u16,
        /// The ply number.
        ply: u32,
    },
}

/// Every problem of a [`Setup`] (never empty).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid position: {}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
pub struct SetupErrors(pub Vec<SetupError>);

/// A position: board, stores, player to move, counters and the incremental key.
/// A 32-byte `Copy` value; the rules are passed to each method, and the game
/// history (undo, repetition) lives in [`crate::Game`].
///
/// ```
/// use ayo_core::{Position, Rules};
/// let rules = Rules::preset("oware").unwrap();
/// let pos = Position::start(&rules);
/// assert_eq!(std::mem::size_of::<Position>(), 32);
/// let mv = pos.move_for_action(2).unwrap();
/// let next = pos.play(&rules, mv).unwrap();
/// assert_eq!(next.board(), [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte `i` = pit `i`; bytes 12, 13 = stores; byte 14 = player to move.
    cells: u128,
    /// Additive Zobrist sum (see `hash.rs`).
    lin: u64,
    no_capture: u16,
    ply: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("board", &self.board())
            .field("stores", &self.stores())
            .field("to_move", &self.to_move())
            .field("no_capture", &self.no_capture)
            .field("ply", &self.ply)
            .finish()
    }
}

impl Position {
    /// The start position of `rules`.
    pub fn start(rules: &Rules) -> Position {
        Position::from_setup_unchecked(&Setup::start(rules))
    }

    /// Validates a setup against `rules`, listing every problem.
    ///
    /// ```
    /// use ayo_core::{Player, Position, Rules, Setup};
    /// let rules = Rules::preset("ayoayo").unwrap();
    /// let mut setup = Setup::start(&rules);
    /// setup.board[0] = 9;
    /// setup.no_capture = 3;
    /// let errors = Position::from_setup(&rules, &setup).unwrap_err();
    /// assert_eq!(errors.0.len(), 2);
    /// ```
    pub fn from_setup(rules: &Rules, setup: &Setup) -> Result<Position, SetupErrors> {
        let mut problems = Vec::new();
        let found: u32 = setup
            .board
            .iter()
            .chain(&setup.stores)
            .map(|&s| u32::from(s))
            .sum();
        if found != u32::from(rules.total_seeds()) {
            problems.push(SetupError::SeedCount {
                found,
                expected: rules.total_seeds(),
            });
        }
        if let Some(limit) = rules.move_limit() {
            if setup.no_capture > limit {
                problems.push(SetupError::NoCaptureOverLimit {
                    no_capture: setup.no_capture,
                    limit,
                });
            }
        }
        if u32::from(setup.no_capture) > setup.ply {
            problems.push(SetupError::NoCaptureOverPly {
                no_capture: setup.no_capture,
                ply: setup.ply,
            });
        }
        if problems.is_empty() {
            Ok(Position::from_setup_unchecked(setup))
        } else {
            Err(SetupErrors(problems))
        }
    }

    /// Builds a position without checking it against any rules (the seed total
    /// is whatever the setup holds). Useful for solvers that enumerate boards.
    pub fn from_setup_unchecked(setup: &Setup) -> Position {
        let mut cells = 0u128;
        for (i, &s) in setup.board.iter().enumerate() {
            cells |= u128::from(s) << (8 * i);
        }
        cells |= u128::from(setup.stores[0]) << 96;
        cells |= u128::from(setup.stores[1]) << 104;
        cells |= (setup.to_move.index() as u128) << PLAYER_SHIFT;
        let mut p = Position {
            cells,
            lin: 0,
            no_capture: setup.no_capture,
            ply: setup.ply,
        };
        p.lin = p.compute_lin();
        p
    }

    /// The setup this position was made from (or would be).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board(),
            stores: self.stores(),
            to_move: self.to_move(),
            no_capture: self.no_capture,
            ply: self.ply,
        }
    }

    fn compute_lin(&self) -> u64 {
        let pits = PIT_WEIGHT
            .iter()
            .enumerate()
            .map(|(i, w)| (byte(self.cells, i), w));
        let stores = STORE_WEIGHT
            .iter()
            .enumerate()
            .map(|(p, w)| (byte(self.cells, 12 + p), w));
        pits.chain(stores).fold(0u64, |h, (seeds, w)| {
            h.wrapping_add(u64::from(seeds).wrapping_mul(*w))
        })
    }

    /// Seeds in each pit, 0..=11.
    #[inline]
    pub fn board(&self) -> [u8; PITS] {
        let b = self.cells.to_le_bytes();
        let mut out = [0u8; PITS];
        out.copy_from_slice(&b[..PITS]);
        out
    }

    /// The board as `seat` sees it: the seeds of `seat`'s six pits (in
    /// sowing order), of the opponent's six, `seat`'s store and the
    /// opponent's store (the observation of the environments; a few
    /// register operations, for batched stepping).
    ///
    /// ```
    /// use ayo_core::{Player, Position, Rules};
    /// let rules = Rules::preset("oware").unwrap();
    /// let pos = Position::start(&rules).play(&rules, ayo_core::Move::new(0).unwrap()).unwrap();
    /// assert_eq!(pos.view(Player::South), [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0, 0]);
    /// assert_eq!(pos.view(Player::North), [4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 0, 0]);
    /// ```
    #[inline]
    pub fn view(&self, seat: Player) -> [u8; PITS + 2] {
        const ROW: u128 = (1 << 48) - 1;
        let c = self.cells;
        let v = match seat {
            Player::South => c,
            // Rows swapped (bytes 0..6 and 6..12), stores swapped (12 and 13).
            Player::North => {
                (c >> 48) & ROW
                    | (c & ROW) << 48
                    | ((c >> 104) & 0xFF) << 96
                    | ((c >> 96) & 0xFF) << 104
            }
        };
        let b = v.to_le_bytes();
        let mut out = [0u8; PITS + 2];
        out.copy_from_slice(&b[..PITS + 2]);
        out
    }

    /// Seeds in absolute pit `pit` (0..=11).
    #[inline]
    pub fn seeds(&self, pit: usize) -> u8 {
        debug_assert!(pit < PITS);
        byte(self.cells, pit)
    }

    /// Seeds in South's and North's stores.
    #[inline]
    pub fn stores(&self) -> [u8; 2] {
        [byte(self.cells, 12), byte(self.cells, 13)]
    }

    /// Seeds in `player`'s store.
    #[inline]
    pub fn store(&self, player: Player) -> u8 {
        byte(self.cells, 12 + player.index())
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Player {
        if sow::mover(self.cells) == 0 {
            Player::South
        } else {
            Player::North
        }
    }

    /// Moves played in a row without a capture.
    #[inline]
    pub fn no_capture(&self) -> u16 {
        self.no_capture
    }

    /// Moves played since the start.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Seeds in `player`'s row.
    #[inline]
    pub fn row_seeds(&self, player: Player) -> u32 {
        let b = self.board();
        b[player.first_pit()..player.first_pit() + 6]
            .iter()
            .map(|&s| u32::from(s))
            .sum()
    }

    /// Seeds on the board.
    #[inline]
    pub fn board_seeds(&self) -> u32 {
        self.board().iter().map(|&s| u32::from(s)).sum()
    }

    /// The 64-bit key of the position (board, stores, player to move; not the
    /// counters), kept up to date incrementally as seeds move.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("ayoayo").unwrap();
    /// let a = Position::start(&rules);
    /// let b = a.play(&rules, a.move_for_action(0).unwrap()).unwrap();
    /// assert_ne!(a.hash(), b.hash());
    /// assert_eq!(b.hash(), Position::from_setup(&rules, &b.to_setup()).unwrap().hash());
    /// ```
    #[inline]
    pub fn hash(&self) -> u64 {
        finalize(self.raw_key())
    }

    /// Board, stores and player to move packed in one integer (byte `i` = pit
    /// `i`, bytes 12 and 13 = stores, byte 14 = player): equal exactly when the
    /// positions are the same for the repetition rule.
    #[inline]
    pub fn packed(&self) -> u128 {
        self.cells
    }

    /// The move for mover-relative action 0..=5.
    pub fn move_for_action(&self, action: u8) -> Result<Move, IllegalMove> {
        Move::from_action(self.to_move(), action)
    }

    /// The move for mover-relative pit 1..=6 (the web app's keys).
    pub fn move_for_relative_pit(&self, pit: u8) -> Result<Move, IllegalMove> {
        if (1..=6).contains(&pit) {
            Move::from_action(self.to_move(), pit - 1)
        } else {
            Err(IllegalMove::ActionOutOfRange {
                action: i64::from(pit),
            })
        }
    }

    /// The non-empty pits of the player to move, as a bit set over actions 0..=5.
    #[inline]
    pub fn nonempty_actions(&self) -> u8 {
        // The mover's six bytes, without a variable 128-bit shift.
        let row = if sow::mover(self.cells) == 0 {
            self.cells as u64
        } else {
            (self.cells >> 48) as u64
        } & 0xFFFF_FFFF_FFFF;
        // Set the high bit of each non-zero byte, then gather bits 7, 15, …, 47
        // into bits 40..=45 with one multiply (the 36 partial products land on
        // distinct bits, so nothing carries).
        let nz = (((row & 0x7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F) | row) & 0x8080_8080_8080;
        const GATHER: u64 = (1 << 40) | (1 << 33) | (1 << 26) | (1 << 19) | (1 << 12) | (1 << 5);
        (((nz >> 7).wrapping_mul(GATHER) >> 40) & 0x3F) as u8
    }

    /// Sows `mv` for the player to move and passes the turn; `None` for an
    /// endless relay. Does not check feeding or that the game goes on.
    #[inline]
    fn sown(&self, rules: &Rules, mv: Move) -> Option<Position> {
        sow::sow(rules, self.cells, self.lin, mv.pit()).map(|s| self.after(s))
    }

    /// [`Position::sown`] for one relay setting and capture mode (see `sow::sow_mode`).
    #[inline(always)]
    pub(crate) fn sown_mode<const RELAY: bool, const CAP: u8>(
        &self,
        rules: &Rules,
        pit: usize,
    ) -> Option<Position> {
        sow::sow_mode::<RELAY, CAP>(rules, self.cells, self.lin, pit).map(|s| self.after(s))
    }

    /// The position after a sown move: turn passed, counters updated.
    #[inline(always)]
    fn after(&self, s: sow::Sown) -> Position {
        let no_capture = if s.captured {
            0
        } else {
            self.no_capture.saturating_add(1)
        };
        Position {
            cells: s.cells ^ (1u128 << PLAYER_SHIFT),
            lin: s.lin,
            no_capture,
            ply: self.ply.wrapping_add(1),
        }
    }

    /// The additive key without the side to move.
    #[inline(always)]
    pub(crate) fn lin(&self) -> u64 {
        self.lin
    }

    /// The additive key, side to move included, before the final mixing of [`Position::hash`].
    #[inline]
    pub(crate) fn raw_key(&self) -> u64 {
        let side = if sow::mover(self.cells) == 0 {
            0
        } else {
            NORTH_WEIGHT
        };
        self.lin.wrapping_add(side)
    }

    /// Whether the player to move in `after` (the last mover's opponent) has seeds.
    #[inline]
    fn feeds(after: &Position) -> bool {
        after.cells & ROW_MASK[sow::mover(after.cells)] != 0
    }

    /// Every legal move with the position it leads to, ascending.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("ayoayo").unwrap();
    /// let pos = Position::start(&rules);
    /// let children = pos.children(&rules);
    /// assert_eq!(children.len(), 6);
    /// assert_eq!(children[0].1, pos.play(&rules, children[0].0).unwrap());
    /// ```
    pub fn children(&self, rules: &Rules) -> Children {
        use sow::{ACROSS, COLLECT_FOUR, TWO_THREE};
        // One sowing loop per rule family (the sowing inlined in each).
        match (rules.relay(), rules.capture()) {
            (true, Capture::Across) => self.children_mode::<true, ACROSS>(rules),
            (true, Capture::TwoThree) => self.children_mode::<true, TWO_THREE>(rules),
            (true, Capture::CollectFour) => self.children_mode::<true, COLLECT_FOUR>(rules),
            (false, Capture::Across) => self.children_mode::<false, ACROSS>(rules),
            (false, Capture::TwoThree) => self.children_mode::<false, TWO_THREE>(rules),
            (false, Capture::CollectFour) => self.children_mode::<false, COLLECT_FOUR>(rules),
        }
    }

    /// [`Position::children`] for one relay setting and capture mode.
    #[inline(always)]
    fn children_mode<const RELAY: bool, const CAP: u8>(&self, rules: &Rules) -> Children {
        let mut out = Children::new();
        self.each_child::<RELAY, CAP>(rules, |mv, p| out.push((mv, p)));
        out
    }

    /// Sows every candidate move into `out[action]` (mover-relative
    /// actions) and returns the legal ones as a bit set: [`Position::children`]
    /// without the list (for a caller that keeps the children by action).
    pub(crate) fn children_by_action(&self, rules: &Rules, out: &mut [Position; 6]) -> u8 {
        use sow::{ACROSS, COLLECT_FOUR, TWO_THREE};
        let mut legal = 0u8;
        let mut keep = |mv: Move, p: Position| {
            let a = mv.action();
            legal |= 1 << a;
            out[usize::from(a)] = p;
        };
        match (rules.relay(), rules.capture()) {
            (true, Capture::Across) => self.each_child::<true, ACROSS>(rules, &mut keep),
            (true, Capture::TwoThree) => self.each_child::<true, TWO_THREE>(rules, &mut keep),
            (true, Capture::CollectFour) => self.each_child::<true, COLLECT_FOUR>(rules, &mut keep),
            (false, Capture::Across) => self.each_child::<false, ACROSS>(rules, &mut keep),
            (false, Capture::TwoThree) => self.each_child::<false, TWO_THREE>(rules, &mut keep),
            (false, Capture::CollectFour) => {
                self.each_child::<false, COLLECT_FOUR>(rules, &mut keep)
            }
        }
        legal
    }

    /// Calls `f` with each legal move and its child, in ascending order.
    #[inline(always)]
    fn each_child<const RELAY: bool, const CAP: u8>(
        &self,
        rules: &Rules,
        mut f: impl FnMut(Move, Position),
    ) {
        if self.ended_by_counters(rules).is_some() {
            return;
        }
        let first = self.to_move().first_pit();
        let mut bits = self.nonempty_actions();
        let must_feed = rules.feeding() != Feeding::Off
            && self.cells & ROW_MASK[1 - sow::mover(self.cells)] == 0;
        if !must_feed {
            while bits != 0 {
                let a = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mv = Move((first + a) as u8);
                if let Some(p) = self.sown_mode::<RELAY, CAP>(rules, mv.pit()) {
                    f(mv, p);
                }
            }
            return;
        }
        let mut starving = Children::new();
        let mut fed = false;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mv = Move((first + a) as u8);
            if let Some(p) = self.sown_mode::<RELAY, CAP>(rules, mv.pit()) {
                if Position::feeds(&p) {
                    fed = true;
                    f(mv, p);
                } else {
                    starving.push((mv, p));
                }
            }
        }
        if !fed && rules.feeding() == Feeding::IfPossible {
            for (mv, p) in starving {
                f(mv, p);
            }
        }
    }

    /// Every legal move, ascending.
    ///
    /// ```
    /// use ayo_core::{Position, Rules};
    /// let rules = Rules::preset("oware").unwrap();
    /// let moves = Position::start(&rules).legal_moves(&rules);
    /// assert_eq!(moves.iter().map(|m| m.pit()).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
    /// ```
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let needs_sowing = rules.relay()
            || (rules.feeding() != Feeding::Off
                && self.cells & ROW_MASK[1 - sow::mover(self.cells)] == 0);
        if needs_sowing || self.ended_by_counters(rules).is_some() {
            return self.children(rules).iter().map(|&(m, _)| m).collect();
        }
        let first = self.to_move().first_pit();
        let mut out = MoveList::new();
        let mut bits = self.nonempty_actions();
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.push(Move((first + a) as u8));
        }
        out
    }

    /// Why `mv` is illegal here, if it is.
    pub fn check_move(&self, rules: &Rules, mv: Move) -> Result<Position, IllegalMove> {
        let mover = self.to_move();
        if !mover.owns(mv.pit()) {
            return Err(IllegalMove::NotMoversPit {
                pit: mv.pit(),
                mover,
            });
        }
        if self.ended_by_counters(rules).is_some() {
            return Err(IllegalMove::GameOver);
        }
        if self.seeds(mv.pit()) == 0 {
            return Err(IllegalMove::EmptyPit { pit: mv.pit() });
        }
        let next = self
            .sown(rules, mv)
            .ok_or(IllegalMove::EndlessRelay { pit: mv.pit() })?;
        let must_feed = rules.feeding() != Feeding::Off
            && self.cells & ROW_MASK[1 - sow::mover(self.cells)] == 0;
        if must_feed && !Position::feeds(&next) {
            let allowed = match rules.feeding() {
                Feeding::Strict => false,
                // Legal only when no move at all feeds.
                _ => self
                    .children(rules)
                    .iter()
                    .all(|(_, p)| !Position::feeds(p)),
            };
            if !allowed {
                return Err(IllegalMove::DoesNotFeed { pit: mv.pit() });
            }
        }
        Ok(next)
    }

    /// Whether `mv` is legal.
    pub fn is_legal(&self, rules: &Rules, mv: Move) -> bool {
        self.check_move(rules, mv).is_ok()
    }

    /// Plays `mv`, or says why it is illegal (the error holds this position, unchanged).
    /// The game-over check covers the target, the move limit and having no legal
    /// move; repetition needs the history, which [`crate::Game`] keeps.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, PlayError> {
        self.check_move(rules, mv).map_err(|reason| PlayError {
            reason,
            position: *self,
        })
    }

    /// Plays `mv` without any check. `mv` must be a non-empty pit of the player
    /// to move; for an endless relay this returns the position unchanged but for
    /// the passed turn (callers use [`Position::children`] or
    /// [`Position::try_play_unchecked`] to learn of those).
    #[inline]
    pub fn play_unchecked(&self, rules: &Rules, mv: Move) -> Position {
        self.try_play_unchecked(rules, mv).unwrap_or(*self)
    }

    /// Plays `mv` checking only for an endless relay (`None`); no feeding or
    /// game-over checks. `mv` must be a non-empty pit of the player to move.
    #[inline]
    pub fn try_play_unchecked(&self, rules: &Rules, mv: Move) -> Option<Position> {
        debug_assert!(self.to_move().owns(mv.pit()) && self.seeds(mv.pit()) > 0);
        self.sown(rules, mv)
    }

    /// The end by target or move limit, if any (checked first, in that order).
    #[inline]
    pub(crate) fn ended_by_counters(&self, rules: &Rules) -> Option<EndReason> {
        if let Some(t) = rules.target() {
            let s = self.stores();
            if u16::from(s[0]) >= t || u16::from(s[1]) >= t {
                return Some(EndReason::Target);
            }
        }
        if let Some(limit) = rules.move_limit() {
            if self.no_capture >= limit {
                return Some(EndReason::MoveLimit);
            }
        }
        None
    }

    /// The outcome, if the game is over here. Repetition is not seen from a lone
    /// position (see [`crate::Game::outcome`]). `children` must be this
    /// position's [`Position::children`] when given, saving their computation.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if let Some(reason) = self.ended_by_counters(rules) {
            return Some(self.final_outcome(rules, reason));
        }
        if self.children(rules).is_empty() {
            return Some(self.final_outcome(rules, EndReason::NoLegalMove));
        }
        None
    }

    /// Scores and winner when the game ends here for `reason`: the seeds left on
    /// the board go to the stores as the rules say (nobody takes them after a
    /// target win).
    pub fn final_outcome(&self, rules: &Rules, reason: EndReason) -> Outcome {
        let mut scores = [
            u16::from(self.store(Player::South)),
            u16::from(self.store(Player::North)),
        ];
        let rows = [
            self.row_seeds(Player::South) as u16,
            self.row_seeds(Player::North) as u16,
        ];
        match reason {
            EndReason::Target => {}
            EndReason::MoveLimit | EndReason::Repetition => {
                scores[0] += rows[0];
                scores[1] += rows[1];
            }
            EndReason::NoLegalMove => match rules.stuck_seeds() {
                StuckSeeds::OwnSide => {
                    scores[0] += rows[0];
                    scores[1] += rows[1];
                }
                StuckSeeds::ToOpponent => {
                    scores[self.to_move().opponent().index()] += rows[0] + rows[1];
                }
            },
        }
        Outcome::from_scores(scores, reason)
    }

    /// The same position with the board turned round so that the player to move
    /// sits South (pits rotate by 6, stores swap). Values from the mover's point
    /// of view are unchanged by this.
    pub fn normalized(&self) -> Position {
        if self.to_move() == Player::South {
            return *self;
        }
        let mut s = self.to_setup();
        s.board.rotate_left(6);
        s.stores.swap(0, 1);
        s.to_move = Player::South;
        Position::from_setup_unchecked(&s)
    }
}
