//! What the AVX-512 kernel families share: aligned loads and stores of sixteen coefficients
//! and the odd-lane shuffle.
#![allow(unsafe_code)]

use crate::params::N;
use crate::poly::Poly;
use core::arch::x86_64::*;

/// Vectors of sixteen coefficients in a polynomial (N / 16).
pub(super) const VECS: usize = 16;
const _: () = assert!(VECS * 16 == N);
// `load` and `store` use aligned instructions: a polynomial must start on a 64-byte boundary.
const _: () = assert!(core::mem::align_of::<Poly>() >= 64);

/// Loads vector `i` (coefficients 16i..16i + 16) of `p`. Panics if `i >= N / 16`: a safe
/// function checks its own precondition (with `i` from a constant-bound loop, as in every
/// kernel, the compiler removes the check).
#[target_feature(enable = "avx512f")]
pub(super) fn load(p: &Poly, i: usize) -> __m512i {
    assert!(i < VECS);
    // SAFETY: i < N / 16, so coefficients 16i..16i + 16 are in bounds; `Poly` is 64-byte
    // aligned (asserted above) and 16i coefficients are 64i bytes, so the address is too.
    unsafe { _mm512_load_si512(p.coeffs.as_ptr().add(16 * i).cast()) }
}

/// Stores `v` as vector `i` of `p`. Panics if `i >= N / 16`, as [`load`].
#[target_feature(enable = "avx512f")]
pub(super) fn store(p: &mut Poly, i: usize, v: __m512i) {
    assert!(i < VECS);
    // SAFETY: as for `load`.
    unsafe { _mm512_store_si512(p.coeffs.as_mut_ptr().add(16 * i).cast(), v) }
}

/// Duplicates the odd 32-bit lanes into the even ones (`vmovshdup`), so `_mm512_mul_epi32`,
/// which reads even lanes, can multiply the odd ones.
#[target_feature(enable = "avx512f")]
pub(super) fn odd(x: __m512i) -> __m512i {
    _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x)))
}
