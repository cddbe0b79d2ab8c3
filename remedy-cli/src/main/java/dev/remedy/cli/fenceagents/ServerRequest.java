package dev.remedy.cli.fenceagents;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One call as a launcher sends it to the agent server, a line each: {@code token T}, {@code type T}, then
 * {@code arg A} per command-line argument, {@code in L} per line of stdin, and {@code end}. Bounded: lines of at
 * most {@value #MAX_LINE} characters, at most {@value #MAX_LINES} of them.
 *
 * @param token the server's token, which the launcher read from the server file
 * @param type  the agent type
 * @param args  the launcher's arguments
 * @param stdin its stdin, when it had no arguments
 */
record ServerRequest(String token, String type, List<String> args, String stdin) {

    static final int MAX_LINE = 16 * 1024;
    static final int MAX_LINES = 1024;

    /**
     * Reads one request.
     *
     * @throws IOException when the connection fails, or the request is not one (the message says which line)
     */
    static ServerRequest read(BufferedReader in) throws IOException {
        String token = null;
        String type = null;
        List<String> args = new ArrayList<>();
        StringBuilder stdin = new StringBuilder();
        for (int count = 0; count < MAX_LINES; count++) {
            String line = line(in);
            if (line == null) {
                throw new IOException("the request ended before 'end'");
            }
            if (line.equals("end")) {
                if (token == null || type == null) {
                    throw new IOException("the request has no " + (token == null ? "token" : "type"));
                }
                return new ServerRequest(token, type, List.copyOf(args), stdin.toString());
            }
            int space = line.indexOf(' ');
            String value = space < 0 ? "" : line.substring(space + 1);
            switch (space < 0 ? line : line.substring(0, space)) {
                case "token" -> token = value;
                case "type" -> type = value;
                case "arg" -> args.add(value);
                case "in" -> stdin.append(value).append('\n');
                default -> throw new IOException("line " + (count + 1) + " of the request is not token, type, arg, "
                        + "in or end");
            }
        }
        throw new IOException("the request has more than " + MAX_LINES + " lines");
    }

    /** One line without its newline, or null at the end; longer than {@link #MAX_LINE} is an error. */
    private static String line(BufferedReader in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (line.length() == MAX_LINE) {
                throw new IOException("a line of the request is longer than " + MAX_LINE + " characters");
            }
            line.append((char) c);
        }
        return c < 0 && line.length() == 0 ? null : line.toString();
    }

    /** Never the token or the options: they hold secrets. */
    @Override
    public String toString() {
        return "ServerRequest[type=" + type + ", " + args.size() + " arguments]";
    }
}
