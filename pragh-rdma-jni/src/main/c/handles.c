/*
 * Typed handles for every native object Java holds.
 *
 * A handle is (generation << 32 | slot). A slot's tag word packs the generation and the type; a lookup compares
 * the whole tag, so a handle of another type, a handle whose object was destroyed (the generation moved on), or
 * a made-up number all miss, and no pointer from Java is ever dereferenced.
 *
 * Lookups are lock-free (they sit on the posting hot path); adding and removing take a mutex. Reading a slot is a
 * seqlock: tag, then pointer, then tag again; a writer changing the slot changes the tag first.
 */
#include "pragh_native.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS (1u << 16)

typedef struct {
    _Atomic uint64_t tag;   /* generation << 8 | type; type H_FREE when unused */
    _Atomic(void *) ptr;
    void *aux;              /* guarded by lock */
    size_t aux_len;
} slot;

static slot table[SLOTS];
static uint32_t generations[SLOTS]; /* guarded by lock; the generation the next occupant of a slot gets */
static uint32_t high_water;          /* guarded by lock; slots below it have been used at least once */
static uint32_t free_list[SLOTS];    /* guarded by lock */
static uint32_t free_count;          /* guarded by lock */
static int live;                     /* guarded by lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static inline uint64_t make_tag(uint32_t generation, handle_type type) {
    return ((uint64_t) generation << 8) | (uint64_t) type;
}

const char *handle_type_name(handle_type type) {
    switch (type) {
        case H_EVENT_CHANNEL: return "event channel";
        case H_CM_ID: return "rdma_cm id";
        case H_QP: return "queue pair";
        case H_CONTEXT: return "device context";
        case H_PD: return "protection domain";
        case H_COMP_CHANNEL: return "completion channel";
        case H_CQ: return "completion queue";
        case H_MR: return "memory region";
        case H_BUFFER: return "native buffer";
        default: return "free slot";
    }
}

jlong handle_add(handle_type type, void *ptr) {
    pthread_mutex_lock(&lock);
    uint32_t index;
    if (free_count > 0) {
        index = free_list[--free_count];
    } else if (high_water < SLOTS) {
        index = high_water++;
    } else {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    uint32_t generation = generations[index];
    if (generation == 0 || generation > 0x7fffffu) { /* keeps handles positive and never 0 */
        generation = 1;
    }
    generations[index] = generation + 1;
    slot *s = &table[index];
    s->aux = NULL;
    s->aux_len = 0;
    atomic_store_explicit(&s->ptr, ptr, memory_order_relaxed);
    /* Release: a reader that sees the new tag also sees the pointer stored above. */
    atomic_store_explicit(&s->tag, make_tag(generation, type), memory_order_release);
    live++;
    pthread_mutex_unlock(&lock);
    return (jlong) (((uint64_t) generation << 32) | index);
}

static slot *slot_of(jlong handle, uint64_t *expected_tag, handle_type type) {
    uint64_t h = (uint64_t) handle;
    uint32_t index = (uint32_t) h;
    uint32_t generation = (uint32_t) (h >> 32);
    if (handle <= 0 || index >= SLOTS || generation == 0 || type == H_FREE) {
        return NULL;
    }
    *expected_tag = make_tag(generation, type);
    return &table[index];
}

void *handle_get(jlong handle, handle_type type) {
    uint64_t want;
    slot *s = slot_of(handle, &want, type);
    if (!s) {
        return NULL;
    }
    uint64_t before = atomic_load_explicit(&s->tag, memory_order_acquire);
    if (before != want) {
        return NULL;
    }
    void *ptr = atomic_load_explicit(&s->ptr, memory_order_relaxed);
    /* Acquire fence: the second tag read cannot move above the pointer read, so a concurrent reuse is seen. */
    atomic_thread_fence(memory_order_acquire);
    uint64_t after = atomic_load_explicit(&s->tag, memory_order_relaxed);
    return after == want ? ptr : NULL;
}

void *handle_remove(jlong handle, handle_type type) {
    uint64_t want;
    slot *s = slot_of(handle, &want, type);
    if (!s) {
        return NULL;
    }
    pthread_mutex_lock(&lock);
    void *ptr = NULL;
    if (atomic_load_explicit(&s->tag, memory_order_relaxed) == want) {
        ptr = atomic_load_explicit(&s->ptr, memory_order_relaxed);
        atomic_store_explicit(&s->tag, make_tag(0, H_FREE), memory_order_relaxed);
        /* Release fence: the free tag is visible before the slot's pointer can be overwritten by a reuse. */
        atomic_thread_fence(memory_order_release);
        atomic_store_explicit(&s->ptr, NULL, memory_order_relaxed);
        free(s->aux);
        s->aux = NULL;
        s->aux_len = 0;
        free_list[free_count++] = (uint32_t) (s - table);
        live--;
    }
    pthread_mutex_unlock(&lock);
    return ptr;
}

jlong handle_find(handle_type type, const void *ptr) {
    jlong found = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < high_water; i++) {
        uint64_t tag = atomic_load_explicit(&table[i].tag, memory_order_relaxed);
        if ((handle_type) (tag & 0xff) == type && atomic_load_explicit(&table[i].ptr, memory_order_relaxed) == ptr) {
            found = (jlong) (((tag >> 8) << 32) | i);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

jlong handle_find_or_add(handle_type type, void *ptr) {
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER; /* two threads must not register one object twice */
    pthread_mutex_lock(&once);
    jlong h = handle_find(type, ptr);
    if (h == 0) {
        h = handle_add(type, ptr);
    }
    pthread_mutex_unlock(&once);
    return h;
}

int handle_set_aux(jlong handle, handle_type type, void *aux, size_t aux_len) {
    uint64_t want;
    slot *s = slot_of(handle, &want, type);
    if (!s) {
        return -1;
    }
    int rc = -1;
    pthread_mutex_lock(&lock);
    if (atomic_load_explicit(&s->tag, memory_order_relaxed) == want) {
        free(s->aux);
        s->aux = aux;
        s->aux_len = aux_len;
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void *handle_aux(jlong handle, handle_type type, size_t *aux_len) {
    uint64_t want;
    slot *s = slot_of(handle, &want, type);
    *aux_len = 0;
    if (!s) {
        return NULL;
    }
    void *copy = NULL;
    pthread_mutex_lock(&lock);
    if (atomic_load_explicit(&s->tag, memory_order_relaxed) == want && s->aux) {
        copy = malloc(s->aux_len ? s->aux_len : 1);
        if (copy) {
            memcpy(copy, s->aux, s->aux_len);
            *aux_len = s->aux_len;
        }
    }
    pthread_mutex_unlock(&lock);
    return copy; /* the caller frees; a copy, because the slot may be removed as soon as the lock is released */
}

int handle_live_count(void) {
    pthread_mutex_lock(&lock);
    int n = live;
    pthread_mutex_unlock(&lock);
    return n;
}
