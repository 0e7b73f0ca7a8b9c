//! Coefficient-wise arithmetic on 4 x 32-bit Neon lanes: the pointwise products, reduce,
//! caddq, add, sub, shiftl, and the rounding kernels (power2round, decompose, make_hint,
//! use_hint, chknorm). Every kernel here except the L-fold product is bit-identical to the
//! portable one; the secret-dependent ones (all but use_hint) have no branch or memory
//! access that depends on a coefficient.
#![allow(unsafe_code)]

use super::super::field::QINV;
use crate::params::{Gamma2, N, Q};
use crate::poly::Poly;
use core::arch::aarch64::*;

/// Four-lane vectors in a polynomial.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant: the constants N and 4"
)]
const VECS: usize = N / 4;

/// Vector `i` (coefficients 4i..4i + 4) of `p`.
#[target_feature(enable = "neon")]
pub(super) fn load(p: &Poly, i: usize) -> int32x4_t {
    assert!(i < VECS);
    // SAFETY: i < VECS = N / 4, so coefficients 4i..4i + 4 are in bounds.
    unsafe { vld1q_s32(p.coeffs.as_ptr().add(4 * i)) }
}

/// Stores vector `i` of `p`.
#[target_feature(enable = "neon")]
pub(super) fn store(p: &mut Poly, i: usize, v: int32x4_t) {
    assert!(i < VECS);
    // SAFETY: i < VECS = N / 4, so coefficients 4i..4i + 4 are in bounds.
    unsafe { vst1q_s32(p.coeffs.as_mut_ptr().add(4 * i), v) }
}

/// Lane-wise Montgomery product a * b * 2^-32 mod q, bit-identical to the portable
/// `montgomery_reduce(a * b)` (see `ntt::mulz` for why the halving subtract is exact).
#[target_feature(enable = "neon")]
fn montmul(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    let t = vmulq_s32(vmulq_s32(a, b), vdupq_n_s32(QINV));
    vhsubq_s32(vqdmulhq_s32(a, b), vqdmulhq_s32(t, vdupq_n_s32(Q)))
}

#[target_feature(enable = "neon")]
pub(super) fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..VECS {
        store(c, i, montmul(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "neon")]
pub(super) fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    // One instance per l (4, 5, 7), so the loop over the terms is unrolled.
    match (a.len(), b.len()) {
        (4, 4) => pointwise_acc_l::<4>(c, a, b),
        (5, 5) => pointwise_acc_l::<5>(c, a, b),
        (7, 7) => pointwise_acc_l::<7>(c, a, b),
        _ => pointwise_acc_l::<0>(c, a, b),
    }
}

/// The L-fold product; `L = 0` means any length. The products are summed exactly in 64-bit
/// lanes (widening multiply-accumulate) and reduced once: |a|, |b| < 9q and l <= 7 give
/// |sum| < 7 * 81 q^2 < 2^56, whose Montgomery reduction is below 2^24 + q < 7q in
/// magnitude. Congruent to the portable sum of reduced products (the contract compares mod q).
#[target_feature(enable = "neon")]
fn pointwise_acc_l<const L: usize>(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    let n = if L == 0 { a.len().min(b.len()) } else { L };
    assert!(n <= 7, "the 64-bit sum is bounded for at most 7 terms");
    let (a, b) = (&a[..n], &b[..n]);
    let qinv = vdupq_n_s32(QINV);
    let q = vdupq_n_s32(Q);
    for i in 0..VECS {
        let mut lo = vdupq_n_s64(0);
        let mut hi = vdupq_n_s64(0);
        for k in 0..n {
            let (x, y) = (load(&a[k], i), load(&b[k], i));
            lo = vmlal_s32(lo, vget_low_s32(x), vget_low_s32(y));
            hi = vmlal_high_s32(hi, x, y);
        }
        // t = (sum mod 2^32) * QINV; (sum - t q) / 2^32 is the high half of each lane.
        let low32 = vuzp1q_s32(vreinterpretq_s32_s64(lo), vreinterpretq_s32_s64(hi));
        let t = vmulq_s32(low32, qinv);
        lo = vmlsl_s32(lo, vget_low_s32(t), vget_low_s32(q));
        hi = vmlsl_high_s32(hi, t, q);
        store(
            c,
            i,
            vuzp2q_s32(vreinterpretq_s32_s64(lo), vreinterpretq_s32_s64(hi)),
        );
    }
}

#[target_feature(enable = "neon")]
pub(super) fn reduce(a: &mut Poly) {
    let q = vdupq_n_s32(Q);
    let half = vdupq_n_s32(1 << 22);
    for i in 0..VECS {
        let x = load(a, i);
        let t = vshrq_n_s32::<23>(vaddq_s32(x, half));
        store(a, i, vmlsq_s32(x, t, q));
    }
}

#[target_feature(enable = "neon")]
pub(super) fn caddq(a: &mut Poly) {
    let q = vdupq_n_s32(Q);
    for i in 0..VECS {
        let x = load(a, i);
        store(a, i, vaddq_s32(x, vandq_s32(vshrq_n_s32::<31>(x), q)));
    }
}

#[target_feature(enable = "neon")]
pub(super) fn add(a: &mut Poly, b: &Poly) {
    for i in 0..VECS {
        store(a, i, vaddq_s32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "neon")]
pub(super) fn sub(a: &mut Poly, b: &Poly) {
    for i in 0..VECS {
        store(a, i, vsubq_s32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "neon")]
pub(super) fn shiftl(a: &mut Poly) {
    for i in 0..VECS {
        store(a, i, vshlq_n_s32::<13>(load(a, i)));
    }
}

#[target_feature(enable = "neon")]
pub(super) fn power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly) {
    let c = vdupq_n_s32((1 << 12) - 1);
    for i in 0..VECS {
        let x = load(a, i);
        let hi = vshrq_n_s32::<13>(vaddq_s32(x, c));
        store(t1, i, hi);
        store(t0, i, vsubq_s32(x, vshlq_n_s32::<13>(hi)));
    }
}

/// Decompose on four lanes, the same arithmetic as `portable::decompose`.
#[target_feature(enable = "neon")]
fn decompose_vec(g: Gamma2, r: int32x4_t) -> (int32x4_t, int32x4_t) {
    let g2 = g.value();
    let x = vaddq_s32(r, vdupq_n_s32(g2 - 1));
    let r1 = match g {
        Gamma2::QMinus1Over32 => vshrq_n_s32::<20>(vmlaq_s32(
            vdupq_n_s32(1 << 10),
            vshrq_n_s32::<9>(x),
            vdupq_n_s32(1025),
        )),
        Gamma2::QMinus1Over88 => vshrq_n_s32::<20>(vmlaq_s32(
            vdupq_n_s32(1 << 12),
            vshrq_n_s32::<11>(x),
            vdupq_n_s32(11275),
        )),
    };
    let r0 = vmlsq_s32(r, r1, vdupq_n_s32(2 * g2));
    // All ones where r1 = m (the wrap-around case): r1 becomes 0, r0 one less.
    let wrap = vreinterpretq_s32_u32(vceqq_s32(r1, vdupq_n_s32(g.m())));
    (vbicq_s32(r1, wrap), vaddq_s32(r0, wrap))
}

#[target_feature(enable = "neon")]
pub(super) fn decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
    for i in 0..VECS {
        let (hi, lo) = decompose_vec(g, load(a, i));
        store(a1, i, hi);
        store(a0, i, lo);
    }
}

#[target_feature(enable = "neon")]
pub(super) fn make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
    let g2 = vdupq_n_s32(g.value());
    let ng2 = vdupq_n_s32(-g.value());
    // Counts the hints per lane: each set lane of a mask (all ones) subtracts -1.
    let mut count = vdupq_n_u32(0);
    for i in 0..VECS {
        let x = load(a0, i);
        let y = load(a1, i);
        let above = vcgtq_s32(x, g2);
        let below = vcltq_s32(x, ng2);
        let at = vandq_u32(vceqq_s32(x, ng2), vtstq_s32(y, y));
        let mask = vorrq_u32(vorrq_u32(above, below), at);
        store(h, i, vreinterpretq_s32_u32(vshrq_n_u32::<31>(mask)));
        count = vsubq_u32(count, mask);
    }
    vaddvq_u32(count) as usize
}

#[target_feature(enable = "neon")]
pub(super) fn use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
    // FIPS 204 Alg. 40: h = 1 moves r1 up if r0 > 0 and down if r0 <= 0 (including 0).
    let one = vdupq_n_s32(1);
    let minus_one = vdupq_n_s32(-1);
    let m = vdupq_n_s32(g.m());
    for i in 0..VECS {
        let (r1, r0) = decompose_vec(g, load(a, i));
        let hint = vreinterpretq_s32_u32(vceqq_s32(load(h, i), one));
        let delta = vandq_s32(hint, vbslq_s32(vcgtzq_s32(r0), one, minus_one));
        let mut v = vaddq_s32(r1, delta);
        // Wrap into [0, m): -1 -> m - 1, m -> 0.
        v = vaddq_s32(v, vandq_s32(vshrq_n_s32::<31>(v), m));
        v = vbicq_s32(v, vreinterpretq_s32_u32(vceqq_s32(v, m)));
        store(out, i, v);
    }
}

#[target_feature(enable = "neon")]
pub(super) fn chknorm(a: &Poly, bound: i32) -> bool {
    // OR of the lanes where |a| > bound - 1: no early exit, no branch on a coefficient.
    let b = vdupq_n_s32(bound - 1);
    let mut bad = vdupq_n_u32(0);
    for i in 0..VECS {
        bad = vorrq_u32(bad, vcgtq_s32(vabsq_s32(load(a, i)), b));
    }
    vmaxvq_u32(bad) != 0
}
