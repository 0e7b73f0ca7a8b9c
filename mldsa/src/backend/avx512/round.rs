//! The rounding kernels on sixteen lanes: Power2Round, Decompose, MakeHint, UseHint and the
//! norm check. The AVX2 kernels' arithmetic lane by lane (so the results are bit-identical),
//! with the lane selections in mask registers: a masked add or move is one instruction whose
//! time does not depend on the mask.
#![allow(unsafe_code)]

use super::util::{VECS, load, store};
use crate::params::Gamma2;
use crate::poly::Poly;
use core::arch::x86_64::*;

#[target_feature(enable = "avx512f")]
pub(super) fn power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly) {
    let c = _mm512_set1_epi32((1 << 12) - 1);
    for i in 0..VECS {
        let x = load(a, i);
        let hi = _mm512_srai_epi32::<13>(_mm512_add_epi32(x, c));
        store(t1, i, hi);
        store(t0, i, _mm512_sub_epi32(x, _mm512_slli_epi32::<13>(hi)));
    }
}

/// Decompose on 16 lanes, the same arithmetic as `portable::decompose` and the AVX2 kernel:
/// (r1, r0), with r1 = m folded to 0 and r0 one less there.
#[target_feature(enable = "avx512f")]
fn decompose_vec(g: Gamma2, r: __m512i) -> (__m512i, __m512i) {
    let g2 = g.value();
    let x = _mm512_add_epi32(r, _mm512_set1_epi32(g2 - 1));
    let r1 = match g {
        Gamma2::QMinus1Over32 => _mm512_srai_epi32::<20>(_mm512_add_epi32(
            _mm512_mullo_epi32(_mm512_srai_epi32::<9>(x), _mm512_set1_epi32(1025)),
            _mm512_set1_epi32(1 << 10),
        )),
        Gamma2::QMinus1Over88 => _mm512_srai_epi32::<20>(_mm512_add_epi32(
            _mm512_mullo_epi32(_mm512_srai_epi32::<11>(x), _mm512_set1_epi32(11275)),
            _mm512_set1_epi32(1 << 12),
        )),
    };
    let r0 = _mm512_sub_epi32(r, _mm512_mullo_epi32(r1, _mm512_set1_epi32(2 * g2)));
    let wrap = _mm512_cmpeq_epi32_mask(r1, _mm512_set1_epi32(g.m()));
    (
        _mm512_maskz_mov_epi32(!wrap, r1),
        _mm512_mask_sub_epi32(r0, wrap, r0, _mm512_set1_epi32(1)),
    )
}

#[target_feature(enable = "avx512f")]
pub(super) fn decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
    for i in 0..VECS {
        let (hi, lo) = decompose_vec(g, load(a, i));
        store(a1, i, hi);
        store(a0, i, lo);
    }
}

#[target_feature(enable = "avx512f,popcnt")]
pub(super) fn make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
    let g2 = _mm512_set1_epi32(g.value());
    let ng2 = _mm512_set1_epi32(-g.value());
    let one = _mm512_set1_epi32(1);
    let mut n = 0;
    for i in 0..VECS {
        let x = load(a0, i);
        // FIPS 204 Alg. 39 on the low bits (as the AVX2 kernel): h = 1 where a0 > gamma2,
        // a0 < -gamma2, or a0 = -gamma2 with a1 != 0.
        let outside = _mm512_cmpgt_epi32_mask(x, g2) | _mm512_cmpgt_epi32_mask(ng2, x);
        let at = _mm512_cmpeq_epi32_mask(x, ng2) & _mm512_test_epi32_mask(load(a1, i), load(a1, i));
        let mask = outside | at;
        store(h, i, _mm512_maskz_mov_epi32(mask, one));
        n += mask.count_ones() as usize;
    }
    n
}

#[target_feature(enable = "avx512f")]
pub(super) fn use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
    // FIPS 204 Alg. 40: h = 1 moves r1 up if r0 > 0 and down if r0 <= 0 (including 0),
    // modulo m.
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi32(1);
    let m = _mm512_set1_epi32(g.m());
    let top = _mm512_set1_epi32(g.m() - 1);
    for i in 0..VECS {
        let (r1, r0) = decompose_vec(g, load(a, i));
        let hint = _mm512_cmpeq_epi32_mask(load(h, i), one);
        let up = _mm512_cmpgt_epi32_mask(r0, zero);
        let mut v = _mm512_mask_add_epi32(r1, hint & up, r1, one);
        v = _mm512_mask_sub_epi32(v, hint & !up, v, one);
        // Wrap into [0, m): -1 -> m - 1, m -> 0.
        v = _mm512_mask_mov_epi32(v, _mm512_cmplt_epi32_mask(v, zero), top);
        v = _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(v, m), zero);
        store(out, i, v);
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn chknorm(a: &Poly, bound: i32) -> bool {
    // The largest magnitude, compared once at the end: no early exit (the AVX2 kernel ORs
    // every lane's comparison for the same reason).
    let mut max = _mm512_setzero_si512();
    for i in 0..VECS {
        max = _mm512_max_epi32(max, _mm512_abs_epi32(load(a, i)));
    }
    _mm512_cmpgt_epi32_mask(max, _mm512_set1_epi32(bound - 1)) != 0
}
