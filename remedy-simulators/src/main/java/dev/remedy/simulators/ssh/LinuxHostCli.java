package dev.remedy.simulators.ssh;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A root shell on a Linux host with a kubelet: {@code systemctl is-active|restart|start|stop kubelet},
 * {@code echo 1 > /proc/sys/kernel/sysrq}, {@code echo b > /proc/sysrq-trigger} (the host reboots),
 * {@code cat /proc/sys/kernel/random/boot_id} (new after each reboot), {@code uptime}, {@code echo},
 * {@code exit}/{@code logout}.
 */
final class LinuxHostCli implements DeviceCli {

    static final String PROMPT = "root@remedy-node-1:~# ";
    static final String UPTIME = " 10:00:00 up 1 day,  2:03,  1 user,  load average: 0.00, 0.01, 0.05";
    static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";
    private static final Pattern SYSTEMCTL = Pattern.compile("systemctl\\s+(\\S+)\\s+(\\S+)");
    private static final Pattern ECHO = Pattern.compile("echo\\s+(\\S+)\\s*>\\s*(\\S+)");

    private final SimulatedDevice device;

    LinuxHostCli(SimulatedDevice device) {
        this.device = device;
    }

    @Override
    public String greeting() {
        return "";
    }

    @Override
    public String prompt() {
        return PROMPT;
    }

    @Override
    public Reply execute(String command) {
        Matcher systemctl = SYSTEMCTL.matcher(command);
        if (systemctl.matches()) {
            return systemctl(systemctl.group(1), systemctl.group(2));
        }
        Matcher echo = ECHO.matcher(command);
        if (echo.matches()) {
            if (echo.group(2).equals("/proc/sysrq-trigger") && echo.group(1).equals("b")) {
                return Reply.drop(device::reboot);
            }
            return Reply.lines();
        }
        String name = command.split("\\s+", 2)[0];
        return switch (name) {
            case "uptime" -> Reply.lines(UPTIME);
            case "cat" -> command.equals("cat " + BOOT_ID) ? Reply.lines(device.bootId())
                    : Reply.lines("cat: " + command.substring(name.length()).strip() + ": No such file or directory");
            case "echo" -> Reply.lines(command.substring(name.length()).strip());
            case "systemctl" -> Reply.lines("Too few arguments.");
            case "exit", "logout" -> Reply.close();
            default -> Reply.lines("-bash: " + name + ": command not found");
        };
    }

    private Reply systemctl(String verb, String unit) {
        boolean kubelet = unit.equals("kubelet") || unit.equals("kubelet.service");
        switch (verb) {
            case "is-active" -> {
                return Reply.lines(kubelet ? device.kubeletState() : "inactive");
            }
            case "restart", "start", "stop" -> {
                if (!kubelet) {
                    String service = unit.contains(".") ? unit : unit + ".service";
                    return Reply.lines("Failed to " + verb + " " + service + ": Unit " + service + " not found.");
                }
                if (verb.equals("stop")) {
                    device.stopKubelet();
                } else {
                    device.startKubelet(verb.equals("restart"));
                }
                return Reply.lines();
            }
            default -> {
                return Reply.lines("Unknown command verb " + verb + ".");
            }
        }
    }
}
