package dev.remedy.simulators.redfish;

import java.util.Objects;

/**
 * A rack PDU (Redfish {@code PowerDistribution} of type {@code RackPDU}) to simulate under
 * {@code /redfish/v1/PowerEquipment/RackPDUs}, with outlets numbered {@code 1} to {@code outlets}.
 *
 * @param id the PDU id in its URI, for example {@code "pdu-1"}
 * @param outlets how many outlets, 1 to {@value #MAX_OUTLETS}
 */
public record RedfishPdu(String id, int outlets) {

    /** The most outlets one PDU may have. */
    public static final int MAX_OUTLETS = 1024;

    /**
     * Validates the PDU.
     *
     * @throws IllegalArgumentException if the id is not a URI segment or the outlet count is out of range
     */
    public RedfishPdu {
        RedfishSpec.checkSegment("PDU id", Objects.requireNonNull(id, "id"));
        if (outlets < 1 || outlets > MAX_OUTLETS) {
            throw new IllegalArgumentException("PDU '" + id + "': outlets " + outlets + " must be 1 to "
                    + MAX_OUTLETS);
        }
    }
}
