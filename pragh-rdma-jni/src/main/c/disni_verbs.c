/*
 * DiSNI 2.1's verbs entry points (NativeDispatcher), over libibverbs: protection domains, completion queues and
 * channels, memory registration, posting and polling, and the sizes DiSNI checks its Java-side layouts against.
 *
 * DiSNI serializes work-request lists into off-heap memory and passes their address. The lists are copied in
 * through safe_memory.c (following `next` and `sg_list` pointers, each checked), then the copies are posted:
 * ibv_post_send/ibv_post_recv consume a request during the call, so posting a copy is equivalent.
 */
#include "pragh_native.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JNI_NAME(name) Java_com_ibm_disni_verbs_impl_NativeDispatcher_##name

/* Bounds on what one DiSNI post may carry; a longer or cyclic list is refused rather than followed forever. */
#define MAX_LIST 4096
#define MAX_SGE 32

JNIEXPORT jlong JNICALL JNI_NAME(_1allocPd)(JNIEnv *env, jobject self, jlong ctx_h) {
    (void) self;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    if (!ctx) {
        return -1;
    }
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    if (!pd) {
        throw_io(env, errno, "ibv_alloc_pd failed");
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_PD, pd, ibv_dealloc_pd(pd));
    if (!h) {
        return -1;
    }
    return h;
}

JNIEXPORT jlong JNICALL JNI_NAME(_1createCompChannel)(JNIEnv *env, jobject self, jlong ctx_h) {
    (void) self;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    if (!ctx) {
        return -1;
    }
    struct ibv_comp_channel *channel = ibv_create_comp_channel(ctx);
    if (!channel) {
        throw_io(env, errno, "ibv_create_comp_channel failed");
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_COMP_CHANNEL, channel, ibv_destroy_comp_channel(channel));
    if (!h) {
        return -1;
    }
    return h;
}

JNIEXPORT jlong JNICALL JNI_NAME(_1createCQ)(JNIEnv *env, jobject self, jlong ctx_h, jlong channel_h, jint cqe,
                                             jint comp_vector) {
    (void) self;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    if (!ctx) {
        return -1;
    }
    struct ibv_comp_channel *channel = NULL;
    if (channel_h != 0 && !(channel = REQUIRE(env, "completion channel", channel_h, H_COMP_CHANNEL))) {
        return -1;
    }
    if (cqe <= 0) {
        throw_illegal_argument(env, "a completion queue needs at least one entry, got %d", cqe);
        return -1;
    }
    struct ibv_cq *cq = ibv_create_cq(ctx, cqe, NULL, channel, comp_vector);
    if (!cq) {
        throw_io(env, errno, "ibv_create_cq (%d entries, vector %d) failed", cqe, comp_vector);
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_CQ, cq, ibv_destroy_cq(cq));
    if (!h) {
        return -1;
    }
    return h;
}

/* DiSNI passes no attributes (0): rdma_cm moves its QPs through their states, so there is nothing to change. */
JNIEXPORT jint JNICALL JNI_NAME(_1modifyQP)(JNIEnv *env, jobject self, jlong qp_h, jlong attr) {
    (void) self;
    if (!REQUIRE(env, "queue pair", qp_h, H_QP)) {
        return -EINVAL;
    }
    if (attr != 0) {
        throw_io(env, EINVAL, "modifyQP with an attribute structure is not supported; rdma_cm manages QP states");
        return -EINVAL;
    }
    return 0;
}

JNIEXPORT jlong JNICALL JNI_NAME(_1regMr)(JNIEnv *env, jobject self, jlong pd_h, jlong address, jint length,
                                          jint access, jlong lkey_out, jlong rkey_out, jlong handle_out) {
    (void) self;
    struct ibv_pd *pd = REQUIRE(env, "protection domain", pd_h, H_PD);
    uint32_t zero = 0;
    if (!pd || write_java_memory(env, "lkey output", lkey_out, &zero, 4)
        || write_java_memory(env, "rkey output", rkey_out, &zero, 4)
        || write_java_memory(env, "handle output", handle_out, &zero, 4)) {
        return -1;
    }
    if (length <= 0) {
        throw_illegal_argument(env, "cannot register %d bytes; the length must be positive", length);
        return -1;
    }
    /* The kernel pins the pages and checks the range: an unmapped address fails with EFAULT, it does not fault. */
    struct ibv_mr *mr = ibv_reg_mr(pd, (void *) (uintptr_t) address, (size_t) length, access);
    if (!mr) {
        throw_io(env, errno, "ibv_reg_mr of %d bytes at 0x%llx (access 0x%x) failed", length,
            (unsigned long long) address, access);
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_MR, mr, ibv_dereg_mr(mr));
    if (!h) {
        return -1;
    }
    safe_write(lkey_out, &mr->lkey, 4);
    safe_write(rkey_out, &mr->rkey, 4);
    safe_write(handle_out, &mr->handle, 4);
    return h;
}

/* The RC transport's on-demand-paging capabilities (IBV_ODP_SUPPORT_* bits), or -1 when ODP is unsupported. */
JNIEXPORT jint JNICALL JNI_NAME(_1queryOdpSupport)(JNIEnv *env, jobject self, jlong ctx_h) {
    (void) self;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    if (!ctx) {
        return -1;
    }
    struct ibv_device_attr_ex attr;
    memset(&attr, 0, sizeof attr);
    if (ibv_query_device_ex(ctx, NULL, &attr) || !(attr.odp_caps.general_caps & IBV_ODP_SUPPORT)) {
        return -1;
    }
    return (jint) attr.odp_caps.per_transport_caps.rc_odp_caps;
}

JNIEXPORT jint JNICALL JNI_NAME(_1expPrefetchMr)(JNIEnv *env, jobject self, jlong mr_h, jlong address, jint length) {
    (void) self;
    struct ibv_mr *mr = REQUIRE(env, "memory region", mr_h, H_MR);
    if (!mr) {
        return -EINVAL;
    }
    struct ibv_sge sge = {.addr = (uint64_t) address, .length = (uint32_t) length, .lkey = mr->lkey};
    int rc = ibv_advise_mr(mr->pd, IBV_ADVISE_MR_ADVICE_PREFETCH, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);
    if (rc) {
        throw_io(env, rc, "prefetching %d bytes of an on-demand memory region failed", length);
        return -rc;
    }
    return 0;
}

JNIEXPORT void JNICALL JNI_NAME(_1deregMr)(JNIEnv *env, jobject self, jlong mr_h) {
    (void) self;
    struct ibv_mr *mr = REQUIRE(env, "memory region", mr_h, H_MR);
    if (!mr) {
        return;
    }
    int rc = ibv_dereg_mr(mr);
    if (rc) {
        throw_io(env, rc, "ibv_dereg_mr failed");
        return;
    }
    handle_remove(mr_h, H_MR);
}

/*
 * Copies the scatter/gather list of one request. With inline_copies, the data each entry points at is copied too:
 * inline data is read by the CPU inside ibv_post_send, so it must come from memory known to be readable. The
 * copies are recorded in inline_copies for the caller to free, even when this fails halfway.
 */
static int copy_sges(JNIEnv *env, jlong list, int num_sge, struct ibv_sge *out, char **inline_copies) {
    if (num_sge < 0 || num_sge > MAX_SGE) {
        throw_illegal_argument(env, "a work request has %d scatter/gather entries; 0..%d are allowed", num_sge,
            MAX_SGE);
        return -1;
    }
    if (num_sge > 0
        && read_java_memory(env, "scatter/gather list", out, list, sizeof(struct ibv_sge) * (size_t) num_sge)) {
        return -1;
    }
    for (int i = 0; inline_copies && i < num_sge; i++) {
        char *copy = malloc(out[i].length ? out[i].length : 1);
        if (!copy) {
            throw_io(env, ENOMEM, "no memory for inline data");
            return -1;
        }
        inline_copies[i] = copy;
        if (read_java_memory(env, "inline send data", copy, (jlong) out[i].addr, out[i].length)) {
            return -1;
        }
        out[i].addr = (uint64_t) (uintptr_t) copy;
    }
    return 0;
}

typedef struct {
    struct ibv_send_wr *wrs;
    struct ibv_sge *sges;
    char **inline_copies;
    int count;
} send_list;

static void free_send_list(send_list *l) {
    if (l->inline_copies) {
        for (int i = 0; i < l->count * MAX_SGE; i++) {
            free(l->inline_copies[i]);
        }
    }
    free(l->wrs);
    free(l->sges);
    free(l->inline_copies);
}

JNIEXPORT void JNICALL JNI_NAME(_1postSend)(JNIEnv *env, jobject self, jlong qp_h, jlong list) {
    (void) self;
    struct ibv_qp *qp = REQUIRE(env, "queue pair", qp_h, H_QP);
    if (!qp) {
        return;
    }
    send_list l = {0};
    int capacity = 0;
    jlong next = list;
    if (next == 0) {
        throw_illegal_argument(env, "the work request list is empty (address 0)");
        return;
    }
    while (next != 0) {
        if (l.count == MAX_LIST) {
            throw_illegal_argument(env, "the work request list is longer than %d entries (or cyclic)", MAX_LIST);
            goto out;
        }
        if (l.count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            struct ibv_send_wr *wrs = realloc(l.wrs, sizeof *wrs * (size_t) capacity);
            struct ibv_sge *sges = wrs ? realloc(l.sges, sizeof *sges * (size_t) capacity * MAX_SGE) : NULL;
            char **copies = sges ? realloc(l.inline_copies, sizeof *copies * (size_t) capacity * MAX_SGE) : NULL;
            if (wrs) l.wrs = wrs;
            if (sges) l.sges = sges;
            if (copies) {
                l.inline_copies = copies;
                memset(copies + (size_t) l.count * MAX_SGE, 0, sizeof *copies * (size_t) (capacity - l.count) * MAX_SGE);
            }
            if (!wrs || !sges || !copies) {
                throw_io(env, ENOMEM, "no memory to copy the work request list");
                goto out;
            }
        }
        struct ibv_send_wr *wr = &l.wrs[l.count];
        if (read_java_memory(env, "send work request", wr, next, sizeof *wr)) {
            goto out;
        }
        jlong following = (jlong) (uintptr_t) wr->next;
        char **copies = (wr->send_flags & IBV_SEND_INLINE) ? &l.inline_copies[(size_t) l.count * MAX_SGE] : NULL;
        if (copy_sges(env, (jlong) (uintptr_t) wr->sg_list, wr->num_sge, &l.sges[(size_t) l.count * MAX_SGE],
                      copies)) {
            l.count++; /* so its inline copies are freed */
            goto out;
        }
        l.count++;
        next = following;
    }
    for (int i = 0; i < l.count; i++) { /* pointers are fixed only now: realloc may have moved the arrays */
        l.wrs[i].sg_list = l.wrs[i].num_sge > 0 ? &l.sges[(size_t) i * MAX_SGE] : NULL;
        l.wrs[i].next = i + 1 < l.count ? &l.wrs[i + 1] : NULL;
    }
    struct ibv_send_wr *bad = NULL;
    int rc = ibv_post_send(qp, l.wrs, &bad);
    if (rc) {
        throw_io(env, rc, "ibv_post_send failed at work request %ld of %d (earlier ones were posted)",
            bad ? (long) (bad - l.wrs) : -1L, l.count);
    }
out:
    free_send_list(&l);
}

JNIEXPORT void JNICALL JNI_NAME(_1postRecv)(JNIEnv *env, jobject self, jlong qp_h, jlong list) {
    (void) self;
    struct ibv_qp *qp = REQUIRE(env, "queue pair", qp_h, H_QP);
    if (!qp) {
        return;
    }
    struct ibv_recv_wr *wrs = NULL;
    struct ibv_sge *sges = NULL;
    int count = 0, capacity = 0;
    jlong next = list;
    if (next == 0) {
        throw_illegal_argument(env, "the receive request list is empty (address 0)");
        return;
    }
    while (next != 0) {
        if (count == MAX_LIST) {
            throw_illegal_argument(env, "the receive request list is longer than %d entries (or cyclic)", MAX_LIST);
            goto out;
        }
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            struct ibv_recv_wr *w = realloc(wrs, sizeof *w * (size_t) capacity);
            struct ibv_sge *s = w ? realloc(sges, sizeof *s * (size_t) capacity * MAX_SGE) : NULL;
            if (w) wrs = w;
            if (s) sges = s;
            if (!w || !s) {
                throw_io(env, ENOMEM, "no memory to copy the receive request list");
                goto out;
            }
        }
        struct ibv_recv_wr *wr = &wrs[count];
        if (read_java_memory(env, "receive work request", wr, next, sizeof *wr)
            || copy_sges(env, (jlong) (uintptr_t) wr->sg_list, wr->num_sge, &sges[(size_t) count * MAX_SGE], NULL)) {
            goto out;
        }
        next = (jlong) (uintptr_t) wr->next;
        count++;
    }
    for (int i = 0; i < count; i++) {
        wrs[i].sg_list = wrs[i].num_sge > 0 ? &sges[(size_t) i * MAX_SGE] : NULL;
        wrs[i].next = i + 1 < count ? &wrs[i + 1] : NULL;
    }
    struct ibv_recv_wr *bad = NULL;
    int rc = ibv_post_recv(qp, wrs, &bad);
    if (rc) {
        throw_io(env, rc, "ibv_post_recv failed at receive request %ld of %d (earlier ones were posted)",
            bad ? (long) (bad - wrs) : -1L, count);
    }
out:
    free(wrs);
    free(sges);
}

/* Waits up to timeout_ms for a completion event; 0 when one arrived, -1 on timeout (DiSNI then raises). */
JNIEXPORT jint JNICALL JNI_NAME(_1getCqEvent)(JNIEnv *env, jobject self, jlong channel_h, jint timeout_ms) {
    (void) self;
    struct ibv_comp_channel *channel = REQUIRE(env, "completion channel", channel_h, H_COMP_CHANNEL);
    if (!channel) {
        return -1;
    }
    int ready = wait_readable(channel->fd, timeout_ms);
    if (ready <= 0) {
        if (ready < 0) {
            throw_io(env, errno, "waiting for a completion event failed");
        }
        return -1;
    }
    struct ibv_cq *cq = NULL;
    void *cq_context = NULL;
    if (ibv_get_cq_event(channel, &cq, &cq_context)) {
        throw_io(env, errno, "ibv_get_cq_event failed");
        return -1;
    }
    return 0;
}

static void copy_out_wcs(void *context, const struct ibv_wc *wc, int n, int at) {
    jlong out = *(jlong *) context; /* checked writable before polling */
    safe_write(out + (jlong) at * (jlong) sizeof(struct ibv_wc), wc, sizeof(struct ibv_wc) * (size_t) n);
}

JNIEXPORT jint JNICALL JNI_NAME(_1pollCQ)(JNIEnv *env, jobject self, jlong cq_h, jint ne, jlong wc_out) {
    (void) self;
    struct ibv_cq *cq = REQUIRE(env, "completion queue", cq_h, H_CQ);
    if (!cq) {
        return -1;
    }
    if (ne <= 0 || ne > MAX_LIST) {
        throw_illegal_argument(env, "can poll 1..%d completions at once, asked for %d", MAX_LIST, ne);
        return -1;
    }
    /* Completions are consumed by polling: the output must be known writable before any is taken off the queue. */
    struct ibv_wc batch[32];
    memset(batch, 0, sizeof batch);
    for (jint done = 0; done < ne; done += 32) {
        jint n = ne - done < 32 ? ne - done : 32;
        if (write_java_memory(env, "work completion array", wc_out + (jlong) done * (jlong) sizeof(struct ibv_wc),
                              batch, sizeof(struct ibv_wc) * (size_t) n)) {
            return -1;
        }
    }
    int total = poll_in_rounds(cq, ne, copy_out_wcs, &wc_out);
    if (total < 0) {
        throw_io(env, EIO, "ibv_poll_cq failed");
        return -1;
    }
    return total;
}

JNIEXPORT jint JNICALL JNI_NAME(_1reqNotifyCQ)(JNIEnv *env, jobject self, jlong cq_h, jint solicited) {
    (void) self;
    struct ibv_cq *cq = REQUIRE(env, "completion queue", cq_h, H_CQ);
    if (!cq) {
        return -EINVAL;
    }
    int rc = ibv_req_notify_cq(cq, solicited);
    if (rc) {
        throw_io(env, rc, "ibv_req_notify_cq failed");
    }
    return rc;
}

JNIEXPORT jint JNICALL JNI_NAME(_1ackCqEvent)(JNIEnv *env, jobject self, jlong cq_h, jint events) {
    (void) self;
    struct ibv_cq *cq = REQUIRE(env, "completion queue", cq_h, H_CQ);
    if (!cq) {
        return -EINVAL;
    }
    if (events < 0) {
        throw_illegal_argument(env, "cannot acknowledge %d completion events", events);
        return -EINVAL;
    }
    ibv_ack_cq_events(cq, (unsigned) events);
    return 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1destroyCompChannel)(JNIEnv *env, jobject self, jlong channel_h) {
    (void) self;
    struct ibv_comp_channel *channel = REQUIRE(env, "completion channel", channel_h, H_COMP_CHANNEL);
    if (!channel) {
        return -EINVAL;
    }
    int rc = ibv_destroy_comp_channel(channel);
    if (rc == 0) {
        handle_remove(channel_h, H_COMP_CHANNEL);
    }
    return rc ? -abs(rc) : 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1deallocPd)(JNIEnv *env, jobject self, jlong pd_h) {
    (void) self;
    struct ibv_pd *pd = REQUIRE(env, "protection domain", pd_h, H_PD);
    if (!pd) {
        return -EINVAL;
    }
    int rc = ibv_dealloc_pd(pd);
    if (rc == 0) {
        handle_remove(pd_h, H_PD);
    }
    return rc ? -abs(rc) : 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1destroyCQ)(JNIEnv *env, jobject self, jlong cq_h) {
    (void) self;
    struct ibv_cq *cq = REQUIRE(env, "completion queue", cq_h, H_CQ);
    if (!cq) {
        return -EINVAL;
    }
    int rc = ibv_destroy_cq(cq);
    if (rc == 0) {
        handle_remove(cq_h, H_CQ);
    }
    return rc ? -abs(rc) : 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1getQpNum)(JNIEnv *env, jobject self, jlong qp_h) {
    (void) self;
    struct ibv_qp *qp = REQUIRE(env, "queue pair", qp_h, H_QP);
    return qp ? (jint) qp->qp_num : -1;
}

JNIEXPORT jint JNICALL JNI_NAME(_1getContextFd)(JNIEnv *env, jobject self, jlong ctx_h) {
    (void) self;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    return ctx ? ctx->cmd_fd : -1;
}

JNIEXPORT jint JNICALL JNI_NAME(_1getContextNumCompVectors)(JNIEnv *env, jobject self, jlong ctx_h) {
    (void) self;
    struct ibv_context *ctx = REQUIRE(env, "device context", ctx_h, H_CONTEXT);
    return ctx ? ctx->num_comp_vectors : -1;
}

JNIEXPORT jint JNICALL JNI_NAME(_1getPdHandle)(JNIEnv *env, jobject self, jlong pd_h) {
    (void) self;
    struct ibv_pd *pd = REQUIRE(env, "protection domain", pd_h, H_PD);
    return pd ? (jint) pd->handle : -1;
}

/* Sized for either address family, so a route over IPv6 never overruns the buffer DiSNI allocates from this. */
JNIEXPORT jint JNICALL JNI_NAME(_1getSockAddrInSize)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) sizeof(struct sockaddr_in6);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getIbvRecvWRSize)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) sizeof(struct ibv_recv_wr);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getIbvSendWRSize)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) sizeof(struct ibv_send_wr);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getIbvSgeSize)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) sizeof(struct ibv_sge);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getIbvWCSize)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) sizeof(struct ibv_wc);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getRemoteAddressOffset)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) offsetof(struct ibv_send_wr, wr.rdma.remote_addr);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getRKeyOffset)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return (jint) offsetof(struct ibv_send_wr, wr.rdma.rkey);
}

JNIEXPORT jint JNICALL JNI_NAME(_1getVersion)(JNIEnv *env, jobject self) {
    (void) env; (void) self;
    return PRAGH_DISNI_JNI_VERSION;
}
