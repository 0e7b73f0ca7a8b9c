//! Bit unpacking of t1, t0, s1/s2 (with the range check) and z, sixteen coefficients per
//! step. The packing kernels are the AVX2 ones (`avx512/mod.rs` forwards them).
//!
//! A step reads its `2 bits` bytes with one masked byte load (no read past the encoding,
//! so the last steps need no padded copy), gives each 128-bit lane the four dwords that
//! hold its four fields (`vpermd`), puts each field's bytes in its 32-bit lane (`vpshufb`),
//! and finishes it with a variable shift and a mask. The vector never leaves the kernel's
//! registers (a step is inlined into the loop), so no stack slot holds coefficients of a
//! secret encoding.
#![allow(unsafe_code)]

use super::util::{VECS, store};
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
