//! The x86_64 AVX2 backend. Its token, [`Avx2`], can only be made by [`Avx2::detect`], which
//! checks the CPU; every kernel is a `#[target_feature(enable = "avx2")]` function, called
//! from the safe trait methods because the token proves the feature is there.
//!
//! NTT-domain polynomials are kept in this backend's own order: the last three NTT layers,
//! which pair coefficients inside one 8-lane vector, run after an 8x8 transpose of each
//! 64-coefficient group so that they too are butterflies between whole vectors, and the
//! result stays transposed (the inverse NTT starts from it). So position 64g + 8r + c holds
//! canonical coefficient 64g + 8c + r; `ntt_order_from_canonical` / `_to_canonical` apply that
//! transpose (ExpandA's samples get it; tests compare in canonical order). Up to that order
//! the NTT and its inverse are bit-identical to the portable ones (same Montgomery arithmetic
//! in the same order); so is every other kernel except the L-fold product, which sums 64-bit
//! products and reduces once (its contract compares mod q).
//!
//! Keccak: the 4-way permutation, and a pair of them run round by round in turn
//! (`keccak_f1600_x4x2`, which the samplers use for eight polynomials at a time); the
//! one-way permutation is the portable one.
//!
//! Kernels not written here (hint packing, one-way Keccak) are the portable ones. `rej_eta`
//! uses no secret-indexed table (it samples s1 and s2): its compaction is computed;
//! `rej_uniform`'s compaction table is indexed by which candidates of the public matrix A
//! were accepted.
#![allow(unsafe_code)]

use super::portable::ZETAS;
use super::{Backend, BackendKind};
use crate::params::{Eta, Gamma1, Gamma2, N, Q};
use crate::poly::Poly;
use core::arch::x86_64::*;

/// Proof that this CPU has AVX2. Zero-sized; only [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _private: (),
}

impl Avx2 {
    /// The token, if the CPU supports AVX2 and POPCNT (which every AVX2 CPU has; the
    /// rejection samplers count accepted candidates with it), detected at run time with
    /// `std`, or known at compile time when built with `-C target-feature=+avx2,+popcnt`.
    pub fn detect() -> Option<Avx2> {
        #[cfg(feature = "std")]
        let has = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt");
        #[cfg(not(feature = "std"))]
        let has = cfg!(all(target_feature = "avx2", target_feature = "popcnt"));
        has.then_some(Avx2 { _private: () })
    }
}

// ---------------------------------------------------------------------------------------
// Keccak-f[1600] x4

/// Rotation offsets r[x + 5y] (FIPS 202 Alg. 2), computed at compile time.
const RHO: [u32; 25] = {
    let mut r = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        r[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
        t += 1;
    }
    r
};

/// Round constants (FIPS 202 Alg. 5/6), computed at compile time.
const RC: [u64; 24] = {
    let mut rc = [0u64; 24];
    let mut ir = 0;
    while ir < 24 {
        let mut j = 0;
        while j < 7 {
            // rc(t) for t = j + 7 ir: the LFSR x^8 + x^6 + x^5 + x^4 + 1.
            let t = j + 7 * ir;
            let mut r: u16 = 1;
            let mut i = 0;
            while i < t % 255 {
                r <<= 1;
                if r & 0x100 != 0 {
                    r ^= 0x171;
                }
                i += 1;
            }
            rc[ir] |= ((r & 1) as u64) << ((1 << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    rc
};

#[target_feature(enable = "avx2")]
fn rotl(x: __m256i, n: u32) -> __m256i {
    if n == 0 {
        return x;
    }
    let l = _mm_cvtsi32_si128(n as i32);
    let r = _mm_cvtsi32_si128(64 - n as i32);
    _mm256_or_si256(_mm256_sll_epi64(x, l), _mm256_srl_epi64(x, r))
}

/// Theta's column parities of four interleaved states.
#[target_feature(enable = "avx2")]
fn parities(s: &[u64; 100]) -> [__m256i; 5] {
    let lane = |i: usize| {
        // SAFETY: i < 25, so s[4i..4i + 4] is in bounds; unaligned load.
        unsafe { _mm256_loadu_si256(s.as_ptr().add(4 * i).cast()) }
    };
    core::array::from_fn(|x| {
        _mm256_xor_si256(
            _mm256_xor_si256(_mm256_xor_si256(lane(x), lane(x + 5)), lane(x + 10)),
            _mm256_xor_si256(lane(x + 15), lane(x + 20)),
        )
    })
}

#[target_feature(enable = "avx2")]
fn keccak_x4(states: &mut [u64; 100]) {
    // Theta's column parities of the input; each round then returns those of its output,
    // accumulated as the rows are written, so no round reads the state twice.
    let mut c = parities(states);
    // Rounds alternate between the caller's states and a scratch copy, each reading one
    // whole and writing the other once (no separate pi/rho array, no copy in or out: 24
    // rounds end where they began). A loop over a round function that is never inlined:
    // 24 unrolled rounds (5,300 instructions) overflow the decoded-instruction cache and ran
    // 8% slower (Zen 4).
    let mut scratch = [0u64; 100];
    for rc in RC.chunks_exact(2) {
        keccak_round(states, &mut scratch, &mut c, rc[0]);
        keccak_round(&scratch, states, &mut c, rc[1]);
    }
    // The states may be secret (ExpandS, ExpandMask): no copy is left behind.
    zeroize::Zeroize::zeroize(&mut scratch[..]);
}

/// Two independent 4-way permutations, round by round in turn: a round cannot start before
/// the last row of the one before it is done (theta reads every lane), so one permutation
/// alone leaves the execution units idle at every round's end; the other's round fills them.
#[target_feature(enable = "avx2")]
fn keccak_x4x2(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    let (mut c0, mut c1) = (parities(s0), parities(s1));
    let mut scratch0 = [0u64; 100];
    let mut scratch1 = [0u64; 100];
    for rc in RC.chunks_exact(2) {
        keccak_round(s0, &mut scratch0, &mut c0, rc[0]);
        keccak_round(s1, &mut scratch1, &mut c1, rc[0]);
        keccak_round(&scratch0, s0, &mut c0, rc[1]);
        keccak_round(&scratch1, s1, &mut c1, rc[1]);
    }
    zeroize::Zeroize::zeroize(&mut scratch0[..]);
    zeroize::Zeroize::zeroize(&mut scratch1[..]);
}

/// One round of Keccak-f[1600] (FIPS 202 Alg. 7: theta, rho, pi, chi, iota) on four
/// interleaved states, from `a` into `e`, one output row at a time so the row stays in
/// registers. Lane (x, y) is index x + 5y; pi sends lane (x, y) to (y, 2x + 3y), so output
/// row Y, column X comes from lane (3Y + X mod 5, X). `c` holds the column parities of `a`
/// on entry and of `e` on exit.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn keccak_round(a: &[u64; 100], e: &mut [u64; 100], c: &mut [__m256i; 5], rc: u64) {
    let d: [__m256i; 5] =
        core::array::from_fn(|x| _mm256_xor_si256(c[(x + 4) % 5], rotl(c[(x + 1) % 5], 1)));
    // Unrolled by macro: every lane index and rotation is a constant.
    macro_rules! lane {
        ($x_out:literal, $y_out:literal) => {{
            const X: usize = (3 * $y_out + $x_out) % 5;
            const I: usize = X + 5 * $x_out;
            // SAFETY: I < 25, so a[4I..4I + 4] is in bounds; unaligned load.
            let v = unsafe { _mm256_loadu_si256(a.as_ptr().add(4 * I).cast()) };
            rotl(_mm256_xor_si256(v, d[X]), RHO[I])
        }};
    }
    let rc = _mm256_set1_epi64x(rc as i64);
    macro_rules! row {
        ($y:literal) => {{
            let b = [
                lane!(0, $y),
                lane!(1, $y),
                lane!(2, $y),
                lane!(3, $y),
                lane!(4, $y),
            ];
            for x in 0..5 {
                let mut v =
                    _mm256_xor_si256(b[x], _mm256_andnot_si256(b[(x + 1) % 5], b[(x + 2) % 5]));
                if $y == 0 && x == 0 {
                    v = _mm256_xor_si256(v, rc);
                }
                // SAFETY: x + 5y < 25, so e[4(x + 5y)..][..4] is in bounds; unaligned store.
                unsafe { _mm256_storeu_si256(e.as_mut_ptr().add(4 * (x + 5 * $y)).cast(), v) };
                c[x] = if $y == 0 {
                    v
                } else {
                    _mm256_xor_si256(c[x], v)
                };
            }
        }};
    }
    row!(0);
    row!(1);
    row!(2);
    row!(3);
    row!(4);
}

// ---------------------------------------------------------------------------------------
// Arithmetic on 8 lanes

#[target_feature(enable = "avx2")]
fn load(p: &Poly, i: usize) -> __m256i {
    // SAFETY: i < 32, so coefficients 8i..8i+8 are in bounds; Poly is 32-byte aligned.
    unsafe { _mm256_load_si256(p.coeffs.as_ptr().add(8 * i).cast()) }
}

#[target_feature(enable = "avx2")]
fn store(p: &mut Poly, i: usize, v: __m256i) {
    // SAFETY: as for `load`.
    unsafe { _mm256_store_si256(p.coeffs.as_mut_ptr().add(8 * i).cast(), v) }
}

/// Lane-wise Montgomery multiplication: a * b * 2^-32 mod q, |result| < q for |a b| < 2^31 q.
#[target_feature(enable = "avx2")]
fn montmul(a: __m256i, b: __m256i) -> __m256i {
    let qinv = _mm256_set1_epi32(super::portable::QINV);
    let q = _mm256_set1_epi32(Q);
    let even = _mm256_mul_epi32(a, b);
    let odd = _mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    let te = _mm256_mul_epi32(_mm256_mul_epi32(even, qinv), q);
    let to = _mm256_mul_epi32(_mm256_mul_epi32(odd, qinv), q);
    let re = _mm256_srli_epi64(_mm256_sub_epi64(even, te), 32);
    let ro = _mm256_sub_epi64(odd, to);
    _mm256_blend_epi32(re, ro, 0b1010_1010)
}

/// Transposes an 8x8 matrix of 32-bit lanes held in eight vectors.
#[target_feature(enable = "avx2")]
fn transpose(r: &mut [__m256i; 8]) {
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

/// Duplicates the odd lanes into the even ones (`vmovshdup`), so `_mm256_mul_epi32`, which
/// reads even lanes, can multiply the odd ones.
#[target_feature(enable = "avx2")]
fn odd(x: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x)))
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
    let zq = z.wrapping_mul(super::portable::QINV);
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
#[repr(C, align(32))]
struct LaneZetas {
    fwd4: [[i32; 8]; 4],
    fwd2: [[[i32; 8]; 2]; 4],
    fwd1: [[[i32; 8]; 4]; 4],
    inv1: [[[i32; 8]; 4]; 4],
    inv2: [[[i32; 8]; 2]; 4],
    inv4: [[i32; 8]; 4],
}

/// The table above, of twiddles (`qinv = false`) or of their Montgomery factors z * QINV.
const fn lane_zetas(qinv: bool) -> LaneZetas {
    let f = if qinv { super::portable::QINV } else { 1 };
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

static LANE_ZETAS: LaneZetas = lane_zetas(false);
static LANE_ZETAS_QINV: LaneZetas = lane_zetas(true);

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
fn transpose_groups(p: &mut Poly) {
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
fn ntt(p: &mut Poly) {
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
/// j + 28 and the final scaling. The portable code takes twiddles from m = 255 down, block
/// by block left to right; so does this.
#[target_feature(enable = "avx2")]
fn invntt_tomont(p: &mut Poly) {
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
    let (z3, z2, z1) = (tw(-ZETAS[3]), tw(-ZETAS[2]), tw(-ZETAS[1]));
    let f = tw(INVNTT_F);
    for j in 0..4 {
        let mut v = load8(p, j, 4);
        gs!(v, z32[0]; 0 1);
        gs!(v, z32[1]; 2 3);
        gs!(v, z32[2]; 4 5);
        gs!(v, z32[3]; 6 7);
        gs!(v, z3; 0 2, 1 3);
        gs!(v, z2; 4 6, 5 7);
        gs!(v, z1; 0 4, 1 5, 2 6, 3 7);
        let [a0, a1, a2, a3, a4, a5, a6, a7] = v;
        let scaled = [
            mulz(a0, f),
            mulz(a1, f),
            mulz(a2, f),
            mulz(a3, f),
            mulz(a4, f),
            mulz(a5, f),
            mulz(a6, f),
            mulz(a7, f),
        ];
        store8(p, j, 4, &scaled);
    }
}

/// 2^64 / 256 mod q, as in the portable inverse NTT.
const INVNTT_F: i32 = {
    let q = Q as i64;
    let mont = (1i64 << 32) % q;
    // 256^-1 mod q by Fermat: 256^(q-2).
    let mut inv = 1i64;
    let mut b = 256i64;
    let mut e = q - 2;
    while e > 0 {
        if e & 1 == 1 {
            inv = inv * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    (mont * mont % q * inv % q) as i32
};

#[target_feature(enable = "avx2")]
fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..N / 8 {
        store(c, i, montmul(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx2")]
fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
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
    let qinv = _mm256_set1_epi32(super::portable::QINV);
    let q = _mm256_set1_epi32(Q);
    for i in 0..N / 8 {
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
fn reduce(a: &mut Poly) {
    let q = _mm256_set1_epi32(Q);
    let half = _mm256_set1_epi32(1 << 22);
    for i in 0..N / 8 {
        let x = load(a, i);
        let t = _mm256_srai_epi32(_mm256_add_epi32(x, half), 23);
        store(a, i, _mm256_sub_epi32(x, _mm256_mullo_epi32(t, q)));
    }
}

#[target_feature(enable = "avx2")]
fn caddq(a: &mut Poly) {
    let q = _mm256_set1_epi32(Q);
    for i in 0..N / 8 {
        let x = load(a, i);
        store(
            a,
            i,
            _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), q)),
        );
    }
}

#[target_feature(enable = "avx2")]
fn add(a: &mut Poly, b: &Poly) {
    for i in 0..N / 8 {
        store(a, i, _mm256_add_epi32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx2")]
fn sub(a: &mut Poly, b: &Poly) {
    for i in 0..N / 8 {
        store(a, i, _mm256_sub_epi32(load(a, i), load(b, i)));
    }
}

#[target_feature(enable = "avx2")]
fn shiftl(a: &mut Poly) {
    for i in 0..N / 8 {
        store(a, i, _mm256_slli_epi32(load(a, i), 13));
    }
}

#[target_feature(enable = "avx2")]
fn power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly) {
    let c = _mm256_set1_epi32((1 << 12) - 1);
    for i in 0..N / 8 {
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
fn decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
    for i in 0..N / 8 {
        let (hi, lo) = decompose_vec(g, load(a, i));
        store(a1, i, hi);
        store(a0, i, lo);
    }
}

#[target_feature(enable = "avx2")]
fn make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
    let g2 = _mm256_set1_epi32(g.value());
    let ng2 = _mm256_set1_epi32(-g.value());
    let one = _mm256_set1_epi32(1);
    let zero = _mm256_setzero_si256();
    let mut n = 0;
    for i in 0..N / 8 {
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
fn use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
    // FIPS 204 Alg. 40: h = 1 moves r1 up if r0 > 0 and down if r0 <= 0 (including 0).
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi32(1);
    let m = _mm256_set1_epi32(g.m());
    for i in 0..N / 8 {
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
fn chknorm(a: &Poly, bound: i32) -> bool {
    let b = _mm256_set1_epi32(bound - 1);
    let mut bad = _mm256_setzero_si256();
    for i in 0..N / 8 {
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(load(a, i)), b));
    }
    _mm256_testz_si256(bad, bad) == 0
}

/// For each 8-bit mask of accepted candidates, the lanes to gather (set bits in order,
/// padded with 0). Indexed by which of eight *public* candidates (matrix A) were accepted;
/// `rej_eta`, which samples secrets, does not use it.
static COMPRESS: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut i, mut n) = (0, 0);
        while i < 8 {
            if m & (1 << i) != 0 {
                t[m][n] = i as u8;
                n += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// RejNTTPoly's inner loop (FIPS 204 Alg. 14 on 3-byte groups), eight candidates at a time
/// while eight more values fit and 32 bytes can be read; the rest as the portable kernel.
#[target_feature(enable = "avx2,popcnt")]
fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
    let mask23 = _mm256_set1_epi32(0x7F_FFFF);
    let q = _mm256_set1_epi32(Q);
    // Lane 0 holds bytes 0..16, lane 1 bytes 8..24; pick 3 bytes per 32-bit lane.
    let pick = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    let (mut n, mut pos) = (0, 0);
    while n + 8 <= out.len() && pos + 32 <= buf.len() {
        // SAFETY: pos + 32 <= buf.len(), unaligned load.
        let raw = unsafe { _mm256_loadu_si256(buf.as_ptr().add(pos).cast()) };
        let v = _mm256_and_si256(
            _mm256_shuffle_epi8(_mm256_permute4x64_epi64(raw, 0x94), pick),
            mask23,
        );
        let good = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v))) as usize;
        let idx = COMPRESS[good];
        // SAFETY: 8 bytes of the table row; the store writes out[n..n + 8], in bounds.
        unsafe {
            let perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64(idx.as_ptr().cast()));
            _mm256_storeu_si256(
                out.as_mut_ptr().add(n).cast(),
                _mm256_permutevar8x32_epi32(v, perm),
            );
        }
        n += good.count_ones() as usize;
        pos += 24;
    }
    n + super::portable::kernels::rej_uniform(&mut out[n..], &buf[pos..])
}

/// RejBoundedPoly's inner loop (FIPS 204 Alg. 15/31) without a table indexed by secret data:
/// it samples s1 and s2, so unlike `rej_uniform` the compaction of accepted candidates is
/// computed, not looked up. Each 128-bit lane takes 8 bytes = 16 nibbles (low nibble first,
/// one per byte); CoeffFromHalfByte is a `vpshufb` of a 16-entry constant held in a register
/// (no memory access depends on a nibble). In each 64-bit group of eight, every accepted
/// nibble then moves down by the number of rejected ones before it, in three steps of 1, 2
/// and 4 bytes, one per bit of that count (kept nibbles never collide: the count is
/// non-decreasing along the group); each group is stored as 8 values and the count advances
/// by what it kept. 16 bytes per step while 32 more values fit; then 8 while 16 fit; the rest
/// as the portable kernel. Entries past the returned count are unspecified.
#[target_feature(enable = "avx2,popcnt")]
fn rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
    let (table, limit) = match eta {
        // 2 - (b mod 5) for b < 15; 4 - b for b < 9. Entries past the limit are never kept.
        Eta::Two => (
            _mm256_broadcastsi128_si256(_mm_setr_epi8(
                2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0,
            )),
            15,
        ),
        Eta::Four => (
            _mm256_broadcastsi128_si256(_mm_setr_epi8(
                4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0,
            )),
            9,
        ),
    };
    let limit = _mm256_set1_epi8(limit);
    let one = _mm256_set1_epi8(1);
    let low_nibble = _mm256_set1_epi16(0x000f);
    let high_nibble = _mm256_set1_epi16(0x0f00);
    // Compacts the accepted values of each lane to its bottom; returns them and the mask of
    // accepted nibbles (bit i: byte i of the vector).
    let step = |bytes: __m128i| -> (__m256i, u32) {
        // Byte b of the 16-byte input lands in 16-bit lane b: low nibble in the low byte,
        // high nibble in the high byte, so the bytes of each 128-bit lane are the nibbles of
        // its 8 input bytes in order.
        let w = _mm256_cvtepu8_epi16(bytes);
        let nib = _mm256_or_si256(
            _mm256_and_si256(w, low_nibble),
            _mm256_and_si256(_mm256_slli_epi16(w, 4), high_nibble),
        );
        let keep = _mm256_cmpgt_epi8(limit, nib);
        let mut val = _mm256_and_si256(_mm256_shuffle_epi8(table, nib), keep);
        // Inclusive prefix count of rejected nibbles within each 64-bit group of eight,
        // kept only where the nibble is kept.
        let mut s = _mm256_andnot_si256(keep, one);
        s = _mm256_add_epi8(s, _mm256_slli_epi64(s, 8));
        s = _mm256_add_epi8(s, _mm256_slli_epi64(s, 16));
        s = _mm256_add_epi8(s, _mm256_slli_epi64(s, 32));
        s = _mm256_and_si256(s, keep);
        // Moves the entries whose count has bit `$bit` set down by 2^bit bytes within their
        // group (and, with `s`, their counts with them).
        macro_rules! shift_down {
            ($bit:literal, $m:ident) => {
                let b = _mm256_set1_epi8(1 << $bit);
                let $m = _mm256_cmpeq_epi8(_mm256_and_si256(s, b), b);
                let moved = _mm256_srli_epi64(_mm256_and_si256(val, $m), 8 << $bit);
                val = _mm256_or_si256(_mm256_andnot_si256($m, val), moved);
            };
            ($bit:literal, $m:ident, s) => {
                shift_down!($bit, $m);
                let moved = _mm256_srli_epi64(_mm256_and_si256(s, $m), 8 << $bit);
                s = _mm256_or_si256(_mm256_andnot_si256($m, s), moved);
            };
        }
        shift_down!(0, m0, s);
        shift_down!(1, m1, s);
        shift_down!(2, m2);
        (val, _mm256_movemask_epi8(keep) as u32)
    };
    // Stores the low 8 signed bytes of `v` as i32 at out[at..at + 8].
    let put = |out: &mut [i32], at: usize, v: __m128i| {
        let dst = &mut out[at..at + 8];
        // SAFETY: `dst` holds 8 i32; one unaligned 8-lane store.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm256_cvtepi8_epi32(v)) };
    };
    // How many nibbles group g (bits 8g..8g + 8 of the mask) kept.
    let kept = |mask: u32, g: u32| ((mask >> (8 * g)) & 0xff).count_ones() as usize;
    let (mut n, mut pos) = (0, 0);
    while n + 32 <= out.len() && pos + 16 <= buf.len() {
        // SAFETY: pos + 16 <= buf.len(), unaligned load.
        let bytes = unsafe { _mm_loadu_si128(buf.as_ptr().add(pos).cast()) };
        let (val, keep) = step(bytes);
        let (lo, hi) = (
            _mm256_castsi256_si128(val),
            _mm256_extracti128_si256(val, 1),
        );
        put(out, n, lo);
        n += kept(keep, 0);
        put(out, n, _mm_unpackhi_epi64(lo, lo));
        n += kept(keep, 1);
        put(out, n, hi);
        n += kept(keep, 2);
        put(out, n, _mm_unpackhi_epi64(hi, hi));
        n += kept(keep, 3);
        pos += 16;
    }
    while n + 16 <= out.len() && pos + 8 <= buf.len() {
        // SAFETY: pos + 8 <= buf.len(), 8-byte unaligned load.
        let bytes = unsafe { _mm_loadl_epi64(buf.as_ptr().add(pos).cast()) };
        let (val, keep) = step(bytes);
        let lo = _mm256_castsi256_si128(val);
        put(out, n, lo);
        n += kept(keep, 0);
        put(out, n, _mm_unpackhi_epi64(lo, lo));
        n += kept(keep, 1);
        pos += 8;
    }
    n + super::portable::kernels::rej_eta(eta, &mut out[n..], &buf[pos..])
}

/// Reads packed `bits`-bit fields (little-endian, FIPS 204 Alg. 18/19 order), eight per
/// step: lane 0 of the vector takes fields 0..4 of the step from a 16-byte window at the
/// step's first byte, lane 1 fields 4..8 from a window at byte floor(4 bits / 8); a byte
/// shuffle puts each field's (up to four) bytes in its 32-bit lane, a variable shift and a
/// mask finish it. Needs bits <= 24.
struct FieldReader {
    bits: usize,
    pick: __m256i,
    shift: __m256i,
    mask: __m256i,
}

impl FieldReader {
    #[target_feature(enable = "avx2")]
    fn new(bits: usize) -> Self {
        debug_assert!((1..=24).contains(&bits));
        let half = 4 * bits / 8;
        let mut pick = [0i8; 32];
        let mut shift = [0i32; 8];
        for j in 0..8 {
            let off = j * bits;
            let byte = off / 8 - if j < 4 { 0 } else { half };
            shift[j] = (off % 8) as i32;
            for t in 0..4 {
                pick[16 * (j / 4) + 4 * (j % 4) + t] = (byte + t).min(15) as i8;
            }
        }
        // SAFETY: both arrays are 32 bytes; unaligned loads.
        let (pick, shift) = unsafe {
            (
                _mm256_loadu_si256(pick.as_ptr().cast()),
                _mm256_loadu_si256(shift.as_ptr().cast()),
            )
        };
        FieldReader {
            bits,
            pick,
            shift,
            mask: _mm256_set1_epi32(((1u32 << bits) - 1) as i32),
        }
    }

    /// The eight fields of step `i` (coefficients 8i..8i + 8) of a packed polynomial.
    #[target_feature(enable = "avx2")]
    fn step(&self, buf: &[u8], i: usize) -> __m256i {
        let start = i * self.bits;
        let second = start + 4 * self.bits / 8;
        let (lo, hi) = if second + 16 <= buf.len() {
            // SAFETY: start < second, and second + 16 <= buf.len(): both windows in bounds.
            unsafe {
                (
                    _mm_loadu_si128(buf.as_ptr().add(start).cast()),
                    _mm_loadu_si128(buf.as_ptr().add(second).cast()),
                )
            }
        } else {
            // The last steps: copy what is left into a zero-padded window.
            let mut tmp = [0u8; 48];
            let rest = &buf[start..];
            tmp[..rest.len()].copy_from_slice(rest);
            let off = second - start;
            // SAFETY: off + 16 <= 4 * 24 / 8 + 16 = 28 <= 48.
            unsafe {
                (
                    _mm_loadu_si128(tmp.as_ptr().cast()),
                    _mm_loadu_si128(tmp.as_ptr().add(off).cast()),
                )
            }
        };
        let v = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), self.pick);
        _mm256_and_si256(_mm256_srlv_epi32(v, self.shift), self.mask)
    }
}

/// Unpacks `bits`-bit fields and stores `base - field` (or the field, for `base = None`).
#[target_feature(enable = "avx2")]
fn unpack_fields(a: &mut Poly, buf: &[u8], bits: usize, base: Option<i32>) {
    assert_eq!(buf.len(), N * bits / 8, "packed polynomial length");
    let r = FieldReader::new(bits);
    for i in 0..N / 8 {
        let v = r.step(buf, i);
        store(
            a,
            i,
            match base {
                Some(b) => _mm256_sub_epi32(_mm256_set1_epi32(b), v),
                None => v,
            },
        );
    }
}

/// Packs `base - coefficient` (or the coefficient, for `base = None`) as `bits`-bit fields
/// (FIPS 204 Alg. 16/17 bit order), eight per step: adjacent fields are joined into 64-bit
/// lanes (a shift), adjacent 64-bit lanes into the bottom 4 `bits` bits of each 128-bit lane
/// (a shift and a byte shuffle), and the two halves into the step's `bits` bytes (one
/// 128-bit register up to 16 bits, two overlapping stores above). Each step stores 16
/// bytes where that stays inside `out` (the next step rewrites the excess). The caller's
/// bounds (contract) keep every value inside its field.
#[target_feature(enable = "avx2")]
fn pack_fields(out: &mut [u8], a: &Poly, bits: usize, base: Option<i32>) {
    assert_eq!(out.len(), N * bits / 8, "packed polynomial length");
    // One instance per width FIPS 204 uses, so lengths and shifts are constants.
    match bits {
        3 => pack_fixed::<3>(out, a, base),
        4 => pack_fixed::<4>(out, a, base),
        6 => pack_fixed::<6>(out, a, base),
        10 => pack_fixed::<10>(out, a, base),
        13 => pack_fixed::<13>(out, a, base),
        18 => pack_fixed::<18>(out, a, base),
        20 => pack_fixed::<20>(out, a, base),
        b => unreachable!("no FIPS 204 encoding uses {b}-bit fields"),
    }
}

#[target_feature(enable = "avx2")]
fn pack_fixed<const BITS: usize>(out: &mut [u8], a: &Poly, base: Option<i32>) {
    // The upper 64-bit lane of each 128-bit lane moves up by 2 BITS bits: r bits by a shift,
    // q bytes by the shuffle (which zero-fills from below).
    let (q, r) = (2 * BITS / 8, 2 * BITS % 8);
    let mut pick = [-1i8; 32];
    for (j, p) in pick.iter_mut().enumerate() {
        if j % 16 >= q {
            *p = (j % 16 - q) as i8;
        }
    }
    // SAFETY: `pick` is 32 bytes; unaligned load.
    let pick = unsafe { _mm256_loadu_si256(pick.as_ptr().cast()) };
    let pair = _mm_cvtsi32_si128(BITS as i32);
    let r = _mm_cvtsi32_si128(r as i32);
    let low32 = _mm256_set1_epi64x(0xffff_ffff);
    let low64 = _mm256_setr_epi64x(-1, 0, -1, 0);
    let base = base.map(|b| _mm256_set1_epi32(b));
    // The second half (4 fields) starts hb whole bytes and hb_bits bits into the step.
    let (hb, hb_bits) = (4 * BITS / 8, 4 * BITS % 8);
    let hb_shift = _mm_cvtsi32_si128(hb_bits as i32);
    let hb_carry = _mm_cvtsi32_si128(64 - hb_bits as i32);
    let mut up = [-1i8; 16];
    for (j, u) in up.iter_mut().enumerate().skip(hb) {
        *u = (j - hb) as i8;
    }
    // SAFETY: `up` is 16 bytes; unaligned load.
    let up_half = unsafe { _mm_loadu_si128(up.as_ptr().cast()) };
    for i in 0..N / 8 {
        let v = match base {
            Some(b) => _mm256_sub_epi32(b, load(a, i)),
            None => load(a, i),
        };
        let y = _mm256_or_si256(
            _mm256_and_si256(v, low32),
            _mm256_sll_epi64(_mm256_srli_epi64(v, 32), pair),
        );
        let up = _mm256_shuffle_epi8(_mm256_sll_epi64(_mm256_bsrli_epi128(y, 8), r), pick);
        let z = _mm256_or_si256(_mm256_and_si256(y, low64), up);
        let (lo, hi) = (_mm256_castsi256_si128(z), _mm256_extracti128_si256(z, 1));
        let at = i * BITS;
        if 8 * BITS <= 128 {
            // The high half moves up by 4 BITS bits: 4 BITS % 8 (0 or 4) by 64-bit shifts
            // with the carry between them, the whole bytes by the shuffle.
            let hi = if hb_bits == 0 {
                hi
            } else {
                _mm_or_si128(
                    _mm_sll_epi64(hi, hb_shift),
                    _mm_srl_epi64(_mm_bslli_si128(hi, 8), hb_carry),
                )
            };
            let g = _mm_or_si128(lo, _mm_shuffle_epi8(hi, up_half));
            if at + 16 <= out.len() {
                // SAFETY: at + 16 <= out.len(); the bytes past this step's BITS are
                // rewritten by the next step.
                unsafe { _mm_storeu_si128(out.as_mut_ptr().add(at).cast(), g) };
            } else {
                let mut tmp = [0u8; 16];
                // SAFETY: `tmp` is 16 bytes; unaligned store.
                unsafe { _mm_storeu_si128(tmp.as_mut_ptr().cast(), g) };
                out[at..at + BITS].copy_from_slice(&tmp[..BITS]);
            }
        } else if at + hb + 16 <= out.len() {
            // Widths above 16 bits: each half is whole bytes; the second store rewrites the
            // zero bytes the first left past the half, the next step those past the step.
            // SAFETY: at + hb + 16 <= out.len(): both 16-byte stores are in bounds.
            unsafe {
                _mm_storeu_si128(out.as_mut_ptr().add(at).cast(), lo);
                _mm_storeu_si128(out.as_mut_ptr().add(at + hb).cast(), hi);
            }
        } else {
            let mut tmp = [0u8; 32];
            // SAFETY: hb + 16 <= 26 <= 32; unaligned stores into `tmp`.
            unsafe {
                _mm_storeu_si128(tmp.as_mut_ptr().cast(), lo);
                _mm_storeu_si128(tmp.as_mut_ptr().add(hb).cast(), hi);
            }
            out[at..at + BITS].copy_from_slice(&tmp[..BITS]);
        }
    }
}

/// BitUnpack of s1/s2 with the range check: false if any field exceeds 2 eta.
#[target_feature(enable = "avx2")]
fn unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
    assert_eq!(buf.len(), eta.poly_eta_bytes(), "packed polynomial length");
    let r = FieldReader::new(eta.bits());
    let (e, max) = (
        _mm256_set1_epi32(eta.value()),
        _mm256_set1_epi32(2 * eta.value()),
    );
    let mut bad = _mm256_setzero_si256();
    for i in 0..N / 8 {
        let v = r.step(buf, i);
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(v, max));
        store(a, i, _mm256_sub_epi32(e, v));
    }
    _mm256_testz_si256(bad, bad) == 1
}

/// Calls an AVX2 kernel from a safe method.
macro_rules! avx2 {
    ($e:expr) => {
        // SAFETY: `self` is an `Avx2` token, which exists only on CPUs with AVX2.
        unsafe { $e }
    };
}

impl Backend for Avx2 {
    const KIND: BackendKind = BackendKind::Avx2;
    const PREFERS_X4: bool = true;
    const PREFERS_X8: bool = true;

    /// Runs `f` inside a function compiled with AVX2 enabled, so that what the compiler
    /// inlines into it (the scheme code around the kernels) is compiled for AVX2 too.
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[target_feature(enable = "avx2")]
        fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        // SAFETY: the token exists only if the CPU has AVX2.
        unsafe { with_avx2(f) }
    }

    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        avx2!(keccak_x4(states))
    }
    fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        avx2!(keccak_x4x2(s0, s1))
    }
    fn ntt(self, a: &mut Poly) {
        avx2!(ntt(a))
    }
    fn ntt_order_from_canonical(self, a: &mut Poly) {
        avx2!(transpose_groups(a))
    }
    fn ntt_order_to_canonical(self, a: &mut Poly) {
        avx2!(transpose_groups(a))
    }
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        avx2!(rej_uniform(out, buf))
    }
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        avx2!(rej_eta(eta, out, buf))
    }
    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        avx2!(pack_fields(out, a, 10, None))
    }
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        avx2!(pack_fields(out, a, 13, Some(1 << (crate::params::D - 1))))
    }
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        avx2!(pack_fields(out, a, eta.bits(), Some(eta.value())))
    }
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        avx2!(pack_fields(out, a, g.z_bits(), Some(g.value())))
    }
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        avx2!(pack_fields(out, a, g.w1_bits(), None))
    }
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        avx2!(unpack_fields(a, buf, g.z_bits(), Some(g.value())))
    }
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        avx2!(unpack_fields(a, buf, 10, None))
    }
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        avx2!(unpack_fields(a, buf, 13, Some(1 << 12)))
    }
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        avx2!(unpack_eta(eta, a, buf))
    }
    fn invntt_tomont(self, a: &mut Poly) {
        avx2!(invntt_tomont(a))
    }
    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        avx2!(pointwise(c, a, b))
    }
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        avx2!(pointwise_acc(c, a, b))
    }
    fn reduce(self, a: &mut Poly) {
        avx2!(reduce(a))
    }
    fn caddq(self, a: &mut Poly) {
        avx2!(caddq(a))
    }
    fn add(self, a: &mut Poly, b: &Poly) {
        avx2!(add(a, b))
    }
    fn sub(self, a: &mut Poly, b: &Poly) {
        avx2!(sub(a, b))
    }
    fn shiftl(self, a: &mut Poly) {
        avx2!(shiftl(a))
    }
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        avx2!(power2round(t1, t0, a))
    }
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        avx2!(decompose(g, a1, a0, a))
    }
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        avx2!(make_hint(g, h, a0, a1))
    }
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        avx2!(use_hint(g, out, a, h))
    }
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        avx2!(chknorm(a, bound))
    }
    // Rejection sampling and bit packing: the portable defaults for now.
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn constants_match_portable() {
        assert_eq!(RHO[1], 1);
        assert_eq!(RHO[2], 62);
        assert_eq!(RC[0], 1);
        assert_eq!(RC[23], 0x8000_0000_8000_8008);
        let mut s = [0u64; 25];
        s[0] = 1;
        let mut x4 = [0u64; 100];
        x4[0] = 1;
        if let Some(b) = Avx2::detect() {
            keccak::f1600(&mut s);
            b.keccak_f1600_x4(&mut x4);
            for i in 0..25 {
                assert_eq!(x4[4 * i], s[i], "lane {i}");
            }
        }
    }
}
