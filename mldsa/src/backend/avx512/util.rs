//! What the AVX-512 kernel families share.

use core::arch::x86_64::*;

/// Duplicates the odd 32-bit lanes into the even ones (`vmovshdup`), so `_mm512_mul_epi32`,
/// which reads even lanes, can multiply the odd ones.
#[target_feature(enable = "avx512f")]
pub(super) fn odd(x: __m512i) -> __m512i {
    _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x)))
}
