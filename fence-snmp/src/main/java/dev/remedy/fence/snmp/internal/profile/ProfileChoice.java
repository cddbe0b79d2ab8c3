package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.spi.FencingKind;
import java.util.List;

/**
 * A profile that is one of several tables, chosen by what the device answers: the first candidate whose status OID
 * of the node's first plug the device answers with a value is used (APC: rPDU2 on current firmware, the sPDU
 * MasterSwitch table on old units). Naming a candidate in {@code profile} overrides the choice.
 *
 * @param name        the profile's name
 * @param description one line on the device
 * @param kind        the kind every candidate shares
 * @param candidates  the table profiles, in the order they are tried
 */
public record ProfileChoice(String name, String description, FencingKind kind, List<DeviceProfile> candidates)
        implements Profile {

    /** Copies the candidates; there must be at least two. */
    public ProfileChoice {
        candidates = List.copyOf(candidates);
        if (candidates.size() < 2) {
            throw new IllegalArgumentException("a choice needs at least two candidates");
        }
    }
}
