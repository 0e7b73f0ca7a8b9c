//! Coefficient-wise arithmetic on sixteen lanes: the Montgomery products, reduce, caddq,
//! add, sub and shiftl. The AVX2 kernels' arithmetic lane by lane, so the results are
//! bit-identical to theirs (the L-fold product's too, which sums 64-bit products and reduces
//! once: see the AVX2 kernel).
#![allow(unsafe_code)]

use super::util::{VECS, load, odd, store};
use crate::backend::field::{Q, QINV};
use crate::poly::Poly;
use core::arch::x86_64::*;

/// The Montgomery reduction of 64-bit sums in the even lanes (`even`) and in the odd
/// lanes' positions (`odd_sum`, already moved to even lanes): the high halves of
/// s - (s QINV mod 2^32) q, back in their lanes.
#[target_feature(enable = "avx512f")]
fn reduce_pairs(even: __m512i, odd_sum: __m512i) -> __m512i {
    let qinv = _mm512_set1_epi32(QINV);
    let q = _mm512_set1_epi32(Q);
    let te = _mm512_mul_epi32(_mm512_mul_epi32(even, qinv), q);
    let to = _mm512_mul_epi32(_mm512_mul_epi32(odd_sum, qinv), q);
    let re = odd(_mm512_sub_epi64(even, te));
    let ro = _mm512_sub_epi64(odd_sum, to);
    _mm512_mask_blend_epi32(0xAAAA, re, ro)
}

#[target_feature(enable = "avx512f")]
pub(super) fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..VECS {
        let (x, y) = (load(a, i), load(b, i));
        let even = _mm512_mul_epi32(x, y);
        let odd_p = _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
        store(c, i, reduce_pairs(even, odd_p));
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    // One instance per l (4, 5, 7), so the inner loop over the terms is unrolled.
    match (a.len(), b.len()) {
        (4, 4) => pointwise_acc_l::<4>(c, a, b),
        (5, 5) => pointwise_acc_l::<5>(c, a, b),
        (7, 7) => pointwise_acc_l::<7>(c, a, b),
        _ => pointwise_acc_l::<0>(c, a, b),
    }
}

/// The L-fold product; `L = 0` means "any length". Summed in 64 bits and reduced once, as
/// the AVX2 kernel does (|sum| < 7 * 81 q^2 < 2^56 for |a|, |b| < 9q and l <= 7).
#[target_feature(enable = "avx512f")]
fn pointwise_acc_l<const L: usize>(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    let n = if L == 0 { a.len().min(b.len()) } else { L };
    debug_assert!(n <= 7, "the 64-bit sum is bounded for at most 7 terms");
    let (a, b) = (&a[..n], &b[..n]);
    for i in 0..VECS {
        let mut even = _mm512_setzero_si512();
        let mut odd_acc = _mm512_setzero_si512();
        for k in 0..n {
            let (x, y) = (load(&a[k], i), load(&b[k], i));
            even = _mm512_add_epi64(even, _mm512_mul_epi32(x, y));
            odd_acc = _mm512_add_epi64(
                odd_acc,
                _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y)),
            );
        }
        store(c, i, reduce_pairs(even, odd_acc));
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn reduce(a: &mut Poly) {
    let q = _mm512_set1_epi32(Q);
    let half = _mm512_set1_epi32(1 << 22);
    for i in 0..VECS {
        let x = load(a, i);
        let t = _mm512_srai_epi32::<23>(_mm512_add_epi32(x, half));
        store(a, i, _mm512_sub_epi32(x, _mm512_mullo_epi32(t, q)));
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn caddq(a: &mut Poly) {
    let q = _mm512_set1_epi32(Q);
    for i in 0..VECS {
        let x = load(a, i);
        // q where the sign bit is set: a shift and an and, as AVX2 (no mask register, so no
        // lane's sign steers anything but arithmetic).
        let add = _mm512_and_si512(_mm512_srai_epi32::<31>(x), q);
        store(a, i, _mm512_add_epi32(x, add));
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn add(a: &mut Poly, b: &Poly) {
    for i in 0..VECS {
        store(a, i, _mm512_add_epi32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn sub(a: &mut Poly, b: &Poly) {
    for i in 0..VECS {
        store(a, i, _mm512_sub_epi32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx512f")]
pub(super) fn shiftl(a: &mut Poly) {
    for i in 0..VECS {
        store(a, i, _mm512_slli_epi32::<13>(load(a, i)));
    }
}
