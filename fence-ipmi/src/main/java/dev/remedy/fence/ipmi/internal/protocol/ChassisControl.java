package dev.remedy.fence.ipmi.internal.protocol;

/** The Chassis Control sub-commands (IPMI v2.0 table 28-4) this client uses. */
public enum ChassisControl {
    /** Power down: immediate, like holding the power button. */
    POWER_DOWN(0x00),
    /** Power up. */
    POWER_UP(0x01),
    /** Power cycle: off, then on after a BMC-chosen interval. Never a fence on its own: no OFF is observed. */
    POWER_CYCLE(0x02),
    /** Hard reset: the reset line, power stays on. */
    HARD_RESET(0x03),
    /** Soft shutdown through ACPI: the operating system is asked to shut down. */
    SOFT_SHUTDOWN(0x05);

    private final int code;

    ChassisControl(int code) {
        this.code = code;
    }

    /** The request data byte. */
    public int code() {
        return code;
    }

    /** The one-byte request data. */
    public byte[] data() {
        return new byte[] {(byte) code};
    }
}
