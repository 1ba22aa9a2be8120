#!/usr/bin/env bash
# CI step for the C ABI and the C++ layer (ayo-ffi, include/ayo.h,
# include/ayo.hpp, tests/c, examples/c, examples/cpp).
# Run from anywhere: bash ci/c.sh. Installs what it needs when missing
# (cbindgen 0.29.4 through cargo, cmake, pkg-config, valgrind and binutils
# through apt), so it is quick on a machine that already has them.
# Honours CARGO_TARGET_DIR (the target directory comes from cargo metadata).
# See docs/c-api.md, "Tests".
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never

CBINDGEN_VERSION=0.29.4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
steps_passed=0

say() { echo "== c: $*"; }
ok() {
  steps_passed=$((steps_passed + 1))
  echo "   ok: $*"
}
die() {
  echo "c: FAILED: $*" >&2
  echo "c: $steps_passed passed, 1 failed"
  exit 1
}

say "tools"
if ! cbindgen --version 2>/dev/null | grep -qx "cbindgen $CBINDGEN_VERSION"; then
  cargo install cbindgen --version "$CBINDGEN_VERSION" --locked
fi
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v g++ >/dev/null || missing+=(g++)
command -v valgrind >/dev/null || missing+=(valgrind)
command -v readelf >/dev/null || missing+=(binutils)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -E 's/.*"target_directory":"([^"]*)".*/\1/')
[ -d "$target_dir" ] || mkdir -p "$target_dir"

say "header: regenerate with cbindgen $CBINDGEN_VERSION and compare"
cbindgen --quiet --config ayo-ffi/cbindgen.toml --crate ayo-ffi --output "$work/ayo.h"
diff -u include/ayo.h "$work/ayo.h" \
  || die "include/ayo.h differs from the generated header; regenerate it: cbindgen --config ayo-ffi/cbindgen.toml --crate ayo-ffi --output include/ayo.h"
ok "include/ayo.h is up to date"
version=$(cargo pkgid -p ayo-ffi | sed -E 's/.*[#@]//')
header_version=$(printf '#include "ayo.h"\nAYO_VERSION_MAJOR.AYO_VERSION_MINOR.AYO_VERSION_PATCH\n' \
  | cc -E -P -Iinclude - | tail -1 | tr -d ' ')
[ "$header_version" = "$version" ] || die "header version $header_version, Cargo.toml $version"
ok "header version macros $header_version match Cargo.toml"
printf '#include "ayo.h"\nint main(void) { return (int)AYO_RESULT_OK + (int)sizeof(ayo_setup) - 24; }\n' >"$work/h.c"
gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -Iinclude "$work/h.c" -o "$work/h_c99" || die "ayo.h as C99"
g++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -Iinclude "$work/h.c" -o "$work/h_cxx11" || die "ayo.h as C++11"
"$work/h_c99" && "$work/h_cxx11" || die "ayo_setup is not 24 bytes"
ok "ayo.h compiles cleanly as C99 and C++11 (-Wpedantic)"

say "build libayo (release), the reference games, and install libayo into a prefix"
cargo build --release --locked -p ayo-ffi
size() { du -k --apparent-size "$1" | cut -f1; }
plain_sizes="libayo.so $(size "$target_dir/release/libayo.so") KiB, libayo.a $(size "$target_dir/release/libayo.a") KiB"
# The C, C++ and shell blocks of README.md and docs/*.md
# (tests/python/docs_blocks.py), here, while the release build is cargo's
# own: each shell block runs on its own in the clone (building into build/)
# with HOME in a temporary folder, installing with `install.sh --no-build`
# (their directives say so: the link-time optimised build of install.sh
# and cargo's own rebuild each other), and each C and C++ block compiles.
timeout "${AYO_C_TEST_TIMEOUT:-600}" python3 tests/python/docs_blocks.py --stage c || die "a code block of the docs"
ok "the docs' blocks of stage c"
# The games of the computer players, played by ayo-core directly (Rust),
# for tests/c/test_player.c (before install.sh rebuilds the library alone).
cargo run --release --locked -q -p ayo-ffi --example player_reference >"$work/reference.txt"
ok "$(wc -l <"$work/reference.txt") reference games for tests/c/test_player.c"
prefix=$work/prefix
ayo-ffi/install.sh "$prefix"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion ayo)" = "$version" ] || die "pkg-config version"
for f in include/ayo.h include/ayo.hpp lib/libayo.a lib/cmake/ayo/ayoConfig.cmake lib/cmake/ayo/ayoConfigVersion.cmake; do
  [ -f "$prefix/$f" ] || die "$f was not installed"
done
cmp -s include/ayo.h "$prefix/include/ayo.h" && cmp -s include/ayo.hpp "$prefix/include/ayo.hpp" \
  || die "the installed headers are not include/ayo.h and include/ayo.hpp"
ok "installed $version with ayo.h, ayo.hpp, pkg-config and CMake files"
# The versioned shared library: the real file, its SONAME, the symlinks.
major=${version%%.*}
real=$prefix/lib/libayo.so.$version
[ -f "$real" ] && [ ! -L "$real" ] || die "no libayo.so.$version"
[ "$(readlink "$prefix/lib/libayo.so.$major")" = "libayo.so.$version" ] || die "libayo.so.$major is not a link to libayo.so.$version"
[ "$(readlink "$prefix/lib/libayo.so")" = "libayo.so.$major" ] || die "libayo.so is not a link to libayo.so.$major"
readelf -d "$real" >"$work/so.dynamic"
soname=$(sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p' "$work/so.dynamic")
[ "$soname" = "libayo.so.$major" ] || die "SONAME is '$soname', expected libayo.so.$major"
ok "libayo.so -> libayo.so.$major -> libayo.so.$version, SONAME $soname"
# Stripped: no debug sections in either library; the sizes against the build's.
# (readelf's output goes to files: `readelf | grep -q` under pipefail fails
# when grep stops reading early.)
readelf -S "$real" >"$work/so.sections"
readelf -S "$prefix/lib/libayo.a" >"$work/a.sections" 2>/dev/null || true
grep -q '\.debug_' "$work/so.sections" && die "libayo.so.$version has debug sections"
grep -q '\.debug_' "$work/a.sections" && die "libayo.a has debug sections"
ok "sizes: cargo build --release: $plain_sizes; link-time optimised: libayo.so" \
  "$(size "$target_dir/release/libayo.so") KiB, libayo.a $(size "$target_dir/release/libayo.a") KiB;" \
  "installed (stripped): libayo.so $(size "$real") KiB, libayo.a $(size "$prefix/lib/libayo.a") KiB"
# The shared library exports exactly the functions the header declares.
nm -D --defined-only "$real" | awk '{print $3}' | sort >"$work/exported"
grep -oE '\bayo_[a-z_]+\(' include/ayo.h | tr -d '(' | sort -u >"$work/declared"
diff -u "$work/declared" "$work/exported" || die "libayo.so exports differ from the functions of include/ayo.h"
ok "libayo.so exports exactly the $(wc -l <"$work/declared") functions of include/ayo.h"

CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -g -Itests/c)
CXXFLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -g -Itests/c)
SAN=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
# shellcheck disable=SC2207
SHARED=($(pkg-config --cflags ayo) $(pkg-config --libs ayo) -Wl,-rpath,"$prefix/lib")
# libayo.a by its path with the private libraries that pkg-config --static
# names (linking statically the rest of the program would need -static).
STATIC=(-I"$prefix/include" "$prefix/lib/libayo.a" $(pkg-config --static --libs-only-l ayo | sed 's/-layo//'))
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
vectors=$root/tests/vectors
counts=$work/counts
: >"$counts"

# Every test program runs under a time limit: a hang fails with its name.
# (Under valgrind and the sanitizers the slowest take about a minute.)
TEST_TIMEOUT=${AYO_C_TEST_TIMEOUT:-600}

# run NAME CMD...: runs a test binary, keeps its closing "N passed, M failed".
run() {
  local name=$1
  shift
  local log=$work/$name.log
  if ! timeout "$TEST_TIMEOUT" "$@" >"$log" 2>&1; then
    cat "$log"
    die "$name (failed, or ran past ${TEST_TIMEOUT}s)"
  fi
  cat "$log"
  grep -E '^[a-z+-]+: [0-9]+ passed, 0 failed$' "$log" | tail -1 >>"$counts" || die "$name printed no count"
}

say "C and C++ tests against the shared library"
gcc "${CFLAGS[@]}" tests/c/test_api.c tests/c/check.c "${SHARED[@]}" -lpthread -o "$work/test_api"
gcc "${CFLAGS[@]}" tests/c/test_vectors.c tests/c/json.c tests/c/check.c "${SHARED[@]}" -o "$work/test_vectors"
gcc "${CFLAGS[@]}" tests/c/test_player.c tests/c/check.c "${SHARED[@]}" -lpthread -o "$work/test_player"
gcc "${CFLAGS[@]}" tests/c/test_database.c tests/c/check.c "${SHARED[@]}" -lpthread -o "$work/test_database"
gcc "${CFLAGS[@]}" tests/c/test_db_limits.c tests/c/check.c "${SHARED[@]}" -lpthread -o "$work/test_db_limits"
gcc "${CFLAGS[@]}" tests/c/test_messages.c tests/c/check.c "${SHARED[@]}" -lpthread -o "$work/test_messages"
gcc "${CFLAGS[@]}" tests/c/test_perfect_oware.c tests/c/check.c "${SHARED[@]}" -o "$work/test_perfect_oware"
gcc "${CFLAGS[@]}" tests/c/test_search.c tests/c/check.c "${SHARED[@]}" -lm -o "$work/test_search"
gcc "${CFLAGS[@]}" tests/c/test_stateless.c tests/c/check.c "${SHARED[@]}" -o "$work/test_stateless"
gcc "${CFLAGS[@]}" tests/c/test_vector_env.c tests/c/check.c "${SHARED[@]}" -o "$work/test_vector_env"
gcc "${CFLAGS[@]}" -c tests/c/json.c -o "$work/json.o"
g++ "${CXXFLAGS[@]}" tests/c/test_cpp.cpp "$work/json.o" "${SHARED[@]}" -pthread -o "$work/test_cpp"
run c-api "$work/test_api"
run c-vectors "$work/test_vectors" "$vectors"
run c-player "$work/test_player" "$work/reference.txt"
run c-database "$work/test_database"
run c-db-limits "$work/test_db_limits"
run c-messages "$work/test_messages"
run c-perfect-oware "$work/test_perfect_oware"
run c-search "$work/test_search"
run c-stateless "$work/test_stateless"
run c-vector-env "$work/test_vector_env"
run cpp "$work/test_cpp" "$vectors"

say "the same under AddressSanitizer + UndefinedBehaviorSanitizer (static library, leaks checked)"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_api.c tests/c/check.c "${STATIC[@]}" -lpthread -o "$work/test_api_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_vectors.c tests/c/json.c tests/c/check.c "${STATIC[@]}" \
  -o "$work/test_vectors_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_player.c tests/c/check.c "${STATIC[@]}" -lpthread -o "$work/test_player_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_database.c tests/c/check.c "${STATIC[@]}" -lpthread \
  -o "$work/test_database_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_db_limits.c tests/c/check.c "${STATIC[@]}" -lpthread \
  -o "$work/test_db_limits_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_messages.c tests/c/check.c "${STATIC[@]}" -lpthread \
  -o "$work/test_messages_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_perfect_oware.c tests/c/check.c "${STATIC[@]}" \
  -o "$work/test_perfect_oware_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_search.c tests/c/check.c "${STATIC[@]}" -lm \
  -o "$work/test_search_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" tests/c/test_vector_env.c tests/c/check.c "${STATIC[@]}" -lpthread \
  -o "$work/test_vector_env_san"
gcc "${CFLAGS[@]}" "${SAN[@]}" -c tests/c/json.c -o "$work/json_san.o"
g++ "${CXXFLAGS[@]}" "${SAN[@]}" tests/c/test_cpp.cpp "$work/json_san.o" "${STATIC[@]}" -pthread \
  -o "$work/test_cpp_san"
run c-api-asan "$work/test_api_san"
run c-vectors-asan "$work/test_vectors_san" "$vectors"
run c-player-asan "$work/test_player_san" "$work/reference.txt"
run c-database-asan "$work/test_database_san"
# --no-rlimit: the sanitizers' allocators stop on a failed allocation, so
# the out-of-memory part runs only against the shared library above.
run c-db-limits-asan "$work/test_db_limits_san" --no-rlimit
run c-messages-asan "$work/test_messages_san"
run c-perfect-oware-asan "$work/test_perfect_oware_san"
run c-search-asan "$work/test_search_san"
run c-vector-env-asan "$work/test_vector_env_san"
run cpp-asan "$work/test_cpp_san" "$vectors"

say "valgrind memcheck (it also sees inside libayo, which the sanitizers do not instrument)"
gcc "${CFLAGS[@]}" tests/c/test_api.c tests/c/check.c "${STATIC[@]}" -lpthread -o "$work/test_api_static"
gcc "${CFLAGS[@]}" tests/c/test_player.c tests/c/check.c "${STATIC[@]}" -lpthread -o "$work/test_player_static"
gcc "${CFLAGS[@]}" tests/c/test_database.c tests/c/check.c "${STATIC[@]}" -lpthread -o "$work/test_database_static"
g++ "${CXXFLAGS[@]}" tests/c/test_cpp.cpp "$work/json.o" "${STATIC[@]}" -pthread -o "$work/test_cpp_static"
VG=(valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite)
run c-api-valgrind "${VG[@]}" "$work/test_api_static"
run c-player-valgrind "${VG[@]}" "$work/test_player_static" "$work/reference.txt"
# --quick: one exact search (each runs on a thread with a large reserved
# stack, slow under valgrind); the runs above do them all.
run c-database-valgrind "${VG[@]}" "$work/test_database_static" --quick
run cpp-valgrind "${VG[@]}" "$work/test_cpp_static" "$vectors"

say "LeakSanitizer is live: a deliberately leaked game must be reported"
cat >"$work/leak.c" <<'EOF'
#include <stdio.h>
#include "ayo.h"
static ayo_game *volatile leaked;
int main(void) {
  ayo_rules *r = NULL;
  ayo_game *g = NULL;
  if (ayo_rules_new_preset("ayo", &r) != AYO_RESULT_OK || ayo_game_new(r, &g) != AYO_RESULT_OK) return 2;
  ayo_rules_free(r);
  leaked = g;
  g = NULL;
  leaked = NULL; /* the game is now unreachable */
  puts("leaked");
  return 0;
}
EOF
gcc "${CFLAGS[@]}" "${SAN[@]}" "$work/leak.c" "${STATIC[@]}" -o "$work/leak"
if "$work/leak" >"$work/leak.log" 2>&1; then
  cat "$work/leak.log"
  die "LeakSanitizer did not report a leaked game"
fi
grep -q "detected memory leaks" "$work/leak.log" || die "the leak check failed for another reason: $(cat "$work/leak.log")"
ok "a leaked ayo_game is reported"

say "examples: the README quick start, plain cc, pkg-config, CMake find_package"
extract() { sed -n '/<!-- c-quickstart:begin/,/<!-- c-quickstart:end -->/p' "$1" | sed -n '/^```c$/,/^```$/p' | sed '1d;$d'; }
extract docs/c-api.md >"$work/quickstart.c"
diff -u examples/c/random_game.c "$work/quickstart.c" || die "docs/c-api.md's quick start is not examples/c/random_game.c"
ok "docs/c-api.md quick start is examples/c/random_game.c"
if grep -q '<!-- c-quickstart:begin' README.md 2>/dev/null; then
  extract README.md >"$work/readme_quickstart.c"
  diff -u examples/c/random_game.c "$work/readme_quickstart.c" || die "README.md's C quick start is not examples/c/random_game.c"
  ok "README.md quick start is examples/c/random_game.c"
fi
check_example() {
  local name=$1
  shift
  timeout "$TEST_TIMEOUT" "$@" >"$work/$name.out" || die "$name exited with an error (or ran past ${TEST_TIMEOUT}s)"
  # Line 1: a game record of the preset; line 2: the result.
  head -1 "$work/$name.out" | grep -Eq '^(ayo|oware|olopon|ayoayo)(\[[^ ]*\])? [0-9,/]+ [0-9]+-[0-9]+ [sn] [0-9]+ [0-9]+ \|( [1-6])*$' \
    || die "$name: no game record in: $(cat "$work/$name.out")"
  sed -n 2p "$work/$name.out" | grep -Eq '^((South|North) wins|Draw) [0-9]+-[0-9]+ \(|^stopped at the ply cap$' \
    || die "$name: no result in: $(cat "$work/$name.out")"
  ok "$name: $(tail -1 "$work/$name.out")"
}
# The plain cc line of docs/c-api.md.
cc -std=c11 -Wall -Wextra -Werror -Iinclude examples/c/random_game.c "$target_dir/release/libayo.a" -lpthread -ldl -lm \
  -o "$work/random_game_cc"
check_example "plain cc" "$work/random_game_cc" oware 7
# pkg-config, as in docs/c-api.md.
# shellcheck disable=SC2046
cc $(pkg-config --cflags ayo) examples/c/random_game.c $(pkg-config --libs ayo) -Wl,-rpath,"$prefix/lib" \
  -o "$work/random_game_pc"
check_example "pkg-config" "$work/random_game_pc" ayoayo 3
# CMake find_package(ayo 0.1), shared and static targets.
cmake -S examples/c -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" \
  >"$work/cmake.log" 2>&1 || die "cmake configure: $(cat "$work/cmake.log")"
cmake --build "$work/cmake" >>"$work/cmake.log" 2>&1 || die "cmake build: $(cat "$work/cmake.log")"
check_example "cmake ayo::ayo" "$work/cmake/random_game" olopon 5
check_example "cmake ayo::ayo_static" "$work/cmake/random_game_static" ayo 11
# examples/c/vs_computer.c: the computer plays North; South's moves come from
# a script (a hint, then pits 1..6 in turn until one is legal) to the end.
check_vs_computer() {
  local name=$1
  shift
  for _ in $(seq 400); do printf 'h\n1\n2\n3\n4\n5\n6\n'; done >"$work/vs_input"
  timeout "$TEST_TIMEOUT" "$@" <"$work/vs_input" >"$work/$name.log" || die "$name exited with an error (or ran past ${TEST_TIMEOUT}s)"
  grep -q 'computer sows its pit [1-6]$' "$work/$name.log" || die "$name: the computer did not play"
  grep -Eq '^your move .*hint: pit [1-6] \(' "$work/$name.log" || die "$name: no hint shown"
  check_example "$name" tail -2 "$work/$name.log"
}
cc -std=c11 -Wall -Wextra -Werror -Iinclude examples/c/vs_computer.c "$target_dir/release/libayo.a" \
  -lpthread -ldl -lm -o "$work/vs_computer_cc"
check_vs_computer "vs_computer (plain cc)" "$work/vs_computer_cc" oware 3 5
check_vs_computer "vs_computer (cmake)" "$work/cmake/vs_computer" ayo 2 9
# The --static form of pkg-config: a fully static program (glibc warns
# about the name-service functions that Rust's std holds; ayo calls none).
# shellcheck disable=SC2046
cc -static $(pkg-config --static --cflags ayo) examples/c/random_game.c $(pkg-config --static --libs ayo) \
  -o "$work/random_game_static_pc" 2>"$work/static_pc.log" || die "cc -static with pkg-config --static: $(cat "$work/static_pc.log")"
readelf -d "$work/random_game_static_pc" >"$work/static_pc.dynamic" 2>&1 || true
grep -q NEEDED "$work/static_pc.dynamic" && die "the pkg-config --static program needs shared libraries"
check_example "pkg-config --static (no shared library needed)" "$work/random_game_static_pc" oware 5
# The C++ example: examples/cpp with find_package(ayo), shared and static.
cmake -S examples/cpp -B "$work/cmake-cpp" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Wpedantic -Werror" \
  >"$work/cmake-cpp.log" 2>&1 || die "cmake configure (C++): $(cat "$work/cmake-cpp.log")"
cmake --build "$work/cmake-cpp" >>"$work/cmake-cpp.log" 2>&1 || die "cmake build (C++): $(cat "$work/cmake-cpp.log")"
readelf -d "$work/cmake-cpp/computer_game" >"$work/computer_game.dynamic"
grep -q "NEEDED.*\[libayo.so.$major\]" "$work/computer_game.dynamic" || die "computer_game does not need libayo.so.$major"
check_example "C++ cmake ayo::ayo (NEEDED libayo.so.$major)" "$work/cmake-cpp/computer_game" oware 4 7
check_example "C++ cmake ayo::ayo_static" "$work/cmake-cpp/computer_game_static" ayoayo 2 3
if "$work/cmake-cpp/computer_game" ayo 9 >/dev/null 2>"$work/cpp_err.log"; then die "computer_game accepted level 9"; fi
grep -qx 'computer_game: AYO_RESULT_UNKNOWN_LEVEL: unknown level; valid levels: 1 to 8, max and learned' "$work/cpp_err.log" \
  || die "computer_game's error: $(cat "$work/cpp_err.log")"
ok "C++ example: a bad level is an ayo::Error with its code and message"
# An incompatible version request must be refused.
mkdir -p "$work/cmake-v"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(v C)\nfind_package(ayo %s REQUIRED)\n' "$((${version%%.*} + 1)).0" \
  >"$work/cmake-v/CMakeLists.txt"
if cmake -S "$work/cmake-v" -B "$work/cmake-v/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1; then
  die "find_package(ayo) accepted an incompatible major version"
fi
ok "find_package(ayo) refuses an incompatible version"

# Nothing here may damage the machine (an earlier install probe replaced
# /dev/null with a file when run as root).
[ -c /dev/null ] || die "/dev/null is no longer a character device"
ok "/dev/null is intact"

passed=$steps_passed
while read -r line; do
  n=${line#*: }
  passed=$((passed + ${n%% passed*}))
done <"$counts"
echo "c: $passed passed, 0 failed"
