#![no_main]
mldsa_fuzz::target!("unpack_t0");
