package io.pragh.rdma.jni;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The struct sizes, field offsets and constants as the C compiler saw them when it built the library, by name
 * ("pragh_work.remote_addr", "ibv_send_wr.wr.atomic.swap", "IBV_ACCESS_REMOTE_ATOMIC"). Tests compare them with
 * the offsets the Java side writes; {@link WorkRequest#checkAgainstNative()} does so at runtime too.
 *
 * <pre>{@code
 * int size = NativeLayout.query().get("pragh_work.size");
 * }</pre>
 */
public final class NativeLayout {
    private NativeLayout() {
    }

    public static Map<String, Integer> query() {
        NativeLibrary.require();
        String[] names = PraghVerbs.layoutNames();
        int[] values = PraghVerbs.layoutValues();
        if (names.length != values.length) {
            throw new IllegalStateException("native layout has " + names.length + " names but " + values.length
                + " values");
        }
        Map<String, Integer> layout = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            layout.put(names[i], values[i]);
        }
        return layout;
    }

    /** The named entry, or an error naming it when the library does not know it. */
    public static int value(Map<String, Integer> layout, String name) {
        Integer v = layout.get(name);
        if (v == null) {
            throw new IllegalStateException("the native library reports no layout entry '" + name + "'");
        }
        return v;
    }
}
