//! A study of the design that issue #18's one-thread targets point to: the
//! whole `oware` env-step (the agent's move, the random reply, the ends, the
//! next legal mask and the observation rows) with the games kept in byte
//! lanes, 64 games a block, between steps.
//!
//! It is not the engine and no environment uses it. It plays every rule of
//! `oware`, the repetition rule included: a key a position computed in the
//! lanes, and for each game a window of the positions since its last capture
//! (a filter of 1,024 bits and a key and a pit an entry, a match confirmed
//! by replaying the window's moves with ayo-core), as ayo-core's `Window`
//! keeps it. It leaves out the record of the moves, the rewards, truncation
//! and the episode's options. What it does, it does exactly: `check` plays
//! 1,024 games of it beside ayo-core's `LeanGame` and fails on any
//! difference in the boards, stores, players to move, legal masks,
//! observations or ends.
//!
//! `bench/lane_step.sh` builds it for the baseline, x86-64-v3 and x86-64-v4
//! (ayo-core with it) and runs `LEVEL STEPS ROUNDS`: the check, then rounds
//! that alternate `STEPS` steps of the lanes with `STEPS` steps of ayo-core's
//! batch step (`ayo_core::episode::step_batch` over 1,024 episodes against
//! the random opponent, writing the same observation and mask rows), both
//! with the first legal action as the agent's.

// Lane loops index several arrays by the same lane (or pit).
#![allow(clippy::needless_range_loop)]

use std::cell::Cell;
use std::process::ExitCode;
use std::time::Instant;

use ayo_core::episode::{step_batch, Checked, Episode, EpisodeOptions};
use ayo_core::{LeanGame, Move, Player, Position, Rules, Setup};
use rand::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

/// Games a block.
const LANES: usize = 64;
/// Games of the batch.
const GAMES: usize = 1024;
/// Seeds in a store that end the game (`oware`: more than half of 48).
const TARGET: u8 = 25;
/// Steps of the check.
const CHECK_STEPS: usize = 60;

/// One observation row and one mask row a game, as the batched environment writes them.
type Rows = (Vec<[f32; 14]>, Vec<[bool; 6]>);

/// The key's weight of pit `i` (12: the player to move): odd random numbers.
const KEY_WEIGHTS: [u32; 13] = [
    0x9E37_79B1,
    0x85EB_CA77,
    0xC2B2_AE3D,
    0x27D4_EB2F,
    0x1656_67B1,
    0xD3A2_646D,
    0xFD70_46C5,
    0xB55A_4F09,
    0x6C8E_9CF5,
    0x7FEB_352D,
    0x846C_A68B,
    0xE703_7ED1,
    0x2545_F491,
];

/// One game's positions since its last capture (or its start): the first
/// position, and a key and the pit played for every position, found through
/// a filter of 1,024 bits first.
#[derive(Clone)]
struct Window {
    filter: [u64; 16],
    entries: Vec<u64>,
    first: Position,
}

impl Window {
    fn new(first: Position) -> Window {
        Window {
            filter: [0; 16],
            entries: Vec::with_capacity(64),
            first,
        }
    }

    /// A new window at `first`, whose key is `key`.
    fn restart(&mut self, first: Position, key: u32) {
        self.filter = [0; 16];
        self.entries.clear();
        self.first = first;
        self.note(key, 0);
    }

    #[inline(always)]
    fn note(&mut self, key: u32, pit: u8) {
        let bit = key >> 22;
        self.filter[(bit >> 6) as usize] |= 1 << (bit & 63);
        self.entries.push(u64::from(key) | u64::from(pit) << 32);
    }

    /// Notes the position of `key` reached by `pit` without a capture; true
    /// when it occurred before in the window (`now` builds it, for the rare
    /// key match).
    #[inline(always)]
    fn repeats(&mut self, rules: &Rules, key: u32, pit: u8, now: impl Fn() -> Position) -> bool {
        let bit = key >> 22;
        let seen = self.filter[(bit >> 6) as usize] >> (bit & 63) & 1 == 1
            && self.entries.iter().any(|&e| e as u32 == key)
            && self.replay_finds(rules, now().packed());
        self.note(key, pit);
        seen
    }

    /// Whether `packed` is one of the window's positions: its moves
    /// replayed from its first position.
    #[cold]
    fn replay_finds(&self, rules: &Rules, packed: u128) -> bool {
        let pits = self.entries[1..].iter().map(|&e| (e >> 32) as u8);
        let positions = pits.scan(self.first, |p, pit| {
            *p = p.try_play_unchecked(rules, Move::new(pit).ok()?)?;
            Some(*p)
        });
        std::iter::once(self.first)
            .chain(positions)
            .any(|p| p.packed() == packed)
    }
}

/// All ones when `b`, else zero: a lane's condition as a byte mask.
#[inline(always)]
fn mask(b: bool) -> u8 {
    0u8.wrapping_sub(u8::from(b))
}

/// `yes` in the lanes of `m`, else `no`.
#[inline(always)]
fn select(m: u8, yes: u8, no: u8) -> u8 {
    (yes & m) | (no & !m)
}

/// Game `l`'s position in lanes `cells` and `mover` (its counters left at
/// 0: the rules of `oware` do not read them).
fn position_of(cells: &[[u8; LANES]; 14], mover: &[u8; LANES], l: usize) -> Position {
    Position::from_setup_unchecked(&Setup {
        board: std::array::from_fn(|i| cells[i][l]),
        stores: [cells[12][l], cells[13][l]],
        to_move: if mover[l] == 0 {
            Player::South
        } else {
            Player::North
        },
        no_capture: 0,
        ply: 0,
    })
}

/// 64 games, a byte lane each.
#[derive(Clone)]
#[repr(C, align(64))]
struct Block {
    /// `cells[i][l]`: pit `i` (0..12) or store (12 South, 13 North) of game `l`.
    cells: [[u8; LANES]; 14],
    /// The player to move: 0 South, 1 North.
    mover: [u8; LANES],
    /// All ones once the game is over.
    over: [u8; LANES],
    /// The mover's legal actions (bit `a`: mover-relative action `a`).
    legal: [u8; LANES],
    /// Each game's xoshiro256++ state, for the random reply.
    rng: [[u64; LANES]; 4],
    /// Each game's repetition window.
    windows: Vec<Window>,
    /// The rules (for the windows' rare replays).
    rules: Rules,
}

impl Block {
    /// 64 games at the start, their reply streams seeded from `seed`.
    fn new(rules: Rules, seed: u64) -> Block {
        let mut b = Block {
            cells: [[0; LANES]; 14],
            mover: [0; LANES],
            over: [0; LANES],
            legal: [0; LANES],
            rng: [[0; LANES]; 4],
            windows: vec![Window::new(Position::start(&rules)); LANES],
            rules,
        };
        let mut seeds = SplitMix64::seed_from_u64(seed);
        for l in 0..LANES {
            for word in &mut b.rng {
                word[l] = seeds.random();
            }
        }
        b.restart_over(&[mask(true); LANES]);
        b
    }

    /// Starts again the games of `which`: four seeds a pit, South to move.
    #[inline(always)]
    fn restart_over(&mut self, which: &[u8; LANES]) {
        for (i, row) in self.cells.iter_mut().enumerate() {
            let start = if i < 12 { 4 } else { 0 };
            for l in 0..LANES {
                row[l] = select(which[l], start, row[l]);
            }
        }
        for l in 0..LANES {
            self.mover[l] &= !which[l];
            self.legal[l] = select(which[l], 0x3F, self.legal[l]);
            self.over[l] &= !which[l];
        }
        let keys = self.keys();
        for l in 0..LANES {
            if which[l] != 0 {
                let first = self.position(l);
                self.windows[l].restart(first, keys[l]);
            }
        }
    }

    /// Game `l`'s position.
    fn position(&self, l: usize) -> Position {
        position_of(&self.cells, &self.mover, l)
    }

    /// Each game's key: its pits and its player to move, weighted.
    #[inline(always)]
    fn keys(&self) -> [u32; LANES] {
        let mut key = [0u32; LANES];
        for i in 0..12 {
            for l in 0..LANES {
                key[l] =
                    key[l].wrapping_add(u32::from(self.cells[i][l]).wrapping_mul(KEY_WEIGHTS[i]));
            }
        }
        for l in 0..LANES {
            key[l] = key[l].wrapping_add(u32::from(self.mover[l]).wrapping_mul(KEY_WEIGHTS[12]));
        }
        key
    }

    /// The mover's mover-relative action `act[l]` sown in every game not
    /// over: one lap in closed form (the origin skipped), the 2-or-3 chain
    /// back from the last pit in the opponent's row, no capture when it would
    /// take every seed of that row; then the turn passes.
    #[inline(always)]
    fn play(&mut self, act: &[u8; LANES]) {
        let live: [u8; LANES] = std::array::from_fn(|l| !self.over[l]);
        let mover = self.mover;
        let origin: [u8; LANES] = std::array::from_fn(|l| mover[l] * 6 + act[l]);
        let mut seeds = [0u8; LANES];
        for i in 0..12u8 {
            let row = &mut self.cells[usize::from(i)];
            for l in 0..LANES {
                let take = mask(origin[l] == i) & live[l];
                seeds[l] |= row[l] & take;
                row[l] &= !take;
            }
        }
        // `seeds` = 11 `full` laps and `k` (1..=11) pits more; at most 48 seeds.
        let (mut full, mut k) = ([0u8; LANES], [0u8; LANES]);
        for l in 0..LANES {
            let x = seeds[l].wrapping_sub(1);
            let laps =
                u8::from(x >= 11) + u8::from(x >= 22) + u8::from(x >= 33) + u8::from(x >= 44);
            full[l] = laps & live[l];
            k[l] = x.wrapping_sub(laps.wrapping_mul(11)).wrapping_add(1) & live[l];
        }
        let mut last = [0u8; LANES];
        for i in 0..12u8 {
            let row = &mut self.cells[usize::from(i)];
            for l in 0..LANES {
                let o = origin[l];
                // Distance from the origin, 1..=12 (the origin itself: 12, skipped).
                let d = if i > o { i - o } else { i + 12 - o };
                let gets = full[l] + u8::from(d <= k[l]);
                row[l] = row[l].wrapping_add(gets & mask(d != 12));
                last[l] |= i & mask(d == k[l]);
            }
        }
        let mut count = [0u8; LANES];
        for i in 0..12u8 {
            let row = &self.cells[usize::from(i)];
            for l in 0..LANES {
                count[l] |= row[l] & mask(last[l] == i);
            }
        }
        let starts: [u8; LANES] = std::array::from_fn(|l| {
            let opp_row = u8::from(last[l] >= 6) != mover[l];
            live[l] & mask(opp_row & ((count[l] == 2) | (count[l] == 3)))
        });
        let mut taken = [[0u8; LANES]; 12];
        let (mut chain, mut gain, mut opp_seeds) = ([0u8; LANES], [0u8; LANES], [0u8; LANES]);
        for i in (0..12u8).rev() {
            let row = &self.cells[usize::from(i)];
            for l in 0..LANES {
                let opp_row = mask(u8::from(i >= 6) != mover[l]);
                let two_three = mask((row[l] == 2) | (row[l] == 3));
                let chained = mask(i == last[l]) | (chain[l] & mask(i < last[l]));
                chain[l] = starts[l] & opp_row & two_three & chained;
                taken[usize::from(i)][l] = chain[l];
                gain[l] = gain[l].wrapping_add(row[l] & chain[l]);
                opp_seeds[l] = opp_seeds[l].wrapping_add(row[l] & opp_row);
            }
        }
        let stands: [u8; LANES] =
            std::array::from_fn(|l| mask(gain[l] != 0 && opp_seeds[l] != gain[l]));
        for (row, taken) in self.cells.iter_mut().zip(&taken) {
            for l in 0..LANES {
                row[l] &= !(taken[l] & stands[l]);
            }
        }
        let [.., south, north] = &mut self.cells;
        for l in 0..LANES {
            let g = gain[l] & stands[l];
            let to_south = mask(mover[l] == 0);
            south[l] = south[l].wrapping_add(g & to_south);
            north[l] = north[l].wrapping_add(g & !to_south);
            self.mover[l] ^= live[l] & 1;
        }
        // The repetition rule: a capture starts a game's window again; any
        // other move is looked up in it, and a repeated position ends the game.
        let keys = self.keys();
        for l in 0..LANES {
            if live[l] == 0 {
                continue;
            }
            if stands[l] != 0 {
                let first = self.position(l);
                self.windows[l].restart(first, keys[l]);
            } else {
                let (cells, mover) = (&self.cells, &self.mover);
                let now = || position_of(cells, mover, l);
                if self.windows[l].repeats(&self.rules, keys[l], origin[l], now) {
                    self.over[l] = mask(true);
                }
            }
        }
    }

    /// The new position's ends and legal moves: a store at the target; the
    /// mover's non-empty pits, only those that reach the opponent's row
    /// when that row is empty; no legal move ends the game.
    #[inline(always)]
    fn arrive(&mut self) {
        let (mut nonempty, mut feeds, mut opp_seeds) = ([0u8; LANES], [0u8; LANES], [0u8; LANES]);
        for a in 0..6u8 {
            let (south, north) = (&self.cells[usize::from(a)], &self.cells[6 + usize::from(a)]);
            for l in 0..LANES {
                let is_south = mask(self.mover[l] == 0);
                let own = select(is_south, south[l], north[l]);
                let theirs = select(is_south, north[l], south[l]);
                nonempty[l] |= u8::from(own != 0) << a;
                feeds[l] |= u8::from(own >= 6 - a) << a;
                opp_seeds[l] = opp_seeds[l].wrapping_add(theirs);
            }
        }
        for l in 0..LANES {
            let legal = nonempty[l] & (feeds[l] | mask(opp_seeds[l] != 0));
            let ends = self.cells[12][l] >= TARGET || self.cells[13][l] >= TARGET || legal == 0;
            let over = self.over[l] | mask(ends);
            self.over[l] = over;
            self.legal[l] = legal & !over;
        }
    }

    /// A uniformly random legal action a game, from its own stream.
    /// (Lemire's multiply without the rejection step: its bias, below 2^-29,
    /// does not change what is timed.)
    #[inline(always)]
    fn draw(&mut self) -> [u8; LANES] {
        let mut r = [0u64; LANES];
        let [s0, s1, s2, s3] = &mut self.rng;
        for l in 0..LANES {
            r[l] = s0[l]
                .wrapping_add(s3[l])
                .rotate_left(23)
                .wrapping_add(s0[l]);
            let t = s1[l] << 17;
            s2[l] ^= s0[l];
            s3[l] ^= s1[l];
            s1[l] ^= s2[l];
            s0[l] ^= s3[l];
            s2[l] ^= t;
            s3[l] = s3[l].rotate_left(45);
        }
        let mut kth = [0u8; LANES];
        for l in 0..LANES {
            let b = self.legal[l];
            let count =
                (b & 1) + (b >> 1 & 1) + (b >> 2 & 1) + (b >> 3 & 1) + (b >> 4 & 1) + (b >> 5 & 1);
            kth[l] = (((r[l] >> 32) * u64::from(count)) >> 32) as u8;
        }
        let (mut action, mut before) = ([0u8; LANES], [0u8; LANES]);
        for a in 0..6u8 {
            for l in 0..LANES {
                let bit = (self.legal[l] >> a) & 1;
                action[l] |= a & mask(bit == 1 && before[l] == kth[l]);
                before[l] += bit;
            }
        }
        action
    }

    /// The agent's first legal action a game (0 where none).
    #[inline(always)]
    fn first_legal(&self) -> [u8; LANES] {
        let mut action = [0u8; LANES];
        let mut found = [0u8; LANES];
        for a in 0..6u8 {
            for l in 0..LANES {
                let here = mask((self.legal[l] >> a) & 1 == 1) & !found[l];
                action[l] |= a & here;
                found[l] |= here;
            }
        }
        action
    }

    /// One env-step of every game: the agent's `act`, the random reply (none
    /// once the game is over), and the rows: the board in the mover's view
    /// (own row, the opponent's, own store, the opponent's) as float32 and
    /// the legal mask. Returns the reply.
    #[inline(always)]
    fn step(
        &mut self,
        act: &[u8; LANES],
        obs: &mut [[f32; 14]],
        legal: &mut [[bool; 6]],
    ) -> [u8; LANES] {
        self.play(act);
        self.arrive();
        let reply = self.draw();
        self.play(&reply);
        self.arrive();
        let mut view = [[0u8; LANES]; 14];
        for p in 0..6 {
            for l in 0..LANES {
                let is_south = mask(self.mover[l] == 0);
                view[p][l] = select(is_south, self.cells[p][l], self.cells[6 + p][l]);
                view[6 + p][l] = select(is_south, self.cells[6 + p][l], self.cells[p][l]);
            }
        }
        for l in 0..LANES {
            let is_south = mask(self.mover[l] == 0);
            view[12][l] = select(is_south, self.cells[12][l], self.cells[13][l]);
            view[13][l] = select(is_south, self.cells[13][l], self.cells[12][l]);
        }
        for l in 0..LANES {
            for p in 0..14 {
                obs[l][p] = f32::from(view[p][l]);
            }
            for a in 0..6 {
                legal[l][a] = (self.legal[l] >> a) & 1 == 1;
            }
        }
        reply
    }
}

/// The blocks of a batch.
fn blocks(rules: &Rules, seed: u64) -> Vec<Block> {
    (0..GAMES / LANES)
        .map(|b| Block::new(*rules, seed + b as u64))
        .collect()
}

fn rows() -> Rows {
    (vec![[0.0; 14]; GAMES], vec![[false; 6]; GAMES])
}

/// Plays the lanes beside `LeanGame`s for [`CHECK_STEPS`] steps with random
/// agent actions; returns the game-steps compared, those that ended a game
/// by repetition, and the differences.
fn check(rules: &Rules) -> (usize, usize, usize) {
    let mut bs = blocks(rules, 1);
    let (mut obs, mut legal) = rows();
    let mut lean: Vec<LeanGame> = (0..GAMES)
        .map(|_| LeanGame::new(*rules, Position::start(rules)))
        .collect();
    let mut agent = Xoshiro256PlusPlus::seed_from_u64(5);
    let (mut compared, mut repetitions, mut wrong) = (0, 0, 0);
    for _ in 0..CHECK_STEPS {
        for (bi, b) in bs.iter_mut().enumerate() {
            let mut act = [0u8; LANES];
            for l in 0..LANES {
                // A random legal action (none once the game is over).
                let bits = b.legal[l];
                let legal_actions: Vec<u8> = (0..6).filter(|a| bits >> a & 1 == 1).collect();
                if !legal_actions.is_empty() {
                    act[l] = legal_actions[agent.random_range(0..legal_actions.len())];
                }
            }
            let was_over = b.over;
            let games = bi * LANES..(bi + 1) * LANES;
            let reply = b.step(&act, &mut obs[games.clone()], &mut legal[games]);
            for l in 0..LANES {
                let g = &mut lean[bi * LANES + l];
                if was_over[l] != 0 || g.known_outcome().is_some() {
                    continue;
                }
                let mut ok = g.play_action(act[l]).is_ok();
                if g.outcome().is_none() {
                    ok &= g.play_action(reply[l]).is_ok();
                }
                let outcome = g.outcome();
                let p = *g.position();
                let mover = if p.to_move() == Player::South { 0 } else { 1 };
                let board = (0..12).all(|i| p.seeds(i) == b.cells[i][l])
                    && p.stores() == [b.cells[12][l], b.cells[13][l]]
                    && mover == b.mover[l];
                let view = p.view(p.to_move());
                let seen = (0..14).all(|i| f32::from(view[i]) == obs[bi * LANES + l][i]);
                let mask_bits =
                    (0..6).fold(0u8, |m, a| m | u8::from(legal[bi * LANES + l][a]) << a);
                let same = ok
                    && board
                    && seen
                    && g.legal_mask() == b.legal[l]
                    && mask_bits == b.legal[l]
                    && outcome.is_some() == (b.over[l] != 0);
                compared += 1;
                repetitions += usize::from(
                    outcome.is_some_and(|o| o.reason == ayo_core::EndReason::Repetition),
                );
                wrong += usize::from(!same);
            }
        }
    }
    (compared, repetitions, wrong)
}

/// `steps` env-steps of every game in lanes; games that ended start again.
fn run_lanes(bs: &mut [Block], (obs, legal): &mut Rows, steps: usize) {
    for _ in 0..steps {
        for (bi, b) in bs.iter_mut().enumerate() {
            let over = b.over;
            b.restart_over(&over);
            let act = b.first_legal();
            let games = bi * LANES..(bi + 1) * LANES;
            std::hint::black_box(b.step(&act, &mut obs[games.clone()], &mut legal[games]));
        }
    }
}

/// `steps` env-steps of ayo-core's batch step, writing the same rows.
fn run_episodes(
    opts: &EpisodeOptions,
    eps: &mut [Episode<LeanGame>],
    status: &[Cell<u8>],
    (obs, legal): &mut Rows,
    steps: usize,
) {
    for _ in 0..steps {
        step_batch(
            opts,
            eps,
            |i| Checked::Legal(status[i].get().trailing_zeros().min(5) as u8),
            |i, ep, _, _| {
                let o = ep.observe(opts);
                for (f, &v) in obs[i].iter_mut().zip(&o.view) {
                    *f = f32::from(v);
                }
                for (a, m) in legal[i].iter_mut().enumerate() {
                    *m = (o.legal >> a) & 1 == 1;
                }
                status[i].set(o.legal);
            },
        );
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, level, steps, rounds] = args.as_slice() else {
        eprintln!("usage: lane_step LEVEL STEPS ROUNDS");
        return ExitCode::FAILURE;
    };
    let (Ok(steps), Ok(rounds)) = (steps.parse::<usize>(), rounds.parse::<usize>()) else {
        eprintln!("STEPS and ROUNDS are counts");
        return ExitCode::FAILURE;
    };
    let rules = Rules::preset("oware").expect("a preset");
    let (compared, repetitions, wrong) = check(&rules);
    println!(
        "{level}: check: {compared} game-steps against LeanGame, {wrong} differences, \
         {repetitions} of them at games ended by repetition"
    );
    if wrong > 0 || compared == 0 {
        return ExitCode::FAILURE;
    }
    if rounds == 0 {
        return ExitCode::SUCCESS;
    }
    let opts = EpisodeOptions::new(rules);
    let mut eps: Vec<Episode<LeanGame>> =
        (0..GAMES as u64).map(|s| Episode::new(&opts, s)).collect();
    let mut status = Vec::with_capacity(GAMES);
    for ep in &mut eps {
        ep.reset(&opts, None);
        status.push(ep.observe(&opts).legal);
    }
    let status = Cell::from_mut(&mut status[..]).as_slice_of_cells();
    let mut bs = blocks(&rules, 2);
    let (mut lane_rows, mut ep_rows) = (rows(), rows());
    let (mut lanes_ns, mut eps_ns, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    let per = (steps * GAMES) as f64;
    for round in 0..rounds {
        let mut time = |lanes: bool| {
            let t = Instant::now();
            if lanes {
                run_lanes(&mut bs, &mut lane_rows, steps);
            } else {
                run_episodes(&opts, &mut eps, status, &mut ep_rows, steps);
            }
            t.elapsed().as_secs_f64() * 1e9 / per
        };
        let (l, e) = if round % 2 == 0 {
            let l = time(true);
            (l, time(false))
        } else {
            let e = time(false);
            (time(true), e)
        };
        lanes_ns.push(l);
        eps_ns.push(e);
        ratio.push(e / l);
    }
    println!(
        "{level}: ns an env-step, median of {rounds} rounds of {steps} steps of {GAMES} games: \
         lanes {:.2}, ayo-core's batch step {:.2}; batch step / lanes, median of the rounds: {:.2}x",
        median(&mut lanes_ns),
        median(&mut eps_ns),
        median(&mut ratio)
    );
    ExitCode::SUCCESS
}
