package dev.remedy.simulators.pacemaker;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of the fixed IPC names of corosync and the fencer are taken on this machine. libqb serves them as abstract
 * Unix sockets ({@code @stonith-ng}, {@code @cpg}…, padded with NULs that {@code /proc/net/unix} shows as
 * {@code @}), one per name per network namespace: a second fencer or corosync cannot start beside a first.
 */
final class LocalIpc {

    /** The names a one-node fencer serves: the fencer's own and corosync's. */
    static final List<String> NAMES = List.of("stonith-ng", "cpg", "cmap", "quorum", "votequorum", "cfg");

    private LocalIpc() {
    }

    /**
     * The names of {@code names} served in {@code procNetUnix} (the text of {@code /proc/net/unix}), in the order
     * of {@code names}.
     */
    static List<String> taken(String procNetUnix, List<String> names) {
        Set<String> paths = procNetUnix.lines().skip(1).map(String::strip).map(line -> line.split("\\s+"))
                .filter(fields -> fields.length >= 8).map(fields -> fields[7]).filter(path -> path.startsWith("@"))
                .map(LocalIpc::abstractName).collect(Collectors.toSet());
        return names.stream().filter(paths::contains).toList();
    }

    private static String abstractName(String path) {
        int end = path.indexOf('@', 1);
        return end < 0 ? path.substring(1) : path.substring(1, end);
    }
}
