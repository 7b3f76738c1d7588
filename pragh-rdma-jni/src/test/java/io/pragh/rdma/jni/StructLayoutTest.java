package io.pragh.rdma.jni;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The byte positions the Java side writes agree with the C compiler's view of the structs: Pragh's own descriptor
 * and completion records, and the ibverbs structs DiSNI 2.1 serializes field by field.
 */
class StructLayoutTest {
    private Map<String, Integer> layout;

    @BeforeEach
    void queryNative() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        layout = NativeLayout.query();
    }

    private void same(String name, int javaValue) {
        assertEquals(javaValue, NativeLayout.value(layout, name), name);
    }

    @Test
    void praghWorkDescriptorMatchesTheNativeStruct() {
        same("pragh_work.size", WorkRequest.SIZE);
        same("pragh_work.wr_id", WorkRequest.WR_ID_OFFSET);
        same("pragh_work.qp", WorkRequest.QP_OFFSET);
        same("pragh_work.local_addr", WorkRequest.LOCAL_ADDRESS_OFFSET);
        same("pragh_work.remote_addr", WorkRequest.REMOTE_ADDRESS_OFFSET);
        same("pragh_work.compare", WorkRequest.COMPARE_OFFSET);
        same("pragh_work.swap", WorkRequest.SWAP_OFFSET);
        same("pragh_work.length", WorkRequest.LENGTH_OFFSET);
        same("pragh_work.lkey", WorkRequest.LKEY_OFFSET);
        same("pragh_work.rkey", WorkRequest.RKEY_OFFSET);
        same("pragh_work.opcode", WorkRequest.OPCODE_OFFSET);
        same("pragh_work.flags", WorkRequest.FLAGS_OFFSET);
        same("PW_CAS", WorkRequest.CAS);
        same("PF_SIGNALLED", WorkRequest.SIGNALLED);
    }

    @Test
    void praghCompletionMatchesTheNativeStruct() {
        same("pragh_completion.size", Completion.SIZE);
        same("pragh_completion.wr_id", Completion.WR_ID_OFFSET);
        same("pragh_completion.status", Completion.STATUS_OFFSET);
        same("pragh_completion.opcode", Completion.OPCODE_OFFSET);
        same("pragh_completion.byte_len", Completion.BYTE_LENGTH_OFFSET);
        same("pragh_completion.vendor_err", Completion.VENDOR_ERROR_OFFSET);
        same("pragh_completion.qp_num", Completion.QP_NUMBER_OFFSET);
    }

    @Test
    void registrationWithRemoteAtomicsUsesTheHeaderConstants() {
        same("IBV_ACCESS_REMOTE_ATOMIC", PraghVerbs.ACCESS_REMOTE_ATOMIC);
        same("IBV_ACCESS_REMOTE_READ", PraghVerbs.ACCESS_REMOTE_READ);
        same("IBV_ACCESS_REMOTE_WRITE", PraghVerbs.ACCESS_REMOTE_WRITE);
        same("IBV_ACCESS_LOCAL_WRITE", PraghVerbs.ACCESS_LOCAL_WRITE);
    }

    @Test
    void theRuntimeCheckAcceptsTheRealLayout() {
        assertDoesNotThrow(WorkRequest::checkAgainstNative);
    }

    @Test
    void theRuntimeCheckNamesAFieldThatDiffers() {
        Map<String, Integer> shifted = new HashMap<>(layout);
        shifted.put("pragh_work.rkey", WorkRequest.RKEY_OFFSET + 4);
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> WorkRequest.expect(shifted, "pragh_work.rkey", WorkRequest.RKEY_OFFSET));
        assertTrue(e.getMessage().contains("pragh_work.rkey"), e.getMessage());
    }

    /**
     * DiSNI 2.1's NatIbvSendWR.writeBack puts wr_id, next, sg_list (longs), then num_sge, opcode, send_flags,
     * imm_data (ints) back to back from the start of each record, and the RDMA part at REMOTEADDR_OFFSET and
     * RKEY_OFFSET; NatIbvSge writes addr, length, lkey; NatIbvRecvWR wr_id, next, sg_list, num_sge. Those are the
     * positions listed here, and they must be where the compiler put the fields.
     */
    @Test
    void disniWritesIbverbsStructFieldsWhereTheCompilerPutThem() throws Exception {
        same("ibv_send_wr.wr_id", 0);
        same("ibv_send_wr.next", 8);
        same("ibv_send_wr.sg_list", 16);
        same("ibv_send_wr.num_sge", 24);
        same("ibv_send_wr.opcode", 28);
        same("ibv_send_wr.send_flags", 32);
        same("ibv_send_wr.imm_data", 36);
        same("ibv_send_wr.wr.rdma.remote_addr", disniStatic("com.ibm.disni.verbs.impl.NatIbvSendWR",
            "REMOTEADDR_OFFSET"));
        same("ibv_send_wr.wr.rdma.rkey", disniStatic("com.ibm.disni.verbs.impl.NatIbvSendWR", "RKEY_OFFSET"));
        same("ibv_sge.addr", 0);
        same("ibv_sge.length", 8);
        same("ibv_sge.lkey", 12);
        same("ibv_sge.size", disniStatic("com.ibm.disni.verbs.impl.NatIbvSge", "CSIZE"));
        same("ibv_recv_wr.wr_id", 0);
        same("ibv_recv_wr.next", 8);
        same("ibv_recv_wr.sg_list", 16);
        same("ibv_recv_wr.num_sge", 24);
        same("ibv_recv_wr.size", disniStatic("com.ibm.disni.verbs.impl.NatIbvRecvWR", "CSIZE"));
        same("sockaddr_in.sin_family", 0);
        same("sockaddr_in.sin_port", 2);
        same("sockaddr_in.sin_addr", 4);
    }

    /** DiSNI's NatPollCqCall reads ibv_wc fields in declaration order: 8-byte wr_id, eight ints, two shorts, two bytes. */
    @Test
    void disniReadsWorkCompletionsWhereTheCompilerPutThem() throws Exception {
        String[] fields = {"wr_id", "status", "opcode", "vendor_err", "byte_len", "imm_data", "qp_num", "src_qp",
            "wc_flags", "pkey_index", "slid", "sl", "dlid_path_bits"};
        int[] disniPositions = {0, 8, 12, 16, 20, 24, 28, 32, 36, 40, 42, 44, 45};
        for (int i = 0; i < fields.length; i++) {
            same("ibv_wc." + fields[i], disniPositions[i]);
        }
        same("ibv_wc.size", disniStatic("com.ibm.disni.verbs.IbvWC", "CSIZE"));
    }

    @Test
    void compareAndSwapFieldsFollowTheRdmaHeaderInTheUnion() {
        int remote = NativeLayout.value(layout, "ibv_send_wr.wr.atomic.remote_addr");
        assertEquals(NativeLayout.value(layout, "ibv_send_wr.wr.rdma.remote_addr"), remote, "union starts together");
        assertEquals(remote + 8, NativeLayout.value(layout, "ibv_send_wr.wr.atomic.compare_add"));
        assertEquals(remote + 16, NativeLayout.value(layout, "ibv_send_wr.wr.atomic.swap"));
        assertEquals(remote + 24, NativeLayout.value(layout, "ibv_send_wr.wr.atomic.rkey"));
    }

    private static int disniStatic(String className, String field) throws ReflectiveOperationException {
        return Class.forName(className).getField(field).getInt(null);
    }
}
