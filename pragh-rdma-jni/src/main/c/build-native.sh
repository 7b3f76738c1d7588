#!/usr/bin/env bash
# Builds target/native/libdisni.so when this machine can: rdma-core headers, a C compiler, make and the JDK's
# JNI headers. When it cannot, says why and succeeds, so the Java build and the tests that need no library go on.
# Usage: build-native.sh [--check] <source dir> <output dir> <generated JNI header dir>
#   --check: run the C-level checks (make check) against the library built before, or say why not.
set -euo pipefail
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
src="$1" out="$2" headers="$3"

skip() {
  echo "[pragh-rdma-jni] skipping native library: $*" >&2
  rm -f "$out/libdisni.so"  # a library from an earlier build would not match these sources
  echo "$*" > "$out/SKIPPED"
  exit 0
}

if [ "$check" = 1 ]; then
  if [ -f "$out/SKIPPED" ] || [ ! -f "$out/libdisni.so" ]; then
    echo "[pragh-rdma-jni] skipping native checks: $(cat "$out/SKIPPED" 2>/dev/null || echo "no libdisni.so was built")" >&2
    exit 0
  fi
  make -s -C "$src" OUT="$(readlink -f "$out")" JNI_HEADERS="$(readlink -f "$headers")" CC="${CC:-cc}" check
  exit 0
fi

mkdir -p "$out"
rm -f "$out/SKIPPED"
[ "$(uname -s)" = Linux ] || skip "rdma-core is Linux-only (this is $(uname -s))"
include_root="${RDMA_INCLUDE:-/usr/include}"  # overridable so the skip path can be exercised
for h in "$include_root/infiniband/verbs.h" "$include_root/rdma/rdma_cma.h"; do
  [ -f "$h" ] || skip "$h is missing (install libibverbs-dev and librdmacm-dev)"
done
cc_cmd="${CC:-cc}"
command -v "$cc_cmd" >/dev/null 2>&1 || skip "no C compiler ('$cc_cmd') on PATH (install gcc)"
command -v make >/dev/null 2>&1 || skip "make is not on PATH (install make)"
java_home="${JAVA_HOME:-}"
if [ -z "$java_home" ] || [ ! -f "$java_home/include/jni.h" ]; then
  javac_path="$(command -v javac || true)"
  [ -n "$javac_path" ] && java_home="$(dirname "$(dirname "$(readlink -f "$javac_path")")")"
fi
[ -f "$java_home/include/jni.h" ] || skip "no jni.h under JAVA_HOME ('$java_home'); a full JDK is needed"
[ -f "$headers/io_pragh_rdma_jni_PraghVerbs.h" ] || skip "javac did not generate $headers/io_pragh_rdma_jni_PraghVerbs.h"

make -s -C "$src" OUT="$(readlink -f "$out")" JNI_HEADERS="$(readlink -f "$headers")" JAVA_HOME="$java_home" CC="$cc_cmd"
echo "[pragh-rdma-jni] built $(readlink -f "$out")/libdisni.so" >&2
