//! A planted fault in any one oracle's wrapper is caught, and the reports name exactly that
//! oracle, with every other implementation a witness for the reference's answer.

mod common;

use mldsa_diff::check::Check;
use mldsa_diff::impls;
use mldsa_diff::oracle::{Oracle, Planted};
use mldsa_diff::runner::{self, Config};
use std::sync::Arc;

const CHECKS: [&str; 9] = [
    "ntt",
    "rej_uniform",
    "unpack_z17",
    "keygen_44",
    "sign_44",
    "verify_44",
    "sign_variants_65",
    "verify_hostile_87",
    "sign_malformed_sk_44",
];

fn config(dir: &str) -> Config {
    Config {
        cases: 40,
        e2e_cases: 6,
        seed: 11,
        checks: CHECKS
            .iter()
            .map(|c| Check::from_name(c).unwrap())
            .collect(),
        report_dir: std::env::temp_dir()
            .join(format!("mldsa-diff-planted-{dir}-{}", std::process::id())),
        max_reports: 1,
        progress: false,
        kernel_timeout: runner::KERNEL_TIMEOUT,
        e2e_timeout: runner::E2E_TIMEOUT,
        fail_fast: false,
    }
}

#[test]
fn a_fault_in_any_oracle_is_caught_and_named() {
    let names: Vec<&str> = impls::available().iter().map(|o| o.name()).collect();
    assert!(
        names.contains(&"mldsa-native") && names.contains(&"fips204"),
        "{names:?}"
    );
    for planted in names.iter().skip(1) {
        let oracles: Vec<Arc<dyn Oracle>> = impls::available()
            .into_iter()
            .map(|o| -> Arc<dyn Oracle> {
                if o.name() == *planted {
                    Arc::new(Planted(o))
                } else {
                    Arc::from(o)
                }
            })
            .collect();
        let summary = runner::run(&config(planted), &oracles).unwrap();
        let mut caught = 0;
        for row in &summary.rows {
            if row.implementation == *planted {
                // Every check it answered caught the fault on every case.
                assert_eq!(row.mismatches, row.cases, "{planted} on {}", row.check);
                caught += row.cases;
            } else {
                assert_eq!(
                    row.mismatches, 0,
                    "{} blamed for {planted}'s fault",
                    row.implementation
                );
            }
        }
        assert!(caught > 0, "{planted} answered none of {CHECKS:?}");
        for f in &summary.findings {
            assert_eq!(f.implementation, *planted, "{}", f.check);
            assert!(f.witnesses.same_as_it.is_empty(), "{f:?}");
        }
        for path in &summary.reports {
            let r: mldsa_diff::report::Report =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            assert_eq!(r.implementations[1], *planted, "{}", path.display());
        }
        assert!(!summary.reports.is_empty(), "{planted}: no report written");
    }
}

#[test]
fn the_command_line_plants_by_name_and_refuses_an_unknown_one() {
    let dir = std::env::temp_dir().join(format!("mldsa-diff-planted-cli-{}", std::process::id()));
    let run = |name: &str| {
        common::mldsa_diff()
            .args([
                "check",
                "--only",
                "sign_44",
                "--e2e-cases",
                "3",
                "--report-dir",
            ])
            .arg(&dir)
            .env(mldsa_diff::impls::PLANTED_ENV, name)
            .output()
            .unwrap()
    };
    let out = run("fips204");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("PLANTED FAULT in fips204"), "{stderr}");
    assert!(
        stdout.contains("MISMATCH sign_44 fips204 case 0"),
        "{stdout}"
    );
    let out = run("fips-204");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an implementation"));
}

/// `--fail-fast` stops at the first failing check: the checks after it do not run (the same
/// run without it shows they would have, and failed too).
#[test]
fn fail_fast_stops_at_the_first_failing_check() {
    let dir = std::env::temp_dir().join(format!("mldsa-diff-fail-fast-{}", std::process::id()));
    let run = |extra: &[&str]| {
        let out = common::mldsa_diff()
            .args(["check", "--only", "ntt", "keygen_44", "sign_44"])
            .args([
                "--cases",
                "20",
                "--e2e-cases",
                "3",
                "--no-published",
                "--report-dir",
            ])
            .arg(&dir)
            .args(extra)
            .env(mldsa_diff::impls::PLANTED_ENV, "fips204")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
        (stdout, stderr)
    };
    let (all, _) = run(&[]);
    assert!(all.contains("MISMATCH keygen_44 fips204"), "{all}");
    assert!(all.contains("MISMATCH sign_44 fips204"), "{all}");
    let (stdout, stderr) = run(&["--fail-fast"]);
    assert!(stdout.contains("MISMATCH keygen_44 fips204"), "{stdout}");
    assert!(!stdout.contains("sign_44"), "{stdout}");
    assert!(
        stderr.contains("stopped after the first failing check (not run: 1 of the selected checks"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
