//! The machine-code divide check's harness: `scripts/ct-divides.sh` builds it in release for
//! each target, disassembles it and fails if any function of the `mldsa` crate in it contains
//! an integer divide or remainder instruction (their latency depends on the operands).
//!
//! It links in exactly the code that handles secrets, on every backend the target has:
//! KeyGen_internal, the import of an expanded secret key (skDecode and its consistency
//! check), Sign_internal and external-mu signing through the raw API (parameters chosen at run
//! time), and the typed API for each parameter set (parameters known at compile time), pure
//! and pre-hash. It never verifies, so the verifier's code is not in the binary. Running it
//! only checks that it signs.

use mldsa::backend::BackendKind;
use mldsa::params::ALL_PARAMS;
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, SigningKey, raw};
use std::hint::black_box;

/// The typed API of one parameter set: keygen from a seed, import, pure and pre-hash signing.
fn typed<P: ParameterSet>(xi: &[u8; 32], rnd: &[u8; 32]) -> usize {
    let sk = SigningKey::<P>::from_seed(xi);
    let again =
        SigningKey::<P>::from_expanded_bytes(sk.to_expanded_bytes().as_ref()).expect("import");
    let a = again.sign_with_rnd(b"message", b"ctx", rnd).expect("sign");
    let b = sk
        .sign_prehash_with_rnd(PreHash::Sha2_512, b"message", b"ctx", rnd)
        .expect("sign");
    black_box(a.as_bytes().len() + b.as_bytes().len())
}

fn main() {
    let xi = black_box([7u8; 32]);
    let rnd = black_box([9u8; 32]);
    let mut total = 0;
    for k in BackendKind::available() {
        for p in &ALL_PARAMS {
            let (mut pk, mut sk, mut sig) = (
                vec![0u8; p.pk_bytes()],
                vec![0u8; p.sk_bytes()],
                vec![0u8; p.sig_bytes()],
            );
            raw::keygen_internal(k, p, &xi, &mut pk, &mut sk).expect("keygen");
            raw::check_secret_key(p, &sk).expect("a well-formed key");
            raw::sign_internal(k, p, &sk, &[b"message"], &rnd, &mut sig).expect("sign");
            raw::sign_mu(k, p, &sk, &[1u8; 64], &rnd, &mut sig).expect("sign");
            total += black_box(sig.len());
        }
    }
    total +=
        typed::<MlDsa44>(&xi, &rnd) + typed::<MlDsa65>(&xi, &rnd) + typed::<MlDsa87>(&xi, &rnd);
    println!("ct_divides: signed ({total} bytes); the check is scripts/ct-divides.sh");
}
