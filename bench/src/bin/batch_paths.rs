//! Times the two paths of the batch step (`ayo_core::episode::BatchPath`)
//! against each other: each episode in turn, and the episodes in byte lanes
//! with each kernel this CPU has that the lanes are built for
//! (`Kernel::wide`: `avx512`, and the baseline with the `testing` feature
//! this crate turns on), in alternated rounds of `STEPS` steps of
//! 1,024 episodes against the random opponent (the agent's action one of
//! its legal actions, picked by a hash of the game and the step, as the
//! suite's policy picks one at random: always the first legal action made
//! games longer, with fewer steps leaving the lanes), each step writing the
//! batched environment's rows (`step_batch_rows_on`, the step of
//! `ayo.vector`). It prints the share of env-steps that ended an episode:
//! such a step, and the autoreset after it, leave the lanes. Both paths
//! play the same episodes: it fails when their rows or their counts of
//! ended episodes differ after the rounds (CI runs it so).
//!
//! ```text
//! cargo run --release -p ayo-bench --bin batch_paths -- [STEPS] [ROUNDS] [PRESET] [KERNEL]
//! ```

use std::time::Instant;

use ayo_core::episode::{
    step_batch_rows_on, BatchPath, Episode, EpisodeOptions, OwnedRows, RowsError,
};
use ayo_core::kernel::Kernel;
use ayo_core::{LeanGame, Rules};

/// Episodes of the batch.
const GAMES: usize = 1024;

/// A batch and its rows, as the batched environment keeps them.
struct Batch {
    episodes: Vec<Episode<LeanGame>>,
    rows: OwnedRows,
    actions: Vec<i64>,
    /// Steps taken (the agent's actions depend on it).
    steps: u64,
    /// Episodes ended in them.
    ended: usize,
}

impl Batch {
    fn new(opts: &EpisodeOptions) -> Result<Batch, RowsError> {
        let mut rows = OwnedRows::new(GAMES);
        let mut episodes = Vec::with_capacity(GAMES);
        for i in 0..GAMES {
            let mut ep = Episode::new(opts, i as u64);
            ep.reset(opts, None);
            rows.rows().write_start(opts, &mut ep, i, 0)?;
            episodes.push(ep);
        }
        Ok(Batch {
            episodes,
            rows,
            actions: vec![0; GAMES],
            steps: 0,
            ended: 0,
        })
    }

    /// `steps` steps on `path`; nanoseconds an env-step.
    fn run(
        &mut self,
        path: BatchPath,
        opts: &EpisodeOptions,
        steps: usize,
    ) -> Result<f64, RowsError> {
        let t = Instant::now();
        for _ in 0..steps {
            let t = self.steps;
            for (i, (a, &st)) in self.actions.iter_mut().zip(self.rows.status()).enumerate() {
                *a = ayo_bench::pick_legal(st, i, t);
            }
            self.steps += 1;
            let counts = step_batch_rows_on(
                path,
                opts,
                &mut self.episodes,
                &self.actions,
                &mut self.rows.rows(),
            )?;
            self.ended += counts.ended;
        }
        Ok(t.elapsed().as_secs_f64() * 1e9 / (steps * GAMES) as f64)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps: usize = args.first().map_or(Ok(100), |s| s.parse())?;
    let rounds: usize = args.get(1).map_or(Ok(20), |s| s.parse())?;
    let preset = args.get(2).map_or("oware", |s| s.as_str());
    let kernels = match args.get(3) {
        Some(name) => vec![Kernel::from_name(name)?],
        None => Kernel::available(),
    };
    let opts = EpisodeOptions::new(Rules::preset(preset)?);
    let cpu = ayo_bench::cpu_model();
    println!("cpu: {cpu}; {preset}, {GAMES} episodes, {rounds} rounds of {steps} steps");
    for kernel in kernels {
        if kernel.wide().is_none() {
            println!("kernel {kernel}: the lanes are not built for it");
            continue;
        }
        let (mut scalar, mut lanes) = (Batch::new(&opts)?, Batch::new(&opts)?);
        let lane_path = BatchPath::Lanes(kernel);
        let (mut s_ns, mut l_ns, mut ratio) = (vec![], vec![], vec![]);
        for round in 0..rounds {
            let (s, l) = if round % 2 == 0 {
                let s = scalar.run(BatchPath::Scalar, &opts, steps)?;
                (s, lanes.run(lane_path, &opts, steps)?)
            } else {
                let l = lanes.run(lane_path, &opts, steps)?;
                (scalar.run(BatchPath::Scalar, &opts, steps)?, l)
            };
            s_ns.push(s);
            l_ns.push(l);
            ratio.push(s / l);
        }
        if scalar.rows != lanes.rows || scalar.ended != lanes.ended {
            return Err(format!(
                "kernel {kernel}: the lanes path's rows differ from those of each episode in turn"
            )
            .into());
        }
        let ended = lanes.ended as f64 / (lanes.steps as f64 * GAMES as f64);
        let mid = ayo_bench::median(&mut ratio);
        let quartile = |q: usize| ratio[(ratio.len() - 1) * q / 4];
        println!(
            "kernel {kernel}: ns an env-step (medians): each in turn {:.1}, lanes {:.1}; \
             in turn / lanes {mid:.2}x (quartiles {:.2}..{:.2}); episodes ended a step {:.2}%; \
             the same rows",
            ayo_bench::median(&mut s_ns),
            ayo_bench::median(&mut l_ns),
            quartile(1),
            quartile(3),
            100.0 * ended,
        );
    }
    Ok(())
}
