use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A seat. South owns pits 0..=5 and moves first in every preset; North owns 6..=11.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// Player 0, pits 0..=5.
    South = 0,
    /// Player 1, pits 6..=11.
    North = 1,
}

impl Player {
    /// Both players, South first.
    pub const BOTH: [Player; 2] = [Player::South, Player::North];

    /// 0 for South, 1 for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player with index 0 or 1 (`None` for anything else).
    pub const fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::South),
            1 => Some(Player::North),
            _ => None,
        }
    }

    /// The other player.
    ///
    /// ```
    /// use ayo_core::Player;
    /// assert_eq!(Player::South.opponent(), Player::North);
    /// ```
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }

    /// The absolute index of this player's first pit (0 or 6).
    #[inline]
    pub const fn first_pit(self) -> usize {
        self.index() * 6
    }

    /// Whether absolute pit `pit` is in this player's row.
    #[inline]
    pub const fn owns(self, pit: usize) -> bool {
        pit / 6 == self.index()
    }

    /// The owner of absolute pit `pit` (0..=11).
    #[inline]
    pub const fn owner_of(pit: usize) -> Player {
        if pit < 6 {
            Player::South
        } else {
            Player::North
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::South => "south",
            Player::North => "north",
        })
    }
}

impl FromStr for Player {
    type Err = String;
    /// `south`/`s`/`0` or `north`/`n`/`1`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "south" | "s" | "0" => Ok(Player::South),
            "north" | "n" | "1" => Ok(Player::North),
            _ => Err(format!(
                "`{s}` is not a player; expected south (s) or north (n)"
            )),
        }
    }
}
