package io.bulwark.api.telemetry;

/** One sample of a series: when it was taken (milliseconds since the epoch) and its value. */
public record Sample(long timestampMillis, double value) {}
