//! The frame both kinds of layer file share ([`crate::db`]'s board-only
//! layers and [`crate::counted`]'s counted layers): magic, format version,
//! rules record, the kind's own header fields, a CRC-32 of the header, then
//! the bodies. Written through a temporary file renamed into place, so a
//! layer file is whole or absent; read back with a typed [`DbError`] for
//! each thing that does not match, in the order the fields come.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::error::{try_filled, DbError};
use crate::index::layer_size;

/// The file of layer `n` for the rules whose record is `key`, in `dir`, with
/// the extension of its kind: the record with every character but ASCII
/// letters, digits and `-` turned into `_`, then `.nNN.<extension>`.
pub(crate) fn layer_file(dir: &Path, key: &str, n: usize, extension: &str) -> PathBuf {
    let name: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{name}.n{n:02}.{extension}"))
}

/// Longest rules record a header may hold (a longer length field means a
/// damaged header, not a huge record).
const MAX_RULES_RECORD: usize = 4096;

/// A header being written: magic, version and rules record first, then the
/// fields its kind adds.
pub(crate) struct HeaderWriter(Vec<u8>);

impl HeaderWriter {
    pub(crate) fn new(magic: &[u8; 8], version: u32, rules_record: &str) -> HeaderWriter {
        let mut h = Vec::with_capacity(64 + rules_record.len());
        h.extend_from_slice(magic);
        h.extend_from_slice(&version.to_le_bytes());
        h.extend_from_slice(&(rules_record.len() as u32).to_le_bytes());
        h.extend_from_slice(rules_record.as_bytes());
        HeaderWriter(h)
    }

    pub(crate) fn u32(mut self, v: u32) -> HeaderWriter {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub(crate) fn u64(mut self, v: u64) -> HeaderWriter {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Ends the header with its CRC and writes it and `bodies` to `path`
    /// through a temporary file that is synced, then renamed into place.
    pub(crate) fn write(mut self, path: &Path, bodies: &[&[u8]]) -> Result<(), DbError> {
        let io = |source| DbError::Io {
            path: path.to_owned(),
            source,
        };
        let hcrc = crc32fast::hash(&self.0);
        self.0.extend_from_slice(&hcrc.to_le_bytes());
        let tmp = path.with_extension("partial");
        let written = (|| {
            let mut w = BufWriter::new(File::create(&tmp)?);
            w.write_all(&self.0)?;
            for body in bodies {
                w.write_all(body)?;
            }
            w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        if written.is_err() {
            // A failed write leaves nothing behind (the error is the news).
            let _ = std::fs::remove_file(&tmp);
        }
        written.map_err(io)
    }
}

/// Refuses the empty folder name, which would put the layer files in the
/// current directory without anyone having named it.
pub(crate) fn check_dir(dir: &Path) -> Result<(), DbError> {
    if dir.as_os_str().is_empty() {
        return Err(DbError::Io {
            path: dir.to_owned(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the folder name is empty",
            ),
        });
    }
    Ok(())
}

/// Opens `path` for reading and refuses what is not a regular file (the
/// check before the open keeps a FIFO from blocking it; this one catches a
/// file swapped in between).
fn open_regular(path: &Path) -> std::io::Result<File> {
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// A layer file being read: the header field by field, then the bodies.
pub(crate) struct HeaderReader {
    path: PathBuf,
    r: BufReader<File>,
    header: Vec<u8>,
    total: u64,
    rules: String,
}

impl HeaderReader {
    /// Opens the file of layer `n` and reads its magic, version and rules
    /// record: [`DbError::Missing`], `Io`, `TruncatedHeader`, `BadMagic`,
    /// `Version` or `HeaderChecksum` (a record length past any real one).
    pub(crate) fn open(
        path: &Path,
        n: usize,
        magic: &[u8; 8],
        version: u32,
    ) -> Result<HeaderReader, DbError> {
        // Only a regular file is opened: a FIFO (or a device) named like a
        // layer file would block the open, and the reads, for ever.
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(DbError::Io {
                    path: path.to_owned(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        "not a regular file",
                    ),
                })
            }
            _ => {}
        }
        let file = match open_regular(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(DbError::Missing {
                    path: path.to_owned(),
                    n,
                })
            }
            Err(source) => {
                return Err(DbError::Io {
                    path: path.to_owned(),
                    source,
                })
            }
        };
        let total = file
            .metadata()
            .map_err(|source| DbError::Io {
                path: path.to_owned(),
                source,
            })?
            .len();
        let mut h = HeaderReader {
            path: path.to_owned(),
            r: BufReader::with_capacity(1 << 20, file),
            header: Vec::new(),
            total,
            rules: String::new(),
        };
        if h.take(8)? != magic {
            return Err(DbError::BadMagic { path: h.path });
        }
        let found = h.u32()?;
        if found != version {
            return Err(DbError::Version {
                path: h.path,
                found,
                expected: version,
            });
        }
        let len = h.u32()? as usize;
        if len > MAX_RULES_RECORD {
            return Err(DbError::HeaderChecksum { path: h.path });
        }
        h.rules = String::from_utf8_lossy(&h.take(len)?).into_owned();
        Ok(h)
    }

    fn take(&mut self, len: usize) -> Result<Vec<u8>, DbError> {
        let mut buf = vec![0u8; len];
        self.r.read_exact(&mut buf).map_err(|source| {
            if source.kind() == std::io::ErrorKind::UnexpectedEof {
                DbError::TruncatedHeader {
                    path: self.path.clone(),
                }
            } else {
                DbError::Io {
                    path: self.path.clone(),
                    source,
                }
            }
        })?;
        self.header.extend_from_slice(&buf);
        Ok(buf)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, DbError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, DbError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(&b);
        Ok(u64::from_le_bytes(a))
    }

    /// The rules record the file names.
    pub(crate) fn rules(&self) -> &str {
        &self.rules
    }

    /// Reads the header's CRC and checks it, then checks what every layer
    /// file must match: the rules (`rules_match`: the caller's comparison,
    /// which may cover more than the record), the layer and its board count.
    /// Returns the bytes left after the header.
    pub(crate) fn end_header(
        &mut self,
        rules_match: bool,
        expected_rules: &str,
        layer: u64,
        n: usize,
        count: u64,
    ) -> Result<u64, DbError> {
        let expected_crc = crc32fast::hash(&self.header);
        if self.u32()? != expected_crc {
            return Err(self.damaged_header());
        }
        if !rules_match {
            return Err(DbError::RulesMismatch {
                path: self.path.clone(),
                found: self.rules.clone(),
                expected: expected_rules.to_owned(),
            });
        }
        if layer != n as u64 {
            return Err(DbError::LayerMismatch {
                path: self.path.clone(),
                found: layer,
                expected: n,
            });
        }
        let expected = layer_size(n);
        if count != expected {
            return Err(DbError::CountMismatch {
                path: self.path.clone(),
                n,
                found: count,
                expected,
            });
        }
        Ok(self.total - self.header.len() as u64)
    }

    fn damaged_header(&self) -> DbError {
        DbError::HeaderChecksum {
            path: self.path.clone(),
        }
    }

    /// [`DbError::Length`]: the bodies are not `expected` bytes.
    pub(crate) fn wrong_length(&self, found: u64, expected: u64) -> DbError {
        DbError::Length {
            path: self.path.clone(),
            found,
            expected,
        }
    }

    /// [`DbError::DataChecksum`].
    pub(crate) fn damaged_data(&self) -> DbError {
        DbError::DataChecksum {
            path: self.path.clone(),
        }
    }

    /// The next `len` items of the body (allocated fallibly, as `what`),
    /// checked against `crc`, the CRC-32 of their bytes.
    pub(crate) fn body<T: BodyItem>(
        &mut self,
        len: usize,
        crc: u32,
        what: &str,
    ) -> Result<Vec<T>, DbError> {
        let mut items = try_filled(len, T::default(), what)?;
        let bytes = T::bytes_mut(&mut items);
        self.r.read_exact(bytes).map_err(|source| DbError::Io {
            path: self.path.clone(),
            source,
        })?;
        if crc32fast::hash(bytes) != crc {
            return Err(self.damaged_data());
        }
        Ok(items)
    }
}

/// An item of a body: a byte, or a pair of bytes (viewed as bytes without `unsafe`).
pub(crate) trait BodyItem: Copy + Default {
    fn bytes_mut(items: &mut [Self]) -> &mut [u8];
}

impl BodyItem for u8 {
    fn bytes_mut(items: &mut [u8]) -> &mut [u8] {
        items
    }
}

impl BodyItem for [u8; 2] {
    fn bytes_mut(items: &mut [[u8; 2]]) -> &mut [u8] {
        items.as_flattened_mut()
    }
}
