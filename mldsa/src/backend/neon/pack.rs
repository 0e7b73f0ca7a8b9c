//! Bit unpacking on Neon (FIPS 204 Alg. 18/19 field order: value i occupies bits
//! [i bits, (i + 1) bits) of the buffer, little-endian).
//!
//! Eight fields per step, `bits` bytes: fields 0..4 from a 16-byte window at the step's
//! first byte, fields 4..8 from a window at byte floor(4 bits / 8) (their first field then
//! starts at bit 4 bits mod 8). A `tbl` puts each field's (up to four) bytes in its 32-bit
//! lane, a per-lane right shift and a mask finish it. The last steps, whose windows would
//! reach past the buffer, read from a zero-padded copy.
#![allow(unsafe_code)]

use crate::params::{Eta, N};
use crate::poly::Poly;
use core::arch::aarch64::*;
use zeroize::Zeroize;

/// Byte picks and right shifts for one group of four fields starting `first_bit` bits into
/// a window.
#[target_feature(enable = "neon")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn group_reader(bits: usize, first_bit: usize) -> (uint8x16_t, int32x4_t) {
    let mut pick = [0u8; 16];
    let mut shift = [0i32; 4];
    for j in 0..4 {
        let p = first_bit + j * bits;
        for k in 0..4 {
            pick[4 * j + k] = (p / 8 + k) as u8;
        }
        // Negative: `ushl` shifts right.
        shift[j] = -((p % 8) as i32);
    }
    // SAFETY: 16 bytes and four i32 from local arrays.
    unsafe { (vld1q_u8(pick.as_ptr()), vld1q_s32(shift.as_ptr())) }
}

/// Calls `put(step, fields 0..4, fields 4..8)` for the 32 steps of eight `bits`-bit fields
/// (bits <= 24) of `buf` (N bits / 8 bytes).
#[target_feature(enable = "neon")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn read_fields(buf: &[u8], bits: usize, mut put: impl FnMut(usize, uint32x4_t, uint32x4_t)) {
    assert!((1..=24).contains(&bits) && buf.len() == N * bits / 8);
    let second = 4 * bits / 8;
    let readers = [group_reader(bits, 0), group_reader(bits, 4 * bits % 8)];
    let mask = vdupq_n_u32((1 << bits) - 1);
    let field = |w: uint8x16_t, (pick, shift): (uint8x16_t, int32x4_t)| {
        vandq_u32(
            vshlq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(w, pick)), shift),
            mask,
        )
    };
    let load = |b: &[u8], at: usize| {
        assert!(at + 16 <= b.len());
        // SAFETY: at + 16 <= b.len(); unaligned load.
        unsafe { vld1q_u8(b.as_ptr().add(at)) }
    };
    let mut step = 0;
    while step < N / 8 && step * bits + second + 16 <= buf.len() {
        let pos = step * bits;
        put(
            step,
            field(load(buf, pos), readers[0]),
            field(load(buf, pos + second), readers[1]),
        );
        step += 1;
    }
    // The remaining steps (fewer than 28 bytes) from a zero-padded copy, wiped afterwards:
    // it holds the last bytes of an ExpandMask stream or an encoding of s1/s2.
    let mut tail = [0u8; 64];
    let rest = &buf[step * bits..];
    tail[..rest.len()].copy_from_slice(rest);
    let mut pos = 0;
    while step < N / 8 {
        put(
            step,
            field(load(&tail, pos), readers[0]),
            field(load(&tail, pos + second), readers[1]),
        );
        pos += bits;
        step += 1;
    }
    tail.zeroize();
}

/// Unpacks 256 fields into `a`: the field itself, or `base - field` if `base` is given.
#[target_feature(enable = "neon")]
pub(super) fn unpack_fields(a: &mut Poly, buf: &[u8], bits: usize, base: Option<i32>) {
    let b = vdupq_n_s32(base.unwrap_or(0));
    let signed = base.is_some();
    read_fields(buf, bits, |step, lo, hi| {
        for (k, v) in [lo, hi].into_iter().enumerate() {
            let v = vreinterpretq_s32_u32(v);
            let v = if signed { vsubq_s32(b, v) } else { v };
            super::arith::store(a, 2 * step + k, v);
        }
    });
}

/// BitUnpack of s1/s2: false if some field exceeds 2 eta (the output then holds the
/// out-of-range values). No branch on the data.
#[target_feature(enable = "neon")]
pub(super) fn unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
    let max = vdupq_n_u32(2 * eta.value() as u32);
    let e = vdupq_n_s32(eta.value());
    let mut bad = vdupq_n_u32(0);
    read_fields(buf, eta.bits(), |step, lo, hi| {
        for (k, v) in [lo, hi].into_iter().enumerate() {
            bad = vorrq_u32(bad, vcgtq_u32(v, max));
            super::arith::store(a, 2 * step + k, vsubq_s32(e, vreinterpretq_s32_u32(v)));
        }
    });
    vmaxvq_u32(bad) == 0
}

/// Byte picks that join two 64-bit lanes of `nb` packed bits each (nb <= 60, or 64 if a
/// multiple of 8) into 2 nb / 8 consecutive bytes, after lane 1 was shifted left by nb mod 8:
/// `tbl(first) | tbl(second)`. With nb mod 8 = 4, byte nb / 8 is shared: lane 0's top
/// half-byte and lane 1's bottom one.
#[target_feature(enable = "neon")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn joiner(nb: usize) -> (uint8x16_t, uint8x16_t, int64x2_t) {
    let (full, s) = (nb / 8, nb % 8);
    let mut first = [0xFFu8; 16];
    let mut second = [0xFFu8; 16];
    for (i, x) in first
        .iter_mut()
        .enumerate()
        .take(full + usize::from(s != 0))
    {
        *x = i as u8;
    }
    let skip = usize::from(s != 0);
    for j in 0..full {
        first[full + skip + j] = (8 + skip + j) as u8;
    }
    if s != 0 {
        second[full] = 8;
    }
    let shift = [0i64, s as i64];
    // SAFETY: 16 bytes and two i64 from local arrays.
    unsafe {
        (
            vld1q_u8(first.as_ptr()),
            vld1q_u8(second.as_ptr()),
            vld1q_s64(shift.as_ptr()),
        )
    }
}

/// Packs 256 fields of `BITS` bits (`TWO` = 2 BITS) from `a` (the coefficient itself, or
/// `base - coefficient` if `base` is given), FIPS 204 Alg. 16/17 order. Fields are joined in
/// pairs inside each 64-bit lane (shift-left-insert), then, for BITS <= 16, pairs of pairs
/// across two vectors; each 64-bit lane then holds 4 (or, for 18 and 20 bits, 2) fields in
/// consecutive bits, and a byte shuffle joins two lanes into the output bytes.
#[target_feature(enable = "neon")]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "packed lengths and bit offsets: public bit widths and positions divided by the constant 8 (a shift); no coefficient is divided"
)]
fn pack_fixed<const BITS: i32, const TWO: i32>(out: &mut [u8], a: &Poly, base: Option<i32>) {
    let bits = BITS as usize;
    assert!(TWO == 2 * BITS && out.len() == N * bits / 8);
    let b = vdupq_n_s32(base.unwrap_or(0));
    let signed = base.is_some();
    let field = |i: usize| {
        let v = super::arith::load(a, i);
        let v = if signed { vsubq_s32(b, v) } else { v };
        // Lane k of the result: fields 2k and 2k + 1 of the vector, in 2 BITS bits.
        let x = vreinterpretq_u64_s32(v);
        vsliq_n_u64::<BITS>(x, vshrq_n_u64::<32>(x))
    };
    // Fields per 64-bit lane, and bytes per step (two lanes).
    let per_lane = if BITS <= 16 { 4 } else { 2 };
    let step_bytes = 2 * per_lane * bits / 8;
    let (first, second, shift) = joiner(per_lane * bits);
    let mut put = |at: usize, z: uint64x2_t| {
        let z = vreinterpretq_u8_u64(vshlq_u64(z, shift));
        let bytes = vorrq_u8(vqtbl1q_u8(z, first), vqtbl1q_u8(z, second));
        if at + 16 <= out.len() {
            // SAFETY: at + 16 <= out.len(); the bytes past this step's are rewritten by the
            // next steps.
            unsafe { vst1q_u8(out.as_mut_ptr().add(at), bytes) };
        } else {
            // The last steps (of s1, s2 or t0: the last bytes of their encoding).
            store_tail(out, at, step_bytes, bytes);
        }
    };
    if BITS <= 16 {
        for step in 0..N / 8 {
            let (x, y) = (field(2 * step), field(2 * step + 1));
            let z = vsliq_n_u64::<TWO>(vtrn1q_u64(x, y), vtrn2q_u64(x, y));
            put(step * step_bytes, z);
        }
    } else {
        for step in 0..N / 4 {
            put(step * step_bytes, field(step));
        }
    }
}

/// Writes the `n` low bytes of `g` to `out[at..at + n]` where a 16-byte store at `at` would
/// pass the end of `out`: one 16-byte read-modify-write of `out`'s last 16 bytes, which keeps
/// every byte outside `[at, at + n)`. The bytes never pass through memory of their own (a
/// zero-padded copy would be one more place the last bytes of an s1, s2 or t0 encoding lie,
/// to wipe).
#[target_feature(enable = "neon")]
fn store_tail(out: &mut [u8], at: usize, n: usize, g: uint8x16_t) {
    assert!(
        out.len() >= 16 && n <= 16 && at + n <= out.len() && at + 16 > out.len(),
        "a tail inside the last 16 bytes"
    );
    let w = out.len() - 16;
    const IOTA: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    // SAFETY: 16 bytes from a constant array.
    let iota = unsafe { vld1q_u8(IOTA.as_ptr()) };
    // Byte j of the window takes byte j - (at - w) of `g` (1 <= at - w <= 15); below that the
    // difference wraps to 241..=255, which `tbl` reads as zero and `take` excludes.
    let idx = vsubq_u8(iota, vdupq_n_u8((at - w) as u8));
    let take = vcltq_u8(idx, vdupq_n_u8(n as u8));
    let moved = vqtbl1q_u8(g, idx);
    // SAFETY: w + 16 == out.len(): the window is in bounds.
    unsafe {
        let old = vld1q_u8(out.as_ptr().add(w));
        vst1q_u8(out.as_mut_ptr().add(w), vbslq_u8(take, moved, old));
    }
}

/// Packs with the width chosen at run time (one instance per FIPS 204 width).
#[target_feature(enable = "neon")]
pub(super) fn pack_fields(out: &mut [u8], a: &Poly, bits: usize, base: Option<i32>) {
    match bits {
        3 => pack_fixed::<3, 6>(out, a, base),
        4 => pack_fixed::<4, 8>(out, a, base),
        6 => pack_fixed::<6, 12>(out, a, base),
        10 => pack_fixed::<10, 20>(out, a, base),
        13 => pack_fixed::<13, 26>(out, a, base),
        18 => pack_fixed::<18, 36>(out, a, base),
        20 => pack_fixed::<20, 40>(out, a, base),
        b => unreachable!("no FIPS 204 encoding uses {b}-bit fields"),
    }
}
