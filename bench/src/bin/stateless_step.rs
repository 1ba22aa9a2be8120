//! Times a stateless env-step (`ayo_core::episode::Stateless`: each
//! record unpacked, stepped and packed again) against the batched
//! environment's step over the same episodes kept in memory
//! (`step_batch_rows`, as `AyoVectorEnv.step`): 1,024 games of
//! `oware[repetition=off,move_limit=200]` against the random opponent, the
//! agent's action picked from each game's mask, rounds alternated. Prints
//! nanoseconds an env-step for both, and their ratio; what `ayo.jax`'s step
//! costs beyond the numpy path, without Python or XLA around it.
//!
//! ```text
//! cargo run --release -p ayo-bench --bin stateless_step -- [STEPS] [ROUNDS]
//! ```

use std::time::Instant;

use ayo_core::episode::{
    step_batch_rows, Episode, EpisodeOptions, OwnedRows, Stateless, StepOut, ACTIONS, STATE_BYTES,
};
use ayo_core::{LeanGame, Rules};

const GAMES: usize = 1024;

fn bits(mask: &[bool]) -> u8 {
    mask.iter()
        .enumerate()
        .fold(0, |m, (a, &b)| m | (u8::from(b) << a))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps: usize = args.first().map_or(Ok(200), |s| s.parse())?;
    let rounds: usize = args.get(1).map_or(Ok(20), |s| s.parse())?;
    let rules: Rules = "oware[repetition=off,move_limit=200]".parse()?;
    let opts = EpisodeOptions::new(rules);

    // In memory, as the batched environment keeps its games.
    let mut rows = OwnedRows::new(GAMES);
    let mut episodes: Vec<Episode<LeanGame>> = Vec::with_capacity(GAMES);
    for i in 0..GAMES {
        let mut ep = Episode::new(&opts, i as u64);
        ep.reset(&opts, None);
        rows.rows().write_start(&opts, &mut ep, i, 0)?;
        episodes.push(ep);
    }
    let mut actions = vec![0i64; GAMES];

    // Records.
    let env = Stateless::new(opts)?;
    let seeds: Vec<u64> = (0..GAMES as u64).collect();
    let mut states = vec![0u8; GAMES * STATE_BYTES];
    env.init(&seeds, &mut states)?;
    let mut mask = vec![false; GAMES * ACTIONS];
    env.legal_mask(&states, &mut mask)?;
    let (mut rewards, mut terminated, mut truncated) = (
        vec![0f32; 2 * GAMES],
        vec![false; GAMES],
        vec![false; GAMES],
    );
    let mut record_actions = vec![0i64; GAMES];

    let (mut t_memory, mut t_record) = (0u64, 0u64);
    let mut in_memory = |steps: usize| -> Result<f64, Box<dyn std::error::Error>> {
        let start = Instant::now();
        for _ in 0..steps {
            for (i, (a, &st)) in actions.iter_mut().zip(rows.status()).enumerate() {
                *a = ayo_bench::pick_legal(st & 0x3F, i, t_memory);
            }
            t_memory += 1;
            step_batch_rows(&opts, &mut episodes, &actions, &mut rows.rows())?;
        }
        Ok(start.elapsed().as_secs_f64() * 1e9 / (steps * GAMES) as f64)
    };
    let mut recorded = |steps: usize| -> Result<f64, Box<dyn std::error::Error>> {
        let start = Instant::now();
        for _ in 0..steps {
            for (i, (a, m)) in record_actions
                .iter_mut()
                .zip(mask.chunks_exact(ACTIONS))
                .enumerate()
            {
                *a = ayo_bench::pick_legal(bits(m), i, t_record);
            }
            t_record += 1;
            let out = StepOut {
                rewards: &mut rewards,
                terminated: &mut terminated,
                truncated: &mut truncated,
                next_mask: Some(&mut mask),
            };
            env.step_in_place(&mut states, &record_actions, out)?;
        }
        Ok(start.elapsed().as_secs_f64() * 1e9 / (steps * GAMES) as f64)
    };

    let cpu = ayo_bench::cpu_model();
    println!(
        "cpu: {cpu}; {}, {GAMES} episodes, {rounds} rounds of {steps} steps",
        env.options().rules
    );
    let (mut m_ns, mut r_ns, mut ratio) = (vec![], vec![], vec![]);
    for round in 0..rounds {
        let (m, r) = if round % 2 == 0 {
            let m = in_memory(steps)?;
            (m, recorded(steps)?)
        } else {
            let r = recorded(steps)?;
            (in_memory(steps)?, r)
        };
        m_ns.push(m);
        r_ns.push(r);
        ratio.push(m / r);
    }
    println!(
        "ns an env-step (medians): in memory {:.1}, stateless {:.1}; in memory / stateless {:.2}x",
        ayo_bench::median(&mut m_ns),
        ayo_bench::median(&mut r_ns),
        ayo_bench::median(&mut ratio)
    );
    Ok(())
}
