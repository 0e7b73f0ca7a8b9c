#![no_main]
mldsa_fuzz::target!("pack_w1_88");
