//! The committed rare-path signing inputs reach what they say: the model signer (FIPS 204
//! Alg. 7 written a second time, `craft::sign`) records each one's attempts, and every
//! (set, target) that the set can reach has an entry. And `sign_rare_{set}`'s edge cases are
//! exactly those inputs.

use mldsa::params::ALL_PARAMS;
use mldsa_diff::check::{self, Check};
use mldsa_diff::craft::rare::{self, FOUND, Target};
use mldsa_diff::source::RngSource;

#[test]
fn every_committed_input_reaches_its_target() {
    for &(set, target, index) in FOUND {
        let p = mldsa::params::params_by_name(set).unwrap();
        let a = rare::record(&p, &rare::input(&p, target, index));
        assert!(
            target.reached(&p, &a),
            "{set} {target:?} index {index}: {a:?}"
        );
        assert!(
            a.len() < usize::from(mldsa::MAX_SIGNING_ATTEMPTS),
            "{set} {target:?}: {} attempts",
            a.len()
        );
    }
}

#[test]
fn every_set_has_every_target_and_the_edge_cases_are_them() {
    for p in ALL_PARAMS {
        let check = Check::from_name(&format!("sign_rare_{}", &p.name[7..])).unwrap();
        assert_eq!(check.edge_cases(), Target::ALL.len());
        let mut src = RngSource::for_check(1, &check.name());
        for (i, t) in Target::ALL.into_iter().enumerate() {
            let found = mldsa_diff::check::rare::found(p.name, t);
            // A target the set cannot reach (or the search does not look for there) has no
            // entry; its edge case is an honest input.
            let (t, index) = if t.searched(&p) {
                let i =
                    found.unwrap_or_else(|| panic!("{} has no committed input for {t:?}", p.name));
                (t, i)
            } else {
                assert_eq!(
                    found, None,
                    "{} {t:?} is not searched yet committed",
                    p.name
                );
                (Target::Attempts(10), 0)
            };
            let case = check::generate(check, i, &mut src).unwrap();
            let want = rare::input(&p, t, index);
            assert_eq!(
                (&case.sk, &case.msg, &case.rnd[..]),
                (&want.sk, &want.msg, &want.rnd[..])
            );
            check::validate(check, &case).unwrap();
        }
    }
}

#[test]
fn the_targets_are_rare_for_an_honest_key() {
    // Index 0 of each honest-key target: its record is what the common path looks like,
    // and the search found the committed ones past it (none at index 0 but by chance).
    let p = mldsa::ML_DSA_44;
    let mut reached = 0;
    for t in Target::ALL.into_iter().filter(|t| !t.big_t0()) {
        let a = rare::record(&p, &rare::input(&p, t, 1_000_000));
        reached += usize::from(t.reached(&p, &a));
    }
    assert!(
        reached <= 1,
        "{reached} targets reached by an arbitrary input"
    );
}
