//! Running a job on a pool of its own, with the thread count of
//! [`ayo_core::threads`] (`None` or 0: every core; at most
//! [`ayo_core::threads::MAX_THREADS`]): the rule of the C ABI, the Python
//! binding and the commands.
//!
//! ```
//! use ayo_solve::threads::{run_on_threads, PoolError};
//! assert_eq!(run_on_threads(Some(2), rayon::current_num_threads)?, 2);
//! assert!(matches!(run_on_threads(Some(1_000_000), || ()), Err(PoolError::Threads(_))));
//! # Ok::<(), PoolError>(())
//! ```

use ayo_core::threads::{thread_count, ThreadsError};

use crate::error::DbError;

/// Why a job could not be run on its threads.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// The thread count breaks the rule (checked before any thread starts).
    #[error(transparent)]
    Threads(#[from] ThreadsError),
    /// The system would not start the threads.
    #[error("cannot start {threads} threads: {source}")]
    Start {
        /// The threads asked for.
        threads: usize,
        /// rayon's reason.
        source: rayon::ThreadPoolBuildError,
    },
}

/// Runs `f` on a new rayon pool of [`thread_count`]`(threads)` threads (its
/// parallel iterators use them) and returns what it returns.
pub fn run_on_threads<T: Send>(
    threads: Option<i64>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, PoolError> {
    let threads = thread_count(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| PoolError::Start { threads, source })?;
    Ok(pool.install(f))
}

/// Stack reserved for a search thread: a line without captures can run
/// hundreds of plies deep (the stack is reserved, touched only as deep as
/// the search goes).
const SEARCH_STACK: usize = 1 << 30;

/// Runs `f(state)` on a thread with a large stack ([`SEARCH_STACK`]), for
/// the exact searches. A thread that cannot be started (its stack is address
/// space the process may not have) is [`DbError::OutOfMemory`], not a panic.
pub(crate) fn on_search_thread<S: Send, R: Send>(
    state: &mut S,
    f: impl FnOnce(&mut S) -> R + Send,
) -> Result<R, DbError> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || f(state))
            .map_err(|e| DbError::OutOfMemory {
                bytes: SEARCH_STACK as u64,
                what: format!("the stack of the search thread (cannot start it: {e})"),
            })?;
        // A panic in the search is a bug: passed on as it is.
        Ok(thread
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_has_the_rule_s_threads() {
        let pool_size = |t| run_on_threads(t, rayon::current_num_threads).unwrap();
        let every = thread_count(None).unwrap();
        assert_eq!((pool_size(None), pool_size(Some(0))), (every, every));
        assert_eq!(pool_size(Some(3)), 3);
        let started = std::time::Instant::now();
        for bad in [-1, 1025, 1_000_000] {
            let e = run_on_threads(Some(bad), || ()).unwrap_err();
            let want = ThreadsError { requested: bad };
            assert!(matches!(e, PoolError::Threads(t) if t == want), "{e}");
            assert_eq!(e.to_string(), want.to_string());
        }
        // Refused before a thread was started.
        assert!(started.elapsed().as_secs() < 5);
    }
}
