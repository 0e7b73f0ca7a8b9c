//! Keccak-f[1600] on one state, in general-purpose registers, with BMI1 (`andn` for chi) and
//! BMI2 (`rorx` for rho and theta's rotations, which leave the flags and their source alone):
//! the AVX2 backend's one-way permutation (H(pk), mu, H(mu || w1), SampleInBall's stream).
//! No vector unit does one state faster here: the `keccak` crate's permutation took 334 ns
//! and this one 255 ns on Zen 4 (BENCHMARKS.md), the same rounds as the 4-way permutation
//! in `keccak`: one output row at a time, column parities accumulated as the rows are
//! written, two rounds per loop step between the state and a scratch copy.
#![allow(unsafe_code)]

use super::keccak::{NEXT, NEXT2, PREV};
use crate::backend::field::{KECCAK_RHO as RHO, keccak_rc_in_frame};
use crate::backend::frame::{align_frame, wipe_below};

/// Theta's column parities of one state.
fn parities(s: &[u64; 25]) -> [u64; 5] {
    core::array::from_fn(|x| s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20])
}

/// One round of Keccak-f[1600] (FIPS 202 Alg. 7: theta, rho, pi, chi, iota) from `$a` into
/// `$e`, one output row at a time. Lane (x, y) is index x + 5y; pi sends lane (x, y) to
/// (y, 2x + 3y), so output row Y, column X comes from lane (3Y + X mod 5, X). `$c` holds the
/// column parities of `$a` on entry and of `$e` on exit. A macro, so that both rounds of a
/// loop step are inlined into one frame with constant lane indices and rotations.
macro_rules! round {
    ($a:expr, $e:expr, $c:expr, $rc:expr) => {{
        let (a, e, c): (&[u64; 25], &mut [u64; 25], &mut [u64; 5]) = ($a, $e, $c);
        let d: [u64; 5] = core::array::from_fn(|x| c[PREV[x]] ^ c[NEXT[x]].rotate_left(1));
        macro_rules! lane {
            ($x_out:literal, $y_out:literal) => {{
                #[allow(
                    clippy::integer_division_remainder_used,
                    reason = "constant lane indices (pi's source column); no state word is divided"
                )]
                const X: usize = (3 * $y_out + $x_out) % 5;
                const I: usize = X + 5 * $x_out;
                (a[I] ^ d[X]).rotate_left(RHO[I])
            }};
        }
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
                    let mut v = b[x] ^ (!b[NEXT[x]] & b[NEXT2[x]]);
                    if $y == 0 && x == 0 {
                        v ^= $rc;
                    }
                    e[x + 5 * $y] = v;
                    c[x] = if $y == 0 { v } else { c[x] ^ v };
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

/// The 24 rounds, in a frame of its own (never inlined) that the caller then wipes when the
/// state is secret: rounds alternate between the state and a scratch copy, 24 rounds ending
/// where they began. The frame is 64-byte aligned: the round constants' copy is made with
/// `ymm` stores.
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[inline(never)]
fn one_in_frame(state: &mut [u64; 25]) {
    align_frame!();
    let mut c = parities(state);
    let mut scratch = [0u64; 25];
    for rc in keccak_rc_in_frame().chunks_exact(2) {
        round!(state, &mut scratch, &mut c, rc[0]);
        round!(&scratch, state, &mut c, rc[1]);
    }
}

/// The permutation of a state that may be secret (SampleInBall's stream, H(mu || w1)): no
/// copy is left behind, neither the scratch state, the parities nor what the rounds spilled.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn keccak_one(state: &mut [u64; 25]) {
    one_in_frame(state);
    wipe_below::<ONE_FRAME_WIPE>();
}

/// [`keccak_one`] of a state that holds no secret: nothing to wipe.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn keccak_one_public(state: &mut [u64; 25]) {
    one_in_frame(state);
}

/// Bytes wiped below [`keccak_one`] after [`one_in_frame`]: that frame (the scratch state,
/// the parities, the round constants' copy, the spills), its return address and six
/// pushes, its 64-byte alignment (at most 56 bytes), what it calls (at opt-level s and z:
/// `memcpy`, `memset` and closures) and the 128-byte red zone. Measured with `objdump -d`
/// of the library (x86_64, rustc 1.95; the `sub` of the frame): 0x240 bytes at opt-level
/// 1, 2 and 3, 0x2c0 at s and z, so at most 816 bytes with the alignment, the pushes and
/// the return address. `secret_wipes.rs` fails if it stops covering them.
const ONE_FRAME_WIPE: usize = 1536;
