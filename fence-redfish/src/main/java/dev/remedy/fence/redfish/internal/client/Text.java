package dev.remedy.fence.redfish.internal.client;

/**
 * Text a service sent, made fit for a message: control characters and runs of white space become one space, and text
 * past a limit is cut and marked with "…". The service chooses the length and the content of what it sends; messages
 * end up in logs and outcomes.
 */
public final class Text {

    /** The longest excerpt of one value (a property, an id, a link). */
    public static final int VALUE = 80;
    /** The longest excerpt of one message of the service (an error message, a resolution, a parser's complaint). */
    public static final int DETAIL = 300;
    /** The longest excerpt of everything taken from one body. */
    public static final int BODY = 1_000;

    private Text() {
    }

    /** {@code text} on one line, cut after {@code max} characters; a lone surrogate becomes U+FFFD. */
    public static String excerpt(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max + 1));
        boolean space = false;
        for (int i = 0; i < text.length() && out.length() <= max; i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)) {
                space = out.length() > 0;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        if (out.length() <= max) {
            return out.toString();
        }
        int cut = Character.isHighSurrogate(out.charAt(max - 1)) ? max - 1 : max;
        return out.substring(0, cut) + "…";
    }

    /** Whether {@code text} is well-formed UTF-16: every surrogate is half of a pair. */
    static boolean wellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
