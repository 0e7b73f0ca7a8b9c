#![no_main]
mldsa_fuzz::target!("unpack_eta2");
