package dev.remedy.simulators.ssh;

/**
 * The network devices an {@link SshDeviceSimulator} imitates, each with the CLI dialogue of the SSH contract and
 * its own plug ids (see {@link SimulatedDevice#plugs()}).
 */
public enum DeviceKind {

    /** An APC rack PDU (AOS CLI, firmware 5+): outlets {@code "1"} to {@code "N"}. */
    APC_PDU,
    /** A Cisco IOS-style switch: interfaces {@code "GigabitEthernet1/0/1"} to {@code "GigabitEthernet1/0/N"}. */
    CISCO_IOS,
    /** A Brocade FOS fibre channel switch: ports {@code "0"} to {@code "N-1"}. */
    BROCADE_FOS,
    /** A Linux host with a kubelet, the soft-fencing target: no plugs. */
    LINUX_HOST;

    /** The IOS interface name prefix; the port column shows {@code Gi1/0/N}. */
    static final String IOS_INTERFACE = "GigabitEthernet1/0/";

    /** The number a device shows for its plug at {@code index} (0-based): 1-based but for Brocade ports. */
    int number(int index) {
        return this == BROCADE_FOS ? index : index + 1;
    }

    /** The plug id at {@code index} (0-based). */
    String plug(int index) {
        return switch (this) {
            case APC_PDU, BROCADE_FOS -> Integer.toString(number(index));
            case CISCO_IOS -> IOS_INTERFACE + number(index);
            case LINUX_HOST -> throw new IllegalArgumentException("a LINUX_HOST has no plugs");
        };
    }

    /** An error line of this device's command line that says {@code text}, in the form its errors take. */
    String error(String text) {
        return switch (this) {
            case APC_PDU -> "E101: Command Not Found: " + text;
            case CISCO_IOS -> "% Invalid input detected: " + text;
            case BROCADE_FOS -> "Error: " + text;
            case LINUX_HOST -> text + ": command not found";
        };
    }

    /** The name a plug has unless the spec renames it: {@code Outlet N} on a PDU, {@code node-N} elsewhere. */
    String defaultName(int index) {
        return (this == APC_PDU ? "Outlet " : "node-") + number(index);
    }
}
