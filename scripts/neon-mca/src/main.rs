//! Calls every kernel that scripts/neon-mca.sh estimates, each from its own wrapper symbol
//! `mca_<kernel>_<implementation>` (the script traces the instructions executed from a
//! wrapper's entry to its `ret`). Deterministic kernels run once; the rejection samplers run
//! on `RUNS` pseudo-random buffers (uniform bytes, as SHAKE output is), so that the script's
//! average is a Monte Carlo estimate of the expected cost.
#![allow(unsafe_code)]

use mldsa::backend::{Backend, Neon, Portable};
use mldsa::params::Eta;
use mldsa::poly::Poly;
use std::hint::black_box;

const RUNS: usize = 16;

macro_rules! wrappers {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty $body:block)*) => {
        $(
            #[unsafe(no_mangle)]
            #[inline(never)]
            pub fn $name($($arg: $ty),*) -> $ret $body
        )*
    };
}

wrappers! {
    mca_ntt_neon(b: Neon, p: &mut Poly) -> () { b.ntt(p) }
    mca_ntt_portable(p: &mut Poly) -> () { Portable.ntt(p) }
    mca_invntt_neon(b: Neon, p: &mut Poly) -> () { b.invntt_tomont(p) }
    mca_invntt_portable(p: &mut Poly) -> () { Portable.invntt_tomont(p) }
    mca_keccakx4_neonplain(b: Neon, s: &mut [u64; 100]) -> () { b.keccak_f1600_x4_plain(s) }
    mca_keccakx4_neonsha3(b: mldsa::backend::neon::NeonSha3, s: &mut [u64; 100]) -> () {
        b.keccak_f1600_x4(s)
    }
    mca_keccakx4_portable(s: &mut [u64; 100]) -> () { Portable.keccak_f1600_x4(s) }
    mca_rejuniform_neon(b: Neon, out: &mut [i32], buf: &[u8]) -> usize { b.rej_uniform(out, buf) }
    mca_rejuniform_portable(out: &mut [i32], buf: &[u8]) -> usize {
        Portable.rej_uniform(out, buf)
    }
    mca_rejeta2_neon(b: Neon, out: &mut [i32], buf: &[u8]) -> usize {
        b.rej_eta(Eta::Two, out, buf)
    }
    mca_rejeta2_portable(out: &mut [i32], buf: &[u8]) -> usize {
        Portable.rej_eta(Eta::Two, out, buf)
    }
    mca_rejeta4_neon(b: Neon, out: &mut [i32], buf: &[u8]) -> usize {
        b.rej_eta(Eta::Four, out, buf)
    }
    mca_rejeta4_portable(out: &mut [i32], buf: &[u8]) -> usize {
        Portable.rej_eta(Eta::Four, out, buf)
    }
}

/// xorshift64*: uniform bytes without dependencies.
fn fill(state: &mut u64, buf: &mut [u8]) {
    for b in buf.iter_mut() {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        *b = (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8;
    }
}

fn main() {
    let neon = Neon::detect().expect("an aarch64 target has Neon");
    let sha3 = neon.sha3();
    // The benchmark's polynomial (diff/benches/kernels.rs).
    let mut a = Poly::ZERO;
    for (i, c) in a.coeffs.iter_mut().enumerate() {
        *c = ((i as i32 * 7919) % 16_000_000) - 8_000_000;
    }
    let mut x = black_box(a);
    mca_ntt_neon(neon, &mut x);
    let mut y = black_box(a);
    mca_ntt_portable(&mut y);
    assert_eq!(x, y);
    Portable.reduce(&mut x);
    let mut y = x;
    mca_invntt_neon(neon, &mut x);
    mca_invntt_portable(&mut y);
    assert_eq!(x, y);

    let mut s = [1u64; 100];
    mca_keccakx4_neonplain(neon, black_box(&mut s));
    let mut t = [1u64; 100];
    mca_keccakx4_portable(black_box(&mut t));
    assert_eq!(s, t);
    match sha3 {
        Some(k) => {
            let mut u = [1u64; 100];
            mca_keccakx4_neonsha3(k, black_box(&mut u));
            assert_eq!(u, t);
        }
        None => eprintln!("no SHA3 instructions on this CPU: the SHA3 path is not traced"),
    }

    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..RUNS {
        // As the benchmark: 840 bytes (five SHAKE128 blocks) for rej_uniform, 136 bytes (one
        // SHAKE256 block) at eta = 2; at eta = 4, 272 bytes (two blocks: 256 values need
        // about 228 bytes at an acceptance rate of 9/16).
        let mut buf = [0u8; 840];
        fill(&mut state, &mut buf);
        let (mut o1, mut o2) = ([0i32; 256], [0i32; 256]);
        let n1 = mca_rejuniform_neon(neon, &mut o1, black_box(&buf));
        let n2 = mca_rejuniform_portable(&mut o2, black_box(&buf));
        assert_eq!((n1, &o1[..n1]), (n2, &o2[..n2]));
        for (eta, len) in [(2, 136), (4, 272)] {
            let (mut o1, mut o2) = ([0i32; 256], [0i32; 256]);
            let (n1, n2) = if eta == 2 {
                (
                    mca_rejeta2_neon(neon, &mut o1, black_box(&buf[..len])),
                    mca_rejeta2_portable(&mut o2, black_box(&buf[..len])),
                )
            } else {
                (
                    mca_rejeta4_neon(neon, &mut o1, black_box(&buf[..len])),
                    mca_rejeta4_portable(&mut o2, black_box(&buf[..len])),
                )
            };
            assert_eq!((n1, &o1[..n1]), (n2, &o2[..n2]));
        }
    }
    println!("ok");
}
