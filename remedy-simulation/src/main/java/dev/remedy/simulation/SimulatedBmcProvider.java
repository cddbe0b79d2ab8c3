package dev.remedy.simulation;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.test.fake.WrappedFakeProvider;

/**
 * The fake agent in front of a simulated node's BMC, behaving as the fleet says: a lying BMC's STATUS reads ON
 * whatever the machine does; a hanging BMC never answers (the simulation does not even run its operations, so this
 * agent's timeout without waiting is only a safeguard that never advances the shared clock).
 */
final class SimulatedBmcProvider extends WrappedFakeProvider {

    /** The type id. */
    static final String TYPE = "simulated-bmc";

    private final SimulatedFleet fleet;

    SimulatedBmcProvider(SimulatedFleet fleet) {
        super(fleet.lab());
        this.fleet = fleet;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "the fake agent in front of a simulated BMC that can fail, hang or lie";
    }

    @Override
    protected FenceAgent wrap(FenceAgent honest, AgentConfig config) {
        String plug = config.string("plug");
        return (request, context) -> {
            BmcBehaviour behaviour = fleet.nodeOfPlug(plug).map(fleet::bmc).orElse(BmcBehaviour.OK);
            if (behaviour == BmcBehaviour.HANGS) {
                return FenceOutcome.timedOut("simulated BMC of '" + plug + "' never answers");
            }
            FenceOutcome outcome = honest.execute(request, context);
            if (behaviour == BmcBehaviour.LIES && request.action() == FenceAction.STATUS && outcome.isSuccess()) {
                return FenceOutcome.succeeded(PowerState.ON, "simulated BMC of '" + plug + "' reads ON");
            }
            return outcome;
        };
    }
}
