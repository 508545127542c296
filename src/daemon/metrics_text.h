/* SPDX-License-Identifier: ISC */
/*
 * metrics_text.h -- numbers in Prometheus' text format, written the
 * shortest way that reads back as the same double: 1000 (an integer as
 * one), 0.25, 2.763e-06, never 2.7630000000000001e-06 (what "%.17g"
 * alone writes).
 */
#ifndef METRICS_TEXT_H
#define METRICS_TEXT_H

#include <stddef.h>

/* v into buf (at least 32 bytes): "%.Ng" with the least N that is exact. */
void	metrics_number(char *buf, size_t size, double v);

#endif /* METRICS_TEXT_H */
