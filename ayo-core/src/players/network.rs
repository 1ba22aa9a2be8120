//! A small policy/value network read from a file: a stack of dense layers
//! with ReLU between them, whose last layer gives six move logits and one
//! value (through `tanh`). Enough for the learned level and for self-play,
//! with no inference framework: the forward pass of a batch of rows is a
//! matrix product a layer (`matrixmultiply`).
//!
//! **The file** (little-endian, every length checked before anything is
//! allocated, so a damaged or hostile file is an error, never an abort):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `AYONET1\0` |
//! | 4 | `u32` length of the rules record, then that many bytes of UTF-8 |
//! | 4 | `u32` number of layers `L` (1..=[`MAX_LAYERS`]) |
//! | per layer | `u32` inputs, `u32` outputs, `f32` weights (outputs × inputs, row-major), `f32` biases |
//! | 8 | `u64` FNV-1a hash of every byte before it |
//!
//! The first layer takes the 14 features of the environments' observation
//! (the player to move's six pits, the opponent's six, their stores, as
//! seed counts); the last gives 7 outputs; widths are at most [`MAX_WIDTH`].

use std::fmt;

/// Features of the input: the environments' observation.
pub const INPUTS: usize = 14;
/// Outputs of the last layer: six move logits and one value.
pub const OUTPUTS: usize = 7;
/// The most layers a network file may hold.
pub const MAX_LAYERS: usize = 16;
/// The widest layer a network file may hold.
pub const MAX_WIDTH: usize = 1024;

const MAGIC: &[u8; 8] = b"AYONET1\0";
/// Rows evaluated together: enough for the matrix product to run at
/// speed, few enough that the scratch stays in cache.
const ROW_BLOCK: usize = 256;
const MAX_RULES_LEN: usize = 4096;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "network file: {}", self.0)
    }
}

impl std::error::Error for NetworkError {}

fn bad(msg: impl Into<String>) -> NetworkError {
    NetworkError(msg.into())
}

#[derive(Clone, Debug, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    /// `outputs × inputs`, row-major.
    weights: Vec<f32>,
    biases: Vec<f32>,
}

impl Dense {
    /// `out = x · Wᵀ + b` for `rows` rows of `x` (row-major, `inputs` wide),
    /// then ReLU when `relu`.
    fn forward(&self, rows: usize, x: &[f32], out: &mut [f32], relu: bool) {
        debug_assert!(x.len() == rows * self.inputs && out.len() == rows * self.outputs);
        for row in out.chunks_exact_mut(self.outputs) {
            row.copy_from_slice(&self.biases);
        }
        // SAFETY: `x` holds `rows × inputs` floats (row stride `inputs`),
        // `weights` `outputs × inputs` read as its transpose (`inputs ×
        // outputs`: row stride 1, column stride `inputs`), `out` `rows ×
        // outputs` (row stride `outputs`), as checked above and by the
        // layer's construction; `out` overlaps neither input.
        unsafe {
            matrixmultiply::sgemm(
                rows,
                self.inputs,
                self.outputs,
                1.0,
                x.as_ptr(),
                self.inputs as isize,
                1,
                self.weights.as_ptr(),
                1,
                self.inputs as isize,
                1.0,
                out.as_mut_ptr(),
                self.outputs as isize,
                1,
            );
        }
        if relu {
            for v in out.iter_mut() {
                *v = v.max(0.0);
            }
        }
    }
}

/// A policy/value network (see the module's documentation for its file).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    rules: String,
    layers: Vec<Dense>,
    widest: usize,
}

/// FNV-1a, 64 bits: a checksum against damaged files, not an authenticator.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], NetworkError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| bad(format!("truncated in {what}")))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self, what: &str) -> Result<usize, NetworkError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    fn floats(&mut self, n: usize, what: &str) -> Result<Vec<f32>, NetworkError> {
        let len = n.checked_mul(4).ok_or_else(|| bad("size overflow"))?;
        let b = self.take(len, what)?;
        let mut v = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| bad(format!("out of memory for {what}")))?;
        v.extend(
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        if v.iter().any(|x| !x.is_finite()) {
            return Err(bad(format!("{what} holds a value that is not finite")));
        }
        Ok(v)
    }
}

impl Network {
    /// Reads a network file (see the module's documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not an ayo network (bad magic)"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(stored) {
            return Err(bad("checksum mismatch"));
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let rules_len = r.u32("the rules' length")?;
        if rules_len > MAX_RULES_LEN {
            return Err(bad(format!("a rules record of {rules_len} bytes")));
        }
        let rules = std::str::from_utf8(r.take(rules_len, "the rules")?)
            .map_err(|_| bad("the rules are not UTF-8"))?
            .to_owned();
        let n = r.u32("the layer count")?;
        if !(1..=MAX_LAYERS).contains(&n) {
            return Err(bad(format!("{n} layers (1 to {MAX_LAYERS})")));
        }
        let mut layers = Vec::with_capacity(n);
        let mut width = INPUTS;
        let mut widest = INPUTS;
        for k in 0..n {
            let inputs = r.u32("a layer's inputs")?;
            let outputs = r.u32("a layer's outputs")?;
            if inputs != width {
                return Err(bad(format!(
                    "layer {k} takes {inputs} inputs, the one before gives {width}"
                )));
            }
            if !(1..=MAX_WIDTH).contains(&outputs) {
                return Err(bad(format!(
                    "layer {k} has {outputs} outputs (1 to {MAX_WIDTH})"
                )));
            }
            let weights = r.floats(inputs * outputs, "the weights")?;
            let biases = r.floats(outputs, "the biases")?;
            layers.push(Dense {
                inputs,
                outputs,
                weights,
                biases,
            });
            width = outputs;
            widest = widest.max(outputs);
        }
        if width != OUTPUTS {
            return Err(bad(format!(
                "the last layer gives {width} outputs, not {OUTPUTS}"
            )));
        }
        if r.at != body.len() {
            return Err(bad(format!(
                "{} bytes after the last layer",
                body.len() - r.at
            )));
        }
        Ok(Network {
            rules,
            layers,
            widest,
        })
    }

    /// The file's bytes: [`Network::from_bytes`] reads them back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((self.rules.len() as u32).to_le_bytes());
        out.extend(self.rules.as_bytes());
        out.extend((self.layers.len() as u32).to_le_bytes());
        for l in &self.layers {
            out.extend((l.inputs as u32).to_le_bytes());
            out.extend((l.outputs as u32).to_le_bytes());
            for x in l.weights.iter().chain(&l.biases) {
                out.extend(x.to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// The rules record the network was trained for (as the file says).
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// Parameters in all.
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weights.len() + l.biases.len())
            .sum()
    }

    /// The six move logits and the value in `[-1, 1]` (for the player to
    /// move) of one observation.
    pub fn evaluate(&self, observation: &[f32; INPUTS]) -> ([f32; 6], f32) {
        let mut logits = [0.0f32; 6];
        let mut value = [0.0f32; 1];
        self.evaluate_rows(observation, &mut logits, &mut value);
        (logits, value[0])
    }

    /// The logits and values of `values.len()` observations at once (rows of
    /// [`INPUTS`] features in `observations`, six logits a row in `logits`),
    /// as the guided search asks for them: each layer one matrix product
    /// over a block of rows (`matrixmultiply`'s `sgemm`, which picks the
    /// CPU's vector instructions at run time), so that a round of leaves
    /// costs what a batched framework's forward pass does.
    ///
    /// # Panics
    /// If the slices do not hold `values.len()` rows each.
    pub fn evaluate_rows(&self, observations: &[f32], logits: &mut [f32], values: &mut [f32]) {
        let n = values.len();
        assert!(observations.len() >= n * INPUTS && logits.len() >= n * 6);
        // Blocks of rows keep the scratch small (at most two blocks of the
        // widest layer) and in cache, whatever the batch.
        let block = n.clamp(1, ROW_BLOCK);
        let mut a = vec![0.0f32; block * self.widest];
        let mut b = vec![0.0f32; block * self.widest];
        let last = self.layers.len() - 1;
        for start in (0..n).step_by(block) {
            let rows = block.min(n - start);
            a[..rows * INPUTS]
                .copy_from_slice(&observations[start * INPUTS..(start + rows) * INPUTS]);
            for (k, l) in self.layers.iter().enumerate() {
                l.forward(
                    rows,
                    &a[..rows * l.inputs],
                    &mut b[..rows * l.outputs],
                    k != last,
                );
                std::mem::swap(&mut a, &mut b);
            }
            for r in 0..rows {
                let out = &a[r * OUTPUTS..(r + 1) * OUTPUTS];
                logits[(start + r) * 6..(start + r + 1) * 6].copy_from_slice(&out[..6]);
                values[start + r] = out[6].tanh();
            }
        }
    }

    /// A network of the given hidden widths, weights drawn uniformly in
    /// ±1/√inputs by `seed` (for tests and as an untrained baseline).
    pub fn random(rules: &str, hidden: &[usize], seed: u64) -> Network {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut widths = vec![INPUTS];
        widths.extend(hidden.iter().map(|&w| w.clamp(1, MAX_WIDTH)));
        widths.push(OUTPUTS);
        let layers = widths
            .windows(2)
            .map(|w| {
                let bound = 1.0 / (w[0] as f32).sqrt();
                Dense {
                    inputs: w[0],
                    outputs: w[1],
                    weights: (0..w[0] * w[1])
                        .map(|_| rng.random_range(-bound..bound))
                        .collect(),
                    biases: vec![0.0; w[1]],
                }
            })
            .collect();
        let widest = widths.iter().copied().max().unwrap_or(INPUTS);
        Network {
            rules: rules.to_owned(),
            layers,
            widest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_as_written() {
        let net = Network::random("oware", &[16, 8], 3);
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.rules(), "oware");
        assert_eq!(back.parameters(), 14 * 16 + 16 + 16 * 8 + 8 + 8 * 7 + 7);
        let obs = [4.0f32; INPUTS];
        let (logits, value) = back.evaluate(&obs);
        assert!(logits.iter().all(|x| x.is_finite()));
        assert!((-1.0..=1.0).contains(&value));
    }

    #[test]
    fn one_layer_computes_an_affine_map() {
        let mut net = Network::random("x", &[], 0);
        net.layers[0].weights.iter_mut().for_each(|w| *w = 0.0);
        net.layers[0].weights[0] = 2.0; // logit 0 = 2 * feature 0
        net.layers[0].biases = vec![0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let mut obs = [0.0f32; INPUTS];
        obs[0] = 3.0;
        let (logits, value) = net.evaluate(&obs);
        assert_eq!(logits[0], 6.5);
        assert_eq!(value, 0.0);
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = Network::random("oware", &[8], 1).to_bytes();
        // Every truncation, and every single flipped byte, is an error.
        for n in 0..bytes.len() {
            assert!(
                Network::from_bytes(&bytes[..n]).is_err(),
                "truncated to {n}"
            );
        }
        for k in 0..bytes.len() {
            let mut b = bytes.clone();
            b[k] ^= 0x5a;
            assert!(Network::from_bytes(&b).is_err(), "byte {k} flipped");
        }
    }

    #[test]
    fn hostile_sizes_are_refused_before_allocating() {
        // A well-formed checksum over a header claiming huge layers.
        let mut body = MAGIC.to_vec();
        body.extend(0u32.to_le_bytes());
        body.extend(1u32.to_le_bytes());
        body.extend((INPUTS as u32).to_le_bytes());
        body.extend(u32::MAX.to_le_bytes());
        let sum = fnv1a(&body);
        body.extend(sum.to_le_bytes());
        let e = Network::from_bytes(&body).unwrap_err();
        assert!(e.to_string().contains("outputs"), "{e}");
    }
}
