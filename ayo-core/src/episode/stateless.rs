//! Stateless batches: an episode packed in a fixed-size record of
//! [`STATE_BYTES`] bytes, and pure functions from a batch of records (and
//! actions) to the next records, rewards and flags, for callers that keep
//! the environment's state themselves (JAX programs: `jax.jit`,
//! `lax.scan`, mctx's `recurrent_fn`).
//!
//! Nothing here restates a rule: the records are unpacked into
//! [`Episode`]s of a [`LeanGame`], 64 at a time, stepped by the batched
//! environment's own batch step ([`super::step_batch_rows`]'s loop: in byte
//! lanes on a CPU with AVX-512, else [`Episode::step`] each), and packed
//! again. A record stepped with the same seeds and actions as the batched
//! environment goes through the same positions, draws and rewards. (With
//! [`Autoreset::Disabled`] each record is stepped by [`Episode::step`] in
//! turn: an ended episode is not stepped at all.)
//!
//! # The record (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 0..12 | seeds in pits 0..=11 (South's row 0..=5, North's 6..=11, in sowing order) |
//! | 12, 13 | South's and North's stores |
//! | 14 | player to move: 0 South, 1 North |
//! | 15 | flags: bit 0 the agent sits North, bit 1 the episode is over and awaits a reset, bit 2 it ended on a penalized illegal action; other bits 0 |
//! | 16..18 | `u16` moves in a row without a capture |
//! | 18..20 | 0 |
//! | 20..24 | `u32` moves since the start of the game (ply) |
//! | 24..28 | `u32` steps taken in this episode |
//! | 28..32 | `u32` episodes started since seeding (only its parity is read: the alternating seat) |
//! | 32..64 | the random opponent's xoshiro256++ state (four `u64`) |
//! | 64..96 | the seat stream's xoshiro256++ state (four `u64`: random seats) |
//!
//! # Repetition
//!
//! Rules whose games end on a repeated position
//! ([`Repetition::OwnSide`], the `oware` preset) are refused
//! ([`StatelessError::Repetition`]): that rule reads every position since
//! the last capture, which no fixed-size record holds. The stateless form
//! of Oware is `oware` with `repetition=off` and a step limit (truncation).

use std::cell::Cell;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::ser::{self, Impossible, Serialize};

use super::batch::{step_into, BatchPath};
use super::rows::{BatchOut, Kept};
use super::{
    check_action, ActionError, Autoreset, Checked, Episode, EpisodeOptions, IllegalAction,
    Opponent, OptionsError, Perspective, Reward, SeatChoice, Step,
};
use crate::kernels::dispatch as kernel;
use crate::kernels::lanes::LANES;
use crate::observation::{ACTIONS, OBS};
use crate::players::Kind;
use crate::rules::Repetition;
use crate::{LeanGame, Player, Position, RulesError, Setup, PARAM_NAMES, PITS};
use crate::{Preset, Rules};

thread_local! {
    /// The episodes [`Stateless::step_in_place`] unpacks a block of records
    /// into, kept on each thread between calls (taken while in use: a call
    /// inside a call finds none and makes its own).
    static BLOCK: Cell<Vec<Episode<LeanGame>>> = const { Cell::new(Vec::new()) };
}

/// Bytes of one packed episode (see the module's docs for the layout).
pub const STATE_BYTES: usize = 96;

const FLAG_NORTH: u8 = 1;
const FLAG_DONE: u8 = 2;
const FLAG_PENALIZED: u8 = 4;

/// Why a stateless batch cannot be made or stepped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StatelessError {
    /// The rules end games on a repeated position.
    #[error(
        "rules with repetition=own_side cannot be played statelessly: the repetition rule reads \
         every position since the last capture, which a fixed-size state does not hold; use \
         repetition=off with a step limit (max_episode_steps) for the stateless form of Oware"
    )]
    Repetition,
    /// An opponent the record cannot hold.
    #[error(
        "the stateless step plays against the random opponent or in self-play (opponent=None), \
         not against a searching or external opponent (its state does not fit the record)"
    )]
    Opponent,
    /// Same-step autoreset, which reports a final observation apart.
    #[error("the stateless step supports autoreset NextStep and Disabled (an ended state stays as it is), not SameStep")]
    Autoreset,
    /// The options themselves.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// Rule parameters in a spec that cannot be played.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A spec (see [`Stateless::spec`]) that cannot be read.
    #[error("bad stateless spec: {0}")]
    Spec(String),
    /// Arrays whose lengths do not agree.
    #[error("{what}: expected {expected} entries, got {got}")]
    Length {
        /// Which array.
        what: &'static str,
        /// Entries expected.
        expected: usize,
        /// Entries given.
        got: usize,
    },
    /// A record that is not a state of these rules.
    #[error("state {index} is not a state of these rules: {why}")]
    BadState {
        /// The game.
        index: usize,
        /// What is wrong.
        why: String,
    },
    /// An action that cannot be taken.
    #[error("game {index}: {error}")]
    Action {
        /// The game.
        index: usize,
        /// Why.
        error: ActionError,
    },
}

impl StatelessError {
    /// A short stable name of the error's kind, for the bindings' typed
    /// errors: `"rules"`, `"options"`, `"shape"`, `"state"`, `"action"`.
    pub fn kind(&self) -> &'static str {
        match self {
            StatelessError::Repetition | StatelessError::Rules(_) => "rules",
            StatelessError::Opponent
            | StatelessError::Autoreset
            | StatelessError::Options(_)
            | StatelessError::Spec(_) => "options",
            StatelessError::Length { .. } => "shape",
            StatelessError::BadState { .. } => "state",
            StatelessError::Action { .. } => "action",
        }
    }
}

/// What [`Stateless::step`] writes, one entry (or row) a game.
pub struct StepOut<'a> {
    /// `(B, 2)`: each seat's reward (South, North).
    pub rewards: &'a mut [f32],
    /// The game ended by the rules, or the action was penalized.
    pub terminated: &'a mut [bool],
    /// The step limit was reached first.
    pub truncated: &'a mut [bool],
    /// `(B, 6)`, where given: the next state's legal mask (as
    /// [`Stateless::legal_mask`] of the next states, worked out while the
    /// record is unpacked: a step and the mask for the next action in one
    /// pass).
    pub next_mask: Option<&'a mut [bool]>,
}

/// The options of a stateless batch, validated: pure functions over
/// batches of packed episodes ([`STATE_BYTES`] bytes each).
///
/// ```
/// use ayo_core::episode::{EpisodeOptions, Stateless, STATE_BYTES};
/// use ayo_core::Rules;
/// let env = Stateless::new(EpisodeOptions::new(Rules::preset("ayoayo")?))?;
/// let mut states = vec![0u8; 2 * STATE_BYTES];
/// env.init(&[1, 2], &mut states)?;
/// let mut mask = [false; 12];
/// env.legal_mask(&states, &mut mask)?;
/// let (mut rewards, mut term, mut trunc) = ([0f32; 4], [false; 2], [false; 2]);
/// let out = ayo_core::episode::StepOut {
///     rewards: &mut rewards,
///     terminated: &mut term,
///     truncated: &mut trunc,
///     next_mask: None,
/// };
/// env.step_in_place(&mut states, &[0, 3], out)?;
/// assert!(Stateless::new(EpisodeOptions::new(Rules::preset("oware")?)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Stateless {
    opts: EpisodeOptions,
}

impl Stateless {
    /// The stateless batch of `opts`, or why its episodes do not fit the
    /// record: repetition, a searching or external opponent, same-step
    /// autoreset, or rules that can end before the agent's first move.
    pub fn new(opts: EpisodeOptions) -> Result<Stateless, StatelessError> {
        if opts.rules.repetition() != Repetition::Off {
            return Err(StatelessError::Repetition);
        }
        match opts.opponent {
            Opponent::SelfPlay | Opponent::Agent(Kind::Random, _) => {}
            _ => return Err(StatelessError::Opponent),
        }
        if opts.autoreset == Autoreset::SameStep {
            return Err(StatelessError::Autoreset);
        }
        opts.check_opening()?;
        Ok(Stateless { opts })
    }

    /// The options.
    pub fn options(&self) -> &EpisodeOptions {
        &self.opts
    }

    /// The options as one line of text, which [`Stateless::from_spec`]
    /// reads back: `key=value` pairs joined by `;`, every rule parameter
    /// (`relay=true;capture=across;…`) then `opponent` (`random` or
    /// `self_play`), `seat` (`0`, `1`, `alternate`, `random`),
    /// `perspective`, `reward`, `illegal` (`raise`, `penalize`), `penalty`,
    /// `max_steps` (`none` or a number) and `autoreset` (`NextStep`,
    /// `Disabled`). How the XLA custom calls receive their options (one
    /// string attribute).
    pub fn spec(&self) -> String {
        let o = &self.opts;
        let p = o.rules.params();
        let mut parts: Vec<String> = PARAM_NAMES
            .iter()
            .map(|k| format!("{k}={}", p.get(k).unwrap_or_default()))
            .collect();
        let opponent = if o.opponent == Opponent::SelfPlay {
            "self_play"
        } else {
            "random"
        };
        let seat = match o.seat {
            SeatChoice::Fixed(p) => p.index().to_string(),
            SeatChoice::Alternate => "alternate".into(),
            SeatChoice::Random => "random".into(),
        };
        let reward = match o.reward {
            Reward::WinLoss => "win_loss",
            Reward::SeedDifference => "seed_difference",
        };
        let (illegal, penalty) = match o.illegal {
            IllegalAction::Raise => ("raise", 0.0),
            IllegalAction::Penalize(x) => ("penalize", x),
        };
        let max_steps = o.max_steps.map_or_else(|| "none".into(), |m| m.to_string());
        let autoreset = match o.autoreset {
            Autoreset::Disabled => "Disabled",
            _ => "NextStep",
        };
        parts.extend([
            format!("opponent={opponent}"),
            format!("seat={seat}"),
            format!("perspective={}", o.perspective),
            format!("reward={reward}"),
            format!("illegal={illegal}"),
            format!("penalty={penalty:?}"),
            format!("max_steps={max_steps}"),
            format!("autoreset={autoreset}"),
        ]);
        parts.join(";")
    }

    /// The stateless batch of a [`Stateless::spec`] line (rule parameters
    /// left out keep `ayoayo`'s values; options left out keep
    /// [`EpisodeOptions::new`]'s).
    pub fn from_spec(text: &str) -> Result<Stateless, StatelessError> {
        let mut params = Preset::Ayoayo.params();
        let mut opts = EpisodeOptions::new(Preset::Ayoayo.rules());
        let (mut illegal, mut penalty) = ("raise".to_owned(), 0.0f64);
        let bad = |what: &str| StatelessError::Spec(what.to_owned());
        for part in text.split(';').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad(&format!("{part:?} is not key=value")))?;
            match k {
                "opponent" => {
                    opts.opponent = match v {
                        "random" => Opponent::RANDOM,
                        "self_play" => Opponent::SelfPlay,
                        _ => {
                            return Err(bad(&format!(
                                "opponent must be random or self_play, not {v:?}"
                            )))
                        }
                    }
                }
                "seat" => opts.seat = v.parse()?,
                "perspective" => opts.perspective = v.parse()?,
                "reward" => opts.reward = v.parse()?,
                "illegal" => illegal = v.to_owned(),
                "penalty" => {
                    penalty = v
                        .parse()
                        .map_err(|_| bad(&format!("penalty {v:?} is not a number")))?
                }
                "max_steps" if v == "none" => opts.max_steps = None,
                "max_steps" => {
                    let m: i128 = v
                        .parse()
                        .map_err(|_| bad(&format!("max_steps {v:?} is not a number")))?;
                    opts.max_steps = Some(EpisodeOptions::max_steps_from(m)?);
                }
                "autoreset" => opts.autoreset = v.parse()?,
                _ => params.set(k, v)?,
            }
        }
        opts.illegal = IllegalAction::parse(&illegal, penalty)?;
        opts.rules = Rules::new(params)?;
        Stateless::new(opts)
    }

    /// A new episode of each seed, as the batched environment's game
    /// seeded by it and reset: `states` holds `seeds.len()` records.
    pub fn init(&self, seeds: &[u64], states: &mut [u8]) -> Result<(), StatelessError> {
        check_len("states", seeds.len() * STATE_BYTES, states.len())?;
        let mut ep = self.scratch();
        for (&seed, row) in seeds.iter().zip(states.chunks_exact_mut(STATE_BYTES)) {
            ep.seed(&self.opts, seed);
            ep.reset(&self.opts, None);
            pack(&ep, row, true);
        }
        Ok(())
    }

    /// The record of an episode seeded by `seed` that starts at `start`
    /// (the opponent's replies played if it is to move), into `row`; an
    /// error if `start` is not a position of these rules.
    pub fn state_at(
        &self,
        start: &Position,
        seed: u64,
        row: &mut [u8],
    ) -> Result<(), StatelessError> {
        check_len("state", STATE_BYTES, row.len())?;
        let mut probe = [0u8; STATE_BYTES];
        row_of_position(start, &mut probe);
        self.position(&probe, 0)?;
        let mut ep = self.scratch();
        ep.seed(&self.opts, seed);
        ep.reset_from(&self.opts, *start, None);
        pack(&ep, row, true);
        Ok(())
    }

    /// One step of every game, its record rewritten in place: the agent's
    /// action and the opponent's replies (in self-play, one move for the
    /// side to move), as [`Episode::step`]. An ended episode ignores its
    /// action: with [`Autoreset::NextStep`] the step starts a new one (as
    /// the batched environment), with [`Autoreset::Disabled`] it stays as it
    /// is (zero rewards, its flags again). An action out of 0..=5, or an
    /// illegal one when illegal actions are refused, is an error; the rows
    /// before it have then been stepped.
    pub fn step_in_place(
        &self,
        states: &mut [u8],
        actions: &[i64],
        out: StepOut<'_>,
    ) -> Result<(), StatelessError> {
        let n = actions.len();
        check_len("states", n * STATE_BYTES, states.len())?;
        check_len("rewards", 2 * n, out.rewards.len())?;
        check_len("terminated", n, out.terminated.len())?;
        check_len("truncated", n, out.truncated.len())?;
        if let Some(m) = &out.next_mask {
            check_len("next mask", n * ACTIONS, m.len())?;
        }
        if self.opts.autoreset == Autoreset::Disabled {
            return self.step_each(states, actions, out);
        }
        // The records unpacked into episodes a block of lanes at a time and
        // stepped by the batch step (`step_batch_rows`' loop, in byte lanes
        // where the kernel has them), then packed again. The episodes are
        // this thread's, kept from call to call (making them each call cost
        // as much as the lanes saved); another batch's rules make new ones.
        let mut eps = BLOCK.take();
        if eps
            .first()
            .is_some_and(|ep| *ep.game.rules() != self.opts.rules)
        {
            eps.clear();
        }
        while eps.len() < n.min(LANES) {
            eps.push(self.scratch());
        }
        let stepped = self.step_blocks(&mut eps, states, actions, out);
        BLOCK.set(eps);
        stepped
    }

    /// [`Stateless::step_in_place`] with autoreset to the next step, the
    /// lengths checked: the records unpacked into `eps` (as many as a block
    /// of lanes, or as the records), stepped and packed again.
    fn step_blocks(
        &self,
        eps: &mut [Episode<LeanGame>],
        states: &mut [u8],
        actions: &[i64],
        out: StepOut<'_>,
    ) -> Result<(), StatelessError> {
        let penalize = self.opts.illegal.penalty().is_some();
        let path = BatchPath::for_kernel(kernel::active());
        let mut checked = [Checked::Legal(0); LANES];
        let StepOut {
            rewards,
            terminated,
            truncated,
            mut next_mask,
        } = out;
        for (b, block) in states.chunks_mut(LANES * STATE_BYTES).enumerate() {
            let first = b * LANES;
            // Every record of the block unpacked and its action checked
            // first; the records before a refused one are stepped.
            let (mut k, mut failed) = (0, None);
            for (j, row) in block.chunks_exact(STATE_BYTES).enumerate() {
                let (ep, i) = (&mut eps[j], first + j);
                let ok = self.load(ep, row, i).and_then(|()| {
                    if ep.done {
                        // Ignored: the step starts a new episode.
                        Ok(Checked::Legal(0))
                    } else {
                        self.check(ep, actions[i], penalize, i)
                    }
                });
                match ok {
                    Ok(c) => checked[j] = c,
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
                k = j + 1;
            }
            let end = first + k;
            let mut packed = Packed {
                env: self,
                rows: &mut block[..k * STATE_BYTES],
                rewards: &mut rewards[2 * first..2 * end],
                terminated: &mut terminated[first..end],
                truncated: &mut truncated[first..end],
                next_mask: next_mask
                    .as_deref_mut()
                    .map(|m| &mut m[first * ACTIONS..end * ACTIONS]),
            };
            step_into(path, &self.opts, &mut eps[..k], |j| checked[j], &mut packed);
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Ok(())
    }

    /// [`Stateless::step_in_place`] with autoreset disabled, a record at a
    /// time: an ended episode is not stepped at all.
    fn step_each(
        &self,
        states: &mut [u8],
        actions: &[i64],
        out: StepOut<'_>,
    ) -> Result<(), StatelessError> {
        let mut next_mask = out.next_mask;
        let mut ep = self.scratch();
        let penalize = self.opts.illegal.penalty().is_some();
        for (i, row) in states.chunks_exact_mut(STATE_BYTES).enumerate() {
            self.load(&mut ep, row, i)?;
            let a = actions[i];
            let (rewards, term, trunc) = if ep.done {
                // Absorbing: what a search's terminal node needs.
                let by_rules = self.ended_by_rules(&mut ep);
                ([0.0, 0.0], by_rules, !by_rules)
            } else {
                let checked = self.check(&mut ep, a, penalize, i)?;
                let s = ep.step(&self.opts, checked);
                let r = [s.reward_for(Player::South), s.reward_for(Player::North)];
                (r.map(|x| x as f32), s.terminated, s.truncated)
            };
            pack(&ep, row, self.seats_drawn());
            if let Some(m) = next_mask.as_deref_mut() {
                let legal = self.viewer_legal(&mut ep);
                write_mask(legal, &mut m[i * ACTIONS..(i + 1) * ACTIONS]);
            }
            out.rewards[2 * i..2 * i + 2].copy_from_slice(&rewards);
            out.terminated[i] = term;
            out.truncated[i] = trunc;
        }
        Ok(())
    }

    /// [`Stateless::step_in_place`] from `states` into `next` (`states`
    /// unchanged; on error `next` holds no promised values).
    pub fn step(
        &self,
        states: &[u8],
        next: &mut [u8],
        actions: &[i64],
        out: StepOut<'_>,
    ) -> Result<(), StatelessError> {
        check_len("next states", states.len(), next.len())?;
        next.copy_from_slice(states);
        self.step_in_place(next, actions, out)
    }

    /// `(B, 6)`: the viewer's legal actions (the agent's; in self-play the
    /// player to move), as the batched environment's action mask: none once
    /// the game is over or an action was penalized; a truncated episode
    /// still shows its position's.
    pub fn legal_mask(&self, states: &[u8], mask: &mut [bool]) -> Result<(), StatelessError> {
        let n = rows(states)?;
        check_len("mask", n * ACTIONS, mask.len())?;
        let mut ep = self.scratch();
        for (i, (row, m)) in states
            .chunks_exact(STATE_BYTES)
            .zip(mask.chunks_exact_mut(ACTIONS))
            .enumerate()
        {
            self.load(&mut ep, row, i)?;
            write_mask(self.viewer_legal(&mut ep), m);
        }
        Ok(())
    }

    /// `(B, 14)`: the board as the viewer sees it in `perspective` (12 pits,
    /// then the two stores), as the batched environment's observation.
    pub fn observe(
        &self,
        states: &[u8],
        perspective: Perspective,
        obs: &mut [u8],
    ) -> Result<(), StatelessError> {
        let n = rows(states)?;
        check_len("observations", n * OBS, obs.len())?;
        let opts = EpisodeOptions {
            perspective,
            ..self.opts
        };
        for (i, (row, o)) in states
            .chunks_exact(STATE_BYTES)
            .zip(obs.chunks_exact_mut(OBS))
            .enumerate()
        {
            let (pos, seat) = self.position(row, i)?;
            let viewer = match opts.opponent {
                Opponent::SelfPlay => pos.to_move(),
                _ => seat,
            };
            o.copy_from_slice(&opts.view_of(&pos, viewer));
        }
        Ok(())
    }

    /// `(B, 6)` records: the state after each action (the step of
    /// [`Stateless::step_in_place`], replies and autoreset included), and
    /// whether the action is legal there; an illegal action's child is the
    /// state itself, marked invalid, and so is every child of an episode
    /// that is over (its step ignores the action).
    pub fn children(
        &self,
        states: &[u8],
        children: &mut [u8],
        valid: &mut [bool],
    ) -> Result<(), StatelessError> {
        let n = rows(states)?;
        check_len("children", n * ACTIONS * STATE_BYTES, children.len())?;
        check_len("valid", n * ACTIONS, valid.len())?;
        let mut ep = self.scratch();
        let (mut r, mut t, mut u) = ([0f32; 2], [false], [false]);
        for (i, row) in states.chunks_exact(STATE_BYTES).enumerate() {
            self.load(&mut ep, row, i)?;
            let legal = if ep.done {
                0
            } else {
                ep.observe(&self.opts).legal
            };
            for a in 0..ACTIONS {
                let k = i * ACTIONS + a;
                let child = &mut children[k * STATE_BYTES..(k + 1) * STATE_BYTES];
                child.copy_from_slice(row);
                valid[k] = legal & (1 << a) != 0;
                if valid[k] {
                    let out = StepOut {
                        rewards: &mut r,
                        terminated: &mut t,
                        truncated: &mut u,
                        next_mask: None,
                    };
                    self.step_in_place(child, &[a as i64], out)
                        .map_err(|e| reindex(e, i))?;
                }
            }
        }
        Ok(())
    }

    /// The position and the agent's seat of one record, validated.
    // Inlined: returned through memory, the position stalled the loads of
    // the caller that read it back.
    #[inline]
    pub fn position(&self, row: &[u8], index: usize) -> Result<(Position, Player), StatelessError> {
        let bad = |why: String| StatelessError::BadState { index, why };
        let row: &[u8; STATE_BYTES] = row
            .try_into()
            .map_err(|_| bad(format!("{} bytes, not {STATE_BYTES}", row.len())))?;
        let to_move = match row[14] {
            0 => Player::South,
            1 => Player::North,
            b => return Err(bad(format!("player to move {b} is neither 0 nor 1"))),
        };
        if row[15] & !(FLAG_NORTH | FLAG_DONE | FLAG_PENALIZED) != 0 || row[18..20] != [0, 0] {
            return Err(bad("reserved bits are set".into()));
        }
        let no_capture = u16::from_le_bytes([row[16], row[17]]);
        let ply = u32_at(row, 20);
        let pos = if self.counts_fit(row) {
            Position::from_parts(cells_of(row), no_capture, ply)
        } else {
            let mut board = [0u8; PITS];
            board.copy_from_slice(&row[..PITS]);
            let setup = Setup {
                board,
                stores: [row[12], row[13]],
                to_move,
                no_capture,
                ply,
            };
            Position::from_setup(&self.opts.rules, &setup).map_err(|e| bad(e.to_string()))?
        };
        Ok((pos, seat_of(row)))
    }

    /// The checks of `Position::from_setup` on a record's seeds and
    /// counters, without building a setup: a record that fails them is
    /// explained by it ([`Stateless::position`]).
    #[inline(always)]
    fn counts_fit(&self, row: &[u8; STATE_BYTES]) -> bool {
        let no_capture = u16::from_le_bytes([row[16], row[17]]);
        let seeds: u32 = row[..PITS + 2].iter().map(|&s| u32::from(s)).sum();
        let rules = &self.opts.rules;
        seeds == u32::from(rules.total_seeds())
            && rules.move_limit().is_none_or(|l| no_capture <= l)
            && u32::from(no_capture) <= u32_at(row, 20)
    }

    /// Whether a step can draw from the seat stream (random seats): else
    /// it is carried in the record unread.
    #[inline(always)]
    fn seats_drawn(&self) -> bool {
        self.opts.seat == SeatChoice::Random
    }

    /// An episode to unpack records into (its allocations reused).
    fn scratch(&self) -> Episode<LeanGame> {
        Episode::new(&self.opts, 0)
    }

    /// Unpacks record `row` (game `index`) into `ep`.
    #[inline]
    fn load(
        &self,
        ep: &mut Episode<LeanGame>,
        row: &[u8],
        index: usize,
    ) -> Result<(), StatelessError> {
        // The common record, checked and unpacked in registers: a position
        // returned through a `Result` went through memory in pieces and
        // stalled the 16-byte load that read it back (store forwarding).
        match <&[u8; STATE_BYTES]>::try_from(row) {
            Ok(r)
                if r[14] <= 1
                    && r[15] & !(FLAG_NORTH | FLAG_DONE | FLAG_PENALIZED) == 0
                    && r[18..20] == [0, 0]
                    && self.counts_fit(r) =>
            {
                let no_capture = u16::from_le_bytes([r[16], r[17]]);
                ep.game
                    .reset(Position::from_parts(cells_of(r), no_capture, u32_at(r, 20)));
                ep.seat = seat_of(r);
            }
            _ => {
                let (pos, seat) = self.position(row, index)?;
                ep.game.reset(pos);
                ep.seat = seat;
            }
        }
        ep.done = row[15] & FLAG_DONE != 0;
        ep.penalized = row[15] & FLAG_PENALIZED != 0;
        ep.steps = u32_at(row, 24);
        ep.episodes = u64::from(u32_at(row, 28));
        ep.random = rng_from(&row[32..64]);
        // The seat stream is drawn from only to seat an agent at random.
        if self.seats_drawn() {
            ep.rng = rng_from(&row[64..96]);
        }
        ep.moves.clear();
        Ok(())
    }

    /// The viewer's legal actions ([`Episode::viewer_legal`]).
    #[inline]
    fn viewer_legal(&self, ep: &mut Episode<LeanGame>) -> u8 {
        ep.viewer_legal(&self.opts)
    }

    /// The agent's `action` in the loaded episode `ep` (game `index`, not
    /// over), checked: refused out of range, or illegal unless penalized.
    #[inline]
    fn check(
        &self,
        ep: &mut Episode<LeanGame>,
        action: i64,
        penalize: bool,
        index: usize,
    ) -> Result<Checked, StatelessError> {
        let legal = self.viewer_legal(ep);
        check_action(legal, action, penalize).map_err(|error| {
            let error = match error {
                ActionError::Illegal(_) => {
                    ActionError::Illegal(ep.why_illegal(&self.opts, action as u8))
                }
                other => other,
            };
            StatelessError::Action { index, error }
        })
    }

    /// Whether an ended episode ended by the rules or a penalty (rather
    /// than by its step limit).
    fn ended_by_rules(&self, ep: &mut Episode<LeanGame>) -> bool {
        ep.penalized || ep.outcome().is_some()
    }
}

/// Where the batch step writes a block of stateless records' steps: each
/// episode packed back into its record, its rewards, flags and next mask.
struct Packed<'a, 'b> {
    env: &'a Stateless,
    rows: &'b mut [u8],
    rewards: &'b mut [f32],
    terminated: &'b mut [bool],
    truncated: &'b mut [bool],
    next_mask: Option<&'b mut [bool]>,
}

impl Packed<'_, '_> {
    /// Record `i`'s episode packed and its step's outputs, the next mask
    /// `legal` where asked.
    #[inline(always)]
    fn write(
        &mut self,
        i: usize,
        ep: &mut Episode<LeanGame>,
        step: &Step,
        legal: impl FnOnce(&mut Episode<LeanGame>) -> u8,
    ) {
        let rows = &mut self.rows[i * STATE_BYTES..(i + 1) * STATE_BYTES];
        pack(ep, rows, self.env.seats_drawn());
        let rewards = if step.was_reset {
            [0.0, 0.0]
        } else {
            [Player::South, Player::North].map(|p| step.reward_for(p) as f32)
        };
        self.rewards[2 * i..2 * i + 2].copy_from_slice(&rewards);
        self.terminated[i] = step.terminated;
        self.truncated[i] = step.truncated;
        if let Some(m) = self.next_mask.as_deref_mut() {
            write_mask(legal(ep), &mut m[i * ACTIONS..(i + 1) * ACTIONS]);
        }
    }
}

impl BatchOut<LeanGame> for Packed<'_, '_> {
    #[inline(always)]
    fn step(&mut self, i: usize, ep: &mut Episode<LeanGame>, step: &Step, _: usize) {
        let env = self.env;
        self.write(i, ep, step, |ep| env.viewer_legal(ep));
    }

    #[inline(always)]
    fn kept(&mut self, i: usize, ep: &mut Episode<LeanGame>, kept: &Kept, _: usize) {
        // The agent to move, the episode going on: its legal actions.
        self.write(i, ep, &kept.step, |_| kept.legal);
    }
}

/// Packs the position's fields of `row` (bytes 0..15, 16..24).
fn row_of_position(pos: &Position, row: &mut [u8]) {
    row[..15].copy_from_slice(&pos.packed().to_le_bytes()[..15]);
    row[16..18].copy_from_slice(&pos.no_capture().to_le_bytes());
    row[18..20].fill(0);
    row[20..24].copy_from_slice(&pos.ply().to_le_bytes());
}

/// Packs `ep` into `row`; the seat stream too where `seat_stream` (a new
/// record, or random seats), else the record's own is left (not read while
/// the episode was unpacked, nor drawn from: see [`Stateless::load`]).
#[inline(always)]
fn pack(ep: &Episode<LeanGame>, row: &mut [u8], seat_stream: bool) {
    let pos = ep.game.position();
    row_of_position(pos, row);
    let mut flags = 0;
    if ep.seat == Player::North {
        flags |= FLAG_NORTH;
    }
    if ep.done {
        flags |= FLAG_DONE;
    }
    if ep.penalized {
        flags |= FLAG_PENALIZED;
    }
    row[15] = flags;
    row[24..28].copy_from_slice(&ep.steps.to_le_bytes());
    // The count's parity is all that is read (the alternating seat).
    row[28..32].copy_from_slice(&(ep.episodes as u32).to_le_bytes());
    rng_into(&ep.random, &mut row[32..64]);
    if seat_stream {
        rng_into(&ep.rng, &mut row[64..96]);
    } else if row[64..96] == [0; 32] {
        // The crate's stream for an all-zero state, as unpacking it makes.
        rng_into(&rng_from(&[0; 32]), &mut row[64..96]);
    }
}

/// A record's board, stores and player to move as packed cells: one 16-byte
/// load, byte 15 (the flags) masked off (assembled byte by byte on the
/// stack, the cells stalled the load that read them back).
#[inline(always)]
fn cells_of(row: &[u8; STATE_BYTES]) -> u128 {
    let mut head = [0u8; 16];
    head.copy_from_slice(&row[..16]);
    u128::from_le_bytes(head) & ((1u128 << 120) - 1)
}

/// The agent's seat of a record.
#[inline(always)]
fn seat_of(row: &[u8; STATE_BYTES]) -> Player {
    if row[15] & FLAG_NORTH != 0 {
        Player::North
    } else {
        Player::South
    }
}

/// Writes the bit set `legal` (bit `a`: action `a`) as six bools.
#[inline]
fn write_mask(legal: u8, out: &mut [bool]) {
    for (a, b) in out.iter_mut().enumerate() {
        *b = legal & (1 << a) != 0;
    }
}

fn u32_at(row: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([row[at], row[at + 1], row[at + 2], row[at + 3]])
}

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), StatelessError> {
    if expected == got {
        Ok(())
    } else {
        Err(StatelessError::Length {
            what,
            expected,
            got,
        })
    }
}

/// The records in `states`: a whole number of them.
fn rows(states: &[u8]) -> Result<usize, StatelessError> {
    let n = states.len() / STATE_BYTES;
    check_len("states (bytes)", n * STATE_BYTES, states.len())?;
    Ok(n)
}

/// A child's error, named by its parent game.
fn reindex(e: StatelessError, index: usize) -> StatelessError {
    match e {
        StatelessError::BadState { why, .. } => StatelessError::BadState { index, why },
        StatelessError::Action { error, .. } => StatelessError::Action { index, error },
        other => other,
    }
}

/// The generator whose state is the four little-endian `u64` of `bytes`
/// (xoshiro256++ seeds are its state; an all-zero state, which the
/// generator never reaches, is reseeded by the crate).
#[inline(always)]
fn rng_from(bytes: &[u8]) -> Xoshiro256PlusPlus {
    let mut seed = [0u8; 32];
    seed.copy_from_slice(bytes);
    Xoshiro256PlusPlus::from_seed(seed)
}

/// Writes the generator's state as four little-endian `u64`: the crate
/// shows its state only through serde, so a serializer takes the words.
fn rng_into(rng: &Xoshiro256PlusPlus, out: &mut [u8]) {
    let mut words = Words { s: [0; 4], n: 0 };
    // The generator serializes as a struct of one `[u64; 4]`: never fails.
    let _ = rng.serialize(&mut words);
    for (chunk, w) in out.chunks_exact_mut(8).zip(words.s) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
}

/// A serde serializer that keeps the first four `u64` it is given.
struct Words {
    s: [u64; 4],
    n: usize,
}

#[derive(Debug)]
struct NotWords;

impl std::fmt::Display for NotWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a generator state")
    }
}

impl std::error::Error for NotWords {}

impl ser::Error for NotWords {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotWords
    }
}

macro_rules! refuse {
    ($($f:ident($($t:ty),*)),* $(,)?) => {
        $(fn $f(self, $(_: $t),*) -> Result<(), NotWords> { Err(NotWords) })*
    };
}

impl ser::Serializer for &mut Words {
    type Ok = ();
    type Error = NotWords;
    type SerializeSeq = Impossible<(), NotWords>;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Impossible<(), NotWords>;
    type SerializeTupleVariant = Impossible<(), NotWords>;
    type SerializeMap = Impossible<(), NotWords>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), NotWords>;

    fn serialize_u64(self, v: u64) -> Result<(), NotWords> {
        if let Some(w) = self.s.get_mut(self.n) {
            *w = v;
            self.n += 1;
        }
        Ok(())
    }
    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), NotWords> {
        Err(NotWords)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), NotWords> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotWords> {
        Err(NotWords)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotWords> {
        Err(NotWords)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, NotWords> {
        Ok(self)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotWords> {
        Err(NotWords)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotWords> {
        Err(NotWords)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotWords> {
        Err(NotWords)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NotWords> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotWords> {
        Err(NotWords)
    }
}

impl ser::SerializeTuple for &mut Words {
    type Ok = ();
    type Error = NotWords;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), NotWords> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), NotWords> {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Words {
    type Ok = ();
    type Error = NotWords;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        _: &'static str,
        v: &T,
    ) -> Result<(), NotWords> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), NotWords> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn a_generator_survives_its_bytes() {
        let mut a = Xoshiro256PlusPlus::seed_from_u64(42);
        a.next_u64();
        let mut bytes = [0u8; 32];
        rng_into(&a, &mut bytes);
        let mut b = rng_from(&bytes);
        for _ in 0..8 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    /// A seat stream of all zeros (never reached by the generator) comes
    /// back as the crate's stream for that state, whether the step reads
    /// it (random seats) or carries it unread.
    #[test]
    fn an_all_zero_seat_stream_is_stepped_as_the_crate_seeds_it() {
        let mut want = [0u8; 32];
        rng_into(&Xoshiro256PlusPlus::from_seed([0; 32]), &mut want);
        assert_ne!(want, [0; 32]);
        for seat in [SeatChoice::Fixed(Player::South), SeatChoice::Random] {
            let opts = EpisodeOptions {
                seat,
                ..EpisodeOptions::new(Preset::Olopon.rules())
            };
            let env = Stateless::new(opts).unwrap();
            let mut state = [0u8; STATE_BYTES];
            env.init(&[3], &mut state).unwrap();
            state[64..].fill(0);
            let mut mask = [false; ACTIONS];
            env.legal_mask(&state, &mut mask).unwrap();
            let a = mask.iter().position(|&m| m).unwrap() as i64;
            let (mut r, mut t, mut u) = ([0f32; 2], [false], [false]);
            let out = StepOut {
                rewards: &mut r,
                terminated: &mut t,
                truncated: &mut u,
                next_mask: None,
            };
            env.step_in_place(&mut state, &[a], out).unwrap();
            assert_eq!(state[64..], want, "{seat:?}");
        }
    }
}
