package dev.remedy.fence.ssh.internal.profile;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The placeholders of profile commands and patterns: {@code {plug}} and its synonym {@code {port}}. In a command the
 * plug goes in as it is, and only if it is one word ({@link #isWord}), whatever the profile's plug pattern allows; in
 * a pattern it goes in quoted.
 */
public final class Placeholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(plug|port)}");
    /** What a plug may be made of: letters, digits and {@code . _ - / : + @}; no space, no control character. */
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9._/:+@-]+");

    private Placeholders() {
    }

    /** Whether {@code plug} is one word a device's command line cannot take for more than a plug. */
    public static boolean isWord(String plug) {
        return WORD.matcher(plug).matches();
    }

    /**
     * {@code command} with every placeholder replaced by {@code plug}.
     *
     * @throws IllegalArgumentException if {@code command} has a placeholder and {@code plug} is not {@link #isWord}
     */
    public static String command(String command, String plug) {
        if (present(command) && !isWord(plug)) {
            throw new IllegalArgumentException("plug '" + printable(plug) + "' is not one word (letters, digits and"
                    + " . _ - / : + @ only): it is never put in a command");
        }
        return PLACEHOLDER.matcher(command).replaceAll(Matcher.quoteReplacement(plug));
    }

    /** {@code regex} with every placeholder replaced by {@code plug} as a literal. */
    public static String regex(String regex, String plug) {
        return PLACEHOLDER.matcher(regex).replaceAll(Matcher.quoteReplacement(Pattern.quote(plug)));
    }

    /** {@link #regex} compiled, with {@code ^} and {@code $} matching at line ends. */
    public static Pattern pattern(String regex, String plug) {
        return Pattern.compile(regex(regex, plug), Pattern.MULTILINE);
    }

    /** {@code plug} with each control character shown as {@code ?}, for messages. */
    public static String printable(String plug) {
        return plug.replaceAll("\\p{Cntrl}", "?");
    }

    /** Whether {@code text} holds a placeholder. */
    public static boolean present(String text) {
        return PLACEHOLDER.matcher(text).find();
    }
}
