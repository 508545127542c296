/* SPDX-License-Identifier: ISC */
/*
 * cells.h -- cells in the protocol's rRcC notation, as both programs
 * write them: sudokud in its replies, sudokuc -L in the same replies.
 */
#ifndef CELLS_H
#define CELLS_H

#include <stddef.h>
#include <stdint.h>

/* All 81 cells' text: 81 of "rRcC", 80 commas and the NUL. */
#define CELLS_TEXT_MAX	(81 * 4 + 80 + 1)

/*
 * "r4c7,r9c1": the n cells (0 to 80, row-major) into buf of size
 * bytes, always terminated; cells that would not fit whole are left out
 * (none, with size CELLS_TEXT_MAX or more).
 */
void	cells_text(const uint8_t *cells, int n, char *buf, size_t size);

#endif /* CELLS_H */
