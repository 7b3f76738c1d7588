package io.pragh.gremlin.structure;

import io.pragh.PraghException;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.EdgeIndexRecord;
import io.pragh.gremlin.storage.EdgeOps;
import io.pragh.gremlin.storage.EdgePropertiesRecord;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.IdBlocks;
import io.pragh.gremlin.storage.PropertyField;
import io.pragh.gremlin.storage.ValueCodec;
import io.pragh.gremlin.storage.VertexOps;
import io.pragh.gremlin.storage.VertexRecord;
import io.pragh.store.Mutators;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link GraphStore} does, whatever runs it: each test gets an empty store over {@value #MACHINES}
 * machines from {@link #open} and checks one method's behaviour with the records PraghGraph stores (vertex records,
 * adjacency lists, edge properties, edge index entries, the id counter and the dictionary). Keys of vertices 1..
 * {@value #SPREAD} are used where it matters that values live on every machine. A subclass says how to open a store;
 * the behaviour pinned here is the same for all.
 */
public abstract class GraphStoreContract {
    protected static final int MACHINES = 3;
    /** Enough vertex ids that, hashed over {@value #MACHINES} machines, every machine homes some of their keys. */
    private static final int SPREAD = 30;
    private static final int KNOWS = 7;

    protected GraphStore store;

    /** An empty store over {@value #MACHINES} machines. */
    protected abstract GraphStore open();

    @BeforeEach
    void openStore() {
        store = open();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private static byte[] bytes(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] vertexRecord(final int label, final int key, final Object value) {
        final List<VertexRecord.Entry> properties = new ArrayList<>();
        properties.add(new VertexRecord.Entry(new PropertyField(key, ValueCodec.encode(value)), 100 + key, List.of()));
        return new VertexRecord(label, properties).encode();
    }

    @Test
    void aKeyNeverWrittenHasNoValue() {
        assertNull(store.get(GraphKeys.vertex(42)), "vertex record of an unknown id");
        assertNull(store.get(GraphKeys.out(42, KNOWS)), "adjacency of an unknown id");
        assertNull(store.get(GraphKeys.edgeIndex(42)), "edge index entry of an unknown edge id");
        assertNull(store.get(GraphKeys.vertex(GraphKeys.MAX_ID)), "the largest id a key carries");
    }

    @Test
    void aPutIsReadBackOnEveryMachineAndASecondPutReplacesIt() {
        for (long vid = 1; vid <= SPREAD; vid++) {
            store.put(GraphKeys.vertex(vid), vertexRecord(1, 2, "v" + vid));
        }
        for (long vid = 1; vid <= SPREAD; vid++) {
            final VertexRecord r = VertexRecord.decode(store.get(GraphKeys.vertex(vid)));
            assertEquals(1, r.label, "label of vertex " + vid);
            assertEquals("v" + vid, r.properties.get(0).field.value(), "property of vertex " + vid);
            assertEquals(102, r.properties.get(0).id);
        }
        store.put(GraphKeys.vertex(5), vertexRecord(3, 4, 9L));
        final VertexRecord replaced = VertexRecord.decode(store.get(GraphKeys.vertex(5)));
        assertEquals(3, replaced.label);
        assertEquals(9L, replaced.properties.get(0).field.value());
        assertEquals(1, replaced.properties.size(), "a put replaces the whole value");
    }

    @Test
    void anEmptyValueIsStoredAndReadBackEmpty() {
        store.put(GraphKeys.vertex(3), new byte[0]);
        assertArrayEquals(new byte[0], store.get(GraphKeys.vertex(3)));
    }

    @Test
    void getAllHandsEachOfTheFirstCountValuesOrNullToTheVisitorWithItsIndex() {
        final long[] keys = new long[SPREAD + 5];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = GraphKeys.vertex(i + 1);
            if (i % 2 == 0) {
                store.put(keys[i], bytes("value " + i));
            }
        }
        final Map<Integer, byte[]> seen = new HashMap<>();
        final List<Integer> order = new ArrayList<>();
        store.getAll(keys, SPREAD, (index, value) -> {
            order.add(index);
            seen.put(index, value);
        });
        assertEquals(SPREAD, order.size(), "one visit per key of the first " + SPREAD + ": " + order);
        assertEquals(SPREAD, new HashSet<>(order).size(), "each index once: " + order);
        for (int i = 0; i < SPREAD; i++) {
            if (i % 2 == 0) {
                assertArrayEquals(bytes("value " + i), seen.get(i), "index " + i);
            } else {
                assertNull(seen.get(i), "index " + i + " was never written");
            }
        }
        final List<Integer> none = new ArrayList<>();
        store.getAll(keys, 0, (index, value) -> none.add(index));
        assertEquals(List.of(), none, "a count of 0 visits nothing");
    }

    @Test
    void appendCreatesAnAdjacencyListAndAddsEntriesAtItsEnd() {
        for (long vid = 1; vid <= SPREAD; vid++) {
            store.append(GraphKeys.out(vid, KNOWS), Adjacency.entry(vid + 1, 1000 + vid));
            store.append(GraphKeys.out(vid, KNOWS), Adjacency.entry(vid + 2, 2000 + vid));
        }
        for (long vid = 1; vid <= SPREAD; vid++) {
            final byte[] list = store.get(GraphKeys.out(vid, KNOWS));
            assertEquals(2, Adjacency.count(list), "entries of vertex " + vid);
            assertEquals(vid + 1, Adjacency.neighbour(list, 0));
            assertEquals(1000 + vid, Adjacency.edgeId(list, 0));
            assertEquals(vid + 2, Adjacency.neighbour(list, 1));
            assertEquals(2000 + vid, Adjacency.edgeId(list, 1));
        }
    }

    @Test
    void removeEdgeDropsOneEdgesEntriesAndTheListWithItsLastEntry() {
        final long key = GraphKeys.in(9, KNOWS);
        store.append(key, Adjacency.entry(1, 11));
        store.append(key, Adjacency.entry(2, 12));
        store.append(key, Adjacency.entry(1, 11)); // a multi-edge's entry twice: both go
        store.update(key, GraphMutations.REMOVE_EDGE, edgeIdArgument(11));
        final byte[] left = store.get(key);
        assertEquals(1, Adjacency.count(left));
        assertEquals(12, Adjacency.edgeId(left, 0));
        store.update(key, GraphMutations.REMOVE_EDGE, edgeIdArgument(12));
        assertNull(store.get(key), "an emptied adjacency list is deleted");
        store.update(key, GraphMutations.REMOVE_EDGE, edgeIdArgument(12));
        assertNull(store.get(key), "removing from a missing list leaves it missing");
        assertEquals(List.of(), keysOf(GraphKeys.IN));
    }

    @Test
    void aLongListIsSealedIntoSegmentsAtItsHostAndReadWholeWithRemovalsApplied() {
        final long key = GraphKeys.out(5, KNOWS);
        for (int i = 0; i < 7; i++) {
            store.append(key, Adjacency.entry(100 + i, 10 + i));
        }
        assertEquals(2, new SegmentSealer(store, 3).sealIfLong(key), "7 entries, segments of 3: two sealed");
        final byte[] tail = store.get(key);
        assertEquals(2, AdjacencySegments.slots(tail).length);
        store.append(key, Adjacency.entry(107, 17));
        store.update(key, GraphMutations.REMOVE_EDGE, edgeIdArgument(11)); // in the first sealed segment
        final byte[] whole = SegmentedLists.get(store, key);
        final List<Long> neighbours = new ArrayList<>();
        for (int i = 0; i < Adjacency.count(whole); i++) {
            neighbours.add(Adjacency.neighbour(whole, i));
        }
        assertEquals(List.of(100L, 102L, 103L, 104L, 105L, 106L, 107L), neighbours, "in order, the removed one left out");
        assertEquals(-1, SegmentedLists.neighbourOf(store, key, 11));
        assertEquals(104, SegmentedLists.neighbourOf(store, key, 14));
        assertEquals(2, keysOf(GraphKeys.SEGMENT).size() - 1, "two segments and the vertex's slot record");
    }

    private static byte[] edgeIdArgument(final long edgeId) {
        return java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(edgeId).array();
    }

    @Test
    void vertexEditsRunAtTheHostAndNeverResurrectARemovedVertex() {
        final long key = GraphKeys.vertex(4);
        store.put(key, VertexRecord.empty(1).encode());
        store.update(key, GraphMutations.VERTEX, VertexOps.add(VertexOps.LIST,
            new PropertyField(2, ValueCodec.encode("a")), 21, List.of()));
        store.update(key, GraphMutations.VERTEX, VertexOps.add(VertexOps.LIST,
            new PropertyField(2, ValueCodec.encode("b")), 22, List.of()));
        store.update(key, GraphMutations.VERTEX, VertexOps.setMeta(22, new PropertyField(3, ValueCodec.encode(1))));
        VertexRecord r = VertexRecord.decode(store.get(key));
        assertEquals(2, r.properties.size());
        assertEquals("b", r.find(22).field.value());
        assertEquals(1, r.find(22).metas.get(0).value());
        store.update(key, GraphMutations.VERTEX, VertexOps.add(VertexOps.SINGLE,
            new PropertyField(2, ValueCodec.encode("c")), 23, List.of()));
        r = VertexRecord.decode(store.get(key));
        assertEquals(1, r.properties.size(), "single cardinality replaces every value of the key");
        store.update(key, GraphMutations.VERTEX, VertexOps.remove(23));
        assertEquals(0, VertexRecord.decode(store.get(key)).properties.size());

        store.delete(key);
        store.update(key, GraphMutations.VERTEX, VertexOps.add(VertexOps.SINGLE,
            new PropertyField(2, ValueCodec.encode("late")), 24, List.of()));
        assertNull(store.get(key), "an edit of a removed vertex leaves it removed");
    }

    @Test
    void edgePropertiesAreSetRemovedAndDroppedPerEdgeInTheOutVertexsRecord() {
        final long key = GraphKeys.edgeProperties(6, KNOWS);
        store.update(key, GraphMutations.EDGE_PROPERTIES, EdgeOps.set(61, new PropertyField(2, ValueCodec.encode(0.5d))));
        store.update(key, GraphMutations.EDGE_PROPERTIES, EdgeOps.set(61, new PropertyField(3, ValueCodec.encode("x"))));
        store.update(key, GraphMutations.EDGE_PROPERTIES, EdgeOps.set(62, new PropertyField(2, ValueCodec.encode(1.5d))));
        EdgePropertiesRecord r = EdgePropertiesRecord.decode(store.get(key));
        assertEquals(Set.of(61L, 62L), r.edges.keySet());
        assertEquals(2, r.edges.get(61L).size());
        store.update(key, GraphMutations.EDGE_PROPERTIES, EdgeOps.remove(61, 3));
        store.update(key, GraphMutations.EDGE_PROPERTIES, EdgeOps.drop(62));
        r = EdgePropertiesRecord.decode(store.get(key));
        assertEquals(Set.of(61L), r.edges.keySet());
        assertEquals(0.5d, r.edges.get(61L).get(0).value());
    }

    @Test
    void anEdgeIndexEntryFindsItsEdgeByIdAndGoesWithADelete() {
        store.put(GraphKeys.edgeIndex(77), new EdgeIndexRecord(3, KNOWS, 4).encode());
        final EdgeIndexRecord e = EdgeIndexRecord.decode(store.get(GraphKeys.edgeIndex(77)));
        assertEquals(3, e.outVid);
        assertEquals(KNOWS, e.label);
        assertEquals(4, e.inVid);
        store.delete(GraphKeys.edgeIndex(77));
        assertNull(store.get(GraphKeys.edgeIndex(77)));
    }

    @Test
    void idBlockClaimsGetDisjointBlocksAndAnAdvanceMovesLaterBlocksPastAnId() {
        store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.claim(1, 1, 100));
        final long first = IdBlocks.claimedBy(store.get(GraphKeys.idBlocks()), 1, 1);
        assertEquals(IdBlocks.FIRST_ID, first, "a fresh store's first block starts at the first id");
        store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.claim(2, 2, 100));
        final byte[] record = store.get(GraphKeys.idBlocks());
        assertEquals(first + 100, IdBlocks.claimedBy(record, 2, 2));
        assertEquals(-1, IdBlocks.claimedBy(record, 1, 1), "the last claim is the second claimant's");
        store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.advanceTo(5_000));
        store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.claim(3, 3, 10));
        assertTrue(IdBlocks.claimedBy(store.get(GraphKeys.idBlocks()), 3, 3) >= 5_000);
    }

    @Test
    void updateAllAppliesEveryUpdateOfTheBatchOnEveryMachine() {
        final UpdateBatch batch = new UpdateBatch();
        for (long vid = 1; vid <= SPREAD; vid++) {
            batch.add(GraphKeys.out(vid, KNOWS), Mutators.APPEND, Adjacency.entry(vid + 1, vid));
            batch.add(GraphKeys.in(vid + 1, KNOWS), Mutators.APPEND, Adjacency.entry(vid, vid));
        }
        store.updateAll(batch);
        for (long vid = 1; vid <= SPREAD; vid++) {
            assertEquals(vid + 1, Adjacency.neighbour(store.get(GraphKeys.out(vid, KNOWS)), 0));
            assertEquals(vid, Adjacency.neighbour(store.get(GraphKeys.in(vid + 1, KNOWS)), 0));
        }
        store.updateAll(new UpdateBatch());
        assertEquals(2 * SPREAD, keysOf(GraphKeys.OUT).size() + keysOf(GraphKeys.IN).size(), "an empty batch is a no-op");
    }

    @Test
    void aFailedUpdateOfABatchIsThrownOnceTheOthersTookEffect() {
        store.put(GraphKeys.vertex(2), VertexRecord.empty(1).encode());
        final UpdateBatch batch = new UpdateBatch();
        for (long vid = 10; vid < 10 + SPREAD; vid++) {
            batch.add(GraphKeys.out(vid, KNOWS), Mutators.APPEND, Adjacency.entry(1, vid));
        }
        batch.add(GraphKeys.vertex(2), GraphMutations.VERTEX, new byte[] {99}); // no such vertex operation
        final RuntimeException e = assertThrows(RuntimeException.class, () -> store.updateAll(batch));
        assertTrue(String.valueOf(e.getMessage()).contains("unknown vertex operation 99"), e.toString());
        for (long vid = 10; vid < 10 + SPREAD; vid++) {
            assertNotNull(store.get(GraphKeys.out(vid, KNOWS)), "the batch's update of vertex " + vid);
        }
        assertEquals(0, VertexRecord.decode(store.get(GraphKeys.vertex(2))).properties.size(), "left as it was");
    }

    @Test
    void aMutatorThatRejectsItsArgumentFailsTheUpdateNamingWhy() {
        for (long vid = 1; vid <= SPREAD; vid += 7) {
            final long key = GraphKeys.vertex(vid);
            store.put(key, VertexRecord.empty(1).encode());
            final RuntimeException e = assertThrows(RuntimeException.class,
                () -> store.update(key, GraphMutations.VERTEX, new byte[] {99}));
            assertTrue(String.valueOf(e.getMessage()).contains("unknown vertex operation 99"), e.toString());
            assertArrayEquals(VertexRecord.empty(1).encode(), store.get(key), "left as it was");
        }
    }

    @Test
    void anUpdateWithAnUnregisteredMutatorFailsNamingIt() {
        final long key = GraphKeys.vertex(8);
        store.put(key, bytes("kept"));
        final RuntimeException e = assertThrows(RuntimeException.class, () -> store.update(key, 31, new byte[0]));
        assertTrue(String.valueOf(e.getMessage()).contains("31"), e.toString());
        assertArrayEquals(bytes("kept"), store.get(key));
    }

    @Test
    void aDeleteRemovesTheValueAndItsKeyFromScansAndDeletingAnAbsentKeySucceeds() {
        for (long vid = 1; vid <= SPREAD; vid++) {
            store.put(GraphKeys.vertex(vid), VertexRecord.empty(1).encode());
        }
        for (long vid = 1; vid <= SPREAD; vid += 2) {
            store.delete(GraphKeys.vertex(vid));
        }
        store.delete(GraphKeys.vertex(SPREAD + 1000));
        final Set<Long> left = new HashSet<>();
        for (long vid = 2; vid <= SPREAD; vid += 2) {
            left.add(GraphKeys.vertex(vid));
        }
        assertEquals(left, new HashSet<>(keysOf(GraphKeys.VERTEX)));
        assertNull(store.get(GraphKeys.vertex(1)));
        store.put(GraphKeys.vertex(1), bytes("again"));
        assertArrayEquals(bytes("again"), store.get(GraphKeys.vertex(1)), "a deleted key can be written again");
    }

    @Test
    void forEachKeyVisitsEveryStoredKeyOfOneKindOnceOnEveryMachine() {
        final Set<Long> vertices = new HashSet<>();
        final Set<Long> out = new HashSet<>();
        for (long vid = 1; vid <= SPREAD; vid++) {
            store.put(GraphKeys.vertex(vid), VertexRecord.empty(1).encode());
            vertices.add(GraphKeys.vertex(vid));
            if (vid % 3 == 0) {
                store.append(GraphKeys.out(vid, KNOWS), Adjacency.entry(1, vid));
                out.add(GraphKeys.out(vid, KNOWS));
            }
        }
        final List<Long> seen = keysOf(GraphKeys.VERTEX);
        assertEquals(vertices.size(), seen.size(), "each key once: " + seen);
        assertEquals(vertices, new HashSet<>(seen));
        assertEquals(out, new HashSet<>(keysOf(GraphKeys.OUT)));
        assertEquals(List.of(), keysOf(GraphKeys.EDGE_INDEX), "a kind nothing was stored under");
        final Set<Integer> homes = new HashSet<>();
        for (final long key : seen) {
            homes.add(homeOf(key));
        }
        assertEquals(MACHINES, homes.size(), "the keys live on every machine");
    }

    @Test
    void aScanOfAKindNoKeyCarriesIsRefusedNamingIt() {
        for (final int kind : new int[] {0, 16, -1}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> store.forEachKey(kind, key -> { }));
            assertTrue(e.getMessage().contains("no key kind " + kind), e.getMessage());
        }
    }

    /** The machine that homes {@code key}. */
    protected abstract int homeOf(long key);

    private List<Long> keysOf(final int kind) {
        final List<Long> keys = new ArrayList<>();
        store.forEachKey(kind, keys::add);
        return keys;
    }

    @Test
    void callOnHomeReturnsTheWorksResultAndTheWorkSeesTheStore() {
        store.put(GraphKeys.vertex(12), bytes("twelve"));
        for (long vid = 1; vid <= SPREAD; vid++) {
            final long key = GraphKeys.vertex(vid);
            final byte[] read = store.callOnHome(key, () -> store.get(GraphKeys.vertex(12)));
            assertArrayEquals(bytes("twelve"), read, "read by work for vertex " + vid);
        }
        final long outer = GraphKeys.vertex(1);
        final long inner = GraphKeys.vertex(2);
        assertEquals("nested", store.callOnHome(outer, () -> store.callOnHome(inner, () -> "nested")));
        store.callOnHome(outer, () -> {
            store.put(GraphKeys.vertex(13), bytes("from work"));
            return null;
        });
        assertArrayEquals(bytes("from work"), store.get(GraphKeys.vertex(13)), "a write by work is seen after it");
    }

    @Test
    void callOnHomeRethrowsAnUncheckedFailureAsItIsAndWrapsACheckedOne() {
        final IllegalArgumentException unchecked = new IllegalArgumentException("bad vertex");
        assertSame(unchecked, assertThrows(IllegalArgumentException.class,
            () -> store.callOnHome(GraphKeys.vertex(1), () -> {
                throw unchecked;
            })));
        final IOException checked = new IOException("disk");
        final PraghException wrapped = assertThrows(PraghException.class,
            () -> store.callOnHome(GraphKeys.vertex(2), () -> {
                throw checked;
            }));
        assertSame(checked, wrapped.getCause());
        assertTrue(wrapped.getMessage().contains("disk"), wrapped.getMessage());
    }

    @Test
    void theDictionaryIsOnePerStoreAndGivesANameTheSameIdOnEveryRead() {
        assertSame(store.names(), store.names());
        final int person = store.names().intern("person");
        final int knows = store.names().internEdgeLabel("knows");
        assertNotEquals(person, knows);
        assertEquals(person, store.names().intern("person"));
        assertEquals(person, store.names().id("person"));
        assertEquals("knows", store.names().name(knows));
        assertArrayEquals(new int[] {knows}, store.names().edgeLabels());
        assertNotNull(store.get(GraphKeys.dictionary()), "the names live in the store's dictionary record");
    }

    @Test
    void aStoreReportsItsMachinesAndOffHeapMemory() {
        assertEquals(MACHINES, store.machines());
        assertTrue(store.offHeapUse().reservedBytes() > 0, store.offHeapUse().toString());
    }

    @Test
    void aValueTooLargeForTheStoreIsRefusedNamingItsSizeAndTheStoreServesOn() {
        final byte[] huge = new byte[64 << 20];
        for (long vid = 1; vid <= MACHINES; vid++) { // homed here or elsewhere: the limit met differs, not the error
            final long key = GraphKeys.vertex(vid);
            final PraghException e = assertThrows(PraghException.class, () -> store.put(key, huge));
            assertTrue(String.valueOf(e.getMessage()).matches(".*\\b6710\\d{4} bytes.*"), e.toString());
            assertNull(store.get(key));
            store.put(key, bytes("small"));
            assertArrayEquals(bytes("small"), store.get(key));
        }
    }

    @Test
    void aNullValueOrArgumentIsRefused() {
        assertThrows(NullPointerException.class, () -> store.put(GraphKeys.vertex(1), null));
        assertThrows(NullPointerException.class, () -> store.append(GraphKeys.out(1, KNOWS), null));
        assertNull(store.get(GraphKeys.vertex(1)));
    }
}
