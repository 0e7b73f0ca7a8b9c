//! Implementations in other processes (`diff/oracles/PROTOCOL.md`): one served by `mldsa-diff
//! serve` agrees with the reference on every kind of check through the protocol, and one
//! that exits, answers garbage, hangs, answers a key or signature of the wrong length or
//! answers another request is reported with a typed fault naming it, at exactly the requests
//! where it failed, while the run goes on (the next request starts a fresh process). An
//! adapter that cannot start or speaks another protocol version is a clear error (exit 2).

mod common;

use serde_json::Value;

/// `mldsa-diff serve portable` as a shell command (through the target's runner under
/// emulation, as the test itself runs).
fn served() -> String {
    serving("portable")
}

/// `mldsa-diff serve IMPL` as a shell command.
fn serving(implementation: &str) -> String {
    let cmd = common::mldsa_diff();
    let mut argv = vec![cmd.get_program().to_string_lossy().into_owned()];
    argv.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    argv.extend(["serve".into(), implementation.into()]);
    argv.join(" ")
}

fn faulty(mode: &str, after: usize) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracles/faulty.py");
    format!("python3 {script} {mode} {after} -- {}", served())
}

/// `mldsa-diff check` of `only` comparing the reference with `NAME=COMMAND`: its exit code
/// and its JSON summary.
fn check(name: &str, command: &str, only: &[&str], extra: &[&str]) -> (i32, Value) {
    let reports =
        std::env::temp_dir().join(format!("mldsa-diff-protocol-{}-{name}", std::process::id()));
    let out = common::mldsa_diff()
        .args([
            "check",
            "--no-progress",
            "--format",
            "json",
            "--cases",
            "60",
            "--e2e-cases",
            "20",
        ])
        .arg("--report-dir")
        .arg(&reports)
        // It compares the reference with one implementation: none other is required here.
        .env_remove(mldsa_diff::ci::REQUIRE_ENV)
        .args(["--impl", "portable", name, "--oracle"])
        .arg(format!("{name}={command}"))
        .arg("--only")
        .args(only)
        .args(extra)
        .output()
        .expect("mldsa-diff runs");
    let _ = std::fs::remove_dir_all(&reports);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

/// The (cases, mismatches) of `name` on `check`.
fn row(summary: &Value, check: &str, name: &str) -> (u64, u64) {
    let r = summary["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["check"] == check && r["implementation"] == name)
        .unwrap_or_else(|| panic!("no row of {name} on {check}: {summary}"));
    (
        r["cases"].as_u64().unwrap(),
        r["mismatches"].as_u64().unwrap(),
    )
}

#[test]
fn a_served_implementation_agrees_through_the_protocol_on_every_kind_of_check() {
    let only = [
        "ntt",
        "power2round",
        "decompose_88",
        "use_hint_32",
        "challenge_65",
        "expand_a_44",
        "expand_mask_87",
        "poly_uniform",
        "keygen_44",
        "sign_65",
        "verify_87",
        "sign_variants_44",
        "verify_variants_65",
        "verify_crafted_44",
        "api_sign_87",
        "api_verify_44",
        "sign_malformed_sk_44",
    ];
    let (code, s) = check("served", &served(), &only, &[]);
    assert_eq!(code, 0, "{s}");
    for c in only {
        let (cases, mismatches) = row(&s, c, "served");
        assert_eq!(mismatches, 0, "{c}: {s}");
        assert!(cases > 0, "{c}: nothing compared");
    }
}

/// An input an implementation cannot take at all is answered `not_offered` and not compared:
/// PQClean's C reads a secret key of a fixed length, so served `c-clean` takes none of
/// api_sign's resized keys (about one in eight), and agrees on every other input.
#[test]
fn an_input_the_api_cannot_take_is_not_offered_and_not_compared() {
    let (code, s) = check("served-c", &serving("c-clean"), &["api_sign_44"], &[]);
    assert_eq!(code, 0, "{s}");
    let (cases, mismatches) = row(&s, "api_sign_44", "served-c");
    assert_eq!(mismatches, 0, "{s}");
    assert!(cases > 0 && cases < 20, "{cases} of 20 compared: {s}");
}

/// The first mismatch of `name` (its difference's `other`: what the implementation gave).
fn fault_text(s: &Value, name: &str) -> String {
    let f = s["first_mismatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["implementation"] == name)
        .unwrap_or_else(|| panic!("no mismatch of {name}: {s}"));
    f["other"].as_str().unwrap().to_string()
}

#[test]
fn a_failing_adapter_is_a_typed_fault_naming_it_and_the_run_goes_on() {
    // Each process fails at its 5th request, so 20 signing cases fail at 5, 10, 15 and 20,
    // the run goes on with a fresh process after each, and every other case agrees.
    for (mode, fault, extra) in [
        (
            "exit",
            "exited (exit status: 3) instead of answering",
            &[][..],
        ),
        (
            "kill",
            "exited (signal: 9 (SIGKILL)) instead of answering",
            &[],
        ),
        ("garbage", "answered a malformed line (not JSON", &[]),
        (
            "other-id",
            "answered a malformed line (not the answer to request",
            &[],
        ),
        (
            "short",
            "answered a 2419-byte signature; ML-DSA-44 has 2420",
            &[],
        ),
        (
            "hang",
            "did not return within 1.8 s (hang)",
            &["--case-timeout-secs", "2"],
        ),
    ] {
        let name = format!("faulty-{mode}");
        let (code, s) = check(&name, &faulty(mode, 5), &["sign_44"], extra);
        assert_eq!(code, 1, "{mode}: {s}");
        assert_eq!(row(&s, "sign_44", &name), (20, 4), "{mode}: {s}");
        assert_eq!(row(&s, "sign_44", "portable"), (20, 0), "{mode}");
        let text = fault_text(&s, &name);
        assert!(
            text.contains(&name) && text.contains(fault),
            "{mode}: {text:?} does not name {name} and say {fault:?}"
        );
        if mode == "exit" {
            assert!(
                text.contains("faulty.py: exit at request 5"),
                "its stderr: {text}"
            );
        }
    }
}

#[test]
fn an_adapter_that_cannot_start_or_speaks_another_version_is_a_clear_error() {
    let old = r#"echo '{"protocol":"mldsa-diff-oracle/0","name":"old","version":"0","sign_us":1,"offers":{}}'; cat"#;
    for (command, says) in [
        ("/nonexistent/adapter", "exited"),
        ("true", "exited (exit status: 0) before its hello"),
        (
            "echo not-a-hello; cat",
            "its first line is not a hello of the protocol",
        ),
        (
            old,
            "it speaks \"mldsa-diff-oracle/0\"; this harness speaks mldsa-diff-oracle/1",
        ),
    ] {
        let out = common::mldsa_diff()
            .args(["check", "--only", "sign_44", "--e2e-cases", "1", "--oracle"])
            .arg(format!("bad={command}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(err.contains(says), "{command}: {err}");
    }
    for spec in ["=cat", "no-command=", "two words=cat", "missing-equals"] {
        let out = common::mldsa_diff()
            .args(["list", "--names", "--oracle", spec])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{spec}");
    }
}
