//! Unvalidated positions ([`Setup`]) and everything that can be wrong with one.

use serde::{Deserialize, Serialize};

use crate::rules::board::PLAYER_SHIFT;
use crate::rules::position::{Position, PITS};
use crate::rules::Rules;
use crate::Player;

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

impl Position {
    /// The start position of `rules`.
    pub fn start(rules: &Rules) -> Position {
        Position::from_setup_unchecked(&Setup::start(rules))
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
        Position::from_parts(cells, setup.no_capture, setup.ply)
    }

    /// The setup this position was made from (or would be).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board(),
            stores: self.stores(),
            to_move: self.to_move(),
            no_capture: self.no_capture(),
            ply: self.ply(),
        }
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
}
