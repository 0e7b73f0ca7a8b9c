//! The two POSIX calls the implementations in other processes need and `std` does not offer:
//! ignoring SIGPIPE (Rust's own `main` does it; a fuzz target's `main` is libFuzzer's, in C,
//! where writing to an adapter that has just died would kill the fuzzer instead of failing
//! the write), and killing an adapter's whole process group (its command may have started
//! children of its own: a pipeline, a script that does not `exec`). With `pqclean/`,
//! `mldsa_native/{ffi,kernels}.rs`, `openssl/ffi.rs` and the getrandom provider in `rng.rs`,
//! the only `unsafe` of the harness.
#![allow(unsafe_code)]

/// Makes a write to a closed pipe an error (EPIPE) instead of a fatal signal, for the whole
/// process, once.
pub(super) fn ignore_sigpipe() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: installs the SIG_IGN disposition, no handler: nothing of ours runs in a
        // signal context. What it changes is process-wide and is what every Rust binary's
        // own start-up already sets.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    });
}

/// Kills the process group `proc` leads (it was started with `process_group(0)`), then
/// `proc` itself, and reaps it: its exit status (a process that had already exited keeps
/// its own). Call it once per child, before any other wait: after the reaping its id may
/// name another process.
pub(super) fn kill_group(proc: &mut std::process::Child) -> Option<std::process::ExitStatus> {
    if let Ok(pid) = libc::pid_t::try_from(proc.id()) {
        // SAFETY: kill() takes plain integers and touches no memory of ours. -pid names the
        // group `proc` leads; `proc` is not reaped yet (the `wait` below is the first: `Child`
        // calls this once and never waits otherwise), so that group id cannot name another.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = proc.kill();
    proc.wait().ok()
}
