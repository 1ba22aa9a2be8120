//! Games, records, traces and random playouts, built on the rules.

pub(crate) mod game; // a game with its history: undo, repetition, the cached children
pub(crate) mod lean; // the least a game needs to go on, for batches
pub mod playout; // random playouts and perft
pub(crate) mod random_move; // the seeded generator, the one way a uniformly random legal move is drawn
pub mod record; // rules, positions and games as one line of text
pub mod trace; // a move's events: lifts, drops, relays, collected 4s, captures
