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
//! | 8 | number of open positions (bounds `lo < hi`) |
//! | 4 | CRC-32 of the values |
//! | 4 | CRC-32 of the bounds |
//! | 4 | CRC-32 of every header byte before it |
//! | count | one byte per position, in rank order (see [`crate::index`]) |
//! | 2 × open | the bounds of each open position, in rank order |
//!
//! Each value byte holds the convention's value in its low 7 bits (two's
//! complement, the mover's future captures minus the opponent's) and, in
//! bit 7, whether the position is *open*: its bounds under every scoring of
//! endless play differ (`lo < hi`, see `docs/solving.md`). A closed position
//! has `lo = hi =` its value, so only the open ones carry bounds: two bytes,
//! `lo` (bit 7: the value was scored by the cycle convention inside its
//! layer) and `hi`. Anything that does not match — magic, version, rules,
//! layer, counts, length or a checksum — is refused with a [`DbError`]; a
//! file is never read as wrong values.

use std::path::Path;

pub use crate::error::{try_copy, try_filled, try_reserve, try_vec, DbError};
use crate::frame::{HeaderReader, HeaderWriter};
use crate::index::layer_size;

/// The first bytes of every layer file.
pub const MAGIC: [u8; 8] = *b"AYOSOLV\x1a";
/// The layout version written and accepted.
pub const FORMAT_VERSION: u32 = 2;

/// The values of every board with `n` seeds, side to move normalised to
/// South, and the bounds of the open ones.
#[derive(Clone, PartialEq, Eq)]
pub struct Layer {
    n: usize,
    bytes: Vec<u8>,
    /// Ranks of the open boards (bit 7 of their byte set), ascending.
    open_ranks: Vec<u64>,
    /// Their bounds: `encode(lo, cycle)`, `encode(hi, false)`.
    open_bounds: Vec<[u8; 2]>,
}

impl std::fmt::Debug for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layer")
            .field("n", &self.n)
            .field("len", &self.bytes.len())
            .field("open", &self.open_ranks.len())
            .finish()
    }
}

/// Packs a value (−63..=63) and a flag into one byte.
#[inline]
pub const fn encode(value: i8, flag: bool) -> u8 {
    (value as u8 & 0x7F) | ((flag as u8) << 7)
}

/// The value stored in a byte.
#[inline]
pub const fn decode_value(byte: u8) -> i8 {
    ((byte << 1) as i8) >> 1
}

/// The flag of a byte (bit 7): in a value byte, whether the board is open;
/// in a lower bound, whether the value was scored by the cycle convention.
#[inline]
pub const fn decode_flag(byte: u8) -> bool {
    byte & 0x80 != 0
}

/// The bounds of one open board as stored: `lo` and whether the value was
/// scored by the cycle convention, and `hi`.
#[inline]
pub const fn encode_bounds(lo: i8, hi: i8, cycle: bool) -> [u8; 2] {
    [encode(lo, cycle), encode(hi, false)]
}

impl Layer {
    /// A layer from its value bytes (one per rank) and the bounds of its open
    /// boards, in rank order ([`encode_bounds`]): `None` unless there are as
    /// many bounds as value bytes with bit 7 set and the sizes fit layer `n`.
    ///
    /// ```
    /// use ayo_solve::db::{encode, encode_bounds, Layer};
    /// let mut bytes = vec![encode(-1, false); 12];
    /// bytes[5] = encode(0, true);
    /// let layer = Layer::from_parts(1, bytes.clone(), vec![encode_bounds(-1, 1, false)]).unwrap();
    /// assert_eq!((layer.value(3), layer.bounds(3)), (-1, (-1, -1)));
    /// assert_eq!((layer.value(5), layer.bounds(5)), (0, (-1, 1)));
    /// assert!(Layer::from_parts(1, bytes, vec![]).is_none());
    /// assert!(Layer::from_parts(1, vec![0; 11], vec![]).is_none());
    /// ```
    pub fn from_parts(n: usize, bytes: Vec<u8>, open_bounds: Vec<[u8; 2]>) -> Option<Layer> {
        Layer::try_from_parts(n, bytes, open_bounds).ok().flatten()
    }

    /// [`Layer::from_parts`], with [`DbError::OutOfMemory`] when there is no
    /// room for the ranks of the open boards.
    pub(crate) fn try_from_parts(
        n: usize,
        bytes: Vec<u8>,
        open_bounds: Vec<[u8; 2]>,
    ) -> Result<Option<Layer>, DbError> {
        if bytes.len() as u64 != layer_size(n) {
            return Ok(None);
        }
        let Some(open_ranks) = open_ranks_of(&bytes, open_bounds.len(), n)? else {
            return Ok(None);
        };
        Ok(Some(Layer {
            n,
            bytes,
            open_ranks,
            open_bounds,
        }))
    }

    /// A layer with no open board from its value bytes (see [`Layer::from_parts`]).
    pub fn from_bytes(n: usize, bytes: Vec<u8>) -> Option<Layer> {
        Layer::from_parts(n, bytes, Vec::new())
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

    /// The convention's value of the board with rank `r`.
    #[inline]
    pub fn value(&self, r: u64) -> i8 {
        decode_value(self.bytes[r as usize])
    }

    /// Whether the board with rank `r` is open: its value depends on how
    /// endless play is scored, in this layer or below (`lo < hi`).
    #[inline]
    pub fn open(&self, r: u64) -> bool {
        decode_flag(self.bytes[r as usize])
    }

    /// The stored bounds of an open board.
    fn open_entry(&self, r: u64) -> [u8; 2] {
        let i = self
            .open_ranks
            .binary_search(&r)
            .expect("an open board has bounds");
        self.open_bounds[i]
    }

    /// Whether the board with rank `r` was scored by the cycle convention
    /// (open inside its own layer, lower layers as stored).
    #[inline]
    pub fn cycle(&self, r: u64) -> bool {
        self.open(r) && decode_flag(self.open_entry(r)[0])
    }

    /// `(lo, hi)` of the board with rank `r`: what the mover can force by
    /// play that ends (endless play counted as their worst), and what the
    /// opponent can hold them to (endless play counted as the mover's best),
    /// through every lower layer. Equal for a closed board.
    #[inline]
    pub fn bounds(&self, r: u64) -> (i8, i8) {
        let (_, lo, hi) = self.entry(r);
        (lo, hi)
    }

    /// `(value, lo, hi)` of the board with rank `r`.
    #[inline]
    pub fn entry(&self, r: u64) -> (i8, i8, i8) {
        let b = self.bytes[r as usize];
        let v = decode_value(b);
        if decode_flag(b) {
            let [lo, hi] = self.open_entry(r);
            (v, decode_value(lo), decode_value(hi))
        } else {
            (v, v, v)
        }
    }

    /// The number of open boards.
    pub fn open_count(&self) -> usize {
        self.open_ranks.len()
    }

    /// The number of boards scored by the cycle convention.
    pub fn cycle_count(&self) -> usize {
        self.open_bounds
            .iter()
            .filter(|b| decode_flag(b[0]))
            .count()
    }

    /// The encoded value bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The encoded bounds of the open boards, in rank order.
    pub fn open_bounds(&self) -> &[[u8; 2]] {
        &self.open_bounds
    }

    /// Writes the layer to `path` (through a temporary file renamed into place).
    pub fn save(&self, path: &Path, rules_record: &str) -> Result<(), DbError> {
        HeaderWriter::new(&MAGIC, FORMAT_VERSION, rules_record)
            .u32(self.n as u32)
            .u64(self.bytes.len() as u64)
            .u64(self.open_bounds.len() as u64)
            .u32(crc32fast::hash(&self.bytes))
            .u32(crc32fast::hash(self.open_bounds.as_flattened()))
            .write(path, &[&self.bytes, self.open_bounds.as_flattened()])
    }

    /// Reads and checks the layer of `n` seeds for `rules_record` from `path`.
    pub fn load(path: &Path, rules_record: &str, n: usize) -> Result<Layer, DbError> {
        let mut f = HeaderReader::open(path, n, &MAGIC, FORMAT_VERSION)?;
        let layer = u64::from(f.u32()?);
        let count = f.u64()?;
        let open = f.u64()?;
        let dcrc = f.u32()?;
        let bcrc = f.u32()?;
        let rules_match = f.rules() == rules_record;
        let body = f.end_header(rules_match, rules_record, layer, n, count)?;
        let expected_body = open
            .checked_mul(2)
            .and_then(|b| b.checked_add(count))
            .filter(|_| open <= count);
        if Some(body) != expected_body {
            return Err(f.wrong_length(body, expected_body.unwrap_or(u64::MAX)));
        }
        let len = usize::try_from(count).map_err(|_| DbError::OutOfMemory {
            bytes: count,
            what: format!("layer {n}"),
        })?;
        let bytes: Vec<u8> = f.body(len, dcrc, &format!("layer {n}"))?;
        let open_bounds: Vec<[u8; 2]> =
            f.body(open as usize, bcrc, &format!("the bounds of layer {n}"))?;
        let open_ranks =
            open_ranks_of(&bytes, open_bounds.len(), n)?.ok_or_else(|| f.damaged_data())?;
        Ok(Layer {
            n,
            bytes,
            open_ranks,
            open_bounds,
        })
    }
}

/// The ranks of the value bytes with bit 7 set: `None` unless they number
/// `expected`; [`DbError::OutOfMemory`] when there is no room for them.
fn open_ranks_of(bytes: &[u8], expected: usize, n: usize) -> Result<Option<Vec<u64>>, DbError> {
    let mut ranks = try_vec(
        expected,
        &format!("the ranks of the open boards of layer {n}"),
    )?;
    for (r, _) in bytes.iter().enumerate().filter(|(_, &b)| decode_flag(b)) {
        if ranks.len() == expected {
            return Ok(None);
        }
        ranks.push(r as u64);
    }
    Ok((ranks.len() == expected).then_some(ranks))
}
