//! Databases for rules with a move limit (`olopon`, `ayo`): values of
//! (board, no-capture count).
//!
//! Under a move limit a position's value depends on its board and on how
//! many moves in a row have been played without a capture. Play never
//! cycles: a move that captures nothing raises the count by one (and the
//! game ends when it reaches the limit), a capture lowers the seeds on the
//! board. So the values follow by plain backward induction, with no
//! convention for endless play and no fixpoint: layer `n` (every board of `n`
//! seeds, South to move) is computed from count `limit` down to 0, each count
//! from the next one up and from the finished lower layers at count 0.
//!
//! The rules are the core's throughout: moves and their results come from
//! [`Position::children`] (a child's own no-capture count says whether the
//! move captured: 0 after a capture, the parent's count plus one otherwise),
//! and the end of the game from [`Position::outcome`] (the move limit, then
//! no legal move, with the core's final scores). Under `collect_four` every
//! capture takes a multiple of 4 seeds, so a database for `n` seeds needs
//! only the layers `n − 4k` ([`CountedDatabase::layers_needed`]).
//!
//! The value is the mover's future captures minus the opponent's (the target
//! is removed, as for the board-only databases: see `docs/solving.md`), and
//! it is exact: no play in these rules can go on for ever.
//!
//! ## Files
//! One file per layer, `<rules>.nNN.ayocnt` (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `AYOCOUNT` |
//! | 4 | format version ([`COUNTED_FORMAT_VERSION`]) |
//! | 4 + len | rules record (UTF-8, length first), e.g. `olopon[target=none]` |
//! | 4 | seeds on the board (the layer `n`) |
//! | 4 | the move limit `L` |
//! | 8 | boards in the layer, `C(n + 11, 11)` |
//! | 4 | CRC-32 of the values |
//! | 4 | CRC-32 of every header byte before it |
//! | (L + 1) × boards | one signed byte per (count, board): count 0's boards in rank order, then count 1's, … |
//!
//! Anything that does not match is refused with a [`DbError`], as for the
//! board-only files; files are written through a temporary file and renamed.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use ayo_core::kernel::{self, Kernel, Loop};
use ayo_core::{each_children, Capture, Outcome, Position, Repetition, RuleParams, Rules, PITS};
use rayon::prelude::*;

use crate::build::{build_layers, check_max_seeds, BuiltLayer, HoldsLayers, LayerPositions};
use crate::error::{try_copy, try_filled, try_vec, DbError};
use crate::frame::{check_dir, layer_file, HeaderReader, HeaderWriter};
use crate::index::{layer_size, rank, BoardWalker, MAX_LAYER_SEEDS};
use crate::{child_view, counted_position, seeds};

/// The first bytes of every counted layer file.
pub const COUNTED_MAGIC: [u8; 8] = *b"AYOCOUNT";
/// The layout version written and accepted.
pub const COUNTED_FORMAT_VERSION: u32 = 1;

/// Boards handled together by one task.
const CHUNK: usize = 1 << 15;

/// The rules a counted database is built for: `rules` without a target.
/// Needs a move limit and no repetition rule.
///
/// ```
/// use ayo_core::Rules;
/// use ayo_solve::counted::counted_rules;
/// assert_eq!(counted_rules(&Rules::preset("olopon")?)?.move_limit(), Some(40));
/// assert!(counted_rules(&Rules::preset("ayoayo")?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn counted_rules(rules: &Rules) -> Result<Rules, DbError> {
    if rules.move_limit().is_none() {
        return Err(DbError::UnsupportedRules {
            why: "counted databases are for rules with a move limit".into(),
        });
    }
    if rules.repetition() != Repetition::Off {
        return Err(DbError::UnsupportedRules {
            why: "a repetition rule makes values depend on the game's history".into(),
        });
    }
    let params = RuleParams {
        target: None,
        ..rules.params()
    };
    Rules::new(params).map_err(|e| DbError::UnsupportedRules { why: e.to_string() })
}

/// South's final score minus North's in `o`.
#[inline]
pub(crate) fn margin(o: &Outcome) -> i32 {
    i32::from(o.scores[0]) - i32::from(o.scores[1])
}

/// The values of every board of `n` seeds at every count `0..=limit`.
#[derive(Clone, PartialEq, Eq)]
pub struct CountedLayer {
    n: usize,
    limit: u16,
    boards: usize,
    /// Two's complement bytes, count by count.
    values: Vec<u8>,
}

impl std::fmt::Debug for CountedLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountedLayer")
            .field("n", &self.n)
            .field("limit", &self.limit)
            .field("boards", &self.boards)
            .finish()
    }
}

impl CountedLayer {
    /// The seed count of this layer.
    pub fn seeds(&self) -> usize {
        self.n
    }

    /// Boards in the layer.
    pub fn boards(&self) -> usize {
        self.boards
    }

    /// The value of the board with rank `r` (South to move) after `count`
    /// capture-less moves (`count <= limit`).
    #[inline]
    pub fn value(&self, r: u64, count: u16) -> i8 {
        self.values[usize::from(count) * self.boards + r as usize] as i8
    }

    /// The values as two's complement bytes, count by count.
    pub fn bytes(&self) -> &[u8] {
        &self.values
    }

    /// Writes the layer to `path` (through a temporary file renamed into place).
    pub fn save(&self, path: &Path, rules_record: &str) -> Result<(), DbError> {
        HeaderWriter::new(&COUNTED_MAGIC, COUNTED_FORMAT_VERSION, rules_record)
            .u32(self.n as u32)
            .u32(u32::from(self.limit))
            .u64(self.boards as u64)
            .u32(crc32fast::hash(&self.values))
            .write(path, &[&self.values])
    }

    /// Reads and checks the layer of `n` seeds for `rules_record` and the
    /// move limit `limit` from `path`.
    pub fn load(
        path: &Path,
        rules_record: &str,
        n: usize,
        limit: u16,
    ) -> Result<CountedLayer, DbError> {
        let mut f = HeaderReader::open(path, n, &COUNTED_MAGIC, COUNTED_FORMAT_VERSION)?;
        let layer = u64::from(f.u32()?);
        let file_limit = f.u32()?;
        let count = f.u64()?;
        let dcrc = f.u32()?;
        // The rules record names the move limit, so a file of another limit
        // is refused as other rules.
        let rules_match = f.rules() == rules_record && file_limit == u32::from(limit);
        let body = f.end_header(rules_match, rules_record, layer, n, count)?;
        let want = count.saturating_mul(u64::from(limit) + 1);
        if body != want {
            return Err(f.wrong_length(body, want));
        }
        let what = format!("counted layer {n}");
        let len = usize::try_from(want).map_err(|_| DbError::OutOfMemory {
            bytes: want,
            what: what.clone(),
        })?;
        let values: Vec<u8> = f.body(len, dcrc, &what)?;
        Ok(CountedLayer {
            n,
            limit,
            boards: count as usize,
            values,
        })
    }
}

impl BuiltLayer for CountedLayer {
    type Report = CountedReport;
    /// The move limit.
    type Shape = u16;

    fn file(dir: &Path, key: &str, n: usize) -> PathBuf {
        counted_layer_path(dir, key, n)
    }

    fn reuse(
        path: &Path,
        key: &str,
        n: usize,
        limit: u16,
        t0: Instant,
    ) -> Result<(CountedLayer, CountedReport), DbError> {
        let layer = CountedLayer::load(path, key, n, limit)?;
        let report = CountedReport {
            n,
            boards: layer.boards as u64,
            values: layer.values.len() as u64,
            reused: true,
            stuck: 0,
            inner_edges: 0,
            seconds: t0.elapsed().as_secs_f64(),
            generate_seconds: 0.0,
            work_bytes: 0,
        };
        Ok((layer, report))
    }

    fn write(&self, path: &Path, key: &str) -> Result<(), DbError> {
        self.save(path, key)
    }

    fn line(report: &CountedReport) -> String {
        counted_report_line(report)
    }
}

impl HoldsLayers<CountedLayer> for CountedDatabase {
    fn keep(&mut self, n: usize, layer: CountedLayer) {
        self.layers[n] = Some(layer);
    }
}

/// What building (or loading) one counted layer took and found.
#[derive(Clone, Debug, PartialEq)]
pub struct CountedReport {
    /// Seeds on the board.
    pub n: usize,
    /// Boards in the layer.
    pub boards: u64,
    /// Values held: boards × (limit + 1).
    pub values: u64,
    /// The layer was read from an existing file, not built.
    pub reused: bool,
    /// Boards with no legal move.
    pub stuck: u64,
    /// Moves that capture nothing (edges to the next count).
    pub inner_edges: u64,
    /// Wall-clock seconds for the whole layer.
    pub seconds: f64,
    /// Seconds spent generating moves.
    pub generate_seconds: f64,
    /// Bytes held by the layer's move graph while building (its values are `values` bytes).
    pub work_bytes: u64,
}

/// One line describing a counted layer report.
pub fn counted_report_line(r: &CountedReport) -> String {
    if r.reused {
        format!(
            "layer {:2}: {:>11} boards, {:>12} values, reused from file ({:.2} s)",
            r.n, r.boards, r.values, r.seconds
        )
    } else {
        format!(
            "layer {:2}: {:>11} boards, {:>12} values, {:>11} inner moves, {:>8} stuck, {:8.2} s (moves {:.2} s), {:.0} MiB graph + {:.0} MiB values",
            r.n,
            r.boards,
            r.values,
            r.inner_edges,
            r.stuck,
            r.seconds,
            r.generate_seconds,
            r.work_bytes as f64 / (1 << 20) as f64,
            r.values as f64 / (1 << 20) as f64
        )
    }
}

/// The move graph of one chunk of a layer.
struct ChunkGraph {
    /// Best capturing move's value, or the stuck value (`i8::MIN`: neither).
    fixed: Vec<i8>,
    /// Edge offsets, one more than the boards.
    offs: Vec<u32>,
    /// Ranks of the non-capturing children (same layer, next count).
    edges: Vec<u32>,
    /// The value at the move limit (the core's outcome there).
    at_limit: Vec<i8>,
}

/// One chunk of one count's values from the next count's, for [`Kernel::run`].
struct CountStep<'a> {
    out: &'a mut [u8],
    graph: &'a ChunkGraph,
    next: &'a [u8],
}

impl Loop for CountStep<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let g = self.graph;
        for (i, v) in self.out.iter_mut().enumerate() {
            let mut best = g.fixed[i];
            for &e in &g.edges[g.offs[i] as usize..g.offs[i + 1] as usize] {
                best = best.max(-(self.next[e as usize] as i8));
            }
            *v = best as u8;
        }
    }
}

/// Counted databases of one rule set: layers of (board, count) values.
#[derive(Clone, Debug)]
pub struct CountedDatabase {
    rules: Rules,
    key: String,
    limit: u16,
    /// `layers[n]`, where built.
    layers: Vec<Option<CountedLayer>>,
}

/// The largest `max_seeds` of counted databases (every seed of the start).
pub const MAX_COUNTED_SEEDS: usize = 48;
const _: () = assert!(MAX_COUNTED_SEEDS <= MAX_LAYER_SEEDS);

/// The file of counted layer `n` for the rules whose record is `key`, in `dir`.
pub fn counted_layer_path(dir: &Path, key: &str, n: usize) -> PathBuf {
    layer_file(dir, key, n, "ayocnt")
}

impl CountedDatabase {
    /// The layers a database for `max_seeds` needs: every layer a capture
    /// can lead to. Under `collect_four` the seeds fall by 4s, so only
    /// `max_seeds − 4k`; otherwise `0..=max_seeds`.
    pub fn layers_needed(rules: &Rules, max_seeds: usize) -> Vec<usize> {
        if rules.capture() == Capture::CollectFour {
            (0..=max_seeds).filter(|n| n % 4 == max_seeds % 4).collect()
        } else {
            (0..=max_seeds).collect()
        }
    }

    /// Builds (or, with `dir`, reuses the finished files of) the layers
    /// [`CountedDatabase::layers_needed`] for `max_seeds`, writing each new
    /// layer to `dir`. `quiet` hides the per-layer lines. The hot loops run
    /// on the active kernel ([`kernel::active`]).
    pub fn build(
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(CountedDatabase, Vec<CountedReport>), DbError> {
        CountedDatabase::build_on(kernel::active(), rules, max_seeds, dir, quiet)
    }

    /// [`CountedDatabase::build`] on `kernel` (every kernel builds the same files).
    pub fn build_on(
        kernel: Kernel,
        rules: &Rules,
        max_seeds: usize,
        dir: Option<&Path>,
        quiet: bool,
    ) -> Result<(CountedDatabase, Vec<CountedReport>), DbError> {
        let rules = counted_rules(rules)?;
        check_max_seeds(max_seeds, MAX_COUNTED_SEEDS)?;
        let limit = rules.move_limit().expect("counted rules have a limit");
        let key = rules.to_string();
        let mut db = CountedDatabase {
            rules,
            key: key.clone(),
            limit,
            layers: vec![None; max_seeds + 1],
        };
        let reports = build_layers(
            dir,
            &key,
            limit,
            Self::layers_needed(&rules, max_seeds),
            quiet,
            &mut db,
            |db: &CountedDatabase, n| db.build_layer(kernel, n),
        )?;
        Ok((db, reports))
    }

    /// Loads the layers [`CountedDatabase::layers_needed`] for `max_seeds`
    /// of `rules` from `dir` (`max_seeds` at most [`MAX_COUNTED_SEEDS`],
    /// else [`DbError::LayerTooLarge`] before anything is sized by it).
    pub fn open(rules: &Rules, max_seeds: usize, dir: &Path) -> Result<CountedDatabase, DbError> {
        let rules = counted_rules(rules)?;
        check_max_seeds(max_seeds, MAX_COUNTED_SEEDS)?;
        check_dir(dir)?;
        let limit = rules.move_limit().expect("counted rules have a limit");
        let key = rules.to_string();
        let mut layers = vec![None; max_seeds + 1];
        for n in Self::layers_needed(&rules, max_seeds) {
            layers[n] = Some(CountedLayer::load(
                &counted_layer_path(dir, &key, n),
                &key,
                n,
                limit,
            )?);
        }
        Ok(CountedDatabase {
            rules,
            key,
            limit,
            layers,
        })
    }

    /// Loads the counted databases of `rules` in `dir` for the largest seed
    /// count that has a layer file there ([`CountedDatabase::open`] of it);
    /// [`DbError::Missing`] (layer 0) when there is none.
    pub fn open_all(rules: &Rules, dir: &Path) -> Result<CountedDatabase, DbError> {
        check_dir(dir)?;
        let key = counted_rules(rules)?.to_string();
        let top = (0..=MAX_COUNTED_SEEDS)
            .rev()
            .find(|&n| counted_layer_path(dir, &key, n).is_file())
            .ok_or_else(|| DbError::Missing {
                path: counted_layer_path(dir, &key, 0),
                n: 0,
            })?;
        Self::open(rules, top, dir)
    }

    /// The value of a capture's result: board `nb` (its mover South) at count 0.
    fn lower_value(&self, nb: &[u8; PITS], n: usize) -> Result<i32, DbError> {
        let k = seeds(nb);
        match self.layers.get(k).and_then(Option::as_ref) {
            Some(l) if k < n => Ok(i32::from(l.value(rank(nb), 0))),
            _ => Err(DbError::Missing {
                path: PathBuf::from("<memory>"),
                n: k,
            }),
        }
    }

    fn build_layer(
        &self,
        kernel: Kernel,
        n: usize,
    ) -> Result<(CountedLayer, CountedReport), DbError> {
        let t0 = Instant::now();
        let rules = &self.rules;
        let limit = self.limit;
        let size = layer_size(n);
        let boards = usize::try_from(size).map_err(|_| DbError::OutOfMemory {
            bytes: size,
            what: format!("the values of counted layer {n}"),
        })?;
        let stuck = AtomicU64::new(0);
        let what = format!("the move graph of counted layer {n}");
        let graphs: Vec<ChunkGraph> = (0..boards.div_ceil(CHUNK))
            .into_par_iter()
            .map(|ci| {
                let start = ci * CHUNK;
                let len = (boards - start).min(CHUNK);
                let mut fixed: Vec<i8> = try_vec(len, &what)?;
                let mut at_limit: Vec<i8> = try_vec(len, &what)?;
                let mut offs: Vec<u32> = try_vec(len + 1, &what)?;
                let mut edges: Vec<u32> = try_vec(len * (PITS / 2), &what)?;
                offs.push(0);
                let boards = LayerPositions::new(
                    n,
                    start as u64,
                    len,
                    #[inline(always)]
                    |board: &[u8; PITS]| counted_position(board, 0),
                );
                let mut nstuck = 0;
                let mut missing = None;
                each_children(
                    kernel,
                    rules,
                    boards,
                    #[inline(always)]
                    |pos, children| {
                        // The core's end at the limit (the move limit comes
                        // before every other end but the target, which is off).
                        let end = counted_position(&pos.board(), limit)
                            .outcome(rules)
                            .expect("the move limit ends the game");
                        at_limit.push(margin(&end) as i8);
                        let mut best = i32::from(i8::MIN);
                        if children.is_empty() {
                            let o = pos.outcome(rules).expect("no legal move ends the game");
                            best = margin(&o);
                            nstuck += 1;
                        }
                        for (_, child) in children {
                            let (gain, nb) = child_view(child);
                            if child.no_capture() == 0 {
                                match self.lower_value(&nb, n) {
                                    Ok(v) => best = best.max(gain - v),
                                    Err(e) => {
                                        missing.get_or_insert(e);
                                    }
                                }
                            } else {
                                debug_assert_eq!((gain, child.no_capture()), (0, 1));
                                edges.push(rank(&nb) as u32);
                            }
                        }
                        fixed.push(best as i8);
                        offs.push(edges.len() as u32);
                    },
                );
                if let Some(e) = missing {
                    return Err(e);
                }
                stuck.fetch_add(nstuck, Relaxed);
                Ok(ChunkGraph {
                    fixed,
                    at_limit,
                    offs,
                    edges: try_copy(&edges, &what)?,
                })
            })
            .collect::<Result<_, DbError>>()?;
        let generate_seconds = t0.elapsed().as_secs_f64();
        let inner_edges: u64 = graphs.iter().map(|g| g.edges.len() as u64).sum();
        let work_bytes: u64 = graphs
            .iter()
            .map(|g| {
                (g.fixed.len() + g.at_limit.len() + 4 * g.offs.len() + 4 * g.edges.len()) as u64
            })
            .sum();
        let total = boards * (usize::from(limit) + 1);
        let mut values: Vec<u8> =
            try_filled(total, 0u8, &format!("the values of counted layer {n}"))?;
        // Count `limit`: the game is over.
        {
            let top = &mut values[usize::from(limit) * boards..];
            top.par_chunks_mut(CHUNK)
                .zip(graphs.par_iter())
                .for_each(|(out, g)| {
                    for (o, &v) in out.iter_mut().zip(&g.at_limit) {
                        *o = v as u8;
                    }
                });
        }
        // Counts limit − 1 down to 0, each from the one above.
        for c in (0..usize::from(limit)).rev() {
            let (below, above) = values.split_at_mut((c + 1) * boards);
            let next = &above[..boards];
            let here = &mut below[c * boards..];
            here.par_chunks_mut(CHUNK)
                .zip(graphs.par_iter())
                .for_each(|(out, graph)| kernel.run(CountStep { out, graph, next }));
        }
        let report = CountedReport {
            n,
            boards: size,
            values: total as u64,
            reused: false,
            stuck: stuck.into_inner(),
            inner_edges,
            seconds: t0.elapsed().as_secs_f64(),
            generate_seconds,
            work_bytes,
        };
        Ok((
            CountedLayer {
                n,
                limit,
                boards,
                values,
            },
            report,
        ))
    }

    /// Re-checks every stored value (every layer held, every count) against
    /// the core: at the limit the outcome there, below it the best of the
    /// legal moves, each valued by what it captures and the stored value of
    /// its result at the result's own count. Returns the values checked and
    /// those that failed (0 for sound databases).
    pub fn verify(&self) -> (u64, u64) {
        self.verify_from(0)
    }

    /// [`CountedDatabase::verify`] of the layers of `from` seeds or more
    /// only (the lower layers are read as they are, to check them against).
    pub fn verify_from(&self, from: usize) -> (u64, u64) {
        let rules = &self.rules;
        let mut checked = 0;
        let mut failed = 0;
        for layer in self.layers.iter().flatten().filter(|l| l.n >= from) {
            let n = layer.n;
            let (c, f) = (0..layer.boards.div_ceil(CHUNK))
                .into_par_iter()
                .map(|ci| {
                    let start = ci * CHUNK;
                    let end = (start + CHUNK).min(layer.boards);
                    let mut walker = BoardWalker::new(n, start as u64);
                    let (mut checked, mut failed) = (0u64, 0u64);
                    for r in start..end {
                        let board = *walker.board();
                        walker.advance();
                        for count in 0..=self.limit {
                            let pos = counted_position(&board, count);
                            let children = if count < self.limit {
                                pos.children(rules)
                            } else {
                                Default::default()
                            };
                            let want = if children.is_empty() {
                                pos.outcome(rules).map(|o| margin(&o))
                            } else {
                                children
                                    .iter()
                                    .map(|(_, child)| {
                                        let (gain, nb) = child_view(child);
                                        self.board_value(&nb, child.no_capture()).map(|v| gain - v)
                                    })
                                    .collect::<Option<Vec<i32>>>()
                                    .and_then(|v| v.into_iter().max())
                            };
                            checked += 1;
                            if want != Some(i32::from(layer.value(r as u64, count))) {
                                failed += 1;
                            }
                        }
                    }
                    (checked, failed)
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            checked += c;
            failed += f;
        }
        (checked, failed)
    }

    /// The rules the values are for (the given rules without a target).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules record written in every file.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The move limit.
    pub fn limit(&self) -> u16 {
        self.limit
    }

    /// The largest seed count held.
    pub fn max_seeds(&self) -> usize {
        self.layers.len() - 1
    }

    /// The layers held, `layers()[n]` holding `n` seeds where built.
    pub fn layers(&self) -> &[Option<CountedLayer>] {
        &self.layers
    }

    /// The value of `board` with South to move after `count` capture-less
    /// moves, if its layer is held (a count beyond the limit is the limit's:
    /// the game is over either way).
    #[inline]
    pub fn board_value(&self, board: &[u8; PITS], count: u16) -> Option<i32> {
        let layer = self.layers.get(seeds(board))?.as_ref()?;
        Some(i32::from(layer.value(rank(board), count.min(self.limit))))
    }

    /// The value of `pos` (either side to move, any stores) for its mover:
    /// future captures minus the opponent's, if its layer is held.
    pub fn value(&self, pos: &Position) -> Option<i32> {
        self.board_value(&pos.normalized().board(), pos.no_capture())
    }
}
