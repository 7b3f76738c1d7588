package io.pragh.fabric.tcp;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.slf4j.LoggerFactory;

/**
 * Collects what the TCP fabric (or another logger: the client port's) logs while a test runs, one line per event:
 * "LEVEL message". Pragh logs through SLF4J (bound to logback here); a class still on System.Logger goes to
 * java.util.logging, so both are listened to.
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {
    private final Logger logger;
    private final java.util.logging.Logger julLogger;
    private final Handler julHandler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final List<String> lines = new CopyOnWriteArrayList<>();

    LogCapture() {
        this(FramedHandler.class.getPackageName());
    }

    public LogCapture(String loggerName) {
        logger = (Logger) LoggerFactory.getLogger(loggerName);
        setContext(logger.getLoggerContext());
        start();
        logger.addAppender(this);
        julLogger = java.util.logging.Logger.getLogger(loggerName);
        julLogger.addHandler(julHandler);
    }

    @Override
    protected void append(ILoggingEvent event) {
        lines.add(event.getLevel() + " " + event.getFormattedMessage());
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
    public void close() {
        logger.detachAppender(this);
        stop();
        julLogger.removeHandler(julHandler);
    }
}
