//! Times the two paths of the batch step (`ayo_core::episode::BatchPath`)
//! against each other: each episode in turn, and the episodes in byte lanes
//! with each kernel this CPU has, in alternated rounds of `STEPS` steps of
//! 1,024 episodes against the random opponent (the first legal action as
//! the agent's), each step writing the batched environment's rows
//! (`step_batch_rows_on`, the step of `ayo.vector`):
//!
//! ```text
//! cargo run --release -p ayo-core --example batch_paths -- [STEPS] [ROUNDS] [PRESET] [KERNEL]
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
            // The first legal action (any action where the episode is over).
            for (a, &st) in self.actions.iter_mut().zip(self.rows.status()) {
                *a = i64::from((st & 0x3F).trailing_zeros().min(5));
            }
            step_batch_rows_on(
                path,
                opts,
                &mut self.episodes,
                &self.actions,
                &mut self.rows.rows(),
            )?;
        }
        Ok(t.elapsed().as_secs_f64() * 1e9 / (steps * GAMES) as f64)
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    println!("cpu: {cpu}; {preset}, {GAMES} episodes, {rounds} rounds of {steps} steps");
    for kernel in kernels {
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
        let mid = median(&mut ratio);
        let quartile = |q: usize| ratio[(ratio.len() - 1) * q / 4];
        println!(
            "kernel {kernel}: ns an env-step (medians): each in turn {:.1}, lanes {:.1}; \
             in turn / lanes {mid:.2}x (quartiles {:.2}..{:.2})",
            median(&mut s_ns),
            median(&mut l_ns),
            quartile(1),
            quartile(3),
        );
    }
    Ok(())
}
