//! Facts about the peers that the known differences rely on, shown directly on their APIs.

use mldsa_diff::check::{Check, generate};
use mldsa_diff::source::RngSource;

/// `known.rs` says RustCrypto ml-dsa panics on a secret key with an s1/s2 coefficient
/// outside [-eta, eta], which is why its wrapper does not hand it such a key. If a release
/// stops panicking, this fails and the entry (and the wrapper) must change.
#[test]
#[allow(deprecated)]
fn rustcrypto_panics_on_out_of_range_keys() {
    let check = Check::from_name("sign_malformed_sk_44").unwrap();
    for index in 0..4 {
        let case = generate(
            check,
            index,
            &mut RngSource::for_check(5, "sign_malformed_sk_44"),
        )
        .unwrap();
        let bytes = ml_dsa::ExpandedSigningKeyBytes::<ml_dsa::MlDsa44>::try_from(&case.sk[..])
            .expect("a 44 key");
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = std::panic::catch_unwind(|| {
            ml_dsa::ExpandedSigningKey::<ml_dsa::MlDsa44>::from_expanded(&bytes)
        });
        std::panic::set_hook(prev);
        assert!(
            r.is_err(),
            "case {index} ({}): ml-dsa decoded the key",
            case.note
        );
    }
}
