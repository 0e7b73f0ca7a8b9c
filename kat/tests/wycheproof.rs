//! Every C2SP Wycheproof ML-DSA case (sign with seed, sign with expanded key, verify; all
//! three parameter sets) on every backend this machine has. A custom harness so the per-file
//! summary is always printed. A missing or short file is a failure, never a skip.

use mldsa::BackendKind;
use mldsa_kat::vectors_dir;
use mldsa_kat::wycheproof::{self, Expected, FILES, TOTAL_CASES};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let dir = vectors_dir();
    let backends: Vec<BackendKind> = match mldsa_kat::backends_under_test() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::FAILURE;
        }
    };
    let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
    println!(
        "Wycheproof ML-DSA: vectors in {}, backends {names:?} (typed API on {})",
        dir.display(),
        BackendKind::default_backend()
    );
    let mut failed = 0usize;
    if backends.is_empty() {
        println!("  FAIL no backend available");
        failed += 1;
    }
    if FILES.iter().map(|f| f.cases).sum::<usize>() != TOTAL_CASES {
        println!("  FAIL the pinned per-file counts do not add up to {TOTAL_CASES}");
        failed += 1;
    }
    let mut ran = 0usize;
    for spec in FILES {
        let start = Instant::now();
        let file = match wycheproof::load(&dir, spec) {
            Ok(f) => f,
            Err(e) => {
                println!("  {:<32} ERROR {e}", spec.name);
                failed += 1;
                continue;
            }
        };
        let cases = file.cases().count();
        let mut per_backend = Vec::new();
        let mut failures = Vec::new();
        let mut ok = cases == spec.cases && cases > 0;
        for &b in &backends {
            let typed = b == BackendKind::default_backend();
            let t = wycheproof::run(&file, b, typed);
            ok &= t.failures.is_empty() && t.total() == cases;
            ran += t.total();
            per_backend.push(format!("{b} {}/{}", t.passed, t.total()));
            failures.extend(t.failures.into_iter().map(|f| format!("[{b}] {f}")));
        }
        println!(
            "  {:<32} {cases:>4} cases ({} valid, {} invalid, {} acceptable)  {}  ({:.1}s)",
            spec.name,
            file.count(Expected::Valid),
            file.count(Expected::Invalid),
            file.count(Expected::Acceptable),
            per_backend.join(", "),
            start.elapsed().as_secs_f64()
        );
        if cases != spec.cases || cases == 0 {
            println!("      FAIL expected {} cases, parsed {cases}", spec.cases);
        }
        for f in &failures {
            println!("      FAIL {f}");
        }
        if !ok {
            failed += 1;
        }
    }
    let expected_runs = TOTAL_CASES * backends.len();
    if ran != expected_runs {
        println!("  FAIL ran {ran} case-backend pairs, expected {expected_runs}");
        failed += 1;
    }
    println!(
        "wycheproof: {} files, {ran} case runs ({TOTAL_CASES} cases x {} backends), {}",
        FILES.len(),
        backends.len(),
        if failed == 0 {
            "all passed".to_string()
        } else {
            format!("{failed} failure(s)")
        }
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
