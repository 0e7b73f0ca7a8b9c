//! The POSIX calls of the single-stepping constant-time check that `std` does not offer: a
//! child asks to be traced and stops itself around the code under test; the parent steps it
//! one instruction at a time and reads its registers. With `impls/process/signals.rs`,
//! `pqclean/`, `mldsa_native/{ffi,kernels}.rs`, `openssl/ffi.rs`, `controls.rs` and the
//! getrandom provider in `rng.rs`, the only `unsafe` of the harness.
#![allow(unsafe_code)]

use std::io;

/// The child's side, first: lets the parent trace this process, then stops it (SIGSTOP), so
/// that the parent's first wait sees it stopped right before the code under test.
pub(crate) fn trace_me_and_stop() -> io::Result<()> {
    // SAFETY: PTRACE_TRACEME takes no pointer (the other arguments are ignored, passed as
    // null); it only marks this process as traced by its parent.
    let r = unsafe {
        libc::ptrace(
            libc::PTRACE_TRACEME,
            0,
            std::ptr::null_mut::<libc::c_void>(),
            std::ptr::null_mut::<libc::c_void>(),
        )
    };
    if r == -1 {
        return Err(io::Error::last_os_error());
    }
    stop()
}

/// The child's side, after the code under test: stops again, which ends the parent's trace.
pub(crate) fn stop() -> io::Result<()> {
    // SAFETY: raise() takes a signal number and touches no memory of ours; SIGSTOP has no
    // handler (it cannot have one).
    if unsafe { libc::raise(libc::SIGSTOP) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Turns address-space randomisation off for the children this process starts from now on
/// (the personality is inherited through fork and exec): each then starts with its stack at
/// the same address, so frames that align themselves (`and rsp, -32`) land at the same
/// offsets in every run. This process's own layout does not change.
pub(crate) fn no_aslr_for_children() -> io::Result<()> {
    // SAFETY: personality() takes an integer and touches no memory of ours. 0xffffffff
    // queries the current persona without changing it.
    let current = unsafe { libc::personality(0xffff_ffff) };
    if current == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above; the new persona only adds ADDR_NO_RANDOMIZE to the current one.
    let r = unsafe {
        libc::personality((current as libc::c_ulong) | libc::ADDR_NO_RANDOMIZE as libc::c_ulong)
    };
    if r == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// What a wait saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// Stopped after one single step (SIGTRAP).
    Stepped,
    /// Stopped by its own SIGSTOP (`stop`).
    SelfStopped,
    /// Stopped by another signal (its number).
    Signal(i32),
    /// Exited (its status) or was killed (128 + the signal).
    Ended(i32),
}

/// The registers the address computation reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Regs {
    pub rip: u64,
    pub rsp: u64,
    /// rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8 ... r15: the order of the encoding.
    pub gpr: [u64; 16],
    pub fs_base: u64,
    pub gs_base: u64,
}

/// A traced child (by process id), which the parent must reap (`finish`) or kill.
#[derive(Debug)]
pub(crate) struct Tracee {
    pid: libc::pid_t,
    /// Set once a wait has seen it end (and so reaped it): its id may then name another
    /// process, which `kill` must never signal.
    reaped: std::cell::Cell<bool>,
}

impl Tracee {
    /// The child `pid`, which called `trace_me_and_stop` (or will).
    pub(crate) fn new(pid: u32) -> io::Result<Tracee> {
        let pid = libc::pid_t::try_from(pid).map_err(|_| io::Error::other("pid out of range"))?;
        Ok(Tracee {
            pid,
            reaped: std::cell::Cell::new(false),
        })
    }

    /// Waits for the child's next stop or its end.
    pub(crate) fn wait(&self) -> io::Result<Event> {
        let mut status: libc::c_int = 0;
        // SAFETY: waitpid writes one c_int through the pointer, which points at a local of
        // that type alive for the call.
        let r = unsafe { libc::waitpid(self.pid, &mut status, 0) };
        if r == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(if libc::WIFSTOPPED(status) {
            match libc::WSTOPSIG(status) {
                libc::SIGTRAP => Event::Stepped,
                libc::SIGSTOP => Event::SelfStopped,
                s => Event::Signal(s),
            }
        } else {
            self.reaped.set(true);
            if libc::WIFEXITED(status) {
                Event::Ended(libc::WEXITSTATUS(status))
            } else {
                Event::Ended(128 + libc::WTERMSIG(status))
            }
        })
    }

    fn request(&self, req: libc::c_uint) -> io::Result<()> {
        // SAFETY: PTRACE_SINGLESTEP, PTRACE_CONT and PTRACE_KILL take no pointer; the data
        // argument 0 is "deliver no signal" (a pending SIGSTOP is suppressed).
        let r = unsafe {
            libc::ptrace(
                req,
                self.pid,
                std::ptr::null_mut::<libc::c_void>(),
                std::ptr::null_mut::<libc::c_void>(),
            )
        };
        if r == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Runs one instruction (then `wait`).
    pub(crate) fn step(&self) -> io::Result<()> {
        self.request(libc::PTRACE_SINGLESTEP)
    }

    /// Lets it run to its end and reaps it: its exit status.
    pub(crate) fn finish(&self) -> io::Result<i32> {
        self.request(libc::PTRACE_CONT)?;
        loop {
            match self.wait()? {
                Event::Ended(code) => return Ok(code),
                _ => self.request(libc::PTRACE_CONT)?,
            }
        }
    }

    /// Kills and reaps it (after an error).
    pub(crate) fn kill(&self) {
        if self.reaped.get() {
            return;
        }
        // SAFETY: kill() takes plain integers and touches no memory of ours; the child is
        // not reaped yet (checked above), so its id names no other process.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
        }
        let mut status: libc::c_int = 0;
        // SAFETY: as in `wait`.
        unsafe {
            libc::waitpid(self.pid, &mut status, 0);
        }
    }

    /// Its registers, while it is stopped.
    pub(crate) fn regs(&self) -> io::Result<Regs> {
        let mut r = std::mem::MaybeUninit::<libc::user_regs_struct>::zeroed();
        // SAFETY: PTRACE_GETREGS writes one user_regs_struct through the data pointer, which
        // points at a (zeroed) value of that type alive for the call.
        let rc = unsafe {
            libc::ptrace(
                libc::PTRACE_GETREGS,
                self.pid,
                std::ptr::null_mut::<libc::c_void>(),
                r.as_mut_ptr(),
            )
        };
        if rc == -1 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: zeroed is a valid user_regs_struct (plain integers), and the call above
        // filled it.
        let r = unsafe { r.assume_init() };
        Ok(Regs {
            rip: r.rip,
            rsp: r.rsp,
            gpr: [
                r.rax, r.rcx, r.rdx, r.rbx, r.rsp, r.rbp, r.rsi, r.rdi, r.r8, r.r9, r.r10, r.r11,
                r.r12, r.r13, r.r14, r.r15,
            ],
            fs_base: r.fs_base,
            gs_base: r.gs_base,
        })
    }

    /// Its process id (for /proc).
    pub(crate) fn pid(&self) -> libc::pid_t {
        self.pid
    }
}
