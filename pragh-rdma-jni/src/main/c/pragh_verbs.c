/*
 * Pragh's own entry points (io.pragh.rdma.jni.PraghVerbs): what DiSNI 2.1 lacks.
 *
 * - Work requests built natively from 64-byte descriptors in a buffer this library allocated (so C knows its
 *   bounds), including RDMA compare-and-swap, whose atomic fields DiSNI's Java side never fills; consecutive
 *   descriptors for one QP are posted as one chain, so a batch costs one doorbell per peer.
 * - Completions reaped into a compact 32-byte form, into a buffer of ours as well.
 * - Memory registration that includes IBV_ACCESS_REMOTE_ATOMIC, returning both keys.
 * - Struct sizes, field offsets and constants, so tests compare the Java flyweights against the compiler's view.
 * - Device enumeration and description for `./pragh doctor`, and a connect request's private data.
 */
#include "pragh_native.h"
#include "io_pragh_rdma_jni_PraghVerbs.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JNI_NAME(name) Java_io_pragh_rdma_jni_PraghVerbs_##name

/* One work request as Java writes it (io.pragh.rdma.jni.WorkRequest mirrors these offsets). */
typedef struct {
    uint64_t wr_id;       /* 0: returned in the completion */
    int64_t qp;           /* 8: queue pair handle */
    uint64_t local_addr;  /* 16: registered local memory: READ destination, WRITE/SEND source, CAS result word */
    uint64_t remote_addr; /* 24: READ / WRITE / CAS target */
    uint64_t compare;     /* 32: CAS expected value */
    uint64_t swap;        /* 40: CAS new value */
    uint32_t length;      /* 48: bytes; 8 for CAS */
    uint32_t lkey;        /* 52 */
    uint32_t rkey;        /* 56 */
    uint8_t opcode;       /* 60: PW_* */
    uint8_t flags;        /* 61: PF_* */
    uint16_t reserved;    /* 62 */
} pragh_work;

/* One completion as Java reads it (io.pragh.rdma.jni.Completion mirrors these offsets). */
typedef struct {
    uint64_t wr_id;      /* 0 */
    uint32_t status;     /* 8: enum ibv_wc_status, 0 = success */
    uint32_t opcode;     /* 12: enum ibv_wc_opcode */
    uint32_t byte_len;   /* 16: received bytes, for receives */
    uint32_t vendor_err; /* 20 */
    uint32_t qp_num;     /* 24 */
    uint32_t reserved;   /* 28 */
} pragh_completion;

_Static_assert(sizeof(pragh_work) == 64, "work descriptor is one cache line");
_Static_assert(sizeof(pragh_completion) == 32, "completion is half a cache line");

enum { PW_READ = 1, PW_WRITE = 2, PW_CAS = 3, PW_SEND = 4, PW_RECV = 5 };
enum { PF_SIGNALLED = 1, PF_FENCE = 2 };

/* Descriptors posted per ibv_post_send call at most; bounds the stack this library uses. */
#define CHAIN 64

typedef struct {
    void *raw;
    void *address;
    int32_t size;
} native_buffer;

static __thread int last_post_errno;

static native_buffer *require_buffer(JNIEnv *env, jlong h, const char *what) {
    return REQUIRE(env, what, h, H_BUFFER);
}

/* ---- library ---- */

JNIEXPORT jint JNICALL JNI_NAME(nativeVersion)(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return PRAGH_NATIVE_VERSION;
}

JNIEXPORT jstring JNICALL JNI_NAME(libraryPath)(JNIEnv *env, jclass cls) {
    (void) cls;
    Dl_info info;
    if (!dladdr((void *) &Java_io_pragh_rdma_jni_PraghVerbs_libraryPath, &info) || !info.dli_fname) {
        return NULL;
    }
    return (*env)->NewStringUTF(env, info.dli_fname);
}

JNIEXPORT jboolean JNICALL JNI_NAME(exportsSymbol)(JNIEnv *env, jclass cls, jstring name) {
    (void) cls;
    if (!name) {
        throw_illegal_argument(env, "symbol name is null");
        return JNI_FALSE;
    }
    Dl_info info;
    if (!dladdr((void *) &Java_io_pragh_rdma_jni_PraghVerbs_exportsSymbol, &info) || !info.dli_fname) {
        return JNI_FALSE;
    }
    void *self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!self) {
        return JNI_FALSE;
    }
    const char *symbol = (*env)->GetStringUTFChars(env, name, NULL);
    if (!symbol) {
        dlclose(self);
        return JNI_FALSE;
    }
    void *found = dlsym(self, symbol);
    (*env)->ReleaseStringUTFChars(env, name, symbol);
    dlclose(self);
    return found ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jint JNICALL JNI_NAME(liveHandles)(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return handle_live_count();
}

/* ---- layout ---- */

#define FIELD(type, field, name) {name, (int) offsetof(type, field)}
#define SIZE(type, name) {name, (int) sizeof(type)}
#define CONST(value) {#value, (int) (value)}

static const struct {
    const char *name;
    int value;
} layout[] = {
    SIZE(pragh_work, "pragh_work.size"),
    FIELD(pragh_work, wr_id, "pragh_work.wr_id"),
    FIELD(pragh_work, qp, "pragh_work.qp"),
    FIELD(pragh_work, local_addr, "pragh_work.local_addr"),
    FIELD(pragh_work, remote_addr, "pragh_work.remote_addr"),
    FIELD(pragh_work, compare, "pragh_work.compare"),
    FIELD(pragh_work, swap, "pragh_work.swap"),
    FIELD(pragh_work, length, "pragh_work.length"),
    FIELD(pragh_work, lkey, "pragh_work.lkey"),
    FIELD(pragh_work, rkey, "pragh_work.rkey"),
    FIELD(pragh_work, opcode, "pragh_work.opcode"),
    FIELD(pragh_work, flags, "pragh_work.flags"),
    SIZE(pragh_completion, "pragh_completion.size"),
    FIELD(pragh_completion, wr_id, "pragh_completion.wr_id"),
    FIELD(pragh_completion, status, "pragh_completion.status"),
    FIELD(pragh_completion, opcode, "pragh_completion.opcode"),
    FIELD(pragh_completion, byte_len, "pragh_completion.byte_len"),
    FIELD(pragh_completion, vendor_err, "pragh_completion.vendor_err"),
    FIELD(pragh_completion, qp_num, "pragh_completion.qp_num"),
    SIZE(struct ibv_send_wr, "ibv_send_wr.size"),
    FIELD(struct ibv_send_wr, wr_id, "ibv_send_wr.wr_id"),
    FIELD(struct ibv_send_wr, next, "ibv_send_wr.next"),
    FIELD(struct ibv_send_wr, sg_list, "ibv_send_wr.sg_list"),
    FIELD(struct ibv_send_wr, num_sge, "ibv_send_wr.num_sge"),
    FIELD(struct ibv_send_wr, opcode, "ibv_send_wr.opcode"),
    FIELD(struct ibv_send_wr, send_flags, "ibv_send_wr.send_flags"),
    FIELD(struct ibv_send_wr, imm_data, "ibv_send_wr.imm_data"),
    FIELD(struct ibv_send_wr, wr.rdma.remote_addr, "ibv_send_wr.wr.rdma.remote_addr"),
    FIELD(struct ibv_send_wr, wr.rdma.rkey, "ibv_send_wr.wr.rdma.rkey"),
    FIELD(struct ibv_send_wr, wr.atomic.remote_addr, "ibv_send_wr.wr.atomic.remote_addr"),
    FIELD(struct ibv_send_wr, wr.atomic.compare_add, "ibv_send_wr.wr.atomic.compare_add"),
    FIELD(struct ibv_send_wr, wr.atomic.swap, "ibv_send_wr.wr.atomic.swap"),
    FIELD(struct ibv_send_wr, wr.atomic.rkey, "ibv_send_wr.wr.atomic.rkey"),
    SIZE(struct ibv_sge, "ibv_sge.size"),
    FIELD(struct ibv_sge, addr, "ibv_sge.addr"),
    FIELD(struct ibv_sge, length, "ibv_sge.length"),
    FIELD(struct ibv_sge, lkey, "ibv_sge.lkey"),
    SIZE(struct ibv_recv_wr, "ibv_recv_wr.size"),
    FIELD(struct ibv_recv_wr, wr_id, "ibv_recv_wr.wr_id"),
    FIELD(struct ibv_recv_wr, next, "ibv_recv_wr.next"),
    FIELD(struct ibv_recv_wr, sg_list, "ibv_recv_wr.sg_list"),
    FIELD(struct ibv_recv_wr, num_sge, "ibv_recv_wr.num_sge"),
    SIZE(struct ibv_wc, "ibv_wc.size"),
    FIELD(struct ibv_wc, wr_id, "ibv_wc.wr_id"),
    FIELD(struct ibv_wc, status, "ibv_wc.status"),
    FIELD(struct ibv_wc, opcode, "ibv_wc.opcode"),
    FIELD(struct ibv_wc, vendor_err, "ibv_wc.vendor_err"),
    FIELD(struct ibv_wc, byte_len, "ibv_wc.byte_len"),
    FIELD(struct ibv_wc, imm_data, "ibv_wc.imm_data"),
    FIELD(struct ibv_wc, qp_num, "ibv_wc.qp_num"),
    FIELD(struct ibv_wc, src_qp, "ibv_wc.src_qp"),
    FIELD(struct ibv_wc, wc_flags, "ibv_wc.wc_flags"),
    FIELD(struct ibv_wc, pkey_index, "ibv_wc.pkey_index"),
    FIELD(struct ibv_wc, slid, "ibv_wc.slid"),
    FIELD(struct ibv_wc, sl, "ibv_wc.sl"),
    FIELD(struct ibv_wc, dlid_path_bits, "ibv_wc.dlid_path_bits"),
    SIZE(struct sockaddr_in, "sockaddr_in.size"),
    FIELD(struct sockaddr_in, sin_family, "sockaddr_in.sin_family"),
    FIELD(struct sockaddr_in, sin_port, "sockaddr_in.sin_port"),
    FIELD(struct sockaddr_in, sin_addr, "sockaddr_in.sin_addr"),
    SIZE(struct sockaddr_in6, "sockaddr_in6.size"),
    CONST(PW_READ), CONST(PW_WRITE), CONST(PW_CAS), CONST(PW_SEND), CONST(PW_RECV),
    CONST(PF_SIGNALLED), CONST(PF_FENCE),
    CONST(IBV_WR_RDMA_WRITE), CONST(IBV_WR_RDMA_READ), CONST(IBV_WR_ATOMIC_CMP_AND_SWP), CONST(IBV_WR_SEND),
    CONST(IBV_SEND_SIGNALED), CONST(IBV_SEND_FENCE),
    CONST(IBV_ACCESS_LOCAL_WRITE), CONST(IBV_ACCESS_REMOTE_WRITE), CONST(IBV_ACCESS_REMOTE_READ),
    CONST(IBV_ACCESS_REMOTE_ATOMIC),
    CONST(IBV_WC_SUCCESS), CONST(IBV_WC_WR_FLUSH_ERR), CONST(IBV_WC_SEND), CONST(IBV_WC_RDMA_WRITE),
    CONST(IBV_WC_RDMA_READ), CONST(IBV_WC_COMP_SWAP), CONST(IBV_WC_RECV),
    CONST(IBV_ATOMIC_NONE), CONST(IBV_ATOMIC_HCA), CONST(IBV_ATOMIC_GLOB),
    CONST(IBV_QPT_RC), CONST(RDMA_PS_TCP),
    CONST(RDMA_CM_EVENT_ADDR_RESOLVED), CONST(RDMA_CM_EVENT_ROUTE_RESOLVED), CONST(RDMA_CM_EVENT_CONNECT_REQUEST),
    CONST(RDMA_CM_EVENT_ESTABLISHED), CONST(RDMA_CM_EVENT_DISCONNECTED), CONST(RDMA_CM_EVENT_TIMEWAIT_EXIT),
};

#define LAYOUT_ENTRIES ((int) (sizeof layout / sizeof layout[0]))

JNIEXPORT jobjectArray JNICALL JNI_NAME(layoutNames)(JNIEnv *env, jclass cls) {
    (void) cls;
    jclass string = (*env)->FindClass(env, "java/lang/String");
    jobjectArray names = string ? (*env)->NewObjectArray(env, LAYOUT_ENTRIES, string, NULL) : NULL;
    for (int i = 0; names && i < LAYOUT_ENTRIES; i++) {
        jstring name = (*env)->NewStringUTF(env, layout[i].name);
        if (!name) {
            return NULL;
        }
        (*env)->SetObjectArrayElement(env, names, i, name);
        (*env)->DeleteLocalRef(env, name);
    }
    return names;
}

JNIEXPORT jintArray JNICALL JNI_NAME(layoutValues)(JNIEnv *env, jclass cls) {
    (void) cls;
    jint values[LAYOUT_ENTRIES];
    for (int i = 0; i < LAYOUT_ENTRIES; i++) {
        values[i] = layout[i].value;
    }
    jintArray out = (*env)->NewIntArray(env, LAYOUT_ENTRIES);
    if (out) {
        (*env)->SetIntArrayRegion(env, out, 0, LAYOUT_ENTRIES, values);
    }
    return out;
}

/* ---- devices ---- */

JNIEXPORT jobjectArray JNICALL JNI_NAME(deviceNames)(JNIEnv *env, jclass cls) {
    (void) cls;
    int count = 0;
    errno = 0;
    struct ibv_device **list = ibv_get_device_list(&count);
    if (!list) {
        throw_verbs(env, errno ? errno : ENODEV, "cannot list RDMA devices (ibv_get_device_list)");
        return NULL;
    }
    jclass string = (*env)->FindClass(env, "java/lang/String");
    jobjectArray names = string ? (*env)->NewObjectArray(env, count, string, NULL) : NULL;
    for (int i = 0; names && i < count; i++) {
        jstring name = (*env)->NewStringUTF(env, ibv_get_device_name(list[i]));
        if (!name) {
            names = NULL;
            break;
        }
        (*env)->SetObjectArrayElement(env, names, i, name);
        (*env)->DeleteLocalRef(env, name);
    }
    ibv_free_device_list(list);
    return names;
}

/* Opens the named device; the caller closes it. Throws VerbsException and returns NULL when it cannot. */
static struct ibv_context *open_named(JNIEnv *env, jstring name) {
    if (!name) {
        throw_illegal_argument(env, "device name is null");
        return NULL;
    }
    const char *wanted = (*env)->GetStringUTFChars(env, name, NULL);
    if (!wanted) {
        return NULL;
    }
    int count = 0;
    struct ibv_device **list = ibv_get_device_list(&count);
    struct ibv_context *ctx = NULL;
    int found = 0;
    for (int i = 0; list && i < count; i++) {
        if (strcmp(ibv_get_device_name(list[i]), wanted) == 0) {
            found = 1;
            ctx = ibv_open_device(list[i]);
            if (!ctx) {
                throw_verbs(env, errno, "cannot open RDMA device %s", wanted);
            }
            break;
        }
    }
    if (!list) {
        throw_verbs(env, errno ? errno : ENODEV, "cannot list RDMA devices (ibv_get_device_list)");
    } else if (!found) {
        throw_verbs(env, ENODEV, "no RDMA device named %s", wanted);
    }
    if (list) {
        ibv_free_device_list(list);
    }
    (*env)->ReleaseStringUTFChars(env, name, wanted);
    return ctx;
}

static const char *atomic_name(enum ibv_atomic_cap cap) {
    switch (cap) {
        case IBV_ATOMIC_HCA: return "atomic within the adapter (IBV_ATOMIC_HCA)";
        case IBV_ATOMIC_GLOB: return "atomic with the CPU (IBV_ATOMIC_GLOB)";
        default: return "no remote atomics (IBV_ATOMIC_NONE)";
    }
}

JNIEXPORT jstring JNICALL JNI_NAME(describeDevice)(JNIEnv *env, jclass cls, jstring name) {
    (void) cls;
    struct ibv_context *ctx = open_named(env, name);
    if (!ctx) {
        return NULL;
    }
    struct ibv_device_attr attr;
    char text[1024];
    if (ibv_query_device(ctx, &attr)) {
        int err = errno;
        ibv_close_device(ctx);
        throw_verbs(env, err, "ibv_query_device failed");
        return NULL;
    }
    int n = snprintf(text, sizeof text, "firmware %s, %d port(s), max %d QPs, CAS %s", attr.fw_ver,
        attr.phys_port_cnt, attr.max_qp, atomic_name(attr.atomic_cap));
    for (uint8_t port = 1; port <= attr.phys_port_cnt && n > 0 && (size_t) n < sizeof text; port++) {
        struct ibv_port_attr pattr;
        if (ibv_query_port(ctx, port, &pattr) == 0) {
            n += snprintf(text + n, sizeof text - (size_t) n, "; port %u %s, %s, mtu %d", port,
                ibv_port_state_str(pattr.state),
                pattr.link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand",
                128 << pattr.active_mtu);
        }
    }
    ibv_close_device(ctx);
    return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jint JNICALL JNI_NAME(activePorts)(JNIEnv *env, jclass cls, jstring name) {
    (void) cls;
    struct ibv_context *ctx = open_named(env, name);
    if (!ctx) {
        return 0;
    }
    struct ibv_device_attr attr;
    int active = 0;
    if (ibv_query_device(ctx, &attr) == 0) {
        for (uint8_t port = 1; port <= attr.phys_port_cnt; port++) {
            struct ibv_port_attr pattr;
            if (ibv_query_port(ctx, port, &pattr) == 0 && pattr.state == IBV_PORT_ACTIVE) {
                active++;
            }
        }
    }
    ibv_close_device(ctx);
    return active;
}

JNIEXPORT jint JNICALL JNI_NAME(atomicCapability)(JNIEnv *env, jclass cls, jlong ctx_h) {
    (void) cls;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    if (!ctx) {
        return -1;
    }
    struct ibv_device_attr attr;
    if (ibv_query_device(ctx, &attr)) {
        throw_verbs(env, errno, "ibv_query_device failed");
        return -1;
    }
    return (jint) attr.atomic_cap;
}

void conn_param_for(struct rdma_cm_id *id, struct rdma_conn_param *conn) {
    memset(conn, 0, sizeof *conn);
    struct ibv_device_attr attr;
    /* READ and atomics need outstanding-read credits on both sides; 0 (the struct default) forbids them. */
    uint8_t depth = 1;
    uint8_t resources = 1;
    if (id->verbs && ibv_query_device(id->verbs, &attr) == 0) {
        depth = (uint8_t) (attr.max_qp_init_rd_atom < 16 ? attr.max_qp_init_rd_atom : 16);
        resources = (uint8_t) (attr.max_qp_rd_atom < 16 ? attr.max_qp_rd_atom : 16);
    }
    conn->initiator_depth = depth;
    conn->responder_resources = resources;
    conn->retry_count = 7;
    conn->rnr_retry_count = 7; /* 7 = retry forever: a receiver briefly out of buffers is not an error */
}

int device_max_sge(struct ibv_context *ctx, int wanted) {
    struct ibv_device_attr attr;
    if (ctx && ibv_query_device(ctx, &attr) == 0 && attr.max_sge < wanted) {
        return attr.max_sge > 0 ? attr.max_sge : 1;
    }
    return wanted;
}

/* ---- memory ---- */

JNIEXPORT jlong JNICALL JNI_NAME(registerMemory)(JNIEnv *env, jclass cls, jlong pd_h, jlong address, jlong length,
                                                 jint access) {
    (void) cls;
    struct ibv_pd *pd = REQUIRE(env, "protection domain", pd_h, H_PD);
    if (!pd) {
        return 0;
    }
    if (address == 0 || length <= 0) {
        throw_illegal_argument(env, "cannot register %lld bytes at 0x%llx: address and length must be positive",
            (long long) length, (unsigned long long) address);
        return 0;
    }
    struct ibv_mr *mr = ibv_reg_mr(pd, (void *) (uintptr_t) address, (size_t) length, access);
    if (!mr) {
        throw_verbs(env, errno, "ibv_reg_mr of %lld bytes at 0x%llx (access 0x%x) failed", (long long) length,
            (unsigned long long) address, access);
        return 0;
    }
    return PUBLISH(env, throw_verbs, H_MR, mr, ibv_dereg_mr(mr));
}

JNIEXPORT jlong JNICALL JNI_NAME(memoryKeys)(JNIEnv *env, jclass cls, jlong mr_h) {
    (void) cls;
    struct ibv_mr *mr = REQUIRE(env, "memory region", mr_h, H_MR);
    return mr ? (jlong) (((uint64_t) mr->rkey << 32) | mr->lkey) : 0;
}

JNIEXPORT void JNICALL JNI_NAME(deregisterMemory)(JNIEnv *env, jclass cls, jlong mr_h) {
    (void) cls;
    struct ibv_mr *mr = REQUIRE(env, "memory region", mr_h, H_MR);
    if (!mr) {
        return;
    }
    int rc = ibv_dereg_mr(mr);
    if (rc) {
        throw_verbs(env, rc, "ibv_dereg_mr failed");
        return;
    }
    handle_remove(mr_h, H_MR);
}

JNIEXPORT jlong JNICALL JNI_NAME(allocateBuffer)(JNIEnv *env, jclass cls, jint bytes) {
    (void) cls;
    if (bytes <= 0) {
        throw_illegal_argument(env, "a native buffer needs a positive size, got %d", bytes);
        return 0;
    }
    native_buffer *b = calloc(1, sizeof *b);
    void *raw = NULL;
    if (!b || posix_memalign(&raw, 64, (size_t) bytes)) {
        free(b);
        throw_verbs(env, ENOMEM, "cannot allocate a native buffer of %d bytes", bytes);
        return 0;
    }
    memset(raw, 0, (size_t) bytes);
    b->raw = raw;
    b->address = raw;
    b->size = bytes;
    return PUBLISH(env, throw_verbs, H_BUFFER, b, (free(raw), free(b)));
}

JNIEXPORT jlong JNICALL JNI_NAME(bufferAddress)(JNIEnv *env, jclass cls, jlong h) {
    (void) cls;
    native_buffer *b = require_buffer(env, h, "native buffer");
    return b ? (jlong) (uintptr_t) b->address : 0;
}

JNIEXPORT jint JNICALL JNI_NAME(bufferSize)(JNIEnv *env, jclass cls, jlong h) {
    (void) cls;
    native_buffer *b = require_buffer(env, h, "native buffer");
    return b ? b->size : 0;
}

JNIEXPORT void JNICALL JNI_NAME(freeBuffer)(JNIEnv *env, jclass cls, jlong h) {
    (void) cls;
    native_buffer *b = handle_remove(h, H_BUFFER);
    if (!b) {
        bad_handle(env, "native buffer", h, H_BUFFER);
        return;
    }
    free(b->raw);
    free(b);
}

/* ---- work ---- */

/* Checks that [first, first + count) entries of `entry` bytes lie inside the buffer; returns its base or NULL. */
static char *entries(JNIEnv *env, jlong h, jint first, jint count, size_t entry, const char *what) {
    native_buffer *b = require_buffer(env, h, what);
    if (!b) {
        return NULL;
    }
    if (first < 0 || count < 0 || ((size_t) first + (size_t) count) * entry > (size_t) b->size) {
        throw_illegal_argument(env, "%s entries %d..%d do not fit its %d bytes (%zu bytes each)", what, first,
            first + count - 1, b->size, entry);
        return NULL;
    }
    return (char *) b->address + (size_t) first * entry;
}

/* Validates every descriptor before posting any, so a bad one refuses the whole call and posts nothing. */
static int validate_work(JNIEnv *env, const pragh_work *w, jint count, int receive) {
    jlong last_qp = 0;
    for (jint i = 0; i < count; i++) {
        const pragh_work *d = &w[i];
        if (d->qp != last_qp) {
            if (!handle_get(d->qp, H_QP)) {
                throw_illegal_argument(env, "work request %d names queue pair handle %lld, which is not live", i,
                    (long long) d->qp);
                return -1;
            }
            last_qp = d->qp;
        }
        if (receive ? d->opcode != PW_RECV : (d->opcode < PW_READ || d->opcode > PW_SEND)) {
            throw_illegal_argument(env, "work request %d has opcode %u, not one of %s", i, d->opcode,
                receive ? "RECV (5)" : "READ (1), WRITE (2), CAS (3), SEND (4)");
            return -1;
        }
        if (d->opcode == PW_CAS && (d->length != 8 || (d->local_addr & 7) || (d->remote_addr & 7))) {
            throw_illegal_argument(env, "work request %d is a CAS of %u bytes at local 0x%llx / remote 0x%llx; a "
                "CAS moves 8 bytes between 8-byte aligned addresses", i, d->length,
                (unsigned long long) d->local_addr, (unsigned long long) d->remote_addr);
            return -1;
        }
        if (d->length > 0 && d->local_addr == 0) {
            throw_illegal_argument(env, "work request %d moves %u bytes but has no local address", i, d->length);
            return -1;
        }
    }
    return 0;
}

static void to_send_wr(const pragh_work *d, struct ibv_send_wr *wr, struct ibv_sge *sge) {
    memset(wr, 0, sizeof *wr);
    sge->addr = d->local_addr;
    sge->length = d->length;
    sge->lkey = d->lkey;
    wr->wr_id = d->wr_id;
    wr->sg_list = sge;
    wr->num_sge = d->length > 0 ? 1 : 0;
    wr->send_flags = ((d->flags & PF_SIGNALLED) ? IBV_SEND_SIGNALED : 0) | ((d->flags & PF_FENCE) ? IBV_SEND_FENCE : 0);
    switch (d->opcode) {
        case PW_READ:
            wr->opcode = IBV_WR_RDMA_READ;
            wr->wr.rdma.remote_addr = d->remote_addr;
            wr->wr.rdma.rkey = d->rkey;
            break;
        case PW_WRITE:
            wr->opcode = IBV_WR_RDMA_WRITE;
            wr->wr.rdma.remote_addr = d->remote_addr;
            wr->wr.rdma.rkey = d->rkey;
            break;
        case PW_CAS:
            wr->opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
            wr->wr.atomic.remote_addr = d->remote_addr;
            wr->wr.atomic.rkey = d->rkey;
            wr->wr.atomic.compare_add = d->compare;
            wr->wr.atomic.swap = d->swap;
            break;
        default:
            wr->opcode = IBV_WR_SEND;
            break;
    }
}

/* Turns a run of descriptors for one QP into a chain and posts it; returns 0 or the provider's error and, in *bad,
 * how many of the run went out before the refused one. */
static int post_run(const pragh_work *w, int n, int receive, int *bad_index) {
    struct ibv_sge sges[CHAIN];
    struct ibv_qp *qp = handle_get(w[0].qp, H_QP); /* validated, but may have been destroyed since */
    *bad_index = 0;
    if (!qp) {
        return EINVAL;
    }
    if (receive) {
        struct ibv_recv_wr wrs[CHAIN];
        for (int i = 0; i < n; i++) {
            sges[i] = (struct ibv_sge) {.addr = w[i].local_addr, .length = w[i].length, .lkey = w[i].lkey};
            wrs[i] = (struct ibv_recv_wr) {.wr_id = w[i].wr_id, .sg_list = &sges[i], .num_sge = 1,
                                           .next = i + 1 < n ? &wrs[i + 1] : NULL};
        }
        struct ibv_recv_wr *bad = NULL;
        int rc = ibv_post_recv(qp, wrs, &bad);
        *bad_index = rc && bad ? (int) (bad - wrs) : 0;
        return rc;
    }
    struct ibv_send_wr wrs[CHAIN];
    for (int i = 0; i < n; i++) {
        to_send_wr(&w[i], &wrs[i], &sges[i]);
        wrs[i].next = i + 1 < n ? &wrs[i + 1] : NULL;
    }
    struct ibv_send_wr *bad = NULL;
    int rc = ibv_post_send(qp, wrs, &bad);
    *bad_index = rc && bad ? (int) (bad - wrs) : 0;
    return rc;
}

/*
 * Posts descriptors [first, first + count), consecutive ones for the same QP as one chain of at most CHAIN. Returns
 * count when all were posted. When the provider refuses one (a full queue, a QP in error), returns -(posted + 1),
 * where posted is how many went out before it and will complete; lastPostErrno() gives the reason.
 */
static jint post_descriptors(JNIEnv *env, jlong buffer, jint first, jint count, int receive) {
    const pragh_work *w = (const pragh_work *) entries(env, buffer, first, count, sizeof(pragh_work),
        receive ? "receive descriptor buffer" : "work descriptor buffer");
    if (!w || validate_work(env, w, count, receive)) {
        return 0;
    }
    jint posted = 0;
    while (posted < count) {
        int n = 1;
        while (posted + n < count && n < CHAIN && w[posted + n].qp == w[posted].qp) {
            n++;
        }
        int bad = 0;
        int rc = post_run(&w[posted], n, receive, &bad);
        if (rc) {
            last_post_errno = rc;
            return -(posted + bad + 1);
        }
        posted += n;
    }
    return posted;
}

JNIEXPORT jint JNICALL JNI_NAME(postSend)(JNIEnv *env, jclass cls, jlong buffer, jint first, jint count) {
    (void) cls;
    return post_descriptors(env, buffer, first, count, 0);
}

JNIEXPORT jint JNICALL JNI_NAME(postRecv)(JNIEnv *env, jclass cls, jlong buffer, jint first, jint count) {
    (void) cls;
    return post_descriptors(env, buffer, first, count, 1);
}

JNIEXPORT jint JNICALL JNI_NAME(lastPostErrno)(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return last_post_errno;
}

int poll_in_rounds(struct ibv_cq *cq, int max, void (*sink)(void *context, const struct ibv_wc *wc, int n, int at),
                   void *context) {
    struct ibv_wc wc[32];
    int total = 0;
    while (total < max) {
        int want = max - total < 32 ? max - total : 32;
        int got = ibv_poll_cq(cq, want, wc);
        if (got < 0) {
            return total > 0 ? total : -1; /* what was taken off the queue must reach the caller */
        }
        if (got > 0) {
            sink(context, wc, got, total);
        }
        total += got;
        if (got < want) {
            break;
        }
    }
    return total;
}

static void to_completions(void *context, const struct ibv_wc *wc, int n, int at) {
    pragh_completion *out = (pragh_completion *) context + at;
    for (int i = 0; i < n; i++) {
        out[i] = (pragh_completion) {.wr_id = wc[i].wr_id, .status = (uint32_t) wc[i].status,
                                     .opcode = (uint32_t) wc[i].opcode, .byte_len = wc[i].byte_len,
                                     .vendor_err = wc[i].vendor_err, .qp_num = wc[i].qp_num};
    }
}

/* Reaps up to max completions into the completion buffer; returns how many. */
JNIEXPORT jint JNICALL JNI_NAME(pollCompletions)(JNIEnv *env, jclass cls, jlong cq_h, jlong buffer, jint max) {
    (void) cls;
    struct ibv_cq *cq = REQUIRE(env, "completion queue", cq_h, H_CQ);
    if (!cq) {
        return 0;
    }
    pragh_completion *out = (pragh_completion *) entries(env, buffer, 0, max, sizeof(pragh_completion),
                                                         "completion buffer");
    if (!out) {
        return 0;
    }
    int total = poll_in_rounds(cq, max, to_completions, out);
    if (total < 0) {
        throw_verbs(env, EIO, "ibv_poll_cq failed");
        return 0;
    }
    return total;
}

JNIEXPORT jstring JNICALL JNI_NAME(errnoText)(JNIEnv *env, jclass cls, jint err) {
    (void) cls;
    char buf[128];
    return (*env)->NewStringUTF(env, strerror_r(err, buf, sizeof buf));
}

JNIEXPORT jstring JNICALL JNI_NAME(completionStatusText)(JNIEnv *env, jclass cls, jint status) {
    (void) cls;
    return (*env)->NewStringUTF(env, ibv_wc_status_str((enum ibv_wc_status) status));
}

/* The private data that came with a connect request, or null when it carried none. */
JNIEXPORT jbyteArray JNICALL JNI_NAME(connectRequestData)(JNIEnv *env, jclass cls, jlong id_h) {
    (void) cls;
    if (!REQUIRE(env, "rdma_cm id", id_h, H_CM_ID)) {
        return NULL;
    }
    size_t len = 0;
    void *data = handle_aux(id_h, H_CM_ID, &len);
    if (!data) {
        return NULL;
    }
    jbyteArray out = (*env)->NewByteArray(env, (jsize) len);
    if (out) {
        (*env)->SetByteArrayRegion(env, out, 0, (jsize) len, (const jbyte *) data);
    }
    free(data);
    return out;
}

JNIEXPORT jint JNICALL JNI_NAME(lastCmEventStatus)(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return pragh_last_cm_event_status;
}
