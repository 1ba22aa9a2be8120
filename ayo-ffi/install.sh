#!/usr/bin/env bash
# Installs the ayo C library, stripped, into a prefix:
#   PREFIX/include/ayo.h, PREFIX/include/ayo.hpp      (C API, C++17 layer)
#   PREFIX/lib/libayo.so.X.Y.Z                        (SONAME libayo.so.X)
#   PREFIX/lib/libayo.so.X -> libayo.so.X.Y.Z, PREFIX/lib/libayo.so -> libayo.so.X
#   PREFIX/lib/libayo.a
#   PREFIX/lib/pkgconfig/ayo.pc                       (pkg-config [--static] ayo)
#   PREFIX/lib/cmake/ayo/ayoConfig.cmake + Version    (find_package(ayo))
#
# usage: ayo-ffi/install.sh PREFIX [--no-build]
#   --no-build  install what the release build already holds (after
#               `cargo build --release -p ayo-ffi`, or the build below).
# The SONAME is set when the library is linked (ayo-ffi/build.rs).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 PREFIX [--no-build]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$1
build=1
[ "${2:-}" = "--no-build" ] && build=0
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
lib=$prefix/lib

if [ "$build" = 1 ]; then
  # Only the C libraries: without the rlib that the crate also declares (for
  # its Rust examples) cargo can apply the release profile's link-time
  # optimisation, which leaves out the parts of Rust's standard library that
  # the engine does not use (the archive is a fifth of the size).
  cargo rustc --release --locked -p ayo-ffi --lib --crate-type cdylib --crate-type staticlib \
    --manifest-path "$root/Cargo.toml"
fi
# The target directory as cargo sees it (CARGO_TARGET_DIR, .cargo/config).
target=$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" \
  | sed -E 's/.*"target_directory":"([^"]*)".*/\1/')/release

version=$(cargo pkgid -p ayo-ffi --manifest-path "$root/Cargo.toml" | sed -E 's/.*[#@]//')
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}

# The system libraries that linking libayo.a needs, as rustc reports them for
# this platform, less -lgcc_s: the compiler driver brings its own unwinder
# (libgcc_s in a dynamic link, libgcc_eh in a `-static` one, where -lgcc_s
# cannot be found), so `cc -static prog.c $(pkg-config --static --cflags
# --libs ayo)` links. (The probe's output goes to a scratch directory: never
# `-o /dev/null`, which rustc would replace with a regular file when run as
# root.)
scratch=$(mktemp -d)
native=$(rustc --print native-static-libs --crate-type staticlib --crate-name ayo_probe \
  --out-dir "$scratch" - </dev/null 2>&1 | sed -n 's/.*native-static-libs: //p') || native=
rm -rf "$scratch"
[ -n "$native" ] || native="-lutil -lrt -lpthread -lm -ldl -lc"
native=$(echo "$native" | sed -E 's/(^| )-lgcc_s( |$)/\1/; s/ +/ /g; s/^ //; s/ $//')
native_cmake=$(echo "$native" | sed 's/ /;/g')

install -d "$prefix/include" "$lib/pkgconfig" "$lib/cmake/ayo"
install -m 644 "$root/include/ayo.h" "$root/include/ayo.hpp" "$prefix/include/"
# The release profile keeps line tables (for profiles and backtraces); the
# installed libraries do without them.
install -m 755 "$target/libayo.so" "$lib/libayo.so.$version"
strip --strip-unneeded "$lib/libayo.so.$version"
ln -sfn "libayo.so.$version" "$lib/libayo.so.$major"
ln -sfn "libayo.so.$major" "$lib/libayo.so"
install -m 644 "$target/libayo.a" "$lib/libayo.a"
strip --strip-debug "$lib/libayo.a"

fill() {
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" \
    -e "s|@VERSION_MAJOR@|$major|g" -e "s|@VERSION_MINOR@|$minor|g" \
    -e "s|@NATIVE_LIBS@|$native|g" -e "s|@NATIVE_LIBS_CMAKE@|$native_cmake|g" "$1" >"$2"
}
fill "$root/ayo-ffi/pkg/ayo.pc.in" "$lib/pkgconfig/ayo.pc"
fill "$root/ayo-ffi/pkg/ayoConfig.cmake.in" "$lib/cmake/ayo/ayoConfig.cmake"
fill "$root/ayo-ffi/pkg/ayoConfigVersion.cmake.in" "$lib/cmake/ayo/ayoConfigVersion.cmake"
echo "installed ayo $version into $prefix"
