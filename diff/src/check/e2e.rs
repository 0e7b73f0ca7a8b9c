//! End-to-end checks: KeyGen_internal from xi, Sign_internal with rnd, Verify, per parameter
//! set. Keys and signatures are made with this crate's fastest backend on this machine
//! ([`maker`]), then handed unchanged — or mutated — to every implementation.

use super::def::{Answer, Check, Def, Family, Over, Takes, slots};
use super::inputs::{bytes_array, fill_or_random, fixed_or_random, pick};
use crate::model::{Case, Output, Verdict};
use crate::oracle::{Key, Msg, Oracle, Signed, Verified, answered};
use crate::source::{Drawn, Source};
use mldsa::{BackendKind, Params, raw};

/// The backend the generators make keys and signatures with: this crate's fastest one here.
/// Its keys and signatures are the portable backend's (the specification) bit for bit, which
/// `keygen_{set}` and `sign_{set}` assert on every run, so every input is the same on every
/// machine; it is the fastest because making inputs was two thirds of an end-to-end fuzz
/// target's time with the portable backend (`perf` on `verify_44` under AddressSanitizer). With
/// the feature `planted-bugs` the portable backend carries the planted fault, and inputs made
/// by a SIMD backend stay correct, so the fault shows in the checked answers, not the inputs;
/// on a machine with no SIMD backend (s390x) the inputs carry the fault too, so planted-bug
/// times there are not comparable with x86_64's or aarch64's.
pub fn maker() -> BackendKind {
    BackendKind::best()
}

/// A key pair and the seed it was made from.
#[derive(Clone, Debug)]
pub struct Keys {
    pub xi: Vec<u8>,
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
}

/// The key pair of case `index`: from xi = index repeated for an edge case, else
/// from 32 bytes of `src`.
pub fn case_keys(p: &Params, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Keys> {
    let xi = fill_or_random(src, edge.then_some(index as u8), 32)?;
    let (pk, sk) = keygen(p, &xi);
    Ok(Keys { xi, pk, sk })
}

/// The signing key of a case: its `sk`, with its `xi` where it has one (of 32 bytes).
pub(crate) fn key(case: &Case) -> Option<Key<'_>> {
    let xi = match case.xi.len() {
        0 => None,
        _ => Some(bytes_array_ref(&case.xi)?),
    };
    Some(Key { sk: &case.sk, xi })
}

fn bytes_array_ref(b: &[u8]) -> Option<&[u8; 32]> {
    b.try_into().ok()
}

/// The last few results of a pure function, per thread (the generator helpers here, the
/// model's required answers in `known.rs`): a fuzzer mutates an input's later bytes far more
/// often than its key seed or message, so the same key pair (and often the same signature)
/// is asked for again and again. The functions are pure, so this changes no input or
/// answer; it only saves recomputing them.
pub(crate) struct Memo<K, V>(std::cell::RefCell<std::collections::VecDeque<(K, V)>>);

impl<K: PartialEq, V: Clone> Memo<K, V> {
    const SIZE: usize = 32;

    pub(crate) fn new() -> Self {
        Memo(std::cell::RefCell::new(std::collections::VecDeque::new()))
    }

    pub(crate) fn get_or(&self, key: K, f: impl FnOnce() -> V) -> V {
        if let Some((_, v)) = self.0.borrow().iter().find(|(k, _)| *k == key) {
            return v.clone();
        }
        let v = f();
        let mut m = self.0.borrow_mut();
        if m.len() == Self::SIZE {
            m.pop_front();
        }
        m.push_back((key, v.clone()));
        v
    }
}

type KeyPair = (Vec<u8>, Vec<u8>);
type SignKey = (&'static str, Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

thread_local! {
    static KEYS: Memo<(&'static str, Vec<u8>), KeyPair> = Memo::new();
    static SIGNATURES: Memo<SignKey, Result<Vec<u8>, mldsa::Error>> = Memo::new();
}

/// KeyGen_internal with [`maker`].
pub fn keygen(p: &Params, xi: &[u8]) -> (Vec<u8>, Vec<u8>) {
    KEYS.with(|m| {
        m.get_or((p.name, xi.to_vec()), || {
            let xi: [u8; 32] = xi.try_into().expect("xi is 32 bytes");
            let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
            raw::keygen_internal(maker(), p, &xi, &mut pk, &mut sk).expect("keygen");
            (pk, sk)
        })
    })
}

/// Pure ML-DSA signing with context and explicit rnd, with [`maker`].
pub fn sign(
    p: &Params,
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8],
) -> Result<Vec<u8>, mldsa::Error> {
    let key = (
        p.name,
        sk.to_vec(),
        msg.to_vec(),
        ctx.to_vec(),
        rnd.to_vec(),
    );
    SIGNATURES.with(|m| {
        m.get_or(key, || {
            let rnd: [u8; 32] = rnd.try_into().expect("rnd is 32 bytes");
            let prefix = raw::pure_prefix(ctx)?;
            let mut sig = vec![0u8; p.sig_bytes()];
            raw::sign_internal(maker(), p, sk, &[&prefix, ctx, msg], &rnd, &mut sig)?;
            Ok(sig)
        })
    })
}

/// A signer's answer: the signature, or its refusal as it words it.
pub(crate) fn signed(r: Signed) -> Output {
    match r {
        Ok(bytes) => Output {
            bytes,
            verdict: Verdict::Signed,
            ..Output::default()
        },
        Err(e) => Output {
            verdict: Verdict::Error(e),
            ..Output::default()
        },
    }
}

/// A verifier's answer: accept, or reject with its reason where it gives one (only
/// accept/reject is compared; the reason is kept for the report).
pub(crate) fn verdict(r: Verified) -> Output {
    Output {
        scalar: i64::from(r.is_ok()),
        verdict: match r {
            Ok(()) => Verdict::Accept,
            Err(reason) => Verdict::Reject(reason),
        },
        ..Output::default()
    }
}

/// The case's message and context, as pure ML-DSA signs them.
pub(super) fn pure(case: &Case) -> Msg<'_> {
    Msg::Pure {
        msg: &case.msg,
        ctx: &case.ctx,
    }
}

/// Signs a pure case.
fn sign_run(o: &dyn Oracle, check: Check, case: &Case) -> Option<Output> {
    let rnd = bytes_array(&case.rnd)?;
    answered(
        o.sign(&check.params(), key(case)?, pure(case), &rnd),
        signed,
    )
}

/// Verifies a pure case.
fn verify_run(o: &dyn Oracle, check: Check, case: &Case) -> Option<Output> {
    answered(
        o.verify(&check.params(), &case.pk, pure(case), &case.sig),
        verdict,
    )
}

/// `have` bytes of field `f`, if that is `want`.
pub(super) fn length(f: &str, have: usize, want: usize) -> Result<(), String> {
    if have == want {
        Ok(())
    } else {
        Err(format!("{f} has {have} bytes, not {want}"))
    }
}

/// A case's xi, if it has one, is 32 bytes and makes its sk (KeyGen_internal, with
/// [`maker`]): an implementation given both may sign with the key it derives from xi.
pub(super) fn seed_makes_key(check: Check, case: &Case) -> Result<(), String> {
    if case.xi.is_empty() {
        return Ok(());
    }
    length("xi", case.xi.len(), 32)?;
    if keygen(&check.params(), &case.xi).1 != case.sk {
        return Err("sk is not KeyGen_internal(xi)'s secret key".into());
    }
    Ok(())
}

/// What a signing case reads: the expanded secret key (of the set's length: the C code reads
/// a fixed size) and the seed it was made from if the case knows it, the message, a context
/// of at most 255 bytes and a 32-byte rnd.
pub(super) const SIGNING: Takes = Takes {
    slots: slots![Sk, Xi, Msg, Ctx, Rnd],
    valid: signing,
};

/// The lengths a signing case must have, and its xi (if it has one) must make its sk.
pub(super) fn signing(check: Check, case: &Case) -> Result<(), String> {
    length("sk", case.sk.len(), check.params().sk_bytes())?;
    length("rnd", case.rnd.len(), 32)?;
    seed_makes_key(check, case)?;
    if case.ctx.len() > 255 {
        return Err(format!(
            "ctx has {} bytes; a signing context has at most 255",
            case.ctx.len()
        ));
    }
    Ok(())
}

/// What a verify case reads: a public key of the set's length, the signature, message and
/// context, and the rnd its signature was made with (not read; empty or 32 bytes).
pub(super) const VERIFYING: Takes = Takes {
    slots: slots![Pk, Sig, Msg, Ctx, Rnd],
    valid: verifying,
};

/// The lengths a verify case must have.
pub(super) fn verifying(check: Check, case: &Case) -> Result<(), String> {
    length("pk", case.pk.len(), check.params().pk_bytes())?;
    if !case.rnd.is_empty() {
        length("rnd", case.rnd.len(), 32)?;
    }
    Ok(())
}

pub(super) const fn e2e(
    name: &'static str,
    about: fn(Check) -> String,
    planted: &'static str,
) -> Def {
    Def {
        over: Over::Sets,
        about: Some(about),
        takes: SIGNING,
        ..Def::new(name, Family::EndToEnd, (&[], planted), gen_sign, sign_run)
    }
}

pub static KEYGEN: Def = Def {
    generate: |_, index, edge, src| fixed_or_random(src, edge, index, &[0, 0xff, 0x5a], 32),
    takes: Takes {
        slots: slots![Bytes],
        valid: |_, case| length("bytes (xi)", case.bytes.len(), 32),
    },
    run: |o, check, case| {
        let xi = bytes_array(&case.bytes)?;
        answered(o.keygen(&check.params(), &xi), |r| match r {
            Ok((pk, sk)) => super::inputs::bytes_out([pk, sk].concat()),
            Err(e) => signed(Err(e)),
        })
    },
    ..e2e(
        "keygen_{set}",
        |_| "xi (32) -> pk || sk; byte-identical".into(),
        "pack_t0",
    )
};

pub static SIGN: Def = e2e(
    "sign_{set}",
    |_| "sk, msg, ctx (0..=255), rnd (hedged or zero) -> signature; byte-identical".into(),
    "pack_z",
);

/// verify_{set}; the other verify checks take their runs from it.
pub static VERIFY: Def = Def {
    generate: gen_verify,
    run: verify_run,
    takes: VERIFYING,
    answer: Answer::Verdict,
    ..e2e(
        "verify_{set}",
        |_| "pk, msg, ctx, signature (valid or mutated) -> accept/reject; agreement".into(),
        "unpack_hint",
    )
};

pub static SIGN_MALFORMED_SK: Def = Def {
    generate: gen_malformed_sk,
    // Whether it signs, and what: APIs word their refusals differently (known.rs holds this
    // crate's backends to their exact error).
    answer: Answer::SignatureOrRefusal,
    ..e2e(
        "sign_malformed_sk_{set}",
        |_| {
            "sk with an s1/s2 coefficient outside [-eta, eta] -> Rust rejects (SecretKeyOutOfRange), \
             C signs (it does not range-check keys): that exact difference is asserted"
                .into()
        },
        "unpack_eta_range",
    )
};

/// What a verify case does to a valid signature (or to its message, context or key).
pub const MUTATIONS: [&str; 14] = [
    "valid",
    "flip a bit of c~",
    "flip a bit of z",
    "flip a bit of the hint",
    "truncate the signature",
    "append a byte to the signature",
    "hint count above omega",
    "hint indices not increasing",
    "non-zero hint padding",
    "z coefficient at gamma1 - beta",
    "different message",
    "different context",
    "flip a bit of the public key",
    "context of 256 bytes",
];

/// Flips one random bit of `bytes[range]`.
pub(super) fn flip(
    src: &mut dyn Source,
    bytes: &mut [u8],
    range: core::ops::Range<usize>,
) -> Drawn<()> {
    let at = src.int_in(range.start as i64, range.end as i64 - 1)? as usize;
    bytes[at] ^= 1 << src.int_in(0, 7)?;
    Ok(())
}

/// The part of a Sign, Verify or SignMalformedKey case they share (keys, message, context,
/// rnd, drawn in that order), and the key pair.
fn common(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<(Case, Keys)> {
    let p = &check.params();
    let mut case = Case::default();
    let keys = case_keys(p, index, edge, src)?;
    let msg_len = if edge {
        [0, 1, 1000][index]
    } else if src.chance(1, 8)? {
        src.int_in(0, 4000)?
    } else {
        src.int_in(0, 100)?
    };
    let ctx_len = if edge {
        [0, 255, 1][index]
    } else if src.chance(1, 4)? {
        pick(src, &[0, 255])?
    } else {
        src.int_in(0, 255)?
    };
    case.msg = fill_or_random(src, edge.then_some(0x61), msg_len as usize)?;
    case.ctx = fill_or_random(src, edge.then_some(0x63), ctx_len as usize)?;
    let zero_rnd = edge || src.chance(1, 4)?;
    case.rnd = fill_or_random(src, zero_rnd.then_some(0), 32)?;
    Ok((case, keys))
}

/// A Sign case: the key pair's secret key and its seed.
fn gen_sign(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let (case, keys) = common(check, index, edge, src)?;
    Ok(Case {
        sk: keys.sk,
        xi: keys.xi,
        ..case
    })
}

/// A SignMalformedKey case: one packed s1 or s2 coefficient set outside [0, 2 eta].
fn gen_malformed_sk(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = &check.params();
    let (mut case, Keys { mut sk, .. }) = common(check, index, edge, src)?;
    // Set one packed s1 or s2 coefficient to a value outside [0, 2 eta].
    let eb = p.eta.poly_eta_bytes();
    let in_s2 = !edge && src.chance(1, 2)?;
    let poly = if edge {
        0
    } else {
        src.int_in(0, if in_s2 { p.k } else { p.l } as i64 - 1)? as usize
    };
    let coeff = if edge {
        index * 7
    } else {
        src.int_in(0, 255)? as usize
    };
    let bits = p.eta.bits();
    let bad = if edge {
        (1 << bits) - 1
    } else {
        src.int_in(2 * i64::from(p.eta.value()) + 1, (1 << bits) - 1)?
    };
    let start = 128 + if in_s2 { p.l * eb } else { 0 } + poly * eb;
    let bit = coeff * bits;
    let mut word = 0u32;
    for i in 0..3 {
        word |= u32::from(*sk.get(start + bit / 8 + i).unwrap_or(&0)) << (8 * i);
    }
    let shift = bit % 8;
    word = (word & !(((1 << bits) - 1) << shift)) | ((bad as u32) << shift);
    for i in 0..3 {
        if bit / 8 + i < eb {
            sk[start + bit / 8 + i] = (word >> (8 * i)) as u8;
        }
    }
    case.sk = sk;
    case.note = format!(
        "{} poly {poly} coefficient {coeff} encodes {bad}",
        if in_s2 { "s2" } else { "s1" }
    );
    Ok(case)
}

/// A Verify case: a valid signature, kept or mutated.
fn gen_verify(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = &check.params();
    let (mut case, Keys { mut pk, sk, .. }) = common(check, index, edge, src)?;
    // If the reference itself cannot sign (a faulty kernel), verify an all-zero
    // signature instead: the sign checks report the fault.
    let mut sig =
        sign(p, &sk, &case.msg, &case.ctx, &case.rnd).unwrap_or_else(|_| vec![0; p.sig_bytes()]);
    let m = if edge {
        index
    } else {
        src.int_in(0, MUTATIONS.len() as i64 - 1)? as usize
    };
    let cb = p.ctilde_bytes();
    let hint = p.sig_bytes() - p.omega - p.k;
    match m {
        0 => {}
        1 => flip(src, &mut sig, 0..cb)?,
        2 => flip(src, &mut sig, cb..hint)?,
        3 => flip(src, &mut sig, hint..p.sig_bytes())?,
        4 => {
            let n = src.int_in(1, 64)? as usize;
            sig.truncate(sig.len() - n);
        }
        5 => sig.push(src.int_in(0, 255)? as u8),
        6 => {
            let i = src.int_in(0, p.k as i64 - 1)? as usize;
            sig[hint + p.omega + i] = src.int_in(p.omega as i64 + 1, 255)? as u8;
        }
        7 => {
            // Make poly 0's list two equal positions (or one out of order).
            sig[hint] = 9;
            sig[hint + 1] = pick(src, &[9, 3])?;
            let first = sig[hint + p.omega].max(2);
            sig[hint + p.omega] = first;
            for i in 1..p.k {
                sig[hint + p.omega + i] = sig[hint + p.omega + i].max(first);
            }
        }
        8 => {
            let used = usize::from(sig[hint + p.omega + p.k - 1]);
            if used < p.omega {
                let at = src.int_in(used as i64, p.omega as i64 - 1)? as usize;
                sig[hint + at] = src.int_in(1, 255)? as u8;
            }
        }
        9 => {
            // First z coefficient := gamma1 - beta (packed as beta).
            let bits = p.gamma1.z_bits();
            let mut w = u32::from_le_bytes([sig[cb], sig[cb + 1], sig[cb + 2], 0]);
            w = (w & !((1 << bits) - 1)) | p.beta as u32;
            sig[cb..cb + 3].copy_from_slice(&w.to_le_bytes()[..3]);
        }
        10 => {
            if case.msg.is_empty() || src.chance(1, 2)? {
                case.msg.push(0);
            } else {
                let n = case.msg.len();
                flip(src, &mut case.msg, 0..n)?;
            }
        }
        11 => {
            if case.ctx.is_empty() {
                case.ctx.push(1);
            } else {
                let n = case.ctx.len();
                flip(src, &mut case.ctx, 0..n)?;
            }
        }
        12 => flip(src, &mut pk, 0..p.pk_bytes())?,
        _ => case.ctx = vec![7; 256],
    }
    case.note = MUTATIONS[m].to_string();
    case.pk = pk;
    case.sig = sig;
    Ok(case)
}
