//! `mldsa-diff exhaustive`: FIPS 204's rounding functions as written in the harness, and a
//! fault at one single input of the whole domain found and named.

use mldsa::backend::Portable;
use mldsa::params::{Gamma2, ML_DSA_44, ML_DSA_65, Params};
use mldsa::poly::Poly;
use mldsa_diff::exhaustive::{self, fips};
use mldsa_diff::impls::ours::Ours;
use mldsa_diff::model::Provenance;
use mldsa_diff::oracle::{Got, Oracle, Speed};
use std::sync::Arc;

/// The portable backend, but UseHint answers 0 for r = 3456789 with h = 1 (an input no
/// boundary rule singles out).
struct OneWrongInput(Ours<Portable>);

const WRONG_AT: i32 = 3_456_789;

impl Oracle for OneWrongInput {
    fn name(&self) -> &'static str {
        "one-wrong-input"
    }
    fn origin(&self) -> Provenance {
        Provenance::RustPeer
    }
    fn speed(&self) -> Speed {
        self.0.speed()
    }
    fn use_hint(&self, p: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
        let mut out = self.0.use_hint(p, g, a, h)?;
        for i in 0..256 {
            if a.coeffs[i] == WRONG_AT && h.coeffs[i] == 1 {
                out.coeffs[i] = 0;
            }
        }
        Ok(out)
    }
}

#[test]
fn one_wrong_input_of_the_domain_is_found_and_named() {
    let oracles: Vec<Arc<dyn Oracle>> = vec![
        Arc::new(Ours::new(Portable)),
        Arc::new(OneWrongInput(Ours::new(Portable))),
    ];
    let rows = exhaustive::run(&oracles, &["use_hint_32", "decompose_32"], 2).unwrap();
    let row = |k: &str, i: &str| {
        rows.iter()
            .find(|r| r.kernel == k && r.implementation == i)
            .unwrap_or_else(|| panic!("no row {k} {i}"))
    };
    // Every input of the domain reached the reference and the faulty one: 2 q for UseHint.
    assert_eq!(row("use_hint_32", "portable").inputs, 2 * 8_380_417);
    assert_eq!(row("use_hint_32", "portable").wrong_calls, 0);
    let bad = row("use_hint_32", "one-wrong-input");
    assert_eq!(bad.inputs, 2 * 8_380_417);
    assert_eq!(bad.wrong_calls, 1, "{bad:?}");
    assert!(
        bad.first[0].contains(&format!("({WRONG_AT}, 1)")),
        "{bad:?}"
    );
    // Decompose it does not offer: no input, nothing wrong.
    assert_eq!(row("decompose_32", "one-wrong-input").inputs, 0);
    assert_eq!(row("decompose_32", "one-wrong-input").wrong_calls, 0);
    assert_eq!(row("decompose_32", "portable").inputs, 8_380_417);
    assert!(!exhaustive::print(&rows));
}

/// The harness's FIPS 204 functions on values worked out by hand from Alg. 35, 36, 39, 40.
#[test]
fn the_plain_fips_functions_give_the_standards_answers() {
    let q = 8_380_417i64;
    // Power2Round: r0 in (-2^12, 2^12].
    assert_eq!(fips::power2round(4096), (0, 4096));
    assert_eq!(fips::power2round(4097), (1, -4095));
    assert_eq!(fips::power2round(q - 1), (1023, 0));
    // Decompose, gamma2 = (q-1)/32 = 261888: r0 in (-gamma2, gamma2], and the wrap at the top.
    let p = &ML_DSA_65;
    assert_eq!(fips::decompose(p, 261_888), (0, 261_888));
    assert_eq!(fips::decompose(p, 261_889), (1, -261_887));
    assert_eq!(fips::decompose(p, q - 1), (0, -1));
    assert_eq!(fips::decompose(p, q - 1 - 261_888), (15, 261_888));
    assert_eq!(fips::decompose(p, q - 261_888), (0, -261_888));
    // gamma2 = (q-1)/88 = 95232, m = 44.
    assert_eq!(
        fips::decompose(&ML_DSA_44, 43 * 190_464 + 95_232),
        (43, 95_232)
    );
    // MakeHint: a0 = -gamma2 moves HighBits only when a1 != 0 (a1 = 0 wraps to m - 1 and
    // back to 0 by the q - 1 rule).
    assert!(!fips::make_hint(p, -261_888, 0));
    assert!(fips::make_hint(p, -261_888, 1));
    assert!(!fips::make_hint(p, 261_888, 5));
    assert!(fips::make_hint(p, 261_889, 5));
    assert!(fips::make_hint(p, 261_889, 15));
    // UseHint: h = 1 moves r1 up for r0 > 0, down (mod m) for r0 <= 0.
    assert_eq!(fips::use_hint(p, true, 0), 15);
    assert_eq!(fips::use_hint(p, true, 1), 1);
    assert_eq!(fips::use_hint(p, false, 1), 0);
    assert_eq!(fips::use_hint(p, true, q - 1), 15);
    assert_eq!(fips::use_hint(&ML_DSA_44, true, 43 * 190_464 + 1), 0);
}

/// Every implementation in this process (on aarch64 under QEMU too: Neon, PQClean's aarch64
/// C, mldsa-native's): every input of every rounding kernel it offers right. (Those in other
/// processes take part in `mldsa-diff exhaustive`, which CI runs.)
#[test]
fn every_implementation_here_answers_every_input_right() {
    let oracles: Vec<Arc<dyn Oracle>> = mldsa_diff::impls::available()
        .into_iter()
        .filter(|o| o.origin() != Provenance::Process)
        .map(Arc::from)
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let rows = exhaustive::run(&oracles, &exhaustive::KERNELS, threads).unwrap();
    let ok = exhaustive::print(&rows);
    // The reference answered every input of every kernel.
    for k in exhaustive::KERNELS {
        let r = rows
            .iter()
            .find(|r| r.kernel == k && r.implementation == oracles[0].name())
            .unwrap();
        assert!(r.inputs >= 8_380_417, "{r:?}");
    }
    assert!(ok);
}
