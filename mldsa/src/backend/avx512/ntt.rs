//! The forward and inverse NTT on 16 lanes, bit-identical to the AVX2 ones, output order
//! included (position 64g + 8r + c holds canonical coefficient 64g + 8c + r; see the `avx2`
//! module), so every AVX2 kernel this backend forwards to reads what these write.
//!
//! Each `zmm` register holds what two of the AVX2 NTT's `ymm` registers hold, so every
//! butterfly stays between whole registers:
//! - pass 1 (layers len 128, 64, 32; the AVX2 code's vectors j, j + 4, ..., j + 28 for
//!   j = 0..4) takes j and j + 1 at once: register k holds the 16 consecutive coefficients
//!   from 32k + 8j, and every lane has the same twiddle;
//! - pass 2 (the 64-coefficient groups: layers len 16 and 8, the 8x8 transpose, then len 4,
//!   2 and 1) takes groups g and g + 1 at once: register r holds vector 8g + r in its low half
//!   and 8(g + 1) + r in its high half, the twiddles are those of g and of g + 1 side by side,
//!   and the transpose works on each half as the AVX2 one does.
//!
//! The arithmetic per lane is the AVX2 code's (and so the portable code's), in the same
//! order: the results are bit-identical.
#![allow(unsafe_code)]

use super::util::odd;
use crate::backend::avx2::ntt::{INVNTT_F, LANE_ZETAS, LANE_ZETAS_QINV, LAST_FOLDED};
use crate::backend::field::{Q, QINV, ZETAS};
use crate::poly::Poly;
use core::arch::x86_64::*;

/// A twiddle per lane with its Montgomery factor z * QINV, each also with its odd lanes
/// moved to the even ones (`_mm512_mul_epi32` reads even lanes).
#[derive(Clone, Copy)]
struct Tw {
    z: __m512i,
    zq: __m512i,
    zo: __m512i,
    zqo: __m512i,
}

/// b * z * 2^-32 mod q per lane, bit-identical to `montgomery_reduce(b * z)` (the AVX2
/// `mulz`, on 16 lanes).
#[target_feature(enable = "avx512f")]
fn mulz(b: __m512i, w: Tw) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let bo = _mm512_srli_epi64::<32>(b);
    let pe = _mm512_mul_epi32(b, w.z);
    let po = _mm512_mul_epi32(bo, w.zo);
    let te = _mm512_mul_epi32(b, w.zq);
    let to = _mm512_mul_epi32(bo, w.zqo);
    let de = _mm512_sub_epi64(pe, _mm512_mul_epi32(te, q));
    let dodd = _mm512_sub_epi64(po, _mm512_mul_epi32(to, q));
    _mm512_mask_blend_epi32(0xAAAA, odd(de), dodd)
}

/// Twiddle `lo` in the low eight lanes and `hi` in the high eight.
#[target_feature(enable = "avx512f")]
fn tw2(lo: i32, hi: i32) -> Tw {
    let halves = |a: i32, b: i32| {
        _mm512_inserti64x4::<1>(
            _mm512_castsi256_si512(_mm256_set1_epi32(a)),
            _mm256_set1_epi32(b),
        )
    };
    let (z, zq) = (
        halves(lo, hi),
        halves(lo.wrapping_mul(QINV), hi.wrapping_mul(QINV)),
    );
    Tw {
        z,
        zq,
        zo: z,
        zqo: zq,
    }
}

/// Twiddle `z` in every lane.
#[target_feature(enable = "avx512f")]
fn tw(z: i32) -> Tw {
    tw2(z, z)
}

/// Per-lane twiddles: row `lo` of the AVX2 tables in the low half, row `hi` in the high half
/// (`lo_q`, `hi_q`: the same rows of the factor table).
#[target_feature(enable = "avx512f")]
fn lanes(lo: &[i32; 8], hi: &[i32; 8], lo_q: &[i32; 8], hi_q: &[i32; 8]) -> Tw {
    let pair = |a: &[i32; 8], b: &[i32; 8]| {
        // SAFETY: each row is 8 i32 = 32 bytes; unaligned loads.
        unsafe {
            _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(_mm256_loadu_si256(a.as_ptr().cast())),
                _mm256_loadu_si256(b.as_ptr().cast()),
            )
        }
    };
    let (z, zq) = (pair(lo, hi), pair(lo_q, hi_q));
    Tw {
        z,
        zq,
        zo: _mm512_srli_epi64::<32>(z),
        zqo: _mm512_srli_epi64::<32>(zq),
    }
}

/// Transposes the 8x8 matrix of 32-bit lanes in the low halves of the eight registers, and
/// the one in the high halves (the AVX2 transpose, on each half).
#[target_feature(enable = "avx512f")]
fn transpose_halves(r: &mut [__m512i; 8]) {
    let t0 = _mm512_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm512_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm512_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm512_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm512_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm512_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm512_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm512_unpackhi_epi32(r[6], r[7]);
    let u0 = _mm512_unpacklo_epi64(t0, t2);
    let u1 = _mm512_unpackhi_epi64(t0, t2);
    let u2 = _mm512_unpacklo_epi64(t1, t3);
    let u3 = _mm512_unpackhi_epi64(t1, t3);
    let u4 = _mm512_unpacklo_epi64(t4, t6);
    let u5 = _mm512_unpackhi_epi64(t4, t6);
    let u6 = _mm512_unpacklo_epi64(t5, t7);
    let u7 = _mm512_unpackhi_epi64(t5, t7);
    // In each 256-bit half: the low 128 bits of a and of b (AVX2's permute2x128 0x20), and
    // their high 128 bits (0x31).
    let lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    r[0] = _mm512_permutex2var_epi64(u0, lo, u4);
    r[1] = _mm512_permutex2var_epi64(u1, lo, u5);
    r[2] = _mm512_permutex2var_epi64(u2, lo, u6);
    r[3] = _mm512_permutex2var_epi64(u3, lo, u7);
    r[4] = _mm512_permutex2var_epi64(u0, hi, u4);
    r[5] = _mm512_permutex2var_epi64(u1, hi, u5);
    r[6] = _mm512_permutex2var_epi64(u2, hi, u6);
    r[7] = _mm512_permutex2var_epi64(u3, hi, u7);
}

/// Pass 1's registers: register k holds coefficients 32k + 8j .. 32k + 8j + 16 (j = 0 or 2).
#[target_feature(enable = "avx512f")]
fn load_strided(p: &Poly, j: usize) -> [__m512i; 8] {
    assert!(j <= 2);
    core::array::from_fn(|k| {
        // SAFETY: 32k + 8j + 16 <= 32 * 7 + 32 = 256 = N; unaligned load.
        unsafe { _mm512_loadu_si512(p.coeffs.as_ptr().add(32 * k + 8 * j).cast()) }
    })
}

#[target_feature(enable = "avx512f")]
fn store_strided(p: &mut Poly, j: usize, v: &[__m512i; 8]) {
    assert!(j <= 2);
    for (k, x) in v.iter().enumerate() {
        // SAFETY: as for `load_strided`.
        unsafe { _mm512_storeu_si512(p.coeffs.as_mut_ptr().add(32 * k + 8 * j).cast(), *x) };
    }
}

/// Pass 2's registers for groups g and g + 1 (g = 0 or 2): register r holds coefficients
/// 64g + 8r .. + 8 in its low half and 64(g + 1) + 8r .. + 8 in its high half.
#[target_feature(enable = "avx512f")]
fn load_groups(p: &Poly, g: usize) -> [__m512i; 8] {
    assert!(g <= 2);
    core::array::from_fn(|r| {
        // SAFETY: 64(g + 1) + 8r + 8 <= 192 + 64 = 256 = N; unaligned loads.
        unsafe {
            let lo = _mm256_loadu_si256(p.coeffs.as_ptr().add(64 * g + 8 * r).cast());
            let hi = _mm256_loadu_si256(p.coeffs.as_ptr().add(64 * (g + 1) + 8 * r).cast());
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        }
    })
}

#[target_feature(enable = "avx512f")]
fn store_groups(p: &mut Poly, g: usize, v: &[__m512i; 8]) {
    assert!(g <= 2);
    for (r, x) in v.iter().enumerate() {
        // SAFETY: as for `load_groups`.
        unsafe {
            let base = p.coeffs.as_mut_ptr();
            _mm256_storeu_si256(base.add(64 * g + 8 * r).cast(), _mm512_castsi512_si256(*x));
            _mm256_storeu_si256(
                base.add(64 * (g + 1) + 8 * r).cast(),
                _mm512_extracti64x4_epi64::<1>(*x),
            );
        }
    }
}

/// Cooley-Tukey butterflies (a, b) -> (a + z b, a - z b) on registers `i`, `j` of `v`.
macro_rules! ct {
    ($v:ident, $w:expr; $($i:literal $j:literal),+) => {{
        let w: Tw = $w;
        $(
            let t = mulz($v[$j], w);
            $v[$j] = _mm512_sub_epi32($v[$i], t);
            $v[$i] = _mm512_add_epi32($v[$i], t);
        )+
    }};
}

/// Gentleman-Sande butterflies (a, b) -> (a + b, z (a - b)).
macro_rules! gs {
    ($v:ident, $w:expr; $($i:literal $j:literal),+) => {{
        let w: Tw = $w;
        $(
            let t = $v[$i];
            $v[$i] = _mm512_add_epi32(t, $v[$j]);
            $v[$j] = mulz(_mm512_sub_epi32(t, $v[$j]), w);
        )+
    }};
}

/// The forward NTT: the AVX2 one's two passes, two of its iterations at a time.
#[target_feature(enable = "avx512f")]
pub(super) fn ntt(p: &mut Poly) {
    let (z1, z2, z3) = (tw(ZETAS[1]), tw(ZETAS[2]), tw(ZETAS[3]));
    let z4 = [tw(ZETAS[4]), tw(ZETAS[5]), tw(ZETAS[6]), tw(ZETAS[7])];
    for j in [0, 2] {
        let mut v = load_strided(p, j);
        ct!(v, z1; 0 4, 1 5, 2 6, 3 7);
        ct!(v, z2; 0 2, 1 3);
        ct!(v, z3; 4 6, 5 7);
        ct!(v, z4[0]; 0 1);
        ct!(v, z4[1]; 2 3);
        ct!(v, z4[2]; 4 5);
        ct!(v, z4[3]; 6 7);
        store_strided(p, j, &v);
    }
    let (l, lq) = (&LANE_ZETAS, &LANE_ZETAS_QINV);
    for g in [0, 2] {
        let h = g + 1;
        let mut v = load_groups(p, g);
        ct!(v, tw2(ZETAS[8 + 2 * g], ZETAS[8 + 2 * h]); 0 2, 1 3);
        ct!(v, tw2(ZETAS[9 + 2 * g], ZETAS[9 + 2 * h]); 4 6, 5 7);
        ct!(v, tw2(ZETAS[16 + 4 * g], ZETAS[16 + 4 * h]); 0 1);
        ct!(v, tw2(ZETAS[17 + 4 * g], ZETAS[17 + 4 * h]); 2 3);
        ct!(v, tw2(ZETAS[18 + 4 * g], ZETAS[18 + 4 * h]); 4 5);
        ct!(v, tw2(ZETAS[19 + 4 * g], ZETAS[19 + 4 * h]); 6 7);
        transpose_halves(&mut v);
        ct!(v, lanes(&l.fwd4[g], &l.fwd4[h], &lq.fwd4[g], &lq.fwd4[h]); 0 4, 1 5, 2 6, 3 7);
        ct!(v, lanes(&l.fwd2[g][0], &l.fwd2[h][0], &lq.fwd2[g][0], &lq.fwd2[h][0]); 0 2, 1 3);
        ct!(v, lanes(&l.fwd2[g][1], &l.fwd2[h][1], &lq.fwd2[g][1], &lq.fwd2[h][1]); 4 6, 5 7);
        ct!(v, lanes(&l.fwd1[g][0], &l.fwd1[h][0], &lq.fwd1[g][0], &lq.fwd1[h][0]); 0 1);
        ct!(v, lanes(&l.fwd1[g][1], &l.fwd1[h][1], &lq.fwd1[g][1], &lq.fwd1[h][1]); 2 3);
        ct!(v, lanes(&l.fwd1[g][2], &l.fwd1[h][2], &lq.fwd1[g][2], &lq.fwd1[h][2]); 4 5);
        ct!(v, lanes(&l.fwd1[g][3], &l.fwd1[h][3], &lq.fwd1[g][3], &lq.fwd1[h][3]); 6 7);
        store_groups(p, g, &v);
    }
}

/// The inverse NTT (with the factor 2^64 / 256): the AVX2 one's passes, two of its
/// iterations at a time, with the final factor folded into the last layer as there (the
/// contract compares mod q; outputs within 3q/4).
#[target_feature(enable = "avx512f")]
pub(super) fn invntt_tomont(p: &mut Poly) {
    let (l, lq) = (&LANE_ZETAS, &LANE_ZETAS_QINV);
    for g in [0, 2] {
        let h = g + 1;
        let mut v = load_groups(p, g);
        gs!(v, lanes(&l.inv1[g][0], &l.inv1[h][0], &lq.inv1[g][0], &lq.inv1[h][0]); 0 1);
        gs!(v, lanes(&l.inv1[g][1], &l.inv1[h][1], &lq.inv1[g][1], &lq.inv1[h][1]); 2 3);
        gs!(v, lanes(&l.inv1[g][2], &l.inv1[h][2], &lq.inv1[g][2], &lq.inv1[h][2]); 4 5);
        gs!(v, lanes(&l.inv1[g][3], &l.inv1[h][3], &lq.inv1[g][3], &lq.inv1[h][3]); 6 7);
        gs!(v, lanes(&l.inv2[g][0], &l.inv2[h][0], &lq.inv2[g][0], &lq.inv2[h][0]); 0 2, 1 3);
        gs!(v, lanes(&l.inv2[g][1], &l.inv2[h][1], &lq.inv2[g][1], &lq.inv2[h][1]); 4 6, 5 7);
        gs!(v, lanes(&l.inv4[g], &l.inv4[h], &lq.inv4[g], &lq.inv4[h]); 0 4, 1 5, 2 6, 3 7);
        transpose_halves(&mut v);
        gs!(v, tw2(-ZETAS[31 - 4 * g], -ZETAS[31 - 4 * h]); 0 1);
        gs!(v, tw2(-ZETAS[30 - 4 * g], -ZETAS[30 - 4 * h]); 2 3);
        gs!(v, tw2(-ZETAS[29 - 4 * g], -ZETAS[29 - 4 * h]); 4 5);
        gs!(v, tw2(-ZETAS[28 - 4 * g], -ZETAS[28 - 4 * h]); 6 7);
        gs!(v, tw2(-ZETAS[15 - 2 * g], -ZETAS[15 - 2 * h]); 0 2, 1 3);
        gs!(v, tw2(-ZETAS[14 - 2 * g], -ZETAS[14 - 2 * h]); 4 6, 5 7);
        store_groups(p, g, &v);
    }
    let z32 = [tw(-ZETAS[7]), tw(-ZETAS[6]), tw(-ZETAS[5]), tw(-ZETAS[4])];
    let (z3, z2) = (tw(-ZETAS[3]), tw(-ZETAS[2]));
    let (f, z1f) = (tw(INVNTT_F), tw(LAST_FOLDED));
    for j in [0, 2] {
        let mut v = load_strided(p, j);
        gs!(v, z32[0]; 0 1);
        gs!(v, z32[1]; 2 3);
        gs!(v, z32[2]; 4 5);
        gs!(v, z32[3]; 6 7);
        gs!(v, z3; 0 2, 1 3);
        gs!(v, z2; 4 6, 5 7);
        // len 128 with the scaling: (a, b) -> ((a + b) f, (a - b) (-zeta_1 f)).
        let [a0, a1, a2, a3, b0, b1, b2, b3] = v;
        let out = [
            mulz(_mm512_add_epi32(a0, b0), f),
            mulz(_mm512_add_epi32(a1, b1), f),
            mulz(_mm512_add_epi32(a2, b2), f),
            mulz(_mm512_add_epi32(a3, b3), f),
            mulz(_mm512_sub_epi32(a0, b0), z1f),
            mulz(_mm512_sub_epi32(a1, b1), z1f),
            mulz(_mm512_sub_epi32(a2, b2), z1f),
            mulz(_mm512_sub_epi32(a3, b3), z1f),
        ];
        store_strided(p, j, &out);
    }
}
