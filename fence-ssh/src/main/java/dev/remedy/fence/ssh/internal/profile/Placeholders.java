package dev.remedy.fence.ssh.internal.profile;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The placeholders of profile commands and patterns: {@code {plug}} and its synonym {@code {port}}. In a command the
 * plug goes in as it is (it was checked against the profile's plug pattern first); in a pattern it goes in quoted.
 */
public final class Placeholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(plug|port)}");

    private Placeholders() {
    }

    /** {@code command} with every placeholder replaced by {@code plug}. */
    public static String command(String command, String plug) {
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

    /** Whether {@code text} holds a placeholder. */
    public static boolean present(String text) {
        return PLACEHOLDER.matcher(text).find();
    }
}
