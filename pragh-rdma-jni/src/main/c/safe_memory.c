/*
 * Reading and writing addresses that came from Java without trusting them.
 *
 * DiSNI hands C the addresses of its off-heap work-request lists, completion arrays and socket addresses. A
 * wrong address must become an exception, not a SIGSEGV that kills the JVM. The kernel does the copying and
 * reports EFAULT for memory that is unmapped or, for writes, read-only: process_vm_readv/writev on our own process
 * where allowed, otherwise (a sandbox that filters those calls) a per-thread pipe, whose write(2) and read(2) check
 * the user range the same way. Pragh's own hot path never comes here: its descriptors live in buffers this library
 * allocated and knows the bounds of (see pragh_verbs.c).
 */
#include "pragh_native.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <sys/uio.h>
#include <unistd.h>

#define PIPE_STEP 4096

static atomic_int use_pipe;             /* set once process_vm_* turned out to be unavailable */
static pthread_key_t pipe_key;
static pthread_once_t pipe_key_once = PTHREAD_ONCE_INIT;

static void close_pipe(void *p) {
    int *fds = p;
    close(fds[0]);
    close(fds[1]);
    free(fds);
}

static void make_key(void) {
    pthread_key_create(&pipe_key, close_pipe);
}

static int *thread_pipe(void) {
    pthread_once(&pipe_key_once, make_key);
    int *fds = pthread_getspecific(pipe_key);
    if (!fds) {
        fds = malloc(2 * sizeof *fds);
        if (!fds || pipe2(fds, O_CLOEXEC | O_NONBLOCK)) {
            free(fds);
            return NULL;
        }
        pthread_setspecific(pipe_key, fds);
    }
    return fds;
}

static void drain(int fd) {
    char sink[PIPE_STEP];
    while (read(fd, sink, sizeof sink) > 0) {
    }
}

/* Copies through a pipe: write(2) from the source checks it is readable, read(2) into the target that it is writable. */
static int pipe_copy(void *dst, const void *src, size_t len) {
    int *fds = thread_pipe();
    if (!fds) {
        return errno ? errno : EMFILE;
    }
    for (size_t done = 0; done < len;) {
        size_t step = len - done < PIPE_STEP ? len - done : PIPE_STEP;
        ssize_t in = write(fds[1], (const char *) src + done, step);
        if (in <= 0) {
            return in < 0 && errno != EFAULT ? errno : EFAULT;
        }
        ssize_t out = read(fds[0], (char *) dst + done, (size_t) in);
        if (out != in) {
            int err = out < 0 && errno != EFAULT ? errno : EFAULT; /* before drain() overwrites errno */
            drain(fds[0]); /* leave the pipe empty for the next copy */
            return err;
        }
        done += (size_t) in;
    }
    return 0;
}

static int copy(void *local, jlong remote, size_t len, int write) {
    if (len == 0) {
        return 0;
    }
    if (remote == 0) {
        return EFAULT;
    }
    void *foreign = (void *) (uintptr_t) remote;
    if (!atomic_load_explicit(&use_pipe, memory_order_relaxed)) {
        struct iovec here = {local, len};
        struct iovec there = {foreign, len};
        ssize_t n = write ? process_vm_writev(getpid(), &here, 1, &there, 1, 0)
                          : process_vm_readv(getpid(), &here, 1, &there, 1, 0);
        if (n >= 0) {
            return (size_t) n == len ? 0 : EFAULT; /* a partial copy means the range runs into unmapped memory */
        }
        if (errno != ENOSYS && errno != EPERM) {
            return errno;
        }
        atomic_store_explicit(&use_pipe, 1, memory_order_relaxed);
    }
    return write ? pipe_copy(foreign, local, len) : pipe_copy(local, foreign, len);
}

void safe_memory_use_pipe(int on) {
    atomic_store_explicit(&use_pipe, on, memory_order_relaxed);
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
