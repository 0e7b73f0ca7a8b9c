#![no_main]
mldsa_fuzz::target!("reduce");
