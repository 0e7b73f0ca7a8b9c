#![no_main]
mldsa_fuzz::target!("keccak_f1600_x4x2");
