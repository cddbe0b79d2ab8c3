package dev.remedy.simulators.redfish;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remedy.spi.PowerState;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** The JSON of each simulated resource, after the DMTF schemas (property names, {@code @odata} annotations). */
final class Resources {

    static final String ROOT = "/redfish/v1/";
    static final String SYSTEMS = "/redfish/v1/Systems";
    static final String SESSION_SERVICE = "/redfish/v1/SessionService";
    static final String SESSIONS = "/redfish/v1/SessionService/Sessions";
    static final String POWER_EQUIPMENT = "/redfish/v1/PowerEquipment";
    static final String RACK_PDUS = "/redfish/v1/PowerEquipment/RackPDUs";
    /** The protocol version the service root reports. */
    static final String REDFISH_VERSION = "1.17.0";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Resources() {
    }

    static ObjectNode versions() {
        ObjectNode node = JSON.objectNode();
        node.put("v1", ROOT);
        return node;
    }

    static ObjectNode serviceRoot(UUID uuid, boolean powerEquipment, boolean sessions) {
        ObjectNode node = resource(ROOT, "#ServiceRoot.v1_15_0.ServiceRoot", "RootService", "Root Service");
        node.put("RedfishVersion", REDFISH_VERSION);
        node.put("UUID", uuid.toString());
        node.set("Systems", link(SYSTEMS));
        if (sessions) {
            node.set("SessionService", link(SESSION_SERVICE));
        }
        if (powerEquipment) {
            node.set("PowerEquipment", link(POWER_EQUIPMENT));
        }
        ObjectNode links = node.putObject("Links");
        if (sessions) {
            links.set("Sessions", link(SESSIONS));
        }
        return node;
    }

    static ObjectNode systems(Collection<SimulatedSystem> systems) {
        return collection(SYSTEMS, "#ComputerSystemCollection.ComputerSystemCollection", "Computer System Collection",
                systems.stream().map(SimulatedSystem::path).toList());
    }

    static ObjectNode system(SimulatedSystem system) {
        ObjectNode node = resource(system.path(), "#ComputerSystem.v1_20_0.ComputerSystem", system.id(),
                system.name());
        node.put("SystemType", "Physical");
        node.put("UUID", system.uuid().toString());
        node.put("PowerState", powerState(system.powerTarget().power()));
        node.set("Status", status());
        ObjectNode reset = node.putObject("Actions").putObject("#ComputerSystem.Reset");
        reset.put("target", system.path() + "/Actions/ComputerSystem.Reset");
        strings(reset.putArray("ResetType@Redfish.AllowableValues"), system.allowableResetTypes());
        return node;
    }

    static ObjectNode sessionService(int maxSessions) {
        ObjectNode node = resource(SESSION_SERVICE, "#SessionService.v1_1_8.SessionService", "SessionService",
                "Session Service");
        node.put("ServiceEnabled", true);
        node.put("SessionTimeout", 1800);
        node.put("Description", "At most " + maxSessions + " sessions at once");
        node.set("Sessions", link(SESSIONS));
        return node;
    }

    static ObjectNode sessions(List<Sessions.Session> sessions) {
        return collection(SESSIONS, "#SessionCollection.SessionCollection", "Session Collection",
                sessions.stream().map(Sessions.Session::path).toList());
    }

    static ObjectNode session(Sessions.Session session) {
        ObjectNode node = resource(session.path(), "#Session.v1_6_0.Session", session.id(), "User Session");
        node.put("UserName", session.userName());
        node.putNull("Password");
        return node;
    }

    static ObjectNode task(Tasks.Task task, boolean done) {
        ObjectNode node = resource(task.path(), "#Task.v1_7_0.Task", task.id(), "Task " + task.id());
        node.put("TaskState", done ? "Completed" : "Running");
        node.put("TaskStatus", "OK");
        node.put("PercentComplete", done ? 100 : 0);
        node.put("TaskMonitor", task.monitorPath());
        ObjectNode payload = node.putObject("Payload");
        payload.put("TargetUri", "/redfish/v1/Systems/" + task.systemId() + "/Actions/ComputerSystem.Reset");
        payload.put("HttpOperation", "POST");
        payload.put("JsonBody", "{\"ResetType\":\"" + task.resetType() + "\"}");
        return node;
    }

    static ObjectNode powerEquipment() {
        ObjectNode node = resource(POWER_EQUIPMENT, "#PowerEquipment.v1_2_0.PowerEquipment", "PowerEquipment",
                "Power Equipment");
        node.set("RackPDUs", link(RACK_PDUS));
        return node;
    }

    static ObjectNode rackPdus(Collection<RedfishPdu> pdus) {
        return collection(RACK_PDUS, "#PowerDistributionCollection.PowerDistributionCollection",
                "Rack PDU Collection", pdus.stream().map(p -> RACK_PDUS + "/" + p.id()).toList());
    }

    static ObjectNode rackPdu(RedfishPdu pdu) {
        String path = RACK_PDUS + "/" + pdu.id();
        ObjectNode node = resource(path, "#PowerDistribution.v1_3_0.PowerDistribution", pdu.id(),
                "Rack PDU " + pdu.id());
        node.put("EquipmentType", "RackPDU");
        node.set("Status", status());
        node.set("Outlets", link(path + "/Outlets"));
        return node;
    }

    static ObjectNode outlets(RedfishPdu pdu, Collection<SimulatedOutlet> outlets) {
        return collection(RACK_PDUS + "/" + pdu.id() + "/Outlets", "#OutletCollection.OutletCollection",
                "Outlet Collection", outlets.stream().map(SimulatedOutlet::path).toList());
    }

    static ObjectNode outlet(SimulatedOutlet outlet) {
        ObjectNode node = resource(outlet.path(), "#Outlet.v1_4_0.Outlet", Integer.toString(outlet.number()),
                "Outlet " + outlet.number());
        node.put("PowerState", powerState(outlet.powerTarget().power()));
        node.set("Status", status());
        if (outlet.switchable()) {
            ObjectNode control = node.putObject("Actions").putObject("#Outlet.PowerControl");
            control.put("target", outlet.path() + "/Actions/Outlet.PowerControl");
            strings(control.putArray("PowerState@Redfish.AllowableValues"), SimulatedOutlet.POWER_CONTROL_VALUES);
        }
        return node;
    }

    static String powerState(PowerState state) {
        return state == PowerState.ON ? "On" : "Off";
    }

    private static ObjectNode resource(String path, String type, String id, String name) {
        ObjectNode node = JSON.objectNode();
        node.put("@odata.id", path);
        node.put("@odata.type", type);
        node.put("Id", id);
        node.put("Name", name);
        return node;
    }

    private static ObjectNode collection(String path, String type, String name, List<String> members) {
        ObjectNode node = JSON.objectNode();
        node.put("@odata.id", path);
        node.put("@odata.type", type);
        node.put("Name", name);
        ArrayNode array = node.putArray("Members");
        members.forEach(member -> array.add(link(member)));
        node.put("Members@odata.count", members.size());
        return node;
    }

    private static ObjectNode link(String path) {
        ObjectNode node = JSON.objectNode();
        node.put("@odata.id", path);
        return node;
    }

    private static ObjectNode status() {
        ObjectNode node = JSON.objectNode();
        node.put("State", "Enabled");
        node.put("Health", "OK");
        return node;
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
