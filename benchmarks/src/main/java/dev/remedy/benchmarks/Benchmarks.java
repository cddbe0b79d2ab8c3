package dev.remedy.benchmarks;

import java.util.Arrays;

/** Entry point of the benchmarks jar: {@code engine [nodes]}, {@code policy}, or no argument for all of them. */
public final class Benchmarks {

    private Benchmarks() {
    }

    /** Runs the named benchmark, or all. */
    public static void main(String[] args) {
        String which = args.length == 0 ? "all" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (which) {
            case "engine" -> EngineBenchmark.main(rest);
            case "policy" -> PolicyBenchmark.main(rest);
            case "all" -> {
                EngineBenchmark.main(rest);
                System.out.println();
                PolicyBenchmark.main(rest);
            }
            default -> {
                System.err.println("benchmarks: unknown benchmark '" + which + "'; use engine, policy or nothing for all");
                System.exit(3);
            }
        }
    }
}
