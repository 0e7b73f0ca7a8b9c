//! Forward and inverse NTT on 4 x 32-bit Neon lanes, in the canonical (FIPS 204
//! bit-reversed) order and bit-identical to the portable transforms: the same butterflies,
//! the same Montgomery reductions, in an order that only regroups independent butterflies.
//!
//! Layers 1-3 (distances 128, 64, 32) run on eight vectors at coefficient offsets
//! 4c + 32k (k = 0..8), one column c at a time; layers 4-8 on one 32-coefficient block of
//! eight vectors at a time: distances 16, 8 and 4 pair whole vectors, and for distances 2
//! and 1 each group of four vectors is transposed (4 x 4), so that those butterflies also
//! pair whole vectors, with per-lane twiddles, and transposed back. The inverse runs the
//! same schedule backwards and folds the final scaling into its last pass.
#![allow(unsafe_code)]

use super::super::field::{INVNTT_F, QINV, ZETAS};
use crate::params::{N, Q};
use crate::poly::Poly;
use core::arch::aarch64::*;

/// `z * QINV mod 2^32` for each entry of `t`: the precomputed Montgomery factor.
const fn times_qinv(t: &[i32; N]) -> [i32; N] {
    let mut r = [0i32; N];
    let mut i = 0;
    while i < N {
        r[i] = t[i].wrapping_mul(QINV);
        i += 1;
    }
    r
}

/// The inverse transform's twiddles in the forward transform's indexing. The portable inverse
/// NTT walks each layer's blocks with m decreasing, so block j of the layer whose first
/// index is `base` (a power of two) uses -ZETAS[2 base - 1 - j]; here that value sits at
/// index base + j, so both transforms address their tables the same way.
const fn inverse_zetas() -> [i32; N] {
    let mut r = [0i32; N];
    let mut m = 1;
    while m < N {
        let base = 1 << (usize::BITS - 1 - m.leading_zeros());
        r[m] = -ZETAS[3 * base - 1 - m];
        m += 1;
    }
    r
}

/// Forward twiddles (Montgomery form) and their Montgomery factors.
static Z: [i32; N] = ZETAS;
static ZQ: [i32; N] = times_qinv(&ZETAS);
/// Inverse twiddles (see [`inverse_zetas`]) and their Montgomery factors.
static IZ: [i32; N] = inverse_zetas();
static IZQ: [i32; N] = times_qinv(&inverse_zetas());

/// 2^64 / 256 mod q: the inverse NTT's final factor (as in the portable backend).
const F: i32 = INVNTT_F as i32;
const FQ: i32 = F.wrapping_mul(QINV);

/// A twiddle (the same in every lane, or one per lane) with its Montgomery factor.
#[derive(Clone, Copy)]
struct Tw {
    z: int32x4_t,
    zq: int32x4_t,
}

/// Entry `m` of a twiddle table, in every lane.
#[target_feature(enable = "neon")]
fn bcast(z: &[i32; N], zq: &[i32; N], m: usize) -> Tw {
    Tw {
        z: vdupq_n_s32(z[m]),
        zq: vdupq_n_s32(zq[m]),
    }
}

/// Entries `m..m + 4` of a twiddle table, one per lane.
#[target_feature(enable = "neon")]
fn per_lane(z: &[i32; N], zq: &[i32; N], m: usize) -> Tw {
    assert!(m + 4 <= N);
    // SAFETY: m + 4 <= N, so four i32 are readable at z[m] and zq[m].
    unsafe {
        Tw {
            z: vld1q_s32(z.as_ptr().add(m)),
            zq: vld1q_s32(zq.as_ptr().add(m)),
        }
    }
}

/// Entries `m, m + 2, m + 4, m + 6` and `m + 1, m + 3, m + 5, m + 7` of a twiddle table, one
/// per lane (a de-interleaving load).
#[target_feature(enable = "neon")]
fn per_lane_pairs(z: &[i32; N], zq: &[i32; N], m: usize) -> (Tw, Tw) {
    assert!(m + 8 <= N);
    // SAFETY: m + 8 <= N, so eight i32 are readable at z[m] and zq[m].
    let (a, b) = unsafe { (vld2q_s32(z.as_ptr().add(m)), vld2q_s32(zq.as_ptr().add(m))) };
    (Tw { z: a.0, zq: b.0 }, Tw { z: a.1, zq: b.1 })
}

/// Lane-wise Montgomery multiplication by a twiddle: b * z * 2^-32 mod q, bit-identical to
/// the portable `montgomery_reduce(b * z)` for |b z| < 2^31 q.
///
/// With t = b * zq mod 2^32 (the portable Montgomery factor), b z - t q is a multiple of
/// 2^32, so the doubled high halves `vqdmulh(b, z)` = floor(2 b z / 2^32) and
/// `vqdmulh(t, q)` differ by exactly twice the result, which the halving subtract returns.
/// Neither product saturates (that needs both operands to be -2^31).
#[target_feature(enable = "neon")]
fn mulz(b: int32x4_t, w: Tw) -> int32x4_t {
    let t = vmulq_s32(b, w.zq);
    vhsubq_s32(vqdmulhq_s32(b, w.z), vqdmulhq_s32(t, vdupq_n_s32(Q)))
}

/// Cooley-Tukey butterfly (a, b) -> (a + z b, a - z b), as the portable NTT.
#[target_feature(enable = "neon")]
fn ct(v: &mut [int32x4_t; 8], i: usize, j: usize, w: Tw) {
    let t = mulz(v[j], w);
    v[j] = vsubq_s32(v[i], t);
    v[i] = vaddq_s32(v[i], t);
}

/// Gentleman-Sande butterfly (a, b) -> (a + b, z (a - b)), as the portable inverse NTT.
#[target_feature(enable = "neon")]
fn gs(v: &mut [int32x4_t; 8], i: usize, j: usize, w: Tw) {
    let d = vsubq_s32(v[i], v[j]);
    v[i] = vaddq_s32(v[i], v[j]);
    v[j] = mulz(d, w);
}

/// Transposes the 4 x 4 matrix of lanes in v[o..o + 4] (an involution).
#[target_feature(enable = "neon")]
fn transpose4(v: &mut [int32x4_t; 8], o: usize) {
    let t0 = vtrn1q_s32(v[o], v[o + 1]);
    let t1 = vtrn2q_s32(v[o], v[o + 1]);
    let t2 = vtrn1q_s32(v[o + 2], v[o + 3]);
    let t3 = vtrn2q_s32(v[o + 2], v[o + 3]);
    let (t0, t1, t2, t3) = (
        vreinterpretq_s64_s32(t0),
        vreinterpretq_s64_s32(t1),
        vreinterpretq_s64_s32(t2),
        vreinterpretq_s64_s32(t3),
    );
    v[o] = vreinterpretq_s32_s64(vtrn1q_s64(t0, t2));
    v[o + 1] = vreinterpretq_s32_s64(vtrn1q_s64(t1, t3));
    v[o + 2] = vreinterpretq_s32_s64(vtrn2q_s64(t0, t2));
    v[o + 3] = vreinterpretq_s32_s64(vtrn2q_s64(t1, t3));
}

/// Loads the eight vectors `first + stride * k` (vector i = coefficients 4i..4i + 4).
// Always inlined (so not a target-feature function): as a call, the eight vectors would
// travel through memory.
#[inline(always)]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "bounds check on public indices against the constant N / 4"
)]
fn load8(p: &Poly, first: usize, stride: usize) -> [int32x4_t; 8] {
    assert!(first + 7 * stride < N / 4);
    // SAFETY: every vector index is below N / 4, so 4 i32 are readable at 4 * index.
    core::array::from_fn(|k| unsafe { vld1q_s32(p.coeffs.as_ptr().add(4 * (first + stride * k))) })
}

/// Stores eight vectors as [`load8`] loads them.
// Always inlined (so not a target-feature function): as a call, the eight vectors would
// travel through memory.
#[inline(always)]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "bounds check on public indices against the constant N / 4"
)]
fn store8(p: &mut Poly, first: usize, stride: usize, v: &[int32x4_t; 8]) {
    assert!(first + 7 * stride < N / 4);
    for (k, x) in v.iter().enumerate() {
        // SAFETY: every vector index is below N / 4, so 4 i32 are writable at 4 * index.
        unsafe { vst1q_s32(p.coeffs.as_mut_ptr().add(4 * (first + stride * k)), *x) };
    }
}

/// Forward NTT (FIPS 204 Alg. 41), bit-identical to the portable kernel.
#[target_feature(enable = "neon")]
pub(super) fn ntt(p: &mut Poly) {
    // Layers 1-3: the eight vectors at coefficients 4c + 32k.
    for c in 0..8 {
        let mut v = load8(p, c, 8);
        let w = bcast(&Z, &ZQ, 1);
        for k in 0..4 {
            ct(&mut v, k, k + 4, w);
        }
        for h in 0..2 {
            let w = bcast(&Z, &ZQ, 2 + h);
            ct(&mut v, 4 * h, 4 * h + 2, w);
            ct(&mut v, 4 * h + 1, 4 * h + 3, w);
        }
        for h in 0..4 {
            ct(&mut v, 2 * h, 2 * h + 1, bcast(&Z, &ZQ, 4 + h));
        }
        store8(p, c, 8, &v);
    }
    // Layers 4-8: one 32-coefficient block at a time.
    for b in 0..8 {
        let mut v = load8(p, 8 * b, 1);
        let w = bcast(&Z, &ZQ, 8 + b);
        for k in 0..4 {
            ct(&mut v, k, k + 4, w);
        }
        for h in 0..2 {
            let w = bcast(&Z, &ZQ, 16 + 2 * b + h);
            ct(&mut v, 4 * h, 4 * h + 2, w);
            ct(&mut v, 4 * h + 1, 4 * h + 3, w);
        }
        for h in 0..4 {
            ct(&mut v, 2 * h, 2 * h + 1, bcast(&Z, &ZQ, 32 + 4 * b + h));
        }
        for g in 0..2 {
            let o = 4 * g;
            // Now v[o + l] lane i is coefficient 32b + 16g + 4i + l.
            transpose4(&mut v, o);
            let w = per_lane(&Z, &ZQ, 64 + 8 * b + 4 * g);
            ct(&mut v, o, o + 2, w);
            ct(&mut v, o + 1, o + 3, w);
            let (even, odd) = per_lane_pairs(&Z, &ZQ, 128 + 16 * b + 8 * g);
            ct(&mut v, o, o + 1, even);
            ct(&mut v, o + 2, o + 3, odd);
            transpose4(&mut v, o);
        }
        store8(p, 8 * b, 1, &v);
    }
}

/// Inverse NTT times 2^32 (FIPS 204 Alg. 42 and the portable final scaling), bit-identical
/// to the portable kernel.
#[target_feature(enable = "neon")]
pub(super) fn invntt_tomont(p: &mut Poly) {
    // Distances 1-16: one 32-coefficient block at a time.
    for b in 0..8 {
        let mut v = load8(p, 8 * b, 1);
        for g in 0..2 {
            let o = 4 * g;
            transpose4(&mut v, o);
            let (even, odd) = per_lane_pairs(&IZ, &IZQ, 128 + 16 * b + 8 * g);
            gs(&mut v, o, o + 1, even);
            gs(&mut v, o + 2, o + 3, odd);
            let w = per_lane(&IZ, &IZQ, 64 + 8 * b + 4 * g);
            gs(&mut v, o, o + 2, w);
            gs(&mut v, o + 1, o + 3, w);
            transpose4(&mut v, o);
        }
        for h in 0..4 {
            gs(&mut v, 2 * h, 2 * h + 1, bcast(&IZ, &IZQ, 32 + 4 * b + h));
        }
        for h in 0..2 {
            let w = bcast(&IZ, &IZQ, 16 + 2 * b + h);
            gs(&mut v, 4 * h, 4 * h + 2, w);
            gs(&mut v, 4 * h + 1, 4 * h + 3, w);
        }
        let w = bcast(&IZ, &IZQ, 8 + b);
        for k in 0..4 {
            gs(&mut v, k, k + 4, w);
        }
        store8(p, 8 * b, 1, &v);
    }
    // Distances 32-128 and the final factor: the eight vectors at coefficients 4c + 32k.
    let f = Tw {
        z: vdupq_n_s32(F),
        zq: vdupq_n_s32(FQ),
    };
    for c in 0..8 {
        let mut v = load8(p, c, 8);
        for h in 0..4 {
            gs(&mut v, 2 * h, 2 * h + 1, bcast(&IZ, &IZQ, 4 + h));
        }
        for h in 0..2 {
            let w = bcast(&IZ, &IZQ, 2 + h);
            gs(&mut v, 4 * h, 4 * h + 2, w);
            gs(&mut v, 4 * h + 1, 4 * h + 3, w);
        }
        let w = bcast(&IZ, &IZQ, 1);
        for k in 0..4 {
            gs(&mut v, k, k + 4, w);
        }
        for x in v.iter_mut() {
            *x = mulz(*x, f);
        }
        store8(p, c, 8, &v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_table_matches_the_portable_walk() {
        // The portable inverse NTT's m for block j of the layer at distance len.
        let mut len = 1;
        let mut m = N;
        while len < N {
            let blocks = N / (2 * len);
            for j in 0..blocks {
                m -= 1;
                assert_eq!(IZ[blocks + j], -ZETAS[m], "len {len}, block {j}");
            }
            len <<= 1;
        }
        let q = i64::from(Q);
        assert_eq!(
            i64::from(F) * 256 % q,
            crate::backend::field::MONT * crate::backend::field::MONT % q
        );
    }
}
