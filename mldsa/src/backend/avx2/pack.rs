//! Bit packing and unpacking of t1, t0, s1/s2 (with the range check), z and w1, eight
//! coefficients per step. Hint packing is the portable kernel.
#![allow(unsafe_code)]

use super::util::{load, store};
use crate::backend::frame::align_frame;
use crate::params::{Eta, N};
use crate::poly::Poly;
use core::arch::x86_64::*;
use zeroize::Zeroize;

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
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
    )]
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

    /// Stores step `i` of a packed polynomial (its eight fields, coefficients 8i..8i + 8)
    /// into `a`: `base - field`, or the field for `base = None`. Returns the byte mask
    /// (`movemask`) of the fields above `max`: 0 when all are in range, or for `max = None`.
    ///
    /// The vector never leaves this function: a vector that a non-inlined function returns
    /// (or takes by value) travels through a stack slot, and nothing wipes that slot. (When
    /// this returned the fields, the caller's slot kept the last eight coefficients of y
    /// after signing: `mldsa/tests/secret_residue.rs` in a build with other inlining.)
    /// The zero-padded copy of the last steps' bytes is wiped for the same reason.
    #[target_feature(enable = "avx2")]
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
    )]
    fn unpack_step(
        &self,
        a: &mut Poly,
        buf: &[u8],
        i: usize,
        base: Option<i32>,
        max: Option<i32>,
    ) -> i32 {
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
            let w = unsafe {
                (
                    _mm_loadu_si128(tmp.as_ptr().cast()),
                    _mm_loadu_si128(tmp.as_ptr().add(off).cast()),
                )
            };
            tmp.zeroize();
            w
        };
        let v = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), self.pick);
        let v = _mm256_and_si256(_mm256_srlv_epi32(v, self.shift), self.mask);
        let above = match max {
            Some(m) => _mm256_movemask_epi8(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(m))),
            None => 0,
        };
        store(
            a,
            i,
            match base {
                Some(b) => _mm256_sub_epi32(_mm256_set1_epi32(b), v),
                None => v,
            },
        );
        above
    }
}

/// Unpacks `bits`-bit fields and stores `base - field` (or the field, for `base = None`).
#[target_feature(enable = "avx2")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
pub(super) fn unpack_fields(a: &mut Poly, buf: &[u8], bits: usize, base: Option<i32>) {
    // Aligned spills (`frame::align_frame!`): an unaligned `ymm` spill straddles a page at
    // some stack placements.
    align_frame!();
    assert_eq!(buf.len(), N * bits / 8, "packed polynomial length");
    let r = FieldReader::new(bits);
    for i in 0..N / 8 {
        r.unpack_step(a, buf, i, base, None);
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
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
pub(super) fn pack_fields(out: &mut [u8], a: &Poly, bits: usize, base: Option<i32>) {
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
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
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
                // The last steps (of s1, s2 or t0: the last bytes of their encoding).
                store_tail(out, at, BITS, g);
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

/// Writes the `n` low bytes of `g` to `out[at..at + n]` where a 16-byte store at `at` would
/// pass the end of `out`: one 16-byte read-modify-write of `out`'s last 16 bytes, which keeps
/// every byte outside `[at, at + n)`. The bytes never pass through memory of their own (a
/// zero-padded copy would be one more place the last bytes of an s1, s2 or t0 encoding lie,
/// to wipe).
#[target_feature(enable = "avx2")]
fn store_tail(out: &mut [u8], at: usize, n: usize, g: __m128i) {
    assert!(
        out.len() >= 16 && n <= 16 && at + n <= out.len() && at + 16 > out.len(),
        "a tail inside the last 16 bytes"
    );
    let w = out.len() - 16;
    // Byte j of the window takes byte j - (at - w) of `g` (1 <= at - w <= 15).
    let idx = _mm_sub_epi8(
        _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        _mm_set1_epi8((at - w) as i8),
    );
    let take = _mm_andnot_si128(
        _mm_cmpgt_epi8(_mm_setzero_si128(), idx),
        _mm_cmpgt_epi8(_mm_set1_epi8(n as i8), idx),
    );
    let moved = _mm_shuffle_epi8(g, idx);
    // SAFETY: w + 16 == out.len(): the window is in bounds; unaligned load and store.
    unsafe {
        let old = _mm_loadu_si128(out.as_ptr().add(w).cast());
        _mm_storeu_si128(
            out.as_mut_ptr().add(w).cast(),
            _mm_blendv_epi8(old, moved, take),
        );
    }
}

/// BitUnpack of s1/s2 with the range check: false if any field exceeds 2 eta.
#[target_feature(enable = "avx2")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
pub(super) fn unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
    // Aligned spills (`frame::align_frame!`): an unaligned `ymm` spill straddles a page at
    // some stack placements.
    align_frame!();
    assert_eq!(buf.len(), eta.poly_eta_bytes(), "packed polynomial length");
    let r = FieldReader::new(eta.bits());
    let mut above = 0;
    for i in 0..N / 8 {
        above |= r.unpack_step(a, buf, i, Some(eta.value()), Some(2 * eta.value()));
    }
    above == 0
}
