//! The portable backend: plain Rust, every CPU. This is the specification the SIMD
//! backends are tested against. Arithmetic follows FIPS 204 Appendix B / Section 7.5 with
//! Montgomery multiplication (R = 2^32); secret-dependent code has no secret-dependent
//! branches or table indices.

use super::{Backend, planted_bug};
use crate::error::HintError;
use crate::params::{D, Eta, Gamma1, Gamma2, N, Q};
use crate::poly::Poly;

/// The portable backend token. Always available.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

/// q^-1 mod 2^32.
pub const QINV: i32 = 58_728_449;
/// 2^32 mod q (the Montgomery factor R).
pub const MONT: i64 = (1i64 << 32) % Q as i64;

const _: () = assert!(Q.wrapping_mul(QINV) == 1);

const fn pow_mod(base: i64, mut e: u32) -> i64 {
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
const fn centered(x: i64) -> i32 {
    let q = Q as i64;
    let r = ((x % q) + q) % q;
    (if r > q / 2 { r - q } else { r }) as i32
}

/// zeta = 1753, the 512th root of unity mod q (FIPS 204 Section 7.5).
const ZETA: i64 = 1753;

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
const INVNTT_F: i64 = (MONT * MONT % Q as i64) * pow_mod(256, (Q - 2) as u32) % Q as i64;

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

/// The hint bit for low part a0 and high part a1 (see [`Backend::make_hint`]):
/// 1 iff a0 > gamma2, or a0 < -gamma2, or a0 = -gamma2 and a1 != 0. Constant time.
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
pub fn use_hint(g: Gamma2, r: i32, h: i32) -> i32 {
    let (r1, r0) = decompose(g, r);
    let m = g.m();
    match (h, r0 > 0) {
        (0, _) => r1,
        (_, true) => (r1 + 1) % m,
        (_, false) => (r1 - 1 + m) % m,
    }
}

/// Keccak-f[1600] x4 by four calls of the single-state permutation (de-interleaving).
pub(crate) fn keccak_x4<B: Backend>(b: B, states: &mut [u64; 100]) {
    for j in 0..4 {
        let mut s = [0u64; 25];
        for (i, lane) in s.iter_mut().enumerate() {
            *lane = states[4 * i + j];
        }
        b.keccak_f1600(&mut s);
        for (i, lane) in s.iter().enumerate() {
            states[4 * i + j] = *lane;
        }
    }
}

/// Evaluates `$e` with the constant `$w` equal to `$bits`, one of the field widths FIPS 204
/// encodings use.
macro_rules! for_width {
    ($bits:expr, $w:ident => $e:expr) => {
        match $bits {
            3 => { const $w: usize = 3; $e }
            4 => { const $w: usize = 4; $e }
            6 => { const $w: usize = 6; $e }
            10 => { const $w: usize = 10; $e }
            13 => { const $w: usize = 13; $e }
            18 => { const $w: usize = 18; $e }
            20 => { const $w: usize = 20; $e }
            b => unreachable!("no FIPS 204 encoding uses {b}-bit fields"),
        }
    };
}

/// Packs 256 values of `bits` bits each, little-endian bit order (FIPS 204 Alg. 16/17
/// with Alg. 9/11): value i occupies bits [i*bits, (i+1)*bits) of the output.
#[inline(always)]
fn pack_bits(out: &mut [u8], bits: usize, value: impl FnMut(usize) -> u32) {
    assert_eq!(out.len(), N * bits / 8, "packed polynomial length");
    // One instance per width FIPS 204 uses, so each runs with constant shifts.
    for_width!(bits, W => pack_fixed::<W>(out, value))
}

/// Values per group: a group fills whole bytes and fits in a u128 (8 values, or 4 for the
/// even widths 18 and 20).
const fn group(bits: usize) -> usize {
    if 8 * bits <= 128 { 8 } else { 4 }
}

#[inline(always)]
fn pack_fixed<const BITS: usize>(out: &mut [u8], mut value: impl FnMut(usize) -> u32) {
    let g = group(BITS);
    for (k, chunk) in out.chunks_exact_mut(g * BITS / 8).enumerate() {
        let mut acc = 0u128;
        for j in 0..g {
            acc |= u128::from(value(g * k + j)) << (BITS * j);
        }
        chunk.copy_from_slice(&acc.to_le_bytes()[..g * BITS / 8]);
    }
}

/// Inverse of [`pack_bits`]: calls `store(i, v)` for each of the 256 values.
#[inline(always)]
fn unpack_bits(buf: &[u8], bits: usize, store: impl FnMut(usize, u32)) {
    assert_eq!(buf.len(), N * bits / 8, "packed polynomial length");
    for_width!(bits, W => unpack_fixed::<W>(buf, store))
}

#[inline(always)]
fn unpack_fixed<const BITS: usize>(buf: &[u8], mut store: impl FnMut(usize, u32)) {
    let g = group(BITS);
    let mask = (1u128 << BITS) - 1;
    for (k, chunk) in buf.chunks_exact(g * BITS / 8).enumerate() {
        let mut bytes = [0u8; 16];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let acc = u128::from_le_bytes(bytes);
        for j in 0..g {
            store(g * k + j, ((acc >> (BITS * j)) & mask) as u32);
        }
    }
}

pub(crate) fn pack_hint(out: &mut [u8], h: &[Poly], omega: usize) {
    let k = h.len();
    assert_eq!(out.len(), omega + k, "packed hint length");
    out.fill(0);
    let mut index = 0;
    for (i, p) in h.iter().enumerate() {
        for (j, &c) in p.coeffs.iter().enumerate() {
            if c != 0 {
                out[index] = j as u8;
                index += 1;
            }
        }
        out[omega + i] = index as u8;
    }
    planted_bug!("pack_hint", out[0] == 17, out[0] = 18);
}

pub(crate) fn unpack_hint(h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError> {
    let k = h.len();
    assert_eq!(buf.len(), omega + k, "packed hint length");
    let mut index = 0usize;
    for (i, p) in h.iter_mut().enumerate() {
        *p = Poly::ZERO;
        let end = usize::from(buf[omega + i]);
        if end < index {
            return Err(HintError::CountDecreasing { poly: i });
        }
        if end > omega {
            return Err(HintError::CountExceedsOmega { poly: i });
        }
        let first = index;
        while index < end {
            if index > first && buf[index - 1] >= buf[index] {
                return Err(HintError::IndicesNotIncreasing { poly: i });
            }
            p.coeffs[usize::from(buf[index])] = 1;
            index += 1;
        }
    }
    #[allow(unused_mut)]
    let mut padding = &buf[index..omega];
    // Planted: a non-zero byte in the last padding slot is not noticed.
    planted_bug!(
        "unpack_hint",
        !padding.is_empty(),
        padding = &padding[..padding.len() - 1]
    );
    if padding.iter().any(|&b| b != 0) {
        return Err(HintError::NonZeroPadding);
    }
    Ok(())
}

/// The portable kernels are the trait's default methods (see `Backend`), so this impl is
/// empty: every other backend inherits whatever it does not accelerate.
impl Backend for Portable {
    const KIND: super::BackendKind = super::BackendKind::Portable;
}

/// The polynomial-level kernels: each is the default body of the `Backend` method of the
/// same name; their contracts are in `contract.rs`.
pub(crate) mod kernels {
    use super::super::planted_bug;
    use super::{
        D, Eta, Gamma1, Gamma2, INVNTT_F, N, Poly, Q, ZETAS, montgomery_reduce, pack_bits,
        reduce32, unpack_bits,
    };

    pub(crate) fn ntt(a: &mut Poly) {
        // FIPS 204 Alg. 41 (Cooley-Tukey butterflies, bit-reversed output), with twiddles in
        // Montgomery form so each product is one Montgomery reduction. No reduction after
        // additions: each layer grows |a| by less than q.
        let a = &mut a.coeffs;
        let mut m = 0;
        let mut len = 128;
        while len >= 1 {
            let mut start = 0;
            while start < N {
                m += 1;
                let z = i64::from(ZETAS[m]);
                for j in start..start + len {
                    let t = montgomery_reduce(z * i64::from(a[j + len]));
                    a[j + len] = a[j] - t;
                    a[j] += t;
                }
                start += 2 * len;
            }
            len >>= 1;
        }
        planted_bug!("ntt", a[3] & 63 == 17, a[3] += 1);
    }

    pub(crate) fn invntt_tomont(a: &mut Poly) {
        // FIPS 204 Alg. 42 (Gentleman-Sande butterflies), then multiply by 2^64/256 so the
        // result is INTT(a) * 2^32.
        let a = &mut a.coeffs;
        let mut m = N;
        let mut len = 1;
        while len < N {
            let mut start = 0;
            while start < N {
                m -= 1;
                let z = -i64::from(ZETAS[m]);
                for j in start..start + len {
                    let t = a[j];
                    a[j] = t + a[j + len];
                    a[j + len] = montgomery_reduce(z * i64::from(t - a[j + len]));
                }
                start += 2 * len;
            }
            len <<= 1;
        }
        for x in a.iter_mut() {
            *x = montgomery_reduce(INVNTT_F * i64::from(*x));
        }
        planted_bug!("invntt_tomont", a[3] & 63 == 17, a[3] += 1);
    }

    pub(crate) fn keccak_f1600(state: &mut [u64; 25]) {
        keccak::f1600(state);
        planted_bug!("keccak", state[3] & 63 == 17, state[3] ^= 1);
    }

    pub(crate) fn pointwise_montgomery(c: &mut Poly, a: &Poly, b: &Poly) {
        for i in 0..N {
            c.coeffs[i] = montgomery_reduce(i64::from(a.coeffs[i]) * i64::from(b.coeffs[i]));
        }
        planted_bug!(
            "pointwise_montgomery",
            c.coeffs[3] & 63 == 17,
            c.coeffs[3] += 1
        );
    }

    pub(crate) fn pointwise_acc_montgomery(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        for i in 0..N {
            c.coeffs[i] = a
                .iter()
                .zip(b)
                .map(|(x, y)| montgomery_reduce(i64::from(x.coeffs[i]) * i64::from(y.coeffs[i])))
                .sum();
        }
        planted_bug!(
            "pointwise_acc_montgomery",
            c.coeffs[3] & 63 == 17,
            c.coeffs[3] += 1
        );
    }

    pub(crate) fn reduce(a: &mut Poly) {
        a.coeffs.iter_mut().for_each(|x| *x = reduce32(*x));
        planted_bug!("reduce", a.coeffs[3] & 63 == 17, a.coeffs[3] += 1);
    }

    pub(crate) fn caddq(a: &mut Poly) {
        a.coeffs.iter_mut().for_each(|x| *x = super::caddq(*x));
        planted_bug!("caddq", a.coeffs[3] & 63 == 17, a.coeffs[3] -= 1);
    }

    pub(crate) fn add(a: &mut Poly, b: &Poly) {
        a.coeffs
            .iter_mut()
            .zip(&b.coeffs)
            .for_each(|(x, y)| *x += y);
        planted_bug!("add", a.coeffs[3] & 63 == 17, a.coeffs[3] += 1);
    }

    pub(crate) fn sub(a: &mut Poly, b: &Poly) {
        a.coeffs
            .iter_mut()
            .zip(&b.coeffs)
            .for_each(|(x, y)| *x -= y);
        planted_bug!("sub", a.coeffs[3] & 63 == 17, a.coeffs[3] += 1);
    }

    pub(crate) fn shiftl(a: &mut Poly) {
        a.coeffs.iter_mut().for_each(|x| *x <<= D);
        planted_bug!("shiftl", (a.coeffs[3] >> D) & 63 == 17, a.coeffs[3] += 1);
    }

    pub(crate) fn power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        for i in 0..N {
            (t1.coeffs[i], t0.coeffs[i]) = super::power2round(a.coeffs[i]);
        }
        planted_bug!("power2round", t1.coeffs[3] & 63 == 17, t1.coeffs[3] ^= 1);
    }

    pub(crate) fn decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        for i in 0..N {
            (a1.coeffs[i], a0.coeffs[i]) = super::decompose(g, a.coeffs[i]);
            // Planted: the wrap-around corner r0 = -gamma2 comes out as +gamma2.
            planted_bug!(
                "decompose",
                a0.coeffs[i] == -g.value(),
                a0.coeffs[i] = g.value()
            );
        }
    }

    pub(crate) fn make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        let mut n = 0;
        for i in 0..N {
            h.coeffs[i] = super::make_hint(g, a0.coeffs[i], a1.coeffs[i]);
            // Planted: the a0 = -gamma2, a1 != 0 clause is forgotten.
            planted_bug!(
                "make_hint",
                a0.coeffs[i] == -g.value() && a1.coeffs[i] != 0,
                h.coeffs[i] = 0
            );
            n += h.coeffs[i] as usize;
        }
        n
    }

    pub(crate) fn use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        for i in 0..N {
            out.coeffs[i] = super::use_hint(g, a.coeffs[i], h.coeffs[i]);
            // Planted: r0 = 0 treated as positive (the PQClean AVX2 behaviour).
            planted_bug!(
                "use_hint",
                h.coeffs[i] == 1 && super::decompose(g, a.coeffs[i]).1 == 0,
                out.coeffs[i] = (super::decompose(g, a.coeffs[i]).0 + 1) % g.m()
            );
        }
    }

    pub(crate) fn chknorm(a: &Poly, bound: i32) -> bool {
        // OR together the sign bits of bound - 1 - |a_i|: no early exit, no branch on a_i.
        let mut bad = 0i32;
        for &x in &a.coeffs {
            let sign = x >> 31;
            let abs = (x ^ sign) - sign;
            bad |= (bound - 1 - abs) >> 31;
            // Planted: off by one, |a| = bound passes.
            planted_bug!("chknorm", abs == bound, bad = 0);
        }
        bad != 0
    }

    pub(crate) fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
        // CoeffFromThreeBytes (FIPS 204 Alg. 14): 23 bits little-endian, accept if < q.
        let mut n = 0;
        for b in buf.chunks_exact(3) {
            if n == out.len() {
                break;
            }
            let t = u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2] & 0x7f) << 16;
            #[allow(unused_mut)]
            let mut accept = t < Q as u32;
            // Planted: q itself is accepted.
            planted_bug!("rej_uniform", t == Q as u32, accept = true);
            if accept {
                out[n] = t as i32;
                n += 1;
            }
        }
        n
    }

    pub(crate) fn rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        // CoeffFromHalfByte (FIPS 204 Alg. 15): low nibble first. For eta = 2 a nibble b < 15
        // maps to 2 - (b mod 5), computed as b - 5 * floor(205 b / 1024) (exact for b < 15).
        let mut n = 0;
        #[allow(clippy::unused_enumerate_index)] // the index is used only by a planted bug
        for (_pos, &byte) in buf.iter().enumerate() {
            for nib in [i32::from(byte & 0x0f), i32::from(byte >> 4)] {
                if n == out.len() {
                    return n;
                }
                // Planted: nibble 15 of byte 3 is accepted as 2 (eta = 2) or 4 - 15 (eta = 4).
                planted_bug!("rej_eta", _pos == 3 && nib == 15, {
                    out[n] = eta.value() - (nib % (2 * eta.value() + 1));
                    n += 1;
                    continue;
                });
                let (accept, value) = match eta {
                    Eta::Two => (nib < 15, 2 - (nib - 5 * ((205 * nib) >> 10))),
                    Eta::Four => (nib < 9, 4 - nib),
                };
                // No branch on the (secret-derived) decision: the value is always written
                // and kept only if accepted (a rejected one is overwritten or lies past the
                // returned count).
                out[n] = value;
                n += usize::from(accept);
            }
        }
        n
    }

    pub(crate) fn pack_t1(out: &mut [u8], a: &Poly) {
        pack_bits(out, 10, |i| a.coeffs[i] as u32);
        planted_bug!("pack_t1", out[3] & 63 == 17, out[3] ^= 1);
    }

    pub(crate) fn unpack_t1(a: &mut Poly, buf: &[u8]) {
        unpack_bits(buf, 10, |i, v| a.coeffs[i] = v as i32);
        planted_bug!("unpack_t1", a.coeffs[3] & 63 == 17, a.coeffs[3] ^= 1);
    }

    pub(crate) fn pack_t0(out: &mut [u8], a: &Poly) {
        pack_bits(out, 13, |i| ((1 << (D - 1)) - a.coeffs[i]) as u32);
        planted_bug!("pack_t0", out[3] & 63 == 17, out[3] ^= 1);
    }

    pub(crate) fn unpack_t0(a: &mut Poly, buf: &[u8]) {
        unpack_bits(buf, 13, |i, v| a.coeffs[i] = (1 << (D - 1)) - v as i32);
        planted_bug!("unpack_t0", a.coeffs[3] & 63 == 17, a.coeffs[3] ^= 1);
    }

    pub(crate) fn pack_eta(eta: Eta, out: &mut [u8], a: &Poly) {
        pack_bits(out, eta.bits(), |i| (eta.value() - a.coeffs[i]) as u32);
        planted_bug!("pack_eta", out[3] & 63 == 17, out[3] ^= 1);
    }

    pub(crate) fn unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        // A value v is valid iff v <= 2 eta; collect (2 eta - v) sign bits without branching.
        let mut bad = 0i32;
        unpack_bits(buf, eta.bits(), |i, v| {
            let v = v as i32;
            bad |= 2 * eta.value() - v;
            // Planted: the range check lets 2 eta + 1 through.
            #[cfg(feature = "planted-bugs")]
            if crate::backend::planted::active("unpack_eta_range") && v == 2 * eta.value() + 1 {
                bad &= i32::MAX;
            }
            a.coeffs[i] = eta.value() - v;
        });
        planted_bug!(
            "unpack_eta",
            a.coeffs[3] == 1 && a.coeffs[4] == -1,
            a.coeffs[3] = -1
        );
        bad >= 0
    }

    pub(crate) fn pack_z(g: Gamma1, out: &mut [u8], a: &Poly) {
        pack_bits(out, g.z_bits(), |i| (g.value() - a.coeffs[i]) as u32);
        planted_bug!("pack_z", out[3] & 63 == 17, out[3] ^= 1);
    }

    pub(crate) fn unpack_z(g: Gamma1, a: &mut Poly, buf: &[u8]) {
        unpack_bits(buf, g.z_bits(), |i, v| a.coeffs[i] = g.value() - v as i32);
        planted_bug!("unpack_z", a.coeffs[3] & 63 == 17, a.coeffs[3] ^= 1);
    }

    pub(crate) fn pack_w1(g: Gamma2, out: &mut [u8], a: &Poly) {
        pack_bits(out, g.w1_bits(), |i| a.coeffs[i] as u32);
        planted_bug!("pack_w1", out[3] & 15 == 9, out[3] ^= 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Gamma2, Q};

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
}
