//! Memory asked for before a search, never during it: [`OutOfMemory`] and
//! the fallible reservations players and the guided search make, so that
//! memory running out is an error their callers can report, not an abort.

/// Memory for a player's search could not be had: how many bytes, and what for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("out of memory: could not allocate {bytes} bytes ({} MiB) for {what}", bytes.div_ceil(1 << 20))]
pub struct OutOfMemory {
    /// The bytes asked for.
    pub bytes: u64,
    /// What they were for.
    pub what: &'static str,
}

/// `v` emptied and given room for exactly `len` items, or [`OutOfMemory`].
pub(crate) fn try_room<T>(
    v: &mut Vec<T>,
    len: usize,
    what: &'static str,
) -> Result<(), OutOfMemory> {
    v.clear();
    v.try_reserve_exact(len).map_err(|_| OutOfMemory {
        bytes: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        what,
    })
}

/// Room in `v` for `total` items in all, its contents kept, reserved exactly
/// (a buffer sized once for the work ahead, as a search's trees), or
/// [`OutOfMemory`].
pub(crate) fn try_grow_exact<T>(
    v: &mut Vec<T>,
    total: usize,
    what: &'static str,
) -> Result<(), OutOfMemory> {
    if v.capacity() >= total {
        return Ok(());
    }
    v.try_reserve_exact(total - v.len())
        .map_err(|_| OutOfMemory {
            bytes: (total as u64).saturating_mul(std::mem::size_of::<T>() as u64),
            what,
        })
}

/// Room in `v` for `n` more items, grown as a `Vec` grows (a buffer that is
/// appended to round after round, as self-play's rows), or [`OutOfMemory`].
pub(crate) fn try_grow<T>(v: &mut Vec<T>, n: usize, what: &'static str) -> Result<(), OutOfMemory> {
    v.try_reserve(n).map_err(|_| OutOfMemory {
        bytes: (v.len().saturating_add(n) as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        what,
    })
}
