//! RejNTTPoly's inner loop (FIPS 204 Alg. 14 on 3-byte groups) sixteen candidates at a time.
//! Its data is public (the matrix A), so which candidates were accepted may steer the
//! compaction; `vpcompressd` does it, with no table. RejBoundedPoly's loop (secret data)
//! compacts the same way: `vpcompressd` on registers is a fixed sequence of micro-operations
//! whatever its mask, and reads no memory at an index taken from the data.
#![allow(unsafe_code)]

use crate::backend::portable;
use crate::backend::{Avx2, Backend};
use crate::params::{Eta, Q};
use core::arch::x86_64::*;

/// Sixteen candidates from 48 bytes while sixteen more values fit; the rest as the AVX2
/// kernel (eight at a time, then the portable one).
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
pub(super) fn rej_uniform(avx2: Avx2, out: &mut [i32], buf: &[u8]) -> usize {
    let mask23 = _mm512_set1_epi32(0x7F_FFFF);
    let q = _mm512_set1_epi32(Q);
    // 128-bit lane k takes the dwords 3k..3k + 4 (bytes 12k..12k + 16), then picks 3 bytes
    // per 32-bit lane from them.
    let spread = _mm512_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12);
    let pick = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
    ));
    let (mut n, mut pos) = (0, 0);
    while n + 16 <= out.len() && pos + 48 <= buf.len() {
        // SAFETY: pos + 48 <= buf.len(); the masked load reads bytes pos..pos + 48 only.
        let raw =
            unsafe { _mm512_maskz_loadu_epi8(0xFFFF_FFFF_FFFF, buf.as_ptr().add(pos).cast()) };
        let v = _mm512_and_si512(
            _mm512_shuffle_epi8(_mm512_permutexvar_epi32(spread, raw), pick),
            mask23,
        );
        let good = _mm512_cmplt_epi32_mask(v, q);
        // SAFETY: n + 16 <= out.len(): the store writes out[n..n + 16], in bounds.
        unsafe {
            _mm512_storeu_si512(
                out.as_mut_ptr().add(n).cast(),
                _mm512_maskz_compress_epi32(good, v),
            )
        };
        n += good.count_ones() as usize;
        pos += 48;
    }
    n + avx2.rej_uniform(&mut out[n..], &buf[pos..])
}

/// RejBoundedPoly's inner loop (FIPS 204 Alg. 15/31) sixteen nibbles at a time: the nibbles
/// of 8 bytes (low nibble first) in 16 lanes, CoeffFromHalfByte by `vpermd` from a 16-entry
/// constant held in a register (no memory access depends on a nibble), the accepted lanes
/// compacted by `vpcompressd` and stored as 16 values; the count advances by how many were
/// accepted. 16 bytes per step while 32 more values fit, then 8 while 16 fit, the rest as
/// the portable kernel. Entries past the returned count are unspecified.
#[target_feature(enable = "avx512f,popcnt")]
pub(super) fn rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
    let (table, limit) = match eta {
        // 2 - (b mod 5) for b < 15; 4 - b for b < 9. Entries past the limit are never kept.
        Eta::Two => (
            _mm512_setr_epi32(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0),
            15,
        ),
        Eta::Four => (
            _mm512_setr_epi32(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0),
            9,
        ),
    };
    let limit = _mm512_set1_epi32(limit);
    let low = _mm_set1_epi8(0x0f);
    // The nibbles of the 16 bytes in order, as bytes: those of bytes 0..8, those of 8..16.
    let nibbles = |bytes: __m128i| -> (__m128i, __m128i) {
        let lo = _mm_and_si128(bytes, low);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(bytes), low);
        (_mm_unpacklo_epi8(lo, hi), _mm_unpackhi_epi8(lo, hi))
    };
    // Sixteen nibbles (one per byte) to out[at..at + 16], accepted ones first; how many.
    let put = |out: &mut [i32], at: usize, nib: __m128i| -> usize {
        let nib = _mm512_cvtepu8_epi32(nib);
        let keep = _mm512_cmplt_epi32_mask(nib, limit);
        let val = _mm512_maskz_compress_epi32(keep, _mm512_permutexvar_epi32(nib, table));
        let dst = &mut out[at..at + 16];
        // SAFETY: `dst` holds 16 i32; one unaligned 16-lane store.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), val) };
        // Declassified: how many candidates were accepted, which says nothing about the
        // accepted values (FIPS 204 lets RejBoundedPoly's rejections show); the next store
        // index follows it.
        crate::ct::declassify(keep.count_ones() as usize)
    };
    let (mut n, mut pos) = (0, 0);
    while n + 32 <= out.len() && pos + 16 <= buf.len() {
        // SAFETY: pos + 16 <= buf.len(), unaligned load.
        let bytes = unsafe { _mm_loadu_si128(buf.as_ptr().add(pos).cast()) };
        let (first, second) = nibbles(bytes);
        n += put(out, n, first);
        n += put(out, n, second);
        pos += 16;
    }
    while n + 16 <= out.len() && pos + 8 <= buf.len() {
        // SAFETY: pos + 8 <= buf.len(), 8-byte unaligned load.
        let bytes = unsafe { _mm_loadl_epi64(buf.as_ptr().add(pos).cast()) };
        n += put(out, n, nibbles(bytes).0);
        pos += 8;
    }
    n + portable::kernels::rej_eta(eta, &mut out[n..], &buf[pos..])
}
