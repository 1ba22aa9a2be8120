//! Building, loading and verifying the databases.
//!
//! ## The method
//! Layer `n` holds every board with `n` seeds, South to move. For a board `p`
//! the value is `V(p) = max over children c of gain(c) − V(c)`, where `gain`
//! is what the move captured for the mover minus what it gave the opponent
//! and `V(c)` is read from the child's layer (its seeds, its mover turned
//! South). A board with no legal move is scored by the stuck-seeds rule.
//! Captures lead to lower layers, already final; non-capturing moves stay in
//! layer `n`, whose boards form a graph with cycles.
//!
//! Inside the layer two pairs of bounds are iterated to their fixpoint,
//! from `−n` and `+n`:
//!
//! * **The convention's pair** `clo`, `chi`, with the lower layers read at
//!   their stored values: `clo(p) = max(fixed(p), max_c −chi(c))` and
//!   `chi(p) = max(fixed(p), max_c −clo(c))`, `fixed(p)` the best capturing
//!   move (or the stuck value). Where they agree that is the stored value;
//!   where they differ the board is scored by the convention "each player
//!   takes the seeds on their own side" (the mover's row minus the
//!   opponent's), clamped to `[clo, chi]`, and counted as *cycle-scored*.
//! * **The absolute pair** `lo`, `hi`, with the lower layers read at their
//!   bounds: a capture into child `c` is worth `gain − hi(c)` to `lo` and
//!   `gain − lo(c)` to `hi`. `lo` is what the mover can force by play that
//!   ends (endless play, in this layer or any below, counted as the worst for
//!   the mover), `hi` what the opponent can hold the mover to (endless play
//!   counted as the mover's best). Every scoring of endless play gives a
//!   value in `[lo, hi]`, the convention's included (`lo ≤ clo ≤ chi ≤ hi`).
//!
//! All four are monotone, so Gauss–Seidel order, and the threads' concurrent
//! updates, reach the same fixpoint as plain Jacobi passes; a pass in which
//! nothing changes ends it. A board is *open* when `lo < hi`: its value
//! depends on how endless play is scored. Open boards are flagged (bit 7 of
//! the value byte) and their `lo`, `hi` kept (see [`crate::db`]); a closed
//! board's value is exact whatever endless play is worth.
//!
//! Every value that is not cycle-scored satisfies the max equation exactly
//! against the stored values of its children, and `lo`, `hi` satisfy theirs
//! against the children's bounds; [`Database::verify`] re-checks both for
//! every board.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use ayo_core::kernel::{self, Kernel, Loop};
use ayo_core::{each_children, Position, Rules, PITS};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::db::{
    encode, encode_bounds, try_copy, try_filled, try_reserve, try_vec, DbError, Layer,
};
use crate::frame::{check_dir, layer_file};
use crate::index::{layer_size, rank, BoardWalker, MAX_LAYER_SEEDS};
use crate::{child_view, own_side_split, seeds, solve_rules, south_position, stuck_value};

/// Boards handled together by one task.
const CHUNK: usize = 1 << 16;

/// What building (or loading) one layer took and found.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerReport {
    /// Seeds on the board.
    pub n: usize,
    /// Boards in the layer.
    pub positions: u64,
    /// The layer was read from an existing file, not built.
    pub reused: bool,
    /// Boards with no legal move.
    pub stuck: u64,
    /// Moves that capture nothing (edges inside the layer).
    pub inner_edges: u64,
    /// Passes of the fixpoint iteration (the last one changes nothing).
    pub passes: u32,
    /// Boards whose value depends on play that never ends inside this layer
    /// (scored by the convention).
    pub cycle_scored: u64,
    /// Boards whose value depends on how endless play is scored, in this
    /// layer or below (`lo < hi`; includes the cycle-scored ones).
    pub convention_dependent: u64,
    /// Wall-clock seconds for the whole layer.
    pub seconds: f64,
    /// Seconds spent generating moves (the first pass).
    pub generate_seconds: f64,
    /// Bytes held by the layer's move graph and bounds while building.
    pub work_bytes: u64,
}

/// What [`Database::verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Boards checked.
    pub checked: u64,
    /// Boards checked exactly against the max over their children.
    pub exact: u64,
    /// Cycle-scored boards checked against their bounds.
    pub cycle_scored: u64,
    /// Boards whose bounds differ (`lo < hi`), each checked against its children's.
    pub convention_dependent: u64,
    /// Boards that failed (the first few are in `failures`).
    pub failed: u64,
    /// `(layer, rank, stored, expected)` of the first failures.
    pub failures: Vec<(usize, u64, i32, String)>,
}

impl VerifyReport {
    /// Whether every board passed.
    pub fn ok(&self) -> bool {
        self.failed == 0
    }
}

/// Every layer `0..=max` of one rule set, in memory.
#[derive(Clone, Debug)]
pub struct Database {
    rules: Rules,
    key: String,
    layers: Vec<Layer>,
}

/// The move graph of one chunk of a layer (boards that have a non-capturing move).
struct ChunkGraph {
    start: u64,
    /// Local index of each board with inner edges.
    idx: Vec<u32>,
    /// Best capturing move's value for each system ([`Bounds`]), `i8::MIN` when none.
    fixed: Vec<[i8; 3]>,
    /// Edge offsets, `idx.len() + 1` of them.
    offs: Vec<u32>,
    /// Ranks of the children inside the layer.
    edges: Vec<u32>,
    /// Entries whose bounds still differ (in either system).
    active: Vec<u32>,
}

/// The two pairs of bounds iterated in a layer, one byte a board each.
///
/// * `clo`/`chi`: the convention's system, lower layers read at their stored
///   values (which fixes the convention's value of every board).
/// * `lo`/`hi`: the absolute bounds, lower layers read at their bounds (`lo`
///   of a board uses `hi` of its children and the other way round), so they
///   hold under every scoring of endless play anywhere below.
struct Bounds {
    clo: Vec<AtomicI8>,
    chi: Vec<AtomicI8>,
    lo: Vec<AtomicI8>,
    hi: Vec<AtomicI8>,
}

impl Bounds {
    fn set(&self, r: usize, [c, l, h]: [i8; 3]) {
        self.clo[r].store(c, Relaxed);
        self.chi[r].store(c, Relaxed);
        self.lo[r].store(l, Relaxed);
        self.hi[r].store(h, Relaxed);
    }
}

/// One bound's update: the max over the fixed option and the children's
/// negated opposite bounds, never moving back (`keep` merges with the old).
#[inline(always)]
fn raise(bound: &AtomicI8, new: i8, keep: fn(i8, i8) -> i8, changes: &mut u64) -> i8 {
    let old = bound.load(Relaxed);
    let new = keep(new, old);
    if new != old {
        bound.store(new, Relaxed);
        *changes += 1;
    }
    new
}

impl ChunkGraph {
    fn bytes(&self) -> u64 {
        (self.idx.capacity() * 4
            + self.fixed.capacity() * 3
            + self.offs.capacity() * 4
            + self.edges.capacity() * 4
            + self.active.capacity() * 4) as u64
    }
}

/// One Gauss–Seidel sweep over a chunk's active entries, for [`Kernel::run`];
/// returns the changes.
struct Relax<'a> {
    graph: &'a mut ChunkGraph,
    bounds: &'a Bounds,
}

impl Loop for Relax<'_> {
    type Output = u64;
    #[inline(always)]
    fn run(self) -> u64 {
        let (g, b) = (self.graph, self.bounds);
        let mut changes = 0u64;
        let (idx, fixed, offs, edges, start) = (&g.idx, &g.fixed, &g.offs, &g.edges, g.start);
        // A retain written out: `Vec::retain`'s loop would be compiled out
        // of line, for the baseline.
        let mut kept = 0;
        for i in 0..g.active.len() {
            let e = g.active[i] as usize;
            let r = start as usize + idx[e] as usize;
            let [fc, fl, fh] = fixed[e];
            let (mut nclo, mut nchi, mut nlo, mut nhi) = (fc, fc, fl, fh);
            for &c in &edges[offs[e] as usize..offs[e + 1] as usize] {
                let c = c as usize;
                nclo = nclo.max(-b.chi[c].load(Relaxed));
                nchi = nchi.max(-b.clo[c].load(Relaxed));
                nlo = nlo.max(-b.hi[c].load(Relaxed));
                nhi = nhi.max(-b.lo[c].load(Relaxed));
            }
            let clo = raise(&b.clo[r], nclo, i8::max, &mut changes);
            let chi = raise(&b.chi[r], nchi, i8::min, &mut changes);
            let lo = raise(&b.lo[r], nlo, i8::max, &mut changes);
            let hi = raise(&b.hi[r], nhi, i8::min, &mut changes);
            if clo < chi || lo < hi {
                g.active[kept] = e as u32;
                kept += 1;
            }
        }
        g.active.truncate(kept);
        changes
    }
}

/// `len` boards of a layer in rank order from a starting rank, as the
/// positions `make` makes of them: what [`each_children`] expands in a
/// database build. `next` is always inlined, so the walk is compiled into
/// each kernel's copy of the loop (an iterator adapter's stays out of line).
pub(crate) struct LayerPositions<F> {
    walker: BoardWalker,
    left: usize,
    make: F,
}

impl<F: Fn(&[u8; PITS]) -> Position> LayerPositions<F> {
    /// The boards of layer `n` from rank `start`, `len` of them.
    pub(crate) fn new(n: usize, start: u64, len: usize, make: F) -> Self {
        LayerPositions {
            walker: BoardWalker::new(n, start),
            left: len,
            make,
        }
    }
}

impl<F: Fn(&[u8; PITS]) -> Position> Iterator for LayerPositions<F> {
    type Item = Position;
    #[inline(always)]
    fn next(&mut self) -> Option<Position> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let pos = (self.make)(self.walker.board());
        self.walker.advance();
        Some(pos)
    }
}

fn bar(len: u64, quiet: bool, prefix: String) -> ProgressBar {
    let pb = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
    };
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix:>9} [{bar:30}] {pos}/{len} {per_sec} {elapsed_precise} {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    pb.set_prefix(prefix);
    pb
}

/// `len` items made by `make`, filled on every thread, in a vector allocated
/// fallibly ([`try_vec`]).
fn try_par_filled<T: Send>(
    len: usize,
    make: impl Fn() -> T + Sync + Send,
    what: &str,
) -> Result<Vec<T>, DbError> {
    let mut v = try_vec(len, what)?;
    // An indexed iterator into a vector with room for it: no reallocation.
    v.par_extend((0..len).into_par_iter().map(|_| make()));
    Ok(v)
}

/// The number of boards of layer `n` as a `usize`, or
/// [`DbError::OutOfMemory`] when it cannot even be addressed.
fn layer_len(n: usize) -> Result<usize, DbError> {
    let size = layer_size(n);
    usize::try_from(size).map_err(|_| DbError::OutOfMemory {
        bytes: size,
        what: format!("the values of layer {n}"),
    })
}

/// Builds layer `n` from the finished `lower` layers (`lower[k]` = layer `k`, all `k < n`),
/// on the active kernel ([`kernel::active`]).
///
/// Every large allocation (the bounds, the move graph, the values) is
/// fallible: when memory runs out the layer is dropped and
/// [`DbError::OutOfMemory`] says how much was asked for and what for.
pub fn build_layer(
    rules: &Rules,
    lower: &[Layer],
    n: usize,
    quiet: bool,
) -> Result<(Layer, LayerReport), DbError> {
    build_layer_on(kernel::active(), rules, lower, n, quiet)
}

/// [`build_layer`] with its move generation and fixpoint sweeps compiled
/// for `kernel` (every kernel builds the same layer).
pub fn build_layer_on(
    kernel: Kernel,
    rules: &Rules,
    lower: &[Layer],
    n: usize,
    quiet: bool,
) -> Result<(Layer, LayerReport), DbError> {
    assert_eq!(lower.len(), n, "layers 0..n must be built first");
    let t0 = Instant::now();
    let size = layer_size(n);
    let len_total = layer_len(n)?;
    let ni = n as i8;
    let bounds_array = |start: i8, what: &str| {
        try_par_filled(
            len_total,
            || AtomicI8::new(start),
            &format!("the {what} of layer {n}"),
        )
    };
    let bounds = Bounds {
        clo: bounds_array(-ni, "lower bounds")?,
        chi: bounds_array(ni, "upper bounds")?,
        lo: bounds_array(-ni, "absolute lower bounds")?,
        hi: bounds_array(ni, "absolute upper bounds")?,
    };
    let pb = bar(size, quiet, format!("layer {n}"));
    let stuck = AtomicU64::new(0);
    let nchunks = size.div_ceil(CHUNK as u64);
    let graph_what = format!("the move graph of layer {n} ({size} boards)");
    let graphs: Result<Vec<ChunkGraph>, DbError> = (0..nchunks)
        .into_par_iter()
        .map(|ci| {
            let start = ci * CHUNK as u64;
            let len = (size - start).min(CHUNK as u64) as usize;
            // Scratch room for the most a chunk can need (at most one move
            // per pit of the mover's row), copied to exact sizes at the end.
            let what = graph_what.as_str();
            let mut idx: Vec<u32> = try_vec(len, what)?;
            let mut fixed_of: Vec<[i8; 3]> = try_vec(len, what)?;
            let mut offs: Vec<u32> = try_vec(len + 1, what)?;
            let mut edges: Vec<u32> = try_vec(len * (PITS / 2), what)?;
            offs.push(0);
            let boards = LayerPositions::new(n, start, len, south_position);
            let mut nstuck = 0u64;
            let mut local = 0usize;
            // The whole sweep compiled for the kernel: the closure is
            // inlined into each of its copies.
            each_children(
                kernel,
                rules,
                boards,
                #[inline(always)]
                |pos, children| {
                    let here = local;
                    local += 1;
                    let r = start as usize + here;
                    if children.is_empty() {
                        let v = stuck_value(rules, &pos.board()) as i8;
                        bounds.set(r, [v; 3]);
                        nstuck += 1;
                        return;
                    }
                    // The best capture for the convention, for `lo` and for `hi`.
                    let mut fixed = [i8::MIN; 3];
                    let before = edges.len();
                    for (_, child) in children {
                        let (gain, nb) = child_view(child);
                        let k = seeds(&nb);
                        if k == n {
                            edges.push(rank(&nb) as u32);
                        } else {
                            let (v, lo, hi) = lower[k].entry(rank(&nb));
                            let gain = gain as i8;
                            fixed[0] = fixed[0].max(gain - v);
                            fixed[1] = fixed[1].max(gain - hi);
                            fixed[2] = fixed[2].max(gain - lo);
                        }
                    }
                    if edges.len() == before {
                        bounds.clo[r].store(fixed[0], Relaxed);
                        bounds.chi[r].store(fixed[0], Relaxed);
                        bounds.lo[r].store(fixed[1], Relaxed);
                        bounds.hi[r].store(fixed[2], Relaxed);
                    } else {
                        if fixed[0] > -ni {
                            bounds.clo[r].store(fixed[0], Relaxed);
                        }
                        if fixed[1] > -ni {
                            bounds.lo[r].store(fixed[1], Relaxed);
                        }
                        idx.push(here as u32);
                        fixed_of.push(fixed);
                        offs.push(edges.len() as u32);
                    }
                },
            );
            let g = ChunkGraph {
                start,
                active: {
                    let mut a = try_vec(idx.len(), what)?;
                    a.extend(0..idx.len() as u32);
                    a
                },
                idx: try_copy(&idx, what)?,
                fixed: try_copy(&fixed_of, what)?,
                offs: try_copy(&offs, what)?,
                edges: try_copy(&edges, what)?,
            };
            stuck.fetch_add(nstuck, Relaxed);
            pb.inc(len as u64);
            Ok(g)
        })
        .collect();
    let mut graphs = match graphs {
        Ok(g) => g,
        Err(e) => {
            pb.finish_and_clear();
            return Err(e);
        }
    };
    let generate_seconds = t0.elapsed().as_secs_f64();
    let inner_edges: u64 = graphs.iter().map(|g| g.edges.len() as u64).sum();
    let work_bytes = graphs.iter().map(ChunkGraph::bytes).sum::<u64>() + 4 * size;
    let mut passes = 0u32;
    loop {
        passes += 1;
        let changes: u64 = graphs
            .par_iter_mut()
            .map(|graph| {
                kernel.run(Relax {
                    graph,
                    bounds: &bounds,
                })
            })
            .sum();
        let active: u64 = graphs.iter().map(|g| g.active.len() as u64).sum();
        pb.set_message(format!("pass {passes}: {changes} changes, {active} open"));
        if changes == 0 {
            break;
        }
    }
    drop(graphs);
    let mut bytes = match try_filled(len_total, 0u8, &format!("the values of layer {n}")) {
        Ok(b) => b,
        Err(e) => {
            pb.finish_and_clear();
            return Err(e);
        }
    };
    let cycle = AtomicU64::new(0);
    let opens: Result<Vec<Vec<[u8; 2]>>, DbError> = bytes
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(ci, out)| {
            let start = ci * CHUNK;
            let mut walker = BoardWalker::new(n, start as u64);
            let mut flagged = 0u64;
            let mut open = Vec::new();
            for (i, b) in out.iter_mut().enumerate() {
                let r = start + i;
                let (cl, ch) = (bounds.clo[r].load(Relaxed), bounds.chi[r].load(Relaxed));
                let (l, h) = (bounds.lo[r].load(Relaxed), bounds.hi[r].load(Relaxed));
                // The convention's bounds lie within the absolute ones.
                debug_assert!(l <= cl && ch <= h, "layer {n} rank {r}");
                let value = if cl == ch {
                    cl
                } else {
                    flagged += 1;
                    own_side_split(walker.board()).clamp(i32::from(cl), i32::from(ch)) as i8
                };
                *b = encode(value, l < h);
                if l < h {
                    try_reserve(&mut open, 1, &format!("the bounds of layer {n}"))?;
                    open.push(encode_bounds(l, h, cl < ch));
                }
                walker.advance();
            }
            cycle.fetch_add(flagged, Relaxed);
            Ok(open)
        })
        .collect();
    drop(bounds);
    pb.finish_and_clear();
    let parts = opens?;
    let total: usize = parts.iter().map(Vec::len).sum();
    let mut open_bounds = try_vec(total, &format!("the bounds of layer {n}"))?;
    for p in parts {
        open_bounds.extend_from_slice(&p);
    }
    let convention_dependent = open_bounds.len() as u64;
    let report = LayerReport {
        n,
        positions: size,
        reused: false,
        stuck: stuck.into_inner(),
        inner_edges,
        passes,
        cycle_scored: cycle.into_inner(),
        convention_dependent,
        seconds: t0.elapsed().as_secs_f64(),
        generate_seconds,
        work_bytes,
    };
    let layer =
        Layer::try_from_parts(n, bytes, open_bounds)?.expect("one bound pair per open board");
    Ok((layer, report))
}

/// The largest `max_seeds` of [`Database::build`] and [`Database::open`]
/// (in practice time and memory set a lower one: layer 24 alone holds
/// 417,225,900 boards).
pub const MAX_DATABASE_SEEDS: usize = 40;
const _: () = assert!(MAX_DATABASE_SEEDS <= MAX_LAYER_SEEDS);

/// The one check of a `max_seeds` argument, made before anything is sized
/// by it: 0 to `most`, else [`DbError::LayerTooLarge`].
pub fn check_max_seeds(max_seeds: usize, most: usize) -> Result<(), DbError> {
    if max_seeds > most {
        return Err(DbError::LayerTooLarge {
            n: max_seeds,
            max: most,
        });
    }
    Ok(())
}

/// A progress line on standard error, best effort: a full device or a
/// closed pipe must not stop a build (`eprintln!` would panic).
pub(crate) fn progress_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// One layer of either kind, as the build loop both kinds share
/// ([`build_layers`]) handles it.
pub(crate) trait BuiltLayer: Sized {
    /// What building (or reusing) it took and found.
    type Report;
    /// What a file must match besides the rules record and the layer (the
    /// counted layers' move limit).
    type Shape: Copy;
    /// The file of layer `n` for the rules whose record is `key`, in `dir`.
    fn file(dir: &Path, key: &str, n: usize) -> PathBuf;
    /// The layer of `n` seeds read from `path`, and its report as reused
    /// (`t0`: when the read began).
    fn reuse(
        path: &Path,
        key: &str,
        n: usize,
        shape: Self::Shape,
        t0: Instant,
    ) -> Result<(Self, Self::Report), DbError>;
    /// Writes the layer to `path`.
    fn write(&self, path: &Path, key: &str) -> Result<(), DbError>;
    /// One line describing its report.
    fn line(report: &Self::Report) -> String;
}

/// Where the build loop keeps each layer as it comes.
pub(crate) trait HoldsLayers<L> {
    /// Keeps layer `n`.
    fn keep(&mut self, n: usize, layer: L);
}

impl HoldsLayers<Layer> for Vec<Layer> {
    fn keep(&mut self, _: usize, layer: Layer) {
        self.push(layer);
    }
}

/// Creates the folder a build writes to (after [`check_dir`]).
pub(crate) fn prepare_dir(dir: Option<&Path>) -> Result<(), DbError> {
    if let Some(d) = dir {
        check_dir(d)?;
        std::fs::create_dir_all(d).map_err(|source| DbError::Io {
            path: d.to_owned(),
            source,
        })?;
    }
    Ok(())
}

/// The build loop of both kinds: for each layer `n` of `ns`, in order, the
/// finished file in `dir` reused when it is there (and of `shape`), else
/// the layer built from what `held` holds so far (`make`) and written to
/// `dir`; each layer goes into `held` before the next. A file that exists
/// but does not check out is refused with its error, never overwritten.
/// `quiet` hides the line of each layer built.
pub(crate) fn build_layers<L: BuiltLayer, S: HoldsLayers<L>>(
    dir: Option<&Path>,
    key: &str,
    shape: L::Shape,
    ns: impl IntoIterator<Item = usize>,
    quiet: bool,
    held: &mut S,
    mut make: impl FnMut(&S, usize) -> Result<(L, L::Report), DbError>,
) -> Result<Vec<L::Report>, DbError> {
    prepare_dir(dir)?;
    let mut reports = Vec::new();
    for n in ns {
        let path = dir.map(|d| L::file(d, key, n));
        if let Some(p) = &path {
            match L::reuse(p, key, n, shape, Instant::now()) {
                Ok((layer, report)) => {
                    reports.push(report);
                    held.keep(n, layer);
                    continue;
                }
                Err(DbError::Missing { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let (layer, report) = make(held, n)?;
        if let Some(p) = &path {
            layer.write(p, key)?;
        }
        if !quiet {
            progress_line(&L::line(&report));
        }
        reports.push(report);
        held.keep(n, layer);
    }
    Ok(reports)
}

impl BuiltLayer for Layer {
    type Report = LayerReport;
    type Shape = ();

    fn file(dir: &Path, key: &str, n: usize) -> PathBuf {
        layer_path(dir, key, n)
    }

    fn reuse(
        path: &Path,
        key: &str,
        n: usize,
        (): (),
        t0: Instant,
    ) -> Result<(Layer, LayerReport), DbError> {
        let layer = Layer::load(path, key, n)?;
        let report = LayerReport {
            n,
            positions: layer.len() as u64,
            reused: true,
            stuck: 0,
            inner_edges: 0,
            passes: 0,
            cycle_scored: layer.cycle_count() as u64,
            convention_dependent: layer.open_count() as u64,
            seconds: t0.elapsed().as_secs_f64(),
            generate_seconds: 0.0,
            work_bytes: 0,
        };
        Ok((layer, report))
    }

    fn write(&self, path: &Path, key: &str) -> Result<(), DbError> {
        self.save(path, key)
    }

    fn line(report: &LayerReport) -> String {
        report_line(report)
    }
}

/// The file of layer `n` for the rules whose record is `key`, in `dir`.
pub fn layer_path(dir: &Path, key: &str, n: usize) -> PathBuf {
    layer_file(dir, key, n, "ayodb")
}

impl Database {
    /// Builds (or, with `dir`, reuses the finished files of) every layer
    /// `0..=max_seeds` of `rules`, writing each new layer to `dir`. A file
    /// that exists but does not check out is refused with its error, never
    /// overwritten or read as wrong values. `quiet` hides the progress bars.
    /// The hot loops run on the active kernel ([`kernel::active`]).
    pub fn build(
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(Database, Vec<LayerReport>), DbError> {
        Database::build_on(kernel::active(), rules, max_seeds, dir, quiet)
    }

    /// [`Database::build`] on `kernel` (every kernel builds the same files).
    pub fn build_on(
        kernel: Kernel,
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(Database, Vec<LayerReport>), DbError> {
        let rules = solve_rules(rules)?;
        check_max_seeds(max_seeds, MAX_DATABASE_SEEDS)?;
        let key = rules.to_string();
        let mut layers: Vec<Layer> = Vec::with_capacity(max_seeds + 1);
        let reports = build_layers(
            dir,
            &key,
            (),
            0..=max_seeds,
            quiet,
            &mut layers,
            |below: &Vec<Layer>, n| build_layer_on(kernel, &rules, below, n, quiet),
        )?;
        Ok((Database { rules, key, layers }, reports))
    }

    /// Loads the finished layers `0..=max_seeds` of `rules` from `dir`
    /// (`max_seeds` at most [`MAX_DATABASE_SEEDS`], else
    /// [`DbError::LayerTooLarge`] before any file is looked at).
    pub fn open(rules: &Rules, max_seeds: usize, dir: &Path) -> Result<Database, DbError> {
        let rules = solve_rules(rules)?;
        check_max_seeds(max_seeds, MAX_DATABASE_SEEDS)?;
        check_dir(dir)?;
        let key = rules.to_string();
        let layers = (0..=max_seeds)
            .map(|n| Layer::load(&layer_path(dir, &key, n), &key, n))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Database { rules, key, layers })
    }

    /// Loads every finished layer `0, 1, …` of `rules` found in `dir`. The
    /// layers must be consecutive: a missing layer below the highest file
    /// found is [`DbError::LayerGap`] (naming the missing file and the
    /// layers found), never a smaller database; [`Database::open`] with a
    /// largest layer below the gap reads the layers under it.
    pub fn open_all(rules: &Rules, dir: &Path) -> Result<Database, DbError> {
        check_dir(dir)?;
        let rules = solve_rules(rules)?;
        let key = rules.to_string();
        let mut layers = Vec::new();
        loop {
            let n = layers.len();
            match Layer::load(&layer_path(dir, &key, n), &key, n) {
                Ok(l) => layers.push(l),
                Err(DbError::Missing { path, .. }) => {
                    let found = layers_found(dir, &key);
                    if n == 0 && found.is_empty() {
                        return Err(DbError::Missing { path, n: 0 });
                    }
                    if found.iter().any(|&k| k > n) {
                        return Err(DbError::LayerGap {
                            path,
                            n,
                            found: ranges(&found),
                        });
                    }
                    break;
                }
                Err(e) => return Err(e),
            }
            if layers.len() > MAX_DATABASE_SEEDS {
                break;
            }
        }
        Ok(Database { rules, key, layers })
    }

    /// A database from layers already in memory (`layers[n]` holding `n` seeds),
    /// for instance to check them with [`Database::verify`].
    pub fn from_layers(rules: &Rules, layers: Vec<Layer>) -> Result<Database, DbError> {
        let rules = solve_rules(rules)?;
        if let Some((n, l)) = layers.iter().enumerate().find(|(n, l)| l.seeds() != *n) {
            return Err(DbError::LayerMismatch {
                path: PathBuf::from("<memory>"),
                found: l.seeds() as u64,
                expected: n,
            });
        }
        if layers.is_empty() {
            return Err(DbError::Missing {
                path: PathBuf::from("<memory>"),
                n: 0,
            });
        }
        let key = rules.to_string();
        Ok(Database { rules, key, layers })
    }

    /// The rules the values are for (the given rules without a target).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules record written in every file.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The largest seed count held.
    pub fn max_seeds(&self) -> usize {
        self.layers.len() - 1
    }

    /// The layers, `layers()[n]` holding `n` seeds.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The value of `board` with South to move, if its layer is held.
    #[inline]
    pub fn board_value(&self, board: &[u8; PITS]) -> Option<i32> {
        let layer = self.layers.get(seeds(board))?;
        Some(i32::from(layer.value(rank(board))))
    }

    /// The convention's value of `board` (South to move) and whether it
    /// depends on how endless play is scored (its bounds differ, through
    /// play in its layer or below), if its layer is held.
    #[inline]
    pub fn board_entry(&self, board: &[u8; PITS]) -> Option<(i32, bool)> {
        let layer = self.layers.get(seeds(board))?;
        let (v, lo, hi) = layer.entry(rank(board));
        Some((i32::from(v), lo < hi))
    }

    /// `(lo, hi)` of `board` (South to move), if its layer is held: what the
    /// mover can force by play that ends, endless play counted as their
    /// worst, and what the opponent can hold them to, endless play counted as
    /// the mover's best, through every lower layer. Every scoring of endless
    /// play gives a value in `lo..=hi`; `lo == hi` is exact whatever it is.
    #[inline]
    pub fn board_bounds(&self, board: &[u8; PITS]) -> Option<(i32, i32)> {
        let layer = self.layers.get(seeds(board))?;
        let (lo, hi) = layer.bounds(rank(board));
        Some((i32::from(lo), i32::from(hi)))
    }

    /// [`Database::board_bounds`] of `pos` for its player to move (the
    /// stores do not count), if its layer is held.
    ///
    /// ```
    /// use ayo_core::{record, Rules};
    /// use ayo_solve::Database;
    /// let rules: Rules = "ayoayo[capturing_seed_taken=false]".parse()?;
    /// let db = Database::build(&rules, 5, None, true)?.0;
    /// let (_, pos) = record::parse_position(
    ///     "ayoayo[capturing_seed_taken=false] 1,0,0,1,0,0/0,1,0,1,0,1 22-21 s 0 0",
    /// )?;
    /// // +1 by the convention, but anything from -1 to +3 depending on how
    /// // endless play (below, in layer 4) is scored.
    /// assert_eq!(db.board_value(&pos.normalized().board()), Some(1));
    /// assert_eq!(db.bounds(&pos), Some((-1, 3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bounds(&self, pos: &Position) -> Option<(i32, i32)> {
        self.board_bounds(&pos.normalized().board())
    }

    /// Re-checks every stored value and bound against its successors:
    /// `lo` and `hi` must equal the max over the children of the gain minus
    /// the child's `hi` and `lo`, and hold the value between them; unflagged
    /// (not cycle-scored) values must equal the max over their children
    /// exactly; cycle-scored values must be at least every child value that
    /// does not depend on endless play inside the layer, and have a
    /// cycle-scored child in their layer (else they could not be open).
    pub fn verify(&self, quiet: bool) -> VerifyReport {
        self.verify_from(0, quiet)
    }

    /// [`Database::verify`] of the layers `from..=max` only (the lower
    /// layers are read as they are, to check the higher ones against).
    pub fn verify_from(&self, from: usize, quiet: bool) -> VerifyReport {
        let mut report = VerifyReport::default();
        for layer in self.layers.iter().skip(from) {
            let r = self.verify_layer(layer, quiet);
            report.checked += r.checked;
            report.exact += r.exact;
            report.cycle_scored += r.cycle_scored;
            report.convention_dependent += r.convention_dependent;
            report.failed += r.failed;
            report.failures.extend(r.failures.into_iter().take(10));
        }
        report.failures.truncate(10);
        report
    }

    fn verify_layer(&self, layer: &Layer, quiet: bool) -> VerifyReport {
        let n = layer.seeds();
        let size = layer.len();
        let pb = bar(size as u64, quiet, format!("verify {n}"));
        let rules = &self.rules;
        let report = (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|ci| {
                let start = ci * CHUNK;
                let end = (start + CHUNK).min(size);
                let mut rep = VerifyReport::default();
                let mut walker = BoardWalker::new(n, start as u64);
                for r in start..end {
                    let board = *walker.board();
                    walker.advance();
                    let (stored, lo, hi) = layer.entry(r as u64);
                    let (stored, lo, hi) = (i32::from(stored), i32::from(lo), i32::from(hi));
                    let flagged = layer.cycle(r as u64);
                    let children = south_position(&board).children(rules);
                    let mut best = i32::MIN;
                    let mut best_lo = i32::MIN;
                    let mut best_hi = i32::MIN;
                    let mut best_settled = i32::MIN;
                    let mut open_child = false;
                    if children.is_empty() {
                        best = stuck_value(rules, &board);
                        (best_lo, best_hi, best_settled) = (best, best, best);
                    }
                    for (_, child) in &children {
                        let (gain, nb) = child_view(child);
                        let l = &self.layers[seeds(&nb)];
                        let cr = rank(&nb);
                        let (cv, clo, chi) = l.entry(cr);
                        let v = gain - i32::from(cv);
                        best = best.max(v);
                        best_lo = best_lo.max(gain - i32::from(chi));
                        best_hi = best_hi.max(gain - i32::from(clo));
                        if seeds(&nb) < n || !l.cycle(cr) {
                            best_settled = best_settled.max(v);
                        } else {
                            open_child = true;
                        }
                    }
                    rep.checked += 1;
                    rep.convention_dependent += u64::from(lo < hi);
                    let bounds_ok = lo == best_lo
                        && hi == best_hi
                        && lo <= stored
                        && stored <= hi
                        && (lo < hi) == layer.open(r as u64);
                    let value_ok = if flagged {
                        rep.cycle_scored += 1;
                        open_child && stored >= best_settled && stored >= -(n as i32)
                    } else {
                        rep.exact += 1;
                        stored == best
                    };
                    if !(value_ok && bounds_ok) {
                        rep.failed += 1;
                        if rep.failures.len() < 10 {
                            let expected = if value_ok {
                                format!(
                                    "bounds [{best_lo}, {best_hi}] around it (stored [{lo}, {hi}])"
                                )
                            } else if flagged {
                                format!(">= {best_settled} with an open child")
                            } else {
                                best.to_string()
                            };
                            rep.failures.push((n, r as u64, stored, expected));
                        }
                    }
                }
                pb.inc((end - start) as u64);
                rep
            })
            .reduce(VerifyReport::default, |mut a, b| {
                a.checked += b.checked;
                a.exact += b.exact;
                a.cycle_scored += b.cycle_scored;
                a.convention_dependent += b.convention_dependent;
                a.failed += b.failed;
                a.failures.extend(b.failures);
                a.failures.truncate(10);
                a
            });
        pb.finish_and_clear();
        report
    }
}

/// The layers `0..=40` of the rules whose record is `key` that have a file in `dir`.
fn layers_found(dir: &Path, key: &str) -> Vec<usize> {
    (0..=MAX_DATABASE_SEEDS)
        .filter(|&n| layer_path(dir, key, n).is_file())
        .collect()
}

/// `[0, 1, 2, 4, 6, 7]` as `0..=2, 4, 6..=7` (`none` when empty).
fn ranges(layers: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < layers.len() {
        let mut j = i;
        while j + 1 < layers.len() && layers[j + 1] == layers[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            layers[i].to_string()
        } else {
            format!("{}..={}", layers[i], layers[j])
        });
        i = j + 1;
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

/// One line describing a layer report.
pub fn report_line(r: &LayerReport) -> String {
    if r.reused {
        format!(
            "layer {:2}: {:>11} positions, reused from file ({:.2} s), {} scored by the cycle convention, {} convention-dependent",
            r.n, r.positions, r.seconds, r.cycle_scored, r.convention_dependent
        )
    } else {
        format!(
            "layer {:2}: {:>11} positions, {:>11} inner moves, {:>9} stuck, {:3} passes, {:>9} scored by the cycle convention, {:>9} convention-dependent, {:8.2} s (moves {:.2} s), {:.0} MiB work",
            r.n,
            r.positions,
            r.inner_edges,
            r.stuck,
            r.passes,
            r.cycle_scored,
            r.convention_dependent,
            r.seconds,
            r.generate_seconds,
            r.work_bytes as f64 / (1 << 20) as f64
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory.
    struct TempDir(PathBuf);
    impl TempDir {
        fn new(name: &str) -> TempDir {
            let p = std::env::temp_dir().join(format!("ayo-solve-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            TempDir(p)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_missing_middle_layer_is_an_error_unless_below_max_seeds() {
        let dir = TempDir::new("gap");
        let rules = Rules::preset("ayoayo").unwrap();
        let (db, _) = Database::build(&rules, 6, Some(&dir.0), true).unwrap();
        let gone = layer_path(&dir.0, db.key(), 3);
        std::fs::remove_file(&gone).unwrap();
        let e = Database::open_all(&rules, &dir.0).unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(&e, DbError::LayerGap { path, n: 3, found } if *path == gone && found == "0..=2, 4..=6"),
            "{e:?}"
        );
        assert!(text.contains(&gone.display().to_string()), "{text}");
        assert!(text.contains("layers found: 0..=2, 4..=6"), "{text}");
        assert_eq!(Database::open(&rules, 2, &dir.0).unwrap().max_seeds(), 2);
        assert!(matches!(
            Database::open(&rules, 4, &dir.0),
            Err(DbError::Missing { n: 3, .. })
        ));
        // Layer 0 gone with others there is a gap too, not "no database".
        std::fs::remove_file(layer_path(&dir.0, db.key(), 0)).unwrap();
        assert!(matches!(
            Database::open_all(&rules, &dir.0),
            Err(DbError::LayerGap { n: 0, .. })
        ));
        // The top layers gone: the database stops below them, as before.
        for n in 0..=6 {
            let _ = std::fs::remove_file(layer_path(&dir.0, db.key(), n));
        }
        Database::build(&rules, 4, Some(&dir.0), true).unwrap();
        assert_eq!(Database::open_all(&rules, &dir.0).unwrap().max_seeds(), 4);
    }

    #[test]
    fn ranges_of_layers() {
        assert_eq!(ranges(&[]), "none");
        assert_eq!(ranges(&[0, 1, 2, 4, 6, 7]), "0..=2, 4, 6..=7");
        assert_eq!(ranges(&[5]), "5");
    }

    #[test]
    fn allocation_failures_are_errors() {
        let e = try_par_filled(usize::MAX / 2, || AtomicI8::new(0), "the bounds").unwrap_err();
        assert!(
            matches!(&e, DbError::OutOfMemory { bytes, what } if *bytes == (usize::MAX / 2) as u64 && what == "the bounds"),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(
            text.starts_with("out of memory: could not allocate "),
            "{text}"
        );
        assert!(text.ends_with(" MiB) for the bounds"), "{text}");
        assert!(crate::db::try_filled(usize::MAX, 0u8, "x").is_err());
        assert_eq!(try_par_filled(5, || 7u8, "x").unwrap(), vec![7; 5]);
    }
}
