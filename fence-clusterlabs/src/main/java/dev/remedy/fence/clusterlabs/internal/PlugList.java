package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.Plug;
import dev.remedy.spi.PowerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The plugs in what an agent's {@code list} prints ({@code plug,alias} lines) or its {@code list-status}
 * ({@code plug,alias,ON|OFF|UNKNOWN}). An alias may hold commas: the plug ends at the first, the state starts after
 * the last. Lines without a comma ({@code N/A} from an agent without plugs, a notice) are not plugs.
 */
final class PlugList {

    private PlugList() {
    }

    /** The plugs of {@code output}; {@code withStatus} for {@code list-status}; aliases go through {@code mask}. */
    static List<Plug> parse(String output, boolean withStatus, UnaryOperator<String> mask) {
        List<Plug> plugs = new ArrayList<>();
        for (String line : output.lines().map(String::strip).toList()) {
            int first = line.indexOf(',');
            if (first <= 0) {
                continue;
            }
            String id = line.substring(0, first);
            String rest = line.substring(first + 1);
            PowerState power = PowerState.UNKNOWN;
            int last = rest.lastIndexOf(',');
            if (withStatus && last >= 0) {
                power = switch (rest.substring(last + 1).strip().toUpperCase(Locale.ROOT)) {
                    case "ON" -> PowerState.ON;
                    case "OFF" -> PowerState.OFF;
                    default -> PowerState.UNKNOWN;
                };
                rest = rest.substring(0, last);
            }
            plugs.add(new Plug(mask.apply(id), mask.apply(rest), power));
        }
        return plugs;
    }
}
