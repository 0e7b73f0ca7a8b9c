//! The C functions diff/build.rs compiles from mldsa-native, declared by symbol name and
//! wrapped in safe functions: its public API per parameter set (portable and native builds).
//! With `kernels.rs`, `pqclean/` and the getrandom provider in `rng.rs`, the only `unsafe` of
//! the harness.
//!
//! The native build (`NAT_*`) is compiled for AVX2 on x86_64: calling it on a CPU
//! without AVX2 is undefined behaviour. Its only callers hold a
//! [`NativeKernels`](crate::impls::mldsa_native::NativeKernels) token, made after detection.
#![allow(unsafe_code)]

use core::ffi::c_int;

/// Calls `$m!` with `($($args)*)` and every API function of one mldsa-native build with its C
/// signature (after the build's prefix): the one list the table type, the `extern`
/// declarations and each table are generated from.
macro_rules! with_functions {
    ($m:ident!($($args:tt)*)) => {
        $m! {
            ($($args)*)
            keypair_internal(pk: *mut u8, sk: *mut u8, seed: *const u8) -> c_int;
            signature_internal(sig: *mut u8, siglen: *mut usize, m: *const u8, mlen: usize, pre: *const u8, prelen: usize, rnd: *const u8, sk: *const u8, externalmu: c_int) -> c_int;
            signature_pre_hash_internal(sig: *mut u8, siglen: *mut usize, ph: *const u8, phlen: usize, ctx: *const u8, ctxlen: usize, rnd: *const u8, sk: *const u8, hashalg: c_int) -> c_int;
            verify(sig: *const u8, siglen: usize, m: *const u8, mlen: usize, ctx: *const u8, ctxlen: usize, pk: *const u8) -> c_int;
            verify_internal(sig: *const u8, siglen: usize, m: *const u8, mlen: usize, pre: *const u8, prelen: usize, pk: *const u8, externalmu: c_int) -> c_int;
            verify_pre_hash_internal(sig: *const u8, siglen: usize, ph: *const u8, phlen: usize, ctx: *const u8, ctxlen: usize, pk: *const u8, hashalg: c_int) -> c_int;
        }
    };
}

/// The table type: a field per function.
macro_rules! api_type {
    (() $($f:ident($($a:ident: $t:ty),*) -> $r:ty;)*) => {
        /// mldsa-native's API for one parameter set of one build.
        #[derive(Debug)]
        pub(super) struct Api {
            /// Encoded sizes (pk, sk, sig).
            pub(super) sizes: (usize, usize, usize),
            $($f: unsafe extern "C" fn($($t),*) -> $r,)*
        }
    };
}
with_functions!(api_type!());

/// One build's table for one set: the functions declared with `$prefix` and collected.
macro_rules! api_of {
    (($name:ident, $prefix:literal, $sizes:expr) $($f:ident($($a:ident: $t:ty),*) -> $r:ty;)*) => {
        pub(crate) static $name: Api = {
            unsafe extern "C" {
                $( #[link_name = concat!($prefix, "_", stringify!($f))] fn $f($($a: $t),*) -> $r; )*
            }
            Api {
                sizes: $sizes,
                $($f,)*
            }
        };
    };
}

macro_rules! api {
    ($name:ident, $prefix:literal, $sizes:expr) => {
        with_functions!(api_of!($name, $prefix, $sizes));
    };
}

api!(PORT_44, "mldsadiff_port44", (1312, 2560, 2420));
api!(PORT_65, "mldsadiff_port65", (1952, 4032, 3309));
api!(PORT_87, "mldsadiff_port87", (2592, 4896, 4627));
api!(NAT_44, "mldsadiff_nat44", (1312, 2560, 2420));
api!(NAT_65, "mldsadiff_nat65", (1952, 4032, 3309));
api!(NAT_87, "mldsadiff_nat87", (2592, 4896, 4627));

/// What signing is given.
#[derive(Clone, Copy, Debug)]
pub(super) enum SignInput<'a> {
    /// M' = pre || m (pre empty for Sign_internal on M' as given).
    Internal { pre: &'a [u8], m: &'a [u8] },
    /// mu.
    Mu(&'a [u8; 64]),
    /// HashML-DSA: the digest, the context and mldsa-native's MLD_PREHASH_* constant.
    PreHash {
        ph: &'a [u8],
        ctx: &'a [u8],
        hashalg: c_int,
    },
}

impl Api {
    /// KeyGen_internal(xi).
    pub(super) fn keypair(&self, xi: &[u8; 32]) -> Result<(Vec<u8>, Vec<u8>), c_int> {
        let (mut pk, mut sk) = (vec![0u8; self.sizes.0], vec![0u8; self.sizes.1]);
        // SAFETY: pk and sk have this parameter set's sizes; xi is 32 bytes.
        let r = unsafe { (self.keypair_internal)(pk.as_mut_ptr(), sk.as_mut_ptr(), xi.as_ptr()) };
        if r == 0 { Ok((pk, sk)) } else { Err(r) }
    }

    /// A signature, or mldsa-native's error code (-1 also for a secret key of the wrong length,
    /// which the C code would read past).
    pub(super) fn sign(
        &self,
        sk: &[u8],
        input: SignInput<'_>,
        rnd: &[u8; 32],
    ) -> Result<Vec<u8>, c_int> {
        if sk.len() != self.sizes.1 {
            return Err(-1);
        }
        let mut sig = vec![0u8; self.sizes.2];
        let mut len = 0usize;
        let r = match input {
            // SAFETY: sig has room for a signature; every pointer comes with its length; sk
            // has this set's length and rnd 32 bytes.
            SignInput::Internal { pre, m } => unsafe {
                (self.signature_internal)(
                    sig.as_mut_ptr(),
                    &mut len,
                    m.as_ptr(),
                    m.len(),
                    pre.as_ptr(),
                    pre.len(),
                    rnd.as_ptr(),
                    sk.as_ptr(),
                    0,
                )
            },
            // SAFETY: as above; with externalmu = 1 the 64 bytes of mu are read as m.
            SignInput::Mu(mu) => unsafe {
                (self.signature_internal)(
                    sig.as_mut_ptr(),
                    &mut len,
                    mu.as_ptr(),
                    64,
                    core::ptr::null(),
                    0,
                    rnd.as_ptr(),
                    sk.as_ptr(),
                    1,
                )
            },
            // SAFETY: as above.
            SignInput::PreHash { ph, ctx, hashalg } => unsafe {
                (self.signature_pre_hash_internal)(
                    sig.as_mut_ptr(),
                    &mut len,
                    ph.as_ptr(),
                    ph.len(),
                    ctx.as_ptr(),
                    ctx.len(),
                    rnd.as_ptr(),
                    sk.as_ptr(),
                    hashalg,
                )
            },
        };
        if r != 0 {
            return Err(r);
        }
        sig.truncate(len);
        Ok(sig)
    }

    /// Pure Verify with a context (0 = accept; -1 also for a public key of the wrong length).
    pub(super) fn verify(&self, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> c_int {
        if pk.len() != self.sizes.0 {
            return -1;
        }
        // SAFETY: every pointer comes with its length; pk has this set's length.
        unsafe {
            (self.verify)(
                sig.as_ptr(),
                sig.len(),
                msg.as_ptr(),
                msg.len(),
                ctx.as_ptr(),
                ctx.len(),
                pk.as_ptr(),
            )
        }
    }

    /// Verify_internal on M' as given, or on mu (`externalmu`: `m` is the 64 bytes of mu).
    pub(super) fn verify_internal(
        &self,
        pk: &[u8],
        m: &[u8],
        externalmu: bool,
        sig: &[u8],
    ) -> c_int {
        if pk.len() != self.sizes.0 || (externalmu && m.len() != 64) {
            return -1;
        }
        // SAFETY: as for `verify`; with externalmu, m is 64 bytes.
        unsafe {
            (self.verify_internal)(
                sig.as_ptr(),
                sig.len(),
                m.as_ptr(),
                m.len(),
                core::ptr::null(),
                0,
                pk.as_ptr(),
                c_int::from(externalmu),
            )
        }
    }

    /// HashML-DSA Verify given the digest.
    pub(super) fn verify_pre_hash(
        &self,
        pk: &[u8],
        ph: &[u8],
        ctx: &[u8],
        hashalg: c_int,
        sig: &[u8],
    ) -> c_int {
        if pk.len() != self.sizes.0 {
            return -1;
        }
        // SAFETY: as for `verify`.
        unsafe {
            (self.verify_pre_hash_internal)(
                sig.as_ptr(),
                sig.len(),
                ph.as_ptr(),
                ph.len(),
                ctx.as_ptr(),
                ctx.len(),
                pk.as_ptr(),
                hashalg,
            )
        }
    }
}

unsafe extern "C" {
    fn mldsadiff_nat_shim_has_native() -> c_int;
}

/// Whether the native build has a backend on this target (x86_64 and aarch64; elsewhere it
/// is a second portable build and is not offered).
pub(super) fn native_backend_compiled() -> bool {
    // SAFETY: takes nothing, returns a constant.
    unsafe { mldsadiff_nat_shim_has_native() != 0 }
}
