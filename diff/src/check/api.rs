//! The public API's input space, end to end: what a caller can hand a signer or a verifier
//! (the public-API fuzzing that used to be a harness of its own). Keys and signatures are
//! made from a seed, then kept, bit-flipped, resized or replaced; messages are pure,
//! HashML-DSA, or HashML-DSA given a digest of any length; contexts go past 255 bytes. Every
//! implementation that offers the mode answers, judged like every other check, with the
//! differences in `known.rs`.

use super::def::{Answer, Check, Def, Takes, slots};
use super::e2e::{Keys, case_keys, key, maker, pure, signed, verdict};
use super::e2e_extra::{PRE_HASH, PRE_HASHED};
use super::inputs::{bytes_array, fill_or_random, pick};
use crate::model::Case;
use crate::oracle::{Msg, answered};
use crate::source::{Drawn, Source};
use mldsa::prehash::PreHash;

/// The message of an api case: pure (scalar 0, no bytes), or as a sign_variants pre-hash
/// case (`bytes` names the function); `None` if malformed.
fn api_msg(case: &Case) -> Option<Msg<'_>> {
    match case.scalar {
        0 if case.bytes.is_empty() => Some(pure(case)),
        PRE_HASH | PRE_HASHED => super::e2e_extra::variant_msg(case),
        _ => None,
    }
}

/// `bytes` kept (half the time), 1-3 bytes flipped, resized by up to 8 bytes, or replaced by
/// random bytes; what was done, for the case's note.
fn edit(src: &mut dyn Source, bytes: &mut Vec<u8>, what: &str) -> Drawn<String> {
    Ok(match src.int_in(0, 7)? {
        0..=3 => return Ok(String::new()),
        4 | 5 => {
            let n = src.int_in(1, 3)?;
            for _ in 0..n {
                let at = src.int_in(0, bytes.len().max(1) as i64 - 1)? as usize;
                if let Some(b) = bytes.get_mut(at) {
                    *b ^= src.int_in(1, 255)? as u8;
                }
            }
            format!("{what}: {n} bytes flipped")
        }
        6 => {
            let d = pick(src, &[-8i64, -3, -1, 1, 3, 8])?;
            let len = (bytes.len() as i64 + d).max(0) as usize;
            bytes.resize(len, 0);
            format!("{what}: resized by {d}")
        }
        _ => {
            let len = src.int_in(0, bytes.len() as i64 + 8)? as usize;
            *bytes = src.bytes(len)?;
            format!("{what}: random bytes ({len})")
        }
    })
}

/// The message part of a case: mode, message (or digest), context (past 255 bytes one time
/// in sixteen); edge cases: pure, pre-hash, pre-hashed with SHAKE128 and "abc".
fn message(src: &mut dyn Source, case: &mut Case, index: usize, edge: bool) -> Drawn<()> {
    let mode = if edge {
        [0, PRE_HASH, PRE_HASHED][index % 3]
    } else {
        pick(src, &[0, 0, PRE_HASH, PRE_HASHED])?
    };
    case.msg = if edge {
        b"abc".to_vec()
    } else {
        let n = src.int_in(0, 200)? as usize;
        src.bytes(n)?
    };
    let ctx_len = match (edge, src.chance(1, 16)?) {
        (true, _) => 0,
        (false, true) => src.int_in(256, 264)? as usize,
        (false, false) => src.int_in(0, 255)? as usize,
    };
    case.ctx = src.bytes(ctx_len)?;
    case.scalar = mode;
    if mode == 0 {
        return Ok(());
    }
    let alg = if edge {
        10
    } else {
        src.int_in(0, PreHash::ALL.len() as i64 - 1)? as u8
    };
    let ph = PreHash::ALL[usize::from(alg)];
    case.bytes = vec![alg];
    if mode == PRE_HASHED {
        // The digest of the message, or (one time in four) bytes of another length.
        case.msg = if !edge && src.chance(1, 4)? {
            let n = src.int_in(0, 80)? as usize;
            src.bytes(n)?
        } else {
            crate::oracle::digest(ph, &case.msg)
        };
    }
    case.note = format!("{} ", ph.name());
    Ok(())
}

fn generate_verify(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = check.params();
    let Keys { mut pk, sk, .. } = case_keys(&p, index, edge, src)?;
    let mut case = Case::default();
    message(src, &mut case, index, edge)?;
    let rnd = fill_or_random(src, edge.then_some(0), 32)?;
    let rnd: [u8; 32] = bytes_array(&rnd).expect("32");
    // Signed under another context one time in eight.
    let mut signer = case.clone();
    if !edge && src.chance(1, 8)? {
        let n = src.int_in(0, 255)? as usize;
        signer.ctx = src.bytes(n)?;
    }
    let ours = crate::impls::ours::oracle(maker()).expect("maker() is available");
    let mut sig =
        match api_msg(&signer).map(|m| ours.sign(&p, crate::oracle::Key::expanded(&sk), m, &rnd)) {
            Some(Ok(Ok(sig))) => sig,
            _ => vec![0; p.sig_bytes()],
        };
    let mut notes = vec![case.note.trim().to_string()];
    if signer.ctx != case.ctx {
        notes.push("signed under another context".into());
    }
    if !edge {
        notes.push(edit(src, &mut pk, "pk")?);
        notes.push(edit(src, &mut sig, "signature")?);
    }
    case.pk = pk;
    case.sig = sig;
    notes.retain(|n| !n.is_empty());
    case.note = notes.join("; ");
    Ok(case)
}

fn generate_sign(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = check.params();
    let Keys { xi, mut sk, .. } = case_keys(&p, index, edge, src)?;
    let mut case = Case::default();
    message(src, &mut case, index, edge)?;
    let zero_rnd = edge || src.chance(1, 4)?;
    case.rnd = fill_or_random(src, zero_rnd.then_some(0), 32)?;
    let mut notes = vec![case.note.trim().to_string()];
    if !edge {
        // Flips stay out of s1 and s2 (an out-of-range key is sign_malformed_sk's): rho, K,
        // tr or t0 changed make a key in range that its public key no longer matches.
        let s_end = 128 + (p.l + p.k) * p.eta.poly_eta_bytes();
        match src.int_in(0, 7)? {
            0..=4 => case.xi = xi,
            5 | 6 => {
                let at = if src.chance(1, 2)? {
                    src.int_in(0, 127)?
                } else {
                    src.int_in(s_end as i64, sk.len() as i64 - 1)?
                } as usize;
                sk[at] ^= src.int_in(1, 255)? as u8;
                notes.push(format!("sk: byte {at} flipped"));
            }
            _ => {
                let d = pick(src, &[-8i64, -1, 1, 8])?;
                sk.resize((sk.len() as i64 + d) as usize, 0);
                notes.push(format!("sk: resized by {d}"));
            }
        }
    }
    case.sk = sk;
    notes.retain(|n| !n.is_empty());
    case.note = notes.join("; ");
    Ok(case)
}

/// api_verify_{set}.
pub static API_VERIFY: Def = Def {
    generate: generate_verify,
    run: |o, check, case| {
        let m = api_msg(case)?;
        answered(o.verify(&check.params(), &case.pk, m, &case.sig), verdict)
    },
    // Any lengths: every implementation's wrapper rejects what its API cannot take.
    takes: Takes::just(slots![Pk, Sig, Msg, Ctx, Bytes, Scalar]),
    answer: Answer::Verdict,
    ..super::e2e::e2e(
        "api_verify_{set}",
        |_| {
            "pk and signature kept, flipped, resized or replaced; pure | HashML-DSA | HashML-DSA \
             given a digest of any length; contexts up to 264 bytes -> accept/reject; agreement"
                .into()
        },
        "unpack_hint",
    )
};

/// api_sign_{set}.
pub static API_SIGN: Def = Def {
    name: "api_sign_{set}",
    about: Some(|_| {
        "sk kept, with rho/K/tr/t0 bytes flipped, or resized; pure | HashML-DSA | HashML-DSA \
         given a digest of any length; contexts up to 264 bytes; rnd -> the same signature, or a \
         refusal by every signer"
            .into()
    }),
    planted: "pack_z",
    generate: generate_sign,
    run: |o, check, case| {
        let rnd = bytes_array(&case.rnd)?;
        let m = api_msg(case)?;
        answered(o.sign(&check.params(), key(case)?, m, &rnd), signed)
    },
    // sign_variants' fields, of any lengths but rnd's.
    takes: Takes {
        valid: |check, case| {
            super::e2e::length("rnd", case.rnd.len(), 32)?;
            super::e2e::seed_makes_key(check, case)
        },
        ..super::e2e_extra::SIGN_VARIANTS.takes
    },
    answer: Answer::SignatureOrRefusal,
    ..API_VERIFY
};
