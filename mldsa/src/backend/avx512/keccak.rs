//! Keccak-f[1600] on four interleaved states (lane `i` of instance `j` at `4 i + j`) in 25
//! `ymm` registers, and on two such groups (eight states) in 25 `zmm` registers: instances
//! 0..4 in the low half of each register, 4..8 in the high half. One round is theta's column
//! parities (two `vpternlogq` each: a five-way xor), theta's D (a `vprolq` and a xor), rho
//! fused with theta's xor (a xor and a `vprolq` per lane), pi (register renaming, no
//! instruction), chi (one `vpternlogq` per lane: b0 ^ (!b1 & b2)) and iota.
//!
//! The state stays in registers through all 24 rounds as far as the compiler can keep it
//! there (25 lanes, 5 parities and 5 D values are more than the 32 vector registers, so a few
//! spill). Spilled lanes of the last permutation of an ExpandS or ExpandMask stream are that
//! stream's secret output: each permutation runs in a frame of its own (never inlined) and
//! the caller wipes the region below itself afterwards ([`frame`](crate::backend::frame)).
#![allow(unsafe_code)]

use crate::backend::field::{KECCAK_RHO, keccak_rc_in_frame};
use crate::backend::frame::{align_frame, wipe_below};
use core::arch::x86_64::*;

/// Chi's b0 ^ (!b1 & b2) as a `vpternlogq` truth table (b0 = 0xF0, b1 = 0xCC, b2 = 0xAA).
const CHI: i32 = 0xD2;
/// A three-way xor as a `vpternlogq` truth table.
const XOR3: i32 = 0x96;

/// Defines a permutation of 25 registers of type `$v` (any number of interleaved states).
macro_rules! permutation {
    ($(#[$m:meta])* fn $name:ident, $feat:literal, $v:ty, $xor:ident, $tern:ident, $rol:ident,
     $set1:ident) => {
        $(#[$m])*
        #[target_feature(enable = $feat)]
        fn $name(a: &mut [$v; 25], round_constants: &[u64; 24]) {
            for &rc in round_constants.iter() {
                // Theta's column parities and D values.
                let c: [$v; 5] = [
                    $tern::<XOR3>($tern::<XOR3>(a[0], a[5], a[10]), a[15], a[20]),
                    $tern::<XOR3>($tern::<XOR3>(a[1], a[6], a[11]), a[16], a[21]),
                    $tern::<XOR3>($tern::<XOR3>(a[2], a[7], a[12]), a[17], a[22]),
                    $tern::<XOR3>($tern::<XOR3>(a[3], a[8], a[13]), a[18], a[23]),
                    $tern::<XOR3>($tern::<XOR3>(a[4], a[9], a[14]), a[19], a[24]),
                ];
                let d: [$v; 5] = [
                    $xor(c[4], $rol::<1>(c[1])),
                    $xor(c[0], $rol::<1>(c[2])),
                    $xor(c[1], $rol::<1>(c[3])),
                    $xor(c[2], $rol::<1>(c[4])),
                    $xor(c[3], $rol::<1>(c[0])),
                ];
                // Theta's xor, rho and pi: pi sends lane (x, y) to (y, 2x + 3y), so output
                // (X, Y) comes from lane I = (X + 3Y mod 5) + 5X, xored with D[X + 3Y mod 5]
                // and rotated by rho(I). Every index and rotation is a constant.
                macro_rules! lane {
                    ($x:literal, $y:literal) => {{
                        #[allow(
                            clippy::integer_division_remainder_used,
                            reason = "constant lane indices (pi's source column); no state word is divided"
                        )]
                        const SRC_X: usize = ($x + 3 * $y) % 5;
                        const I: usize = SRC_X + 5 * $x;
                        const R: i32 = KECCAK_RHO[I] as i32;
                        $rol::<R>($xor(a[I], d[SRC_X]))
                    }};
                }
                let b: [$v; 25] = [
                    lane!(0, 0), lane!(1, 0), lane!(2, 0), lane!(3, 0), lane!(4, 0),
                    lane!(0, 1), lane!(1, 1), lane!(2, 1), lane!(3, 1), lane!(4, 1),
                    lane!(0, 2), lane!(1, 2), lane!(2, 2), lane!(3, 2), lane!(4, 2),
                    lane!(0, 3), lane!(1, 3), lane!(2, 3), lane!(3, 3), lane!(4, 3),
                    lane!(0, 4), lane!(1, 4), lane!(2, 4), lane!(3, 4), lane!(4, 4),
                ];
                // Chi, row by row, and iota.
                macro_rules! row {
                    ($y:literal) => {
                        a[5 * $y] = $tern::<CHI>(b[5 * $y], b[5 * $y + 1], b[5 * $y + 2]);
                        a[5 * $y + 1] = $tern::<CHI>(b[5 * $y + 1], b[5 * $y + 2], b[5 * $y + 3]);
                        a[5 * $y + 2] = $tern::<CHI>(b[5 * $y + 2], b[5 * $y + 3], b[5 * $y + 4]);
                        a[5 * $y + 3] = $tern::<CHI>(b[5 * $y + 3], b[5 * $y + 4], b[5 * $y]);
                        a[5 * $y + 4] = $tern::<CHI>(b[5 * $y + 4], b[5 * $y], b[5 * $y + 1]);
                    };
                }
                row!(0);
                row!(1);
                row!(2);
                row!(3);
                row!(4);
                a[0] = $xor(a[0], $set1(rc as i64));
            }
        }
    };
}

permutation!(
    /// Keccak-f[1600] on four states, one per 64-bit lane of each `ymm` register.
    fn permute_x4, "avx512f,avx512vl", __m256i, _mm256_xor_si256, _mm256_ternarylogic_epi64,
    _mm256_rol_epi64, _mm256_set1_epi64x
);

permutation!(
    /// Keccak-f[1600] on eight states, one per 64-bit lane of each `zmm` register.
    fn permute_x8, "avx512f", __m512i, _mm512_xor_si512, _mm512_ternarylogic_epi64,
    _mm512_rol_epi64, _mm512_set1_epi64
);

/// Bytes wiped below a permutation's caller, where the frame of `x1_in_frame` or
/// `x4_in_frame` was: the register array, the round constants' copy, the cache line that
/// aligns the frame, and whatever spills. Measured with `objdump -d` of the library (x86_64,
/// rustc 1.95; the `sub` of each frame): at opt-level 3, x4 has no frame (its state stays in
/// the 32 `ymm` registers) and x1 384 bytes; at opt-level 1, 2, s and z at most 1,728 bytes
/// (x1 at opt-level 1), plus the return address, the frame pointer, the 64-byte alignment
/// (at most 56 bytes) and the 128-byte red zone: 1,928 bytes, which this covers.
const PERMUTE_FRAME_WIPE: usize = 2048;

/// The same for `x8_in_frame`: 960 bytes at opt-level 3, 1,984 (0x7c0) at opt-level 1, 2, s
/// and z, plus the return address, the pushes of the frame pointer and five callee-saved
/// registers, the alignment and the red zone: at most 2,224 bytes.
const PERMUTE_X8_FRAME_WIPE: usize = 2304;

/// Loads four interleaved states into registers, permutes them and stores them back, in a
/// frame of its own (never inlined) that the caller then wipes.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline(never)]
fn x4_in_frame(states: &mut [u64; 100]) {
    align_frame!();
    let mut a: [__m256i; 25] = core::array::from_fn(|i| {
        // SAFETY: i < 25, so states[4i..4i + 4] is in bounds; unaligned load.
        unsafe { _mm256_loadu_si256(states.as_ptr().add(4 * i).cast()) }
    });
    permute_x4(&mut a, &keccak_rc_in_frame());
    for (i, v) in a.iter().enumerate() {
        // SAFETY: i < 25, so states[4i..4i + 4] is in bounds; unaligned store.
        unsafe { _mm256_storeu_si256(states.as_mut_ptr().add(4 * i).cast(), *v) };
    }
}

/// Keccak-f[1600] on one state: the 4-way permutation with the state in every lane (the
/// permutation's instructions cost the same for one lane as for four, and beat the scalar
/// one here), in a frame of its own that the caller then wipes.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline(never)]
fn x1_in_frame(state: &mut [u64; 25]) {
    align_frame!();
    let mut a: [__m256i; 25] = core::array::from_fn(|i| _mm256_set1_epi64x(state[i] as i64));
    permute_x4(&mut a, &keccak_rc_in_frame());
    for (w, v) in state.iter_mut().zip(a.iter()) {
        *w = _mm_cvtsi128_si64(_mm256_castsi256_si128(*v)) as u64;
    }
}

/// Loads two groups of four interleaved states into registers (`s0`'s in the low halves,
/// `s1`'s in the high halves), permutes them and stores them back, in a frame of its own.
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn x8_in_frame(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    align_frame!();
    let mut a: [__m512i; 25] = core::array::from_fn(|i| {
        // SAFETY: i < 25, so s0[4i..4i + 4] and s1[4i..4i + 4] are in bounds; unaligned
        // loads.
        unsafe {
            let lo = _mm256_loadu_si256(s0.as_ptr().add(4 * i).cast());
            let hi = _mm256_loadu_si256(s1.as_ptr().add(4 * i).cast());
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        }
    });
    permute_x8(&mut a, &keccak_rc_in_frame());
    for (i, v) in a.iter().enumerate() {
        // SAFETY: i < 25, so s0[4i..4i + 4] and s1[4i..4i + 4] are in bounds; unaligned
        // stores.
        unsafe {
            _mm256_storeu_si256(
                s0.as_mut_ptr().add(4 * i).cast(),
                _mm512_castsi512_si256(*v),
            );
            _mm256_storeu_si256(
                s1.as_mut_ptr().add(4 * i).cast(),
                _mm512_extracti64x4_epi64::<1>(*v),
            );
        }
    }
}

/// The one-way permutation. The state may be secret (SHAKE256 of xi, of K): what the
/// permutation's frame held is wiped.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) fn keccak_x1(state: &mut [u64; 25]) {
    x1_in_frame(state);
    wipe_below::<PERMUTE_FRAME_WIPE>();
}

/// The 4-way permutation (lane `i` of instance `j` at `states[4 i + j]`). The states may be
/// secret (ExpandS, ExpandMask): what the permutation's frame held is wiped.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) fn keccak_x4(states: &mut [u64; 100]) {
    x4_in_frame(states);
    wipe_below::<PERMUTE_FRAME_WIPE>();
}

/// Two 4-way permutations at once, in one 8-way permutation; the frame is wiped as above
/// (its own size: [`PERMUTE_X8_FRAME_WIPE`]).
#[target_feature(enable = "avx512f")]
pub(super) fn keccak_x8(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    x8_in_frame(s0, s1);
    wipe_below::<PERMUTE_X8_FRAME_WIPE>();
}

/// [`keccak_x1`] of a state that holds no secret: nothing to wipe.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) fn keccak_x1_public(state: &mut [u64; 25]) {
    x1_in_frame(state);
}

/// [`keccak_x4`] of states that hold no secret: nothing to wipe.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) fn keccak_x4_public(states: &mut [u64; 100]) {
    x4_in_frame(states);
}

/// [`keccak_x8`] of states that hold no secret: nothing to wipe.
#[target_feature(enable = "avx512f")]
pub(super) fn keccak_x8_public(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    x8_in_frame(s0, s1);
}

#[cfg(test)]
mod tests {
    use crate::backend::{Avx512, Backend, Portable};

    /// Each of the eight states of a 2x4-way call, and each of the four of a 4-way call,
    /// equals the portable one-way permutation of the same state.
    #[test]
    fn every_instance_matches_the_portable_permutation() {
        let Some(b) = Avx512::detect() else { return };
        let mut s0 = [0u64; 100];
        let mut s1 = [0u64; 100];
        for (i, w) in s0.iter_mut().chain(s1.iter_mut()).enumerate() {
            *w = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let one = |s: &[u64; 100], j: usize| {
            let mut x: [u64; 25] = core::array::from_fn(|i| s[4 * i + j]);
            Portable.keccak_f1600(&mut x);
            x
        };
        let want: [[u64; 25]; 8] =
            core::array::from_fn(|j| if j < 4 { one(&s0, j) } else { one(&s1, j - 4) });
        let mut x4 = s0;
        b.keccak_f1600_x4(&mut x4);
        let mut x1: [u64; 25] = core::array::from_fn(|i| s0[4 * i + 2]);
        b.keccak_f1600(&mut x1);
        assert_eq!(x1, want[2], "one-way");
        b.keccak_f1600_x4x2(&mut s0, &mut s1);
        for j in 0..8 {
            let (s, k) = if j < 4 { (&s0, j) } else { (&s1, j - 4) };
            let got: [u64; 25] = core::array::from_fn(|i| s[4 * i + k]);
            assert_eq!(got, want[j], "x8 instance {j}");
            if j < 4 {
                let got4: [u64; 25] = core::array::from_fn(|i| x4[4 * i + j]);
                assert_eq!(got4, want[j], "x4 instance {j}");
            }
        }
    }
}
