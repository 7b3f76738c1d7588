package io.pragh.rdma.jni;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/** Calls DiSNI 2.1's NativeDispatcher natives directly, as DiSNI's own classes do, for tests. */
final class DisniDispatcher {
    static final String CLASS = "com.ibm.disni.verbs.impl.NativeDispatcher";

    private final Object dispatcher;

    private DisniDispatcher(Object dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** Constructs a NativeDispatcher, which checks the library's version and struct sizes against DiSNI's Java side. */
    static DisniDispatcher create() throws ReflectiveOperationException {
        Constructor<?> c = Class.forName(CLASS).getDeclaredConstructor();
        c.setAccessible(true);
        try {
            return new DisniDispatcher(c.newInstance());
        } catch (InvocationTargetException e) {
            throw new AssertionError("NativeDispatcher refused the library: " + e.getCause(), e.getCause());
        }
    }

    /** Invokes the native named {@code name}; an exception it raises is rethrown as is. */
    Object call(String name, Object... args) throws Throwable {
        Method m = Arrays.stream(Class.forName(CLASS).getDeclaredMethods())
            .filter(x -> x.getName().equals(name))
            .findFirst()
            .orElseThrow(() -> new AssertionError("NativeDispatcher has no method " + name));
        m.setAccessible(true);
        try {
            return m.invoke(dispatcher, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
