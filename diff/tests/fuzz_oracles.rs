//! The fuzz targets' implementations, chosen by what each states of its own speed: for a
//! kernel check every one fast enough per call; for an end-to-end check every one of this
//! crate and the fastest of each other origin (if fast enough) — and the reference always.

use mldsa_diff::check::Check;
use mldsa_diff::model::Provenance;
use mldsa_diff::oracle::Oracle;

fn names(v: &[Box<dyn Oracle>]) -> Vec<&'static str> {
    v.iter().map(|o| o.name()).collect()
}

#[test]
fn fuzzing_compares_the_fastest_of_each_origin_end_to_end_and_fast_kernels() {
    assert!(
        std::env::var_os(mldsa_diff::FUZZ_ORACLES_ENV).is_none(),
        "this test checks the default"
    );
    let all = mldsa_diff::impls::available();
    let kernel = Check::from_name("ntt").unwrap();
    let fast_kernels = names(&mldsa_diff::fuzz_oracles(kernel));
    for o in &all {
        let fast = o.speed().kernel_us <= mldsa_diff::FUZZ_SLOW_KERNEL_US;
        assert_eq!(
            fast_kernels.contains(&o.name()),
            fast,
            "{} on ntt",
            o.name()
        );
        // Every implementation in this process states native kernel speed.
        if o.origin() != Provenance::Process {
            assert!(fast, "{}", o.name());
        }
    }
    for set in ["44", "65", "87"] {
        let sign = Check::from_name(&format!("sign_{set}")).unwrap();
        let fast = names(&mldsa_diff::fuzz_oracles(sign));
        assert_eq!(fast[0], "portable", "the reference comes first");
        for n in ["rustcrypto", "fips204"] {
            assert!(!fast.contains(&n), "{n} is left out: libcrux is faster");
        }
        let here = names(&all);
        for (slow, faster) in [
            ("c-clean", ["c-avx2", "c-aarch64"]),
            (
                "mldsa-native",
                ["mldsa-native-avx2", "mldsa-native-aarch64"],
            ),
            ("libcrux-portable", ["libcrux-avx2", "libcrux-neon"]),
        ] {
            let has_faster = faster.iter().any(|f| here.contains(f));
            assert_eq!(
                fast.contains(&slow),
                !has_faster,
                "{slow} on {}",
                sign.name()
            );
        }
        for o in &all {
            let kept = fast.contains(&o.name());
            if o.origin() == Provenance::Ours {
                assert!(kept, "{} is ours", o.name());
            } else if o.speed().sign_us > mldsa_diff::FUZZ_SLOW_SIGN_US {
                assert!(!kept, "{} states it is slow", o.name());
            }
        }
        // Exactly one of each other origin (each other process its own) that has a fast one.
        let group = |o: &dyn Oracle| match o.origin() {
            Provenance::Process => o.name().to_string(),
            p => p.describe().to_string(),
        };
        let mut groups: Vec<String> = all
            .iter()
            .filter(|o| o.origin() != Provenance::Ours)
            .map(|o| group(o.as_ref()))
            .collect();
        groups.sort();
        groups.dedup();
        for g in groups {
            let members: Vec<&Box<dyn Oracle>> =
                all.iter().filter(|o| group(o.as_ref()) == g).collect();
            let kept = members.iter().filter(|o| fast.contains(&o.name())).count();
            let any_fast = members
                .iter()
                .any(|o| o.speed().sign_us <= mldsa_diff::FUZZ_SLOW_SIGN_US);
            assert_eq!(kept, usize::from(any_fast), "{g} on {}", sign.name());
        }
    }
}
