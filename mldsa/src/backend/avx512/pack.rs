//! Bit packing of t1, t0, s1/s2, z and w1, and unpacking of t1, t0, s1/s2 (with the range
//! check) and z, sixteen coefficients per step.
//!
//! A packing step pairs its sixteen fields into eight 64-bit lanes, shifts each lane by its
//! bit offset within a byte (`vpsllvq`), moves every byte to its place in the encoding with
//! two byte permutes (`vpermb`, AVX-512 VBMI: a byte of the encoding takes bits of at most
//! two lanes), and writes the step's `2 bits` bytes with one masked store (no write past the
//! encoding, so the last steps need no tail handling either).
//!
//! An unpacking step reads its `2 bits` bytes with one masked byte load (no read past the encoding,
//! so the last steps need no padded copy), gives each 128-bit lane the four dwords that
//! hold its four fields (`vpermd`), puts each field's bytes in its 32-bit lane (`vpshufb`),
//! and finishes it with a variable shift and a mask. The vector never leaves the kernel's
//! registers (a step is inlined into the loop), so no stack slot holds coefficients of a
//! secret encoding.
#![allow(unsafe_code)]

use super::util::{VECS, load, store};
use crate::params::{Eta, N};
use crate::poly::Poly;
use core::arch::x86_64::*;

/// The constant vectors of one field width, as arrays (`bits` <= 20: a field and its bit
/// offset fit a dword, and the four bytes of field 4k + 3 lie in lane k's 16 bytes),
/// computed at compile time for each width FIPS 204 unpacks.
struct Tables {
    bits: usize,
    /// Per 128-bit lane k, the dwords of the step's bytes that hold fields 4k..4k + 4.
    dwords: [i32; 16],
    /// Per 32-bit lane, the four bytes (of its 128-bit lane) that hold its field.
    pick: [i8; 64],
    /// Per 32-bit lane, its field's bit offset within the first of those bytes.
    shift: [i32; 16],
}

#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constants: bit offsets of field positions"
)]
const fn tables(bits: usize) -> Tables {
    assert!(bits >= 1 && bits <= 20, "fields of 1 to 20 bits");
    let mut t = Tables {
        bits,
        dwords: [0; 16],
        pick: [0; 64],
        shift: [0; 16],
    };
    let mut k = 0;
    while k < 4 {
        // The first dword holding a bit of field 4k.
        let first = (4 * k * bits / 8) / 4;
        let mut i = 0;
        while i < 4 {
            t.dwords[4 * k + i] = (first + i) as i32;
            i += 1;
        }
        let mut j = 0;
        while j < 4 {
            let off = (4 * k + j) * bits;
            let byte = off / 8 - 4 * first;
            assert!(byte + 3 <= 15, "a field's bytes inside its 128-bit lane");
            t.shift[4 * k + j] = (off % 8) as i32;
            let mut b = 0;
            while b < 4 {
                t.pick[16 * k + 4 * j + b] = (byte + b) as i8;
                b += 1;
            }
            j += 1;
        }
        k += 1;
    }
    t
}

/// The widths unpacked: t1 (10), t0 (13), s1/s2 (3, 4) and z (18, 20).
static TABLES: [Tables; 6] = [
    tables(3),
    tables(4),
    tables(10),
    tables(13),
    tables(18),
    tables(20),
];

/// One width's tables in registers.
struct Fields {
    bits: usize,
    dwords: __m512i,
    pick: __m512i,
    shift: __m512i,
    mask: __m512i,
}

impl Fields {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new(bits: usize) -> Self {
        let t = TABLES
            .iter()
            .find(|t| t.bits == bits)
            .expect("a width FIPS 204 unpacks");
        // SAFETY: the arrays are 64 bytes each; unaligned loads.
        let (dwords, pick, shift) = unsafe {
            (
                _mm512_loadu_si512(t.dwords.as_ptr().cast()),
                _mm512_loadu_si512(t.pick.as_ptr().cast()),
                _mm512_loadu_si512(t.shift.as_ptr().cast()),
            )
        };
        Fields {
            bits,
            dwords,
            pick,
            shift,
            mask: _mm512_set1_epi32(((1u32 << bits) - 1) as i32),
        }
    }

    /// Unpacks all sixteen steps of `buf` into `a` (`base - field`, or the field for `base =
    /// None`); returns whether any field is above `max` (false for `max = None`).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "packed lengths: public bit widths times N divided by the constant 8 (a shift)"
    )]
    fn unpack(&self, a: &mut Poly, buf: &[u8], base: Option<i32>, max: Option<i32>) -> bool {
        let step = 2 * self.bits;
        assert_eq!(buf.len(), N * self.bits / 8, "packed polynomial length");
        // The step's bytes: 2 bits <= 48 of the 64 byte lanes.
        let bytes: __mmask64 = (1u64 << step) - 1;
        let base = base.map(|b| _mm512_set1_epi32(b));
        let max = max.map(|m| _mm512_set1_epi32(m));
        let mut above: __mmask16 = 0;
        for i in 0..VECS {
            let at = &buf[i * step..][..step];
            // SAFETY: `at` is `step` bytes and the mask selects bytes 0..step only (masked
            // bytes are neither read nor able to fault).
            let v = unsafe { _mm512_maskz_loadu_epi8(bytes, at.as_ptr().cast()) };
            let v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(self.dwords, v), self.pick);
            let v = _mm512_and_si512(_mm512_srlv_epi32(v, self.shift), self.mask);
            if let Some(m) = max {
                above |= _mm512_cmpgt_epi32_mask(v, m);
            }
            store(
                a,
                i,
                match base {
                    Some(b) => _mm512_sub_epi32(b, v),
                    None => v,
                },
            );
        }
        above != 0
    }
}

/// Unpacks `bits`-bit fields and stores `base - field` (or the field, for `base = None`).
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unpack_fields(a: &mut Poly, buf: &[u8], bits: usize, base: Option<i32>) {
    Fields::new(bits).unpack(a, buf, base, None);
}

/// BitUnpack of s1/s2 with the range check: false if any field exceeds 2 eta.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
    !Fields::new(eta.bits()).unpack(a, buf, Some(eta.value()), Some(2 * eta.value()))
}

/// The constant vectors of one width's packing, as arrays, computed at compile time for each
/// width FIPS 204 packs.
struct PackTables {
    bits: usize,
    /// Per 64-bit lane k (fields 2k and 2k + 1, at bit 2 bits k of the step), its bit offset
    /// within its first byte.
    shift: [i64; 8],
    /// Per byte j of the step's encoding, the byte of the shifted lanes that holds its bits
    /// (the first of two, where two lanes share byte j) ...
    first: [i8; 64],
    /// ... and the second, where there is one.
    second: [i8; 64],
    /// The bytes `first` writes (those of the encoding: 0 .. 2 bits) and those `second` does.
    first_mask: u64,
    second_mask: u64,
}

#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time constants: bit offsets of field positions"
)]
const fn pack_tables(bits: usize) -> PackTables {
    assert!(bits >= 3 && bits <= 20, "fields of 3 to 20 bits");
    let mut t = PackTables {
        bits,
        shift: [0; 8],
        first: [0; 64],
        second: [0; 64],
        first_mask: 0,
        second_mask: 0,
    };
    let span = 2 * bits;
    let mut k = 0;
    while k < 8 {
        t.shift[k] = ((span * k) % 8) as i64;
        k += 1;
    }
    // Byte j holds bits 8j .. 8j + 8 of the step; lane k those of span k .. span (k + 1),
    // which after its shift begin at bit 0 of byte (span k) / 8 of the encoding.
    let mut j = 0;
    while j < span {
        let mut found = 0;
        let mut k = 0;
        while k < 8 {
            if span * k < 8 * j + 8 && span * (k + 1) > 8 * j {
                let byte = j - (span * k) / 8;
                // A lane holds at most 40 bits shifted by at most 7: six bytes.
                assert!(byte < 6, "a lane's bytes inside the lane");
                let src = (8 * k + byte) as i8;
                if found == 0 {
                    t.first[j] = src;
                    t.first_mask |= 1 << j;
                } else {
                    assert!(found == 1, "at most two lanes share a byte");
                    t.second[j] = src;
                    t.second_mask |= 1 << j;
                }
                found += 1;
            }
            k += 1;
        }
        assert!(
            found >= 1,
            "every byte of the encoding holds a field's bits"
        );
        j += 1;
    }
    // So `first_mask` is also the step's store mask.
    assert!(
        t.first_mask == (1 << span) - 1,
        "the step's bytes, 0 .. 2 bits"
    );
    t
}

/// The widths packed: s1/s2 (3, 4), w1 (4, 6), t1 (10), t0 (13) and z (18, 20).
static PACK_TABLES: [PackTables; 7] = [
    pack_tables(3),
    pack_tables(4),
    pack_tables(6),
    pack_tables(10),
    pack_tables(13),
    pack_tables(18),
    pack_tables(20),
];

/// Packs `a` into `bits`-bit fields (`base - coefficient`, or the coefficient for `base =
/// None`), sixteen a step, each step's `2 bits` bytes with one masked store. The caller's
/// bounds (contract) keep every field in `0 .. 2^bits`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths: public bit widths times N divided by the constant 8 (a shift)"
)]
pub(super) fn pack_fields(out: &mut [u8], a: &Poly, bits: usize, base: Option<i32>) {
    assert_eq!(out.len(), N * bits / 8, "packed polynomial length");
    let t = PACK_TABLES
        .iter()
        .find(|t| t.bits == bits)
        .expect("a width FIPS 204 packs");
    let step = 2 * bits;
    // SAFETY: the arrays are 64 bytes each; unaligned loads.
    let (shift, first, second) = unsafe {
        (
            _mm512_loadu_si512(t.shift.as_ptr().cast()),
            _mm512_loadu_si512(t.first.as_ptr().cast()),
            _mm512_loadu_si512(t.second.as_ptr().cast()),
        )
    };
    let pair = _mm_cvtsi32_si128(bits as i32);
    let base = base.map(|b| _mm512_set1_epi32(b));
    for i in 0..VECS {
        let v = match base {
            Some(b) => _mm512_sub_epi32(b, load(a, i)),
            None => load(a, i),
        };
        // Lane k: field 2k, then field 2k + 1 above it.
        let lanes = _mm512_or_si512(
            _mm512_maskz_mov_epi32(0x5555, v),
            _mm512_sll_epi64(_mm512_srli_epi64(v, 32), pair),
        );
        let lanes = _mm512_sllv_epi64(lanes, shift);
        let bytes = _mm512_or_si512(
            _mm512_maskz_permutexvar_epi8(t.first_mask, first, lanes),
            _mm512_maskz_permutexvar_epi8(t.second_mask, second, lanes),
        );
        let at = &mut out[i * step..][..step];
        // SAFETY: `at` is `step` bytes and `first_mask` selects bytes 0..step only (masked
        // bytes are not written).
        unsafe { _mm512_mask_storeu_epi8(at.as_mut_ptr().cast(), t.first_mask, bytes) };
    }
}
