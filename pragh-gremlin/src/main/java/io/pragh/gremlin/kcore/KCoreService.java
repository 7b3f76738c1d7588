package io.pragh.gremlin.kcore;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.kcore", [k: 3, view: "roads", into: "core3", property: "core"])}: runs {@link KCore} (over
 * the view when {@code view} is given, else the whole graph), writes the core as view {@code into} and/or as vertex
 * property {@code property} when given, and answers {@code k}, the core's size, the peeling rounds and, when
 * {@code members} is true, the core's vertex ids.
 *
 * <p>Example: {@code g.call("pragh.kcore", [k: 3, into: "core3"]).next() // [k:3, size:120, rounds:5]}
 */
final class KCoreService extends io.pragh.gremlin.view.CallService<Map<String, Object>> {
    static final String NAME = "pragh.kcore";

    private final KCore kcore;

    KCoreService(final KCore kcore) {
        super(NAME);
        this.kcore = kcore;
    }

    @Override
    protected List<Map<String, Object>> answers(final Map<?, ?> params) {
        return List.of(call(params));
    }

    private Map<String, Object> call(final Map<?, ?> params) {
        final long k = number(params, "k");
        if (k < 1 || k > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(NAME + " needs k >= 1; got " + k);
        }
        final KCore.Result core = kcore.run((int) k, optionalString(params, "view"));
        final String into = optionalString(params, "into");
        if (into != null) {
            core.writeView(into);
        }
        final String property = optionalString(params, "property");
        if (property != null) {
            core.writeProperty(property);
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("k", (int) k);
        out.put("size", core.members().length);
        out.put("rounds", core.rounds());
        if (Boolean.TRUE.equals(params.get("members"))) {
            out.put("members", Arrays.stream(core.members()).boxed().toList());
        }
        return out;
    }
}
