//! End-to-end checks beyond pure signing: the other signing interfaces of FIPS 204
//! (HashML-DSA, external mu, Sign_internal) and verification of hostile input. Together with
//! [`super::e2e`] these are what the peers (mldsa-native, the Rust implementations) answer.

use super::def::{Answer, Check, Def, Takes, slots};
use super::e2e::{case_keys, key, sign, signed};
use super::inputs::{bytes_array, fill_or_random, pick};
use crate::model::Case;
use crate::oracle::{Msg, answered};
use crate::source::{Drawn, Source};
use mldsa::prehash::PreHash;

/// `Case::scalar` of a sign_variants case: which interface.
pub const PRE_HASH: i64 = 1;
/// External mu (`Case::msg` is mu).
pub const EXTERNAL_MU: i64 = 2;
/// Sign_internal (`Case::msg` is M').
pub const INTERNAL: i64 = 3;
/// HashML-DSA given the digest (`Case::msg` is PH(M), of any length; `Case::bytes` names the
/// pre-hash function as for [`PRE_HASH`]). Not generated (the boundary vectors use it).
pub const PRE_HASHED: i64 = 4;

/// The message of a sign_variants case as the peers take it; `None` if malformed.
pub fn variant_msg(case: &Case) -> Option<Msg<'_>> {
    // Only a pre-hash case names its function (in one byte) and has a context.
    let pre_hash = matches!(case.scalar, PRE_HASH | PRE_HASHED);
    if case.bytes.len() != usize::from(pre_hash) || (!pre_hash && !case.ctx.is_empty()) {
        return None;
    }
    Some(match case.scalar {
        PRE_HASH => Msg::PreHash {
            ph: *PreHash::ALL.get(usize::from(case.bytes[0]))?,
            msg: &case.msg,
            ctx: &case.ctx,
        },
        PRE_HASHED => Msg::PreHashed {
            ph: *PreHash::ALL.get(usize::from(case.bytes[0]))?,
            digest: &case.msg,
            ctx: &case.ctx,
        },
        EXTERNAL_MU => Msg::Mu(case.msg.as_slice().try_into().ok()?),
        INTERNAL => Msg::Internal(&case.msg),
        _ => return None,
    })
}

/// The public key and the sign_variants input number `index` (verify_variants signs it).
pub(super) fn variant_case(
    check: Check,
    index: usize,
    edge: bool,
    src: &mut dyn Source,
) -> Drawn<(Vec<u8>, Case)> {
    let p = &check.params();
    let keys = case_keys(p, index, edge, src)?;
    let mode = if edge {
        [PRE_HASH, EXTERNAL_MU, INTERNAL][index % 3]
    } else {
        src.int_in(PRE_HASH, INTERNAL)?
    };
    let msg_len = if edge {
        3
    } else {
        src.int_in(0, 200)? as usize
    };
    let zero_rnd = edge || src.chance(1, 4)?;
    let mut case = Case {
        sk: keys.sk,
        xi: keys.xi,
        scalar: mode,
        rnd: fill_or_random(src, zero_rnd.then_some(0), 32)?,
        ..Case::default()
    };
    match mode {
        PRE_HASH => {
            // SHAKE128 is the one pre-hash every peer with a pre-hash API offers: favour it.
            let ph = if edge || src.chance(1, 3)? {
                10
            } else {
                src.int_in(0, PreHash::ALL.len() as i64 - 1)? as u8
            };
            case.bytes = vec![ph];
            case.msg = fill_or_random(src, edge.then_some(0x61), msg_len)?;
            let ctx_len = if edge {
                0
            } else {
                src.int_in(0, 255)? as usize
            };
            case.ctx = src.bytes(ctx_len)?;
            case.note = format!("HashML-DSA with {}", PreHash::ALL[usize::from(ph)].name());
        }
        EXTERNAL_MU => {
            case.msg = fill_or_random(src, edge.then_some(0x6d), 64)?;
            case.note = "external mu".into();
        }
        _ => {
            case.msg = fill_or_random(src, edge.then_some(0x61), msg_len)?;
            case.note = "Sign_internal on M' as given".into();
        }
    }
    Ok((keys.pk, case))
}

pub static SIGN_VARIANTS: Def = Def {
    generate: |check, index, edge, src| Ok(variant_case(check, index, edge, src)?.1),
    takes: Takes {
        slots: slots![Sk, Xi, Msg, Ctx, Rnd, Bytes, Scalar],
        valid: super::e2e::signing,
    },
    run: |o, check, case| {
        let rnd = bytes_array(&case.rnd)?;
        let m = variant_msg(case)?;
        answered(o.sign(&check.params(), key(case)?, m, &rnd), signed)
    },
    ..super::e2e::e2e(
        "sign_variants_{set}",
        |_| {
            "sk, rnd, and HashML-DSA (12 pre-hashes; msg, ctx) | external mu | Sign_internal \
             (M') -> signature; byte-identical (an implementation without that interface does not \
             answer)"
                .into()
        },
        "pack_z",
    )
};

/// What a hostile verify case did to a valid (pk, signature).
pub const HOSTILE_EDITS: [&str; 9] = [
    "a random byte of the signature",
    "a random byte of the hint",
    "a hint count",
    "a z coefficient to all ones",
    "c~ replaced",
    "a random byte of the public key",
    "the signature replaced by random bytes",
    "the signature's length changed",
    "t1 of the public key replaced by random bytes",
];

fn generate_hostile(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = &check.params();
    let super::e2e::Keys { mut pk, sk, .. } = case_keys(p, index, edge, src)?;
    let (msg_len, ctx_len) = if edge {
        (3, 0)
    } else {
        (src.int_in(0, 64)? as usize, src.int_in(0, 16)? as usize)
    };
    let msg = fill_or_random(src, edge.then_some(0x61), msg_len)?;
    let ctx = src.bytes(ctx_len)?;
    let rnd = [0u8; 32];
    let mut sig = sign(p, &sk, &msg, &ctx, &rnd).unwrap_or_else(|_| vec![0; p.sig_bytes()]);
    let (cb, hint) = (p.ctilde_bytes(), p.sig_bytes() - p.omega - p.k);
    let edits = if edge { 1 } else { src.int_in(1, 4)? as usize };
    let mut done = Vec::new();
    for e in 0..edits {
        let which = if edge {
            [1, 2, 3][index % 3]
        } else {
            src.int_in(0, HOSTILE_EDITS.len() as i64 - 1)? as usize
        };
        let n = sig.len().max(1);
        match which {
            0 => {
                let at = src.int_in(0, n as i64 - 1)? as usize;
                if let Some(b) = sig.get_mut(at) {
                    *b = src.int_in(0, 255)? as u8;
                }
            }
            1 | 2 => {
                let (lo, hi) = if which == 1 {
                    (hint, hint + p.omega - 1)
                } else {
                    (hint + p.omega, p.sig_bytes() - 1)
                };
                let at = if edge {
                    hi - e
                } else {
                    src.int_in(lo as i64, hi as i64)? as usize
                };
                let v = if edge {
                    0xff
                } else {
                    pick(src, &[0, 1, 0xff])?
                };
                if let Some(b) = sig.get_mut(at) {
                    *b = if v == 1 { src.int_in(0, 255)? as u8 } else { v };
                }
            }
            3 => {
                let bits = p.gamma1.z_bits();
                let coeff = if edge {
                    0
                } else {
                    src.int_in(0, (p.l * 256) as i64 - 1)? as usize
                };
                let start = cb + coeff * bits / 8;
                for b in sig.iter_mut().skip(start).take(3) {
                    *b = 0xff;
                }
            }
            4 => {
                let new = src.bytes(cb)?;
                let n = cb.min(sig.len());
                sig[..n].copy_from_slice(&new[..n]);
            }
            5 => {
                let at = src.int_in(0, pk.len() as i64 - 1)? as usize;
                pk[at] = src.int_in(0, 255)? as u8;
            }
            6 => sig = src.bytes(p.sig_bytes())?,
            7 => {
                let mut len = src.int_in(0, p.sig_bytes() as i64 + 8)? as usize;
                if len == sig.len() {
                    len += 1;
                }
                sig.resize(len, 0);
            }
            _ => {
                let t1 = src.bytes(pk.len() - 32)?;
                pk[32..].copy_from_slice(&t1);
            }
        }
        done.push(HOSTILE_EDITS[which]);
    }
    Ok(Case {
        pk,
        sig,
        msg,
        ctx,
        note: done.join("; "),
        ..Case::default()
    })
}

/// verify_{set}'s run (accept/reject only) on hostile edits.
pub static VERIFY_HOSTILE: Def = Def {
    name: "verify_hostile_{set}",
    about: Some(|_| {
        "pk, msg, ctx, signature with 1-4 hostile edits (hint counts and indices, z at all ones, \
         random c~, random t1, other lengths) -> accept/reject; every verifier agrees"
            .into()
    }),
    planted: "unpack_hint",
    edge_cases: 3,
    generate: generate_hostile,
    answer: Answer::VerdictHashingOutput,
    ..super::e2e::VERIFY
};
