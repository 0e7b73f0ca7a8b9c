//! Behaviour of the typed API: every signing mode verifies under its own verifier and fails
//! under the others; keys round-trip; the RustCrypto traits work.

#[macro_use]
mod common;

use mldsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
use mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, Signature, SigningKey, VerifyingKey,
};
use rand::SeedableRng;

fn modes<P: ParameterSet>() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
    let sk = SigningKey::<P>::generate(&mut rng).unwrap();
    let vk = sk.verifying_key();
    let (msg, ctx) = (b"the message".as_slice(), b"ctx".as_slice());

    // Pure, hedged: two signatures differ, both verify.
    let s1 = sk.sign(msg, ctx, &mut rng).unwrap();
    let s2 = sk.sign(msg, ctx, &mut rng).unwrap();
    assert_ne!(s1, s2);
    assert_eq!(vk.verify(msg, ctx, &s1), Ok(()));
    assert_eq!(vk.verify(msg, ctx, &s2), Ok(()));
    // Deterministic: repeatable and equal to rnd = 0.
    let d = sk.sign_deterministic(msg, ctx).unwrap();
    assert_eq!(d, sk.sign_deterministic(msg, ctx).unwrap());
    assert_eq!(d, sk.sign_with_rnd(msg, ctx, &[0; 32]).unwrap());
    // Wrong message, context, or domain fails.
    assert_eq!(
        vk.verify(b"the messagE", ctx, &d),
        Err(Error::VerificationFailed)
    );
    assert_eq!(vk.verify(msg, b"ctX", &d), Err(Error::VerificationFailed));
    assert_eq!(
        vk.verify_prehash(PreHash::Sha2_256, msg, ctx, &d),
        Err(Error::VerificationFailed)
    );

    // HashML-DSA with each of the twelve functions; digest and message forms agree.
    for ph in PreHash::ALL {
        let s = sk.sign_prehash_with_rnd(ph, msg, ctx, &[3; 32]).unwrap();
        let digest = ph.digest(msg);
        assert_eq!(
            s,
            sk.sign_prehashed_with_rnd(ph, &digest[..ph.digest_len()], ctx, &[3; 32])
                .unwrap()
        );
        assert_eq!(vk.verify_prehash(ph, msg, ctx, &s), Ok(()), "{}", ph.name());
        assert_eq!(vk.verify(msg, ctx, &s), Err(Error::VerificationFailed));
        let other = if ph == PreHash::Sha2_256 {
            PreHash::Sha2_512
        } else {
            PreHash::Sha2_256
        };
        assert_eq!(
            vk.verify_prehash(other, msg, ctx, &s),
            Err(Error::VerificationFailed)
        );
    }

    // External mu equals the pure interface; internal on M' equals mu of M'.
    let mu = vk.compute_mu(msg, ctx).unwrap();
    assert_eq!(sk.sign_mu(&mu, &[0; 32]), Ok(d));
    assert_eq!(vk.verify_mu(&mu, &d), Ok(()));
    let mut m_prime = vec![0u8, ctx.len() as u8];
    m_prime.extend_from_slice(ctx);
    m_prime.extend_from_slice(msg);
    assert_eq!(sk.sign_internal(&m_prime, &[0; 32]), Ok(d));
    assert_eq!(vk.verify_internal(&m_prime, &d), Ok(()));

    // Every single-bit flip in c~ and in the first z bytes is rejected.
    let bytes = d.as_bytes().to_vec();
    for pos in
        (0..P::PARAMS.ctilde_bytes()).chain(P::PARAMS.ctilde_bytes()..P::PARAMS.ctilde_bytes() + 40)
    {
        let mut b = bytes.clone();
        b[pos] ^= 1 << (pos % 8);
        let verdict = Signature::<P>::from_bytes(&b).and_then(|s| vk.verify(msg, ctx, &s));
        assert!(verdict.is_err(), "flip at byte {pos} accepted");
    }
}

/// An RNG whose every draw fails.
struct FailingRng;

impl rand::RngCore for FailingRng {
    fn next_u32(&mut self) -> u32 {
        panic!("the library draws through try_fill_bytes")
    }
    fn next_u64(&mut self) -> u64 {
        panic!("the library draws through try_fill_bytes")
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        panic!("the library draws through try_fill_bytes")
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand::Error> {
        Err(rand::Error::new("no entropy"))
    }
}

impl rand::CryptoRng for FailingRng {}

fn keys<P: ParameterSet>() {
    // KeyGen (Alg. 1) is KeyGen_internal of the RNG's first 32 bytes; an RNG failure is
    // Error::Rng.
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let mut xi = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rng.clone(), &mut xi);
    let generated = SigningKey::<P>::generate(&mut rng).unwrap();
    assert_eq!(generated.seed(), Some(&xi));
    let from_seed = SigningKey::<P>::from_seed(&xi);
    assert_eq!(generated.verifying_key(), from_seed.verifying_key());
    assert_eq!(
        generated.to_expanded_bytes().as_ref(),
        from_seed.to_expanded_bytes().as_ref()
    );
    assert_eq!(
        SigningKey::<P>::generate(&mut FailingRng).err(),
        Some(Error::Rng)
    );

    let sk = SigningKey::<P>::from_seed(&[9; 32]);
    assert_eq!(sk.seed(), Some(&[9; 32]));
    let imported = SigningKey::<P>::from_expanded_bytes(sk.to_expanded_bytes().as_ref()).unwrap();
    assert_eq!(imported.seed(), None);
    assert_eq!(imported.verifying_key(), sk.verifying_key());
    assert_eq!(
        imported.sign_deterministic(b"m", b"").unwrap(),
        sk.sign_deterministic(b"m", b"").unwrap()
    );
    let vk = VerifyingKey::<P>::from_bytes(sk.verifying_key().as_bytes()).unwrap();
    assert_eq!(&vk, sk.verifying_key());
    assert_eq!(vk.to_bytes().as_ref(), sk.verifying_key().as_bytes());
    assert_ne!(
        SigningKey::<P>::from_seed(&[8; 32]).verifying_key(),
        sk.verifying_key()
    );
}

fn traits<P: ParameterSet>()
where
    Signature<P>: SignatureEncoding,
{
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let sk = SigningKey::<P>::from_seed(&[1; 32]);
    let vk: VerifyingKey<P> = Keypair::verifying_key(&sk);
    let sig: Signature<P> = Signer::sign(&sk, b"msg");
    assert!(Verifier::verify(&vk, b"msg", &sig).is_ok());
    assert!(Verifier::verify(&vk, b"msh", &sig).is_err());
    let hedged: Signature<P> = sk.sign_with_rng(&mut rng, b"msg");
    assert!(Verifier::verify(&vk, b"msg", &hedged).is_ok());
    let repr = sig.to_bytes();
    assert_eq!(repr.as_ref(), sig.as_bytes());
    assert!(Signature::<P>::try_from(repr.as_ref()).ok() == Some(sig));
    assert_eq!(sig.encoded_len(), P::PARAMS.sig_bytes());
}

for_all_sets!(mode => modes, key => keys, rustcrypto_traits => traits);

#[test]
fn mldsa_backend_setting_selects_or_errors() {
    use mldsa::BackendKind;
    assert_eq!(BackendKind::from_setting(None), Ok(None));
    assert_eq!(BackendKind::from_setting(Some(" ")), Ok(None));
    assert_eq!(
        BackendKind::from_setting(Some("portable")),
        Ok(Some(BackendKind::Portable))
    );
    assert_eq!(
        BackendKind::from_setting(Some("sse9")),
        Err(Error::UnknownBackend)
    );
    for kind in [BackendKind::Avx2, BackendKind::Avx512, BackendKind::Neon] {
        let want = if kind.is_available() {
            Ok(Some(kind))
        } else {
            Err(Error::BackendUnavailable(kind))
        };
        assert_eq!(BackendKind::from_setting(Some(kind.name())), want, "{kind}");
    }
    // The default is the best backend the machine has, and it is available.
    assert!(BackendKind::best().is_available());
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2");
    #[cfg(target_arch = "x86_64")]
    assert_eq!(BackendKind::Avx2.is_available(), avx2);
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        BackendKind::Avx512.is_available(),
        avx2 && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512vbmi")
    );
}

#[test]
fn backend_selection_errors_are_typed() {
    use mldsa::BackendKind;
    assert_eq!(BackendKind::parse("PORTABLE"), Ok(BackendKind::Portable));
    assert_eq!(BackendKind::parse("sse2"), Err(Error::UnknownBackend));
    assert!(BackendKind::Portable.is_available());
    for kind in BackendKind::ALL {
        let mut pk = vec![0u8; 1312];
        let mut sk = vec![0u8; 2560];
        let r = mldsa::raw::keygen_internal(kind, &mldsa::ML_DSA_44, &[0; 32], &mut pk, &mut sk);
        if kind.is_available() {
            assert_eq!(r, Ok(()));
        } else {
            assert_eq!(r, Err(Error::BackendUnavailable(kind)));
        }
    }
}
