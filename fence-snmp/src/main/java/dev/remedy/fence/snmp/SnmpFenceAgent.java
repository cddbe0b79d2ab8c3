package dev.remedy.fence.snmp;

import dev.remedy.fence.snmp.internal.profile.DeviceProfile;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One node's plugs on one SNMP device. Each action opens its own session (a UDP socket) and closes it. Between
 * actions the agent keeps what it learnt of the device: the table a choice profile settled on, and the index of each
 * plug given by name (checked again by its name before every use, so a renumbered switch is looked up afresh, never
 * acted on by a stale index). Blocking: {@link #executeAsync} runs it on the given executor; one action at a time.
 */
final class SnmpFenceAgent implements FenceAgent {

    private final String type;
    private final Set<FenceAction> actions;
    private final SnmpSettings settings;
    private final Memory memory = new Memory();

    SnmpFenceAgent(String type, Set<FenceAction> actions, SnmpSettings settings) {
        this.type = type;
        this.actions = actions;
        this.settings = settings;
    }

    @Override
    public FenceOutcome execute(FenceRequest request, FenceContext context) throws InterruptedException {
        context.checkInterrupted();
        if (!actions.contains(request.action())) {
            return FenceOutcome.unsupported(type, request.action());
        }
        return new SnmpRun(settings, memory, context).run(request.action());
    }

    @Override
    public String toString() {
        return type + " agent for " + settings.device();
    }

    /** What the agent learnt of the device in earlier actions. */
    static final class Memory {

        /** The table a choice profile settled on. */
        private DeviceProfile chosen;
        /** Plug name to where it was found: the table, the name column and the index. */
        private final Map<String, Found> names = new HashMap<>();

        Optional<DeviceProfile> chosen() {
            return Optional.ofNullable(chosen);
        }

        void chosen(DeviceProfile table) {
            chosen = table;
        }

        Optional<Found> found(String plug) {
            return Optional.ofNullable(names.get(plug));
        }

        void found(String plug, Found where) {
            names.put(plug, where);
        }

        void forget(String plug) {
            names.remove(plug);
        }
    }

    /**
     * Where a plug name was found.
     *
     * @param table  the table profile it was looked up for
     * @param column the name column
     * @param index  the plug's index
     */
    record Found(String table, String column, String index) {
    }
}
