package dev.grizzlyboot.memcached.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.grizzlyboot.memcached.cluster.ServerAddress;
import dev.grizzlyboot.memcached.cluster.ServerListChange;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Five clients under load while the server list changes: every routing sample of every client
 * is wholly the old ring or wholly the new one, each client goes old to new exactly once, and all
 * of them switch within the tolerance of the agreed T.
 */
class RoutingUnderChangeTest {

    private static final Logger log = LoggerFactory.getLogger(RoutingUnderChangeTest.class);
    private static final int KEYS = 64;
    private static final int MAX_OPERATIONS = 200_000;

    @RegisterExtension
    static ZooKeeperExtension zooKeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(4);

    /** One observation: when (local ms), which list the client had before and after, and the owners seen. */
    private record Sample(long atMillis, List<ServerAddress> before, List<ServerAddress> after, List<ServerAddress> owners) {
    }

    @Test
    void everyClientRoutesByTheOldOrTheNewRingAndAllSwitchTogether() throws Exception {
        List<String> oldList = memcached.addresses().subList(0, 3);
        List<String> newList = memcached.addresses().subList(1, 4);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            keys.add("routing-" + i);
        }
        List<TestMember> members = new ArrayList<>();
        ExecutorService threads = Executors.newCachedThreadPool();
        AtomicBoolean stop = new AtomicBoolean();
        try {
            for (int i = 0; i < 5; i++) {
                members.add(TestMember.join(zooKeeper.connectString(), "routing", "m" + i, oldList));
            }
            List<ServerAddress> oldOwners = keys.stream().map(members.get(0).client::ownerOf).toList();
            ServerListChange preview = members.get(0).client.prepareServers(newList);
            List<ServerAddress> newOwners = keys.stream().map(preview::ownerOf).toList();
            preview.discard();
            assertThat(newOwners).as("the change moves keys").isNotEqualTo(oldOwners);

            AtomicLong operations = new AtomicLong();
            AtomicLong failures = new AtomicLong();
            List<Future<?>> load = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                load.add(threads.submit(() -> {
                    int i = 0;
                    while (!stop.get() && operations.incrementAndGet() < MAX_OPERATIONS) {
                        TestMember member = members.get(i % members.size());
                        String key = keys.get(i % KEYS);
                        try {
                            member.client.blocking().set(key, "v" + i, Duration.ofMinutes(1));
                            member.client.blocking().get(key);
                        } catch (RuntimeException e) {
                            failures.incrementAndGet();
                        }
                        i++;
                    }
                }));
            }
            Map<Integer, List<Sample>> samples = new HashMap<>();
            Future<?> sampler = threads.submit(() -> {
                for (int i = 0; i < members.size(); i++) {
                    samples.put(i, new ArrayList<>());
                }
                while (!stop.get()) {
                    for (int i = 0; i < members.size(); i++) {
                        var client = members.get(i).client;
                        List<ServerAddress> before = client.servers();
                        List<ServerAddress> owners = keys.stream().map(client::ownerOf).toList();
                        samples.get(i).add(new Sample(System.currentTimeMillis(), before, client.servers(), owners));
                    }
                }
            });

            await().atMost(TestMember.AWAIT).until(() -> operations.get() > 2_000);
            members.get(2).sync.proposeServers(newList, 1);
            await().atMost(TestMember.AWAIT).until(() -> members.stream().allMatch(member -> member.state().version() == 2));
            long commitAt = members.get(0).awaitSwitch(2).commitAtMillis();
            // Keep sampling a little past the switch.
            long sampledUntil = commitAt + 300;
            await().atMost(TestMember.AWAIT).until(() -> System.currentTimeMillis() > sampledUntil);
            stop.set(true);
            sampler.get(10, TimeUnit.SECONDS);
            for (Future<?> worker : load) {
                worker.get(10, TimeUnit.SECONDS);
            }

            List<ServerAddress> oldServers = ServerAddress.parseAll(oldList);
            List<ServerAddress> newServers = ServerAddress.parseAll(newList);
            List<Long> switchOffsets = new ArrayList<>();
            for (int i = 0; i < members.size(); i++) {
                List<Sample> seen = samples.get(i);
                assertThat(seen).as("samples of m%d", i).hasSizeGreaterThan(10);
                boolean switched = false;
                for (Sample sample : seen) {
                    boolean isNew;
                    if (sample.before().equals(sample.after())) {
                        // No switch during this sample: every key by exactly that list's ring.
                        isNew = sample.before().equals(newServers);
                        assertThat(isNew || sample.before().equals(oldServers)).as("m%d list", i).isTrue();
                        assertThat(sample.owners()).as("m%d owners at %d", i, sample.atMillis())
                                .isEqualTo(isNew ? newOwners : oldOwners);
                    } else {
                        // The switch happened mid-sample: each key by one of the two rings.
                        for (int k = 0; k < KEYS; k++) {
                            assertThat(sample.owners().get(k)).isIn(oldOwners.get(k), newOwners.get(k));
                        }
                        isNew = true;
                    }
                    assertThat(!switched || isNew).as("m%d never goes back to the old ring", i).isTrue();
                    // A stall cannot make a member switch early (a sample is stamped after it reads the
                    // ring), so only the check after T allows for the stalls between T and the sample.
                    if (sample.atMillis() < commitAt - TestMember.SWITCH_TOLERANCE_MILLIS) {
                        assertThat(isNew).as("m%d on the new ring before T", i).isFalse();
                    }
                    if (sample.atMillis() > commitAt + TestMember.switchTolerance(commitAt, sample.atMillis())) {
                        assertThat(isNew).as("m%d still on the old ring after T", i).isTrue();
                    }
                    switched = isNew;
                }
                assertThat(switched).as("m%d ends on the new ring", i).isTrue();
                switchOffsets.add(members.get(i).awaitSwitch(2).appliedAtMillis() - commitAt);
            }
            log.info("{} operations under the change ({} failed); switch ms after T per client: {}; tolerances: {}",
                    operations.get(), failures.get(), switchOffsets,
                    switchOffsets.stream().map(offset -> TestMember.switchTolerance(commitAt, commitAt + offset)).toList());
            assertThat(switchOffsets).allSatisfy(offset -> assertThat(Math.abs(offset))
                    .isLessThanOrEqualTo(TestMember.switchTolerance(commitAt, commitAt + offset)));
            assertThat(failures.get()).as("operations failed during the change").isZero();
        } finally {
            stop.set(true);
            threads.shutdownNow();
            members.forEach(TestMember::close);
        }
    }
}
