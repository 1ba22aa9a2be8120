//! Runtime CPU dispatch: the instruction set the hot loops are compiled for.
//!
//! One portable build carries each dispatched loop (random playouts,
//! [`crate::each_children`], a caller's loop over many positions' children,
//! the lane engine called directly, `kernels/lanes.rs`, and the guided
//! search's rounds, `guided/tree.rs`) three times: for the x86-64
//! baseline ([`Kernel::SCALAR`], `scalar`), for x86-64-v3 (AVX2, BMI1/2, FMA,
//! LZCNT, MOVBE: `avx2`) and for x86-64-v4 (AVX-512 F/BW/CD/DQ/VL on top:
//! `avx512`). [`Kernel::run`] is the one switch: it runs a [`Loop`] through a
//! function compiled with the kernel's target features; the loop's `run` is
//! inlined there (`#[inline(always)]`), so the loop and everything it inlines
//! are compiled for them (a function it calls out of line keeps the
//! baseline, and so does a closure it calls from the three copies unless the
//! closure is marked `#[inline(always)]`). The kernel is chosen once a loop,
//! not once a move. A loop that pays only with 64-byte vectors (the batch
//! step's lanes, `episode::BatchPath`) runs through [`Wide::run`] instead,
//! and is built for `avx512` alone.
//!
//! [`active`] is the kernel every loop uses unless told otherwise: the best
//! the CPU has, or the one named by the environment variable
//! [`KERNEL_ENV`] (`AYO_KERNEL=scalar|avx2|avx512`), read once. Naming a
//! kernel the CPU lacks, or an unknown one, is refused: [`configured`]
//! returns the error (the Python module raises it on import, the C ABI's
//! `ayo_kernel` returns NULL), and [`active`] then runs the scalar kernel.
//! A [`Kernel`] value exists only for instruction sets the CPU has, which is
//! what makes [`Kernel::run`] safe.
//!
//! (The `multiversion` crate dispatches a function on its own; here the
//! kernel must also be forced by a setting and every kernel run side by side
//! in the tests, so the switch is this one small function.)

use std::fmt;
use std::sync::OnceLock;

/// The environment variable that forces a kernel: `scalar`, `avx2` or `avx512`.
pub const KERNEL_ENV: &str = "AYO_KERNEL";

/// The instruction sets, in ascending order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Isa {
    Scalar,
    Avx2,
    Avx512,
}

/// A kernel: an instruction set the hot loops are compiled for, one this
/// CPU has (no value names one it lacks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kernel(Isa);

/// Why a kernel cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// Not one of [`Kernel::NAMES`].
    #[error("unknown kernel {name:?} (from {source_name}): expected one of scalar, avx2, avx512")]
    Unknown {
        /// The name asked for.
        name: String,
        /// Where it was asked for (the environment variable, or an argument).
        source_name: &'static str,
    },
    /// The CPU lacks the kernel's instructions.
    #[error("kernel {name} (from {source_name}) needs {needs}, which this CPU lacks; it has: {available}")]
    Unsupported {
        /// The kernel asked for.
        name: &'static str,
        /// Where it was asked for.
        source_name: &'static str,
        /// The instruction sets it needs.
        needs: &'static str,
        /// The kernels this CPU can run.
        available: String,
    },
}

// The target features of each kernel; `run_avx2` and `run_avx512` enable
// the same lists (an attribute takes only a literal).
const AVX2_FEATURES: &str = "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe";
const AVX512_FEATURES: &str =
    "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe,avx512f,avx512bw,avx512cd,avx512dq,avx512vl";

impl Kernel {
    /// The x86-64 baseline (or the target's baseline elsewhere): every CPU.
    pub const SCALAR: Kernel = Kernel(Isa::Scalar);
    /// The names of the kernels, ascending.
    pub const NAMES: [&'static str; 3] = ["scalar", "avx2", "avx512"];

    /// The kernel's name: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        Kernel::NAMES[self.0 as usize]
    }

    /// The width of the kernel's vectors in bytes: 16 (the x86-64
    /// baseline's SSE2), 32 (AVX2) or 64 (AVX-512); as many byte lanes
    /// an instruction.
    pub fn vector_bytes(self) -> usize {
        match self.0 {
            Isa::Scalar => 16,
            Isa::Avx2 => 32,
            Isa::Avx512 => 64,
        }
    }

    /// The instructions the kernel is compiled for, in words.
    pub fn features(self) -> &'static str {
        Isa::features(self.0)
    }

    /// The kernel named `name`, if the CPU has it.
    pub fn from_name(name: &str) -> Result<Kernel, KernelError> {
        Kernel::named(name, "an argument")
    }

    fn named(name: &str, source_name: &'static str) -> Result<Kernel, KernelError> {
        let isa = match name.trim().to_ascii_lowercase().as_str() {
            "scalar" => Isa::Scalar,
            "avx2" => Isa::Avx2,
            "avx512" => Isa::Avx512,
            _ => {
                return Err(KernelError::Unknown {
                    name: name.to_string(),
                    source_name,
                })
            }
        };
        if isa.supported() {
            return Ok(Kernel(isa));
        }
        Err(KernelError::Unsupported {
            name: Kernel::NAMES[isa as usize],
            source_name,
            needs: isa.features(),
            available: Kernel::available()
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    /// Every kernel this CPU can run, ascending (the scalar one first).
    pub fn available() -> Vec<Kernel> {
        [Isa::Scalar, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter(|isa| isa.supported())
            .map(Kernel)
            .collect()
    }

    /// The best kernel this CPU can run.
    pub fn best() -> Kernel {
        *Kernel::available().last().unwrap_or(&Kernel::SCALAR)
    }

    /// Runs `work` compiled for this kernel's instructions.
    #[inline]
    pub fn run<L: Loop>(self, work: L) -> L::Output {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Kernel` holds an instruction set only when the CPU
            // has it (`Isa::supported`, checked by every constructor).
            Isa::Avx2 => unsafe { run_avx2(work) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx512 => unsafe { run_avx512(work) },
            _ => work.run(),
        }
    }
}

/// A kernel that the wide loops are built for: loops that pay only with
/// 64-byte vectors (the batch step's lanes), built for `avx512` and for no
/// other kernel. With the `testing` feature (ayo's own tests and timers)
/// for the baseline too, so that the tests check their logic on any
/// machine. Had from [`Kernel::wide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide(WideIsa);

// Each variant only where it is built: with neither, no `Wide` exists and
// no wide loop is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WideIsa {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(any(test, feature = "testing"))]
    Baseline,
}

impl Kernel {
    /// This kernel as one the wide loops are built for, if it is: `avx512`
    /// (and, with the `testing` feature, `scalar`).
    pub fn wide(self) -> Option<Wide> {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => Some(Wide(WideIsa::Avx512)),
            #[cfg(any(test, feature = "testing"))]
            Isa::Scalar => Some(Wide(WideIsa::Baseline)),
            _ => None,
        }
    }
}

impl Wide {
    /// Runs `work` compiled for this kernel's instructions, as
    /// [`Kernel::run`] does; only this kernel's copy of it is built.
    #[inline]
    // Elsewhere without `testing` no `Wide` exists, and `work` goes unread.
    #[cfg_attr(
        not(any(target_arch = "x86_64", test, feature = "testing")),
        allow(unused_variables)
    )]
    pub fn run<L: Loop>(self, work: L) -> L::Output {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: made only from a `Kernel` of AVX-512, which the CPU has
            // (`Kernel::wide`).
            WideIsa::Avx512 => unsafe { run_avx512(work) },
            #[cfg(any(test, feature = "testing"))]
            WideIsa::Baseline => work.run(),
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Isa {
    fn features(self) -> &'static str {
        match self {
            Isa::Scalar => "the baseline instruction set",
            Isa::Avx2 => AVX2_FEATURES,
            Isa::Avx512 => AVX512_FEATURES,
        }
    }

    /// Whether this CPU (and its operating system) runs the instruction set.
    fn supported(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                std::arch::is_x86_feature_detected!("avx")
                    && std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("fma")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
                    && std::arch::is_x86_feature_detected!("movbe")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                Isa::Avx2.supported()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512cd")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// A hot loop and its inputs, for [`Kernel::run`]. Its `run` must be
/// `#[inline(always)]`: that is what compiles it once a kernel.
pub trait Loop {
    /// What the loop returns.
    type Output;
    /// The loop itself.
    fn run(self) -> Self::Output;
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe")]
fn run_avx2<L: Loop>(work: L) -> L::Output {
    work.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,popcnt,movbe,avx512f,avx512bw,avx512cd,avx512dq,avx512vl"
)]
fn run_avx512<L: Loop>(work: L) -> L::Output {
    work.run()
}

/// The kernel the environment variable [`KERNEL_ENV`] asks for (the best
/// the CPU has when it is unset or empty), or why it cannot be had (a value
/// that is not UTF-8 is an unknown name). Read once.
pub fn configured() -> Result<Kernel, KernelError> {
    static CONFIGURED: OnceLock<Result<Kernel, KernelError>> = OnceLock::new();
    CONFIGURED
        .get_or_init(|| match std::env::var(KERNEL_ENV) {
            Ok(name) if !name.trim().is_empty() => Kernel::named(&name, KERNEL_ENV),
            // Not text at all: no kernel's name, refused as any unknown name.
            Err(std::env::VarError::NotUnicode(raw)) => Err(KernelError::Unknown {
                name: raw.to_string_lossy().into_owned(),
                source_name: KERNEL_ENV,
            }),
            _ => Ok(Kernel::best()),
        })
        .clone()
}

/// The kernel the hot loops run: [`configured`], or the scalar kernel when
/// the setting is refused (the front doors report the refusal).
#[inline]
pub fn active() -> Kernel {
    static ACTIVE: OnceLock<Kernel> = OnceLock::new();
    *ACTIVE.get_or_init(|| configured().unwrap_or(Kernel::SCALAR))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_kernel_the_cpu_has() {
        let available = Kernel::available();
        assert_eq!(available[0], Kernel::SCALAR);
        for k in &available {
            assert_eq!(Kernel::from_name(k.name()), Ok(*k));
        }
        assert_eq!(Kernel::best(), *available.last().unwrap());
        assert!(available.contains(&active()));
    }

    #[test]
    fn unknown_and_missing_kernels_are_refused() {
        let err = Kernel::from_name("sse9").unwrap_err();
        assert!(matches!(err, KernelError::Unknown { .. }));
        assert!(err
            .to_string()
            .contains("expected one of scalar, avx2, avx512"));
        for name in ["avx2", "avx512"] {
            let have = Kernel::available().iter().any(|k| k.name() == name);
            match Kernel::from_name(name) {
                Ok(k) => assert!(have && k.name() == name),
                Err(e) => {
                    assert!(!have);
                    assert!(e.to_string().contains("which this CPU lacks"), "{e}");
                }
            }
        }
    }
}
