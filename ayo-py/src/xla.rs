//! The stateless batch ([`Stateless`]) as XLA FFI custom calls on the CPU,
//! for `ayo.jax`: handlers of XLA's typed FFI, written against its stable C
//! API (`xla/ffi/api/c_api.h`, shipped with jaxlib), whose structs are
//! mirrored here. No Python runs in a call.
//!
//! Each handler answers XLA's metadata query (the API version it was built
//! for), does nothing in the stages before execution, and at execution reads
//! its buffers (any leading batch shape, flattened: what
//! `vmap_method="broadcast_all"` hands it) and its one attribute `spec` (a
//! [`Stateless::spec`] line). Bad input and panics become an XLA FFI error
//! (`INVALID_ARGUMENT`, `INTERNAL`), never an abort.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CString};
use std::mem::offset_of;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ayo_core::episode::{Perspective, Stateless, StatelessError, StepOut, STATE_BYTES};

const ACTIONS: usize = 6;
const OBS: usize = 14;

// --- the C API's structs (c_api.h), as far as the handlers read them ---

#[repr(C)]
struct ExtensionBase {
    struct_size: usize,
    kind: c_int,
    next: *mut ExtensionBase,
}

/// `XLA_FFI_Extension_Metadata`.
const EXTENSION_METADATA: c_int = 1;

#[repr(C)]
struct ApiVersion {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    major: c_int,
    minor: c_int,
}

type ErrorCreate = unsafe extern "C" fn(*mut ErrorCreateArgs) -> *mut c_void;

#[repr(C)]
struct Api {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    api_version: ApiVersion,
    internal_api: *const c_void,
    error_create: Option<ErrorCreate>,
}

#[repr(C)]
struct ErrorCreateArgs {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    message: *const c_char,
    errc: c_int,
}

const INVALID_ARGUMENT: c_int = 3;
const INTERNAL: c_int = 13;

#[repr(C)]
struct Buffer {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    dtype: c_int,
    data: *mut c_void,
    rank: i64,
    dims: *const i64,
}

// XLA_FFI_DataType values.
const PRED: c_int = 1;
const S32: c_int = 4;
const S64: c_int = 5;
const U8: c_int = 6;
const U32: c_int = 8;
const U64: c_int = 9;
const F32: c_int = 11;

#[repr(C)]
struct List {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    size: i64,
    types: *const c_int,
    items: *const *mut c_void,
}

#[repr(C)]
struct ByteSpan {
    ptr: *const c_char,
    len: usize,
}

#[repr(C)]
struct Attrs {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    size: i64,
    types: *const c_int,
    names: *const *const ByteSpan,
    attrs: *const *mut c_void,
}

/// `XLA_FFI_AttrType_STRING`.
const ATTR_STRING: c_int = 4;
/// `XLA_FFI_ArgType_BUFFER` (and `RetType`).
const BUFFER: c_int = 1;

#[repr(C)]
struct CallFrame {
    struct_size: usize,
    extension_start: *mut ExtensionBase,
    api: *const Api,
    ctx: *mut c_void,
    stage: c_int,
    args: List,
    rets: List,
    attrs: Attrs,
}

/// `XLA_FFI_ExecutionStage_EXECUTE`.
const EXECUTE: c_int = 3;

#[repr(C)]
struct Metadata {
    struct_size: usize,
    api_version: ApiVersion,
    traits: u32,
}

#[repr(C)]
struct MetadataExtension {
    base: ExtensionBase,
    metadata: *mut Metadata,
}

/// The API version these mirrors follow (the call frame and buffers of
/// c_api.h 0.1, unchanged since).
const API_MAJOR: c_int = 0;
const API_MINOR: c_int = 1;

// --- the handlers ---

/// Why a call failed: its code and message.
struct Fail(c_int, String);

impl From<StatelessError> for Fail {
    fn from(e: StatelessError) -> Fail {
        Fail(INVALID_ARGUMENT, format!("ayo ({}): {e}", e.kind()))
    }
}

fn invalid(message: String) -> Fail {
    Fail(INVALID_ARGUMENT, format!("ayo (shape): {message}"))
}

/// A buffer of the call, its dtype checked, as a flat slice.
struct Buf {
    data: *mut c_void,
    dtype: c_int,
    dims: Vec<usize>,
}

impl Buf {
    fn len(&self) -> usize {
        self.dims.iter().product()
    }
}

/// Reads buffer `i` of `list` (arguments or results), checking its type.
///
/// # Safety
/// `list` is a call frame's argument or result list.
unsafe fn buffer(list: &List, i: usize, dtypes: &[c_int], what: &str) -> Result<Buf, Fail> {
    if i >= usize::try_from(list.size).unwrap_or(0) {
        return Err(invalid(format!("{what}: missing")));
    }
    // SAFETY: `i` is below the list's size, and XLA gives that many entries.
    let (kind, item) = unsafe { (*list.types.add(i), *list.items.add(i)) };
    if kind != BUFFER || item.is_null() {
        return Err(invalid(format!("{what}: not a buffer")));
    }
    // SAFETY: a buffer entry points to an `XLA_FFI_Buffer`.
    let b = unsafe { &*(item as *const Buffer) };
    if !dtypes.contains(&b.dtype) {
        return Err(invalid(format!(
            "{what}: dtype code {} not accepted",
            b.dtype
        )));
    }
    let rank = usize::try_from(b.rank).map_err(|_| invalid(format!("{what}: bad rank")))?;
    let dims = if rank == 0 {
        Vec::new()
    } else {
        // SAFETY: `dims` has `rank` entries.
        unsafe { std::slice::from_raw_parts(b.dims, rank) }
            .iter()
            .map(|&d| usize::try_from(d).map_err(|_| invalid(format!("{what}: bad dimension"))))
            .collect::<Result<_, _>>()?
    };
    Ok(Buf {
        data: b.data,
        dtype: b.dtype,
        dims,
    })
}

/// Checks that `b`'s shape is `lead` followed by `tail`.
fn shaped(b: &Buf, lead: &[usize], tail: &[usize], what: &str) -> Result<(), Fail> {
    let want: Vec<usize> = lead.iter().chain(tail).copied().collect();
    if b.dims == want {
        Ok(())
    } else {
        Err(invalid(format!(
            "{what}: shape {:?}, expected {want:?}",
            b.dims
        )))
    }
}

/// The leading (batch) shape of a states buffer `(..., 96)`.
fn batch_of(states: &Buf) -> Result<Vec<usize>, Fail> {
    match states.dims.split_last() {
        Some((&STATE_BYTES, lead)) => Ok(lead.to_vec()),
        _ => Err(invalid(format!(
            "states: shape {:?}, expected (..., {STATE_BYTES})",
            states.dims
        ))),
    }
}

/// An output buffer as a zeroed slice (XLA hands results uninitialised).
///
/// # Safety
/// `b` holds `b.len()` elements of `T`, for which all-zero bytes are valid.
unsafe fn out<'a, T>(b: &Buf) -> &'a mut [T] {
    let n = b.len();
    if n == 0 {
        return &mut [];
    }
    // SAFETY: per the contract, `n` elements from `data`, owned by this call.
    unsafe {
        std::ptr::write_bytes(b.data as *mut T, 0, n);
        std::slice::from_raw_parts_mut(b.data as *mut T, n)
    }
}

/// An input buffer as a slice.
///
/// # Safety
/// `b` holds `b.len()` initialised elements of `T`.
unsafe fn input<'a, T>(b: &Buf) -> &'a [T] {
    if b.len() == 0 {
        return &[];
    }
    // SAFETY: per the contract.
    unsafe { std::slice::from_raw_parts(b.data as *const T, b.len()) }
}

thread_local! {
    /// The last spec parsed on this thread and its batch (a program calls
    /// with the same spec step after step).
    static SPEC: RefCell<Option<(Vec<u8>, Stateless)>> = const { RefCell::new(None) };
}

/// The stateless batch of the call's `spec` attribute.
fn spec_of(attrs: &Attrs) -> Result<Stateless, Fail> {
    let n = usize::try_from(attrs.size).unwrap_or(0);
    for i in 0..n {
        // SAFETY: `i` is below the attributes' count.
        let (kind, name, value) = unsafe {
            (
                *attrs.types.add(i),
                &**attrs.names.add(i),
                *attrs.attrs.add(i),
            )
        };
        // SAFETY: a byte span of the frame.
        let name = unsafe { std::slice::from_raw_parts(name.ptr as *const u8, name.len) };
        if name != b"spec" {
            continue;
        }
        if kind != ATTR_STRING || value.is_null() {
            return Err(invalid("attribute spec: not a string".into()));
        }
        // SAFETY: a string attribute is a byte span.
        let span = unsafe { &*(value as *const ByteSpan) };
        // SAFETY: the span's bytes.
        let bytes = unsafe { std::slice::from_raw_parts(span.ptr as *const u8, span.len) };
        return SPEC.with(|cell| {
            let mut cell = cell.borrow_mut();
            if let Some((text, env)) = cell.as_ref() {
                if text.as_slice() == bytes {
                    return Ok(env.clone());
                }
            }
            let text = std::str::from_utf8(bytes)
                .map_err(|_| invalid("attribute spec: not UTF-8".into()))?;
            let env = Stateless::from_spec(text)?;
            *cell = Some((bytes.to_vec(), env.clone()));
            Ok(env)
        });
    }
    Err(invalid("attribute spec: missing".into()))
}

/// What each handler computes, once its frame is known to execute.
#[derive(Clone, Copy)]
enum Op {
    Init,
    Step,
    LegalMask,
    Observe(Perspective),
    Children,
}

/// The body of a handler at execution.
///
/// # Safety
/// `frame` is XLA's call frame.
unsafe fn execute(op: Op, frame: &CallFrame) -> Result<(), Fail> {
    let env = spec_of(&frame.attrs)?;
    let (args, rets) = (&frame.args, &frame.rets);
    // SAFETY (every call below): buffers of this frame, typed as checked.
    unsafe {
        match op {
            Op::Init => {
                let seeds = buffer(args, 0, &[U32, U64], "seeds")?;
                let states = buffer(rets, 0, &[U8], "states")?;
                shaped(&states, &seeds.dims, &[STATE_BYTES], "states")?;
                let wide: Vec<u64>;
                let seeds: &[u64] = if seeds.dtype == U64 {
                    input(&seeds)
                } else {
                    let mut v = Vec::new();
                    v.try_reserve_exact(seeds.len())
                        .map_err(|_| Fail(INTERNAL, "ayo: out of memory for the seeds".into()))?;
                    v.extend(input::<u32>(&seeds).iter().map(|&s| u64::from(s)));
                    wide = v;
                    &wide
                };
                env.init(seeds, out(&states))?;
            }
            Op::Step => {
                let states = buffer(args, 0, &[U8], "states")?;
                let lead = batch_of(&states)?;
                let actions = buffer(args, 1, &[S32, S64], "actions")?;
                shaped(&actions, &lead, &[], "actions")?;
                let next = buffer(rets, 0, &[U8], "next states")?;
                shaped(&next, &lead, &[STATE_BYTES], "next states")?;
                let rewards = buffer(rets, 1, &[F32], "rewards")?;
                shaped(&rewards, &lead, &[2], "rewards")?;
                let term = buffer(rets, 2, &[PRED], "terminated")?;
                shaped(&term, &lead, &[], "terminated")?;
                let trunc = buffer(rets, 3, &[PRED], "truncated")?;
                shaped(&trunc, &lead, &[], "truncated")?;
                let wide: Vec<i64>;
                let acts: &[i64] = if actions.dtype == S64 {
                    input(&actions)
                } else {
                    let mut v = Vec::new();
                    v.try_reserve_exact(actions.len())
                        .map_err(|_| Fail(INTERNAL, "ayo: out of memory for the actions".into()))?;
                    v.extend(input::<i32>(&actions).iter().map(|&a| i64::from(a)));
                    wide = v;
                    &wide
                };
                // Aliased (`input_output_aliases`): stepped where it lies.
                let next_slice: &mut [u8] = if next.data == states.data {
                    std::slice::from_raw_parts_mut(next.data as *mut u8, next.len())
                } else {
                    let o = out::<u8>(&next);
                    o.copy_from_slice(input(&states));
                    o
                };
                // A fifth result, where asked for: the next states' mask.
                let next_mask = if usize::try_from(rets.size).unwrap_or(0) > 4 {
                    let mask = buffer(rets, 4, &[PRED], "next mask")?;
                    shaped(&mask, &lead, &[ACTIONS], "next mask")?;
                    Some(out(&mask))
                } else {
                    None
                };
                let step = StepOut {
                    rewards: out(&rewards),
                    terminated: out(&term),
                    truncated: out(&trunc),
                    next_mask,
                };
                env.step_in_place(next_slice, acts, step)?;
            }
            Op::LegalMask => {
                let states = buffer(args, 0, &[U8], "states")?;
                let lead = batch_of(&states)?;
                let mask = buffer(rets, 0, &[PRED], "mask")?;
                shaped(&mask, &lead, &[ACTIONS], "mask")?;
                env.legal_mask(input(&states), out(&mask))?;
            }
            Op::Observe(perspective) => {
                let states = buffer(args, 0, &[U8], "states")?;
                let lead = batch_of(&states)?;
                let obs = buffer(rets, 0, &[U8], "observations")?;
                shaped(&obs, &lead, &[OBS], "observations")?;
                env.observe(input(&states), perspective, out(&obs))?;
            }
            Op::Children => {
                let states = buffer(args, 0, &[U8], "states")?;
                let lead = batch_of(&states)?;
                let children = buffer(rets, 0, &[U8], "children")?;
                shaped(&children, &lead, &[ACTIONS, STATE_BYTES], "children")?;
                let valid = buffer(rets, 1, &[PRED], "valid")?;
                shaped(&valid, &lead, &[ACTIONS], "valid")?;
                env.children(input(&states), out(&children), out(&valid))?;
            }
        }
    }
    Ok(())
}

/// Fills XLA's metadata query: the API version of these mirrors, no traits.
///
/// # Safety
/// `ext` is the frame's metadata extension.
unsafe fn metadata(ext: *mut ExtensionBase) -> Result<(), Fail> {
    // SAFETY: the extension's type said metadata.
    let ext = unsafe { &mut *(ext as *mut MetadataExtension) };
    if ext.base.struct_size < std::mem::size_of::<MetadataExtension>() || ext.metadata.is_null() {
        return Err(Fail(
            INVALID_ARGUMENT,
            "ayo: metadata extension too small".into(),
        ));
    }
    // SAFETY: checked non-null; XLA owns it for the query.
    let m = unsafe { &mut *ext.metadata };
    if m.struct_size < offset_of!(Metadata, traits) + std::mem::size_of::<u32>() {
        return Err(Fail(
            INVALID_ARGUMENT,
            "ayo: metadata struct too small".into(),
        ));
    }
    m.api_version = ApiVersion {
        struct_size: std::mem::size_of::<ApiVersion>(),
        extension_start: std::ptr::null_mut(),
        major: API_MAJOR,
        minor: API_MINOR,
    };
    m.traits = 0;
    Ok(())
}

/// One handler call: the metadata query, the early stages (nothing to do)
/// or the execution, any panic caught; an error made by XLA's own
/// `XLA_FFI_Error_Create`.
///
/// # Safety
/// `frame` is null or XLA's call frame.
unsafe fn call(op: Op, frame: *mut CallFrame) -> *mut c_void {
    if frame.is_null() {
        return std::ptr::null_mut();
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: XLA's frame, for this call.
        let f = unsafe { &*frame };
        if f.struct_size < offset_of!(CallFrame, attrs) + std::mem::size_of::<Attrs>() {
            return Err(Fail(INVALID_ARGUMENT, "ayo: call frame too small".into()));
        }
        // SAFETY: a non-null extension starts with its base.
        if !f.extension_start.is_null()
            && unsafe { (*f.extension_start).kind } == EXTENSION_METADATA
        {
            // SAFETY: the metadata extension.
            return unsafe { metadata(f.extension_start) };
        }
        if f.stage != EXECUTE {
            return Ok(());
        }
        // SAFETY: an executing frame.
        unsafe { execute(op, f) }
    }));
    let Fail(code, message) = match result {
        Ok(Ok(())) => return std::ptr::null_mut(),
        Ok(Err(fail)) => fail,
        Err(_) => Fail(INTERNAL, "ayo: internal error (a panic, caught)".into()),
    };
    // SAFETY: the frame's API table, when it has one.
    let api = unsafe { (*frame).api.as_ref() };
    let Some(create) = api.and_then(|a| a.error_create) else {
        return std::ptr::null_mut();
    };
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    let mut args = ErrorCreateArgs {
        struct_size: offset_of!(ErrorCreateArgs, errc) + std::mem::size_of::<c_int>(),
        extension_start: std::ptr::null_mut(),
        message: message.as_ptr(),
        errc: code,
    };
    // SAFETY: XLA's own constructor; it copies the message.
    unsafe { create(&mut args) }
}

macro_rules! handler {
    ($name:ident, $op:expr) => {
        unsafe extern "C" fn $name(frame: *mut CallFrame) -> *mut c_void {
            // SAFETY: called by XLA with its call frame.
            unsafe { call($op, frame) }
        }
    };
}

handler!(ayo_init, Op::Init);
handler!(ayo_step, Op::Step);
handler!(ayo_legal_mask, Op::LegalMask);
handler!(ayo_observe_mover, Op::Observe(Perspective::Mover));
handler!(ayo_observe_absolute, Op::Observe(Perspective::Absolute));
handler!(ayo_children, Op::Children);

/// Each handler's target name and address, for `jax.ffi.register_ffi_target`
/// (`ayo.jax` wraps each address in a PyCapsule).
pub(crate) fn handlers() -> Vec<(&'static str, usize)> {
    type Handler = unsafe extern "C" fn(*mut CallFrame) -> *mut c_void;
    let all: [(&str, Handler); 6] = [
        ("ayo_init", ayo_init),
        ("ayo_step", ayo_step),
        ("ayo_legal_mask", ayo_legal_mask),
        ("ayo_observe_mover", ayo_observe_mover),
        ("ayo_observe_absolute", ayo_observe_absolute),
        ("ayo_children", ayo_children),
    ];
    all.iter().map(|&(n, f)| (n, f as usize)).collect()
}
