//! How a game ends: the reason, the final scores and the winner, and where a
//! game stands.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Player;

/// Why a game ended (docs/rules.md "End of the game").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A store reached the target.
    Target,
    /// The move limit passed with nothing captured.
    MoveLimit,
    /// A position repeated since the last capture.
    Repetition,
    /// The player to move had no legal move.
    NoLegalMove,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Target => "target reached",
            EndReason::MoveLimit => "move limit without capture",
            EndReason::Repetition => "position repeated",
            EndReason::NoLegalMove => "no legal move",
        })
    }
}

/// How a game ended: final scores (after any end-of-game sweep), winner, reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Final seeds of South and North.
    pub scores: [u16; 2],
}

impl Outcome {
    /// The outcome for final `scores`: the higher wins, equal is a draw.
    pub fn from_scores(scores: [u16; 2], reason: EndReason) -> Outcome {
        let winner = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some(Player::South),
            std::cmp::Ordering::Less => Some(Player::North),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            reason,
            scores,
        }
    }

    /// +1 for a win of `player`, -1 for a loss, 0 for a draw.
    pub fn result_for(&self, player: Player) -> i32 {
        match self.winner {
            None => 0,
            Some(w) if w == player => 1,
            Some(_) => -1,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(w) => write!(
                f,
                "{w} wins {}-{} ({})",
                self.scores[0], self.scores[1], self.reason
            ),
            None => write!(
                f,
                "draw {}-{} ({})",
                self.scores[0], self.scores[1], self.reason
            ),
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The player to move has legal moves.
    Ongoing,
    /// The game has ended by the rules.
    Ended(Outcome),
    /// The caller's ply cap was reached before a real end (see [`crate::Game::set_ply_cap`]).
    Truncated,
}
