//! Every known-answer test, on every backend this machine has. A custom harness so the
//! per-file counts are always printed. Missing vectors are a failure, never a skip.

use mldsa::BackendKind;
use mldsa_kat::{Tally, acvp, nist, require_vectors_dir};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let dir = match require_vectors_dir() {
        Ok(d) => d,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::FAILURE;
        }
    };
    let backends: Vec<BackendKind> = match mldsa_kat::backends_under_test() {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "known-answer tests: vectors in {}, backends: {backends:?}",
        dir.display()
    );
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut report = |label: &str,
                      expected_total: usize,
                      result: Result<Tally, String>,
                      start: Instant| match result {
        Ok(t) => {
            let complete = t.total() == expected_total;
            println!(
                "  {label:<44} {:>4}/{expected_total} passed  ({:.1}s)",
                t.passed,
                start.elapsed().as_secs_f64()
            );
            for f in t.failures.iter().take(5) {
                println!("      FAIL {f}");
            }
            if !complete {
                println!(
                    "      FAIL expected {expected_total} cases, ran {}",
                    t.total()
                );
            }
            if t.failures.is_empty() && complete {
                passed += 1;
            } else {
                failed += 1;
            }
        }
        Err(e) => {
            println!("  {label:<44} ERROR {e}");
            failed += 1;
        }
    };
    for &b in &backends {
        // The typed API runs on the default backend; check it once, alongside that backend.
        let typed = b == BackendKind::default_backend();
        println!("backend {b}:");
        for (p, digest0, digest100) in nist::PUBLISHED {
            let start = Instant::now();
            let result = nist::rsp(b, &p, 100)
                .map_err(|e| e.to_string())
                .map(|text| {
                    let first: String = text.split_inclusive('\n').take(8).collect();
                    let mut t = Tally::default();
                    t.check(nist::sha256_hex(&first) == digest0, || {
                        format!("{} count-0 digest", p.name)
                    });
                    t.check(nist::sha256_hex(&text) == digest100, || {
                        format!("{} 100-count digest", p.name)
                    });
                    t
                });
            report(
                &format!("NIST KAT {} (count 0 + all 100)", p.name),
                2,
                result,
                start,
            );
        }
        let start = Instant::now();
        report(
            "ACVP ML-DSA-keyGen-FIPS204",
            75,
            acvp::keygen(&dir, b),
            start,
        );
        for (name, total) in [acvp::FILES[1], acvp::FILES[2]] {
            let start = Instant::now();
            report(
                &format!("ACVP {name}"),
                total,
                acvp::siggen(&dir, name, b, typed),
                start,
            );
        }
        let start = Instant::now();
        report(
            "ACVP ML-DSA-sigVer-FIPS204",
            180,
            acvp::sigver(&dir, b, typed),
            start,
        );
    }
    println!("kat: {passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
