//! Every rejection rule of decoding, each with a hand-built bad input and the exact error.

#[macro_use]
mod common;

use mldsa::params::POLY_T0_BYTES;
use mldsa::{
    Error, HintError, MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, Signature, SigningKey,
    VerifyingKey, raw,
};

fn key<P: ParameterSet>() -> SigningKey<P> {
    SigningKey::<P>::from_seed(&[42u8; 32])
}

fn sig_bytes<P: ParameterSet>() -> Vec<u8> {
    key::<P>()
        .sign_deterministic(b"rejection tests", b"")
        .unwrap()
        .as_bytes()
        .to_vec()
}

/// Offset of the hint section (omega + k bytes) in a signature.
fn hint_offset<P: ParameterSet>() -> usize {
    let p = P::PARAMS;
    p.ctilde_bytes() + p.l * p.gamma1.poly_z_bytes()
}

/// A signature whose hint section is `indices` followed by zeros, with the k cumulative
/// counts `counts`.
fn with_hint<P: ParameterSet>(indices: &[u8], counts: &[u8]) -> Vec<u8> {
    let p = P::PARAMS;
    let mut s = sig_bytes::<P>();
    let off = hint_offset::<P>();
    s[off..].fill(0);
    s[off..off + indices.len()].copy_from_slice(indices);
    s[off + p.omega..off + p.omega + counts.len()].copy_from_slice(counts);
    s
}

fn decode<P: ParameterSet>(s: &[u8]) -> Result<(), Error> {
    Signature::<P>::from_bytes(s).map(|_| ())
}

fn hint_rules<P: ParameterSet>() {
    let k = P::PARAMS.k;
    let omega = P::PARAMS.omega as u8;
    // Valid: the same position may appear in different polynomials; counts may stay level.
    let mut counts = vec![2u8; k];
    counts[0] = 1;
    assert_eq!(decode::<P>(&with_hint::<P>(&[5, 5], &counts)), Ok(()));
    // Cumulative count going backwards (Alg. 21 line 4, y[omega + i] < Index).
    let mut counts = vec![3u8; k];
    counts[1] = 1;
    assert_eq!(
        decode::<P>(&with_hint::<P>(&[1, 2, 3], &counts)),
        Err(Error::MalformedHint(HintError::CountDecreasing { poly: 1 }))
    );
    // Cumulative count above omega (line 4, y[omega + i] > omega).
    let counts = vec![omega + 1; k];
    assert_eq!(
        decode::<P>(&with_hint::<P>(&[], &counts)),
        Err(Error::MalformedHint(HintError::CountExceedsOmega {
            poly: 0
        }))
    );
    // Positions not strictly increasing within one polynomial (line 8): equal, then smaller.
    let mut counts = vec![2u8; k];
    counts[0] = 0;
    assert_eq!(
        decode::<P>(&with_hint::<P>(&[7, 7], &counts)),
        Err(Error::MalformedHint(HintError::IndicesNotIncreasing {
            poly: 1
        }))
    );
    let counts = vec![2u8; k];
    assert_eq!(
        decode::<P>(&with_hint::<P>(&[9, 8], &counts)),
        Err(Error::MalformedHint(HintError::IndicesNotIncreasing {
            poly: 0
        }))
    );
    // Non-zero byte after the last used index (lines 14-16).
    let counts = vec![1u8; k];
    assert_eq!(
        decode::<P>(&with_hint::<P>(&[4, 0, 0, 1], &counts)),
        Err(Error::MalformedHint(HintError::NonZeroPadding))
    );
    let mut last_slot = vec![0u8; P::PARAMS.omega];
    last_slot[P::PARAMS.omega - 1] = 200;
    assert_eq!(
        decode::<P>(&with_hint::<P>(&last_slot, &vec![0u8; k])),
        Err(Error::MalformedHint(HintError::NonZeroPadding))
    );
    // Verification reports the same decoding error.
    let sk = key::<P>();
    let bad = with_hint::<P>(&[], &vec![omega + 1; k]);
    let mu = sk
        .verifying_key()
        .compute_mu(b"rejection tests", b"")
        .unwrap();
    assert_eq!(
        raw::verify_mu(
            mldsa::BackendKind::Portable,
            &P::PARAMS,
            sk.verifying_key().as_bytes(),
            &mu,
            &bad
        ),
        Err(Error::MalformedHint(HintError::CountExceedsOmega {
            poly: 0
        }))
    );
}

/// Writes the packed value `v` (= gamma1 - z) into the first z coefficient.
fn with_first_z<P: ParameterSet>(v: u32) -> Vec<u8> {
    let p = P::PARAMS;
    let mut s = sig_bytes::<P>();
    let off = p.ctilde_bytes();
    let bits = p.gamma1.z_bits();
    let mut word = u32::from_le_bytes([s[off], s[off + 1], s[off + 2], 0]);
    word = (word & !((1u32 << bits) - 1)) | v;
    s[off..off + 3].copy_from_slice(&word.to_le_bytes()[..3]);
    s
}

fn z_bound<P: ParameterSet>() {
    let p = P::PARAMS;
    let g1 = p.gamma1.value() as u32;
    let beta = p.beta as u32;
    // z = gamma1 - v. |z| = gamma1 - beta is rejected, gamma1 - beta - 1 is accepted.
    assert_eq!(
        decode::<P>(&with_first_z::<P>(beta)),
        Err(Error::SignatureZOutOfRange)
    );
    assert_eq!(decode::<P>(&with_first_z::<P>(beta + 1)), Ok(()));
    assert_eq!(
        decode::<P>(&with_first_z::<P>(2 * g1 - beta)),
        Err(Error::SignatureZOutOfRange)
    );
    assert_eq!(decode::<P>(&with_first_z::<P>(2 * g1 - beta - 1)), Ok(()));
    assert_eq!(
        decode::<P>(&with_first_z::<P>(0)),
        Err(Error::SignatureZOutOfRange)
    );
}

/// Sets the packed value of coefficient 0 of s1 (poly 0) or s2 (poly 0) to `v`.
fn sk_with_value<P: ParameterSet>(in_s2: bool, v: u8) -> Vec<u8> {
    let p = P::PARAMS;
    let mut sk = key::<P>().to_expanded_bytes().as_ref().to_vec();
    let off = 128
        + if in_s2 {
            p.l * p.eta.poly_eta_bytes()
        } else {
            0
        };
    let bits = p.eta.bits();
    sk[off] = (sk[off] & !((1u8 << bits) - 1)) | v;
    sk
}

fn secret_key_range<P: ParameterSet>() {
    let p = P::PARAMS;
    let two_eta = 2 * p.eta.value() as u8;
    for in_s2 in [false, true] {
        // 2 eta encodes -eta: in range. 2 eta + 1 and the largest encodable value are not.
        let ok = sk_with_value::<P>(in_s2, two_eta);
        assert_eq!(raw::check_secret_key(&p, &ok), Ok(()));
        for v in [two_eta + 1, (1u8 << p.eta.bits()) - 1] {
            let bad = sk_with_value::<P>(in_s2, v);
            assert_eq!(
                raw::check_secret_key(&p, &bad),
                Err(Error::SecretKeyOutOfRange),
                "s2 {in_s2} v {v}"
            );
            assert_eq!(
                SigningKey::<P>::from_expanded_bytes(&bad).err(),
                Some(Error::SecretKeyOutOfRange)
            );
            let mut sig = vec![0u8; p.sig_bytes()];
            assert_eq!(
                raw::sign_internal(
                    mldsa::BackendKind::Portable,
                    &p,
                    &bad,
                    &[b"m"],
                    &[0; 32],
                    &mut sig
                ),
                Err(Error::SecretKeyOutOfRange)
            );
        }
    }
}

fn secret_key_consistency<P: ParameterSet>() {
    let good = key::<P>().to_expanded_bytes().as_ref().to_vec();
    assert!(SigningKey::<P>::from_expanded_bytes(&good).is_ok());
    // tr is bytes 64..128; t0 is the last POLY_T0_BYTES * k bytes.
    for pos in [
        64,
        127,
        good.len() - 1,
        good.len() - POLY_T0_BYTES * P::PARAMS.k,
    ] {
        let mut bad = good.clone();
        bad[pos] ^= 1;
        assert_eq!(
            SigningKey::<P>::from_expanded_bytes(&bad).err(),
            Some(Error::SecretKeyInconsistent),
            "byte {pos}"
        );
    }
    // Changing s1 changes the public key, so its t0 no longer matches either.
    let s1_changed = sk_with_value::<P>(false, 0);
    if s1_changed != good {
        assert_eq!(
            SigningKey::<P>::from_expanded_bytes(&s1_changed).err(),
            Some(Error::SecretKeyInconsistent)
        );
    }
}

fn lengths<P: ParameterSet>() {
    let p = P::PARAMS;
    for (len, want) in [
        (p.pk_bytes() - 1, p.pk_bytes()),
        (p.pk_bytes() + 1, p.pk_bytes()),
        (0, p.pk_bytes()),
    ] {
        assert_eq!(
            VerifyingKey::<P>::from_bytes(&vec![0; len]).err(),
            Some(Error::InvalidLength {
                what: "public key",
                expected: want,
                got: len
            })
        );
    }
    let n = p.sig_bytes();
    assert_eq!(
        Signature::<P>::from_bytes(&vec![0; n - 1]).err(),
        Some(Error::InvalidLength {
            what: "signature",
            expected: n,
            got: n - 1
        })
    );
    let n = p.sk_bytes();
    assert_eq!(
        SigningKey::<P>::from_expanded_bytes(&vec![0; n + 1]).err(),
        Some(Error::InvalidLength {
            what: "secret key",
            expected: n,
            got: n + 1
        })
    );
    let mut short = vec![0u8; p.sig_bytes() - 1];
    assert_eq!(
        raw::sign_internal(
            mldsa::BackendKind::Portable,
            &p,
            &vec![0; p.sk_bytes()],
            &[],
            &[0; 32],
            &mut short
        ),
        Err(Error::InvalidLength {
            what: "signature buffer",
            expected: p.sig_bytes(),
            got: p.sig_bytes() - 1
        })
    );
}

fn context_and_digest<P: ParameterSet>() {
    let sk = key::<P>();
    let vk = sk.verifying_key();
    let ctx255 = [1u8; 255];
    let ctx256 = [1u8; 256];
    let sig = sk.sign_deterministic(b"m", &ctx255).unwrap();
    assert_eq!(vk.verify(b"m", &ctx255, &sig), Ok(()));
    assert_eq!(
        sk.sign_deterministic(b"m", &ctx256).err(),
        Some(Error::ContextTooLong { len: 256 })
    );
    assert_eq!(
        vk.verify(b"m", &ctx256, &sig),
        Err(Error::ContextTooLong { len: 256 })
    );
    assert_eq!(
        sk.sign_prehash_with_rnd(PreHash::Sha2_256, b"m", &ctx256, &[0; 32])
            .err(),
        Some(Error::ContextTooLong { len: 256 })
    );
    assert_eq!(
        sk.sign_prehashed_with_rnd(PreHash::Sha2_384, &[0u8; 32], b"", &[0; 32])
            .err(),
        Some(Error::InvalidDigestLength {
            expected: 48,
            got: 32
        })
    );
    assert_eq!(
        vk.verify_prehashed(PreHash::Shake256, &[0u8; 63], b"", &sig),
        Err(Error::InvalidDigestLength {
            expected: 64,
            got: 63
        })
    );
}

for_all_sets!(
    hint => hint_rules,
    z => z_bound,
    sk_range => secret_key_range,
    sk_consistency => secret_key_consistency,
    length => lengths,
    context => context_and_digest,
);

mod no_panic {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn decode_all<P: ParameterSet>(bytes: &[u8]) {
        let p = P::PARAMS;
        let _ = VerifyingKey::<P>::from_bytes(bytes);
        let _ = Signature::<P>::from_bytes(bytes);
        let _ = SigningKey::<P>::from_expanded_bytes(bytes);
        // Exact lengths so decoding goes past the length check.
        let mut b = bytes.to_vec();
        for n in [p.pk_bytes(), p.sig_bytes(), p.sk_bytes()] {
            b.resize(n, 0x5a);
            let _ = VerifyingKey::<P>::from_bytes(&b);
            let _ = Signature::<P>::from_bytes(&b);
            let _ = raw::check_secret_key(&p, &b);
            let mut sig = vec![0u8; p.sig_bytes()];
            let _ = raw::sign_internal(
                mldsa::BackendKind::Portable,
                &p,
                &b,
                &[b"x"],
                &[0; 32],
                &mut sig,
            );
        }
        let vk = key::<P>();
        b.resize(p.sig_bytes(), 0);
        let mu = [0u8; 64];
        assert!(
            raw::verify_mu(
                mldsa::BackendKind::Portable,
                &p,
                vk.verifying_key().as_bytes(),
                &mu,
                &b
            )
            .is_err()
        );
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
        for _ in 0..64 {
            let len = rng.gen_range(0..5000);
            let mut bytes = vec![0u8; len];
            rng.fill(&mut bytes[..]);
            decode_all::<MlDsa44>(&bytes);
            decode_all::<MlDsa65>(&bytes);
            decode_all::<MlDsa87>(&bytes);
        }
    }
}
