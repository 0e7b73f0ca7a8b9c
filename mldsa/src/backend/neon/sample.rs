//! The rejection samplers' inner loops on Neon.
//!
//! `rej_uniform` reads the public seed's expansion (the matrix A), so its compaction of the
//! accepted candidates is a table lookup indexed by which candidates were accepted.
//! `rej_eta` samples the secrets s1 and s2: no memory access depends on its input. A nibble
//! becomes its value by `tbl` from a 16-byte table held in a register, and the accepted
//! values are compacted by arithmetic (a prefix count and shifts), never by a table.
#![allow(unsafe_code)]

use super::super::portable::kernels;
use crate::params::{Eta, Q};
use core::arch::aarch64::*;

/// For each 4-bit mask of accepted candidates, the bytes of the accepted 32-bit lanes in
/// order, padded with 0xFF (which `tbl` turns into zero). Indexed by public data only.
static COMPACT: [[u8; 16]; 16] = {
    let mut t = [[0xFFu8; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let (mut i, mut n) = (0, 0);
        while i < 4 {
            if m & (1 << i) != 0 {
                let mut k = 0;
                while k < 4 {
                    t[m][4 * n + k] = (4 * i + k) as u8;
                    k += 1;
                }
                n += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// Byte picks that put the 3-byte candidates 0..4 of a 16-byte window into 32-bit lanes
/// (from the window at the group's first byte), and candidates 4..8 (from the window at its
/// byte 8). 0xFF reads as zero.
static PICK: [[u8; 16]; 2] = [
    [0, 1, 2, 0xFF, 3, 4, 5, 0xFF, 6, 7, 8, 0xFF, 9, 10, 11, 0xFF],
    [
        4, 5, 6, 0xFF, 7, 8, 9, 0xFF, 10, 11, 12, 0xFF, 13, 14, 15, 0xFF,
    ],
];

/// 16 bytes of `buf` from `pos`.
#[target_feature(enable = "neon")]
fn load16(buf: &[u8], pos: usize) -> uint8x16_t {
    assert!(pos + 16 <= buf.len());
    // SAFETY: pos + 16 <= buf.len(); unaligned load.
    unsafe { vld1q_u8(buf.as_ptr().add(pos)) }
}

/// Stores four i32 at out[at..at + 4].
#[target_feature(enable = "neon")]
fn store4(out: &mut [i32], at: usize, v: int32x4_t) {
    assert!(at + 4 <= out.len());
    // SAFETY: at + 4 <= out.len(); unaligned store.
    unsafe { vst1q_s32(out.as_mut_ptr().add(at), v) }
}

/// RejNTTPoly's inner loop (FIPS 204 Alg. 14 on 3-byte groups), eight candidates (24 bytes)
/// per step while eight more values fit and 24 bytes can be read; the rest as the portable
/// kernel.
#[target_feature(enable = "neon")]
pub(super) fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
    let mask23 = vdupq_n_u32(0x7F_FFFF);
    let q = vdupq_n_u32(Q as u32);
    let bit = {
        // SAFETY: four u32 from a 4-element array.
        unsafe { vld1q_u32([1u32, 2, 4, 8].as_ptr()) }
    };
    // SAFETY: each PICK row is 16 bytes.
    let pick = unsafe { [vld1q_u8(PICK[0].as_ptr()), vld1q_u8(PICK[1].as_ptr())] };
    let (mut n, mut pos) = (0, 0);
    while n + 8 <= out.len() && pos + 24 <= buf.len() {
        for (h, p) in pick.iter().enumerate() {
            let raw = load16(buf, pos + 8 * h);
            let v = vandq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(raw, *p)), mask23);
            let good = vaddvq_u32(vandq_u32(vcltq_u32(v, q), bit)) as usize;
            // SAFETY: each COMPACT row is 16 bytes.
            let idx = unsafe { vld1q_u8(COMPACT[good].as_ptr()) };
            let packed = vreinterpretq_s32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(v), idx));
            store4(out, n, packed);
            n += good.count_ones() as usize;
        }
        pos += 24;
    }
    n + kernels::rej_uniform(&mut out[n..], &buf[pos..])
}

/// RejBoundedPoly's inner loop (FIPS 204 Alg. 15/31) without a table indexed by secret data:
/// 8 bytes = 16 nibbles (low nibble first) per step while 16 more values fit. Each nibble's
/// value is a `tbl` of a register (no memory access depends on it); then every accepted
/// value moves down by the number of rejected nibbles before it, in four steps of 1, 2, 4
/// and 8 bytes, one per bit of that count (kept values never collide: the count is
/// non-decreasing along the vector). The 16 values are stored and the count advances by how
/// many were kept. The rest as the portable kernel. Entries past the returned count are
/// unspecified.
#[target_feature(enable = "neon")]
pub(super) fn rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
    // 2 - (b mod 5) for b < 15; 4 - b for b < 9. Entries past the limit are never kept.
    static VALUES: [[i8; 16]; 2] = [
        [2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0],
        [4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0],
    ];
    let (row, limit) = match eta {
        Eta::Two => (0, 15),
        Eta::Four => (1, 9),
    };
    // SAFETY: a 16-byte row.
    let table = unsafe { vreinterpretq_u8_s8(vld1q_s8(VALUES[row].as_ptr())) };
    let limit = vdupq_n_u8(limit);
    let one = vdupq_n_u8(1);
    let zero = vdupq_n_u8(0);
    let low = vdup_n_u8(0x0f);
    let (mut n, mut pos) = (0, 0);
    while n + 16 <= out.len() && pos + 8 <= buf.len() {
        // SAFETY: pos + 8 <= buf.len(); 8-byte unaligned load.
        let bytes = unsafe { vld1_u8(buf.as_ptr().add(pos)) };
        let (lo, hi) = (vand_u8(bytes, low), vshr_n_u8::<4>(bytes));
        let nib = vcombine_u8(vzip1_u8(lo, hi), vzip2_u8(lo, hi));
        let keep = vcltq_u8(nib, limit);
        let mut val = vandq_u8(vqtbl1q_u8(table, nib), keep);
        // Inclusive prefix count of rejected nibbles, kept only where the nibble is kept.
        let mut s = vbicq_u8(one, keep);
        s = vaddq_u8(s, vextq_u8::<15>(zero, s));
        s = vaddq_u8(s, vextq_u8::<14>(zero, s));
        s = vaddq_u8(s, vextq_u8::<12>(zero, s));
        s = vaddq_u8(s, vextq_u8::<8>(zero, s));
        s = vandq_u8(s, keep);
        // Moves the entries whose count has bit `$bit` set down by `$by` bytes (and, with
        // `s`, their counts with them).
        macro_rules! shift_down {
            ($bit:literal, $by:literal) => {{
                let m = vtstq_u8(s, vdupq_n_u8($bit));
                val = vorrq_u8(vbicq_u8(val, m), vextq_u8::<$by>(vandq_u8(val, m), zero));
                m
            }};
            ($bit:literal, $by:literal, s) => {{
                let m = shift_down!($bit, $by);
                s = vorrq_u8(vbicq_u8(s, m), vextq_u8::<$by>(vandq_u8(s, m), zero));
            }};
        }
        shift_down!(1, 1, s);
        shift_down!(2, 2, s);
        shift_down!(4, 4, s);
        let _ = shift_down!(8, 8);
        let v = vreinterpretq_s8_u8(val);
        let (w0, w1) = (vmovl_s8(vget_low_s8(v)), vmovl_high_s8(v));
        store4(out, n, vmovl_s16(vget_low_s16(w0)));
        store4(out, n + 4, vmovl_high_s16(w0));
        store4(out, n + 8, vmovl_s16(vget_low_s16(w1)));
        store4(out, n + 12, vmovl_high_s16(w1));
        // Declassified: how many of the 16 candidates were accepted, which says nothing
        // about the accepted values (FIPS 204 lets RejBoundedPoly's rejections show).
        n += usize::from(crate::ct::declassify(vaddvq_u8(vandq_u8(keep, one))));
        pos += 8;
    }
    n + kernels::rej_eta(eta, &mut out[n..], &buf[pos..])
}
