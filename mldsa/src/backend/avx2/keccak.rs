//! Keccak-f[1600] on four interleaved states (lane `i` of instance `j` at `4 i + j`), and a
//! pair of such permutations run round by round in turn. The one-way permutation is in
//! `keccak_one`.
#![allow(unsafe_code)]

use crate::backend::field::{KECCAK_RHO as RHO, keccak_rc_in_frame};
use crate::backend::frame::{align_frame, wipe_below};
use core::arch::x86_64::*;

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

/// A scratch state, 64-byte aligned (where the compiler keeps it in memory at all: at
/// opt-level 3 it keeps its lanes in registers and spill slots).
#[repr(C, align(64))]
struct Lanes([u64; 100]);

/// One round of Keccak-f[1600] (FIPS 202 Alg. 7: theta, rho, pi, chi, iota) on four
/// interleaved states, from `$a` into `$e`, one output row at a time so the row stays in
/// registers. Lane (x, y) is index x + 5y; pi sends lane (x, y) to (y, 2x + 3y), so output
/// row Y, column X comes from lane (3Y + X mod 5, X). `$c` holds the column parities of `$a`
/// on entry and of `$e` on exit. A macro, so that every round is inlined into the frame
/// [`Lanes`] aligns.
macro_rules! round {
    ($a:expr, $e:expr, $c:expr, $rc:expr) => {{
        let (a, e, c): (&[u64; 100], &mut [u64; 100], &mut [__m256i; 5]) = ($a, $e, $c);
        let d: [__m256i; 5] =
            core::array::from_fn(|x| _mm256_xor_si256(c[PREV[x]], rotl(c[NEXT[x]], 1)));
        // Unrolled by macro: every lane index and rotation is a constant.
        macro_rules! lane {
            ($x_out:literal, $y_out:literal) => {{
                #[allow(
                    clippy::integer_division_remainder_used,
                    reason = "constant lane indices (pi's source column); no state word is divided"
                )]
                const X: usize = (3 * $y_out + $x_out) % 5;
                const I: usize = X + 5 * $x_out;
                // SAFETY: I < 25, so a[4I..4I + 4] is in bounds; unaligned load.
                let v = unsafe { _mm256_loadu_si256(a.as_ptr().add(4 * I).cast()) };
                rotl(_mm256_xor_si256(v, d[X]), RHO[I])
            }};
        }
        let rc = _mm256_set1_epi64x($rc as i64);
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
                        _mm256_xor_si256(b[x], _mm256_andnot_si256(b[NEXT[x]], b[NEXT2[x]]));
                    if $y == 0 && x == 0 {
                        v = _mm256_xor_si256(v, rc);
                    }
                    // SAFETY: x + 5y < 25, so e[4(x + 5y)..][..4] is in bounds; unaligned
                    // store.
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
    }};
}

// (x + 1) mod 5, (x + 2) mod 5 and (x + 4) mod 5 from tables, not computed: a loop that
// opt-level z does not unroll would keep `% 5` as a divide instruction (of the public column
// index; scripts/ct-divides.sh).
pub(super) const NEXT: [usize; 5] = [1, 2, 3, 4, 0];
pub(super) const NEXT2: [usize; 5] = [2, 3, 4, 0, 1];
pub(super) const PREV: [usize; 5] = [4, 0, 1, 2, 3];

/// The 24 rounds on four interleaved states, in a frame of its own (never inlined) that the
/// caller then wipes. Rounds alternate between the caller's states and a scratch copy, each
/// reading one whole and writing the other once (no separate pi/rho array, no copy in or
/// out: 24 rounds end where they began). Theta's column parities of the input are computed
/// once; each round then returns those of its output, accumulated as the rows are written,
/// so no round reads the state twice. A loop of two rounds: 24 unrolled rounds (5,300
/// instructions) overflow the decoded-instruction cache and ran 8% slower (Zen 4).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn x4_in_frame(states: &mut [u64; 100]) {
    align_frame!();
    let mut c = parities(states);
    let mut scratch = Lanes([0u64; 100]);
    for rc in keccak_rc_in_frame().chunks_exact(2) {
        round!(states, &mut scratch.0, &mut c, rc[0]);
        round!(&scratch.0, states, &mut c, rc[1]);
    }
}

/// Two independent 4-way permutations, round by round in turn, in a frame of their own: a
/// round cannot start before the last row of the one before it is done (theta reads every
/// lane), so one permutation alone leaves the execution units idle at every round's end;
/// the other's round fills them.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn x4x2_in_frame(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    align_frame!();
    let (mut c0, mut c1) = (parities(s0), parities(s1));
    let mut scratch0 = Lanes([0u64; 100]);
    let mut scratch1 = Lanes([0u64; 100]);
    for rc in keccak_rc_in_frame().chunks_exact(2) {
        round!(s0, &mut scratch0.0, &mut c0, rc[0]);
        round!(s1, &mut scratch1.0, &mut c1, rc[0]);
        round!(&scratch0.0, s0, &mut c0, rc[1]);
        round!(&scratch1.0, s1, &mut c1, rc[1]);
    }
}

/// The 4-way permutation (lane `i` of instance `j` at `states[4 i + j]`). The states may be
/// secret (ExpandS, ExpandMask): no copy is left behind, neither the scratch state, the
/// output's column parities nor what the rounds spilled (theta's D, lanes after rho: after
/// ExpandS, values one round from the secret output).
#[target_feature(enable = "avx2")]
pub(super) fn keccak_x4(states: &mut [u64; 100]) {
    x4_in_frame(states);
    wipe_below::<X4_FRAME_WIPE>();
}

/// Two 4-way permutations at once; the frame is wiped as above.
#[target_feature(enable = "avx2")]
pub(super) fn keccak_x4x2(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    x4x2_in_frame(s0, s1);
    wipe_below::<X4X2_FRAME_WIPE>();
}

/// [`keccak_x4`] of states that hold no secret: nothing to wipe.
#[target_feature(enable = "avx2")]
pub(super) fn keccak_x4_public(states: &mut [u64; 100]) {
    x4_in_frame(states);
}

/// [`keccak_x4x2`] of states that hold no secret: nothing to wipe.
#[target_feature(enable = "avx2")]
pub(super) fn keccak_x4x2_public(s0: &mut [u64; 100], s1: &mut [u64; 100]) {
    x4x2_in_frame(s0, s1);
}

/// Bytes wiped below [`keccak_x4`] after [`x4_in_frame`]: that frame (the scratch state
/// where it is kept in memory, the parities, the round constants' copy, the spills), its
/// return address and pushes, its 64-byte alignment (at most 56 bytes), what it calls (at
/// opt-level s and z: `memset`, `memcpy`, `parities` and closures) and the 128-byte red
/// zone. Measured with `objdump -d` of the library (x86_64, rustc 1.95; the `sub` of each
/// frame): 0x4c0 bytes at opt-level 1, 2 and 3, 0x5c0 and four pushes at s, 0x600 and six
/// pushes at z, which calls `parities` (0x100 bytes and six pushes): at most 2,152 bytes.
const X4_FRAME_WIPE: usize = 2560;

/// The same for [`keccak_x4x2`] and [`x4x2_in_frame`] (two scratch states): 0x8c0 bytes at
/// opt-level 1, 2 and 3, 0x9c0 and six pushes at s, 0xa40 and six pushes at z (which calls
/// `parities`): at most 3,240 bytes.
const X4X2_FRAME_WIPE: usize = 3584;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Avx2, Backend};

    #[test]
    fn constants_match_portable() {
        assert_eq!(RHO[1], 1);
        assert_eq!(RHO[2], 62);
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
