//! `Team`: the helper threads of a batched environment ([`super::VecEnv`])
//! with more than one thread.
//!
//! A batch step of 1,024 games is short enough that waking a sleeping
//! thread for half of it costs about as much as the half itself (rayon's
//! `scope`, which puts the caller to sleep and wakes its workers, made such
//! a step slower than one thread: docs/benchmarks.md), so a team works
//! differently:
//!
//! * the caller works too: it publishes the job and runs it at once;
//! * the work is claimed in shares from a shared counter (the job's
//!   business), so the caller takes the share of a helper that has not
//!   started yet and the step is never much slower than the caller alone;
//! * after a job a helper spins for [`SPIN`] waiting for the next one (the
//!   gap between two steps is the caller's policy: tens of µs), then sleeps
//!   until woken.
//!
//! The caller returns only once no helper is inside the job, so the job may
//! borrow the caller's stack.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a helper spins for the next job before it sleeps.
pub(crate) const SPIN: Duration = Duration::from_micros(100);

/// A job: run by the caller (with 0) and by every helper that joins in time
/// (with its number, 1..).
type Job<'a> = &'a (dyn Fn(usize) + Sync);

/// The job's lifetime erased, to be kept in `Shared` (see [`Team::run`]).
#[derive(Clone, Copy)]
struct ErasedJob(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: the pointee is `Sync`; the pointer is only dereferenced while
// `Team::run` keeps the job alive (see there).
unsafe impl Send for ErasedJob {}

struct Shared {
    /// Bumped for each job; a helper runs each epoch's job at most once.
    epoch: AtomicU64,
    /// The epoch whose job may still be joined (0: none).
    open: AtomicU64,
    /// Helpers inside a job (they have seen it open and not yet finished).
    inside: AtomicUsize,
    /// A helper's job panicked.
    panicked: AtomicBool,
    stop: AtomicBool,
    /// The current job, and how many helpers sleep (woken with `wake`).
    state: Mutex<State>,
    wake: Condvar,
}

struct State {
    job: Option<ErasedJob>,
    sleepers: usize,
}

/// Helper threads that join the caller's jobs (see the module docs).
pub(crate) struct Team {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock: a poisoned one is still sound.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Team {
    /// Threads that run a job: the helpers and the caller.
    pub(crate) fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// A team of `helpers` threads (the caller makes one more).
    pub(crate) fn new(helpers: usize) -> std::io::Result<Team> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            open: AtomicU64::new(0),
            inside: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            state: Mutex::new(State {
                job: None,
                sleepers: 0,
            }),
            wake: Condvar::new(),
        });
        let mut team = Team {
            shared,
            helpers: Vec::with_capacity(helpers),
        };
        for i in 0..helpers {
            let shared = Arc::clone(&team.shared);
            let handle = std::thread::Builder::new()
                .name(format!("ayo-batch-{i}"))
                .spawn(move || helper(&shared, i + 1))?;
            team.helpers.push(handle);
        }
        Ok(team)
    }

    /// Runs `job` on the calling thread and on every helper that joins
    /// before it is done; returns once no helper is inside it. A panic of
    /// the job (on any thread) is resumed here. One job at a time (`&mut`):
    /// the open epoch, its job and the count of helpers inside belong to
    /// one job, and a second caller would replace or close the first one's
    /// job while it runs.
    pub(crate) fn run(&mut self, job: Job<'_>) {
        let s = &*self.shared;
        // SAFETY (of the erasure): helpers dereference the pointer only
        // between seeing `open == epoch` and leaving `inside`; this function
        // closes the epoch and waits for `inside == 0` before it returns or
        // unwinds (`Close`'s drop), so the job outlives every use.
        let erased = ErasedJob(unsafe {
            std::mem::transmute::<
                *const (dyn Fn(usize) + Sync + '_),
                *const (dyn Fn(usize) + Sync + 'static),
            >(job)
        });
        {
            let mut state = s.state();
            state.job = Some(erased);
            let epoch = s.epoch.load(Ordering::Relaxed) + 1;
            s.open.store(epoch, Ordering::SeqCst);
            s.epoch.store(epoch, Ordering::SeqCst);
            if state.sleepers > 0 {
                s.wake.notify_all();
            }
        }
        struct Close<'a>(&'a Shared);
        impl Drop for Close<'_> {
            fn drop(&mut self) {
                let s = self.0;
                s.open.store(0, Ordering::SeqCst);
                let start = Instant::now();
                while s.inside.load(Ordering::SeqCst) != 0 {
                    if start.elapsed() < SPIN {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                s.state().job = None;
            }
        }
        let close = Close(s);
        job(0);
        drop(close);
        if s.panicked.swap(false, Ordering::SeqCst) {
            resume_unwind(Box::new("a batch helper thread panicked"));
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        let s = &*self.shared;
        {
            let _state = s.state();
            s.stop.store(true, Ordering::SeqCst);
            s.wake.notify_all();
        }
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

/// A helper's life: wait for a new epoch (spinning, then sleeping), join
/// its job if it is still open, repeat until the team stops.
fn helper(s: &Shared, me: usize) {
    let mut seen = s.epoch.load(Ordering::SeqCst);
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        let epoch = loop {
            let e = s.epoch.load(Ordering::SeqCst);
            if e != seen {
                break e;
            }
            if s.stop.load(Ordering::SeqCst) {
                return;
            }
            spins = spins.wrapping_add(1);
            // Reading the clock costs more than a spin: every 64th.
            if !spins.is_multiple_of(64) || start.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            let mut state = s.state();
            state.sleepers += 1;
            while s.epoch.load(Ordering::SeqCst) == seen && !s.stop.load(Ordering::SeqCst) {
                state = s.wake.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            state.sleepers -= 1;
        };
        seen = epoch;
        s.inside.fetch_add(1, Ordering::SeqCst);
        if s.open.load(Ordering::SeqCst) == epoch {
            let job = s.state().job;
            if let Some(ErasedJob(job)) = job {
                // SAFETY: the epoch is open and this thread is counted in
                // `inside`, so `Team::run` has not returned: the job lives.
                let job = unsafe { &*job };
                if catch_unwind(AssertUnwindSafe(|| job(me))).is_err() {
                    s.panicked.store(true, Ordering::SeqCst);
                }
            }
        }
        s.inside.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_is_done_once_whoever_does_it() {
        let mut team = Team::new(1).unwrap();
        for round in 0..2_000u64 {
            let blocks: Vec<AtomicU64> = (0..16).map(|_| AtomicU64::new(0)).collect();
            let next = AtomicUsize::new(0);
            team.run(&|_| loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                let Some(cell) = blocks.get(b) else { break };
                cell.fetch_add(round + 1, Ordering::Relaxed);
            });
            assert!(blocks
                .iter()
                .all(|c| c.load(Ordering::Relaxed) == round + 1));
            if round % 500 == 0 {
                // Let the helper fall asleep: it must wake for the next job.
                std::thread::sleep(SPIN * 3);
            }
        }
    }

    #[test]
    fn a_helper_panic_reaches_the_caller_and_the_team_goes_on() {
        let mut team = Team::new(1).unwrap();
        let on_helper = std::sync::atomic::AtomicBool::new(false);
        let caller = std::thread::current().id();
        let result = catch_unwind(AssertUnwindSafe(|| {
            // Until a run where the helper joined: it panics there.
            for _ in 0..10_000 {
                team.run(&|me| {
                    assert_eq!(me == 0, std::thread::current().id() == caller);
                    if me != 0 {
                        on_helper.store(true, Ordering::SeqCst);
                        panic!("helper");
                    }
                    std::thread::sleep(Duration::from_micros(50));
                });
                if on_helper.load(Ordering::SeqCst) {
                    break;
                }
            }
        }));
        assert!(on_helper.load(Ordering::SeqCst), "the helper never joined");
        assert!(result.is_err());
        let count = AtomicUsize::new(0);
        team.run(&|_| {
            count.fetch_add(1, Ordering::SeqCst);
        });
        assert!(count.load(Ordering::SeqCst) >= 1);
    }
}
