#ifndef CMAPGUARD_H
#define CMAPGUARD_H

#include <stddef.h>

/// Maps the open file `descriptor` (`length` bytes, read only) so that a read past its end,
/// after another process shortened the file, doesn't end the process with SIGBUS: the page
/// read is replaced by zeros and the mapping is marked cut. Returns the mapping's start, or
/// NULL when it can't be mapped or guarded (`*slot` is then -1).
const void *_Nullable map_guard_map(int descriptor, size_t length, int *_Nonnull slot);

/// Whether a read of the mapping in `slot` found part of its file gone.
int map_guard_was_cut(int slot);

/// Unmaps the mapping in `slot` (`start`, `length` as mapped) and frees the slot.
void map_guard_unmap(int slot, const void *_Nonnull start, size_t length);

#endif
