//! Compiles the valgrind client-request shim (`csrc/ct_valgrind.c`) with feature
//! `ct-valgrind` only; every other build does nothing here.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "ct-valgrind")]
    {
        // valgrind/memcheck.h from the system include path (Debian: package `valgrind`), or
        // from the directory in VALGRIND_INCLUDE.
        println!("cargo:rerun-if-changed=csrc/ct_valgrind.c");
        println!("cargo:rerun-if-env-changed=VALGRIND_INCLUDE");
        let mut build = cc::Build::new();
        build.file("csrc/ct_valgrind.c");
        if let Some(dir) = std::env::var_os("VALGRIND_INCLUDE") {
            build.include(dir);
        }
        build.compile("mldsa_ct_valgrind");
    }
}
