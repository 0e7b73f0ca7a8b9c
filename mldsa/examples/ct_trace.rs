//! The trace-equivalence check's harness (`scripts/ct-trace.sh`), aarch64 only.
//!
//! It reads one 4-way Keccak state (100 words as this machine stores them, 800 bytes) from standard input,
//! runs one kernel on it once and writes the 800 bytes of the result to standard output. The
//! script runs it under qemu-user, logging the program counter, the general-purpose registers
//! and the flags before every instruction inside the kernel's functions, for several states,
//! and requires the logs to be identical. A kernel whose secret data stays in vector
//! registers (as Keccak's state does in both Neon paths) then has no secret-dependent branch
//! (the program counters would differ), no secret-dependent address (addresses are formed in
//! general-purpose registers) and no secret in a general-purpose register or the flags at all.
//!
//! This is how the SHA3-instruction path is tested: valgrind cannot decode EOR3, RAX1, XAR or
//! BCAX, so `scripts/ct-valgrind.sh` covers only the plain path.
//!
//! Usage: ct_trace sha3|plain|control-branch|control-index < state
//! - `sha3`: the Neon backend's 4-way Keccak with the SHA3 instructions (an error, exit 3,
//!   on a CPU without them: a forced path is never swapped for another);
//! - `plain`: the plain Neon path, which the valgrind test also covers;
//! - `control-branch`, `control-index`: kernels defined here that branch on a state word and
//!   index a table with one. The check must report both, or it proves nothing.

use std::io::{Read, Write};
use std::process::ExitCode;
use zerocopy::IntoBytes;

/// One 4-way interleaved Keccak state, as the backend's `keccak_f1600_x4` takes it.
type State = [u64; 100];

/// Branches on the low bit of every word (`black_box` keeps the branch a branch).
#[inline(never)]
fn control_branch(s: &mut State) {
    for w in s.iter_mut() {
        if *w & 1 == 1 {
            *w = std::hint::black_box(w.rotate_left(1));
        }
    }
}

/// Reads a table at an index taken from every word.
#[inline(never)]
fn control_index(s: &mut State) {
    static TABLE: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            i += 1;
        }
        t
    };
    for w in s.iter_mut() {
        *w ^= std::hint::black_box(&TABLE)[(*w & 0xff) as usize];
    }
}

/// Runs `kernel` on `s`; `Err` names why it cannot.
fn run(kernel: &str, s: &mut State) -> Result<(), (u8, String)> {
    match kernel {
        "control-branch" => control_branch(s),
        "control-index" => control_index(s),
        "sha3" | "plain" => return keccak(kernel, s),
        other => {
            return Err((
                2,
                format!("unknown kernel {other:?} (sha3, plain, control-branch, control-index)"),
            ));
        }
    }
    Ok(())
}

#[cfg(target_arch = "aarch64")]
fn keccak(kernel: &str, s: &mut State) -> Result<(), (u8, String)> {
    use mldsa::backend::Neon;
    let neon = Neon::detect().ok_or_else(|| (3, "this target has no Neon".to_string()))?;
    if kernel == "plain" {
        neon.keccak_f1600_x4_plain(s);
    } else {
        let sha3 = neon.sha3().ok_or_else(|| {
            (
                3,
                "this CPU has no SHA3 instructions (FEAT_SHA3)".to_string(),
            )
        })?;
        sha3.keccak_f1600_x4(s);
    }
    Ok(())
}

#[cfg(not(target_arch = "aarch64"))]
fn keccak(_: &str, _: &mut State) -> Result<(), (u8, String)> {
    Err((2, "the Neon kernels exist on aarch64 only".to_string()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kernel] = args.as_slice() else {
        eprintln!("usage: ct_trace sha3|plain|control-branch|control-index < state (800 bytes)");
        return ExitCode::from(2);
    };
    // Read by the system straight into the state's words (little-endian on aarch64): no
    // conversion and no buffered standard input, whose copy out of its buffer would leave
    // input words in general-purpose registers at the kernel's entry.
    let mut s: State = [0; 100];
    let read = std::fs::File::open("/dev/stdin").and_then(|mut f| f.read_exact(s.as_mut_bytes()));
    if let Err(e) = read {
        eprintln!("ct_trace: reading the 800-byte state from standard input: {e}");
        return ExitCode::from(2);
    }
    if let Err((code, why)) = run(kernel, &mut s) {
        eprintln!("ct_trace: {why}");
        return ExitCode::from(code);
    }
    if let Err(e) = std::io::stdout().write_all(s.as_bytes()) {
        eprintln!("ct_trace: writing the result: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
