//! Arithmetic kernels: polynomial inputs drawn from each kernel's contract (edge patterns
//! first, then random values, rounding boundaries over-represented where they matter).

use super::def::{Check, Def, Family, Over, POLYS, Takes, slots};
use super::inputs::{EDGE_PATTERNS, boundary_poly, edge_poly, polys_in, polys_out, random_poly};
use crate::model::{Case, Output};
use crate::oracle::{Got, Oracle, answered};
use crate::source::{Drawn, Source};
use mldsa::backend::contract::{self, Bounds, Contract};
use mldsa::params::{Params, Q};
use mldsa::poly::Poly;

/// How a random (non-edge) polynomial within bounds `b` is drawn for a check.
type RandomFn = fn(Check, Bounds, &mut dyn Source) -> Drawn<Vec<i32>>;

/// Inputs of decompose, make_hint and use_hint, over-representing the rounding boundaries
/// of Decompose (multiples of 2 gamma2, offset by gamma2) in the inputs it rounds: those in
/// [0, q-1] (decompose, use_hint's r) and make_hint's signed a0; the others (use_hint's and
/// make_hint's other input) drawn uniformly.
fn near_gamma2_steps(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    from_contract_with(check, index, edge, src, |check, b, src| {
        if b.lo < 0 || b.hi >= Q - 1 {
            let g = i64::from(check.params().gamma2.value());
            boundary_poly(src, b, 2 * g, g)
        } else {
            random_poly(src, b)
        }
    })
}

/// Polynomial inputs from the contract, random ones drawn uniformly.
pub(super) fn from_contract(
    check: Check,
    index: usize,
    edge: bool,
    src: &mut dyn Source,
) -> Drawn<Case> {
    from_contract_with(check, index, edge, src, |_, b, src| random_poly(src, b))
}

/// Polynomial inputs within the contract's bounds ([`Check::input_bounds`]), random ones
/// drawn by `random`.
fn from_contract_with(
    check: Check,
    index: usize,
    edge: bool,
    src: &mut dyn Source,
    random: RandomFn,
) -> Drawn<Case> {
    let mut case = Case::default();
    for b in check.input_bounds() {
        case.polys.push(if edge {
            edge_poly(b, index)
        } else {
            random(check, b, src)?
        });
    }
    Ok(case)
}

/// A bound, and coefficients mostly just inside it with the odd one on it.
fn chknorm_case(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let mut case = from_contract(check, index, edge, src)?;
    let bound = if edge {
        [
            0,
            1,
            95_232 - 78,
            261_888 - 196,
            (1 << 17) - 78,
            (1 << 19) - 196,
            (Q - 1) / 8,
        ][index % 7]
    } else {
        src.int_in(0, i64::from((Q - 1) / 8))? as i32
    };
    case.scalar = bound.into();
    if !edge {
        case.polys[0] = random_poly(src, Bounds::centered((bound - 1).max(0)))?;
        if src.chance(1, 2)? {
            let i = src.int_in(0, mldsa::params::N as i64 - 1)? as usize;
            case.polys[0][i] = super::inputs::pick(src, &[bound, -bound, bound - 1, 1 - bound])?;
        }
    }
    Ok(case)
}

fn unary(
    o: &dyn Oracle,
    check: Check,
    case: &Case,
    op: fn(&dyn Oracle, &Params, Poly) -> Got<Poly>,
) -> Option<Output> {
    let a = polys_in(case, 1)?.pop()?;
    answered(op(o, &check.params(), a), |a| polys_out(&[a]))
}

fn binary(
    o: &dyn Oracle,
    check: Check,
    case: &Case,
    op: fn(&dyn Oracle, &Params, &Poly, &Poly) -> Got<Poly>,
) -> Option<Output> {
    let v = polys_in(case, 2)?;
    answered(op(o, &check.params(), &v[0], &v[1]), |a| polys_out(&[a]))
}

/// A kernel splitting one polynomial in two (power2round, decompose).
type SplitOp = fn(&dyn Oracle, &Params, &Poly) -> Got<(Poly, Poly)>;

fn split(o: &dyn Oracle, check: Check, case: &Case, op: SplitOp) -> Option<Output> {
    let a = polys_in(case, 1)?.pop()?;
    answered(op(o, &check.params(), &a), |(x, y)| polys_out(&[x, y]))
}

/// A kernel on one polynomial drawn from `contract`; its first kernel is its planted bug.
pub(super) const fn a_kernel(
    name: &'static str,
    kernel: &'static [&'static str],
    contract: fn(Check) -> Contract,
    run: super::def::RunFn,
) -> Def {
    Def {
        contract: Some(contract),
        poly_inputs: |_| 1,
        edge_cases: EDGE_PATTERNS,
        takes: POLYS,
        ..Def::new(name, Family::Arith, (kernel, kernel[0]), from_contract, run)
    }
}

// NTT-domain values travel in canonical order; each implementation may keep its own.
pub static NTT: Def = a_kernel(
    "ntt",
    &["ntt", "ntt_order_to_canonical"],
    |_| contract::NTT,
    |o, check, case| unary(o, check, case, |o, p, a| o.ntt(p, a)),
);
pub static INVNTT_TOMONT: Def = a_kernel(
    "invntt_tomont",
    &["invntt_tomont", "ntt_order_from_canonical"],
    |_| contract::INVNTT_TOMONT,
    |o, check, case| unary(o, check, case, |o, p, a| o.invntt_tomont(p, a)),
);
pub static POINTWISE: Def = Def {
    poly_inputs: |_| 2,
    ..a_kernel(
        "pointwise_montgomery",
        &["pointwise_montgomery"],
        |_| contract::POINTWISE,
        |o, check, case| binary(o, check, case, |o, p, a, b| o.pointwise_montgomery(p, a, b)),
    )
};
pub static POINTWISE_ACC: Def = Def {
    over: Over::Sets,
    poly_inputs: |c| 2 * c.params().l,
    ..a_kernel(
        "pointwise_acc_l{l}",
        &["pointwise_acc_montgomery"],
        |_| contract::POINTWISE_ACC,
        |o, check, case| {
            let l = check.params().l;
            let v = polys_in(case, 2 * l)?;
            let w = o.pointwise_acc_montgomery(&check.params(), &v[..l], &v[l..]);
            answered(w, |w| polys_out(&[w]))
        },
    )
};
pub static REDUCE: Def = a_kernel(
    "reduce",
    &["reduce"],
    |_| contract::REDUCE,
    |o, check, case| unary(o, check, case, |o, p, a| o.reduce(p, a)),
);
pub static CADDQ: Def = a_kernel(
    "caddq",
    &["caddq"],
    |_| contract::CADDQ,
    |o, check, case| unary(o, check, case, |o, p, a| o.caddq(p, a)),
);
pub static ADD: Def = Def {
    poly_inputs: |_| 2,
    ..a_kernel(
        "add",
        &["add"],
        |_| contract::ADD,
        |o, check, case| binary(o, check, case, |o, p, a, b| o.add(p, a, b)),
    )
};
pub static SUB: Def = Def {
    poly_inputs: |_| 2,
    ..a_kernel(
        "sub",
        &["sub"],
        |_| contract::SUB,
        |o, check, case| binary(o, check, case, |o, p, a, b| o.sub(p, a, b)),
    )
};
pub static SHIFTL: Def = a_kernel(
    "shiftl",
    &["shiftl"],
    |_| contract::SHIFTL,
    |o, check, case| unary(o, check, case, |o, p, a| o.shiftl(p, a)),
);
pub static POWER2ROUND: Def = Def {
    // Over-representing the rounding boundaries: multiples of 2^d, offset by 2^(d-1).
    generate: |c, i, e, s| {
        from_contract_with(c, i, e, s, |_, b, src| {
            boundary_poly(src, b, 1 << 13, 1 << 12)
        })
    },
    ..a_kernel(
        "power2round",
        &["power2round"],
        |_| contract::POWER2ROUND,
        |o, check, case| split(o, check, case, |o, p, a| o.power2round(p, a)),
    )
};
pub static DECOMPOSE: Def = Def {
    over: Over::Gamma2s,
    generate: near_gamma2_steps,
    ..a_kernel(
        "decompose_{g2}",
        &["decompose"],
        |c| contract::decompose(c.params().gamma2),
        |o, check, case| split(o, check, case, |o, p, a| o.decompose(p, p.gamma2, a)),
    )
};
pub static MAKE_HINT: Def = Def {
    over: Over::Gamma2s,
    generate: near_gamma2_steps,
    poly_inputs: |_| 2,
    ..a_kernel(
        "make_hint_{g2}",
        &["make_hint"],
        |c| contract::make_hint(c.params().gamma2),
        |o, check, case| {
            let v = polys_in(case, 2)?;
            let h = o.make_hint(&check.params(), check.params().gamma2, &v[0], &v[1]);
            answered(h, |(h, n)| Output {
                scalar: n as i64,
                ..polys_out(&[h])
            })
        },
    )
};
pub static USE_HINT: Def = Def {
    over: Over::Gamma2s,
    generate: near_gamma2_steps,
    poly_inputs: |_| 2,
    ..a_kernel(
        "use_hint_{g2}",
        &["use_hint"],
        |c| contract::use_hint(c.params().gamma2),
        |o, check, case| {
            let v = polys_in(case, 2)?;
            let r = o.use_hint(&check.params(), check.params().gamma2, &v[0], &v[1]);
            answered(r, |r| polys_out(&[r]))
        },
    )
};
pub static CHKNORM: Def = Def {
    generate: chknorm_case,
    takes: Takes::just(slots![Polys, Scalar]),
    about: Some(|check| {
        let c = super::def::describe_contract(check.contract().expect("chknorm has a contract"));
        let inputs = c.split(" ->").next().unwrap_or_default();
        format!("{inputs}, bound in [0, (q-1)/8] -> bool; exact")
    }),
    ..a_kernel(
        "chknorm",
        &["chknorm"],
        |_| contract::CHKNORM,
        |o, check, case| {
            let a = polys_in(case, 1)?.pop()?;
            let bound = chknorm_bound(case)?;
            answered(o.chknorm(&check.params(), &a, bound), |r| Output {
                scalar: i64::from(r),
                ..Output::default()
            })
        },
    )
};

/// chknorm's bound, if it is within the contract.
fn chknorm_bound(case: &Case) -> Option<i32> {
    (0..=i64::from((Q - 1) / 8))
        .contains(&case.scalar)
        .then_some(case.scalar as i32)
}
