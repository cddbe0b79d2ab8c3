package dev.remedy.fence.ipmi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code ipmitool} (lanplus) as an independent witness: the password goes by environment only. */
final class Ipmitool {

    private Ipmitool() {
    }

    /** {@code ipmitool -I lanplus -C suite ... chassis power status}: "on" or "off", or the failure text. */
    static String powerStatus(String host, int port, String user, String password, int suite)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ipmitool", "-I", "lanplus", "-C", Integer.toString(suite),
                "-N", "1", "-R", "3", "-H", host, "-p", Integer.toString(port), "-U", user, "-E", "chassis", "power",
                "status"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("IPMI_PASSWORD", password);
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return "ipmitool did not finish within 20 s";
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (output.endsWith("is on")) {
            return "on";
        }
        return output.endsWith("is off") ? "off" : output;
    }
}
