//! Times the two paths of the batch step (`ayo_core::episode::step_batch_on`)
//! against each other: each episode in turn, and the episodes in byte lanes
//! with each kernel this CPU has, in alternated rounds of `STEPS` steps of
//! 1,024 episodes against the random opponent (the first legal action as
//! the agent's; each step writes the observation and mask rows as the
//! batched environment does):
//!
//! ```text
//! cargo run --release -p ayo-core --example batch_paths -- [STEPS] [ROUNDS] [PRESET] [KERNEL]
//! ```

use std::cell::Cell;
use std::time::Instant;

use ayo_core::episode::{step_batch_on, BatchPath, Checked, Episode, EpisodeOptions};
use ayo_core::kernel::Kernel;
use ayo_core::{LeanGame, Rules};

/// Episodes of the batch.
const GAMES: usize = 1024;

/// A batch, its mask bits, and its observation and mask rows.
struct Batch {
    episodes: Vec<Episode<LeanGame>>,
    legal: Vec<Cell<u8>>,
    obs: Vec<[f32; 14]>,
    mask: Vec<[bool; 6]>,
}

impl Batch {
    fn new(opts: &EpisodeOptions) -> Batch {
        let mut episodes: Vec<Episode<LeanGame>> =
            (0..GAMES as u64).map(|s| Episode::new(opts, s)).collect();
        let legal = episodes
            .iter_mut()
            .map(|ep| {
                ep.reset(opts, None);
                Cell::new(ep.observe(opts).legal)
            })
            .collect();
        Batch {
            episodes,
            legal,
            obs: vec![[0.0; 14]; GAMES],
            mask: vec![[false; 6]; GAMES],
        }
    }

    /// `steps` steps on `path`; nanoseconds an env-step.
    fn run(&mut self, path: BatchPath, opts: &EpisodeOptions, steps: usize) -> f64 {
        let t = Instant::now();
        let Batch {
            episodes,
            legal,
            obs,
            mask,
        } = self;
        for _ in 0..steps {
            step_batch_on(
                path,
                opts,
                episodes,
                |i| Checked::Legal(legal[i].get().trailing_zeros().min(5) as u8),
                |i, ep, _, _| {
                    let o = ep.observe(opts);
                    for (f, &v) in obs[i].iter_mut().zip(&o.view) {
                        *f = f32::from(v);
                    }
                    for (a, m) in mask[i].iter_mut().enumerate() {
                        *m = (o.legal >> a) & 1 == 1;
                    }
                    legal[i].set(o.legal);
                },
            );
        }
        t.elapsed().as_secs_f64() * 1e9 / (steps * GAMES) as f64
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
        let (mut scalar, mut lanes) = (Batch::new(&opts), Batch::new(&opts));
        let lane_path = BatchPath::Lanes(kernel);
        let (mut s_ns, mut l_ns, mut ratio) = (vec![], vec![], vec![]);
        for round in 0..rounds {
            let (s, l) = if round % 2 == 0 {
                let s = scalar.run(BatchPath::Scalar, &opts, steps);
                (s, lanes.run(lane_path, &opts, steps))
            } else {
                let l = lanes.run(lane_path, &opts, steps);
                (scalar.run(BatchPath::Scalar, &opts, steps), l)
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
