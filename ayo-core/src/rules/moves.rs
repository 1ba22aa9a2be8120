//! Moves, the lists of legal moves, and why a move can be illegal.

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::rules::position::{Position, PITS};
use crate::Player;

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
pub struct Move(pub(crate) u8);

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
    /// The opponent's row holds seeds and this move leaves it empty, while
    /// the feeding rule `no_starving` forbids that (another move leaves seeds there).
    #[error("sowing pit {pit} leaves the opponent's row empty while another move does not")]
    Starves {
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
            IllegalMove::Starves { .. } => "starves",
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

impl Position {
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
}
