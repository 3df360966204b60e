/**
 * What the harnesses share about the JIT: the CPU its compiler threads use, and a warm-up that lasts
 * until they are quiet, so that no client or server is measured while it is still being compiled.
 */
package dev.grizzlyboot.benchmarks.jit;
