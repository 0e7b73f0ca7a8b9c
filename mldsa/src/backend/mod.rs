//! The kernel trait every backend implements, its written contracts, and backend selection.
//!
//! Scheme code (keygen, sign, verify in [`crate::scheme`]) is written once, generic over
//! [`Backend`]. A backend implements *kernels only*: arithmetic on single polynomials,
//! rejection sampling from byte buffers, bit packing and the Keccak-f[1600] permutation.
//! The portable backend is the specification; a SIMD backend must satisfy the same
//! contract, kernel by kernel (see [`contract`]).
//!
//! A SIMD backend value is a zero-sized token that only CPU feature detection can create,
//! so calling its kernels is safe.
//!
//! Layout: `kind` names the backends; [`field`] holds the constants and scalar arithmetic
//! every backend shares; `frame` the wipe of what a never-inlined callee (a Keccak
//! permutation) leaves in its stack frame; `traits` the [`Backend`] trait (its default
//! bodies are the [`portable`] kernels); `checked` the contract-asserting wrapper scheme
//! code calls through; `avx2/`, `avx512/` (and `neon/`) one module per kernel family; `planted` (feature
//! `planted-bugs` only) the fault-injecting wrapper. This module selects a backend at run
//! time ([`AnyBackend`], [`with_backend!`](crate::with_backend)).

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
mod checked;
pub mod contract;
pub mod field;
mod frame;
pub(crate) mod kind;
#[cfg(target_arch = "aarch64")]
pub mod neon;
#[cfg(feature = "planted-bugs")]
mod planted;
pub mod portable;
mod traits;

#[cfg(target_arch = "x86_64")]
pub use avx2::Avx2;
#[cfg(target_arch = "x86_64")]
pub use avx512::Avx512;
pub(crate) use checked::Checked;
pub use kind::BackendKind;
#[cfg(target_arch = "aarch64")]
pub use neon::{Neon, NeonPlain};
#[cfg(feature = "planted-bugs")]
pub use planted::Planted;
pub use portable::Portable;
pub use traits::Backend;

use crate::error::Error;

/// What needs the backends or the error type: parsing, availability and the default choice.
impl BackendKind {
    /// Parses `portable`, `avx2`, `avx512` or `neon`.
    pub fn parse(s: &str) -> Result<Self, Error> {
        BackendKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(Error::UnknownBackend)
    }

    /// Whether this backend is compiled in and the CPU supports it.
    pub fn is_available(self) -> bool {
        AnyBackend::new(self).is_ok()
    }

    /// Every backend available on this machine, portable first.
    pub fn available() -> impl Iterator<Item = BackendKind> {
        BackendKind::ALL.into_iter().filter(|k| k.is_available())
    }

    /// The fastest available backend.
    pub fn best() -> BackendKind {
        BackendKind::available()
            .last()
            .unwrap_or(BackendKind::Portable)
    }

    /// The backend named by the environment variable `MLDSA_BACKEND`, if set; an error if
    /// it names an unknown or unavailable backend (never a silent fall-back).
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<BackendKind>, Error> {
        BackendKind::from_setting(std::env::var("MLDSA_BACKEND").ok().as_deref())
    }

    /// What a value of `MLDSA_BACKEND` selects: `None` (unset or empty) for the default, a
    /// backend this machine has, or an error for an unknown or unavailable one.
    pub fn from_setting(value: Option<&str>) -> Result<Option<BackendKind>, Error> {
        match value {
            Some(v) if !v.trim().is_empty() => {
                let k = BackendKind::parse(v)?;
                AnyBackend::new(k)?;
                Ok(Some(k))
            }
            _ => Ok(None),
        }
    }

    /// The backend the high-level API uses: `MLDSA_BACKEND` if set, else the best available.
    ///
    /// # Panics
    /// If `MLDSA_BACKEND` names an unknown or unavailable backend: the process asked for
    /// something it cannot have, and continuing on another backend would be a silent lie.
    pub fn default_backend() -> BackendKind {
        #[cfg(feature = "std")]
        {
            static CHOICE: std::sync::OnceLock<BackendKind> = std::sync::OnceLock::new();
            *CHOICE.get_or_init(|| match BackendKind::from_env() {
                Ok(Some(k)) => k,
                Ok(None) => BackendKind::best(),
                Err(e) => panic!("MLDSA_BACKEND: {e}"),
            })
        }
        #[cfg(not(feature = "std"))]
        {
            BackendKind::best()
        }
    }
}

/// A backend token obtained after feature detection. Match on it (or use
/// [`with_backend!`](crate::with_backend)) to run monomorphised code.
#[derive(Clone, Copy, Debug)]
pub enum AnyBackend {
    /// The portable backend.
    Portable(Portable),
    /// The AVX2 backend (x86_64 CPUs with AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// The AVX-512 backend (x86_64 CPUs with AVX-512 F, VL, BW and DQ, and AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
    /// The Neon backend (aarch64).
    #[cfg(target_arch = "aarch64")]
    Neon(Neon),
    /// The portable backend with the fault `MLDSA_PLANTED_BUG` names (feature
    /// `planted-bugs` only; what [`AnyBackend::new`] gives for the portable backend when
    /// that variable is set and non-empty).
    #[cfg(feature = "planted-bugs")]
    Planted(Planted<Portable>),
}

impl AnyBackend {
    /// Detects the CPU features `kind` needs; an error if they (or the code) are missing.
    pub fn new(kind: BackendKind) -> Result<Self, Error> {
        match kind {
            #[cfg(feature = "planted-bugs")]
            BackendKind::Portable if planted::enabled() => {
                Ok(AnyBackend::Planted(Planted(Portable)))
            }
            BackendKind::Portable => Ok(AnyBackend::Portable(Portable)),
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx2 => Avx2::detect()
                .map(AnyBackend::Avx2)
                .ok_or(Error::BackendUnavailable(kind)),
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx512 => Avx512::detect()
                .map(AnyBackend::Avx512)
                .ok_or(Error::BackendUnavailable(kind)),
            #[cfg(target_arch = "aarch64")]
            BackendKind::Neon => Neon::detect()
                .map(AnyBackend::Neon)
                .ok_or(Error::BackendUnavailable(kind)),
            other => Err(Error::BackendUnavailable(other)),
        }
    }

    /// Which backend this is.
    pub fn kind(self) -> BackendKind {
        match self {
            AnyBackend::Portable(_) => BackendKind::Portable,
            #[cfg(target_arch = "x86_64")]
            AnyBackend::Avx2(_) => BackendKind::Avx2,
            #[cfg(target_arch = "x86_64")]
            AnyBackend::Avx512(_) => BackendKind::Avx512,
            #[cfg(target_arch = "aarch64")]
            AnyBackend::Neon(_) => BackendKind::Neon,
            #[cfg(feature = "planted-bugs")]
            AnyBackend::Planted(_) => BackendKind::Portable,
        }
    }
}

/// Runs `$body` with `$b` bound to the concrete backend token inside `$any`.
// Two definitions: a `cfg` on a feature inside an exported macro would be evaluated in the
// calling crate, so the planted-bugs arm is chosen here, when this crate is compiled.
#[cfg(not(feature = "planted-bugs"))]
#[macro_export]
macro_rules! with_backend {
    ($any:expr, |$b:ident| $body:expr) => {
        match $any {
            $crate::backend::AnyBackend::Portable($b) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::backend::AnyBackend::Avx2($b) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::backend::AnyBackend::Avx512($b) => $body,
            #[cfg(target_arch = "aarch64")]
            $crate::backend::AnyBackend::Neon($b) => $body,
        }
    };
}

/// Runs `$body` with `$b` bound to the concrete backend token inside `$any`.
#[cfg(feature = "planted-bugs")]
#[macro_export]
macro_rules! with_backend {
    ($any:expr, |$b:ident| $body:expr) => {
        match $any {
            $crate::backend::AnyBackend::Portable($b) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::backend::AnyBackend::Avx2($b) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::backend::AnyBackend::Avx512($b) => $body,
            #[cfg(target_arch = "aarch64")]
            $crate::backend::AnyBackend::Neon($b) => $body,
            $crate::backend::AnyBackend::Planted($b) => $body,
        }
    };
}
