/*
 * DiSNI 2.1's connection-management entry points (NativeDispatcher), over librdmacm.
 *
 * Written from the Java declarations and rdma_cma(7); object ids given to DiSNI are handles (handles.c). An
 * rdma_cm_id's `context` holds its own handle, so an event can name the ids it concerns in DiSNI's terms.
 */
#include "pragh_native.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define JNI_NAME(name) Java_com_ibm_disni_verbs_impl_NativeDispatcher_##name

__thread int pragh_last_cm_event_status;

int wait_readable(int fd, int timeout_ms) {
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int ready;
    do {
        ready = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
    } while (ready < 0 && errno == EINTR); /* a signal to the JVM is no reason to give up waiting */
    return ready;
}

static struct rdma_cm_id *require_id(JNIEnv *env, jlong id) {
    return REQUIRE(env, "rdma_cm id", id, H_CM_ID);
}

/* Reads a sockaddr of either family from Java memory; returns 0 or throws. */
static int read_sockaddr(JNIEnv *env, const char *what, jlong address, struct sockaddr_storage *out) {
    memset(out, 0, sizeof *out);
    sa_family_t family;
    if (read_java_memory(env, what, &family, address, sizeof family)) {
        return -1;
    }
    size_t len = family == AF_INET ? sizeof(struct sockaddr_in) : family == AF_INET6 ? sizeof(struct sockaddr_in6) : 0;
    if (len == 0) {
        throw_illegal_argument(env, "%s has address family %d; only AF_INET (%d) and AF_INET6 (%d) are supported",
            what, family, AF_INET, AF_INET6);
        return -1;
    }
    return read_java_memory(env, what, out, address, len);
}

static jint write_sockaddr(JNIEnv *env, const char *what, jlong address, const struct sockaddr *addr) {
    size_t len = addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    return write_java_memory(env, what, address, addr, len) ? -EFAULT : 0;
}

/* Forgets and destroys the queue pair of an id, if it has one. */
static void destroy_qp_of(struct rdma_cm_id *id) {
    if (id->qp) {
        jlong qp = handle_find(H_QP, id->qp);
        rdma_destroy_qp(id);
        if (qp) {
            handle_remove(qp, H_QP);
        }
    }
}

JNIEXPORT jlong JNICALL JNI_NAME(_1createEventChannel)(JNIEnv *env, jobject self) {
    (void) self;
    struct rdma_event_channel *channel = rdma_create_event_channel();
    if (!channel) {
        throw_io(env, errno, "rdma_create_event_channel failed (is the rdma_ucm module loaded and an RDMA device "
            "present?)");
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_EVENT_CHANNEL, channel, rdma_destroy_event_channel(channel));
    return h ? h : -1;
}

JNIEXPORT jlong JNICALL JNI_NAME(_1createId)(JNIEnv *env, jobject self, jlong channel_h, jshort ps) {
    (void) self;
    struct rdma_event_channel *channel = REQUIRE(env, "event channel", channel_h, H_EVENT_CHANNEL);
    if (!channel) {
        return -1;
    }
    struct rdma_cm_id *id = NULL;
    if (rdma_create_id(channel, &id, NULL, (enum rdma_port_space) (uint16_t) ps)) {
        throw_io(env, errno, "rdma_create_id (port space 0x%x) failed", (unsigned) (uint16_t) ps);
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_CM_ID, id, rdma_destroy_id(id));
    if (!h) {
        return -1;
    }
    id->context = (void *) (intptr_t) h;
    return h;
}

JNIEXPORT jlong JNICALL JNI_NAME(_1createQP)(JNIEnv *env, jobject self, jlong id_h, jlong pd_h, jlong send_cq_h,
                                             jlong recv_cq_h, jint qp_type, jint max_send_wr, jint max_recv_wr,
                                             jint max_inline) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return -1;
    }
    struct ibv_pd *pd = REQUIRE(env, "protection domain", pd_h, H_PD);
    struct ibv_cq *send_cq = pd ? REQUIRE(env, "send completion queue", send_cq_h, H_CQ) : NULL;
    struct ibv_cq *recv_cq = send_cq ? REQUIRE(env, "receive completion queue", recv_cq_h, H_CQ) : NULL;
    if (!recv_cq) {
        return -1;
    }
    if (max_send_wr <= 0 || max_recv_wr < 0 || max_inline < 0) {
        throw_illegal_argument(env, "queue pair capacities must be positive: max_send_wr=%d max_recv_wr=%d "
            "max_inline=%d", max_send_wr, max_recv_wr, max_inline);
        return -1;
    }
    struct ibv_qp_init_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.send_cq = send_cq;
    attr.recv_cq = recv_cq;
    attr.qp_type = (enum ibv_qp_type) qp_type;
    attr.cap.max_send_wr = (uint32_t) max_send_wr;
    attr.cap.max_recv_wr = (uint32_t) (max_recv_wr > 0 ? max_recv_wr : 1);
    attr.cap.max_send_sge = (uint32_t) device_max_sge(pd->context, 4);
    attr.cap.max_recv_sge = attr.cap.max_send_sge;
    attr.cap.max_inline_data = (uint32_t) max_inline;
    if (rdma_create_qp(id, pd, &attr)) {
        throw_io(env, errno, "rdma_create_qp (type %d, %d send / %d receive work requests) failed", qp_type,
            max_send_wr, max_recv_wr);
        return -1;
    }
    jlong h = PUBLISH(env, throw_io, H_QP, id->qp, rdma_destroy_qp(id));
    return h ? h : -1;
}

JNIEXPORT void JNICALL JNI_NAME(_1bindAddr)(JNIEnv *env, jobject self, jlong id_h, jlong addr) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    struct sockaddr_storage sa;
    if (!id || read_sockaddr(env, "bind address", addr, &sa)) {
        return;
    }
    if (rdma_bind_addr(id, (struct sockaddr *) &sa)) {
        throw_io(env, errno, "rdma_bind_addr failed");
    }
}

JNIEXPORT void JNICALL JNI_NAME(_1listen)(JNIEnv *env, jobject self, jlong id_h, jint backlog) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (id && rdma_listen(id, backlog)) {
        throw_io(env, errno, "rdma_listen (backlog %d) failed", backlog);
    }
}

JNIEXPORT void JNICALL JNI_NAME(_1resolveAddr)(JNIEnv *env, jobject self, jlong id_h, jlong src, jlong dst,
                                               jint timeout_ms) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    struct sockaddr_storage src_sa, dst_sa;
    if (!id || (src != 0 && read_sockaddr(env, "source address", src, &src_sa))
        || read_sockaddr(env, "destination address", dst, &dst_sa)) {
        return;
    }
    if (rdma_resolve_addr(id, src ? (struct sockaddr *) &src_sa : NULL, (struct sockaddr *) &dst_sa, timeout_ms)) {
        throw_io(env, errno, "rdma_resolve_addr failed");
    }
}

JNIEXPORT void JNICALL JNI_NAME(_1resolveRoute)(JNIEnv *env, jobject self, jlong id_h, jint timeout_ms) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (id && rdma_resolve_route(id, timeout_ms)) {
        throw_io(env, errno, "rdma_resolve_route failed");
    }
}

/* The handle of an id named by an event: its own (stored in context) or, for an id we did not create, a new one. */
static jlong handle_of_event_id(struct rdma_cm_id *id) {
    if (!id) {
        return 0;
    }
    jlong h = (jlong) (intptr_t) id->context;
    if (h > 0 && handle_get(h, H_CM_ID) == id) {
        return h;
    }
    h = handle_find_or_add(H_CM_ID, id);
    id->context = (void *) (intptr_t) h;
    return h;
}

/*
 * Waits up to timeout_ms (negative: forever) for one event. Writes the listening id's handle to listen_out and the
 * event's id handle to id_out, and returns the event type, or -1 when the wait timed out. The event is acknowledged
 * before returning: DiSNI's _ackCmEvent carries only the event type, so it cannot name the event to release;
 * everything DiSNI needs has been copied out, and a connect request's private data is kept beside its new id for
 * PraghVerbs.connectRequestData.
 */
JNIEXPORT jint JNICALL JNI_NAME(_1getCmEvent)(JNIEnv *env, jobject self, jlong channel_h, jlong listen_out,
                                              jlong id_out, jint timeout_ms) {
    (void) self;
    struct rdma_event_channel *channel = REQUIRE(env, "event channel", channel_h, H_EVENT_CHANNEL);
    jlong zero = 0;
    if (!channel || write_java_memory(env, "listen id output", listen_out, &zero, sizeof zero)
        || write_java_memory(env, "event id output", id_out, &zero, sizeof zero)) {
        return -1;
    }
    int ready = wait_readable(channel->fd, timeout_ms);
    if (ready == 0) {
        return -1;
    }
    if (ready < 0) {
        throw_io(env, errno, "waiting for an rdma_cm event failed");
        return -1;
    }
    struct rdma_cm_event *event = NULL;
    if (rdma_get_cm_event(channel, &event)) {
        if (errno == EAGAIN) {
            return -1;
        }
        throw_io(env, errno, "rdma_get_cm_event failed");
        return -1;
    }
    jint type = (jint) event->event;
    pragh_last_cm_event_status = event->status;
    jlong id_h;
    if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
        /* A new id for the incoming connection; its context still holds the listener's handle. */
        id_h = handle_add(H_CM_ID, event->id);
        if (!id_h) {
            struct rdma_cm_id *refused = event->id;
            rdma_reject(refused, NULL, 0);
            rdma_ack_cm_event(event);
            rdma_destroy_id(refused);
            throw_io(env, ENOMEM, "native handle table is full; refused an incoming connection");
            return -1;
        }
        event->id->context = (void *) (intptr_t) id_h;
        uint8_t len = event->param.conn.private_data_len;
        if (len > 0 && event->param.conn.private_data) {
            void *copy = malloc(len);
            if (copy) {
                memcpy(copy, event->param.conn.private_data, len);
                handle_set_aux(id_h, H_CM_ID, copy, len);
            }
        }
    } else {
        id_h = handle_of_event_id(event->id);
    }
    jlong listen_h = handle_of_event_id(event->listen_id);
    rdma_ack_cm_event(event);
    safe_write(listen_out, &listen_h, sizeof listen_h); /* both checked writable above */
    safe_write(id_out, &id_h, sizeof id_h);
    return type;
}

JNIEXPORT void JNICALL JNI_NAME(_1connect)(JNIEnv *env, jobject self, jlong id_h, jint retry, jint rnr_retry,
                                           jlong private_data, jbyte private_data_len) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return;
    }
    uint8_t data[256];
    uint8_t len = (uint8_t) private_data_len;
    if (len > 0 && read_java_memory(env, "connection private data", data, private_data, len)) {
        return;
    }
    struct rdma_conn_param conn;
    conn_param_for(id, &conn);
    conn.retry_count = (uint8_t) retry;
    conn.rnr_retry_count = (uint8_t) rnr_retry;
    conn.private_data = len > 0 ? data : NULL;
    conn.private_data_len = len;
    if (rdma_connect(id, &conn)) {
        throw_io(env, errno, "rdma_connect failed");
    }
}

JNIEXPORT void JNICALL JNI_NAME(_1accept)(JNIEnv *env, jobject self, jlong id_h, jint retry, jint rnr_retry) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return;
    }
    struct rdma_conn_param conn;
    conn_param_for(id, &conn);
    conn.retry_count = (uint8_t) retry;
    conn.rnr_retry_count = (uint8_t) rnr_retry;
    if (rdma_accept(id, &conn)) {
        throw_io(env, errno, "rdma_accept failed");
    }
}

JNIEXPORT jint JNICALL JNI_NAME(_1ackCmEvent)(JNIEnv *env, jobject self, jint event) {
    (void) env;
    (void) self;
    (void) event;
    return 0; /* already acknowledged by _getCmEvent, see there */
}

JNIEXPORT jint JNICALL JNI_NAME(_1disconnect)(JNIEnv *env, jobject self, jlong id_h) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return -EINVAL;
    }
    return rdma_disconnect(id) ? -errno : 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1destroyEventChannel)(JNIEnv *env, jobject self, jlong channel_h) {
    (void) self;
    struct rdma_event_channel *channel = REQUIRE(env, "event channel", channel_h, H_EVENT_CHANNEL);
    if (!channel) {
        return -EINVAL;
    }
    handle_remove(channel_h, H_EVENT_CHANNEL);
    rdma_destroy_event_channel(channel);
    return 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1destroyCmId)(JNIEnv *env, jobject self, jlong id_h) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return -EINVAL;
    }
    destroy_qp_of(id); /* rdma_destroy_id requires the QP gone first */
    if (rdma_destroy_id(id)) {
        return -errno;
    }
    handle_remove(id_h, H_CM_ID);
    return 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1destroyQP)(JNIEnv *env, jobject self, jlong id_h) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return -EINVAL;
    }
    destroy_qp_of(id);
    return 0;
}

JNIEXPORT jint JNICALL JNI_NAME(_1getSrcAddr)(JNIEnv *env, jobject self, jlong id_h, jlong out) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    return id ? write_sockaddr(env, "source address output", out, rdma_get_local_addr(id)) : -EINVAL;
}

JNIEXPORT jint JNICALL JNI_NAME(_1getDstAddr)(JNIEnv *env, jobject self, jlong id_h, jlong out) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    return id ? write_sockaddr(env, "destination address output", out, rdma_get_peer_addr(id)) : -EINVAL;
}

JNIEXPORT jint JNICALL JNI_NAME(_1destroyEp)(JNIEnv *env, jobject self, jlong id_h) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id) {
        return -EINVAL;
    }
    destroy_qp_of(id);
    handle_remove(id_h, H_CM_ID);
    rdma_destroy_ep(id);
    return 0;
}

JNIEXPORT jlong JNICALL JNI_NAME(_1getContext)(JNIEnv *env, jobject self, jlong id_h) {
    (void) self;
    struct rdma_cm_id *id = require_id(env, id_h);
    if (!id || !id->verbs) {
        return -1; /* not bound to a device yet: DiSNI treats a negative id as "no context" */
    }
    jlong h = handle_find_or_add(H_CONTEXT, id->verbs);
    if (!h) {
        throw_io(env, ENOMEM, "native handle table is full");
        return -1;
    }
    return h;
}
