//! The harness's own tests: the exact C comparisons on a plain checkout, that scripting is
//! really active, that a wrong kernel is caught at the right place, and that replay works.

use mldsa::backend::{Backend, BackendKind, Portable};
use mldsa::params::Gamma2;
use mldsa::poly::Poly;
use mldsa_diff::check::Check;
use mldsa_diff::impls::{self, ours::Ours};
use mldsa_diff::model::Provenance;
use mldsa_diff::model::{Case, Field, Output};
use mldsa_diff::oracle::Oracle;
use mldsa_diff::runner::{self, Config};
use std::path::PathBuf;
use std::sync::Arc;

fn check(name: &str) -> Check {
    Check::from_name(name).unwrap_or_else(|| panic!("no check {name}"))
}

fn config(checks: Vec<Check>, cases: usize, e2e: usize, dir: &str) -> Config {
    Config {
        cases,
        e2e_cases: e2e,
        seed: 7,
        checks,
        report_dir: std::env::temp_dir()
            .join(format!("mldsa-diff-test-{dir}-{}", std::process::id())),
        max_reports: 2,
        progress: false,
        kernel_timeout: runner::KERNEL_TIMEOUT,
        e2e_timeout: runner::E2E_TIMEOUT,
        fail_fast: false,
    }
}

#[test]
fn scripting_of_c_randomness_is_active() {
    assert!(
        mldsa_diff::rng::scripting_active(),
        "{}",
        mldsa_diff::rng::require_scripting().unwrap_err()
    );
    // A script must be consumed exactly.
    let r = mldsa_diff::rng::with_script(&[1, 2, 3], || ());
    assert_eq!(r, Err(mldsa_diff::rng::ScriptError::Unused { left: 3 }));
    let mut buf = [0u8; 4];
    let r = mldsa_diff::rng::with_script(&[1, 2], || getrandom::fill(&mut buf));
    assert_eq!(r, Err(mldsa_diff::rng::ScriptError::Overrun));
}

#[test]
fn c_keygen_from_scripted_xi_is_fips_keygen() {
    for p in mldsa::params::ALL_PARAMS {
        let c = mldsa_diff::impls::pqclean::Variant::Clean
            .for_params(&p)
            .unwrap();
        let xi = [0x42u8; 32];
        let (pk, sk) = mldsa_diff::rng::with_script(&xi, || c.keypair()).unwrap();
        assert_eq!(
            (pk, sk),
            mldsa_diff::check::e2e::keygen(&p, &xi),
            "{}",
            p.name
        );
    }
}

/// Every check, every implementation on this machine, including all exact C comparisons;
/// every implementation `MLDSA_REQUIRE_BACKENDS` names must be among them (a CI leg that
/// runs only the tests still fails when a detection or a build leaves one out).
#[test]
fn every_implementation_agrees_on_every_check() {
    let oracles = impls::available_shared();
    let names: Vec<String> = oracles.iter().map(|o| o.name().to_string()).collect();
    if let Err(e) = mldsa_diff::ci::require_from_env() {
        panic!("{e}");
    }
    assert!(
        names.contains(&"c-clean".to_string()),
        "the PQClean clean code must always be compared: {names:?}"
    );
    let summary = runner::run(&config(Check::all(), 300, 6, "all"), &oracles).unwrap();
    assert_eq!(
        summary.mismatches(),
        0,
        "{}\n{:?}",
        runner::table(&summary),
        summary.findings
    );
    // The C clean code must really have run every check it implements.
    let c_lacks = [
        "rej_uniform",
        "rej_eta",
        "keccak",
        "sign_variants",
        "verify_variants",
    ];
    for check in Check::all() {
        let ran = summary
            .rows
            .iter()
            .any(|r| r.check == check.name() && r.implementation == "c-clean" && r.cases > 0);
        let expected = !c_lacks.iter().any(|p| check.name().starts_with(p));
        assert_eq!(ran, expected, "c-clean on {}", check.name());
    }
    // mldsa-native (both builds) and every Rust peer answered every end-to-end check, and
    // the native build every kernel check its backend interface has.
    let peers: Vec<&String> = names
        .iter()
        .filter(|n| {
            n.starts_with("mldsa-native")
                || mldsa_diff::impls::libcrux::NAMES.contains(&n.as_str())
                || [
                    mldsa_diff::impls::rustcrypto::NAME,
                    mldsa_diff::impls::fips204::NAME,
                ]
                .contains(&n.as_str())
        })
        .collect();
    assert!(
        peers.len() >= 4,
        "mldsa-native and the Rust peers: {names:?}"
    );
    let ran = |check: &Check, name: &str| {
        summary
            .rows
            .iter()
            .any(|r| r.check == check.name() && r.implementation == name && r.cases > 0)
    };
    for check in Check::all() {
        for name in &peers {
            let native_kernel = name.as_str() == mldsa_diff::impls::mldsa_native::NATIVE_NAME
                && mldsa_diff::impls::mldsa_native::KERNEL_CHECKS.contains(&check.def.name);
            assert_eq!(
                ran(&check, name),
                check.is_end_to_end() || native_kernel,
                "{name} on {}",
                check.name()
            );
        }
    }
}

/// A backend that is the portable one except for a deliberately wrong NTT: coefficient 17
/// of the output is one too large.
#[derive(Clone, Copy, Debug)]
struct WrongNtt;

impl Backend for WrongNtt {
    const KIND: BackendKind = BackendKind::Portable;
    // Every other kernel is the trait's default: the portable one.
    fn ntt(self, a: &mut Poly) {
        Portable.ntt(a);
        a.coeffs[17] += 1;
    }
}

#[test]
fn a_wrong_kernel_is_reported_with_its_first_bad_index() {
    let oracles: Vec<Arc<dyn Oracle>> = vec![
        Arc::new(Ours::new(Portable)),
        // The wrong backend through the same adapter as every backend.
        Arc::new(Ours::named(WrongNtt, "wrong-ntt")),
    ];
    let cfg = config(vec![check("ntt"), check("reduce")], 100, 0, "wrong");
    let summary = runner::run(&cfg, &oracles).unwrap();
    let row = |check: &str| {
        summary
            .rows
            .iter()
            .find(|r| r.check == check && r.implementation == "wrong-ntt")
            .unwrap()
    };
    assert_eq!(row("ntt").mismatches, 100, "every NTT case differs");
    assert_eq!(row("reduce").mismatches, 0, "the other kernels are right");
    let f = &summary.findings[0];
    assert_eq!(
        (
            f.check.as_str(),
            f.implementation.as_str(),
            &f.difference.field,
            f.difference.index
        ),
        ("ntt", "wrong-ntt", &Field::Poly(0), 17)
    );
    assert_eq!(summary.mismatches(), 100);
    // What CI reads: JUnit with a failure for ntt/wrong-ntt only, carrying the replay command.
    let xml = mldsa_diff::ci::junit(&cfg, &summary, "portable").unwrap();
    assert!(xml.contains(r#"failures="1""#), "{xml}");
    assert!(
        xml.contains("ntt/wrong-ntt") && xml.contains("replay"),
        "{xml}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&mldsa_diff::ci::json(&cfg, &summary, "portable")).unwrap();
    assert_eq!(
        (json["passed"].as_u64(), json["failed"].as_u64()),
        (Some(1), Some(1))
    );
    // The report replays: same check, same input, same first difference.
    let report: PathBuf = summary.reports[0].clone();
    let (c, case) = runner::load_replay(&report, None).unwrap();
    assert_eq!(c, check("ntt"));
    let rows = runner::replay(c, &case, &oracles).unwrap();
    let d = rows[1]
        .difference
        .as_ref()
        .expect("replay reproduces the mismatch");
    assert_eq!((&d.field, d.index), (&Field::Poly(0), 17));
    let text = std::fs::read_to_string(&report).unwrap();
    for key in [
        "\"check\"",
        "\"arch\"",
        "\"input\"",
        "\"outputs\"",
        "\"first_difference\"",
        "\"crate_version\"",
        "\"reproduce\"",
    ] {
        assert!(text.contains(key), "report lacks {key}");
    }
    let _ = std::fs::remove_dir_all(&cfg.report_dir);
}

/// A backend whose bounded rejection sampler never returns (as a mutated position step in
/// a SIMD `rej_eta` would): it sleeps, so the abandoned thread costs no CPU.
#[derive(Clone, Copy, Debug)]
struct HangingRejEta;

impl Backend for HangingRejEta {
    const KIND: BackendKind = BackendKind::Portable;
    fn rej_eta(self, _: mldsa::params::Eta, _: &mut [i32], _: &[u8]) -> usize {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

#[test]
fn a_kernel_that_never_returns_is_reported_as_a_hang_and_the_run_goes_on() {
    let oracles: Vec<Arc<dyn Oracle>> = vec![
        Arc::new(Ours::new(Portable)),
        Arc::new(Ours::named(HangingRejEta, "hang-rej-eta")),
    ];
    let mut cfg = config(
        vec![check("rej_eta2"), check("ntt"), check("rej_eta4")],
        300,
        0,
        "hang",
    );
    cfg.kernel_timeout = std::time::Duration::from_millis(500);
    let t = std::time::Instant::now();
    let summary = runner::run(&cfg, &oracles).unwrap();
    assert!(
        t.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(
        summary
            .findings
            .iter()
            .filter(|f| f.hang)
            .map(|f| (f.check.clone(), f.implementation.clone(), f.case))
            .collect::<Vec<_>>(),
        vec![
            ("rej_eta2".to_string(), "hang-rej-eta".to_string(), 0),
            ("rej_eta4".to_string(), "hang-rej-eta".to_string(), 0),
        ]
    );
    let row = |c: &str, imp: &str| {
        summary
            .rows
            .iter()
            .find(|r| r.check == c && r.implementation == imp)
            .unwrap_or_else(|| panic!("no row {c}/{imp}:\n{}", runner::table(&summary)))
            .clone()
    };
    // The hang is one mismatch; the implementation sat out the rest of that check.
    assert_eq!(
        (
            row("rej_eta2", "hang-rej-eta").cases,
            row("rej_eta2", "hang-rej-eta").mismatches
        ),
        (1, 1)
    );
    // The run went on: the next check ran every case on a fresh worker.
    assert_eq!(
        (
            row("ntt", "hang-rej-eta").cases,
            row("ntt", "hang-rej-eta").mismatches
        ),
        (300, 0)
    );
    assert_eq!(row("rej_eta2", "portable").cases, 300);
    // The hang report holds the input and replays.
    let report = summary
        .reports
        .iter()
        .find(|p| p.to_string_lossy().contains("rej_eta2-hang-rej-eta"))
        .expect("a hang report");
    let r: mldsa_diff::report::Report =
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(r.kind, "hang");
    assert_eq!(r.implementations, ["portable", "hang-rej-eta"]);
    let (c, case) = runner::load_replay(report, None).unwrap();
    assert_eq!((c, &case), (check("rej_eta2"), &r.input));
    assert!(!case.bytes.is_empty());
    let _ = std::fs::remove_dir_all(&cfg.report_dir);
}

#[test]
fn the_avx2_use_hint_difference_is_asserted_exactly() {
    let Some(c) = mldsa_diff::impls::pqclean::CImpl::new(mldsa_diff::impls::pqclean::Variant::Avx2)
    else {
        // No AVX2 C code on this machine: the variant must really be absent.
        assert!(mldsa_diff::impls::pqclean::Variant::Avx2.tables().is_none());
        return;
    };
    let g = Gamma2::QMinus1Over32;
    let two_g2 = 2 * g.value();
    // Coefficient 0: r0 = 0 with h = 1 (the deviation); coefficient 1: r0 > 0; 2: r0 < 0.
    let mut a = vec![0i32; 256];
    a[0] = 11 * two_g2;
    a[1] = 11 * two_g2 + 5;
    a[2] = 11 * two_g2 - 5;
    let case = Case {
        polys: vec![a, vec![1; 256]],
        ..Case::default()
    };
    let portable = Ours::new(Portable);
    let use_hint = check("use_hint_32");
    assert_eq!(use_hint.variant, mldsa_diff::check::Variant::Gamma2(g));
    let reference = use_hint.run(&portable, &case).unwrap();
    assert_eq!(&reference.polys[0][..3], &[10, 12, 10], "FIPS 204 Alg. 40");
    let got = use_hint.run(&c, &case).unwrap();
    assert_eq!(
        &got.polys[0][..3],
        &[12, 12, 10],
        "PQClean AVX2 gives r1 + 1 at r0 = 0"
    );
    let known = mldsa_diff::known::find(use_hint, "c-avx2", Provenance::PqClean)
        .expect("a stated difference");
    match (known.expect)(use_hint, &case, &reference) {
        mldsa_diff::known::Expected::Output(e) => assert_eq!(e.polys[0], got.polys[0]),
        other => panic!("no exact expectation: {other:?}"),
    }
    let judged = |out: &Output| {
        mldsa_diff::judge::judge(
            use_hint,
            mldsa_diff::judge::Whose {
                name: "c-avx2",
                origin: Provenance::PqClean,
                is_reference: false,
            },
            &case,
            ("portable", &reference),
            out,
        )
    };
    assert!(judged(&got).is_none());
    // Agreeing with the reference where the stated difference applies is itself a mismatch.
    assert!(
        judged(&reference).is_some(),
        "the difference is asserted, not ignored"
    );
}

#[test]
fn fuzz_bytes_decode_or_reject() {
    use mldsa_diff::check::{FUZZ, generate};
    let poly_uniform = check("poly_uniform");
    use mldsa_diff::source::ByteSource;
    // The first byte chooses: 0..=2 one of poly_uniform's three edge cases, 3 a random input.
    assert_eq!(poly_uniform.edge_cases(), 3);
    let edge = generate(poly_uniform, FUZZ, &mut ByteSource::new(&[1])).unwrap();
    assert_eq!(edge.bytes, vec![1; 34], "edge case 1");
    // A random input needs 34 more bytes: fewer are rejected, not padded.
    let mut short = vec![3u8];
    short.extend_from_slice(&[9; 33]);
    assert!(generate(poly_uniform, FUZZ, &mut ByteSource::new(&short)).is_err());
    short.push(9);
    assert_eq!(
        generate(poly_uniform, FUZZ, &mut ByteSource::new(&short))
            .unwrap()
            .bytes,
        vec![9; 34]
    );
    let oracles = impls::available();
    assert!(mldsa_diff::fuzz_one(poly_uniform, &short, &oracles));
    assert!(!mldsa_diff::fuzz_one(
        check("ntt"),
        &[EDGE_OR_RANDOM_NTT, 2, 3],
        &oracles
    ));
    assert!(!mldsa_diff::fuzz_one(check("ntt"), &[], &oracles));
}

/// The byte that selects the random branch for the NTT check (it has
/// `mldsa_diff::check::EDGE_PATTERNS` edge cases).
const EDGE_OR_RANDOM_NTT: u8 = mldsa_diff::check::EDGE_PATTERNS as u8;

#[test]
fn a_panic_inside_a_scripted_call_leaves_no_script_behind() {
    let r = std::panic::catch_unwind(|| {
        mldsa_diff::rng::with_script(&[7; 32], || panic!("inside the scripted call"))
    });
    assert!(r.is_err());
    // OS entropy again: two draws differ (a stale script would hand out zeros or sevens).
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    getrandom::fill(&mut a).unwrap();
    getrandom::fill(&mut b).unwrap();
    assert_ne!(a, b);
    assert_ne!(a, [7; 32]);
    // Nested scripts restore the outer one.
    let outer = mldsa_diff::rng::with_script(&[1, 2], || {
        let inner = mldsa_diff::rng::with_script(&[9], || {
            let mut x = [0u8; 1];
            getrandom::fill(&mut x).unwrap();
            x[0]
        });
        let mut y = [0u8; 2];
        getrandom::fill(&mut y).unwrap();
        (inner, y)
    });
    assert_eq!(outer, Ok((Ok(9), [1, 2])));
}
