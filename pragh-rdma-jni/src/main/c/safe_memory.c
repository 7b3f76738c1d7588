/*
 * Reading and writing addresses that came from Java without trusting them.
 *
 * DiSNI hands C the addresses of its off-heap work-request lists, completion arrays and socket addresses. A
 * wrong address must become an exception, not a SIGSEGV that kills the JVM. process_vm_readv/writev on our own
 * process copy through the kernel, which checks the mapping and returns EFAULT for memory that is unmapped or,
 * for writes, read-only. Pragh's own hot path never comes here: its descriptors live in buffers this library
 * allocated and knows the bounds of (see pragh_verbs.c).
 */
#include "pragh_native.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

static int copy(void *local, jlong remote, size_t len, int write) {
    if (len == 0) {
        return 0;
    }
    if (remote == 0) {
        return EFAULT;
    }
    struct iovec here = {local, len};
    struct iovec there = {(void *) (uintptr_t) remote, len};
    ssize_t n = write ? process_vm_writev(getpid(), &here, 1, &there, 1, 0)
                      : process_vm_readv(getpid(), &here, 1, &there, 1, 0);
    if (n < 0) {
        return errno ? errno : EFAULT;
    }
    return (size_t) n == len ? 0 : EFAULT; /* a partial copy means the range ends in unmapped memory */
}

int safe_read(void *dst, jlong src, size_t len) {
    return copy(dst, src, len, 0);
}

int safe_write(jlong dst, const void *src, size_t len) {
    return copy((void *) src, dst, len, 1);
}

int read_java_memory(JNIEnv *env, const char *what, void *dst, jlong src, size_t len) {
    int err = safe_read(dst, src, len);
    if (err) {
        throw_illegal_argument(env, "%s at address 0x%llx (%zu bytes) is not readable memory (errno %d)", what,
            (unsigned long long) src, len, err);
    }
    return err;
}

int write_java_memory(JNIEnv *env, const char *what, jlong dst, const void *src, size_t len) {
    int err = safe_write(dst, src, len);
    if (err) {
        throw_illegal_argument(env, "%s at address 0x%llx (%zu bytes) is not writable memory (errno %d)", what,
            (unsigned long long) dst, len, err);
    }
    return err;
}
