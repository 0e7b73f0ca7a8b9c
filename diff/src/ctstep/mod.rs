//! The native constant-time check (`mldsa-ct-step`, x86_64 Linux): every kernel that
//! handles secrets, on every backend this CPU has, run in a child process that the check
//! single-steps with ptrace, one instruction at a time, on several secret inputs. The traces
//! must be identical: the same instructions in the same order (no secret-dependent branch)
//! touching the same places in memory (no secret-dependent address), each address taken
//! from the instruction's own operands and registers at that step and placed relative to
//! its region, so address-space randomisation does not matter.
//!
//! Valgrind (3.19 here) and QEMU cannot decode AVX-512, so neither the memcheck test
//! (`scripts/ct-valgrind.sh`) nor a qemu-user trace (`scripts/ct-trace.sh`) reaches the
//! avx512 backend; this runs on the CPU itself, so it reaches every backend the CPU has.
//! What it cannot see: an instruction whose latency depends on its operands
//! (`scripts/ct-divides.sh` looks for divides) and the code of the C library (left out of
//! the trace: the kernels call none of it).
//!
//! Each input is a case of the kernel's own check (drawn from the kernel's contract, as the
//! differential checks draw theirs), run through the same adapter (`impls::ours`). The first
//! input runs twice first: a harness whose trace changes between two runs of one input is an
//! error, not a finding. Then the controls (`controls.rs`) must each be reported.

mod controls;
mod decode;
mod ptrace;

use crate::Check;
use crate::check::inputs::polys_in;
use crate::source::RngSource;
use decode::{Space, Step};
use ptrace::{Event, Tracee};
use std::path::Path;
use std::process::{Command, Stdio};

/// The checks whose kernels handle secrets in signing or key generation, so whose traces
/// must not depend on their inputs. Left out, each for its reason: the rejection samplers
/// over secret seeds (`rej_eta*`, `poly_uniform_eta*`: how many candidates they keep is
/// allowed to show, FIPS 204 Section 3.6.3, and it moves their stores), SampleInBall
/// (`challenge_*`: its loop runs over c~, public once signed), and the kernels of public
/// data only (t1, the hints, UseHint, ExpandA, the uniform sampler).
pub const SECRET_CHECKS: &[&str] = &[
    "keccak_f1600",
    "keccak_f1600_x4",
    "keccak_f1600_x4x2",
    "ntt",
    "invntt_tomont",
    "pointwise_montgomery",
    "pointwise_acc_l4",
    "pointwise_acc_l5",
    "pointwise_acc_l7",
    "reduce",
    "caddq",
    "add",
    "sub",
    "shiftl",
    "power2round",
    "decompose_88",
    "decompose_32",
    "make_hint_88",
    "make_hint_32",
    "chknorm",
    "poly_uniform_gamma1_17",
    "poly_uniform_gamma1_19",
    "pack_t0",
    "unpack_t0",
    "pack_eta2",
    "unpack_eta2",
    "pack_eta4",
    "unpack_eta4",
    "pack_z17",
    "pack_z19",
    "pack_w1_88",
    "pack_w1_32",
];

/// The controls this CPU can run (each must be reported).
pub fn controls() -> Vec<&'static str> {
    controls::available()
}

/// The child's side (`mldsa-ct-step --child TARGET BACKEND INPUT`): builds input number
/// `input` of `target` (a check of [`SECRET_CHECKS`] or a control), then stops for the
/// parent, runs the kernel and stops again. Returns only after the parent let it go.
pub fn child(target: &str, backend: &str, input: u64) -> Result<(), String> {
    let kind = mldsa::BackendKind::parse(backend).map_err(|e| format!("{backend}: {e}"))?;
    let oracle = crate::impls::ours::oracle(kind).map_err(|e| format!("{backend}: {e}"))?;
    // A control runs on the ntt check's polynomials.
    let control = target.starts_with("control-");
    let from = if control { "ntt" } else { target };
    let check = Check::from_name(from).ok_or_else(|| format!("no check {from:?}"))?;
    // The check's first edge cases (all zero, all at the low bound, all at the high bound, for
    // a polynomial), which reach the rare directions a branch could take (a lane of each sign
    // in every vector, say), then random ones. Every child draws all of them, in the same
    // order, and traces a copy of its own: the heap is then in the same state whichever
    // input it traces, and the copy at the same address.
    if input >= MAX_INPUTS {
        return Err(format!("input {input}: at most {MAX_INPUTS} inputs"));
    }
    // (The controls take random inputs only: the edge cases' lanes are all even, with low
    // bytes of 0, which their planted branch and index would not tell apart.)
    let edges = if control {
        0
    } else {
        check.edge_cases().min(EDGE_INPUTS) as u64
    };
    let cases = (0..MAX_INPUTS)
        .map(|i| {
            let mut src = RngSource::for_check(i, from);
            (check.def.generate)(check, i as usize, i < edges, &mut src)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("{from}: no input drawn"))?;
    let case = cases[input as usize].clone();
    if control {
        let p = polys_in(&case, 1).ok_or("the ntt check's input is no polynomial")?;
        let a: [i32; 256] = p[0].coeffs;
        controls::run(target, &[0; 256])
            .ok_or_else(|| format!("{target}: unknown or not on this CPU"))?;
        ptrace::trace_me_and_stop().map_err(|e| format!("ptrace: {e}"))?;
        let r = controls::run(target, &a);
        ptrace::stop().map_err(|e| format!("raise: {e}"))?;
        std::hint::black_box(r);
    } else {
        ptrace::trace_me_and_stop().map_err(|e| format!("ptrace: {e}"))?;
        let r = check.run(&*oracle, &case);
        ptrace::stop().map_err(|e| format!("raise: {e}"))?;
        if std::hint::black_box(r).is_none() {
            return Err(format!("{target}: {backend} does not offer it"));
        }
    }
    Ok(())
}

/// The most inputs a check traces (every child draws this many).
pub const MAX_INPUTS: u64 = 12;

/// How many of a check's edge cases come first among its inputs.
const EDGE_INPUTS: usize = 3;

/// The most steps one run may take before the check gives up on it.
const MAX_STEPS: usize = 20_000_000;

/// One traced run: the steps inside the executable, and its address space (to describe them).
pub struct Trace {
    steps: Vec<Step>,
    space: Space,
}

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Trace({} steps)", self.steps.len())
    }
}

impl Trace {
    pub fn len(&self) -> usize {
        self.steps.len()
    }
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// Runs `exe --child target backend input` and traces it between its two stops.
pub fn trace(exe: &Path, target: &str, backend: &str, input: u64) -> Result<Trace, String> {
    ptrace::no_aslr_for_children()
        .map_err(|e| format!("turning address-space randomisation off (personality): {e}"))?;
    let mut cmd = Command::new(exe);
    // The input's number at a fixed width: the arguments, and so the stack, the same size.
    cmd.args(["--child", target, backend, &format!("{input:08}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut proc = cmd
        .spawn()
        .map_err(|e| format!("starting {}: {e}", exe.display()))?;
    let t = Tracee::new(proc.id()).map_err(|e| e.to_string())?;
    let result = follow(&t);
    let code = match &result {
        Ok(_) => t
            .finish()
            .map_err(|e| format!("letting the child end: {e}")),
        Err(_) => {
            t.kill();
            Ok(0)
        }
    };
    let mut err = String::new();
    if let Some(mut e) = proc.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    let trace = result.map_err(|e| format!("{e}{}", tail(&err)))?;
    match code? {
        0 => Ok(trace),
        c => Err(format!("the child exited with status {c}{}", tail(&err))),
    }
}

fn tail(err: &str) -> String {
    let e = err.trim();
    if e.is_empty() {
        String::new()
    } else {
        format!(" (child: {e})")
    }
}

fn follow(t: &Tracee) -> Result<Trace, String> {
    match t.wait().map_err(|e| e.to_string())? {
        Event::SelfStopped => {}
        other => {
            return Err(format!(
                "the child did not stop before the kernel: {other:?}"
            ));
        }
    }
    let regs = t.regs().map_err(|e| format!("registers: {e}"))?;
    let mut space = Space::new(t.pid(), regs.rsp)?;
    let mut steps = Vec::new();
    for _ in 0..MAX_STEPS {
        t.step().map_err(|e| format!("single step: {e}"))?;
        match t.wait().map_err(|e| e.to_string())? {
            Event::Stepped => {
                let regs = t.regs().map_err(|e| format!("registers: {e}"))?;
                if space.in_exe(regs.rip) {
                    steps.push(space.step(&regs)?);
                }
            }
            Event::SelfStopped => return Ok(Trace { steps, space }),
            other => return Err(format!("the child, while traced: {other:?}")),
        }
    }
    Err(format!("over {MAX_STEPS} steps: stopped"))
}

/// Where two traces part, described; `None` if they are identical.
pub fn difference(reference: &Trace, other: &Trace) -> Option<String> {
    let at = reference
        .steps
        .iter()
        .zip(&other.steps)
        .position(|(a, b)| a != b);
    let describe = |t: &Trace, s: &Step| {
        let mem: Vec<String> = s
            .mem
            .iter()
            .flatten()
            .map(|(region, off)| match region {
                0 => format!("stack{off:+#x}"),
                1 => format!("exe+{off:#x}"),
                2 => format!("heap+{off:#x}"),
                r => format!("map{}+{off:#x}", r - 3),
            })
            .collect();
        format!(
            "{} at exe+{:#x} [{}]",
            t.space.describe(s.at),
            s.at,
            mem.join(", ")
        )
    };
    match at {
        Some(i) => Some(format!(
            "step {i} of {}: {} / {}",
            reference.len(),
            describe(reference, &reference.steps[i]),
            describe(other, &other.steps[i])
        )),
        None if reference.len() != other.len() => Some(format!(
            "{} steps / {} steps (identical up to the shorter)",
            reference.len(),
            other.len()
        )),
        None => None,
    }
}
