//! Bad command-line input to `mldsa-diff` gets a clear error and exit status 2: never a
//! panic, and never a run that does nothing and passes.

mod common;

/// Runs `mldsa-diff args` and returns (exit status, stderr).
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = common::mldsa_diff().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A path of this test process's own under the temporary directory.
fn scratch(what: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("mldsa-diff-cli-{what}-{}", std::process::id()))
}

#[test]
fn unknown_names_and_an_uncommitted_seed_are_errors() {
    let dir = scratch("refused");
    let out = dir.to_str().unwrap();
    for (args, says) in [
        (
            &["corpus", "--out", out, "--only", "nonsense"][..],
            "no check is named \"nonsense\"",
        ),
        (
            &["check", "--only", "ntt,nonsense"][..],
            "no check is named \"nonsense\"",
        ),
        (
            &["check", "--impl", "c-avx9"][..],
            "unknown implementation \"c-avx9\"",
        ),
        (
            &["planted-bug", "nonsense"][..],
            "no check is named \"nonsense\"",
        ),
        // A seed with no committed digest has nothing to be compared with: not a pass.
        (
            &["transcript", "--seed", "1", "--backend", "portable"][..],
            "--seed 1: no committed digest to compare with",
        ),
    ] {
        let (code, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // Nothing was written for the refused corpus.
    assert!(!dir.exists(), "{}", dir.display());
}

#[test]
fn corpus_only_writes_exactly_the_named_checks() {
    let dir = scratch("corpus");
    let out = dir.to_str().unwrap();
    let (code, stderr) = run(&[
        "corpus",
        "--out",
        out,
        "--count",
        "1",
        "--only",
        "ntt,caddq",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(written, ["caddq", "ntt"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn write_records_a_seed_without_a_committed_digest() {
    let file = scratch("seed");
    let path = file.to_str().unwrap();
    let (code, stderr) = run(&[
        "transcript",
        "--seed",
        "1",
        "--backend",
        "portable",
        "--write",
        path,
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(
        text.starts_with("# mldsa-diff transcript: seed 1,"),
        "{}",
        text.lines().next().unwrap_or("")
    );
}
