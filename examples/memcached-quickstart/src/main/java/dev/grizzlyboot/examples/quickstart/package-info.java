/**
 * A tour of the plain-Java memcached client: single and bulk operations with their timings.
 */
package dev.grizzlyboot.examples.quickstart;
