#!/usr/bin/env bash
# Builds the root file system of the server image's base layer into OUTDIR, from this machine's JDK:
#   OUTDIR/opt/java         a jlink'ed Java 17 runtime (only the modules a Pragh server uses)
#   OUTDIR/lib*, usr/lib*   the shared libraries that runtime loads, with the dynamic loader (taken from this host)
#   OUTDIR/etc              passwd/group naming the unprivileged user 'pragh' (uid/gid 10001), nsswitch.conf
#   OUTDIR/var/lib/pragh    the data directory (the image's volume)
# Why not a base image from a registry: none is reachable where this project builds (no Docker Hub), and Jib's
# 'scratch' base plus this layer gives a distroless-style image that holds nothing a Java server does not run.
# Usage: make-runtime.sh OUTDIR [JAVA_HOME]
set -euo pipefail
out="${1:?usage: make-runtime.sh OUTDIR [JAVA_HOME]}"
java_home="${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}"
jlink="$java_home/bin/jlink"
[ -x "$jlink" ] || jlink="$(command -v jlink || true)"
if [ -z "$jlink" ] || [ ! -d "$java_home/jmods" ]; then
  echo "make-runtime.sh: jlink and the JDK's jmods are needed ($java_home/jmods is missing;" \
       "Debian 12 ships them in openjdk-17-jdk-headless, later releases in openjdk-17-jmods)" >&2
  exit 1
fi

stamp="$out/.runtime-of"
want="$(readlink -f "$java_home") $(sha256sum "$0" | cut -c1-16)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0  # already built from this JDK by this script
fi
rm -rf "$out"
mkdir -p "$out"

# java.se covers what the server, Gremlin Server (javax.script, java.beans via Groovy) and ZooKeeper's client (JAAS,
# JNDI) reach; jdk.unsupported is sun.misc.Unsafe (Agrona, Netty); jdk.crypto.ec the TLS key exchanges; jdk.httpserver
# and jdk.management the metrics endpoint and its JVM meters; jdk.zipfs and jdk.naming.dns are asked for by libraries.
"$jlink" --module-path "$java_home/jmods" \
  --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.httpserver,jdk.management,jdk.zipfs,jdk.naming.dns \
  --strip-debug --no-man-pages --no-header-files --compress=2 --output "$out/opt/java"

# Every ELF object of the runtime, and what they need, transitively (ldd resolves the whole closure). The desktop's
# native parts (X11, fonts, images) are left out: a headless server loads none of them, java.beans needs no native code.
copy_lib() {
  local src="$1" dir
  dir="$out$(dirname "$src")"
  mkdir -p "$dir"
  cp -L -n "$src" "$dir/" 2>/dev/null || true
}
find "$out/opt/java" -type f \( -name '*.so' -o -perm -u+x \) -print0 | while IFS= read -r -d '' f; do
  case "$(basename "$f")" in
    libawt_xawt.so|libjawt.so|libjsound.so|libsplashscreen.so|libfontmanager.so|liblcms.so|libjavajpeg.so|libmlib_image.so) continue ;;
  esac
  [ "$(head -c 4 "$f" | tail -c 3)" = "ELF" ] || continue
  ldd "$f" 2>/dev/null | awk '/=> \//{print $3} /^\s*\/lib/{print $1}'
done | sort -u | while read -r lib; do
  case "$lib" in "$out"*) continue ;; esac
  copy_lib "$lib"
done
# The loader by the absolute path the ELF headers name, and glibc's name-service modules, loaded with dlopen.
for lib in /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/libnss_files.so.2 /lib/x86_64-linux-gnu/libnss_dns.so.2 \
           /lib/x86_64-linux-gnu/libresolv.so.2; do
  [ -e "$lib" ] && copy_lib "$lib"
done

mkdir -p "$out/etc" "$out/var/lib/pragh" "$out/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\npragh:x:10001:10001:pragh:/var/lib/pragh:/sbin/nologin\n' \
  > "$out/etc/passwd"
printf 'root:x:0:\npragh:x:10001:\n' > "$out/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$out/etc/nsswitch.conf"
echo "$want" > "$stamp"
