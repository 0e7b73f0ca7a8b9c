//! The public-API fuzz targets' logic (`mldsa_diff::api_fuzz`) without libFuzzer: structured
//! inputs whose answers are known, and random bytes, all of which must agree everywhere.

use mldsa_diff::api_fuzz::{
    Edit, PreHashIn, Set, SignInput, VerifyInput, sign_input, verify_input,
};
use rand::{RngCore, SeedableRng};

fn verify(set: Set, sig: Edit, ctx: &[u8], prehash: Option<PreHashIn>) -> VerifyInput {
    VerifyInput {
        set,
        xi: [7; 32],
        sk: None,
        pk: Edit::Keep,
        sig,
        rnd: [1; 32],
        msg: b"message".to_vec(),
        ctx: ctx.to_vec(),
        sign_ctx: None,
        prehash,
    }
}

#[test]
fn structured_api_inputs_give_the_known_answers_everywhere() {
    mldsa_diff::rng::require_scripting().unwrap();
    for set in [Set::S44, Set::S65, Set::S87] {
        let ok = verify_input(&verify(set, Edit::Keep, b"ctx", None)).unwrap();
        assert!(ok.accepted && ok.compared >= 3, "{ok:?}");
        let bad = verify_input(&verify(set, Edit::Flip(vec![(5, 1)]), b"ctx", None)).unwrap();
        assert!(!bad.accepted);
        let long = verify_input(&verify(set, Edit::Keep, &[0; 256], None)).unwrap();
        assert!(!long.accepted);
        let ph = PreHashIn {
            alg: 3,
            digest: None,
        };
        assert!(
            verify_input(&verify(set, Edit::Keep, b"", Some(ph)))
                .unwrap()
                .accepted
        );
        // A digest of the wrong length: the typed API refuses it (known), raw accepts M'.
        let ph = PreHashIn {
            alg: 1,
            digest: Some(vec![9; 5]),
        };
        assert!(
            verify_input(&verify(set, Edit::Keep, b"", Some(ph)))
                .unwrap()
                .accepted
        );
        let sign = |sk: Edit| SignInput {
            set,
            xi: [3; 32],
            sk,
            rnd: [2; 32],
            msg: b"m".to_vec(),
            ctx: b"c".to_vec(),
            prehash: None,
        };
        assert!(sign_input(&sign(Edit::Keep)).unwrap().accepted);
        // tr changed: the typed API refuses the key (known), raw and C sign identically.
        assert!(
            sign_input(&sign(Edit::Flip(vec![(70, 0x10)])))
                .unwrap()
                .accepted
        );
        // s1's first byte all ones: out of range for mldsa, C signs (known).
        assert!(
            !sign_input(&sign(Edit::Flip(vec![(128, 0xff)])))
                .unwrap()
                .accepted
        );
        assert!(!sign_input(&sign(Edit::Resize(-1))).unwrap().accepted);
    }
}

#[test]
fn random_api_inputs_agree_everywhere() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let (mut accepted, mut signed) = (0, 0);
    for i in 0..300 {
        let mut data = vec![0u8; 1 + (rng.next_u32() % 600) as usize];
        rng.fill_bytes(&mut data);
        let v = mldsa_diff::api_fuzz::api_verify(&data).unwrap_or_else(|e| panic!("{i}: {e}"));
        let s = mldsa_diff::api_fuzz::api_sign(&data).unwrap_or_else(|e| panic!("{i}: {e}"));
        accepted += usize::from(v.accepted);
        signed += usize::from(s.accepted);
    }
    println!("{accepted} accepted, {signed} signed of 300");
    assert!(signed > 0);
}
