package dev.remedy.nodeagent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * When the node booted, from the {@code btime} line of {@code /proc/stat}. A remediation signal created before the
 * node booted was answered by that boot: the agent does not reset the node again for it.
 */
public final class BootTime {

    /** The kernel's statistics file. */
    public static final Path PROC_STAT = Path.of("/proc/stat");

    private BootTime() {
    }

    /**
     * The boot time in {@code procStat}.
     *
     * @throws IOException if the file cannot be read or has no {@code btime} line
     */
    public static Instant read(Path procStat) throws IOException {
        for (String line : Files.readAllLines(procStat, StandardCharsets.US_ASCII)) {
            if (line.startsWith("btime ")) {
                try {
                    return Instant.ofEpochSecond(Long.parseLong(line.substring(6).strip()));
                } catch (NumberFormatException e) {
                    throw new IOException("the btime line of " + procStat + " is not a number of seconds", e);
                }
            }
        }
        throw new IOException(procStat + " has no btime line; is it /proc/stat of a Linux host?");
    }
}
