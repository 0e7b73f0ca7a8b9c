#![no_main]
mldsa_fuzz::target!("invntt_tomont");
