package dev.remedy.fence.snmp.internal.profile;

import dev.remedy.spi.FencingKind;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One table of a device, as data: which plugs it has (their form, and how a plug becomes the index of its OIDs),
 * the columns that name plugs, how a plug's state is read, the SETs that switch it on and off, the device's own
 * reboot where it has one, and, for a fabric profile, whether the isolation survives a restart of the device.
 *
 * @param name              the name the {@code profile} parameter gives
 * @param description       one line on the device
 * @param kind              power (outlets) or fabric (ports)
 * @param plug              the form of a plug given by number, in full; its named groups may feed {@code index}
 * @param index             how a plug becomes its OID index: {@code {plug}}, or named groups of {@code plug} with a
 *                          default for a group that did not match ({@code {unit|0}.{outlet}}), each number with an
 *                          offset if the device counts from 0 ({@code {plug-1}})
 * @param names             the columns whose values name plugs (outlet names, ifName, ifDescr), searched in order for
 *                          a plug given by name; empty if plugs are given by number only
 * @param status            how a plug's state is read
 * @param on                the SET that switches a plug on (or enables a port)
 * @param off               the SET that switches a plug off (or disables a port)
 * @param reboot            the device's own reboot of an outlet, if it has one
 * @param isolationPersists for a fabric profile: whether a port set down stays down after the device restarts
 */
public record DeviceProfile(String name, String description, FencingKind kind, Pattern plug, String index,
        List<Oid> names, StateRead status, Write on, Write off, Optional<DeviceReboot> reboot,
        boolean isolationPersists) implements Profile {

    /** Longest plug name: ifDescr and outlet names are display strings of at most 255, rarely past 64. */
    public static final int MAX_NAME = 255;

    /** A placeholder of {@code index}: a group, its default, its offset ({@code {outlet|1-1}}). */
    static final Pattern GROUP = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)(\\|([0-9]+))?([+-][0-9]{1,3})?}");
    private static final Pattern PLUG_ONLY = Pattern.compile("\\{plug([+-][0-9]{1,3})?}");

    /** Copies the list. */
    public DeviceProfile {
        names = List.copyOf(names);
    }

    /**
     * The OID index of a plug given in the profile's form ({@code 3}, or {@code 1.3} for a unit and an outlet), or
     * empty if the plug is not of that form (it may still be a name).
     */
    public Optional<String> indexOf(String plugText) {
        Matcher matcher = plug.matcher(plugText);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        Matcher group = GROUP.matcher(index);
        StringBuilder result = new StringBuilder();
        while (group.find()) {
            String value;
            if (group.group(1).equals("plug")) {
                value = plugText;
            } else {
                value = matcher.group(group.group(1));
                if (value == null) {
                    value = group.group(3);
                }
            }
            if (value == null) {
                return Optional.empty();
            }
            if (group.group(4) != null) {
                if (!value.matches("[0-9]{1,9}")) {
                    return Optional.empty();
                }
                long shifted = Long.parseLong(value) + Integer.parseInt(group.group(4));
                if (shifted < 0) {
                    return Optional.empty();
                }
                value = Long.toString(shifted);
            }
            group.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        group.appendTail(result);
        String text = result.toString();
        return Oid.isIndex(text) ? Optional.of(text) : Optional.empty();
    }

    /**
     * The plug a user gives for the OID {@code index} (what LIST reports): the index itself when it is a plug of the
     * profile's form that maps to itself, the index with the offset undone for {@code {plug-1}}; empty if neither.
     */
    public Optional<String> plugOf(String index) {
        Matcher only = PLUG_ONLY.matcher(this.index);
        if (only.matches() && only.group(1) != null && index.matches("[0-9]{1,9}")) {
            String plugText = Long.toString(Long.parseLong(index) - Integer.parseInt(only.group(1)));
            return indexOf(plugText).filter(index::equals).map(i -> plugText);
        }
        return indexOf(index).filter(index::equals);
    }

    /**
     * Whether {@code text} could name a plug of this profile: the profile has name columns, and the text is printable
     * (no comma, which separates plugs; no space at either end), at most {@value #MAX_NAME} characters, and not
     * numbers alone (a number outside the plug's form is a wrong outlet, not a name). A name is only ever compared
     * with what the device answers, never sent.
     */
    public boolean mayName(String text) {
        return !names.isEmpty() && isName(text) && !Oid.isIndex(text);
    }

    /** Whether {@code text} has the form of a plug name (see {@link #mayName}). */
    public static boolean isName(String text) {
        return !text.isEmpty() && text.length() <= MAX_NAME && text.strip().equals(text)
                && text.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != ',');
    }

    /** The named groups {@code index} uses, other than {@code plug}. */
    static List<String> groups(String index) {
        return GROUP.matcher(index).results().map(m -> m.group(1)).filter(g -> !g.equals("plug")).toList();
    }
}
