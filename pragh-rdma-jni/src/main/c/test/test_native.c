/*
 * C-level checks of what keeps a bad value from Java from crashing the JVM: the handle table (forged, stale and
 * wrongly typed handles miss; slots are reused under a new generation) and safe memory access (unmapped and
 * read-only addresses report EFAULT instead of faulting). Run by `make check`; exits non-zero on the first failure.
 */
#include "../pragh_native.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int checks;

#define CHECK(cond, ...) do { \
    checks++; \
    if (!(cond)) { fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
                   fputc('\n', stderr); exit(1); } } while (0)

static void handles_are_typed_and_generation_checked(void) {
    int object_a = 1, object_b = 2;
    int before = handle_live_count();
    jlong a = handle_add(H_QP, &object_a);
    CHECK(a > 0, "a new handle is positive, got %lld", (long long) a);
    CHECK(handle_get(a, H_QP) == &object_a, "a live handle resolves to its object");
    CHECK(handle_get(a, H_CQ) == NULL, "a queue pair handle is not a completion queue handle");
    CHECK(handle_get(0, H_QP) == NULL, "0 is never a handle");
    CHECK(handle_get(-a, H_QP) == NULL, "negative values are never handles");
    CHECK(handle_get(a + 1, H_QP) == NULL, "a neighbouring slot that was never used is not a handle");
    CHECK(handle_get(a ^ (1LL << 40), H_QP) == NULL, "a handle with a forged generation misses");
    CHECK(handle_find(H_QP, &object_a) == a, "an object's handle can be found by its pointer");
    CHECK(handle_live_count() == before + 1, "one more live handle");

    CHECK(handle_remove(a, H_CQ) == NULL, "removing under the wrong type does nothing");
    CHECK(handle_get(a, H_QP) == &object_a, "and the handle stays live");
    CHECK(handle_remove(a, H_QP) == &object_a, "removing returns the object");
    CHECK(handle_get(a, H_QP) == NULL, "a removed handle is stale");
    CHECK(handle_remove(a, H_QP) == NULL, "removing twice does nothing the second time");
    CHECK(handle_live_count() == before, "no live handle left behind");

    jlong b = handle_add(H_QP, &object_b);
    CHECK((uint32_t) b == (uint32_t) a, "the freed slot is reused");
    CHECK(b != a, "under a new generation");
    CHECK(handle_get(a, H_QP) == NULL, "so the old handle still misses");
    CHECK(handle_get(b, H_QP) == &object_b, "and the new one resolves");
    handle_remove(b, H_QP);
}

static void aux_data_follows_its_handle(void) {
    int object = 3;
    jlong h = handle_add(H_CM_ID, &object);
    char *data = malloc(4);
    memcpy(data, "abc", 4);
    CHECK(handle_set_aux(h, H_CM_ID, data, 4) == 0, "private data attaches to a live id");
    size_t len = 0;
    char *copy = handle_aux(h, H_CM_ID, &len);
    CHECK(copy && len == 4 && strcmp(copy, "abc") == 0, "and comes back as a copy");
    free(copy);
    CHECK(handle_set_aux(h, H_QP, NULL, 0) != 0, "not under another type");
    handle_remove(h, H_CM_ID); /* frees the data: run under valgrind/ASan to see no leak */
    CHECK(handle_aux(h, H_CM_ID, &len) == NULL && len == 0, "a stale handle has no data");
}

static void safe_memory_reports_bad_addresses(void) {
    long value = 42, out = 0;
    CHECK(safe_read(&out, (jlong) (uintptr_t) &value, sizeof value) == 0 && out == 42, "readable memory is read");
    CHECK(safe_read(&out, 0, sizeof out) == EFAULT, "address 0 is refused");
    CHECK(safe_read(&out, 16, sizeof out) == EFAULT, "a low unmapped address reports EFAULT");

    long page = sysconf(_SC_PAGESIZE);
    char *mapping = mmap(NULL, (size_t) page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(mapping != MAP_FAILED, "mmap for the test");
    munmap(mapping + page, (size_t) page); /* the second page is now a hole */
    char buf[64];
    CHECK(safe_read(buf, (jlong) (uintptr_t) (mapping + page - 32), sizeof buf) == EFAULT,
          "a range running into unmapped memory is refused as a whole");
    CHECK(safe_write((jlong) (uintptr_t) (mapping + page - 32), buf, 32) == 0, "the mapped part is writable");
    mprotect(mapping, (size_t) page, PROT_READ);
    CHECK(safe_write((jlong) (uintptr_t) mapping, buf, 8) == EFAULT, "read-only memory is not writable");
    CHECK(safe_read(buf, (jlong) (uintptr_t) mapping, 8) == 0, "but still readable");
    munmap(mapping, (size_t) page);
    CHECK(safe_write((jlong) (uintptr_t) &out, &value, 0) == 0, "an empty copy always succeeds");
}

int main(void) {
    handles_are_typed_and_generation_checked();
    aux_data_follows_its_handle();
    safe_memory_reports_bad_addresses();
    safe_memory_use_pipe(1); /* the fallback for sandboxes that filter process_vm_readv/writev */
    safe_memory_reports_bad_addresses();
    char big_src[20000], big_dst[20000];
    for (size_t i = 0; i < sizeof big_src; i++) {
        big_src[i] = (char) (i * 7);
    }
    CHECK(safe_read(big_dst, (jlong) (uintptr_t) big_src, sizeof big_src) == 0
          && memcmp(big_src, big_dst, sizeof big_src) == 0, "the pipe fallback copies more than a pipe holds");
    safe_memory_use_pipe(0);
    printf("native checks passed: %d\n", checks);
    return 0;
}
