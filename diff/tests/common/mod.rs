//! What the test targets that run the `mldsa-diff` binary share.

/// The `mldsa-diff` binary as a command. Under emulation (scripts/cross-test.sh, cross) it
/// runs through the target's runner, as cargo runs the test itself.
pub(crate) fn mldsa_diff() -> std::process::Command {
    let target = env!("MLDSA_DIFF_TARGET").to_uppercase().replace('-', "_");
    let runner = std::env::var(format!("CARGO_TARGET_{target}_RUNNER")).unwrap_or_default();
    let mut argv: Vec<String> = runner.split_whitespace().map(String::from).collect();
    argv.push(env!("CARGO_BIN_EXE_mldsa-diff").to_string());
    let mut cmd = std::process::Command::new(&argv[0]);
    cmd.args(&argv[1..]);
    cmd
}
