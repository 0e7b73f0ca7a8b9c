//! Verification through the other interfaces of FIPS 204: HashML-DSA (Alg. 5), external mu
//! and Verify_internal (Alg. 8) on M' as given. A case is a `sign_variants` input (the same
//! fields and the same `scalar` codes) signed by the portable backend, with `pk` and `sig`
//! added, then left valid or edited. Only accept/reject is compared.

use super::def::{Check, Def, Takes, slots};
use super::e2e::{flip, maker, verdict};
use super::e2e_extra::{EXTERNAL_MU, INTERNAL, PRE_HASH, SIGN_VARIANTS, variant_case, variant_msg};
use crate::model::{Case, Verdict};
use crate::oracle::answered;
use crate::source::{Drawn, Source};
use mldsa::prehash::PreHash;

/// What a verify_variants case did to the valid signature (or its message).
pub const EDITS: [&str; 7] = [
    "valid",
    "flip a bit of c~",
    "flip a bit of z",
    "flip a bit of the hint",
    "flip a bit of the message (or of mu)",
    "a different context (pre-hash) or one more message byte",
    "another pre-hash function (pre-hash) or the signature one byte short",
];

fn generate(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = &check.params();
    let (pk, mut case) = variant_case(check, index, edge, src)?;
    case.pk = pk;
    let signer = Check {
        def: &SIGN_VARIANTS,
        variant: check.variant,
    };
    // Signed with the generators' backend (e2e::maker). If it cannot sign (a faulty
    // kernel), verify an all-zero signature instead: sign_variants reports the fault.
    let ours = crate::impls::ours::oracle(maker()).expect("maker() is available");
    case.sig = signer
        .run(ours.as_ref(), &case)
        .filter(|o| o.verdict == Verdict::Signed)
        .map_or_else(|| vec![0; p.sig_bytes()], |o| o.bytes);
    case.sk = Vec::new();
    case.xi = Vec::new();
    let edit = if edge || src.chance(1, 2)? {
        0
    } else {
        src.int_in(1, EDITS.len() as i64 - 1)? as usize
    };
    let (cb, hint) = (p.ctilde_bytes(), p.sig_bytes() - p.omega - p.k);
    match edit {
        0 => {}
        1 => flip(src, &mut case.sig, 0..cb)?,
        2 => flip(src, &mut case.sig, cb..hint)?,
        3 => flip(src, &mut case.sig, hint..p.sig_bytes())?,
        4 if !case.msg.is_empty() => {
            let n = case.msg.len();
            flip(src, &mut case.msg, 0..n)?;
        }
        5 if case.scalar == PRE_HASH && case.ctx.len() < 255 => case.ctx.push(0x63),
        6 if case.scalar == PRE_HASH => {
            let n = PreHash::ALL.len() as u8;
            case.bytes[0] = (case.bytes[0] + 1 + src.int_in(0, i64::from(n) - 2)? as u8) % n;
        }
        6 => {
            case.sig.pop();
        }
        _ if case.scalar != EXTERNAL_MU => case.msg.push(0x61),
        _ => flip(src, &mut case.sig, 0..cb)?,
    }
    case.note = format!("{}; {}", case.note, EDITS[edit]);
    debug_assert!([PRE_HASH, EXTERNAL_MU, INTERNAL].contains(&case.scalar));
    Ok(case)
}

/// verify_variants_{set}.
pub static VERIFY_VARIANTS: Def = Def {
    name: "verify_variants_{set}",
    about: Some(|_| {
        "pk, signature (valid or edited), and HashML-DSA (12 pre-hashes; msg, ctx) | external \
         mu | Verify_internal (M') -> accept/reject; agreement (an implementation without \
         that interface does not answer)"
            .into()
    }),
    generate,
    takes: Takes {
        slots: slots![Pk, Sig, Msg, Ctx, Rnd, Bytes, Scalar],
        valid: super::e2e::verifying,
    },
    run: |o, check, case| {
        let m = variant_msg(case)?;
        answered(o.verify(&check.params(), &case.pk, m, &case.sig), verdict)
    },
    ..super::e2e::VERIFY
};
