//! verify_crafted_{set}: the crafted verify cases of [`crate::craft`], one per rule first (the
//! edge cases), then rules drawn at random. Every verifier's accept/reject is judged against
//! the verdict FIPS 204 demands for the case's rule (a [`crate::known`] entry covering every
//! implementation, the reference included), so a bug that all implementations share is
//! still a mismatch; a known deviation is asserted exactly through the model verifier.

use super::def::{Check, Def, Takes, slots};
use crate::craft::RULES;
use crate::model::Case;
use crate::source::{Drawn, Source};

fn generate(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = check.params();
    let rule = if edge {
        index
    } else {
        src.int_in(0, RULES.len() as i64 - 1)? as usize
    };
    let c = RULES[rule].build(&p, src)?;
    Ok(Case {
        pk: c.pk,
        msg: c.msg,
        ctx: c.ctx,
        sig: c.sig,
        scalar: rule as i64,
        note: if c.detail.is_empty() {
            RULES[rule].name.to_string()
        } else {
            format!("{}: {}", RULES[rule].name, c.detail)
        },
        ..Case::default()
    })
}

/// The rule of a crafted case, if its scalar names one.
pub fn rule_of(case: &Case) -> Option<&'static crate::craft::Rule> {
    usize::try_from(case.scalar).ok().and_then(|i| RULES.get(i))
}

pub static VERIFY_CRAFTED: Def = Def {
    name: "verify_crafted_{set}",
    about: Some(|_| {
        "crafted pk (t1 = 0, or t1 at 0 and 2^10 - 1), msg, ctx, signature with an honest c~, \
         valid or breaking exactly one FIPS 204 rule (z bound, hint counts/order/padding, c~, \
         context length), or valid at the extremes of the arithmetic (t1 2^d = q - 1, z at its \
         bound, NTT-domain sums steered far from 0) -> accept/reject; every verifier gives the \
         verdict FIPS 204 demands"
            .into()
    }),
    planted: "unpack_hint",
    edge_cases: RULES.len(),
    generate,
    takes: Takes {
        slots: slots![Pk, Sig, Msg, Ctx, Rnd, Scalar],
        valid: |check, case| {
            super::e2e::verifying(check, case)?;
            match rule_of(case) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "scalar {} names no crafted rule (0..{})",
                    case.scalar,
                    RULES.len()
                )),
            }
        },
    },
    ..super::e2e::VERIFY
};
