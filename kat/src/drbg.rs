//! The NIST PQC `rng.c` AES-256-CTR DRBG: no derivation function, no reseeding, no
//! personalisation string (as used to produce the NIST KAT `.rsp` files).

use aes::Aes256;
use aes::cipher::{BlockEncrypt, KeyInit, generic_array::GenericArray};

/// DRBG state: Key (32 bytes) and V (16 bytes).
#[derive(Clone)]
pub struct Drbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl std::fmt::Debug for Drbg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Drbg(..)")
    }
}

fn increment(v: &mut [u8; 16]) {
    let x = u128::from_be_bytes(*v).wrapping_add(1);
    *v = x.to_be_bytes();
}

impl Drbg {
    /// `randombytes_init(entropy, NULL, 256)`.
    pub fn new(entropy: &[u8; 48]) -> Self {
        let mut d = Drbg {
            key: [0; 32],
            v: [0; 16],
        };
        d.update(Some(entropy));
        d
    }

    fn block(&self, v: &[u8; 16]) -> [u8; 16] {
        let cipher = Aes256::new(GenericArray::from_slice(&self.key));
        let mut b = GenericArray::clone_from_slice(v);
        cipher.encrypt_block(&mut b);
        b.into()
    }

    fn update(&mut self, data: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for i in 0..3 {
            increment(&mut self.v);
            temp[16 * i..16 * (i + 1)].copy_from_slice(&self.block(&self.v));
        }
        if let Some(d) = data {
            temp.iter_mut().zip(d).for_each(|(t, x)| *t ^= x);
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    /// `randombytes(out, out.len())`: call boundaries matter (one update per call).
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            increment(&mut self.v);
            let b = self.block(&self.v);
            chunk.copy_from_slice(&b[..chunk.len()]);
        }
        self.update(None);
    }

    /// `randombytes` into a new array.
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        self.fill(&mut out);
        out
    }
}
