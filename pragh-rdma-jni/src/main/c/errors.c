/* Java exceptions raised from C. Every message names what was wrong; verbs failures carry errno's text. */
#include "pragh_native.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void throw_with(JNIEnv *env, const char *class_name, const char *message) {
    if ((*env)->ExceptionCheck(env)) {
        return; /* the first failure is the one worth reporting */
    }
    jclass cls = (*env)->FindClass(env, class_name);
    if (cls) {
        (*env)->ThrowNew(env, cls, message);
    }
}

void throw_illegal_argument(JNIEnv *env, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    throw_with(env, "java/lang/IllegalArgumentException", message);
}

static void format_errno(char *out, size_t size, int err, const char *fmt, va_list args) {
    int n = vsnprintf(out, size, fmt, args);
    if (n >= 0 && (size_t) n < size && err != 0) {
        char reason[128];
        const char *text = strerror_r(err, reason, sizeof reason); /* GNU strerror_r returns the text */
        snprintf(out + n, size - (size_t) n, ": %s (errno %d)", text, err);
    }
}

void throw_io(JNIEnv *env, int err, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    format_errno(message, sizeof message, err, fmt, args);
    va_end(args);
    throw_with(env, "java/io/IOException", message);
}

void throw_verbs(JNIEnv *env, int err, const char *fmt, ...) {
    char message[512];
    va_list args;
    va_start(args, fmt);
    format_errno(message, sizeof message, err, fmt, args);
    va_end(args);
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    jclass cls = (*env)->FindClass(env, "io/pragh/rdma/jni/VerbsException");
    if (!cls) {
        return; /* NoClassDefFoundError is pending and says enough */
    }
    jmethodID init = (*env)->GetMethodID(env, cls, "<init>", "(Ljava/lang/String;I)V");
    jstring text = (*env)->NewStringUTF(env, message);
    if (!init || !text) {
        return;
    }
    jobject ex = (*env)->NewObject(env, cls, init, text, (jint) err);
    if (ex) {
        (*env)->Throw(env, (jthrowable) ex);
    }
}

void *bad_handle(JNIEnv *env, const char *what, jlong handle, handle_type type) {
    throw_illegal_argument(env, "%s handle %lld is not a live %s handle (never issued, already destroyed, "
        "or of another type)", what, (long long) handle, handle_type_name(type));
    return NULL;
}
