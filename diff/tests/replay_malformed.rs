//! Malformed reports: for every check, a valid generated input with each field made empty,
//! one element short or one element long (the polynomial count, each polynomial's length,
//! every byte field, the scalar out of range) must either be refused with a clear error
//! when the report is loaded, or — where the field is legitimately free (a message's
//! length, a verify context's length, a signature's length) — replay with every
//! implementation agreeing. Nothing may panic. A truncated report is an error, never a raw
//! fuzz input.

use mldsa_diff::check::{self, Check};
use mldsa_diff::model::{Case, Difference, Field, Output};
use mldsa_diff::report::{Origin, Report};
use mldsa_diff::runner;
use mldsa_diff::source::RngSource;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("mldsa-diff-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_report(check: Check, case: &Case, path: &Path) {
    let d = Difference {
        field: Field::Bytes,
        index: 0,
        reference: String::new(),
        other: String::new(),
    };
    let out = Output::default();
    Report::new(
        check,
        case,
        ("portable", &out),
        ("test", &out),
        &d,
        &Origin::Replay(path),
    )
    .write_to(path)
    .unwrap();
}

/// A valid input of `check`: its first random case.
fn valid_case(check: Check) -> Case {
    let mut src = RngSource::for_check(99, &check.name());
    for i in 0..check.edge_cases() {
        check::generate(check, i, &mut src).unwrap();
    }
    check::generate(check, check.edge_cases(), &mut src).unwrap()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Empty,
    Short,
    Long,
}

fn resize<T: Clone + Default>(v: &mut Vec<T>, c: Change) -> bool {
    match c {
        Change::Empty if !v.is_empty() => v.clear(),
        Change::Short if !v.is_empty() => {
            v.pop();
        }
        Change::Long => v.push(T::default()),
        _ => return false,
    }
    true
}

/// Whether changing `field` of a valid `check` input this way still gives a valid input.
fn free(check: Check, field: &str, c: Change, case: &Case) -> bool {
    let name = check.def.name;
    // The public API's checks take keys, signatures and contexts of any length (their valid
    // message or digest and their context may have any length too).
    if name.starts_with("api_") {
        return match field {
            "pk" | "sig" => name == "api_verify_{set}",
            // A key with its seed must stay KeyGen_internal(xi)'s; the seed may be dropped.
            "sk" => name == "api_sign_{set}" && case.xi.is_empty(),
            "xi" => c == Change::Empty,
            "msg" | "ctx" => true,
            _ => false,
        };
    }
    let signs = name.starts_with("sign");
    let verify = name.starts_with("verify");
    let variants = matches!(name, "sign_variants_{set}" | "verify_variants_{set}");
    let mu = variants && case.scalar == mldsa_diff::check::e2e_extra::EXTERNAL_MU;
    match field {
        "msg" => (signs || verify) && !mu,
        "sig" => verify,
        // sign_variants, verify_variants: only a pre-hash case has a context.
        "ctx" if variants => {
            case.scalar == mldsa_diff::check::e2e_extra::PRE_HASH
                && (verify || c != Change::Long || case.ctx.len() < 255)
        }
        "ctx" if verify => true,
        "ctx" if signs => c != Change::Long || case.ctx.len() < 255,
        "rnd" => verify && c == Change::Empty,
        "xi" => c == Change::Empty,
        // rej_uniform takes whole 3-byte groups up to 840 bytes, rej_eta any length up to 272.
        "bytes" if name == "rej_uniform" => c == Change::Empty,
        "bytes" if name == "rej_eta{eta}" => c != Change::Long || case.bytes.len() < 272,
        _ => false,
    }
}

#[test]
fn malformed_reports_are_refused_with_a_clear_error_and_never_panic() {
    let oracles = mldsa_diff::impls::available();
    let d = dir();
    let mut refused = 0;
    let mut ran = 0;
    for check in Check::all() {
        let valid = valid_case(check);
        let path = d.join(format!("{}.json", check.name()));
        write_report(check, &valid, &path);
        let (c, case) = runner::load_replay(&path, None)
            .unwrap_or_else(|e| panic!("{}: the valid input is refused: {e}", check.name()));
        assert_eq!((c, &case), (check, &valid));
        let mut variants: Vec<(String, Case, bool)> = Vec::new();
        for ch in [Change::Empty, Change::Short, Change::Long] {
            let mut m = valid.clone();
            if resize(&mut m.polys, ch) {
                variants.push((format!("polys {ch:?}"), m, false));
            }
            for i in 0..valid.polys.len() {
                let mut m = valid.clone();
                if resize(&mut m.polys[i], ch) {
                    variants.push((format!("polys[{i}] {ch:?}"), m, false));
                }
            }
            for field in ["bytes", "pk", "sk", "msg", "ctx", "rnd", "sig", "xi"] {
                let mut m = valid.clone();
                let v = match field {
                    "bytes" => &mut m.bytes,
                    "pk" => &mut m.pk,
                    "sk" => &mut m.sk,
                    "msg" => &mut m.msg,
                    "ctx" => &mut m.ctx,
                    "rnd" => &mut m.rnd,
                    "sig" => &mut m.sig,
                    _ => &mut m.xi,
                };
                if resize(v, ch) {
                    let ok = free(check, field, ch, &valid);
                    variants.push((format!("{field} {ch:?}"), m, ok));
                }
            }
        }
        for s in [-1, i64::from((mldsa::params::Q - 1) / 8) + 1, i64::MAX] {
            let mut m = valid.clone();
            m.scalar = s;
            variants.push((format!("scalar {s}"), m, false));
        }
        // A coefficient outside the contract (kernel checks with polynomial inputs).
        if check.poly_inputs() > 0 {
            let mut m = valid.clone();
            m.polys[0][0] = i32::MAX;
            variants.push(("polys[0][0] = i32::MAX".into(), m, false));
        }
        for (what, m, ok) in variants {
            let label = format!("{} with {what}", check.name());
            write_report(check, &m, &path);
            let loaded = std::panic::catch_unwind(|| runner::load_replay(&path, None))
                .unwrap_or_else(|_| panic!("{label}: loading panicked"));
            match (loaded, ok) {
                (Err(e), false) => {
                    assert!(e.contains("malformed report"), "{label}: unclear error {e}");
                    refused += 1;
                }
                (Err(e), true) => panic!("{label}: a valid input is refused: {e}"),
                (Ok(_), false) => panic!("{label}: a malformed input was accepted"),
                (Ok((c, case)), true) => {
                    let rows = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        runner::replay(c, &case, &oracles)
                    }))
                    .unwrap_or_else(|_| panic!("{label}: replay panicked"))
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                    // An edited crafted case no longer has its rule's verdict: every
                    // implementation must then still give one and the same answer.
                    if check.def.name == "verify_crafted_{set}" {
                        let answers: std::collections::BTreeSet<i64> = rows
                            .iter()
                            .filter_map(|r| r.output.as_ref().map(|o| o.scalar))
                            .collect();
                        assert_eq!(answers.len(), 1, "{label}: verifiers disagree: {answers:?}");
                        ran += 1;
                        continue;
                    }
                    for r in rows {
                        assert!(
                            r.difference.is_none(),
                            "{label}: {} differs: {:?}",
                            r.implementation,
                            r.difference
                        );
                    }
                    ran += 1;
                }
            }
        }
    }
    println!("{refused} malformed reports refused, {ran} legitimately free changes replayed");
    assert!(refused > 1000 && ran > 50, "{refused} {ran}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_truncated_report_is_an_error_not_a_raw_fuzz_input() {
    let d = dir().join("truncated");
    std::fs::create_dir_all(&d).unwrap();
    let check = Check::from_name("keccak_f1600").unwrap();
    let json = d.join("r.json");
    write_report(check, &valid_case(check), &json);
    let text = std::fs::read(&json).unwrap();
    for name in ["report.json", "report.txt", "crash-0123"] {
        let path = d.join(name);
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        let e = runner::load_replay(&path, Some("keccak_f1600")).unwrap_err();
        assert!(e.contains("not a valid mismatch report"), "{name}: {e}");
    }
    // Raw fuzz bytes still replay as a raw input.
    let raw = d.join("crash-raw");
    std::fs::write(&raw, [0xffu8; 256]).unwrap();
    assert!(runner::load_replay(&raw, Some("keccak_f1600")).is_ok());
    let _ = std::fs::remove_dir_all(&d);
}
