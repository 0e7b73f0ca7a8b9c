//! The fuzz targets' implementations: every one for a kernel check; for an end-to-end check
//! (by default) all but the slow ones that have a faster sibling here or are the two slow
//! Rust peers — and the reference always.

use mldsa_diff::check::Check;

#[test]
fn fuzzing_compares_a_fast_subset_end_to_end_and_everything_on_kernels() {
    assert!(
        std::env::var_os(mldsa_diff::FUZZ_ORACLES_ENV).is_none(),
        "this test checks the default"
    );
    let all: Vec<&str> = mldsa_diff::impls::available()
        .iter()
        .map(|o| o.name())
        .collect();
    let kernel = Check::from_name("ntt").unwrap();
    let names = |c| -> Vec<&str> {
        mldsa_diff::fuzz_oracles(c)
            .iter()
            .map(|o| o.name())
            .collect()
    };
    assert_eq!(names(kernel), all);
    for set in ["44", "65", "87"] {
        let sign = Check::from_name(&format!("sign_{set}")).unwrap();
        let fast = names(sign);
        assert_eq!(fast[0], "portable", "the reference comes first");
        for n in ["rustcrypto", "fips204"] {
            assert!(!fast.contains(&n), "{n} is left out");
        }
        for (slow, faster) in mldsa_diff::SLOW_FOR_FUZZING {
            let has_faster = faster.is_some_and(|f| f.iter().any(|x| all.contains(x)));
            if faster.is_some() {
                assert_eq!(fast.contains(slow), !has_faster, "{slow}");
            }
        }
        // Nothing else is left out.
        let left_out = all.iter().filter(|n| !fast.contains(n)).count();
        assert!(left_out <= mldsa_diff::SLOW_FOR_FUZZING.len());
        assert!(fast.len() >= 2, "{fast:?}");
    }
}
