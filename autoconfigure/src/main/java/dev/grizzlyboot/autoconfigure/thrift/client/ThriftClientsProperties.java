package dev.grizzlyboot.autoconfigure.thrift.client;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The named clients under {@code grizzly.thrift.clients}. A mutable bean filled in by Spring's
 * binder at start-up; not meant to change afterwards.
 */
@ConfigurationProperties("grizzly.thrift")
public class ThriftClientsProperties {

    /**
     * Thrift clients by bean name: each entry becomes a bean of its service's Iface type. Keys per
     * entry: servers, service, protocol, multiplexed-name, connect-timeout, read-timeout,
     * method-timeouts.<method>, idempotent-methods, max-connections, idle-timeout, retries,
     * ssl.bundle, ssl.verify-hostname.
     */
    private Map<String, ThriftClientProperties> clients = new LinkedHashMap<>();

    public Map<String, ThriftClientProperties> getClients() {
        return clients;
    }

    public void setClients(Map<String, ThriftClientProperties> clients) {
        this.clients = clients;
    }
}
