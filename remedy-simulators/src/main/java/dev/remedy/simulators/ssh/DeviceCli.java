package dev.remedy.simulators.ssh;

/**
 * One session's command line of a simulated device: its dialogue without the terminal (echo, line ends, paging
 * and delays are the simulator's). Implement it to simulate a device the simulator does not know
 * ({@link SshDeviceSpec.Builder#cli}). Not thread-safe: its session calls it under a lock.
 */
public interface DeviceCli {

    /** What the device prints once logged in, before the first prompt (may be empty). */
    String greeting();

    /** The prompt now, printed after each answer (it may change with the CLI's mode). */
    String prompt();

    /** Runs one command line: not blank, stripped of leading and trailing blanks. */
    Reply execute(String command);
}
