//! The guided search (ayo-core's `guided`) asked and told from C: a
//! program with its own network (LibTorch, ONNX Runtime) hands the leaves to
//! it and tells the search its logits and values.

use std::ffi::c_char;

use ayo_core::guided::{
    GuidedSearch, Gumbel, Puct, SearchError, SearchOptions, Selection, Values, ACTIONS, OBS,
};
use ayo_core::LeanGame;

use crate::game::ayo_game;
use crate::result::ayo_result;
use crate::util::{
    free_box, guard, guard_mut, need, out, text_query, Fail, HasLastError, LastError,
};

/// Features of one leaf's observation: the player to move's six pits (in
/// sowing order), the opponent's six, their store, the opponent's store.
pub const AYO_SEARCH_OBS: usize = 14;
/// Logits (and mask flags) a leaf: one an action, the mover's pits 1..=6.
pub const AYO_SEARCH_ACTIONS: usize = 6;
// Literals for the header; the core's widths.
const _: () = assert!(AYO_SEARCH_OBS == OBS && AYO_SEARCH_ACTIONS == ACTIONS);

/// `ayo_search_options.method`: AlphaZero's PUCT, Dirichlet noise at the
/// root, a temperature.
pub const AYO_SEARCH_METHOD_PUCT: i32 = 0;
/// `ayo_search_options.method`: Gumbel root selection with sequential
/// halving (mctx's `gumbel_muzero_policy`).
pub const AYO_SEARCH_METHOD_GUMBEL: i32 = 1;
/// `ayo_search_options.values`: a game end is worth 1 (a win), 0 (a draw)
/// or -1 (a loss) for the player to move.
pub const AYO_SEARCH_VALUES_OUTCOME: i32 = 0;
/// `ayo_search_options.values`: a game end is worth the final seed
/// difference over the seeds of the game, for the player to move.
pub const AYO_SEARCH_VALUES_SEED_DIFFERENCE: i32 = 1;

/// The options of a search; `ayo_search_options_default` fills in the
/// defaults. `method` is an `AYO_SEARCH_METHOD_*` and `values` an
/// `AYO_SEARCH_VALUES_*` number (checked by `ayo_search_new`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ayo_search_options {
    /// Simulations a tree runs after its root's evaluation, 1 to 10^9
    /// (and at most 2^27 tree nodes in all: about 6 a simulation a game).
    pub simulations: u64,
    /// `AYO_SEARCH_METHOD_PUCT` or `AYO_SEARCH_METHOD_GUMBEL`.
    pub method: i32,
    /// What game ends are worth: `AYO_SEARCH_VALUES_OUTCOME` or
    /// `AYO_SEARCH_VALUES_SEED_DIFFERENCE`.
    pub values: i32,
    /// PUCT: the exploration constant (at least 0).
    pub c_puct: f32,
    /// PUCT: the Dirichlet noise's alpha (more than 0).
    pub dirichlet_alpha: f32,
    /// PUCT: the share of noise in the root's priors, 0 to 1.
    pub dirichlet_fraction: f32,
    /// PUCT: the temperature of the move drawn by visits (0: most visited).
    pub temperature: f32,
    /// Gumbel: actions sampled at the root, 1 to 6.
    pub max_considered: u32,
    /// Gumbel: the scale of the root's Gumbel noise (0: none).
    pub gumbel_scale: f32,
    /// Gumbel: `c_visit` of the completed Q-values.
    pub c_visit: f32,
    /// Gumbel: `c_scale` of the completed Q-values.
    pub c_scale: f32,
    /// The seed of the noise and the temperature draws.
    pub seed: u64,
}

/// A batched search with the network in the loop: opaque, made by
/// `ayo_search_new`, freed by `ayo_search_free`. It keeps the detail of its
/// last failed call (`ayo_search_last_error`).
pub struct ayo_search {
    search: GuidedSearch,
    last_error: LastError,
}

impl HasLastError for ayo_search {
    fn last_error_mut(&mut self) -> &mut LastError {
        &mut self.last_error
    }
}

/// A core search error as a failure: memory as
/// `AYO_RESULT_SEARCH_OUT_OF_MEMORY`, a call out of turn as
/// `AYO_RESULT_SEARCH_NOT_READY`, the rest `AYO_RESULT_SEARCH_INVALID`.
fn fail(e: SearchError) -> Fail {
    let code = match e {
        SearchError::OutOfMemory(_) => ayo_result::SearchOutOfMemory,
        SearchError::NotAsked | SearchError::NotDone => ayo_result::SearchNotReady,
        SearchError::GameOver(_) => ayo_result::GameOver,
        _ => ayo_result::SearchInvalid,
    };
    Fail::new(code, e.to_string())
}

/// Writes the default options to `*options`: 32 simulations of PUCT
/// (c_puct 1.25, alpha 0.3, fraction 0.25, temperature 1), values by
/// outcome, the Gumbel parameters mctx's (6 considered, scale 1, c_visit
/// 50, c_scale 0.1), seed 0.
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `options` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_options_default(
    options: *mut ayo_search_options,
) -> ayo_result {
    guard(|| {
        need(options, "options")?;
        let (p, g) = (Puct::default(), Gumbel::default());
        let o = ayo_search_options {
            simulations: 32,
            method: AYO_SEARCH_METHOD_PUCT,
            values: AYO_SEARCH_VALUES_OUTCOME,
            c_puct: p.c_puct,
            dirichlet_alpha: p.dirichlet_alpha,
            dirichlet_fraction: p.dirichlet_fraction,
            temperature: p.temperature,
            max_considered: u32::from(g.max_considered),
            gumbel_scale: g.gumbel_scale,
            c_visit: g.c_visit,
            c_scale: g.c_scale,
            seed: 0,
        };
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(options, o) };
        Ok(())
    })
}

fn core_options(o: &ayo_search_options) -> Result<SearchOptions, Fail> {
    let invalid = |m: String| Fail::new(ayo_result::SearchInvalid, m);
    let selection = match o.method {
        AYO_SEARCH_METHOD_PUCT => Selection::Puct(Puct {
            c_puct: o.c_puct,
            dirichlet_alpha: o.dirichlet_alpha,
            dirichlet_fraction: o.dirichlet_fraction,
            temperature: o.temperature,
        }),
        AYO_SEARCH_METHOD_GUMBEL => Selection::Gumbel(Gumbel {
            max_considered: u8::try_from(o.max_considered).unwrap_or(0),
            gumbel_scale: o.gumbel_scale,
            c_visit: o.c_visit,
            c_scale: o.c_scale,
        }),
        m => {
            return Err(invalid(format!(
                "method {m} is not AYO_SEARCH_METHOD_PUCT (0) or AYO_SEARCH_METHOD_GUMBEL (1)"
            )))
        }
    };
    let values = match o.values {
        AYO_SEARCH_VALUES_OUTCOME => Values::Outcome,
        AYO_SEARCH_VALUES_SEED_DIFFERENCE => Values::SeedDifference,
        v => {
            return Err(invalid(format!(
                "values {v} is not AYO_SEARCH_VALUES_OUTCOME (0) or AYO_SEARCH_VALUES_SEED_DIFFERENCE (1)"
            )))
        }
    };
    let opts = SearchOptions {
        simulations: o.simulations,
        selection,
        values,
        seed: o.seed,
    };
    opts.check().map_err(fail)?;
    Ok(opts)
}

/// Makes a search with `*options`, checked: `AYO_RESULT_SEARCH_INVALID`
/// when an option is out of range (no handle is made). On success
/// `*out_search` is a new handle owned by the caller (free it with
/// `ayo_search_free`).
///
/// Thread safety: may be called from any thread at any time.
///
/// # Safety
/// `options` NULL or valid for a read; `out_search` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_new(
    options: *const ayo_search_options,
    out_search: *mut *mut ayo_search,
) -> ayo_result {
    guard(|| {
        // SAFETY: NULL or valid by the caller's contract.
        let o = unsafe { options.as_ref() }.ok_or_else(|| Fail::null("options"))?;
        need(out_search, "out_search")?;
        let search = GuidedSearch::new(core_options(o)?).map_err(fail)?;
        let h = Box::into_raw(Box::new(ayo_search {
            search,
            last_error: LastError::default(),
        }));
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_search, h) };
        Ok(())
    })
}

/// Releases a search handle. `ayo_search_free(NULL)` does nothing.
///
/// Thread safety: needs `search` exclusively.
///
/// # Safety
/// `search` NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_free(search: *mut ayo_search) {
    // SAFETY: the caller's contract.
    unsafe { free_box(search) }
}

/// Starts a search of the `count` games `games[0..count]` (each read during
/// the call only, with its history for the repetition rule), dropping any
/// search under way; its memory is allocated here. `AYO_RESULT_GAME_OVER`
/// when a game is over (or truncated), `AYO_RESULT_SEARCH_INVALID` for no
/// games or too many (1 to 2^20, and at most 2^27 tree nodes in all),
/// `AYO_RESULT_SEARCH_OUT_OF_MEMORY` when the trees cannot be allocated.
///
/// Thread safety: needs `search` exclusively; reads the games.
///
/// # Safety
/// `search` NULL or live; `games` NULL or valid for `count` reads of live
/// game handles (none NULL).
#[no_mangle]
pub unsafe extern "C" fn ayo_search_start(
    search: *mut ayo_search,
    games: *const *const ayo_game,
    count: usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(search, |s| {
            if count > 0 {
                need(games, "games")?;
            }
            let ptrs: &[*const ayo_game] = if count == 0 {
                &[]
            } else {
                std::slice::from_raw_parts(games, count)
            };
            let mut lean: Vec<LeanGame> = Vec::new();
            lean.try_reserve_exact(count).map_err(|_| {
                fail(SearchError::OutOfMemory(ayo_core::players::OutOfMemory {
                    bytes: (count as u64).saturating_mul(std::mem::size_of::<LeanGame>() as u64),
                    what: "a search's games",
                }))
            })?;
            for (i, &p) in ptrs.iter().enumerate() {
                let g = p.as_ref().ok_or_else(|| Fail::null("games[i]"))?.core();
                if g.legal_moves().is_empty() {
                    return Err(fail(SearchError::GameOver(i)));
                }
                lean.push(LeanGame::from_game(g));
            }
            s.search.start(&lean).map_err(fail)
        })
    }
}

/// The next round's leaves, at most one a game: writes their count to
/// `*count` and, a leaf a row, `AYO_SEARCH_OBS` floats to `obs` and
/// `AYO_SEARCH_ACTIONS` legal flags (1 legal, 0 not) to `mask`; both arrays
/// must hold `capacity` rows, at least a row a game of the search
/// (`AYO_RESULT_BUFFER_TOO_SMALL` otherwise, with the rows needed in
/// `*count`). `*count` is 0 once the search is done. Called again before
/// `ayo_search_tell`, the same leaves.
///
/// Thread safety: needs `search` exclusively.
///
/// # Safety
/// `search` NULL or live; `obs` valid for `capacity * AYO_SEARCH_OBS`
/// writes, `mask` for `capacity * AYO_SEARCH_ACTIONS`; `count` valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_leaves(
    search: *mut ayo_search,
    obs: *mut f32,
    mask: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(search, |s| {
            need(count, "count")?;
            let n = s.search.len();
            if capacity < n {
                out(count, n);
                return Err(Fail::new(
                    ayo_result::BufferTooSmall,
                    format!("the arrays hold {capacity} rows; {n} are needed"),
                ));
            }
            need(obs, "obs")?;
            need(mask, "mask")?;
            let leaves = s.search.ask();
            let l = s.search.leaves();
            std::ptr::copy_nonoverlapping(l.obs.as_ptr(), obs, leaves * OBS);
            for (i, &m) in l.mask.iter().enumerate() {
                mask.add(i).write(u8::from(m));
            }
            out(count, leaves);
            Ok(())
        })
    }
}

/// The network's answer for the `count` leaves handed out by
/// `ayo_search_leaves`: `AYO_SEARCH_ACTIONS` logits a leaf (illegal
/// actions' are ignored and may be anything; legal ones finite) and a value
/// a leaf in [-1, 1] for the player to move there. Checked first: on error
/// nothing changes. `AYO_RESULT_SEARCH_NOT_READY` when no leaves await
/// values, `AYO_RESULT_SEARCH_INVALID` for another count or a bad number.
///
/// Thread safety: needs `search` exclusively.
///
/// # Safety
/// `search` NULL or live; `logits` valid for `count * AYO_SEARCH_ACTIONS`
/// reads and `values` for `count` (either may be NULL when `count` is 0).
#[no_mangle]
pub unsafe extern "C" fn ayo_search_tell(
    search: *mut ayo_search,
    logits: *const f32,
    values: *const f32,
    count: usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        guard_mut(search, |s| {
            let asked = s.search.leaf_games().len();
            if count != asked {
                return Err(fail(if asked == 0 {
                    SearchError::NotAsked
                } else {
                    SearchError::Shape {
                        what: "values",
                        expected: asked,
                        leaves: asked,
                        got: count,
                    }
                }));
            }
            need(logits, "logits")?;
            need(values, "values")?;
            let l = std::slice::from_raw_parts(logits, count * ACTIONS);
            let v = std::slice::from_raw_parts(values, count);
            s.search.tell(l, v).map_err(fail)
        })
    }
}

/// Whether every tree has run its simulations (1) or not (0), to `*done`.
///
/// Thread safety: reads `search`.
///
/// # Safety
/// `search` NULL or live; `done` NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_done(search: *const ayo_search, done: *mut u8) -> ayo_result {
    guard(|| {
        // SAFETY: the caller's contract.
        let s = unsafe { search.as_ref() }.ok_or_else(|| Fail::null("search"))?;
        need(done, "done")?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(done, u8::from(s.search.is_done())) };
        Ok(())
    })
}

/// Every game's result once the search is done
/// (`AYO_RESULT_SEARCH_NOT_READY` before): a game a row, the chosen move as
/// the mover's relative pit 1..=6 (ready for `ayo_game_play`) in
/// `relative_pits`, the policy target (`AYO_SEARCH_ACTIONS` floats summing
/// to 1, 0 for illegal actions) in `policies` and the root value for the
/// player to move in `values`; each array holds `capacity` rows
/// (`AYO_RESULT_BUFFER_TOO_SMALL` otherwise, the rows needed in `*count`).
///
/// Thread safety: reads `search`.
///
/// # Safety
/// `search` NULL or live; `relative_pits` valid for `capacity` writes,
/// `policies` for `capacity * AYO_SEARCH_ACTIONS`, `values` for `capacity`;
/// `count` valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_results(
    search: *const ayo_search,
    relative_pits: *mut u8,
    policies: *mut f32,
    values: *mut f32,
    capacity: usize,
    count: *mut usize,
) -> ayo_result {
    guard(|| {
        // SAFETY: the caller's contract.
        let s = unsafe { search.as_ref() }.ok_or_else(|| Fail::null("search"))?;
        need(count, "count")?;
        let r = s.search.results().map_err(fail)?;
        if capacity < r.len() {
            // SAFETY: checked non-NULL; valid by the caller's contract.
            unsafe { out(count, r.len()) };
            return Err(Fail::new(
                ayo_result::BufferTooSmall,
                format!("the arrays hold {capacity} rows; {} are needed", r.len()),
            ));
        }
        need(relative_pits, "relative_pits")?;
        need(policies, "policies")?;
        need(values, "values")?;
        for (i, x) in r.iter().enumerate() {
            // SAFETY: within `capacity` rows, valid by the caller's contract.
            unsafe {
                relative_pits.add(i).write(x.action + 1);
                std::ptr::copy_nonoverlapping(
                    x.policy.as_ptr(),
                    policies.add(i * ACTIONS),
                    ACTIONS,
                );
                values.add(i).write(x.value);
            }
        }
        // SAFETY: as above.
        unsafe { out(count, r.len()) };
        Ok(())
    })
}

/// The detail of the search's last failed call (empty after a success), by
/// the text out-parameter convention (see `ayo_result_message`).
///
/// Thread safety: reads `search`.
///
/// # Safety
/// `search` NULL or live; `buf` NULL or valid for `len` bytes; `written` NULL
/// or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn ayo_search_last_error(
    search: *const ayo_search,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> ayo_result {
    // SAFETY: the caller's contract.
    unsafe {
        text_query(search, "search", buf, len, written, |s| {
            Ok(s.last_error.message.clone())
        })
    }
}
