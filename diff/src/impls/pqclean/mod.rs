//! The PQClean C code that `pqcrypto-mldsa` compiles and links: its kernels and its
//! end-to-end entry points, declared here by symbol name and wrapped in safe functions.
//! This is the C "backend module" of the harness and the only place it uses `unsafe`.
//!
//! Each variant (clean; AVX2 on x86_64; aarch64 on aarch64) is built once per parameter set
//! with its own symbol prefix (`PQCLEAN_MLDSA65_CLEAN_poly_ntt`, ...). Note: the crate's own
//! `ffi` module also declares non-`_ctx` signing entry points that do not exist in the
//! library; only the `_ctx` ones are used here.
#![allow(unsafe_code)]

mod oracle;
mod wrappers;

pub use oracle::{names, oracles};

use mldsa::poly::Poly;
use mldsa::{ML_DSA_44, ML_DSA_65, ML_DSA_87, Params};

// Link the crate so its static libraries are part of every binary that uses this module.
use pqcrypto_mldsa as _;

type PolyFn = unsafe extern "C" fn(*mut Poly);
type Poly3Fn = unsafe extern "C" fn(*mut Poly, *const Poly, *const Poly);
type SplitFn = unsafe extern "C" fn(*mut Poly, *mut Poly, *const Poly);
type PackFn = unsafe extern "C" fn(*mut u8, *const Poly);
type UnpackFn = unsafe extern "C" fn(*mut Poly, *const u8);
type SampleFn = unsafe extern "C" fn(*mut Poly, *const u8, u16);
type RejFn = unsafe extern "C" fn(*mut i32, *const u8) -> u32;

/// Calls `$m!` with `($($args)*)` and every symbol only the AVX2 variant exports (or exports
/// with another signature): the one list [`Avx2Only`] and its tables are generated from.
macro_rules! with_avx2_only_symbols {
    ($m:ident!($($args:tt)*)) => {
        $m! {
            ($($args)*)
            poly_nttunpack(a: *mut Poly);
            // Writes the positions of the hint ones and returns their count.
            poly_make_hint(hint: *mut u8, a0: *const Poly, a1: *const Poly) -> u32;
            rej_uniform_avx(r: *mut i32, buf: *const u8) -> u32;
            rej_eta_avx(r: *mut i32, buf: *const u8) -> u32;
            // Keccak-f[1600] on four interleaved states, with a caller-supplied table of round
            // constants.
            f1600x4(s: *mut u64, rc: *const u64);
        }
    };
}

macro_rules! avx2_only_type {
    (() $($f:ident($($a:ident: $t:ty),*) $(-> $r:ty)?;)*) => {
        /// Kernels only the AVX2 variant has, or has with another signature.
        #[derive(Debug)]
        pub struct Avx2Only {
            $($f: unsafe extern "C" fn($($t),*) $(-> $r)?,)*
        }
    };
}
with_avx2_only_symbols!(avx2_only_type!());

/// The AVX2 variant's [`Avx2Only`] table: the symbols declared with `$prefix` and collected.
#[cfg(target_arch = "x86_64")]
macro_rules! avx2_only_table {
    (($prefix:literal) $($f:ident($($a:ident: $t:ty),*) $(-> $r:ty)?;)*) => {{
        unsafe extern "C" {
            $( #[link_name = concat!($prefix, stringify!($f))] fn $f($($a: $t),*) $(-> $r)?; )*
        }
        Some(Avx2Only { $($f,)* })
    }};
}

/// Calls `$m!` with `($($args)*)` and every symbol every PQClean variant exports, each with
/// its C signature: the one list the table type, the `extern` declarations and each table
/// are generated from.
macro_rules! with_symbols {
    ($m:ident!($($args:tt)*)) => {
        $m! {
            ($($args)*)
            poly_reduce(a: *mut Poly);
            poly_caddq(a: *mut Poly);
            poly_add(c: *mut Poly, a: *const Poly, b: *const Poly);
            poly_sub(c: *mut Poly, a: *const Poly, b: *const Poly);
            poly_shiftl(a: *mut Poly);
            poly_ntt(a: *mut Poly);
            poly_invntt_tomont(a: *mut Poly);
            poly_pointwise_montgomery(c: *mut Poly, a: *const Poly, b: *const Poly);
            poly_power2round(a1: *mut Poly, a0: *mut Poly, a: *const Poly);
            poly_decompose(a1: *mut Poly, a0: *mut Poly, a: *const Poly);
            poly_use_hint(b: *mut Poly, a: *const Poly, h: *const Poly);
            poly_chknorm(a: *const Poly, b: i32) -> i32;
            poly_uniform(a: *mut Poly, seed: *const u8, nonce: u16);
            poly_uniform_eta(a: *mut Poly, seed: *const u8, nonce: u16);
            poly_uniform_gamma1(a: *mut Poly, seed: *const u8, nonce: u16);
            poly_challenge(c: *mut Poly, seed: *const u8);
            polyvecl_uniform_gamma1(v: *mut Poly, seed: *const u8, nonce: u16);
            polyeta_pack(r: *mut u8, a: *const Poly);
            polyeta_unpack(r: *mut Poly, a: *const u8);
            polyt1_pack(r: *mut u8, a: *const Poly);
            polyt1_unpack(r: *mut Poly, a: *const u8);
            polyt0_pack(r: *mut u8, a: *const Poly);
            polyt0_unpack(r: *mut Poly, a: *const u8);
            polyz_pack(r: *mut u8, a: *const Poly);
            polyz_unpack(r: *mut Poly, a: *const u8);
            polyw1_pack(r: *mut u8, a: *const Poly);
            polyvecl_pointwise_acc_montgomery(w: *mut Poly, u: *const Poly, v: *const Poly);
            polyvec_matrix_expand(mat: *mut Poly, rho: *const u8);
            pack_sig(sig: *mut u8, c: *const u8, z: *const Poly, h: *const Poly);
            unpack_sig(c: *mut u8, z: *mut Poly, h: *mut Poly, sig: *const u8) -> i32;
            crypto_sign_keypair(pk: *mut u8, sk: *mut u8) -> i32;
            crypto_sign_signature_ctx(sig: *mut u8, siglen: *mut usize, m: *const u8, mlen: usize, ctx: *const u8, ctxlen: usize, sk: *const u8) -> i32;
            crypto_sign_verify_ctx(sig: *const u8, siglen: usize, m: *const u8, mlen: usize, ctx: *const u8, ctxlen: usize, pk: *const u8) -> i32;
        }
    };
}

/// The table type: a field per symbol.
macro_rules! c_kernels_type {
    (() $($f:ident($($a:ident: $t:ty),*) $(-> $r:ty)?;)*) => {
        /// One PQClean variant for one parameter set.
        #[derive(Debug)]
        pub struct CKernels {
            /// The parameter set these symbols were compiled for.
            pub params: Params,
            $($f: unsafe extern "C" fn($($t),*) $(-> $r)?,)*
            /// clean and aarch64: `poly_make_hint(poly *h, ...)`.
            poly_make_hint: Option<unsafe extern "C" fn(*mut Poly, *const Poly, *const Poly) -> u32>,
            avx2: Option<Avx2Only>,
        }
    };
}
with_symbols!(c_kernels_type!());

/// One variant's table for one set: the symbols declared with `$prefix` and collected.
macro_rules! c_table_of {
    (($table:ident, $prefix:literal, $params:expr, $mh:tt, $avx:tt)
     $($f:ident($($a:ident: $t:ty),*) $(-> $r:ty)?;)*) => {
        pub(crate) static $table: CKernels = {
            unsafe extern "C" {
                $( #[link_name = concat!($prefix, stringify!($f))] fn $f($($a: $t),*) $(-> $r)?; )*
            }
            CKernels {
                params: $params,
                $($f,)*
                poly_make_hint: c_table!(@make_hint $prefix $mh),
                avx2: c_table!(@avx2 $prefix $avx),
            }
        };
    };
}

macro_rules! c_table {
    ($table:ident, $prefix:literal, $params:expr, make_hint: $mh:tt, avx2: $avx:tt) => {
        with_symbols!(c_table_of!($table, $prefix, $params, $mh, $avx));
    };
    (@make_hint $prefix:literal poly) => {{
        unsafe extern "C" {
            #[link_name = concat!($prefix, "poly_make_hint")]
            fn poly_make_hint(h: *mut Poly, a0: *const Poly, a1: *const Poly) -> u32;
        }
        Some(poly_make_hint)
    }};
    (@make_hint $prefix:literal none) => {
        None
    };
    (@avx2 $prefix:literal none) => {
        None
    };
    (@avx2 $prefix:literal yes) => {
        with_avx2_only_symbols!(avx2_only_table!($prefix))
    };
}

c_table!(CLEAN_44, "PQCLEAN_MLDSA44_CLEAN_", ML_DSA_44, make_hint: poly, avx2: none);
c_table!(CLEAN_65, "PQCLEAN_MLDSA65_CLEAN_", ML_DSA_65, make_hint: poly, avx2: none);
c_table!(CLEAN_87, "PQCLEAN_MLDSA87_CLEAN_", ML_DSA_87, make_hint: poly, avx2: none);
#[cfg(target_arch = "x86_64")]
c_table!(AVX2_44, "PQCLEAN_MLDSA44_AVX2_", ML_DSA_44, make_hint: none, avx2: yes);
#[cfg(target_arch = "x86_64")]
c_table!(AVX2_65, "PQCLEAN_MLDSA65_AVX2_", ML_DSA_65, make_hint: none, avx2: yes);
#[cfg(target_arch = "x86_64")]
c_table!(AVX2_87, "PQCLEAN_MLDSA87_AVX2_", ML_DSA_87, make_hint: none, avx2: yes);
#[cfg(target_arch = "aarch64")]
c_table!(AARCH64_44, "PQCLEAN_MLDSA44_AARCH64_", ML_DSA_44, make_hint: poly, avx2: none);
#[cfg(target_arch = "aarch64")]
c_table!(AARCH64_65, "PQCLEAN_MLDSA65_AARCH64_", ML_DSA_65, make_hint: poly, avx2: none);
#[cfg(target_arch = "aarch64")]
c_table!(AARCH64_87, "PQCLEAN_MLDSA87_AARCH64_", ML_DSA_87, make_hint: poly, avx2: none);

/// Which PQClean variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Portable C, every architecture.
    Clean,
    /// x86_64 AVX2 (needs the CPU feature).
    Avx2,
    /// aarch64 Neon.
    Aarch64,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Clean, Variant::Avx2, Variant::Aarch64];

    /// The harness's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Clean => "c-clean",
            Variant::Avx2 => "c-avx2",
            Variant::Aarch64 => "c-aarch64",
        }
    }

    /// The three tables of this variant, if it is built and the CPU can run it.
    pub fn tables(self) -> Option<[&'static CKernels; 3]> {
        match self {
            Variant::Clean => Some([&CLEAN_44, &CLEAN_65, &CLEAN_87]),
            #[cfg(target_arch = "x86_64")]
            Variant::Avx2
                if std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi2") =>
            {
                Some([&AVX2_44, &AVX2_65, &AVX2_87])
            }
            // PQClean's aarch64 Keccak (`f1600x2`, assembly) uses the Armv8.2 SHA3
            // instructions unconditionally: on a CPU without them it dies with SIGILL.
            #[cfg(target_arch = "aarch64")]
            Variant::Aarch64 if std::arch::is_aarch64_feature_detected!("sha3") => {
                Some([&AARCH64_44, &AARCH64_65, &AARCH64_87])
            }
            _ => None,
        }
    }

    pub fn for_params(self, p: &Params) -> Option<&'static CKernels> {
        self.tables()?.into_iter().find(|t| t.params == *p)
    }
}

/// REJ_UNIFORM_BUFLEN of the AVX2 code: five SHAKE128 blocks.
pub const AVX2_REJ_UNIFORM_BUFLEN: usize = 5 * mldsa::keccak::SHAKE128_RATE;

/// One PQClean variant as the harness runs it: its tables, and the permutation between its
/// NTT order and the canonical one (AVX2 keeps NTT-domain values in its own order).
#[derive(Debug)]
pub struct CImpl {
    variant: Variant,
    /// For AVX2: `own[i] = canonical[perm[i]]` in its NTT domain.
    perm: Option<Vec<usize>>,
}

impl CImpl {
    /// The variant, if it is built and runs on this CPU.
    pub fn new(variant: Variant) -> Option<Self> {
        let mut idx = Poly::from_coeffs(core::array::from_fn(|i| i as i32));
        let avx2 = variant.for_params(&ML_DSA_65)?.nttunpack(&mut idx);
        let perm = avx2.then(|| idx.coeffs.iter().map(|&c| c as usize).collect());
        Some(CImpl { variant, perm })
    }

    /// The kernels compiled for parameter set `p`.
    pub fn table(&self, p: &Params) -> &'static CKernels {
        self.variant
            .for_params(p)
            .expect("every parameter set is built when one is")
    }

    /// An NTT-domain polynomial of this variant in canonical order.
    pub fn to_canonical(&self, a: &Poly) -> Poly {
        let mut c = *a;
        for (i, &src) in self.perm.iter().flatten().enumerate() {
            c.coeffs[src] = a.coeffs[i];
        }
        c
    }

    /// A canonical-order NTT-domain polynomial in this variant's order.
    pub fn to_own_order(&self, a: &Poly) -> Poly {
        let mut c = *a;
        for (i, &src) in self.perm.iter().flatten().enumerate() {
            c.coeffs[i] = a.coeffs[src];
        }
        c
    }
}
