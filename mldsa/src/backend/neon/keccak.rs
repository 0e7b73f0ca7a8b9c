//! Keccak-f[1600] on two states at once, one per 64-bit lane of `uint64x2_t`, in two
//! flavours: plain Neon (a rotation is a shift and a shift-right-insert, chi an and-not and
//! a xor) and the Armv8.2 SHA3 instructions (`eor3` for the column parities, `rax1` for
//! theta's D, `xar` for theta's xor fused with rho's rotation, `bcax` for chi). The 4-way
//! interleaved layout (lane i of instance j at `states[4i + j]`) puts instances 0 and 1 of a
//! lane in one aligned pair of words and instances 2 and 3 in the next, so the 4-way
//! permutation is two 2-way ones with plain loads and stores, no shuffles.
//!
//! One 2-way state is 25 of the 32 vector registers; the round's parities, D values and
//! rotated lanes take the rest, so two 2-way permutations are run one after the other
//! rather than interleaved (interleaving would spill).
//!
//! The 2-way permutation still spills state lanes to its stack frame (about 830 bytes at
//! opt-level 3), and after the last permutation of an ExpandS or ExpandMask stream they are
//! that stream's secret output: each 2-way permutation runs in a frame of its own (never
//! inlined) and the 4-way one wipes the region below itself afterwards
//! ([`frame`](crate::backend::frame)).
#![allow(unsafe_code)]

use core::arch::aarch64::*;

use super::super::field::KECCAK_RC as RC;

/// Theta's rho'd and pi'd lanes for output positions 1..25 (position 0 is lane 0 with no
/// rotation): pi sends lane (x, y) to (y, 2x + 3y), so output (X, Y) = X + 5Y comes from lane
/// I = (X + 3Y mod 5) + 5X, xored with D[X + 3Y mod 5] and rotated left by rho(I) = L
/// (R = 64 - L). Each tuple is (I, D index, L, R), listed in output order.
macro_rules! rho_pi {
    ($a:ident, $d:ident, $xr:ident) => {
        rho_pi!(@ $a, $d, $xr;
            (6, 1, 44, 20), (12, 2, 43, 21), (18, 3, 21, 43), (24, 4, 14, 50),
            (3, 3, 28, 36), (9, 4, 20, 44), (10, 0, 3, 61), (16, 1, 45, 19),
            (22, 2, 61, 3), (1, 1, 1, 63), (7, 2, 6, 58), (13, 3, 25, 39),
            (19, 4, 8, 56), (20, 0, 18, 46), (4, 4, 27, 37), (5, 0, 36, 28),
            (11, 1, 10, 54), (17, 2, 15, 49), (23, 3, 56, 8), (2, 2, 62, 2),
            (8, 3, 55, 9), (14, 4, 39, 25), (15, 0, 41, 23), (21, 1, 2, 62))
    };
    (@ $a:ident, $d:ident, $xr:ident; $(($i:literal, $x:literal, $l:literal, $r:literal)),*) => {
        [veorq_u64($a[0], $d[0]), $( $xr::<$l, $r>($a[$i], $d[$x]) ),*]
    };
}

/// Defines a 2-way permutation from its four building blocks: the five-way xor of a column,
/// theta's D (c_prev ^ rotl(c_next, 1)), xor-then-rotate-left, and chi's a ^ (!b & c).
macro_rules! keccak2 {
    ($(#[$m:meta])* fn $name:ident, $feat:literal, $eor5:ident, $dd:ident, $xr:ident, $chi:ident) => {
        $(#[$m])*
        #[target_feature(enable = $feat)]
        #[inline(never)]
        #[allow(
            clippy::integer_division_remainder_used,
            reason = "lane indices (x + k) mod 5 of the unrolled loop counters, constants after unrolling; no state word is divided"
        )]
        fn $name(s: &mut [u64; 100], h: usize) {
            assert!(h < 2);
            let mut a: [uint64x2_t; 25] = core::array::from_fn(|i| {
                // SAFETY: i < 25 and h < 2, so s[4i + 2h..4i + 2h + 2] is in bounds.
                unsafe { vld1q_u64(s.as_ptr().add(4 * i + 2 * h)) }
            });
            for rc in RC {
                let c: [uint64x2_t; 5] = core::array::from_fn(|x| {
                    $eor5(a[x], a[x + 5], a[x + 10], a[x + 15], a[x + 20])
                });
                let d: [uint64x2_t; 5] =
                    core::array::from_fn(|x| $dd(c[(x + 4) % 5], c[(x + 1) % 5]));
                let b: [uint64x2_t; 25] = rho_pi!(a, d, $xr);
                for y in 0..5 {
                    for x in 0..5 {
                        a[x + 5 * y] = $chi(
                            b[x + 5 * y],
                            b[(x + 1) % 5 + 5 * y],
                            b[(x + 2) % 5 + 5 * y],
                        );
                    }
                }
                a[0] = veorq_u64(a[0], vdupq_n_u64(rc));
            }
            for (i, v) in a.iter().enumerate() {
                // SAFETY: as for the loads.
                unsafe { vst1q_u64(s.as_mut_ptr().add(4 * i + 2 * h), *v) };
            }
        }
    };
}

#[target_feature(enable = "neon")]
fn eor5(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t, d: uint64x2_t, e: uint64x2_t) -> uint64x2_t {
    veorq_u64(veorq_u64(veorq_u64(a, b), veorq_u64(c, d)), e)
}

/// x rotated left by L (R = 64 - L, in 1..64): a shift and a shift-right-insert.
#[target_feature(enable = "neon")]
fn rotl<const L: i32, const R: i32>(x: uint64x2_t) -> uint64x2_t {
    vsriq_n_u64::<R>(vshlq_n_u64::<L>(x), x)
}

#[target_feature(enable = "neon")]
fn theta_d(c_prev: uint64x2_t, c_next: uint64x2_t) -> uint64x2_t {
    veorq_u64(c_prev, rotl::<1, 63>(c_next))
}

#[target_feature(enable = "neon")]
fn xor_rotl<const L: i32, const R: i32>(a: uint64x2_t, d: uint64x2_t) -> uint64x2_t {
    rotl::<L, R>(veorq_u64(a, d))
}

#[target_feature(enable = "neon")]
fn chi(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
    veorq_u64(a, vbicq_u64(c, b))
}

#[target_feature(enable = "neon,sha3")]
fn eor5_sha3(
    a: uint64x2_t,
    b: uint64x2_t,
    c: uint64x2_t,
    d: uint64x2_t,
    e: uint64x2_t,
) -> uint64x2_t {
    veor3q_u64(veor3q_u64(a, b, c), d, e)
}

#[target_feature(enable = "neon,sha3")]
fn theta_d_sha3(c_prev: uint64x2_t, c_next: uint64x2_t) -> uint64x2_t {
    vrax1q_u64(c_prev, c_next)
}

/// (a ^ d) rotated left by L = rotated right by R: one `xar`.
#[target_feature(enable = "neon,sha3")]
fn xor_rotl_sha3<const L: i32, const R: i32>(a: uint64x2_t, d: uint64x2_t) -> uint64x2_t {
    vxarq_u64::<R>(a, d)
}

#[target_feature(enable = "neon,sha3")]
fn chi_sha3(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
    vbcaxq_u64(a, c, b)
}

keccak2!(
    /// Keccak-f[1600] on instances 2h and 2h + 1 of a 4-way interleaved state, plain Neon.
    fn keccak2_neon, "neon", eor5, theta_d, xor_rotl, chi
);

keccak2!(
    /// Keccak-f[1600] on instances 2h and 2h + 1 of a 4-way interleaved state, with the
    /// SHA3 instructions.
    fn keccak2_sha3, "neon,sha3", eor5_sha3, theta_d_sha3, xor_rotl_sha3, chi_sha3
);

/// Bytes wiped below a 4-way permutation after its two 2-way ones: their frames take 704
/// (SHA3) and 832 (plain) bytes in the test profile (opt-level 3, aarch64); twice that
/// leaves room for other compilers and profiles.
const KECCAK2_FRAME_WIPE: usize = 2048;

/// The 4-way permutation, plain Neon.
#[target_feature(enable = "neon")]
pub(super) fn keccak_x4_neon(s: &mut [u64; 100]) {
    keccak2_neon(s, 0);
    keccak2_neon(s, 1);
    crate::backend::frame::wipe_below::<KECCAK2_FRAME_WIPE>();
}

/// The 4-way permutation with the SHA3 instructions.
#[target_feature(enable = "neon,sha3")]
pub(super) fn keccak_x4_sha3(s: &mut [u64; 100]) {
    keccak2_sha3(s, 0);
    keccak2_sha3(s, 1);
    crate::backend::frame::wipe_below::<KECCAK2_FRAME_WIPE>();
}

/// [`keccak_x4_neon`] of states that hold no secret (ExpandA, H(pk), Verify): no wipe.
#[target_feature(enable = "neon")]
pub(super) fn keccak_x4_neon_public(s: &mut [u64; 100]) {
    keccak2_neon(s, 0);
    keccak2_neon(s, 1);
}

/// [`keccak_x4_sha3`] of states that hold no secret: no wipe.
#[target_feature(enable = "neon,sha3")]
pub(super) fn keccak_x4_sha3_public(s: &mut [u64; 100]) {
    keccak2_sha3(s, 0);
    keccak2_sha3(s, 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_constants() {
        assert_eq!(RC[0], 1);
        assert_eq!(RC[1], 0x8082);
        assert_eq!(RC[23], 0x8000_0000_8000_8008);
    }
}
