//! Where an implementation must knowingly answer other than the reference, as data: each
//! entry names the checks and implementations it covers, says why, and computes the exact
//! answer required. `mldsa-diff list` prints these entries and the judge applies the same
//! ones, so a difference is stated once and asserted exactly, never ignored.

use crate::check::{Check, Def, api, arith, crafted, e2e, e2e_extra, rare};
use crate::model::Provenance;
use crate::model::{Case, Output, Verdict};
use crate::oracle::{Miss, Msg, Oracle};

/// Which implementations an entry covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Every PQClean C variant.
    C,
    /// Every backend of this crate (the reference included).
    Rust,
    /// Every implementation of one origin.
    From(Provenance),
    Named(&'static str),
    Names(&'static [&'static str]),
    /// Every implementation, the reference included (an answer FIPS 204 fixes).
    Every,
}

impl Who {
    /// Whether `name` (an implementation of origin `origin`) is covered.
    pub fn covers(self, name: &str, origin: Provenance) -> bool {
        match self {
            Who::C => origin == Provenance::PqClean,
            Who::Rust => origin == Provenance::Ours,
            Who::From(o) => origin == o,
            Who::Named(n) => n == name,
            Who::Names(ns) => ns.contains(&name),
            Who::Every => true,
        }
    }
}

/// What an implementation must answer instead of agreeing with the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Only this verdict is compared.
    Verdict(Verdict),
    /// Exactly this output, compared as the check's contract says (a refusal, under
    /// `Answer::SignatureOrRefusal`, however the API words it).
    Output(Output),
    /// Exactly this output, a refusal's words included.
    Exactly(Output),
    /// A refusal to sign, however the API words it (and nothing else in the answer).
    Refusal,
    /// Its process exits instead of answering, with this text in its last stderr: a bug of
    /// that implementation, written up in FINDINGS.md.
    Exits(&'static str),
}

/// One stated difference (or, for [`Who::Rust`], the answer the specification requires).
#[derive(Clone, Copy, Debug)]
pub struct Known {
    /// The checks it applies to (every variant).
    pub checks: &'static [&'static Def],
    pub who: Who,
    /// Whether it is a deviation of that implementation from FIPS 204 (listed as such).
    pub deviation: bool,
    pub reason: &'static str,
    /// The exact answer required, given the input and the reference's answer.
    pub expect: fn(Check, &Case, &Output) -> Expected,
}

/// PQClean AVX2's verifier, as the model verifier's deviation flags (see the
/// verify_crafted_{set} entry for c-avx2).
pub const PQCLEAN_AVX2_VERIFY: crate::craft::Leniency = crate::craft::Leniency {
    no_z_bound: true,
    use_hint_zero_up: true,
    ..crate::craft::FIPS
};

/// The implementations that decode an expanded secret key without range-checking s1 and s2
/// (FIPS 204 Alg. 25 has no check; Alg. 7 assumes a key from Alg. 6) and so sign with an
/// out-of-range key: the two in other processes of this kind (see their entries).
const SIGN_OUT_OF_RANGE: &[&str] = &["dilithium-py", "zig"];

/// Zig's std.crypto ML-DSA gives up after this many rejected attempts (FINDINGS.md)...
pub const ZIG_ATTEMPTS: usize = 575;
/// ... by `unreachable`, which its ReleaseSafe adapter reports so on stderr as it aborts.
pub const ZIG_PANIC: &str = "panic: reached unreachable code";

pub static KNOWN: [Known; 18] = [
    Known {
        checks: &[
            &crafted::VERIFY_CRAFTED,
            &e2e::VERIFY,
            &e2e_extra::VERIFY_HOSTILE,
            &api::API_VERIFY,
        ],
        who: Who::Named("c-avx2"),
        deviation: true,
        reason: "PQClean's AVX2 verifier (pqcrypto-mldsa 0.1.2) skips the ||z|| < gamma1 - beta check \
                 (\"shortness follows from unpacking\"; fixed in pq-crystals/dilithium after its issue \
                 113), and its use_hint gives r1 + 1 for h = 1, r0 = 0 (see use_hint_{g2}). So it \
                 accepts crafted signatures whose only fault is a z coefficient at or beyond the bound, \
                 and rejects valid ones that reach UseHint(1, r0 = 0). Asserted: exactly the verdict of \
                 the model verifier (craft::spec) with those two deviations and no other.",
        expect: |check, case, _| model_verdict(check, case, PQCLEAN_AVX2_VERIFY),
    },
    Known {
        checks: &[&crafted::VERIFY_CRAFTED],
        who: Who::Every,
        deviation: false,
        reason: "FIPS 204 fixes the verdict of every crafted case: accept for the valid rules, reject \
                 for those that break exactly one rule (craft::RULES, printed by `mldsa-diff list`). \
                 Asserted for every verifier, the reference included, so a bug all of them share is \
                 still caught.",
        expect: |_, case, _| match crate::check::crafted::rule_of(case) {
            Some(rule) => verdict(rule.accept),
            None => unstated("the case's scalar names no crafted rule"),
        },
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::C,
        deviation: true,
        reason: "PQClean does not range-check s1/s2 when it decodes an expanded secret key, so it signs \
                 with a key whose coefficients lie outside [-eta, eta]; mldsa rejects such a key with \
                 SecretKeyOutOfRange. Asserted: every C variant signs, and its signature is exactly \
                 mldsa-native's (portable C) on the same key, message, context and rnd.",
        expect: |check, case, _| signed_as(&crate::impls::mldsa_native::portable(), check, case),
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::Rust,
        deviation: false,
        reason: "FIPS 204 keys have s1, s2 in [-eta, eta]: every Rust backend refuses to sign with \
                 SecretKeyOutOfRange. Asserted: exactly that error.",
        expect: |_, _, _| worded(mldsa::Error::SecretKeyOutOfRange),
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::From(Provenance::MldsaNative),
        deviation: true,
        reason: "mldsa-native (both builds) does not range-check s1/s2 when it decodes a secret key \
                 for signing (its pk_from_sk does), so it signs, as PQClean does. Asserted: it signs, \
                 and its signature is exactly libcrux's (portable) on the same inputs.",
        expect: |check, case, _| signed_as(&crate::impls::libcrux::Libcrux::Portable, check, case),
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::Names(&crate::impls::libcrux::NAMES),
        deviation: true,
        reason: "libcrux-ml-dsa decodes s1/s2 as eta - x without a range check and signs with the \
                 out-of-range coefficient. Asserted: it signs, and its signature is exactly \
                 mldsa-native's (portable C) on the same inputs.",
        expect: |check, case, _| signed_as(&crate::impls::mldsa_native::portable(), check, case),
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::Named(crate::impls::rustcrypto::NAME),
        deviation: true,
        reason: "RustCrypto ml-dsa's expanded-key decoder asserts (panics, release builds too) on such a \
                 key; the wrapper does not call it (a panic aborts a fuzzer) and answers a fixed \
                 refusal. Asserted: exactly that refusal (the test rustcrypto_panics_on_out_of_range_keys \
                 shows the panic is real).",
        expect: |_, _, _| signed(Err(crate::impls::rustcrypto::PANICS_ON_KEY.to_string())),
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::Names(SIGN_OUT_OF_RANGE),
        deviation: true,
        reason: "dilithium-py (1.5.1) and Zig's std.crypto ML-DSA (0.17.0) decode s1/s2 as eta - x \
                 without a range check and sign with the out-of-range coefficient (Wycheproof's \
                 sign_noseed InvalidPrivateKey cases expect a refusal). Asserted: each signs, and its \
                 signature is exactly mldsa-native's (portable C) on the same inputs.",
        expect: |check, case, _| signed_as(&crate::impls::mldsa_native::portable(), check, case),
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::Named(crate::impls::openssl::NAME),
        deviation: false,
        reason: "OpenSSL range-checks s1/s2 when it imports an expanded secret key, as this crate \
                 does (it queues no error text for it). Asserted: a refusal.",
        expect: |_, _, _| Expected::Refusal,
    },
    Known {
        checks: &[&e2e::SIGN_MALFORMED_SK],
        who: Who::Named(crate::impls::fips204::NAME),
        deviation: false,
        reason: "fips204 range-checks s1/s2 when it decodes a secret key, as this crate does. \
                 Asserted: exactly its error, \"Alg 25: s1 or s2 out of range\".",
        expect: |_, _, _| {
            Expected::Exactly(e2e::signed(Err(
                "fips204: Alg 25: s1 or s2 out of range".into()
            )))
        },
    },
    Known {
        checks: &[&e2e_extra::SIGN_VARIANTS],
        who: Who::Named("dilithium-py"),
        deviation: true,
        reason: "dilithium-py signs with a key whose s1/s2 lie outside [-eta, eta] through external mu, \
                 Sign_internal and HashML-DSA too (its sign_malformed_sk entry). Asserted as for \
                 mldsa-native (below): for a key in range, the reference's answer; for one out of \
                 range, exactly the model signer's signature.",
        expect: out_of_range_key_signed,
    },
    Known {
        checks: &[&e2e_extra::SIGN_VARIANTS],
        who: Who::From(Provenance::MldsaNative),
        deviation: true,
        reason: "mldsa-native signs with a key whose s1/s2 lie outside [-eta, eta] through external mu \
                 and Sign_internal too (the Wycheproof sign_noseed InvalidPrivateKey cases given by mu \
                 show it); every other signer with those interfaces refuses. Asserted: for a key in \
                 range, the reference's answer; for one out of range, exactly the signature of the \
                 model signer (craft::sign, FIPS 204 Alg. 7 written a second time, decoding the key \
                 without a range check; for a pre-hash input, of M' built from NIST's OIDs).",
        expect: out_of_range_key_signed,
    },
    Known {
        checks: &[&rare::SIGN_RARE, &api::API_SIGN],
        who: Who::Named(crate::impls::typed::TYPED),
        deviation: false,
        reason: "The typed API imports an expanded secret key only if its tr and t0 are the ones its \
                 rho, s1 and s2 imply (SigningKey::from_expanded_bytes); the raw API and every other \
                 implementation sign with such a key (sign_rare's ||c t0|| inputs carry a made-up t0; \
                 api_sign flips bytes of rho, K, tr or t0). \
                 Asserted: exactly SecretKeyInconsistent where the model (craft::sign::consistent) \
                 finds the key inconsistent, else the reference's signature.",
        expect: |check, case, reference| {
            let p = check.params();
            if case.sk.len() == p.sk_bytes() && !crate::craft::sign::in_range(&p, &case.sk) {
                return worded(mldsa::Error::SecretKeyOutOfRange);
            }
            match crate::craft::sign::consistent(&p, &case.sk) {
                Some(false) => worded(mldsa::Error::SecretKeyInconsistent),
                _ => Expected::Output(reference.clone()),
            }
        },
    },
    Known {
        checks: &[&rare::SIGN_RARE, &api::API_SIGN],
        who: Who::Named(crate::impls::openssl::NAME),
        deviation: false,
        reason: "OpenSSL imports an expanded secret key only if its t0 is Power2Round(A s1 + s2)'s and \
                 its tr is H(rho || t1) (it re-derives both; K cannot be checked), as this crate's \
                 typed API does; every other signer signs with such a key (sign_rare's ||c t0|| inputs \
                 carry a made-up t0; api_sign flips bytes of rho, K, tr or t0). Asserted: a refusal, \
                 however worded, where the model (craft::sign::consistent) finds the key inconsistent \
                 or out of range, else the reference's signature.",
        expect: |check, case, reference| {
            let p = check.params();
            let whole = case.sk.len() == p.sk_bytes();
            if whole && !crate::craft::sign::in_range(&p, &case.sk) {
                return Expected::Refusal;
            }
            match crate::craft::sign::consistent(&p, &case.sk) {
                Some(false) => Expected::Refusal,
                _ => Expected::Output(reference.clone()),
            }
        },
    },
    Known {
        checks: &[&rare::SIGN_RARE],
        who: Who::Named("zig"),
        deviation: true,
        reason: "Zig's std.crypto ML-DSA (0.17.0) ends its signing loop with `unreachable` after 575 \
                 rejected attempts: a panic in the ReleaseSafe adapter (undefined behaviour in a \
                 ReleaseFast build), where FIPS 204 Appendix C lets a cap be no lower than 814 \
                 and the signer return an error. sign_rare_44's Attempts576 input needs 635 \
                 attempts (every other signer signs it alike). Asserted: its process exits exactly \
                 where the model signer (craft::sign) needs more than 575 attempts, else the \
                 reference's signature. FINDINGS.md has the input and the replay command.",
        expect: |check, case, reference| {
            memo(check, case, || {
                let (p, m_prime) = (check.params(), [&[0u8, 0][..], &case.msg].concat());
                let Ok(rnd) = <[u8; 32]>::try_from(case.rnd.as_slice()) else {
                    return unstated("a sign case has a 32-byte rnd");
                };
                let cap = usize::from(mldsa::MAX_SIGNING_ATTEMPTS);
                match crate::craft::sign::attempts(&p, &case.sk, &m_prime, &rnd, cap) {
                    Some(a) if a.len() > ZIG_ATTEMPTS => Expected::Exits(ZIG_PANIC),
                    _ => Expected::Output(reference.clone()),
                }
            })
        },
    },
    Known {
        checks: &[&api::API_VERIFY],
        who: Who::Every,
        deviation: false,
        reason: "FIPS 204 fixes every public-API verify case: accept exactly when the model verifier \
                 (craft::spec, with M' built there for pure ML-DSA and for HashML-DSA from NIST's OIDs) \
                 accepts; a context over 255 bytes or a digest of another length is rejected. Asserted \
                 for every verifier, the reference included.",
        expect: |check, case, _| {
            memo(check, case, || {
                verdict(api_m_prime(case).is_some_and(|m| {
                    crate::craft::spec::verify_internal(
                        &check.params(),
                        &case.pk,
                        &m,
                        &case.sig,
                        crate::craft::FIPS,
                    )
                }))
            })
        },
    },
    Known {
        checks: &[&api::API_SIGN],
        who: Who::Every,
        deviation: false,
        reason: "FIPS 204 fixes every public-API sign case whose key is in range: a refusal for a \
                 context over 255 bytes, a digest of another length or a key of another length, else \
                 exactly the model signer's signature (craft::sign, Alg. 7 written a second time, mu \
                 from the key's own tr). Asserted for every signer, the reference included. (A key with \
                 s1/s2 out of range, which api_sign never generates, is held to the reference.)",
        expect: |check, case, reference| {
            // Outside the memo: its key is the case, not the reference's answer.
            if api_sign_held_to_reference(check, case) {
                Expected::Output(reference.clone())
            } else {
                memo(check, case, || api_signed(check, case))
            }
        },
    },
    Known {
        checks: &[&arith::USE_HINT],
        who: Who::Named("c-avx2"),
        deviation: true,
        reason: "PQClean's AVX2 use_hint_avx selects r1 - 1 only when r0 < 0 (blendv on the sign bit), \
                 so for h = 1 and r0 = 0 it returns r1 + 1; FIPS 204 Alg. 40 returns r1 - 1 for r0 <= 0 \
                 (the same bug was fixed in libcrux, PR 1398). Asserted: c-avx2 equals the reference \
                 except exactly at coefficients with h = 1 and r0 = 0, where it is (r1 + 1) mod m.",
        expect: |check, case, reference| {
            let crate::check::Variant::Gamma2(g) = check.variant else {
                unreachable!("use_hint has a gamma2 variant")
            };
            let mut out = reference.clone();
            for (i, r1) in out.polys[0].iter_mut().enumerate() {
                let (a, h) = (case.polys[0][i], case.polys[1][i]);
                let (hi, lo) = mldsa::backend::portable::decompose(g, a);
                if h == 1 && lo == 0 {
                    *r1 = (hi + 1) % g.m();
                }
            }
            Expected::Output(out)
        },
    },
];

/// The verdict of the model verifier with exactly the deviations in `lenient`.
fn model_verdict(check: Check, case: &Case, lenient: crate::craft::Leniency) -> Expected {
    let (p, c) = (check.params(), case);
    verdict(crate::craft::spec::verify(
        &p, &c.pk, &c.msg, &c.ctx, &c.sig, lenient,
    ))
}

/// Exactly this verdict (accept or reject), every other field of the answer empty.
fn verdict(ok: bool) -> Expected {
    Expected::Output(e2e::verdict(crate::oracle::accepted(ok)))
}

/// This crate's refusal with `e`, its words included (every other field of the answer empty).
fn worded(e: mldsa::Error) -> Expected {
    Expected::Exactly(e2e::signed(Err(e.to_string())))
}

/// Exactly this signature, or exactly this error (every other field of the answer empty).
fn signed(r: crate::oracle::Signed) -> Expected {
    Expected::Output(e2e::signed(r))
}

/// mu = H(tr || M', 64) (FIPS 204 Alg. 7 line 6), with the tr of expanded key `sk`.
fn mu_of(sk: &[u8], m_prime: &[u8]) -> [u8; 64] {
    use sha3::digest::ExtendableOutput;
    let mut mu = [0u8; 64];
    sha3::Shake256::digest_xof([&sk[64..128], m_prime].concat(), &mut mu);
    mu
}

/// The model signer's signature (craft::sign) of `mu` with the case's key and rnd.
fn model_signed(check: Check, case: &Case, mu: &[u8; 64]) -> Expected {
    let Ok(rnd) = <[u8; 32]>::try_from(case.rnd.as_slice()) else {
        return unstated("a sign case has a 32-byte rnd");
    };
    match crate::craft::sign::sign_mu(&check.params(), &case.sk, mu, &rnd) {
        Some(bytes) => signed(Ok(bytes)),
        None => unstated("the model signer did not sign"),
    }
}

/// The reference's answer for a key in range; for one out of range, the model signer's
/// signature (see the sign_variants entry).
fn out_of_range_key_signed(check: Check, case: &Case, reference: &Output) -> Expected {
    use crate::check::e2e_extra::{EXTERNAL_MU, INTERNAL};
    let p = check.params();
    if mldsa::raw::check_secret_key(&p, &case.sk) != Err(mldsa::Error::SecretKeyOutOfRange) {
        return Expected::Output(reference.clone());
    }
    let mu: [u8; 64] = match case.scalar {
        EXTERNAL_MU => match case.msg.as_slice().try_into() {
            Ok(mu) => mu,
            Err(_) => return unstated("an external-mu case has a 64-byte mu"),
        },
        INTERNAL => mu_of(&case.sk, &case.msg),
        _ => match api_m_prime(case) {
            Some(m_prime) => mu_of(&case.sk, &m_prime),
            None => return unstated("a pre-hash sign_variants case has a valid M'"),
        },
    };
    model_signed(check, case, &mu)
}

/// M' of a public-API case as the model builds it (pure, or HashML-DSA from the digest the
/// case gives or the hash of its message); `None` where FIPS 204 refuses the input.
fn api_m_prime(case: &Case) -> Option<Vec<u8>> {
    use crate::check::e2e_extra::{PRE_HASH, PRE_HASHED};
    use crate::craft::spec;
    let ph = || {
        mldsa::prehash::PreHash::ALL
            .get(usize::from(*case.bytes.first()?))
            .copied()
    };
    match case.scalar {
        0 => spec::pure_m_prime(&case.msg, &case.ctx, crate::craft::FIPS),
        PRE_HASH => {
            let ph = ph()?;
            spec::prehash_m_prime(ph, &crate::oracle::digest(ph, &case.msg), &case.ctx)
        }
        PRE_HASHED => spec::prehash_m_prime(ph()?, &case.msg, &case.ctx),
        _ => None,
    }
}

/// A well-formed api_sign case whose key has s1 or s2 out of range: FIPS 204 does not fix the
/// answer (Alg. 7 assumes a key from Alg. 6), so every signer is held to the reference.
fn api_sign_held_to_reference(check: Check, case: &Case) -> bool {
    let p = check.params();
    api_m_prime(case).is_some()
        && case.sk.len() == p.sk_bytes()
        && !crate::craft::sign::in_range(&p, &case.sk)
}

/// What FIPS 204 makes of a public-API sign case (see its entry) whose key is not held to the
/// reference.
fn api_signed(check: Check, case: &Case) -> Expected {
    let p = check.params();
    let Some(m_prime) = api_m_prime(case).filter(|_| case.sk.len() == p.sk_bytes()) else {
        return signed(Err(String::new()));
    };
    if !crate::craft::sign::in_range(&p, &case.sk) {
        return unstated("api_sign_held_to_reference covers a key out of range");
    }
    model_signed(check, case, &mu_of(&case.sk, &m_prime))
}

/// `f()`, remembered for the last few (check, case) pairs: the judge asks once per
/// implementation, and the model is slow.
fn memo(check: Check, case: &Case, f: impl FnOnce() -> Expected) -> Expected {
    thread_local! {
        static LAST: e2e::Memo<(Check, Case), Expected> = e2e::Memo::new();
    }
    LAST.with(|m| m.get_or((check, case.clone()), f))
}

/// An answer no implementation gives: the harness could not state the required one (a
/// malformed case), so every implementation's answer is a mismatch showing why.
fn unstated(why: &str) -> Expected {
    Expected::Output(crate::model::Fault::Expectation(why.to_string()).output())
}

/// The signature `peer` makes with the case's key, message, context and rnd (pure ML-DSA):
/// what another implementation that signs with an out-of-range key must produce too. If the
/// designated signer itself refuses, that refusal is what is required (and the mismatch
/// shows it).
fn signed_as(peer: &dyn Oracle, check: Check, case: &Case) -> Expected {
    let Ok(rnd) = <[u8; 32]>::try_from(case.rnd.as_slice()) else {
        return unstated("a sign case has a 32-byte rnd");
    };
    let m = Msg::Pure {
        msg: &case.msg,
        ctx: &case.ctx,
    };
    match peer.sign(
        &check.params(),
        crate::oracle::Key::expanded(&case.sk),
        m,
        &rnd,
    ) {
        Ok(Ok(bytes)) => signed(Ok(bytes)),
        Ok(Err(e)) => signed(Err(format!("{} refused: {e}", peer.name()))),
        Err(Miss::NotOffered) => signed(Err(format!("{} does not take this input", peer.name()))),
        Err(Miss::Fault(f)) => Expected::Output(f.output()),
    }
}

/// The entry covering `check` on implementation `name`, if any.
pub fn find(check: Check, name: &str, origin: Provenance) -> Option<&'static Known> {
    KNOWN.iter().find(|k| {
        k.checks.iter().any(|d| core::ptr::eq(*d, check.def)) && k.who.covers(name, origin)
    })
}
