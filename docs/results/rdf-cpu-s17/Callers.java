import jdk.jfr.consumer.*;
import java.nio.file.*;
import java.util.*;
import java.time.*;
public class Callers {
    public static void main(String[] a) throws Exception {
        List<RecordedEvent> ev = RecordingFile.readAllEvents(Path.of(a[0]));
        Instant t0 = ev.stream().map(RecordedEvent::getStartTime).min(Comparator.naturalOrder()).get();
        long from = Long.parseLong(a[1]), to = Long.parseLong(a[2]);
        String target = a[3]; int up = Integer.parseInt(a[4]);
        Map<String,Integer> m = new HashMap<>(); int n = 0, hit = 0;
        for (RecordedEvent e : ev) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
            long s = Duration.between(t0, e.getStartTime()).toSeconds();
            if (s < from || s >= to || e.getStackTrace() == null) continue;
            n++;
            List<RecordedFrame> fr = e.getStackTrace().getFrames();
            for (int i = 0; i < fr.size(); i++) {
                String name = fr.get(i).getMethod().getType().getName().replace("io.pragh.", "") + "." + fr.get(i).getMethod().getName();
                if (name.contains(target)) {
                    StringBuilder sb = new StringBuilder();
                    for (int j = i + 1; j < Math.min(fr.size(), i + 1 + up); j++) {
                        RecordedFrame f = fr.get(j);
                        sb.append(f.getMethod().getType().getName().replace("io.pragh.", "")).append('.').append(f.getMethod().getName()).append(':').append(f.getLineNumber()).append(" < ");
                    }
                    m.merge(sb.toString(), 1, Integer::sum); hit++;
                    break;
                }
            }
        }
        final int nn = n;
        System.out.println("samples " + n + " with " + target + ": " + hit);
        m.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(15)
            .forEach(x -> System.out.printf("%6.1f%% %s%n", 100.0 * x.getValue() / nn, x.getKey()));
    }
}
