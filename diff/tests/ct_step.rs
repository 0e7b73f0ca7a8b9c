//! `mldsa-ct-step`, the native constant-time check: bad input is refused with exit 2 and a
//! message (never a panic), a constant-time kernel traces identically, and every control (a
//! secret-dependent branch, a secret-indexed load: plain, AVX2 and AVX-512 where the CPU has
//! them) is reported. x86_64 Linux only, as the check.
#![cfg(all(target_arch = "x86_64", target_os = "linux"))]

use std::process::{Command, Output};

fn ct_step(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mldsa-ct-step"))
        .args(args)
        .output()
        .expect("mldsa-ct-step runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn bad_input_is_refused_with_exit_2_and_a_reason() {
    for (args, says) in [
        (
            &["--backend", "nonsense"][..],
            "--backend nonsense: not a backend",
        ),
        (
            &["--check", "rej_eta2"][..],
            "--check rej_eta2: not one of the secret kernels",
        ),
        (&["--check", "nonsense"][..], "--check nonsense"),
        (&["--inputs", "1"][..], "--inputs"),
        (&["--child", "ntt", "portable", "x"][..], "input \"x\""),
        (&["--child", "ntt", "nonsense", "0"][..], "nonsense"),
    ] {
        let o = ct_step(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(
            text(&o).contains(says),
            "{args:?} must say {says:?}: {}",
            text(&o)
        );
        assert!(!text(&o).contains("panicked"), "{args:?}: {}", text(&o));
    }
}

#[test]
fn a_constant_time_kernel_passes_and_every_control_is_caught() {
    let o = ct_step(&["--backend", "portable", "--check", "add", "--inputs", "3"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("add on portable: identical on 3 inputs"),
        "{out}"
    );
    let mut controls = vec!["control-branch", "control-index"];
    if std::is_x86_feature_detected!("avx2") {
        controls.extend(["control-branch-avx2", "control-index-avx2"]);
    }
    if std::is_x86_feature_detected!("avx512f") {
        controls.extend(["control-branch-avx512", "control-index-avx512"]);
    }
    for c in controls {
        assert!(
            out.contains(&format!("  {c}: caught: ")),
            "{c} must be reported: {out}"
        );
    }
}
