//! Samplers: the rejection kernels on raw byte buffers, and the FIPS 204 samplers built on
//! SHAKE and them (RejNTTPoly, RejBoundedPoly, ExpandMask, SampleInBall, ExpandA).

use super::def::{Check, Def, Family, GenFn, Over, RunFn};
use super::inputs::{bytes_array, bytes_in, bytes_of_len, fixed_or_random, polys_out};
use crate::model::{Case, Output};
use crate::oracle::answered;
use crate::source::{Drawn, Source};
use mldsa::backend::contract;
use mldsa::keccak::{SHAKE128_RATE, SHAKE256_RATE};
use mldsa::params::{Eta, Q, SEED_BYTES};

/// The longest rej_uniform input: five SHAKE128 blocks (PQClean AVX2's buffer).
pub const REJ_UNIFORM_MAX: usize = 5 * SHAKE128_RATE;
/// The longest rej_eta input: two SHAKE256 blocks.
pub const REJ_ETA_MAX: usize = 2 * SHAKE256_RATE;
/// rho || nonce.
const RHO_NONCE: usize = SEED_BYTES + 2;
/// rho' (or rho'') || nonce.
const RHOP_NONCE: usize = 64 + 2;

const fn sampler(
    name: &'static str,
    over: Over,
    kernels: (&'static [&'static str], &'static str),
    about: fn(Check) -> String,
    generate: GenFn,
    run: RunFn,
) -> Def {
    Def {
        over,
        about: Some(about),
        ..Def::new(name, Family::Sampler, kernels, generate, run)
    }
}

/// A rejection kernel's answer: the values it kept and their count.
fn values_out(v: &[i32]) -> Output {
    Output {
        polys: vec![v.to_vec()],
        scalar: v.len() as i64,
        ..Output::default()
    }
}

fn gen_rej_uniform(_: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let len = if edge || src.chance(1, 2)? {
        REJ_UNIFORM_MAX
    } else {
        3 * src.int_in(0, (REJ_UNIFORM_MAX / 3) as i64)? as usize
    };
    let mut buf = vec![0u8; len];
    match (edge, index) {
        (true, 0) => {}
        (true, 1) => buf.fill(0xff),
        (true, _) => buf
            .iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = (i * 37) as u8),
        _ => {
            src.fill(&mut buf)?;
            for t in buf.chunks_exact_mut(3) {
                if src.chance(1, 8)? {
                    let v = if src.chance(1, 2)? {
                        src.int_in(i64::from(Q) - 2, i64::from(Q) + 2)? as u32
                    } else {
                        src.int_in(i64::from(Q) - 3, (1 << 24) - 1)? as u32
                    };
                    t.copy_from_slice(&v.to_le_bytes()[..3]);
                }
            }
        }
    }
    Ok(bytes_in(buf))
}

pub static REJ_UNIFORM: Def = Def {
    contract: Some(|_| contract::REJ_UNIFORM),
    ..sampler(
        "rej_uniform",
        Over::Nothing,
        (&["rej_uniform"], "rej_uniform"),
        |_| {
            format!(
                "bytes (whole 3-byte groups, <= {REJ_UNIFORM_MAX}) -> values in [0, q) and their count; exact"
            )
        },
        gen_rej_uniform,
        |o, check, case| {
            let buf = &case.bytes;
            if buf.len() % 3 != 0 || buf.len() > REJ_UNIFORM_MAX {
                return None;
            }
            answered(o.rej_uniform(&check.params(), buf), |v| values_out(&v))
        },
    )
};

pub static REJ_ETA: Def = Def {
    contract: Some(|c| contract::rej_eta(c.params().eta)),
    ..sampler(
        "rej_eta{eta}",
        Over::Etas,
        (&["rej_eta"], "rej_eta"),
        |c| {
            format!(
                "bytes (<= {REJ_ETA_MAX}) -> values in [-{0}, {0}] and their count; exact",
                c.params().eta.value()
            )
        },
        |check, index, edge, src| {
            // PQClean AVX2's buffer: one SHAKE256 block for eta = 2, two for eta = 4.
            let c_len = if check.params().eta == Eta::Two {
                SHAKE256_RATE
            } else {
                REJ_ETA_MAX
            };
            let len = if edge || src.chance(1, 2)? {
                c_len
            } else {
                src.int_in(0, REJ_ETA_MAX as i64)? as usize
            };
            fixed_or_random(src, edge, index, &[0x00, 0xff, 0x9f], len)
        },
        |o, check, case| {
            if case.bytes.len() > REJ_ETA_MAX {
                return None;
            }
            let v = o.rej_eta(&check.params(), check.params().eta, &case.bytes);
            answered(v, |v| values_out(&v))
        },
    )
};

pub static POLY_UNIFORM: Def = sampler(
    "poly_uniform",
    Over::Nothing,
    // SHAKE128 then rejection; a rejection bug that needs an output group equal to q sits
    // behind the hash (about one input in 30,000 hits it), so this target is measured
    // against the Keccak bug (rej_uniform's own target and expand_a's find the rejection
    // bug in seconds).
    (
        &[
            "rej_uniform",
            "keccak_f1600",
            "keccak_f1600_x4",
            "keccak_f1600_x4x2",
        ],
        "keccak",
    ),
    |_| "rho (32) || nonce (2) -> RejNTTPoly, [0, q); exact".to_string(),
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 1, 2], RHO_NONCE),
    |o, check, case| {
        let a = o.poly_uniform(&check.params(), &bytes_array(&case.bytes)?);
        answered(a, |a| polys_out(&[a]))
    },
);

pub static POLY_UNIFORM_ETA: Def = sampler(
    "poly_uniform_eta{eta}",
    Over::Etas,
    (&["rej_eta"], "rej_eta"),
    |c| {
        format!(
            "rho' (64) || nonce (2) -> RejBoundedPoly, [-{0}, {0}]; exact",
            c.params().eta.value()
        )
    },
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 1, 2], RHOP_NONCE),
    |o, check, case| {
        let seed = bytes_array(&case.bytes)?;
        let a = o.poly_uniform_eta(&check.params(), check.params().eta, &seed);
        answered(a, |a| polys_out(&[a]))
    },
);

pub static POLY_UNIFORM_GAMMA1: Def = sampler(
    "poly_uniform_gamma1_{g1}",
    Over::Gamma1s,
    (&["unpack_z"], "unpack_z"),
    |c| {
        format!(
            "rho'' (64) || nonce (2) -> ExpandMask poly, (-{0}, {0}]; exact",
            c.params().gamma1.value()
        )
    },
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 1, 2], RHOP_NONCE),
    |o, check, case| {
        let seed = bytes_array(&case.bytes)?;
        let a = o.poly_uniform_gamma1(&check.params(), check.params().gamma1, &seed);
        answered(a, |a| polys_out(&[a]))
    },
);

/// An expand_mask case: rho'' (64 bytes) then kappa (2 bytes, little-endian). Edge cases:
/// kappa 0, the last multiple of l (kappa + r wraps past 2^16 for l = 5 and 7), and l; random
/// ones take Sign's kappa (a multiple of l, which PQClean's polyvecl_uniform_gamma1 takes)
/// three times in four, else any.
fn gen_expand_mask(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let l = u16::try_from(check.params().l).expect("l < 8");
    let mut case = fixed_or_random(src, edge, index, &[0, 0xff, 0x5a], 64)?;
    let kappa = match (edge, index) {
        (true, 0) => 0,
        (true, 1) => u16::MAX - u16::MAX % l,
        (true, _) => l,
        _ if src.chance(3, 4)? => l * src.int_in(0, i64::from(u16::MAX / l))? as u16,
        _ => src.int_in(0, i64::from(u16::MAX))? as u16,
    };
    case.bytes.extend_from_slice(&kappa.to_le_bytes());
    Ok(case)
}

pub static EXPAND_MASK: Def = sampler(
    "expand_mask_{set}",
    Over::Sets,
    (&["unpack_z"], "unpack_z"),
    |c| {
        let p = c.params();
        format!(
            "rho'' (64) || kappa (2, little-endian) -> ExpandMask, {} polys in (-{1}, {1}]; exact",
            p.l,
            p.gamma1.value()
        )
    },
    gen_expand_mask,
    |o, check, case| {
        let seed: [u8; RHOP_NONCE] = bytes_array(&case.bytes)?;
        let (rhopp, kappa) = seed.split_at(64);
        let kappa = u16::from_le_bytes([kappa[0], kappa[1]]);
        let y = o.expand_mask(&check.params(), rhopp.try_into().ok()?, kappa);
        answered(y, |y| polys_out(&y))
    },
);

pub static CHALLENGE: Def = sampler(
    "challenge_{set}",
    Over::Sets,
    (&["keccak_f1600"], "keccak"),
    |c| {
        let p = c.params();
        format!(
            "c~ ({} bytes) -> SampleInBall, tau = {}; exact",
            p.ctilde_bytes(),
            p.tau
        )
    },
    |check, index, edge, src| {
        let len = check.params().ctilde_bytes();
        fixed_or_random(src, edge, index, &[0, 0xff, 0x5a], len)
    },
    |o, check, case| {
        let p = check.params();
        let ct = bytes_of_len(&case.bytes, p.ctilde_bytes())?;
        answered(o.sample_in_ball(&p, ct), |c| polys_out(&[c]))
    },
);

pub static EXPAND_A: Def = sampler(
    "expand_a_{set}",
    Over::Sets,
    (&["rej_uniform", "ntt_order_from_canonical"], "rej_uniform"),
    |c| {
        let p = c.params();
        format!(
            "rho (32) -> A-hat, {} x {} polys in [0, q); exact in canonical NTT order",
            p.k, p.l
        )
    },
    |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 0xff, 0x5a], SEED_BYTES),
    |o, check, case| {
        let m = o.expand_a(&check.params(), &bytes_array(&case.bytes)?);
        answered(m, |m| polys_out(&m))
    },
);
