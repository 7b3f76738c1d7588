/*
 * Pragh's native verbs library: shared declarations.
 *
 * One shared object (libdisni.so) serves two Java callers:
 *   - DiSNI 2.1's com.ibm.disni.verbs.impl.NativeDispatcher (disni_cm.c, disni_verbs.c), and
 *   - Pragh's io.pragh.rdma.jni.PraghVerbs (pragh_verbs.c): batched one-sided READ / WRITE / CAS built natively,
 *     registration with remote atomic access, struct layouts, device enumeration.
 *
 * Every object handed to Java is a handle from handles.c, never a raw pointer, so that a stale, forged or
 * wrongly typed value from Java is refused with an exception instead of being dereferenced. Every Java-supplied
 * address that C must read or write goes through safe_memory.c, which uses the kernel to copy and reports EFAULT
 * rather than faulting.
 */
#ifndef PRAGH_NATIVE_H
#define PRAGH_NATIVE_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* The JNI interface version DiSNI 2.1's Java side requires (NativeDispatcher.JVERBS_VERSION). */
#define PRAGH_DISNI_JNI_VERSION 32
/* Version of Pragh's own entry points; PraghVerbs.EXPECTED_NATIVE_VERSION must equal it. */
#define PRAGH_NATIVE_VERSION 1

/* ---- handles.c: typed, generation-checked handles ---- */
typedef enum {
    H_FREE = 0,
    H_EVENT_CHANNEL = 1,
    H_CM_ID = 2,
    H_QP = 3,
    H_CONTEXT = 4,
    H_PD = 5,
    H_COMP_CHANNEL = 6,
    H_CQ = 7,
    H_MR = 8,
    H_BUFFER = 9
} handle_type;

/* Registers ptr under a new handle (> 0); returns 0 when the table is full. */
jlong handle_add(handle_type type, void *ptr);
/* The object behind a handle of the given type, or NULL when the handle is unknown, stale or of another type. */
void *handle_get(jlong handle, handle_type type);
/* Forgets a handle; returns its object, or NULL when it was not a live handle of that type. */
void *handle_remove(jlong handle, handle_type type);
/* The live handle of an object already registered under type, or 0. Linear: for setup paths only. */
jlong handle_find(handle_type type, const void *ptr);
/* The handle of ptr under type, registering it first if needed (objects owned by librdmacm, e.g. contexts). */
jlong handle_find_or_add(handle_type type, void *ptr);
/* Side data attached to a live handle (the private data of a connect request); freed with free() on remove. */
int handle_set_aux(jlong handle, handle_type type, void *aux, size_t aux_len);
void *handle_aux(jlong handle, handle_type type, size_t *aux_len);
const char *handle_type_name(handle_type type);
/* Live handles of every type; tests use it to prove that failed calls leak nothing. */
int handle_live_count(void);

/*
 * Registers a freshly created object and returns its handle; when the table is full, runs `destroy` (an expression
 * that frees the object), raises an exception through `thrower` (throw_io or throw_verbs) and yields 0.
 */
#define PUBLISH(env, thrower, type, ptr, destroy) \
    ({ jlong h__ = handle_add((type), (ptr)); \
       if (!h__) { destroy; thrower((env), ENOMEM, "native handle table is full"); } \
       h__; })

/* ---- errors.c: Java exceptions raised from C ---- */
/* IllegalArgumentException: a bad handle, buffer or argument from Java. */
void throw_illegal_argument(JNIEnv *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* java.io.IOException: a verbs or rdma_cm call failed (DiSNI's entry points declare IOException). */
void throw_io(JNIEnv *env, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* io.pragh.rdma.jni.VerbsException(message, errno): a verbs call failed in one of Pragh's entry points. */
void throw_verbs(JNIEnv *env, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Throws IllegalArgumentException naming the handle and type; returns NULL for `return bad_handle(...)` use. */
void *bad_handle(JNIEnv *env, const char *what, jlong handle, handle_type type);

/* Resolves a handle or throws; use as `T *x = REQUIRE(env, "qp", h, H_QP); if (!x) return ...;` */
#define REQUIRE(env, what, h, type) \
    ({ void *p__ = handle_get((h), (type)); if (!p__) bad_handle((env), (what), (h), (type)); p__; })

/* ---- safe_memory.c: reading and writing Java-supplied addresses without faulting ---- */
/* Copies len bytes from the foreign address src into dst; 0 on success, else errno (EFAULT). */
int safe_read(void *dst, jlong src, size_t len);
/* Copies len bytes from src to the foreign address dst; 0 on success, else errno. */
int safe_write(jlong dst, const void *src, size_t len);
/* Forces (1) or releases (0) the pipe fallback used where process_vm_readv/writev are filtered; for tests. */
void safe_memory_use_pipe(int on);
/* Like safe_read/safe_write but throw IllegalArgumentException naming what and return nonzero on failure. */
int read_java_memory(JNIEnv *env, const char *what, void *dst, jlong src, size_t len);
int write_java_memory(JNIEnv *env, const char *what, jlong dst, const void *src, size_t len);

/* ---- disni_cm.c ---- */
/* The status of the last rdma_cm event this thread received; DiSNI's event has no room for it. */
extern __thread int pragh_last_cm_event_status;
/* poll(2) for input on fd, retrying on EINTR: > 0 readable, 0 timed out, < 0 failed (errno set). Negative waits. */
int wait_readable(int fd, int timeout_ms);

/* ---- pragh_verbs.c: helpers shared with the DiSNI entry points ---- */
/*
 * Polls up to max completions in rounds of at most 32, handing each round to sink(context, wcs, count, index of the
 * first). Returns the number polled, or -1 when ibv_poll_cq failed (after the rounds before it were handed over).
 */
int poll_in_rounds(struct ibv_cq *cq, int max, void (*sink)(void *context, const struct ibv_wc *wc, int n, int at),
                   void *context);
/* Fills conn with the device's read/atomic depths so RDMA READ and CAS work on the connection. */
void conn_param_for(struct rdma_cm_id *id, struct rdma_conn_param *conn);
/* Highest usable scatter/gather entries per work request on this device (at most `wanted`). */
int device_max_sge(struct ibv_context *ctx, int wanted);

#endif
