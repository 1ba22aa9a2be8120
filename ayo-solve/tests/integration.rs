//! ayo-solve's integration tests, linked into one test binary: each former
//! test file is a module here (`cargo test -p ayo-solve --test integration
//! MODULE::`), so the tests link once instead of once a file.

mod common;

mod bounds;
mod counted;
mod exhaustive;
mod files;
mod index;
mod kernels;
mod oware;
mod perfect;
mod perfect_convention;
mod perfect_counted;
mod search;
mod tablebase;
mod verify;
