//! # ayo-ffi
//!
//! The C ABI of the ayo rules engine: `libayo.so`, `libayo.a` and the header
//! `include/ayo.h`, which cbindgen generates from this crate (see
//! `ayo-ffi/cbindgen.toml` and `docs/c-api.md`).
//!
//! Every rule lives in `ayo-core`; this crate only translates between C values
//! and `ayo-core` values. Its conventions, modelled on rustls-ffi:
//!
//! * Opaque handles ([`ayo_rules`], [`ayo_game`], [`ayo_player`],
//!   [`ayo_database`]) made by `_new`/`_clone`/`_open`/`_build` functions and
//!   released by `_free`, where `_free(NULL)` does nothing. No handle is ever
//!   borrowed from another: a game copies its rules, [`ayo_game_rules`] hands
//!   out a new rules handle, and a `perfect` player shares its databases with
//!   the database handle (an `Arc`), so either may be freed first.
//! * Every fallible function returns an [`ayo_result`], whose numbers are
//!   stable and never reused. Out-parameters are written only on
//!   [`ayo_result::Ok`], with one documented exception: on
//!   [`ayo_result::BufferTooSmall`] the length out-parameter receives the
//!   length needed.
//! * A NULL where a pointer is required is [`ayo_result::NullArgument`].
//! * Every `extern "C"` body runs inside `catch_unwind`: a panic becomes
//!   [`ayo_result::Panic`] and never unwinds into C.
//! * A failed call on a mutable handle leaves the handle as it was and keeps a
//!   detailed message on it ([`ayo_rules_last_error`], [`ayo_game_last_error`],
//!   [`ayo_game_last_record_error`], [`ayo_player_last_error`]); the
//!   database calls, which take const handles, keep theirs per thread
//!   ([`ayo_database_last_error`]). Messages name pits in the caller's
//!   numbering (see `errors.rs`).

#![allow(non_camel_case_types)]

mod counted;
mod database;
mod errors;
mod game;
mod messages;
mod player;
mod result;
mod rules;
mod search;
mod stateless;
mod util;
mod vector;

pub use counted::*;
pub use database::*;
pub use game::*;
pub use messages::*;
pub use player::*;
pub use result::*;
pub use rules::*;
pub use search::*;
pub use stateless::*;
pub use vector::*;

use std::ffi::c_char;

/// Major version of the library this header was generated for (from `Cargo.toml`).
pub const AYO_VERSION_MAJOR: u32 = 0;
/// Minor version of the library this header was generated for (from `Cargo.toml`).
pub const AYO_VERSION_MINOR: u32 = 1;
/// Patch version of the library this header was generated for (from `Cargo.toml`).
pub const AYO_VERSION_PATCH: u32 = 0;
/// The version as one number, `major * 10000 + minor * 100 + patch`, for `#if` tests.
pub const AYO_VERSION_NUMBER: u32 =
    AYO_VERSION_MAJOR * 10000 + AYO_VERSION_MINOR * 100 + AYO_VERSION_PATCH;

/// The most legal moves a position can have (one per pit of the mover's row).
pub const AYO_MAX_LEGAL_MOVES: usize = 6;
/// Pits on the board; `ayo_setup.board` has this many entries.
pub const AYO_PITS: usize = 12;

/// The version of the linked library, as `"major.minor.patch"`.
///
/// Ownership: the string is static; do not free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn ayo_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}

/// The CPU kernel the hot loops run: `"scalar"`, `"avx2"` or `"avx512"` (the
/// best this CPU has, or the one the environment variable `AYO_KERNEL`
/// names, read once), or NULL when `AYO_KERNEL` names a kernel this CPU
/// lacks or an unknown one (the hot loops then run the scalar kernel).
///
/// Ownership: the string is static; do not free it.
///
/// Thread safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn ayo_kernel() -> *const c_char {
    match ayo_core::kernel::configured().map(|k| k.name()) {
        Ok("avx2") => c"avx2".as_ptr(),
        Ok("avx512") => c"avx512".as_ptr(),
        Ok(_) => c"scalar".as_ptr(),
        Err(_) => std::ptr::null(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_names_the_configured_kernel() {
        let k = ayo_kernel();
        match ayo_core::kernel::configured() {
            Ok(kernel) => {
                let name = unsafe { std::ffi::CStr::from_ptr(k) };
                assert_eq!(name.to_str().unwrap(), kernel.name());
            }
            Err(_) => assert!(k.is_null()),
        }
    }

    #[test]
    fn version_constants_match_cargo_toml() {
        let parse = |s: &str| s.parse::<u32>().unwrap();
        assert_eq!(AYO_VERSION_MAJOR, parse(env!("CARGO_PKG_VERSION_MAJOR")));
        assert_eq!(AYO_VERSION_MINOR, parse(env!("CARGO_PKG_VERSION_MINOR")));
        assert_eq!(AYO_VERSION_PATCH, parse(env!("CARGO_PKG_VERSION_PATCH")));
        let v = unsafe { std::ffi::CStr::from_ptr(ayo_version()) };
        assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn counts_match_the_core() {
        assert_eq!(AYO_PITS, ayo_core::PITS);
        assert_eq!(AYO_PARAM_COUNT, ayo_core::PARAM_NAMES.len());
        assert_eq!(AYO_PRESET_COUNT, ayo_core::Preset::ALL.len());
    }
}
