//! Records what a mismatch report needs to say about the build: the git commit (when built
//! from a checkout), the rustc version, the target triple and the profile.

use std::process::Command;

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = run("git", &["rev-parse", "HEAD"])
        .map(|c| {
            let dirty = run("git", &["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{c}-dirty") } else { c }
        })
        .unwrap_or_else(|| "unknown (not built from a git checkout)".into());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = run(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=MLDSA_DIFF_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=MLDSA_DIFF_RUSTC={version}");
    println!(
        "cargo:rustc-env=MLDSA_DIFF_TARGET={}",
        std::env::var("TARGET").unwrap_or_default()
    );
    println!(
        "cargo:rustc-env=MLDSA_DIFF_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_default()
    );
    println!("cargo:rerun-if-changed=../.git/HEAD");
    println!("cargo:rerun-if-changed=../.git/index");
}
