//! What only the Neon backend has: its two Keccak paths. Every other Neon kernel is tested
//! against portable by `simd_kernels.rs`, which runs for every SIMD backend available.
//!
//! Both Keccak paths are tested where they can run: the plain Neon one always, the SHA3 one
//! only if the CPU has the SHA3 instructions (run under `QEMU_CPU=max` and
//! `QEMU_CPU=cortex-a72` to cover both). `MLDSA_NEON_EXPECT_SHA3=1` (or `0`) says whether the
//! CPU must have them, so a run meant to cover one path cannot silently take the other.
#![cfg(target_arch = "aarch64")]

use mldsa::backend::{Backend, Neon, Portable};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

#[test]
fn keccak_four_way_both_paths() {
    let neon = Neon::detect().expect("every aarch64 target has Neon");
    let sha3 = neon.sha3();
    match std::env::var("MLDSA_NEON_EXPECT_SHA3").as_deref() {
        Ok("1") => assert!(sha3.is_some(), "SHA3 expected but not detected"),
        Ok("0") => assert!(sha3.is_none(), "SHA3 detected but not expected"),
        _ => {}
    }
    eprintln!(
        "Keccak x4: plain Neon path tested; SHA3 path {}",
        if sha3.is_some() {
            "tested"
        } else {
            "NOT RUN (no SHA3 on this CPU)"
        }
    );
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    let mut cases = vec![[0u64; 100], [u64::MAX; 100]];
    let mut one = [0u64; 100];
    one[0] = 1;
    one[99] = 1 << 63;
    cases.push(one);
    for _ in 0..300 {
        cases.push(core::array::from_fn(|_| rng.r#gen()));
    }
    for s in &cases {
        let mut want = *s;
        Portable.keccak_f1600_x4(&mut want);
        let mut plain = *s;
        neon.keccak_f1600_x4_plain(&mut plain);
        assert_eq!(want, plain, "plain Neon path");
        let mut plain_public = *s;
        neon.keccak_f1600_x4_plain_public(&mut plain_public);
        assert_eq!(want, plain_public, "plain Neon path, public states");
        let mut forced = *s;
        neon.plain().keccak_f1600_x4(&mut forced);
        assert_eq!(want, forced, "NeonPlain backend");
        let mut forced_public = *s;
        neon.plain().keccak_f1600_x4_public(&mut forced_public);
        assert_eq!(want, forced_public, "NeonPlain backend, public states");
        if let Some(t) = sha3 {
            let mut fast = *s;
            t.keccak_f1600_x4(&mut fast);
            assert_eq!(want, fast, "SHA3 path");
            let mut fast_public = *s;
            t.keccak_f1600_x4_public(&mut fast_public);
            assert_eq!(want, fast_public, "SHA3 path, public states");
        }
        // The backend's own choice.
        let mut got = *s;
        let mut got_public = *s;
        neon.keccak_f1600_x4(&mut got);
        neon.keccak_f1600_x4_public(&mut got_public);
        assert_eq!(want, got, "keccak_f1600_x4");
        assert_eq!(want, got_public, "keccak_f1600_x4_public");
    }
    for k in 0..100 {
        // The pair equals the 4-way permutation on each.
        let (mut u, mut v) = (cases[k], cases[k + 1]);
        let (mut u1, mut v1) = (u, v);
        Portable.keccak_f1600_x4(&mut u1);
        Portable.keccak_f1600_x4(&mut v1);
        let (mut u2, mut v2) = (u, v);
        neon.keccak_f1600_x4x2(&mut u, &mut v);
        neon.keccak_f1600_x4x2_public(&mut u2, &mut v2);
        assert_eq!((u, v), (u1, v1), "keccak_f1600_x4x2");
        assert_eq!((u2, v2), (u1, v1), "keccak_f1600_x4x2_public");
    }
}
