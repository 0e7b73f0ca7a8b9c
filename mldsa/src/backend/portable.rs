//! The portable backend: plain Rust, every CPU. This is the specification the SIMD
//! backends are tested against. Arithmetic follows FIPS 204 Appendix B / Section 7.5 with
//! Montgomery multiplication (R = 2^32); secret-dependent code has no secret-dependent
//! branches or table indices.

pub use super::field::{
    MONT, QINV, ZETAS, caddq, decompose, make_hint, montgomery_reduce, power2round, reduce32,
    use_hint,
};
use crate::error::HintError;
use crate::params::N;
use crate::poly::Poly;

/// The portable backend token. Always available. Its `Backend` impl (in `traits.rs`) is the
/// trait's default methods, which call the kernels below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

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
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
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
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn pack_fixed<const BITS: usize>(out: &mut [u8], mut value: impl FnMut(usize) -> u32) {
    let g = group(BITS);
    let bytes = g * BITS / 8;
    // Groups counted by the constant N / g, not by `chunks_exact_mut`: at opt-level z LLVM
    // keeps a chunk count's division by a width that is not a power of two as a divide
    // instruction (scripts/ct-divides.sh).
    for k in 0..N / g {
        let mut acc = 0u128;
        for j in 0..g {
            acc |= u128::from(value(g * k + j)) << (BITS * j);
        }
        out[bytes * k..bytes * (k + 1)].copy_from_slice(&acc.to_le_bytes()[..bytes]);
    }
}

/// Inverse of [`pack_bits`]: calls `store(i, v)` for each of the 256 values.
#[inline(always)]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn unpack_bits(buf: &[u8], bits: usize, store: impl FnMut(usize, u32)) {
    assert_eq!(buf.len(), N * bits / 8, "packed polynomial length");
    for_width!(bits, W => unpack_fixed::<W>(buf, store))
}

#[inline(always)]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn unpack_fixed<const BITS: usize>(buf: &[u8], mut store: impl FnMut(usize, u32)) {
    let g = group(BITS);
    let len = g * BITS / 8;
    let mask = (1u128 << BITS) - 1;
    // Counted by a constant, as in `pack_fixed`, and split off the front: indexing
    // `buf[len * k..]` let opt-level z hoist its bounds check as a division of the length.
    let mut rest = buf;
    for k in 0..N / g {
        let (chunk, tail) = rest.split_at(len);
        rest = tail;
        let mut bytes = [0u8; 16];
        bytes[..len].copy_from_slice(chunk);
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
    if buf[index..omega].iter().any(|&b| b != 0) {
        return Err(HintError::NonZeroPadding);
    }
    Ok(())
}

/// The polynomial-level kernels: each is the default body of the `Backend` method of the
/// same name; their contracts are in `contract.rs`.
pub(crate) mod kernels {
    use super::super::field::{INVNTT_F, ZETAS, montgomery_reduce, reduce32};
    use super::{N, Poly, pack_bits, unpack_bits};
    use crate::params::{D, Eta, Gamma1, Gamma2, Q};

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
    }

    /// Keccak-f[1600] (FIPS 202), by the `keccak` crate. Its permutation keeps state lanes
    /// in its own stack frame (spilled registers) and leaves them there when it returns, so
    /// that frame is wiped after each call ([`frame`](crate::backend::frame)).
    pub(crate) fn keccak_f1600(state: &mut [u64; 25]) {
        permute_in_own_frame(state);
        crate::backend::frame::wipe_below::<PERMUTE_FRAME_WIPE>();
    }

    /// [`keccak_f1600`] of a state that holds no secret: no frame to wipe.
    pub(crate) fn keccak_f1600_public(state: &mut [u64; 25]) {
        keccak::f1600(state);
    }

    /// The crate's permutation, never inlined: whatever the compiler inlines into it, all
    /// of its stack lies below the caller's stack pointer, where the wipe then writes.
    #[inline(never)]
    fn permute_in_own_frame(state: &mut [u64; 25]) {
        keccak::f1600(state);
    }

    /// Bytes wiped below the caller of [`permute_in_own_frame`]: its frame and the crate's
    /// take about 300 bytes (x86_64, release); this leaves room for other targets and
    /// profiles, and `secret_residue.rs` fails if it stops covering them.
    const PERMUTE_FRAME_WIPE: usize = 1024;

    pub(crate) fn pointwise_montgomery(c: &mut Poly, a: &Poly, b: &Poly) {
        for i in 0..N {
            c.coeffs[i] = montgomery_reduce(i64::from(a.coeffs[i]) * i64::from(b.coeffs[i]));
        }
    }

    pub(crate) fn pointwise_acc_montgomery(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        for i in 0..N {
            c.coeffs[i] = a
                .iter()
                .zip(b)
                .map(|(x, y)| montgomery_reduce(i64::from(x.coeffs[i]) * i64::from(y.coeffs[i])))
                .sum();
        }
    }

    pub(crate) fn reduce(a: &mut Poly) {
        a.coeffs.iter_mut().for_each(|x| *x = reduce32(*x));
    }

    pub(crate) fn caddq(a: &mut Poly) {
        a.coeffs.iter_mut().for_each(|x| *x = super::caddq(*x));
    }

    pub(crate) fn add(a: &mut Poly, b: &Poly) {
        a.coeffs
            .iter_mut()
            .zip(&b.coeffs)
            .for_each(|(x, y)| *x += y);
    }

    pub(crate) fn sub(a: &mut Poly, b: &Poly) {
        a.coeffs
            .iter_mut()
            .zip(&b.coeffs)
            .for_each(|(x, y)| *x -= y);
    }

    pub(crate) fn shiftl(a: &mut Poly) {
        a.coeffs.iter_mut().for_each(|x| *x <<= D);
    }

    pub(crate) fn power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        for i in 0..N {
            (t1.coeffs[i], t0.coeffs[i]) = super::power2round(a.coeffs[i]);
        }
    }

    pub(crate) fn decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        for i in 0..N {
            (a1.coeffs[i], a0.coeffs[i]) = super::decompose(g, a.coeffs[i]);
        }
    }

    pub(crate) fn make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        let mut n = 0;
        for i in 0..N {
            h.coeffs[i] = super::make_hint(g, a0.coeffs[i], a1.coeffs[i]);
            n += h.coeffs[i] as usize;
        }
        n
    }

    pub(crate) fn use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        for i in 0..N {
            out.coeffs[i] = super::use_hint(g, a.coeffs[i], h.coeffs[i]);
        }
    }

    pub(crate) fn chknorm(a: &Poly, bound: i32) -> bool {
        // OR together the sign bits of bound - 1 - |a_i|: no early exit, no branch on a_i.
        let mut bad = 0i32;
        for &x in &a.coeffs {
            let sign = x >> 31;
            let abs = (x ^ sign) - sign;
            bad |= (bound - 1 - abs) >> 31;
        }
        bad != 0
    }

    pub(crate) fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
        // CoeffFromThreeBytes (FIPS 204 Alg. 14): 23 bits little-endian, accept if < q.
        // Three bytes at a time by offset, not `chunks_exact(3)`, whose count (the length
        // over 3) opt-level z keeps as a divide instruction (scripts/ct-divides.sh).
        let mut n = 0;
        let mut i = 0;
        while i + 3 <= buf.len() && n < out.len() {
            let t =
                u32::from(buf[i]) | u32::from(buf[i + 1]) << 8 | u32::from(buf[i + 2] & 0x7f) << 16;
            if t < Q as u32 {
                out[n] = t as i32;
                n += 1;
            }
            i += 3;
        }
        n
    }

    pub(crate) fn rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        // CoeffFromHalfByte (FIPS 204 Alg. 15): low nibble first. For eta = 2 a nibble b < 15
        // maps to 2 - (b mod 5), computed as b - 5 * floor(205 b / 1024) (exact for b < 15).
        let mut n = 0;
        for &byte in buf {
            for nib in [i32::from(byte & 0x0f), i32::from(byte >> 4)] {
                if n == out.len() {
                    return n;
                }
                let (accept, value) = match eta {
                    Eta::Two => (nib < 15, 2 - (nib - 5 * ((205 * nib) >> 10))),
                    Eta::Four => (nib < 9, 4 - nib),
                };
                // No branch on the (secret-derived) decision: the value is always written
                // and kept only if accepted (a rejected one is overwritten or lies past the
                // returned count).
                out[n] = value;
                // Declassified: whether this candidate is accepted. Where the rejected
                // candidates lie says nothing about the accepted values (FIPS 204 lets
                // RejBoundedPoly's rejections show).
                n += usize::from(crate::ct::declassify(accept));
            }
        }
        n
    }

    pub(crate) fn pack_t1(out: &mut [u8], a: &Poly) {
        pack_bits(out, 10, |i| a.coeffs[i] as u32);
    }

    pub(crate) fn unpack_t1(a: &mut Poly, buf: &[u8]) {
        unpack_bits(buf, 10, |i, v| a.coeffs[i] = v as i32);
    }

    pub(crate) fn pack_t0(out: &mut [u8], a: &Poly) {
        pack_bits(out, 13, |i| ((1 << (D - 1)) - a.coeffs[i]) as u32);
    }

    pub(crate) fn unpack_t0(a: &mut Poly, buf: &[u8]) {
        unpack_bits(buf, 13, |i, v| a.coeffs[i] = (1 << (D - 1)) - v as i32);
    }

    pub(crate) fn pack_eta(eta: Eta, out: &mut [u8], a: &Poly) {
        pack_bits(out, eta.bits(), |i| (eta.value() - a.coeffs[i]) as u32);
    }

    pub(crate) fn unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        // A value v is valid iff v <= 2 eta; collect (2 eta - v) sign bits without branching.
        let mut bad = 0i32;
        unpack_bits(buf, eta.bits(), |i, v| {
            let v = v as i32;
            bad |= 2 * eta.value() - v;
            a.coeffs[i] = eta.value() - v;
        });
        bad >= 0
    }

    pub(crate) fn pack_z(g: Gamma1, out: &mut [u8], a: &Poly) {
        pack_bits(out, g.z_bits(), |i| (g.value() - a.coeffs[i]) as u32);
    }

    pub(crate) fn unpack_z(g: Gamma1, a: &mut Poly, buf: &[u8]) {
        unpack_bits(buf, g.z_bits(), |i, v| a.coeffs[i] = g.value() - v as i32);
    }

    pub(crate) fn pack_w1(g: Gamma2, out: &mut [u8], a: &Poly) {
        pack_bits(out, g.w1_bits(), |i| a.coeffs[i] as u32);
    }
}
