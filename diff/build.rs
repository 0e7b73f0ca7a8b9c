//! Records what a mismatch report needs to say about the build (the git commit when built
//! from a checkout, the rustc version, the target triple, the profile), compiles
//! mldsa-native twice from the source the `mldsa-native-rs` crate bundles (its portable C
//! build and its native build, AVX2 / AArch64 assembly, with the kernel shim), and builds
//! OpenSSL's libcrypto from the source the `openssl-src` crate bundles, with our shim over
//! its ML-DSA (native builds on Linux x86_64 and aarch64 only: cross builds, the s390x and
//! emulated aarch64 legs, leave it out, and the harness then has no `openssl`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The mldsa-native-rs release whose bundled source is compiled (its build-dependency pin).
const MLDSA_NATIVE_RS: &str = "mldsa-native-rs-0.0.1-alpha.6";

/// The bundled `mldsa-native/mldsa` directory: `MLDSA_NATIVE_SRC` if set, else the crate in
/// Cargo's registry, else where `cargo metadata` (which downloads every locked package,
/// this never-compiled one included) says it is.
fn mldsa_native_src() -> PathBuf {
    println!("cargo:rerun-if-env-changed=MLDSA_NATIVE_SRC");
    if let Some(dir) = std::env::var_os("MLDSA_NATIVE_SRC") {
        return PathBuf::from(dir);
    }
    let bundled = |crate_dir: PathBuf| crate_dir.join("mldsa-native").join("mldsa");
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_default();
    let registry = home.join("registry").join("src");
    let in_registry = || {
        std::fs::read_dir(&registry).ok().and_then(|dirs| {
            dirs.flatten()
                .map(|d| bundled(d.path().join(MLDSA_NATIVE_RS)))
                .find(|d| d.join("mldsa_native.c").is_file())
        })
    };
    if let Some(d) = in_registry() {
        return d;
    }
    let from_metadata = cargo_metadata_dir().map(bundled);
    from_metadata
        .filter(|d| d.join("mldsa_native.c").is_file())
        .unwrap_or_else(|| {
            panic!(
                "mldsa-diff: cannot find the mldsa-native source of {MLDSA_NATIVE_RS} (not under \
                 {}, and `cargo metadata` did not fetch it); set MLDSA_NATIVE_SRC to its \
                 mldsa-native/mldsa directory",
                registry.display()
            )
        })
}

/// The directory of the `mldsa-native-rs` package, from `cargo metadata`.
fn cargo_metadata_dir() -> Option<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(&std::env::var_os("CARGO_MANIFEST_DIR")?).join("Cargo.toml");
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&manifest)
        .output()
        .ok()?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let pkg = meta["packages"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == "mldsa-native-rs")?;
    Some(
        Path::new(pkg["manifest_path"].as_str()?)
            .parent()?
            .to_path_buf(),
    )
}

/// Compiles mldsa-native with namespace `prefix`; `native` adds the architecture's backend
/// and the kernel shim.
fn build_mldsa_native(src: &Path, prefix: &str, native: bool) {
    let csrc = Path::new("csrc");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let mut b = cc::Build::new();
    b.include(src)
        .include(csrc)
        .flag("-std=c99")
        .define("MLD_CONFIG_NAMESPACE_PREFIX", prefix)
        .define("MLD_CONFIG_MULTILEVEL_BUILD", None)
        .define("MLD_CONFIG_INTERNAL_API_QUALIFIER", "static")
        // Every call passes its randomness explicitly: no randombytes symbol.
        .define("MLD_CONFIG_NO_RANDOMIZED_API", None)
        .warnings(false)
        .file(csrc.join("mldsa_native_scu.c"));
    if native {
        b.define("MLD_CONFIG_USE_NATIVE_BACKEND_ARITH", None)
            .define("MLD_CONFIG_USE_NATIVE_BACKEND_FIPS202", None)
            .define("MLDSA_DIFF_SHIM", None);
        match arch.as_str() {
            // The whole unit is compiled for AVX2: the harness calls it only on AVX2 CPUs.
            "x86_64" => {
                b.flag("-mavx2").file(csrc.join("mldsa_native_scu_asm.S"));
            }
            // No -march: the Keccak code then avoids the SHA3 instructions and runs on every
            // AArch64 CPU (a Cortex-A72 included).
            "aarch64" => {
                b.file(csrc.join("mldsa_native_scu_asm.S"));
            }
            // No backend (s390x, ...): the shim reports has_native() == 0.
            _ => {}
        }
    }
    b.compile(prefix);
}

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Builds OpenSSL's libcrypto (about 90 s on 2 cores) and the shim over its ML-DSA, if this is
/// a native build on Linux x86_64 or aarch64; says so with the `mldsa_diff_openssl` cfg.
fn build_openssl(checking: bool) {
    println!("cargo::rustc-check-cfg=cfg(mldsa_diff_openssl)");
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let native = env("HOST") == env("TARGET");
    let arch = env("CARGO_CFG_TARGET_ARCH");
    if !native
        || env("CARGO_CFG_TARGET_OS") != "linux"
        || !["x86_64", "aarch64"].contains(&arch.as_str())
    {
        return;
    }
    if checking {
        // The same cfg and environment, so clippy sees the code a build compiles.
        println!("cargo:rustc-cfg=mldsa_diff_openssl");
        println!("cargo:rustc-env=MLDSA_DIFF_OPENSSL_VERSION=unknown (a check build)");
        return;
    }
    let out = PathBuf::from(env("OUT_DIR")).join("openssl");
    let artifacts = openssl_src::Build::new().out_dir(&out).build();
    cc::Build::new()
        .include(artifacts.include_dir())
        .include("csrc")
        .flag("-std=c99")
        .file("csrc/openssl_shim.c")
        .compile("mldsadiff_openssl_shim");
    // The shim's archive first, then libcrypto (static), then what libcrypto needs.
    artifacts.print_cargo_metadata();
    println!("cargo:rustc-link-lib=dylib=pthread");
    println!("cargo:rustc-link-lib=dylib=dl");
    println!("cargo:rustc-cfg=mldsa_diff_openssl");
    println!(
        "cargo:rustc-env=MLDSA_DIFF_OPENSSL_VERSION={}",
        openssl_src::version()
    );
}

/// Whether this build only checks (clippy: its driver wraps the workspace's rustc, and a
/// build script of a workspace member is rebuilt and rerun under it). Nothing links then,
/// so the C libraries are not compiled: OpenSSL's alone takes about 90 s on 2 cores.
fn checking() -> bool {
    std::env::var("RUSTC_WORKSPACE_WRAPPER").is_ok_and(|w| {
        Path::new(&w)
            .file_stem()
            .is_some_and(|s| s == "clippy-driver")
    })
}

fn main() {
    println!("cargo:rerun-if-env-changed=RUSTC_WORKSPACE_WRAPPER");
    let checking = checking();
    build_openssl(checking);
    if !checking {
        let src = mldsa_native_src();
        build_mldsa_native(&src, "mldsadiff_port", false);
        build_mldsa_native(&src, "mldsadiff_nat", true);
    }
    println!("cargo:rerun-if-changed=csrc");
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
    // Only the files that exist: a path that does not (a tree without .git, such as the copy
    // cargo-mutants tests in) would rerun this script, and rebuild the C, on every build.
    for file in ["../.git/HEAD", "../.git/index"] {
        if std::path::Path::new(file).exists() {
            println!("cargo:rerun-if-changed={file}");
        }
    }
}
