//! Why the databases can fail ([`DbError`]), and the fallible allocations
//! through which running out of memory is one of those errors, not an abort.

use std::path::PathBuf;

/// Why a layer file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system error.
        source: std::io::Error,
    },
    /// The layer file does not exist.
    #[error("{path}: no database layer for {n} seeds (build it with `ayo-solve build`)")]
    Missing {
        /// The file that was looked for.
        path: PathBuf,
        /// The layer.
        n: usize,
    },
    /// Not a layer file at all.
    #[error("{path}: not an ayo-solve database file (bad magic)")]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// Written by another version of the format.
    #[error("{path}: format version {found}, this program reads version {expected}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this program reads.
        expected: u32,
    },
    /// Built for other rules.
    #[error("{path}: built for rules `{found}`, expected `{expected}`")]
    RulesMismatch {
        /// The file.
        path: PathBuf,
        /// The rules in the file.
        found: String,
        /// The rules asked for.
        expected: String,
    },
    /// Holds another layer.
    #[error("{path}: holds the layer of {found} seeds, expected {expected}")]
    LayerMismatch {
        /// The file.
        path: PathBuf,
        /// The layer in the file.
        found: u64,
        /// The layer asked for.
        expected: usize,
    },
    /// The position count does not match the layer.
    #[error("{path}: claims {found} positions, layer {n} has {expected}")]
    CountMismatch {
        /// The file.
        path: PathBuf,
        /// The layer.
        n: usize,
        /// The count in the file.
        found: u64,
        /// The layer's size.
        expected: u64,
    },
    /// The file is shorter or longer than its header says.
    #[error("{path}: {found} bytes of values, expected {expected} (truncated or padded)")]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes found after the header.
        found: u64,
        /// Bytes expected.
        expected: u64,
    },
    /// The file ends inside its header.
    #[error("{path}: the file ends inside its header (truncated or not a database)")]
    TruncatedHeader {
        /// The file.
        path: PathBuf,
    },
    /// The header is damaged.
    #[error("{path}: header checksum mismatch (damaged file)")]
    HeaderChecksum {
        /// The file.
        path: PathBuf,
    },
    /// The values are damaged.
    #[error("{path}: value checksum mismatch (damaged file)")]
    DataChecksum {
        /// The file.
        path: PathBuf,
    },
    /// The rules cannot be solved by layers.
    #[error("these rules cannot be solved by seed layers: {why}")]
    UnsupportedRules {
        /// The reason.
        why: String,
    },
    /// A layer beyond what this format holds.
    #[error("layer {n} is beyond the largest supported ({max})")]
    LayerTooLarge {
        /// The layer asked for.
        n: usize,
        /// The largest supported.
        max: usize,
    },
    /// A large allocation (a layer, its move graph, its bounds) failed:
    /// nothing was kept, files already finished stay as they are.
    #[error(
        "out of memory: could not allocate {bytes} bytes ({mib:.1} MiB) for {what}",
        mib = *.bytes as f64 / 1_048_576.0
    )]
    OutOfMemory {
        /// The bytes asked for.
        bytes: u64,
        /// What they were for, e.g. `the values of layer 20`.
        what: String,
    },
    /// A layer below the highest one found is missing: the layers found do
    /// not make a database of consecutive layers `0..=max`.
    #[error(
        "{path}: layer {n} is missing but higher layers are there (layers found: {found}); \
         rebuild the missing layer, or open with a largest layer below {n}"
    )]
    LayerGap {
        /// The missing layer file.
        path: PathBuf,
        /// The missing layer.
        n: usize,
        /// The layers found, as ranges (e.g. `0..=4, 6..=8`).
        found: String,
    },
}

/// Reserves room for exactly `additional` more items in `v`, or fails with
/// [`DbError::OutOfMemory`] naming `what` and the bytes asked for. Every
/// large allocation of the databases (layers, move graphs, bounds) goes
/// through here, so that running out of memory is an error, not an abort.
pub fn try_reserve<T>(v: &mut Vec<T>, additional: usize, what: &str) -> Result<(), DbError> {
    v.try_reserve_exact(additional)
        .map_err(|_| DbError::OutOfMemory {
            bytes: (additional as u64).saturating_mul(std::mem::size_of::<T>() as u64),
            what: what.to_owned(),
        })
}

/// An empty vector with room for exactly `len` items ([`try_reserve`]).
pub fn try_vec<T>(len: usize, what: &str) -> Result<Vec<T>, DbError> {
    let mut v = Vec::new();
    try_reserve(&mut v, len, what)?;
    Ok(v)
}

/// `len` copies of `value` ([`try_reserve`]).
pub fn try_filled<T: Clone>(len: usize, value: T, what: &str) -> Result<Vec<T>, DbError> {
    let mut v = try_vec(len, what)?;
    v.resize(len, value);
    Ok(v)
}

/// A copy of `items` in a vector of exactly their length ([`try_reserve`]).
pub fn try_copy<T: Clone>(items: &[T], what: &str) -> Result<Vec<T>, DbError> {
    let mut v = try_vec(items.len(), what)?;
    v.extend_from_slice(items);
    Ok(v)
}
