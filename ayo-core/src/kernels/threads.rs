//! The one rule for how many threads a parallel job may use, shared by the
//! Rust API, the C ABI (`AYO_MAX_THREADS`), the Python binding
//! (`threads=`) and the commands (`--threads`).
//!
//! * `None` or `0`: every core ([`std::thread::available_parallelism`],
//!   itself at most [`MAX_THREADS`]);
//! * `1..=MAX_THREADS`: that many threads (more than there are cores is
//!   allowed: the threads then share them);
//! * anything else (negative, or above [`MAX_THREADS`]) is a
//!   [`ThreadsError`], found before any thread is started.
//!
//! ```
//! use ayo_core::threads::{thread_count, MAX_THREADS};
//! let cores = thread_count(None)?;
//! assert!((1..=MAX_THREADS).contains(&cores));
//! assert_eq!(thread_count(Some(0))?, cores);
//! assert_eq!(thread_count(Some(3))?, 3);
//! let e = thread_count(Some(1_000_000)).unwrap_err();
//! assert_eq!(e.to_string(), "threads is 0 (every core) or 1 to 1024, not 1000000");
//! assert!(thread_count(Some(-1)).is_err());
//! # Ok::<(), ayo_core::threads::ThreadsError>(())
//! ```

/// The most threads a job may be given (`AYO_MAX_THREADS` in C).
pub const MAX_THREADS: usize = 1024;

/// A thread count outside `0..=MAX_THREADS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("threads is 0 (every core) or 1 to {MAX_THREADS}, not {requested}")]
pub struct ThreadsError {
    /// The count asked for.
    pub requested: i64,
}

/// The number of threads to use for `requested`: every core for `None` or
/// `Some(0)`, else the count itself when it is at most [`MAX_THREADS`].
///
/// The count is signed so that a binding can pass on whatever integer its
/// caller gave (a negative one is refused here, with the same message as a
/// count that is too large).
pub fn thread_count(requested: Option<i64>) -> Result<usize, ThreadsError> {
    match requested {
        None | Some(0) => Ok(cores()),
        Some(n) => match usize::try_from(n) {
            Ok(t) if t <= MAX_THREADS => Ok(t),
            _ => Err(ThreadsError { requested: n }),
        },
    }
}

/// The cores this process may use, 1 to [`MAX_THREADS`] (1 when the system
/// cannot say).
fn cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(MAX_THREADS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_and_zero_are_every_core_and_the_bound_holds() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(thread_count(None), Ok(cores.min(MAX_THREADS)));
        assert_eq!(thread_count(Some(0)), Ok(cores.min(MAX_THREADS)));
        for n in [1, 2, 7, MAX_THREADS as i64] {
            assert_eq!(thread_count(Some(n)), Ok(n as usize));
        }
        for n in [-1, i64::MIN, MAX_THREADS as i64 + 1, 1_000_000, i64::MAX] {
            let e = thread_count(Some(n)).unwrap_err();
            assert_eq!(e, ThreadsError { requested: n });
            assert_eq!(
                e.to_string(),
                format!("threads is 0 (every core) or 1 to 1024, not {n}")
            );
        }
    }
}
