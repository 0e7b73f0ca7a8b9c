//! Replays every regression input under fuzz/regressions/<check>/ through every
//! implementation available here (on any architecture, no libFuzzer needed), and checks the
//! fuzz targets match the check list one to one.

use mldsa_diff::Check;
use std::path::PathBuf;

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

#[test]
fn every_regression_input_replays_without_disagreement() {
    // Every implementation, not the fuzzers' fast subset.
    mldsa_diff::rng::require_scripting().unwrap_or_else(|e| panic!("{e}"));
    let oracles = mldsa_diff::impls::available();
    let dir = fuzz_dir().join("regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() {
            continue;
        }
        let name = entry.file_name().into_string().unwrap();
        let check = Check::from_name(&name)
            .unwrap_or_else(|| panic!("fuzz/regressions/{name}: not a check"));
        for file in std::fs::read_dir(entry.path()).unwrap() {
            let path = file.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            assert!(
                mldsa_diff::fuzz_one(check, &data, &oracles),
                "{}: does not decode as a {name} input",
                path.display()
            );
            replayed += 1;
        }
    }
    println!("replayed {replayed} regression inputs");
    assert!(
        replayed > 0,
        "fuzz/regressions holds inputs; none were replayed"
    );
}

#[test]
fn fuzz_targets_match_the_checks() {
    let mut targets: Vec<String> = std::fs::read_dir(fuzz_dir().join("fuzz_targets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    targets.sort();
    let mut checks: Vec<String> = Check::all()
        .iter()
        .map(|c| c.name())
        .map(|n| format!("{n}.rs"))
        .collect();
    checks.sort();
    assert_eq!(targets, checks, "run scripts/gen-fuzz-targets.sh");
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    for c in Check::all() {
        let body = std::fs::read_to_string(
            fuzz_dir()
                .join("fuzz_targets")
                .join(format!("{}.rs", c.name())),
        )
        .unwrap();
        assert_eq!(
            body,
            format!("#![no_main]\nmldsa_fuzz::target!(\"{}\");\n", c.name())
        );
        assert!(
            manifest.contains(&format!("name = \"{}\"", c.name())),
            "fuzz/Cargo.toml lacks {}",
            c.name()
        );
    }
}
