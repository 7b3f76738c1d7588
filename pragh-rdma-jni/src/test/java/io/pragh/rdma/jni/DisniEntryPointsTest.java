package io.pragh.rdma.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Our library implements every JNI entry point DiSNI 2.1 declares, and DiSNI accepts it. */
class DisniEntryPointsTest {
    @BeforeEach
    void library() {
        NativeLibraryAssumptions.requireBuiltLibrary();
    }

    /** The JNI symbol of a non-overloaded native: '_' in a Java name is escaped as "_1". */
    static String jniSymbol(Method m) {
        return "Java_" + m.getDeclaringClass().getName().replace("_", "_1").replace('.', '_') + "_"
            + m.getName().replace("_", "_1");
    }

    @Test
    void everyNativeMethodOfNativeDispatcherIsExported() throws Exception {
        List<Method> natives = Arrays.stream(Class.forName(DisniDispatcher.CLASS).getDeclaredMethods())
            .filter(m -> Modifier.isNative(m.getModifiers()))
            .toList();
        assertTrue(natives.size() >= 45, "DiSNI 2.1 declares about 49 natives, found " + natives.size());
        List<String> missing = new ArrayList<>();
        for (Method m : natives) {
            if (!PraghVerbs.exportsSymbol(jniSymbol(m))) {
                missing.add(jniSymbol(m));
            }
        }
        assertEquals(List.of(), missing, "entry points DiSNI would fail to link");
    }

    @Test
    void theExportCheckCanFail() {
        assertTrue(!PraghVerbs.exportsSymbol("Java_com_ibm_disni_verbs_impl_NativeDispatcher__1noSuchCall"));
    }

    @Test
    void nativeDispatcherAcceptsTheVersionAndAdoptsTheNativeSizes() throws Throwable {
        DisniDispatcher d = DisniDispatcher.create();
        assertEquals(32, d.call("_getVersion"), "the JNI interface version DiSNI 2.1 requires");
        assertEquals(NativeLayout.value(NativeLayout.query(), "ibv_send_wr.size"),
            Class.forName("com.ibm.disni.verbs.impl.NatIbvSendWR").getField("CSIZE").getInt(null),
            "DiSNI lays out send requests with the native stride");
        assertEquals(NativeLayout.value(NativeLayout.query(), "sockaddr_in6.size"), d.call("_getSockAddrInSize"),
            "address buffers hold either family");
    }
}
