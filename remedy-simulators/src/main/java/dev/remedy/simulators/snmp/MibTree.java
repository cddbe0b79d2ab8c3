package dev.remedy.simulators.snmp;

import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The variables of one emulated device, sorted in walk order. Built once per device; values are read when asked.
 * Not thread-safe: {@link SnmpDevice} guards it.
 */
final class MibTree {

    /** One instance: how it is read and, if it is writable, how a SET is checked. */
    interface Variable {

        SnmpValue read();

        /**
         * Checks {@code value} for a SET of {@code oid} and returns the change to make; changes nothing itself.
         *
         * @throws SnmpSetException if the device refuses the value
         */
        default Runnable prepare(Oid oid, SnmpValue value) {
            throw new SnmpSetException(SnmpError.NOT_WRITABLE, oid + " is read-only");
        }
    }

    /**
     * A value of an enumerated control column.
     *
     * @param label the MIB's name for the value
     * @param command what it does, or null when the MIB allows the value but this device refuses it
     */
    record Choice(String label, OutletCommand command) {
    }

    private final NavigableMap<Oid, Variable> variables = new TreeMap<>();

    /** Adds a variable; an OID may be added once. */
    void add(Oid oid, Variable variable) {
        if (variables.putIfAbsent(oid, variable) != null) {
            throw new IllegalStateException("MIB instance " + oid + " is defined twice");
        }
    }

    /** A read-only instance with a fixed value. */
    void constant(Oid oid, SnmpValue value) {
        add(oid, () -> value);
    }

    /** A read-only instance read when asked. */
    void readOnly(Oid oid, Supplier<SnmpValue> value) {
        add(oid, value::get);
    }

    /**
     * A writable INTEGER that commands {@code outlet}: a value of {@code choices} carries out its command, a value
     * the MIB defines but this device refuses (null command) is inconsistentValue, any other value wrongValue and
     * another type wrongType.
     */
    void control(Oid oid, Supplier<SnmpValue> value, SnmpOutlet outlet, Map<Integer, Choice> choices) {
        add(oid, new Variable() {
            @Override
            public SnmpValue read() {
                return value.get();
            }

            @Override
            public Runnable prepare(Oid target, SnmpValue sent) {
                if (sent.type() != SnmpValue.Type.INTEGER) {
                    throw new SnmpSetException(SnmpError.WRONG_TYPE, target + " takes an INTEGER, not " + sent);
                }
                Choice choice = choices.get(sent.intValue());
                if (choice == null) {
                    throw new SnmpSetException(SnmpError.WRONG_VALUE, target + " does not allow " + sent.intValue()
                            + "; the MIB allows " + describe(choices));
                }
                if (choice.command() == null) {
                    throw new SnmpSetException(SnmpError.INCONSISTENT_VALUE, target + " = " + sent.intValue() + " ("
                            + choice.label() + ") is in the MIB but this device does not accept it");
                }
                return () -> outlet.command(choice.command());
            }
        });
    }

    /** The instance at exactly {@code oid}. */
    Optional<VarBind> get(Oid oid) {
        Variable variable = variables.get(oid);
        return variable == null ? Optional.empty() : Optional.of(new VarBind(oid, variable.read()));
    }

    /** The first instance after {@code oid} in walk order (GETNEXT). */
    Optional<VarBind> next(Oid oid) {
        Map.Entry<Oid, Variable> next = variables.higherEntry(oid);
        return next == null ? Optional.empty() : Optional.of(new VarBind(next.getKey(), next.getValue().read()));
    }

    /**
     * Checks a SET of {@code oid} and returns the change to make.
     *
     * @throws SnmpSetException notWritable for an instance that does not exist (the devices create no rows)
     */
    Runnable prepare(Oid oid, SnmpValue value) {
        Variable variable = variables.get(oid);
        if (variable == null) {
            throw new SnmpSetException(SnmpError.NOT_WRITABLE, oid + " does not exist on this device");
        }
        return variable.prepare(oid, value);
    }

    /** {@code 1 (immediateOn), 2 (immediateOff)}, in value order. */
    static String describe(Map<Integer, Choice> choices) {
        return new TreeMap<>(choices).entrySet().stream().map(e -> e.getKey() + " (" + e.getValue().label() + ")")
                .collect(Collectors.joining(", "));
    }
}
