//! The controls: kernels planted with exactly what the check must report, each run on the same
//! secret polynomials as the real kernels. A secret-dependent branch (on whether a lane is
//! odd) and a secret-indexed load (a table read at an index taken from a lane), each in plain
//! code, in AVX2 code and in AVX-512 code, so the check is shown to see through every kind of
//! instruction the backends use (the AVX-512 pair only where the CPU has AVX-512F). A run in
//! which any of them is not reported fails.
#![allow(unsafe_code)]

use core::arch::x86_64::*;
use std::hint::black_box;

/// A control's name and whether this CPU can run it.
pub(crate) fn available() -> Vec<&'static str> {
    let mut v = vec!["control-branch", "control-index"];
    if std::is_x86_feature_detected!("avx2") {
        v.extend(["control-branch-avx2", "control-index-avx2"]);
    }
    if std::is_x86_feature_detected!("avx512f") {
        v.extend(["control-branch-avx512", "control-index-avx512"]);
    }
    v
}

static TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).wrapping_mul(0x9e37_79b9);
        i += 1;
    }
    t
};

/// Runs control `name` on `a`; `None` for an unknown name or one this CPU cannot run.
pub(crate) fn run(name: &str, a: &[i32; 256]) -> Option<u32> {
    let avx2 = std::is_x86_feature_detected!("avx2");
    let avx512 = std::is_x86_feature_detected!("avx512f");
    Some(match name {
        "control-branch" => branch(a),
        "control-index" => index(a),
        // SAFETY: the CPU has AVX2 (checked just above), all these functions need.
        "control-branch-avx2" if avx2 => unsafe { branch_avx2(a) },
        // SAFETY: as above.
        "control-index-avx2" if avx2 => unsafe { index_avx2(a) },
        // SAFETY: the CPU has AVX-512F (checked just above), all these functions need.
        "control-branch-avx512" if avx512 => unsafe { branch_avx512(a) },
        // SAFETY: as above.
        "control-index-avx512" if avx512 => unsafe { index_avx512(a) },
        _ => return None,
    })
}

#[inline(never)]
fn branch(a: &[i32; 256]) -> u32 {
    let mut acc = 0u32;
    for &x in a {
        if x & 1 == 1 {
            acc = black_box(acc.rotate_left(3) ^ 1);
        }
    }
    acc
}

#[inline(never)]
fn index(a: &[i32; 256]) -> u32 {
    a.iter()
        .fold(0u32, |acc, &x| acc ^ black_box(&TABLE)[(x & 0xff) as usize])
}

#[inline(never)]
#[target_feature(enable = "avx2")]
fn branch_avx2(a: &[i32; 256]) -> u32 {
    let one = _mm256_set1_epi32(1);
    let mut acc = 0u32;
    for chunk in a.chunks_exact(8) {
        // SAFETY: the chunk holds 8 i32, the 32 bytes the unaligned load reads.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let odd = _mm256_cmpeq_epi32(_mm256_and_si256(v, one), one);
        if _mm256_movemask_epi8(odd) & 1 != 0 {
            acc = black_box(acc.rotate_left(3) ^ 1);
        }
    }
    acc
}

#[inline(never)]
#[target_feature(enable = "avx2")]
fn index_avx2(a: &[i32; 256]) -> u32 {
    let mut acc = 0u32;
    for chunk in a.chunks_exact(8) {
        // SAFETY: as in branch_avx2.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        let lane = _mm256_extract_epi32::<3>(v) as u32 & 0xff;
        acc ^= black_box(&TABLE)[lane as usize];
    }
    acc
}

#[inline(never)]
#[target_feature(enable = "avx512f")]
fn branch_avx512(a: &[i32; 256]) -> u32 {
    let one = _mm512_set1_epi32(1);
    let mut acc = 0u32;
    for chunk in a.chunks_exact(16) {
        // SAFETY: the chunk holds 16 i32, the 64 bytes the unaligned load reads.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
        let odd = _mm512_test_epi32_mask(v, one);
        if odd & 1 != 0 {
            acc = black_box(acc.rotate_left(3) ^ 1);
        }
    }
    acc
}

#[inline(never)]
#[target_feature(enable = "avx512f")]
fn index_avx512(a: &[i32; 256]) -> u32 {
    let mut acc = 0u32;
    for chunk in a.chunks_exact(16) {
        // SAFETY: as in branch_avx512.
        let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
        let lane = _mm512_reduce_max_epi32(v) as u32 & 0xff;
        acc ^= black_box(&TABLE)[lane as usize];
    }
    acc
}
