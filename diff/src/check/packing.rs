//! Bit packing and unpacking of t1, t0, s1/s2, z, w1 and the hint (FIPS 204 Alg. 16-21).

use super::arith::a_kernel;
use super::def::{Check, Def, Family, GenFn, Over, POLYS, RunFn, Variant};
use super::inputs::{bytes_in, bytes_of_len, bytes_out, polys_in, polys_out, to_vecs};
use crate::model::{Case, Output, Verdict};
use crate::oracle::{Got, Oracle, answered};
use crate::source::{Drawn, Source};
use mldsa::backend::Backend;
use mldsa::backend::contract::{self, Contract};
use mldsa::params::{N, POLY_T0_BYTES, POLY_T1_BYTES, Params};
use mldsa::poly::Poly;

const fn pack(
    name: &'static str,
    over: Over,
    kernel: &'static [&'static str],
    contract: fn(Check) -> Contract,
    run: RunFn,
) -> Def {
    Def {
        over,
        family: Family::Packing,
        ..a_kernel(name, kernel, contract, run)
    }
}

/// A packing kernel's run: `op` packs the polynomial (each check passes its own; no
/// dispatch on the check's name).
fn pack_run(
    o: &dyn Oracle,
    check: Check,
    case: &Case,
    op: fn(&dyn Oracle, &Params, &Poly) -> Got<Vec<u8>>,
) -> Option<Output> {
    let a = polys_in(case, 1)?.pop()?;
    answered(op(o, &check.params(), &a), bytes_out)
}

/// Packed bytes: edge fills, mostly valid encodings for s1/s2 (so implementations without a
/// range check compare too), else random.
fn gen_unpack(
    check: Check,
    index: usize,
    edge: bool,
    src: &mut dyn Source,
    len: usize,
) -> Drawn<Case> {
    let bytes = if edge {
        vec![[0x00, 0xff, 0x55][index]; len]
    } else {
        // The choice is drawn for every unpacking check; only s1/s2 use it.
        let valid = src.chance(3, 4)?;
        match check.variant {
            Variant::Eta(e) if valid => {
                let mut a = Poly::ZERO;
                for c in a.coeffs.iter_mut() {
                    *c = src.int_in(-i64::from(e.value()), e.value().into())? as i32;
                }
                let mut b = vec![0u8; len];
                mldsa::backend::Portable.pack_eta(e, &mut b, &a);
                b
            }
            _ => src.bytes(len)?,
        }
    };
    Ok(bytes_in(bytes))
}

const fn unpack(
    name: &'static str,
    over: Over,
    kernel: &'static [&'static str],
    contract: Option<fn(Check) -> Contract>,
    generate: GenFn,
    run: RunFn,
) -> Def {
    Def {
        over,
        contract,
        ..Def::new(name, Family::Packing, (kernel, kernel[0]), generate, run)
    }
}

/// An unpacking kernel's run: `op` decodes the check's `len` bytes.
fn unpack_run(
    o: &dyn Oracle,
    check: Check,
    case: &Case,
    len: usize,
    op: fn(&dyn Oracle, &Params, &[u8]) -> Got<Poly>,
) -> Option<Output> {
    let buf = bytes_of_len(&case.bytes, len)?;
    answered(op(o, &check.params(), buf), |a| polys_out(&[a]))
}

pub static PACK_T1: Def = pack(
    "pack_t1",
    Over::Nothing,
    &["pack_t1"],
    |_| contract::PACK_T1,
    |o, check, case| pack_run(o, check, case, |o, p, a| o.pack_t1(p, a)),
);
pub static UNPACK_T1: Def = unpack(
    "unpack_t1",
    Over::Nothing,
    &["unpack_t1"],
    Some(|_| contract::UNPACK_T1),
    |c, i, e, s| gen_unpack(c, i, e, s, POLY_T1_BYTES),
    |o, check, case| {
        unpack_run(o, check, case, POLY_T1_BYTES, |o, p, buf| {
            o.unpack_t1(p, buf)
        })
    },
);
pub static PACK_T0: Def = pack(
    "pack_t0",
    Over::Nothing,
    &["pack_t0"],
    |_| contract::PACK_T0,
    |o, check, case| pack_run(o, check, case, |o, p, a| o.pack_t0(p, a)),
);
pub static UNPACK_T0: Def = unpack(
    "unpack_t0",
    Over::Nothing,
    &["unpack_t0"],
    Some(|_| contract::UNPACK_T0),
    |c, i, e, s| gen_unpack(c, i, e, s, POLY_T0_BYTES),
    |o, check, case| {
        unpack_run(o, check, case, POLY_T0_BYTES, |o, p, buf| {
            o.unpack_t0(p, buf)
        })
    },
);
pub static PACK_ETA: Def = pack(
    "pack_eta{eta}",
    Over::Etas,
    &["pack_eta"],
    |c| contract::pack_eta(c.params().eta),
    |o, check, case| pack_run(o, check, case, |o, p, a| o.pack_eta(p, p.eta, a)),
);
pub static UNPACK_ETA: Def = Def {
    about: Some(|c| {
        format!(
            "{} bytes -> coefficients and in-range verdict; exact",
            c.params().eta.poly_eta_bytes()
        )
    }),
    ..unpack(
        "unpack_eta{eta}",
        Over::Etas,
        &["unpack_eta"],
        None,
        |c, i, e, s| gen_unpack(c, i, e, s, c.params().eta.poly_eta_bytes()),
        |o, check, case| {
            let e = check.params().eta;
            let buf = bytes_of_len(&case.bytes, e.poly_eta_bytes())?;
            answered(o.unpack_eta(&check.params(), e, buf), |(a, ok)| Output {
                verdict: if ok {
                    Verdict::InRange
                } else {
                    Verdict::OutOfRange
                },
                ..polys_out(&[a])
            })
        },
    )
};
// A planted unpack_eta bug that only the range check notices is measured on the
// sign_malformed_sk checks ("unpack_eta_range").
pub static PACK_Z: Def = pack(
    "pack_z{g1}",
    Over::Gamma1s,
    &["pack_z"],
    |c| contract::pack_z(c.params().gamma1),
    |o, check, case| pack_run(o, check, case, |o, p, a| o.pack_z(p, p.gamma1, a)),
);
pub static UNPACK_Z: Def = unpack(
    "unpack_z{g1}",
    Over::Gamma1s,
    &["unpack_z"],
    Some(|c| contract::pack_z(c.params().gamma1)),
    |c, i, e, s| gen_unpack(c, i, e, s, c.params().gamma1.poly_z_bytes()),
    |o, check, case| {
        let g = check.params().gamma1;
        unpack_run(o, check, case, g.poly_z_bytes(), |o, p, buf| {
            o.unpack_z(p, p.gamma1, buf)
        })
    },
);
pub static PACK_W1: Def = pack(
    "pack_w1_{g2}",
    Over::Gamma2s,
    &["pack_w1"],
    |c| contract::pack_w1(c.params().gamma2),
    |o, check, case| pack_run(o, check, case, |o, p, a| o.pack_w1(p, p.gamma2, a)),
);

/// k polynomials with `ones` ones in total at distinct random positions.
fn random_hint(src: &mut dyn Source, p: &Params, ones: usize, edge: bool) -> Drawn<Vec<Vec<i32>>> {
    let mut h = vec![vec![0i32; N]; p.k];
    let mut placed = 0;
    while placed < ones {
        let (i, j) = if edge {
            (placed % p.k, (placed * 53) % N)
        } else {
            (
                src.int_in(0, p.k as i64 - 1)? as usize,
                src.int_in(0, N as i64 - 1)? as usize,
            )
        };
        if h[i][j] == 0 {
            h[i][j] = 1;
            placed += 1;
        }
    }
    Ok(h)
}

/// The hint polynomials of a case, if they are k polynomials of 0/1 with at most omega ones
/// (the contract of HintBitPack: PQClean's pack_sig writes past its buffer otherwise).
fn hint_in(case: &Case, p: &Params) -> Option<Vec<Poly>> {
    let h = polys_in(case, p.k)?;
    let ones: usize = h
        .iter()
        .map(|x| x.coeffs.iter().filter(|&&c| c != 0).count())
        .sum();
    (h.iter().all(|x| contract::HINT_BITS.holds(&x.coeffs)) && ones <= p.omega).then_some(h)
}

pub static PACK_HINT: Def = Def {
    over: Over::Sets,
    about: Some(|c| {
        let p = c.params();
        format!(
            "{} polys of 0/1, at most {} ones -> {} bytes; exact",
            p.k,
            p.omega,
            p.omega + p.k
        )
    }),
    takes: POLYS,
    ..Def::new(
        "pack_hint_{set}",
        Family::Packing,
        (&["pack_hint"], "pack_hint"),
        |check, index, edge, src| {
            let p = check.params();
            let ones = if edge {
                [0, p.omega, 1][index]
            } else {
                src.int_in(0, p.omega as i64)? as usize
            };
            Ok(Case {
                polys: random_hint(src, &p, ones, edge)?,
                ..Case::default()
            })
        },
        |o, check, case| {
            let p = check.params();
            let h = hint_in(case, &p)?;
            answered(o.pack_hint(&p, &h), bytes_out)
        },
    )
};

/// A hint encoding: valid, valid with one byte changed, or random bytes.
fn hint_bytes(src: &mut dyn Source, p: &Params, edge: bool, index: usize) -> Drawn<Vec<u8>> {
    let len = p.omega + p.k;
    if edge {
        return Ok(match index {
            0 => vec![0; len],
            1 => vec![0xff; len],
            _ => {
                let mut v = vec![0; len];
                v[p.omega..].fill(p.omega as u8);
                v
            }
        });
    }
    if src.chance(1, 4)? {
        return src.bytes(len);
    }
    let ones = src.int_in(0, p.omega as i64)? as usize;
    let h: Vec<Poly> = random_hint(src, p, ones, false)?
        .into_iter()
        .map(|v| Poly::from_coeffs(v.try_into().expect("N coefficients")))
        .collect();
    let mut out = vec![0u8; len];
    mldsa::backend::Portable.pack_hint(&mut out, &h, p.omega);
    if src.chance(1, 2)? {
        let at = src.int_in(0, len as i64 - 1)? as usize;
        out[at] = src.int_in(0, 255)? as u8;
    }
    Ok(out)
}

pub static UNPACK_HINT: Def = Def {
    about: Some(|c| {
        let p = c.params();
        format!(
            "{} bytes -> accept/reject (FIPS 204 Alg. 21) and h; exact",
            p.omega + p.k
        )
    }),
    ..unpack(
        "unpack_hint_{set}",
        Over::Sets,
        &["unpack_hint"],
        None,
        |check, index, edge, src| Ok(bytes_in(hint_bytes(src, &check.params(), edge, index)?)),
        |o, check, case| {
            let p = check.params();
            let buf = bytes_of_len(&case.bytes, p.omega + p.k)?;
            answered(o.unpack_hint(&p, buf), |h| Output {
                verdict: Verdict::accept(h.is_some()),
                polys: h.as_deref().map(to_vecs).unwrap_or_default(),
                ..Output::default()
            })
        },
    )
};
