package dev.remedy.fence.snmp.internal.profile;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An OID of a profile, in dotted numbers, with {@code {index}} where a plug's index goes (at most once, at the end
 * or in the middle): {@code 1.3.6.1.4.1.318.1.1.26.9.2.3.1.5.{index}}. A leading dot is dropped.
 *
 * @param template the OID as written, without a leading dot
 */
public record Oid(String template) {

    /** The placeholder of a plug's index. */
    public static final String INDEX = "{index}";

    private static final Pattern FORM = Pattern.compile("[0-9]+(\\.([0-9]+|\\{index}))*");
    private static final Pattern NUMBERS = Pattern.compile("[0-9]+(\\.[0-9]+)*");

    /** Checks the form: dotted numbers, {@code {index}} at most once. */
    public Oid {
        if (!FORM.matcher(template).matches() || template.indexOf(INDEX) != template.lastIndexOf(INDEX)) {
            throw new IllegalArgumentException("'" + template + "' is not an OID in dotted numbers with {index} at most"
                    + " once");
        }
    }

    /** The OID of {@code text} (a leading dot is dropped), or empty if it is not one. */
    public static Optional<Oid> parse(String text) {
        String plain = text.startsWith(".") ? text.substring(1) : text;
        if (!FORM.matcher(plain).matches() || plain.indexOf(INDEX) != plain.lastIndexOf(INDEX)) {
            return Optional.empty();
        }
        return Optional.of(new Oid(plain));
    }

    /** Whether an index (dotted numbers) is a valid one to put in place of {@code {index}}. */
    public static boolean isIndex(String index) {
        return NUMBERS.matcher(index).matches();
    }

    /** Whether this OID names a plug. */
    public boolean perPlug() {
        return template.contains(INDEX);
    }

    /** The OID of one plug's {@code index} (dotted numbers). */
    public String of(String index) {
        if (!isIndex(index)) {
            throw new IllegalArgumentException("'" + index + "' is not an OID index (dotted numbers)");
        }
        return template.replace(INDEX, index);
    }

    /** The table column of this OID, when {@code {index}} ends it: what a walk reads every plug of. */
    public Optional<String> column() {
        return template.endsWith("." + INDEX)
                ? Optional.of(template.substring(0, template.length() - INDEX.length() - 1)) : Optional.empty();
    }

    @Override
    public String toString() {
        return template;
    }
}
