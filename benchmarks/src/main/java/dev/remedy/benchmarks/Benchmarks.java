package dev.remedy.benchmarks;

import java.util.Arrays;

/**
 * Entry point of the benchmarks jar: {@code engine [nodes]}, {@code policy}, {@code ipmi}, {@code ipmi-fleet [bmcs]},
 * {@code agents [JAR]}, {@code redfish}, {@code snmp [JAR]}, {@code kube [quick]}, {@code self-node}, or no argument
 * for all of them (kube in its quick mode).
 */
public final class Benchmarks {

    private Benchmarks() {
    }

    /** Runs the named benchmark, or all. */
    public static void main(String[] args) throws java.io.IOException, InterruptedException {
        String which = args.length == 0 ? "all" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (which) {
            case "engine" -> EngineBenchmark.main(rest);
            case "policy" -> PolicyBenchmark.main(rest);
            case "ipmi" -> IpmiPeerBenchmark.main(rest);
            case "ipmi-fleet" -> IpmiFleetBenchmark.main(rest);
            case "redfish" -> RedfishBenchmark.main(rest);
            case "snmp" -> SnmpBenchmark.main(rest);
            case "kube" -> KubeBenchmark.main(rest);
            case "agents" -> FenceAgentProcessBenchmark.main(rest);
            case "self-node" -> SelfNodeBenchmark.main(rest);
            case "all" -> {
                EngineBenchmark.main(rest);
                System.out.println();
                PolicyBenchmark.main(rest);
                System.out.println();
                IpmiPeerBenchmark.main(rest);
                System.out.println();
                IpmiFleetBenchmark.main(rest);
                System.out.println();
                FenceAgentProcessBenchmark.main(rest);
                System.out.println();
                RedfishBenchmark.main(rest);
                System.out.println();
                SnmpBenchmark.main(rest);
                System.out.println();
                KubeBenchmark.main(new String[] {"quick"});
                System.out.println();
                SelfNodeBenchmark.main(rest);
            }
            default -> {
                System.err.println("benchmarks: unknown benchmark '" + which + "'; use engine, policy, ipmi, ipmi-fleet, agents [JAR], redfish, snmp [JAR], kube [quick], self-node or nothing for all");
                System.exit(3);
            }
        }
    }
}
