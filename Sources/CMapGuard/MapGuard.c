// A guard for mapped files that another process may shorten while a build reads them.
//
// Reading a page of a mapping past the end of its (now shorter) file raises SIGBUS. The
// handler below looks the faulting address up among the guarded mappings; when it is one of
// them, it maps a page of zeros in place of the missing one, marks the mapping cut, and
// returns, so the read goes on and sees zeros. The readers check every byte they trust
// (checksums, line formats) and ask `map_guard_was_cut` before they act on what they read.
// A fault outside every guarded mapping goes to the handler that was there before.
//
// Only async-signal-safe calls are made in the handler: atomics, `mmap` and `sigaction`.

#include "CMapGuard.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { slotCount = 64 };

/// A guarded mapping: `start` is claimed first (0 when the slot is free), `end` set once
/// the mapping is whole, so the handler never matches a slot being filled or freed.
static struct {
    _Atomic uintptr_t start;
    _Atomic uintptr_t end;
    _Atomic int cut;
} slots[slotCount];

static struct sigaction previous;
static uintptr_t pageSize;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void onBusError(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; index < slotCount; index++) {
        uintptr_t start = atomic_load(&slots[index].start);
        uintptr_t end = atomic_load(&slots[index].end);
        if (start == 0 || address < start || address >= end) continue;
        void *page = (void *)(address & ~(pageSize - 1));
        if (mmap(page, pageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
        atomic_store(&slots[index].cut, 1);
        return;
    }
    // Not a guarded mapping's: the previous handler, or the default action, takes it.
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) {
            previous.sa_sigaction(signal, info, context);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
        return;
    }
    // Returning runs the faulting read again, which now ends the process as it would have.
    sigaction(SIGBUS, &previous, NULL);
}

static void install(void) {
    pageSize = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = onBusError;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

const void *map_guard_map(int descriptor, size_t length, int *slot) {
    *slot = -1;
    if (length == 0) return NULL;
    pthread_once(&installed, install);
    for (int index = 0; index < slotCount; index++) {
        uintptr_t empty = 0;
        if (!atomic_compare_exchange_strong(&slots[index].start, &empty, UINTPTR_MAX)) continue;
        void *start = mmap(NULL, length, PROT_READ, MAP_PRIVATE, descriptor, 0);
        if (start == MAP_FAILED) {
            atomic_store(&slots[index].start, 0);
            return NULL;
        }
        atomic_store(&slots[index].cut, 0);
        atomic_store(&slots[index].start, (uintptr_t)start);
        atomic_store(&slots[index].end, (uintptr_t)start + length);
        *slot = index;
        return start;
    }
    return NULL;
}

int map_guard_was_cut(int slot) {
    return slot >= 0 && slot < slotCount && atomic_load(&slots[slot].cut);
}

void map_guard_unmap(int slot, const void *start, size_t length) {
    if (slot < 0 || slot >= slotCount) return;
    atomic_store(&slots[slot].end, 0);
    munmap((void *)start, length);
    atomic_store(&slots[slot].start, 0);
}
