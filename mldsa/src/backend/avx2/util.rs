//! Helpers every AVX2 kernel family shares: aligned loads and stores of eight coefficients,
//! the odd-lane shuffle, and lane-wise Montgomery multiplication.
#![allow(unsafe_code)]

use crate::backend::field::{Q, QINV};
use crate::params::N;
use crate::poly::Poly;
use core::arch::x86_64::*;

/// Vectors of eight coefficients in a polynomial (N / 8).
const VECS: usize = 32;
const _: () = assert!(VECS * 8 == N);

/// Loads vector `i` (coefficients 8i..8i + 8) of `p`. Panics if `i >= N / 8`: a safe
/// function checks its own precondition (with `i` from a constant-bound loop, as in every
/// kernel, the compiler removes the check).
#[target_feature(enable = "avx2")]
pub(super) fn load(p: &Poly, i: usize) -> __m256i {
    assert!(i < VECS);
    // SAFETY: i < N / 8, so coefficients 8i..8i+8 are in bounds; Poly is 32-byte aligned.
    unsafe { _mm256_load_si256(p.coeffs.as_ptr().add(8 * i).cast()) }
}

/// Stores `v` as vector `i` of `p`. Panics if `i >= N / 8`, as [`load`].
#[target_feature(enable = "avx2")]
pub(super) fn store(p: &mut Poly, i: usize, v: __m256i) {
    assert!(i < VECS);
    // SAFETY: as for `load`.
    unsafe { _mm256_store_si256(p.coeffs.as_mut_ptr().add(8 * i).cast(), v) }
}

/// Lane-wise Montgomery multiplication: a * b * 2^-32 mod q, |result| < q for |a b| < 2^31 q.
#[target_feature(enable = "avx2")]
pub(super) fn montmul(a: __m256i, b: __m256i) -> __m256i {
    let qinv = _mm256_set1_epi32(QINV);
    let q = _mm256_set1_epi32(Q);
    let even = _mm256_mul_epi32(a, b);
    let odd = _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    let te = _mm256_mul_epi32(_mm256_mul_epi32(even, qinv), q);
    let to = _mm256_mul_epi32(_mm256_mul_epi32(odd, qinv), q);
    let re = _mm256_srli_epi64(_mm256_sub_epi64(even, te), 32);
    let ro = _mm256_sub_epi64(odd, to);
    _mm256_blend_epi32(re, ro, 0b1010_1010)
}

/// Duplicates the odd lanes into the even ones (`vmovshdup`), so `_mm256_mul_epi32`, which
/// reads even lanes, can multiply the odd ones.
#[target_feature(enable = "avx2")]
pub(super) fn odd(x: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x)))
}
