package io.pragh.fabric.tcp;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Collects what the TCP fabric (or another logger: the client port's) logs while a test runs, one line per event:
 * "LEVEL message", from the logback logger of that name (Pragh logs through SLF4J, bound to logback).
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {
    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    LogCapture() {
        this(FramedHandler.class.getPackageName());
    }

    public LogCapture(String loggerName) {
        logger = (Logger) LoggerFactory.getLogger(loggerName);
        setContext(logger.getLoggerContext());
        start();
        logger.addAppender(this);
    }

    @Override
    protected void append(ILoggingEvent event) {
        lines.add(event.getLevel() + " " + event.getFormattedMessage());
    }

    /**
     * Waits up to 60 s for a line containing {@code text}; the logging happens on an event loop, which a host
     * starved of CPU can leave unscheduled for seconds (10 s was the bound before: too close).
     */
    public boolean saw(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            if (lines.stream().anyMatch(l -> l.contains(text))) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
    }

    public List<String> lines() {
        return lines;
    }

    @Override
    public void close() {
        logger.detachAppender(this);
        stop();
    }
}
