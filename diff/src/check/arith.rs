//! Arithmetic kernels: polynomial inputs drawn from each kernel's contract (edge patterns
//! first, then random values, rounding boundaries over-represented where they matter).

use super::def::{Answer, Check, Def, Family, Over, Variant, gamma2};
use super::guard::{Guarded, checked};
use super::inputs::{
    EDGE_PATTERNS, boundary_poly, edge_poly, poly, polys_in, polys_out, random_poly,
};
use crate::kernels::Kernels;
use crate::model::{Case, Output};
use crate::pqclean::{CImpl, CKernels};
use crate::source::{Exhausted, Source};
use mldsa::backend::contract::{self, Bounds, Contract};
use mldsa::params::Q;
use mldsa::poly::Poly;

fn l_of(v: Variant) -> usize {
    match v {
        Variant::Set(p) => p.l,
        _ => unreachable!("a parameter-set check"),
    }
}

/// How a random (non-edge) polynomial within bounds `b` is drawn.
fn random_in(check: Check, b: Bounds, src: &mut dyn Source) -> Result<Vec<i32>, Exhausted> {
    let g = |c: Check| i64::from(gamma2(c.variant).value());
    match check.def.name {
        "decompose_{g2}" | "use_hint_{g2}" if b.hi >= Q - 1 => {
            boundary_poly(src, b, 2 * g(check), g(check))
        }
        "make_hint_{g2}" if b.lo < 0 => boundary_poly(src, b, 2 * g(check), g(check)),
        "power2round" => boundary_poly(src, b, 1 << 13, 1 << 12),
        _ => random_poly(src, b),
    }
}

/// Polynomial inputs from the contract: the first from `input[0]`, a second one from
/// `input[1]` where the contract bounds it separately (make_hint, use_hint), else all from
/// `input[0]`.
pub(super) fn from_contract(
    check: Check,
    index: usize,
    edge: bool,
    src: &mut dyn Source,
) -> Result<Case, Exhausted> {
    let c = check.contract().expect("arithmetic checks have contracts");
    let n = check.poly_inputs();
    let bounds = if n == 2 && c.input[1] != contract::ANY && c.input[1] != c.input[0] {
        vec![c.input[0], c.input[1]]
    } else {
        vec![c.input[0]; n]
    };
    let mut case = Case::default();
    for b in bounds {
        case.polys.push(if edge {
            edge_poly(b, index)
        } else {
            random_in(check, b, src)?
        });
    }
    Ok(case)
}

/// A bound, and coefficients mostly just inside it with the odd one on it.
fn chknorm_case(
    check: Check,
    index: usize,
    edge: bool,
    src: &mut dyn Source,
) -> Result<Case, Exhausted> {
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

fn one(_: Variant) -> usize {
    1
}
fn two(_: Variant) -> usize {
    2
}

/// A kernel on one polynomial in place: `op` runs it on the guarded copy. Each check passes
/// its own `op` (no dispatch on the check's name).
fn unary(
    b: &dyn Kernels,
    check: Check,
    case: &Case,
    op: fn(&dyn Kernels, &mut Poly),
) -> Option<Output> {
    let mut g = Guarded::new(poly(case, 0)?);
    polys_in(case, 1)?;
    op(b, &mut g.v);
    Some(checked(
        check.def.kernels[0],
        &[g.violation()],
        polys_out(&[g.v]),
    ))
}

/// The same through PQClean: `op` gets the C implementation (for its coefficient order) and
/// the polynomial.
fn c_unary(
    c: &CImpl,
    check: Check,
    case: &Case,
    op: fn(&CImpl, &CKernels, &mut Poly) -> Option<()>,
) -> Option<Output> {
    let t = c.table(&check.params());
    let mut a = poly(case, 0)?;
    polys_in(case, 1)?;
    op(c, t, &mut a)?;
    Some(polys_out(&[a]))
}

const fn a_kernel(
    name: &'static str,
    kernel: &'static [&'static str],
    contract: fn(Variant) -> Contract,
    rust: super::def::RustFn,
    c: super::def::CFn,
) -> Def {
    Def {
        name,
        over: Over::Nothing,
        family: Family::Arith,
        kernels: kernel,
        contract: Some(contract),
        about: None,
        planted: kernel[0],
        poly_inputs: one,
        edge_cases: EDGE_PATTERNS,
        generate: from_contract,
        rust,
        c: Some(c),
        native: None,
        peer: None,
        answer: Answer::Output,
    }
}

pub(super) static NTT: Def = Def {
    native: super::native::NTT,
    // NTT-domain values travel in canonical order; the backend may keep its own.
    ..a_kernel(
        "ntt",
        &["ntt", "ntt_order_to_canonical"],
        |_| contract::NTT,
        |b, check, case| {
            unary(b, check, case, |b, a| {
                b.ntt(a);
                b.ntt_order_to_canonical(a);
            })
        },
        |c, check, case| {
            c_unary(c, check, case, |c, t, a| {
                t.ntt(a)?;
                *a = c.to_canonical(a);
                Some(())
            })
        },
    )
};
pub(super) static INVNTT_TOMONT: Def = Def {
    native: super::native::INVNTT_TOMONT,
    ..a_kernel(
        "invntt_tomont",
        &["invntt_tomont", "ntt_order_from_canonical"],
        |_| contract::INVNTT_TOMONT,
        |b, check, case| {
            unary(b, check, case, |b, a| {
                b.ntt_order_from_canonical(a);
                b.invntt_tomont(a);
            })
        },
        |c, check, case| {
            c_unary(c, check, case, |c, t, a| {
                *a = c.to_own_order(a);
                t.invntt_tomont(a)
            })
        },
    )
};
pub(super) static POINTWISE: Def = Def {
    native: super::native::POINTWISE,
    poly_inputs: two,
    ..a_kernel(
        "pointwise_montgomery",
        &["pointwise_montgomery"],
        |_| contract::POINTWISE,
        |b, _, case| {
            let v = polys_in(case, 2)?;
            let mut c = Guarded::new(Poly::ZERO);
            b.pointwise_montgomery(&mut c.v, &v[0], &v[1]);
            Some(checked(
                "pointwise_montgomery",
                &[c.violation()],
                polys_out(&[c.v]),
            ))
        },
        // Coefficient-wise: no reordering needed.
        |c, check, case| {
            let v = polys_in(case, 2)?;
            Some(polys_out(&[c
                .table(&check.params())
                .pointwise(&v[0], &v[1])?]))
        },
    )
};
pub(super) static POINTWISE_ACC: Def = Def {
    native: super::native::POINTWISE_ACC,
    over: Over::Sets,
    poly_inputs: |v| 2 * l_of(v),
    ..a_kernel(
        "pointwise_acc_l{l}",
        &["pointwise_acc_montgomery"],
        |_| contract::POINTWISE_ACC,
        |b, check, case| {
            let l = l_of(check.variant);
            let v = polys_in(case, 2 * l)?;
            let mut c = Guarded::new(Poly::ZERO);
            b.pointwise_acc_montgomery(&mut c.v, &v[..l], &v[l..]);
            Some(checked(
                "pointwise_acc_montgomery",
                &[c.violation()],
                polys_out(&[c.v]),
            ))
        },
        |c, check, case| {
            let l = l_of(check.variant);
            let v = polys_in(case, 2 * l)?;
            Some(polys_out(&[c
                .table(&check.params())
                .pointwise_acc(&v[..l], &v[l..])?]))
        },
    )
};
pub(super) static REDUCE: Def = a_kernel(
    "reduce",
    &["reduce"],
    |_| contract::REDUCE,
    |b, check, case| unary(b, check, case, |b, a| b.reduce(a)),
    |c, check, case| c_unary(c, check, case, |_, t, a| t.reduce(a)),
);
pub(super) static CADDQ: Def = Def {
    native: super::native::CADDQ,
    ..a_kernel(
        "caddq",
        &["caddq"],
        |_| contract::CADDQ,
        |b, check, case| unary(b, check, case, |b, a| b.caddq(a)),
        |c, check, case| c_unary(c, check, case, |_, t, a| t.caddq(a)),
    )
};

/// `a op= b` (add or sub), the check's own `op`.
fn add_sub(
    b: &dyn Kernels,
    check: Check,
    case: &Case,
    op: fn(&dyn Kernels, &mut Poly, &Poly),
) -> Option<Output> {
    let v = polys_in(case, 2)?;
    let mut a = Guarded::new(v[0]);
    op(b, &mut a.v, &v[1]);
    Some(checked(
        check.def.kernels[0],
        &[a.violation()],
        polys_out(&[a.v]),
    ))
}
fn c_add_sub(
    c: &CImpl,
    check: Check,
    case: &Case,
    op: fn(&CKernels, &Poly, &Poly) -> Option<Poly>,
) -> Option<Output> {
    let v = polys_in(case, 2)?;
    Some(polys_out(&[op(c.table(&check.params()), &v[0], &v[1])?]))
}
pub(super) static ADD: Def = Def {
    poly_inputs: two,
    ..a_kernel(
        "add",
        &["add"],
        |_| contract::ADD,
        |b, check, case| add_sub(b, check, case, |b, a, x| b.add(a, x)),
        |c, check, case| c_add_sub(c, check, case, |t, a, x| t.add(a, x)),
    )
};
pub(super) static SUB: Def = Def {
    poly_inputs: two,
    ..a_kernel(
        "sub",
        &["sub"],
        |_| contract::SUB,
        |b, check, case| add_sub(b, check, case, |b, a, x| b.sub(a, x)),
        |c, check, case| c_add_sub(c, check, case, |t, a, x| t.sub(a, x)),
    )
};
pub(super) static SHIFTL: Def = a_kernel(
    "shiftl",
    &["shiftl"],
    |_| contract::SHIFTL,
    |b, check, case| unary(b, check, case, |b, a| b.shiftl(a)),
    |c, check, case| c_unary(c, check, case, |_, t, a| t.shiftl(a)),
);

fn split(b: &dyn Kernels, check: Check, case: &Case) -> Option<Output> {
    let a = poly(case, 0)?;
    polys_in(case, 1)?;
    let (mut x, mut y) = (Guarded::new(Poly::ZERO), Guarded::new(Poly::ZERO));
    let kernel = match check.variant {
        Variant::Gamma2(g) => {
            b.decompose(g, &mut x.v, &mut y.v, &a);
            "decompose"
        }
        _ => {
            b.power2round(&mut x.v, &mut y.v, &a);
            "power2round"
        }
    };
    Some(checked(
        kernel,
        &[x.violation(), y.violation()],
        polys_out(&[x.v, y.v]),
    ))
}
fn c_split(c: &CImpl, check: Check, case: &Case) -> Option<Output> {
    let a = poly(case, 0)?;
    polys_in(case, 1)?;
    let t = c.table(&check.params());
    let (x, y) = match check.variant {
        Variant::Gamma2(_) => t.decompose(&a)?,
        _ => t.power2round(&a)?,
    };
    Some(polys_out(&[x, y]))
}
pub(super) static POWER2ROUND: Def = a_kernel(
    "power2round",
    &["power2round"],
    |_| contract::POWER2ROUND,
    split,
    c_split,
);
pub(super) static DECOMPOSE: Def = Def {
    native: super::native::DECOMPOSE,
    over: Over::Gamma2s,
    ..a_kernel(
        "decompose_{g2}",
        &["decompose"],
        |v| contract::decompose(gamma2(v)),
        split,
        c_split,
    )
};
pub(super) static MAKE_HINT: Def = Def {
    over: Over::Gamma2s,
    poly_inputs: two,
    ..a_kernel(
        "make_hint_{g2}",
        &["make_hint"],
        |v| contract::make_hint(gamma2(v)),
        |b, check, case| {
            let v = polys_in(case, 2)?;
            let mut h = Guarded::new(Poly::ZERO);
            let n = b.make_hint(gamma2(check.variant), &mut h.v, &v[0], &v[1]);
            let out = Output {
                scalar: n as i64,
                ..polys_out(&[h.v])
            };
            Some(checked("make_hint", &[h.violation()], out))
        },
        |c, check, case| {
            let v = polys_in(case, 2)?;
            let (h, n) = c.table(&check.params()).make_hint(&v[0], &v[1])?;
            Some(Output {
                scalar: i64::from(n),
                ..polys_out(&[h])
            })
        },
    )
};
pub(super) static USE_HINT: Def = Def {
    native: super::native::USE_HINT,
    over: Over::Gamma2s,
    poly_inputs: two,
    ..a_kernel(
        "use_hint_{g2}",
        &["use_hint"],
        |v| contract::use_hint(gamma2(v)),
        |b, check, case| {
            let v = polys_in(case, 2)?;
            let mut r = Guarded::new(Poly::ZERO);
            b.use_hint(gamma2(check.variant), &mut r.v, &v[0], &v[1]);
            Some(checked("use_hint", &[r.violation()], polys_out(&[r.v])))
        },
        |c, check, case| {
            let v = polys_in(case, 2)?;
            Some(polys_out(&[c
                .table(&check.params())
                .use_hint(&v[0], &v[1])?]))
        },
    )
};
pub(super) static CHKNORM: Def = Def {
    native: super::native::CHKNORM,
    generate: chknorm_case,
    about: Some(|check| {
        let c = super::def::describe_contract(check.contract().expect("chknorm has a contract"));
        let inputs = c.split(" ->").next().unwrap_or_default();
        format!("{inputs}, bound in [0, (q-1)/8] -> bool; exact")
    }),
    ..a_kernel(
        "chknorm",
        &["chknorm"],
        |_| contract::CHKNORM,
        |b, _, case| {
            let a = poly(case, 0)?;
            polys_in(case, 1)?;
            let bound = chknorm_bound(case)?;
            Some(Output {
                scalar: i64::from(b.chknorm(&a, bound)),
                ..Output::default()
            })
        },
        |c, check, case| {
            let a = poly(case, 0)?;
            polys_in(case, 1)?;
            let bound = chknorm_bound(case)?;
            Some(Output {
                scalar: i64::from(c.table(&check.params()).chknorm(&a, bound)?),
                ..Output::default()
            })
        },
    )
};

/// chknorm's bound, if it is within the contract.
pub(super) fn chknorm_bound(case: &Case) -> Option<i32> {
    (0..=i64::from((Q - 1) / 8))
        .contains(&case.scalar)
        .then_some(case.scalar as i32)
}
