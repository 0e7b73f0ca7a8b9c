//! Coefficient-wise arithmetic on eight lanes: the Montgomery products, reduce, caddq,
//! add, sub, shiftl, Power2Round, Decompose, the hints and the norm check. Each is the
//! portable arithmetic lane by lane (the L-fold product excepted: see its comment).
#![allow(unsafe_code)]

use super::util::{load, montmul, odd, store};
use crate::backend::field::{Q, QINV};
use crate::params::{Gamma2, N};
use crate::poly::Poly;
use core::arch::x86_64::*;

/// Eight-lane vectors in a polynomial.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant: the constants N and 8"
)]
const VECS: usize = N / 8;

#[target_feature(enable = "avx2")]
pub(super) fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..VECS {
        store(c, i, montmul(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    // One instance per l (4, 5, 7), so the inner loop over the terms is unrolled.
    match (a.len(), b.len()) {
        (4, 4) => pointwise_acc_l::<4>(c, a, b),
        (5, 5) => pointwise_acc_l::<5>(c, a, b),
        (7, 7) => pointwise_acc_l::<7>(c, a, b),
        _ => pointwise_acc_l::<0>(c, a, b),
    }
}

/// The L-fold product; `L = 0` means "any length" (the generic loop).
#[target_feature(enable = "avx2")]
fn pointwise_acc_l<const L: usize>(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    // The products are summed in 64 bits and reduced once: |a|, |b| < 9q and l <= 7 give
    // |sum| < 7 * 81 q^2 < 2^56, and one Montgomery reduction of that is below 2^24 + q in
    // magnitude, inside the contract's 7q. Congruent to the portable sum of reduced products
    // (the contract compares mod q).
    let n = if L == 0 { a.len().min(b.len()) } else { L };
    debug_assert!(n <= 7, "the 64-bit sum is bounded for at most 7 terms");
    let (a, b) = (&a[..n], &b[..n]);
    let qinv = _mm256_set1_epi32(QINV);
    let q = _mm256_set1_epi32(Q);
    for i in 0..VECS {
        let mut even = _mm256_setzero_si256();
        let mut odd_acc = _mm256_setzero_si256();
        for k in 0..n {
            let (x, y) = (load(&a[k], i), load(&b[k], i));
            even = _mm256_add_epi64(even, _mm256_mul_epi32(x, y));
            odd_acc = _mm256_add_epi64(
                odd_acc,
                _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(y, 32)),
            );
        }
        let te = _mm256_mul_epi32(_mm256_mul_epi32(even, qinv), q);
        let to = _mm256_mul_epi32(_mm256_mul_epi32(odd_acc, qinv), q);
        let re = odd(_mm256_sub_epi64(even, te));
        let ro = _mm256_sub_epi64(odd_acc, to);
        store(c, i, _mm256_blend_epi32(re, ro, 0b1010_1010));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn reduce(a: &mut Poly) {
    let q = _mm256_set1_epi32(Q);
    let half = _mm256_set1_epi32(1 << 22);
    for i in 0..VECS {
        let x = load(a, i);
        let t = _mm256_srai_epi32(_mm256_add_epi32(x, half), 23);
        store(a, i, _mm256_sub_epi32(x, _mm256_mullo_epi32(t, q)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn caddq(a: &mut Poly) {
    let q = _mm256_set1_epi32(Q);
    for i in 0..VECS {
        let x = load(a, i);
        store(
            a,
            i,
            _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), q)),
        );
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn add(a: &mut Poly, b: &Poly) {
    for i in 0..VECS {
        store(a, i, _mm256_add_epi32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn sub(a: &mut Poly, b: &Poly) {
    for i in 0..VECS {
        store(a, i, _mm256_sub_epi32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn shiftl(a: &mut Poly) {
    for i in 0..VECS {
        store(a, i, _mm256_slli_epi32(load(a, i), 13));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly) {
    let c = _mm256_set1_epi32((1 << 12) - 1);
    for i in 0..VECS {
        let x = load(a, i);
        let hi = _mm256_srai_epi32(_mm256_add_epi32(x, c), 13);
        store(t1, i, hi);
        store(t0, i, _mm256_sub_epi32(x, _mm256_slli_epi32(hi, 13)));
    }
}

/// Decompose on 8 lanes, the same arithmetic as `portable::decompose`.
#[target_feature(enable = "avx2")]
fn decompose_vec(g: Gamma2, r: __m256i) -> (__m256i, __m256i) {
    let g2 = g.value();
    let x = _mm256_add_epi32(r, _mm256_set1_epi32(g2 - 1));
    let r1 = match g {
        Gamma2::QMinus1Over32 => _mm256_srai_epi32(
            _mm256_add_epi32(
                _mm256_mullo_epi32(_mm256_srai_epi32(x, 9), _mm256_set1_epi32(1025)),
                _mm256_set1_epi32(1 << 10),
            ),
            20,
        ),
        Gamma2::QMinus1Over88 => _mm256_srai_epi32(
            _mm256_add_epi32(
                _mm256_mullo_epi32(_mm256_srai_epi32(x, 11), _mm256_set1_epi32(11275)),
                _mm256_set1_epi32(1 << 12),
            ),
            20,
        ),
    };
    let r0 = _mm256_sub_epi32(r, _mm256_mullo_epi32(r1, _mm256_set1_epi32(2 * g2)));
    let wrap = _mm256_cmpeq_epi32(r1, _mm256_set1_epi32(g.m()));
    (_mm256_andnot_si256(wrap, r1), _mm256_add_epi32(r0, wrap))
}

#[target_feature(enable = "avx2")]
pub(super) fn decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
    for i in 0..VECS {
        let (hi, lo) = decompose_vec(g, load(a, i));
        store(a1, i, hi);
        store(a0, i, lo);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
    let g2 = _mm256_set1_epi32(g.value());
    let ng2 = _mm256_set1_epi32(-g.value());
    let one = _mm256_set1_epi32(1);
    let zero = _mm256_setzero_si256();
    let mut n = 0;
    for i in 0..VECS {
        let x = load(a0, i);
        let above = _mm256_cmpgt_epi32(x, g2);
        let below = _mm256_cmpgt_epi32(ng2, x);
        let at = _mm256_andnot_si256(
            _mm256_cmpeq_epi32(load(a1, i), zero),
            _mm256_cmpeq_epi32(x, ng2),
        );
        let mask = _mm256_or_si256(_mm256_or_si256(above, below), at);
        store(h, i, _mm256_and_si256(mask, one));
        n += (_mm256_movemask_ps(_mm256_castsi256_ps(mask)) as u32).count_ones() as usize;
    }
    n
}

#[target_feature(enable = "avx2")]
pub(super) fn use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
    // FIPS 204 Alg. 40: h = 1 moves r1 up if r0 > 0 and down if r0 <= 0 (including 0).
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi32(1);
    let m = _mm256_set1_epi32(g.m());
    for i in 0..VECS {
        let (r1, r0) = decompose_vec(g, load(a, i));
        let hint = _mm256_cmpeq_epi32(load(h, i), one);
        let up = _mm256_cmpgt_epi32(r0, zero);
        // delta = +1 where up, -1 elsewhere; only where the hint is set.
        let delta = _mm256_and_si256(
            hint,
            _mm256_or_si256(
                _mm256_and_si256(up, one),
                _mm256_andnot_si256(up, _mm256_set1_epi32(-1)),
            ),
        );
        let mut v = _mm256_add_epi32(r1, delta);
        // Wrap into [0, m): -1 -> m - 1, m -> 0.
        v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_cmpgt_epi32(zero, v), m));
        v = _mm256_andnot_si256(_mm256_cmpeq_epi32(v, m), v);
        store(out, i, v);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn chknorm(a: &Poly, bound: i32) -> bool {
    let b = _mm256_set1_epi32(bound - 1);
    let mut bad = _mm256_setzero_si256();
    for i in 0..VECS {
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(load(a, i)), b));
    }
    _mm256_testz_si256(bad, bad) == 0
}
