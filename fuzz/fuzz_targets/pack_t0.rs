#![no_main]
mldsa_fuzz::target!("pack_t0");
