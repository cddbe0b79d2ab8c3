package dev.remedy.fence.ipmi;

import dev.remedy.simulators.PeerCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Runs the real {@code ipmitool} (lanplus) as an independent witness: the password goes by environment only. */
final class Ipmitool {

    private Ipmitool() {
    }

    /** {@code ipmitool -I lanplus -C suite ... chassis power status}: "on" or "off", or the failure text. */
    static String powerStatus(String host, int port, String user, String password, int suite)
            throws InterruptedException {
        PeerCommand.Result result = new PeerCommand(List.of("ipmitool", "-I", "lanplus", "-C",
                Integer.toString(suite), "-N", "1", "-R", "3", "-H", host, "-p", Integer.toString(port), "-U", user,
                "-E", "chassis", "power", "status"), Map.of("IPMI_PASSWORD", password), "", Duration.ofSeconds(20))
                .run();
        String output = result.output();
        if (output.endsWith("is on")) {
            return "on";
        }
        return output.endsWith("is off") ? "off" : output;
    }
}
