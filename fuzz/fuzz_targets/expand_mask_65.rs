#![no_main]
mldsa_fuzz::target!("expand_mask_65");
