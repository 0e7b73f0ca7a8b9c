#![no_main]
mldsa_fuzz::target!("api_verify_44");
