//! The polynomial type shared by every backend.

use crate::params::N;
use zeroize::Zeroize;

/// A polynomial in Z_q[X]/(X^256 + 1), one `i32` per coefficient.
///
/// Which representative a coefficient holds (canonical, centred, or merely bounded) is
/// stated by the contract of the kernel that produced it; see [`crate::backend::contract`].
/// The 64-byte alignment lets SIMD backends use aligned loads of whole registers (32 bytes
/// for AVX2, 64 for AVX-512) and keeps every polynomial on its own cache lines, so a
/// kernel's speed does not depend on where the stack happens to lie.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Poly {
    /// Coefficients a_0 .. a_255.
    pub coeffs: [i32; N],
}

impl Poly {
    /// The zero polynomial.
    pub const ZERO: Poly = Poly { coeffs: [0; N] };

    /// A polynomial from its coefficients.
    pub const fn from_coeffs(coeffs: [i32; N]) -> Self {
        Poly { coeffs }
    }
}

impl Zeroize for Poly {
    /// Wipes the coefficients as one slice: zeroize's bulk path (a fill the optimiser may
    /// not remove), not 256 separate volatile stores as the derived per-element wipe does.
    fn zeroize(&mut self) {
        self.coeffs[..].zeroize();
    }
}

impl Default for Poly {
    fn default() -> Self {
        Poly::ZERO
    }
}

impl core::fmt::Debug for Poly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Poly[{}, {}, {}, .., {}]",
            self.coeffs[0],
            self.coeffs[1],
            self.coeffs[2],
            self.coeffs[N - 1]
        )
    }
}
