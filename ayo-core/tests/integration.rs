//! ayo-core's integration tests, linked into one test binary: each former
//! test file is a module here (`cargo test -p ayo-core --test integration
//! MODULE::`), so the tests link once instead of once a file.

mod reference;
mod strategy;

mod batch_check;
mod batch_lanes;
mod episode;
mod kernels;
mod lanes;
mod perft;
mod players;
mod properties;
mod random_moves;
mod rules_text;
mod scenarios;
mod stateless;
mod vec_env;
mod vectors;
