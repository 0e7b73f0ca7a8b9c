//! The three functions of `csrc/openssl_shim.h` (OpenSSL 4.0's ML-DSA through its EVP API),
//! declared and wrapped in safe functions that size every buffer from the parameter set.
//! With `mldsa_native/`, `pqclean/` and the getrandom provider in `rng.rs`, the only `unsafe`
//! of the harness.
#![allow(unsafe_code)]

use core::ffi::{c_char, c_int};
use mldsa::Params;
use std::ffi::CString;

unsafe extern "C" {
    fn mldsa_ossl_keygen(
        set: c_int,
        xi: *const u8,
        pk: *mut u8,
        sk: *mut u8,
        err: *mut c_char,
        err_cap: usize,
    ) -> c_int;
    fn mldsa_ossl_sign(
        set: c_int,
        sk: *const u8,
        sk_len: usize,
        mode: c_int,
        ph: *const c_char,
        msg: *const u8,
        msg_len: usize,
        ctx: *const u8,
        ctx_len: usize,
        rnd: *const u8,
        sig: *mut u8,
        sig_cap: usize,
        sig_len: *mut usize,
        err: *mut c_char,
        err_cap: usize,
    ) -> c_int;
    fn mldsa_ossl_verify(
        set: c_int,
        pk: *const u8,
        pk_len: usize,
        mode: c_int,
        ph: *const c_char,
        msg: *const u8,
        msg_len: usize,
        ctx: *const u8,
        ctx_len: usize,
        sig: *const u8,
        sig_len: usize,
        err: *mut c_char,
        err_cap: usize,
    ) -> c_int;
}

/// Bytes of the error text buffer.
const ERR_CAP: usize = 512;

/// The shim's error text.
fn text(err: &[u8; ERR_CAP]) -> String {
    let end = err.iter().position(|&b| b == 0).unwrap_or(ERR_CAP);
    String::from_utf8_lossy(&err[..end]).into_owned()
}

/// What the shim answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Answer<T> {
    Done(T),
    /// OpenSSL refused, in its words.
    Refused(String),
    /// The shim does not offer this input (return 2).
    NotOffered,
    /// The shim itself failed (return -1), in its words.
    Failed(String),
}

/// A message as the shim takes it: the mode number, the pre-hash name, msg and ctx.
#[derive(Clone, Copy, Debug)]
pub(super) struct Input<'a> {
    pub mode: c_int,
    pub ph: Option<&'a str>,
    pub msg: &'a [u8],
    pub ctx: &'a [u8],
}

fn set(p: &Params) -> c_int {
    c_int::from(p.name[7..].parse::<u8>().expect("ML-DSA-NN"))
}

pub(super) fn keygen(p: &Params, xi: &[u8; 32]) -> Answer<(Vec<u8>, Vec<u8>)> {
    let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
    let mut err = [0u8; ERR_CAP];
    // SAFETY: xi is 32 bytes; pk and sk have the set's lengths, which the shim writes (it
    // checks the set); err is ERR_CAP bytes and the shim writes at most err_cap of them.
    let r = unsafe {
        mldsa_ossl_keygen(
            set(p),
            xi.as_ptr(),
            pk.as_mut_ptr(),
            sk.as_mut_ptr(),
            err.as_mut_ptr().cast(),
            ERR_CAP,
        )
    };
    match r {
        0 => Answer::Done((pk, sk)),
        1 => Answer::Refused(text(&err)),
        _ => Answer::Failed(text(&err)),
    }
}

pub(super) fn sign(p: &Params, sk: &[u8], m: Input<'_>, rnd: &[u8; 32]) -> Answer<Vec<u8>> {
    let Ok(ph) = m.ph.map(CString::new).transpose() else {
        return Answer::Failed("a pre-hash name with a NUL".into());
    };
    let ph_ptr = ph.as_ref().map_or(core::ptr::null(), |c| c.as_ptr());
    let mut sig = vec![0u8; p.sig_bytes()];
    let mut sig_len = 0usize;
    let mut err = [0u8; ERR_CAP];
    // SAFETY: every pointer comes with its slice's length (sk, msg, ctx; sig with its
    // capacity), rnd is 32 bytes, ph is NUL-terminated or null, sig_len is one usize; the
    // shim reads and writes only within them and keeps no pointer after it returns.
    let r = unsafe {
        mldsa_ossl_sign(
            set(p),
            sk.as_ptr(),
            sk.len(),
            m.mode,
            ph_ptr,
            m.msg.as_ptr(),
            m.msg.len(),
            m.ctx.as_ptr(),
            m.ctx.len(),
            rnd.as_ptr(),
            sig.as_mut_ptr(),
            sig.len(),
            &mut sig_len,
            err.as_mut_ptr().cast(),
            ERR_CAP,
        )
    };
    match r {
        0 => {
            sig.truncate(sig_len);
            Answer::Done(sig)
        }
        1 => Answer::Refused(text(&err)),
        2 => Answer::NotOffered,
        _ => Answer::Failed(text(&err)),
    }
}

pub(super) fn verify(p: &Params, pk: &[u8], m: Input<'_>, sig: &[u8]) -> Answer<bool> {
    let Ok(ph) = m.ph.map(CString::new).transpose() else {
        return Answer::Failed("a pre-hash name with a NUL".into());
    };
    let ph_ptr = ph.as_ref().map_or(core::ptr::null(), |c| c.as_ptr());
    let mut err = [0u8; ERR_CAP];
    // SAFETY: every pointer comes with its slice's length (pk, msg, ctx, sig), ph is
    // NUL-terminated or null, err is ERR_CAP bytes; the shim only reads the inputs.
    let r = unsafe {
        mldsa_ossl_verify(
            set(p),
            pk.as_ptr(),
            pk.len(),
            m.mode,
            ph_ptr,
            m.msg.as_ptr(),
            m.msg.len(),
            m.ctx.as_ptr(),
            m.ctx.len(),
            sig.as_ptr(),
            sig.len(),
            err.as_mut_ptr().cast(),
            ERR_CAP,
        )
    };
    match r {
        1 => Answer::Done(true),
        0 => Answer::Refused(text(&err)),
        2 => Answer::NotOffered,
        _ => Answer::Failed(text(&err)),
    }
}
