package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

/**
 * What {@link PraghGraph} supports, declared as it is: numeric user-supplied ids (no string, UUID or custom ids), no
 * transactions, no graph computer, no graph variables, no null property values; multi- and meta-properties and every
 * data type {@link io.pragh.gremlin.storage.ValueCodec} stores. Anything not overridden here is TinkerPop's default
 * {@code true}.
 *
 * <p>Example: {@code graph.features().vertex().supportsMetaProperties() // true}
 */
public final class PraghFeatures implements Graph.Features {
    private final GraphFeatures graph = new PraghGraphFeatures();
    private final VertexFeatures vertex;
    private final EdgeFeatures edge = new PraghEdgeFeatures();

    /** Features of a graph whose vertex properties default to {@code defaultCardinality}. */
    PraghFeatures(final VertexProperty.Cardinality defaultCardinality) {
        this.vertex = new PraghVertexFeatures(defaultCardinality);
    }

    @Override
    public GraphFeatures graph() {
        return graph;
    }

    @Override
    public VertexFeatures vertex() {
        return vertex;
    }

    @Override
    public EdgeFeatures edge() {
        return edge;
    }

    @Override
    public String toString() {
        return StringFactory.featureString(this);
    }

    static final class PraghGraphFeatures implements GraphFeatures {
        /** No graph variables, so no variable value types either. */
        private final VariableFeatures variables = new VariableFeatures() {
            @Override
            public boolean supportsVariables() {
                return false;
            }

            @Override
            public boolean supportsBooleanValues() {
                return false;
            }

            @Override
            public boolean supportsByteValues() {
                return false;
            }

            @Override
            public boolean supportsDoubleValues() {
                return false;
            }

            @Override
            public boolean supportsFloatValues() {
                return false;
            }

            @Override
            public boolean supportsIntegerValues() {
                return false;
            }

            @Override
            public boolean supportsLongValues() {
                return false;
            }

            @Override
            public boolean supportsMapValues() {
                return false;
            }

            @Override
            public boolean supportsMixedListValues() {
                return false;
            }

            @Override
            public boolean supportsBooleanArrayValues() {
                return false;
            }

            @Override
            public boolean supportsByteArrayValues() {
                return false;
            }

            @Override
            public boolean supportsDoubleArrayValues() {
                return false;
            }

            @Override
            public boolean supportsFloatArrayValues() {
                return false;
            }

            @Override
            public boolean supportsIntegerArrayValues() {
                return false;
            }

            @Override
            public boolean supportsStringArrayValues() {
                return false;
            }

            @Override
            public boolean supportsLongArrayValues() {
                return false;
            }

            @Override
            public boolean supportsSerializableValues() {
                return false;
            }

            @Override
            public boolean supportsStringValues() {
                return false;
            }

            @Override
            public boolean supportsUniformListValues() {
                return false;
            }
        };

        @Override
        public boolean supportsComputer() {
            return false;
        }

        @Override
        public boolean supportsPersistence() {
            return false;
        }

        @Override
        public boolean supportsTransactions() {
            return false;
        }

        @Override
        public boolean supportsThreadedTransactions() {
            return false;
        }

        @Override
        public boolean supportsConcurrentAccess() {
            return false;
        }

        @Override
        public boolean supportsServiceCall() {
            return false;
        }

        @Override
        public VariableFeatures variables() {
            return variables;
        }
    }

    /** Ids: numeric only, user-supplied or assigned; no null values. A class, so its methods beat interface defaults. */
    abstract static class NumericIds implements ElementFeatures {
        @Override
        public boolean supportsStringIds() {
            return false;
        }

        @Override
        public boolean supportsUuidIds() {
            return false;
        }

        @Override
        public boolean supportsCustomIds() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        public boolean willAllowId(final Object id) {
            return Ids.toLongOrMissing(id) != Ids.MISSING;
        }
    }

    static final class PraghVertexFeatures extends NumericIds implements VertexFeatures {
        private final VertexPropertyFeatures properties = new PraghVertexPropertyFeatures();
        private final VertexProperty.Cardinality cardinality;

        PraghVertexFeatures(final VertexProperty.Cardinality cardinality) {
            this.cardinality = cardinality;
        }

        @Override
        public VertexProperty.Cardinality getCardinality(final String key) {
            return cardinality;
        }

        @Override
        public boolean supportsUpsert() {
            return false;
        }

        @Override
        public VertexPropertyFeatures properties() {
            return properties;
        }
    }

    static final class PraghEdgeFeatures extends NumericIds implements EdgeFeatures {
        @Override
        public boolean supportsUpsert() {
            return false;
        }
    }

    /** Vertex property ids are assigned by the graph, never supplied. */
    static final class PraghVertexPropertyFeatures implements VertexPropertyFeatures {
        @Override
        public boolean supportsUserSuppliedIds() {
            return false;
        }

        @Override
        public boolean supportsStringIds() {
            return false;
        }

        @Override
        public boolean supportsUuidIds() {
            return false;
        }

        @Override
        public boolean supportsCustomIds() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }
    }
}
