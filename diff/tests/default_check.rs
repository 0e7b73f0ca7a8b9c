//! The default `mldsa-diff check` as a cargo test: the test cargo-mutants runs against each
//! mutant of the library (scripts/mutants.sh). Built only with the `mutants` feature; the
//! check itself runs as the binary users run, with `MLDSA_MUTANTS_CHECK_ARGS` (words split on
//! whitespace) appended to `check`.

mod common;

#[test]
fn default_check_passes() {
    let extra = std::env::var("MLDSA_MUTANTS_CHECK_ARGS").unwrap_or_default();
    let reports = std::env::temp_dir().join(format!("mldsa-diff-mutants-{}", std::process::id()));
    let status = common::mldsa_diff()
        .arg("check")
        .arg("--no-progress")
        .arg("--report-dir")
        .arg(&reports)
        .args(extra.split_whitespace())
        .status()
        .expect("mldsa-diff runs");
    let _ = std::fs::remove_dir_all(&reports);
    assert!(status.success(), "mldsa-diff check: {status}");
}
