#![no_main]
mldsa_fuzz::target!("decompose_32");
