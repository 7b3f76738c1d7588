import jdk.jfr.consumer.*;
import java.nio.file.*;
import java.util.*;
import java.time.*;

public class Jfr {
    static String prefix(String n) {
        if (n == null) return "?";
        return n.replaceAll("[0-9]+", "#");
    }
    public static void main(String[] a) throws Exception {
        String mode = a[0];
        List<RecordedEvent> ev = RecordingFile.readAllEvents(Path.of(a[1]));
        Instant t0 = ev.stream().map(RecordedEvent::getStartTime).min(Comparator.naturalOrder()).get();
        if (mode.equals("cat")) {
            long from = Long.parseLong(a[2]), to = Long.parseLong(a[3]);
            String[] cats = a[4].split(",");
            Map<String,Integer> c = new LinkedHashMap<>();
            int n = 0;
            for (RecordedEvent e : ev) {
                if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
                long s = Duration.between(t0, e.getStartTime()).toSeconds();
                if (s < from || s >= to) continue;
                n++;
                RecordedStackTrace st = e.getStackTrace();
                String hitc = "other";
                if (st != null) {
                    outer:
                    for (RecordedFrame f : st.getFrames()) {   // innermost first: first matching category wins
                        String m = f.getMethod().getType().getName().replace("io.pragh.", "") + "." + f.getMethod().getName();
                        for (String k : cats) if (m.contains(k)) { hitc = k; break outer; }
                    }
                }
                c.merge(hitc, 1, Integer::sum);
            }
            System.out.println("samples " + n);
            for (var x : c.entrySet()) System.out.printf("%6.1f%% %s%n", 100.0 * x.getValue() / n, x.getKey());
            return;
        }
        if (mode.equals("timeline")) {
            // per second: samples per thread-name prefix, and jvm cpu
            TreeMap<Long, Map<String,Integer>> tl = new TreeMap<>();
            TreeMap<Long, double[]> cpu = new TreeMap<>();
            for (RecordedEvent e : ev) {
                long s = Duration.between(t0, e.getStartTime()).toSeconds();
                String t = e.getEventType().getName();
                if (t.equals("jdk.ExecutionSample")) {
                    String n = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
                    tl.computeIfAbsent(s, k -> new TreeMap<>()).merge(prefix(n), 1, Integer::sum);
                } else if (t.equals("jdk.CPULoad")) {
                    cpu.put(s, new double[]{e.getDouble("jvmUser"), e.getDouble("jvmSystem"), e.getDouble("machineTotal")});
                }
            }
            for (var en : tl.entrySet()) {
                double[] c = cpu.getOrDefault(en.getKey(), new double[3]);
                System.out.printf("%3d cpu %.2f/%.2f/%.2f %s%n", en.getKey(), c[0], c[1], c[2], en.getValue());
            }
            return;
        }
        long from = Long.parseLong(a[2]), to = Long.parseLong(a[3]);
        int depth = a.length > 4 ? Integer.parseInt(a[4]) : 1;
        String filter = a.length > 5 ? a[5] : null;
        Map<String,Integer> threads = new TreeMap<>();
        Map<String,Integer> self = new HashMap<>();
        Map<String,Integer> incl = new HashMap<>();
        int[] tot = {0};
        for (RecordedEvent e : ev) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
            long s = Duration.between(t0, e.getStartTime()).toSeconds();
            if (s < from || s >= to) continue;
            String n = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
            if (filter != null && !prefix(n).matches(filter)) continue;
            tot[0]++;
            threads.merge(prefix(n), 1, Integer::sum);
            RecordedStackTrace st = e.getStackTrace();
            if (st == null) continue;
            List<RecordedFrame> fr = st.getFrames();
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < Math.min(depth, fr.size()); i++) {
                RecordedFrame f = fr.get(i);
                if (i > 0) sb.append(" <- ");
                sb.append(f.getMethod().getType().getName().replace("io.pragh.", "")).append('.').append(f.getMethod().getName()).append(':').append(f.getLineNumber());
            }
            self.merge(sb.toString(), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame f : fr) {
                String m = f.getMethod().getType().getName().replace("io.pragh.", "") + "." + f.getMethod().getName();
                if (seen.add(m)) incl.merge(m, 1, Integer::sum);
            }
        }
        final int total = tot[0]; System.out.println("total samples " + total + " threads " + threads);
        System.out.println("--- self (top " + depth + " frames)");
        self.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(40)
            .forEach(x -> System.out.printf("%6d %5.1f%% %s%n", x.getValue(), 100.0 * x.getValue() / total, x.getKey()));
        System.out.println("--- inclusive");
        incl.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(70)
            .forEach(x -> System.out.printf("%6d %5.1f%% %s%n", x.getValue(), 100.0 * x.getValue() / total, x.getKey()));
    }
}
