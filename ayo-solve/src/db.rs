//! Layer files: one file per seed count, versioned and checksummed.
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `AYOSOLV\x1a` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 4 + len | rules record (UTF-8, length first), e.g. `ayoayo[target=none]` |
//! | 4 | seeds on the board (the layer `n`) |
//! | 8 | number of positions, `C(n + 11, 11)` |
//! | 4 | CRC-32 of the values |
//! | 4 | CRC-32 of every header byte before it |
//! | count | one byte per position, in rank order (see [`crate::index`]) |
//!
//! Each byte holds the value in its low 7 bits (two's complement, the mover's
//! future captures minus the opponent's) and, in bit 7, whether the value was
//! scored by the cycle convention (see `docs/solving.md`). Anything that does
//! not match — magic, version, rules, layer, count, length or either checksum
//! — is refused with a [`DbError`]; a file is never read as wrong values.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::index::layer_size;

/// The first bytes of every layer file.
pub const MAGIC: [u8; 8] = *b"AYOSOLV\x1a";
/// The layout version written and accepted.
pub const FORMAT_VERSION: u32 = 1;

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

/// The values of every board with `n` seeds, side to move normalised to South.
#[derive(Clone, PartialEq, Eq)]
pub struct Layer {
    n: usize,
    bytes: Vec<u8>,
}

impl std::fmt::Debug for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layer")
            .field("n", &self.n)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// Packs a value (−63..=63) and the cycle flag into one byte.
#[inline]
pub const fn encode(value: i8, cycle: bool) -> u8 {
    (value as u8 & 0x7F) | ((cycle as u8) << 7)
}

/// The value stored in a byte.
#[inline]
pub const fn decode_value(byte: u8) -> i8 {
    ((byte << 1) as i8) >> 1
}

/// Whether a byte's value was scored by the cycle convention.
#[inline]
pub const fn decode_cycle(byte: u8) -> bool {
    byte & 0x80 != 0
}

impl Layer {
    /// A layer from its encoded bytes (one per rank).
    ///
    /// ```
    /// use ayo_solve::db::{encode, Layer};
    /// let layer = Layer::from_bytes(1, vec![encode(-1, false); 12]).unwrap();
    /// assert_eq!(layer.value(3), -1);
    /// assert!(Layer::from_bytes(1, vec![0; 11]).is_none());
    /// ```
    pub fn from_bytes(n: usize, bytes: Vec<u8>) -> Option<Layer> {
        (bytes.len() as u64 == layer_size(n)).then_some(Layer { n, bytes })
    }

    /// The seed count of this layer.
    pub fn seeds(&self) -> usize {
        self.n
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the layer is empty (never: layer 0 holds the empty board).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The value of the board with rank `r`.
    #[inline]
    pub fn value(&self, r: u64) -> i8 {
        decode_value(self.bytes[r as usize])
    }

    /// Whether the board with rank `r` was scored by the cycle convention.
    #[inline]
    pub fn cycle(&self, r: u64) -> bool {
        decode_cycle(self.bytes[r as usize])
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Writes the layer to `path` (through a temporary file renamed into place).
    pub fn save(&self, path: &Path, rules_record: &str) -> Result<(), DbError> {
        let io = |source| DbError::Io {
            path: path.to_owned(),
            source,
        };
        let mut header = Vec::new();
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        header.extend_from_slice(&(rules_record.len() as u32).to_le_bytes());
        header.extend_from_slice(rules_record.as_bytes());
        header.extend_from_slice(&(self.n as u32).to_le_bytes());
        header.extend_from_slice(&(self.bytes.len() as u64).to_le_bytes());
        header.extend_from_slice(&crc32fast::hash(&self.bytes).to_le_bytes());
        let hcrc = crc32fast::hash(&header);
        header.extend_from_slice(&hcrc.to_le_bytes());
        let tmp = path.with_extension("partial");
        {
            let mut w = BufWriter::new(File::create(&tmp).map_err(io)?);
            w.write_all(&header).map_err(io)?;
            w.write_all(&self.bytes).map_err(io)?;
            w.into_inner()
                .map_err(|e| io(e.into_error()))?
                .sync_all()
                .map_err(io)?;
        }
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads and checks the layer of `n` seeds for `rules_record` from `path`.
    pub fn load(path: &Path, rules_record: &str, n: usize) -> Result<Layer, DbError> {
        let p = || path.to_owned();
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(DbError::Missing { path: p(), n })
            }
            Err(source) => return Err(DbError::Io { path: p(), source }),
        };
        let total = file
            .metadata()
            .map_err(|source| DbError::Io { path: p(), source })?
            .len();
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut header = Vec::new();
        let mut take = |len: usize, header: &mut Vec<u8>| -> Result<Vec<u8>, DbError> {
            let mut buf = vec![0u8; len];
            r.read_exact(&mut buf).map_err(|source| {
                if source.kind() == std::io::ErrorKind::UnexpectedEof {
                    DbError::TruncatedHeader { path: p() }
                } else {
                    DbError::Io { path: p(), source }
                }
            })?;
            header.extend_from_slice(&buf);
            Ok(buf)
        };
        let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
        if take(8, &mut header)? != MAGIC {
            return Err(DbError::BadMagic { path: p() });
        }
        let version = u32_of(&take(4, &mut header)?);
        if version != FORMAT_VERSION {
            return Err(DbError::Version {
                path: p(),
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let rlen = u32_of(&take(4, &mut header)?) as usize;
        if rlen > 4096 {
            return Err(DbError::HeaderChecksum { path: p() });
        }
        let rules_bytes = take(rlen, &mut header)?;
        let layer = u64::from(u32_of(&take(4, &mut header)?));
        let count = u64::from_le_bytes(take(8, &mut header)?.try_into().expect("8 bytes"));
        let dcrc = u32_of(&take(4, &mut header)?);
        let hcrc_expected = crc32fast::hash(&header);
        let hcrc = u32_of(&take(4, &mut header)?);
        if hcrc != hcrc_expected {
            return Err(DbError::HeaderChecksum { path: p() });
        }
        let found_rules = String::from_utf8_lossy(&rules_bytes).into_owned();
        if found_rules != rules_record {
            return Err(DbError::RulesMismatch {
                path: p(),
                found: found_rules,
                expected: rules_record.to_owned(),
            });
        }
        if layer != n as u64 {
            return Err(DbError::LayerMismatch {
                path: p(),
                found: layer,
                expected: n,
            });
        }
        let expected = layer_size(n);
        if count != expected {
            return Err(DbError::CountMismatch {
                path: p(),
                n,
                found: count,
                expected,
            });
        }
        let body = total - header.len() as u64;
        if body != count {
            return Err(DbError::Length {
                path: p(),
                found: body,
                expected: count,
            });
        }
        let len = usize::try_from(count).map_err(|_| DbError::OutOfMemory {
            bytes: count,
            what: format!("layer {n}"),
        })?;
        let mut bytes = try_filled(len, 0u8, &format!("layer {n}"))?;
        r.read_exact(&mut bytes)
            .map_err(|source| DbError::Io { path: p(), source })?;
        if crc32fast::hash(&bytes) != dcrc {
            return Err(DbError::DataChecksum { path: p() });
        }
        Ok(Layer { n, bytes })
    }
}
