#![no_main]
mldsa_fuzz::target!("rej_eta4");
