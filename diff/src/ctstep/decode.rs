//! What one step of the traced child did, in terms that do not depend on where its memory
//! happens to lie: the instruction's place in the executable, and each address it reads or
//! writes as an offset into the region that holds it (the stack relative to the stack
//! pointer at the start of the trace; the executable, the heap and every other mapping
//! relative to their start). So two runs compare equal exactly when they take the same
//! instructions and touch the same places, address-space randomisation or not.

use super::ptrace::Regs;
use iced_x86::{Decoder, DecoderOptions, Instruction, Mnemonic, OpKind, Register};
use std::collections::HashMap;

/// One mapping of /proc/PID/maps.
#[derive(Debug, Clone)]
struct Mapping {
    start: u64,
    end: u64,
    exec: bool,
    path: String,
}

fn read_maps(pid: i32) -> Result<Vec<Mapping>, String> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/maps"))
        .map_err(|e| format!("reading /proc/{pid}/maps: {e}"))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let mut f = line.split_whitespace();
        let (Some(range), Some(perms)) = (f.next(), f.next()) else {
            return Err(format!("/proc/{pid}/maps: unexpected line {line:?}"));
        };
        let path = f.nth(3).unwrap_or("").to_string();
        let (a, b) = range
            .split_once('-')
            .ok_or_else(|| format!("/proc/{pid}/maps: unexpected range {range:?}"))?;
        let parse = |s| u64::from_str_radix(s, 16).map_err(|e| format!("{s}: {e}"));
        out.push(Mapping {
            start: parse(a)?,
            end: parse(b)?,
            exec: perms.as_bytes().get(2) == Some(&b'x'),
            path,
        });
    }
    Ok(out)
}

/// One memory access, placed: which region (0 the stack, 1 the executable, 2 the heap, 3 + i
/// the i-th other mapping, counted from the lowest) and the offset in it.
pub(crate) type Place = (u32, i64);

/// One traced step: the instruction's offset in the executable and the places of its
/// explicit memory operands (at most two on x86: `movs`, `cmps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    pub at: u64,
    pub mem: [Option<Place>; 2],
}

/// The child's address space as the trace sees it, and the instructions decoded so far.
#[derive(Debug)]
pub(crate) struct Space {
    pid: i32,
    maps: Vec<Mapping>,
    exe: String,
    exe_base: u64,
    stack0: u64,
    mem: std::fs::File,
    decoded: HashMap<u64, Instruction>,
}

impl Space {
    /// The space of the stopped child `pid`, whose stack pointer is `rsp` now.
    pub(crate) fn new(pid: i32, rsp: u64) -> Result<Space, String> {
        let exe = std::fs::read_link(format!("/proc/{pid}/exe"))
            .map_err(|e| format!("reading /proc/{pid}/exe: {e}"))?
            .to_string_lossy()
            .into_owned();
        let maps = read_maps(pid)?;
        let exe_base = maps
            .iter()
            .filter(|m| m.path == exe)
            .map(|m| m.start)
            .min()
            .ok_or_else(|| format!("no mapping of {exe} in /proc/{pid}/maps"))?;
        let mem = std::fs::File::open(format!("/proc/{pid}/mem"))
            .map_err(|e| format!("opening /proc/{pid}/mem: {e}"))?;
        Ok(Space {
            pid,
            maps,
            exe,
            exe_base,
            stack0: rsp,
            mem,
            decoded: HashMap::new(),
        })
    }

    /// Whether `rip` lies in the executable's own code (the trace leaves out the C library).
    pub(crate) fn in_exe(&self, rip: u64) -> bool {
        self.maps
            .iter()
            .any(|m| m.exec && m.path == self.exe && (m.start..m.end).contains(&rip))
    }

    /// The offset of `rip` in the executable (what `addr2line -e EXE` takes for a PIE).
    pub(crate) fn exe_offset(&self, rip: u64) -> u64 {
        rip - self.exe_base
    }

    fn place(&mut self, addr: u64) -> Result<Place, String> {
        for attempt in 0..2 {
            if let Some(i) = self
                .maps
                .iter()
                .position(|m| (m.start..m.end).contains(&addr))
            {
                let m = &self.maps[i];
                return Ok(match m.path.as_str() {
                    "[stack]" => (0, addr.wrapping_sub(self.stack0) as i64),
                    "[heap]" => (2, (addr - m.start) as i64),
                    p if p == self.exe => (1, (addr - self.exe_base) as i64),
                    _ => (3 + i as u32, (addr - m.start) as i64),
                });
            }
            if attempt == 0 {
                // A mapping made since the last reading (an allocation of its own).
                self.maps = read_maps(self.pid)?;
            }
        }
        Err(format!("address {addr:#x} is in no mapping of the child"))
    }

    /// The instruction at `rip` (decoded once per address: the code does not change).
    pub(crate) fn instruction(&mut self, rip: u64) -> Result<Instruction, String> {
        if let Some(i) = self.decoded.get(&rip) {
            return Ok(*i);
        }
        let mut bytes = [0u8; 15];
        // The longest x86 instruction is 15 bytes; near the end of a mapping fewer are there.
        let n = std::os::unix::fs::FileExt::read_at(&self.mem, &mut bytes, rip)
            .map_err(|e| format!("reading the code at {rip:#x}: {e}"))?;
        let mut d = Decoder::with_ip(64, &bytes[..n], rip, DecoderOptions::NONE);
        let ins = d.decode();
        if ins.is_invalid() {
            return Err(format!("no valid instruction at {rip:#x}"));
        }
        self.decoded.insert(rip, ins);
        Ok(ins)
    }

    /// The step the child is stopped at (`regs`), before it runs.
    pub(crate) fn step(&mut self, regs: &Regs) -> Result<Step, String> {
        let ins = self.instruction(regs.rip)?;
        let mut mem = [None, None];
        let mut k = 0;
        // `lea` and the long `nop`s have a memory operand but touch no memory.
        let touches = !matches!(ins.mnemonic(), Mnemonic::Lea | Mnemonic::Nop);
        for op in (0..ins.op_count()).filter(|_| touches) {
            if !is_memory(ins.op_kind(op)) {
                continue;
            }
            let addr = ins
                .virtual_address(op, 0, |reg, _, _| register(regs, reg))
                .ok_or_else(|| {
                    format!(
                        "{:?} at {:#x}: an address this check cannot compute (a vector index)",
                        ins.mnemonic(),
                        regs.rip
                    )
                })?;
            if k == 2 {
                return Err(format!(
                    "{:?} at {:#x}: over two memory operands",
                    ins.mnemonic(),
                    regs.rip
                ));
            }
            mem[k] = Some(self.place(addr)?);
            k += 1;
        }
        Ok(Step {
            at: self.exe_offset(regs.rip),
            mem,
        })
    }

    /// The mnemonic of the instruction at offset `at` in the executable, for a report.
    pub(crate) fn describe(&self, at: u64) -> String {
        self.decoded
            .get(&(self.exe_base + at))
            .map_or_else(|| "?".to_string(), |i| format!("{:?}", i.mnemonic()))
    }
}

fn is_memory(k: OpKind) -> bool {
    matches!(
        k,
        OpKind::Memory
            | OpKind::MemorySegSI
            | OpKind::MemorySegESI
            | OpKind::MemorySegRSI
            | OpKind::MemorySegDI
            | OpKind::MemorySegEDI
            | OpKind::MemorySegRDI
            | OpKind::MemoryESDI
            | OpKind::MemoryESEDI
            | OpKind::MemoryESRDI
    )
}

/// A general-purpose or segment register's value (segment: its base, which is 0 but for FS
/// and GS in 64-bit mode); `None` for anything else (a vector index register).
fn register(regs: &Regs, reg: Register) -> Option<u64> {
    match reg {
        Register::ES | Register::CS | Register::SS | Register::DS => Some(0),
        Register::FS => Some(regs.fs_base),
        Register::GS => Some(regs.gs_base),
        Register::RIP => Some(regs.rip),
        _ => {
            if let Some(i) = GPR64.iter().position(|&r| r == reg) {
                Some(regs.gpr[i])
            } else {
                let i = GPR32.iter().position(|&r| r == reg)?;
                Some(regs.gpr[i] & 0xffff_ffff)
            }
        }
    }
}

/// The general-purpose registers in the order of [`Regs::gpr`], as 64- and 32-bit operands
/// (an address may be formed from either).
const GPR64: [Register; 16] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RBX,
    Register::RSP,
    Register::RBP,
    Register::RSI,
    Register::RDI,
    Register::R8,
    Register::R9,
    Register::R10,
    Register::R11,
    Register::R12,
    Register::R13,
    Register::R14,
    Register::R15,
];
const GPR32: [Register; 16] = [
    Register::EAX,
    Register::ECX,
    Register::EDX,
    Register::EBX,
    Register::ESP,
    Register::EBP,
    Register::ESI,
    Register::EDI,
    Register::R8D,
    Register::R9D,
    Register::R10D,
    Register::R11D,
    Register::R12D,
    Register::R13D,
    Register::R14D,
    Register::R15D,
];
