//! The forward NTT, bit-identical to the portable one up to this backend's coefficient order
//! (see the `avx2` module docs), the inverse, equal to the portable one mod q (its final factor
//! is folded into the last layer), and the transpose that maps between orders.
#![allow(unsafe_code)]

use super::util::{load, odd, store};
use crate::backend::field::{self, Q, QINV, ZETAS};
use crate::backend::frame::align_frame;
use crate::poly::Poly;
use core::arch::x86_64::*;

/// Transposes an 8x8 matrix of 32-bit lanes held in eight vectors.
#[target_feature(enable = "avx2")]
pub(super) fn transpose(r: &mut [__m256i; 8]) {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    r[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
    r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
    r[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
    r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
    r[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
    r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
    r[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
    r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

/// Montgomery multiplication by a twiddle given with its precomputed `zq = z * QINV mod 2^32`:
/// b * z * 2^-32 mod q, bit-identical to `montgomery_reduce(b * z)`. Computing the Montgomery
/// factor t = b * zq directly (its low 32 bits equal those of b z QINV) takes one multiply off
/// the dependency chain; b z - t q has zero low half, so its high half is the result.
/// Odd lanes reach `_mm256_mul_epi32` (which reads even lanes) by a 64-bit shift, even
/// results return by `vmovshdup`: shifts and multiplies share ports 0/1, shuffles use port 5.
#[target_feature(enable = "avx2")]
fn mulz(b: __m256i, w: Tw) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let bo = _mm256_srli_epi64(b, 32);
    let pe = _mm256_mul_epi32(b, w.z);
    let po = _mm256_mul_epi32(bo, w.zo);
    let te = _mm256_mul_epi32(b, w.zq);
    let to = _mm256_mul_epi32(bo, w.zqo);
    let de = _mm256_sub_epi64(pe, _mm256_mul_epi32(te, q));
    let dodd = _mm256_sub_epi64(po, _mm256_mul_epi32(to, q));
    _mm256_blend_epi32(odd(de), dodd, 0b1010_1010)
}

/// A twiddle (broadcast or per lane) with its Montgomery factor, each also with its odd
/// lanes moved to the even ones.
#[derive(Clone, Copy)]
struct Tw {
    z: __m256i,
    zq: __m256i,
    zo: __m256i,
    zqo: __m256i,
}

/// Twiddle `z` in every lane.
#[target_feature(enable = "avx2")]
fn tw(z: i32) -> Tw {
    let zq = z.wrapping_mul(QINV);
    Tw {
        z: _mm256_set1_epi32(z),
        zq: _mm256_set1_epi32(zq),
        zo: _mm256_set1_epi32(z),
        zqo: _mm256_set1_epi32(zq),
    }
}

/// Cooley-Tukey butterflies (a, b) -> (a + z b, a - z b) on vectors `i`, `j` of `v`, as the
/// portable NTT computes them; indices are literals so `v` stays in registers.
macro_rules! ct {
    ($v:ident, $w:expr; $($i:literal $j:literal),+) => {{
        let w: Tw = $w;
        $(
            let t = mulz($v[$j], w);
            $v[$j] = _mm256_sub_epi32($v[$i], t);
            $v[$i] = _mm256_add_epi32($v[$i], t);
        )+
    }};
}

/// Gentleman-Sande butterflies (a, b) -> (a + b, z (a - b)), as the portable inverse
/// computes them.
macro_rules! gs {
    ($v:ident, $w:expr; $($i:literal $j:literal),+) => {{
        let w: Tw = $w;
        $(
            let t = $v[$i];
            $v[$i] = _mm256_add_epi32(t, $v[$j]);
            $v[$j] = mulz(_mm256_sub_epi32(t, $v[$j]), w);
        )+
    }};
}

/// Per-lane twiddles of the three in-vector layers, precomputed: after the transpose of
/// 64-coefficient group g, lane r of vector c holds coefficient 64 g + 8 r + c, so the
/// twiddle index of a butterfly is, for the forward transform,
/// len 4: m = 32 + 8g + r; len 2: m = 64 + 16g + 2r + c/4; len 1: m = 128 + 32g + 4r + c/2;
/// and for the inverse (which visits twiddles from m = 255 down, block by block)
/// len 1: m = 255 - (32g + 4r + c/2); len 2: m = 127 - (16g + 2r + c/4); len 4: m = 63 - (8g + r),
/// negated. Row layout: [group][variant] with variant = c/4 (len 2) or c/2 (len 1).
/// The AVX-512 NTT, which keeps this order, reads the same tables.
#[repr(C, align(32))]
pub(in crate::backend) struct LaneZetas {
    pub(in crate::backend) fwd4: [[i32; 8]; 4],
    pub(in crate::backend) fwd2: [[[i32; 8]; 2]; 4],
    pub(in crate::backend) fwd1: [[[i32; 8]; 4]; 4],
    pub(in crate::backend) inv1: [[[i32; 8]; 4]; 4],
    pub(in crate::backend) inv2: [[[i32; 8]; 2]; 4],
    pub(in crate::backend) inv4: [[i32; 8]; 4],
}

/// The table above, of twiddles (`qinv = false`) or of their Montgomery factors z * QINV.
const fn lane_zetas(qinv: bool) -> LaneZetas {
    let f = if qinv { QINV } else { 1 };
    let mut t = LaneZetas {
        fwd4: [[0; 8]; 4],
        fwd2: [[[0; 8]; 2]; 4],
        fwd1: [[[0; 8]; 4]; 4],
        inv1: [[[0; 8]; 4]; 4],
        inv2: [[[0; 8]; 2]; 4],
        inv4: [[0; 8]; 4],
    };
    let mut g = 0;
    while g < 4 {
        let mut r = 0;
        while r < 8 {
            t.fwd4[g][r] = ZETAS[32 + 8 * g + r].wrapping_mul(f);
            t.inv4[g][r] = (-ZETAS[63 - (8 * g + r)]).wrapping_mul(f);
            let mut h = 0;
            while h < 2 {
                t.fwd2[g][h][r] = ZETAS[64 + 16 * g + 2 * r + h].wrapping_mul(f);
                t.inv2[g][h][r] = (-ZETAS[127 - (16 * g + 2 * r + h)]).wrapping_mul(f);
                h += 1;
            }
            let mut q = 0;
            while q < 4 {
                t.fwd1[g][q][r] = ZETAS[128 + 32 * g + 4 * r + q].wrapping_mul(f);
                t.inv1[g][q][r] = (-ZETAS[255 - (32 * g + 4 * r + q)]).wrapping_mul(f);
                q += 1;
            }
            r += 1;
        }
        g += 1;
    }
    t
}

pub(in crate::backend) static LANE_ZETAS: LaneZetas = lane_zetas(false);
pub(in crate::backend) static LANE_ZETAS_QINV: LaneZetas = lane_zetas(true);

/// The per-lane twiddle at `z` in [`LANE_ZETAS`] with its factor at the same place in
/// [`LANE_ZETAS_QINV`].
#[target_feature(enable = "avx2")]
fn lanes(z: &[i32; 8], zq: &[i32; 8]) -> Tw {
    // SAFETY: 8 i32 = 32 bytes, and every row of both tables is 32-byte aligned.
    let (z, zq) = unsafe {
        (
            _mm256_load_si256(z.as_ptr().cast()),
            _mm256_load_si256(zq.as_ptr().cast()),
        )
    };
    Tw {
        z,
        zq,
        zo: _mm256_srli_epi64(z, 32),
        zqo: _mm256_srli_epi64(zq, 32),
    }
}

/// Loads vectors `first, first + stride, ...` (eight of them).
#[target_feature(enable = "avx2")]
fn load8(p: &Poly, first: usize, stride: usize) -> [__m256i; 8] {
    core::array::from_fn(|i| load(p, first + stride * i))
}

#[target_feature(enable = "avx2")]
fn store8(p: &mut Poly, first: usize, stride: usize, v: &[__m256i; 8]) {
    for (i, x) in v.iter().enumerate() {
        store(p, first + stride * i, *x);
    }
}

/// Transposes each 64-coefficient group as an 8x8 matrix: the map between canonical NTT
/// order and this backend's (it is its own inverse).
#[target_feature(enable = "avx2")]
pub(super) fn transpose_groups(p: &mut Poly) {
    for g in 0..4 {
        let mut v = load8(p, 8 * g, 1);
        transpose(&mut v);
        store8(p, 8 * g, 1, &v);
    }
}

/// The forward NTT in two passes over memory, each holding eight vectors in registers.
/// Pass 1 (layers len 128, 64, 32) works on the vectors j, j + 4, ..., j + 28; pass 2 on the
/// 64-coefficient group g: layers len 16 and 8 between vectors, then len 4, 2, 1 after a
/// transpose. Twiddles and arithmetic are the portable code's, in the same order per
/// coefficient, so the result is bit-identical.
#[target_feature(enable = "avx2")]
pub(super) fn ntt(p: &mut Poly) {
    // Aligned spills (`frame::align_frame!`): an unaligned `ymm` spill straddles a page at
    // some stack placements.
    align_frame!();
    // Every butterfly names its vectors by constant index, so the eight vectors stay in
    // registers (a loop over indices would keep them in memory).
    let (z1, z2, z3) = (tw(ZETAS[1]), tw(ZETAS[2]), tw(ZETAS[3]));
    let z4 = [tw(ZETAS[4]), tw(ZETAS[5]), tw(ZETAS[6]), tw(ZETAS[7])];
    for j in 0..4 {
        let mut v = load8(p, j, 4);
        ct!(v, z1; 0 4, 1 5, 2 6, 3 7);
        ct!(v, z2; 0 2, 1 3);
        ct!(v, z3; 4 6, 5 7);
        ct!(v, z4[0]; 0 1);
        ct!(v, z4[1]; 2 3);
        ct!(v, z4[2]; 4 5);
        ct!(v, z4[3]; 6 7);
        store8(p, j, 4, &v);
    }
    let (l, lq) = (&LANE_ZETAS, &LANE_ZETAS_QINV);
    for g in 0..4 {
        let mut v = load8(p, 8 * g, 1);
        ct!(v, tw(ZETAS[8 + 2 * g]); 0 2, 1 3);
        ct!(v, tw(ZETAS[9 + 2 * g]); 4 6, 5 7);
        ct!(v, tw(ZETAS[16 + 4 * g]); 0 1);
        ct!(v, tw(ZETAS[17 + 4 * g]); 2 3);
        ct!(v, tw(ZETAS[18 + 4 * g]); 4 5);
        ct!(v, tw(ZETAS[19 + 4 * g]); 6 7);
        transpose(&mut v);
        ct!(v, lanes(&l.fwd4[g], &lq.fwd4[g]); 0 4, 1 5, 2 6, 3 7);
        ct!(v, lanes(&l.fwd2[g][0], &lq.fwd2[g][0]); 0 2, 1 3);
        ct!(v, lanes(&l.fwd2[g][1], &lq.fwd2[g][1]); 4 6, 5 7);
        ct!(v, lanes(&l.fwd1[g][0], &lq.fwd1[g][0]); 0 1);
        ct!(v, lanes(&l.fwd1[g][1], &lq.fwd1[g][1]); 2 3);
        ct!(v, lanes(&l.fwd1[g][2], &lq.fwd1[g][2]); 4 5);
        ct!(v, lanes(&l.fwd1[g][3], &lq.fwd1[g][3]); 6 7);
        // Stored as it stands: the backend's NTT order (see `ntt_order_from_canonical`).
        store8(p, 8 * g, 1, &v);
    }
}

/// The inverse NTT (with the factor 2^64 / 256), the forward passes mirrored: per group the
/// in-vector layers len 1, 2, 4 (the input is in this backend's order, already transposed),
/// a transpose, then len 8 and 16; then layers len 32, 64, 128 on the vectors j, j + 4, ...,
/// j + 28. The portable code takes twiddles from m = 255 down, block by block left to right;
/// so does this. The final scaling is folded into the last layer: its sums are multiplied
/// by the factor, its differences by [`LAST_FOLDED`] (the twiddle times the factor) in one
/// product where the portable code takes two, so those outputs agree with the portable
/// ones mod q (the contract compares mod q) and lie within 3q/4 (`contract::INVNTT_OUT`).
#[target_feature(enable = "avx2")]
pub(super) fn invntt_tomont(p: &mut Poly) {
    // Aligned spills (`frame::align_frame!`): an unaligned `ymm` spill straddles a page at
    // some stack placements.
    align_frame!();
    let (l, lq) = (&LANE_ZETAS, &LANE_ZETAS_QINV);
    for g in 0..4 {
        let mut v = load8(p, 8 * g, 1);
        gs!(v, lanes(&l.inv1[g][0], &lq.inv1[g][0]); 0 1);
        gs!(v, lanes(&l.inv1[g][1], &lq.inv1[g][1]); 2 3);
        gs!(v, lanes(&l.inv1[g][2], &lq.inv1[g][2]); 4 5);
        gs!(v, lanes(&l.inv1[g][3], &lq.inv1[g][3]); 6 7);
        gs!(v, lanes(&l.inv2[g][0], &lq.inv2[g][0]); 0 2, 1 3);
        gs!(v, lanes(&l.inv2[g][1], &lq.inv2[g][1]); 4 6, 5 7);
        gs!(v, lanes(&l.inv4[g], &lq.inv4[g]); 0 4, 1 5, 2 6, 3 7);
        transpose(&mut v);
        // len 8: block 4g + b uses m = 31 - (4g + b); len 16: block 2g + b uses 15 - (2g + b).
        gs!(v, tw(-ZETAS[31 - 4 * g]); 0 1);
        gs!(v, tw(-ZETAS[30 - 4 * g]); 2 3);
        gs!(v, tw(-ZETAS[29 - 4 * g]); 4 5);
        gs!(v, tw(-ZETAS[28 - 4 * g]); 6 7);
        gs!(v, tw(-ZETAS[15 - 2 * g]); 0 2, 1 3);
        gs!(v, tw(-ZETAS[14 - 2 * g]); 4 6, 5 7);
        store8(p, 8 * g, 1, &v);
    }
    // len 32: m = 7, 6, 5, 4 for the four blocks; len 64: 3, 2; len 128: 1.
    let z32 = [tw(-ZETAS[7]), tw(-ZETAS[6]), tw(-ZETAS[5]), tw(-ZETAS[4])];
    let (z3, z2) = (tw(-ZETAS[3]), tw(-ZETAS[2]));
    let (f, z1f) = (tw(INVNTT_F), tw(LAST_FOLDED));
    for j in 0..4 {
        let mut v = load8(p, j, 4);
        gs!(v, z32[0]; 0 1);
        gs!(v, z32[1]; 2 3);
        gs!(v, z32[2]; 4 5);
        gs!(v, z32[3]; 6 7);
        gs!(v, z3; 0 2, 1 3);
        gs!(v, z2; 4 6, 5 7);
        // len 128 with the scaling: (a, b) -> ((a + b) f, (a - b) (-zeta_1 f)).
        let [a0, a1, a2, a3, b0, b1, b2, b3] = v;
        let out = [
            mulz(_mm256_add_epi32(a0, b0), f),
            mulz(_mm256_add_epi32(a1, b1), f),
            mulz(_mm256_add_epi32(a2, b2), f),
            mulz(_mm256_add_epi32(a3, b3), f),
            mulz(_mm256_sub_epi32(a0, b0), z1f),
            mulz(_mm256_sub_epi32(a1, b1), z1f),
            mulz(_mm256_sub_epi32(a2, b2), z1f),
            mulz(_mm256_sub_epi32(a3, b3), z1f),
        ];
        store8(p, j, 4, &out);
    }
}

/// 2^64 / 256 mod q, the portable inverse NTT's final factor.
pub(in crate::backend) const INVNTT_F: i32 = field::INVNTT_F as i32;

/// The last layer's twiddle -zeta_1 and the final factor in one Montgomery factor:
/// -zeta_1 * (2^64 / 256) * 2^-32 mod q, centred (|.| <= (q - 1) / 2, so a difference of
/// at most 256 q times it stays within `mulz`'s 2^31 q).
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant mod the constant q"
)]
pub(in crate::backend) const LAST_FOLDED: i32 = field::centered(
    (-(ZETAS[1] as i64)) * field::INVNTT_F % (Q as i64)
        * field::pow_mod(field::MONT, (Q - 2) as u32),
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Avx2;

    #[test]
    fn transpose_is_a_transpose() {
        let Some(_) = Avx2::detect() else { return };
        // SAFETY: AVX2 detected above.
        unsafe {
            let mut p = Poly::ZERO;
            p.coeffs
                .iter_mut()
                .enumerate()
                .for_each(|(i, c)| *c = i as i32);
            let mut r: [__m256i; 8] = core::array::from_fn(|i| load(&p, i));
            transpose(&mut r);
            let mut out = Poly::ZERO;
            r.iter()
                .enumerate()
                .for_each(|(i, v)| store(&mut out, i, *v));
            for row in 0..8 {
                for col in 0..8 {
                    assert_eq!(out.coeffs[8 * row + col], p.coeffs[8 * col + row]);
                }
            }
        }
    }
}
