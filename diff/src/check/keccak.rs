//! Keccak-f[1600]: one state, four interleaved states, and two sets of four. Each check
//! exercises both of a permutation's entry points, for secret and for public states (this
//! library's oracle answers only when they agree: `impls/ours.rs`).

use super::def::{Def, Family};
use super::inputs::{bytes_out, fixed_or_random};
use crate::model::Output;
use crate::oracle::answered;

/// Bytes of one state.
const STATE: usize = 200;

fn lanes<const M: usize>(bytes: &[u8]) -> Option<[u64; M]> {
    if bytes.len() != 8 * M {
        return None;
    }
    Some(core::array::from_fn(|i| {
        u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    }))
}

fn le(words: &[u64]) -> Output {
    bytes_out(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

const fn keccak(
    name: &'static str,
    kernel: &'static [&'static str],
    generate: super::def::GenFn,
    about: fn(super::def::Check) -> String,
    run: super::def::RunFn,
) -> Def {
    Def {
        about: Some(about),
        ..Def::new(name, Family::Keccak, (kernel, "keccak"), generate, run)
    }
}

pub static KECCAK: Def = keccak(
    "keccak_f1600",
    &["keccak_f1600", "keccak_f1600_public"],
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 0xff, 0x01], STATE),
    |_| "200-byte state -> Keccak-f[1600]; exact".into(),
    |o, check, case| {
        let s = o.keccak_f1600(&check.params(), lanes::<25>(&case.bytes)?);
        answered(s, |s| le(&s))
    },
);

pub static KECCAK_X4: Def = keccak(
    "keccak_f1600_x4",
    &["keccak_f1600_x4", "keccak_f1600_x4_public"],
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 0xff, 0x01], 4 * STATE),
    |_| "four interleaved states -> Keccak-f[1600] x4; exact".into(),
    |o, check, case| {
        let s = o.keccak_f1600_x4(&check.params(), lanes::<100>(&case.bytes)?);
        answered(s, |s| le(&s))
    },
);

pub static KECCAK_X4X2: Def = keccak(
    "keccak_f1600_x4x2",
    &["keccak_f1600_x4x2", "keccak_f1600_x4x2_public"],
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 0xff, 0x01], 8 * STATE),
    |_| {
        "two sets of four interleaved states -> Keccak-f[1600] x4 on each (a backend \
         may run them interleaved); exact"
            .into()
    },
    |o, check, case| {
        let (a, z) = case.bytes.split_at(case.bytes.len().min(4 * STATE));
        let s = o.keccak_f1600_x4x2(&check.params(), [lanes::<100>(a)?, lanes::<100>(z)?]);
        answered(s, |[s0, s1]| le(&[s0, s1].concat()))
    },
);
