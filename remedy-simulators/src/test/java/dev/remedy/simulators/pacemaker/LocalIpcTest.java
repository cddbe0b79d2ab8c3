package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The IPC names of corosync and the fencer, read from /proc/net/unix")
class LocalIpcTest {

    private static final String HEADER = "Num       RefCount Protocol Flags    Type St Inode Path\n";

    @Test
    @DisplayName("an abstract socket padded with NULs (shown as @) takes its name; other sockets do not")
    void taken() {
        String table = HEADER
                + "00000000ea19e83c: 00000002 00000000 00010000 0001 01 219831 @stonith-ng@@@@@@@@@@@@@@@@@@\n"
                + "00000000ea19e83d: 00000002 00000000 00010000 0001 01 219832 @cpg@@@@@@@@@@@@@@@@@@@@@@@@@\n"
                + "00000000ea19e83e: 00000002 00000000 00010000 0001 01 219833 @qb-22124-22350-29-Joywcr@@@@\n"
                + "00000000ea19e83f: 00000002 00000000 00010000 0001 01 219834 /run/cmap.sock\n"
                + "00000000ea19e840: 00000003 00000000 00000000 0001 03 219835\n";
        assertThat(LocalIpc.taken(table, LocalIpc.NAMES)).containsExactly("stonith-ng", "cpg");
    }

    @Test
    @DisplayName("a machine without corosync or fencer takes none of the names")
    void free() {
        assertThat(LocalIpc.taken(HEADER + "00000000ea19e83c: 00000002 00000000 00010000 0001 01 1 @cpgx\n",
                LocalIpc.NAMES)).isEmpty();
    }
}
