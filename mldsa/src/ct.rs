//! Declassification points for the constant-time test (`scripts/ct-valgrind.sh`).
//!
//! The test runs keygen and signing under valgrind memcheck with every secret input marked
//! undefined, so that a branch or a memory index that depends on a secret is reported. Some
//! information FIPS 204 lets go: which signing attempt is accepted (the norm checks and the
//! hint count against omega), c~ (released with the signature), the hint of the released
//! signature, rho (in the public key), and where RejBoundedPoly's rejected candidates lie
//! (ExpandS's rejection counts). Scheme code and the rejection kernels pass exactly those
//! values through [`declassify`] where they leave secrecy.
//!
//! In every normal build [`declassify`] is the identity and compiles to nothing. With the
//! never-default feature `ct-valgrind` (a test build: it links a C shim over
//! `valgrind/memcheck.h`) it marks the value defined (`VALGRIND_MAKE_MEM_DEFINED`), and
//! [`valgrind`] offers the test harness the client requests to mark its inputs secret.

/// `x`, declared public from here on: FIPS 204 lets this value go. The identity (no code)
/// unless the feature `ct-valgrind` is on, when it also tells valgrind the value is defined.
#[inline(always)]
pub fn declassify<T: Copy>(x: T) -> T {
    #[cfg(feature = "ct-valgrind")]
    {
        let mut x = x;
        valgrind::mark_public(&mut x);
        x
    }
    #[cfg(not(feature = "ct-valgrind"))]
    {
        x
    }
}

/// [`declassify`] for a value in place (a slice of polynomials, a byte string).
#[inline(always)]
pub fn declassify_in_place<T: ?Sized>(x: &mut T) {
    #[cfg(feature = "ct-valgrind")]
    valgrind::mark_public(x);
    #[cfg(not(feature = "ct-valgrind"))]
    let _ = x;
}

/// Valgrind memcheck client requests (feature `ct-valgrind` only). Each does nothing when
/// the program does not run under valgrind.
#[cfg(feature = "ct-valgrind")]
#[allow(unsafe_code)]
pub mod valgrind {
    unsafe extern "C" {
        fn mldsa_ct_make_defined(p: *mut core::ffi::c_void, n: usize);
        fn mldsa_ct_make_undefined(p: *mut core::ffi::c_void, n: usize);
        fn mldsa_ct_running_on_valgrind() -> core::ffi::c_int;
        fn mldsa_ct_error_count() -> core::ffi::c_int;
    }

    /// Marks the bytes of `x` undefined: valgrind reports any branch or memory index that
    /// depends on them. Their values do not change. (A `&mut`, so the compiler reloads `x`
    /// after the call instead of reusing a copy it held in a register.)
    pub fn mark_secret<T: ?Sized>(x: &mut T) {
        // SAFETY: the pointer and length describe `x`, which is valid and exclusively
        // borrowed for the call; the client request only changes valgrind's shadow state,
        // never the bytes (outside valgrind it is a no-op instruction sequence).
        unsafe { mldsa_ct_make_undefined((x as *mut T).cast(), core::mem::size_of_val(x)) }
    }

    /// Marks the bytes of `x` defined (public).
    pub fn mark_public<T: ?Sized>(x: &mut T) {
        // SAFETY: as in `mark_secret`.
        unsafe { mldsa_ct_make_defined((x as *mut T).cast(), core::mem::size_of_val(x)) }
    }

    /// Whether this process runs under valgrind (without it the test proves nothing).
    pub fn running() -> bool {
        // SAFETY: a client request without arguments; no memory is touched.
        unsafe { mldsa_ct_running_on_valgrind() != 0 }
    }

    /// How many errors valgrind has reported in this process so far.
    pub fn error_count() -> usize {
        // SAFETY: a client request without arguments; no memory is touched.
        unsafe { mldsa_ct_error_count() as usize }
    }
}
