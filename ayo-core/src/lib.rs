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

// Folders by job; the public modules keep their paths (`ayo_core::kernel`,
// `ayo_core::record`, ...) through the re-exports below.
mod games; // games, records, traces, random playouts
mod kernels; // CPU kernels, the lane engine, the thread-count rule
mod rules; // every rule in a named home, and the values the rules act on

// What the players, the episode and the guided search share, below all three:
mod budget; // how much work a player or a search may do for one move
mod memory; // memory asked for before a search, never during it
mod observation; // what a network is shown: the mover's seeds, the legal mask

pub mod episode;
pub mod guided;
pub mod players;

pub use games::{playout, record, trace};
pub use kernels::dispatch as kernel;
pub use kernels::threads;
// The lane engine called directly: for ayo's own tests and timers (the
// `testing` feature); the batch step uses it inside the core.
#[cfg(feature = "testing")]
pub use kernels::lanes;

pub use games::game::Game;
pub use games::lean::LeanGame;
pub use games::record::RecordError;
pub use games::trace::{Event, LapEnd};
pub use rules::legal::each_children;
pub use rules::moves::{Children, IllegalMove, Move, MoveList, PlayError};
pub use rules::outcome::{EndReason, Outcome, Status};
pub use rules::player::Player;
pub use rules::position::{Position, PITS};
pub use rules::setup::{Setup, SetupError, SetupErrors};
pub use rules::{
    Capture, Feeding, FoursTo, GrandSlam, Preset, Repetition, RuleParams, Rules, RulesError,
    StuckSeeds, MAX_SEEDS_PER_PIT, PARAM_NAMES,
};

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
