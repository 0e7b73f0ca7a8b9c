//! Constants and scalar arithmetic shared by every backend: the modulus, Montgomery
//! arithmetic (R = 2^32), the NTT twiddles, the rounding functions of FIPS 204 Section 7.4
//! on one coefficient, and the Keccak-f[1600] round constants. Everything here is `const` or
//! a branch-free scalar function; the portable kernels apply these coefficient by
//! coefficient, the SIMD backends build their vector versions from the same constants.

pub use crate::params::Q;
use crate::params::{D, Gamma2, N};

/// q^-1 mod 2^32.
pub const QINV: i32 = 58_728_449;
/// 2^32 mod q (the Montgomery factor R).
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant: 2^32 mod q"
)]
pub const MONT: i64 = (1i64 << 32) % Q as i64;

const _: () = assert!(Q.wrapping_mul(QINV) == 1);

/// base^e mod q, at compile time.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "in this crate run at compile time only (the zetas, INVNTT_F): constants mod the constant q"
)]
pub const fn pow_mod(base: i64, mut e: u32) -> i64 {
    let q = Q as i64;
    let mut b = base % q;
    let mut r = 1i64;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % q;
        }
        b = b * b % q;
        e >>= 1;
    }
    r
}

/// Centred representative of x mod q, in (-q/2, q/2].
#[allow(
    clippy::integer_division_remainder_used,
    reason = "run at compile time only (the zetas): constants mod the constant q"
)]
pub(crate) const fn centered(x: i64) -> i32 {
    let q = Q as i64;
    let r = ((x % q) + q) % q;
    (if r > q / 2 { r - q } else { r }) as i32
}

/// zeta = 1753, the 512th root of unity mod q (FIPS 204 Section 7.5).
pub const ZETA: i64 = 1753;

/// ZETAS\[m\] = zeta^BitRev8(m) * 2^32 mod q, centred (FIPS 204 Appendix B, in Montgomery
/// form). Entry 0 is unused by the transforms. Computed at compile time.
pub const ZETAS: [i32; N] = {
    let mut z = [0i32; N];
    let mut m = 0;
    while m < N {
        let e = (m as u8).reverse_bits() as u32;
        z[m] = centered(pow_mod(ZETA, e) * MONT);
        m += 1;
    }
    z
};

/// 2^64 / 256 mod q: the final scaling of the inverse NTT, which divides by 256 and leaves
/// the result multiplied by 2^32 (one Montgomery reduction consumes one 2^32).
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant: 2^64 / 256 mod q"
)]
pub const INVNTT_F: i64 = (MONT * MONT % Q as i64) * pow_mod(256, (Q - 2) as u32) % Q as i64;

/// Montgomery reduction: for |a| <= 2^31 * q returns r = a * 2^-32 mod q with |r| < q.
#[inline(always)]
pub fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - t as i64 * Q as i64) >> 32) as i32
}

/// For a <= 2^31 - 2^22 - 1 returns r = a mod q with -6283009 <= r <= 6283008.
#[inline(always)]
pub fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Adds q if a is negative (constant time).
#[inline(always)]
pub fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// Power2Round (FIPS 204 Alg. 35) for a in [0, q): (a1, a0) with a = a1 * 2^13 + a0 and
/// a0 in (-2^12, 2^12].
#[inline(always)]
pub fn power2round(a: i32) -> (i32, i32) {
    let a1 = (a + (1 << (D - 1)) - 1) >> D;
    (a1, a - (a1 << D))
}

/// Decompose (FIPS 204 Alg. 36) for r in [0, q), without division.
///
/// r1 = floor((r + gamma2 - 1) / (2 gamma2)) puts r0 = r - r1 * 2 gamma2 in (-gamma2, gamma2].
/// 2 gamma2 = 2^9 * 1023 (gamma2 = (q-1)/32) or 2^11 * 93 (gamma2 = (q-1)/88), and
/// 1023 * 1025 = 93 * 11275 = 2^20 - 1, so floor(y / 1023) = (1025 y + 2^10) >> 20 and
/// floor(y / 93) = (11275 y + 2^12) >> 20 for the y that occur (checked exhaustively in the
/// tests). If r1 reaches m = (q-1)/(2 gamma2) we are in the r - r0 = q - 1 case of line 4:
/// r1 becomes 0 and r0 one less.
#[inline(always)]
pub fn decompose(g: Gamma2, r: i32) -> (i32, i32) {
    let g2 = g.value();
    let x = r + g2 - 1;
    let r1 = match g {
        Gamma2::QMinus1Over32 => ((x >> 9) * 1025 + (1 << 10)) >> 20,
        Gamma2::QMinus1Over88 => ((x >> 11) * 11275 + (1 << 12)) >> 20,
    };
    let r0 = r - r1 * 2 * g2;
    // wrap = all ones iff r1 == m (r1 ^ m is in [0, 63], so subtracting 1 is negative only for 0).
    let wrap = ((r1 ^ g.m()) - 1) >> 31;
    (r1 & !wrap, r0 + wrap)
}

/// The hint bit for low part a0 and high part a1 (see
/// [`Backend::make_hint`](super::Backend::make_hint)): 1 iff a0 > gamma2, or a0 < -gamma2,
/// or a0 = -gamma2 and a1 != 0. Constant time.
#[inline(always)]
pub fn make_hint(g: Gamma2, a0: i32, a1: i32) -> i32 {
    let g2 = g.value();
    let above = (g2 - a0) >> 31; // a0 > gamma2
    let below = (a0 + g2) >> 31; // a0 < -gamma2
    let at_neg = !(((a0 + g2) | -(a0 + g2)) >> 31); // a0 == -gamma2
    let a1_nonzero = (a1 | -a1) >> 31;
    (above | below | (at_neg & a1_nonzero)) & 1
}

/// UseHint (FIPS 204 Alg. 40) for r in [0, q) and h in {0, 1}. Operates on public data.
#[inline(always)]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "UseHint runs in verification only, on public values (w'_approx and the hint); mod m = 16 or 44"
)]
pub fn use_hint(g: Gamma2, r: i32, h: i32) -> i32 {
    let (r1, r0) = decompose(g, r);
    let m = g.m();
    match (h, r0 > 0) {
        (0, _) => r1,
        (_, true) => (r1 + 1) % m,
        (_, false) => (r1 - 1 + m) % m,
    }
}

/// The 24 round constants of Keccak-f[1600] (FIPS 202 Alg. 5/6, iota), computed at compile
/// time from the LFSR x^8 + x^6 + x^5 + x^4 + 1: the one definition every Keccak
/// implementation in this workspace should use.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant: the Keccak round constants"
)]
pub const KECCAK_RC: [u64; 24] = {
    let mut rc = [0u64; 24];
    let mut ir = 0;
    while ir < 24 {
        let mut j = 0;
        while j < 7 {
            // rc(t) for t = j + 7 ir.
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

/// [`KECCAK_RC`] as a copy in the caller's stack frame, for a SIMD permutation to load each
/// round's constant from. Loaded from the static table instead, that load (between rounds,
/// right after a round's stores or spills; it feeds the next round) can share the low 12
/// bits of its address with one of those stores, depending on where the stack lies, and the
/// CPU then holds it back behind the store (4K aliasing): the AVX-512 backend's keygen
/// ML-DSA-44 took 20.7 µs instead of 16.2 at one 64-byte window of stack placements, the
/// AVX2 backend's up to 7% longer over a band (BENCHMARKS.md, 2026-12-07). In the frame the
/// constants lie a fixed, short distance from the permutation's own stores wherever the
/// stack lies. (`black_box` keeps the compiler from reading the static table instead.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn keccak_rc_in_frame() -> [u64; 24] {
    core::hint::black_box(KECCAK_RC)
}

/// The rotation offsets of Keccak-f[1600]'s rho step, r[x + 5y] (FIPS 202 Alg. 2), computed
/// at compile time: the SIMD permutations' one definition.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constant: the rotation offsets of FIPS 202"
)]
pub const KECCAK_RHO: [u32; 25] = {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 204 Alg. 36 written literally, with division: the reference for [`decompose`].
    fn decompose_literal(g: Gamma2, r: i32) -> (i32, i32) {
        let two_g2 = 2 * g.value();
        let mut r0 = r.rem_euclid(two_g2);
        if r0 > two_g2 / 2 {
            r0 -= two_g2;
        }
        if r - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((r - r0) / two_g2, r0)
        }
    }

    #[test]
    fn decompose_matches_fips_literal_for_every_input() {
        for g in [Gamma2::QMinus1Over32, Gamma2::QMinus1Over88] {
            for r in 0..Q {
                assert_eq!(decompose(g, r), decompose_literal(g, r), "r = {r}, {g:?}");
            }
        }
    }

    #[test]
    fn make_hint_matches_fips_makehint() {
        // FIPS Alg. 39: h = [HighBits(r) != HighBits(r + z)]. With r = w1 * 2 gamma2 + a0
        // (mod q) the kernel's rule must agree with computing HighBits of that r directly.
        for g in [Gamma2::QMinus1Over32, Gamma2::QMinus1Over88] {
            let g2 = g.value();
            for a1 in 0..g.m() {
                for a0 in
                    (-2 * g2 + 1..2 * g2)
                        .step_by(997)
                        .chain([-g2 - 1, -g2, -g2 + 1, g2, g2 + 1])
                {
                    let r = (a1 * 2 * g2 + a0).rem_euclid(Q);
                    let expect = i32::from(decompose_literal(g, r).0 != a1);
                    assert_eq!(make_hint(g, a0, a1), expect, "a0 = {a0}, a1 = {a1}, {g:?}");
                }
            }
        }
    }

    #[test]
    fn power2round_reconstructs() {
        for r in (0..Q).step_by(7).chain([Q - 1, 4096, 4097, 8191, 8192]) {
            let (r1, r0) = power2round(r);
            assert_eq!(r1 * (1 << D) + r0, r);
            assert!(-(1 << 12) < r0 && r0 <= 1 << 12, "r0 = {r0}");
        }
    }

    #[test]
    fn reduce32_bounds_and_congruence() {
        let hi = i32::MAX - (1 << 22);
        for a in [
            i32::MIN,
            i32::MIN + 1,
            -1,
            0,
            1,
            Q,
            -Q,
            hi,
            hi - 1,
            1 << 30,
            -(1 << 30),
        ] {
            let r = reduce32(a);
            assert!((-6_283_009..=6_283_008).contains(&r), "{a} -> {r}");
            assert_eq!((i64::from(a) - i64::from(r)).rem_euclid(i64::from(Q)), 0);
        }
    }

    #[test]
    fn zetas_match_definition() {
        // zeta is a primitive 512th root of unity.
        assert_eq!(pow_mod(ZETA, 256), Q as i64 - 1);
        // ZETAS[1] = zeta^128 * 2^32 mod q.
        assert_eq!(
            i64::from(ZETAS[1]).rem_euclid(Q as i64),
            pow_mod(ZETA, 128) * MONT % Q as i64
        );
    }

    #[test]
    fn montgomery_reduce_is_division_by_r() {
        for a in [
            0i64,
            1,
            -1,
            12345678901,
            -98765432109,
            (1i64 << 31) * Q as i64 - 1,
        ] {
            let r = montgomery_reduce(a);
            assert!(r.abs() < Q);
            assert_eq!((i64::from(r) * (1i64 << 32) - a).rem_euclid(Q as i64), 0);
        }
    }

    #[test]
    fn keccak_round_constants() {
        assert_eq!(KECCAK_RC[0], 1);
        assert_eq!(KECCAK_RC[1], 0x8082);
        assert_eq!(KECCAK_RC[2], 0x8000_0000_0000_808A);
        assert_eq!(KECCAK_RC[12], 0x0000_0000_8000_808B);
        assert_eq!(KECCAK_RC[23], 0x8000_0000_8000_8008);
    }

    #[test]
    fn keccak_rotation_offsets() {
        // FIPS 202 Table 2.
        assert_eq!(
            KECCAK_RHO,
            [
                0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2,
                61, 56, 14
            ]
        );
    }
}
