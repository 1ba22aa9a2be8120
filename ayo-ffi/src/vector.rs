//! The batched environment (`ayo_core::episode::VecEnv`): N episodes
//! stepped in one call on up to a given number of threads, each call
//! writing the caller's arrays ([`ayo_vec_rows`]). The same episodes as the
//! Python `ayo.vector.AyoVectorEnv` for the same seeds. Failures keep their
//! detail per thread (`ayo_vec_env_last_error`).

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

use ayo_core::episode::{
    ActionError, Counts, EpisodeOptions, IllegalAction, Opponent, Rows, VecEnv, VecEnvError,
    ACTIONS, OBS,
};
use ayo_core::players::{Budget, Kind, Level};
use ayo_core::{Player, Rules};

use crate::errors::{c_words, illegal_move, Numbering};
use crate::result::ayo_result;
use crate::rules::ayo_rules;
use crate::util::{free_box, guard, guard_detail, in_str, need, out, write_str, Fail};

/// A batch of episodes stepped together (an opaque handle). Made by
/// `ayo_vec_env_new`, released by `ayo_vec_env_free`. Not for two threads
/// at once (a step runs its own threads).
pub struct ayo_vec_env {
    env: VecEnv,
}

/// The caller's arrays that a reset or a step writes, each as long as its
/// width times `num_envs` (game `i`'s values at `i` times the width). Every
/// pointer is required, and no two arrays overlap. The flags (`mask`,
/// `terminated`, `truncated`, `ended`, `game_over`) are 1 or 0. A reset writes the rows of the
/// games it resets; a step writes every game's rows but `final_obs` and
/// `final_obs_mask`, written for the episodes that ended this step.
#[repr(C)]
pub struct ayo_vec_rows {
    /// The games the arrays are for: the batch's games.
    pub num_envs: usize,
    /// The observation (14 a game): the 12 pits and 2 stores in the
    /// options' perspective.
    pub obs: *mut f32,
    /// The viewer's legal actions (6 a game), 1 or 0.
    pub obs_mask: *mut i8,
    /// The same as `obs_mask`, in bytes (6 a game).
    pub mask: *mut u8,
    /// The step's reward (1 a game).
    pub reward: *mut f64,
    /// The game ended by the rules, or the action was penalized.
    pub terminated: *mut u8,
    /// The step limit was reached.
    pub truncated: *mut u8,
    /// The seat whose view the observation is (0 South, 1 North).
    pub seat: *mut i8,
    /// The last observation of an episode that ended this step (14 a game;
    /// `autoreset=SameStep`).
    pub final_obs: *mut f32,
    /// Its action mask (6 a game).
    pub final_obs_mask: *mut i8,
    /// The episode ended this step (terminated or truncated).
    pub ended: *mut u8,
    /// The game ended by the rules this step.
    pub game_over: *mut u8,
    /// Its final stores (2 a game: South's, North's), 0 elsewhere.
    pub scores: *mut i16,
    /// Its winner (0 South, 1 North, -1 a draw), 0 elsewhere.
    pub winner: *mut i8,
    /// The penalized illegal action, -1 elsewhere.
    pub illegal: *mut i8,
    /// The player to move (0 South, 1 North).
    pub to_move: *mut i8,
    /// The game's ply.
    pub ply: *mut u32,
    /// The opponent's reply this step (its action 0 to 5), -1 where it did not move.
    pub replied: *mut i8,
    /// Why a game that ended by the rules this step ended (0 target, 1 move
    /// limit, 2 repetition, 3 no legal move), -1 elsewhere.
    pub reason: *mut i8,
    /// Each game's status: its legal actions (bits 0 to 5) and 0x80 when
    /// its episode is over and awaits a reset.
    pub status: *mut u8,
}

/// What a step did, counted over the batch.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ayo_vec_counts {
    /// Episodes that ended (terminated or truncated).
    pub ended: usize,
    /// Games that ended by the rules (`scores`, `winner` and `reason` set).
    pub over: usize,
    /// Penalized illegal actions.
    pub penalized: usize,
}

thread_local! {
    /// The detail of the last batched-environment call that failed on this thread.
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

impl From<VecEnvError> for Fail {
    fn from(e: VecEnvError) -> Fail {
        let message = c_words(&e);
        match e {
            // The refusals in the C API's words (ranges "a to b").
            VecEnvError::Refused { game, error } => match error {
                ActionError::Illegal(m) => {
                    let f = illegal_move(m, Numbering::Relative);
                    Fail::new(f.code, format!("game {game}: {}", f.message))
                }
                ActionError::OutOfRange(a) => Fail::new(
                    ayo_result::ActionOutOfRange,
                    format!("game {game}: action {a} is outside 0 to 5"),
                ),
                ActionError::EpisodeOver => Fail::new(
                    ayo_result::GameOver,
                    format!("game {game}: its episode is over; reset it"),
                ),
            },
            VecEnvError::OutOfMemory { .. } => Fail::new(ayo_result::VecEnvOutOfMemory, message),
            _ => Fail::new(ayo_result::InvalidArgument, message),
        }
    }
}

/// Runs a batched-environment call inside the panic boundary, keeping its
/// failure detail for the calling thread.
fn guard_vec(f: impl FnOnce() -> Result<(), Fail>) -> ayo_result {
    let (code, detail) = guard_detail(f);
    let kept = catch_unwind(AssertUnwindSafe(|| {
        let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = detail);
    }));
    kept.map_or(ayo_result::Panic, |()| code)
}

/// An empty vector with room for `n` items, or `AYO_RESULT_VEC_ENV_OUT_OF_MEMORY`.
fn room<T>(n: usize, what: &str) -> Result<Vec<T>, Fail> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        let bytes = n as u128 * std::mem::size_of::<T>() as u128;
        Fail::new(
            ayo_result::VecEnvOutOfMemory,
            format!("out of memory: could not allocate {bytes} bytes for {what}"),
        )
    })?;
    Ok(v)
}

/// An `AYO_RESULT_INVALID_ARGUMENT` failure.
fn bad(message: String) -> Fail {
    Fail::new(ayo_result::InvalidArgument, message)
}

/// The episode options of `spec` for `rules` (see `ayo_vec_env_new`).
fn options_of(rules: Rules, spec: &str) -> Result<EpisodeOptions, Fail> {
    let mut opts = EpisodeOptions::new(rules);
    let (mut illegal, mut penalty) = ("raise", -1.0f64);
    let core = |e: ayo_core::episode::OptionsError| bad(c_words(e));
    for part in spec.split(';').filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("{part:?} is not key=value")))?;
        match k {
            "opponent" => {
                opts.opponent = match v {
                    "random" => Opponent::RANDOM,
                    "self_play" => Opponent::SelfPlay,
                    "greedy" => Opponent::Agent(Kind::Greedy, Budget::Depth(1)),
                    _ => {
                        let level = Level::from_str(v).map_err(|_| {
                            bad(format!(
                                "opponent must be random, self_play, greedy or a level \
                                 (1 to 8, max), not {v:?}"
                            ))
                        })?;
                        let (kind, budget) = level.spec_for(&rules);
                        Opponent::Agent(kind, budget)
                    }
                }
            }
            "seat" => opts.seat = v.parse().map_err(core)?,
            "perspective" => opts.perspective = v.parse().map_err(core)?,
            "reward" => opts.reward = v.parse().map_err(core)?,
            "illegal" => illegal = v,
            "penalty" => {
                penalty = v
                    .parse()
                    .map_err(|_| bad(format!("penalty {v:?} is not a number")))?
            }
            "max_steps" if v == "none" => opts.max_steps = None,
            "max_steps" => {
                let m: i128 = v
                    .parse()
                    .map_err(|_| bad(format!("max_steps {v:?} is not a number")))?;
                opts.max_steps = Some(EpisodeOptions::max_steps_from(m).map_err(core)?);
            }
            "autoreset" => opts.autoreset = v.parse().map_err(core)?,
            _ => return Err(bad(format!("unknown option {k:?}"))),
        }
    }
    opts.illegal = IllegalAction::parse(illegal, penalty).map_err(core)?;
    Ok(opts)
}

/// `n` items of `T` at `p`, required non-NULL.
///
/// # Safety
/// `p` NULL or valid for `n` reads and writes, not aliased during the call.
unsafe fn row<'a, T>(p: *mut T, n: usize, arg: &str) -> Result<&'a mut [T], Fail> {
    need(p, arg)?;
    // SAFETY: the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// `n` flags at `p`, required non-NULL, as `bool`s: each byte first made 0
/// or 1 (the caller's may hold any byte; a `bool` must be 0 or 1), which
/// leaves the values a call wrote unchanged.
///
/// # Safety
/// `p` NULL or valid for `n` reads and writes, not aliased during the call.
unsafe fn flags<'a>(p: *mut u8, n: usize, arg: &str) -> Result<&'a mut [bool], Fail> {
    // SAFETY: the caller's contract.
    let bytes = unsafe { row(p, n, arg) }?;
    for b in bytes.iter_mut() {
        *b = u8::from(*b != 0);
    }
    // SAFETY: every byte is 0 or 1, a valid `bool` of the same size.
    Ok(unsafe { std::slice::from_raw_parts_mut(p.cast::<bool>(), n) })
}

/// The caller's arrays as the core's rows, for `games` games.
///
/// # Safety
/// `rows` NULL or valid, its arrays as its docs say.
unsafe fn rows_of<'a>(rows: *const ayo_vec_rows, games: usize) -> Result<Rows<'a>, Fail> {
    // SAFETY: the caller's contract.
    let r = unsafe { rows.as_ref() }.ok_or_else(|| Fail::null("rows"))?;
    if r.num_envs != games {
        return Err(bad(format!(
            "the rows are for {} games; the batch has {games}",
            r.num_envs
        )));
    }
    let (obs, acts) = (games * OBS, games * ACTIONS);
    // SAFETY (each): the caller's contract; the widths are the core's.
    unsafe {
        Ok(Rows {
            obs: row(r.obs, obs, "rows.obs")?,
            obs_mask: row(r.obs_mask, acts, "rows.obs_mask")?,
            mask: flags(r.mask, acts, "rows.mask")?,
            reward: row(r.reward, games, "rows.reward")?,
            terminated: flags(r.terminated, games, "rows.terminated")?,
            truncated: flags(r.truncated, games, "rows.truncated")?,
            seat: row(r.seat, games, "rows.seat")?,
            final_obs: row(r.final_obs, obs, "rows.final_obs")?,
            final_obs_mask: row(r.final_obs_mask, acts, "rows.final_obs_mask")?,
            ended: flags(r.ended, games, "rows.ended")?,
            game_over: flags(r.game_over, games, "rows.game_over")?,
            scores: row(r.scores, 2 * games, "rows.scores")?,
            winner: row(r.winner, games, "rows.winner")?,
            illegal: row(r.illegal, games, "rows.illegal")?,
            to_move: row(r.to_move, games, "rows.to_move")?,
            ply: row(r.ply, games, "rows.ply")?,
            replied: row(r.replied, games, "rows.replied")?,
            reason: row(r.reason, games, "rows.reason")?,
            status: row(r.status, games, "rows.status")?,
        })
    }
}

/// Makes a batch of `n` games of `rules`, game `i` seeded by `seeds[i]`,
/// stepped on up to `threads` threads (0: every core; at most
/// `AYO_MAX_THREADS`). `options` (NULL or "" for the defaults): `key=value`
/// pairs joined by `;`: `opponent` (`random`, the default; `self_play`;
/// `greedy`; a level `1` to `8` or `max`, its budget for these rules),
/// `seat` (`0`, `1`, `alternate`, `random`), `perspective` (`mover`,
/// `absolute`), `reward` (`win_loss`, `seed_difference`), `illegal`
/// (`raise`, `penalize`), `penalty` (default -1), `max_steps` (`none` or a
/// number) and `autoreset` (`NextStep`, `SameStep`, `Disabled`). Each game
/// awaits its first `ayo_vec_env_reset`.
///
/// `AYO_RESULT_INVALID_ARGUMENT` for no games, a bad option, a thread
/// count out of range, rules whose games can end before the agent's first
/// move, or threads that cannot start; `AYO_RESULT_VEC_ENV_OUT_OF_MEMORY`
/// when the batch does not fit in memory. Detail: `ayo_vec_env_last_error`.
///
/// Ownership: `*out_env` is new; release it with `ayo_vec_env_free`. The
/// rules are copied.
///
/// # Safety
/// `rules` a live handle; `options` NULL or a NUL-terminated string;
/// `seeds` valid for `n` reads; `out_env` valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_vec_env_new(
    rules: *const ayo_rules,
    options: *const c_char,
    seeds: *const u64,
    n: usize,
    threads: i32,
    out_env: *mut *mut ayo_vec_env,
) -> ayo_result {
    guard_vec(|| {
        need(out_env, "out_env")?;
        // SAFETY (all): the caller's contract.
        let rules = unsafe { rules.as_ref() }.ok_or_else(|| Fail::null("rules"))?;
        let spec = if options.is_null() {
            ""
        } else {
            unsafe { in_str(options, "options") }?
        };
        if n > 0 {
            need(seeds, "seeds")?;
        }
        let seeds: &[u64] = if n == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(seeds, n) }
        };
        let opts = options_of(rules.rules, spec)?;
        let threads = usize::try_from(threads).map_err(|_| {
            bad(format!(
                "threads must be 0 (every core) or more, not {threads}"
            ))
        })?;
        let env = VecEnv::new(opts, seeds, threads)?;
        // SAFETY: checked non-NULL.
        unsafe { out(out_env, Box::into_raw(Box::new(ayo_vec_env { env }))) };
        Ok(())
    })
}

/// Releases a batch (its threads end); NULL does nothing.
///
/// # Safety
/// `env` NULL or a handle from `ayo_vec_env_new`, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ayo_vec_env_free(env: *mut ayo_vec_env) {
    // SAFETY: the caller's contract.
    unsafe { free_box(env) }
}

/// The number of games of the batch into `*out_n`.
///
/// # Safety
/// `env` a live handle; `out_n` valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_vec_env_num_envs(
    env: *const ayo_vec_env,
    out_n: *mut usize,
) -> ayo_result {
    guard_vec(|| {
        // SAFETY: the caller's contract.
        let e = unsafe { env.as_ref() }.ok_or_else(|| Fail::null("env"))?;
        need(out_n, "out_n")?;
        // SAFETY: checked non-NULL.
        unsafe { out(out_n, e.env.num_envs()) };
        Ok(())
    })
}

/// Starts new episodes in the games where `mask[i]` is true (every game
/// when `mask` is NULL; a byte other than 0 is true) and writes their rows: `seeds` (NULL: none) first
/// restarts each such game's random streams with `seeds[i]`; `seat` 0 or 1
/// gives the agent that seat in these episodes, -1 keeps the options' seat.
///
/// `AYO_RESULT_INVALID_ARGUMENT` for rows not of the batch's games or a
/// seat other than -1, 0, 1; nothing changes then.
///
/// # Safety
/// `env` a live handle, not used by another thread during the call; `rows`
/// as `ayo_vec_rows` says; `mask` and `seeds` NULL or valid for
/// `num_envs` reads.
#[no_mangle]
pub unsafe extern "C" fn ayo_vec_env_reset(
    env: *mut ayo_vec_env,
    rows: *const ayo_vec_rows,
    mask: *const u8,
    seeds: *const u64,
    seat: i32,
) -> ayo_result {
    guard_vec(|| {
        // SAFETY (all): the caller's contract.
        let e = &mut unsafe { env.as_mut() }
            .ok_or_else(|| Fail::null("env"))?
            .env;
        let n = e.num_envs();
        let rows = unsafe { rows_of(rows, n) }?;
        let mask = if mask.is_null() {
            None
        } else {
            let given = unsafe { std::slice::from_raw_parts(mask, n) };
            let mut each = room(n, "the mask of a reset")?;
            each.extend(given.iter().map(|&m| m != 0));
            Some(each)
        };
        let seeds = if seeds.is_null() {
            None
        } else {
            let given = unsafe { std::slice::from_raw_parts(seeds, n) };
            let mut each = room(n, "the seeds of a reset")?;
            each.extend(given.iter().map(|&s| Some(s)));
            Some(each)
        };
        let seat = match seat {
            -1 => None,
            0 | 1 => Player::from_index(seat as usize),
            _ => return Err(bad(format!("seat must be -1, 0 or 1, not {seat}"))),
        };
        e.reset(rows, mask.as_deref(), seeds.as_deref(), seat)?;
        Ok(())
    })
}

/// Steps every game: `actions[i]` (0 to 5, the viewer's pits 1 to 6) for
/// game `i`, `n_actions` of them. Checks the whole batch first: an action
/// outside 0 to 5 (`AYO_RESULT_ACTION_OUT_OF_RANGE`), an illegal one when
/// `illegal=raise` (its reason's code, as `ayo_game_play`), an action of a
/// game whose episode is over when `autoreset=Disabled`
/// (`AYO_RESULT_GAME_OVER`), or actions or rows not one a game
/// (`AYO_RESULT_INVALID_ARGUMENT`) fail, the detail naming the first game,
/// and nothing changes. Then steps every episode (the opponent's replies,
/// the autoreset) on the batch's threads and writes the rows; `*out_counts`
/// (may be NULL) receives what happened.
///
/// # Safety
/// `env` a live handle, not used by another thread during the call;
/// `actions` valid for `n_actions` reads; `rows` as `ayo_vec_rows` says;
/// `out_counts` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_vec_env_step(
    env: *mut ayo_vec_env,
    actions: *const i64,
    n_actions: usize,
    rows: *const ayo_vec_rows,
    out_counts: *mut ayo_vec_counts,
) -> ayo_result {
    guard_vec(|| {
        // SAFETY (all): the caller's contract.
        let e = &mut unsafe { env.as_mut() }
            .ok_or_else(|| Fail::null("env"))?
            .env;
        let rows = unsafe { rows_of(rows, e.num_envs()) }?;
        let actions: &[i64] = if n_actions == 0 {
            &[]
        } else {
            need(actions, "actions")?;
            unsafe { std::slice::from_raw_parts(actions, n_actions) }
        };
        let Counts {
            ended,
            over,
            penalized,
        } = e.step(actions, rows)?;
        if !out_counts.is_null() {
            // SAFETY: non-NULL.
            unsafe {
                out(
                    out_counts,
                    ayo_vec_counts {
                        ended,
                        over,
                        penalized,
                    },
                )
            };
        }
        Ok(())
    })
}

/// Writes the detail of the last failed `ayo_vec_env_` call on this thread
/// into `buf` (empty after one that succeeded); text out-parameter
/// convention as for `ayo_result_message`.
///
/// # Safety
/// `buf` NULL or valid for `len` bytes; `written` valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_vec_env_last_error(
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    guard(|| {
        need(written, "written")?;
        let detail = LAST_ERROR
            .try_with(|last| last.borrow().clone())
            .unwrap_or_default();
        // SAFETY: the caller's contract.
        unsafe { write_str(&detail, buf, len, written) }
    })
}
