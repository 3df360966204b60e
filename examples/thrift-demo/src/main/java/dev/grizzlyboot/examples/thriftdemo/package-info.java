/**
 * The Thrift demo: a Spring Boot application that serves a {@code @ThriftService} handler and calls
 * it through a client bean defined in {@code application.yml}, then prints the results, the health
 * JSON and the Thrift meters.
 */
package dev.grizzlyboot.examples.thriftdemo;
