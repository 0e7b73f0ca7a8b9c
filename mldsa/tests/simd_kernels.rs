//! Every SIMD backend's own kernel tests, written once over `B: Backend` and run for each
//! non-portable backend available on this machine: every kernel it overrides against the
//! portable one, on edge inputs (zeros, one non-zero coefficient in each lane/vector/group
//! position class, the contract's extreme values) and on thousands of random inputs inside
//! the kernel's contract (`mldsa::backend::contract`, the same bounds the debug assertions
//! and the differential harness use). Outputs compare as the contract says; the NTT and its
//! inverse are also required to be bit-identical (in canonical order).
//!
//! A machine without a SIMD backend passes these tests with nothing tested (each test says
//! so on stderr), unless `MLDSA_REQUIRE_BACKENDS` (comma-separated backend names, e.g.
//! `avx2` or `avx2,neon`) names a backend it lacks: then they fail. A backend that did not
//! run is never counted as tested.

use mldsa::backend::contract::{self, Bounds, Compare, Contract};
use mldsa::backend::{AnyBackend, Backend, BackendKind, Portable};
use mldsa::params::{Eta, Gamma1, Gamma2, N, POLY_T0_BYTES, POLY_T1_BYTES, Q};
use mldsa::poly::Poly;
use mldsa::with_backend;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

// Under Miri (scripts/miri.sh), about a thousand times slower, three edge inputs and two
// random ones: Miri checks memory accesses, which in these kernels do not depend on the
// values (the samplers', which do, run on their random cases).
const RANDOM_CASES: usize = if cfg!(miri) { 2 } else { 3000 };

/// The non-portable backends available here, after checking that every backend
/// `MLDSA_REQUIRE_BACKENDS` names is among them (other names in that list — C variants,
/// `neon-plain` — are for `mldsa-diff`, which checks them).
fn simd_backends(test: &str) -> Vec<BackendKind> {
    let kinds: Vec<BackendKind> = BackendKind::available()
        .filter(|&k| k != BackendKind::Portable)
        .collect();
    if let Ok(required) = std::env::var("MLDSA_REQUIRE_BACKENDS") {
        for name in required.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Ok(k) = BackendKind::parse(name) else {
                continue;
            };
            assert!(
                kinds.contains(&k) || k == BackendKind::Portable,
                "MLDSA_REQUIRE_BACKENDS names {k}, which this machine or build does not have, \
                 so its kernels cannot be tested"
            );
        }
    }
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    if names.is_empty() {
        eprintln!("{test}: NOT RUN, no SIMD backend available here");
    } else {
        eprintln!("{test}: tested {}", names.join(", "));
    }
    kinds
}

/// Runs `$body` with `$b` bound to each SIMD backend available here (see [`simd_backends`]).
/// A new backend needs no change here: it only has to be in `BackendKind::available()`.
macro_rules! for_simd_backends {
    ($test:literal, |$b:ident| $body:expr) => {
        for kind in simd_backends($test) {
            let any = AnyBackend::new(kind).expect("an available backend");
            with_backend!(any, |$b| $body);
        }
    };
}

/// Positions that cover every lane, every vector of an 8x8 transpose group, and the edges
/// of each 64-coefficient group.
const POSITIONS: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 56, 63, 64, 127, 128, 255];

/// Edge inputs inside `b`, then random ones (uniform, and near both ends).
fn inputs(b: Bounds, rng: &mut ChaCha20Rng) -> Vec<Poly> {
    let poly = |f: &mut dyn FnMut(usize) -> i32| {
        let mut p = Poly::ZERO;
        for (i, c) in p.coeffs.iter_mut().enumerate() {
            *c = f(i);
        }
        p
    };
    let zero = b.lo.max(0).min(b.hi);
    let mut v = vec![
        poly(&mut |_| zero),
        poly(&mut |_| b.lo),
        poly(&mut |_| b.hi),
        poly(&mut |i| if i % 2 == 0 { b.lo } else { b.hi }),
    ];
    for &pos in &POSITIONS {
        for x in [b.lo, b.hi] {
            v.push(poly(&mut |i| if i == pos { x } else { zero }));
        }
    }
    if cfg!(miri) {
        v.truncate(3);
    }
    for k in 0..RANDOM_CASES {
        v.push(poly(&mut |_| match k % 3 {
            0 => rng.gen_range(b.lo..=b.hi),
            1 => b.lo.saturating_add(rng.gen_range(0..16)).min(b.hi),
            _ => b.hi.saturating_sub(rng.gen_range(0..16)).max(b.lo),
        }));
    }
    v
}

fn canonical(x: i32) -> i32 {
    x.rem_euclid(Q)
}

/// Compares as `c.compare` says (NTT outputs are mapped to canonical order before this).
fn same(kind: BackendKind, c: &Contract, what: &str, input: &Poly, want: &Poly, got: &Poly) {
    let eq = |a: i32, b: i32| match c.compare {
        Compare::Exact => a == b,
        Compare::ModQ | Compare::ModQNttOrder => canonical(a) == canonical(b),
    };
    if let Some(i) = (0..N).find(|&i| !eq(want.coeffs[i], got.coeffs[i])) {
        panic!(
            "{what}: {kind} differs from portable at index {i}: {} vs {} (input[{i}] = {})",
            want.coeffs[i], got.coeffs[i], input.coeffs[i]
        );
    }
}

/// Evaluates `$body` with `$b` the portable backend, then with `$simd`, and compares the two
/// results on `$input` as the contract `$c` says.
macro_rules! compare_on {
    ($simd:expr, $c:expr, $input:expr, |$b:ident| $body:expr) => {{
        let want = {
            let $b = Portable;
            $body
        };
        let got = {
            let $b = $simd;
            $body
        };
        same(kind_of($simd), $c, $c.name, $input, &want, &got);
    }};
}

/// Runs `$body` (kernels called on `$b`, an input bound to `$a`) with `$b` the portable
/// backend and with `$simd`, on the edge and random inputs of the contract's first input,
/// and compares the two results as the contract says.
macro_rules! one_input {
    ($simd:expr, $c:expr, |$b:ident, $a:ident| $body:expr) => {{
        let (simd, c): (_, &Contract) = ($simd, $c);
        let mut rng = ChaCha20Rng::seed_from_u64(0x5eed ^ c.name.len() as u64);
        for input in inputs(c.input[0], &mut rng) {
            let $a = &input;
            compare_on!(simd, c, $a, |$b| $body);
        }
    }};
}

/// [`one_input!`] for kernels of two inputs (`$x`, `$y`, from the contract's two inputs).
macro_rules! two_inputs {
    ($simd:expr, $c:expr, |$b:ident, $x:ident, $y:ident| $body:expr) => {{
        let (simd, c): (_, &Contract) = ($simd, $c);
        let mut rng = ChaCha20Rng::seed_from_u64(0xb0b ^ c.name.len() as u64);
        let xs = inputs(c.input[0], &mut rng);
        let ys = inputs(c.input[1], &mut rng);
        // Edge against edge, edge against random, random against random.
        for (i, x) in xs.iter().enumerate() {
            for y in [&ys[i], &ys[(i * 7 + 3) % ys.len()], &ys[0], &ys[2]] {
                let ($x, $y) = (x, y);
                compare_on!(simd, c, x, |$b| $body);
            }
        }
    }};
}

fn kind_of<B: Backend>(_: B) -> BackendKind {
    B::KIND
}

/// The NTT, its output mapped to canonical order (the backend may keep its own).
fn ntt_canonical<B: Backend>(b: B, a: &mut Poly) {
    b.ntt(a);
    b.ntt_order_to_canonical(a);
}

/// The inverse NTT of a canonical-order input.
fn invntt_canonical<B: Backend>(b: B, a: &mut Poly) {
    b.ntt_order_from_canonical(a);
    b.invntt_tomont(a);
}

fn map(a: &Poly, f: impl FnOnce(&mut Poly)) -> Poly {
    let mut x = *a;
    f(&mut x);
    x
}

const EXACT: Compare = Compare::Exact;

#[test]
fn ntt_is_bit_identical_and_inverse_agrees() {
    for_simd_backends!("ntt_is_bit_identical_and_inverse_agrees", |b| {
        ntt_is_bit_identical_and_inverse_agrees_on(b)
    });
}

/// The NTT bit for bit; the inverse as its contract says (mod q: AVX2 folds the final factor
/// into the last layer's twiddle, and so does AVX-512), every output within the contract's bound.
fn ntt_is_bit_identical_and_inverse_agrees_on<B: Backend>(simd: B) {
    one_input!(
        simd,
        &Contract {
            compare: EXACT,
            ..contract::NTT
        },
        |b, a| map(a, |x| ntt_canonical(b, x))
    );
    one_input!(simd, &contract::INVNTT_TOMONT, |b, a| map(a, |x| {
        invntt_canonical(b, x);
        assert!(
            contract::INVNTT_OUT.holds(&x.coeffs),
            "invntt_tomont of {}: {:?} outside {:?}",
            kind_of(b),
            contract::first_violation(contract::INVNTT_OUT, &x.coeffs),
            contract::INVNTT_OUT
        );
    }));
}

#[test]
fn ntt_order_conversion_round_trips() {
    for_simd_backends!("ntt_order_conversion_round_trips", |b| {
        ntt_order_conversion_round_trips_on(b)
    });
}

fn ntt_order_conversion_round_trips_on<B: Backend>(simd: B) {
    let mut a = Poly::ZERO;
    for (i, c) in a.coeffs.iter_mut().enumerate() {
        *c = i as i32;
    }
    let mut b = a;
    simd.ntt_order_from_canonical(&mut b);
    // A permutation of the coefficients.
    let mut seen = b.coeffs;
    seen.sort_unstable();
    assert_eq!(seen, a.coeffs, "{}: not a permutation", B::KIND);
    if matches!(B::KIND, BackendKind::Avx2 | BackendKind::Avx512) {
        // The AVX-512 backend's NTT is the AVX2 one. Position 64g + 8r + c holds canonical coefficient 64g + 8c + r.
        for (pos, &x) in b.coeffs.iter().enumerate() {
            let (g, r, c) = (pos / 64, pos % 64 / 8, pos % 8);
            assert_eq!(x as usize, 64 * g + 8 * c + r);
        }
    }
    simd.ntt_order_to_canonical(&mut b);
    assert_eq!(a.coeffs, b.coeffs);
}

#[test]
fn pointwise_products() {
    for_simd_backends!("pointwise_products", |b| pointwise_products_on(b));
}

fn pointwise_products_on<B: Backend>(simd: B) {
    two_inputs!(simd, &contract::POINTWISE, |b, x, y| {
        let mut c = Poly::ZERO;
        b.pointwise_montgomery(&mut c, x, y);
        c
    });
    for l in [4, 5, 7] {
        two_inputs!(simd, &contract::POINTWISE_ACC, |b, x, y| {
            // l different terms built from the two inputs.
            let xs: Vec<Poly> = (0..l)
                .map(|k| map(x, |p| p.coeffs.rotate_left(k)))
                .collect();
            let ys: Vec<Poly> = (0..l)
                .map(|k| map(y, |p| p.coeffs.rotate_right(k)))
                .collect();
            let mut c = Poly::ZERO;
            b.pointwise_acc_montgomery(&mut c, &xs, &ys);
            assert!(
                contract::POINTWISE_ACC.output[0].holds(&c.coeffs),
                "l = {l}"
            );
            c
        });
    }
}

#[test]
fn elementwise_kernels() {
    for_simd_backends!("elementwise_kernels", |b| elementwise_kernels_on(b));
}

fn elementwise_kernels_on<B: Backend>(simd: B) {
    one_input!(simd, &contract::REDUCE, |b, a| map(a, |x| b.reduce(x)));
    one_input!(simd, &contract::CADDQ, |b, a| map(a, |x| b.caddq(x)));
    one_input!(simd, &contract::SHIFTL, |b, a| map(a, |x| b.shiftl(x)));
    two_inputs!(simd, &contract::ADD, |b, x, y| map(x, |p| b.add(p, y)));
    two_inputs!(simd, &contract::SUB, |b, x, y| map(x, |p| b.sub(p, y)));
}

#[test]
fn rounding_kernels() {
    for_simd_backends!("rounding_kernels", |b| rounding_kernels_on(b));
}

fn rounding_kernels_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for a in inputs(contract::POWER2ROUND.input[0], &mut rng) {
        let (mut x0, mut y0, mut x1, mut y1) = (Poly::ZERO, Poly::ZERO, Poly::ZERO, Poly::ZERO);
        Portable.power2round(&mut x0, &mut y0, &a);
        simd.power2round(&mut x1, &mut y1, &a);
        assert_eq!(
            (x0.coeffs, y0.coeffs),
            (x1.coeffs, y1.coeffs),
            "power2round"
        );
    }
    for g in [Gamma2::QMinus1Over88, Gamma2::QMinus1Over32] {
        for a in inputs(contract::decompose(g).input[0], &mut rng) {
            let (mut x0, mut y0, mut x1, mut y1) = (Poly::ZERO, Poly::ZERO, Poly::ZERO, Poly::ZERO);
            Portable.decompose(g, &mut x0, &mut y0, &a);
            simd.decompose(g, &mut x1, &mut y1, &a);
            assert_eq!(
                (x0.coeffs, y0.coeffs),
                (x1.coeffs, y1.coeffs),
                "decompose {g:?}"
            );
        }
    }
}

#[test]
fn hints_and_norm() {
    for_simd_backends!("hints_and_norm", |b| hints_and_norm_on(b));
}

fn hints_and_norm_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for g in [Gamma2::QMinus1Over88, Gamma2::QMinus1Over32] {
        let c = contract::make_hint(g);
        let a0s = inputs(c.input[0], &mut rng);
        let a1s = inputs(c.input[1], &mut rng);
        for (a0, a1) in a0s.iter().zip(a1s.iter().cycle().skip(5)) {
            let (mut h0, mut h1) = (Poly::ZERO, Poly::ZERO);
            let n0 = Portable.make_hint(g, &mut h0, a0, a1);
            let n1 = simd.make_hint(g, &mut h1, a0, a1);
            assert_eq!((n0, h0.coeffs), (n1, h1.coeffs), "make_hint {g:?}");
        }
        let c = contract::use_hint(g);
        let rs = inputs(c.input[0], &mut rng);
        for (k, r) in rs.iter().enumerate() {
            let h = {
                let mut h = Poly::ZERO;
                for x in h.coeffs.iter_mut() {
                    *x = i32::from(k % 4 == 0 || rng.gen_bool(0.5));
                }
                h
            };
            let (mut o0, mut o1) = (Poly::ZERO, Poly::ZERO);
            Portable.use_hint(g, &mut o0, r, &h);
            simd.use_hint(g, &mut o1, r, &h);
            assert_eq!(o0.coeffs, o1.coeffs, "use_hint {g:?}");
        }
    }
    for a in inputs(contract::CHKNORM.input[0], &mut rng) {
        for bound in [1, 2, 95_232, 261_888, (Q - 1) / 8, Q - 1, Q] {
            assert_eq!(
                Portable.chknorm(&a, bound),
                simd.chknorm(&a, bound),
                "chknorm bound {bound}"
            );
        }
    }
}

#[test]
fn rejection_sampling() {
    for_simd_backends!("rejection_sampling", |b| rejection_sampling_on(b));
}

fn rejection_sampling_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    // Three-byte groups equal to q - 1, q, q + 1 and all-ones, at every offset, plus random.
    let special: [[u8; 3]; 4] = [
        [0x00, 0xE0, 0x7F],
        [0x01, 0xE0, 0x7F],
        [0x02, 0xE0, 0x7F],
        [0xFF; 3],
    ];
    for case in 0..RANDOM_CASES {
        let groups = rng.gen_range(0..=280);
        let mut buf: Vec<u8> = (0..3 * groups).map(|_| rng.r#gen()).collect();
        if case % 2 == 0 {
            for g in buf.chunks_exact_mut(3) {
                if rng.gen_bool(0.3) {
                    g.copy_from_slice(&special[rng.gen_range(0..4)]);
                }
            }
        }
        let room = if case % 5 == 0 {
            N
        } else {
            rng.gen_range(0..=N)
        };
        let (mut o0, mut o1) = (vec![-1; room], vec![-1; room]);
        let n0 = Portable.rej_uniform(&mut o0, &buf);
        let n1 = simd.rej_uniform(&mut o1, &buf);
        assert_eq!(n0, n1, "count, {groups} groups, room {room}");
        assert_eq!(o0[..n0], o1[..n1], "values");
    }
}

#[test]
fn bounded_rejection_sampling() {
    for_simd_backends!("bounded_rejection_sampling", |b| {
        bounded_rejection_sampling_on(b)
    });
}

fn bounded_rejection_sampling_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    for eta in [Eta::Two, Eta::Four] {
        let limit = match eta {
            Eta::Two => 15u8,
            Eta::Four => 9,
        };
        for case in 0..RANDOM_CASES {
            let len = rng.gen_range(0..=300);
            // Random bytes, or nibbles drawn near the acceptance limit (every nibble value,
            // runs of rejections, all rejected, all accepted).
            let nibble = |rng: &mut ChaCha20Rng| -> u8 {
                match case % 4 {
                    0 => rng.gen_range(0..16),
                    1 => rng.gen_range(limit - 1..16),
                    2 => 15,
                    _ => rng.gen_range(0..limit),
                }
            };
            let buf: Vec<u8> = (0..len)
                .map(|_| {
                    if case % 4 == 0 && case % 8 != 0 {
                        rng.r#gen()
                    } else {
                        nibble(&mut rng) | nibble(&mut rng) << 4
                    }
                })
                .collect();
            let room = if case % 5 == 0 {
                N
            } else {
                rng.gen_range(0..=N)
            };
            let (mut o0, mut o1) = (vec![-9; room], vec![-9; room]);
            let n0 = Portable.rej_eta(eta, &mut o0, &buf);
            let n1 = simd.rej_eta(eta, &mut o1, &buf);
            assert_eq!(n0, n1, "{eta:?} count, {len} bytes, room {room}");
            assert_eq!(
                o0[..n0],
                o1[..n1],
                "{eta:?} values, {len} bytes, room {room}"
            );
        }
    }
}

#[test]
fn packing() {
    for_simd_backends!("packing", |b| packing_on(b));
}

fn packing_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(14);
    // Every packing kernel on edge and random inputs inside its contract; bytes must match.
    type Pack = dyn Fn(&dyn PackWith, &mut [u8], &Poly);
    let kernels: Vec<(&str, Contract, usize, Box<Pack>)> = vec![
        (
            "pack_t1",
            contract::PACK_T1,
            POLY_T1_BYTES,
            Box::new(|b, o, a| b.t1(o, a)),
        ),
        (
            "pack_t0",
            contract::PACK_T0,
            POLY_T0_BYTES,
            Box::new(|b, o, a| b.t0(o, a)),
        ),
        (
            "pack_eta 2",
            contract::pack_eta(Eta::Two),
            Eta::Two.poly_eta_bytes(),
            Box::new(|b, o, a| b.eta(Eta::Two, o, a)),
        ),
        (
            "pack_eta 4",
            contract::pack_eta(Eta::Four),
            Eta::Four.poly_eta_bytes(),
            Box::new(|b, o, a| b.eta(Eta::Four, o, a)),
        ),
        (
            "pack_z 17",
            contract::pack_z(Gamma1::Pow17),
            Gamma1::Pow17.poly_z_bytes(),
            Box::new(|b, o, a| b.z(Gamma1::Pow17, o, a)),
        ),
        (
            "pack_z 19",
            contract::pack_z(Gamma1::Pow19),
            Gamma1::Pow19.poly_z_bytes(),
            Box::new(|b, o, a| b.z(Gamma1::Pow19, o, a)),
        ),
        (
            "pack_w1 88",
            contract::pack_w1(Gamma2::QMinus1Over88),
            Gamma2::QMinus1Over88.poly_w1_bytes(),
            Box::new(|b, o, a| b.w1(Gamma2::QMinus1Over88, o, a)),
        ),
        (
            "pack_w1 32",
            contract::pack_w1(Gamma2::QMinus1Over32),
            Gamma2::QMinus1Over32.poly_w1_bytes(),
            Box::new(|b, o, a| b.w1(Gamma2::QMinus1Over32, o, a)),
        ),
    ];
    for (name, c, len, pack) in &kernels {
        for a in inputs(c.input[0], &mut rng) {
            let (mut want, mut got) = (vec![0xA5u8; *len], vec![0x5Au8; *len]);
            pack(&Portable, &mut want, &a);
            pack(&simd, &mut got, &a);
            assert_eq!(want, got, "{name} on {a:?}");
        }
    }
}

/// The packing kernels behind one object, so the test table above can name them.
trait PackWith {
    fn t1(&self, out: &mut [u8], a: &Poly);
    fn t0(&self, out: &mut [u8], a: &Poly);
    fn eta(&self, eta: Eta, out: &mut [u8], a: &Poly);
    fn z(&self, g: Gamma1, out: &mut [u8], a: &Poly);
    fn w1(&self, g: Gamma2, out: &mut [u8], a: &Poly);
}

impl<B: Backend> PackWith for B {
    fn t1(&self, out: &mut [u8], a: &Poly) {
        self.pack_t1(out, a)
    }
    fn t0(&self, out: &mut [u8], a: &Poly) {
        self.pack_t0(out, a)
    }
    fn eta(&self, eta: Eta, out: &mut [u8], a: &Poly) {
        self.pack_eta(eta, out, a)
    }
    fn z(&self, g: Gamma1, out: &mut [u8], a: &Poly) {
        self.pack_z(g, out, a)
    }
    fn w1(&self, g: Gamma2, out: &mut [u8], a: &Poly) {
        self.pack_w1(g, out, a)
    }
}

#[test]
fn unpacking() {
    for_simd_backends!("unpacking", |b| unpacking_on(b));
}

fn unpacking_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let mut bytes = |len: usize, k: usize| -> Vec<u8> {
        match k % 4 {
            0 => vec![0; len],
            1 => vec![0xFF; len],
            _ => (0..len).map(|_| rng.r#gen()).collect(),
        }
    };
    for k in 0..RANDOM_CASES {
        for g in [Gamma1::Pow17, Gamma1::Pow19] {
            let buf = bytes(g.poly_z_bytes(), k);
            let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
            Portable.unpack_z(g, &mut a, &buf);
            simd.unpack_z(g, &mut b, &buf);
            assert_eq!(a.coeffs, b.coeffs, "unpack_z {g:?}");
        }
        let buf = bytes(POLY_T1_BYTES, k);
        let (mut a, mut b) = (Poly::ZERO, Poly::ZERO);
        Portable.unpack_t1(&mut a, &buf);
        simd.unpack_t1(&mut b, &buf);
        assert_eq!(a.coeffs, b.coeffs, "unpack_t1");
        let buf = bytes(POLY_T0_BYTES, k);
        Portable.unpack_t0(&mut a, &buf);
        simd.unpack_t0(&mut b, &buf);
        assert_eq!(a.coeffs, b.coeffs, "unpack_t0");
        for eta in [Eta::Two, Eta::Four] {
            let buf = bytes(eta.poly_eta_bytes(), k);
            let ok0 = Portable.unpack_eta(eta, &mut a, &buf);
            let ok1 = simd.unpack_eta(eta, &mut b, &buf);
            assert_eq!((ok0, a.coeffs), (ok1, b.coeffs), "unpack_eta {eta:?}");
        }
    }
}

#[test]
fn keccak_four_way() {
    for_simd_backends!("keccak_four_way", |b| keccak_four_way_on(b));
}

fn keccak_four_way_on<B: Backend>(simd: B) {
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    for _ in 0..if cfg!(miri) { 2 } else { 200 } {
        let mut s: [u64; 100] = core::array::from_fn(|_| rng.r#gen());
        let mut t = s;
        let (mut t_public, mut one, mut one_public) = (s, [0u64; 25], [0u64; 25]);
        one.copy_from_slice(&s[..25]);
        one_public.copy_from_slice(&s[..25]);
        let mut one_want = one;
        Portable.keccak_f1600(&mut one_want);
        simd.keccak_f1600(&mut one);
        simd.keccak_f1600_public(&mut one_public);
        assert_eq!(one, one_want, "keccak_f1600");
        assert_eq!(one_public, one_want, "keccak_f1600_public");
        Portable.keccak_f1600_x4(&mut s);
        simd.keccak_f1600_x4(&mut t);
        simd.keccak_f1600_x4_public(&mut t_public);
        assert_eq!(s, t);
        assert_eq!(s, t_public, "keccak_f1600_x4_public");
        // The interleaved pair equals the 4-way permutation on each.
        let (mut u, mut v): ([u64; 100], [u64; 100]) = (
            core::array::from_fn(|_| rng.r#gen()),
            core::array::from_fn(|_| rng.r#gen()),
        );
        let (mut u1, mut v1) = (u, v);
        Portable.keccak_f1600_x4(&mut u1);
        Portable.keccak_f1600_x4(&mut v1);
        let (mut u2, mut v2) = (u, v);
        simd.keccak_f1600_x4x2(&mut u, &mut v);
        simd.keccak_f1600_x4x2_public(&mut u2, &mut v2);
        assert_eq!((u, v), (u1, v1), "keccak_f1600_x4x2");
        assert_eq!((u2, v2), (u1, v1), "keccak_f1600_x4x2_public");
    }
}
