//! The rules and the values they act on: every parameter and the presets,
//! the packed board and the position, and each rule in one named home
//! (docs/rules.md links them).

mod params;
pub use params::*;

pub(crate) mod capture; // captures across and by the 2-or-3 chain, the grand slam
pub(crate) mod describe; // the rules in words
pub(crate) mod end; // the end of the game in the rules' order, the final scores
pub(crate) mod family; // the one dispatch from a rule set to its specialised loops
pub(crate) mod lap_board; // what the rules compute on: the board a lap is sown on, the counts
pub(crate) mod legal; // legality: endless relays, the feeding rule
pub(crate) mod repeat; // repetition: the positions since the last capture
pub(crate) mod sow; // sowing: laps, the skipped origin, relay, collect on 4

// The values the rules act on:
pub(crate) mod board; // the packed board: one byte a pit
pub(crate) mod hash;
pub(crate) mod moves;
pub(crate) mod outcome;
pub(crate) mod player;
pub(crate) mod position;
pub(crate) mod setup;
pub(crate) mod tables;
