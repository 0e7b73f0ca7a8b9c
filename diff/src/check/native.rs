//! The runs of the kernel checks on mldsa-native's native backend (x86_64 AVX2, AArch64),
//! through its backend interface (`src/native/api.h`) and the shim of ours that exports it.
//! How its contracts differ from the checks' is stated once, in
//! [`crate::mldsa_native::CONTRACT_DIFFERENCES`]; each difference is applied here and nowhere
//! else. Every input is checked against the kernel's own `api.h` contract before the call
//! (an input outside it is not answered, so no garbage is blamed on mldsa-native), and a
//! kernel answering -1 (fallback) does not answer the input.

use super::def::{Check, NativeFn, Variant};
use crate::mldsa_native::NativeKernels;
use crate::model::{Case, Output};

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod runs {
    use super::super::arith::chknorm_bound;
    use super::super::inputs::{bytes_of_len, poly, polys_in, polys_out};
    use super::super::packing::packed_len;
    use super::super::samplers::values_out;
    use super::*;
    use crate::mldsa_native::shim::{self, Rej, Unary};
    use crate::model::canonical;
    use mldsa::backend::contract::{self, Bounds};
    use mldsa::params::{Eta, Gamma1, Gamma2, Q};
    use mldsa::poly::Poly;

    /// Done (0) or not answered.
    fn done(r: i32) -> Option<()> {
        (r == 0).then_some(())
    }

    /// |a| < q: the NTT, inverse NTT and caddq inputs of `api.h`.
    const ABS_Q: Bounds = Bounds::centered(Q - 1);
    /// |a| < MLD_NTT_BOUND = 9 * (5q + 3) / 4: the pointwise products' inputs.
    const NTT_BOUND: Bounds = Bounds::centered(94_279_697);
    /// [0, q): decompose and use_hint.
    const CANONICAL: Bounds = Bounds::new(0, Q - 1);
    /// chknorm's input: [-6283009, 6283009).
    const CHKNORM_IN: Bounds = Bounds::new(-6_283_009, 6_283_008);

    /// Whether every coefficient of `polys` lies in `b` (the kernel's contract).
    fn within(polys: &[Poly], b: Bounds) -> Option<()> {
        polys.iter().all(|p| b.holds(&p.coeffs)).then_some(())
    }

    /// ntt, invntt_tomont and caddq (each check's own `op` on mldsa-native's kernels);
    /// NTT-domain values in canonical (bit-reversed) order, through mldsa-native's own
    /// permutation where its backend keeps another.
    fn unary(case: &Case, op: impl FnOnce(&mut Poly) -> Option<()>) -> Option<Output> {
        let mut a = poly(case, 0)?;
        polys_in(case, 1)?;
        within(&[a], ABS_Q)?;
        op(&mut a)?;
        Some(polys_out(&[a]))
    }

    pub(super) fn ntt(k: NativeKernels, _: Check, case: &Case) -> Option<Output> {
        unary(case, |a| {
            done(shim::unary(k, Unary::Ntt, a))?;
            shim::unary(k, Unary::Permute, a);
            Some(())
        })
    }

    pub(super) fn invntt_tomont(k: NativeKernels, _: Check, case: &Case) -> Option<Output> {
        unary(case, |a| {
            shim::unary(k, Unary::Permute, a);
            done(shim::unary(k, Unary::Intt, a))
        })
    }

    pub(super) fn caddq(k: NativeKernels, _: Check, case: &Case) -> Option<Output> {
        unary(case, |a| done(shim::unary(k, Unary::Caddq, a)))
    }

    pub(super) fn pointwise(k: NativeKernels, _: Check, case: &Case) -> Option<Output> {
        let v = polys_in(case, 2)?;
        within(&v, NTT_BOUND)?;
        let mut a = v[0];
        done(shim::pointwise(k, &mut a, &v[1]))?;
        Some(polys_out(&[a]))
    }

    pub(super) fn pointwise_acc(k: NativeKernels, check: Check, case: &Case) -> Option<Output> {
        let Variant::Set(p) = check.variant else {
            return None;
        };
        let v = polys_in(case, 2 * p.l)?;
        within(&v[p.l..], NTT_BOUND)?;
        // Its contract takes u in [0, q): u mod q is congruent, and outputs compare mod q.
        let u: Vec<Poly> = v[..p.l]
            .iter()
            .map(|x| {
                let mut y = *x;
                y.coeffs.iter_mut().for_each(|c| *c = canonical(*c));
                y
            })
            .collect();
        let mut w = Poly::ZERO;
        done(shim::pointwise_acc(k, &mut w, &u, &v[p.l..])?)?;
        Some(polys_out(&[w]))
    }

    pub(super) fn decompose(k: NativeKernels, check: Check, case: &Case) -> Option<Output> {
        let Variant::Gamma2(g) = check.variant else {
            return None;
        };
        let mut a0 = poly(case, 0)?;
        polys_in(case, 1)?;
        within(&[a0], CANONICAL)?;
        let mut a1 = Poly::ZERO;
        done(shim::decompose(
            k,
            g == Gamma2::QMinus1Over32,
            &mut a1,
            &mut a0,
        ))?;
        Some(polys_out(&[a1, a0]))
    }

    pub(super) fn use_hint(k: NativeKernels, check: Check, case: &Case) -> Option<Output> {
        let Variant::Gamma2(g) = check.variant else {
            return None;
        };
        let v = polys_in(case, 2)?;
        within(&v[..1], CANONICAL)?;
        within(&v[1..], contract::HINT_BITS)?;
        let mut a = v[0];
        done(shim::use_hint(k, g == Gamma2::QMinus1Over32, &mut a, &v[1]))?;
        Some(polys_out(&[a]))
    }

    pub(super) fn chknorm(k: NativeKernels, _: Check, case: &Case) -> Option<Output> {
        let a = poly(case, 0)?;
        polys_in(case, 1)?;
        let bound = chknorm_bound(case)?;
        within(&[a], CHKNORM_IN)?;
        let r = shim::chknorm(k, &a, bound);
        (r >= 0).then(|| Output {
            scalar: i64::from(r),
            ..Output::default()
        })
    }

    pub(super) fn rej(k: NativeKernels, check: Check, case: &Case) -> Option<Output> {
        let which = match check.variant {
            Variant::Eta(Eta::Two) => Rej::Eta2,
            Variant::Eta(Eta::Four) => Rej::Eta4,
            _ => Rej::Uniform,
        };
        let mut out = [0i32; 256];
        let n = shim::rej(k, which, &mut out, &case.bytes);
        let n = usize::try_from(n).ok()?;
        Some(values_out(&out, n.min(256)))
    }

    pub(super) fn unpack_z(k: NativeKernels, check: Check, case: &Case) -> Option<Output> {
        let Variant::Gamma1(g) = check.variant else {
            return None;
        };
        let buf = bytes_of_len(&case.bytes, packed_len(check))?;
        let mut a = Poly::ZERO;
        done(shim::unpack_z(k, g == Gamma1::Pow19, &mut a, buf))?;
        Some(polys_out(&[a]))
    }
}

/// A run that answers nothing (targets without a native backend).
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod runs {
    use super::*;
    macro_rules! none {
        ($($f:ident),*) => {$(
            pub(super) fn $f(_: NativeKernels, _: Check, _: &Case) -> Option<Output> {
                None
            }
        )*};
    }
    none!(
        ntt,
        invntt_tomont,
        caddq,
        pointwise,
        pointwise_acc,
        decompose,
        use_hint,
        chknorm,
        rej,
        unpack_z
    );
}

/// ntt.
pub(super) const NTT: Option<NativeFn> = Some(runs::ntt);
/// invntt_tomont.
pub(super) const INVNTT_TOMONT: Option<NativeFn> = Some(runs::invntt_tomont);
/// caddq.
pub(super) const CADDQ: Option<NativeFn> = Some(runs::caddq);
/// pointwise_montgomery.
pub(super) const POINTWISE: Option<NativeFn> = Some(runs::pointwise);
/// pointwise_acc_l{4,5,7}.
pub(super) const POINTWISE_ACC: Option<NativeFn> = Some(runs::pointwise_acc);
/// decompose_{32,88}.
pub(super) const DECOMPOSE: Option<NativeFn> = Some(runs::decompose);
/// use_hint_{32,88}.
pub(super) const USE_HINT: Option<NativeFn> = Some(runs::use_hint);
/// chknorm.
pub(super) const CHKNORM: Option<NativeFn> = Some(runs::chknorm);
/// rej_uniform, rej_eta{2,4}.
pub(super) const REJ: Option<NativeFn> = Some(runs::rej);
/// unpack_z{17,19}.
pub(super) const UNPACK_Z: Option<NativeFn> = Some(runs::unpack_z);
