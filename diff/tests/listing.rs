//! `mldsa-diff list`: the oracle matrix says what each implementation answers here, and the
//! listing names every implementation, check and stated difference.

use mldsa_diff::check::Check;
use mldsa_diff::impls;
use mldsa_diff::matrix::{Answers, answers};

#[test]
fn the_matrix_matches_what_each_implementation_answers() {
    let oracles = impls::available();
    let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    let at = |name: &str| names.iter().position(|n| *n == name);
    for check in Check::all() {
        let a = answers(check, &oracles);
        assert_eq!(a[0], Answers::All, "the reference answers {}", check.name());
        let p = check.params();
        if check.is_end_to_end() {
            // Every peer answers every end-to-end check (sign_variants: at least some inputs).
            for peer in ["mldsa-native", "libcrux-portable", "rustcrypto", "fips204"] {
                // api_sign's keys of another length are taken only by this crate's APIs: the
                // sample may or may not hold one.
                if check.def.name == "api_sign_{set}" {
                    assert_ne!(
                        a[at(peer).unwrap()],
                        Answers::None,
                        "{peer} on {}",
                        check.name()
                    );
                    continue;
                }
                let want = if matches!(
                    check.def.name,
                    "sign_variants_{set}" | "verify_variants_{set}" | "api_verify_{set}"
                ) && matches!(peer, "libcrux-portable" | "rustcrypto")
                {
                    Answers::Some
                } else {
                    Answers::All
                };
                assert_eq!(
                    a[at(peer).unwrap()],
                    want,
                    "{peer} on {} ({})",
                    check.name(),
                    p.name
                );
            }
        } else {
            // The portable mldsa-native build and the Rust peers have no kernel interface.
            for peer in ["mldsa-native", "libcrux-portable", "rustcrypto", "fips204"] {
                assert_eq!(
                    a[at(peer).unwrap()],
                    Answers::None,
                    "{peer} on {}",
                    check.name()
                );
            }
            if let Some(i) = at(mldsa_diff::impls::mldsa_native::NATIVE_NAME) {
                assert_eq!(
                    a[i] != Answers::None,
                    mldsa_diff::impls::mldsa_native::KERNEL_CHECKS.contains(&check.def.name),
                    "{} on {}",
                    names[i],
                    check.name()
                );
            }
        }
    }
}

#[test]
fn the_listing_names_every_implementation_check_and_stated_difference() {
    let text = mldsa_diff::listing::render().unwrap();
    for o in impls::available() {
        assert!(text.contains(o.name()), "{}", o.name());
    }
    for c in Check::all() {
        assert!(text.contains(&c.name()), "{}", c.name());
    }
    for k in mldsa_diff::known::KNOWN {
        let first_words: String = k
            .reason
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(&first_words), "{first_words}");
    }
    assert!(text.contains("oracle matrix"));
    // Every implementation in another process, with its version and every reason it gives
    // for what it leaves out; every shipped adapter, installed here or not.
    for r in impls::process::started().unwrap() {
        let h = r.hello();
        assert!(text.contains(&h.version), "{}", h.version);
        for (what, why) in &h.not_offered {
            assert!(text.contains(&format!("{what}: {why}")), "{what}: {why}");
        }
    }
    for n in impls::process::shipped() {
        assert!(text.contains(n), "{n}");
    }
}
