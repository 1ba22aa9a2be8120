//! # ayo-core
//!
//! The rules engine of the Ayo family of Yoruba mancala games: relay sowing
//! (Ayoayo), collect-on-4 (the Ayo web app), single-lap 2-or-3 captures
//! (Ayò Ọlọ́pọ́n, Oware), and every parameter in between, exactly as the
//! project's `docs/rules.md` states them.
//!
//! * [`Rules`] is a validated rule set; [`Preset`]s name the usual ones.
//! * [`Position`] is a 32-byte `Copy` value (board, stores, player to move,
//!   counters, an incremental hash) for search and batched stepping.
//! * [`Game`] adds the history: undo, repetition, the cached legal moves and
//!   the [`Outcome`].
//! * [`trace`] lists every lift, drop, relay, collected 4 and capture of a move.
//! * [`record`] prints and parses positions and games as one line of text.
//!
//! ## Quick start
//!
//! ```
//! use ayo_core::{Game, Rules};
//!
//! let mut game = Game::new(Rules::preset("ayoayo")?);
//! // Moves are named by the mover's own pits 1..=6 (or actions 0..=5).
//! let mv = game.position().move_for_relative_pit(3)?;
//! game.play(mv)?;
//! assert_eq!(game.moves(), [mv]);
//! // Every legal move, ascending; the game ends when there are none.
//! while game.outcome().is_none() {
//!     let mv = game.legal_moves()[0];
//!     game.play(mv)?;
//! }
//! let outcome = game.outcome().unwrap();
//! println!("{outcome}; record: {}", game.record());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// The rules, each in one named home (docs/rules.md links them):
mod capture; // captures across and by the 2-or-3 chain, the grand slam
mod describe; // the rules in words
mod end; // the end of the game in the rules' order, the final scores
mod family; // the one dispatch from a rule set to its specialised loops
mod legal; // legality: endless relays, the feeding rule
mod repeat; // repetition: the positions since the last capture
mod rules; // every parameter, validated, and the presets
mod sow; // sowing: laps, the skipped origin, relay, collect on 4

// The values the rules act on:
mod board; // the packed board: one byte a pit
mod budget; // how much work a player or a search may do for one move
mod hash;
mod memory; // memory asked for before a search, never during it
mod moves;
mod observation; // what a network is shown: the mover's seeds, the legal mask
mod outcome;
mod player;
mod position;
mod random_move; // the seeded generator, the one way a uniformly random legal move is drawn
mod setup;
mod tables;

// Games, records and traces, built on the rules:
mod game;
mod lean;
pub mod playout;
pub mod record;
pub mod trace;

pub mod episode;
pub mod guided;
pub mod kernel;
pub mod lanes;
pub mod players;
pub mod threads;

pub use game::Game;
pub use lean::LeanGame;
pub use legal::each_children;
pub use moves::{Children, IllegalMove, Move, MoveList, PlayError};
pub use outcome::{EndReason, Outcome, Status};
pub use player::Player;
pub use position::{Position, PITS};
pub use record::RecordError;
pub use rules::{
    Capture, Feeding, FoursTo, GrandSlam, Preset, Repetition, RuleParams, Rules, RulesError,
    StuckSeeds, MAX_SEEDS_PER_PIT, PARAM_NAMES,
};
pub use setup::{Setup, SetupError, SetupErrors};
pub use trace::{Event, LapEnd};

/// The README's Rust quick start, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// docs/players.md's Rust block, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../docs/players.md")]
pub struct PlayersDoctests;

/// docs/search.md's Rust block, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../docs/search.md")]
pub struct SearchDoctests;
