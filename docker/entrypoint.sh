#!/bin/sh
# Runs one machine; exec so that SIGTERM from 'docker stop' reaches the JVM, which stops the machine cleanly.
set -eu
exec java ${JAVA_OPTS} \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED \
  --add-opens java.base/java.util.concurrent=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
  -cp '/opt/pragh/lib/*' io.pragh.server.cli.ServerCommand --config "${PRAGH_CONFIG}" --id "${PRAGH_ID}"
