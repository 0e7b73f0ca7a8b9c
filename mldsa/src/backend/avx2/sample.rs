//! The rejection samplers' inner loops: RejNTTPoly's (public data, a compaction table) and
//! RejBoundedPoly's (secret data, a computed compaction). Both finish with the portable
//! kernel on what is left.
#![allow(unsafe_code)]

use crate::backend::portable;
use crate::params::{Eta, Q};
use core::arch::x86_64::*;

/// For each 8-bit mask of accepted candidates, the lanes to gather (set bits in order,
/// padded with 0). Indexed by which of eight *public* candidates (matrix A) were accepted;
/// `rej_eta`, which samples secrets, does not use it.
static COMPRESS: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut i, mut n) = (0, 0);
        while i < 8 {
            if m & (1 << i) != 0 {
                t[m][n] = i as u8;
                n += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// RejNTTPoly's inner loop (FIPS 204 Alg. 14 on 3-byte groups), eight candidates at a time
/// while eight more values fit and 32 bytes can be read; the rest as the portable kernel.
#[target_feature(enable = "avx2,popcnt")]
pub(super) fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
    let mask23 = _mm256_set1_epi32(0x7F_FFFF);
    let q = _mm256_set1_epi32(Q);
    // Lane 0 holds bytes 0..16, lane 1 bytes 8..24; pick 3 bytes per 32-bit lane.
    let pick = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    let (mut n, mut pos) = (0, 0);
    while n + 8 <= out.len() && pos + 32 <= buf.len() {
        // SAFETY: pos + 32 <= buf.len(), unaligned load.
        let raw = unsafe { _mm256_loadu_si256(buf.as_ptr().add(pos).cast()) };
        let v = _mm256_and_si256(
            _mm256_shuffle_epi8(_mm256_permute4x64_epi64(raw, 0x94), pick),
            mask23,
        );
        let good = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v))) as usize;
        let idx = COMPRESS[good];
        // SAFETY: 8 bytes of the table row; the store writes out[n..n + 8], in bounds.
        unsafe {
            let perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64(idx.as_ptr().cast()));
            _mm256_storeu_si256(
                out.as_mut_ptr().add(n).cast(),
                _mm256_permutevar8x32_epi32(v, perm),
            );
        }
        n += good.count_ones() as usize;
        pos += 24;
    }
    n + portable::kernels::rej_uniform(&mut out[n..], &buf[pos..])
}

/// RejBoundedPoly's inner loop (FIPS 204 Alg. 15/31) without a table indexed by secret data:
/// it samples s1 and s2, so unlike `rej_uniform` the compaction of accepted candidates is
/// computed, not looked up. Each 128-bit lane takes 8 bytes = 16 nibbles (low nibble first,
/// one per byte); CoeffFromHalfByte is a `vpshufb` of a 16-entry constant held in a register
/// (no memory access depends on a nibble). In each 64-bit group of eight, every accepted
/// nibble then moves down by the number of rejected ones before it, in three steps of 1, 2
/// and 4 bytes, one per bit of that count (kept nibbles never collide: the count is
/// non-decreasing along the group); each group is stored as 8 values and the count advances
/// by what it kept. 16 bytes per step while 32 more values fit; then 8 while 16 fit; the rest
/// as the portable kernel. Entries past the returned count are unspecified.
#[target_feature(enable = "avx2,popcnt")]
pub(super) fn rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
    let (table, limit) = match eta {
        // 2 - (b mod 5) for b < 15; 4 - b for b < 9. Entries past the limit are never kept.
        Eta::Two => (
            _mm256_broadcastsi128_si256(_mm_setr_epi8(
                2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0,
            )),
            15,
        ),
        Eta::Four => (
            _mm256_broadcastsi128_si256(_mm_setr_epi8(
                4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0,
            )),
            9,
        ),
    };
    let limit = _mm256_set1_epi8(limit);
    let one = _mm256_set1_epi8(1);
    let low_nibble = _mm256_set1_epi16(0x000f);
    let high_nibble = _mm256_set1_epi16(0x0f00);
    // Compacts the accepted values of each lane to its bottom; returns them and the mask of
    // accepted nibbles (bit i: byte i of the vector).
    let step = |bytes: __m128i| -> (__m256i, u32) {
        // Byte b of the 16-byte input lands in 16-bit lane b: low nibble in the low byte,
        // high nibble in the high byte, so the bytes of each 128-bit lane are the nibbles of
        // its 8 input bytes in order.
        let w = _mm256_cvtepu8_epi16(bytes);
        let nib = _mm256_or_si256(
            _mm256_and_si256(w, low_nibble),
            _mm256_and_si256(_mm256_slli_epi16(w, 4), high_nibble),
        );
        let keep = _mm256_cmpgt_epi8(limit, nib);
        let mut val = _mm256_and_si256(_mm256_shuffle_epi8(table, nib), keep);
        // Inclusive prefix count of rejected nibbles within each 64-bit group of eight,
        // kept only where the nibble is kept.
        let mut s = _mm256_andnot_si256(keep, one);
        s = _mm256_add_epi8(s, _mm256_slli_epi64(s, 8));
        s = _mm256_add_epi8(s, _mm256_slli_epi64(s, 16));
        s = _mm256_add_epi8(s, _mm256_slli_epi64(s, 32));
        s = _mm256_and_si256(s, keep);
        // Moves the entries whose count has bit `$bit` set down by 2^bit bytes within their
        // group (and, with `s`, their counts with them).
        macro_rules! shift_down {
            ($bit:literal, $m:ident) => {
                let b = _mm256_set1_epi8(1 << $bit);
                let $m = _mm256_cmpeq_epi8(_mm256_and_si256(s, b), b);
                let moved = _mm256_srli_epi64(_mm256_and_si256(val, $m), 8 << $bit);
                val = _mm256_or_si256(_mm256_andnot_si256($m, val), moved);
            };
            ($bit:literal, $m:ident, s) => {
                shift_down!($bit, $m);
                let moved = _mm256_srli_epi64(_mm256_and_si256(s, $m), 8 << $bit);
                s = _mm256_or_si256(_mm256_andnot_si256($m, s), moved);
            };
        }
        shift_down!(0, m0, s);
        shift_down!(1, m1, s);
        shift_down!(2, m2);
        (val, _mm256_movemask_epi8(keep) as u32)
    };
    // Stores the low 8 signed bytes of `v` as i32 at out[at..at + 8].
    let put = |out: &mut [i32], at: usize, v: __m128i| {
        let dst = &mut out[at..at + 8];
        // SAFETY: `dst` holds 8 i32; one unaligned 8-lane store.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), _mm256_cvtepi8_epi32(v)) };
    };
    // How many nibbles group g (bits 8g..8g + 8 of the mask) kept. Declassified: how many
    // candidates of the group were accepted, which says nothing about the accepted values
    // (FIPS 204 lets RejBoundedPoly's rejections show); the store index follows it.
    let kept =
        |mask: u32, g: u32| crate::ct::declassify(((mask >> (8 * g)) & 0xff).count_ones() as usize);
    let (mut n, mut pos) = (0, 0);
    while n + 32 <= out.len() && pos + 16 <= buf.len() {
        // SAFETY: pos + 16 <= buf.len(), unaligned load.
        let bytes = unsafe { _mm_loadu_si128(buf.as_ptr().add(pos).cast()) };
        let (val, keep) = step(bytes);
        let (lo, hi) = (
            _mm256_castsi256_si128(val),
            _mm256_extracti128_si256(val, 1),
        );
        put(out, n, lo);
        n += kept(keep, 0);
        put(out, n, _mm_unpackhi_epi64(lo, lo));
        n += kept(keep, 1);
        put(out, n, hi);
        n += kept(keep, 2);
        put(out, n, _mm_unpackhi_epi64(hi, hi));
        n += kept(keep, 3);
        pos += 16;
    }
    while n + 16 <= out.len() && pos + 8 <= buf.len() {
        // SAFETY: pos + 8 <= buf.len(), 8-byte unaligned load.
        let bytes = unsafe { _mm_loadl_epi64(buf.as_ptr().add(pos).cast()) };
        let (val, keep) = step(bytes);
        let lo = _mm256_castsi256_si128(val);
        put(out, n, lo);
        n += kept(keep, 0);
        put(out, n, _mm_unpackhi_epi64(lo, lo));
        n += kept(keep, 1);
        pos += 8;
    }
    n + portable::kernels::rej_eta(eta, &mut out[n..], &buf[pos..])
}
