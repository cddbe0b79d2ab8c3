package dev.remedy.simulators.snmp;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** The snmpd.conf of {@link SnmpdProcess}, and the Java argument file its pass_persist lines run. */
final class SnmpdConfig {

    static final String HOST = "127.0.0.1";

    private SnmpdConfig() {
    }

    /**
     * snmpd.conf for one device: loopback only, the system group naming the device's kind, one community with
     * read-write access from loopback, the users, and one pass_persist line per subtree of the device's MIB.
     *
     * @param passPersist the command snmpd runs for the MIB (no spaces inside its words)
     */
    static String render(int port, SnmpDeviceSpec device, String community, List<SnmpUser> users, String passPersist) {
        StringBuilder conf = new StringBuilder()
                .append("# Written by remedy's SnmpdProcess for device ").append(device.name()).append(".\n")
                .append("agentAddress udp:").append(HOST).append(':').append(port).append('\n')
                .append("dontLogTCPWrappersConnects yes\n")
                .append("sysObjectID ").append(device.kind().sysObjectId()).append('\n')
                .append("sysDescr ").append(device.kind().description()).append('\n')
                .append("sysName ").append(device.name()).append('\n')
                .append("sysLocation remedy test rack\n")
                .append("sysContact remedy\n")
                .append("rwcommunity ").append(community).append(' ').append(HOST).append('\n');
        users.forEach(user -> conf.append(user.configLines()));
        for (Oid subtree : device.kind().subtrees()) {
            conf.append("pass_persist ").append(subtree).append(' ').append(passPersist).append('\n');
        }
        return conf.toString();
    }

    /** The snmpd modules that serve a subtree the device's MIB needs (IF-MIB for a switch), to leave out with -I. */
    static List<String> excludedModules(SnmpDeviceKind kind) {
        return kind == SnmpDeviceKind.IF_MIB_SWITCH ? List.of("ifTable", "ifXTable", "interfaces") : List.of();
    }

    /**
     * A Java argument file ({@code java @file}) that runs {@link SnmpPassPersist} on the state file: a small, quickly
     * started JVM (C1 only, serial GC, 64 MB heap), as a fleet of emulated PDUs runs one per snmpd.
     */
    static String javaArguments(String classpath, Path stateFile, Path log) {
        return List.of("-cp", classpath, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx64m",
                SnmpPassPersist.class.getName(), stateFile.toString(), log.toString()).stream()
                .map(SnmpdConfig::quote).collect(Collectors.joining("\n", "", "\n"));
    }

    private static String quote(String argument) {
        return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
