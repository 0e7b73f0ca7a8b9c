//! [`BackendKind`], the name of a backend: a leaf module (it imports nothing; `crate::error`
//! imports it). What needs the error type or the backends themselves (parsing, whether one is
//! available, the default choice) is in an `impl BackendKind` block in the parent module.

/// Which implementation of the kernels to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Plain Rust, every CPU. The specification.
    Portable,
    /// x86_64 AVX2.
    Avx2,
    /// x86_64 AVX-512 (F, VL, BW, DQ, VBMI), with AVX2 for the kernels it does not accelerate.
    Avx512,
    /// aarch64 Neon.
    Neon,
}

impl BackendKind {
    /// Every kind, in order of preference (slowest first).
    pub const ALL: [BackendKind; 4] = [
        BackendKind::Portable,
        BackendKind::Avx2,
        BackendKind::Avx512,
        BackendKind::Neon,
    ];

    /// The lower-case name used by `MLDSA_BACKEND` and the tools.
    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Portable => "portable",
            BackendKind::Avx2 => "avx2",
            BackendKind::Avx512 => "avx512",
            BackendKind::Neon => "neon",
        }
    }
}

impl core::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
