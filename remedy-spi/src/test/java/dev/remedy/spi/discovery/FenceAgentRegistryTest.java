package dev.remedy.spi.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remedy.spi.AgentType;
import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("FenceAgentRegistry")
public class FenceAgentRegistryTest {

    private static final String SERVICE_FILE = "META-INF/services/" + FenceAgentProvider.class.getName();

    @TempDir
    Path classPath;

    // ---------------------------------------------------------------- test providers (loaded by ServiceLoader)

    /** A well-behaved provider of the given type; subclasses pick the type. */
    public abstract static class TestProvider implements FenceAgentProvider {
        private final String type;

        protected TestProvider(String type) {
            this.type = type;
        }

        @Override
        public String type() {
            return type;
        }

        @Override
        public String description() {
            return "test provider " + getClass().getSimpleName();
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return List.of();
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return Set.of(FenceAction.STATUS);
        }

        @Override
        public FenceAgent create(AgentConfig config) {
            return (request, context) -> FenceOutcome.refused("test agent does nothing");
        }
    }

    /** Provides "alpha". */
    public static class AlphaProvider extends TestProvider {
        public AlphaProvider() {
            super("alpha");
        }
    }

    /** Provides "beta". */
    public static class BetaProvider extends TestProvider {
        public BetaProvider() {
            super("beta");
        }
    }

    /** Claims "ipmi", like {@link SecondIpmiProvider}. */
    public static class FirstIpmiProvider extends TestProvider {
        public FirstIpmiProvider() {
            super("ipmi");
        }
    }

    /** Claims "ipmi", like {@link FirstIpmiProvider}. */
    public static class SecondIpmiProvider extends TestProvider {
        public SecondIpmiProvider() {
            super("ipmi");
        }
    }

    /** A constructor that fails, as a provider with a missing vendor library would. */
    public static class ExplodingProvider extends TestProvider {
        static final String MESSAGE = "constructor exploded: vendor library missing";

        public ExplodingProvider() {
            super("exploding");
            throw new IllegalStateException(MESSAGE);
        }
    }

    /** Declares "declared" with {@link AgentType} and fails to construct, so a load that constructs it records that. */
    @AgentType("declared")
    public static class DeclaredExplodingProvider extends TestProvider {
        public DeclaredExplodingProvider() {
            super("declared");
            throw new IllegalStateException(ExplodingProvider.MESSAGE);
        }
    }

    /** Declares "alpha" with {@link AgentType}. */
    @AgentType("alpha")
    public static class DeclaredAlphaProvider extends TestProvider {
        public DeclaredAlphaProvider() {
            super("alpha");
        }
    }

    /** Declares "gamma" with {@link AgentType} but answers "alpha". */
    @AgentType("gamma")
    public static class MisdeclaredProvider extends TestProvider {
        public MisdeclaredProvider() {
            super("alpha");
        }
    }

    /** A type id with upper case and a space. */
    public static class BadTypeProvider extends TestProvider {
        public BadTypeProvider() {
            super("IPMI Tool");
        }
    }

    /** Built against a newer SPI than this remedy implements. */
    public static class FutureSpiProvider extends TestProvider {
        public FutureSpiProvider() {
            super("future");
        }

        @Override
        public int spiVersion() {
            return SPI_VERSION + 1;
        }
    }

    /** A type() that throws. */
    public static class SilentProvider extends TestProvider {
        public SilentProvider() {
            super("silent");
        }

        @Override
        public String type() {
            throw new UnsupportedOperationException("cannot say who I am");
        }
    }

    /** Declares null parameters. */
    public static class NullParametersProvider extends TestProvider {
        public NullParametersProvider() {
            super("nullparams");
        }

        @Override
        public List<ParameterDescriptor> parameters() {
            return null;
        }
    }

    /** A fabric agent whose actions fit its kind: OFF isolates, ON un-fences, no REBOOT. */
    public static class FabricProvider extends TestProvider {
        public FabricProvider() {
            super("fabric");
        }

        @Override
        public FencingKind fencingKind() {
            return FencingKind.FABRIC;
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.OFF, FenceAction.ON, FenceAction.STATUS, FenceAction.MONITOR);
        }
    }

    /** A soft agent whose actions fit its kind: REBOOT, STATUS and MONITOR. */
    public static class SoftProvider extends TestProvider {
        public SoftProvider() {
            super("soft");
        }

        @Override
        public FencingKind fencingKind() {
            return FencingKind.SOFT;
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.REBOOT, FenceAction.STATUS, FenceAction.MONITOR);
        }
    }

    /** A fabric agent that claims REBOOT. */
    public static class RebootingFabricProvider extends FabricProvider {
        @Override
        public String type() {
            return "rebooting-fabric";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.allOf(FenceAction.class);
        }
    }

    /** A soft agent that claims OFF and ON. */
    public static class PoweringSoftProvider extends SoftProvider {
        @Override
        public String type() {
            return "powering-soft";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.OFF, FenceAction.ON, FenceAction.REBOOT, FenceAction.STATUS);
        }
    }

    /** A soft agent that claims ON only, besides REBOOT. */
    public static class SwitchingOnSoftProvider extends SoftProvider {
        @Override
        public String type() {
            return "switching-on-soft";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.ON, FenceAction.REBOOT);
        }
    }

    /** A soft agent without REBOOT, the one action soft fencing has. */
    public static class InertSoftProvider extends SoftProvider {
        @Override
        public String type() {
            return "inert-soft";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.STATUS, FenceAction.MONITOR);
        }
    }

    /** A self agent whose actions fit its kind: OFF asks for the reset, STATUS reads it, ON withdraws it. */
    public static class SelfProvider extends TestProvider {
        public SelfProvider() {
            super("self");
        }

        @Override
        public FencingKind fencingKind() {
            return FencingKind.SELF;
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.OFF, FenceAction.ON, FenceAction.STATUS, FenceAction.MONITOR);
        }
    }

    /** A self agent that claims REBOOT. */
    public static class RebootingSelfProvider extends SelfProvider {
        @Override
        public String type() {
            return "rebooting-self";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.allOf(FenceAction.class);
        }
    }

    /** A self agent without STATUS, which the engine reads the assumption with. */
    public static class BlindSelfProvider extends SelfProvider {
        @Override
        public String type() {
            return "blind-self";
        }

        @Override
        public Set<FenceAction> supportedActions() {
            return EnumSet.of(FenceAction.OFF, FenceAction.ON);
        }
    }

    /** Says it has no kind. */
    public static class NullKindProvider extends TestProvider {
        public NullKindProvider() {
            super("nullkind");
        }

        @Override
        public FencingKind fencingKind() {
            return null;
        }
    }

    /** Not a FenceAgentProvider at all. */
    public static class NotAProvider {
        public NotAProvider() {
            // a public no-arg constructor, but the wrong type
        }
    }

    // ---------------------------------------------------------------- helpers

    private static String name(Class<?> type) {
        return type.getName();
    }

    private URLClassLoader loaderListing(String... lines) throws IOException {
        Path file = classPath.resolve(SERVICE_FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return emptyLoader();
    }

    private URLClassLoader emptyLoader() throws IOException {
        return new URLClassLoader(new URL[] {classPath.toUri().toURL()}, getClass().getClassLoader());
    }

    private FenceAgentRegistry loadListing(String... lines) throws IOException {
        try (URLClassLoader loader = loaderListing(lines)) {
            return FenceAgentRegistry.load(loader);
        }
    }

    // ---------------------------------------------------------------- ServiceLoader discovery

    @Nested
    @DisplayName("loading one type")
    class LoadingOneType {

        private FenceAgentRegistry loadType(String type, String... lines) throws IOException {
            try (URLClassLoader loader = loaderListing(lines)) {
                return FenceAgentRegistry.load(loader, type);
            }
        }

        @Test
        @DisplayName("a provider that declares another type is never constructed; one without a declaration is, and is"
                + " kept only if its type matches")
        void onlyTheTypeAsked() throws IOException {
            FenceAgentRegistry registry = loadType("alpha", name(DeclaredExplodingProvider.class),
                    name(BetaProvider.class), name(DeclaredAlphaProvider.class));

            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).as("the exploding provider was not constructed").isEmpty();
            assertThat(loadListing(name(DeclaredExplodingProvider.class), name(DeclaredAlphaProvider.class))
                    .failures()).as("a full load constructs it").hasSize(1);
        }

        @Test
        @DisplayName("a provider whose type differs from its declaration is a failure, named with both")
        void misdeclared() throws IOException {
            FenceAgentRegistry registry = loadType("gamma", name(MisdeclaredProvider.class));

            assertThat(registry.types()).isEmpty();
            assertThat(registry.failures()).singleElement().satisfies(f -> assertThat(f.reason())
                    .contains("declares type 'gamma' with @AgentType but its type() is 'alpha'"));
        }

        @Test
        @DisplayName("two providers of the asked type are still a duplicate")
        void duplicates() throws IOException {
            FenceAgentRegistry registry = loadType("ipmi", name(FirstIpmiProvider.class),
                    name(SecondIpmiProvider.class), name(AlphaProvider.class));

            assertThat(registry.duplicates()).containsOnlyKeys("ipmi");
        }
    }

    @Nested
    @DisplayName("loading with ServiceLoader")
    class Loading {

        @Test
        @DisplayName("a class path without providers gives an empty, clean registry that names no agent")
        void noProvider() throws IOException {
            FenceAgentRegistry registry;
            try (URLClassLoader loader = emptyLoader()) {
                registry = FenceAgentRegistry.load(loader);
            }

            assertThat(registry.providers()).isEmpty();
            assertThat(registry.types()).isEmpty();
            assertThat(registry.failures()).isEmpty();
            assertThat(registry.duplicates()).isEmpty();
            assertThat(registry.isClean()).isTrue();
            assertThat(registry.report()).isEmpty();

            UnknownAgentException e = catchThrowableOfType(UnknownAgentException.class, () -> registry.provider("x"));
            assertThat(e).isNotNull();
            assertThat(e.type()).isEqualTo("x");
            assertThat(e.getMessage())
                    .contains("'x'")
                    .contains("no agent jar is on the class path");
        }

        @Test
        @DisplayName("a service file with only comments and blank lines gives an empty, clean registry")
        void onlyComments() throws IOException {
            FenceAgentRegistry registry = loadListing("# no agents here", "", "   ");

            assertThat(registry.providers()).isEmpty();
            assertThat(registry.isClean()).isTrue();
            assertThatThrownBy(() -> registry.provider("alpha"))
                    .isInstanceOf(UnknownAgentException.class)
                    .hasMessageContaining("no agent jar is on the class path");
        }

        @Test
        @DisplayName("one listed provider is loaded, handed out by its type and listed in the report")
        void oneProvider() throws IOException {
            FenceAgentRegistry registry = loadListing(name(AlphaProvider.class));

            assertThat(registry.isClean()).isTrue();
            assertThat(registry.failures()).isEmpty();
            assertThat(registry.duplicates()).isEmpty();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.providers()).singleElement().isInstanceOf(AlphaProvider.class);

            FenceAgentProvider provider = registry.provider("alpha");
            assertThat(provider).isInstanceOf(AlphaProvider.class);
            assertThat(provider.type()).isEqualTo("alpha");
            assertThat(registry.provider("alpha")).isSameAs(provider);

            assertThat(registry.report())
                    .contains("loaded")
                    .contains("alpha")
                    .contains(name(AlphaProvider.class))
                    .doesNotContain("FAILED")
                    .doesNotContain("DUPLICATE");
        }

        @Test
        @DisplayName("an unknown type among loaded ones is refused with the list of known types")
        void unknownTypeListsKnownOnes() throws IOException {
            FenceAgentRegistry registry = loadListing(name(BetaProvider.class), name(AlphaProvider.class));

            assertThatThrownBy(() -> registry.provider("redfish"))
                    .isInstanceOf(UnknownAgentException.class)
                    .hasMessageContaining("'redfish'")
                    .hasMessageContaining("alpha, beta")
                    .hasMessageNotContaining("no agent jar");
            assertThat(registry.types()).containsExactlyInAnyOrder("alpha", "beta");
        }

        @Test
        @DisplayName("providers() lists every usable provider, ordered by type id")
        void providersAreOrderedByType() throws IOException {
            FenceAgentRegistry registry = loadListing(name(BetaProvider.class), name(AlphaProvider.class));

            assertThat(registry.providers()).extracting(FenceAgentProvider::type).containsExactly("alpha", "beta");
        }

        @Test
        @DisplayName("two providers claiming one id make it unusable and are both named")
        void duplicateIds() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(FirstIpmiProvider.class), name(SecondIpmiProvider.class), name(AlphaProvider.class));

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.failures()).isEmpty();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.providers()).extracting(FenceAgentProvider::type).containsExactly("alpha");
            assertThat(registry.duplicates()).containsOnlyKeys("ipmi");
            assertThat(registry.duplicates().get("ipmi"))
                    .containsExactlyInAnyOrder(name(FirstIpmiProvider.class), name(SecondIpmiProvider.class));

            DuplicateAgentException e = catchThrowableOfType(DuplicateAgentException.class,
                    () -> registry.provider("ipmi"));
            assertThat(e).isNotNull();
            assertThat(e.type()).isEqualTo("ipmi");
            assertThat(e.providers())
                    .containsExactlyInAnyOrder(name(FirstIpmiProvider.class), name(SecondIpmiProvider.class));
            assertThat(e.getMessage())
                    .contains("'ipmi'")
                    .contains(name(FirstIpmiProvider.class))
                    .contains(name(SecondIpmiProvider.class));

            assertThat(registry.provider("alpha")).isInstanceOf(AlphaProvider.class);
            assertThat(registry.report())
                    .contains("DUPLICATE")
                    .contains(name(FirstIpmiProvider.class))
                    .contains(name(SecondIpmiProvider.class));
        }

        @Test
        @DisplayName("a provider whose constructor throws is a failure naming its class and the error; others load")
        void constructorThrows() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(AlphaProvider.class), name(ExplodingProvider.class), name(BetaProvider.class));

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactlyInAnyOrder("alpha", "beta");
            assertThat(registry.failures()).singleElement().satisfies(f -> {
                assertThat(f.provider()).isEqualTo(name(ExplodingProvider.class));
                assertThat(f.reason()).contains(ExplodingProvider.MESSAGE);
                assertThat(f.error()).isNotNull();
            });
            assertThat(registry.report())
                    .contains("FAILED")
                    .contains(name(ExplodingProvider.class))
                    .contains(ExplodingProvider.MESSAGE);
            assertThatThrownBy(() -> registry.provider("exploding")).isInstanceOf(UnknownAgentException.class);
        }

        @Test
        @DisplayName("a service entry naming a missing class is a failure of provider '?'; others load")
        void missingClass() throws IOException {
            String missing = "com.example.fence.DoesNotExistProvider";
            FenceAgentRegistry registry = loadListing(
                    name(AlphaProvider.class), missing, name(BetaProvider.class));

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactlyInAnyOrder("alpha", "beta");
            assertThat(registry.failures()).singleElement().satisfies(f -> {
                assertThat(f.provider()).isEqualTo("?");
                assertThat(f.reason()).contains(missing);
                assertThat(f.error()).isNotNull();
            });
            assertThat(registry.report()).contains("FAILED").contains(missing);
        }

        @Test
        @DisplayName("a service entry naming a class that is not a provider is a failure; others load")
        void notASubtype() throws IOException {
            FenceAgentRegistry registry = loadListing(name(NotAProvider.class), name(AlphaProvider.class));

            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).singleElement().satisfies(f -> {
                assertThat(f.provider()).isEqualTo("?");
                assertThat(f.reason()).contains(name(NotAProvider.class));
            });
        }

        @Test
        @DisplayName("a provider with an invalid type id is a failure that says why")
        void invalidTypeId() throws IOException {
            FenceAgentRegistry registry = loadListing(name(BadTypeProvider.class), name(AlphaProvider.class));

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).singleElement().satisfies(f -> {
                assertThat(f.provider()).isEqualTo(name(BadTypeProvider.class));
                assertThat(f.reason()).contains("invalid type id").contains("'IPMI Tool'");
                assertThat(f.error()).hasMessage(f.reason());
            });
            assertThatThrownBy(() -> registry.provider("IPMI Tool")).isInstanceOf(UnknownAgentException.class);
        }

        @Test
        @DisplayName("a provider built for a newer SPI version is a failure that names both versions")
        void spiTooNew() throws IOException {
            FenceAgentRegistry registry = loadListing(name(FutureSpiProvider.class), name(AlphaProvider.class));

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).singleElement().satisfies(f -> {
                assertThat(f.provider()).isEqualTo(name(FutureSpiProvider.class));
                assertThat(f.reason())
                        .contains("SPI version " + (FenceAgentProvider.SPI_VERSION + 1))
                        .contains("implements " + FenceAgentProvider.SPI_VERSION)
                        .contains("upgrade remedy");
            });
            assertThatThrownBy(() -> registry.provider("future")).isInstanceOf(UnknownAgentException.class);
        }

        @Test
        @DisplayName("invalid id and newer SPI version are reported together, each with its own reason")
        void invalidIdAndNewerSpiTogether() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(BadTypeProvider.class), name(FutureSpiProvider.class), name(AlphaProvider.class));

            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).hasSize(2);
            Map<String, String> reasons = new java.util.HashMap<>();
            registry.failures().forEach(f -> reasons.put(f.provider(), f.reason()));
            assertThat(reasons).containsOnlyKeys(name(BadTypeProvider.class), name(FutureSpiProvider.class));
            assertThat(reasons.get(name(BadTypeProvider.class))).contains("invalid type id");
            assertThat(reasons.get(name(FutureSpiProvider.class))).contains("needs SPI version");
        }

        @Test
        @DisplayName("a provider that throws while describing itself, or declares null parameters, is a failure")
        void providerThatCannotDescribeItself() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(SilentProvider.class), name(NullParametersProvider.class), name(AlphaProvider.class));

            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).extracting(DiscoveryFailure::provider)
                    .containsExactlyInAnyOrder(name(SilentProvider.class), name(NullParametersProvider.class));
            assertThat(registry.failures()).anySatisfy(f ->
                    assertThat(f.reason()).contains("failed to describe itself").contains("cannot say who I am"));
            assertThat(registry.failures()).anySatisfy(f -> assertThat(f.reason()).contains("null"));
        }

        @Test
        @DisplayName("fabric and soft providers whose actions fit their kind load and keep their kind")
        void kindsThatFitTheirActionsLoad() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(FabricProvider.class), name(SoftProvider.class), name(AlphaProvider.class));

            assertThat(registry.isClean()).as(registry.report()).isTrue();
            assertThat(registry.provider("fabric").fencingKind()).isEqualTo(FencingKind.FABRIC);
            assertThat(registry.provider("soft").fencingKind()).isEqualTo(FencingKind.SOFT);
            assertThat(registry.provider("alpha").fencingKind()).isEqualTo(FencingKind.POWER);
        }

        @Test
        @DisplayName("a fabric provider that lists REBOOT is a failure naming its type and telling what to remove")
        void fabricWithRebootIsRefused() throws IOException {
            FenceAgentRegistry registry = loadListing(name(RebootingFabricProvider.class), name(AlphaProvider.class));

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).singleElement().satisfies(f -> {
                assertThat(f.provider()).isEqualTo(name(RebootingFabricProvider.class));
                assertThat(f.reason()).contains("agent type 'rebooting-fabric'").contains("fabric")
                        .contains("REBOOT").contains("remove REBOOT from supportedActions()");
                assertThat(f.error()).hasMessage(f.reason());
            });
            assertThat(registry.report()).contains("FAILED").contains(name(RebootingFabricProvider.class));
            assertThatThrownBy(() -> registry.provider("rebooting-fabric")).isInstanceOf(UnknownAgentException.class);
        }

        @Test
        @DisplayName("a soft provider that lists OFF or ON is a failure naming its type and the actions to remove")
        void softWithOffOrOnIsRefused() throws IOException {
            FenceAgentRegistry registry = loadListing(name(PoweringSoftProvider.class),
                    name(SwitchingOnSoftProvider.class), name(SoftProvider.class));

            assertThat(registry.types()).containsExactly("soft");
            Map<String, String> reasons = new java.util.HashMap<>();
            registry.failures().forEach(f -> reasons.put(f.provider(), f.reason()));
            assertThat(reasons).containsOnlyKeys(name(PoweringSoftProvider.class), name(SwitchingOnSoftProvider.class));
            assertThat(reasons.get(name(PoweringSoftProvider.class))).contains("agent type 'powering-soft'")
                    .contains("soft").contains("remove OFF and ON from supportedActions()");
            assertThat(reasons.get(name(SwitchingOnSoftProvider.class))).contains("agent type 'switching-on-soft'")
                    .contains("remove ON from supportedActions()").doesNotContain("OFF");
        }

        @Test
        @DisplayName("a soft provider without REBOOT, or with no kind at all, is a failure that says what to add")
        void softWithoutRebootOrNoKindIsRefused() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(InertSoftProvider.class), name(NullKindProvider.class), name(AlphaProvider.class));

            assertThat(registry.types()).containsExactly("alpha");
            Map<String, String> reasons = new java.util.HashMap<>();
            registry.failures().forEach(f -> reasons.put(f.provider(), f.reason()));
            assertThat(reasons.get(name(InertSoftProvider.class))).contains("agent type 'inert-soft'")
                    .contains("add REBOOT to supportedActions()");
            assertThat(reasons.get(name(NullKindProvider.class))).contains("agent type 'nullkind'")
                    .contains("fencingKind() returned null");
        }

        @Test
        @DisplayName("a self provider with REBOOT, or without OFF and STATUS, is a failure that says what to change")
        void selfWithRebootOrWithoutStatusIsRefused() throws IOException {
            FenceAgentRegistry registry = loadListing(name(RebootingSelfProvider.class),
                    name(BlindSelfProvider.class), name(SelfProvider.class));

            assertThat(registry.types()).containsExactly("self");
            assertThat(registry.provider("self").fencingKind()).isEqualTo(FencingKind.SELF);
            Map<String, String> reasons = new java.util.HashMap<>();
            registry.failures().forEach(f -> reasons.put(f.provider(), f.reason()));
            assertThat(reasons.get(name(RebootingSelfProvider.class))).contains("agent type 'rebooting-self'")
                    .contains("remove REBOOT from supportedActions()");
            assertThat(reasons.get(name(BlindSelfProvider.class))).contains("agent type 'blind-self'")
                    .contains("OFF and STATUS");
        }

        @Test
        @DisplayName("every kind of trouble at once is reported while the good providers stay usable")
        void everythingAtOnce() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(AlphaProvider.class),
                    name(FirstIpmiProvider.class),
                    "com.example.Missing",
                    name(ExplodingProvider.class),
                    name(SecondIpmiProvider.class),
                    name(BadTypeProvider.class),
                    name(FutureSpiProvider.class),
                    name(BetaProvider.class));

            assertThat(registry.types()).containsExactlyInAnyOrder("alpha", "beta");
            assertThat(registry.duplicates()).containsOnlyKeys("ipmi");
            assertThat(registry.failures()).extracting(DiscoveryFailure::provider).containsExactlyInAnyOrder(
                    "?", name(ExplodingProvider.class), name(BadTypeProvider.class), name(FutureSpiProvider.class));
            String report = registry.report();
            assertThat(report.lines()).hasSize(2 + 1 + 4);
            assertThat(report.lines().filter(l -> l.startsWith("loaded"))).hasSize(2);
            assertThat(report.lines().filter(l -> l.startsWith("DUPLICATE"))).hasSize(1);
            assertThat(report.lines().filter(l -> l.startsWith("FAILED"))).hasSize(4);
        }

        @Test
        @DisplayName("load() without arguments uses the thread's context class loader")
        void loadUsesContextClassLoader() throws IOException {
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            AtomicReference<FenceAgentRegistry> loaded = new AtomicReference<>();
            try (URLClassLoader loader = loaderListing(name(BetaProvider.class))) {
                thread.setContextClassLoader(loader);
                loaded.set(FenceAgentRegistry.load());
            } finally {
                thread.setContextClassLoader(previous);
            }

            assertThat(loaded.get().types()).containsExactly("beta");
        }

        @Test
        @DisplayName("the lists and maps handed out cannot be modified")
        void viewsAreUnmodifiable() throws IOException {
            FenceAgentRegistry registry = loadListing(
                    name(AlphaProvider.class), name(FirstIpmiProvider.class), name(SecondIpmiProvider.class),
                    name(ExplodingProvider.class));

            assertThatThrownBy(() -> registry.providers().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> registry.types().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> registry.failures().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> registry.duplicates().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThat(registry.providers()).hasSize(1);
        }
    }

    // ---------------------------------------------------------------- of(...)

    @Nested
    @DisplayName("built with of(...)")
    class Of {

        /** A provider that counts how often it is closed, and fails the second time. */
        private static final class ClosingProvider extends TestProvider implements AutoCloseable {
            private int closed;

            ClosingProvider() {
                super("closing");
            }

            @Override
            public void close() {
                closed++;
                if (closed > 1) {
                    throw new IllegalStateException("closed twice");
                }
            }
        }

        @Test
        @DisplayName("closeProviders closes every AutoCloseable provider, and a provider that fails to close stops"
                + " nothing")
        void closeProviders() {
            ClosingProvider closing = new ClosingProvider();
            FenceAgentRegistry registry = FenceAgentRegistry.of(new AlphaProvider(), closing);

            registry.closeProviders();
            assertThat(closing.closed).isEqualTo(1);
            registry.closeProviders();
            assertThat(closing.closed).as("the failure of the second close is passed over").isEqualTo(2);
        }

        @Test
        @DisplayName("of() with providers gives a registry of exactly those providers")
        void ofProviders() {
            AlphaProvider alpha = new AlphaProvider();
            BetaProvider beta = new BetaProvider();

            FenceAgentRegistry registry = FenceAgentRegistry.of(beta, alpha);

            assertThat(registry.isClean()).isTrue();
            assertThat(registry.provider("alpha")).isSameAs(alpha);
            assertThat(registry.provider("beta")).isSameAs(beta);
            assertThat(registry.providers()).containsExactly(alpha, beta);
            assertThat(registry.report()).contains(name(AlphaProvider.class)).contains(name(BetaProvider.class));
        }

        @Test
        @DisplayName("of() with a collection behaves like the varargs form")
        void ofCollection() {
            AlphaProvider alpha = new AlphaProvider();

            FenceAgentRegistry registry = FenceAgentRegistry.of(List.of(alpha));

            assertThat(registry.provider("alpha")).isSameAs(alpha);
            assertThat(registry.types()).containsExactly("alpha");
        }

        @Test
        @DisplayName("of() with nothing gives an empty registry that refuses every type")
        void ofNothing() {
            FenceAgentRegistry registry = FenceAgentRegistry.of();

            assertThat(registry.isClean()).isTrue();
            assertThat(registry.providers()).isEmpty();
            assertThatThrownBy(() -> registry.provider("alpha"))
                    .isInstanceOf(UnknownAgentException.class)
                    .hasMessageContaining("no agent jar is on the class path");
        }

        @Test
        @DisplayName("of() detects two providers with the same id and names both classes")
        void ofDuplicates() {
            FenceAgentRegistry registry = FenceAgentRegistry.of(
                    new FirstIpmiProvider(), new SecondIpmiProvider(), new AlphaProvider());

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.duplicates()).containsExactly(Map.entry("ipmi",
                    List.of(name(FirstIpmiProvider.class), name(SecondIpmiProvider.class))));
            assertThatThrownBy(() -> registry.provider("ipmi"))
                    .isInstanceOf(DuplicateAgentException.class)
                    .hasMessageContaining(name(FirstIpmiProvider.class))
                    .hasMessageContaining(name(SecondIpmiProvider.class));
        }

        @Test
        @DisplayName("of() with the same provider class twice is still a duplicate")
        void ofSameClassTwice() {
            FenceAgentRegistry registry = FenceAgentRegistry.of(new AlphaProvider(), new AlphaProvider());

            assertThat(registry.types()).isEmpty();
            assertThat(registry.duplicates().get("alpha")).hasSize(2);
            assertThatThrownBy(() -> registry.provider("alpha")).isInstanceOf(DuplicateAgentException.class);
        }

        @Test
        @DisplayName("of() checks providers as load() does: invalid ids and newer SPI versions are failures")
        void ofChecksProviders() {
            FenceAgentRegistry registry = FenceAgentRegistry.of(
                    new BadTypeProvider(), new FutureSpiProvider(), new AlphaProvider());

            assertThat(registry.isClean()).isFalse();
            assertThat(registry.types()).containsExactly("alpha");
            assertThat(registry.failures()).extracting(DiscoveryFailure::provider)
                    .containsExactlyInAnyOrder(name(BadTypeProvider.class), name(FutureSpiProvider.class));
        }

        @Test
        @DisplayName("of() checks the fencing kind against the actions as load() does")
        void ofChecksKinds() {
            FabricProvider fabric = new FabricProvider();

            FenceAgentRegistry registry = FenceAgentRegistry.of(
                    fabric, new RebootingFabricProvider(), new PoweringSoftProvider());

            assertThat(registry.provider("fabric")).isSameAs(fabric);
            assertThat(registry.types()).containsExactly("fabric");
            assertThat(registry.failures()).extracting(DiscoveryFailure::provider).containsExactlyInAnyOrder(
                    name(RebootingFabricProvider.class), name(PoweringSoftProvider.class));
        }

        @Test
        @DisplayName("of() accepts only well-formed type ids")
        void typeIdPattern() {
            List<String> good = List.of("a", "ipmi", "fence-kube", "redfish2", "a-1-b");
            List<String> bad = Arrays.asList("", "IPMI", "1ipmi", "-ipmi", "ipmi_tool", "ipmi tool", "ipmí", null);
            for (String type : good) {
                assertThat(FenceAgentRegistry.of(provider(type)).types()).as(type).containsExactly(type);
            }
            for (String type : bad) {
                FenceAgentRegistry registry = FenceAgentRegistry.of(provider(type));
                assertThat(registry.types()).as(String.valueOf(type)).isEmpty();
                assertThat(registry.failures()).as(String.valueOf(type)).singleElement()
                        .satisfies(f -> assertThat(f.reason()).contains("invalid type id"));
            }
        }

        @Test
        @DisplayName("provider(null) is refused")
        void nullType() {
            FenceAgentRegistry registry = FenceAgentRegistry.of(new AlphaProvider());

            assertThatThrownBy(() -> registry.provider(null)).isInstanceOf(NullPointerException.class);
        }

        private FenceAgentProvider provider(String type) {
            return new TestProvider(type) {
            };
        }
    }
}
