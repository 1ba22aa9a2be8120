#!/usr/bin/env bash
# Installs the ayo C library into a prefix:
#   PREFIX/include/ayo.h
#   PREFIX/lib/libayo.so, PREFIX/lib/libayo.a
#   PREFIX/lib/pkgconfig/ayo.pc                       (pkg-config ayo)
#   PREFIX/lib/cmake/ayo/ayoConfig.cmake + Version    (find_package(ayo))
#
# usage: ayo-ffi/install.sh PREFIX [--no-build]
#   --no-build  install what target/release already holds (after
#               `cargo build --release -p ayo-ffi`).
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
target=${CARGO_TARGET_DIR:-$root/target}/release

if [ "$build" = 1 ]; then
  cargo build --release -p ayo-ffi --manifest-path "$root/Cargo.toml"
fi

version=$(cargo pkgid -p ayo-ffi --manifest-path "$root/Cargo.toml" | sed -E 's/.*[#@]//')
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}

# The system libraries that Rust's standard library needs when libayo.a is
# linked statically, as rustc reports them for this platform.
# (The probe's output goes to a scratch directory: never `-o /dev/null`,
# which rustc would replace with a regular file when run as root.)
scratch=$(mktemp -d)
native=$(rustc --print native-static-libs --crate-type staticlib --crate-name ayo_probe \
  --out-dir "$scratch" - </dev/null 2>&1 | sed -n 's/.*native-static-libs: //p') || native=
rm -rf "$scratch"
[ -n "$native" ] || native="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
native_cmake=$(echo "$native" | sed 's/ /;/g')

install -d "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/ayo"
install -m 644 "$root/include/ayo.h" "$prefix/include/ayo.h"
install -m 755 "$target/libayo.so" "$prefix/lib/libayo.so"
install -m 644 "$target/libayo.a" "$prefix/lib/libayo.a"

fill() {
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" \
    -e "s|@VERSION_MAJOR@|$major|g" -e "s|@VERSION_MINOR@|$minor|g" \
    -e "s|@NATIVE_LIBS@|$native|g" -e "s|@NATIVE_LIBS_CMAKE@|$native_cmake|g" "$1" >"$2"
}
fill "$root/ayo-ffi/pkg/ayo.pc.in" "$prefix/lib/pkgconfig/ayo.pc"
fill "$root/ayo-ffi/pkg/ayoConfig.cmake.in" "$prefix/lib/cmake/ayo/ayoConfig.cmake"
fill "$root/ayo-ffi/pkg/ayoConfigVersion.cmake.in" "$prefix/lib/cmake/ayo/ayoConfigVersion.cmake"
echo "installed ayo $version into $prefix"
