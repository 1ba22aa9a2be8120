//! Gives the shared library its SONAME, `libayo.so.MAJOR`, on ELF
//! platforms, so that programs record that name and find any compatible
//! `libayo.so.MAJOR.MINOR.PATCH` at run time (`ayo-ffi/install.sh` installs
//! it with the usual symlinks). Only the cdylib is affected.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let elf = matches!(
        os.as_str(),
        "linux"
            | "android"
            | "freebsd"
            | "netbsd"
            | "openbsd"
            | "dragonfly"
            | "illumos"
            | "solaris"
    );
    if elf {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".to_owned());
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libayo.so.{major}");
    }
}
