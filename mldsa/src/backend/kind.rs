//! [`BackendKind`], the name of a backend: a leaf module (it depends on the error type only,
//! and `crate::error` depends on it only). What needs the backends themselves (whether one
//! is available, the default choice) is in an `impl BackendKind` block in the parent module.

use crate::error::Error;

/// Which implementation of the kernels to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Plain Rust, every CPU. The specification.
    Portable,
    /// x86_64 AVX2.
    Avx2,
    /// aarch64 Neon.
    Neon,
}

impl BackendKind {
    /// Every kind, in order of preference (slowest first).
    pub const ALL: [BackendKind; 3] = [BackendKind::Portable, BackendKind::Avx2, BackendKind::Neon];

    /// The lower-case name used by `MLDSA_BACKEND` and the tools.
    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Portable => "portable",
            BackendKind::Avx2 => "avx2",
            BackendKind::Neon => "neon",
        }
    }

    /// Parses `portable`, `avx2` or `neon`.
    pub fn parse(s: &str) -> Result<Self, Error> {
        BackendKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(Error::UnknownBackend)
    }
}

impl core::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
