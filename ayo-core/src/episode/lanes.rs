//! The batch step in lanes ([`super::BatchPath::Lanes`]): for the random
//! opponent in single-lap games, 64 episodes' steps at a time with their
//! positions in byte lanes ([`crate::kernels::lanes::Block`], the lane engine's one
//! sowing of the rules), built for the `avx512` kernel alone
//! ([`crate::kernels::dispatch::Wide`]): with narrower vectors it did not
//! pay, nor for relay families (docs/benchmarks.md, "What did not pay").
//!
//! A lane takes the common path of [`Episode::step`]: a legal action, the
//! random reply, and neither move ending the game or reaching the step
//! limit. The lanes sow both moves, find the ends by the counters and the
//! empty rows (each test asked of `end.rs` and `legal.rs` a lane at a time), the legal moves under the feeding rule where a move feeds
//! exactly when it reaches the opponent's row
//! ([`crate::rules::legal::feeds_by_reach`]), and compute the board keys; each
//! game's own repetition window is looked up, and its reply drawn from its
//! own stream, one game at a time, as the scalar step does
//! ([`crate::rules::repeat`], [`crate::games::random_move`]). Nothing of an episode
//! changes until its step is known to stay on that path: every other step
//! (an end, a penalty, an autoreset, the feeding rule in other rule sets,
//! the step limit) is then taken by [`Episode::step`] itself from the
//! untouched episode. So the two paths give the same episodes, draw for
//! draw; the tests compare them. A kept step's rows are written from what
//! the lanes know of it ([`super::BatchOut::kept`]).
//!
//! The positions go into the lanes and back every step, and each episode's
//! game, window, record and stream are still read and written one episode
//! at a time: that is why the gain is modest, and none with AVX2
//! (docs/benchmarks.md, "The batch step in lanes").

// Lane loops index several arrays by the same lane.
#![allow(clippy::needless_range_loop)]

use rand_xoshiro::Xoshiro256PlusPlus;

use super::rows::{BatchOut, Kept};
use super::{Checked, Episode, EpisodeOptions, Opponent, Reward, Step};
use crate::games::random_move::draw_among;
use crate::kernels::dispatch::{Kernel, Loop, Wide};
use crate::kernels::lanes::{mask, Block, LaneRules, LANES};
use crate::players::Kind;
use crate::rules::end::{reaches_move_limit, reaches_target};
use crate::rules::legal::{feeding_binds, feeding_legal, feeds_by_reach, reaches_opponent};
use crate::rules::position::no_capture_after;
use crate::rules::repeat::{key_of, Window};
use crate::rules::{Repetition, Rules};
use crate::{LeanGame, Move, Position};

/// [`super::step_batch_on`] in lanes, with `kernel`, where `opts` allow
/// it: the random opponent, and single-lap sowing with captures across or
/// by the 2-or-3 chain; and a kernel they are built for ([`Kernel::wide`]:
/// `avx512`). False (nothing stepped) elsewhere. Out of line, apart from
/// the caller's loop in turn: its family copies are large.
#[inline(never)]
pub(crate) fn step<A, O>(
    kernel: Kernel,
    opts: &EpisodeOptions,
    episodes: &mut [Episode<LeanGame>],
    action: &mut A,
    out: &mut O,
) -> bool
where
    A: FnMut(usize) -> Checked,
    O: BatchOut<LeanGame>,
{
    let random = matches!(opts.opponent, Opponent::Agent(Kind::Random, _));
    let Some(lane_rules) = LaneRules::of(&opts.rules).filter(|r| random && !r.relay) else {
        return false;
    };
    let Some(kernel) = kernel.wide() else {
        return false;
    };
    // One straight-line copy a family (the period of a lap a constant).
    match (lane_rules.two_three, lane_rules.skip) {
        (false, false) => {
            blocks::<false, false, A, O>(kernel, opts, lane_rules, episodes, action, out)
        }
        (false, true) => {
            blocks::<false, true, A, O>(kernel, opts, lane_rules, episodes, action, out)
        }
        (true, false) => {
            blocks::<true, false, A, O>(kernel, opts, lane_rules, episodes, action, out)
        }
        (true, true) => blocks::<true, true, A, O>(kernel, opts, lane_rules, episodes, action, out),
    }
    true
}

fn blocks<const TWO_THREE: bool, const SKIP: bool, A, O>(
    kernel: Wide,
    opts: &EpisodeOptions,
    lane_rules: LaneRules,
    episodes: &mut [Episode<LeanGame>],
    action: &mut A,
    out: &mut O,
) where
    A: FnMut(usize) -> Checked,
    O: BatchOut<LeanGame>,
{
    for (c, chunk) in episodes.chunks_mut(LANES).enumerate() {
        kernel.run(BlockStep::<TWO_THREE, SKIP, A, O> {
            opts,
            lane_rules,
            first: c * LANES,
            episodes: chunk,
            action: &mut *action,
            out: &mut *out,
        });
    }
}

/// One block's step, for [`Wide::run`].
struct BlockStep<'a, const TWO_THREE: bool, const SKIP: bool, A, O> {
    opts: &'a EpisodeOptions,
    lane_rules: LaneRules,
    /// The batch index of the block's first episode.
    first: usize,
    episodes: &'a mut [Episode<LeanGame>],
    action: &'a mut A,
    out: &'a mut O,
}

/// A block of positions reached by one move in every lane: the cells and
/// players to move, the counters and board keys, and what the lanes found.
struct Reached {
    block: Block,
    /// Each lane's cells packed as [`Position::packed`].
    packed: [u128; LANES],
    no_capture: [u16; LANES],
    board_key: [u64; LANES],
    /// The legal actions of the player to move, as action bits.
    legal: [u8; LANES],
    /// 1 where the feeding rule is in force there.
    feeding: [u8; LANES],
    /// All ones where the position leaves the common path: the target or
    /// the move limit reached, no legal move, or the feeding rule in force
    /// in rules whose feeding moves are not known by their reach.
    unsettled: [u8; LANES],
}

impl<const TWO_THREE: bool, const SKIP: bool, A, O> Loop for BlockStep<'_, TWO_THREE, SKIP, A, O>
where
    A: FnMut(usize) -> Checked,
    O: BatchOut<LeanGame>,
{
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let BlockStep {
            opts,
            lane_rules,
            first,
            episodes,
            action,
            out,
        } = self;
        let rules = &opts.rules;
        let by_reach = feeds_by_reach(rules);
        let mut acts = [Checked::Penalized(0); LANES];
        let (mut packed, mut pits, mut live) = ([0u128; LANES], [0u8; LANES], [0u8; LANES]);
        let mut no_capture = [0u16; LANES];
        for (l, ep) in episodes.iter().enumerate() {
            acts[l] = action(first + l);
            if let Some((p, pit, nc)) = takes_common_path(opts, by_reach, ep, acts[l]) {
                (packed[l], pits[l], live[l]) = (p, pit, 1);
                no_capture[l] = nc;
            }
        }
        let block = Block::from_packed(&packed, pits, live);
        let agent_pits = pits;

        // The agent's move, then the position it reached.
        let mid = reach::<TWO_THREE, SKIP>(rules, by_reach, lane_rules, block, &live, no_capture);

        // The random reply where the game goes on as usual, each from its
        // own stream (the stream before, kept for a step that leaves the lanes).
        let (mut live_reply, mut reply_actions) = ([0u8; LANES], [0u8; LANES]);
        let mut streams: [Option<Xoshiro256PlusPlus>; LANES] = std::array::from_fn(|_| None);
        let mut block = mid.block.clone();
        for (l, ep) in episodes.iter_mut().enumerate() {
            if live[l] == 0 || mid.unsettled[l] != 0 {
                continue;
            }
            streams[l] = Some(ep.random.clone());
            let a = draw_among(&mut ep.random, mid.legal[l]);
            reply_actions[l] = a;
            block.origin[l] = block.mover[l] * 6 + a;
            live_reply[l] = 1;
        }
        block.active = live_reply;
        block.captured = [0; LANES];
        let reply_pits = block.origin;
        let end = reach::<TWO_THREE, SKIP>(
            rules,
            by_reach,
            lane_rules,
            block,
            &live_reply,
            mid.no_capture,
        );

        // Each episode's step: kept from the lanes, or taken by `Episode::step`.
        let repetition = rules.repetition() == Repetition::OwnSide;
        for (l, ep) in episodes.iter_mut().enumerate() {
            let moves_before = ep.moves.len();
            let mut kept = live_reply[l] != 0 && end.unsettled[l] == 0;
            let ply = ep.game.position().ply();
            let end_pos = end.position(l, ply.wrapping_add(2));
            if kept && repetition {
                kept = !repeats(rules, ep.game.window(), &mid, &end_pos, l);
            }
            if kept {
                let before = ep.game.position().margin(ep.seat);
                let (agent_move, reply) = (Move(agent_pits[l]), Move(reply_pits[l]));
                let first_move = (agent_move, mid.board_key[l], mid.block.captured[l] != 0);
                let mid_pos = || mid.position(l, ply.wrapping_add(1));
                let (legal, feeding) = (end.legal[l], end.feeding[l] != 0);
                ep.game
                    .arrive_unended(first_move, mid_pos, reply, end_pos, (legal, feeding));
                ep.moves.push(agent_move);
                ep.moves.push(reply);
                ep.steps += 1;
                let reward = match opts.reward {
                    Reward::SeedDifference => f64::from(end_pos.margin(ep.seat) - before),
                    Reward::WinLoss => 0.0,
                };
                let step = Step {
                    mover: ep.seat,
                    reward,
                    terminated: false,
                    truncated: false,
                    penalized: None,
                    outcome: None,
                    final_observation: None,
                    was_reset: false,
                };
                let kept = Kept {
                    step,
                    position: end_pos,
                    legal,
                    reply: reply_actions[l],
                };
                out.kept(first + l, ep, &kept, moves_before);
            } else {
                if let Some(stream) = streams[l].take() {
                    ep.random = stream;
                }
                let step = step_aside(ep, opts, acts[l]);
                out.step(first + l, ep, &step, moves_before);
            }
        }
    }
}

/// [`Episode::step`] for a step that leaves the lanes: one copy, out of line.
#[inline(never)]
fn step_aside(ep: &mut Episode<LeanGame>, opts: &EpisodeOptions, act: Checked) -> Step {
    ep.step(opts, act)
}

/// The lane of episode `ep` stepped with `act`, if the step can start on
/// the common path: the position packed, the agent's pit and the
/// no-capture counter.
#[inline(always)]
fn takes_common_path(
    opts: &EpisodeOptions,
    by_reach: bool,
    ep: &Episode<LeanGame>,
    act: Checked,
) -> Option<(u128, u8, u16)> {
    let Checked::Legal(a) = act else {
        return None;
    };
    let legal = match ep.game.known_legal() {
        Some(legal) => legal,
        None if by_reach && ep.game.feeding_unknown() => {
            let pos = ep.game.position();
            let first = pos.to_move().first_pit();
            let reach = (0..6u8).fold(0, |r, a| {
                r | u8::from(reaches_opponent(a, pos.seeds(first + usize::from(a)))) << a
            });
            let row_empty = pos.row_seeds(pos.to_move().opponent()) == 0;
            feeding_legal(
                opts.rules.feeding(),
                pos.nonempty_actions(),
                reach,
                row_empty,
            )
        }
        None => return None,
    };
    // The step that reaches the step limit truncates: the scalar step's.
    let room = opts
        .max_steps
        .is_none_or(|m| ep.steps.saturating_add(1) < m);
    let pos = ep.game.position();
    // The agent to move (as after every step and reset; `Episode::act`
    // without `conclude` can leave the opponent to move).
    if ep.done || !room || a >= 6 || legal & (1 << a) == 0 || pos.to_move() != ep.seat {
        return None;
    }
    let pit = pos.to_move().first_pit() as u8 + a;
    Some((pos.packed(), pit, pos.no_capture()))
}

/// Whether lane `l`'s position in `mid` (reached without a capture) or
/// `end` repeats a position of `window`, the positions since the last
/// capture before `mid`. (`end` is looked up in the window without `mid`,
/// which it cannot equal: the player to move differs; after a capture at
/// `mid` the window would hold `mid` alone.)
#[inline(always)]
fn repeats(rules: &Rules, window: &Window, mid: &Reached, end: &Position, l: usize) -> bool {
    if mid.block.captured[l] != 0 {
        return false;
    }
    window.holds(rules, key_of(mid.board_key[l]), || mid.packed[l])
        || (end.no_capture() != 0 && window.holds(rules, key_of(end.board_key()), || end.packed()))
}

impl Reached {
    /// Lane `l`'s position, at ply `ply`.
    #[inline(always)]
    fn position(&self, l: usize, ply: u32) -> Position {
        Position::from_keyed_parts(self.packed[l], self.board_key[l], self.no_capture[l], ply)
    }
}

/// Sows the `live` lanes of `block` (each to sow its origin) and passes the
/// turn; the positions reached, their counters (`no_capture` before the
/// move) and keys, and whether each stays on the common path.
#[inline(always)]
fn reach<const TWO_THREE: bool, const SKIP: bool>(
    rules: &Rules,
    by_reach: bool,
    lane_rules: LaneRules,
    mut block: Block,
    live: &[u8; LANES],
    mut no_capture: [u16; LANES],
) -> Reached {
    // Single laps always finish in the lanes: nothing is left unfinished.
    let _ = block.sow::<false, TWO_THREE, SKIP>(lane_rules);
    for l in 0..LANES {
        block.mover[l] ^= live[l];
        let next = no_capture_after(no_capture[l], block.captured[l] != 0);
        no_capture[l] = if live[l] != 0 { next } else { no_capture[l] };
    }
    let board_key = block.board_keys();
    let (legal, feeding, unsettled) = arrival(rules, by_reach, &block, &no_capture, live);
    Reached {
        packed: block.packed_lanes(),
        block,
        no_capture,
        board_key,
        legal,
        feeding,
        unsettled,
    }
}

/// The legal actions of each lane's player to move, where the feeding rule
/// is in force, and the `live` lanes that leave the common path there
/// ([`Reached::unsettled`]), each rule's test asked of its home (`end.rs`,
/// `legal.rs`) a lane at a time (the feeding rule's, which depends on the
/// lane only through the opponent's row being empty, for both answers
/// before the lane loop). With the feeding rule in force the
/// legal moves are those that reach the opponent's row where `by_reach`
/// ([`feeds_by_reach`]); elsewhere such a lane leaves the common path.
#[inline(always)]
fn arrival(
    rules: &Rules,
    by_reach: bool,
    block: &Block,
    no_capture: &[u16; LANES],
    live: &[u8; LANES],
) -> ([u8; LANES], [u8; LANES], [u8; LANES]) {
    // No target or move limit: one never reached. The target in a byte,
    // as the stores: none holds more than 252 seeds, so 255 is never
    // reached either. (The no-capture counter saturates at the no limit's
    // value; such a lane is left to the scalar step.)
    let target = rules.target().map_or(u8::MAX, |t| t.min(255) as u8);
    let limit = rules.move_limit().unwrap_or(u16::MAX);
    let feeding_rule = rules.feeding();
    // The feeding rule's test asked here for either state of the
    // opponent's row, each lane selecting its answer: asked in the lane
    // loop, its `match` kept that loop from vectorising.
    let binds = |row_empty: bool| feeding_binds(feeding_rule, || row_empty);
    let (binds_empty, binds_fed) = (binds(true), binds(false));
    let mut nonempty = [0u8; LANES];
    let mut reach = [0u8; LANES];
    let mut opponent_seeds = [0u8; LANES];
    for a in 0..6u8 {
        let (south, north) = (
            &block.cells[usize::from(a)],
            &block.cells[6 + usize::from(a)],
        );
        for l in 0..LANES {
            // Selected by masks: lane selects vectorise, branches do not.
            let to_south = mask(block.mover[l] == 0);
            let own = (south[l] & to_south) | (north[l] & !to_south);
            let theirs = (north[l] & to_south) | (south[l] & !to_south);
            nonempty[l] |= u8::from(own != 0) << a;
            reach[l] |= u8::from(reaches_opponent(a, own)) << a;
            opponent_seeds[l] |= theirs;
        }
    }
    let (mut legal, mut feeding, mut unsettled) = ([0u8; LANES], [0u8; LANES], [0u8; LANES]);
    for l in 0..LANES {
        let stores = (block.cells[12][l], block.cells[13][l]);
        let ends = reaches_target(stores.0, target)
            | reaches_target(stores.1, target)
            | reaches_move_limit(no_capture[l], limit);
        let row_empty = opponent_seeds[l] == 0;
        let feeds = (row_empty & binds_empty) | (!row_empty & binds_fed);
        legal[l] = if feeds {
            feeding_legal(feeding_rule, nonempty[l], reach[l], row_empty)
        } else {
            nonempty[l]
        };
        feeding[l] = u8::from(feeds);
        let undecided = feeds & !by_reach;
        unsettled[l] = mask(ends | (legal[l] == 0) | undecided) & mask(live[l] != 0);
    }
    (legal, feeding, unsettled)
}
