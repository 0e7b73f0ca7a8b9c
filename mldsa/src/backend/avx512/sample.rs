//! RejNTTPoly's inner loop (FIPS 204 Alg. 14 on 3-byte groups) sixteen candidates at a time.
//! Its data is public (the matrix A), so which candidates were accepted may steer the
//! compaction; `vpcompressd` does it, with no table. RejBoundedPoly's loop (secret data) is
//! the AVX2 one.
#![allow(unsafe_code)]

use crate::backend::{Avx2, Backend};
use crate::params::Q;
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
