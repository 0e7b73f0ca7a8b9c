//! Differential fuzzing of the public API: inputs derived with `arbitrary` (parameter set,
//! public key, signature, message, context, an optional expanded secret key, an optional
//! pre-hash and digest) go through the typed API, the raw API on every backend, and
//! PQClean; every implementation must agree on accept/reject (verify) or on the exact
//! signature or refusal (sign), except for the differences listed in [`API_KNOWN`], which
//! are asserted exactly. Nothing may panic.
//!
//! Keys and signatures are derived from a seed and then edited (kept, replaced by raw
//! bytes, bit-flipped at chosen positions, or resized), so the fuzzer reaches valid
//! signatures, near-valid ones and garbage alike. Unlike the kernel targets, an input that
//! runs out of bytes is padded with zeros (the `arbitrary` convention): harmless here, since
//! every decoded value is a legitimate API input.
//!
//! The fuzz targets `api_verify` and `api_sign` call [`fuzz_api_verify`] and
//! [`fuzz_api_sign`]; `mldsa-diff replay-api` replays their inputs without libFuzzer.

use crate::impls::pqclean::Variant;
use arbitrary::{Arbitrary, Unstructured};
use mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use mldsa::{BackendKind, Error, Params, PreHash, Signature, SigningKey, VerifyingKey, raw};

/// The differences between implementations of the public API that are by design, asserted
/// exactly (printed by `mldsa-diff replay-api --help`).
pub const API_KNOWN: [&str; 4] = [
    "typed API: SigningKey::from_expanded_bytes also refuses keys whose tr or t0 do not \
     match the public key recomputed from rho, s1, s2 (SecretKeyInconsistent); the raw API \
     and PQClean sign with them",
    "typed API: a pre-hash digest whose length is not the hash's output length is refused \
     (InvalidDigestLength); the raw API takes M' as given",
    "PQClean signs with secret keys whose s1/s2 lie outside [-eta, eta] (mldsa refuses: \
     SecretKeyOutOfRange); only that C signs is asserted, not what it signs",
    "PQClean has no HashML-DSA: pre-hash inputs compare the typed and raw APIs only",
];

/// The parameter set.
#[derive(Arbitrary, Clone, Copy, Debug)]
#[allow(missing_docs)]
pub enum Set {
    S44,
    S65,
    S87,
}

impl Set {
    fn params(self) -> Params {
        match self {
            Set::S44 => mldsa::ML_DSA_44,
            Set::S65 => mldsa::ML_DSA_65,
            Set::S87 => mldsa::ML_DSA_87,
        }
    }
}

/// How a derived byte string is changed.
#[derive(Arbitrary, Clone, Debug)]
pub enum Edit {
    /// Unchanged.
    Keep,
    /// Replaced by these bytes.
    Raw(Vec<u8>),
    /// XOR `mask` into the byte at `pos` (modulo the length), for each pair.
    Flip(Vec<(u16, u8)>),
    /// Truncated (negative) or extended with zeros (positive) by this many bytes.
    Resize(i8),
}

impl Edit {
    fn apply(&self, v: &[u8]) -> Vec<u8> {
        let mut v = v.to_vec();
        match self {
            Edit::Keep => {}
            Edit::Raw(b) => v = b.clone(),
            Edit::Flip(fl) => {
                if !v.is_empty() {
                    let n = v.len();
                    fl.iter().for_each(|&(pos, m)| v[usize::from(pos) % n] ^= m);
                }
            }
            Edit::Resize(d) => {
                let len = (v.len() as isize + isize::from(*d)).max(0) as usize;
                v.resize(len, 0);
            }
        }
        v
    }

    fn is_keep(&self) -> bool {
        matches!(self, Edit::Keep) || matches!(self, Edit::Flip(f) if f.iter().all(|x| x.1 == 0))
    }
}

/// HashML-DSA: the hash (index into [`PreHash::ALL`], modulo 12) and the digest signed:
/// the hash of the message, or these bytes.
#[derive(Arbitrary, Clone, Debug)]
pub struct PreHashIn {
    /// Index of the pre-hash function.
    pub alg: u8,
    /// `None`: PH(msg); else this digest (of any length).
    pub digest: Option<Vec<u8>>,
}

/// One verify input.
#[derive(Arbitrary, Clone, Debug)]
pub struct VerifyInput {
    /// The parameter set.
    pub set: Set,
    /// The key pair's seed.
    pub xi: [u8; 32],
    /// Optional: sign with this edit of the expanded secret key instead.
    pub sk: Option<Edit>,
    /// The public key: an edit of the derived one.
    pub pk: Edit,
    /// The signature: an edit of the signature of (msg, sign_ctx or ctx).
    pub sig: Edit,
    /// Signing randomness.
    pub rnd: [u8; 32],
    /// The message.
    pub msg: Vec<u8>,
    /// The context verified with.
    pub ctx: Vec<u8>,
    /// The context signed with, if not `ctx`.
    pub sign_ctx: Option<Vec<u8>>,
    /// HashML-DSA instead of pure ML-DSA.
    pub prehash: Option<PreHashIn>,
}

/// One sign input.
#[derive(Arbitrary, Clone, Debug)]
pub struct SignInput {
    /// The parameter set.
    pub set: Set,
    /// The key pair's seed.
    pub xi: [u8; 32],
    /// The expanded secret key: an edit of the derived one.
    pub sk: Edit,
    /// Signing randomness.
    pub rnd: [u8; 32],
    /// The message.
    pub msg: Vec<u8>,
    /// The context.
    pub ctx: Vec<u8>,
    /// HashML-DSA instead of pure ML-DSA.
    pub prehash: Option<PreHashIn>,
}

/// The pre-hash and the digest an input signs or verifies, if it is HashML-DSA.
type PreHashed = Option<(PreHash, Vec<u8>)>;

/// M' (FIPS 204 Alg. 2 line 10 / Alg. 4 line 23) for `ctx`, `msg` and an optional pre-hash;
/// `None` when the context is too long. Also returns the pre-hash and digest used.
fn m_prime(msg: &[u8], ctx: &[u8], ph: Option<&PreHashIn>) -> (Option<Vec<u8>>, PreHashed) {
    match ph {
        None => (
            raw::pure_prefix(ctx)
                .ok()
                .map(|pre| [&pre[..], ctx, msg].concat()),
            None,
        ),
        Some(h) => {
            let alg = PreHash::ALL[usize::from(h.alg) % PreHash::ALL.len()];
            let digest = h
                .digest
                .clone()
                .unwrap_or_else(|| alg.digest(msg)[..alg.digest_len()].to_vec());
            let m = raw::prehash_prefix(ctx, alg)
                .ok()
                .map(|(pre, oid)| [&pre[..], ctx, &oid, &digest].concat());
            (m, Some((alg, digest)))
        }
    }
}

fn keygen(p: &Params, xi: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
    raw::keygen_internal(BackendKind::Portable, p, xi, &mut pk, &mut sk)
        .expect("portable keygen cannot fail");
    (pk, sk)
}

fn raw_sign(
    kind: BackendKind,
    p: &Params,
    sk: &[u8],
    m: &[u8],
    rnd: &[u8; 32],
) -> Result<Vec<u8>, Error> {
    let mut sig = vec![0u8; p.sig_bytes()];
    raw::sign_internal(kind, p, sk, &[m], rnd, &mut sig)?;
    Ok(sig)
}

fn typed_verify<P: ParameterSet>(
    pk: &[u8],
    sig: &[u8],
    msg: &[u8],
    ctx: &[u8],
    ph: Option<&(PreHash, Vec<u8>)>,
) -> Result<(), Error> {
    let vk = VerifyingKey::<P>::from_bytes(pk)?;
    let s = Signature::<P>::from_bytes(sig)?;
    match ph {
        None => vk.verify(msg, ctx, &s),
        Some((alg, d)) => vk.verify_prehashed(*alg, d, ctx, &s),
    }
}

fn typed_sign<P: ParameterSet>(
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
    ph: Option<&(PreHash, Vec<u8>)>,
) -> Result<Vec<u8>, Error> {
    let key = SigningKey::<P>::from_expanded_bytes(sk)?;
    let s = match ph {
        None => key.sign_with_rnd(msg, ctx, rnd)?,
        Some((alg, d)) => key.sign_prehashed_with_rnd(*alg, d, ctx, rnd)?,
    };
    Ok(s.as_bytes().to_vec())
}

macro_rules! per_set {
    ($set:expr, $f:ident($($a:expr),*)) => {
        match $set {
            Set::S44 => $f::<MlDsa44>($($a),*),
            Set::S65 => $f::<MlDsa65>($($a),*),
            Set::S87 => $f::<MlDsa87>($($a),*),
        }
    };
}

/// What one verify input gave: the reference's verdict and how many implementations agreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The raw portable verdict (verify: accepted; sign: signed).
    pub accepted: bool,
    /// Implementations compared with it.
    pub compared: usize,
}

fn ok_or_reason<T>(r: &Result<T, Error>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(e) => format!("error ({e})"),
    }
}

/// Decodes `data` as a [`VerifyInput`] and runs it; `Err` with the details on a
/// disagreement.
pub fn api_verify(data: &[u8]) -> Result<Outcome, String> {
    let Ok(input) = VerifyInput::arbitrary_take_rest(Unstructured::new(data)) else {
        return Ok(Outcome {
            accepted: false,
            compared: 0,
        });
    };
    verify_input(&input).map_err(|e| format!("{e}\ninput: {input:?}"))
}

/// Runs one verify input through every implementation.
pub fn verify_input(input: &VerifyInput) -> Result<Outcome, String> {
    let p = input.set.params();
    let (pk0, sk0) = keygen(&p, &input.xi);
    let sk = input.sk.as_ref().map_or(sk0.clone(), |e| e.apply(&sk0));
    let sign_ctx = input.sign_ctx.as_deref().unwrap_or(&input.ctx);
    let (sm, _) = m_prime(&input.msg, sign_ctx, input.prehash.as_ref());
    let sig0 = sm
        .as_deref()
        .and_then(|m| raw_sign(BackendKind::Portable, &p, &sk, m, &input.rnd).ok());
    let signed = sig0.is_some();
    let sig = input
        .sig
        .apply(&sig0.unwrap_or_else(|| vec![0; p.sig_bytes()]));
    let pk = input.pk.apply(&pk0);
    let (vm, ph) = m_prime(&input.msg, &input.ctx, input.prehash.as_ref());

    // The reference: the raw API on the portable backend.
    let raw_verdict = |kind: BackendKind| -> Result<(), Error> {
        match &vm {
            Some(m) => raw::verify_internal(kind, &p, &pk, &[m], &sig),
            None => Err(Error::ContextTooLong {
                len: input.ctx.len(),
            }),
        }
    };
    let reference = raw_verdict(BackendKind::Portable);
    let accepted = reference.is_ok();
    let mut compared = 0;
    for kind in BackendKind::available() {
        let r = raw_verdict(kind);
        if r.is_ok() != accepted {
            return Err(format!(
                "raw verify on {kind} says {}, portable says {}",
                ok_or_reason(&r),
                ok_or_reason(&reference)
            ));
        }
        compared += 1;
    }
    // A signature made by the key, unchanged, on the same M' must verify.
    let untouched = signed
        && input.sk.as_ref().is_none_or(Edit::is_keep)
        && input.pk.is_keep()
        && input.sig.is_keep()
        && input.sign_ctx.as_ref().is_none_or(|c| *c == input.ctx);
    if untouched && !accepted {
        return Err(format!(
            "a valid signature is rejected by the raw API: {}",
            ok_or_reason(&reference)
        ));
    }
    let typed = per_set!(
        input.set,
        typed_verify(&pk, &sig, &input.msg, &input.ctx, ph.as_ref())
    );
    let digest_len_wrong = ph.as_ref().is_some_and(|(a, d)| d.len() != a.digest_len());
    match (&typed, digest_len_wrong) {
        // Known difference: the typed API refuses a digest of the wrong length (or the key
        // or signature before it looks at the digest).
        (Err(_), true) => {}
        (Ok(()), true) => {
            return Err("typed verify_prehashed accepts a digest of the wrong length".to_string());
        }
        (t, false) if t.is_ok() != accepted => {
            return Err(format!(
                "typed verify says {}, raw portable says {}",
                ok_or_reason(t),
                ok_or_reason(&reference)
            ));
        }
        _ => compared += 1,
    }
    if ph.is_none() {
        for v in Variant::ALL {
            let Some(t) = v.for_params(&p) else { continue };
            match t.verify(&pk, &input.msg, &input.ctx, &sig) {
                // The C code cannot be handed a public key of another length; mldsa
                // refuses one.
                None if !accepted => {}
                None => return Err(format!("{} cannot take a key mldsa accepts", v.name())),
                Some(c) if c != accepted => {
                    return Err(format!(
                        "{} says {}, raw portable says {}",
                        v.name(),
                        if c { "accept" } else { "reject" },
                        ok_or_reason(&reference)
                    ));
                }
                Some(_) => compared += 1,
            }
        }
    }
    Ok(Outcome { accepted, compared })
}

/// Decodes `data` as a [`SignInput`] and runs it; `Err` with the details on a disagreement.
pub fn api_sign(data: &[u8]) -> Result<Outcome, String> {
    let Ok(input) = SignInput::arbitrary_take_rest(Unstructured::new(data)) else {
        return Ok(Outcome {
            accepted: false,
            compared: 0,
        });
    };
    sign_input(&input).map_err(|e| format!("{e}\ninput: {input:?}"))
}

/// Runs one sign input through every implementation.
pub fn sign_input(input: &SignInput) -> Result<Outcome, String> {
    let p = input.set.params();
    let (_, sk0) = keygen(&p, &input.xi);
    let sk = input.sk.apply(&sk0);
    let (m, ph) = m_prime(&input.msg, &input.ctx, input.prehash.as_ref());
    let raw_result = |kind: BackendKind| -> Result<Vec<u8>, Error> {
        match &m {
            Some(m) => raw_sign(kind, &p, &sk, m, &input.rnd),
            None => Err(Error::ContextTooLong {
                len: input.ctx.len(),
            }),
        }
    };
    let reference = raw_result(BackendKind::Portable);
    let show = |r: &Result<Vec<u8>, Error>| match r {
        Ok(s) => format!("signature {}...", hex::encode(&s[..16])),
        Err(e) => format!("error ({e})"),
    };
    let mut compared = 0;
    for kind in BackendKind::available() {
        let r = raw_result(kind);
        let same = match (&r, &reference) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        if !same {
            return Err(format!(
                "raw sign on {kind}: {}; portable: {}",
                show(&r),
                show(&reference)
            ));
        }
        compared += 1;
    }
    let typed = per_set!(
        input.set,
        typed_sign(&sk, &input.msg, &input.ctx, &input.rnd, ph.as_ref())
    );
    let digest_len_wrong = ph.as_ref().is_some_and(|(a, d)| d.len() != a.digest_len());
    let key_error =
        |e: &Error| matches!(e, Error::InvalidLength { .. } | Error::SecretKeyOutOfRange);
    let typed_ok = match (&typed, &reference) {
        (Ok(a), Ok(b)) => a == b,
        // The same refusal.
        (Err(a), Err(b)) if a.to_string() == b.to_string() => true,
        // Known: the typed API checks the key's consistency before anything else is
        // looked at (the raw API signs, or refuses for a reason found later).
        (Err(Error::SecretKeyInconsistent), r) => r.as_ref().err().is_none_or(|e| !key_error(e)),
        // Known: the typed API refuses a digest of the wrong length.
        (Err(Error::InvalidDigestLength { .. }), _) => digest_len_wrong,
        _ => false,
    };
    if !typed_ok {
        return Err(format!(
            "typed sign: {}; raw portable: {}",
            show(&typed),
            show(&reference)
        ));
    }
    compared += 1;
    // PQClean: pure ML-DSA, a key of the right length, a context it accepts.
    if ph.is_none() && sk.len() == p.sk_bytes() && input.ctx.len() <= 255 {
        for v in Variant::ALL {
            let Some(t) = v.for_params(&p) else { continue };
            let c = crate::rng::with_script(&input.rnd, || t.sign(&sk, &input.msg, &input.ctx))
                .map_err(|e| format!("{}: scripting the C randomness failed: {e:?}", v.name()))?;
            match (&c, &reference) {
                (Some(a), Ok(b)) if a == b => {}
                // Known: C signs with s1/s2 out of range; only that it signs is asserted.
                (Some(_), Err(Error::SecretKeyOutOfRange)) => {}
                _ => {
                    return Err(format!(
                        "{}: {}; raw portable: {}",
                        v.name(),
                        c.as_ref().map_or("refused".into(), |s| format!(
                            "signature {}...",
                            hex::encode(&s[..16])
                        )),
                        show(&reference)
                    ));
                }
            }
            compared += 1;
        }
    }
    Ok(Outcome {
        accepted: reference.is_ok(),
        compared,
    })
}

/// The `api_verify` fuzz target's body: panics with the details on a disagreement.
pub fn fuzz_api_verify(data: &[u8]) {
    if let Err(e) = api_verify(data) {
        panic!(
            "api_verify: implementations disagree: {e}\nreplay: mldsa-diff replay-api --target api_verify <this input>"
        );
    }
}

/// The `api_sign` fuzz target's body: panics with the details on a disagreement.
pub fn fuzz_api_sign(data: &[u8]) {
    if let Err(e) = api_sign(data) {
        panic!(
            "api_sign: implementations disagree: {e}\nreplay: mldsa-diff replay-api --target api_sign <this input>"
        );
    }
}

/// The API fuzz targets, by name.
pub const TARGETS: [&str; 2] = ["api_verify", "api_sign"];

/// Runs `data` as an input of the API target `target`.
pub fn run_target(target: &str, data: &[u8]) -> Result<Outcome, String> {
    match target {
        "api_verify" => api_verify(data),
        "api_sign" => api_sign(data),
        _ => Err(format!(
            "no API fuzz target {target:?} (api_verify, api_sign)"
        )),
    }
}
