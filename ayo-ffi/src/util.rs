//! The panic boundary, failures with their detail, and copying to and from C memory.

use std::any::Any;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::result::{ayo_record_field, ayo_result};

/// A failed call: its code, a detailed message, and for record errors where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    pub code: ayo_result,
    pub message: String,
    pub record: Option<(ayo_record_field, usize)>,
}

impl Fail {
    pub fn new(code: ayo_result, message: impl Into<String>) -> Fail {
        Fail {
            code,
            message: message.into(),
            record: None,
        }
    }

    /// A required pointer argument was NULL.
    pub fn null(arg: &str) -> Fail {
        Fail::new(
            ayo_result::NullArgument,
            format!("argument `{arg}` is NULL"),
        )
    }

    fn panic(payload: Box<dyn Any + Send>) -> Fail {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        Fail::new(
            ayo_result::Panic,
            format!("internal error (please report): {what}"),
        )
    }
}

/// The detail of the last failed call on a handle (empty after a success).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LastError {
    pub message: String,
    pub record: Option<(ayo_record_field, usize)>,
}

/// Handles that keep the detail of their last failure.
pub(crate) trait HasLastError {
    fn last_error_mut(&mut self) -> &mut LastError;
}

/// Runs `f` inside the panic boundary; the result code of its outcome.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), Fail>) -> ayo_result {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => ayo_result::Ok,
        Ok(Err(fail)) => fail.code,
        Err(_) => ayo_result::Panic,
    }
}

/// Frees a handle made by `Box::into_raw` (NULL does nothing), inside the
/// panic boundary: the one body of every `ayo_*_free`.
///
/// # Safety
/// `handle` must be NULL or a live handle of type `T` from this library,
/// not freed before.
pub(crate) unsafe fn free_box<T>(handle: *mut T) {
    let _ = guard(|| {
        if !handle.is_null() {
            // SAFETY: a live handle made by Box::into_raw, by the caller's contract.
            drop(unsafe { Box::from_raw(handle) });
        }
        Ok(())
    });
}

/// Runs `f` inside the panic boundary; the result code of its outcome and
/// the failure's detail (empty after a success).
pub(crate) fn guard_detail(f: impl FnOnce() -> Result<(), Fail>) -> (ayo_result, String) {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => (ayo_result::Ok, String::new()),
        Ok(Err(fail)) => (fail.code, fail.message),
        Err(payload) => {
            let fail = Fail::panic(payload);
            (fail.code, fail.message)
        }
    }
}

/// Runs `f` on the handle behind `h` inside the panic boundary, and records
/// the outcome on the handle: the failure's detail, or an empty detail after a
/// success.
///
/// # Safety
/// `h` must be NULL or a valid, exclusively accessible handle.
pub(crate) unsafe fn guard_mut<T: HasLastError>(
    h: *mut T,
    f: impl FnOnce(&mut T) -> Result<(), Fail>,
) -> ayo_result {
    if h.is_null() {
        return ayo_result::NullArgument;
    }
    let outcome = match catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: non-NULL, and valid and exclusive by the caller's contract.
        f(unsafe { &mut *h })
    })) {
        Ok(Ok(())) => None,
        Ok(Err(fail)) => Some(fail),
        Err(payload) => Some(Fail::panic(payload)),
    };
    let record = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as above; the borrow inside `f` has ended.
        let last = unsafe { &mut *h }.last_error_mut();
        match outcome {
            None => {
                *last = LastError::default();
                ayo_result::Ok
            }
            Some(fail) => {
                *last = LastError {
                    message: fail.message,
                    record: fail.record,
                };
                fail.code
            }
        }
    }));
    record.unwrap_or(ayo_result::Panic)
}

/// Runs a read-only query on the handle behind `h` (argument name `arg`)
/// inside the panic boundary, and writes its answer through the
/// out-parameter `out_ptr` (argument name `out_arg`) only when it succeeds.
///
/// # Safety
/// `h` must be NULL or a live handle not mutated during the call; `out_ptr`
/// NULL or valid for a write.
pub(crate) unsafe fn query<T, V>(
    h: *const T,
    arg: &str,
    out_ptr: *mut V,
    out_arg: &str,
    f: impl FnOnce(&T) -> Result<V, Fail>,
) -> ayo_result {
    guard(|| {
        // SAFETY: NULL or live, by the caller's contract.
        let h = unsafe { h.as_ref() }.ok_or_else(|| Fail::null(arg))?;
        need(out_ptr, out_arg)?;
        let v = f(h)?;
        // SAFETY: checked non-NULL; valid by the caller's contract.
        unsafe { out(out_ptr, v) };
        Ok(())
    })
}

/// Runs a read-only text query on the handle behind `h` (argument name `arg`)
/// inside the panic boundary, and writes the text by the text out-parameter
/// convention (see `ayo_result_message`).
///
/// # Safety
/// `h` must be NULL or a live handle not mutated during the call; `buf` NULL
/// or valid for `len` byte writes; `written` NULL or valid for a write.
pub(crate) unsafe fn text_query<T>(
    h: *const T,
    arg: &str,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
    f: impl FnOnce(&T) -> Result<String, Fail>,
) -> ayo_result {
    guard(|| {
        // SAFETY: NULL or live, by the caller's contract.
        let h = unsafe { h.as_ref() }.ok_or_else(|| Fail::null(arg))?;
        need(written, "written")?;
        let text = f(h)?;
        // SAFETY: the caller's contract.
        unsafe { write_str(&text, buf, len, written) }
    })
}

/// Reads a NUL-terminated UTF-8 argument named `arg`.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn in_str<'a>(p: *const c_char, arg: &str) -> Result<&'a str, Fail> {
    if p.is_null() {
        return Err(Fail::null(arg));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(p) }.to_str().map_err(|e| {
        Fail::new(
            ayo_result::InvalidUtf8,
            format!("argument `{arg}` is not valid UTF-8: {e}"),
        )
    })
}

/// Checks that a required pointer argument is not NULL.
pub(crate) fn need<T>(p: *const T, arg: &str) -> Result<(), Fail> {
    if p.is_null() {
        Err(Fail::null(arg))
    } else {
        Ok(())
    }
}

/// Writes `v` through the out-parameter `p`.
///
/// # Safety
/// `p` must be non-NULL and valid for a write of `T`.
pub(crate) unsafe fn out<T>(p: *mut T, v: T) {
    // SAFETY: by the caller's contract.
    unsafe { p.write(v) }
}

/// Copies `s` and a NUL into `buf` (capacity `len`), its length into `*written`;
/// or reports the size needed (see `ayo_result_message`).
///
/// # Safety
/// `buf` must be NULL or valid for `len` byte writes; `written` non-NULL and
/// valid for a write.
pub(crate) unsafe fn write_str(
    s: &str,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> Result<(), Fail> {
    // SAFETY: the caller's contract, forwarded.
    unsafe { write_array(s.as_bytes(), 1, buf.cast::<u8>(), len, written, "buf") }?;
    // SAFETY: write_array checked that there is room for the NUL after the text.
    unsafe { buf.add(s.len()).write(0) };
    Ok(())
}

/// Copies `items` into `buf` (capacity `cap` elements, which must leave room for
/// `extra` more), and their count into `*count`; on too small a buffer writes
/// only the number of elements needed (`items.len() + extra`) to `*count`.
///
/// # Safety
/// `buf` must be NULL or valid for `cap` writes of `T`; `count` non-NULL and
/// valid for a write.
pub(crate) unsafe fn write_array<T: Copy>(
    items: &[T],
    extra: usize,
    buf: *mut T,
    cap: usize,
    count: *mut usize,
    arg: &str,
) -> Result<(), Fail> {
    need(count, "count")?;
    if cap > 0 {
        need(buf, arg)?;
    }
    let needed = items.len() + extra;
    if cap < needed {
        // SAFETY: checked non-NULL above; valid by the caller's contract.
        unsafe { out(count, needed) };
        return Err(Fail::new(
            ayo_result::BufferTooSmall,
            format!("`{arg}` holds {cap}; {needed} are needed"),
        ));
    }
    if !items.is_empty() {
        // SAFETY: `buf` is non-NULL (cap >= needed > 0) and holds at least
        // `needed >= items.len()` elements; it cannot overlap `items`, which
        // the library owns.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), buf, items.len()) };
    }
    // SAFETY: as above.
    unsafe { out(count, items.len()) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_result_code() {
        assert_eq!(guard(|| panic!("boom")), ayo_result::Panic);
        assert_eq!(guard(|| Ok(())), ayo_result::Ok);
        assert_eq!(guard(|| Err(Fail::null("x"))), ayo_result::NullArgument);
    }

    struct H(LastError, u32);
    impl HasLastError for H {
        fn last_error_mut(&mut self) -> &mut LastError {
            &mut self.0
        }
    }

    #[test]
    fn a_panic_on_a_handle_is_recorded_on_it() {
        let mut h = H(LastError::default(), 0);
        let r = unsafe {
            guard_mut(&mut h, |h| {
                h.1 = 1;
                panic!("boom {}", h.1)
            })
        };
        assert_eq!(r, ayo_result::Panic);
        assert!(h.0.message.contains("boom 1"), "{}", h.0.message);
        let r = unsafe { guard_mut(&mut h, |_| Ok(())) };
        assert_eq!(r, ayo_result::Ok);
        assert_eq!(h.0, LastError::default());
        let r = unsafe { guard_mut(std::ptr::null_mut::<H>(), |_| Ok(())) };
        assert_eq!(r, ayo_result::NullArgument);
    }

    #[test]
    fn text_out_parameters() {
        let mut buf = [0x55 as c_char; 6];
        let mut n = 99usize;
        let r = unsafe { write_str("hello!", buf.as_mut_ptr(), buf.len(), &mut n) };
        assert_eq!(r.unwrap_err().code, ayo_result::BufferTooSmall);
        assert_eq!(n, 7);
        assert!(
            buf.iter().all(|&c| c == 0x55),
            "buffer untouched on failure"
        );
        let r = unsafe { write_str("hello", buf.as_mut_ptr(), buf.len(), &mut n) };
        assert!(r.is_ok());
        assert_eq!(n, 5);
        assert_eq!(
            unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap(),
            "hello"
        );
        let r = unsafe { write_str("x", std::ptr::null_mut(), 0, &mut n) };
        assert_eq!((r.unwrap_err().code, n), (ayo_result::BufferTooSmall, 2));
        n = 99;
        let r = unsafe { write_str("xyzzy", std::ptr::null_mut(), 4, &mut n) };
        assert_eq!((r.unwrap_err().code, n), (ayo_result::NullArgument, 99));
    }
}
