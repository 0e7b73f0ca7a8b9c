//! Keccak-f[1600]: one state, four interleaved states, and two sets of four.

use super::def::{Answer, Def, Family, Over, no_polys};
use super::guard::{Guarded, checked};
use super::inputs::{bytes_out, fixed_or_random};
use crate::model::{Case, Output};

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
    rust: super::def::RustFn,
    c: super::def::CFn,
) -> Def {
    Def {
        name,
        over: Over::Nothing,
        family: Family::Keccak,
        kernels: kernel,
        contract: None,
        about: Some(about),
        planted: "keccak",
        poly_inputs: no_polys,
        edge_cases: 3,
        generate,
        rust,
        c: Some(c),
        native: None,
        peer: None,
        answer: Answer::Output,
    }
}

fn state_bytes(
    index: usize,
    edge: bool,
    src: &mut dyn crate::source::Source,
    len: usize,
) -> Result<Case, crate::source::Exhausted> {
    Ok(Case {
        bytes: fixed_or_random(src, edge, index, &[0, 0xff, 0x01], len)?,
        ..Case::default()
    })
}

pub(super) static KECCAK: Def = keccak(
    "keccak_f1600",
    &["keccak_f1600"],
    |_, index, edge, src| state_bytes(index, edge, src, STATE),
    |_| "200-byte state -> Keccak-f[1600]; exact".into(),
    |b, _, case| {
        let mut s = Guarded::new(lanes::<25>(&case.bytes)?);
        b.keccak_f1600(&mut s.v);
        Some(checked("keccak_f1600", &[s.violation()], le(&s.v)))
    },
    // The single permutation in lane 0 of PQClean's 4-way one (other lanes zero).
    |c, check, case| {
        let one = lanes::<25>(&case.bytes)?;
        let mut s = [0u64; 100];
        one.iter().enumerate().for_each(|(i, &w)| s[4 * i] = w);
        if !c.table(&check.params()).keccak_x4(&mut s) {
            return None;
        }
        Some(le(&core::array::from_fn::<u64, 25, _>(|i| s[4 * i])))
    },
);

pub(super) static KECCAK_X4: Def = keccak(
    "keccak_f1600_x4",
    &["keccak_f1600_x4"],
    |_, index, edge, src| state_bytes(index, edge, src, 4 * STATE),
    |_| "four interleaved states -> Keccak-f[1600] x4; exact".into(),
    |b, _, case| {
        let mut s = Guarded::new(lanes::<100>(&case.bytes)?);
        b.keccak_f1600_x4(&mut s.v);
        Some(checked("keccak_f1600_x4", &[s.violation()], le(&s.v)))
    },
    |c, check, case| {
        let mut s = lanes::<100>(&case.bytes)?;
        if !c.table(&check.params()).keccak_x4(&mut s) {
            return None;
        }
        Some(le(&s))
    },
);

pub(super) static KECCAK_X4X2: Def = keccak(
    "keccak_f1600_x4x2",
    &["keccak_f1600_x4x2"],
    |_, index, edge, src| state_bytes(index, edge, src, 8 * STATE),
    |_| {
        "two sets of four interleaved states -> Keccak-f[1600] x4 on each (a backend \
         may run them interleaved); exact"
            .into()
    },
    |b, _, case| {
        let (a, z) = case.bytes.split_at(case.bytes.len().min(4 * STATE));
        let (mut s0, mut s1) = (
            Guarded::new(lanes::<100>(a)?),
            Guarded::new(lanes::<100>(z)?),
        );
        b.keccak_f1600_x4x2(&mut s0.v, &mut s1.v);
        Some(checked(
            "keccak_f1600_x4x2",
            &[s0.violation(), s1.violation()],
            le(&[s0.v, s1.v].concat()),
        ))
    },
    |c, check, case| {
        let (a, z) = case.bytes.split_at(case.bytes.len().min(4 * STATE));
        let (mut s0, mut s1) = (lanes::<100>(a)?, lanes::<100>(z)?);
        let t = c.table(&check.params());
        if !t.keccak_x4(&mut s0) || !t.keccak_x4(&mut s1) {
            return None;
        }
        Some(le(&[s0, s1].concat()))
    },
);
