package io.pragh.fabric.tcp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects what the TCP fabric (or another logger: the client port's) logs while a test runs; System.Logger goes to
 * java.util.logging by default.
 */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    LogCapture() {
        this(FramedHandler.class.getPackageName());
    }

    public LogCapture(String loggerName) {
        logger = Logger.getLogger(loggerName);
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record.getLevel() + " " + record.getMessage());
    }

    /** Waits up to 10 s for a line containing {@code text}; the logging happens on an event loop. */
    public boolean saw(String text) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            if (lines.stream().anyMatch(l -> l.contains(text))) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    public List<String> lines() {
        return lines;
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
