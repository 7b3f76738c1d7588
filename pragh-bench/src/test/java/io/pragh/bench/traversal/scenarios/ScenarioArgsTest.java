package io.pragh.bench.traversal.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.traversal.Mode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioArgsTest {
    @Test
    void aScenariosDefaultsGiveWayToTheUsersFlags() {
        assertEquals(0.5, ScenarioArgs.parse(new PutLatencyCdf()).config().getRatio());
        assertEquals(0.8, ScenarioArgs.parse(new PutLatencyCdf(), "--get-ratio", "0.8").config().getRatio());
        ScenarioArgs sweep = ScenarioArgs.parse(new ScopeSweep(), "--machines", "3", "--scopes", "5,7");
        assertEquals(List.of(Mode.ORIG, Mode.SPLIT_CACHE), sweep.config().modes());
        assertEquals(List.of(5, 7), sweep.integers("--scopes", 0, 30));
        assertEquals(3, sweep.configWith("--scope", "32").machines(), "a re-parse keeps the user's flags");
        assertEquals(32, sweep.configWith("--scope", "32").scope());
        assertEquals("5,7", sweep.asMap().get("scopes"));
        assertEquals(3, sweep.asMap().get("machines"));
    }

    @Test
    void badFlagsAreRefusedByNameInOneLine() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> ScenarioArgs.parse(new DynamicWorkload(), "--windowz", "3"));
        assertEquals("unknown flag '--windowz'", unknown.getMessage());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ScenarioArgs.parse(new ScopeSweep(), "--scope", "64"));
        assertTrue(refused.getMessage().startsWith("--scope is not a flag of bench scope-sweep"), refused.getMessage());
        ScenarioArgs twice = ScenarioArgs.parse(new ScopeSweep(), "--scopes", "4,4");
        assertThrows(IllegalArgumentException.class, () -> twice.integers("--scopes", 0, 30));
        ScenarioArgs tick = ScenarioArgs.parse(new DynamicWorkload(), "--tick", "0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tick.decimal("--tick", 0.01));
        assertEquals("--tick 0 is invalid: must be >= 0.01", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ScenarioArgs.parse(new DynamicWorkload(), "--windows"));
    }

    @Test
    void theUsageNamesTheRefusedFlagsOnlyWhenThereAreAny() {
        assertTrue(ScenarioCommand.usage(new ScopeSweep()).contains("except --scope"));
        assertFalse(ScenarioCommand.usage(new PutLatencyCdf()).contains("except"));
    }
}
