#![no_main]
mldsa_fuzz::target!("pack_eta4");
