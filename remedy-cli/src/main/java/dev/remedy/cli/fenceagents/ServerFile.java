package dev.remedy.cli.fenceagents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Where the agent server of a jar listens, in {@code <jar>.agent-server}, one line that a launcher reads with
 * {@code read -r port id token pid}: the loopback port, the server's id (which it says first on every connection, so
 * that a launcher never sends options to another program that took the port), the token a launcher must send (so
 * that no other local user can drive the server) and the pid. Readable by its owner only: the launcher trusts a file
 * it owns, and the id and the token are secrets.
 *
 * @param port  the TCP port on 127.0.0.1
 * @param id    what the server says first
 * @param token what a caller must send
 * @param pid   the server's process
 */
record ServerFile(int port, String id, String token, long pid) {

    /** The server file of {@code jar}. */
    static Path of(Path jar) {
        return jar.resolveSibling(jar.getFileName() + ".agent-server");
    }

    /** Writes it to {@code file}, readable by its owner only, replacing what was there in one step. */
    void write(Path file) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + "." + pid);
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(temporary, port + " " + id + " " + token + " " + pid + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** The file at {@code file}, if there is one in this form. */
    static Optional<ServerFile> read(Path file) throws IOException {
        String[] fields;
        try {
            fields = Files.readString(file, StandardCharsets.UTF_8).trim().split(" ");
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (fields.length != 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ServerFile(Integer.parseInt(fields[0]), fields[1], fields[2],
                    Long.parseLong(fields[3])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Never the token. */
    @Override
    public String toString() {
        return "ServerFile[port=" + port + ", pid=" + pid + "]";
    }
}
