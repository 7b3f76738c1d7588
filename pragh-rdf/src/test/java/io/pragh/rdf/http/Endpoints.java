package io.pragh.rdf.http;

import io.pragh.gremlin.server.ServeExtension;
import org.apache.commons.configuration2.BaseConfiguration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What tests of the SPARQL endpoint start it with: a two-triple file, the settings that serve it, its URL. */
public final class Endpoints {
    private Endpoints() {
    }

    /** {@code <http://a> <http://p> <http://b>} and {@code <http://a> <http://p> "c"}, as {@code dir/t.nt}. */
    public static Path triples(final Path dir) throws IOException {
        final Path file = dir.resolve("t.nt");
        Files.writeString(file, "<http://a> <http://p> <http://b> .\n<http://a> <http://p> \"c\" .\n");
        return file;
    }

    /** Settings that load {@code file} and serve it on any free port. */
    public static BaseConfiguration settings(final Path file) {
        final BaseConfiguration settings = new BaseConfiguration();
        settings.setProperty(RdfServeExtension.LOAD, file.toString());
        settings.setProperty(RdfServeExtension.PORT, 0);
        return settings;
    }

    /** The endpoint's URL, from the line {@code serve} prints. */
    public static String url(final ServeExtension.Started started) {
        return started.describe().replaceAll("^sparql: (\\S+) .*$", "$1");
    }
}
